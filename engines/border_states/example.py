"""EXAMPLE board: the rules' eight border states with INVENTED values everywhere the source is silent.

The home-state names, recruitment values, combat numbers, VP, adjacency, damage track, distrust loop,
action counts and piece counts below are invented for trying the companion; only the border-state
names, West Virginia being a Union-side state, and the two cards "Army of the Potomac" and
"T.J. Jackson" come from the rules text. Enter your own board file to play.
"""
from __future__ import annotations

from .rules import C, U

LABEL = "Example board: invented values (only the state names and two cards come from the rules); enter your own"


def example_board() -> dict:
    homes_u = [f"Union home {i}" for i in range(1, 7)]
    homes_c = [f"CSA home {i}" for i in range(1, 6)]
    borders = [  # name, own side, combat number, VP (sides other than West Virginia's are a guess)
        ("West Virginia", U, 1, 2), ("Maryland", U, 2, 3), ("Virginia", C, 3, 3), ("North Carolina", C, 4, 2),
        ("Kentucky", U, 5, 3), ("Tennessee", C, 6, 3), ("Missouri", U, 7, 2), ("Arkansas", C, 8, 1),
    ]
    areas = [{"name": n, "side": s, "border": True, "number": k, "vp": vp} for n, s, k, vp in borders]
    areas += [{"name": n, "side": U, "border": False, "success": 3 + i % 3} for i, n in enumerate(homes_u)]
    areas += [{"name": n, "side": C, "border": False, "success": 3 + i % 3} for i, n in enumerate(homes_c)]
    adjacency = [
        ("West Virginia", "Maryland"), ("West Virginia", "Virginia"), ("Maryland", "Virginia"),
        ("Virginia", "North Carolina"), ("Kentucky", "Tennessee"), ("Kentucky", "Missouri"),
        ("Missouri", "Arkansas"), ("Tennessee", "Arkansas"), ("Kentucky", "West Virginia"),
        ("Tennessee", "North Carolina"),
        ("Union home 1", "Maryland"), ("Union home 2", "West Virginia"), ("Union home 3", "Kentucky"),
        ("Union home 4", "Missouri"), ("Union home 5", "Union home 1"), ("Union home 6", "Union home 3"),
        ("CSA home 1", "Virginia"), ("CSA home 2", "North Carolina"), ("CSA home 3", "Tennessee"),
        ("CSA home 4", "Arkansas"), ("CSA home 5", "CSA home 1"),
    ]
    return {
        "example": LABEL,
        "areas": areas,
        "adjacency": [list(p) for p in adjacency],
        "damage_u": [{"force_cut": c, "star": s} for c, s in ((0, 1), (1, 2), (1, 3), (2, 4))],
        "damage_c": [{"force_cut": c, "star": s} for c, s in ((0, 1), (1, 2), (1, 3), (2, 4))],
        "distrust_length": 6,
        "commanders": {
            C: [{"name": "Robert E. Lee", "actions": 4, "ability": "+1 die at the start of a combat"},
                {"name": "Robert E. Lee (fatigued)", "actions": 3}],
            U: [{"name": "George B. McClellan", "actions": 3}, {"name": "Union commander 2", "actions": 3},
                {"name": "Union commander 3", "actions": 4}, {"name": "Ulysses S. Grant", "actions": 4}],
        },
        "units": {C: 12, U: 14},
        "cards": {
            C: [{"name": "T.J. Jackson", "copies": 1, "phase": "combat", "effect": "ADD_FACE", "value": 6,
                 "text": "Add a die showing 6 to your throw"},
                {"name": "Example CSA card", "copies": 9, "phase": "combat", "effect": "FREE_TEXT",
                 "text": "Invented: resolve by hand"}],
            U: [{"name": "Army of the Potomac", "copies": 1, "phase": "combat", "effect": "ADD_STOCK_DICE",
                 "value": 1, "text": "+1 die from the stock at the start of a combat"},
                {"name": "Example Union card", "copies": 9, "phase": "combat", "effect": "FREE_TEXT",
                 "text": "Invented: resolve by hand"}],
        },
    }


EXAMPLE_DEPLOYMENT = {  # an example deployment on the example board
    C: {"Virginia": 2, "North Carolina": 2, "Tennessee": 2, "Arkansas": 2},
    U: {"West Virginia": 2, "Maryland": 2, "Kentucky": 2, "Missouri": 1},
}


def example_setup() -> dict:
    """The example board, deployed (the phase guide starts at round 1's draw)."""
    return {"board": example_board(), "deployment": EXAMPLE_DEPLOYMENT,
            "commanders": {C: "Virginia", U: "Maryland"}}
