"""EXAMPLE roster: only the two units the source's play sheet still shows (BR-4.0, BR-7.0, BR-2.4).

Every other row of the play sheet is lost from the source: players enter their own. This example
is labelled as an example wherever it appears.
"""
from __future__ import annotations

LABEL = "Example roster: only the two units the rules text confirms; enter the rest from your play sheet"

EXAMPLE_ROSTER = (
    {"name": "Evans' Brigade", "side": "CSA", "entry_hex": "1", "entry_turn": 1, "max_sp": 3, "grey": False},
    {"name": "Burnside's Brigade", "side": "UNION", "entry_hex": "A", "entry_turn": 3, "max_sp": 4, "grey": False},
)


def example_setup() -> dict:
    return {"roster": [dict(row) for row in EXAMPLE_ROSTER], "example": LABEL}
