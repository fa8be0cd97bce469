"""HD-4.2 battlefield command: each battle day, each side's command C and its firing limit (HD-5.6).

Day 1: C = T + L. Day k >= 2: C = T + ceil(X/2) + L, where T is the Command Table cell for the year,
side and die (A2: the same table as marches), L the total rating of the side's leaders present, and
X what the previous day passes on: its C (A4 (a)) or its C without the leaders (A4 (b)), and under
A3 (b) capped at 8 first. At most min(C, 8) units fire each round; C itself is not capped (A3 (a)).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist, fractions
from companion.terms import Terms

from .command import marches
from .rules import COMMAND_TABLE, FIRE_CAP, SIDE_NAME, SIDES, YEARS


@dataclass(frozen=True)
class CommandInput(Inputs):
    RULE: ClassVar[str] = "HD-4.2"
    year: int = bounded(YEARS[0], YEARS[-1])
    side: Literal[SIDES]
    leaders: int = bounded(0, default=0)             # L: the side's leaders present, their total rating (HD-4.3)
    carried: int | None = bounded(0, default=None)   # X of the previous day; None on day 1
    carry: Literal["uncapped", "capped"] = "uncapped"             # A3
    leader_carry: Literal["included", "excluded"] = "included"    # A4


def fire_limit(command: int) -> int:
    """HD-5.6: at most 8 units fire, however high C is."""
    return min(command, FIRE_CAP)


def half_carry(carried: int | None) -> int:
    """HD-4.2: half the previous day's value, rounded up (0 on day 1)."""
    return 0 if carried is None else -(-carried // 2)


def passed_on(command: int, leaders: int, carry: str, leader_carry: str) -> int:
    """X: what a day with command C passes on to the next day (A3, A4)."""
    value = command if leader_carry == "included" else command - leaders
    return min(value, FIRE_CAP) if carry == "capped" else value


def added(inputs: CommandInput) -> Terms:
    """What is added to the table's number: half the day before's (rounded up) and the leaders' rating."""
    terms = Terms()
    if inputs.carried is not None:
        terms = terms.plus(f"half the day before's {inputs.carried}", half_carry(inputs.carried))
    return terms.plus("leaders", inputs.leaders) if inputs.leaders else terms


def resolve_battle_command(inputs: CommandInput, dice: Dice) -> Result:
    side = SIDE_NAME[inputs.side]
    more = added(inputs)
    die = dice.d(6, f"Battle command, {side}: {more.after(f'the {inputs.year} table')} (HD-4.2)")
    table = marches(inputs.year, inputs.side, die)
    carry = half_carry(inputs.carried)
    command = table + more.total
    parts = [f"table {table}"]
    if inputs.carried is not None:
        parts.append(f"carry ⌈{inputs.carried}/2⌉ = {carry}")
    if inputs.leaders:
        parts.append(f"leaders {inputs.leaders}")
    limit = fire_limit(command)
    return Result("battle_command", {"year": inputs.year, "side": inputs.side, "leaders": inputs.leaders,
                                     "carried": inputs.carried},
                  tuple(dice.rolls[-1:]), command, ("HD-4.2", "HD-5.6"),
                  f"{side} battle command: rolled {die}, {' + '.join(parts)} = {command}; "
                  f"up to {limit} units fire each round",
                  {"die": die, "table": table, "carry": carry, "fire_limit": limit,
                   "passes_on": passed_on(command, inputs.leaders, inputs.carry, inputs.leader_carry)})


def battle_command_odds(inputs: CommandInput) -> Dist:
    """The exact distribution of the day's C."""
    more = added(inputs).total
    return COMMAND_TABLE[(inputs.year, inputs.side)].odds().map(lambda table: table + more)


def battle_command_inputs():
    for year in YEARS:
        for side in SIDES:
            for leaders in (0, 3):
                for carried in (None, 0, 3, 13):
                    yield CommandInput(year, side, leaders, carried)
    yield CommandInput(1863, "CSA", 3, 7, "capped", "excluded")


def command_by_day(year: int, side: str, leaders: int, days: int, carry: str = "uncapped",
                   leader_carry: str = "included") -> list[Dist]:
    """The exact distribution of C on each day 1..days of a battle (a Markov chain on X; digest section 8)."""
    cells = fractions(COMMAND_TABLE[(year, side)].odds())
    carried: dict[int | None, Fraction] = {None: Fraction(1)}
    by_day = []
    for _ in range(days):
        today: dict[int, Fraction] = {}
        for x, p in carried.items():
            for table, q in cells.items():
                command = table + half_carry(x) + leaders
                today[command] = today.get(command, Fraction(0)) + p * q
        by_day.append(dist(today))
        carried = {}
        for command, p in today.items():
            x = passed_on(command, leaders, carry, leader_carry)
            carried[x] = carried.get(x, Fraction(0)) + p
    return by_day


def fire_limit_by_day(year: int, side: str, leaders: int, days: int, carry: str = "uncapped",
                      leader_carry: str = "included") -> list[Dist]:
    """The exact distribution of the firing limit min(C, 8) on each day (HD-5.6)."""
    return [d.map(fire_limit) for d in command_by_day(year, side, leaders, days, carry, leader_carry)]
