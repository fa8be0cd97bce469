"""BR-10.1 a single combat, end to end, and a defender attacked by several stacks in turn.

Both stacks fire at once (BR-10.1) with their fire SP (turn-start by default, A14); the defender
fires back only if it has not made its one defensive roll this turn; hits are applied after both
fires (BR-10.3); the stack that received strictly more hits makes the retreat check (BR-11.1).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import permutations

from companion.dice import Dice
from companion.engine import Result
from companion.odds import Dist, dist, fractions, mean, p_where

from .fire import FireInput, fire_odds, resolve_fire
from .retreat import resolve_retreat_check, retreat_check_odds, who_checks
from .solitaire import hit_choice

COMBAT_RULES = ("BR-10.1", "BR-10.3", "BR-10.4", "BR-11.1")


def take_hits(sps: tuple[int, ...], hits: int, first: int, allocation: str = "R3") -> tuple[int, ...]:
    """BR-10.3: the SP of each unit after `hits` land on unit `first`. R3 (default, A13): all on that
    unit, the excess is lost. R1: the excess spills over to the other unit of the stack."""
    sps = list(sps)
    order = [first] + [i for i in range(len(sps)) if i != first] if allocation == "R1" else [first]
    for i in order:
        taken = min(hits, sps[i])
        sps[i] -= taken
        hits -= taken
    return tuple(sps)


def hits_by_br94(sps: tuple[int, ...], hits: int, allocation: str) -> tuple[int, ...]:
    """The stack after `hits`, placed as the companion places CSA hits (BR-9.4)."""
    if hits == 0:
        return sps
    names = [(str(i), sp) for i, sp in enumerate(sps)]
    return take_hits(sps, hits, int(hit_choice(names, hits)), allocation)


@dataclass(frozen=True)
class StackInput:
    fire_sp: int              # the SP it fires with (BR-10.4, A14)
    units: tuple[int, ...]    # each unit's current SP


@dataclass(frozen=True)
class CombatInput:
    attackers: StackInput
    defenders: StackInput
    attacker_modifier: int = 0   # BR-10.5 on the attacker's roll
    defender_modifier: int = 0   # on the defender's roll (only with symmetric modifiers, A9)
    defender_fires: bool = True  # it has not yet made its one defensive roll this turn
    allocation: str = "R3"       # A13
    over_12: str = "error"       # A16


@dataclass(frozen=True, order=True)
class CombatOutcome:
    hits_on_attackers: int
    hits_on_defenders: int
    attackers_eliminated: bool
    defenders_eliminated: bool
    retreat: str               # "attackers", "defenders" or "" (no retreat)


def _eliminated(stack: StackInput, hits: int, allocation: str) -> bool:
    """Is the whole stack gone after `hits`? (Under R3 a two-unit stack never is: one unit takes them.)"""
    return not any(hits_by_br94(stack.units, hits, allocation))


def resolve_combat(inputs: CombatInput, dice: Dice) -> Result:
    """One combat with its dice: attacker's fire, defender's fire back, the retreat check."""
    fires = [resolve_fire(FireInput(inputs.attackers.fire_sp, inputs.attacker_modifier, inputs.over_12),
                          dice, "Attacker fire")]
    if inputs.defender_fires:
        fires.append(resolve_fire(FireInput(inputs.defenders.fire_sp, inputs.defender_modifier,
                                            inputs.over_12), dice, "Defender fire"))
    on_defenders = fires[0].outcome
    on_attackers = fires[1].outcome if inputs.defender_fires else 0
    attackers_gone = _eliminated(inputs.attackers, on_attackers, inputs.allocation)
    defenders_gone = _eliminated(inputs.defenders, on_defenders, inputs.allocation)
    who = who_checks(on_attackers, on_defenders, attackers_gone, defenders_gone)
    lines = [f.summary for f in fires]
    retreat = ""
    if who:
        check = resolve_retreat_check(None, dice, who)
        retreat = who if check.outcome else ""
        lines.append(check.summary)
    outcome = CombatOutcome(on_attackers, on_defenders, attackers_gone, defenders_gone, retreat)
    return Result("combat", {"inputs": inputs}, tuple(dice.rolls), outcome, COMBAT_RULES, "; ".join(lines))


@lru_cache(maxsize=4096)
def combat_odds(inputs: CombatInput) -> Dist:
    """The exact distribution of a single combat's outcome (36 fire pairs x the retreat check)."""
    attack = fractions(fire_odds(FireInput(inputs.attackers.fire_sp, inputs.attacker_modifier, inputs.over_12)))
    back = (fractions(fire_odds(FireInput(inputs.defenders.fire_sp, inputs.defender_modifier, inputs.over_12)))
            if inputs.defender_fires else {0: Fraction(1)})
    retreats = fractions(retreat_check_odds(None))
    weights: dict[CombatOutcome, Fraction] = {}
    for on_defenders, p_attack in attack.items():
        for on_attackers, p_back in back.items():
            gone_a = _eliminated(inputs.attackers, on_attackers, inputs.allocation)
            gone_d = _eliminated(inputs.defenders, on_defenders, inputs.allocation)
            who = who_checks(on_attackers, on_defenders, gone_a, gone_d)
            branches = {who: retreats[True], "": retreats[False]} if who else {"": Fraction(1)}
            for retreat, p_retreat in branches.items():
                outcome = CombatOutcome(on_attackers, on_defenders, gone_a, gone_d, retreat)
                weights[outcome] = weights.get(outcome, Fraction(0)) + p_attack * p_back * p_retreat
    return dist(weights)


@dataclass(frozen=True)
class CombatSummary:
    """The key numbers of a combat for a player about to commit (exact)."""

    defenders_retreat: Fraction
    attackers_retreat: Fraction
    defenders_eliminated: Fraction
    attackers_eliminated: Fraction
    no_check: Fraction
    hits_on_defenders: Dist
    hits_on_attackers: Dist
    expected_on_defenders: Fraction
    expected_on_attackers: Fraction


def summarize(d: Dist) -> CombatSummary:
    hits_d = d.map(lambda o: o.hits_on_defenders)
    hits_a = d.map(lambda o: o.hits_on_attackers)
    return CombatSummary(
        defenders_retreat=p_where(d, lambda o: o.retreat == "defenders"),
        attackers_retreat=p_where(d, lambda o: o.retreat == "attackers"),
        defenders_eliminated=p_where(d, lambda o: o.defenders_eliminated),
        attackers_eliminated=p_where(d, lambda o: o.attackers_eliminated),
        no_check=p_where(d, lambda o: who_checks(o.hits_on_attackers, o.hits_on_defenders,
                                                  o.attackers_eliminated, o.defenders_eliminated) == ""),
        hits_on_defenders=hits_d, hits_on_attackers=hits_a,
        expected_on_defenders=mean(hits_d), expected_on_attackers=mean(hits_a))


def combat_inputs():
    """A cover of the legal range: every pair of CRT columns, every modifier on the attacker's and the
    defender's roll, one- and two-unit stacks near and far from elimination, both allocation rules."""
    stacks = [StackInput(fire, units) for fire, units in
              ((1, (1,)), (2, (1,)), (4, (3,)), (6, (4, 2)), (8, (2, 1)), (10, (3, 3)), (12, (1, 2)))]
    for attackers in stacks:
        for defenders in stacks:
            for att_mod in (0, -1, -2, -3):
                for def_mod, fires in ((0, True), (-3, True), (0, False)):
                    for allocation in ("R3", "R1"):
                        yield CombatInput(attackers, defenders, att_mod, def_mod, fires, allocation)


# --- several attackers on one defender (BR-10.1, BR-11.1 "Reminder") -----------------------------

@dataclass(frozen=True)
class SequenceInput:
    """A defender attacked by several stacks in the given order, in one turn."""

    defenders: StackInput
    attackers: tuple[StackInput, ...]
    modifiers: tuple[int, ...]      # each attacker's modifier (BR-10.5)
    defender_modifier: int = 0      # on the defender's one fire back, at the first attacker
    defender_fires: bool = True
    allocation: str = "R3"
    over_12: str = "error"


@dataclass(frozen=True, order=True)
class SequenceOutcome:
    defenders: str     # "eliminated", "retreated" or "held"
    sp_lost: int       # the defenders' SP lost in these combats


def _sequence_step(inputs: SequenceInput, i: int, units: tuple[int, ...], on_defenders: int,
                   on_attackers: int) -> tuple[tuple[int, ...], str]:
    """After attacker i's combat: the defenders' units and who must check ("" for none)."""
    after = hits_by_br94(units, on_defenders, inputs.allocation)
    attackers_gone = _eliminated(inputs.attackers[i], on_attackers, inputs.allocation)
    return after, who_checks(on_attackers, on_defenders, attackers_gone, not any(after))


def resolve_attack_sequence(inputs: SequenceInput, dice: Dice) -> Result:
    """The attacks one after the other; the defender fires back only at the first (it rolls once per
    turn), so later attackers take no hits. It stops when the defender retreats or is eliminated.
    Hits on the defender are placed by BR-9.4 (a unit they eliminate, else the weakest)."""
    units = inputs.defenders.units
    lines = []
    result = "held"
    for i, attacker in enumerate(inputs.attackers):
        fire = resolve_fire(FireInput(attacker.fire_sp, inputs.modifiers[i], inputs.over_12), dice,
                            f"Attacker {i + 1} fire")
        lines.append(fire.summary)
        on_attackers = 0
        if i == 0 and inputs.defender_fires:
            back = resolve_fire(FireInput(inputs.defenders.fire_sp, inputs.defender_modifier, inputs.over_12),
                                dice, "Defender fire")
            lines.append(back.summary)
            on_attackers = back.outcome
        units, who = _sequence_step(inputs, i, units, fire.outcome, on_attackers)
        if not any(units):
            result = "eliminated"
            break
        if who:
            check = resolve_retreat_check(None, dice, who)
            lines.append(check.summary)
            if check.outcome and who == "defenders":
                result = "retreated"
                break
    outcome = SequenceOutcome(result, sum(inputs.defenders.units) - sum(units))
    return Result("attack_sequence", {"inputs": inputs}, tuple(dice.rolls), outcome, COMBAT_RULES,
                  "; ".join(lines))


@lru_cache(maxsize=1024)
def attack_sequence_odds(inputs: SequenceInput) -> Dist:
    """Exact distribution of the sequence's outcome: a DP over the defenders' unit SPs."""
    start = sum(inputs.defenders.units)
    retreat_p = fractions(retreat_check_odds(None))[True]
    frontier = {inputs.defenders.units: Fraction(1)}
    done: dict[SequenceOutcome, Fraction] = {}

    def finish(result: str, units: tuple[int, ...], p: Fraction) -> None:
        key = SequenceOutcome(result, start - sum(units))
        done[key] = done.get(key, Fraction(0)) + p

    for i, attacker in enumerate(inputs.attackers):
        attack = fractions(fire_odds(FireInput(attacker.fire_sp, inputs.modifiers[i], inputs.over_12)))
        back = (fractions(fire_odds(FireInput(inputs.defenders.fire_sp, inputs.defender_modifier, inputs.over_12)))
                if i == 0 and inputs.defender_fires else {0: Fraction(1)})
        following: dict[tuple[int, ...], Fraction] = {}
        for units, p in frontier.items():
            for on_defenders, pa in attack.items():
                for on_attackers, pb in back.items():
                    after, who = _sequence_step(inputs, i, units, on_defenders, on_attackers)
                    q = p * pa * pb
                    if not any(after):
                        finish("eliminated", after, q)
                        continue
                    if who == "defenders":
                        finish("retreated", after, q * retreat_p)
                        q *= 1 - retreat_p
                    following[after] = following.get(after, Fraction(0)) + q
        frontier = following
    for units, p in frontier.items():
        finish("held", units, p)
    return dist(done)


def best_attack_order(inputs: SequenceInput) -> tuple[tuple[int, ...], Fraction]:
    """The order of the attackers (indices) that makes the defender retreat or die most often."""
    best = None
    for order in permutations(range(len(inputs.attackers))):
        trial = SequenceInput(inputs.defenders, tuple(inputs.attackers[i] for i in order),
                              tuple(inputs.modifiers[i] for i in order), inputs.defender_modifier,
                              inputs.defender_fires, inputs.allocation, inputs.over_12)
        p = p_where(attack_sequence_odds(trial), lambda o: o.defenders != "held")
        if best is None or p > best[1]:
            best = (order, p)
    return best


def sequence_inputs():
    """Defenders of one and two units against two and three attackers, with and without fire back."""
    for defenders in (StackInput(3, (3,)), StackInput(5, (3, 2)), StackInput(2, (1, 1))):
        for attackers, mods in ((((4, (4,)), (7, (4, 3))), (0, -1)),
                                (((12, (6, 6)), (2, (2,)), (9, (5, 4))), (-2, 0, -1))):
            for fires in (True, False):
                for allocation in ("R3", "R1"):
                    yield SequenceInput(defenders, tuple(StackInput(f, u) for f, u in attackers), mods,
                                        0, fires, allocation)
