"""EXAMPLE only: the digest's small invented map (test vector TV-12), not the game's map.

The real map is not in the source: players describe their own (gamemap.py). This example has the
seven boxes of TV-12 (R1, R2, R3, A, B, C, X) and four more invented boxes: a Union port, a CSA port
the Union took by landing (contested and contained), Washington (its 1 recruitment point is the
source's) and Europe. Units and names are invented too; Lee's rating 3 is the source's example; the MM
values are the Mayfair edition's starting track (digest section 10): check them against your own.
"""
from __future__ import annotations

import copy

LABEL = "EXAMPLE map and units, invented for the companion from a worked example of the rules: not the game's map"


def _box(id, name, alignment="neutral", rp=0, port=False, x=0.0, y=0.0) -> dict:
    return {"id": id, "name": f"Example {name}", "state": "Example", "alignment": alignment, "rp": rp,
            "port": port, "fort": False, "x": x, "y": y}


EXAMPLE_MAP = {
    "label": LABEL,
    "boxes": [
        _box("R1", "R1 (CSA recruitment city)", "CSA", 1, x=0.0, y=0.0),
        _box("A", "A", x=1.0, y=0.0),
        _box("R2", "R2 (CSA recruitment city)", "CSA", 1, x=2.0, y=0.0),
        _box("B", "B", x=1.0, y=-1.0),
        _box("C", "C", x=1.0, y=-2.0),
        _box("R3", "R3 (CSA recruitment port)", "CSA", 1, port=True, x=0.0, y=-2.0),
        _box("X", "X (Union-held, not a port)", x=-1.0, y=-1.0),
        _box("washington", "Washington", "USA", 1, x=-2.0, y=0.0),
        _box("U1", "U1 (Union port)", "USA", 2, port=True, x=-3.0, y=0.0),
        _box("P", "P (CSA port taken by landing)", "CSA", 0, port=True, x=3.0, y=0.0),
        _box("europe", "Europe (off-map box)", x=4.0, y=-2.0),
    ],
    "lines": [
        {"from": "R1", "to": "A", "type": "rail"},
        {"from": "A", "to": "R2", "type": "river"},
        {"from": "A", "to": "B", "type": "road"},
        {"from": "B", "to": "C", "type": "rail"},
        {"from": "C", "to": "R3", "type": "rail"},
        {"from": "R3", "to": "X", "type": "rail"},
        {"from": "X", "to": "R1", "type": "rail"},
        {"from": "washington", "to": "U1", "type": "rail"},
        {"from": "X", "to": "washington", "type": "road"},
        {"from": "R2", "to": "P", "type": "rail"},
    ],
}

EXAMPLE_CONTROL = {"R1": "CSA", "R2": "CSA", "R3": "CSA", "A": "CSA", "B": "CSA", "C": "CSA", "X": "USA",
                   "washington": "USA", "U1": "USA", "P": "USA"}


def _unit(name, side, box, grade="militia", arm="inf", entrenched=False) -> dict:
    return {"name": name, "side": side, "arm": arm, "grade": grade, "box": box, "entrenched": entrenched}


EXAMPLE_UNITS = [
    _unit("CSA 1", "CSA", "A"), _unit("CSA 2", "CSA", "A", "veteran"),
    _unit("CSA 3", "CSA", "C"), _unit("CSA 4", "CSA", "C"), _unit("CSA 5", "CSA", "C", arm="cav"),
    _unit("CSA 6", "CSA", "R3"), _unit("CSA 7", "CSA", "R3"),
    _unit("CSA 8", "CSA", "B"),
    _unit("CSA 9", "CSA", "P", entrenched=True),
    _unit("USA 1", "USA", "X"),
    _unit("USA 2", "USA", "washington"), _unit("USA 3", "USA", "washington", "veteran"),
    _unit("USA 4", "USA", "P"), _unit("USA 5", "USA", "P"),
]


def example_setup() -> dict:
    return {
        "label": LABEL,
        "map": copy.deepcopy(EXAMPLE_MAP),
        "control": dict(EXAMPLE_CONTROL),
        "units": [dict(u) for u in EXAMPLE_UNITS],
        "leaders": [{"name": "Lee", "front": 3, "box": "C"}],
        "mm": {"USA": 34, "CSA": 29},
        "year": 1861,
        "landed_ports": ["P"],
        "contained": ["P"],
    }
