"""Disorder (DX-8.3a) after a stack-command leader is lost (DX-11.2) or a forced disengagement, and its odds."""
from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from companion.odds import fractions
from engines.dixie.advice import disorder_advice
from engines.dixie.disorder import chain
from tests.engines.dixie.support import Table, leader, unit

CARDS = [*(unit(i, "CSA", cv=3, morale="B") for i in range(1, 6)), leader(6, "CSA", 1, 1, stack_bonus=1),
         unit(11, "USA", "ART", cv=2, fp_long=2), unit(12, "USA")]


def lost_leader(**options) -> Table:
    """Five CSA units in CSA-L under a +1 stack leader; USA artillery gives the leader a hit (a natural 6) from
    across the Middle Ground; in CSA turn 3 the leader check kills it."""
    table = Table(CARDS, **options)
    table.deploy({**{f"CSA-{i}": "CSA-L" for i in range(1, 7)}, "USA-11": "USA-R", "USA-12": "USA-C"})
    table.next_turn()
    table.to_step("combat")
    table.do("fire", 6, 4, firers=["USA-11"], target="CSA-L")
    table.next_turn()
    table.do("check_leader", 6, card="CSA-6")
    return table


@pytest.mark.rule("DX-8.3a", "DX-11.2")
def test_losing_a_stack_leader_throws_the_position_into_disorder():
    """DX-11.2: with its +1 leader dead, CSA-L holds one unit too many: every unit checks morale (DX-8.3a);
    those that fail go to the reserve (not routed); if still over, the remaining ones check again."""
    table = lost_leader()
    assert table.card("CSA-6").loc == "eliminated"
    table.refuse("DX-8.3a", "end_morale")
    step = table.do("disorder", 1, 2, 3, 1, 2)           # morale 3: nobody fails
    assert "still over the limit" in step.summary
    table.refuse("DX-8.3a", "disorder", 1, 2, 3, 4, 5, card="CSA-1")
    table.do("disorder", 1, 2, 4, 5, 6)                  # three fail
    assert [table.card(f"CSA-{i}").loc for i in range(1, 6)] == ["CSA-L", "CSA-L", "reserve", "reserve", "reserve"]
    assert not table.card("CSA-3").face_up
    table.do("end_morale")


@pytest.mark.rule("DX-8.3a")
def test_one_card_at_a_time_option():
    """A13 option: the cards check one at a time, the owner choosing, until the position is within its limit."""
    table = lost_leader(disorder_one_at_a_time=True)
    table.do("disorder", 2, card="CSA-2")
    assert table.card("CSA-2").loc == "CSA-L"
    table.do("disorder", 4, card="CSA-2")
    assert table.card("CSA-2").loc == "reserve"
    table.do("end_morale")


@pytest.mark.rule("DX-8.3a")
def test_disorder_chain_odds():
    """Digest section 8: the cards a disorder sends to the reserve, round after round. Five morale-3 units, one
    over: the first round with a failure decides, so P(k sent) = C(5,k)/2^5 / (1 - 1/2^5)."""
    d = fractions(chain((3,) * 5, 1))
    assert d == {k: F(comb(5, k), 32) / (1 - F(1, 32)) for k in range(1, 6)}
    table = lost_leader()
    assert fractions(disorder_advice(table.state, "CSA", "CSA-L")) == d
    two_over = fractions(chain((3, 3), 2))
    assert two_over == {2: 1}
    one_by_one = fractions(chain((3, 3), 1, True))
    assert one_by_one == {1: 1}


@pytest.mark.rule("DX-8.3a", "DX-13.1")
def test_a_forced_disengagement_can_cause_disorder():
    """DX-8.3a: an initiator that has not won after round 2 disengages (DX-13.1); from the enemy line its only way
    is across the Middle Ground, here into a full position, which goes into disorder at once."""
    cards = [*(unit(i, "CSA") for i in range(1, 7)), unit(11, "USA", cv=4, morale="A")]
    table = Table(cards, melee=True)
    table.deploy({"CSA-1": "CSA-R", "CSA-2": "CSA-R", "CSA-3": "CSA-R", "CSA-5": "CSA-R", "USA-11": "USA-L"})
    table.to_step("movement")
    table.do("move", card="CSA-5", to="USA-L")
    table.do("move", card="CSA-6", to="CSA-R")
    table.do("end_movement")
    table.do("reinforce")
    table.next_turn()
    table.to_step("combat")
    table.do("declare_melee", position="USA-L")
    for _ in range(2):
        table.do("melee_round", 5, 4, 4, 5, 5, 5, 4)
        table.do("check_hits")
        if table.state.melees[0].stage == "choice":
            table.do("melee_choice", fight=True)
            table.do("melee_choice", fight=True)
    table.do("withdraw")
    assert table.card("CSA-5").loc == "CSA-R"
    table.refuse("DX-8.3a", "end_combat")
    table.do("disorder", 1, 1, 1, 1, 6)
    assert table.card("CSA-6").loc == "reserve"
    table.do("end_combat")
