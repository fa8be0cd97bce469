"""Melee (DX-13.1): declared before fire, both sides roll at once, hits checked at once, the choices after round 1,
and the disengagement of an initiator that has not won (digest vector 19)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.engine import dice_needed
from engines.dixie import ENGINE
from engines.dixie.advice import melee_advice, melee_choice_advice
from engines.dixie.combat_step import checked_at_once
from engines.dixie.flow import duty
from engines.dixie.guide import due_now
from engines.dixie.modifiers import morale
from tests.engines.dixie.support import Table, advanced, leader, terrain, unit

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
    cards, melee = checked_at_once(table.state)  # both sides' hit cards, the initiator's first
    assert melee and [c.id for c in cards] == ["USA-11", "CSA-1"]
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


def _due(table, kind: str, faces: list[int]) -> None:
    """Do `kind` with as many of `faces` as it rolls (taken from the front)."""
    needed = sum(len(r.faces) for r in dice_needed(ENGINE, table.state, {"type": kind}))
    table.do(kind, *[faces.pop(0) for _ in range(needed)])


def _tasks_done(table, faces: list[int]) -> None:
    """The hits placed by their owners' default and the checks made at once, with the faces in order."""
    while table.state.tasks:
        _due(table, duty(table.state).action, faces)


def _melee_after_other_fire(table, position: str, faces: list[int]) -> None:
    """DX-13.1: the melee declared in the position goes on while both sides have units there; once a side has
    none left (other fire, A21) it is over without a round: nothing is due for it and the combat step can end."""
    if table.state.units(position, "USA") and table.state.units(position, "CSA"):
        assert table.state.melees[0].stage == "roll"
        _due(table, "melee_round", faces)
        return
    table.refuse("DX-13.1", "melee_round", *faces)   # with dice enough for the side still there
    assert table.state.melees[0].stage == "done"
    assert "melee_round" not in [d.action for d in due_now(table.state)]
    table.do("end_combat")


# CSA-1 (1CV C) advanced into USA-R against USA-11 (2CV B); USA-12 (3CV) can enfilade USA-R from USA-C at F1.
ENFILADE = [unit(1, "CSA", cv=1, morale="C"), unit(11, "USA", cv=2), unit(12, "USA", cv=3)]


@pytest.mark.rule("DX-13.1", "DX-13.2")
@settings(max_examples=40, deadline=None)
@given(fire=st.tuples(*[st.integers(1, 6)] * 3), faces=st.lists(st.integers(1, 6), min_size=4, max_size=4))
@example(fire=(1, 1, 4), faces=[4, 4, 4, 4])   # two F1 hits destroy the 1CV CSA card before the first round
def test_a_melee_whose_enemy_is_gone_before_its_round_is_over(fire, faces):
    """DX-13.1: enfilade into the melee position after the declaration (A21) can wipe out the opponent: the melee
    is then over (the initiator alone has won it), never a round with one side missing."""
    table = melee_table(ENFILADE, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-C"}, enfilade=True)
    table.do("declare_melee", position="USA-R")
    table.do("fire", *fire, firers=["USA-12"], target="USA-R")
    faces = list(faces)
    _tasks_done(table, faces)
    assert (not table.state.units("USA-R", "CSA")) == (sum(f == 1 for f in fire) >= 2)   # DX-7.3: 2 hits > CV 1
    _melee_after_other_fire(table, "USA-R", faces)


@pytest.mark.rule("DX-13.1", "DX-13.5")
@settings(max_examples=40, deadline=None)
@given(fire=st.tuples(st.integers(1, 6), st.integers(1, 6)), faces=st.lists(st.integers(1, 6), min_size=6,
                                                                            max_size=6))
@example(fire=(5, 5), faces=[4] * 6)   # two friendly hits destroy the initiator's only 1CV unit
def test_a_melee_whose_initiator_is_gone_before_its_round_is_over(fire, faces):
    """DX-13.1 / DX-13.5: the initiator's own artillery support into the melee position can destroy its melee
    units (each 5 is a friendly hit, checked at once); the melee is then over without a round."""
    cards = [unit(1, "CSA", cv=2), unit(11, "USA", cv=1, morale="C"), unit(12, "USA", "ART", cv=2, fp_long=2)]
    table = Table(cards, melee=True, artillery_support=True)
    table.deploy({"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"})
    table.next_turn()
    table.to_step("movement")
    table.do("move", card="USA-11", to="CSA-L")
    table.next_turn()
    table.next_turn()
    table.to_step("combat")
    table.do("declare_melee", position="CSA-L")
    table.do("fire", *fire, firers=["USA-12"], target="CSA-L")
    faces = list(faces)
    _tasks_done(table, faces)
    if fire == (5, 5):
        assert table.card("USA-11").loc == "eliminated"
    _melee_after_other_fire(table, "CSA-L", faces)


# A21: CSA-1 (3CV B, morale 3) in USA-R under USA terrain that costs everyone 1 morale (2 with it), against
# USA-11 (1CV); USA-12 enfilades USA-R from USA-C. One enfilade hit, then one melee hit, land on CSA-1.
A21_CARDS = [unit(1, "CSA", cv=3), unit(11, "USA", cv=1), unit(12, "USA", cv=1),
             terrain(13, "USA", "R", "both morale -1")]


def a21_checks(choice: str | None = None):
    option = {"melee_other_hits": choice} if choice else {}
    table = melee_table(A21_CARDS, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-C", "USA-13": "USA-R"},
                        enfilade=True, **option)
    table.do("declare_melee", position="USA-R")
    table.do("fire", 1, firers=["USA-12"], target="USA-R")       # F1 enfilade: 1 hit
    table.do("allocate_hits")
    table.do("melee_round", 2, 4, 4, 4)                          # USA-11 hits (F3); CSA-1's 3 dice miss
    table.do("allocate_hits")
    assert (table.card("CSA-1").hits, table.card("CSA-1").melee_hits) == (2, 1)
    needed = dice_needed(ENGINE, table.state, {"type": "check_hits"})
    step = table.do("check_hits", *[2] * sum(len(r.faces) for r in needed))
    return table, [(r.inputs["morale"], r.inputs["hits"]) for r in step.results if r.procedure == "morale"]


@pytest.mark.rule("DX-13.1", "DX-6.0", "DX-10.3")
def test_hits_from_other_fire_in_a_melee_position_a21():
    """A21: 'all' (default) checks every hit on a unit in the melee position at once with terrain ignored
    (2 dice at morale 3); 'melee_only' checks the melee hit at once (terrain ignored) and leaves the enfilade hit
    for the owner's morale step, with terrain (morale 2); 'all_terrain_for_fire' checks both at once, the
    enfilade hit with terrain."""
    table, checks = a21_checks()
    assert checks == [(3, 2)] and table.card("CSA-1").hits == 0
    table, checks = a21_checks("melee_only")
    assert checks == [(3, 1)] and (table.card("CSA-1").hits, table.card("CSA-1").melee_hits) == (1, 0)
    table.do("melee_choice", fight=False)
    table.do("withdraw")
    table.next_turn()
    step = table.do("check_morale", 2, card="CSA-1")
    assert [(r.inputs["morale"], r.inputs["hits"]) for r in step.results] == [(2, 1)]
    table, checks = a21_checks("all_terrain_for_fire")
    assert checks == [(3, 1), (2, 1)] and table.card("CSA-1").hits == 0
