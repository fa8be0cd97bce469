"""Session options: the digest's selectable ambiguities (section 7) with their defaults, and the
optional draft of the opening hands (GC-12)."""
from __future__ import annotations

from companion.engine import Option

YES_NO = ((True, "Yes"), (False, "No"))

OPTIONS = (
    Option("draft", "Draft the opening hands", "GC-12", False,
           ((False, "Deal 6 cards each"), (True, "Deal 6, then keep 1 and pass the rest to the right"))),
    Option("forced_event_is_card", "A forced event drawn", "GC-6A.1", True,
           ((True, "Is the turn's card: no other card or plot"), (False, "Leaves the card or plot open"))),
    Option("attack_camp", "The attacking camp", "GC-6B.11", "any",
           (("any", "Any camp with an available fleet"),
            ("own", "A camp where the active player has an available fleet"))),
    Option("fortress_counts", "The fortress as a fleet", "GC-6B.3", True,
           ((True, "Counts toward the size and the bonus test"), (False, "Counts for neither"))),
    Option("fortress_sc", "The fortress as supreme commander", "GC-6B.2", False,
           ((False, "Never"), (True, "When its side has no admiral left"))),
    Option("rolloff_dice", "Roll-off dice", "GC-6B.4r", 1,
           ((1, "1d6 each, ties rolled again"), (2, "2d6 each, ties rolled again"))),
    Option("rolloff_scope", "How long a roll-off stands", "GC-6B.4r", "value",
           (("value", "For the tie at one strategy value: another value, or new SCs, roll afresh"),
            ("pair", "For every later tie while the same two SCs remain"))),
    Option("sc_on_departure", "An SC that retreats or escapes", "GC-6B.2", True,
           ((True, "Is replaced at once"), (False, "Stays SC; only a destroyed SC is replaced"))),
    Option("fortress_free_attack", "The fortress and the free attack", "GC-6B.6", False,
           ((False, "The fortress cannot make it"), (True, "The fortress may make it"))),
    Option("ground_vp", "Destroying an air/ground unit", "GC-6B.7", False,
           ((False, "Scores nothing"), (True, "Scores 1 VP"))),
    Option("escaped_block_bonus", "Escaped admirals", "GC-6B.7", False,
           ((False, "Count as retreated for the bonus"), (True, "Block the annihilation bonus"))),
    Option("support_limit", "Battle-support cards per engagement", "GC-11", "total",
           (("total", "1 in all"), ("per_side", "1 per side"))),
    Option("post_counter_plot", "Counter-plot against post plots", "GC-7.12", False,
           ((False, "None"), (True, "The commander, or the displaced or released fleet, counter-plots"))),
    Option("garrison_bonus", "The commander's player's +2", "GC-7.21", "garrison",
           (("garrison", "On dispatch and release rolls"), ("post_too", "Also on commander-post rolls"))),
    Option("collapse_check", "Military collapse", "GC-9.12", "every_turn",
           (("every_turn", "Checked from turn 1"), ("after_first_round", "Grace: checked after the first round"))),
    Option("reinhard_by_event", "Reinhard removed by an event", "GC-9.11", "as_plot",
           (("as_plot", "As a plot: the Baalat Treaty decides"), ("ignored", "The game goes on"))),
    Option("civil_war_abroad", "A nation in civil war", "GC-8.2", False,
           ((False, "May not attack abroad"), (True, "May attack the other nation too"))),
    Option("rebel_victory", "Rebels who won their civil war", "GC-9.2", "nation",
           (("nation", "Are the nation: they win for it and score their battle VP"),
            ("no_vp", "Are the nation, but score no battle VP"),
            ("whole", "Are the nation; each player adds his cliques of both its camps"))),
    Option("rebel_commander", "A commander who turns rebel", "GC-8.1", "loses_post",
           (("loses_post", "Loses the post; the fortress stays with the regulars"),
            ("takes_fortress", "Takes the fortress into the rebel camp"))),
)
