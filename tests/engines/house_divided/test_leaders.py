"""HD-5.7 leaders: moving with units and alone (A23), capture and return, the dated face change."""
from __future__ import annotations

import pytest

from tests.engines.house_divided.support import Table, setup, unit

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
    table.refuse("HD-A23", "move_leader", leader="Grant", to="washington")
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
