"""Advice before a player commits (issue: Advice; digest section 8), exact, from the state:

- a planned fire: P(at least k hits); the chance of routing or destroying at least one enemy card by the
  enemy's next morale step (its leader, terrain and command included); P(the enemy leader dies);
  for artillery support P(at least one friendly hit); for counter-battery the named card's fate;
- a melee: the outcome after round 1 and after round 2 with the best continue/disengage choice of each side
  at each point (`melee.plan`), or the best choice now in a melee under way;
- a flank attack: the distribution of the number of cards that make it;
- disorder: the cards it will send to the reserve;
- hits to be checked (a morale step, or the checks at once after a melee round or artillery support): each
  card's chance to be lost and the units lost, a leader's death taking its command away.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from companion.engine import RuleError
from companion.odds import Dist, at_least_table, dist, group, p_where

from .board import other
from .command import commander
from .counter_battery import CounterBatteryInput, counter_battery_odds
from .disorder import chain
from .fire import FireInput, fire_odds
from .fire_effect import FireEffectInput, TargetCard, fire_effect_odds
from .firepower import check_counter_battery, check_firer, fire_mode, firepower
from .flank import FlankInput, flank_odds
from .leaders import death_by_fire, death_chance
from .melee import (
    DEFAULT_POSITION_VALUE,
    Fighter,
    MeleePlan,
    MeleeRoundInput,
    MeleeSide,
    Node,
    decide,
    plan,
)
from .modifiers import LONG, MELEE, SUPPORT, checks, fire_dice, flank_terms, melee_share, morale
from .morale import pass_chance
from .rules import LDR
from .stacking import room
from .state import Card, GameState
from .support import SupportInput, support_odds


@dataclass(frozen=True)
class FireAdvice:
    kind: str                                  # short, long, enfilade or support (DX-7.2)
    hits: Dist                                 # hits for the owner to place
    at_least: list[tuple[int, Fraction, Fraction]]   # (k, P(exactly k), P(at least k))
    effect: Dist                               # fire_effect.Effect by the enemy's next morale step
    card_lost: Fraction                        # P(at least one enemy unit routed or destroyed)
    leader_dies: Fraction                      # P(the enemy leader there dies)
    friendly_hit: Fraction                     # artillery support: P(at least one hit on your own units)
    support: Dist | None                       # artillery support: enemy / friendly / leader hits
    batteries: dict[str, Dist]                 # counter-battery: firer id -> the named card's fate


def targets_of(state: GameState, side: str, pos: str, decoys: bool, melee: bool = False) -> tuple[TargetCard, ...]:
    """The side's cards in the position that can take hits, as the allocation sees them (DX-7.3, DX-13.6)."""
    return tuple(TargetCard(0) if c.decoy else
                 TargetCard(c.spec.cv, morale(state, c, melee), morale(state, c, melee, led=False), c.hits)
                 for c in state.at(pos, side) if c.is_unit or (decoys and c.decoy))


def fire_advice(state: GameState, firers: list[str], target: str,
                counter_battery: dict[str, str] | None = None) -> FireAdvice:
    """The planned fire of these cards (one position) at the target position, checked as the fire action is."""
    cards = [state.card(i) for i in firers]
    if not cards or len({c.loc for c in cards}) != 1 or len({c.side for c in cards}) != 1:
        raise RuleError("DX-7.0", "A fire is made by cards of one side standing in one position")
    side = cards[0].side
    kind = fire_mode(state, side, cards[0].loc, target)
    named = dict(counter_battery or {})
    for c in cards:
        check_firer(state, c, kind)
        if c.id in named:
            check_counter_battery(state, c, state.card(named[c.id]), kind, target)
    enemy = other(side)
    groups = {c.id: (fire_dice(state, c, kind, target, enemy), firepower(state, c, kind)) for c in cards}
    pooled = FireInput(tuple(g for i, g in groups.items() if i not in named))
    leader = state.leader(target, enemy)
    effect = fire_effect_odds(FireEffectInput(
        pooled, targets_of(state, enemy, target, kind == LONG and state.options["decoys_absorb_hits"]),
        leader is not None, leader.hits if leader else 0))
    sixes_from_named = sum(groups[i][0] for i in named)
    leader_dies = p_where(effect, lambda e: e.leader_killed)
    if leader and sixes_from_named:
        survive = (1 - leader_dies) * (1 - death_by_fire(sixes_from_named))
        leader_dies = 1 - survive
    hits = group(fire_odds(pooled), lambda v: v.hits)
    support = support_odds(SupportInput(pooled.groups)) if kind == SUPPORT else None
    batteries = {i: counter_battery_odds(CounterBatteryInput(*groups[i], state.card(a).spec.cv, state.card(a).hits))
                 for i, a in named.items()}
    return FireAdvice(kind, hits, at_least_table(hits), effect, p_where(effect, lambda e: e.units_lost > 0),
                      leader_dies, p_where(support, lambda o: o.friendly > 0) if support is not None else Fraction(0),
                      support,
                      batteries)


def _fighters(state: GameState, cards: list[Card], pos: str, enemy: str) -> tuple[Fighter, ...]:
    return tuple(Fighter(fire_dice(state, c, MELEE, pos, enemy), firepower(state, c, MELEE), c.spec.cv,
                         morale(state, c, melee=True), morale(state, c, melee=True, led=False)) for c in cards)


def melee_sides(state: GameState, pos: str, initiator: str, units: list[Card]) -> MeleeRoundInput:
    """Both sides of a melee in the position as the DP reads them (DX-13.1)."""
    sides = []
    for side, cards in ((initiator, units), (other(initiator), state.units(pos, other(initiator)))):
        leader = state.leader(pos, side)
        sides.append(MeleeSide(_fighters(state, cards, pos, other(side)), leader is not None,
                               leader.hits if leader else 0))
    return MeleeRoundInput(*sides)


def melee_advice(state: GameState, position: str, units: list[str] | None = None,
                 position_value: Fraction = DEFAULT_POSITION_VALUE) -> MeleePlan:
    """A melee the active side could declare in the position: round 1, the best choices, round 2."""
    if not state.engaged(position):
        raise RuleError("DX-13.1", f"{position} is not engaged")
    mine = [state.card(i) for i in units] if units else state.units(position, state.active)
    return plan(melee_sides(state, position, state.active, mine), Fraction(position_value))


def melee_choice_advice(state: GameState, position_value: Fraction = DEFAULT_POSITION_VALUE) -> Node:
    """The melee waiting for a choice after round 1: both sides' best choices from here."""
    waiting = [m for m in state.melees if m.stage in ("choice", "reply")]
    if not waiting:
        raise RuleError("DX-13.1", "No melee waits for a choice")
    m = waiting[0]
    mine = [state.card(i) for i in m.units if state.card(i).loc == m.position]
    sides = melee_sides(state, m.position, m.initiator, mine)
    return decide(sides.initiator, sides.opponent, Fraction(position_value))


def last_round_advice(state: GameState, position: str, units: list[str]) -> dict[str, Fraction]:
    """DX-13.1: round 2 of the melee in the position, from these initiator survivors: who holds the position
    after it (an initiator without sole presence disengages)."""
    after = melee_advice(state, position, units).after_round_1
    return {"initiator holds": after["initiator alone"], "opponent holds": after["opponent alone"] + after["both"],
            "nobody": after["neither"]}


def flank_advice(state: GameState, cards: list[str], position: str, leader: str | None = None) -> Dist:
    """DX-13.3: how many of the declared reserve cards make the flank attack."""
    group_ = [state.card(i) for i in cards]
    chief = state.card(leader) if leader else None
    if len(group_) > room(state, state.active, position):
        raise RuleError("DX-13.3", f"Only {max(0, room(state, state.active, position))} more unit(s) fit in {position}")
    return flank_odds(FlankInput(tuple(flank_terms(state, c, chief).total for c in group_)))


def disorder_advice(state: GameState, side: str, position: str) -> Dist:
    """DX-8.3a: the cards a disorder in the position sends to the reserve, over all its rounds."""
    units = state.units(position, side)
    excess = -room(state, side, position)
    return chain(tuple(morale(state, u) for u in units), excess, state.options["disorder_one_at_a_time"])


def leader_risk(dice: int) -> Fraction:
    """DX-11.3: P(a leader is killed by the hits of n enemy dice fired into its position) = 1 - (35/36)^n."""
    return death_by_fire(dice)


@dataclass(frozen=True)
class ChecksAdvice:
    lost: dict[str, Fraction]    # card id -> P(lost): a leader killed (DX-11.3), a unit routed (DX-6.0)
    units_lost: Dist             # the number of units routed


def checks_advice(state: GameState, cards: list[Card], melee: bool = False) -> ChecksAdvice:
    """Hits about to be checked: leaders first, one die per hit, a 6 kills (DX-11.3); then each unit one die per
    hit against its morale (DX-6.0), without the command of its leader if that leader was just killed. In a
    melee's checks at once terrain is ignored and option A21 says which hits are checked (DX-13.1). Exact: every
    combination of the leaders' fates, the units independent given it."""
    leader_hits = {c.id: sum(melee_share(state, c)) if melee else c.hits for c in cards if c.spec.type == LDR}
    leaders = [c for c in cards if leader_hits.get(c.id)]
    units = [c for c in cards if c.spec.type != LDR and c.hits]
    chief = {u.id: commander(state, u) for u in units}
    lost = {c.id: death_chance(leader_hits[c.id]) for c in leaders} | {u.id: Fraction(0) for u in units}
    weights: dict[int, Fraction] = {}
    for fates in product((False, True), repeat=len(leaders)):
        p = Fraction(1)
        for leader, dead in zip(leaders, fates):
            p *= lost[leader.id] if dead else 1 - lost[leader.id]
        dead_ids = {leader.id for leader, dead in zip(leaders, fates) if dead}
        counts = {0: p}
        for u in units:
            led = not (chief[u.id] and chief[u.id].id in dead_ids)
            holds = Fraction(1)
            for terms, h in checks(state, u, melee, led):
                holds *= pass_chance(terms.total) ** h
            routs = 1 - holds
            lost[u.id] += p * routs
            counts = _add_one(counts, routs)
        for k, q in counts.items():
            weights[k] = weights.get(k, 0) + q
    return ChecksAdvice(lost, dist({k: q for k, q in weights.items() if q}))


def _add_one(counts: dict[int, Fraction], p: Fraction) -> dict[int, Fraction]:
    """A count distribution with one more independent event of chance p (Poisson-binomial)."""
    out: dict[int, Fraction] = {}
    for k, q in counts.items():
        out[k] = out.get(k, 0) + q * (1 - p)
        out[k + 1] = out.get(k + 1, 0) + q * p
    return out
