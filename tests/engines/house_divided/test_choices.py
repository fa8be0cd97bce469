"""What the action specs offer (companion.spec): the legal values of each parameter now, given those chosen before
it, and the values a rule bars, with that rule. The dashboard's lists are these; the conformance tests check that
every value offered is accepted and every other refused."""
from __future__ import annotations

import pytest

from tests.engines.house_divided.support import (
    TEST_BASIC,
    Table,
    barred,
    battle_setup,
    designated_setup,
    offered,
    setup,
    unit,
)


def csa_turn(table: Table) -> None:
    table.to_battles()
    table.pass_turn()


@pytest.mark.rule("HD-5.1", "HD-A11")
def test_supply_losses_are_chosen_in_the_boxes_out_of_supply():
    """TV-12: the CSA stacks at C and R3 are out of supply: the unit lost is one of theirs, one a box; a box is
    marked foraged only under A11 (b), and only where a stack of 2+ stands."""
    table = Table(setup(basic_rules=TEST_BASIC))
    csa_turn(table)
    assert offered(table.state, "check_supply", "foraged") is None
    table.do("check_supply")
    assert offered(table.state, "supply_loss", "unit") == ["CSA 3", "CSA 4", "CSA 5", "CSA 6", "CSA 7"]
    table.do("supply_loss", unit="CSA 4")
    assert offered(table.state, "supply_loss", "unit") == ["CSA 6", "CSA 7"]
    foraging = Table(setup(), foraging="manual")
    csa_turn(foraging)
    assert offered(foraging.state, "check_supply", "foraged") == ["A", "C", "R3"]
    assert offered(foraging.state, "check_supply", "reason", foraged=[]) is None


@pytest.mark.rule("HD-4.8", "HD-5.8")
def test_border_states_that_may_not_roll_are_barred_with_their_reason():
    """HD-4.8: Maryland rolls with Baltimore CSA-held; Missouri and Kentucky, their cities not all CSA-held, are
    barred; once Maryland has joined, HD-5.8 bars it."""
    table = Table(designated_setup({"BAL": "CSA"}))
    csa_turn(table)
    assert offered(table.state, "border_state_roll", "border_state") == ["MD"]
    assert barred(table.state, "border_state_roll", "border_state") == {"MO": "HD-4.8", "KY": "HD-4.8"}
    table.do("border_state_roll", 6, border_state="MD")
    assert barred(table.state, "border_state_roll", "border_state")["MD"] == "HD-5.8"


@pytest.mark.rule("HD-5.2", "HD-5.4")
def test_marching_units_come_from_one_box_with_a_march_left():
    """HD-5.2: the Union units with a march left, the contained ones at P barred (HD-5.4) until they break out;
    the units named march from one box."""
    table = Table(setup())
    table.to_movement(6)
    assert offered(table.state, "march", "units") == ["USA 1", "USA 2", "USA 3"]
    assert barred(table.state, "march", "units") == {"USA 4": "HD-5.4", "USA 5": "HD-5.4"}
    table.refuse("HD-5.2", "march", units=["USA 1", "USA 2"], to="R1")  # X and washington
    table.do("march", units=["USA 2"], to="X")
    table.do("march", units=["USA 2"], to="washington")
    assert barred(table.state, "march", "units")["USA 2"] == "HD-5.2"  # its 2 marches used
    table.refuse("HD-5.4", "breakout", box="P")                        # marches spent: break-outs came first


@pytest.mark.rule("HD-5.4")
def test_the_contained_port_is_the_break_out_choice():
    table = Table(setup())
    table.to_movement(6)
    assert offered(table.state, "breakout", "box") == ["P"]


@pytest.mark.rule("HD-5.5", "HD-5.4")
def test_entrenching_beside_the_enemy_is_barred_but_in_a_containment():
    """HD-5.5: the CSA entrench where their units have a march left; beside the Union only in the port they
    contain (P, HD-5.4); at X, beside the Union, barred."""
    units = [unit("C1", "CSA", "A"), unit("C2", "CSA", "X"), unit("C3", "CSA", "P"), unit("U1", "USA", "X"),
             unit("U2", "USA", "P")]
    table = Table(setup(units=units, leaders=[]), supply=False)
    csa_turn(table)
    table.do("end_start")
    table.do("roll_marches", 6)
    assert offered(table.state, "entrench", "box") == ["A", "P"]
    assert barred(table.state, "entrench", "box") == {"X": "HD-5.5"}


@pytest.mark.rule("HD-5.4")
def test_containment_is_offered_only_in_a_port_the_union_took_by_landing():
    """HD-5.4: the CSA contain P (landed); at X, where both sides stand but no landing was made, it is barred."""
    units = [unit("C1", "CSA", "X"), unit("C2", "CSA", "P"), unit("U1", "USA", "X"), unit("U2", "USA", "P")]
    table = Table(battle_setup(units), supply=False)
    csa_turn(table)
    table.do("end_start")
    assert offered(table.state, "declare_containment", "box") == ["P"]
    assert barred(table.state, "declare_containment", "box") == {"X": "HD-5.4"}


@pytest.mark.rule("HD-3", "HD-4.11")
def test_battles_are_offered_where_the_enemy_stands_landings_first():
    """HD-3: a battle where the phasing side's units meet the enemy; a landing at a CSA recruitment port first
    (HD-4.11: its garrison defends even an empty port), then the boxes where both sides stand."""
    units = [unit("L1", "USA", "U1"), unit("U2", "USA", "A"), unit("U3", "USA", "washington"), unit("C1", "CSA", "A")]
    table = Table(battle_setup(units), supply=False)
    table.to_movement(6)
    table.do("march", units=["L1"], to="R3", amphibious=True)
    table.do("end_movement")
    assert offered(table.state, "start_battle", "box") == ["R3", "A"]
    assert offered(table.state, "start_battle", "amphibious", box="R3") == [True]
    assert offered(table.state, "start_battle", "amphibious", box="A") == [False]


def fire_table(**options) -> Table:
    """A Union attack at A: U1-U3 against C1 (entrenched) and C2; the Union fires first."""
    units = [unit("U1", "USA", "A"), unit("U2", "USA", "A"), unit("U3", "USA", "A"),
             unit("C1", "CSA", "A", entrenched=True), unit("C2", "CSA", "A")]
    leaders = [{"name": "Grant", "front": 2, "box": "A"}]
    table = Table(battle_setup(units, leaders, basic_rules=TEST_BASIC), supply=False, **options)
    table.to_battles()
    table.do("start_battle", box="A")
    return table


@pytest.mark.rule("HD-5.6", "HD-4.3", "HD-4.10")
def test_the_firing_units_are_capped_by_the_firing_limit_and_the_points_by_the_rating():
    """HD-5.6: at most min(C, 8) units fire (C = 2 on a 1 in 1861, and Grant's 2: 4; without leaders 2); HD-4.3:
    Grant's 2 points go on the firing units, at most 2 on one."""
    table = fire_table()
    table.do("battle_command", 1, 1)
    assert offered(table.state, "fire", "side") == ["USA"]
    firing = table.engine.actions.specs["fire"].param("units").legal(table.state, {"side": "USA"})
    assert firing.values == ("U1", "U2", "U3") and firing.high == 4
    points = table.engine.actions.specs["fire"].param("bonus").legal(table.state, {"side": "USA", "units": ["U1"]})
    assert points.values == ("U1",) and points.caps == (2,) and points.high == 2
    assert table.engine.actions.specs["record_fire"].param("hits").legal(
        table.state, {"side": "USA", "units": ["U1", "U2"]}).high == 2
    table = fire_table(leaders=False)
    table.do("battle_command", 1, 1)
    assert table.engine.actions.specs["fire"].param("units").legal(table.state, {"side": "USA"}).high == 2
    assert offered(table.state, "fire", "bonus", side="USA", units=["U1"]) is None


@pytest.mark.rule("HD-4.10", "HD-4.11", "HD-A7")
def test_hits_are_named_one_a_hit_on_units_that_can_take_them():
    """HD-4.10: one name a hit, each unit at most the hits it can take (2 full, 1 reduced)."""
    table = fire_table()
    table.do("battle_command", 6, 6)
    table.do("fire", 1, 1, 6)
    targets = table.engine.actions.specs["take_hits"].param("units").legal(table.state, {})
    assert targets.values == ("C1", "C2") and (targets.low, targets.high) == (2, 2)
    assert targets.fits(("C2", "C2")) and not targets.fits(("C1", "C1", "C1"))


@pytest.mark.rule("HD-4.5")
def test_a_rally_offers_the_routed_units_of_a_side_that_may_rally():
    """HD-4.5: C1 routs in round 1; after round 4, before day 2's first fire, the CSA may restore it."""
    table = fire_table()
    table.do("battle_command", 6, 6)
    table.do("fire", 1, 1, 6)
    table.do("take_hits", units=["C1", "C2"])
    table.do("fire", 6, 6)
    table.do("morale_checks", 6, 1)
    assert table.state.battle.of("CSA").routed == ("C1",)
    for _ in range(3):
        table.do("next_round")
        table.do("fire", 6, 6, 6)
        table.do("fire", 6)
    assert offered(table.state, "rally", "side") == []
    table.do("next_round")
    assert offered(table.state, "rally", "side") == ["CSA"]
    assert offered(table.state, "rally", "unit", side="CSA") == ["C1"]


@pytest.mark.rule("HD-5.3", "HD-5.9")
def test_promotion_offers_the_winners_and_bars_fi_units_and_crack_ones():
    """HD-5.3: the surviving winners of a battle won this turn; a crack unit is barred."""
    units = [unit("U1", "USA", "A"), unit("U2", "USA", "A", "crack"), unit("C1", "CSA", "A")]
    table = Table(battle_setup(units, basic_rules=TEST_BASIC), supply=False, desertion=False)
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    table.do("fire", 1, 1)
    table.do("take_hits", units=["C1", "C1"])
    table.do("end_battles")
    assert offered(table.state, "promote", "unit") == ["U1"]
    assert barred(table.state, "promote", "unit") == {"U2": "HD-5.3"}


@pytest.mark.rule("HD-4.8", "HD-5.9", "HD-3")
def test_recruits_go_anywhere_but_europe_and_border_militia_only_as_militia():
    """Recruitment: any box but Europe (HD-5.9); a border-state militia from the CSA pool joins as militia (HD-4.8),
    asked only while one waits there."""
    table = Table(designated_setup({"BAL": "CSA"}), supply=False)
    assert offered(table.state, "add_unit", "border_state", grade="militia") is None
    csa_turn(table)
    table.do("border_state_roll", 6, border_state="MD")
    table.do("end_start")
    table.do("roll_marches", 6)
    table.do("end_movement")
    table.do("end_battles")
    table.do("end_promotion")
    assert barred(table.state, "add_unit", "box") == {"europe": "HD-5.9"}
    assert offered(table.state, "add_unit", "border_state", grade="militia") == [False, True]
    assert barred(table.state, "add_unit", "border_state", grade="veteran") == {True: "HD-4.8"}


@pytest.mark.rule("HD-3")
def test_the_next_years_are_asked_only_when_the_calendar_does_not_give_them():
    table = Table(setup(), supply=False)
    assert offered(table.state, "end_player_turn", "year") is None      # the Union's turn: no new game turn
    table.to_battles()
    table.pass_turn()
    table.to_battles()
    table.do("end_battles")
    table.do("end_promotion")
    assert offered(table.state, "end_player_turn", "year") == [] and \
        table.engine.actions.specs["end_player_turn"].param("year").legal(table.state, {}).low == 1861
    calendar = Table(setup(calendar=["Jul 1861", "Aug 1861"]), supply=False)
    calendar.to_battles()
    calendar.pass_turn()
    calendar.to_battles()
    calendar.do("end_battles")
    calendar.do("end_promotion")
    assert offered(calendar.state, "end_player_turn", "year") is None


@pytest.mark.rule("HD-8", "HD-4.11", "HD-5.7")
def test_control_and_the_leaders_counters():
    """HD-8: a box goes to anyone but its holder; Europe is no one's. HD-5.7: a leader off the map enters in his own
    side's turn; a counter turns once, to the back face it has."""
    table = Table(setup(leaders=[{"name": "Grant", "front": 1, "back": 3}, {"name": "Lee", "front": 3}]))
    assert offered(table.state, "set_control", "side", box="X") == ["CSA", ""]
    assert barred(table.state, "set_control", "side", box="X") == {"USA": "HD-8"}
    assert barred(table.state, "set_control", "box") == {"europe": "HD-8"}
    assert offered(table.state, "place_leader", "leader") == ["Grant"]
    assert barred(table.state, "place_leader", "leader") == {"Lee": "HD-5.7"}
    assert offered(table.state, "flip_leader", "leader") == ["Grant"]
    table.do("flip_leader", leader="Grant")
    assert barred(table.state, "flip_leader", "leader") == {"Grant": "HD-5.7", "Lee": "HD-5.7"}
