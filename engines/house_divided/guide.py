"""The phase guide: what the sequence of play (digest section 3) wants now, in plain words."""
from __future__ import annotations

from companion.engine import Due
from companion.spec import Choice

from . import battle as fight
from .actions import SEGMENT_NAMES, actions, lead
from .movement import garrison_due
from .rules import CSA, SIDE_NAME, USA
from .state import BATTLE, MOVEMENT, PROMOTION, RECRUITMENT, START, GameState
from .turn_end import return_due
from .turn_start import border_choices


def phase_title(state: GameState) -> str:
    if state.victory:
        return f"Game over: {state.victory.result}"
    title = f"{lead(state)} player turn: {SEGMENT_NAMES[state.segment]}"
    if state.battle is not None:
        b = state.battle
        title += f", battle at {b.box}: " + ("decided" if b.over else f"round {b.round}, day {b.day}")
    return title


OTHER_STEPS = {
    "adjust_mm": "An MM change your basic rules make (recruitment, cities ...).",
    "place_leader": "A leader enters at his counter's date, or comes back from captivity.",
    "flip_leader": "A leader's counter turns to its dated back face.",
    "move_leader": "A leader moves alone: no march spent, one of his 2 march-moves.",
    "entrench": "The units of a box entrench: one march.",
    "declare_containment": "CSA units in a port the Union took by landing contain it instead of giving battle.",
    "reinforce": "Units or leaders join the battle before a round's fire.",
}


def other_steps(state: GameState) -> list[Due]:
    """The actions open now that the sequence of play does not ask for: MM changes (HD-6.3), the leaders'
    counters (HD-5.7), a leader moving alone (A23), entrenching (HD-5.5), containment (HD-5.4), reinforcements
    (HD-3)."""
    specs = actions.specs
    return [Due(name, specs[name].label, text, specs[name].rule) for name, text in OTHER_STEPS.items()
            if specs[name].is_open(state)]


def due_now(state: GameState) -> list[Due]:
    """The steps open now, the required one first."""
    if state.victory:
        return []
    if state.washington_due:
        return [Due("washington_loss", "Washington has fallen", "Roll a d6: the Union MM falls by the die, "
                    "a 1 counting as 2.", "HD-4.7")]
    if state.battle is not None:
        return _battle_steps(state)
    return {START: _start, MOVEMENT: _movement, BATTLE: _battles, PROMOTION: _promotion,
            RECRUITMENT: _recruitment}[state.segment](state)


def _start(state: GameState) -> list[Due]:
    if state.options["supply"] and not state.supply_checked:
        return [Due("check_supply", "Supply check", "Each box with 2+ of your units traces a line of friendly "
                    "rail and river to 2 recruitment-city sources (the Union: or a port).", "HD-5.1")]
    if state.supply_due:
        return [Due("supply_loss", "Lose a unit to supply", f"Remove one unit of your choice in each of: "
                    f"{', '.join(state.supply_due)}.", "HD-5.1")]
    steps = []
    if state.side == CSA and state.options["border_states"]:
        for choice in border_choices(state):
            if isinstance(choice, Choice):
                steps.append(Due("border_state_roll", f"Border state: {choice.label}", "The CSA holds all its "
                                 "recruitment cities: roll for its support (optional).", "HD-4.8"))
    text = "Move on to movement" + ("; the FI conditions are noted" if state.side == CSA and
                                    state.options["intervention"] and not state.fi_triggered else "")
    return [Due("end_start", "End the start segment", text + ".", "HD-3"), *steps]


def _movement(state: GameState) -> list[Due]:
    if state.marches_left is None:
        if state.options["command"]:
            return [Due("roll_marches", "Roll for marches", f"The Command Table, {state.year}, "
                        f"{SIDE_NAME[state.side]} column.", "HD-4.1")]
        return [Due("set_marches", "Marches", "Enter the marches your basic rules give.", "HD-5.2")]
    steps = []
    if state.side == USA and not state.marched and state.marches_left:
        steps += [Due("breakout", f"Break out of {box}", "Win a battle first to leave; it costs a march.",
                      "HD-5.4") for box in state.contained if box not in state.broken_out]
    if state.marches_left:
        steps.append(Due("march", "March", f"{state.marches_left} marches left; each unit at most 2 a turn.",
                         "HD-5.2"))
    return [Due("end_movement", "End movement", "On to the battles.", "HD-3"), *steps]


def _battles(state: GameState) -> list[Due]:
    due = garrison_due(state)
    if due:
        return [Due("start_battle", f"The landing at {', '.join(due)}", "Every landing at a CSA recruitment port first "
                    "fights its coastal garrison, even with no CSA unit there.", "HD-4.11")]
    return [Due("start_battle", "Fight a battle", "Where your units meet the enemy (or landed at a port).", "HD-3"),
            Due("end_battles", "End the battle segment", "On to promotion.", "HD-3")]


def _promotion(state: GameState) -> list[Due]:
    steps = [Due("end_promotion", "End promotion", "On to recruitment.", "HD-3")]
    open_wins = [r for r in state.battles if r.winner and not r.promoted and not r.garrison_only and r.survivors]
    if open_wins:
        steps.append(Due("promote", "Promote", "Each battle's winner promotes one unit that fought: "
                         + "; ".join(f"{SIDE_NAME[r.winner]} at {r.box}" for r in open_wins) + ".", "HD-5.3"))
    return steps


def _recruitment(state: GameState) -> list[Due]:
    if state.options["intervention"] and return_due(state):
        return [Due("fi_return_rolls", "FI return rolls", "A d6 for each eliminated FI unit: 5-6 it is back "
                    "in Europe.", "HD-4.9")]
    return [Due("end_player_turn", "End the player turn", "Recruit by your basic rules first.", "HD-3"),
            Due("add_unit", "Recruit a unit", "New units by your basic rules"
                + (f"; {state.border_pool} border-state militia in the pool." if state.border_pool else "."), "HD-3")]


BATTLE_TEXT = {
    fight.COMMAND: ("battle_command", "Battle command", "Each side rolls: the Command Table plus half the day "
                    "before, plus its leaders. At most min(C, 8) units fire each round.", "HD-4.2"),
    fight.MORALE: ("morale_checks", "Morale checks", "Each unit flipped this round rolls: higher than its morale "
                   "routs (-1 in a fort or entrenched).", "HD-4.4"),
    fight.BETWEEN: ("next_round", "Next round", "Or a side retreats.", "HD-3"),
    fight.DESERTION: ("desertion_checks", "Desertion", "Each reduced unit that fought rolls: +1 if its side lost, "
                      "-1 if not routed, minus its leaders' rating.", "HD-4.6"),
}


def _battle_steps(state: GameState) -> list[Due]:
    battle = state.battle
    step = fight.due(state)
    if step.kind == fight.FIRE:
        cap = fight.limit(state, battle, step.side)
        how = ("roll with your basic numbers" if state.basic.filled else
               "basic fire is unconfigured: enter the hits you scored, or fill the basic-rules form")
        steps = [Due("fire" if state.basic.filled else "record_fire", f"{SIDE_NAME[step.side]} fires",
                     f"Up to {cap} units; {how}.", "HD-4.10")]
    elif step.kind == fight.HITS:
        hits = battle.of(step.side).hits_due
        steps = [Due("take_hits", f"{SIDE_NAME[step.side]} takes {hits} hit{'s' if hits != 1 else ''}",
                     "Name a unit for each hit: the first flips it, the second eliminates it.", "HD-4.10")]
    else:
        steps = [Due(*BATTLE_TEXT[step.kind])]
    if step.kind == fight.BETWEEN:
        steps.append(Due("retreat", "Retreat", "The side that retreats loses the battle.", "HD-3"))
    for side in (battle.attacker, battle.sides[1].side):
        if fight.rally_open(state, side):
            steps.append(Due("rally", f"{SIDE_NAME[side]} rally", "Restore one routed unit before the new day.",
                             "HD-4.5"))
    return steps
