"""Roster, setup, sequence of play, initiative and reinforcements (BR-2.4, BR-4.0, BR-5.1, BR-6.0, BR-7.0)."""
from __future__ import annotations

import pytest

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError
from engines.bull_run import ENGINE
from engines.bull_run.example import example_setup
from engines.bull_run.roster import roster_from_rows, roster_warnings
from engines.bull_run.state import (
    COMBAT,
    END,
    INITIATIVE,
    MOVEMENT,
    ON_MAP,
    OVER,
    PENDING,
    REINFORCEMENTS,
    clock,
    state_from_dict,
)
from tests.engines.bull_run.support import ROSTER, Table, row

EXAMPLE = example_setup()["roster"]


@pytest.mark.rule("BR-4.0")
def test_vector_01_evans_on_hex_1_at_setup():
    """Vector 1 (BR-4.0): Evans' Brigade, CSA, '1/1', stands on hex 1 at setup, at full strength."""
    evans = Table(EXAMPLE).unit("Evans' Brigade")
    assert (evans.status, evans.side, evans.spec.entry_hex, evans.sp) == (ON_MAP, "CSA", "1", 3)


@pytest.mark.rule("BR-4.0")
def test_setup_places_only_turn_1_units():
    """BR-4.0: setup places the turn-1 units; later arrivals wait off the map and count no loss."""
    table = Table()
    placed = {u.name for u in table.state.units if u.status == ON_MAP}
    assert placed == {r["name"] for r in ROSTER if r["entry_turn"] == 1}
    assert {u.name for u in table.state.units if u.status == PENDING} == {"Union 5", "CSA 5"}
    assert (table.state.turn, table.state.phase) == (1, INITIATIVE)
    assert table.state.sp_lost("UNION") == table.state.sp_lost("CSA") == 0


@pytest.mark.rule("BR-7.0")
def test_vector_02_burnside_enters_on_turn_3_at_hex_a():
    """Vector 2 (BR-7.0): Burnside, 'A/3', is pending in turns 1-2 and placed on hex A in turn 3."""
    table = Table(EXAMPLE)
    for _ in range(2):
        assert table.unit("Burnside's Brigade").status == PENDING
        table.start_turn(1)
        assert table.unit("Burnside's Brigade").status == PENDING
        table.through_movement()
        table.finish_turn()
    table.do("roll_initiative", 1)
    assert table.unit("Burnside's Brigade").status == PENDING
    step = table.do("place_reinforcements")
    assert table.unit("Burnside's Brigade").status == ON_MAP
    assert "Burnside's Brigade on hex A" in step.summary


@pytest.mark.rule("BR-7.0")
@pytest.mark.parametrize("field, value", [("entry_turn", 0), ("entry_turn", 16), ("entry_turn", 2.5),
                                          ("entry_hex", ""), ("entry_hex", "A-1")])
def test_entry_turn_and_hex_are_checked(field, value):
    """BR-7.0: the entry turn is 1..15 and the entry hex a label of digits or letters."""
    bad = dict(ROSTER[0], **{field: value})
    with pytest.raises(RuleError) as caught:
        roster_from_rows([bad])
    assert caught.value.rule == "BR-7.0"


@pytest.mark.rule("BR-7.0")
def test_reinforcements_are_placed_in_the_reinforcement_phase_only():
    """BR-7.0: placing units belongs to the reinforcement phase, after the initiative."""
    table = Table()
    table.refuse("BR-7.0", "place_reinforcements")
    table.do("roll_initiative", 1)
    table.do("place_reinforcements")
    table.refuse("BR-7.0", "place_reinforcements")


@pytest.mark.rule("BR-2.4")
def test_vector_03_sp_tracks_and_one_hit_on_burnside():
    """Vector 3 (BR-2.4): Evans' track 3-2-1 gives 3 SP, Burnside's 4-3-2-1 gives 4; one hit leaves 3."""
    table = Table(EXAMPLE)
    assert (table.unit("Evans' Brigade").spec.max_sp, table.unit("Burnside's Brigade").spec.max_sp) == (3, 4)
    table.quiet_turn()
    table.quiet_turn()
    table.to_combat(4)  # turn 3, the CSA attacks first
    table.attack(["Evans' Brigade"], ["Burnside's Brigade"], 5, 1)  # 3 SP (3-4) rolls 5: 1 hit; 4 SP rolls 1
    table.do("allocate_hits")
    burnside = table.unit("Burnside's Brigade")
    assert (burnside.sp, burnside.spec.max_sp, burnside.status) == (3, 4, ON_MAP)
    assert table.state.sp_lost("UNION") == 1


@pytest.mark.rule("BR-2.4")
@pytest.mark.parametrize("rows, fragment", [
    ([], "empty"),
    ([row("X", "UNION", "A", 1, 0)], "at least 1 SP"),
    ([row("X", "UNION", "A", 1, 3), row("X", "CSA", "1", 1, 3)], "unique"),
    ([row("X", "Martians", "A", 1, 3)], "side"),
    ([row("", "UNION", "A", 1, 3)], "name"),
])
def test_roster_rows_are_validated(rows, fragment):
    """BR-2.4: max_sp >= 1, unique names, side CSA or UNION; a bad roster cannot start a game."""
    with pytest.raises(RuleError) as caught:
        ENGINE.start({}, {"roster": rows})
    assert caught.value.rule == "BR-2.4"
    assert fragment in caught.value.message


@pytest.mark.rule("BR-2.4")
def test_roster_warnings_count_and_stack_over_12():
    """BR-2.4 with digest section 10: warn when the roster is not 25 units, or two units stack above 12 SP."""
    specs = roster_from_rows(list(ROSTER))
    warnings = roster_warnings(specs)
    assert any("25 counters" in w for w in warnings)
    assert any("CSA units can stack to 13 SP" in w for w in warnings)
    assert not any("UNION units can stack" in w for w in warnings)  # 6 + 5 = 11


@pytest.mark.rule("BR-2.4")
def test_correct_roster_keeps_hits_and_refuses_duplicates():
    """BR-2.4: the locked roster changes only by the correction event; a unit keeps its hits by name."""
    table = Table()
    table.to_combat(1)
    table.attack(["Union 3"], ["CSA 4"], 6, 1)  # 6 SP (5-6) rolls 6: 2 hits; 7 SP rolls 1: none
    table.do("allocate_hits")
    assert table.unit("CSA 4").sp == 5
    rows = [dict(r, max_sp=8) if r["name"] == "CSA 4" else dict(r) for r in ROSTER]
    table.refuse("BR-2.4", "correct_roster", roster=rows + [dict(ROSTER[0])])
    table.do("correct_roster", roster=rows)
    assert (table.unit("CSA 4").sp, table.unit("CSA 4").spec.max_sp) == (6, 8)


@pytest.mark.rule("BR-2.4")
def test_state_round_trips_through_json():
    """BR-2.4: the tracked state (roster, SP, flags) survives a save and a load."""
    table = Table()
    table.to_combat(2)
    data = table.state.to_dict()
    assert state_from_dict(data) == table.state
    assert state_from_dict(data).to_dict() == data


@pytest.mark.rule("BR-6.0")
@pytest.mark.parametrize("face, side", [(1, "UNION"), (2, "UNION"), (3, "UNION"), (4, "CSA"), (5, "CSA"), (6, "CSA")])
def test_initiative_roll_and_who_moves_first(face, side):
    """BR-6.0: 1-3 Union, 4-6 CSA; the initiative side moves first and attacks first."""
    table = Table(solitaire=False)
    table.do("roll_initiative", face)
    assert table.state.initiative[0] == side
    table.do("place_reinforcements")
    assert (table.state.phase, table.state.active) == (MOVEMENT, side)
    table.through_movement()
    assert (table.state.phase, table.state.active) == (COMBAT, side)


@pytest.mark.rule("BR-6.0")
def test_initiative_may_be_prerolled_for_15_turns_before_the_game_only():
    """BR-6.0: all 15 rolls may be made before the game and marked on the track; not later."""
    faces = (1, 4, 2, 5, 3, 6, 1, 1, 4, 4, 2, 5, 6, 3, 1)
    table = Table()
    step = table.do("preroll_initiative", *faces)
    marks = "".join("U" if f <= 3 else "C" for f in faces)
    assert step.summary.endswith(marks)
    assert table.state.initiative == tuple("UNION" if f <= 3 else "CSA" for f in faces)
    assert table.state.phase == REINFORCEMENTS
    table.refuse("BR-6.0", "roll_initiative", 1)
    table.do("place_reinforcements")
    table.through_movement()
    table.finish_turn()
    assert (table.state.turn, table.state.phase) == (2, REINFORCEMENTS)  # turn 2's initiative is on the track


@pytest.mark.rule("BR-6.0")
def test_preroll_refused_after_turn_1():
    """BR-6.0: pre-rolling is done before the game starts; on turn 2 each turn is rolled."""
    table = Table()
    table.quiet_turn()
    table.refuse("BR-6.0", "preroll_initiative", *([1] * 15))
    table.do("roll_initiative", 4)
    assert table.state.initiative[:2] == ("UNION", "CSA")


@pytest.mark.rule("BR-5.1")
def test_phases_follow_the_sequence_of_play():
    """BR-5.1: initiative, reinforcements, movement (initiative side first), combat, end of turn."""
    table = Table(solitaire=False)
    seen = [table.state.phase]
    table.do("roll_initiative", 5)
    seen.append(table.state.phase)
    table.do("place_reinforcements")
    seen.append((table.state.phase, table.state.active))
    table.do("end_movement")
    seen.append((table.state.phase, table.state.active))
    table.checks({"farm_ford": 1})
    table.do("end_movement")
    seen.append((table.state.phase, table.state.active))
    table.do("end_combat")
    seen.append((table.state.phase, table.state.active))
    table.do("end_combat")
    seen.append(table.state.phase)
    step = table.do("end_turn")
    seen.append((table.state.turn, table.state.phase))
    assert seen == [INITIATIVE, REINFORCEMENTS, (MOVEMENT, "CSA"), (MOVEMENT, "UNION"), (COMBAT, "CSA"),
                    (COMBAT, "UNION"), END, (2, INITIATIVE)]
    assert step.summary.endswith("turn 2 begins at 09:00")


@pytest.mark.rule("BR-5.1")
@pytest.mark.parametrize("kind, params, rule", [
    ("end_movement", {}, "BR-5.1"),
    ("end_combat", {}, "BR-10.2"),
    ("fire", {"attack": 0}, "BR-10.4"),
    ("move", {"unit": "Union 1"}, "BR-8.1"),
    ("end_turn", {}, "BR-3.0"),
    ("nonsense", {}, "BR-5.1"),
    ("roll_initiative", {"turn": 3}, "BR-6.0"),
])
def test_out_of_phase_and_malformed_actions_are_refused(kind, params, rule):
    """BR-5.1: an action outside its phase, unknown, or with unknown parameters changes nothing."""
    Table().refuse(rule, kind, **params)


@pytest.mark.rule("BR-5.1")
def test_wrong_dice_are_refused():
    """BR-5.1: a roll takes exactly its dice, each 1-6; anything else is refused and changes nothing."""
    table = Table()
    for faces in ((), (7,), (0,), (1, 2)):
        with pytest.raises(DiceError):
            table.replay.action_event({"type": "roll_initiative"}, ScriptedDice(faces))
    assert table.state.initiative[0] == "" and not table.events


@pytest.mark.rule("BR-5.1")
@pytest.mark.parametrize("turn, time", [(1, "08:30"), (3, "09:30"), (6, "11:00"), (15, "15:30")])
def test_vector_15_clock(turn, time):
    """Vector 15 (BR-5.1): turn n starts at 08:30 + 30(n-1) minutes."""
    assert clock(turn) == time


@pytest.mark.rule("BR-5.1")
def test_fifteen_turns_then_the_game_is_over():
    """BR-5.1: the game lasts 15 turns; after turn 15 the victory table decides and nothing more is played."""
    table = Table(solitaire=False)
    for turn in range(1, 16):
        assert table.state.turn == turn
        table.quiet_turn()
    assert table.state.phase == OVER
    assert table.state.victory.rule == "BR-12.0"
    table.refuse("BR-3.0", "roll_initiative", 1)


@pytest.mark.parametrize("options, rule", [({"nonsense": 1}, "options"), ({"lapsed_attack": "sometimes"}, "BR-10.1"),
                                           ({"farm_ford_first_turn": 16}, "BR-8.4b"), ({"solitaire": "yes"}, "BR-9.0")])
def test_options_are_checked_when_the_session_starts(options, rule):
    """Digest section 7: unknown options, or values outside their choices, are refused before play."""
    with pytest.raises(RuleError) as caught:
        ENGINE.start(options, {"roster": list(ROSTER)})
    assert caught.value.rule == rule

