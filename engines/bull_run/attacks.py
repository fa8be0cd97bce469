"""BR-10 combat: a side's attack step, declared in full and then resolved defender by defender.

BR-10.1: the attacking side first declares all its attacks (which stacks attack which); only then are
they resolved, one defender at a time, every attack on one defender before the next; no declaration
changes after a result (A25). Each combat: both fires (BR-10.4), hits spread by the firer over the
target stack (BR-10.3; BR-9.4 for the solitaire CSA), the retreat check (BR-11.1), the advance (BR-11.2).
A declared attack whose target has gone lapses (A25).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from companion.dice import Dice
from companion.engine import Result, RuleError, Step
from companion.spec import NOT_ASKED, Barred, Choice, Pick, Spread, counts, one_of, some_of, yes_no
from companion.terms import Terms

from . import solitaire
from .actions import actions, in_phase
from .combat import CombatInput, SequenceInput, StackInput
from .fire import FireInput, column, modifier_terms, resolve_fire
from .hesitation import HesitationInput, resolve_hesitation
from .initiative import SIDE_NAME
from .movement import crossed_bank
from .retreat import resolve_retreat_check, who_checks
from .rules import CSA, SOUTH, STACK_LIMIT, TARGET_TERRAINS, UNION
from .state import (
    COMBAT,
    DECLARED,
    ELIMINATED,
    END,
    LAPSED,
    MADE,
    ON_MAP,
    Attack,
    Combat,
    Conditions,
    GameState,
    Unit,
    other,
)

STAGE_RULES = {"allocate": "BR-10.3", "retreat_check": "BR-11.1", "retreat": "BR-11.1", "advance": "BR-11.2"}


def names(units: Iterable) -> str:
    return " + ".join(u if isinstance(u, str) else u.name for u in units)


def _standing(state: GameState, stack) -> tuple[str, bool]:
    """The surviving units of a stack as text, and whether they are more than one."""
    alive = [n for n in stack if state.unit(n).sp > 0]
    return " + ".join(alive), len(alive) > 1


def fire_sp_terms(state: GameState, units) -> Terms:
    """BR-10.4 (A14): a stack fires with the turn-start SP of its surviving units (or, by option,
    its SP at the start of the combat), unit by unit."""
    if state.options["fire_sp"] == "turn_start":
        return Terms(tuple((u.name, u.turn_start_sp) for u in units if u.sp > 0))
    return Terms(tuple((u.name, u.sp) for u in units))


def fire_sp(state: GameState, units) -> int:
    """The SP a stack fires with: the sum of `fire_sp_terms`."""
    return fire_sp_terms(state, units).total


def stack_fire(state: GameState, units, conditions: Conditions, firer: str) -> FireInput:
    """BR-10.4 / BR-10.5: a stack's fire: its SP and the modifiers on its roll, each with its parts."""
    sp, mod = fire_sp_terms(state, units), modifier_terms(conditions, firer, state.options)
    return FireInput(sp.total, mod.total, state.options["over_12"], sp, mod)


def on_table(state: GameState, units) -> bool:
    """BR-10.4 (A16): can the stack fire, its SP total on the combat table?"""
    try:
        column(fire_sp(state, units), state.options["over_12"])
    except RuleError:
        return False
    return True


def why_not_attack(state: GameState, unit: Unit) -> tuple[str, str] | None:
    """(rule, reason) when this unit may not attack now, else None (BR-10.1, BR-10.2, A10)."""
    if unit.attacked:
        return "BR-10.1", f"{unit.name} has already attacked this turn: a stack attacks once a turn"
    if unit.hesitation == "failed":
        return "BR-10.2", f"{unit.name} failed McDowell's hesitation this turn and makes no attack"
    if unit.fought and not state.options["defended_may_attack"]:
        return "BR-10.2", f"{unit.name} has been in combat this turn (this game's option: a stack that only defended may not attack)"
    return None


def _claimed(state: GameState) -> set[str]:
    """Units already attacking in this step: declared or made; a lapsed attack frees its units only
    when they may take a new target (A25 option)."""
    keep = (DECLARED, MADE) if state.options["lapsed_attack"] == "new_target" else (DECLARED, MADE, LAPSED)
    return {n for a in state.attacks if a.status in keep for n in a.attackers}


def resolving(state: GameState) -> bool:
    """Has a result of this step been seen? Then no new declaration (BR-10.1), but for A25's new targets."""
    return any(a.status != DECLARED for a in state.attacks)


def attackers_left(state: GameState) -> list[str]:
    """The units of the attacking side that may be declared as attackers now."""
    if state.phase != COMBAT or state.combat is not None or not state.side_units(other(state.active), ON_MAP):
        return []
    lapsed = {n for a in state.attacks if a.status == LAPSED for n in a.attackers}
    claimed = _claimed(state)
    return [u.name for u in state.side_units(state.active, ON_MAP)
            if why_not_attack(state, u) is None and u.name not in claimed
            and (not resolving(state) or u.name in lapsed)]


def declaring(state: GameState) -> None:
    """The `when` of a declaration: the combat phase, no combat under way, a stack free to attack."""
    in_phase(COMBAT, "BR-10.1")(state)
    if state.combat is not None:
        raise RuleError("BR-10.1", "Finish the combat under way first")
    if not attackers_left(state):
        raise RuleError("BR-10.1", "All attacks of this step are declared: no declaration after a result"
                        if resolving(state) else f"No {SIDE_NAME[state.active]} stack may attack now")


def _stack_pick(state: GameState, pool: list[str], fits) -> Pick:
    return Pick([Choice(n, f"{n} ({state.unit(n).sp} SP)") for n in pool], 1, STACK_LIMIT, fits=fits)


def _attacker_choices(state: GameState, chosen) -> Pick:
    """The active side's units that may attack now; the others barred, with the rule that bars them."""
    free = attackers_left(state)
    pick = _stack_pick(state, free, lambda stack: on_table(state, [state.unit(n) for n in stack]))
    claimed = _claimed(state)
    barred = []
    for u in state.side_units(state.active, ON_MAP):
        if u.name in free:
            continue
        rule, reason = why_not_attack(state, u) or ("BR-10.1", f"{u.name} already attacks in this step"
                                                    if u.name in claimed else "no declaration after a result")
        barred.append(Barred(u.name, u.name, rule, reason))
    return replace(pick, options=[*pick.options, *barred])


def _declared_targets(state: GameState) -> list[frozenset]:
    return [frozenset(a.defenders) for a in state.attacks if a.status == DECLARED]


def fires_back(state: GameState, dfn) -> bool:
    """BR-10.1 (A11): the defender fires back if it has not made its one defensive roll this turn; by option
    a stack that attacked this turn makes no defensive roll."""
    return not any(u.defended for u in dfn) and (
        state.options["defence_after_attack"] or not any(u.attacked for u in dfn))


def _defender_choices(state: GameState, chosen) -> Pick:
    """BR-10.1: enemy units on the map, as one stack: the same stack as another declared attack's, or
    none of its units; a stack that fires back must be on the table (A16)."""
    targets = _declared_targets(state)

    def fits(stack) -> bool:
        units = [state.unit(n) for n in stack]
        same = all(frozenset(stack) == t or not (t & set(stack)) for t in targets)
        return same and (not fires_back(state, units) or on_table(state, units))
    return _stack_pick(state, [u.name for u in state.side_units(other(state.active), ON_MAP)], fits)


def _bridge_choices(state: GameState, chosen):
    """A18: the bridge counts as a ford only by option; a crossing is at a ford or the bridge, not both."""
    if not state.options["bridge_counts"]:
        return NOT_ASKED
    return (False,) if chosen["across_ford"] else (False, True)


TERRAIN_CHOICES = [Choice(t, t) for t in TARGET_TERRAINS]


def hesitates(state: GameState, attackers) -> bool:
    """BR-10.2: does this attacking stack face McDowell's hesitation (a Union stack south of Bull Run)?"""
    units = [state.unit(n) for n in attackers]
    return bool(units) and units[0].side == UNION and any(u.bank == SOUTH for u in units) \
        and not all(u.hesitation == "passed" for u in units)


@actions("Declare an attack", "BR-10.1",
         some_of("attackers", "Attacking stack (1-2 units)", "BR-10.1", _attacker_choices),
         some_of("defenders", "Defending stack (all its units)", "BR-10.1", _defender_choices),
         one_of("target_terrain", "Defender's hex", "BR-10.5", lambda s, c: TERRAIN_CHOICES, default="clear"),
         one_of("attacker_terrain", "Attacker's hex (symmetric modifiers)", "BR-10.5",
                lambda s, c: TERRAIN_CHOICES if s.options["symmetric_modifiers"] else NOT_ASKED, default="clear"),
         yes_no("across_ford", "The attack is across a Bull Run ford (-2)", "BR-10.5", default=False),
         yes_no("across_bridge", "The attack is across Stone Bridge (counts as a ford)", "BR-10.5", _bridge_choices,
                default=False),
         when=declaring)
def declare_attack(state: GameState, dice: Dice, attackers: list, defenders: list, target_terrain: str,
                   attacker_terrain: str, across_ford: bool, across_bridge: bool) -> Step:
    """BR-10.1: one attacking stack against one adjacent defending stack, declared before any attack of
    the step is resolved. A Union stack south of Bull Run first rolls McDowell's hesitation (BR-10.2):
    a failure means it makes no attack this turn."""
    att = tuple(state.unit(n) for n in attackers)
    conditions = Conditions(target_terrain, attacker_terrain, across_ford, across_bridge)
    results: tuple[Result, ...] = ()
    rules = ["BR-10.1"]
    if hesitates(state, attackers):
        per_unit = state.options["hesitation_per"] == "unit"
        rolled = tuple(u.name for u in att) if per_unit else (names(att),)
        roll = resolve_hesitation(HesitationInput(len(rolled)), dice, rolled)
        results, rules = (roll,), rules + ["BR-10.2"]
        passed = roll.details["passed"] if per_unit else roll.details["passed"] * len(att)
        state = state.with_units({u.name: replace(u, hesitation="passed" if ok else "failed")
                                  for u, ok in zip(att, passed)})
        att = tuple(state.unit(u.name) for u, ok in zip(att, passed) if ok)
        if not att:
            return Step(state, f"Turn {state.turn}: {roll.summary}; no attack this turn", tuple(rules), results)
    attack = Attack(tuple(u.name for u in att), tuple(defenders), conditions)
    new = replace(state, attacks=state.attacks + (attack,))
    lead = f"{results[0].summary}; " if results else ""
    return Step(new, f"Turn {state.turn}: {lead}{names(att)} will attack {names(defenders)} "
                     f"(attack {len(new.attacks)})", tuple(rules), results)


def current_defender(state: GameState) -> frozenset | None:
    """BR-10.1: the defender whose attacks are being resolved: every attack on it before the next."""
    made = [a for a in state.attacks if a.status == MADE]
    if made and any(a.status == DECLARED and set(a.defenders) == set(made[-1].defenders) for a in state.attacks):
        return frozenset(made[-1].defenders)
    return None


def attacks_to_fire(state: GameState) -> list[int]:
    """The declared attacks that may be resolved next (their indices)."""
    now = current_defender(state)
    return [i for i, a in enumerate(state.attacks)
            if a.status == DECLARED and (now is None or set(a.defenders) == now)]


def attack_label(state: GameState, i: int) -> str:
    a = state.attacks[i]
    return f"{i + 1}: {names(a.attackers)} on {names(a.defenders)}"


def _fire_open(state: GameState) -> None:
    in_phase(COMBAT, "BR-10.4")(state)
    if state.combat is not None:
        raise RuleError(STAGE_RULES[state.combat.stage],
                        f"The combat is at its '{state.combat.stage.replace('_', ' ')}' step")
    if not attacks_to_fire(state):
        raise RuleError("BR-10.1", "No declared attack is waiting: declare the attacks of this step first")


def stacks_of(state: GameState, attack: Attack) -> tuple[list[Unit], list[Unit]]:
    """The attacking units and the defending units still there."""
    return [state.unit(n) for n in attack.attackers], [state.unit(n) for n in attack.defenders if state.unit(n).sp > 0]


def combat_input(state: GameState, attack: Attack) -> CombatInput:
    """The combat as its odds twin reads it: fire SPs (A14), modifiers (BR-10.5), unit SPs, fire back (A11)."""
    att, dfn = stacks_of(state, attack)
    return CombatInput(StackInput(fire_sp(state, att), tuple(u.sp for u in att)),
                       StackInput(fire_sp(state, dfn), tuple(u.sp for u in dfn)),
                       modifier_terms(attack.conditions, "attackers", state.options).total,
                       modifier_terms(attack.conditions, "defenders", state.options).total,
                       fires_back(state, dfn), state.options["over_12"])


def declared_input(state: GameState, action) -> CombatInput:
    """The combat a `declare_attack` action would lead to, if its stacks all attack (before McDowell's
    hesitation): what the odds shown beside the declaration read."""
    conditions = Conditions(action.get("target_terrain", "clear"), action.get("attacker_terrain", "clear"),
                            action.get("across_ford", False), action.get("across_bridge", False))
    return combat_input(state, Attack(tuple(action["attackers"]), tuple(action["defenders"]), conditions))


@actions("Fire", "BR-10.4",
         one_of("attack", "Attack to resolve", "BR-10.1",
                lambda s, c: [Choice(i, attack_label(s, i)) for i in attacks_to_fire(s)]),
         when=_fire_open)
def fire(state: GameState, dice: Dice, attack: int) -> Step:
    """BR-10.1/BR-10.4: the attack is made: both stacks fire at once; hits are applied after both fires."""
    declared = state.attacks[attack]
    inputs = combat_input(state, declared)
    att, dfn = stacks_of(state, declared)
    results = [resolve_fire(stack_fire(state, att, declared.conditions, "attackers"), dice, "Attacker fire")]
    if inputs.defender_fires:
        results.append(resolve_fire(stack_fire(state, dfn, declared.conditions, "defenders"), dice, "Defender fire"))
    on_defenders = results[0].outcome
    on_attackers = results[1].outcome if inputs.defender_fires else 0
    changed = {n: replace(state.unit(n), attacked=True, fought=True) for n in declared.attackers}
    changed.update({n: replace(state.unit(n), fought=True, defended=state.unit(n).defended or inputs.defender_fires)
                    for n in declared.defenders})
    attacks = tuple(replace(a, status=MADE) if i == attack else a for i, a in enumerate(state.attacks))
    new = replace(state.with_units(changed), attacks=attacks)
    rules = tuple(dict.fromkeys(r for res in results for r in res.rules))
    text = "; ".join(r.summary for r in results)
    verb = "attack" if len(declared.attackers) > 1 else "attacks"
    lead = f"Turn {state.turn}: {names(declared.attackers)} {verb} {names(declared.defenders)}: "
    if on_defenders == on_attackers == 0:
        return Step(new, f"{lead}{text}; no hits, no retreat check", ("BR-10.1",) + rules + ("BR-11.1",),
                    tuple(results))
    combat = Combat(attack, declared.attackers, tuple(n for n in declared.defenders if state.unit(n).sp > 0),
                    hits_on_attackers=on_attackers, hits_on_defenders=on_defenders)
    return Step(replace(new, combat=combat), f"{lead}{text}", ("BR-10.1",) + rules, tuple(results))


# --- BR-10.3 hits ---------------------------------------------------------------------------------

def firer_side(state: GameState, target: str) -> str:
    """The side whose fire hit the `target` stack ("attackers"/"defenders")."""
    return other(state.active) if target == "attackers" else state.active


def hit_targets(state: GameState) -> list[tuple[str, tuple[str, ...], int]]:
    """(role, surviving units, hits) of each stack the fires hit."""
    combat = state.combat
    found = []
    for role, stack, hits in (("attackers", combat.attackers, combat.hits_on_attackers),
                              ("defenders", combat.defenders, combat.hits_on_defenders)):
        alive = tuple(n for n in stack if state.unit(n).sp > 0)
        if hits and alive:
            found.append((role, alive, hits))
    return found


def companion_places(state: GameState, role: str) -> bool:
    """BR-9.4: in solitaire the companion places the CSA's hits on the Union stack."""
    return bool(state.options["solitaire"]) and firer_side(state, role) == CSA


def _forced(state: GameState, alive, hits: int) -> bool:
    """Only one spread is possible: one unit, or enough hits for the whole stack (BR-10.3)."""
    return len(alive) == 1 or hits >= sum(state.unit(n).sp for n in alive)


def _spread_choices(role: str):
    """BR-10.3: the firer spreads the hits over the target stack's units, every hit spent while a unit
    survives: each unit takes at most its SP, and they add up to min(hits, the stack's SP)."""
    def choices(state: GameState, chosen):
        target = next((t for t in hit_targets(state) if t[0] == role), None)
        if target is None or companion_places(state, role) or _forced(state, target[1], target[2]):
            return NOT_ASKED
        _, alive, hits = target
        caps = {n: state.unit(n).sp for n in alive}
        total = min(hits, sum(caps.values()))
        return Spread(caps, total, total, {n: f"{n} ({sp} SP)" for n, sp in caps.items()})
    return choices


def _union_first_choices(state: GameState, chosen):
    """BR-9.4: among equal choices the solitaire player picks the Union unit the CSA hits first."""
    target = next((t for t in hit_targets(state) if companion_places(state, t[0])), None)
    if target is None or _forced(state, target[1], target[2]):
        return NOT_ASKED
    _, alive, hits = target
    options = solitaire.hit_choices([(n, state.unit(n).sp) for n in alive], hits)
    return [Choice(n, f"{n} ({state.unit(n).sp} SP)") for n in options] if len(options) > 1 else NOT_ASKED


def in_stage(stage: str):
    def when(state: GameState) -> None:
        in_phase(COMBAT, STAGE_RULES[stage])(state)
        if state.combat is None:
            raise RuleError("BR-10.1", "No combat is under way")
        if state.combat.stage != stage:
            raise RuleError(STAGE_RULES[state.combat.stage],
                            f"The combat is at its '{state.combat.stage.replace('_', ' ')}' step")
    return when


def spread_for(state: GameState, role: str, alive, hits: int, given: dict, union_first: str) -> dict[str, int]:
    """The hits on each unit of the stack: the firer's spread, the only one possible, or BR-9.4's."""
    sps = [(n, state.unit(n).sp) for n in alive]
    if _forced(state, alive, hits):
        return solitaire.br94_spread(sps, hits, alive[0])
    if companion_places(state, role):
        first = union_first or solitaire.hit_choices(sps, hits)[0]
        return solitaire.br94_spread(sps, hits, first)
    return {n: given.get(n, 0) for n in alive}


@actions("Apply hits", "BR-10.3",
         counts("on_attackers", "Hits on the attacking stack", "BR-10.3", _spread_choices("attackers"), default={}),
         counts("on_defenders", "Hits on the defending stack", "BR-10.3", _spread_choices("defenders"), default={}),
         one_of("union_first", "Union unit the CSA hits first", "BR-9.4", _union_first_choices, default=""),
         when=in_stage("allocate"))
def allocate_hits(state: GameState, dice: Dice, on_attackers: dict, on_defenders: dict, union_first: str) -> Step:
    """BR-10.3 (R1): the firer spreads the hits over the target stack's units; all are spent while a unit
    survives, only the excess over the whole stack is lost. In solitaire the CSA's hits follow BR-9.4.
    Units at 0 SP are removed (BR-10.4)."""
    combat = state.combat
    changed: dict[str, Unit] = {}
    lines, rules = [], ["BR-10.3"]
    for role, alive, hits in hit_targets(state):
        spread = spread_for(state, role, alive, hits, on_attackers if role == "attackers" else on_defenders,
                            union_first)
        if companion_places(state, role) and not _forced(state, alive, hits):
            rules.append("BR-9.4")
        for n, h in spread.items():
            before = state.unit(n)
            sp = before.sp - h
            if h:
                changed[n] = replace(before, sp=sp, status=ELIMINATED if sp == 0 else before.status)
                lines.append(f"{n} {before.sp}->{sp} SP" + (", eliminated" if sp == 0 else ""))
    new = state.with_units(changed)
    gone = {role: not any(new.unit(n).sp for n in stack)
            for role, stack in (("attackers", combat.attackers), ("defenders", combat.defenders))}
    who = who_checks(combat.hits_on_attackers, combat.hits_on_defenders, gone["attackers"], gone["defenders"])
    if who:
        new, tail = replace(new, combat=replace(combat, stage="retreat_check", checking=who)), \
            f"; the {who} check for retreat"
        rules.append("BR-11.1")
    else:
        vacated = "defenders" if gone["defenders"] and not gone["attackers"] else \
            "attackers" if gone["attackers"] and not gone["defenders"] else ""
        new, tail = after_vacated(new, vacated, gone["defenders"])
    return Step(new, f"Turn {state.turn}: hits applied: {'; '.join(lines) or 'none'}{tail}", tuple(rules))


# --- BR-11 retreat and advance --------------------------------------------------------------------

def lapse(state: GameState, defenders) -> GameState:
    """A25: the attacks still declared on a stack that has gone (retreated or eliminated) lapse."""
    gone = set(defenders)
    return replace(state, attacks=tuple(replace(a, status=LAPSED) if a.status == DECLARED and set(a.defenders) & gone
                                        else a for a in state.attacks))


def may_advance(state: GameState, vacated: str) -> bool:
    """BR-11.2 (A19): by default only the attacker advances into the hex of a stack that retreated or
    was eliminated; with the option, the winner on either side. A stack eliminated in the combat cannot."""
    if not vacated:
        return False
    combat = state.combat
    winners = combat.attackers if vacated == "defenders" else combat.defenders
    if not any(state.unit(n).sp for n in winners):
        return False
    return vacated == "defenders" or state.options["advance_by"] == "winner"


def after_vacated(state: GameState, vacated: str, defenders_gone: bool = False) -> tuple[GameState, str]:
    """The combat after a stack left its hex (or none did): the advance, or the end of the combat."""
    combat = state.combat
    if vacated == "defenders" or defenders_gone:
        state = lapse(state, combat.defenders)
    if may_advance(state, vacated):
        return replace(state, combat=replace(combat, stage="advance", vacated=vacated)), \
            "; the winner may advance (BR-11.2)"
    return replace(state, combat=None), ""


@actions("Retreat check", "BR-11.1", when=in_stage("retreat_check"))
def retreat_check(state: GameState, dice: Dice) -> Step:
    """BR-11.1: the stack that received more hits rolls: 4-6 it retreats 1 hex, 1-3 it stays."""
    combat = state.combat
    stack = combat.attackers if combat.checking == "attackers" else combat.defenders
    result = resolve_retreat_check(None, dice, _standing(state, stack)[0])
    if result.outcome:
        return Step(replace(state, combat=replace(combat, stage="retreat")), f"Turn {state.turn}: {result.summary}",
                    result.rules, (result,))
    other_role = "defenders" if combat.checking == "attackers" else "attackers"
    others = combat.defenders if other_role == "defenders" else combat.attackers
    gone = not any(state.unit(n).sp for n in others)
    new, tail = after_vacated(state, other_role if gone else "", gone and other_role == "defenders")
    return Step(new, f"Turn {state.turn}: {result.summary}{tail}", result.rules, (result,))


@actions("Retreat", "BR-11.1",
         yes_no("legal_hex", "There is a legal hex to retreat to (else the stack is eliminated)", "BR-11.1",
                default=True),
         yes_no("across_ford", "It retreats across Bull Run at a ford", "BR-11.1", default=False),
         yes_no("across_bridge", "It retreats across Stone Bridge (counts as a ford)", "BR-11.1", _bridge_choices,
                default=False),
         when=in_stage("retreat"))
def retreat(state: GameState, dice: Dice, legal_hex: bool, across_ford: bool, across_bridge: bool) -> Step:
    """BR-11.1: all units retreat 1 hex together, away from the front, not into enemy units and not
    across Bull Run except at a ford (A18: or the bridge). With no legal hex the stack is eliminated."""
    combat = state.combat
    stack = combat.attackers if combat.checking == "attackers" else combat.defenders
    units = [state.unit(n) for n in stack if state.unit(n).sp > 0]
    who, many = _standing(state, stack)
    if legal_hex:
        crossing = "ford" if across_ford else "bridge" if across_bridge else ""
        changed = {u.name: replace(u, bank=crossed_bank(u.bank, crossing)) for u in units}
        where = f" across Bull Run at {'a ford' if across_ford else 'the bridge'}" if crossing else ""
        text = f"{who} {'retreat' if many else 'retreats'} 1 hex{where}"
    else:
        changed = {u.name: replace(u, sp=0, status=ELIMINATED) for u in units}
        text = (f"{who} {'have' if many else 'has'} no legal hex to retreat to and "
                f"{'are' if many else 'is'} eliminated ({sum(u.sp for u in units)} SP lost)")
    new, tail = after_vacated(state.with_units(changed), combat.checking)
    return Step(new, f"Turn {state.turn}: {text}{tail}", ("BR-11.1",))


def companion_advances(state: GameState) -> bool:
    """Is the advance the companion's to decide (BR-9.5)? In solitaire, for a CSA attacker that won."""
    combat = state.combat
    return bool(state.options["solitaire"] and combat and combat.stage == "advance" and combat.vacated == "defenders"
                and state.unit(combat.attackers[0]).side == CSA)


@actions("Advance", "BR-11.2",
         yes_no("advance", "Advance into the vacated hex", "BR-11.2",
                lambda s, c: NOT_ASKED if companion_advances(s) else (True, False), default=None),
         yes_no("next_to_stronger_fresh_union",
                "Advancing would put it next to a stronger Union stack that has not fought this turn", "BR-9.5",
                lambda s, c: (False, True) if companion_advances(s) else NOT_ASKED, default=False),
         when=in_stage("advance"))
def advance(state: GameState, dice: Dice, advance: bool | None, next_to_stronger_fresh_union: bool) -> Step:
    """BR-11.2: the winner may move its whole stack into the vacated hex (optional). In solitaire a
    CSA attacker advances unless that puts it next to a stronger Union stack that has not fought
    this turn (BR-9.5, A20)."""
    combat = state.combat
    stack = combat.attackers if combat.vacated == "defenders" else combat.defenders
    units = [state.unit(n) for n in stack if state.unit(n).sp > 0]
    rules = ["BR-11.2"]
    if companion_advances(state):
        advance = solitaire.must_advance(next_to_stronger_fresh_union)
        rules.append("BR-9.5")
    if advance is None:
        raise RuleError("BR-11.2", "Say whether the stack advances (yes or no)")
    who, many = _standing(state, stack)
    if not advance:
        return Step(replace(state, combat=None), f"Turn {state.turn}: {who} {'stay' if many else 'stays'} in place",
                    tuple(rules))
    conditions = state.attacks[combat.attack].conditions
    crosses = conditions.across_ford or conditions.across_bridge
    changed = {u.name: replace(u, bank=crossed_bank(u.bank, "ford" if crosses else "")) for u in units}
    where = " across Bull Run" if crosses else ""
    return Step(replace(state.with_units(changed), combat=None),
                f"Turn {state.turn}: {who} {'advance' if many else 'advances'} into the vacated hex{where}; "
                f"enemy stacks that have not fought this turn may attack {'them' if many else 'it'}", tuple(rules))


def _step_ends(state: GameState) -> None:
    in_phase(COMBAT, "BR-10.2")(state)
    if state.combat is not None:
        raise RuleError("BR-10.1", "Finish the combat under way first")
    waiting = [i for i, a in enumerate(state.attacks) if a.status == DECLARED]
    if waiting:
        rule = "BR-9.2" if state.options["solitaire"] and state.active == CSA and state.half == 0 else "BR-10.1"
        raise RuleError(rule, f"Attack {attack_label(state, waiting[0])} is declared and must be made "
                              "(a declaration is not changed after a result)")


@actions("End attacks", "BR-10.2", when=_step_ends)
def end_combat(state: GameState, dice: Dice) -> Step:
    """BR-10.2: the initiative side's attacks, then the other side's; then the end of the turn."""
    side = state.active
    if state.half == 0:
        new = replace(state, half=1, attacks=())
        text = f"{SIDE_NAME[side]} attacks done; {SIDE_NAME[other(side)]} may attack with stacks that have not attacked"
    else:
        new = replace(state, phase=END, attacks=())
        text = f"{SIDE_NAME[side]} attacks done; end of the turn"
    return Step(new, f"Turn {state.turn}: {text}", ("BR-10.2",))


# --- planning several attacks on one defender ------------------------------------------------------

def sequence_input(state: GameState, defenders, attacks, target_terrain: str = "clear") -> SequenceInput:
    """Several stacks attacking one defender this step, in order (BR-10.1): `attacks` is a list of
    (attacking units, across a ford). Stacks that attacked this turn cannot; the defender fires back once,
    at the first attack made, if it may (A11); a Union stack south of Bull Run must pass McDowell's
    hesitation first (BR-10.2), and the odds include it."""
    if not attacks:
        raise RuleError("BR-10.1", "Name at least one attacking stack")
    dfn = _planned_stack(state, defenders, None, "defending")
    stacks, mods, hesitating = [], [], []
    for stack, across_ford in attacks:
        att = _planned_stack(state, stack, other(dfn[0].side), "attacking")
        for u in att:
            reason = why_not_attack(state, u)
            if reason:
                raise RuleError(*reason)
        conditions = Conditions(target_terrain, "clear", bool(across_ford), False)
        column(fire_sp(state, att), state.options["over_12"])
        stacks.append(StackInput(fire_sp(state, att), tuple(u.sp for u in att),
                                 tuple(fire_sp(state, [u]) for u in att)))
        mods.append(modifier_terms(conditions, "attackers", state.options).total)
        hesitating.append(hesitates(state, stack))
    fires = fires_back(state, dfn)
    if fires:
        column(fire_sp(state, dfn), state.options["over_12"])
    first = Conditions(target_terrain, "clear", bool(attacks[0][1]), False)
    return SequenceInput(StackInput(fire_sp(state, dfn), tuple(u.sp for u in dfn)), tuple(stacks), tuple(mods),
                         modifier_terms(first, "defenders", state.options).total, fires, state.options["over_12"],
                         tuple(hesitating), state.options["hesitation_per"] == "unit")


def planner_units(state: GameState) -> list[str]:
    """The units the planner may name: every unit on the map (attackers are checked when planned)."""
    return [u.name for u in state.units if u.status == ON_MAP]


def _planned_stack(state: GameState, stack, side: str | None, role: str) -> tuple[Unit, ...]:
    """A stack named in the planner: 1-2 distinct units of one side on the map (BR-8.2)."""
    if not stack or len(set(stack)) != len(stack) or len(stack) > STACK_LIMIT:
        raise RuleError("BR-8.2", f"The {role} stack is 1 to {STACK_LIMIT} different units")
    units = tuple(state.unit(n) for n in stack)
    sides = {u.side for u in units}
    if len(sides) != 1 or (side is not None and sides != {side}) or any(u.status != ON_MAP for u in units):
        raise RuleError("BR-10.1", f"The {role} stack is units of one side on the map"
                                   + (f", of the {SIDE_NAME[side]}" if side else ""))
    return units


def planner_note(inputs: SequenceInput) -> str:
    """What the planner's odds assume, in words."""
    parts = []
    if any(inputs.hesitating):
        parts.append("they include McDowell's hesitation (a Union stack south of Bull Run attacks on 5-6, BR-10.2)")
    parts.append("the defender fires back at the first attack made" if inputs.defender_fires else
                 "the defender has made its one defensive roll this turn and does not fire back")
    return ("Conditional odds: they hold if the attacks are made in this order, and " + "; ".join(parts) + ".")

