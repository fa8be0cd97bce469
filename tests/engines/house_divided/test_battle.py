"""A battle round by round: HD-4.4 morale (rout), HD-4.5 rally, HD-4.6 desertion, HD-5.6 routed units, the
retreat, and options A5, A6, A7, A8, A24, A25."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from engines.house_divided.battle import morale_due
from engines.house_divided.desertion import DesertionCheck, DesertionInput, resolve_desertion
from engines.house_divided.morale import MoraleCheck, MoraleInput, morale_value, resolve_morale, rout_table
from engines.house_divided.views import battle_board, desertion_losses, rout_chances
from tests.engines.house_divided.support import TEST_BASIC, Table, barred, battle_setup, offered, setup, unit

# TV-8 from the digest: grade (and year) -> rout, rout entrenched, desert lost & routed, lost not routed,
# won not routed.
TV8 = {
    ("crack", 1862): (F(1, 6), 0, F(1, 3), F(1, 6), 0),
    ("veteran", 1862): (F(1, 3), F(1, 6), F(1, 2), F(1, 3), F(1, 6)),
    ("militia", 1862): (F(1, 2), F(1, 3), F(2, 3), F(1, 2), F(1, 3)),
    ("militia", 1861): (F(2, 3), F(1, 2), F(5, 6), F(2, 3), F(1, 2)),
}


def by_faces(procedure, inputs) -> F:
    """The share of the six faces for which the one-unit procedure says yes."""
    return F(sum(procedure(inputs, ScriptedDice([face])).outcome[0] for face in range(1, 7)), 6)


@pytest.mark.rule("HD-4.4", "HD-4.6")
@pytest.mark.parametrize("grade, year", list(TV8))
def test_vector_08_rout_and_desertion(grade, year):
    """TV-8, each probability counted over the six faces of the procedures themselves."""
    rout, rout_dug_in, lost_routed, lost_steady, won_steady = TV8[(grade, year)]
    assert by_faces(resolve_morale, MoraleInput((MoraleCheck("u", grade, year),))) == rout
    assert by_faces(resolve_morale, MoraleInput((MoraleCheck("u", grade, year, True),))) == rout_dug_in
    for lost, routed, expected in ((True, True, lost_routed), (True, False, lost_steady), (False, False, won_steady)):
        check = DesertionCheck("u", grade, year, lost, routed)
        assert by_faces(resolve_desertion, DesertionInput((check,))) == expected == check.chance


@pytest.mark.rule("HD-4.6")
def test_vector_08_veteran_with_a_leader():
    """TV-8: a veteran that lost, not routed, with a leader of rating 2: d + 1 - 1 - 2 > 4 is impossible."""
    assert DesertionCheck("u", "veteran", 1862, True, False, 2).chance == 0


@pytest.mark.rule("HD-4.4")
def test_the_morale_table():
    """HD-4.4: crack 5, veteran 4, militia 3 from 1862, 2 in 1861."""
    assert [morale_value(g, y) for g, y in (("crack", 1861), ("veteran", 1865), ("militia", 1862),
                                             ("militia", 1865), ("militia", 1861))] == [5, 4, 3, 3, 2]
    assert len(rout_table()) == 3 * 5 * 2


def fight(data_year=1862, leaders=(), basic=TEST_BASIC, extra=(), **options):
    """Union attack at A: Union militia U1, U2 against CSA militia C1 and veteran C2 (and any extra units);
    the attacker fires first."""
    units = [unit("U1", "USA", "A"), unit("U2", "USA", "A"), unit("C1", "CSA", "A"), unit("C2", "CSA", "A", "veteran"),
             *extra]
    table = Table(battle_setup(units, list(leaders), basic_rules=basic, year=data_year), supply=False, **options)
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    return table


def round_one(table):
    """Union 1, 1: two hits, both CSA units flip; CSA 1, 6 (hit numbers 1 and 2): one hit, U1 flips."""
    table.do("fire", 1, 1)
    table.do("take_hits", units=["C1", "C2"])
    table.do("fire", 1, 6, side="CSA", units=["C1", "C2"])
    table.do("take_hits", units=["U1"])


@pytest.mark.rule("HD-4.4", "HD-A5")
def test_flipped_units_check_at_the_end_of_the_round():
    """HD-4.4 (A5 (a)): after the round, each unit flipped in it rolls; greater than its morale, it routs.
    U1 (militia 3) rolls 4: routs; C1 (militia 3) rolls 3: holds; C2 (veteran 4) rolls 5: routs."""
    table = fight()
    round_one(table)
    assert battle_board(table.state).step == "morale"
    assert rout_chances(table.state) == ({"U1": F(1, 2), "C1": F(1, 2), "C2": F(1, 3)}, 1 - F(1, 2) * F(1, 2) * F(2, 3))
    step = table.do("morale_checks", 4, 3, 5)
    assert [r.outcome for r in step.results] == [(True, False, True)]
    board = battle_board(table.state)
    assert board.sides[0].routed == ("U1",) and board.sides[1].routed == ("C2",) and board.step == "between"


@pytest.mark.rule("HD-4.4", "HD-A5", "HD-5.6")
def test_option_a5_checks_right_after_the_enemy_fire():
    """A5 (b): the CSA units flipped by the Union fire check at once; a routed unit does not fire (HD-5.6)."""
    table = fight(morale_timing="after_fire")
    table.do("fire", 1, 1)
    table.do("take_hits", units=["C1", "C2"])
    assert battle_board(table.state).step == "morale"
    table.do("morale_checks", 3, 5)
    assert table.state.battle.of("CSA").routed == ("C2",)
    table.refuse("HD-5.6", "fire", 1, 1, side="CSA", units=["C1", "C2"])
    table.do("fire", 1, side="CSA", units=["C1"])


@pytest.mark.rule("HD-4.4")
def test_only_units_flipped_this_round_check():
    """HD-4.4: a unit eliminated in the round, or reduced in an earlier round, does not check."""
    table = fight()
    round_one(table)
    table.do("morale_checks", 1, 1, 1)
    table.do("next_round")
    table.do("fire", 1, side="USA", units=["U2"])        # one hit on the CSA
    table.do("take_hits", units=["C1"])                  # C1 was reduced in round 1: eliminated now
    table.do("fire", 2, side="CSA", units=["C2"])        # C2 hits U2 (reduced veteran: 2)
    table.do("take_hits", units=["U2"])
    assert morale_due(table.state, table.state.battle.of("USA")) == ["U2"]
    assert not morale_due(table.state, table.state.battle.of("CSA"))
    step = table.do("morale_checks", 1)
    assert len(step.results[0].rolls) == 1


@pytest.mark.rule("HD-4.4", "HD-5.6")
def test_a_side_all_routed_has_lost():
    """HD-4.4: routed units count as eliminated in deciding who won: the CSA, both routed, loses."""
    table = fight(desertion=False)
    round_one(table)
    table.do("morale_checks", 1, 6, 6)
    assert table.state.battle is None and table.state.battles[-1].winner == "USA"
    assert table.unit("C1").face == "reduced" and table.unit("C1").status == "on_map"


def quiet_round(table):
    """A round in which neither side fires, then the next round."""
    table.do("fire", units=[])
    table.do("fire", units=[])
    table.do("next_round")


@pytest.mark.rule("HD-4.5")
def test_rally_once_a_side_before_each_new_day():
    """HD-4.5: after every 4th round, before the next day, each side may restore one routed unit."""
    table = fight(extra=[unit("C3", "CSA", "A")])
    round_one(table)
    table.do("morale_checks", 4, 6, 5)                   # U1, C1 and C2 rout; C3 stands
    table.refuse("HD-4.5", "rally", side="CSA", unit="C1")  # not in day 1
    table.do("next_round")
    for _ in range(3):
        quiet_round(table)
    table.refuse("HD-4.2", "fire", units=[])             # the day's command first
    assert (table.state.battle.round, table.state.battle.day) == (5, 2)
    table.refuse("HD-4.5", "rally", side="CSA", unit="U1")
    step = table.do("rally", side="CSA", unit="C2")
    assert step.results[0].outcome == "C2" and step.results[0].rolls == ()
    table.refuse("HD-4.5", "rally", side="CSA", unit="C1")  # one a day
    table.do("rally", side="USA", unit="U1")
    assert table.state.battle.of("CSA").routed == ("C1",) and not table.state.battle.of("USA").routed
    table.do("battle_command", 1, 1)
    table.do("fire", units=[])
    table.refuse("HD-4.5", "rally", side="CSA", unit="C1")  # the day's fire has begun


@pytest.mark.rule("HD-A7", "HD-5.6")
def test_routed_units_take_no_hits_unless_a7_says_so():
    """A7: routed units cannot take hits (default); with the option they can."""
    for routed_hit, rule in ((False, "HD-A7"), (True, None)):
        table = fight(routed_hit=routed_hit)
        round_one(table)
        table.do("morale_checks", 1, 1, 6)                  # C2 routs
        table.do("next_round")
        table.do("fire", 1, side="USA", units=["U2"])
        if rule:
            table.refuse(rule, "take_hits", units=["C2"])
            table.do("take_hits")                           # only C1 can take it: no choice
            assert table.unit("C1").status == "eliminated"
        else:
            table.do("take_hits", units=["C2"])
            assert table.unit("C2").status == "eliminated"


@pytest.mark.rule("HD-4.6")
def test_desertion_after_a_retreat():
    """HD-4.6: the Union retreats after round 1 and loses. Reduced units of both sides roll: U1 (routed,
    lost: d + 1 > 3), C1 (won, not routed: d - 1 > 3), C2 (routed, won: d > 4)."""
    table = fight()
    round_one(table)
    table.do("morale_checks", 4, 1, 5)
    table.do("retreat", side="USA", to="X")
    assert table.state.battle.over and table.state.battle.winner == "CSA"
    assert table.unit("U2").box == "X"
    losses = desertion_losses(table.state)
    expected = {0: F(1, 3) * F(2, 3) * F(2, 3)}  # each stays: U1 2/6, C1 4/6, C2 4/6
    assert losses.probability(0) == expected[0]
    step = table.do("desertion_checks", 3, 4, 5)
    assert step.results[0].outcome == (True, False, True)
    assert [table.unit(n).status for n in ("U1", "C1", "C2")] == ["eliminated", "on_map", "eliminated"]
    assert table.state.battle is None and table.state.battles[-1].winner == "CSA"


@pytest.mark.rule("HD-4.6", "HD-A8")
@pytest.mark.parametrize("rule, counted", [("sum", 3), ("best", 2)])
def test_grant_and_sherman_in_desertion(rule, counted):
    """A8: the Union's leaders present reduce its desertion rolls by their sum (a) or the best one (b)."""
    leaders = [{"name": "Grant", "front": 1, "box": "A"}, {"name": "Sherman", "front": 2, "box": "A"}]
    table = fight(leaders=leaders, desertion_leaders=rule)
    round_one(table)
    table.do("morale_checks", 1, 1, 1)
    table.do("retreat", side="CSA", to="B")
    step = table.do("desertion_checks", 6, 6, 6)
    assert step.results[0].inputs["checks"][0][5] == counted


@pytest.mark.rule("HD-4.6", "HD-A6")
@pytest.mark.parametrize("reading, modifier", [("all", -1), ("dropped", 0)])
def test_a6_the_steady_modifier_without_morale_rules(reading, modifier):
    """A6: with the morale rules off no unit routs; the -1 for units not routed applies to all (a) or is
    dropped (b). U1, flipped, on the winning side: modifier -1 or 0."""
    table = fight(morale=False, steady_without_morale=reading)
    table.do("fire", 6, 6)
    table.do("fire", 1, 6)
    table.do("take_hits", units=["U1"])
    table.do("retreat", side="CSA", to="B")
    step = table.do("desertion_checks", 1)
    check = step.results[0].inputs["checks"][0]
    assert check[0] == "U1" and DesertionCheck(*check).modifier == modifier


def option(key, reading, default):
    """The option as a session sets it: nothing for the digest's default, so the default is what a game gets."""
    return {} if reading == default else {key: reading}


def fort_setup(units, fort="A", contained=(), **changes):
    """The example map with `fort` a fort box, these units and no leaders."""
    data = setup(units=units, leaders=[], landed_ports=["P"], contained=list(contained), basic_rules=TEST_BASIC,
                 **changes)
    for row in data["map"]["boxes"]:
        row["fort"] = row["id"] == fort
    return data


@pytest.mark.rule("HD-4.4", "HD-A24")
@pytest.mark.parametrize("reading, union", [("holder", F(1, 2)), ("everyone", F(1, 3))])
def test_a_fort_shelters_the_side_that_held_it(reading, union):
    """HD-4.4 / A24 (a): the fort's -1 is for the side that held the fort box when the battle began (the CSA at
    A): the Union attacker that came in is not in the fort. U1 (militia 1862, morale 3) routs on 4+: 1/2; C1
    (militia, -1) on 5+: 1/3; C2 (veteran, -1) on 6: 1/6. Under A24 (b) every unit in the box has the -1."""
    units = [unit("U1", "USA", "A"), unit("U2", "USA", "A"), unit("C1", "CSA", "A"), unit("C2", "CSA", "A", "veteran")]
    table = Table(fort_setup(units, year=1862), supply=False, **option("fort", reading, "holder"))
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    round_one(table)
    assert rout_chances(table.state)[0] == {"U1": union, "C1": F(1, 3), "C2": F(1, 6)}
    assert table.state.battle.fort_holder == "CSA"
    step = table.do("morale_checks", 4, 4, 6)
    assert step.results[0].outcome == ((True, False, True) if reading == "holder" else (False, False, True))


@pytest.mark.rule("HD-4.4", "HD-A24", "HD-5.4")
@pytest.mark.parametrize("reading, union", [("holder", F(2, 3)), ("everyone", F(1, 2))])
def test_a_containment_attacker_gets_no_minus_1_fort_or_trench(reading, union):
    """HD-4.4 / A24 (a): the Union holds the fort port P and is contained there; breaking out, it attacks and
    gets no -1 at all, neither its fort nor its trench (HD-5.4). Its flipped militia (morale 2 in 1861) routs on
    3+: 2/3; the entrenched CSA defender keeps its trench: 4+, 1/2. Under A24 (b) the fort shelters everyone."""
    units = [unit("USA 4", "USA", "P", entrenched=True), unit("USA 5", "USA", "P", entrenched=True),
             unit("CSA 9", "CSA", "P", entrenched=True)]
    data = fort_setup(units, fort="P", contained=["P"])
    table = Table(data, supply=False, **option("fort", reading, "holder"))
    table.to_movement(6)
    table.do("breakout", box="P")
    table.do("battle_command", 6, 6)
    table.do("fire", 1, 6)                     # at the entrenched CSA 9: militia 2 - 1 hits on 1
    table.do("take_hits", units=["CSA 9"])
    table.do("fire", 1)                        # CSA 9 reduced (1) at the attacker, no entrenchment: hits on 1
    table.do("take_hits", units=["USA 4"])
    assert rout_chances(table.state)[0] == {"USA 4": union, "CSA 9": F(1, 2)}
    assert table.state.battle.fort_holder == "USA" and table.state.battle.contained


@pytest.mark.rule("HD-4.4", "HD-A25", "HD-4.6")
@pytest.mark.parametrize("reading, rout", [("game", F(1, 2)), ("raised", F(2, 3))])
def test_option_a25_militia_morale_by_the_year_raised(reading, rout):
    """A25: in 1862 a militia unit raised in 1861 has morale 3 by the game year (a), 2 by the year raised (b):
    P(rout) 1/2 or 2/3. A militia raised in 1862 has 3 either way; a unit recruited now is raised this year."""
    units = [unit("U1", "USA", "A", raised=1861), unit("U2", "USA", "A"), unit("C1", "CSA", "A"),
             unit("C2", "CSA", "A", "veteran")]
    table = Table(battle_setup(units, basic_rules=TEST_BASIC, year=1862), supply=False,
                  **option("militia_year", reading, "game"))
    assert (table.unit("U1").raised, table.unit("U2").raised) == (1861, 1862)
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    round_one(table)
    assert rout_chances(table.state)[0] == {"U1": rout, "C1": F(1, 2), "C2": F(1, 3)}
    table.do("morale_checks", 1, 1, 1)
    table.do("retreat", side="USA", to="X")
    checks = {c[0]: c for c in table.do("desertion_checks", 1, 1, 1).results[0].inputs["checks"]}
    assert checks["U1"][2] == (1861 if reading == "raised" else 1862)


@pytest.mark.rule("HD-3")
def test_a_retreat_goes_only_where_the_enemy_is_not():
    """A retreat may not go into an enemy-held box, nor into enemy units: the Union may not retreat from A to the
    CSA-held B, nor the CSA to the Union-held X or to C, where Union units stand."""
    table = fight(extra=[unit("U9", "USA", "C")])
    round_one(table)
    table.do("morale_checks", 1, 1, 1)
    assert "B" not in offered(table.state, "retreat", "to", side="USA") and "X" in offered(table.state, "retreat", "to",
                                                                                        side="USA")
    assert {"X", "C", "washington", "A", "europe"}.isdisjoint(offered(table.state, "retreat", "to", side="CSA"))
    assert barred(table.state, "retreat", "to", side="CSA") == {"X": "HD-3", "C": "HD-3", "washington": "HD-3",
                                                                 "U1": "HD-3", "P": "HD-3"}
    table.refuse("HD-3", "retreat", side="USA", to="B")
    table.refuse("HD-3", "retreat", side="CSA", to="X")
    table.refuse("HD-3", "retreat", side="CSA", to="C")
    table.do("retreat", side="CSA", to="R1")
    assert table.unit("C1").box == "R1"
