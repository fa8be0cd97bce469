"""BS-INIT initiative: each side rolls a die (plus its bid in the BS-VAR.2 variant); a tie is rolled again;
the higher roll chooses to go first or second."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist, fractions
from companion.terms import Terms

from .rules import C, SIDE_NAME, SUPPLY_CAP_VARIANT, U


@dataclass(frozen=True)
class InitiativeInput(Inputs):
    RULE = "BS-VAR.2"
    bid_c: int = bounded(0, SUPPLY_CAP_VARIANT, default=0)   # supply dice the CSA gripped, added to every roll
    bid_u: int = bounded(0, SUPPLY_CAP_VARIANT, default=0)   # a bid is at most the supply held (cap 20)


def initiative_label(side: str, bid: int) -> str:
    """"Initiative, CSA: the die + bid +3 (BS-INIT, BS-VAR.2)": a side's die, and the supply it bid added to it."""
    if not bid:
        return f"Initiative, {SIDE_NAME[side]} (BS-INIT)"
    return f"Initiative, {SIDE_NAME[side]}: {Terms((('bid', bid),)).after('the die')} (BS-INIT, BS-VAR.2)"


def resolve_initiative(inputs: InitiativeInput, dice: Dice) -> Result:
    """One roll-off: the outcome is "C", "U" or "tie" (a tie is rolled again, as a new action)."""
    c = dice.d(6, initiative_label(C, inputs.bid_c))
    u = dice.d(6, initiative_label(U, inputs.bid_u))
    tc, tu = c + inputs.bid_c, u + inputs.bid_u
    winner = C if tc > tu else U if tu > tc else "tie"
    bids = f" (+{inputs.bid_c} / +{inputs.bid_u} bid: {tc} v {tu})" if inputs.bid_c or inputs.bid_u else ""
    said = "a tie, roll again" if winner == "tie" else f"{SIDE_NAME[winner]} wins and chooses who goes first"
    rules = ("BS-INIT", "BS-VAR.2") if inputs.bid_c or inputs.bid_u else ("BS-INIT",)
    return Result("initiative", {"bid_c": inputs.bid_c, "bid_u": inputs.bid_u}, tuple(dice.rolls[-2:]), winner,
                  rules, f"Initiative: CSA {c}, Union {u}{bids}: {said}", {"c": c, "u": u})


def initiative_odds(inputs: InitiativeInput) -> Dist:
    weights: dict[str, int] = {}
    for c in range(1, 7):
        for u in range(1, 7):
            tc, tu = c + inputs.bid_c, u + inputs.bid_u
            key = C if tc > tu else U if tu > tc else "tie"
            weights[key] = weights.get(key, 0) + 1
    return dist(weights)


def initiative_inputs():
    return [InitiativeInput(c, u) for c in range(0, 7) for u in range(0, 7)]


def initiative_win(bid_mine: int, bid_theirs: int) -> Fraction:
    """P(winning the initiative in the end), ties rolled again with the same bids: P(win) / (1 - P(tie))."""
    p = fractions(initiative_odds(InitiativeInput(bid_mine, bid_theirs)))
    return p.get(C, Fraction(0)) / (1 - p.get("tie", Fraction(0)))
