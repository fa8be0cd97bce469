"""Golden transcript: the EXAMPLE game's first turn, scripted, its event log rendered as text (HD-3)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.engines.house_divided.support import TEST_BASIC, Table
from tests.engines.table import transcript_line

GOLDEN = Path(__file__).parent / "golden" / "example_turn_1.txt"

# (action, dice, parameters): the Union breaks out of P, the CSA loses two units to supply and attacks at R2.
SCRIPT = (
    ("configure_basic_rules", (), {"settings": TEST_BASIC}),
    ("check_supply", (), {}),
    ("end_start", (), {}),
    ("roll_marches", (6,), {}),
    ("breakout", (), {"box": "P"}),
    ("battle_command", (4, 2), {}),
    ("fire", (1, 6), {}),
    ("take_hits", (), {"units": ["CSA 9"]}),
    ("fire", (2,), {}),
    ("morale_checks", (3,), {}),
    ("next_round", (), {}),
    ("fire", (1, 1), {}),
    ("take_hits", (), {}),
    ("march", (), {"units": ["USA 4", "USA 5"], "to": "R2"}),
    ("march", (), {"units": ["USA 2", "USA 3"], "to": "U1"}),
    ("end_movement", (), {}),
    ("end_battles", (), {}),
    ("promote", (), {"unit": "USA 4"}),
    ("end_promotion", (), {}),
    ("end_player_turn", (), {}),
    ("check_supply", (), {}),
    ("supply_loss", (), {"unit": "CSA 5"}),
    ("supply_loss", (), {"unit": "CSA 7"}),
    ("end_start", (), {}),
    ("roll_marches", (3,), {}),
    ("march", (), {"units": ["CSA 1", "CSA 2"], "to": "R2"}),
    ("end_movement", (), {}),
    ("start_battle", (), {"box": "R2"}),
    ("battle_command", (5, 5), {}),
    ("fire", (2, 3), {}),
    ("take_hits", (), {"units": ["USA 4", "USA 5"]}),
    ("fire", (4, 6), {}),
    ("morale_checks", (5, 1), {}),
    ("retreat", (), {"side": "USA", "to": "P"}),
    ("desertion_checks", (2, 2), {}),
    ("end_battles", (), {}),
    ("promote", (), {"unit": "CSA 2"}),
    ("end_promotion", (), {}),
    ("end_player_turn", (), {}),
)


def transcript() -> str:
    """The event log of SCRIPT: one line per event with its rule IDs and dice."""
    table = Table()
    for kind, faces, params in SCRIPT:
        table.do(kind, *faces, **params)
    return "".join(transcript_line(event) + "\n" for event in table.events)


@pytest.mark.rule("HD-3", "HD-5.4", "HD-5.1", "HD-4.2", "HD-4.4", "HD-4.6", "HD-5.3")
def test_golden_example_turn():
    """HD-3: a whole game turn on the EXAMPLE map: supply, marches, a break-out battle, promotion, the CSA's
    supply losses, a battle with fire, hits, morale, a retreat and desertion, as the log tells them."""
    assert transcript() == GOLDEN.read_text(encoding="utf-8")
