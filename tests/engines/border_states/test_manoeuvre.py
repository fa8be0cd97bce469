"""The action phase: the turn order (BS-ACT, BS-D.7), move (BS-D.4), entrench (BS-D.5), retreat (BS-D.6 with its
roll BS-RET), placement limits on the way (BS-D.1), combat and control (BS-D.2)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from fractions import Fraction

from engines.border_states.retreat import retreat_chance
from engines.border_states.state import ACTION, COMBAT, INITIATIVE, VICTORY
from tests.engines.border_states.support import (
    AR,
    C_HOMES,
    KY,
    MARCH_C,
    MARCH_U,
    MD,
    MO,
    NC,
    ORDER_C,
    PLUS_C,
    TN,
    U_HOMES,
    VA,
    WV,
    C,
    Table,
    U,
    action_table,
    offered,
    setup,
    start,
)

# --- BS-D.2 combat and control --------------------------------------------------------------------------

@pytest.mark.rule("BS-D.2")
@pytest.mark.parametrize("c, u, fighting, controller", [
    (0, 0, False, ""), (2, 0, False, C), (0, 1, False, U), (1, 1, True, ""), (3, 3, True, ""),
    (1, 2, True, U), (3, 1, True, C),
], ids=["empty", "CSA alone", "Union alone", "1 v 1", "3 v 3", "Missouri example", "CSA more"])
def test_combat_and_control(c, u, fighting, controller):
    """BS-D.2: both sides present means combat; the side with more units controls, even in combat (the source's
    Missouri example: in combat, and the Union's); equal or empty, nobody (A12)."""
    state = action_table({MO: (c, u)}).state
    assert (state.in_combat(MO), state.controller(MO)) == (fighting, controller)


@pytest.mark.rule("BS-D.2")
def test_control_is_only_what_is_there_now():
    """BS-D.2: control does not carry over: when the last unit leaves, nobody controls the state."""
    table = action_table({KY: (0, 1)})
    assert table.state.controller(KY) == U
    table.do("pass_turn")
    table.do("move", source=KY, target=MO)
    assert table.state.controller(KY) == "" and table.state.controller(MO) == U


# --- BS-ACT / BS-D.7 the turn order ---------------------------------------------------------------------

@pytest.mark.rule("BS-ACT", "BS-D.7")
def test_actions_alternate_then_the_side_with_actions_left_goes_on_alone():
    """BS-ACT: single actions alternate from the first player; each side has its commander card's actions
    (example board: ① Lee 4, ① McClellan 3); once one side is out, the other takes the rest in a row;
    then the combat phase (here no state is in combat: straight to the victory check)."""
    table = Table(setup())
    table.to_actions(first=U, faces=(2, 6))
    assert table.state.actions_left == {C: 4, U: 3}
    order = []
    while table.state.phase == "action":
        order.append(table.state.turn)
        table.do("pass_turn")
    assert "".join(order) == "UCUCUCC"
    assert table.state.phase == VICTORY


@pytest.mark.rule("BS-ACT")
def test_the_initiative_winner_may_go_second():
    """BS-INIT / BS-ACT: the winner chooses; choosing to go second lets the other side act first."""
    table = Table(setup())
    table.to_actions(first=U, faces=(6, 1))
    assert (table.state.first, table.state.turn) == (U, U)


@pytest.mark.rule("BS-ACT")
@pytest.mark.parametrize("kind, params", [("move", {"source": VA, "target": MD}), ("entrench", {"area": WV}),
                                          ("pass_turn", {}), ("retreat", {"source": VA, "target": NC})])
def test_actions_belong_to_the_action_phase(kind, params):
    """BS-ACT: moves, entrenchment, retreats and passes are actions of the action phase only."""
    Table(setup()).refuse("BS-ACT", kind, **params)


@pytest.mark.rule("BS-D.7", "BS-CARD")
def test_pass_and_card_actions_use_an_action_each():
    """BS-D.7: a pass and a card that costs an action each use 1 and hand the turn over; a card without that
    cost uses none; a combat card (rifleman icon) is not played in the action phase (BS-CARD)."""
    table = action_table({}, actions=(2, 2), hand=(3, 1))
    step = table.do("play_card", card=MARCH_C)
    assert table.state.actions_left == {C: 1, U: 2} and table.state.turn == U
    assert table.state.hand[C] == 2 and table.state.discard[C] == 1 and "an action" in step.summary
    table.do("play_card", card=MARCH_U)
    assert table.state.actions_left == {C: 1, U: 1} and table.state.turn == C
    table.do("play_card", card=ORDER_C)
    assert table.state.actions_left == {C: 1, U: 1} and table.state.turn == C and table.state.hand[C] == 1
    table.refuse("BS-CARD", "play_card", card=PLUS_C)
    table.refuse("BS-CARD", "play_card", card="No such card")
    table.do("pass_turn")
    assert table.state.actions_left == {C: 0, U: 1} and table.state.turn == U
    table.refuse("BS-D.9", "play_card", card=MARCH_U)  # the Union hand is empty
    table.do("pass_turn")
    assert table.state.phase == VICTORY


@pytest.mark.rule("BS-D.7")
def test_actions_come_from_the_commander_card_in_force():
    """BS-D.7: the count is read from the commander card shown at the start of the action phase (example board:
    ② Lee (fatigued) 3, ③ Union commander 4)."""
    state = replace(start(setup()), phase=INITIATIVE, initiative_winner=C, commander={C: 2, U: 3})
    table = Table(state=state)
    table.do("choose_first")
    assert table.state.actions_left == {C: 3, U: 4}


# --- BS-D.4 move -------------------------------------------------------------------------------------------

@pytest.mark.rule("BS-D.4")
def test_a_move_into_an_enemy_held_state_starts_a_combat():
    """BS-D.4: one own unit not in combat to an adjacent state; entering a state the enemy holds starts combat."""
    table = action_table({VA: (2, 0), MD: (0, 2)}, commanders={C: VA})
    step = table.do("move", source=VA, target=MD, commander=True)
    state = table.state
    assert (state.count(VA, C), state.count(MD, C), state.commander_at[C]) == (1, 1, MD)
    assert state.in_combat(MD) and "combat there" in step.summary and state.turn == U


@pytest.mark.rule("BS-D.4", "BS-D.6")
def test_units_in_combat_do_not_move():
    """BS-D.4 / BS-D.6: a unit in combat may only retreat."""
    table = action_table({MD: (1, 2), VA: (1, 0)}, first=U)
    error = table.refuse("BS-D.4", "move", source=MD, target="Union home 1")
    assert "retreat" in error.message


@pytest.mark.rule("BS-D.4")
@pytest.mark.parametrize("units, side, source, target, phrase", [
    ({VA: (2, 0)}, C, VA, KY, "'target'"),
    ({VA: (2, 0)}, C, NC, TN, "'source'"),
    ({VA: (2, 0)}, C, "Appalachians", VA, "'source'"),
    ({VA: (2, 0)}, C, ["not", "a", "name"], VA, "'source'"),
    ({TN: (0, 1)}, U, TN, "CSA home 3", "home state"),
    ({MD: (0, 2), "Union home 1": (0, 1)}, U, MD, "Union home 1", "already holds 1"),
    ({WV: (0, 1), KY: (0, 3)}, U, WV, KY, "already holds 3"),
    ({VA: (1, 0), WV: (3, 0)}, C, VA, WV, "already holds 3"),
], ids=["not adjacent", "no unit", "not a state", "not a name", "enemy home state", "full home state",
        "full border state", "3 CSA in a Union-side state"])
def test_a_move_keeps_to_the_map_and_the_placement_limits(units, side, source, target, phrase):
    """BS-D.4 with BS-D.1: adjacent states only, never an enemy home state, 1 unit in an own home state and
    3 a side in a border state."""
    table = action_table(units, first=side)
    assert phrase in table.refuse("BS-D.4", "move", source=source, target=target).message


@pytest.mark.rule("BS-D.4")
def test_the_commander_unit_moves_only_from_where_it_stands():
    """BS-D.4: a move of the commander unit names the state it is in."""
    table = action_table({VA: (2, 0), NC: (1, 0)}, commanders={C: NC})
    table.refuse("BS-D.4", "move", source=VA, target=MD, commander=True)


@pytest.mark.rule("BS-D.4", "BS-D.6")
@pytest.mark.parametrize("kind, units, side, source, target, faces", [
    ("move", {NC: (1, 0)}, C, NC, VA, ()),
    ("retreat", {MD: (1, 1), WV: (0, 1)}, U, MD, "Union home 1", (6,)),
])
def test_a_lone_commander_unit_moves_as_the_commander_unit(kind, units, side, source, target, faces):
    """BS-D.4 / BS-D.6: where the commander unit is a side's only unit, the unit that moves is the commander unit;
    another unit cannot leave, so the commander unit is never left standing in an empty state."""
    table = action_table(units, first=side, commanders={side: source})
    assert "commander unit" in table.refuse("BS-D.4", kind, *faces, source=source, target=target).message
    table.do(kind, *faces, source=source, target=target, commander=True)
    assert table.state.commander_at[side] == target


@pytest.mark.rule("BS-D.1")
@pytest.mark.parametrize("area, side, room", [
    (WV, C, 3), (WV, U, 3), ("Union home 1", U, 1), ("Union home 1", C, 0), ("CSA home 1", C, 1),
    ("CSA home 1", U, 0),
])
def test_placement_room(area, side, room):
    """BS-D.1: a border state holds 3 a side (6 in all); an own home state 1; an enemy home state none."""
    assert action_table({}).state.room(area, side) == room


@pytest.mark.rule("BS-D.1")
def test_six_units_in_one_border_state():
    """BS-D.1: 3 CSA and 3 Union units may share a border state; a fourth of either side may not enter."""
    table = action_table({WV: (2, 3), VA: (2, 0), MD: (0, 1)}, actions=(2, 2))
    table.do("move", source=VA, target=WV)
    assert (table.state.count(WV, C), table.state.count(WV, U)) == (3, 3)
    table.refuse("BS-D.4", "move", source=MD, target=WV)
    table.do("pass_turn")
    table.refuse("BS-D.4", "move", source=VA, target=WV)


# --- BS-D.5 entrench ---------------------------------------------------------------------------------------

@pytest.mark.rule("BS-D.5")
def test_entrench_one_unit_in_an_own_side_border_state():
    """BS-D.5: one own unit in an own-side border state, one per state, even in combat; the CSA cannot entrench
    in a Union-side state."""
    table = action_table({WV: (1, 2), VA: (1, 0)}, first=U)
    table.do("entrench", area=WV)
    assert table.state.entrenched == (WV,)
    table.refuse("BS-D.5", "entrench", area=WV)       # the CSA in a Union-side state
    table.refuse("BS-D.5", "entrench", area="CSA home 1")
    table.refuse("BS-D.5", "entrench", area=NC)       # no CSA unit there
    table.do("entrench", area=VA)
    table.refuse("BS-D.5", "entrench", area=WV)       # the Union: one entrenched unit there already
    assert table.state.entrenched == (WV, VA)


@pytest.mark.rule("BS-D.5")
def test_entrench_once_per_state_per_round():
    """BS-D.5 (A21 default): the Entrench action is taken once per own-side border state per round, even after
    the entrenched unit has left and another unit has come in; next round it may be taken there again."""
    table = action_table({VA: (1, 0), NC: (1, 0)}, actions=(4, 0))
    table.do("entrench", area=VA)
    table.do("move", source=VA, target=NC, entrenched=True)
    table.do("move", source=NC, target=VA)
    assert table.state.entrenched == () and table.state.count(VA, C) == 1
    assert offered(table.state, "entrench", "area") == (NC,)
    assert "once per state a round" in table.refuse("BS-D.5", "entrench", area=VA).message
    table.do("entrench", area=NC)
    assert table.state.phase == VICTORY and table.state.entrench_used == (VA, NC)
    round_2 = Table(state=replace(table.state, entrenched=(), entrench_used=(), round=2, phase=ACTION, turn=C,
                                  actions_left={C: 1, U: 0}))
    round_2.do("entrench", area=VA)
    assert round_2.state.entrenched == (VA,)


@pytest.mark.rule("BS-D.5")
def test_entrenchment_stands_down_at_the_end_of_the_round():
    """BS-D.5 / end of round: every entrenched unit stands down."""
    table = Table(setup(deployment={C: {VA: 2, NC: 2, TN: 2, AR: 2}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}))
    table.to_actions()
    table.do("entrench", area=VA)
    table.do("entrench", area=WV)
    table.pass_all()
    table.do("check_victory")
    table.do("supply")
    while table.state.phase == "recruit":
        table.do("recruit", 1)
    assert table.state.round == 2 and table.state.entrenched == () and table.state.entrench_used == ()


@pytest.mark.rule("BS-D.5")
@pytest.mark.parametrize("entrenched, kept", [(True, False), (False, True)])
def test_entrenchment_goes_with_the_entrenched_unit(entrenched, kept):
    """BS-D.5 (A10): when the entrenched unit leaves, the state loses its entrenchment; another unit leaving
    does not take it."""
    table = action_table({VA: (2, 0)}, actions=(2, 0))
    table.do("entrench", area=VA)
    table.do("move", source=VA, target=NC, entrenched=entrenched)
    assert (VA in table.state.entrenched) == kept


@pytest.mark.rule("BS-D.5")
def test_the_last_unit_leaving_takes_the_entrenchment():
    """BS-D.5: an own-side state left empty keeps no entrenchment."""
    table = action_table({VA: (1, 0)}, actions=(2, 0))
    table.do("entrench", area=VA)
    table.do("move", source=VA, target=NC)
    assert table.state.entrenched == ()


@pytest.mark.rule("BS-D.5", "BS-D.6")
@pytest.mark.parametrize("face, choice", [(4, ""), (1, "damage"), (2, "remove")])
def test_an_enemy_leaving_does_not_take_the_owners_entrenchment(face, choice):
    """BS-D.5: only the owner of an own-side border state can be entrenched there; the last attacking unit
    retreating out (or removed after a failed roll) leaves the defender's entrenchment standing."""
    table = action_table({WV: (1, 2)}, first=U, actions=(1, 1))
    table.do("entrench", area=WV)
    table.do("retreat", face, source=WV, target=VA)
    if choice:
        table.do("retreat_failed", choice=choice)
    assert table.state.entrenched == (WV,)


@pytest.mark.rule("BS-D.5", "BS-RET")
@pytest.mark.parametrize("choice", ["damage", "remove"])
def test_the_entrenched_unit_leaving_by_a_failed_retreat_takes_its_entrenchment(choice):
    """BS-D.5 (A10) with BS-RET: after a failed roll the entrenched unit retreats or is removed; either way it
    takes the entrenchment with it, and the unit left behind is not entrenched."""
    table = action_table({WV: (1, 2)}, first=U, actions=(1, 2))
    table.do("entrench", area=WV)
    table.do("pass_turn")
    table.do("retreat", 2, source=WV, target="Union home 2", entrenched=True)
    table.do("retreat_failed", choice=choice)
    assert table.state.entrenched == () and table.state.count(WV, U) == 1


# --- BS-D.6 retreat and BS-RET the retreat roll -------------------------------------------------------------

@pytest.mark.rule("BS-RET", "BS-D.6")
@pytest.mark.parametrize("face", range(1, 7))
def test_the_retreat_roll_succeeds_on_3_to_6(face):
    """BS-RET: one die, 3-6 the unit moves (P 2/3); 1-2 the owner must choose before anything else happens."""
    table = action_table({MD: (1, 2)}, first=U)
    step = table.do("retreat", face, source=MD, target="Union home 1")
    state = table.state
    if face >= 3:
        assert (state.count(MD, U), state.count("Union home 1", U), state.retreat, state.turn) == (1, 1, None, C)
        assert state.actions_left == {C: 4, U: 2}
    else:
        assert (state.count(MD, U), state.retreat.side, state.turn) == (2, U, U)
        assert state.actions_left == {C: 4, U: 3} and "remove the unit" in step.summary
        table.refuse("BS-RET", "pass_turn")
        table.refuse("BS-RET", "move", source="Union home 1", target="Union home 5")
    assert step.results[0].details["face"] == face and "BS-RET" in step.rules


@pytest.mark.rule("BS-RET")
def test_a_discarded_card_makes_the_retreat_certain():
    """BS-RET: discarding 1 card before rolling makes the retreat succeed: no die is rolled."""
    table = action_table({MD: (1, 2)}, first=U, hand=(0, 1))
    step = table.do("retreat", source=MD, target=WV, discard=True)
    assert not step.results and (table.state.count(WV, U), table.state.hand[U], table.state.discard[U]) == (1, 0, 1)
    table.do("pass_turn")
    table.refuse("BS-D.9", "retreat", source=MD, target=WV, discard=True)


@pytest.mark.rule("BS-RET")
def test_the_chance_a_retreat_goes():
    """BS-RET: 3-6 on one die, 4 faces of 6; certain with a card discarded (the dashboard's odds for the step)."""
    assert retreat_chance(False) == Fraction(sum(1 for face in range(1, 7) if face >= 3), 6) == Fraction(2, 3)
    assert retreat_chance(True) == 1


@pytest.mark.rule("BS-RET", "BS-D.11")
def test_a_failed_retreat_moves_the_marker_toward_the_own_side_then_the_unit():
    """BS-RET (a): the damage marker 1 square toward the owner's side, then the unit moves."""
    for side, source, target, toward in ((U, MD, "Union home 1", +1), (C, MD, VA, -1)):
        table = action_table({MD: (1, 2)}, first=side)
        table.do("retreat", 1, source=source, target=target)
        step = table.do("retreat_failed", choice="damage")
        assert table.state.damage == toward and table.state.count(target, side) == 1
        assert table.state.retreat is None and table.state.turn != side and "BS-RET" in step.rules


@pytest.mark.rule("BS-RET", "BS-D.11")
def test_a_failed_retreat_may_remove_the_unit_instead():
    """BS-RET (b): the unit is removed, with no move; it returns to the pool (BS-D.11); the marker stays."""
    table = action_table({MD: (1, 2)}, first=U)
    pool = table.state.pool(U)
    table.do("retreat", 2, source=MD, target="Union home 1")
    table.do("retreat_failed", choice="remove")
    state = table.state
    assert (state.count(MD, U), state.count("Union home 1", U), state.damage, state.pool(U)) == (1, 0, 0, pool + 1)


@pytest.mark.rule("BS-RET")
def test_the_failed_retreat_choice_is_one_of_two():
    """BS-RET: only 'damage' or 'remove', and only when a retreat has failed."""
    table = action_table({MD: (1, 2)}, first=U)
    table.refuse("BS-RET", "retreat_failed", choice="damage")
    table.do("retreat", 1, source=MD, target="Union home 1")
    table.refuse("BS-RET", "retreat_failed", choice="stay")


@pytest.mark.rule("BS-D.6")
@pytest.mark.parametrize("units, side, source, target, rule, phrase", [
    ({VA: (2, 0)}, C, VA, NC, "BS-D.6", "no CSA unit is in combat"),
    ({MD: (1, 2)}, U, MD, KY, "BS-D.6", "'target'"),
    ({MD: (1, 2)}, U, MD, VA, "BS-D.6", "Union home state or Union-side border state"),  # a CSA-side border state
    ({MD: (2, 1)}, C, MD, "Union home 1", "BS-D.6", "CSA home state or CSA-side border state"),  # an enemy home
    ({MD: (1, 2), WV: (0, 3)}, U, MD, WV, "BS-D.6", "already holds 3"),
    ({MD: (1, 2), "Union home 1": (0, 1)}, U, MD, "Union home 1", "BS-D.6", "already holds 1"),
    ({MD: (1, 2)}, U, WV, MD, "BS-D.6", "'source'"),
], ids=["not in combat", "not adjacent", "enemy-side border", "enemy home", "full border state", "full home state",
        "no unit"])
def test_a_retreat_goes_to_an_adjacent_own_state_with_room(units, side, source, target, rule, phrase):
    """BS-D.6: a unit in combat to an adjacent own home state or own-side border state, within BS-D.1."""
    table = action_table(units, first=side)
    assert phrase in table.refuse(rule, "retreat", 6, source=source, target=target).message


@pytest.mark.rule("BS-D.6")
def test_a_retreat_may_go_into_a_state_in_combat():
    """BS-D.6: the destination may itself be in combat."""
    table = action_table({MD: (1, 2), WV: (1, 1)}, first=U)
    table.do("retreat", 5, source=MD, target=WV)
    assert (table.state.count(WV, U), table.state.in_combat(WV)) == (2, True)


@pytest.mark.rule("BS-D.6", "BS-D.10")
def test_a_commander_unit_lost_in_a_failed_retreat_keeps_the_card():
    """BS-D.6 (A9 default): a commander unit removed after a failed retreat goes to the pool; the commander card
    does not change (a retreat is not combat)."""
    table = action_table({MD: (1, 2)}, first=U, commanders={U: MD})
    table.do("retreat", 1, source=MD, target="Union home 1", commander=True)
    table.do("retreat_failed", choice="remove")
    assert (table.state.commander_at[U], table.state.commander[U]) == ("", 1)


@pytest.mark.rule("BS-D.4", "BS-CMB")
def test_the_last_action_opens_the_combat_phase_in_combat_number_order():
    """BS-ACT -> BS-CMB: after the last action, the border states in combat in the order of their numbers
    (example board: West Virginia 1, Kentucky 5, Arkansas 8)."""
    table = action_table({AR: (1, 1), WV: (1, 1), KY: (2, 1), TN: (1, 0)}, actions=(1, 0))
    table.do("pass_turn")
    assert table.state.phase == COMBAT and table.state.battle.area == WV
    assert table.state.battles_due() == [WV, KY, AR]


@pytest.mark.rule("BS-D.1")
def test_own_home_states_take_own_units_only():
    """BS-D.1: a retreat into an own home state is fine; an enemy home state never takes a unit."""
    table = action_table({NC: (1, 1)}, first=C)
    table.do("retreat", 3, source=NC, target="CSA home 2")
    assert table.state.count("CSA home 2", C) == 1
    assert all(table.state.room(h, U) == 0 for h in C_HOMES) and all(table.state.room(h, C) == 0 for h in U_HOMES)
