"""Victory (DX-4.0): occupying 2 of the 3 enemy-line positions (3 of 5 with DX-13.8) wins at once, in either turn;
wiping out the defenders is not enough (A9 option: an enfiladed position counts)."""
from __future__ import annotations

import pytest

from engines.dixie.victory import needed, occupied
from tests.engines.dixie.support import Table, unit


@pytest.mark.rule("DX-4.0")
def test_occupying_two_enemy_positions_wins_at_once():
    """DX-4.0: the instant a side has units in 2 enemy-line positions without enemy units, it wins, even in the
    middle of its Movement step; after that every action is refused."""
    cards = [unit(1, "CSA"), unit(2, "CSA"), unit(3, "CSA"), unit(11, "USA")]
    table = Table(cards)
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-R", "CSA-3": "CSA-C", "USA-11": "USA-C"})
    table.to_step("movement")
    table.do("move", card="CSA-1", to="USA-R")
    assert occupied(table.state, "CSA") == ["USA-R"] and table.state.victory is None
    step = table.do("move", card="CSA-2", to="USA-L")
    assert table.state.victory.side == "CSA" and table.state.step == "over"
    assert step.summary.startswith("Turn 1 (CSA)")
    table.refuse("DX-4.0", "move", card="CSA-3", to="USA-C")
    table.refuse("DX-4.0", "end_movement")


@pytest.mark.rule("DX-4.0")
def test_victory_can_come_in_the_enemy_turn():
    """DX-4.0: when the USA pulls its last unit out of USA-C in its own turn, the CSA there and in USA-R wins."""
    cards = [unit(1, "CSA"), unit(2, "CSA"), unit(11, "USA")]
    table = Table(cards)
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-C", "USA-11": "USA-C"})
    table.to_step("movement")
    table.do("move", card="CSA-1", to="USA-R")
    table.do("move", card="CSA-2", to="USA-C")
    table.do("end_movement")
    table.do("reinforce")
    table.to_step("movement")
    table.do("move", card="USA-11", to="reserve")
    assert table.state.victory.side == "CSA" and table.state.active == "USA"


@pytest.mark.rule("DX-4.0", "DX-13.2")
def test_wiping_out_the_defenders_is_not_enough():
    """DX-4.0: a position emptied by fire is not occupied without your units there. A9 option: a position emptied
    by enfilade counts as captured."""
    cards = [unit(1, "CSA"), unit(2, "CSA"), unit(12, "USA", cv=1)]
    for option, wins in ((False, False), (True, True)):
        table = Table(cards, enfilade=True, enfilade_clear_captures=option)
        table.deploy({"CSA-1": "CSA-R", "CSA-2": "CSA-R", "USA-12": "USA-C"})
        table.to_step("movement")
        table.do("move", card="CSA-1", to="USA-L")
        table.next_turn()
        table.next_turn()
        table.to_step("combat")
        table.do("fire", 1, 1, 1, firers=["CSA-1"], target="USA-C")
        table.do("allocate_hits")
        assert table.card("USA-12").loc == "eliminated"
        assert (table.state.victory is not None) == wins
        assert sorted(occupied(table.state, "CSA")) == (["USA-C", "USA-L"] if wins else ["USA-L"])


@pytest.mark.rule("DX-4.0", "DX-13.8")
def test_the_extended_line_needs_three():
    """DX-13.8: with 5 positions a line, 3 enemy positions win."""
    cards = [unit(i, "CSA") for i in range(1, 4)] + [unit(11, "USA")]
    table = Table(cards, extended_line=True)
    table.deploy({"CSA-1": "CSA-1", "CSA-2": "CSA-2", "CSA-3": "CSA-3", "USA-11": "USA-1"})
    assert needed(table.state) == 3
    table.to_step("movement")
    table.do("move", card="CSA-1", to="USA-5")
    table.do("move", card="CSA-2", to="USA-4")
    assert table.state.victory is None
    table.do("move", card="CSA-3", to="USA-3")
    assert table.state.victory.side == "CSA"
