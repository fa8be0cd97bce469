"""GC-5 the order roll: one d6 (+1 after Ragnarok), the sortie size both sides may commit, and whether
the sortie is forced (an unmodified 6). A modified 7 is the grand offensive: 2d6 fleets, rolled when the
sortie starts (Q2)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import icepool

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist, fractions
from companion.terms import Terms

from .rules import (
    FORCED_FACE,
    GRAND,
    GRAND_DICE,
    MAX_SORTIE,
    ORDER_DIE,
    RAGNAROK_MODIFIER,
    SORTIE_NAMES,
    SORTIE_SIZE,
)
from .two_dice import throw


@dataclass(frozen=True)
class OrderInput(Inputs):
    RULE = "GC-5"

    ragnarok: bool = False      # Ragnarok has fired: +1 for the rest of the game
    invasion_size: int = bounded(0, MAX_SORTIE, default=0)   # the Invasion card's fixed size, 0 = not active


@dataclass(frozen=True, order=True)
class OrderResult:
    modified: int
    size: str        # "1", "2", "3" fleets, GRAND ("2d6"), or the Invasion's fixed size
    forced: bool


def added(inputs: OrderInput) -> Terms:
    """GC-5: what is added to the die: +1 once Ragnarok has fired."""
    return Terms((("Ragnarok", RAGNAROK_MODIFIER),)) if inputs.ragnarok else Terms()


def order_result(raw: int, inputs: OrderInput) -> OrderResult:
    """GC-5: the table read for an unmodified face."""
    modified = raw + added(inputs).total
    size = str(inputs.invasion_size) if inputs.invasion_size else SORTIE_SIZE[modified]
    return OrderResult(modified, size, raw == FORCED_FACE)


def describe(raw: int, result: OrderResult, inputs: OrderInput) -> str:
    mod = f" +{RAGNAROK_MODIFIER} (Ragnarok) = {result.modified}" if inputs.ragnarok else ""
    if inputs.invasion_size:
        size = f"{result.size} fleets, fixed by the Invasion"
    else:
        size = f"{SORTIE_NAMES[result.size]}, {result.size} fleet{'' if result.size == '1' else 's'}"
    return f"Order roll {raw}{mod}: {size}" + (", forced sortie" if result.forced else "")


def resolve_order_roll(inputs: OrderInput, dice: Dice) -> Result:
    plus = added(inputs)
    raw = dice.d(ORDER_DIE, f"Order roll{': ' + plus.after('the die') if plus.parts else ''} (GC-5)")
    result = order_result(raw, inputs)
    return Result("order_roll", {"ragnarok": inputs.ragnarok, "invasion_size": inputs.invasion_size},
                  tuple(dice.rolls[-1:]), result, ("GC-5",), describe(raw, result, inputs), {"raw": raw})


def order_roll_odds(inputs: OrderInput) -> Dist:
    return icepool.d6.map(lambda raw: order_result(raw, inputs))


def order_inputs():
    return [OrderInput(ragnarok, size) for ragnarok in (False, True) for size in (0, 4)]


def resolve_grand_offensive(inputs: None, dice: Dice) -> Result:
    """GC-5 (Q2): the grand offensive's fleets, 2d6, rolled at the start of the sortie."""
    fleets = throw(dice, "Grand offensive: 2d6 fleets (GC-5)")
    return Result("grand_offensive", {}, tuple(dice.rolls[-1:]), fleets, ("GC-5",),
                  f"Grand offensive: {fleets} fleets a side")


def grand_offensive_odds(inputs: None) -> Dist:
    return GRAND_DICE @ icepool.d6


def fleets(size: str, grand: int = 0) -> int:
    """The sortie size in fleets: the table's number, or the 2d6 rolled for a grand offensive."""
    return grand if size == GRAND else int(size)


def resolve_sortie_size(inputs: OrderInput, dice: Dice) -> Result:
    """The order roll and, on a grand offensive, its 2d6: the fleets each side may commit."""
    order = resolve_order_roll(inputs, dice)
    parts, rolls = [order.summary], list(order.rolls)
    grand = 0
    if order.outcome.size == GRAND:
        roll = resolve_grand_offensive(None, dice)
        grand, parts, rolls = roll.outcome, parts + [roll.summary], rolls + list(roll.rolls)
    size = fleets(order.outcome.size, grand)
    return Result("sortie_size", dict(order.inputs), tuple(rolls), size, ("GC-5",), "; ".join(parts))


def sortie_size_odds(inputs: OrderInput) -> Dist:
    """The chance of each sortie size in fleets (1, 2, 3, or 2..12 on a grand offensive)."""
    weights: dict[int, Fraction] = {}
    for result, p in fractions(order_roll_odds(inputs)).items():
        sizes = fractions(grand_offensive_odds(None)) if result.size == GRAND else {int(result.size): Fraction(1)}
        for size, q in sizes.items():
            weights[size] = weights.get(size, Fraction(0)) + p * q
    return dist(weights)


def forced_odds(inputs: OrderInput) -> Fraction:
    """P(the sortie is forced): the unmodified 6."""
    return sum((p for r, p in fractions(order_roll_odds(inputs)).items() if r.forced), Fraction(0))
