"""The Bull Run rulebook (engines/bull_run/rulebook.md) against the engine: every table cell by cell against
rules.py, the numbers its text states, and a Readings list wherever a session option chooses a reading."""
from __future__ import annotations

import re

import pytest

from companion.rulebook import load
from engines.bull_run import rules
from engines.bull_run.options import OPTIONS
from engines.bull_run.state import clock

BOOK = load("bull_run")
CHECKED_TABLES = {"BR-6.0", "BR-8.1", "BR-9.0", "BR-9.1", "BR-10.4", "BR-10.5", "BR-11.1", "BR-12.0"}


def table(rule_id: str):
    """The one table of a clause: its header and its body rows."""
    tables = BOOK.clauses[rule_id].tables
    assert len(tables) == 1, f"{rule_id} has {len(tables)} tables"
    header, *body = tables[0]
    return header, body


def faces(cell: str) -> list[int]:
    """A d6 cell: one face ("4") or a range of faces ("1-3")."""
    low, _, high = cell.partition("-")
    return list(range(int(low), int(high or low) + 1))


def die_rows(body, results) -> dict[int, str]:
    """Each face of a one-die table read from the rulebook, every face of the die once."""
    read = {face: result for cell, result in body for face in faces(cell)}
    assert sorted(face for cell, _ in body for face in faces(cell)) == sorted(results)
    return read


def test_every_table_of_the_rulebook_is_checked_here():
    assert {c.id for c in BOOK.clauses.values() if c.tables} == CHECKED_TABLES


@pytest.mark.rule("BR-6.0")
def test_br_6_0_the_initiative_table():
    header, body = table("BR-6.0")
    assert header == ("d6", "initiative")
    assert die_rows(body, rules.INITIATIVE.results) == rules.INITIATIVE.results


@pytest.mark.rule("BR-8.1")
def test_br_8_1_the_terrain_cost_table_and_the_movement_allowance():
    header, body = table("BR-8.1")
    assert header == ("terrain", "MP to enter")
    assert body == [(terrain, "may not enter" if cost is None else str(cost))
                    for terrain, cost in rules.TERRAIN_COSTS.items()]
    assert f"{rules.MOVEMENT_ALLOWANCE} movement points (MP) a turn" in BOOK.clauses["BR-8.1"].text


@pytest.mark.rule("BR-8.2")
def test_br_8_2_the_stacking_limit_in_the_text():
    assert BOOK.clauses["BR-8.2"].text.startswith(f"At most {rules.STACK_LIMIT} units may share a hex")


@pytest.mark.rule("BR-9.0")
def test_br_9_0_the_csa_action_table():
    header, body = table("BR-9.0")
    assert header[0] == "d6" and [h.casefold() for h in header[1:]] == list(rules.ACTION_COLUMNS)
    for i, column in enumerate(rules.ACTION_COLUMNS, start=1):
        results = rules.ACTION_TABLE[column].results
        assert die_rows([(row[0], row[i]) for row in body], results) == results


@pytest.mark.rule("BR-9.1")
def test_br_9_1_the_orders_table():
    header, body = table("BR-9.1")
    assert header == ("order", "name", "units it names")
    assert body == [(letter, title, ", ".join(units) or "none") for letter, (title, _, units) in rules.ORDERS.items()]


@pytest.mark.rule("BR-10.4")
def test_br_10_4_the_combat_results_table_and_its_limit():
    header, body = table("BR-10.4")
    assert header == ("modified roll", *(f"{low}-{high}" for low, high in rules.CRT_COLUMNS))
    assert body == [(str(roll), *map(str, hits)) for roll, hits in rules.CRT_HITS.items()]
    assert f"a stack of more than {rules.MAX_SP_ON_TABLE} SP is off the table" in BOOK.clauses["BR-10.4"].text


@pytest.mark.rule("BR-10.5")
def test_br_10_5_the_modifier_table():
    header, body = table("BR-10.5")
    assert header == ("the attack", "modifier")
    terrain = {"target in clear terrain": "clear", "target in a town": "town", "target on a hill": "hill",
               "target in woods": "woods"}
    assert [terrain[label] for label, _ in body[:-1]] == list(rules.TARGET_TERRAINS)
    for label, modifier in body[:-1]:
        expected = rules.TERRAIN_MODIFIER if terrain[label] in rules.DEFENSIVE_TERRAIN else 0
        assert int(modifier) == expected, label
    assert body[-1] == ("across a Bull Run ford", str(rules.FORD_MODIFIER))


@pytest.mark.rule("BR-11.1")
def test_br_11_1_the_retreat_check_table():
    header, body = table("BR-11.1")
    assert header == ("d6", "result")
    read = die_rows(body, rules.RETREAT_CHECK.results)
    assert {face: result == "retreats 1 hex" for face, result in read.items()} == rules.RETREAT_CHECK.results
    assert set(read.values()) == {"stays", "retreats 1 hex"}


def band(cell: str) -> tuple[int | None, int | None]:
    """A D cell of the victory table: "10 or more", "5 to 9", "-10 or less"."""
    if cell.endswith(" or more"):
        return int(cell.removesuffix(" or more")), None
    if cell.endswith(" or less"):
        return None, int(cell.removesuffix(" or less"))
    low, high = cell.split(" to ")
    return int(low), int(high)


@pytest.mark.rule("BR-12.0")
def test_br_12_0_the_victory_table():
    header, body = table("BR-12.0")
    assert header == ("D = Union SP lost - CSA SP lost", "result")
    assert [(*band(d), result) for d, result in body] == list(rules.VICTORY_TABLE)


@pytest.mark.parametrize("rule_id, die", [
    pytest.param("BR-8.3", rules.BEAUREGARD_CROSSING, marks=pytest.mark.rule("BR-8.3")),
    pytest.param("BR-8.4a", rules.SCOUTS, marks=pytest.mark.rule("BR-8.4a")),
    pytest.param("BR-8.4b", rules.FARM_FORD, marks=pytest.mark.rule("BR-8.4b")),
    pytest.param("BR-10.2", rules.HESITATION, marks=pytest.mark.rule("BR-10.2")),
], ids=["BR-8.3", "BR-8.4a", "BR-8.4b", "BR-10.2"])
def test_the_roll_a_clause_names_is_the_one_that_succeeds(rule_id, die):
    named = re.findall(r"on a roll of (\d-\d)", BOOK.clauses[rule_id].text)
    assert len(named) == 1, named
    assert faces(named[0]) == [face for face, ok in die.results.items() if ok]


@pytest.mark.rule("BR-5.1")
def test_br_5_1_the_length_of_the_game_and_the_clock():
    text = BOOK.clauses["BR-5.1"].text
    assert text.startswith(f"The game lasts {rules.TURNS} turns of about {rules.TURN_MINUTES} minutes each, "
                           f"from {clock(1)}")
    times = re.findall(r"turn (\d+)(?: starts)? at (\d\d:\d\d)", text)
    assert len(times) == 3 and all(clock(int(turn)) == time for turn, time in times)


@pytest.mark.rule("BR-2.4")
def test_br_2_4_the_number_of_counters():
    assert f"Its {rules.COUNTERS} counters are brigades" in BOOK.clauses["BR-2.4"].text


@pytest.mark.rule(*sorted({o.rule for o in OPTIONS}))
def test_a_readings_list_exactly_where_an_option_chooses_a_reading():
    with_readings = {c.id for c in BOOK.clauses.values() if re.search(r"^Readings:$", c.text, re.MULTILINE)}
    assert with_readings == {o.rule for o in OPTIONS}
