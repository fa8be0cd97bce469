"""Battle at Bull Run: every action of a turn, in the order of play (BR-5.1).

Each action validates first and raises RuleError (naming the rule) without changing anything;
otherwise it returns a Step with the new state, a one-line summary and the rules it applied.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.dice import Dice
from companion.engine import Actions, Result, RuleError, Step

from . import solitaire
from .combat import CombatInput, SequenceInput, StackInput, take_hits
from .crossing import resolve_crossing
from .fire import FireInput, column, modifier, resolve_fire
from .flank import AwarenessInput, resolve_awareness, resolve_farm_ford
from .hesitation import HesitationInput, resolve_hesitation
from .initiative import SIDE_NAME, resolve_initiative
from .movement import CROSSINGS, WESTERN_FORDS, check_move_facts, crossed_bank, path_cost
from .retreat import resolve_retreat_check, who_checks
from .rules import CSA, SOUTH, TARGET_TERRAINS, TURNS, UNION
from .state import (
    COMBAT,
    ELIMINATED,
    END,
    INITIATIVE,
    MOVEMENT,
    ON_MAP,
    OVER,
    PENDING,
    REINFORCEMENTS,
    Combat,
    Conditions,
    GameState,
    Unit,
    clock,
    corrected,
    new_turn,
    other,
    place,
    stack_units,
)
from .victory import end_of_turn

actions = Actions("BR-5.1")
PHASE_NAMES = {INITIATIVE: "initiative", REINFORCEMENTS: "reinforcement", MOVEMENT: "movement",
               COMBAT: "combat", END: "end of turn", OVER: "game over"}


def _phase(state: GameState, phase: str, rule: str = "BR-5.1") -> None:
    if state.phase == OVER:
        raise RuleError("BR-3.0", f"The game is over: {state.victory.result}")
    if state.phase != phase:
        raise RuleError(rule, f"This belongs to the {PHASE_NAMES[phase]} phase; it is the "
                              f"{PHASE_NAMES[state.phase]} phase of turn {state.turn}")


def _names(units) -> str:
    return " + ".join(u.name for u in units)


def _standing(state: GameState, names) -> tuple[str, bool]:
    """The surviving units of a stack as text, and whether they are more than one."""
    alive = [n for n in names if state.unit(n).sp > 0]
    return " + ".join(alive), len(alive) > 1


# --- BR-6.0 initiative, BR-7.0 reinforcements -------------------------------------------------------

@actions
def roll_initiative(state: GameState, dice: Dice) -> Step:
    """BR-6.0: at the start of the turn, 1-3 Union, 4-6 CSA."""
    _phase(state, INITIATIVE, "BR-6.0")
    result = resolve_initiative(None, dice, state.turn)
    initiative = list(state.initiative)
    initiative[state.turn - 1] = result.outcome
    new = replace(state, initiative=tuple(initiative), phase=REINFORCEMENTS)
    return Step(new, result.summary, result.rules, (result,))


@actions
def preroll_initiative(state: GameState, dice: Dice) -> Step:
    """BR-6.0: the initiative of all 15 turns may be rolled before the game and marked on the track."""
    _phase(state, INITIATIVE, "BR-6.0")
    if state.turn != 1:
        raise RuleError("BR-6.0", "All turns are pre-rolled only before the game starts (turn 1)")
    results = [resolve_initiative(None, dice, t) for t in range(1, TURNS + 1)]
    track = tuple(r.outcome for r in results)
    marks = "".join("U" if side == UNION else "C" for side in track)
    new = replace(state, initiative=track, phase=REINFORCEMENTS)
    return Step(new, f"Initiative pre-rolled for all {TURNS} turns: {marks}", ("BR-6.0",), tuple(results))


@actions
def place_reinforcements(state: GameState, dice: Dice) -> Step:
    """BR-7.0: the units due this turn enter on their entry hexes (turn 1's were placed at setup, BR-4.0)."""
    _phase(state, REINFORCEMENTS, "BR-7.0")
    due = [u for u in state.units if u.status == PENDING and u.spec.entry_turn == state.turn]
    new = state.with_units({u.name: place(u) for u in due})
    new = replace(new, phase=MOVEMENT, half=0, checks_done=())
    if due:
        text = "; ".join(f"{u.name} on hex {u.spec.entry_hex}" for u in due)
        return Step(new, f"Turn {state.turn} reinforcements: {text}", ("BR-7.0",))
    return Step(new, f"Turn {state.turn}: no reinforcements", ("BR-7.0",))


# --- BR-8 movement --------------------------------------------------------------------------------

def due_checks(state: GameState) -> list[str]:
    """The start-of-phase rolls the moving side still owes, in order (BR-5.1 step 3)."""
    if state.phase != MOVEMENT:
        return []
    due = []
    if state.active == UNION:
        if not state.farm_ford_found and state.turn >= state.options["farm_ford_first_turn"]:
            due.append("farm_ford")
    else:
        if state.union_crossed_west and not state.csa_aware:
            due.append("awareness")
        if state.options["solitaire"]:
            due.append("csa_action")
    return [c for c in due if c not in state.checks_done]


CHECK_RULES = {"farm_ford": "BR-8.4b", "awareness": "BR-8.4a", "csa_action": "BR-9.0"}


def _check_due(state: GameState, check: str) -> None:
    _phase(state, MOVEMENT, CHECK_RULES[check])
    due = due_checks(state)
    if check not in due:
        raise RuleError(CHECK_RULES[check], "This roll is not due now")
    if due[0] != check:
        raise RuleError(CHECK_RULES[due[0]], f"First the {due[0].replace('_', ' ')} roll")


def _done(state: GameState, check: str, **changes) -> GameState:
    return replace(state, checks_done=state.checks_done + (check,), **changes)


@actions
def farm_ford_roll(state: GameState, dice: Dice) -> Step:
    """BR-8.4b: at the start of each Union movement phase until found, 5-6 finds Farm Ford."""
    _check_due(state, "farm_ford")
    result = resolve_farm_ford(None, dice)
    new = _done(state, "farm_ford", farm_ford_found=state.turn if result.outcome else 0)
    return Step(new, f"Turn {state.turn}: {result.summary}", result.rules, (result,))


@actions
def awareness_check(state: GameState, dice: Dice, adjacent: bool = False) -> Step:
    """BR-8.4a: at the start of each CSA movement phase from the first Union crossing at Sudley or
    Farm Ford: aware at once if a Union unit south of Bull Run is adjacent to a CSA unit, else on 5-6.
    With option A4 "at once", adjacency makes the CSA aware at any moment."""
    if not isinstance(adjacent, bool):
        raise RuleError("BR-8.4a", "'adjacent' is yes or no")
    at_phase_start = "awareness" in due_checks(state)
    immediate = adjacent and state.options["adjacency_awareness"] == "immediate" and not at_phase_start
    if immediate:
        if state.phase == OVER:
            raise RuleError("BR-3.0", "The game is over")
        if not state.union_crossed_west or state.csa_aware:
            raise RuleError("BR-8.4a", "No awareness check is open: " + (
                "the CSA is already aware" if state.csa_aware else "no Union unit has crossed at Sudley or Farm Ford"))
    else:
        _check_due(state, "awareness")
    result = resolve_awareness(AwarenessInput(adjacent), dice)
    aware = state.turn if result.outcome else 0
    new = replace(state, csa_aware=aware) if immediate else _done(state, "awareness", csa_aware=aware)
    return Step(new, f"Turn {state.turn}: {result.summary}", result.rules, (result,))


def action_input(state: GameState, union_south: int | None = None) -> solitaire.ActionInput:
    """BR-9.0 as the table is read now: the count of Union units south of Bull Run (the players' count,
    A7, else the companion's tracking) and whether the CSA is aware of them (A6)."""
    count = state.union_south() if union_south is None else union_south
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RuleError("BR-9.0", "The count of Union units south of Bull Run is a whole number, 0 or more")
    aware = bool(state.csa_aware) or state.options["awareness_for_table"] == "always"
    return solitaire.ActionInput(count, aware, state.options["unaware_column"])


@actions
def csa_action_roll(state: GameState, dice: Dice, union_south: int | None = None) -> Step:
    """BR-9.0: in solitaire, before each CSA movement phase, the action table gives the CSA order."""
    _check_due(state, "csa_action")
    result = solitaire.resolve_action(action_input(state, union_south), dice)
    orders = list(state.orders)
    orders[state.turn - 1] = result.outcome
    new = _done(state, "csa_action", orders=tuple(orders))
    return Step(new, f"Turn {state.turn}: {result.summary}", result.rules, (result,))


@actions
def move(state: GameState, dice: Dice, unit: str, path: list | tuple = (), crossing: str = "",
         west_of_stone_bridge: bool = False, into_enemy_hex: bool = False, through_enemy_zoc: bool = False,
         friendly_in_destination: int = 0) -> Step:
    """BR-8: one unit's move this phase: the terrain of each hex entered, and where it crosses Bull Run."""
    _phase(state, MOVEMENT, "BR-8.1")
    due = due_checks(state)
    if due:
        raise RuleError(CHECK_RULES[due[0]], f"First the {due[0].replace('_', ' ')} roll, at the start of the phase")
    u = state.unit(unit)
    if u.side != state.active:
        raise RuleError("BR-8.1", f"{u.name} is {SIDE_NAME[u.side]}; it is the {SIDE_NAME[state.active]} movement phase")
    if u.status != ON_MAP:
        raise RuleError("BR-8.1", f"{u.name} is not on the map")
    if u.moved:
        raise RuleError("BR-8.1", f"{u.name} has already moved this phase (4 MP a turn)")
    if not isinstance(path, (list, tuple)) or not all(isinstance(t, str) for t in path):
        raise RuleError("BR-8.1", "The path is the terrain of each hex entered")
    cost = path_cost(path, state.options["terrain_costs"])
    check_move_facts(into_enemy_hex=into_enemy_hex, through_enemy_zoc=through_enemy_zoc,
                     friendly_in_destination=friendly_in_destination)
    bank = crossed_bank(u.bank, crossing)
    if u.side == CSA and west_of_stone_bridge and not state.csa_aware:
        raise RuleError("BR-8.4c", "Until the CSA is aware of the flank march, no CSA unit may move west of Stone Bridge")
    if u.side == UNION and crossing == "farm" and not state.farm_ford_found:
        raise RuleError("BR-8.4d", "Farm Ford has not been found: no Union unit may cross there")
    where = f" across Bull Run at {CROSSINGS[crossing]}" if crossing else ""
    mp = f" ({cost} MP)" if path else ""
    results: tuple[Result, ...] = ()
    rules = ["BR-8.1"]
    if u.spec.grey and crossing and u.bank == SOUTH and not u.crossed_free:
        if u.crossing_tried and state.options["beauregard_rolls"] == "per_phase":
            raise RuleError("BR-8.3", f"{u.name} already failed its Beauregard roll this turn: no crossing this turn")
        roll = resolve_crossing(None, dice, u.name)
        results = (roll,)
        if not roll.outcome:
            new = state.with_units({u.name: replace(u, crossing_tried=True)})
            return Step(new, f"Turn {state.turn}: {roll.summary}; it stays south of Bull Run", roll.rules, results)
        u = replace(u, crossed_free=True)
        rules.append("BR-8.3")
    moved = replace(u, moved=True, bank=bank, crossing_tried=u.crossing_tried or bool(results))
    new = state.with_units({u.name: moved})
    if u.side == UNION and crossing in WESTERN_FORDS:
        new = replace(new, union_crossed_west=state.union_crossed_west or state.turn,
                      fords_crossed=tuple(sorted(set(state.fords_crossed) | {crossing})))
        rules.append("BR-8.4a")
    if crossing == "farm":
        rules.append("BR-8.4d")
    lead = f"{results[0].summary}; " if results else ""
    return Step(new, f"Turn {state.turn}: {lead}{u.name} moves{where}{mp}, now {bank} of Bull Run",
                tuple(rules), results)


@actions
def end_movement(state: GameState, dice: Dice) -> Step:
    """BR-5.1: the initiative side moves first, then the other; then combat."""
    _phase(state, MOVEMENT)
    due = due_checks(state)
    if due:
        raise RuleError(CHECK_RULES[due[0]], f"The {due[0].replace('_', ' ')} roll is due before the phase ends")
    side = state.active
    units = tuple(replace(u, crossing_tried=False) for u in state.units)
    if state.half == 0:
        new = replace(state, units=units, half=1, checks_done=())
        text = f"{SIDE_NAME[side]} movement done; {SIDE_NAME[other(side)]} moves"
    else:
        new = replace(state, units=units, phase=COMBAT, half=0, checks_done=())
        text = f"{SIDE_NAME[side]} movement done; combat, {SIDE_NAME[state.initiative[state.turn - 1]]} attacks first"
    return Step(new, f"Turn {state.turn}: {text}", ("BR-5.1",))


# --- BR-10 combat ---------------------------------------------------------------------------------

def _combat(state: GameState, stage: str) -> Combat:
    _phase(state, COMBAT, "BR-10.1")
    if state.combat is None:
        raise RuleError("BR-10.1", "No combat has been declared")
    if state.combat.stage != stage:
        raise RuleError(STAGE_RULES[state.combat.stage],
                        f"The combat is at its '{state.combat.stage.replace('_', ' ')}' step")
    return state.combat


STAGE_RULES = {"fire": "BR-10.4", "allocate": "BR-10.3", "retreat_check": "BR-11.1", "retreat": "BR-11.1",
               "advance": "BR-11.2"}


def fire_sp(state: GameState, units) -> int:
    """BR-10.4 (A14): a stack fires with the turn-start SP of its surviving units (or, by option,
    its SP at the start of the combat)."""
    if state.options["fire_sp"] == "turn_start":
        return sum(u.turn_start_sp for u in units if u.sp > 0)
    return sum(u.sp for u in units)


def why_not_attack(state: GameState, unit: Unit) -> tuple[str, str] | None:
    """(rule, reason) when this unit may not attack now, else None (BR-10.1, BR-10.2, A10)."""
    if unit.attacked:
        return "BR-10.1", f"{unit.name} has already attacked this turn: a stack attacks once a turn"
    if unit.hesitation == "failed":
        return "BR-10.2", f"{unit.name} failed McDowell's hesitation this turn and makes no attack"
    if unit.fought and not state.options["defended_may_attack"]:
        return "BR-10.2", f"{unit.name} has been in combat this turn (option A10)"
    return None


def attackers_left(state: GameState) -> list[str]:
    """The units of the attacking side that may still attack, if there is an enemy on the map to attack."""
    if not state.side_units(other(state.active), ON_MAP):
        return []
    return [u.name for u in state.side_units(state.active, ON_MAP) if why_not_attack(state, u) is None]


def _attack_stacks(state: GameState, attackers, defenders, target_terrain: str, attacker_terrain: str,
                   across_ford: bool, across_bridge: bool):
    """BR-10.1: check a declared attack (who may attack whom, on what ground) before any die is rolled."""
    _phase(state, COMBAT, "BR-10.1")
    if state.combat is not None:
        raise RuleError("BR-10.1", "Finish the combat under way first")
    side = state.active
    att = stack_units(state, attackers, side, "attacking")
    dfn = stack_units(state, defenders, other(side), "defending")
    for u in att:
        reason = why_not_attack(state, u)
        if reason:
            raise RuleError(*reason)
    key = tuple(sorted(u.name for u in dfn))
    if key in state.defenders_done:
        raise RuleError("BR-10.1", f"The attacks on {_names(dfn)} are finished: all attacks on one defender "
                                   "come before the next defender")
    for value, what in ((target_terrain, "the defender's terrain"), (attacker_terrain, "the attacker's terrain")):
        if value not in TARGET_TERRAINS:
            raise RuleError("BR-10.5", f"{what} is one of {', '.join(TARGET_TERRAINS)}, not '{value}'")
    if across_ford and across_bridge:
        raise RuleError("BR-10.5", "An attack crosses Bull Run at a ford or at the bridge, not both")
    conditions = Conditions(target_terrain, attacker_terrain, bool(across_ford), bool(across_bridge))
    column(fire_sp(state, att), state.options["over_12"])  # BR-10.4: the attacker's total is on the table
    return att, dfn, conditions


def new_combat(state: GameState, att, dfn, conditions: Conditions) -> Combat:
    """The combat record: fire SPs (A14) and whether the defender fires back (BR-10.1, A11)."""
    defender_fires = not any(u.defended for u in dfn) and (
        state.options["defence_after_attack"] or not any(u.attacked for u in dfn))
    if defender_fires:  # BR-10.4: so is the defender's, when it fires back
        column(fire_sp(state, dfn), state.options["over_12"])
    return Combat(tuple(u.name for u in att), tuple(u.name for u in dfn), conditions,
                  fire_sp(state, att), fire_sp(state, dfn), defender_fires)


def preview_attack(state: GameState, attackers, defenders, target_terrain: str = "clear",
                   attacker_terrain: str = "clear", across_ford: bool = False, across_bridge: bool = False) -> Combat:
    """The combat an attack would start, if its stacks all attack (before McDowell's hesitation)."""
    att, dfn, conditions = _attack_stacks(state, attackers, defenders, target_terrain, attacker_terrain,
                                          across_ford, across_bridge)
    return new_combat(state, att, dfn, conditions)


def hesitates(state: GameState, attackers) -> bool:
    """BR-10.2: does this attacking stack face McDowell's hesitation (a Union stack south of Bull Run)?"""
    units = [state.unit(n) for n in attackers]
    return bool(units) and units[0].side == UNION and any(u.bank == SOUTH for u in units)


@actions
def declare_attack(state: GameState, dice: Dice, attackers: list | tuple, defenders: list | tuple,
                   target_terrain: str = "clear", attacker_terrain: str = "clear", across_ford: bool = False,
                   across_bridge: bool = False) -> Step:
    """BR-10.1: one attacking stack against one adjacent defending stack. A Union stack south of Bull
    Run must first pass McDowell's hesitation (BR-10.2)."""
    att, dfn, conditions = _attack_stacks(state, attackers, defenders, target_terrain, attacker_terrain,
                                          across_ford, across_bridge)
    key = tuple(sorted(u.name for u in dfn))
    done = state.defenders_done
    if state.defender and tuple(sorted(state.defender)) != key:
        done = done + (tuple(sorted(state.defender)),)

    results: tuple[Result, ...] = ()
    rules = ["BR-10.1"]
    if hesitates(state, attackers):
        per_unit = state.options["hesitation_per"] == "unit"
        names = tuple(u.name for u in att) if per_unit else (_names(att),)
        roll = resolve_hesitation(HesitationInput(len(names)), dice, names)
        results, rules = (roll,), rules + ["BR-10.2"]
        passed = roll.details["passed"] if per_unit else roll.details["passed"] * len(att)
        marked = {u.name: replace(u, hesitation="passed" if ok else "failed") for u, ok in zip(att, passed)}
        state = state.with_units(marked)
        att = tuple(state.unit(u.name) for u, ok in zip(att, passed) if ok)
        if not att:
            return Step(state, f"Turn {state.turn}: {roll.summary}; no attack this turn", tuple(rules), results)
    combat = new_combat(state, att, dfn, conditions)
    changed = {u.name: replace(u, attacked=True, fought=True) for u in att}
    changed.update({u.name: replace(u, fought=True) for u in dfn})
    new = replace(state.with_units(changed), combat=combat, defender=key, defenders_done=done)
    back = "fires back" if combat.defender_fires else "does not fire back (it has made its defensive roll this turn)"
    lead = f"{results[0].summary}; " if results else ""
    return Step(new, f"Turn {state.turn}: {lead}{_names(att)} ({combat.attacker_fire_sp} SP) attacks "
                     f"{_names(dfn)} ({combat.defender_fire_sp} SP), which {back}", tuple(rules), results)


def sequence_input(state: GameState, defenders, attacks, target_terrain: str = "clear") -> SequenceInput:
    """Several stacks attacking one defender this turn, in order (BR-10.1): `attacks` is a list of
    (attacking units, across a ford). The defender fires back once, at the first, if it has not rolled."""
    if not attacks:
        raise RuleError("BR-10.1", "Name at least one attacking stack")
    sides = {state.unit(n).side for n in defenders} if defenders else set()
    if len(sides) != 1:
        raise RuleError("BR-10.1", "Name the units of the defending stack")
    dfn = stack_units(state, defenders, sides.pop(), "defending")
    stacks, mods, first = [], [], None
    for names, across_ford in attacks:
        att = stack_units(state, names, other(dfn[0].side), "attacking")
        conditions = Conditions(target_terrain, "clear", bool(across_ford), False)
        first = first or conditions
        column(fire_sp(state, att), state.options["over_12"])
        stacks.append(StackInput(fire_sp(state, att), tuple(u.sp for u in att)))
        mods.append(modifier(conditions, "attackers", state.options)[0])
    fires = not any(u.defended for u in dfn)
    if fires:
        column(fire_sp(state, dfn), state.options["over_12"])
    return SequenceInput(StackInput(fire_sp(state, dfn), tuple(u.sp for u in dfn)), tuple(stacks), tuple(mods),
                         modifier(first, "defenders", state.options)[0], fires, state.options["hit_allocation"],
                         state.options["over_12"])


def combat_input(state: GameState, combat: Combat) -> CombatInput:
    """The combat as its odds twin reads it: the same fire SPs, modifiers and unit SPs as the fire step."""
    attack, back = fire_inputs_of(state, combat)
    return CombatInput(
        StackInput(combat.attacker_fire_sp, tuple(state.unit(n).sp for n in combat.attackers if state.unit(n).sp)),
        StackInput(combat.defender_fire_sp, tuple(state.unit(n).sp for n in combat.defenders if state.unit(n).sp)),
        attack.modifier, back.modifier if back else 0, combat.defender_fires,
        state.options["hit_allocation"], state.options["over_12"])


def fire_inputs_of(state: GameState, combat: Combat) -> tuple[FireInput, FireInput | None]:
    """The two fires of a combat as the tables read them."""
    over_12 = state.options["over_12"]
    att_mod, _ = modifier(combat.conditions, "attackers", state.options)
    def_mod, _ = modifier(combat.conditions, "defenders", state.options)
    attack = FireInput(combat.attacker_fire_sp, att_mod, over_12)
    back = FireInput(combat.defender_fire_sp, def_mod, over_12) if combat.defender_fires else None
    return attack, back


@actions
def fire(state: GameState, dice: Dice) -> Step:
    """BR-10.1/BR-10.4: both stacks fire at once; hits are applied after both fires."""
    combat = _combat(state, "fire")
    attack, back = fire_inputs_of(state, combat)
    results = [resolve_fire(attack, dice, "Attacker fire")]
    if back is not None:
        results.append(resolve_fire(back, dice, "Defender fire"))
    on_defenders = results[0].outcome
    on_attackers = results[1].outcome if back is not None else 0
    new = state
    if back is not None:
        new = new.with_units({n: replace(new.unit(n), defended=True) for n in combat.defenders})
    rules = tuple(dict.fromkeys(r for res in results for r in res.rules))
    text = "; ".join(r.summary for r in results)
    if on_defenders == on_attackers == 0:
        return Step(replace(new, combat=None), f"Turn {state.turn}: {text}; no hits, no retreat check",
                    rules + ("BR-11.1",), tuple(results))
    combat = replace(combat, stage="allocate", hits_on_attackers=on_attackers, hits_on_defenders=on_defenders)
    return Step(replace(new, combat=combat), f"Turn {state.turn}: {text}", rules, tuple(results))


def firer_side(state: GameState, target: str) -> str:
    """The side whose fire hit the `target` stack ("attackers"/"defenders")."""
    return other(state.active) if target == "attackers" else state.active


def hit_options(state: GameState, target: str) -> tuple[str, ...]:
    """Units of the target stack that may take its hits: the firer's choice (BR-10.3), or in solitaire
    for CSA fire, the units BR-9.4 allows."""
    combat = state.combat
    hits = combat.hits_on_attackers if target == "attackers" else combat.hits_on_defenders
    names = combat.attackers if target == "attackers" else combat.defenders
    units = [(n, state.unit(n).sp) for n in names if state.unit(n).sp > 0]
    if state.options["solitaire"] and firer_side(state, target) == CSA:
        return solitaire.hit_choices(units, hits)
    return tuple(n for n, _ in units)


@actions
def allocate_hits(state: GameState, dice: Dice, on_attackers: str = "", on_defenders: str = "") -> Step:
    """BR-10.3: the firer chooses which unit of the target stack takes the hits; all hits are spent on
    it and the excess is lost (R3, A13), or spills over inside the stack (R1). In solitaire the CSA's
    hits follow BR-9.4. Units at 0 SP are removed (BR-10.4)."""
    combat = _combat(state, "allocate")
    changed: dict[str, Unit] = {}
    lines, rules = [], ["BR-10.3"]
    for target, chosen, hits in (("attackers", on_attackers, combat.hits_on_attackers),
                                 ("defenders", on_defenders, combat.hits_on_defenders)):
        if hits == 0:
            continue
        options = hit_options(state, target)
        solitaire_csa = state.options["solitaire"] and firer_side(state, target) == CSA
        if not chosen:
            if len(options) == 1 or solitaire_csa:
                stack = [(n, state.unit(n).sp) for n in options]
                chosen = solitaire.hit_choice(stack, hits) if solitaire_csa else options[0]
            else:
                raise RuleError("BR-10.3", f"The {SIDE_NAME[firer_side(state, target)]} player chooses which unit "
                                           f"of {' + '.join(options)} takes the {hits} hit{'s' if hits > 1 else ''}")
        if chosen not in options:
            rule = "BR-9.4" if solitaire_csa else "BR-10.3"
            raise RuleError(rule, f"{chosen} cannot take these hits; choose from {', '.join(options)}")
        if solitaire_csa:
            rules.append("BR-9.4")
        names = combat.attackers if target == "attackers" else combat.defenders
        alive = [n for n in names if state.unit(n).sp > 0]
        sps = take_hits(tuple(state.unit(n).sp for n in alive), hits, alive.index(chosen),
                        state.options["hit_allocation"])
        for n, sp in zip(alive, sps):
            before = state.unit(n)
            if sp != before.sp:
                changed[n] = replace(before, sp=sp, status=ELIMINATED if sp == 0 else before.status)
                lines.append(f"{n} {before.sp}->{sp} SP" + (", eliminated" if sp == 0 else ""))
    new = state.with_units(changed)
    gone = {role: not any(new.unit(n).sp for n in names)
            for role, names in (("attackers", combat.attackers), ("defenders", combat.defenders))}
    who = who_checks(combat.hits_on_attackers, combat.hits_on_defenders, gone["attackers"], gone["defenders"])
    if who:
        combat = replace(combat, stage="retreat_check", checking=who)
        tail = f"; the {who} check for retreat"
        rules.append("BR-11.1")
    else:
        vacated = "defenders" if gone["defenders"] and not gone["attackers"] else \
            "attackers" if gone["attackers"] and not gone["defenders"] else ""
        combat, tail = _after_vacated(new, combat, vacated)
    return Step(replace(new, combat=combat), f"Turn {state.turn}: hits applied: {'; '.join(lines)}{tail}",
                tuple(rules))


def may_advance(state: GameState, combat: Combat, vacated: str) -> bool:
    """BR-11.2 (A19): by default only the attacker advances into the hex of a stack that retreated or
    was eliminated; with the option, the winner on either side. A stack eliminated in the combat cannot."""
    if not vacated:
        return False
    winners = combat.attackers if vacated == "defenders" else combat.defenders
    if not any(state.unit(n).sp for n in winners):
        return False
    return vacated == "defenders" or state.options["advance_by"] == "winner"


def _after_vacated(state: GameState, combat: Combat, vacated: str) -> tuple[Combat | None, str]:
    if may_advance(state, combat, vacated):
        return replace(combat, stage="advance", vacated=vacated), "; the winner may advance (BR-11.2)"
    return None, ""


@actions
def retreat_check(state: GameState, dice: Dice) -> Step:
    """BR-11.1: the stack that received more hits rolls: 4-6 it retreats 1 hex, 1-3 it stays."""
    combat = _combat(state, "retreat_check")
    names = combat.attackers if combat.checking == "attackers" else combat.defenders
    result = resolve_retreat_check(None, dice, _standing(state, names)[0])
    if result.outcome:
        return Step(replace(state, combat=replace(combat, stage="retreat")), f"Turn {state.turn}: {result.summary}",
                    result.rules, (result,))
    other_role = "defenders" if combat.checking == "attackers" else "attackers"
    others = combat.defenders if other_role == "defenders" else combat.attackers
    gone = not any(state.unit(n).sp for n in others)
    following, tail = _after_vacated(state, combat, other_role if gone else "")
    return Step(replace(state, combat=following), f"Turn {state.turn}: {result.summary}{tail}", result.rules, (result,))


@actions
def retreat(state: GameState, dice: Dice, legal_hex: bool = True, across_ford: bool = False,
            across_bridge: bool = False) -> Step:
    """BR-11.1: all units retreat 1 hex together, away from the front, not into enemy units and not
    across Bull Run except at a ford (A18: or the bridge). With no legal hex the stack is eliminated."""
    combat = _combat(state, "retreat")
    if not all(isinstance(v, bool) for v in (legal_hex, across_ford, across_bridge)):
        raise RuleError("BR-11.1", "'legal_hex', 'across_ford' and 'across_bridge' are yes or no")
    if across_ford and across_bridge:
        raise RuleError("BR-11.1", "A retreat crosses Bull Run at a ford or at the bridge, not both")
    if across_bridge and not state.options["bridge_counts"]:
        raise RuleError("BR-11.1", "A retreat crosses Bull Run only at a ford (option A18 lets the bridge count)")
    names = combat.attackers if combat.checking == "attackers" else combat.defenders
    units = [state.unit(n) for n in names if state.unit(n).sp > 0]
    who, many = _standing(state, names)
    if legal_hex:
        crossing = "ford" if across_ford else "bridge" if across_bridge else ""
        changed = {u.name: replace(u, bank=crossed_bank(u.bank, crossing)) for u in units}
        where = f" across Bull Run at {'a ford' if across_ford else 'the bridge'}" if crossing else ""
        text = f"{who} {'retreat' if many else 'retreats'} 1 hex{where}"
    else:
        changed = {u.name: replace(u, sp=0, status=ELIMINATED) for u in units}
        text = (f"{who} {'have' if many else 'has'} no legal hex to retreat to and "
                f"{'are' if many else 'is'} eliminated ({sum(u.sp for u in units)} SP lost)")
    new = state.with_units(changed)
    combat, tail = _after_vacated(new, combat, combat.checking)
    return Step(replace(new, combat=combat), f"Turn {state.turn}: {text}{tail}", ("BR-11.1",))


def companion_advances(state: GameState) -> bool:
    """Is the advance the companion's to decide (BR-9.5)? In solitaire, for a CSA attacker that won."""
    combat = state.combat
    return bool(state.options["solitaire"] and combat and combat.stage == "advance" and combat.vacated == "defenders"
                and state.unit(combat.attackers[0]).side == CSA)


@actions
def advance(state: GameState, dice: Dice, advance: bool | None = None,
            next_to_stronger_fresh_union: bool = False) -> Step:
    """BR-11.2: the winner may move its whole stack into the vacated hex (optional). In solitaire a
    CSA attacker advances unless that puts it next to a stronger Union stack that has not fought
    this turn (BR-9.5, A20)."""
    combat = _combat(state, "advance")
    names = combat.attackers if combat.vacated == "defenders" else combat.defenders
    units = [state.unit(n) for n in names if state.unit(n).sp > 0]
    rules = ["BR-11.2"]
    if companion_advances(state):
        required = solitaire.must_advance(bool(next_to_stronger_fresh_union))
        if advance is not None and advance != required:
            raise RuleError("BR-9.5", "In solitaire the CSA stack " + (
                "advances after the retreat or elimination" if required else
                "does not advance next to a stronger Union stack that has not fought this turn"))
        advance = required
        rules.append("BR-9.5")
    if advance is None or not isinstance(advance, bool):
        raise RuleError("BR-11.2", "Say whether the stack advances (yes or no)")
    who, many = _standing(state, names)
    if not advance:
        return Step(replace(state, combat=None), f"Turn {state.turn}: {who} {'stay' if many else 'stays'} in place",
                    tuple(rules))
    crosses = combat.conditions.across_ford or combat.conditions.across_bridge
    changed = {u.name: replace(u, bank=crossed_bank(u.bank, "ford" if crosses else "")) for u in units}
    where = " across Bull Run" if crosses else ""
    return Step(replace(state.with_units(changed), combat=None),
                f"Turn {state.turn}: {who} {'advance' if many else 'advances'} into the vacated hex{where}; "
                f"enemy stacks that have not fought this turn may attack {'them' if many else 'it'}", tuple(rules))


@actions
def end_combat(state: GameState, dice: Dice) -> Step:
    """BR-10.2: the initiative side's attacks, then the other side's; then the end of the turn."""
    _phase(state, COMBAT, "BR-10.2")
    if state.combat is not None:
        raise RuleError("BR-10.1", "Finish the combat under way first")
    side = state.active
    if state.half == 0:
        new = replace(state, half=1, defender=(), defenders_done=())
        text = f"{SIDE_NAME[side]} attacks done; {SIDE_NAME[other(side)]} may attack with stacks that have not attacked"
    else:
        new = replace(state, phase=END, defender=(), defenders_done=())
        text = f"{SIDE_NAME[side]} attacks done; end of the turn"
    return Step(new, f"Turn {state.turn}: {text}", ("BR-10.2",))


# --- BR-3.0 end of turn ---------------------------------------------------------------------------

@actions
def end_turn(state: GameState, dice: Dice, union_holds_manassas: bool = False,
             csa_holds_centerville: bool = False) -> Step:
    """BR-5.1 step 5: check victory (BR-3.0) and mark the track; after turn 15, BR-12.0."""
    _phase(state, END, "BR-3.0")
    for value in (union_holds_manassas, csa_holds_centerville):
        if not isinstance(value, bool):
            raise RuleError("BR-3.0", "Objective holds are yes or no")
    checked = end_of_turn(state, union_holds_manassas, csa_holds_centerville)
    if checked.victory:
        v = checked.victory
        return Step(replace(checked, phase=OVER), f"Turn {state.turn} ends: {v.result}", (v.rule, "BR-3.0"))
    holds = [text for held, text in ((union_holds_manassas, "Union holds To Manassas"),
                                     (csa_holds_centerville, "CSA holds Centerville")) if held]
    nxt = new_turn(checked)
    lead = f" ({'; '.join(holds)})" if holds else ""
    return Step(nxt, f"Turn {state.turn} ends{lead}; turn {nxt.turn} begins at {clock(nxt.turn)}", ("BR-3.0", "BR-5.1"))


@actions
def correct_roster(state: GameState, dice: Dice, roster: Any) -> Step:
    """Digest section 10: the locked roster is corrected only by this (undoable) event."""
    if state.phase == OVER:
        raise RuleError("BR-3.0", "The game is over")
    new = corrected(state, roster)
    return Step(new, f"Roster corrected ({len(new.units)} units)", ("BR-2.4",))

