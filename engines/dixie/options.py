"""Session options: every advanced rule (13.1-13.9) and the historical battle (14.0) switchable, and each
ambiguity of digest section 7 that is marked as selectable, with the digest's default."""
from __future__ import annotations

from companion.engine import Option

ON_OFF = ((False, "Off"), (True, "On"))


def _rule(key: str, label: str, rule: str, help: str = "") -> Option:
    return Option(key, label, rule, False, ON_OFF, help)


OPTIONS = (
    _rule("melee", "13.1 Melee", "DX-13.1"),
    _rule("enfilade", "13.2 Enfilade", "DX-13.2"),
    _rule("flank_attack", "13.3 Flank attack", "DX-13.3"),
    _rule("counter_battery", "13.4 Counter-battery", "DX-13.4"),
    _rule("artillery_support", "13.5 Artillery support", "DX-13.5"),
    _rule("decoys", "13.6 Decoys", "DX-13.6"),
    _rule("corps_command", "13.7 Corps command", "DX-13.7"),
    _rule("extended_line", "13.8 Extended line (5 positions)", "DX-13.8"),
    _rule("custom_decks", "13.9 Custom battle decks (battle points)", "DX-13.9"),
    _rule("historical", "14.0 Historical 3-day battle", "DX-14.0"),
    Option("capture_flips_stance", "A captured position", "DX-11.1b", True,
           ((True, "Becomes a defending position for the captor"),
            (False, "Cards in an enemy-line position are always attacking (older FAQ)"))),
    Option("long_range_from_enemy_line", "Long range also from a held enemy-line position", "DX-7.2", False,
           ON_OFF),
    Option("melee_all_units", "Units in a melee", "DX-13.1", True,
           ((True, "All units of both sides in the position"), (False, "The initiator names its units"))),
    Option("art_leader_in_melee", "Artillery leader's +1 CV in melee", "DX-13.1", True, ON_OFF),
    Option("enfilade_clear_captures", "A position emptied by enfilade", "DX-13.2", False,
           ((False, "Is not captured: presence is still needed"), (True, "Counts as captured"))),
    Option("flank_any_position", "Flank attack into any position", "DX-13.3", False,
           ((False, "Flank positions (L/R) only"), (True, "Any position"))),
    Option("flank_leader_check", "The accompanying leader", "DX-13.3", False,
           ((False, "Goes with the group without a check"),
            (True, "Checks too, at its attack rating"))),
    Option("counter_battery_firers", "Who may single out enemy artillery", "DX-13.4", "any",
           (("any", "Long-range artillery (face-up target) or any engaged firer"),
            ("artillery", "Artillery only"))),
    Option("disorder_one_at_a_time", "Disorder checks", "DX-8.3a", False,
           ((False, "Every unit checks, round by round"), (True, "One card at a time until within the limit"))),
    Option("decoys_absorb_hits", "Decoys under long-range fire", "DX-13.6", True,
           ((True, "In the levelling pool: a hit eliminates the decoy"), (False, "Not in the pool"))),
    Option("decoy_stacking", "Decoys for stacking", "DX-13.6", "real_type",
           (("real_type", "Count by their real type"), ("as_unit", "Each counts as a unit"))),
    Option("wing_claim_overrides", "A wing commander's claim", "DX-13.7", True,
           ((True, "Overrides a 3-star designation while Meade is absent"), (False, "Designations are final"))),
    Option("divisional_command", "13.7 option: divisional command", "DX-13.7", False, ON_OFF),
    Option("combat_order_by", "'Finish one position' means", "DX-7.0", "target",
           (("target", "The target position"), ("firer", "The firing position"))),
    Option("melee_other_hits", "Hits from other fire on units in a melee position", "DX-13.1", "all",
           (("all", "All are checked in the melee's checks at once, terrain ignored"),
            ("melee_only", "Only melee hits are checked at once; the others in the owner's morale step"),
            ("all_terrain_for_fire", "All are checked at once; the others' checks keep the terrain"))),
    Option("terrain_into_enemy_held", "Terrain into an own-line position held by the enemy", "DX-10.2", False,
           ((False, "Not allowed: the position must hold no enemy units"), (True, "Allowed (the literal reading)"))),
    Option("no_disengage_destination", "A unit that must disengage and has nowhere to go", "DX-8.2", "stay",
           (("stay", "Stays where it is; the melee or the day's disengagement ends for it"),
            ("eliminate", "Is eliminated"))),
    Option("day1_cards_only", "14.0 option: day-1 muster and reinforcements only cards marked (1)", "DX-14.0",
           False, ON_OFF),
)
