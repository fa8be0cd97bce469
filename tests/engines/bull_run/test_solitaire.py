"""Solitaire: the CSA action table, orders, attacks, hits and advances (BR-9.0-9.5)."""
from __future__ import annotations

from itertools import product

import pytest

from companion.dice import DiceError, ScriptedDice
from companion.engine import dice_needed
from engines.bull_run import ENGINE
from engines.bull_run.solitaire import (
    ActionInput,
    br94_spread,
    choose_target,
    hit_choices,
    order_for,
    resolve_action,
)
from tests.engines.bull_run.support import QUIET, Table, row

# BR-9.0, typed from the digest: face -> order in the columns None, 1-3, 4+.
ACTION_TABLE = {1: "ACD", 2: "ACD", 3: "ACE", 4: "ACE", 5: "BCE", 6: "BCE"}


def digest_order(south: int, aware: bool, face: int) -> str:
    column = 0 if not aware or south == 0 else 1 if south <= 3 else 2
    return ACTION_TABLE[face][column]


def csa_phase(aware: bool, crossing_units=("Union 1",), **options) -> Table:
    """Turn 2, solitaire: in turn 1 the named Union units crossed at Sudley and, at the start of the CSA
    movement phase, the awareness check made the CSA aware by adjacency or left it unaware (roll 1); turn 2
    is at the CSA action roll, the Union moving first again."""
    table = Table(**options)
    table.start_turn(1)
    table.checks(QUIET)
    for name in crossing_units:
        table.do("move", unit=name, path=["ford"], crossing="sudley")
    table.do("end_movement")
    table.do("csa_action_roll", *[1] * len(dice_needed(ENGINE, table.state, {"type": "csa_action_roll"})))
    if crossing_units:
        table.do("awareness_check", *(() if aware else (1,)), adjacent=aware)
    table.do("end_movement")
    table.finish_turn()
    table.start_turn(1)
    table.checks(QUIET)
    table.do("end_movement")
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
    table = csa_phase(aware, ("Union 1", "Union 2", "Union 3", "Union 4"), recognised_south="aware")
    table.do("csa_action_roll", face, union_south=south)
    assert table.state.orders[1] == order


@pytest.mark.rule("BR-9.0")
def test_action_roll_counts_the_tracked_union_units_south():
    """BR-9.0: by default the count is the Union units the companion tracks south of Bull Run (A7: or the
    player's count); the roll comes before any CSA move, in solitaire only."""
    table = csa_phase(True, ("Union 1", "Union 2"))
    table.refuse("BR-9.0", "move", unit="CSA 3", path=["road"])
    error = table.refuse("BR-9.0", "csa_action_roll", 1, union_south=-1)
    assert "'union_south'" in error.message and "0..5" in error.message
    table.refuse("BR-9.0", "csa_action_roll", 1, union_south="2")
    table.refuse("BR-9.0", "csa_action_roll", 1, union_south=True)
    step = table.do("csa_action_roll", 1)
    assert step.results[0].details["column"] == "1-3" and table.state.orders[1] == "C"
    two = Table(solitaire=False)
    two.start_turn(4)
    two.refuse("BR-9.0", "csa_action_roll", 1)


@pytest.mark.rule("BR-9.0")
def test_the_action_roll_comes_before_the_awareness_check():
    """§3 / BR-9.0: before the CSA movement phase the solitaire action roll, then at its start the awareness
    check; awareness gained in the check first counts for the next turn's roll."""
    table = Table()
    table.start_turn(1)
    table.checks(QUIET)
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.do("end_movement")
    table.refuse("BR-9.0", "awareness_check", adjacent=True)
    table.do("csa_action_roll", 3, union_south=1, union_south_seen=False)
    assert table.state.orders[0] == "A"  # not yet aware: the None column
    table.do("awareness_check", adjacent=True)
    assert table.state.csa_aware == 1


@pytest.mark.rule("BR-9.0")
def test_option_a6_order_a_without_a_roll_when_not_aware():
    """BR-9.0 with A6 'always A': an unaware CSA takes order A with no roll; an aware CSA rolls as usual."""
    table = csa_phase(False, ("Union 1", "Union 2"), unaware_column="always_a", recognised_south="aware")
    with pytest.raises(DiceError):
        table.do("csa_action_roll", 6, union_south=2)
    step = table.do("csa_action_roll", union_south=2)
    assert table.state.orders[1] == "A" and not step.results[0].rolls
    aware = csa_phase(True, ("Union 1", "Union 2", "Union 3", "Union 4"), unaware_column="always_a")
    aware.do("csa_action_roll", 5, union_south=4)
    assert aware.state.orders[1] == "E"


@pytest.mark.rule("BR-9.0")
@pytest.mark.parametrize("reading, seen, order", [
    ("aware_or_contact", False, "A"), ("aware_or_contact", True, "C"), ("aware", True, "A"),
])
def test_option_a6_contact_south_of_the_run_counts_as_recognised(reading, seen, order):
    """BR-9.0 footnote (A6, default (b)): the CSA has recognised Union units south of Bull Run once aware of
    the flank march, or once a Union unit south of the run has been next to a CSA unit (by any crossing, as
    the players say at the roll; then for good); reading (a) counts awareness only."""
    table = Table(recognised_south=reading)
    table.start_turn(1)
    table.checks(QUIET)
    table.do("move", unit="Union 1", path=["road"], crossing="bridge")  # Stone Bridge: no awareness checks
    table.do("end_movement")
    params = {"union_south_seen": seen} if reading == "aware_or_contact" else {}
    if reading == "aware":
        table.refuse("BR-9.0", "csa_action_roll", 1, union_south=1, union_south_seen=seen)
    table.do("csa_action_roll", 1, union_south=1, **params)
    assert table.state.orders[0] == order
    assert bool(table.state.union_south_seen) == (seen and reading == "aware_or_contact")


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
def test_with_the_initiative_ordered_csa_attacks_are_enforced():
    """BR-9.2 (A24, A25): with the initiative every CSA stack next to a Union stack is ordered to attack; the
    CSA attack step cannot end while a declared (ordered) attack has not been made."""
    table = Table()
    table.to_combat(4)
    index = table.declare(["CSA 4"], ["Union 2"])
    error = table.refuse("BR-9.2", "end_combat")
    assert "must be made" in error.message
    table.do("fire", 1, 1, attack=index)
    table.do("end_combat")


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


@pytest.mark.rule("BR-9.4", "BR-10.3")
@pytest.mark.parametrize("units, hits, spread", [
    ((("U1", 1), ("U4", 4)), 3, {"U1": 1, "U4": 2}),   # vector 4: the 1-SP unit eliminated, 2 on the other
    ((("U1", 1), ("U2", 2)), 3, {"U1": 1, "U2": 2}),   # both eliminated: one fire destroys the stack
    ((("U1", 1), ("U2", 2)), 5, {"U1": 1, "U2": 2}),   # the 2 left over are lost
])
def test_vector_04_csa_hits_eliminate_what_they_can_and_the_rest_go_on(units, hits, spread):
    """Vector 4 (BR-9.4 with BR-10.3): CSA hits eliminate as many Union units as they can, and any hits left go
    to the stack's remaining unit; only hits beyond the whole stack are lost."""
    first = hit_choices(units, hits)
    assert all(br94_spread(units, hits, f) == spread for f in first)


@pytest.mark.rule("BR-9.4", "BR-10.3")
def test_vector_04_in_play():
    """Vector 4 (BR-9.4): 3 CSA hits on Union units {1, 4}: the 1-SP unit is eliminated and the 4-SP unit drops
    to 2; the solitaire player is not asked to spread them."""
    table = Table()
    table.to_combat(4)
    table.attack(["CSA 4", "Evans' Brigade"], ["Union 1", "Union 4"], 6, 1)  # 10 SP rolls 6: 3 hits
    table.refuse("BR-10.3", "allocate_hits", on_defenders={"Union 1": 3})
    step = table.do("allocate_hits")
    assert "BR-9.4" in step.rules
    assert table.sp("Union 4", "Union 1") == (0, 2)
    assert table.unit("Union 4").status == "eliminated"


@pytest.mark.rule("BR-9.4")
def test_among_equal_choices_the_solitaire_player_picks():
    """BR-9.4: 3 hits on Union units of 2 and 3 SP eliminate one of them either way: the player picks which."""
    roster = (row("C", "CSA", "1", 1, 10), row("U2", "UNION", "A", 1, 2), row("U3", "UNION", "A", 1, 3))
    table = Table(roster)
    table.to_combat(4)
    table.attack(["C"], ["U2", "U3"], 6, 1)  # 10 SP rolls 6: 3 hits
    error = table.refuse("BR-9.4", "allocate_hits", union_first="C")
    assert "'union_first'" in error.message
    table.do("allocate_hits", union_first="U3")
    assert table.sp("U2", "U3") == (2, 0)


@pytest.mark.rule("BR-9.4", "BR-10.3")
def test_union_hits_on_the_csa_are_the_players_choice():
    """BR-9.4 binds the CSA's hits only: in solitaire the Union player still chooses (BR-10.3)."""
    table = Table()
    table.to_combat(1)
    table.attack(["Union 3"], ["CSA 3", "CSA 4"], 6, 1)  # 6 SP rolls 6: 2 hits; 12 SP rolls 1: 1 hit on Union 3
    table.refuse("BR-10.3", "allocate_hits")
    table.do("allocate_hits", on_defenders={"CSA 4": 1, "CSA 3": 1})
    assert table.sp("CSA 3", "CSA 4", "Union 3") == (4, 6, 5)


@pytest.mark.rule("BR-9.5")
@pytest.mark.parametrize("stronger_fresh_union, bank", [(False, "north"), (True, "south")])
def test_csa_advance_is_automatic_except_next_to_a_stronger_fresh_union_stack(stronger_fresh_union, bank):
    """BR-9.5 (A20): a CSA stack on the attack advances after a retreat, but not into contact with a stronger
    Union stack that has not fought this turn (here the attack crossed a ford, so advancing crosses it). The
    companion decides: the player only answers the fact."""
    table = Table()
    table.to_combat(4)
    table.attack(["CSA 4"], ["Union 2"], 6, 1, across_ford=True)  # 7 SP rolls 6 - 2 = 4 in 7-8: 1 hit
    table.do("allocate_hits")
    table.do("retreat_check", 4)
    table.do("retreat")
    table.refuse("BR-11.2", "advance", advance=not stronger_fresh_union,
                 next_to_stronger_fresh_union=stronger_fresh_union)
    step = table.do("advance", next_to_stronger_fresh_union=stronger_fresh_union)
    assert "BR-9.5" in step.rules and table.unit("CSA 4").bank == bank


@pytest.mark.rule("BR-9.5", "BR-11.2")
def test_union_advance_in_solitaire_stays_the_players_choice():
    """BR-9.5 binds CSA advances only: a Union attacker in solitaire must say whether it advances (BR-11.2)."""
    table = Table()
    table.to_combat(1)
    table.attack(["Union 3"], ["Evans' Brigade"], 6, 1)  # 6 SP rolls 6: 2 hits on Evans (3 SP)
    table.do("allocate_hits")
    table.do("retreat_check", 6)
    table.do("retreat")
    table.refuse("BR-11.2", "advance")
    table.do("advance", advance=False)
