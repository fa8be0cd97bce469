"""Session options: an on/off switch for each advanced rule (S1-S10 are independent, the source says)
and each ambiguity the digest marks Opt (section 7), with the digest's default."""
from __future__ import annotations

from companion.engine import Option

from .rules import BORDER_REQUIRED

ON_OFF = ((True, "On"), (False, "Off"))


def _switch(key: str, label: str, rule: str, help: str) -> Option:
    return Option(key, label, rule, True, ON_OFF, help)


RULE_SWITCHES = (
    _switch("supply", "S1 Supply", "HD-5.1", "Stacks of 2+ units trace supply at the start of their turn."),
    _switch("command", "S2 Movement and command", "HD-4.1", "Marches come from the Command Table by year."),
    _switch("containment", "S3 Containment", "HD-5.4", "The CSA may contain Union landings in ports."),
    _switch("coastal_defence", "S4 Coastal defence", "HD-4.11", "CSA recruitment ports have a garrison."),
    _switch("washington", "S5 Capture of Washington", "HD-4.7", "Taking Washington costs the Union MM, "
            "and is not a win."),
    _switch("battle_command", "S6 Battle command", "HD-4.2", "The units firing each day come from the "
            "Command Table plus half the day before."),
    _switch("morale", "S7 Battlefield morale and rally (optional)", "HD-4.4", "Units flipped in a round "
            "check morale; one routed unit a side rallies each night."),
    _switch("desertion", "S7 Desertion and stragglers (optional)", "HD-4.6", "Reduced units check after "
            "each battle."),
    _switch("leaders", "S8 Leaders (optional)", "HD-5.7", "Lee, Grant and Sherman."),
    _switch("border_states", "S9 Border-state support (optional)", "HD-4.8", "Missouri, Kentucky and "
            "Maryland may send militia."),
    _switch("intervention", "S10 Foreign intervention (optional)", "HD-5.9", "Europe may intervene."),
)

OPTIONS = (
    *RULE_SWITCHES,
    Option("basic_victory", "Basic-game victory (public sources: confirm with your rulebook)", "HD-A26", False,
           ((False, "Off: shown for information, no win declared"),
            (True, "On, confirmed: USA MM below CSA MM, turn 40, the 7 Southern cities")),
           "The advanced rules state no victory; these conditions come from public sources of the basic game."),
    Option("border_required", "Border-state numbers to beat", "HD-4.8", dict(BORDER_REQUIRED),
           help="Missouri 3, Kentucky 1, Maryland 6 as the rules print them (Kentucky's 1 may be a misprint)."),
    Option("carry", "The carry to the next battle day", "HD-A3", "uncapped",
           (("uncapped", "Half the uncapped command (the 8 limits firing only)"),
            ("capped", "Half the command after capping it at 8"))),
    Option("leader_carry", "Leaders' rating in the carry", "HD-A4", "included",
           (("included", "Yes: the day's command includes the leaders"), ("excluded", "No: leaders added each day"))),
    Option("morale_timing", "When flipped units check morale", "HD-A5", "round_end",
           (("round_end", "At the end of the round"), ("after_fire", "Right after the enemy's fire"))),
    Option("steady_without_morale", "Desertion -1 for units not routed, morale rules off", "HD-A6", "all",
           (("all", "Applies to every unit (none can be routed)"), ("dropped", "Dropped"))),
    Option("routed_hit", "Routed units can take hits", "HD-A7", False,
           ((False, "No: they cannot take part in combat"), (True, "Yes"))),
    Option("desertion_leaders", "Several leaders in desertion", "HD-A8", "sum",
           (("sum", "Their ratings add up"), ("best", "The best rating only"))),
    Option("washington_loss", "Washington's rolled loss", "HD-A9", "replaces",
           (("replaces", "Replaces the normal 1-point loss"), ("adds", "Adds to the normal 1-point loss"))),
    Option("foraging", "Foraging", "HD-A11", "none",
           (("none", "No foraging: a stack out of supply loses 1"),
            ("manual", "Players may mark a box as foraged (no loss), each use logged with their reason"))),
    Option("leaders_count", "Leaders count toward the 2-unit supply threshold", "HD-A12", False,
           ((False, "No: leaders are not units"), (True, "Yes"))),
    Option("garrison_persistence", "Coastal garrison hits", "HD-A13", "fresh",
           (("fresh", "Each landing meets a fresh garrison"), ("persistent", "Hits stay on the port"))),
    Option("garrison_morale", "Coastal garrison morale", "HD-A13", "checks",
           (("checks", "It checks morale as one unit, at its grade, always -1 (entrenched)"),
            ("never", "It never checks morale"))),
    Option("border_attempts", "Border state 'once'", "HD-A14", "per_success",
           (("per_success", "Once per success: failed rolls may be tried again"),
            ("one_attempt", "One attempt only"))),
    Option("fi_condition_3", "FI condition 3", "HD-A15", "shared",
           (("shared", "The Union city of condition 2 also counts"), ("extra", "An extra Union city is needed"))),
    Option("march_trigger", "Basic triggers tied to the march die", "HD-A16", "raw",
           (("raw", "Read the raw d6 (Union naval invasion on a raw 6)"),
            ("result", "Read the table's march count"))),
    Option("supply_sources", "Supply sources", "HD-A17", "own",
           (("own", "Own-shield recruitment cities the side controls"),
            ("any", "Any recruitment city the side controls"))),
    Option("road_supply", "Roads carry supply", "HD-A18", False,
           ((False, "No: rail and river only"), (True, "Yes, as in the v3.1 rules"))),
    Option("fi_supply", "Foreign intervention supply", "HD-A19", "normal",
           (("normal", "Normal CSA rules"), ("sea", "Sea supply: a port feeds a stack with FI units"))),
    Option("fi_trigger", "Foreign intervention trigger", "HD-A21", "battle",
           (("battle", "The CSA must also win a battle that turn"), ("turn_start", "At the turn start, no battle"))),
    Option("leader_split", "A leader's points on firing units", "HD-A22", "any",
           (("any", "Any split of the rating"), ("capped", "On at most 2 units (Lee: 3)"))),
    Option("leader_moves", "Leaders moving alone", "HD-A23", "alone",
           (("alone", "With units or alone, no march spent; 2 march-moves a turn in all"),
            ("with_units", "Only with units; 2 march-moves a turn"))),
    Option("fort", "Whose fort gives the morale -1", "HD-A24", "holder",
           (("holder", "The side that held the fort when the battle began; no -1 for a containment attacker"),
            ("everyone", "Every unit in the fort box, the attacker included"))),
    Option("militia_year", "Militia morale (2 in 1861, 3 from 1862)", "HD-A25", "game",
           (("game", "By the current game year"), ("raised", "By the year the unit was raised"))),
    Option("supply_start", "Supply from a box the side does not control", "HD-A27", "start",
           (("start", "The line may start there: a rail or river line to a friendly box in a fed network"),
            ("friendly", "Every box of the line must be friendly: such a stack is out of supply"))),
)
