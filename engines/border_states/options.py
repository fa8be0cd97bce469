"""Session options: the source's two variants and the digest's selectable ambiguities (section 7)."""
from __future__ import annotations

from companion.engine import Option

OPTIONS = (
    Option("supply_variant", "Supply variant: cap 20, start 18/20", "BS-D.8", False,
           ((False, "Cap 18; the CSA starts with 16, the Union with 18"), (True, "Cap 20; start 18 and 20"))),
    Option("initiative_bid", "Variant: hidden supply-dice bid for initiative", "BS-VAR.2", False,
           ((False, "A plain roll-off"), (True, "Each side grips supply dice and adds them to its roll"))),
    Option("double_loss", "Two units lost on a 'twice' win", "BS-CMB", "inclusive",
           (("inclusive", "S_w > S_l and S_w >= 2 S_l (1 v 0 counts)"),
            ("strict", "S_w > 2 S_l, and a loser with S = 0 loses 1"))),
    Option("damage_on_draw", "The damage step after a draw", "BS-CMB", True,
           ((True, "Applies"), (False, "Does not apply"))),
    Option("force_cut", "Force cuts on the damage track", "BS-VIC.3", "position",
           (("position", "The square the marker is on"), ("cumulative", "Every square crossed adds up"))),
    Option("sudden_round_4", "10 VP in round 4", "BS-VIC.2", False,
           ((False, "Round 4 only compares VP"), (True, "10 VP wins at once in round 4 too"))),
    Option("retreat_relieves", "A commander unit lost in a failed retreat", "BS-D.10", False,
           ((False, "No new commander (a retreat is not combat)"), (True, "The commander card advances"))),
    Option("entrench_moves", "Entrenchment when the unit leaves", "BS-D.5", False,
           ((False, "It is lost"), (True, "The state keeps it"))),
    Option("removed_to", "Removed units", "BS-D.11", "pool",
           (("pool", "Return to their owner's pool"), ("lost", "Are lost for good"))),
    Option("double_succession", "Two triggers in one combat", "BS-D.10", True,
           ((True, "The commander advances twice"), (False, "Once"))),
    Option("four_a_side", "Own-side border states a side", "BS-SETUP", False,
           ((False, "Each border state has a side; at least 3 a side for the deployment"),
            (True, "4 a side, for a board that shows it"))),
    Option("entrench_once", "The Entrench action in a state", "BS-D.5", "round",
           (("round", "Once per own-side border state per round, even after that unit has gone"),
            ("standing", "One entrenched unit at a time: another may entrench after the first has gone"))),
    Option("count_stock", "The 50 dice in the box", "BS-D.8", False,
           ((False, "Not counted"), (True, "Warn when the dice in play pass 50"))),
)
