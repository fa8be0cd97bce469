"""GC-6B.6 retreat, taken instead of engaging on the unit's own opportunity.

Roll 2d6 <= T, where T is the unit's strategy plus its SC's (twice its own when it is the SC, its own
alone when its side has no SC): it leaves the battle, not destroyed. On a failure the enemy SC picks one
present enemy unit (never the fortress, Q15), which makes one attack with no return roll; a survivor
stays in the battle with its opportunity spent.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs
from companion.odds import Dist, dist
from companion.terms import Terms, check_sum

from .duel import StrikeInput, hit_chance, resolve_strike
from .two_dice import WAYS, at_most, needs, signed, support_term, throw

RETREATED, DESTROYED, STAYS = "retreated", "destroyed", "stays"


def threshold_terms(strategy: int, sc_strategy: int | None, is_sc: bool) -> Terms:
    """GC-6B.6: own S + SC's S; 2 x own S for the SC itself; with no SC (None) the SC's S counts as 0."""
    if is_sc:
        return Terms((("strategy", strategy), ("its strategy again, as the SC", strategy)))
    terms = Terms((("strategy", strategy),))
    return terms if sc_strategy is None else terms.plus("the SC's strategy", sc_strategy)


@dataclass(frozen=True)
class RetreatRollInput(Inputs):
    RULE = "GC-6B.6"

    threshold: int
    modifier: int = 0                # a battle-support card on the retreat roll
    made_of: Terms | None = None     # the parts of the threshold, when known (`threshold_terms`)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_sum(self, "made_of", self.threshold, self.made_of, self.RULE)

    def leaves_on(self) -> Terms:
        """The 2d6 total that leaves at most: the threshold less the card's modifier."""
        return support_term(self.made_of or Terms((("threshold", self.threshold),)), self.modifier)


def retreat_chance(inputs: RetreatRollInput) -> Fraction:
    """r(T): the chance 2d6 (+ modifier) comes to T or less."""
    return Fraction(at_most(inputs.leaves_on().total), WAYS)


def resolve_retreat_roll(inputs: RetreatRollInput, dice: Dice, label: str = "Retreat") -> Result:
    total = throw(dice, f"{label}: {needs(inputs.leaves_on(), 'less')} (GC-6B.6)")
    done = total <= inputs.leaves_on().total
    text = (f"{label}: {total}{signed(inputs.modifier)} vs {inputs.threshold}: "
            f"{'leaves the battle' if done else 'fails'}")
    return Result("retreat_roll", {"threshold": inputs.threshold, "modifier": inputs.modifier},
                  tuple(dice.rolls[-1:]), done, ("GC-6B.6",), text, {"total": total})


def retreat_roll_odds(inputs: RetreatRollInput) -> Dist:
    p = retreat_chance(inputs)
    return dist({True: p, False: 1 - p})


def retreat_roll_inputs():
    return [RetreatRollInput(t, m) for t in range(0, 15) for m in (0, -1, 2)]


@dataclass(frozen=True)
class RetreatInput(Inputs):
    """A retreat and, on a failure, the free attack of the unit the enemy SC picks (None: no unit may)."""

    RULE = "GC-6B.6"

    roll: RetreatRollInput
    free_attack: StrikeInput | None


def resolve_retreat(inputs: RetreatInput, dice: Dice) -> Result:
    roll = resolve_retreat_roll(inputs.roll, dice)
    results = [roll]
    outcome = RETREATED if roll.outcome else STAYS
    if not roll.outcome and inputs.free_attack is not None:
        results.append(resolve_strike(inputs.free_attack, dice, "Free attack"))
        outcome = DESTROYED if results[-1].outcome else STAYS
    return Result("retreat", {"inputs": inputs}, tuple(r for res in results for r in res.rolls), outcome,
                  ("GC-6B.6",), "; ".join(r.summary for r in results))


@lru_cache(maxsize=None)
def retreat_table(inputs: RetreatInput) -> dict[str, Fraction]:
    """P(retreats) = r(T); P(destroyed) = (1 - r(T)) q(D - A); P(stays) the rest."""
    away = retreat_chance(inputs.roll)
    hit = hit_chance(inputs.free_attack) if inputs.free_attack is not None else Fraction(0)
    weights = {RETREATED: away, DESTROYED: (1 - away) * hit, STAYS: (1 - away) * (1 - hit)}
    return {o: w for o, w in weights.items() if w}


def retreat_odds(inputs: RetreatInput) -> Dist:
    return dist(retreat_table(inputs))


def retreat_inputs():
    for t in (2, 6, 8, 12, 13):
        for shot in (None, StrikeInput(2, 9), StrikeInput(0, 13), StrikeInput(5, 6, -1)):
            yield RetreatInput(RetreatRollInput(t), shot)
    yield RetreatInput(RetreatRollInput(7, -2), StrikeInput(3, 10, 1))
