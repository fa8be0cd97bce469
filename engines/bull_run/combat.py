"""BR-10.1 a single combat, end to end, and a defender attacked by several stacks in turn.

Both stacks fire at once (BR-10.1) with their fire SP (turn-start by default, A14); the defender
fires back only if it has not made its one defensive roll this turn; hits are applied after both
fires. BR-10.3 (R1): every hit is spent on the target stack, so a stack is eliminated exactly when
it takes at least its whole SP, whichever way the firer spreads them. The stack that received
strictly more hits makes the retreat check (BR-11.1).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product
from typing import Literal

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist, fractions, mean, p_where

from .fire import FireInput, fire_odds, resolve_fire
from .hesitation import HesitationInput, resolve_hesitation
from .retreat import resolve_retreat_check, retreat_check_odds, who_checks
from .rules import CRT_RULE, HESITATION

COMBAT_RULES = ("BR-10.1", "BR-10.3", "BR-10.4", "BR-11.1")


def spread_hits(sps: tuple[int, ...], spread: tuple[int, ...]) -> tuple[int, ...]:
    """BR-10.3: each unit's SP after the hits the firer put on it (never below 0)."""
    return tuple(max(0, sp - h) for sp, h in zip(sps, spread))


def eliminated(units: tuple[int, ...], hits: int) -> bool:
    """BR-10.3 (R1): every hit is spent inside the stack, so it is gone exactly when hits >= its SP."""
    return hits >= sum(units)


@dataclass(frozen=True)
class StackInput(Inputs):
    RULE = CRT_RULE

    fire_sp: int = bounded(0)                 # the SP it fires with (BR-10.4, A14)
    units: tuple[int, ...] = bounded(0)       # each unit's current SP
    unit_fire: tuple[int, ...] = bounded(0, default=())  # each unit's fire SP, when a part of it may attack (A12)

    def part(self, which: tuple[bool, ...]) -> StackInput:
        """The units that pass McDowell's hesitation one by one (A12), as a stack of their own."""
        fire = self.unit_fire or self.units
        return StackInput(sum(f for f, ok in zip(fire, which) if ok), tuple(u for u, ok in zip(self.units, which) if ok),
                          tuple(f for f, ok in zip(fire, which) if ok))


@dataclass(frozen=True)
class CombatInput(Inputs):
    RULE = "BR-10.1"

    attackers: StackInput
    defenders: StackInput
    attacker_modifier: int = 0   # BR-10.5 on the attacker's roll
    defender_modifier: int = 0   # on the defender's roll (only with symmetric modifiers, A9)
    defender_fires: bool = True  # it has not yet made its one defensive roll this turn
    over_12: Literal["error", "use_11_12"] = "error"  # A16


@dataclass(frozen=True, order=True)
class CombatOutcome:
    hits_on_attackers: int
    hits_on_defenders: int
    attackers_eliminated: bool
    defenders_eliminated: bool
    retreat: str               # "attackers", "defenders" or "" (no retreat)


def resolve_combat(inputs: CombatInput, dice: Dice) -> Result:
    """One combat with its dice: attacker's fire, defender's fire back, the retreat check."""
    fires = [resolve_fire(FireInput(inputs.attackers.fire_sp, inputs.attacker_modifier, inputs.over_12),
                          dice, "Attacker fire")]
    if inputs.defender_fires:
        fires.append(resolve_fire(FireInput(inputs.defenders.fire_sp, inputs.defender_modifier,
                                            inputs.over_12), dice, "Defender fire"))
    on_defenders = fires[0].outcome
    on_attackers = fires[1].outcome if inputs.defender_fires else 0
    attackers_gone = eliminated(inputs.attackers.units, on_attackers)
    defenders_gone = eliminated(inputs.defenders.units, on_defenders)
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
            gone_a = eliminated(inputs.attackers.units, on_attackers)
            gone_d = eliminated(inputs.defenders.units, on_defenders)
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


STACKS = tuple(StackInput(fire, units) for fire, units in
               ((1, (1,)), (2, (1,)), (4, (3,)), (6, (4, 2)), (8, (2, 1)), (10, (3, 3)), (12, (1, 2))))


def combat_inputs():
    """A cover of the legal range: every pair of CRT columns, every modifier on the attacker's and the
    defender's roll, one- and two-unit stacks near and far from elimination."""
    for attackers in STACKS:
        for defenders in STACKS:
            for att_mod in (0, -1, -2, -3):
                for def_mod, fires in ((0, True), (-3, True), (0, False)):
                    yield CombatInput(attackers, defenders, att_mod, def_mod, fires)


# --- several attackers on one defender (BR-10.1, BR-10.2, BR-11.1 "Reminder") ---------------------

@dataclass(frozen=True)
class SequenceInput(Inputs):
    """A defender attacked by several stacks in the given order, in one attack step.

    `hesitating[i]`: attacker i is a Union stack south of Bull Run that has still to pass McDowell's
    hesitation (BR-10.2): one roll for the stack, or one per unit with `per_unit` (A12)."""

    RULE = "BR-10.1"

    defenders: StackInput
    attackers: tuple[StackInput, ...]
    modifiers: tuple[int, ...]      # each attacker's modifier (BR-10.5)
    defender_modifier: int = 0      # on the defender's one fire back, at the first attack made
    defender_fires: bool = True     # it has not made its one defensive roll this turn (A11)
    over_12: Literal["error", "use_11_12"] = "error"
    hesitating: tuple[bool, ...] = ()
    per_unit: bool = False


@dataclass(frozen=True, order=True)
class SequenceOutcome:
    defenders: str     # "eliminated", "retreated" or "held"
    sp_lost: int       # the defenders' SP lost in these combats


def _attacking(inputs: SequenceInput, i: int) -> list[tuple[Fraction, StackInput | None]]:
    """Attacker i as it attacks, with the chance of each: whole, in part (A12 per unit), or not at all."""
    stack = inputs.attackers[i]
    if not (inputs.hesitating[i:i + 1] or (False,))[0]:
        return [(Fraction(1), stack)]
    p = HESITATION.odds().probability(True)
    rolls = len(stack.units) if inputs.per_unit else 1
    cases = []
    for passed in product((True, False), repeat=rolls):
        q = Fraction(1)
        for ok in passed:
            q *= p if ok else 1 - p
        which = passed if inputs.per_unit else passed * len(stack.units)
        cases.append((q, stack.part(which) if any(which) else None))
    return cases


def _after(defenders_left: int, attacker: StackInput, on_defenders: int, on_attackers: int) -> tuple[int, str]:
    """After one combat: the defenders' SP left and who must check ("" for none)."""
    left = max(0, defenders_left - on_defenders)
    return left, who_checks(on_attackers, on_defenders, eliminated(attacker.units, on_attackers), left == 0)


def resolve_attack_sequence(inputs: SequenceInput, dice: Dice) -> Result:
    """The attacks one after the other; the defender fires back only at the first attack made (it rolls once
    per turn), so later attackers take no hits. It stops when the defender retreats or is eliminated."""
    left = sum(inputs.defenders.units)
    fired, lines, result = False, [], "held"
    for i, attacker in enumerate(inputs.attackers):
        if (inputs.hesitating[i:i + 1] or (False,))[0]:
            rolls = len(attacker.units) if inputs.per_unit else 1
            roll = resolve_hesitation(HesitationInput(rolls), dice, tuple(f"attacker {i + 1}" for _ in range(rolls)))
            lines.append(roll.summary)
            passed = roll.details["passed"] if inputs.per_unit else roll.details["passed"] * len(attacker.units)
            if not any(passed):
                continue
            attacker = attacker.part(passed)
        fire = resolve_fire(FireInput(attacker.fire_sp, inputs.modifiers[i], inputs.over_12), dice,
                            f"Attacker {i + 1} fire")
        lines.append(fire.summary)
        on_attackers = 0
        if not fired and inputs.defender_fires:
            back = resolve_fire(FireInput(inputs.defenders.fire_sp, inputs.defender_modifier, inputs.over_12),
                                dice, "Defender fire")
            lines.append(back.summary)
            on_attackers = back.outcome
        fired = True
        left, who = _after(left, attacker, fire.outcome, on_attackers)
        if left == 0:
            result = "eliminated"
            break
        if who:
            check = resolve_retreat_check(None, dice, who)
            lines.append(check.summary)
            if check.outcome and who == "defenders":
                result = "retreated"
                break
    outcome = SequenceOutcome(result, sum(inputs.defenders.units) - left)
    return Result("attack_sequence", {"inputs": inputs}, tuple(dice.rolls), outcome, COMBAT_RULES + ("BR-10.2",),
                  "; ".join(lines))


@lru_cache(maxsize=1024)
def attack_sequence_odds(inputs: SequenceInput) -> Dist:
    """Exact distribution of the sequence's outcome: a DP over (the defenders' SP left, has it fired back)."""
    start = sum(inputs.defenders.units)
    retreat_p = fractions(retreat_check_odds(None))[True]
    back = fractions(fire_odds(FireInput(inputs.defenders.fire_sp, inputs.defender_modifier, inputs.over_12))) \
        if inputs.defender_fires else {0: Fraction(1)}
    frontier = {(start, False): Fraction(1)}
    done: dict[SequenceOutcome, Fraction] = {}

    def finish(result: str, left: int, p: Fraction) -> None:
        key = SequenceOutcome(result, start - left)
        done[key] = done.get(key, Fraction(0)) + p

    for i in range(len(inputs.attackers)):
        following: dict[tuple[int, bool], Fraction] = {}
        for (left, fired), p in frontier.items():
            for q_attack, attacker in _attacking(inputs, i):
                if attacker is None:
                    following[(left, fired)] = following.get((left, fired), Fraction(0)) + p * q_attack
                    continue
                attack = fractions(fire_odds(FireInput(attacker.fire_sp, inputs.modifiers[i], inputs.over_12)))
                replies = {0: Fraction(1)} if fired else back
                for on_defenders, pa in attack.items():
                    for on_attackers, pb in replies.items():
                        after, who = _after(left, attacker, on_defenders, on_attackers)
                        q = p * q_attack * pa * pb
                        if after == 0:
                            finish("eliminated", after, q)
                            continue
                        if who == "defenders":
                            finish("retreated", after, q * retreat_p)
                            q *= 1 - retreat_p
                        following[(after, True)] = following.get((after, True), Fraction(0)) + q
        frontier = following
    for (left, _), p in frontier.items():
        finish("held", left, p)
    return dist(done)


def best_attack_order(inputs: SequenceInput) -> tuple[tuple[int, ...], Fraction]:
    """The order of the attackers (indices) that makes the defender retreat or die most often."""
    best = None
    for order in permutations(range(len(inputs.attackers))):
        hesitating = inputs.hesitating or (False,) * len(inputs.attackers)
        trial = SequenceInput(inputs.defenders, tuple(inputs.attackers[i] for i in order),
                              tuple(inputs.modifiers[i] for i in order), inputs.defender_modifier,
                              inputs.defender_fires, inputs.over_12, tuple(hesitating[i] for i in order),
                              inputs.per_unit)
        p = p_where(attack_sequence_odds(trial), lambda o: o.defenders != "held")
        if best is None or p > best[1]:
            best = (order, p)
    return best


def sequence_inputs():
    """Defenders of one and two units against two and three attackers, with and without fire back, with
    and without McDowell's hesitation (by stack and by unit)."""
    for defenders in (StackInput(3, (3,)), StackInput(5, (3, 2)), StackInput(2, (1, 1))):
        for attackers, mods in ((((4, (4,)), (7, (4, 3))), (0, -1)),
                                (((12, (6, 6)), (2, (2,)), (9, (5, 4))), (-2, 0, -1))):
            for fires in (True, False):
                for hesitating, per_unit in (((), False), ((True, False, True), False), ((False, True, True), True)):
                    yield SequenceInput(defenders, tuple(StackInput(f, u) for f, u in attackers), mods,
                                        0, fires, "error", hesitating[:len(attackers)], per_unit)

