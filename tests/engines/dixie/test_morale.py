"""Morale (DX-6.0), leader command (DX-11.1b, DX-13.7), terrain effects (DX-10.3) and the morale step (DX-11.3)."""
from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from companion.dice import ScriptedDice
from companion.odds import fractions
from engines.dixie.modifiers import morale
from engines.dixie.morale import MoraleInput, morale_odds, resolve_morale
from tests.engines.dixie.support import advanced, leader, terrain, unit


@pytest.mark.rule("DX-6.0")
def test_vector_02_a_2b_card_with_two_hits():
    """Vector 2 (DX-6.0): morale 2, two hits: each die 1-2 passes, 3-6 routs; P(survive) = (2/6)^2 = 1/9."""
    for a, b in product(range(1, 7), repeat=2):
        result = resolve_morale(MoraleInput(2, 2), ScriptedDice([a, b]))
        assert result.outcome == ("holds" if a <= 2 and b <= 2 else "routs")
    assert fractions(morale_odds(MoraleInput(2, 2))) == {"holds": F(1, 9), "routs": F(8, 9)}


@pytest.mark.rule("DX-6.0")
@pytest.mark.parametrize("value, holds, passing", [(0, F(1, 6), {1}), (-3, F(1, 6), {1}), (7, F(5, 6), {1, 2, 3, 4, 5}),
                                                   (5, F(5, 6), {1, 2, 3, 4, 5}), (3, F(1, 2), {1, 2, 3})])
def test_vector_14_natural_one_and_six(value, holds, passing):
    """Vector 14 (DX-6.0): a natural 1 always passes and a natural 6 always fails: morale 0 passes only on a 1,
    morale 7 fails only on a 6."""
    assert fractions(morale_odds(MoraleInput(value, 1)))["holds"] == holds
    assert {f for f in range(1, 7) if resolve_morale(MoraleInput(value, 1), ScriptedDice([f])).outcome == "holds"} \
        == passing


CARDS = [unit(1, "CSA", cv=3, morale="B", corps="I"), unit(2, "CSA", cv=3, morale="B", corps="II"),
         leader(3, "CSA", attack=2, defense=1, corps="I"), unit(4, "CSA", "CAV", cv=2, corps="I"),
         unit(5, "CSA", "ART", cv=2, corps="II"), unit(6, "CSA", "ART", cv=1, horse=True, corps="II"),
         unit(11, "USA", cv=3, morale="A"), leader(12, "USA", attack=1, defense=2),
         terrain(13, "USA", "R", "holder morale +1; attacker morale -1")]
PLACES = {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "CSA-3": "CSA-L", "CSA-4": "CSA-C", "USA-11": "USA-R",
          "USA-12": "USA-R", "USA-13": "USA-R"}


@pytest.mark.rule("DX-11.1b", "DX-10.3")
def test_vector_04_leader_ratings_by_stance():
    """Vector 4 (DX-11.1b): a 2/1 leader gives +2 attacking and +1 defending; a 1/2 leader +1 attacking, +2
    defending. Terrain serves its holder (DX-10.3): here +1 morale to the holder, -1 to attackers."""
    table = advanced(CARDS, PLACES, ["CSA-1", "CSA-3"])
    state = table.state
    assert state.stance("CSA", "USA-R") == "attacking" and state.stance("USA", "USA-R") == "defending"
    assert morale(state, table.card("CSA-1")) == 3 + 2 - 1     # 3B, leader attack 2, terrain -1 to attackers
    assert morale(state, table.card("USA-11")) == 4 + 2 + 1    # 3A, leader defense 2, terrain +1 to the holder
    assert morale(state, table.card("CSA-2")) == 3             # no leader left in CSA-L
    assert morale(state, table.card("CSA-1"), melee=True) == 5  # terrain is ignored in melee (DX-13.1)


@pytest.mark.rule("DX-11.1b", "DX-10.3")
def test_a_captured_position_defends_and_its_terrain_serves_the_captor():
    """DX-11.1b (A2) / DX-10.3: once the CSA holds USA-R it defends there (+1 from a 2/1 leader) and the USA
    terrain now gives it the holder's +1; with A2's option cards in an enemy-line position always attack."""
    cards = [c for c in CARDS if c["number"] not in (11, 12)]
    places = {k: v for k, v in PLACES.items() if k not in ("USA-11", "USA-12")}
    table = advanced(cards, places, ["CSA-1", "CSA-3"])
    state = table.state
    assert state.holder["USA-R"] == "CSA" and state.stance("CSA", "USA-R") == "defending"
    assert morale(state, table.card("CSA-1")) == 3 + 1 + 1
    old = advanced(cards, places, ["CSA-1", "CSA-3"], capture_flips_stance=False)
    assert old.state.stance("CSA", "USA-R") == "attacking"
    assert morale(old.state, old.card("CSA-1")) == 3 + 2 + 1


@pytest.mark.rule("DX-13.7", "DX-11.1b")
def test_corps_command():
    """DX-13.7: a leader supports only its own corps; army commanders everyone; cavalry leaders cavalry and horse
    artillery; artillery leaders artillery of any corps. Without 13.7 it supports every unit (A15)."""
    cards = [unit(1, "CSA", corps="I"), unit(2, "CSA", corps="II"), unit(3, "CSA", "CAV", corps="II"),
             unit(4, "CSA", "ART", corps="II", horse=True), unit(5, "CSA", "ART", corps="I"),
             leader(6, "CSA", attack=1, defense=1, corps="I"), unit(20, "USA")]
    base = {f"CSA-{i}": "CSA-L" if i < 4 else "CSA-C" for i in range(1, 6)}

    def bonus(rank, where, option=True, **extra):
        rows = [dict(c, rank=rank, **extra) if c["number"] == 6 else c for c in cards]
        table = advanced(rows, {**base, "CSA-6": where}, [], corps_command=option)
        return [morale(table.state, table.card(f"CSA-{i}")) - 3 for i in range(1, 6)]

    assert bonus("corps", "CSA-L") == [1, 0, 0, 0, 0]
    assert bonus("corps", "CSA-L", option=False) == [1, 1, 1, 0, 0]
    assert bonus("army", "CSA-L") == [1, 1, 1, 0, 0]
    assert bonus("cavalry", "CSA-L") == [0, 0, 1, 0, 0]
    assert bonus("cavalry", "CSA-C") == [0, 0, 0, 1, 0]
    assert bonus("artillery", "CSA-C") == [0, 0, 0, 1, 1]


@pytest.mark.rule("DX-13.7")
def test_divisional_command_option():
    """DX-13.7 option: division leaders command only their own division; corps leaders their whole corps."""
    cards = [unit(1, "CSA", corps="I", division="1"), unit(2, "CSA", corps="I", division="2"),
             leader(3, "CSA", rank="division", corps="I", division="1"), unit(20, "USA")]
    places = {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "CSA-3": "CSA-L"}
    plain = advanced(cards, places, [], corps_command=True)
    split = advanced(cards, places, [], corps_command=True, divisional_command=True)
    assert [morale(plain.state, plain.card(c)) for c in ("CSA-1", "CSA-2")] == [4, 4]
    assert [morale(split.state, split.card(c)) for c in ("CSA-1", "CSA-2")] == [4, 3]


def hit_table():
    """USA turn 2: the USA units in USA-R fire at the CSA units that advanced there; the CSA checks in turn 3."""
    cards = [unit(1, "CSA", cv=3, morale="B"), unit(2, "CSA", cv=2, morale="C"), leader(3, "CSA", 2, 1),
             unit(11, "USA", cv=3), unit(12, "USA", cv=3)]
    table = advanced(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "CSA-3": "CSA-L", "USA-11": "USA-R",
                             "USA-12": "USA-R"}, ["CSA-1", "CSA-2", "CSA-3"])
    table.to_step("combat")
    table.do("fire", 1, 6, 2, firers=["USA-11"], target="USA-R")      # 2 hits and a leader hit
    table.do("allocate_hits", cards=["CSA-1", "CSA-2"])
    table.do("fire", 6, 6, 4, firers=["USA-12"], target="USA-R")      # 0 hits, 2 leader hits
    table.next_turn()
    return table


@pytest.mark.rule("DX-11.3", "DX-6.0", "DX-5.0")
def test_the_morale_step_checks_leaders_first():
    """DX-11.3: the leader's 3 hits are checked before any unit; DX-6.0: then one die per hit."""
    table = hit_table()
    assert (table.state.turn, table.state.active, table.state.step) == (3, "CSA", "morale")
    assert table.card("CSA-3").hits == 3 and table.card("CSA-1").hits == 1 and table.card("CSA-2").hits == 1
    table.refuse("DX-11.3", "check_morale", 1, card="CSA-1")
    table.refuse("DX-6.0", "end_morale")
    table.do("check_leader", 1, 5, 2, card="CSA-3")
    assert table.card("CSA-3").hits == 0 and table.card("CSA-3").loc == "USA-R"
    table.do("check_morale", 5, card="CSA-1")                  # 3B + 2 attacking = 5: holds on a 5
    table.do("check_morale", 5, card="CSA-2")                  # 2C + 2 = 3: routs
    assert table.card("CSA-1").hits == 0 and table.card("CSA-2").loc == "eliminated"
    table.do("end_morale")


@pytest.mark.rule("DX-11.3", "DX-6.0")
def test_a_dead_leader_gives_no_morale_support():
    """DX-11.3: any 6 on the leader check kills it, and the units then check without its command."""
    table = hit_table()
    step = table.do("morale_step", 2, 6, 1, 4, 1)
    assert table.card("CSA-3").loc == "eliminated"
    assert table.card("CSA-1").loc == "eliminated"          # 3B alone: 4 > 3 routs
    assert table.card("CSA-2").hits == 0                    # a natural 1 passes
    assert "killed" in step.summary and step.rules[:2] == ("DX-6.0", "DX-11.3")
