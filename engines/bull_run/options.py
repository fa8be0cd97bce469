"""Session options: the digest's selectable ambiguities (section 7), each with its default."""
from __future__ import annotations

from companion.engine import Option

from .rules import TERRAIN_COSTS, TURNS

OPTIONS = (
    Option("solitaire", "Solitaire (the companion plays the CSA)", "BR-9.0", True,
           ((True, "Solitaire: the CSA follows the action table"), (False, "Two players"))),
    Option("terrain_costs", "Terrain costs (editable)", "BR-8.1", dict(TERRAIN_COSTS),
           help="MP to enter a hex of each terrain; empty means the terrain may not be entered."),
    Option("beauregard_rolls", "Beauregard rolls", "BR-8.3", "per_phase",
           (("per_phase", "One roll per unit per movement phase"), ("per_attempt", "A roll at every attempt"))),
    Option("adjacency_awareness", "Awareness by adjacency", "BR-8.4a", "phase_start",
           (("phase_start", "Tested at the start of the CSA movement phase"), ("immediate", "At once"))),
    Option("farm_ford_first_turn", "First Farm Ford roll", "BR-8.4b", 1,
           tuple((t, f"Turn {t}") for t in range(1, TURNS + 1))),
    Option("unaware_column", "CSA not aware: action table", "BR-9.0", "none_column",
           (("none_column", "Use the None column"), ("always_a", "Order A, no roll"))),
    Option("recognised_south", "The CSA has recognised Union units south of Bull Run", "BR-9.0",
           "aware_or_contact",
           (("aware_or_contact", "Once aware of the flank march, or once a Union unit south of the run has been "
                                 "next to a CSA unit"),
            ("aware", "Only once aware of the flank march (BR-8.4a)"))),
    Option("symmetric_modifiers", "Combat modifiers", "BR-10.5", False,
           ((False, "The attacker's roll only"), (True, "Both rolls (symmetric)"))),
    Option("defended_may_attack", "A stack that only defended", "BR-10.2", True,
           ((True, "May still attack"), (False, "May not attack (it has been in combat)"))),
    Option("defence_after_attack", "A stack that attacked, then is attacked", "BR-10.1", True,
           ((True, "Still makes its one defensive roll"), (False, "One roll per stack per turn in all"))),
    Option("hesitation_per", "McDowell's hesitation", "BR-10.2", "stack",
           (("stack", "One roll per stack"), ("unit", "One roll per unit"))),
    Option("fire_sp", "A stack fires with", "BR-10.4", "turn_start",
           (("turn_start", "Its SP at the start of the turn"), ("combat_start", "Its SP at the start of the combat"))),
    Option("over_12", "A stack above 12 SP", "BR-10.4", "error",
           (("error", "Is not allowed to fire (off the table)"), ("use_11_12", "Fires on the 11-12 column"))),
    Option("bridge_counts", "Stone Bridge for retreat and the -2", "BR-11.1", False,
           ((False, "Fords only"), (True, "The bridge counts as a ford"))),
    Option("advance_by", "Who may advance", "BR-11.2", "attacker",
           (("attacker", "The attacker only"), ("winner", "The winner on either side"))),
    Option("ordered_attacks", "Solitaire CSA attacks under orders D and E", "BR-9.2", "always",
           (("always", "Every CSA stack next to a Union stack attacks"),
            ("stronger_only", "Under D or E, a CSA stack not stronger than its target need not attack"))),
    Option("lapsed_attack", "An attack whose target has gone", "BR-10.1", "lapses",
           (("lapses", "Lapses: the stack makes no attack this step"),
            ("new_target", "The stack may name another adjacent target"))),
    Option("objective_hold", "Holding an objective", "BR-3.0", "two_ends",
           (("two_ends", "Held at the end of turn t and of t+1"), ("one_end", "Held at the end of any turn"))),
)
