"""The turn guide (GC-4): at every point of a scripted session, what is due names a real action and a rule,
the action the table took is among the steps offered, and the title tells the phase."""
from __future__ import annotations

import pytest

from engines.galactic_chess import ENGINE
from engines.galactic_chess.example import example_setup
from engines.galactic_chess.guide import due_now, phase_title
from tests.engines.galactic_chess.support import Table
from tests.engines.galactic_chess.test_golden import SCRIPT


@pytest.mark.rule("GC-4", "GC-3", "GC-6B")
def test_the_guide_offers_what_the_table_does_next():
    table = Table(example_setup())
    titles = set()
    for kind, faces, params in SCRIPT:
        steps = due_now(table.state)
        assert steps and all(s.action in ENGINE.actions.table and s.rule in ENGINE.rules for s in steps)
        assert kind in {s.action for s in steps}, (kind, [s.action for s in steps])
        titles.add(phase_title(table.state).split(":")[0])
        table.do(kind, *faces, **params)
    assert {"Setup", "Turn 1", "Turn 2", "Turn 3", "Turn 4"} <= titles


@pytest.mark.rule("GC-9.0")
def test_the_guide_is_silent_once_the_game_is_over():
    table = Table(example_setup())
    for dice in (6, 6, 5):                              # Cat takes deck 1's last card with no die (GC-3.1)
        table.do("deal_hand", *(1,) * dice)
    for _ in range(3):
        table.do("place")
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("use_card", card="Demo Commodore Dune")   # a 1-star admiral: no nation has a 2-star one (Q27)
    table.do("end_turn")                                # both collapse: the stars decide, EMP 1 against none
    assert due_now(table.state) == [] and phase_title(table.state).startswith("Game over: EMP wins")
