"""Movement (DX-8.0-8.3b), terrain play (DX-10.2), reinforcements (DX-9.0), specials (DX-12.0) and the order of
the steps (DX-5.0)."""
from __future__ import annotations

import pytest

from engines.dixie.firepower import able_firers
from engines.dixie.guide import due_now
from engines.dixie.movement import destinations
from engines.dixie.stacking import unit_limit
from tests.engines.dixie.support import Table, advanced, basic_decks, leader, special, terrain, unit

CARDS = [unit(1, "CSA", "CAV", cv=2), leader(2, "CSA"), leader(3, "CSA"), unit(4, "CSA", "CAV", cv=2),
         unit(5, "CSA"), unit(6, "CSA", "ART", cv=2, horse=True), unit(7, "CSA"),
         unit(11, "USA"), unit(12, "USA"), unit(13, "USA")]
PLACES = {"CSA-2": "CSA-L", "CSA-3": "CSA-C", "CSA-4": "CSA-R", "CSA-5": "CSA-C", "CSA-7": "CSA-L",
          "CSA-6": "CSA-R", "USA-11": "USA-L", "USA-12": "USA-C"}


def turn_one() -> Table:
    table = Table(CARDS)
    table.deploy(PLACES)
    table.to_step("movement")
    return table


def csa_movement() -> Table:
    """CSA turn 3, movement: in turn 1 CSA-5 and then its leader CSA-3 advanced into USA-C."""
    table = turn_one()
    table.do("move", card="CSA-5", to="USA-C")
    table.do("move", card="CSA-3", to="USA-C")
    table.do("end_movement")
    table.do("reinforce")
    table.next_turn()
    table.to_step("movement")
    return table


@pytest.mark.rule("DX-8.0")
def test_moves_go_across_or_to_and_from_the_reserve():
    """DX-8.0 (Fig. 3): reserve <-> own line, position <-> the one across; no sideways or diagonal moves, no move
    from the enemy line to the reserve; one move per card."""
    table = turn_one()
    table.refuse("DX-8.0", "move", card="CSA-7", to="CSA-C")      # sideways
    table.refuse("DX-8.0", "move", card="CSA-7", to="USA-C")      # diagonal
    table.refuse("DX-8.0", "move", card="CSA-7", to="USA-L")      # CSA-L faces USA-R
    table.refuse("DX-8.0", "move", card="CSA-7", to="nowhere")
    table.do("move", card="CSA-7", to="USA-R")
    table.refuse("DX-8.0", "move", card="CSA-7", to="reserve")     # one move, and none from the enemy line
    table.do("move", card="CSA-1", to="CSA-R")


@pytest.mark.rule("DX-8.0", "DX-5.0")
def test_only_the_active_side_moves_in_its_movement_step():
    """DX-5.0 / DX-8.0: the steps run in order; the side whose turn it is moves."""
    table = Table(CARDS)
    table.deploy(PLACES)
    table.refuse("DX-8.0", "move", card="CSA-7", to="USA-R")         # still the morale step
    table.refuse("DX-7.0", "fire", firers=["CSA-7"], target="CSA-L")  # no fire in the morale step
    table.to_step("movement")
    table.refuse("DX-8.0", "move", card="USA-11", to="CSA-R")
    table.refuse("DX-5.0", "end_morale")


@pytest.mark.rule("DX-8.1", "DX-8.2")
def test_advance_reveals_and_the_reserve_hides():
    """DX-8.1: moving into a position holding enemy cards is an advance; after all moves every card in an
    engaged position is turned face-up, and stays so until it enters the reserve. DX-8.2: an engaged card moving
    out is disengaging."""
    table = turn_one()
    step = table.do("move", card="CSA-5", to="USA-C")
    assert "advances" in step.summary and table.card("CSA-5").advanced and not table.card("CSA-5").face_up
    table.do("end_movement")
    assert table.card("CSA-5").face_up and table.card("USA-12").face_up and not table.card("USA-11").face_up
    table.do("reinforce")
    table.next_turn()
    table.to_step("movement")
    step = table.do("move", card="CSA-5", to="CSA-C")
    assert "disengages" in step.summary and table.card("CSA-5").disengaged and table.card("CSA-5").face_up
    table.do("move", card="CSA-3", to="reserve")
    assert not table.card("CSA-3").face_up


@pytest.mark.rule("DX-8.3b")
def test_vector_08_double_moves():
    """Vector 8 (DX-8.3b): cavalry reserve -> own R -> enemy L; leader own L -> reserve -> own R; leader enemy C ->
    own C -> reserve are legal; cavalry own R -> enemy L -> own R (advance and disengage) is not."""
    table = csa_movement()
    for card, first, second in (("CSA-1", "CSA-R", "USA-L"), ("CSA-2", "reserve", "CSA-R"),
                                ("CSA-3", "CSA-C", "reserve")):
        table.do("move", card=card, to=first)
        table.do("move", card=card, to=second)
        assert table.card(card).loc == second
    table.refuse("DX-8.3b", "move", card="CSA-1", to="CSA-R")
    table.do("move", card="CSA-4", to="USA-L")
    table.refuse("DX-8.3b", "move", card="CSA-4", to="CSA-R")


@pytest.mark.rule("DX-8.3b")
def test_no_third_move_no_advance_after_disengaging_no_passing_through():
    """DX-8.3b: two moves at most; not through a position holding enemy cards; a card that disengaged may not
    advance in the same turn."""
    table = csa_movement()
    table.do("move", card="CSA-3", to="CSA-C")
    table.do("move", card="CSA-3", to="reserve")
    table.refuse("DX-8.3b", "move", card="CSA-3", to="CSA-L")
    table.do("move", card="CSA-1", to="CSA-C")
    table.do("move", card="CSA-1", to="USA-C")
    assert table.card("CSA-1").advanced


@pytest.mark.rule("DX-7.2", "DX-8.3b")
def test_horse_artillery_moves_once_then_may_fire():
    """DX-7.2: horse artillery may move and then fire (not fire and then move), and never moves twice."""
    table = csa_movement()
    table.refuse("DX-7.2", "fire", firers=["CSA-6"], target="USA-L")   # has not moved yet
    table.do("move", card="CSA-6", to="USA-L")
    table.refuse("DX-8.0", "move", card="CSA-6", to="CSA-R")
    table.do("fire", 3, 4, firers=["CSA-6"], target="USA-L")
    assert table.card("CSA-6").fired and table.state.tasks[0].hits == 1


@pytest.mark.rule("DX-11.1a", "DX-3.1")
def test_terrain_limits_the_attacker_like_the_defender():
    """DX-11.1a: with a terrain card in the position both sides may hold 3 units: at most 3 may advance in. A 4th
    infantry card could not move out again, so the movement could not end within the limits: its advance is
    refused (DX-3.1)."""
    cards = [*(unit(i, "CSA") for i in range(1, 5)), unit(11, "USA"), terrain(12, "USA", "R")]
    table = Table(cards)
    table.deploy({**{f"CSA-{i}": "CSA-L" for i in range(1, 5)}, "USA-11": "USA-R", "USA-12": "USA-R"})
    table.to_step("movement")
    for i in range(1, 4):
        table.do("move", card=f"CSA-{i}", to="USA-R")
    assert unit_limit(table.state, "CSA", "USA-R") == unit_limit(table.state, "USA", "USA-R") == 3
    assert "stacking limits" in table.refuse("DX-3.1", "move", card="CSA-4", to="USA-R").message
    table.do("end_movement")


@pytest.mark.rule("DX-10.2", "DX-3.3")
def test_terrain_is_played_into_an_unengaged_own_position():
    """DX-10.2: terrain from the reserve in the Movement step, face-up, only into an unengaged own-line position
    printed on it."""
    cards = [unit(1, "CSA"), terrain(2, "CSA", "L"), terrain(3, "CSA", "R"), unit(11, "USA"), unit(12, "USA")]
    table = Table(cards)
    table.deploy({"USA-11": "USA-R", "USA-12": "USA-R", "CSA-1": "CSA-R"})
    table.refuse("DX-10.2", "play_terrain", card="CSA-2", position="CSA-L")     # morale step
    table.to_step("movement")
    table.refuse("DX-3.3", "play_terrain", card="CSA-2", position="CSA-C")
    table.refuse("DX-3.3", "play_terrain", card="CSA-2", position="USA-R")
    table.do("play_terrain", card="CSA-2", position="CSA-L")
    assert table.card("CSA-2").face_up
    table.refuse("DX-10.2", "play_terrain", card="CSA-2", position="CSA-L")     # no longer in the reserve


@pytest.mark.rule("DX-10.2")
def test_terrain_cannot_be_played_into_an_engaged_position():
    """DX-10.2: not into an engaged position."""
    rows = [unit(1, "CSA"), terrain(2, "CSA", "R"), unit(11, "USA")]
    other = advanced(rows, {"CSA-1": "CSA-R", "USA-11": "USA-L"}, [])
    other.to_step("movement")
    other.do("move", card="USA-11", to="CSA-R")
    other.do("end_movement")
    other.do("reinforce")
    other.to_step("movement")
    other.refuse("DX-10.2", "play_terrain", card="CSA-2", position="CSA-R")


@pytest.mark.rule("DX-9.0", "DX-5.0")
def test_reinforcements_csa_one_usa_two():
    """DX-9.0: at the end of its turn the CSA draws 1 card, the USA 2, into the reserve; the companion draws at
    random when no card is named; then the other side's turn begins (DX-5.0)."""
    table = Table(basic_decks(), custom_decks=False)
    table.do("start_battle")
    table.to_step("reinforcement")
    table.refuse("DX-9.0", "reinforce", cards=["CSA-19", "CSA-20"])
    table.refuse("DX-9.0", "reinforce", cards=["USA-119"])
    step = table.do("reinforce", cards=["CSA-20"])
    assert table.card("CSA-20").loc == "reserve" and "CSA draws 1 card" in step.summary
    assert (table.state.turn, table.state.active, table.state.step) == (2, "USA", "morale")
    table.to_step("reinforcement")
    step = table.do("reinforce", 12, 1)
    assert {c.id for c in table.state.at("reserve", "USA")} >= {"USA-130", "USA-119"}
    assert len(table.state.at("reinforcements", "USA")) == 10 and "USA draws 2 card" in step.summary


@pytest.mark.rule("DX-12.0")
def test_specials_last_for_the_turn_and_keep_their_timing():
    """DX-12.0: a special is played from the reserve onto any position, in its owner's turn or (if printed) the
    enemy's, and is discarded at the end of the turn unless printed otherwise; it may raise stacking."""
    cards = [unit(1, "CSA"), special(2, "CSA", stack_bonus=1), special(3, "CSA", timing="enemy"),
             special(4, "CSA", lasting=True, modifiers="own morale +1"), *(unit(10 + i, "CSA") for i in range(5)),
             unit(21, "USA")]
    table = Table(cards)
    table.deploy({"CSA-1": "CSA-L", "USA-21": "USA-R"})
    table.refuse("DX-12.0", "play_special", card="CSA-3", position="CSA-L")
    table.do("play_special", card="CSA-2", position="CSA-L")
    table.do("play_special", card="CSA-4", position="USA-R")
    assert unit_limit(table.state, "CSA", "CSA-L") == 5
    table.next_turn()
    assert table.card("CSA-2").loc == "eliminated" and table.card("CSA-4").loc == "USA-R"
    table.do("play_special", card="CSA-3", position="CSA-R")
    table.next_turn()
    assert table.card("CSA-3").loc == "eliminated"


@pytest.mark.rule("DX-8.3b", "DX-8.0")
def test_vector_08_where_a_card_may_go_next():
    """Vector 8 as the step guide offers it: after cavalry advances own R -> enemy L it may not come back (advance
    and disengage); a leader gone own C -> reserve may go on to any own position; a card that has made its move
    has nowhere to go."""
    table = csa_movement()
    state = table.state
    assert destinations(state, table.card("CSA-4")) == ["reserve", "USA-L"]      # CSA-R faces USA-L
    assert destinations(state, table.card("CSA-1")) == ["CSA-L", "CSA-C", "CSA-R"]
    table.do("move", card="CSA-4", to="USA-L")
    assert destinations(table.state, table.card("CSA-4")) == []
    table.do("move", card="CSA-3", to="CSA-C")
    table.do("move", card="CSA-3", to="reserve")
    assert destinations(table.state, table.card("CSA-3")) == []
    table.do("move", card="CSA-7", to="USA-R")
    assert destinations(table.state, table.card("CSA-7")) == []


@pytest.mark.rule("DX-7.2")
def test_the_guide_offers_horse_artillery_fire_after_it_moved():
    """DX-7.2: in the Movement step the guide offers fire only once horse artillery has moved, and only to it."""
    table = csa_movement()
    assert "fire" not in [d.action for d in due_now(table.state)]
    table.do("move", card="CSA-6", to="USA-L")
    assert "fire" in [d.action for d in due_now(table.state)]
    assert [c.id for c in able_firers(table.state, "USA-L", "USA-L")] == ["CSA-6"]


@pytest.mark.rule("DX-10.2", "DX-10.3")
def test_terrain_is_not_played_into_an_own_position_held_by_the_enemy():
    """A22 (default): USA-R holds only CSA units (not engaged, own line, printed code R), but terrain played there
    would serve the enemy holder (DX-10.3): refused. The option allows the literal reading."""
    rows = [unit(1, "CSA"), unit(11, "USA"), terrain(12, "USA", "R")]
    for allowed in (False, True):
        option = {"terrain_into_enemy_held": True} if allowed else {}   # the default: not allowed
        table = advanced(rows, {"CSA-1": "CSA-L", "USA-11": "USA-C"}, ["CSA-1"], **option)
        table.to_step("movement")
        assert table.state.holder["USA-R"] == "CSA" and not table.state.engaged("USA-R")
        if allowed:
            table.do("play_terrain", card="USA-12", position="USA-R")
            assert table.card("USA-12").loc == "USA-R"
        else:
            table.refuse("DX-10.2", "play_terrain", card="USA-12", position="USA-R")
