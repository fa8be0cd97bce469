"""DX-13.1 melee: both sides' units in the position roll at once (INF/CAV F3, ART F1, A6 printed values),
terrain ignored; all hits of the round are checked at once, leaders first (DX-11.3, DX-6.0). The initiator
then fights round 2 or disengages; if it fights, the opponent continues or disengages (A8: the melee then
ends). After round 2 an initiator that has not won the position (sole unit presence) disengages.

`plan` is the exact advice (digest section 8): a DP over the survivors after round 1 with the best choice
of each side at each point, scoring a melee for the initiator as
`position_value * (holds - opponent holds) + opponent cards lost - own cards lost` (units and leaders).
Round 2 needs only each side's chance of being wiped out and its expected losses, as the sides' fates
are independent given who fires at them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist

from .fire import FireInput, canonical, resolve_fire
from .fire_effect import FireEffectInput, TargetCard, allocation, landing, survival
from .hits import destroyed
from .leaders import KILLED, LeaderCheckInput, resolve_leader_check
from .morale import ROUTS, MoraleInput, resolve_morale
from .rules import CV_RANGE, F_RANGE, MOST_DICE, MOST_UNITS

MELEE_RULES = ("DX-13.1", "DX-7.3", "DX-11.3", "DX-6.0")
INITIATOR, OPPONENT, NOBODY = "initiator", "opponent", "nobody"
ENDED, WITHDRAW, CONCEDE, FIGHT = "ended", "initiator disengages", "opponent disengages", "round 2"
DEFAULT_POSITION_VALUE = Fraction(2)


@dataclass(frozen=True, order=True)
class Fighter(Inputs):
    """A unit in the melee: the dice and F it rolls, its CV, and its morale with and without its leader."""

    RULE = "DX-13.1"
    dice: int = bounded(0, MOST_DICE)
    f: int = bounded(*F_RANGE)
    cv: int = bounded(*CV_RANGE)
    morale: int
    unled: int


@dataclass(frozen=True)
class MeleeSide(Inputs):
    RULE = "DX-13.1"
    fighters: tuple[Fighter, ...]
    leader: bool = False
    leader_hits: int = bounded(0, MOST_DICE, default=0)

    def __post_init__(self) -> None:
        super().__post_init__()
        if len(self.fighters) > MOST_UNITS:
            raise RuleError(self.RULE, f"MeleeSide 'fighters' holds {len(self.fighters)} units: a side has at most "
                                       f"{MOST_UNITS} in one position (DX-3.1)")
        if sum(x.dice for x in self.fighters) > MOST_DICE:
            raise RuleError(self.RULE, f"MeleeSide 'fighters' roll more than {MOST_DICE} dice in one throw")

    def fire(self) -> FireInput:
        return FireInput(tuple((x.dice, x.f) for x in self.fighters))

    def under(self, enemy: MeleeSide) -> FireEffectInput:
        targets = tuple(TargetCard(x.cv, x.morale, x.unled) for x in self.fighters)
        return FireEffectInput(FireInput(canonical(enemy.fire().groups)), targets, self.leader, self.leader_hits)

    def after(self, alive: tuple[bool, ...], killed: bool) -> MeleeSide:
        """The survivors: the hits are checked, and without their leader they keep only their own morale."""
        kept = tuple(replace(x, morale=x.unled) if killed else x for x, ok in zip(self.fighters, alive) if ok)
        return MeleeSide(tuple(sorted(kept)), self.leader and not killed, 0)

    def canonical(self) -> MeleeSide:
        return replace(self, fighters=tuple(sorted(self.fighters)))


@dataclass(frozen=True)
class MeleeRoundInput(Inputs):
    RULE = "DX-13.1"
    initiator: MeleeSide
    opponent: MeleeSide


@dataclass(frozen=True, order=True)
class RoundOutcome:
    initiator: tuple[bool, ...]        # which of its fighters are still in the position
    opponent: tuple[bool, ...]
    initiator_leader_killed: bool
    opponent_leader_killed: bool


def _checks(side: MeleeSide, final, killed: bool, dice: Dice, who: str) -> tuple[tuple[bool, ...], list[Result]]:
    gone = destroyed(tuple((x.cv, 0) for x in side.fighters), final)
    alive, results = [], []
    for i, (x, h, lost) in enumerate(zip(side.fighters, final, gone)):
        if lost or not h:
            alive.append(not lost)
            continue
        check = resolve_morale(MoraleInput(x.unled if killed else x.morale, h), dice, f"{who} unit {i + 1}")
        results.append(check)
        alive.append(check.outcome != ROUTS)
    return tuple(alive), results


def resolve_melee_round(inputs: MeleeRoundInput, dice: Dice) -> Result:
    """One round: both sides fire, each owner places the hits on its units, leaders check, then units."""
    start = len(dice.rolls)
    a, b = inputs.initiator, inputs.opponent
    fire_a = resolve_fire(a.fire(), dice, "Initiator's melee fire", "DX-13.1")
    fire_b = resolve_fire(b.fire(), dice, "Opponent's melee fire", "DX-13.1")
    on_a = allocation(a.under(b), fire_b.outcome)
    on_b = allocation(b.under(a), fire_a.outcome)
    results = [fire_a, fire_b]
    killed = []
    for side, volley, who in ((a, fire_b.outcome, "Initiator's leader"), (b, fire_a.outcome, "Opponent's leader")):
        hits = side.leader_hits + volley.sixes
        dead = False
        if side.leader and hits:
            check = resolve_leader_check(LeaderCheckInput(hits), dice, who)
            results.append(check)
            dead = check.outcome == KILLED
        killed.append(dead)
    alive_a, checks_a = _checks(a, on_a, killed[0], dice, "Initiator's")
    alive_b, checks_b = _checks(b, on_b, killed[1], dice, "Opponent's")
    results += checks_a + checks_b
    outcome = RoundOutcome(alive_a, alive_b, killed[0], killed[1])
    return Result("melee_round", {"inputs": inputs}, tuple(dice.rolls[start:]), outcome, MELEE_RULES,
                  "; ".join(r.summary for r in results), {"on_initiator": on_a, "on_opponent": on_b})


@lru_cache(maxsize=None)
def side_fate(side: MeleeSide, enemy: MeleeSide) -> dict[tuple[tuple[bool, ...], bool], Fraction]:
    """(which fighters remain, leader killed) -> probability, under the enemy's melee fire."""
    inputs = side.under(enemy)
    fate: dict[tuple[tuple[bool, ...], bool], Fraction] = {}
    for final, killed, p in landing(inputs):
        chances = [survival(t, h, not killed) for t, h in zip(inputs.targets, final)]
        for alive in product((True, False), repeat=len(chances)):
            q = p
            for ok, c in zip(alive, chances):
                q *= c if ok else 1 - c
            if q:
                fate[(alive, killed)] = fate.get((alive, killed), 0) + q
    return fate


def melee_round_odds(inputs: MeleeRoundInput) -> Dist:
    a, b = inputs.initiator, inputs.opponent
    weights: dict[RoundOutcome, Fraction] = {}
    for (alive_a, dead_a), p in side_fate(a, b).items():
        for (alive_b, dead_b), q in side_fate(b, a).items():
            key = RoundOutcome(alive_a, alive_b, dead_a, dead_b)
            weights[key] = weights.get(key, 0) + p * q
    return dist(weights)


def _inputs_cover():
    inf2 = Fighter(2, 3, 2, 2, 2)       # a 2CV B infantry (digest vector 19)
    inf1 = Fighter(1, 3, 1, 0, 0)       # a 1CV C infantry
    art1 = Fighter(1, 1, 1, 2, 1)       # a 1CV artillery with a leader's +1
    yield MeleeRoundInput(MeleeSide((inf2,)), MeleeSide((inf1,)))
    yield MeleeRoundInput(MeleeSide((inf1,), leader=True), MeleeSide((art1,), leader=True))
    yield MeleeRoundInput(MeleeSide((inf1, art1), leader=True), MeleeSide((inf1,)))


def melee_round_inputs():
    return list(_inputs_cover())


# --- the whole melee with the best choices, and its DP ------------------------------------------------

@lru_cache(maxsize=None)
def _end_state(targets: tuple[TargetCard, ...], final: tuple[int, ...], killed: bool) -> tuple[Fraction, Fraction]:
    """(P(every card gone), expected cards lost, leader included) once these hits are checked."""
    stays = [survival(t, h, not killed) for t, h in zip(targets, final)]
    gone = Fraction(1)
    for c in stays:
        gone *= 1 - c
    return gone, len(stays) - sum(stays) + killed


@lru_cache(maxsize=None)
def summary(side: MeleeSide, enemy: MeleeSide) -> tuple[Fraction, Fraction]:
    """(P(the side is wiped out), its expected cards lost, leader included) under one round of enemy fire."""
    inputs = side.under(enemy)
    wiped, lost = Fraction(0), Fraction(0)
    for final, killed, p in landing(inputs):
        gone, more = _end_state(inputs.targets, final, killed)
        wiped += p * gone
        lost += p * more
    return wiped, lost


@dataclass(frozen=True)
class Node:
    """The melee after round 1: the survivors, the cards lost so far, and the best play from here."""

    initiator: MeleeSide
    opponent: MeleeSide
    initiator_lost: int
    opponent_lost: int
    probability: Fraction
    choice: str                  # ENDED, WITHDRAW, CONCEDE or FIGHT
    value: Fraction              # to the initiator, under best play
    fight_value: Fraction        # if both fight round 2 (the choices are made against it)
    holds: Fraction              # P(the initiator holds the position at the end)
    opponent_holds: Fraction
    expected_initiator_lost: Fraction
    expected_opponent_lost: Fraction


@dataclass(frozen=True)
class MeleePlan:
    value: Fraction
    holds: Fraction
    opponent_holds: Fraction
    expected_initiator_lost: Fraction
    expected_opponent_lost: Fraction
    after_round_1: dict[str, Fraction]   # initiator alone / opponent alone / both / neither
    nodes: tuple[Node, ...]

    def node(self, initiator: MeleeSide, opponent: MeleeSide) -> Node:
        return next(n for n in self.nodes if (n.initiator, n.opponent) == (initiator, opponent))


def _node(a: MeleeSide, b: MeleeSide, lost_a: int, lost_b: int, p: Fraction, value: Fraction) -> Node:
    so_far = lost_b - lost_a
    if not a.fighters or not b.fighters:
        hold_a, hold_b = int(bool(a.fighters) and not b.fighters), int(bool(b.fighters))
        v = value * (hold_a - hold_b) + so_far
        return Node(a, b, lost_a, lost_b, p, ENDED, v, v, Fraction(hold_a), Fraction(hold_b), Fraction(lost_a),
                    Fraction(lost_b))
    wiped_a, more_a = summary(a, b)
    wiped_b, more_b = summary(b, a)
    hold_a, hold_b = (1 - wiped_a) * wiped_b, 1 - wiped_b
    fight = value * (hold_a - hold_b) + so_far + more_b - more_a
    withdraw, concede = so_far - value, so_far + value
    reply = CONCEDE if concede < fight else FIGHT
    choice = WITHDRAW if withdraw > min(fight, concede) else reply
    outcome = {WITHDRAW: (withdraw, 0, 1, 0, 0), CONCEDE: (concede, 1, 0, 0, 0),
               FIGHT: (fight, hold_a, hold_b, more_a, more_b)}[choice]
    v, h_a, h_b, m_a, m_b = outcome
    return Node(a, b, lost_a, lost_b, p, choice, v, fight, Fraction(h_a), Fraction(h_b), lost_a + m_a, lost_b + m_b)


def decide(initiator: MeleeSide, opponent: MeleeSide, position_value: Fraction = DEFAULT_POSITION_VALUE) -> Node:
    """The best choices now, after round 1, for these survivors (the cards lost so far are not counted)."""
    return _node(initiator.canonical(), opponent.canonical(), 0, 0, Fraction(1), Fraction(position_value))


@lru_cache(maxsize=256)
def plan(inputs: MeleeRoundInput, position_value: Fraction = DEFAULT_POSITION_VALUE) -> MeleePlan:
    """The exact DP (digest section 8): round 1, then each side's best choice, then round 2."""
    a, b = inputs.initiator.canonical(), inputs.opponent.canonical()
    grouped: dict[tuple[MeleeSide, MeleeSide, int, int], Fraction] = {}
    fate_b = side_fate(b, a)
    for (alive_a, dead_a), p in side_fate(a, b).items():
        after_a = a.after(alive_a, dead_a)
        lost_a = len(alive_a) - sum(alive_a) + dead_a
        for (alive_b, dead_b), q in fate_b.items():
            key = (after_a, b.after(alive_b, dead_b), lost_a, len(alive_b) - sum(alive_b) + dead_b)
            grouped[key] = grouped.get(key, 0) + p * q
    nodes = tuple(_node(*key, p, Fraction(position_value)) for key, p in grouped.items())
    first = {name: Fraction(0) for name in ("initiator alone", "opponent alone", "both", "neither")}
    for n in nodes:
        name = ("both" if n.opponent.fighters else "initiator alone") if n.initiator.fighters else (
            "opponent alone" if n.opponent.fighters else "neither")
        first[name] += n.probability
    totals = [sum((n.probability * getattr(n, attr) for n in nodes), Fraction(0)) for attr in
              ("value", "holds", "opponent_holds", "expected_initiator_lost", "expected_opponent_lost")]
    return MeleePlan(*totals, first, nodes)


@dataclass(frozen=True)
class MeleeInput(Inputs):
    RULE = "DX-13.1"
    round: MeleeRoundInput
    position_value: Fraction = DEFAULT_POSITION_VALUE


@dataclass(frozen=True, order=True)
class MeleeEnd:
    holder: str            # INITIATOR, OPPONENT or NOBODY: who has units in the position at the end
    initiator_lost: int    # cards lost (units and leader)
    opponent_lost: int


def _end(a: MeleeSide, b: MeleeSide, lost_a: int, lost_b: int) -> MeleeEnd:
    """Round 2 over: an initiator without sole presence disengages (DX-13.1)."""
    holder = OPPONENT if b.fighters else INITIATOR if a.fighters else NOBODY
    return MeleeEnd(holder, lost_a, lost_b)


def resolve_melee(inputs: MeleeInput, dice: Dice) -> Result:
    """A whole melee, both sides making the plan's best choices after round 1."""
    start = len(dice.rolls)
    a, b = inputs.round.initiator.canonical(), inputs.round.opponent.canonical()
    first = resolve_melee_round(MeleeRoundInput(a, b), dice)
    o = first.outcome
    a1, b1 = a.after(o.initiator, o.initiator_leader_killed), b.after(o.opponent, o.opponent_leader_killed)
    lost_a = len(o.initiator) - sum(o.initiator) + o.initiator_leader_killed
    lost_b = len(o.opponent) - sum(o.opponent) + o.opponent_leader_killed
    node = plan(MeleeRoundInput(a, b), inputs.position_value).node(a1, b1)
    results = [first]
    if node.choice == FIGHT:
        second = resolve_melee_round(MeleeRoundInput(a1, b1), dice)
        results.append(second)
        s = second.outcome
        end = _end(a1.after(s.initiator, s.initiator_leader_killed), b1.after(s.opponent, s.opponent_leader_killed),
                   lost_a + len(s.initiator) - sum(s.initiator) + s.initiator_leader_killed,
                   lost_b + len(s.opponent) - sum(s.opponent) + s.opponent_leader_killed)
    else:
        holder = {WITHDRAW: OPPONENT, CONCEDE: INITIATOR}.get(node.choice) or _end(a1, b1, 0, 0).holder
        end = MeleeEnd(holder, lost_a, lost_b)
    summary_text = "; ".join(r.summary for r in results) + f"; after round 1: {node.choice}; holder: {end.holder}"
    return Result("melee", {"inputs": inputs}, tuple(dice.rolls[start:]), end, MELEE_RULES, summary_text,
                  {"choice": node.choice})


def melee_odds(inputs: MeleeInput) -> Dist:
    weights: dict[MeleeEnd, Fraction] = {}

    def add(end: MeleeEnd, p: Fraction) -> None:
        weights[end] = weights.get(end, 0) + p

    for n in plan(inputs.round, inputs.position_value).nodes:
        if n.choice != FIGHT:
            holder = {WITHDRAW: OPPONENT, CONCEDE: INITIATOR}.get(n.choice) or _end(n.initiator, n.opponent, 0, 0).holder
            add(MeleeEnd(holder, n.initiator_lost, n.opponent_lost), n.probability)
            continue
        for (alive_a, dead_a), p in side_fate(n.initiator, n.opponent).items():
            for (alive_b, dead_b), q in side_fate(n.opponent, n.initiator).items():
                add(_end(n.initiator.after(alive_a, dead_a), n.opponent.after(alive_b, dead_b),
                         n.initiator_lost + len(alive_a) - sum(alive_a) + dead_a,
                         n.opponent_lost + len(alive_b) - sum(alive_b) + dead_b), n.probability * p * q)
    return dist(weights)


def melee_inputs():
    """One die a side, small enough to enumerate two rounds: evenly matched sides that fight round 2, and
    lopsided ones where, holding the position worth nothing, the initiator or the opponent disengages."""
    weak, strong = Fighter(1, 1, 1, 4, 4), Fighter(1, 3, 1, 0, 0)
    yield MeleeInput(MeleeRoundInput(MeleeSide((weak,)), MeleeSide((weak,))), Fraction(2))
    yield MeleeInput(MeleeRoundInput(MeleeSide((weak,)), MeleeSide((strong,))), Fraction(0))
    yield MeleeInput(MeleeRoundInput(MeleeSide((strong,)), MeleeSide((weak,))), Fraction(0))
