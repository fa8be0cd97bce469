"""Golden transcript: two scripted solitaire turns, their event log rendered as text (BR-5.1)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.engines.bull_run.support import Table
from tests.engines.table import transcript_line

GOLDEN = Path(__file__).parent / "golden" / "solitaire_turns_1_2.txt"

# (action, dice, parameters): a quiet turn 1, then a full turn 2.
SCRIPT = (
    ("roll_initiative", (2,), {}),
    ("place_reinforcements", (), {}),
    ("farm_ford_roll", (3,), {}),
    ("move", (), {"unit": "Union 3", "path": ["road", "road"]}),
    ("end_movement", (), {}),
    ("csa_action_roll", (2,), {"union_south_seen": False}),
    ("move", (3,), {"unit": "CSA 2", "path": ["ford"], "crossing": "ford"}),
    ("end_movement", (), {}),
    ("end_combat", (), {}),
    ("end_combat", (), {}),
    ("end_turn", (), {}),
    ("roll_initiative", (1,), {}),
    ("place_reinforcements", (), {}),
    ("farm_ford_roll", (5,), {}),
    ("move", (), {"unit": "Union 1", "path": ["ford"], "crossing": "sudley"}),
    ("move", (), {"unit": "Union 2", "path": ["ford"], "crossing": "farm"}),
    ("end_movement", (), {}),
    ("csa_action_roll", (4,), {"union_south_seen": False}),
    ("awareness_check", (6,), {}),
    ("move", (), {"unit": "Evans' Brigade", "path": ["road", "road"]}),
    ("move", (5,), {"unit": "CSA 2", "path": ["ford"], "crossing": "ford"}),
    ("end_movement", (), {}),
    ("declare_attack", (5,), {"attackers": ["Union 1", "Union 2"], "defenders": ["Evans' Brigade"],
                              "target_terrain": "woods"}),
    ("fire", (6, 5), {"attack": 0}),
    ("allocate_hits", (), {}),
    ("retreat_check", (4,), {}),
    ("retreat", (), {}),
    ("advance", (), {"advance": True}),
    ("end_combat", (), {}),
    ("declare_attack", (), {"attackers": ["CSA 3"], "defenders": ["Union 1", "Union 2"]}),
    ("fire", (5, 2), {"attack": 0}),
    ("allocate_hits", (), {}),
    ("retreat_check", (2,), {}),
    ("end_combat", (), {}),
    ("end_turn", (), {"union_holds_manassas": False, "csa_holds_centerville": False}),
)


def transcript() -> str:
    """The event log of SCRIPT: one line per event with its rule IDs and dice."""
    table = Table()
    for kind, faces, params in SCRIPT:
        table.do(kind, *faces, **params)
    return "".join(transcript_line(event) + "\n" for event in table.events)


@pytest.mark.rule("BR-5.1", "BR-9.0", "BR-10.1", "BR-11.1", "BR-11.2")
def test_golden_solitaire_turns():
    """BR-5.1: initiative, reinforcements, Farm Ford, moves, CSA action, awareness, a combat through fire, hits,
    retreat check, retreat and advance, the other side's combat, and the end of the turn, as the log tells them."""
    assert transcript() == GOLDEN.read_text(encoding="utf-8")
