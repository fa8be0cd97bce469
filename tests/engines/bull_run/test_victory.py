"""Victory: objectives, destruction and the victory table (BR-3.0, BR-3.0a-c, BR-12.0)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from engines.bull_run import ENGINE
from engines.bull_run.state import ELIMINATED, END, OVER
from engines.bull_run.victory import band
from tests.engines.bull_run.support import Table, row


def digest_band(d: int) -> str:
    """BR-12.0, typed from the digest: D = Union SP lost - CSA SP lost."""
    if d >= 10:
        return "CSA victory"
    if d >= 5:
        return "CSA marginal victory"
    if d >= -4:
        return "Draw"
    if d >= -9:
        return "Union marginal victory"
    return "Union victory"


def end_turn_holding(table: Table, **holds: bool):
    table.to_combat(1)
    return table.finish_turn(**holds)


OBJECTIVES = [("union_holds_manassas", "UNION", "BR-3.0a"), ("csa_holds_centerville", "CSA", "BR-3.0b")]


@pytest.mark.rule("BR-3.0", "BR-3.0a", "BR-3.0b")
@pytest.mark.parametrize("hold, side, rule", OBJECTIVES, ids=["BR-3.0a", "BR-3.0b"])
def test_objective_held_at_the_end_of_two_turns_wins(hold, side, rule):
    """BR-3.0a (O&A 'To Manassas') and BR-3.0b (Centerville), A21 default: occupied at the end of turn t and
    still at the end of t+1 wins at t+1; losing the hex in between starts the count again."""
    table = Table(solitaire=False)
    end_turn_holding(table, **{hold: True})
    end_turn_holding(table, **{hold: False})
    end_turn_holding(table, **{hold: True})
    assert table.state.victory is None and table.state.turn == 4
    step = end_turn_holding(table, **{hold: True})
    victory = table.state.victory
    assert (victory.side, victory.rule, victory.turn, table.state.phase) == (side, rule, 4, OVER)
    assert rule in step.rules


@pytest.mark.rule("BR-3.0a", "BR-3.0b")
@pytest.mark.parametrize("hold, side, rule", OBJECTIVES, ids=["BR-3.0a", "BR-3.0b"])
def test_option_a21_occupation_at_the_end_of_any_turn(hold, side, rule):
    """BR-3.0a/b with A21 'one end': occupying the objective at the end of a turn wins at once."""
    table = Table(solitaire=False, objective_hold="one_end")
    end_turn_holding(table, **{hold: True})
    assert (table.state.victory.side, table.state.victory.rule, table.state.victory.turn) == (side, rule, 1)


@pytest.mark.rule("BR-3.0")
def test_victory_is_checked_at_the_end_of_the_turn_and_ends_the_game():
    """BR-3.0: holds are yes/no answers at the end of the turn; once a side has won nothing more is played."""
    table = Table(solitaire=False, objective_hold="one_end")
    table.to_combat(1)
    table.do("end_combat")
    table.do("end_combat")
    table.refuse("BR-3.0a", "end_turn", union_holds_manassas="yes")
    table.do("end_turn", csa_holds_centerville=True)
    for kind, params in (("roll_initiative", {}), ("end_turn", {}), ("correct_roster", {"roster": []}),
                         ("awareness_check", {"adjacent": True})):
        table.refuse("BR-3.0", kind, **params)


LONE = (row("Blue", "UNION", "A", 1, 8), row("Grey", "CSA", "1", 1, 1))


ADVANCE = ("advance", (), {"advance": True})


@pytest.mark.rule("BR-3.0c")
@pytest.mark.parametrize("roster, then, won", [
    (LONE, ADVANCE, True),
    (LONE + (row("Late", "CSA", "9", 5, 2),), ADVANCE, False),
    ((row("Blue", "UNION", "A", 1, 8), row("Grey", "CSA", "1", 1, 3)), ("retreat_check", (1,), {}), False),
], ids=["destroyed", "reinforcement due", "heavy losses"])
def test_destroying_the_enemy_wins(roster, then, won):
    """BR-3.0c (A23): the enemy is destroyed when it has no unit on the map and none left to arrive; heavy losses
    alone win nothing before the BR-12.0 table."""
    table = Table(roster, solitaire=False)
    table.to_combat(1)
    table.attack(["Blue"], ["Grey"], 6, 1)  # 8 SP rolls 6: 2 hits
    table.do("allocate_hits")
    kind, faces, params = then
    table.do(kind, *faces, **params)
    table.finish_turn()
    victory = table.state.victory
    if won:
        assert (victory.side, victory.rule) == ("UNION", "BR-3.0c")
    else:
        assert victory is None and table.state.turn == 2


TWELVES = tuple(row(f"{side} {i}", side, "A" if side == "UNION" else "1", 1, 12) for side in ("UNION", "CSA")
                for i in (1, 2))


def final_turn_with_losses(union_lost: int, csa_lost: int):
    """Turn 15's end with the given SP lost by each side, no unit destroyed entirely on either side."""
    state = Table(TWELVES, solitaire=False).state
    changed = {}
    for side, lost in (("UNION", union_lost), ("CSA", csa_lost)):
        for unit in state.side_units(side):
            taken = min(lost, unit.sp)
            lost -= taken
            status = ELIMINATED if taken == unit.sp else unit.status
            changed[unit.name] = replace(unit, sp=unit.sp - taken, status=status)
    return replace(state.with_units(changed), turn=15, phase=END)


@pytest.mark.rule("BR-12.0")
@pytest.mark.parametrize("union_lost, csa_lost, d, result, side", [
    (17, 9, 8, "CSA marginal victory", "CSA"),
    (6, 16, -10, "Union victory", "UNION"),
    (4, 0, 4, "Draw", ""),
    (0, 5, -5, "Union marginal victory", "UNION"),
    (10, 0, 10, "CSA victory", "CSA"),
])
def test_vector_12_victory_table_after_turn_15(union_lost, csa_lost, d, result, side):
    """Vector 12 (BR-12.0): D = Union SP lost - CSA SP lost, read on the victory table after turn 15."""
    state = final_turn_with_losses(union_lost, csa_lost)
    assert (state.sp_lost("UNION"), state.sp_lost("CSA")) == (union_lost, csa_lost)
    step = ENGINE.apply(state, {"type": "end_turn"}, ScriptedDice(()))
    victory = step.state.victory
    assert victory.result == f"{result} (D = {d:+d})"
    assert (victory.rule, victory.side) == ("BR-12.0", side)


@pytest.mark.rule("BR-12.0")
def test_victory_table_bands():
    """BR-12.0: >=10 CSA victory, 5..9 CSA marginal, -4..4 draw, -9..-5 Union marginal, <=-10 Union victory."""
    for d in range(-30, 31):
        assert band(d) == digest_band(d), d


@pytest.mark.rule("BR-12.0")
def test_no_table_result_before_turn_15():
    """BR-12.0: the table is read only after turn 15 when no other victory came first."""
    state = replace(final_turn_with_losses(17, 0), turn=14)
    step = ENGINE.apply(state, {"type": "end_turn"}, ScriptedDice(()))
    assert step.state.victory is None and step.state.turn == 15
