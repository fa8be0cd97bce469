"""HD-4.11 the coastal garrison (TV-14, A13), HD-5.3 promotion, HD-5.4 containment (A20), HD-5.5 entrenching."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from companion.engine import RuleError
from companion.odds import fractions
from engines.house_divided.fire import Shot
from engines.house_divided.gamemap import map_warnings
from engines.house_divided.garrison import GarrisonInput, garrison_odds, resolve_garrison
from engines.house_divided.guide import due_now
from engines.house_divided.movement import garrison_due
from engines.house_divided.views import battle_board, fire_preview, rout_chances
from tests.engines.house_divided.support import TEST_BASIC, Table, barred, battle_setup, box, offered, setup, unit


@pytest.mark.rule("HD-4.11")
def test_vector_14_two_hits_remove_the_garrison():
    """TV-14: 1 hit -> still present; 2 hits -> removed (the outcome is the garrison's hits, 2 = removed)."""
    one = (Shot("u", 3, 0, 1),)
    assert resolve_garrison(GarrisonInput(one, 0), ScriptedDice([1])).outcome == 1
    assert "holds" in resolve_garrison(GarrisonInput(one, 0), ScriptedDice([1])).summary
    assert resolve_garrison(GarrisonInput(one, 1), ScriptedDice([2])).outcome == 2
    assert "removed" in resolve_garrison(GarrisonInput(one, 1), ScriptedDice([2])).summary
    two = (Shot("a", 3, 0, 1), Shot("b", 3, 0, 1))  # always entrenched: each hits on 1-2
    assert fractions(garrison_odds(GarrisonInput(two, 0))) == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    assert fractions(garrison_odds(GarrisonInput(two, 1))) == {1: F(4, 9), 2: F(5, 9)}


def landing(csa_units=(), **options):
    """Two Union militia sail from the port U1 to the CSA recruitment port R3 and land (1861)."""
    units = [unit("L1", "USA", "U1"), unit("L2", "USA", "U1"), unit("W1", "USA", "washington"), *csa_units]
    table = Table(battle_setup(units, basic_rules=TEST_BASIC), supply=False, **options)
    table.to_movement(3)
    table.do("march", units=["L1", "L2"], to="R3", amphibious=True)
    table.do("end_movement")
    table.do("start_battle", box="R3")
    table.do("battle_command", 1, 1)
    return table


@pytest.mark.rule("HD-4.11", "HD-5.3", "HD-5.4")
def test_a_win_against_the_garrison_alone_gives_no_promotion():
    """TV-14 / HD-5.3: the Union beats the garrison alone (always entrenched: its militia 2 hits on 1): no
    promotion. The port is now a Union landing (HD-5.4)."""
    table = landing()
    assert "HD-4.11" in table.events[-2].rules
    assert battle_board(table.state).sides[1].garrison_hits == 0
    step = table.do("fire", 1, 2)
    assert step.results[0].details["hit_on"] == {"L1": 1, "L2": 1}
    table.do("take_hits")  # the garrison is the only thing that can take the hit
    assert battle_board(table.state).sides[1].garrison_hits == 1   # one hit: still there, and it fires back
    fired = table.do("fire", 1)
    assert fired.results[0].details["hit_on"] == {"Garrison": 1}   # militia reduced: 1
    table.do("take_hits", units=["L1"])
    table.do("morale_checks", 1, 1)           # the garrison (A13) and L1 check, and hold
    table.do("next_round")
    table.do("fire", 6, 1)                    # L1, reduced (1 - 1 = 0), cannot hit; L2 hits on 1
    table.do("take_hits")
    table.do("desertion_checks", 1)           # L1, reduced, on the winning side: stays
    assert table.state.battle is None and table.state.battles[-1].garrison_only
    assert "R3" in table.state.landed
    table.do("end_battles")
    table.refuse("HD-5.3", "promote", unit="L2")
    assert [d.action for d in due_now(table.state)] == ["end_promotion"]


@pytest.mark.rule("HD-5.3", "HD-4.11")
def test_promotion_when_regular_csa_units_also_fought():
    """HD-5.3: the garrison fought beside a CSA unit, and both lost: the Union promotes one participant."""
    table = landing([unit("C6", "CSA", "R3")])
    table.do("fire", 1, 1)
    table.do("take_hits", units=["Garrison", "Garrison"])
    table.do("fire", 6)
    table.do("next_round")
    table.do("fire", 1, 1)
    table.do("take_hits", units=["C6", "C6"])
    assert table.state.battle is None and not table.state.battles[-1].garrison_only
    table.do("end_battles")
    table.refuse("HD-5.3", "promote", unit="W1")      # did not fight
    table.do("promote", unit="L1")
    assert table.unit("L1").grade == "veteran"
    table.refuse("HD-5.3", "promote", unit="L2")      # one promotion per battle


@pytest.mark.rule("HD-A13", "HD-4.11")
@pytest.mark.parametrize("persistence, hits", [("fresh", 0), ("persistent", 1)])
def test_option_a13_garrison_hits(persistence, hits):
    """A13: each landing meets a fresh garrison (default), or its hits stay on the port."""
    table = landing(garrison_persistence=persistence)
    table.do("fire", 1, 6)
    table.do("take_hits")
    table.do("fire", 6)
    table.do("morale_checks", 1)              # the garrison, hit once, checks as one unit (A13) and holds
    table.do("retreat", side="USA", to="U1")
    table.do("end_battles")
    table.do("end_promotion")
    table.do("end_player_turn")
    table.to_battles()
    table.pass_turn()
    table.to_movement(3)
    table.do("march", units=["L1", "L2"], to="R3", amphibious=True)
    table.do("end_movement")
    table.do("start_battle", box="R3", amphibious=True)
    assert table.state.battle.of("CSA").garrison == hits


@pytest.mark.rule("HD-4.11")
def test_the_garrison_defends_only_against_union_landings():
    """HD-4.11: no garrison when the Union arrives other than by landing, or with coastal defence off."""
    units = [unit("L1", "USA", "R3"), unit("C6", "CSA", "R3")]
    table = Table(battle_setup(units, basic_rules=TEST_BASIC), supply=False)
    table.to_battles()
    table.do("start_battle", box="R3")
    assert table.state.battle.of("CSA").garrison is None
    table = landing([unit("C6", "CSA", "R3")], coastal_defence=False)
    assert table.state.battle.of("CSA").garrison is None


@pytest.mark.rule("HD-4.11")
def test_the_garrison_never_retreats():
    """HD-4.11: if the CSA units retreat, the garrison stays and fights on alone."""
    table = landing([unit("C6", "CSA", "R3")])
    table.do("fire", 6, 6)
    table.do("fire", 6, 6)
    step = table.do("retreat", side="CSA", to="C")
    assert "fights on alone" in step.summary and table.state.battle is not None
    assert table.unit("C6").box == "C"


# --- containment ----------------------------------------------------------------------------------

def contained(**options):
    """The example's port P: Union USA 4, USA 5 (entrenched, for A20) contained by the entrenched CSA 9."""
    units = [unit("USA 4", "USA", "P", entrenched=True), unit("USA 5", "USA", "P", entrenched=True),
             unit("CSA 9", "CSA", "P", entrenched=True), unit("USA 1", "USA", "washington")]
    return Table(setup(units=units, leaders=[], basic_rules=TEST_BASIC), supply=False, **options)


@pytest.mark.rule("HD-5.4", "HD-A20", "HD-5.2")
def test_contained_union_units_break_out_first():
    """HD-5.4: contained Union units may not march out; the break-out battle comes first in the movement
    segment and costs a march; in it the attacker has left its entrenchment (A20), the defender keeps its own.
    Won, the units move on, having used 1 of their 2 marches."""
    table = contained()
    table.to_movement(6)                       # 1861 Union: 4 marches
    table.refuse("HD-5.4", "march", units=["USA 4"], to="R2")
    assert "breakout" in [d.action for d in due_now(table.state)]
    table.do("breakout", box="P")
    assert table.state.marches_left == 3 and table.unit("USA 4").marches == 1
    table.do("battle_command", 6, 6)
    union = table.do("fire", 1, 6)             # at the entrenched CSA 9: militia 2 - 1
    assert union.results[0].details["hit_on"] == {"USA 4": 1, "USA 5": 1}
    table.do("take_hits", units=["CSA 9"])
    csa = table.do("fire", 3)                  # at the Union, entrenched but attacking: no penalty (A20)
    assert csa.results[0].details["hit_on"] == {"CSA 9": 1}
    table.do("morale_checks", 1)
    table.do("next_round")
    table.do("fire", 1, 6)
    table.do("take_hits")
    assert table.state.battle is None and "P" not in table.state.contained and "P" in table.state.broken_out
    table.do("march", units=["USA 4"], to="R2")
    table.refuse("HD-5.2", "march", units=["USA 4"], to="A")
    table.refuse("HD-5.4", "breakout", box="P")


@pytest.mark.rule("HD-5.4")
def test_break_outs_come_before_other_marches():
    table = contained()
    table.to_movement(6)
    table.do("march", units=["USA 1"], to="U1")
    table.refuse("HD-5.4", "breakout", box="P")


@pytest.mark.rule("HD-5.4", "HD-5.5")
def test_the_csa_contains_a_landing_and_entrenches_beside_it():
    """HD-5.4: CSA units in a port the Union took by landing may contain it instead of battle, and may then
    entrench beside the enemy (HD-5.5: a march); anywhere else, no entrenching beside enemy units."""
    units = [unit("USA 4", "USA", "P"), unit("CSA 9", "CSA", "P"), unit("CSA 1", "CSA", "A"),
             unit("USA 1", "USA", "A")]
    table = Table(setup(units=units, leaders=[], contained=[]), supply=False)
    table.to_battles()
    table.pass_turn()
    table.to_movement(6)                       # 1861 CSA: 5 marches
    table.refuse("HD-5.5", "entrench", box="P")
    table.refuse("HD-5.4", "declare_containment", box="A")
    step = table.do("declare_containment", box="P")
    assert "HD-A20" in step.rules
    table.refuse("HD-5.4", "declare_containment", box="P")
    table.do("entrench", box="P")
    assert table.unit("CSA 9").entrenched and table.state.marches_left == 4 and table.unit("CSA 9").marches == 1
    table.refuse("HD-5.5", "entrench", box="A")


@pytest.mark.rule("HD-5.5")
def test_entrenching_spends_a_normal_march():
    table = Table(setup(units=[unit("U1", "USA", "U1"), unit("U2", "USA", "U1")], leaders=[], contained=[]),
                  supply=False)
    table.to_movement(1)                       # 2 marches
    table.do("entrench", box="U1")
    assert table.state.marches_left == 1 and all(table.unit(n).entrenched for n in ("U1", "U2"))
    table.refuse("HD-5.5", "entrench", box="U1")  # already entrenched
    table.do("march", units=["U1"], to="washington")
    assert not table.unit("U1").entrenched and table.state.marches_left == 0


# --- every landing fights the garrison (HD-4.11, TV-14, A13) ------------------------------------------

def sail(amphibious=True, **options):
    """Two Union militia at U1 sail to the CSA recruitment port R3, which holds no CSA unit (1861, 4 marches)."""
    units = [unit("L1", "USA", "U1"), unit("L2", "USA", "U1"), unit("W1", "USA", "washington")]
    table = Table(battle_setup(units, basic_rules=TEST_BASIC), supply=False, **options)
    table.to_movement(6)
    table.do("march", units=["L1", "L2"], to="R3", amphibious=amphibious)
    return table


@pytest.mark.rule("HD-4.11")
def test_vector_14_a_landing_at_an_empty_port_fights_the_garrison():
    """TV-14 / HD-4.11: a Union landing at an empty CSA-held recruitment port still fights the garrison: the
    battle is due (the battle segment cannot end without it), the landed units cannot march on, the port is not
    taken without it; the battle is the landing's, with the garrison alone."""
    table = sail()
    assert garrison_due(table.state) == ("R3",) and "HD-4.11" in table.events[-1].rules
    table.refuse("HD-4.11", "march", units=["L1"], to="C")
    table.do("end_movement")
    assert [(d.action, d.rule) for d in due_now(table.state)] == [("start_battle", "HD-4.11")]
    table.refuse("HD-4.11", "end_battles")
    table.refuse("HD-4.11", "set_control", box="R3", side="USA")
    table.refuse("HD-4.11", "start_battle", box="R3", amphibious=False)
    step = table.do("start_battle", box="R3")
    assert "HD-4.11" in step.rules and table.state.battle.amphibious
    assert table.state.battle.of("CSA").units == () and table.state.battle.of("CSA").garrison == 0
    assert garrison_due(table.state) == ()


@pytest.mark.rule("HD-4.11", "HD-5.4")
def test_a_landing_does_not_leave_its_port_to_join_another_battle():
    """HD-4.11: units that landed at a garrisoned port neither march on nor join a battle elsewhere before they beat
    the garrison (a landing left without its battle would hold the battle segment for ever); nor do contained
    Union units before their break-out (HD-5.4)."""
    units = [unit("L1", "USA", "U1"), unit("U2", "USA", "A"), unit("C1", "CSA", "A"), unit("U3", "USA", "P"),
             unit("C3", "CSA", "P"), unit("U4", "USA", "X")]
    table = Table(setup(units=units, leaders=[], basic_rules=TEST_BASIC), supply=False)  # P contained
    table.to_movement(6)
    table.do("march", units=["L1"], to="R3", amphibious=True)
    table.do("end_movement")
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    assert offered(table.state, "reinforce", "units", side="USA") == ["U4"]
    assert barred(table.state, "reinforce", "units", side="USA") == {"L1": "HD-4.11", "U3": "HD-5.4"}
    table.refuse("HD-4.11", "reinforce", side="USA", units=["L1"])


@pytest.mark.rule("HD-4.11")
def test_a_landing_whose_units_have_left_has_no_garrison_battle():
    """HD-4.11: units landed at the CSA recruitment port R3 while the Union held it (no garrison) and marched on;
    the port then changes hands on the players' map: no landing stands there, so no garrison battle holds the
    battle segment."""
    data = battle_setup([unit("L1", "USA", "washington"), unit("C1", "CSA", "A")])
    data["control"]["R3"] = "USA"
    table = Table(data, supply=False)
    table.to_movement(6)
    table.do("march", units=["L1"], to="R3", amphibious=True)
    table.do("march", units=["L1"], to="washington")
    table.do("end_movement")
    table.do("set_control", box="R3", side="CSA")
    assert garrison_due(table.state) == () and offered(table.state, "start_battle", "box") == []
    table.do("end_battles")


@pytest.mark.rule("HD-4.11")
def test_vector_14_a_march_overland_meets_no_garrison():
    """TV-14: a Union march into that port overland does not fight the garrison: no battle is due, and a battle
    there cannot be called a landing."""
    table = sail(amphibious=False)
    assert garrison_due(table.state) == ()
    table.do("end_movement")
    assert offered(table.state, "start_battle", "box") == []
    table.refuse("HD-3", "start_battle", box="R3")  # nobody to fight
    table.do("end_battles")
    table = Table(battle_setup([unit("L1", "USA", "R3"), unit("C1", "CSA", "R3")]), supply=False)
    table.to_battles(6)
    assert barred(table.state, "start_battle", "amphibious", box="R3") == {True: "HD-4.11"}
    table.refuse("HD-4.11", "start_battle", box="R3", amphibious=True)


@pytest.mark.rule("HD-4.11", "HD-5.9")
def test_a_landing_goes_to_a_port():
    """A landing is made at a port; the CSA lands only after foreign intervention (HD-5.9)."""
    table = sail()
    table.refuse("HD-4.11", "march", units=["W1"], to="A", amphibious=True)
    to = offered(table.state, "march", "to", units=["W1"])
    landing = [b for b in to if True in offered(table.state, "march", "amphibious", units=["W1"], to=b)]
    assert sorted(landing) == ["P", "R3", "U1"]
    assert barred(table.state, "march", "amphibious", units=["W1"], to="A") == {True: "HD-4.11"}


@pytest.mark.rule("HD-4.11", "HD-A13", "HD-4.4")
@pytest.mark.parametrize("morale", ["checks", "never"])
def test_the_garrison_checks_morale_as_one_unit(morale):
    """A13: hit once, the garrison checks battlefield morale as one unit at its grade (militia, morale 2 in 1861),
    always with -1 (entrenched): it routs on 4+ (1/2). Routed, it counts as eliminated: the landing wins, with no
    promotion (HD-5.3). Option: it never checks."""
    table = landing(**({} if morale == "checks" else {"garrison_morale": morale}))
    table.do("fire", 1, 6)
    table.do("take_hits")
    table.do("fire", 6)                        # the garrison misses
    if morale == "never":
        assert battle_board(table.state).step == "between"
        return
    assert rout_chances(table.state) == ({"Garrison": F(1, 2)}, F(1, 2))
    step = table.do("morale_checks", 4)
    assert step.results[0].inputs["checks"] == [("Garrison", "militia", 1861, True)]
    assert table.state.battle is None and table.state.battles[-1].winner == "USA"
    assert table.state.battles[-1].garrison_only and "R3" in table.state.landed


@pytest.mark.rule("HD-4.11", "HD-4.10")
def test_the_garrison_keeps_its_entrenchment_beside_unentrenched_units():
    """HD-4.11: the garrison is always entrenched, and sharing the side with the unentrenched C6 never takes that
    away. The Union militia (2) hit the garrison on 1 (2 - 1) and C6 on 1-2: a 2 hits C6 only."""
    table = landing([unit("C6", "CSA", "R3")])
    assert fractions(fire_preview(table.state)) == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    step = table.do("fire", 2, 2)
    assert step.results[0].details == {"hit_on": {"L1": 1, "L2": 1}, "open_only": 2}
    table.refuse("HD-4.10", "take_hits", units=["Garrison", "C6"])  # 2 hits, one of them on the open C6 only
    table.do("take_hits", units=["C6", "C6"])
    assert table.unit("C6").status == "eliminated" and table.state.battle.of("CSA").garrison == 0
    table.do("fire", 6)
    table.do("next_round")
    table.do("fire", 1, 2)                     # the 1 may fall on the garrison: it is the only unit left
    table.do("take_hits")
    assert table.state.battle.of("CSA").garrison == 1


# --- Fort Monroe and Pensacola (HD-5.4) -----------------------------------------------------------------

def forts_map(*fort_ports):
    """The example map with Fort Monroe (Union-held port) and Pensacola (CSA port) added and designated."""
    data = setup(units=[unit("U1", "USA", "FM"), unit("C1", "CSA", "FM"), unit("C2", "CSA", "PEN"),
                        unit("U2", "USA", "PEN")], leaders=[], contained=[])
    data["map"]["boxes"] += [box("FM", "USA", 0, port="FM" in fort_ports), box("PEN", "CSA", 1, port=True)]
    data["map"]["designated"] = {"fort_monroe": "FM", "pensacola": "PEN"}
    data["control"].update(FM="USA", PEN="CSA")
    return data


@pytest.mark.rule("HD-5.4")
def test_fort_monroe_and_pensacola_count_as_landed_ports_while_the_union_holds_them():
    """HD-5.4: the map designates Fort Monroe and Pensacola (both ports); they count as ports the Union took by
    landing whenever the Union holds them: the CSA may contain Fort Monroe; Pensacola only once the Union holds it."""
    with pytest.raises(RuleError) as refused:
        Table(forts_map())
    assert refused.value.rule == "HD-5.4"
    table = Table(forts_map("FM"), supply=False)
    assert table.state.landed_port("FM") and not table.state.landed_port("PEN")
    table.to_battles()
    table.pass_turn()
    table.to_movement(6)
    table.refuse("HD-5.4", "declare_containment", box="PEN")
    table.do("declare_containment", box="FM")
    table.do("set_control", box="PEN", side="USA")
    table.do("declare_containment", box="PEN")
    assert table.state.contained == ("FM", "PEN")
    assert Table(forts_map("FM") | {"contained": ["FM"]}).state.contained == ("FM",)


@pytest.mark.rule("HD-5.4", "HD-8")
def test_the_map_is_warned_when_the_forts_are_not_designated():
    assert any("fort_monroe" in w and "pensacola" in w for w in map_warnings(Table().state.game_map))
