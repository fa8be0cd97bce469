"""HD-5.7 leaders: moving with units and alone (A23), capture and return, the dated face change."""
from __future__ import annotations

import pytest

from tests.engines.house_divided.support import TEST_BASIC, Table, barred, offered, setup, unit

LEADERS = [{"name": "Grant", "front": 1, "back": 3, "box": "washington"}, {"name": "Sherman", "front": 2},
           {"name": "Lee", "front": 3, "box": "C"}]


def game(**options):
    units = [unit("U1", "USA", "washington"), unit("U2", "USA", "washington"), unit("C1", "CSA", "B"),
             unit("C2", "CSA", "C")]
    table = Table(setup(units=units, leaders=LEADERS, contained=[]), supply=False, **options)
    table.to_movement(6)  # 1861 Union: 4 marches
    return table


@pytest.mark.rule("HD-5.7")
def test_a_leader_moves_free_with_the_units_of_his_box():
    table = game()
    step = table.do("march", units=["U1"], to="U1", leaders=["Grant"])
    assert table.state.leader("Grant").box == "U1" and table.state.marches_left == 3 and "HD-5.7" in step.rules
    table.refuse("HD-5.7", "march", units=["U2"], to="X", leaders=["Grant"])  # Grant is no longer with U2
    table.refuse("HD-5.7", "march", units=["U2"], to="X", leaders=["Lee"])


@pytest.mark.rule("HD-5.7", "HD-A23")
def test_a_leader_alone_makes_two_moves_without_marches():
    """A23: up to 2 march-moves a turn alone, no march spent, no effect on other units."""
    table = game()
    table.do("move_leader", leader="Grant", to="U1")
    table.do("move_leader", leader="Grant", to="X")
    assert table.state.marches_left == 4 and table.state.leader("Grant").moves == 2
    table.refuse("HD-5.7", "move_leader", leader="Grant", to="washington")  # his 2 march-moves are made
    table.refuse("HD-5.7", "move_leader", leader="Lee", to="B")        # not his side's turn
    table.refuse("HD-5.7", "move_leader", leader="Sherman", to="X")    # not on the map yet
    strict = game(leader_moves="with_units")
    strict.refuse("HD-A23", "move_leader", leader="Grant", to="U1")


@pytest.mark.rule("HD-5.7")
def test_a_leader_alone_with_enemy_units_is_captured_and_returns():
    """HD-5.7: alone with enemy units, a leader is captured, not killed; he returns in his side's next
    recruitment segment, to be placed again."""
    table = game()
    table.do("end_movement")
    table.pass_turn()
    table.to_movement(6)
    step = table.do("move_leader", leader="Lee", to="washington")
    assert "Lee is captured" in step.summary and table.state.leader("Lee").status == "captured"
    table.do("end_movement")
    table.do("end_battles")
    step = table.do("end_promotion")
    assert "Lee returns" in step.summary and table.state.leader("Lee").status == "waiting"
    table.do("place_leader", leader="Lee", box="C")
    assert table.state.leader("Lee").box == "C"


@pytest.mark.rule("HD-5.7")
def test_the_dated_face_change():
    """HD-5.7: ratings and the face change are the players' counters: Grant's rating rises from 1 to 3."""
    table = game()
    step = table.do("flip_leader", leader="Grant")
    assert table.state.leader("Grant").rating == 3 and "1 -> 3" in step.summary
    table.refuse("HD-5.7", "flip_leader", leader="Grant")
    table.refuse("HD-5.7", "flip_leader", leader="Sherman")  # no back rating entered
    table.do("place_leader", leader="Sherman", box="washington")
    table.refuse("HD-5.7", "place_leader", leader="Sherman", box="U1")
    table.refuse("HD-5.7", "place_leader", leader="Lee", box="U1")


@pytest.mark.rule("HD-5.7")
def test_leaders_off():
    table = game(leaders=False)
    table.refuse("HD-5.7", "move_leader", leader="Grant", to="U1")
    table.refuse("HD-5.7", "march", units=["U1"], to="U1", leaders=["Grant"])


@pytest.mark.rule("HD-5.7", "HD-A23")
def test_vector_16_two_march_moves_a_turn_with_units_or_alone():
    """TV-16: Grant rides with a stack washington -> U1 (his move 1), then with another stack U1 -> X (his move
    2). A third move, with units or alone, is refused (HD-5.7). The player spent 2 marches on the two stacks
    and none on Grant."""
    units = [unit("U1", "USA", "washington"), unit("U2", "USA", "U1"), unit("C1", "CSA", "B")]
    table = Table(setup(units=units, leaders=LEADERS, contained=[]), supply=False)
    table.to_movement(6)  # 1861 Union: 4 marches
    table.do("march", units=["U1"], to="U1", leaders=["Grant"])
    assert table.state.leader("Grant").moves == 1
    table.do("march", units=["U2"], to="X", leaders=["Grant"])
    assert table.state.leader("Grant").moves == 2 and table.state.leader("Grant").box == "X"
    assert table.state.marches_left == 2
    table.refuse("HD-5.7", "march", units=["U2"], to="washington", leaders=["Grant"])
    table.refuse("HD-5.7", "move_leader", leader="Grant", to="washington")
    assert offered(table.state, "march", "leaders", units=["U2"]) == [] and \
        barred(table.state, "march", "leaders", units=["U2"]) == {"Grant": "HD-5.7"}
    assert offered(table.state, "move_leader", "leader") == [] and barred(table.state, "move_leader", "leader") == \
        {"Grant": "HD-5.7"}
    table.do("march", units=["U2"], to="washington")  # the units go on without him
    assert table.state.leader("Grant").box == "X"


@pytest.mark.rule("HD-5.7")
def test_the_lists_offer_only_leaders_with_a_march_move_left():
    """HD-5.7: the leaders offered to ride along or to move alone are those with a march-move left."""
    table = game()
    assert offered(table.state, "march", "leaders", units=["U1"]) == ["Grant"]
    assert offered(table.state, "move_leader", "leader") == ["Grant"]
    table.do("move_leader", leader="Grant", to="U1")
    assert offered(table.state, "march", "leaders", units=["U1"]) is None  # no leader at washington now
    table.do("march", units=["U1"], to="U1")
    assert offered(table.state, "march", "leaders", units=["U1"]) == ["Grant"]
    table.do("march", units=["U1"], to="X", leaders=["Grant"])
    assert offered(table.state, "march", "leaders", units=["U1"]) == []
    assert offered(table.state, "move_leader", "leader") == []
    assert sorted(offered(table.state, "move_leader", "to", leader="Grant")) == sorted(
        b.id for b in table.state.game_map.boxes if b.id not in ("X", "europe"))


def joining(**options):
    """A Union attack at A; Grant and Sherman at washington with U9, out of the battle."""
    units = [unit("U1", "USA", "A"), unit("C1", "CSA", "A"), unit("U9", "USA", "washington")]
    leaders = [{"name": "Grant", "front": 1, "box": "washington"}, {"name": "Sherman", "front": 2, "box": "washington"}]
    table = Table(setup(units=units, leaders=leaders, contained=[], basic_rules=TEST_BASIC), supply=False, **options)
    table.to_movement(6)
    return table


@pytest.mark.rule("HD-5.7")
def test_joining_a_battle_is_one_of_the_leaders_march_moves():
    """HD-5.7: reinforcing a battle costs a leader one of his 2 march-moves (and the player no march): Sherman,
    who moved twice, cannot join; Grant, who moved once, joins and has made his 2."""
    table = joining()
    table.do("move_leader", leader="Sherman", to="X")
    table.do("move_leader", leader="Sherman", to="washington")
    table.do("move_leader", leader="Grant", to="U1")
    table.do("move_leader", leader="Grant", to="washington")
    table.do("end_movement")
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    assert offered(table.state, "reinforce", "leaders", side="USA", units=[]) == []
    assert barred(table.state, "reinforce", "leaders", side="USA", units=[]) == {"Grant": "HD-5.7", "Sherman": "HD-5.7"}
    table.refuse("HD-3", "reinforce", side="USA", leaders=["Sherman"])  # no leader can join: units must
    table = joining()
    table.do("move_leader", leader="Grant", to="U1")
    table.do("end_movement")
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    assert offered(table.state, "reinforce", "leaders", side="USA", units=[]) == ["Grant", "Sherman"]
    table.do("reinforce", side="USA", leaders=["Grant"])
    assert table.state.leader("Grant").moves == 2 and table.state.leader("Grant").box == "A"
    assert table.state.marches_left == 4


@pytest.mark.rule("HD-A23", "HD-5.7")
def test_with_units_only_a_leader_joins_a_battle_with_units_of_his_box():
    """A23 (b): leaders move only with units: Sherman may not join the battle alone, but may with U9 from his box."""
    table = joining(leader_moves="with_units")
    table.do("end_movement")
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    assert barred(table.state, "reinforce", "leaders", side="USA", units=[]) == {"Grant": "HD-A23", "Sherman": "HD-A23"}
    assert offered(table.state, "reinforce", "leaders", side="USA", units=["U9"]) == ["Grant", "Sherman"]
    table.refuse("HD-3", "reinforce", side="USA", leaders=["Sherman"])  # not alone: with units only
    table.do("reinforce", side="USA", units=["U9"], leaders=["Sherman"])
    assert table.state.leader("Sherman").box == "A" and table.state.leader("Sherman").moves == 1
