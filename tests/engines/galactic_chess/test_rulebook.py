"""The Galactic Chess rulebook (engines/galactic_chess/rulebook.md) against the engine: every table cell by
cell against rules.py, and every session option's readings written under its clause."""
from __future__ import annotations

import pytest

from companion.rulebook import load
from engines.galactic_chess import rules
from engines.galactic_chess.options import OPTIONS

BOOK = load("galactic_chess")


def table(rule_id: str) -> tuple[tuple[str, ...], ...]:
    (only,) = BOOK.clauses[rule_id].tables
    return only


def test_only_the_tables_checked_here_are_in_the_rulebook():
    """A new table in the rulebook needs its own check below."""
    assert {c.id: len(c.tables) for c in BOOK.clauses.values() if c.tables} == {"GC-5": 1, "GC-6B.7": 1}


@pytest.mark.rule("GC-5")
def test_the_order_table_is_the_engines():
    """Rows: the modified rolls giving one size (a range where several do), the size, its name."""
    spans: list[list] = []
    for roll, size in sorted(rules.SORTIE_SIZE.items()):
        if spans and spans[-1][2] == size and spans[-1][1] == roll - 1:
            spans[-1][1] = roll
        else:
            spans.append([roll, roll, size])
    expected = [(f"{low}-{high}" if low != high else f"{low}", size, rules.SORTIE_NAMES[size])
                for low, high, size in spans]
    header, *rows = table("GC-5")
    assert header == ("roll", "fleets each side", "name")
    assert rows == expected
    # the rolls run from 1 to a natural 6 plus Ragnarok's +1, and the top row is the grand offensive
    assert sorted(rules.SORTIE_SIZE) == list(range(1, rules.ORDER_DIE + rules.RAGNAROK_MODIFIER + 1))
    assert rows[-1][1] == rules.GRAND == f"{rules.GRAND_DICE}d6"


@pytest.mark.rule("GC-6B.7")
def test_the_victory_point_table_is_the_engines():
    expected = {
        "an enemy admiral of another nation destroyed": rules.KILL_VP,
        "Iserlohn Fortress destroyed": rules.FORTRESS_VP,
        "each commander or garrison fleet that did not sortie, when the fortress is destroyed": rules.FORTRESS_VP,
        "the annihilation bonus, to the owner of the surviving side's SC": rules.BONUS_VP,
    }
    header, *rows = table("GC-6B.7")
    assert header == ("scored for", "VP")
    assert [what for what, _ in rows] == list(expected)
    for what, vp in rows:
        assert vp == str(expected[what]), what


def readings(rule_id: str) -> list[str]:
    """The list under a clause's `Readings:` line."""
    lines = BOOK.clauses[rule_id].text.splitlines()
    if "Readings:" not in lines:
        return []
    found = []
    for line in lines[lines.index("Readings:") + 1:]:
        if not line.startswith("- "):
            break
        found.append(line[2:])
    return found


def test_every_option_has_its_readings_under_its_rule_and_no_other_clause_has_any():
    """One line per choice of every option tied to the rule, in the options' order, each option's session
    default marked as the standard reading."""
    for rule_id in BOOK.clauses:
        expected: list[bool] = []        # per choice: is it the option's default?
        for option in (o for o in OPTIONS if o.rule == rule_id):
            expected += [type(value) is type(option.default) and value == option.default
                         for value, _ in option.choices]
        assert [line.endswith("(standard).") for line in readings(rule_id)] == expected, rule_id
