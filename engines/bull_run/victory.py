"""BR-3.0 the victory conditions, checked at the end of each turn, and BR-12.0 the victory table."""
from __future__ import annotations

from dataclasses import replace

from .rules import CSA, TURNS, UNION, VICTORY_RULE, VICTORY_TABLE
from .state import ON_MAP, PENDING, GameState, Victory


def band(d: int) -> str:
    """BR-12.0: the result for D = Union SP lost - CSA SP lost."""
    for low, high, result in VICTORY_TABLE:
        if (low is None or d >= low) and (high is None or d <= high):
            return result
    raise AssertionError(f"the victory table covers every D, not {d}")


def table_result(state: GameState) -> tuple[int, str]:
    """D and the BR-12.0 result as things stand."""
    d = state.sp_lost(UNION) - state.sp_lost(CSA)
    return d, band(d)


def winner_of(result: str) -> str:
    return UNION if result.startswith("Union") else CSA if result.startswith("CSA") else ""


def destroyed(state: GameState, side: str) -> bool:
    """BR-3.0c (A23): no units on the map and none left to arrive."""
    return not any(u.status in (ON_MAP, PENDING) for u in state.side_units(side))


def end_of_turn(state: GameState, union_holds_manassas: bool, csa_holds_centerville: bool) -> GameState:
    """BR-3.0 at the end of the turn: objective holds (A21), destruction, and after turn 15 BR-12.0."""
    t = state.turn
    union_since = (state.union_holds_since or t) if union_holds_manassas else 0
    csa_since = (state.csa_holds_since or t) if csa_holds_centerville else 0
    state = replace(state, union_holds_since=union_since, csa_holds_since=csa_since)
    needed = 0 if state.options["objective_hold"] == "one_end" else 1
    union_won = union_holds_manassas and t - union_since >= needed
    csa_won = csa_holds_centerville and t - csa_since >= needed
    victory = None
    if union_won or csa_won:
        if union_won and csa_won:
            victory = Victory("", "Draw: both objectives held", "BR-3.0", t)
        elif union_won:
            victory = Victory(UNION, "Union victory: the O&A 'To Manassas' hex held", "BR-3.0a", t)
        else:
            victory = Victory(CSA, "CSA victory: Centerville held", "BR-3.0b", t)
    else:
        gone = [side for side in (UNION, CSA) if destroyed(state, side)]
        if len(gone) == 2:
            victory = Victory("", "Draw: both armies destroyed", "BR-3.0c", t)
        elif gone:
            winner = CSA if gone[0] == UNION else UNION
            victory = Victory(winner, f"{'Union' if winner == UNION else 'CSA'} victory: the enemy is destroyed",
                              "BR-3.0c", t)
        elif t == TURNS:
            d, result = table_result(state)
            victory = Victory(winner_of(result), f"{result} (D = {d:+d})", VICTORY_RULE, t)
    return replace(state, victory=victory)
