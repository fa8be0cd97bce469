"""The rulebook (engines/border_states/rulebook.md) against the rules: every table cell by cell, and the numbers
its clauses state, from rules.py (and the engine's procedures for the tables they work out)."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from companion.rulebook import load
from engines.border_states.initiative import initiative_win
from engines.border_states.rules import (BORDER_LIMIT, C, CARD_LIMIT, COMMANDER_FACES, COMMANDER_NAMES, DEPLOY,
                                         DRAW, DRAW_BONUS, DRAW_BONUS_STATE, ENTRENCH_BONUS, FACE_MAX, FACE_MIN,
                                         HOME_LIMIT, HOME_STATES, MAX_FORCE, RETREAT, ROUNDS, SIDE_NAME, SIDES,
                                         SUDDEN_VP, SUPPLY_BONUS_STATES, SUPPLY_CAP, SUPPLY_CAP_VARIANT, SUPPLY_GAIN,
                                         SUPPLY_PER_UNIT, SUPPLY_START, SUPPLY_START_VARIANT, U)
from engines.border_states.tray import Strength, losses

BOOK = load("border_states")
FACE_SYMBOLS = "①②③④"


def table(rule: str) -> tuple[tuple[str, ...], ...]:
    """The one table of a clause: its header row, then its body rows."""
    (only,) = BOOK.clauses[rule].tables
    return only


def win_by_enumeration(lead: int) -> Fraction:
    """P(winning the initiative) with a bid `lead` dice above the opponent's: ties rolled again with the same bids."""
    rolls = list(product(range(1, 7), repeat=2))
    win = sum(mine + lead > theirs for mine, theirs in rolls)
    tie = sum(mine + lead == theirs for mine, theirs in rolls)
    return Fraction(win, len(rolls) - tie)


TABLES = {"BS-SETUP", "BS-VAR.2", "BS-SUP", "BS-D.1", "BS-RET", "BS-CMB", "BS-D.10", "BS-D.8"}


def test_every_table_of_the_rulebook_is_checked_here():
    assert {c.id for c in BOOK.clauses.values() if c.tables} == TABLES


@pytest.mark.rule("BS-SETUP")
def test_the_deployment_and_starting_supply_table():
    assert table("BS-SETUP") == (
        ("side", "units deployed", "supply dice at start"),
        *((SIDE_NAME[s], str(DEPLOY[s]), str(SUPPLY_START[s])) for s in SIDES))


@pytest.mark.rule("BS-VAR.2")
def test_the_initiative_bid_table():
    header, (label, *cells) = table("BS-VAR.2")
    assert header == ("bid above the opponent's", "0", "1", "2", "3", "4", "5 or more")
    assert label == "chance to win the initiative"
    leads = range(len(cells))
    assert [Fraction(cell) for cell in cells] == [initiative_win(lead, 0) for lead in leads]
    assert [Fraction(cell) for cell in cells] == [win_by_enumeration(lead) for lead in leads]
    assert initiative_win(leads[-1] - 1, 0) < 1                      # "or more" starts at the first sure win
    assert all(initiative_win(base + lead, base) == 1 for base in range(3) for lead in range(leads[-1], 19))
    assert all(initiative_win(base + lead, base) == initiative_win(lead, 0)
               for base in range(1, 6) for lead in leads)            # only the difference counts


@pytest.mark.rule("BS-SUP")
def test_the_supply_phase_table():
    assert table("BS-SUP") == (
        ("side", "home states", "supply dice gained"),
        *((SIDE_NAME[s], str(HOME_STATES[s]), str(SUPPLY_GAIN[s])) for s in SIDES))


@pytest.mark.rule("BS-D.1")
def test_the_placement_limits_table():
    assert table("BS-D.1") == (
        ("area", *(f"{SIDE_NAME[s]} units" for s in SIDES)),
        *((f"{SIDE_NAME[owner]} home state", *(str(HOME_LIMIT if s == owner else 0) for s in SIDES))
          for owner in SIDES),
        ("border state", *(str(BORDER_LIMIT) for _ in SIDES)))


@pytest.mark.rule("BS-RET")
def test_the_retreat_roll_table():
    assert table("BS-RET") == (
        ("die", *(str(face) for face in RETREAT.results)),
        ("the retreat", *("succeeds" if ok else "fails" for ok in RETREAT.results.values())))
    assert tuple(RETREAT.results) == (1, 2, 3, 4, 5, 6)


@pytest.mark.rule("BS-CMB")
def test_the_units_removed_table():
    header, *rows = table("BS-CMB")
    assert header == ("winner's strength", "loser's strength", "units removed", "with the strict reading")
    for cells in rows:
        ws, ls, removed, strict = (int(c) for c in cells)
        winner, loser = Strength(ws, 6, 0), Strength(ls, 5 if ls else 0, 0)   # an equal strength won on the face
        assert (removed, strict) == (losses(winner, loser, "inclusive"), losses(winner, loser, "strict")), cells
        # the rule as the clause words it: more than, and at least twice; strictly, more than twice and S > 0
        assert removed == (2 if ws > ls and ws >= 2 * ls else 1), cells
        assert strict == (2 if ls > 0 and ws > 2 * ls else 1), cells
    assert {(r[0], r[1], r[2]) for r in rows} >= {                   # the digest's worked losses
        ("2", "1", "2"), ("3", "2", "1"), ("4", "2", "2"), ("6", "3", "2"), ("7", "4", "1"), ("1", "0", "2"),
        ("5", "5", "1")}


@pytest.mark.rule("BS-D.10")
def test_the_commander_cards_table():
    names = {s: COMMANDER_NAMES[s] + ("–",) * (max(COMMANDER_FACES.values()) - COMMANDER_FACES[s]) for s in SIDES}
    assert all(len(COMMANDER_NAMES[s]) == COMMANDER_FACES[s] for s in SIDES)
    assert table("BS-D.10") == (
        ("card", *(SIDE_NAME[s] for s in SIDES)),
        *((FACE_SYMBOLS[i], *(names[s][i] for s in SIDES)) for i in range(max(COMMANDER_FACES.values()))))


@pytest.mark.rule("BS-D.8")
def test_the_supply_cap_table():
    assert table("BS-D.8") == (
        ("dice", "standard", "supply variant"),
        ("supply cap", str(SUPPLY_CAP), str(SUPPLY_CAP_VARIANT)),
        *((f"{SIDE_NAME[s]} starts with", str(SUPPLY_START[s]), str(SUPPLY_START_VARIANT[s])) for s in SIDES))


FIRST_SUCCESS = min(face for face, ok in RETREAT.results.items() if ok)

STATED = [
    ("BS-SETUP", f"until the CSA has placed {DEPLOY[C]} units and the Union {DEPLOY[U]}"),
    ("BS-DRAW", f"The game lasts {ROUNDS} rounds"),
    ("BS-DRAW", f"draws {DRAW} cards"),
    ("BS-DRAW", f"controls {DRAW_BONUS_STATE} draws {DRAW_BONUS} card more"),
    ("BS-SUP", f"for each of {' and '.join(SUPPLY_BONUS_STATES)} it controls"),
    ("BS-D.1", f"at most {HOME_LIMIT} of them"),
    ("BS-D.1", f"at most {BORDER_LIMIT} units of each side, {2 * BORDER_LIMIT} in all"),
    ("BS-D.3", f"at most {MAX_FORCE} units on the board"),
    ("BS-D.5", f"gives its side {ENTRENCH_BONUS} more die"),
    ("BS-RET", f"on {FIRST_SUCCESS} or more the retreat succeeds"),
    ("BS-CMB", f"the defender {ENTRENCH_BONUS} more if it has an entrenched unit"),
    ("BS-CMB", f"up to {SUPPLY_PER_UNIT} for each of its units in the state"),
    ("BS-CARD", f"at most {CARD_LIMIT} card"),
    ("BS-MOD", f"never goes above {FACE_MAX} or below {FACE_MIN}"),
    ("BS-D.8", f"at most {SUPPLY_CAP} supply dice"),
    ("BS-D.8", f"the cap is {SUPPLY_CAP_VARIANT}"),
    ("BS-VIC", f"In rounds 1 to {ROUNDS - 1} only the CSA can win here; in round {ROUNDS}"),
    ("BS-VIC.1", f"With {SUDDEN_VP} VP or more the CSA wins at once"),
    ("BS-VIC.2", f"In round {ROUNDS} both sides count VP"),
    ("BS-VIC.2", f"{SUDDEN_VP} VP wins at once for the CSA in round {ROUNDS} too"),
]


@pytest.mark.parametrize("rule, words", [pytest.param(r, w, marks=pytest.mark.rule(r)) for r, w in STATED])
def test_a_number_a_clause_states_is_the_rules(rule, words):
    assert words in BOOK.clauses[rule].text
