"""The A House Divided rulebook (engines/house_divided/rulebook.md) against the engine: every table, cell by cell,
from rules.py; the numbers its clauses state in words, and its worked examples worked out here from the tables;
the readings in step with the session options."""
from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import groupby, product

import pytest

from companion.rulebook import load
from engines.house_divided import rules as R
from engines.house_divided.basic import ENTRENCHMENT
from engines.house_divided.options import OPTIONS, RULE_SWITCHES
from engines.house_divided.rules import CSA, USA
from engines.house_divided.victory import SOUTHERN_CITIES
from engines.house_divided.washington import loss_for

BOOK = load("house_divided")
CHOSEN = "(unless the players choose otherwise)"   # marks the reading a new session plays
ARM_NAMES = {R.INF: "Infantry", R.CAV: "Cavalry"}


def map_id(name: str) -> str:
    """The id a map gives a box the rulebook names: "St. Joseph" is st_joseph."""
    return name.lower().replace(".", "").replace(" ", "_")


NAMES = {map_id(name): name for name in ("Washington", "Richmond", "Europe", "Fort Monroe", "Pensacola", "St. Joseph",
                                         "Springfield", "St. Louis", "Bowling Green", "Louisville", "Baltimore")}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def faces(run: list[int]) -> str:
    """Consecutive die faces as the rulebook writes them: "6" or "1–4"."""
    return str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}"


def runs(results: dict) -> list[tuple[list[int], object]]:
    """A die table's faces in order, grouped into runs with the same result."""
    return [([face for face, _ in group], result)
            for result, group in groupby(sorted(results.items()), key=lambda item: item[1])]


def marches(year: int, side: str, die: int) -> int:
    """A Command Table cell read straight from the printed rows (Union figure first)."""
    return int(R.COMMAND_ROWS[die][R.YEARS.index(year)].split("/")[R.SIDES.index(side)])


TABLES = {
    "HD-8": [(("Box", "Map id"), *((NAMES[box], box) for box in R.DESIGNATED))],
    "HD-4.1": [(("d6", *map(str, R.YEARS)), *((str(die), *cells) for die, cells in R.COMMAND_ROWS.items()))],
    "HD-4.4": [(("Unit", "Morale"),
                ("Crack", str(R.MORALE[R.CRACK])), ("Veteran", str(R.MORALE[R.VETERAN])),
                (f"Militia, {R.YEARS[1]} and later", str(R.MILITIA_MORALE_LATER)),
                *((f"Militia, {year}", str(value)) for year, value in R.MILITIA_MORALE.items()))],
    "HD-4.7": [(("d6", "Union MM lost"), *((str(die), str(max(R.WASHINGTON_MIN_LOSS, die))) for die in range(1, 7)))],
    "HD-4.8": [(("State", "Recruitment cities", "Number to beat"),
                *((name, ", ".join(NAMES[c] for c in cities), str(R.BORDER_REQUIRED[key]))
                  for key, (name, cities) in R.BORDER_STATES.items())),
               (("Condition", "Modifier"),
                (f"MM gap {R.CLOSE_GAP} or less", signed(R.CLOSE_MODIFIER)),
                (f"MM gap more than {R.WIDE_GAP}", signed(R.WIDE_MODIFIER)),
                (f"Year {R.YEARS[0]}", signed(R.FIRST_YEAR_MODIFIER)),
                ("CSA controls Washington", signed(R.WASHINGTON_MODIFIER)),
                ("USA controls Richmond", signed(R.RICHMOND_MODIFIER)),
                *((f"Year {year}", signed(mod)) for year, mod in R.LATE_YEAR_MODIFIER.items()))],
    "HD-4.9": [(("d6", "The unit"),
                *((faces(run), "returns to Europe" if back else "stays eliminated")
                  for run, back in runs(R.FI_RETURN.results)))],
    "HD-5.9": [(("Unit", "Arm", "Grade"),
                *((str(n), ARM_NAMES[arm], grade.capitalize()) for n, (arm, grade) in enumerate(R.FI_UNITS_V31, 1)))],
}


@pytest.mark.parametrize("rule_id", [pytest.param(rid, marks=pytest.mark.rule(rid), id=rid) for rid in TABLES])
def test_every_table_is_the_engines_cell_by_cell(rule_id):
    """Header and every cell of the clause's tables, in order, are what rules.py holds."""
    assert [list(table) for table in BOOK.clauses[rule_id].tables] == [list(table) for table in TABLES[rule_id]]


def test_every_table_in_the_rulebook_is_checked_here():
    assert {c.id for c in BOOK.clauses.values() if c.tables} == set(TABLES)


@pytest.mark.rule("HD-8")
def test_the_named_boxes_are_every_designated_box_of_the_engine():
    """Each box the rules name is written as its map id reads, and every designated id of the engine is there."""
    (boxes,) = BOOK.clauses["HD-8"].tables
    assert sorted(row[1] for row in boxes[1:]) == sorted(R.DESIGNATED)
    assert all(map_id(name) == box for name, box in boxes[1:])
    assert set(NAMES) == set(R.DESIGNATED)


@pytest.mark.rule("HD-4.7")
def test_the_washington_loss_table_is_the_resolvers():
    (table,) = BOOK.clauses["HD-4.7"].tables
    assert [(int(die), int(lost)) for die, lost in table[1:]] == [(die, loss_for(die)) for die in range(1, 7)]
    mean = Fraction(sum(int(lost) for _, lost in table[1:]), 6)
    assert f"loses {mean.numerator}/{mean.denominator} points on average" in BOOK.clauses["HD-4.7"].text


def command_days(year: int, side: str, dice: list[int], leaders: int = 0, carry_leaders: bool = True) -> list[int]:
    """Battle command day by day, worked out here: table + half the day before (rounded up) + leaders."""
    found = []
    for die in dice:
        carried = 0 if not found else math.ceil((found[-1] - (0 if carry_leaders else leaders)) / 2)
        found.append(marches(year, side, die) + carried + leaders)
    return found


@pytest.mark.rule("HD-4.2")
def test_the_battle_command_example_is_the_tables():
    c1, c2, c3 = command_days(1862, USA, [4, 1, 5])
    assert (f"rolling 4, 1 and 5 on three days has commands {c1}, {c2} ({c2 - math.ceil(c1 / 2)} + "
            f"{math.ceil(c1 / 2)}) and {c3} ({c3 - math.ceil(c2 / 2)} + {math.ceil(c2 / 2)})") in \
        BOOK.clauses["HD-4.2"].text


@pytest.mark.rule("HD-A4")
def test_the_leader_carry_example_is_the_tables():
    day1, day2 = command_days(1863, CSA, [3, 6], leaders=3)
    _, without = command_days(1863, CSA, [3, 6], leaders=3, carry_leaders=False)
    text = BOOK.clauses["HD-A4"].text
    assert f"command {marches(1863, CSA, 3)} + 3 = {day1}" in text
    assert f"{marches(1863, CSA, 6)} + {math.ceil(day1 / 2)} + 3 = {day2}" in text
    assert f"{marches(1863, CSA, 6)} + {math.ceil((day1 - 3) / 2)} + 3 = {without}" in text


@pytest.mark.rule("HD-A3")
def test_the_carry_example_with_and_without_the_cap():
    assert (f"a command of 13 carries {math.ceil(13 / 2)}, not {math.ceil(min(13, R.FIRE_CAP) / 2)}"
            in BOOK.clauses["HD-A3"].text)


@pytest.mark.rule("HD-4.3")
def test_the_leader_split_example_by_enumeration():
    """Rating 3 on three firing units: the splits the clause allows and refuses, against every split."""
    legal = {split for split in product(range(4), repeat=3) if sum(split) <= 3}
    text = BOOK.clauses["HD-4.3"].text
    for split in ((1, 1, 1), (3, 0, 0), (2, 1, 0)):
        assert split in legal and "+".join(map(str, split)) in text
    assert (2, 2, 0) not in legal and "but 2+2+0 is not" in text


@pytest.mark.rule("HD-4.6")
def test_the_desertion_example_cannot_happen():
    """A veteran that lost, not routed, with a leader rated 2: no die face is greater than its morale."""
    veteran = R.MORALE[R.VETERAN]
    assert not any(d + R.LOST_MODIFIER + R.STEADY_MODIFIER - 2 > veteran for d in range(1, 7))
    assert "A veteran that lost without routing, with a leader rated 2 beside it, can never desert" in \
        BOOK.clauses["HD-4.6"].text


@pytest.mark.rule("HD-4.8")
def test_the_border_state_example():
    """Missouri in 1861 with the MMs 5 apart: both plus modifiers, and the lowest face that beats the number."""
    mod = R.CLOSE_MODIFIER + R.FIRST_YEAR_MODIFIER
    first = min(d for d in range(1, 7) if d + mod > R.BORDER_REQUIRED["MO"])
    assert f"Missouri in 1861 with the MMs {R.CLOSE_GAP} apart gets {signed(mod)} and succeeds on a roll of {first} " \
           "or more" in BOOK.clauses["HD-4.8"].text


@pytest.mark.rule("HD-4.9")
def test_the_return_example():
    p = Fraction(sum(R.FI_RETURN.results.values()), 6)
    at_least_one = 1 - (1 - p) ** 2
    assert (f"With two units eliminated, at least one returns with chance "
            f"{at_least_one.numerator}/{at_least_one.denominator}") in BOOK.clauses["HD-4.9"].text


LATE = [f"{signed(mod)} in {year}" for year, mod in R.LATE_YEAR_MODIFIER.items()]
FIRST_RETURN = min(face for face, back in R.FI_RETURN.results.items() if back)
PHRASES = [
    ("HD-2", f"at most {R.TURNS} turns"),
    ("HD-2", f"how many of its {R.UNIT_MARCHES} marches"),
    ("HD-2", f"the leaders {', '.join(list(R.LEADERS)[:-1])} and {list(R.LEADERS)[-1]}"),
    ("HD-8", f"a shield ({R.USA}, {R.CSA} or {R.NEUTRAL})"),
    ("HD-8", f"a {R.RAIL}, {R.RIVER} or {R.ROAD} line"),
    ("HD-3", f"in rounds, {R.ROUNDS_PER_DAY} to a day"),
    ("HD-5.1", f"every box holding {R.STACK_THRESHOLD} or more of its units"),
    ("HD-5.1", f"at least {R.SOURCES_NEEDED} of the side's own recruitment cities"),
    ("HD-5.1", f"along {R.SUPPLY_LINES[0]} and {R.SUPPLY_LINES[1]} lines"),
    ("HD-A12", f"toward the {R.STACK_THRESHOLD} units"),
    ("HD-5.2", f"from 0 to {R.MAX_MARCHES}"),
    ("HD-5.2", f"at most {R.UNIT_MARCHES} marches a turn"),
    ("HD-4.2", f"days of {R.ROUNDS_PER_DAY} rounds: rounds 1 to {R.ROUNDS_PER_DAY} are day 1, rounds "
               f"{R.ROUNDS_PER_DAY + 1} to {2 * R.ROUNDS_PER_DAY} day 2"),
    ("HD-4.2", f"never more than {R.FIRE_CAP}"),
    ("HD-5.6", f"never more than {R.FIRE_CAP}"),
    ("HD-A3", f"The cap of {R.FIRE_CAP} limits only"),
    ("HD-4.4", f"less {-R.SHELTER_MODIFIER} if the unit is entrenched"),
    ("HD-4.5", f"after every {R.ROUNDS_PER_DAY}th round"),
    ("HD-4.6", f"Add {R.LOST_MODIFIER} if its side lost the battle, take {-R.STEADY_MODIFIER} off if the unit is "
               "not routed"),
    ("HD-4.7", f"a roll of 1 counting as {R.WASHINGTON_MIN_LOSS}"),
    ("HD-4.7", f"its MM rises by {R.WASHINGTON_RECAPTURE} only"),
    ("HD-A9", f"ordinary {R.NORMAL_CITY_LOSS}-point loss"),
    ("HD-5.10", f"ordinary {R.NORMAL_CITY_LOSS}-point loss"),
    ("HD-A9", f"A recapture gives back only {R.WASHINGTON_RECAPTURE}"),
    ("HD-4.9", f"on {FIRST_RETURN} or 6 it is placed in the Europe box"),
    ("HD-4.10", f"(from 0 to {R.MAX_STRENGTH})"),
    ("HD-4.10", f"({ENTRENCHMENT[0][1]}, or nothing)"),
    ("HD-4.11", f"removed after {R.GARRISON_HITS} hits"),
    ("HD-5.7", f"Lee for the {R.LEADERS['Lee']} and Grant and Sherman for the "
               f"{R.SIDE_NAME[R.LEADERS['Grant']]}"),
    ("HD-5.7", f"at most {R.LEADER_MARCH_MOVES} march-moves a turn in all"),
    ("HD-A23", f"up to {R.LEADER_MARCH_MOVES} march-moves a turn"),
    ("HD-A22", f"On at most {R.SPLIT_UNITS} units (Lee: {R.SPLIT_UNITS_OF['Lee']})"),
    ("HD-5.9", f"MM differ by {R.FI_MM_GAP} or less"),
    ("HD-5.9", f"worth {R.FI_CITY_RP} or more recruitment points"),
    ("HD-5.9", f"{R.FI_UNIT_COUNT} foreign units appear"),
    ("HD-6.2", f"the {SOUTHERN_CITIES} largest Southern cities"),
    ("HD-6.2", f"surviving turn {R.TURNS}"),
    ("HD-A10", ", ".join(LATE[:-1]) + f" and {LATE[-1]}"),
]


@pytest.mark.parametrize("rule_id, phrase", [pytest.param(rid, phrase, marks=pytest.mark.rule(rid), id=rid)
                                             for rid, phrase in PHRASES])
def test_a_number_a_clause_states_in_words_is_the_engines(rule_id, phrase):
    assert phrase in BOOK.clauses[rule_id].text


@pytest.mark.rule("HD-4.8")
def test_the_editable_numbers_reading_gives_the_engines_numbers():
    option = next(o for o in OPTIONS if o.key == "border_required")
    states = {key: name for key, (name, _) in R.BORDER_STATES.items()}
    numbers = [f"{states[key]} {value}" for key, value in option.default.items()]
    assert f"{', '.join(numbers[:-1])} and {numbers[-1]} as printed" in "\n".join(readings("HD-4.8"))


def readings(rule_id: str) -> list[str] | None:
    """The bullets under the clause's "Readings:" line, or None without one."""
    lines = BOOK.clauses[rule_id].text.splitlines()
    if "Readings:" not in lines:
        return None
    bullets = []
    for line in lines[lines.index("Readings:") + 1:]:
        if not line.startswith("- "):
            break
        bullets.append(line)
    return bullets


@pytest.mark.parametrize("rule_id", [pytest.param(rid, marks=pytest.mark.rule(rid), id=rid) for rid in R.RULES])
def test_readings_are_the_options_choices_in_order_with_the_sessions_own_marked(rule_id):
    """A clause has readings exactly when an option names its rule: one bullet per choice (one for an option the
    players edit, such as the border states' numbers), option by option in the order of the options, the choice a
    new session plays marked as such."""
    options = [o for o in OPTIONS if o.rule == rule_id]
    if not options:
        assert readings(rule_id) is None
        return
    expected = [type(value) is type(o.default) and value == o.default
                for o in options for value, _ in (o.choices or ((o.default, ""),))]
    assert [CHOSEN in bullet for bullet in readings(rule_id)] == expected


@pytest.mark.parametrize("option", [pytest.param(o, marks=pytest.mark.rule(o.rule), id=o.key) for o in RULE_SWITCHES])
def test_a_rule_switch_reads_on_then_off(option):
    """The advanced rules' own switches, each first under its clause: the first bullet is On, the second Off."""
    on, off = readings(option.rule)[:2]
    assert on.startswith("- On: ") and off.startswith("- Off: ")


def test_no_developer_words_in_the_clauses():
    """Plain words for the table: no ambiguity or vector labels, no talk of digests, sources or defaults."""
    for clause in BOOK.clauses.values():
        text = f"{clause.title}\n{clause.text}"
        assert not re.search(r"\b(A\d{1,2}|TV-\d+|S\d{1,2})\b|digest|source|default", text, re.IGNORECASE), clause.id


def test_the_book_is_the_games_and_searchable_by_its_own_terms():
    assert BOOK.title == "A House Divided (advanced rules): the rules in brief" and not BOOK.problems
    assert [c.id for c in BOOK.search("HD-4.10")] == ["HD-4.10"]
    for words, rule_id in (("補給", "HD-5.1"), ("牽制", "HD-5.4"), ("沿岸防衛", "HD-4.11"), ("士気能力表", "HD-A1"),
                           ("外国の干渉", "HD-5.9"), ("徴発", "HD-A11"), ("Fort Monroe", "HD-5.4"),
                           ("Bowling Green", "HD-4.8"), ("Command Table", "HD-4.1"), ("rout", "HD-4.4"),
                           ("foraging", "HD-A11"), ("Sherman desertion", "HD-A8")):
        assert rule_id in [c.id for c in BOOK.search(words)], words
