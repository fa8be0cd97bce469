"""BR-9 solitaire: the companion plays the CSA from the action table.

It rolls the action table before each CSA movement phase (BR-9.0), states the order in plain words
(BR-9.1), advises the target of each ordered CSA attack (BR-9.3), puts CSA hits on Union units
(BR-9.4) and decides CSA advances (BR-9.5). It asks the player only for the physical facts: the
count of Union units south of Bull Run, contact south of the run, which stacks are adjacent.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Sequence

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, certain

from .rules import ACTION_TABLE, ORDERS

TABLE_RULE = "BR-9.0"


@dataclass(frozen=True)
class ActionInput(Inputs):
    RULE = TABLE_RULE

    union_south: int = bounded(0)  # Union units south of Bull Run (the players' count, A7)
    aware: bool = False            # the CSA has recognised them (A6)
    unaware: Literal["none_column", "always_a"] = "none_column"  # A6: the None column, or order A without a roll


def action_column(inputs: ActionInput) -> str:
    """BR-9.0: the column, by the count of Union units south of Bull Run; None when not aware."""
    if not inputs.aware or inputs.union_south == 0:
        return "none"
    return "1-3" if inputs.union_south <= 3 else "4+"


def column_reason(inputs: ActionInput) -> str:
    """Why the roll reads that column (BR-9.0, A6)."""
    if not inputs.aware:
        return "the CSA has not recognised Union units south of Bull Run"
    south = inputs.union_south
    return f"{south or 'no'} Union unit{'' if south == 1 else 's'} south of Bull Run"


def resolve_action(inputs: ActionInput, dice: Dice) -> Result:
    column = action_column(inputs)
    given = {"union_south": inputs.union_south, "aware": inputs.aware}
    if not inputs.aware and inputs.unaware == "always_a":
        return Result("csa_action", given, (), "A", (TABLE_RULE, "BR-9.1"),
                      f"CSA action: not aware of the Union south of Bull Run, order A ({ORDERS['A'][0]})",
                      {"column": column})
    table = ACTION_TABLE[column]
    result = table.resolve(
        dice, "csa_action",
        lambda face, order: f"CSA action: column {column}, rolled {face}: order {order} ({ORDERS[order][0]})",
        given, label=f"CSA action table, column {column}: {column_reason(inputs)} ({TABLE_RULE})")
    return Result(result.procedure, result.inputs, result.rolls, result.outcome, (TABLE_RULE, "BR-9.1"),
                  result.summary, {**result.details, "column": column})


def action_odds(inputs: ActionInput) -> Dist:
    if not inputs.aware and inputs.unaware == "always_a":
        return certain("A")
    return ACTION_TABLE[action_column(inputs)].odds()


def action_inputs():
    for south in range(0, 9):
        for aware in (False, True):
            for unaware in ("none_column", "always_a"):
                yield ActionInput(south, aware, unaware)


@dataclass(frozen=True)
class Order:
    """A CSA order as the solitaire player reads it (BR-9.1)."""

    letter: str
    title: str
    text: str
    names: tuple[str, ...]                 # the commanders the order names
    units: tuple[tuple[str, str], ...]     # (name in the order, matching roster unit or "")
    notes: tuple[str, ...]


def order_for(letter: str, roster: Sequence[str], sudley_crossed: bool) -> Order:
    """The order in plain words, with the roster units it names matched by commander's name."""
    title, text, names = ORDERS[letter]
    units = tuple((n, next((u for u in roster if re.search(rf"\b{re.escape(n)}\b", u, re.I)), ""))
                  for n in names)
    notes = []
    if letter in ("D", "E"):
        notes.append("Sudley Ford has been crossed: Evans and Cocke go to Henry Hill." if sudley_crossed
                     else "Sudley Ford has not been crossed: Evans and Cocke are not sent to Henry Hill.")
    missing = [n for n, u in units if not u]
    if missing:
        notes.append(f"Not on your roster by name: {', '.join(missing)}.")
    return Order(letter, title, text, names, units, tuple(notes))


@dataclass(frozen=True)
class TargetAdvice:
    """BR-9.3: which adjacent Union stack a CSA stack attacks."""

    target: tuple[str, ...]                 # the weakest, or () when the player must break a tie
    tied: tuple[tuple[str, ...], ...]       # equally weak candidates
    reason: str


def choose_target(candidates: Sequence[Sequence[str]], sp_of) -> TargetAdvice:
    """BR-9.3: the weakest adjacent Union stack (lowest current SP). Among equals the player picks
    one blocking the objective or one without a terrain benefit."""
    if not candidates:
        return TargetAdvice((), (), "No Union stack is adjacent: no attack.")
    strength = {tuple(c): sum(sp_of(n) for n in c) for c in candidates}
    weakest = min(strength.values())
    tied = tuple(c for c, s in strength.items() if s == weakest)
    if len(tied) == 1:
        return TargetAdvice(tied[0], tied, f"{' + '.join(tied[0])} is the weakest adjacent stack ({weakest} SP)")
    return TargetAdvice((), tied, f"{len(tied)} stacks tie at {weakest} SP: pick the one blocking the "
                                  "objective, or the one without a terrain benefit")


def hit_choices(units: Sequence[tuple[str, int]], hits: int) -> tuple[str, ...]:
    """BR-9.4: the Union units the CSA may put its hits on: any it eliminates (hits >= SP);
    otherwise the unit(s) with the fewest SP."""
    killable = tuple(n for n, sp in units if 0 < sp <= hits)
    if killable:
        return killable
    fewest = min(sp for _, sp in units)
    return tuple(n for n, sp in units if sp == fewest)


def br94_spread(units: Sequence[tuple[str, int]], hits: int, first: str) -> dict[str, int]:
    """BR-9.4 with BR-10.3: the hits on each unit when `first` (one of `hit_choices`) takes them first and
    any left go to the stack's other unit; only hits beyond the whole stack are lost."""
    spread = {}
    for name, sp in sorted(units, key=lambda u: u[0] != first):
        spread[name] = min(hits, sp)
        hits -= spread[name]
    return spread


def must_advance(next_to_stronger_fresh_union: bool) -> bool:
    """BR-9.5: a CSA stack under offensive orders advances after a retreat or elimination, except
    into contact with a stronger Union stack that has not fought this turn (A20)."""
    return not next_to_stronger_fresh_union
