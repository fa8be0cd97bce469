"""Melee (DX-13.1): declared before fire, both sides roll at once, hits checked at once, the choices after round 1,
and the disengagement of an initiator that has not won (digest vector 19)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from engines.dixie.advice import melee_advice, melee_choice_advice
from engines.dixie.modifiers import morale
from tests.engines.dixie.support import advanced, leader, terrain, unit

# Vector 19: a USA 2CV B infantry against a CSA 1CV C infantry that advanced into USA-R.
V19 = [unit(1, "CSA", cv=1, morale="C"), unit(11, "USA", cv=2, morale="B")]


def melee_table(cards=V19, places=None, advance=("CSA-1",), **options):
    options.setdefault("melee", True)
    places = places or {"CSA-1": "CSA-L", "USA-11": "USA-R"}
    table = advanced(cards, places, list(advance), **options)
    table.to_step("combat")
    return table


@pytest.mark.rule("DX-13.1")
def test_vector_19_melee_round_one():
    """Vector 19: USA 2CV B (2 dice, F3) against CSA 1CV C (1 die, F3): the CSA card is gone with 1/4 + (1/2)(5/6)
    = 2/3, the USA card routs with (1/2)(2/3) = 1/3; USA alone 4/9, both gone 2/9, CSA alone 1/9, both remain 2/9."""
    table = melee_table()
    plan = melee_advice(table.state, "USA-R")
    assert plan.after_round_1 == {"initiator alone": F(4, 9), "neither": F(2, 9), "opponent alone": F(1, 9),
                                  "both": F(2, 9)}
    gone = sum(n.probability for n in plan.nodes if not n.opponent.fighters)
    routs = sum(n.probability for n in plan.nodes if not n.initiator.fighters)
    assert (gone, routs) == (F(2, 3), F(1, 3))


@pytest.mark.rule("DX-13.1", "DX-6.0")
def test_a_melee_round_through_the_actions():
    """DX-13.1: both sides roll at once (INF F3); every hit is placed, then checked at once; after round 1 the
    initiator chooses, then the opponent."""
    table = melee_table()
    table.refuse("DX-13.1", "melee_round")
    table.do("declare_melee", position="USA-R")
    assert table.card("USA-11").fired
    table.refuse("DX-7.0", "fire", 1, 1, firers=["USA-11"], target="USA-R")
    table.refuse("DX-13.1", "end_combat")
    step = table.do("melee_round", 1, 4, 2)
    assert "2d at F3 rolled 1 4: 1 hit" in step.summary and "1d at F3 rolled 2: 1 hit" in step.summary
    table.do("allocate_hits")
    table.do("allocate_hits")
    table.do("check_hits", 2, 1)           # the initiator first: USA 2B passes on a 2; CSA 1C on a natural 1
    assert table.state.melees[0].stage == "choice"
    table.do("melee_choice", fight=True)
    table.do("melee_choice", fight=True)
    table.do("melee_round", 6, 6, 6)
    table.do("check_hits")
    assert table.state.melees[0].stage == "done"
    table.do("withdraw")                    # the initiator has not won: it disengages
    assert table.card("USA-11").loc == "reserve" and table.card("CSA-1").loc == "USA-R"
    table.do("end_combat")


@pytest.mark.rule("DX-13.1", "DX-8.2")
def test_the_opponent_may_disengage_and_the_melee_ends():
    """A8: if the opponent disengages after round 1 the melee ends, and the initiator holds the position."""
    table = melee_table()
    table.do("declare_melee", position="USA-R")
    table.do("melee_round", 4, 5, 6)
    table.do("check_hits")
    table.do("melee_choice", fight=True)
    table.do("melee_choice", fight=False)
    table.do("withdraw")
    assert table.card("CSA-1").loc == "CSA-L" and table.state.holder["USA-R"] == "USA"


@pytest.mark.rule("DX-13.1")
def test_melee_is_declared_before_any_fire_in_an_engaged_position():
    """DX-13.1: only the active player declares, in an engaged position, and before any fire."""
    cards = [*V19, unit(2, "CSA", "ART", cv=2), unit(12, "USA", cv=2)]
    table = melee_table(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-C", "USA-11": "USA-R", "USA-12": "USA-C"})
    table.refuse("DX-13.1", "declare_melee", position="USA-C")
    off = melee_table(melee=False)
    off.refuse("DX-13.1", "declare_melee", position="USA-R")
    table.next_turn()
    table.to_step("combat")
    table.do("fire", 1, 1, firers=["CSA-2"], target="USA-C")
    table.do("allocate_hits")
    table.refuse("DX-13.1", "declare_melee", position="USA-R")


@pytest.mark.rule("DX-13.1", "DX-10.3")
def test_terrain_is_ignored_in_melee():
    """DX-13.1: all terrain effects on combat and morale are ignored in melee; leaders still apply."""
    cards = [*V19, terrain(12, "USA", "R", "holder morale +2; holder fire_in_cv -1"), leader(13, "USA", 1, 1)]
    table = melee_table(cards, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R", "USA-13": "USA-R"})
    assert morale(table.state, table.card("USA-11")) == 2 + 1 + 2
    assert morale(table.state, table.card("USA-11"), melee=True) == 2 + 1
    table.do("declare_melee", position="USA-R")
    step = table.do("melee_round", 2, 2, 2)
    assert "1d at F3" in step.summary             # the CSA's 1 die is not cut by the woods-like terrain


@pytest.mark.rule("DX-13.1")
def test_melee_choice_advice_and_subsets():
    """A8: by option the initiator names its melee units; the advice gives the best choice after round 1."""
    cards = [unit(1, "CSA", cv=2), unit(11, "USA", cv=3), unit(12, "USA", cv=3)]
    table = melee_table(cards, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"})
    table.refuse("DX-13.1", "declare_melee", position="USA-R", units=["USA-11"])
    some = melee_table(cards, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, melee_all_units=False)
    some.do("declare_melee", position="USA-R", units=["USA-11"])
    assert not some.card("USA-12").fired
    some.do("melee_round", 4, 4, 4, 4, 4)
    some.do("check_hits")
    node = melee_choice_advice(some.state)
    assert node.choice in ("round 2", "initiator disengages", "opponent disengages")
