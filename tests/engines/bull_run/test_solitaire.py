"""Solitaire: the CSA action table, orders, attacks, hits and advances (BR-9.0-9.5)."""
from __future__ import annotations

from itertools import product

import pytest

from companion.dice import DiceError, ScriptedDice
from engines.bull_run.solitaire import (
    ActionInput,
    choose_target,
    hit_choice,
    hit_choices,
    order_for,
    plan_attacks,
    resolve_action,
)
from tests.engines.bull_run.support import QUIET, Table

# BR-9.0, typed from the digest: face -> order in the columns None, 1-3, 4+.
ACTION_TABLE = {1: "ACD", 2: "ACD", 3: "ACE", 4: "ACE", 5: "BCE", 6: "BCE"}


def digest_order(south: int, aware: bool, face: int) -> str:
    column = 0 if not aware or south == 0 else 1 if south <= 3 else 2
    return ACTION_TABLE[face][column]


def csa_phase(aware: bool, crossing_units=("Union 1",), **options) -> Table:
    """Turn 1, solitaire, the Union first; the named Union units cross at Sudley; in the CSA phase the
    awareness check (if owed) makes the CSA aware by adjacency or leaves it unaware (roll 1)."""
    table = Table(**options)
    table.start_turn(1)
    table.checks(QUIET)
    for name in crossing_units:
        table.do("move", unit=name, path=["ford"], crossing="sudley")
    table.do("end_movement")
    if crossing_units:
        table.do("awareness_check", *(() if aware else (1,)), adjacent=aware)
    return table


@pytest.mark.rule("BR-9.0")
def test_action_table_every_cell():
    """BR-9.0: the column is the count of Union units south of Bull Run (None when 0 or not aware)."""
    for south, aware, face in product(range(9), (False, True), range(1, 7)):
        result = resolve_action(ActionInput(south, aware), ScriptedDice([face]))
        assert result.outcome == digest_order(south, aware, face), (south, aware, face)


@pytest.mark.rule("BR-9.0")
@pytest.mark.parametrize("aware, south, face, order", [(True, 5, 3, "E"), (False, 2, 5, "B")] +
                         [(True, 2, face, "C") for face in range(1, 7)])
def test_vector_14_action_table(aware, south, face, order):
    """Vector 14 (BR-9.0): 5 south, aware, roll 3: E; not aware, roll 5: B; 2 south, aware: C on any roll."""
    table = csa_phase(aware)
    table.do("csa_action_roll", face, union_south=south)
    assert table.state.orders[0] == order


@pytest.mark.rule("BR-9.0")
def test_action_roll_counts_the_tracked_union_units_south():
    """BR-9.0: by default the count is the Union units the companion tracks south of Bull Run (A7: or the
    player's count); the roll comes before any CSA move, in solitaire only."""
    table = csa_phase(True, ("Union 1", "Union 2"))
    table.refuse("BR-9.0", "move", unit="CSA 3", path=["road"])
    table.refuse("BR-9.0", "csa_action_roll", 1, union_south=-1)
    step = table.do("csa_action_roll", 1)
    assert step.results[0].details["column"] == "1-3" and table.state.orders[0] == "C"
    two = Table(solitaire=False)
    two.start_turn(4)
    two.refuse("BR-9.0", "csa_action_roll", 1)


@pytest.mark.rule("BR-9.0")
def test_option_a6_order_a_without_a_roll_when_not_aware():
    """BR-9.0 with A6 'always A': an unaware CSA takes order A with no roll; an aware CSA rolls as usual."""
    table = csa_phase(False, unaware_column="always_a")
    with pytest.raises(DiceError):
        table.do("csa_action_roll", 6, union_south=2)
    step = table.do("csa_action_roll", union_south=2)
    assert table.state.orders[0] == "A" and not step.results[0].rolls
    aware = csa_phase(True, unaware_column="always_a")
    aware.do("csa_action_roll", 5, union_south=5)
    assert aware.state.orders[0] == "E"


@pytest.mark.rule("BR-9.0")
def test_option_a6_csa_always_sees_the_union_south():
    """BR-9.0 with A6 'aware' read as always: the unaware CSA still reads the count's column."""
    default = csa_phase(False)
    default.do("csa_action_roll", 1, union_south=2)
    table = csa_phase(False, awareness_for_table="always")
    table.do("csa_action_roll", 1, union_south=2)
    assert (default.state.orders[0], table.state.orders[0]) == ("A", "C")


@pytest.mark.rule("BR-9.1")
@pytest.mark.parametrize("letter, names", [
    ("A", {"Bonham", "Jones", "Ewell"}),
    ("B", set()),
    ("C", {"Bonham", "Jones", "Ewell", "Bee", "Bartow"}),
    ("D", {"Evans", "Cocke", "Bartow", "Bee", "Jackson", "Smith"}),
    ("E", {"Evans", "Cocke", "Bartow", "Bee", "Jackson", "Smith", "Holmes", "Ewell", "Longstreet"}),
])
def test_orders_name_their_commanders(letter, names):
    """BR-9.1: the units each order names (C adds Bee and Bartow to A; E adds Holmes, Ewell, Longstreet to D)."""
    assert set(order_for(letter, [], False).names) == names


@pytest.mark.rule("BR-9.1")
def test_orders_are_matched_to_the_roster_and_d_depends_on_sudley():
    """BR-9.1: order D sends Evans and Cocke to Henry Hill only if Sudley Ford has been crossed; roster units
    are matched by commander's name and the missing ones listed."""
    roster = ["Evans' Brigade", "Cocke's Brigade", "D. R. Jones' Brigade"]
    crossed = order_for("D", roster, True)
    assert dict(crossed.units)["Evans"] == "Evans' Brigade" and dict(crossed.units)["Bee"] == ""
    assert any("Evans and Cocke go to Henry Hill" in n for n in crossed.notes)
    assert any("not sent to Henry Hill" in n for n in order_for("D", roster, False).notes)
    assert dict(order_for("A", roster, False).units)["Jones"] == "D. R. Jones' Brigade"
    assert any("Bonham, Ewell" in n for n in order_for("A", roster, False).notes)


@pytest.mark.rule("BR-9.2")
def test_with_the_initiative_every_adjacent_csa_stack_attacks():
    """BR-9.2: with the initiative each CSA stack next to a Union stack attacks its BR-9.3 target; a stack with
    no Union neighbour does not; attacks are grouped by defender, the weakest first."""
    sp = {"U1": 4, "U2": 1, "U3": 6}.__getitem__
    plan = plan_attacks([(("C1",), [("U1",), ("U3",)]), (("C2", "C3"), [("U2",)]), (("C4",), [])], sp)
    assert [(p["attackers"], p["target"]) for p in plan] == [(("C2", "C3"), ("U2",)), (("C1",), ("U1",))]


@pytest.mark.rule("BR-9.3")
def test_target_is_the_weakest_adjacent_union_stack():
    """BR-9.3: the lowest current SP first; among equals the player picks; no neighbour, no attack."""
    sp = {"U1": 4, "U2": 1, "U3": 3, "U4": 5}.__getitem__
    assert choose_target([("U2", "U4"), ("U1",)], sp).target == ("U1",)
    tie = choose_target([("U1",), ("U3", "U2"), ("U4",)], sp)
    assert tie.target == () and set(tie.tied) == {("U1",), ("U3", "U2")}
    assert choose_target([], sp).target == ()


@pytest.mark.rule("BR-9.4")
@pytest.mark.parametrize("units, hits, allowed", [
    ((("a", 1), ("b", 4)), 3, ("a",)),
    ((("a", 4), ("b", 3)), 1, ("b",)),
    ((("a", 2), ("b", 3)), 3, ("a", "b")),
    ((("a", 2), ("b", 2)), 1, ("a", "b")),
])
def test_hit_choices(units, hits, allowed):
    """BR-9.4: the hits go on a unit they eliminate (hits >= its SP), otherwise on the unit with the fewest SP."""
    assert hit_choices(units, hits) == allowed
    assert hit_choice(units, hits) in allowed


@pytest.mark.rule("BR-9.4", "BR-10.3")
@pytest.mark.parametrize("allocation, other", [("R3", 4), ("R1", 2)])
def test_vector_04_three_csa_hits_on_union_1_and_4(allocation, other):
    """Vector 4 (BR-9.4): 3 CSA hits on Union units {1, 4} all go to the 1-SP unit, which is eliminated; the
    other stays at 4 under R3 and drops to 2 under R1. Choosing the 4-SP unit is refused."""
    table = Table(hit_allocation=allocation)
    table.to_combat(4)
    table.do("declare_attack", attackers=["CSA 4", "Evans' Brigade"], defenders=["Union 1", "Union 4"])
    table.do("fire", 6, 1)  # 10 SP rolls 6 in 9-10: 3 hits; 5 SP rolls 1: none
    table.refuse("BR-9.4", "allocate_hits", on_defenders="Union 1")
    step = table.do("allocate_hits")
    assert "BR-9.4" in step.rules
    assert table.sp("Union 4", "Union 1") == (0, other)
    assert table.unit("Union 4").status == "eliminated"


@pytest.mark.rule("BR-9.4", "BR-10.3")
def test_union_hits_on_the_csa_are_the_players_choice():
    """BR-9.4 binds the CSA's hits only: in solitaire the Union player still chooses (BR-10.3)."""
    table = Table()
    table.to_combat(1)
    table.do("declare_attack", attackers=["Union 3"], defenders=["CSA 3", "CSA 4"])
    table.do("fire", 6, 1)  # 6 SP rolls 6: 2 hits; 12 SP rolls 1 in 11-12: 1 hit on Union 3
    table.refuse("BR-10.3", "allocate_hits")
    step = table.do("allocate_hits", on_defenders="CSA 4")
    assert "BR-9.4" in step.rules  # the CSA's hit on Union 3
    assert table.sp("CSA 3", "CSA 4", "Union 3") == (5, 5, 5)


@pytest.mark.rule("BR-9.5")
@pytest.mark.parametrize("stronger_fresh_union, advance, legal, bank", [
    (False, None, True, "north"), (False, True, True, "north"), (False, False, False, None),
    (True, None, True, "south"), (True, False, True, "south"), (True, True, False, None),
])
def test_csa_advance_is_automatic_except_next_to_a_stronger_fresh_union_stack(stronger_fresh_union, advance, legal,
                                                                             bank):
    """BR-9.5 (A20): a CSA stack on the attack advances after a retreat, but not into contact with a stronger
    Union stack that has not fought this turn (here the attack crossed a ford, so advancing crosses it)."""
    table = Table()
    table.to_combat(4)
    table.do("declare_attack", attackers=["CSA 4"], defenders=["Union 2"], across_ford=True)
    table.do("fire", 6, 1)  # 7 SP rolls 6 - 2 = 4 in 7-8: 1 hit
    table.do("allocate_hits")
    table.do("retreat_check", 4)
    table.do("retreat")
    params = {"next_to_stronger_fresh_union": stronger_fresh_union}
    if advance is not None:
        params["advance"] = advance
    if legal:
        step = table.do("advance", **params)
        assert "BR-9.5" in step.rules and table.unit("CSA 4").bank == bank
    else:
        table.refuse("BR-9.5", "advance", **params)


@pytest.mark.rule("BR-9.5", "BR-11.2")
def test_union_advance_in_solitaire_stays_the_players_choice():
    """BR-9.5 binds CSA advances only: a Union attacker in solitaire must say whether it advances (BR-11.2)."""
    table = Table()
    table.to_combat(1)
    table.do("declare_attack", attackers=["Union 3"], defenders=["Evans' Brigade"])
    table.do("fire", 6, 1)  # 6 SP rolls 6: 2 hits on Evans (3 SP)
    table.do("allocate_hits")
    table.do("retreat_check", 6)
    table.do("retreat")
    table.refuse("BR-11.2", "advance")
    table.do("advance", advance=False)
