"""What a fire does by the target owner's next morale step (digest section 8): the fire (DX-7.1/7.2), the
owner's levelled placing of the hits (DX-7.3; decoys in the pool under long-range fire, DX-13.6), the
leader check first (DX-11.3: its death takes its command away), then one morale check per hit (DX-6.0).

The owner places the hits for the best chance to lose no card (the digest's vector 13), then for the
fewest cards lost on average, knowing the natural 6s rolled. Both scores of a placing are linear in
P(leader dies), so `landing` splits the fire's outcomes by placing and by the leader's fate once, for
this module, the advice and melee (DX-13.1) alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import prod

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist

from .fire import FireInput, Volley, canonical, die_counts, resolve_fire
from .hits import Pool, destroyed, levelled
from .leaders import KILLED, LeaderCheckInput, death_chance, resolve_leader_check
from .morale import ROUTS, MoraleInput, pass_chance, resolve_morale
from .rules import CV_RANGE, MOST_DICE

# How the owner is assumed to place hits (DX-7.3), as every text that describes the placing says it.
OWNER_PLACING = "for the smallest chance of losing any card, then the fewest cards lost on average"


@dataclass(frozen=True, order=True)
class TargetCard(Inputs):
    """A card in the target position: a unit, or a decoy (cv 0)."""

    RULE = "DX-7.3"
    cv: int = bounded(0, CV_RANGE[1])
    morale: int = 0      # with its leader's command
    unled: int = 0       # without it (the leader killed, or not commanding it)
    hits: int = bounded(0, CV_RANGE[1], default=0)

    @property
    def decoy(self) -> bool:
        return self.cv == 0


@dataclass(frozen=True)
class FireEffectInput(Inputs):
    RULE = "DX-7.3"
    fire: FireInput
    targets: tuple[TargetCard, ...]
    leader: bool = False                                 # the target side has a leader in the position
    leader_hits: int = bounded(0, MOST_DICE, default=0)  # hits it holds already


@dataclass(frozen=True, order=True)
class Effect:
    units_lost: int      # destroyed (DX-7.3) or routed (DX-6.0)
    decoys_lost: int     # eliminated by a hit (DX-13.6)
    leader_killed: bool


def pool_of(targets: tuple[TargetCard, ...]) -> Pool:
    return tuple((t.cv, t.hits) for t in targets)


@lru_cache(maxsize=None)
def survival(t: TargetCard, h: int, led: bool) -> Fraction:
    """P(the card is still there after its checks), holding h hits (0 if destroyed)."""
    if h > t.cv:
        return Fraction(0)
    return pass_chance(t.morale if led else t.unled) ** h


@lru_cache(maxsize=None)
def _placings(targets: tuple[TargetCard, ...], hits: int) -> tuple[tuple[tuple[int, ...], tuple[Fraction, ...]], ...]:
    """The levelled placings, each with its two scores as (A, B) pairs, score = A + P(leader dies) * B: the
    chance of losing at least one card, then the expected cards lost. Of placings with the same scores only
    the first (the one the tie-break prefers) is kept."""
    result = {}
    for final in levelled(pool_of(targets), hits):
        led = [survival(t, h, True) for t, h in zip(targets, final)]
        unled = [survival(t, h, False) for t, h in zip(targets, final)]
        all_led, all_unled = prod(led), prod(unled)
        scores = (1 - all_led, all_led - all_unled, len(targets) - sum(led), sum(led) - sum(unled))
        result.setdefault(scores, final)
    return tuple((final, scores) for scores, final in result.items())


def _choose(placings, p_dead: Fraction) -> tuple[int, ...]:
    if len(placings) == 1:
        return placings[0][0]
    return min(placings, key=lambda c: (c[1][0] + p_dead * c[1][1], c[1][2] + p_dead * c[1][3],
                                        tuple(-h for h in c[0])))[0]


def _p_dead(inputs: FireEffectInput, sixes: int) -> Fraction:
    return death_chance(inputs.leader_hits + sixes) if inputs.leader else Fraction(0)


def allocation(inputs: FireEffectInput, volley: Volley) -> tuple[int, ...]:
    """The owner's placing of this volley's hits (DX-7.3): the best chance to lose no card, then the fewest
    cards lost on average."""
    return _choose(_placings(inputs.targets, volley.hits), _p_dead(inputs, volley.sixes))


@lru_cache(maxsize=None)
def landing(inputs: FireEffectInput) -> tuple[tuple[tuple[int, ...], bool, Fraction], ...]:
    """(final hits per card, leader killed, probability) over every outcome of the fire. The weights are
    kept as whole numbers over 6^(dice + the most leader hits), for speed."""
    groups = canonical(inputs.fire.groups)
    counts = die_counts(groups)
    held = inputs.leader_hits
    top = held + max(s for _, s in counts)
    by_hits: dict[int, list[tuple[int, int]]] = {}
    for (h, s), c in counts.items():
        by_hits.setdefault(h, []).append((s, c))
    weights: dict[tuple[tuple[int, ...], bool], int] = {}
    for h, sixes in by_hits.items():
        placings = _placings(inputs.targets, h)
        # both scores are linear in P(leader dies): a placing best at the fewest and the most 6s is best for
        # every count in between
        ends = {_choose(placings, _p_dead(inputs, s)) for s in (min(sixes)[0], max(sixes)[0])}
        same = ends.pop() if len(ends) == 1 else None
        for s, c in sixes:
            final = same if same is not None else _choose(placings, _p_dead(inputs, s))
            k = held + s
            alive = 5 ** k * 6 ** (top - k) if inputs.leader else 6 ** top
            for killed, w in ((True, 6 ** top - alive), (False, alive)):
                if w:
                    weights[(final, killed)] = weights.get((final, killed), 0) + c * w
    scale = 6 ** (sum(n for n, _ in groups) + top)
    return tuple((final, killed, Fraction(w, scale)) for (final, killed), w in weights.items())


def resolve_fire_effect(inputs: FireEffectInput, dice: Dice) -> Result:
    start = len(dice.rolls)
    volley = resolve_fire(inputs.fire, dice)
    final = allocation(inputs, volley.outcome)
    gone = destroyed(pool_of(inputs.targets), final)
    results = [volley]
    killed = False
    leader_hits = inputs.leader_hits + volley.outcome.sixes
    if inputs.leader and leader_hits:
        check = resolve_leader_check(LeaderCheckInput(leader_hits), dice)
        results.append(check)
        killed = check.outcome == KILLED
    routed = 0
    for t, h, lost in zip(inputs.targets, final, gone):
        if h and not lost and not t.decoy:
            check = resolve_morale(MoraleInput(t.unled if killed else t.morale, h), dice)
            results.append(check)
            routed += check.outcome == ROUTS
    outcome = Effect(_lost(inputs.targets, gone, False) + routed, _lost(inputs.targets, gone, True), killed)
    rules = tuple(dict.fromkeys(r for result in results for r in result.rules)) + ("DX-7.3",)
    return Result("fire_effect", {"inputs": inputs}, tuple(dice.rolls[start:]), outcome, rules,
                  "; ".join(r.summary for r in results), {"allocation": final})


def _lost(targets, gone, decoys: bool) -> int:
    return sum(1 for t, lost in zip(targets, gone) if lost and t.decoy == decoys)


def poisson_binomial(chances) -> dict[int, Fraction]:
    """How many of several independent events happen, each with its own chance."""
    counts = {0: Fraction(1)}
    for p in chances:
        following: dict[int, Fraction] = {}
        for k, q in counts.items():
            following[k] = following.get(k, 0) + q * (1 - p)
            following[k + 1] = following.get(k + 1, 0) + q * p
        counts = following
    return counts


@lru_cache(maxsize=4096)
def fire_effect_odds(inputs: FireEffectInput) -> Dist:
    weights: dict[Effect, Fraction] = {}
    for final, killed, p in landing(inputs):
        gone = destroyed(pool_of(inputs.targets), final)
        units, decoys = _lost(inputs.targets, gone, False), _lost(inputs.targets, gone, True)
        routs = [1 - survival(t, h, not killed) for t, h, lost in zip(inputs.targets, final, gone)
                 if h and not lost and not t.decoy]
        for routed, r in poisson_binomial(routs).items():
            key = Effect(units + routed, decoys, killed)
            weights[key] = weights.get(key, 0) + p * r
    return dist(weights)


def fire_effect_inputs():
    """Fires of one or two dice into one or two cards, with and without a leader (holding a hit or not),
    hits already on a card, and a decoy in the pool."""
    b2, a1, c3 = TargetCard(2, 3, 2), TargetCard(1, 3, 2), TargetCard(3, 2, 2)
    fires = (FireInput(((1, 2),)), FireInput(((2, 2),)), FireInput(((1, 1), (1, 3))))
    targets = ((b2,), (a1, c3), (TargetCard(2, 2, 2, hits=1), a1), (b2, TargetCard(0)))
    for fire in fires:
        for group in targets:
            for leader, held in ((False, 0), (True, 1)):
                yield FireEffectInput(fire, group, leader, held)
