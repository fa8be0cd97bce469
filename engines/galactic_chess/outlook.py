"""The whole battle under a stated policy (digest section 8, item 6).

- `resolve_battle` plays a battle with dice: every roll-off, strike, retreat and free attack, the
  policy (policy.py) making every choice the rules leave open.
- `battle_odds`, its twin, is exact: a forward recursion over the battle's states (unit statuses, SCs,
  last roll-off) with integer weights, each opportunity weighing 2 x 36 x 36 (a roll-off's half, then at
  most two 2d6 throws).
- `outlook` reads the numbers a player asks for (who sweeps the field, losses, VP, each unit's fate),
  exactly up to the size the digest gives, by Monte Carlo beyond, labelled as an estimate with its
  Wilson interval.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Callable

import icepool
import numpy as np

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.inputs import Inputs
from companion.odds import Dist, fractions

from .battle import (
    ACTED,
    ATTACKER,
    DEFENDER,
    DESTROYED,
    FLEET,
    FORTRESS,
    GROUND,
    READY,
    SIDES,
    SURVIVED,
    Award,
    BattleRules,
    BattleUnit,
    Field,
    apply_duel,
    apply_retreat,
    bonus,
    close,
    duel_input,
    fates,
    finished,
    fits,
    opportunity,
    retreat_input,
    start,
    with_rolloff,
)
from .duel import duel_table, resolve_duel
from .interval import Estimate
from .policy import (
    ENGAGE,
    GREEDY_KILL,
    GREEDY_SAFETY,
    RETREAT,
    Move,
    Policy,
    pick_actor,
    pick_move,
    pick_shooter,
    settle,
)
from .retreat import resolve_retreat, retreat_table
from .rolloff import RollOffInput, resolve_roll_off
from .two_dice import WAYS

DEN = 2 * WAYS * WAYS
EXACT_MAX_UNITS = 12   # digest section 8: about 3^n (n+1) states for a fixed order, past 10^7 from n = 13
TRIALS = 20_000        # simulated battles beyond that size
BATTLE_RULES = ("GC-6B.2", "GC-6B.4", "GC-6B.4r", "GC-6B.5", "GC-6B.6", "GC-6B.7")


@dataclass(frozen=True)
class BattleInput(Inputs):
    RULE = "GC-6B"

    units: tuple[BattleUnit, ...]
    rules: BattleRules = BattleRules()
    policy: Policy = GREEDY_KILL
    field: Field | None = None      # a battle under way; None: from its first opportunity

    def __post_init__(self) -> None:
        super().__post_init__()
        if not any(u.side == ATTACKER for u in self.units) or not any(u.side == DEFENDER for u in self.units):
            raise RuleError("GC-6B", "BattleInput 'units': a battle needs a unit on each side")
        if self.field is not None and not fits(self.units, self.field):
            raise RuleError("GC-6B", "BattleInput 'field' does not fit its units (a status and an SC of each side)")


@dataclass(frozen=True, order=True)
class BattleOutcome:
    fates: tuple[str, ...]                  # per unit: survived, destroyed, retreated or escaped
    vp: tuple[tuple[str, str, int], ...]    # (player, camp, VP won) for each clique that won any


Branch = tuple[int, Field, tuple[int, ...]]   # (weight out of DEN, the field after, VP won per clique)


class Model:
    """A battle's states and their transitions under the policy, each computed once."""

    def __init__(self, inputs: BattleInput):
        self.inputs = inputs
        self.units, self.rules, self.policy = inputs.units, inputs.rules, inputs.policy
        self.cliques = tuple(sorted({(u.owner, u.camp) for u in inputs.units}))
        self._index = {c: i for i, c in enumerate(self.cliques)}
        self._over: dict[Field, bool] = {}
        self._decisions: dict[Field, tuple[int, Move, int | None]] = {}
        self._finished: dict[tuple[Field, int], Field] = {}
        self._branches: dict[Field, tuple[list[int], list[tuple[Field, tuple[int, ...]]]]] = {}
        self._ids: dict[Field, int] = {}
        self.fields: list[Field] = []
        self._tables: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def first(self) -> Field:
        return settle(self.units, self.inputs.field or start(self.units), self.rules)

    def zero(self) -> tuple[int, ...]:
        return (0,) * len(self.cliques)

    def add(self, vp: tuple[int, ...], awards: tuple[Award, ...]) -> tuple[int, ...]:
        if not awards:
            return vp
        vp = list(vp)
        for a in awards:
            vp[self._index[(a.owner, a.camp)]] += a.points
        return tuple(vp)

    def over(self, field: Field) -> bool:
        if field not in self._over:
            self._over[field] = finished(self.units, field.status)
        return self._over[field]

    def outcome(self, field: Field, vp: tuple[int, ...]) -> BattleOutcome:
        """The battle's result once it is over: the fates and VP with the annihilation bonus."""
        vp = self.add(tuple(vp), bonus(self.units, field, self.rules))
        return BattleOutcome(fates(field), tuple((o, c, int(v)) for (o, c), v in zip(self.cliques, vp) if v))

    def decide(self, field: Field) -> tuple[int, Move, int | None]:
        """The policy's actor, move and (for a retreat) free-attack shooter, the roll-off settled."""
        if field not in self._decisions:
            actor = pick_actor(self.units, opportunity(self.units, field, self.rules))
            move = pick_move(self.units, field, actor, self.rules, self.policy)
            shooter = pick_shooter(self.units, field, actor, self.rules) if move.kind == RETREAT else None
            self._decisions[field] = (actor, move, shooter)
        return self._decisions[field]

    def finish(self, field: Field, actor: int) -> Field:
        """The field once the actor's opportunity is over: acted, SCs replaced (ties to the policy)."""
        key = (field, actor)
        if key not in self._finished:
            self._finished[key] = settle(self.units, close(self.units, field, actor, self.rules)[0], self.rules)
        return self._finished[key]

    def move_branches(self, field: Field, actor: int, move: Move,
                      shooter: int | None) -> list[tuple[int, Field, tuple]]:
        """(weight out of 36 x 36, field after, awards) for each result of the move."""
        units, rules = self.units, self.rules
        if move.kind == ENGAGE:
            odds = duel_table(duel_input(units, actor, move.target))
            apply = lambda o: apply_duel(units, field, actor, move.target, o, rules)
        elif move.kind == RETREAT:
            odds = retreat_table(retreat_input(units, field, actor, shooter))
            apply = lambda o: apply_retreat(units, field, actor, o, shooter, rules)
        else:
            odds, apply = {None: Fraction(1)}, lambda o: (field, ())
        found = []
        for result, p in odds.items():
            after, awards = apply(result)
            found.append((int(p * WAYS * WAYS), self.finish(after, actor), awards))
        return found

    def branches(self, field: Field) -> tuple[list[int], list[tuple[Field, tuple[int, ...]]]]:
        """Cumulative weights (out of DEN) and (field, VP won) for each way the next opportunity ends."""
        if field not in self._branches:
            opp = opportunity(self.units, field, self.rules)
            starts = [(1, with_rolloff(field, w, opp.strategy)) for w in SIDES] if opp.roll_off else [(2, field)]
            weights, ends = [], []
            for half, before in starts:
                for w, after, awards in self.move_branches(before, *self.decide(before)):
                    weights.append(half * w)
                    ends.append((after, self.add(self.zero(), awards)))
            self._branches[field] = (list(accumulate(weights)), ends)
        return self._branches[field]

    def node(self, field: Field) -> int:
        """The state's number, for the simulation's arrays."""
        if field not in self._ids:
            self._ids[field] = len(self.fields)
            self.fields.append(field)
        return self._ids[field]

    def table(self, node: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The branches of a state as arrays: cumulative weights, next states, VP won."""
        if node not in self._tables:
            cumulative, ends = self.branches(self.fields[node])
            self._tables[node] = (np.array(cumulative), np.array([self.node(f) for f, _ in ends]),
                                  np.array([won for _, won in ends], dtype=np.int64).reshape(len(ends), -1))
        return self._tables[node]


Nodes = dict[tuple[Field, tuple[int, ...]], int]


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def exact(model: Model, nodes: Nodes) -> Dist:
    """The exact distribution of outcomes from weighted starting nodes (weights over a common scale)."""
    ends: list[tuple[int, BattleOutcome, int]] = []
    level = 0
    while nodes:
        following: Nodes = {}
        for (field, vp), mass in nodes.items():
            if model.over(field):
                ends.append((level, model.outcome(field, vp), mass))
                continue
            cumulative, results = model.branches(field)
            previous = 0
            for total, (after, won) in zip(cumulative, results):
                key = (after, _plus(vp, won))
                following[key] = following.get(key, 0) + mass * (total - previous)
                previous = total
        nodes, level = following, level + 1
    last = max(lvl for lvl, _, _ in ends)
    weights: dict[BattleOutcome, int] = {}
    for lvl, outcome, mass in ends:
        weights[outcome] = weights.get(outcome, 0) + mass * DEN ** (last - lvl)
    return icepool.Die(weights).simplify()


def simulate(model: Model, nodes: Nodes, trials: int, seed: int = 0) -> Counter:
    """Outcome counts of `trials` battles from the starting nodes, all battles advanced together one
    opportunity at a time through the same transitions (numpy)."""
    rng = np.random.default_rng(seed)
    keys = list(nodes)
    weights = np.array([nodes[k] for k in keys], dtype=float)
    picks = rng.choice(len(keys), size=trials, p=weights / weights.sum())
    ids = np.array([model.node(f) for f, _ in keys])[picks]
    vp = np.array([v for _, v in keys], dtype=np.int64).reshape(len(keys), -1)[picks]
    while True:
        states, where = np.unique(ids, return_inverse=True)
        live = [j for j, node in enumerate(states) if not model.over(model.fields[node])]
        if not live:
            break
        grouped = np.argsort(where, kind="stable")          # the battles of each state, together
        bounds = np.concatenate([[0], np.cumsum(np.bincount(where, minlength=len(states)))])
        for j in live:
            members = grouped[bounds[j]:bounds[j + 1]]
            cumulative, following, won = model.table(int(states[j]))
            k = np.searchsorted(cumulative, rng.integers(DEN, size=members.size), side="right")
            ids[members] = following[k]
            vp[members] += won[k]
    found: Counter = Counter()
    for row, count in zip(*_tally(ids, vp)):
        found[model.outcome(model.fields[int(row[0])], tuple(int(v) for v in row[1:]))] += int(count)
    return found


def _tally(ids: np.ndarray, vp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (state, VP...) rows and their counts; packed into one integer per row when it fits."""
    rows = np.column_stack([ids, vp])
    bases = rows.max(axis=0) + 1
    if float(np.prod(bases.astype(float))) >= 2.0 ** 62:
        return np.unique(rows, axis=0, return_counts=True)
    weights = np.cumprod(np.concatenate([[1], bases[:0:-1]]))[::-1]
    keys, first, counts = np.unique(rows @ weights, return_index=True, return_counts=True)
    return rows[first], counts


def resolve_battle(inputs: BattleInput, dice: Dice) -> Result:
    """A battle from its next opportunity to its end, with dice, the policy choosing."""
    model = Model(inputs)
    units = inputs.units
    field, vp, results = model.first(), model.zero(), []
    while not model.over(field):
        while (opp := opportunity(units, field, inputs.rules)).roll_off:
            roll = resolve_roll_off(RollOffInput(), dice, ("attacker SC", "defender SC"))
            results.append(roll)
            if len(roll.outcome) == 1:
                field = with_rolloff(field, roll.outcome[0], opp.strategy)
        actor, move, shooter = model.decide(field)
        if move.kind == ENGAGE:
            roll = resolve_duel(duel_input(units, actor, move.target), dice)
            field, awards = apply_duel(units, field, actor, move.target, roll.outcome, inputs.rules)
            results.append(roll)
        elif move.kind == RETREAT:
            roll = resolve_retreat(retreat_input(units, field, actor, shooter), dice)
            field, awards = apply_retreat(units, field, actor, roll.outcome, shooter, inputs.rules)
            results.append(roll)
        else:
            awards = ()
        vp = model.add(vp, awards)
        field = model.finish(field, actor)
    outcome = model.outcome(field, vp)
    text = "; ".join(f"{u.name} {f}" for u, f in zip(units, outcome.fates))
    return Result("battle", {"inputs": inputs}, tuple(r for res in results for r in res.rolls), outcome,
                  BATTLE_RULES, f"Battle ({inputs.policy}): {text}")


def battle_odds(inputs: BattleInput) -> Dist:
    model = Model(inputs)
    return exact(model, {(model.first(), model.zero()): 1})


def _unit(name, side, stars, s, a, d, kind=FLEET, declaration=0, reinhard=False):
    return BattleUnit(name, side, ("Red", "Blue")[side], ("EMP", "FPA")[side], kind, stars, s, a, d, declaration,
                      reinhard)


def battle_inputs():
    """Battles of at most two 2d6 throws on any path, so every die can be enumerated: a sure first strike, a
    strike back, equal strategy (in a battle under way), a retreat with its free attack, the fortress (lost with a
    garrison fleet), a pass before the fortress, an air unit in a civil war, and a sweep with the annihilation bonus."""
    y = _unit("Y", DEFENDER, 2, 3, 1, 8)
    fortress = _unit("Iserlohn", DEFENDER, 0, 6, 10, 10, FORTRESS)
    yield BattleInput((_unit("Sure", ATTACKER, 3, 7, 9, 9), y))
    yield BattleInput((_unit("X", ATTACKER, 2, 5, 2, 9), _unit("Killer", DEFENDER, 1, 3, 9, 8)))
    equal = (_unit("E1", ATTACKER, 1, 4, 9, 9), _unit("E2", DEFENDER, 1, 4, 2, 8), _unit("D0", DEFENDER, 2, 2, 0, 5))
    yield BattleInput(equal, field=Field((READY, READY, ACTED), (0, 2)))
    yield BattleInput((_unit("Slow", ATTACKER, 1, 2, 9, 9), _unit("Quick", DEFENDER, 1, 3, 0, 2)), policy=GREEDY_SAFETY)
    yield BattleInput((_unit("X", ATTACKER, 2, 7, 2, 9), fortress), BattleRules(deemed=1))
    yield BattleInput((_unit("R", ATTACKER, 3, 7, 2, 9, reinhard=True), fortress))
    yield BattleInput((_unit("Sure", ATTACKER, 3, 7, 9, 9), _unit("Air", ATTACKER, 0, 1, 0, 2, GROUND), y),
                      BattleRules(civil_war=True))
    yield BattleInput((_unit("A1", ATTACKER, 2, 9, 9, 9), _unit("A2", ATTACKER, 2, 8, 9, 9, declaration=1),
                       _unit("B1", DEFENDER, 2, 3, 1, 8), _unit("B2", DEFENDER, 1, 2, 1, 8, declaration=1)))


# --- what a player reads --------------------------------------------------------------------------

@dataclass(frozen=True)
class Outlook:
    """The numbers of a battle's outcome: exact Fractions, or Estimates from `trials` simulated battles."""

    units: tuple[BattleUnit, ...]
    weights: dict[BattleOutcome, Fraction] | Counter
    exact: bool
    trials: int = 0

    def chance(self, test: Callable[[BattleOutcome], bool]) -> Fraction | Estimate:
        hits = sum(w for o, w in self.weights.items() if test(o))
        return Fraction(hits) if self.exact else Estimate(int(hits), self.trials)

    def expect(self, value: Callable[[BattleOutcome], int]) -> Fraction | float:
        total = sum(w * value(o) for o, w in self.weights.items())
        return Fraction(total) if self.exact else total / self.trials

    def swept(self, side: int) -> Callable[[BattleOutcome], bool]:
        return lambda o: all(f != SURVIVED for u, f in zip(self.units, o.fates) if u.side == side)

    def wins(self, side: int) -> Fraction | Estimate:
        """P(the enemy is swept from the field, destroyed or gone, while the side keeps a unit)."""
        mine, theirs = self.swept(side), self.swept(1 - side)
        return self.chance(lambda o: theirs(o) and not mine(o))

    def ahead(self, side: int) -> Fraction | Estimate:
        """P(the enemy loses more units than the side does)."""
        lost = lambda o, k: sum(1 for u, f in zip(self.units, o.fates) if u.side == k and f == DESTROYED)
        return self.chance(lambda o: lost(o, 1 - side) > lost(o, side))

    def both_gone(self) -> Fraction | Estimate:
        return self.chance(lambda o: self.swept(ATTACKER)(o) and self.swept(DEFENDER)(o))

    def losses(self, side: int) -> Fraction | float:
        return self.expect(lambda o: sum(1 for u, f in zip(self.units, o.fates) if u.side == side and f == DESTROYED))

    def vp(self, owner: str, camp: str | None = None) -> Fraction | float:
        return self.expect(lambda o: sum(v for p, c, v in o.vp if p == owner and camp in (None, c)))

    def fate(self, name: str, fate: str) -> Fraction | Estimate:
        i = next(i for i, u in enumerate(self.units) if u.name == name)
        return self.chance(lambda o: o.fates[i] == fate)



def read(model: Model, nodes: Nodes, trials: int = TRIALS, seed: int = 0, exact_max: int = EXACT_MAX_UNITS) -> Outlook:
    """Exact when the battle has at most `exact_max` units (the digest's size by default), else simulated."""
    if len(model.units) <= exact_max:
        return Outlook(model.units, fractions(exact(model, nodes)), True)
    counts = simulate(model, nodes, trials, seed)
    return Outlook(model.units, counts, False, trials)


def outlook(inputs: BattleInput, trials: int = TRIALS, seed: int = 0, exact_max: int = EXACT_MAX_UNITS) -> Outlook:
    model = Model(inputs)
    return read(model, {(model.first(), model.zero()): 1}, trials, seed, exact_max)


def after_move(model: Model, field: Field, actor: int, move: Move) -> Nodes:
    """The nodes after the actor's chosen move (not the policy's), the rest to be played by the policy."""
    shooter = pick_shooter(model.units, field, actor, model.rules) if move.kind == RETREAT else None
    nodes: Nodes = {}
    for w, after, awards in model.move_branches(field, actor, move, shooter):
        key = (after, model.add(model.zero(), awards))
        nodes[key] = nodes.get(key, 0) + w
    return nodes
