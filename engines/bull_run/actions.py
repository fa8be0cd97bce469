"""Battle at Bull Run: the actions of a turn before and after combat, in the order of play (BR-5.1).

Each action declares its parameters and what may be chosen now (companion.spec); the combat actions
are in attacks.py. An action that breaks a rule raises RuleError (naming the rule) and changes nothing;
otherwise it returns a Step with the new state, a one-line summary and the rules it applied.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.dice import Dice
from companion.engine import Result, RuleError, Step
from companion.spec import NOT_ASKED, Actions, Barred, Choice, Pick, number, one_of, record, some_of, yes_no

from . import solitaire
from .crossing import resolve_crossing
from .flank import AwarenessInput, resolve_awareness, resolve_farm_ford
from .initiative import SIDE_NAME, resolve_initiative
from .movement import CROSSINGS, WESTERN_FORDS, crossed_bank, path_cost
from .rules import CSA, MOVEMENT_ALLOWANCE, SOUTH, TURNS, UNION
from .state import (
    COMBAT,
    END,
    INITIATIVE,
    MOVEMENT,
    ON_MAP,
    OVER,
    PENDING,
    REINFORCEMENTS,
    GameState,
    clock,
    corrected,
    new_turn,
    other,
    place,
)
from .victory import end_of_turn

actions = Actions("BR-5.1")
PHASE_NAMES = {INITIATIVE: "initiative", REINFORCEMENTS: "reinforcement", MOVEMENT: "movement",
               COMBAT: "combat", END: "end of turn", OVER: "game over"}


def in_phase(phase: str, rule: str = "BR-5.1"):
    """The `when` of an action of one phase: RuleError naming the phase it is."""
    def when(state: GameState) -> None:
        if state.phase == OVER:
            raise RuleError("BR-3.0", f"The game is over: {state.victory.result}")
        if state.phase != phase:
            raise RuleError(rule, f"This belongs to the {PHASE_NAMES[phase]} phase; it is the "
                                  f"{PHASE_NAMES[state.phase]} phase of turn {state.turn}")
    return when


def not_over(state: GameState) -> None:
    if state.phase == OVER:
        raise RuleError("BR-3.0", f"The game is over: {state.victory.result}")


# --- BR-6.0 initiative, BR-7.0 reinforcements -------------------------------------------------------

@actions("Roll for initiative", "BR-6.0", when=in_phase(INITIATIVE, "BR-6.0"))
def roll_initiative(state: GameState, dice: Dice) -> Step:
    """BR-6.0: at the start of the turn, 1-3 Union, 4-6 CSA."""
    result = resolve_initiative(None, dice, state.turn)
    initiative = list(state.initiative)
    initiative[state.turn - 1] = result.outcome
    new = replace(state, initiative=tuple(initiative), phase=REINFORCEMENTS)
    return Step(new, result.summary, result.rules, (result,))


def _before_the_game(state: GameState) -> None:
    in_phase(INITIATIVE, "BR-6.0")(state)
    if state.turn != 1:
        raise RuleError("BR-6.0", "All turns are pre-rolled only before the game starts (turn 1)")


@actions(f"Pre-roll all {TURNS} turns", "BR-6.0", when=_before_the_game)
def preroll_initiative(state: GameState, dice: Dice) -> Step:
    """BR-6.0: the initiative of all 15 turns may be rolled before the game and marked on the track."""
    results = [resolve_initiative(None, dice, t) for t in range(1, TURNS + 1)]
    track = tuple(r.outcome for r in results)
    marks = "".join("U" if side == UNION else "C" for side in track)
    new = replace(state, initiative=track, phase=REINFORCEMENTS)
    return Step(new, f"Initiative pre-rolled for all {TURNS} turns: {marks}", ("BR-6.0",), tuple(results))


@actions("Place reinforcements", "BR-7.0", when=in_phase(REINFORCEMENTS, "BR-7.0"))
def place_reinforcements(state: GameState, dice: Dice) -> Step:
    """BR-7.0: the units due this turn enter on their entry hexes (turn 1's were placed at setup, BR-4.0)."""
    due = [u for u in state.units if u.status == PENDING and u.spec.entry_turn == state.turn]
    new = state.with_units({u.name: place(u) for u in due})
    new = replace(new, phase=MOVEMENT, half=0, checks_done=())
    if due:
        text = "; ".join(f"{u.name} on hex {u.spec.entry_hex}" for u in due)
        return Step(new, f"Turn {state.turn} reinforcements: {text}", ("BR-7.0",))
    return Step(new, f"Turn {state.turn}: no reinforcements", ("BR-7.0",))


# --- BR-8 movement --------------------------------------------------------------------------------

def due_checks(state: GameState) -> list[str]:
    """The rolls the moving side still owes before it moves, in order (§3): Farm Ford at the start of the
    Union movement phase; before the CSA movement phase the solitaire action roll, then at its start the
    awareness check (from the first Union crossing at Sudley or Farm Ford, BR-8.4a)."""
    if state.phase != MOVEMENT:
        return []
    due = []
    if state.active == UNION:
        if not state.farm_ford_found and state.turn >= state.options["farm_ford_first_turn"]:
            due.append("farm_ford")
    else:
        if state.options["solitaire"]:
            due.append("csa_action")
        if state.union_crossed_west and not state.csa_aware:
            due.append("awareness")
    return [c for c in due if c not in state.checks_done]


CHECK_RULES = {"farm_ford": "BR-8.4b", "awareness": "BR-8.4a", "csa_action": "BR-9.0"}


def check_due(check: str):
    """The `when` of a start-of-phase roll: due now, and the first one due."""
    def when(state: GameState) -> None:
        in_phase(MOVEMENT, CHECK_RULES[check])(state)
        due = due_checks(state)
        if check not in due:
            raise RuleError(CHECK_RULES[check], "This roll is not due now")
        if due[0] != check:
            raise RuleError(CHECK_RULES[due[0]], f"First the {due[0].replace('_', ' ')} roll")
    return when


def _done(state: GameState, check: str, **changes) -> GameState:
    return replace(state, checks_done=state.checks_done + (check,), **changes)


@actions("Roll for Farm Ford", "BR-8.4b", when=check_due("farm_ford"))
def farm_ford_roll(state: GameState, dice: Dice) -> Step:
    """BR-8.4b: at the start of each Union movement phase until found, 5-6 finds Farm Ford."""
    result = resolve_farm_ford(None, dice)
    new = _done(state, "farm_ford", farm_ford_found=state.turn if result.outcome else 0)
    return Step(new, f"Turn {state.turn}: {result.summary}", result.rules, (result,))


def awareness_open(state: GameState) -> None:
    """BR-8.4a: due at the start of the CSA movement phase; with option A4 "at once", also whenever a
    Union unit south of Bull Run comes next to a CSA unit after the first Union crossing in the west."""
    if "awareness" in due_checks(state) or state.options["adjacency_awareness"] != "immediate":
        check_due("awareness")(state)
        return
    not_over(state)
    if not state.union_crossed_west or state.csa_aware:
        raise RuleError("BR-8.4a", "No awareness check is open: " + (
            "the CSA is already aware" if state.csa_aware else "no Union unit has crossed at Sudley or Farm Ford"))


def _adjacent_choices(state: GameState, chosen) -> tuple[bool, ...]:
    """Out of the phase-start check (option A4 "at once") only adjacency makes the CSA aware."""
    return (False, True) if "awareness" in due_checks(state) else (True,)


@actions("Flank awareness", "BR-8.4a",
         yes_no("adjacent", "A Union unit south of Bull Run is next to a CSA unit", "BR-8.4a", _adjacent_choices,
                default=False),
         when=awareness_open)
def awareness_check(state: GameState, dice: Dice, adjacent: bool) -> Step:
    """BR-8.4a: at the start of each CSA movement phase from the first Union crossing at Sudley or
    Farm Ford: aware at once if a Union unit south of Bull Run is adjacent to a CSA unit, else on 5-6.
    With option A4 "at once", adjacency makes the CSA aware at any moment."""
    at_phase_start = "awareness" in due_checks(state)
    result = resolve_awareness(AwarenessInput(adjacent), dice)
    aware = state.turn if result.outcome else 0
    new = _done(state, "awareness", csa_aware=aware) if at_phase_start else replace(state, csa_aware=aware)
    return Step(new, f"Turn {state.turn}: {result.summary}", result.rules, (result,))


def recognised(state: GameState, seen_now: bool = False) -> bool:
    """BR-9.0 footnote (A6): has the CSA recognised Union units south of Bull Run? Reading (b), the default:
    aware of the flank march, or a Union unit south of the run has been in contact with a CSA unit."""
    seen = bool(state.union_south_seen) or seen_now
    return bool(state.csa_aware) or (state.options["recognised_south"] == "aware_or_contact" and seen)


def action_input(state: GameState, union_south: int | None = None, seen_now: bool = False) -> solitaire.ActionInput:
    """BR-9.0 as the table is read now: the count of Union units south of Bull Run (the players' count,
    A7, else the companion's tracking) and whether the CSA has recognised them (A6)."""
    count = state.union_south() if union_south is None else union_south
    return solitaire.ActionInput(count, recognised(state, seen_now), state.options["unaware_column"])


def _union_count_choices(state: GameState, chosen) -> range:
    return range(0, len(state.side_units(UNION, ON_MAP)) + 1)


def _contact_choices(state: GameState, chosen):
    """A6 (b): asked while the contact has not been seen and the CSA is not aware."""
    if state.options["recognised_south"] != "aware_or_contact" or state.union_south_seen or state.csa_aware:
        return NOT_ASKED
    count = chosen["union_south"]
    return (False, True) if (state.union_south() if count is None else count) else (False,)


@actions("CSA action table", "BR-9.0",
         number("union_south", "Union units south of Bull Run (count them on the map)", "BR-9.0",
                _union_count_choices, default=None, suggest=lambda s, c: s.union_south()),
         yes_no("union_south_seen", "A Union unit south of Bull Run is or has been next to a CSA unit", "BR-9.0",
                _contact_choices, default=False),
         when=check_due("csa_action"))
def csa_action_roll(state: GameState, dice: Dice, union_south: int | None, union_south_seen: bool) -> Step:
    """BR-9.0: in solitaire, before each CSA movement phase (and before its awareness check), the action
    table gives the CSA order; the column is read with what the CSA has recognised (A6)."""
    result = solitaire.resolve_action(action_input(state, union_south, union_south_seen), dice)
    orders = list(state.orders)
    orders[state.turn - 1] = result.outcome
    seen = state.union_south_seen or (state.turn if union_south_seen else 0)
    new = _done(state, "csa_action", orders=tuple(orders), union_south_seen=seen)
    return Step(new, f"Turn {state.turn}: {result.summary}", result.rules, (result,))


def movement_open(state: GameState) -> None:
    in_phase(MOVEMENT, "BR-8.1")(state)
    due = due_checks(state)
    if due:
        raise RuleError(CHECK_RULES[due[0]], f"First the {due[0].replace('_', ' ')} roll, at the start of the phase")
    if not movers(state):
        raise RuleError("BR-8.1", f"Every {SIDE_NAME[state.active]} unit on the map has moved this phase")


def movers(state: GameState) -> list[str]:
    """BR-8.1: the moving side's units on the map that have not moved this phase."""
    return [u.name for u in state.side_units(state.active, ON_MAP) if not u.moved]


def _path_choices(state: GameState, chosen) -> Pick:
    """BR-8.1: the terrain of each hex entered, while the MP last (creek never)."""
    costs = state.options["terrain_costs"]
    return Pick([Choice(t, f"{t} ({c} MP)") for t, c in costs.items() if c is not None], 0, MOVEMENT_ALLOWANCE,
                fits=lambda path: sum(costs[t] for t in path) <= MOVEMENT_ALLOWANCE)


def _crossing_choices(state: GameState, chosen) -> list:
    """Where the unit may cross Bull Run now: BR-8.4d (Farm Ford once found, for the Union) and BR-8.3
    (a grey unit south of the run that failed its roll this phase may not cross, A3)."""
    u = state.unit(chosen["unit"])
    failed = u.spec.grey and u.bank == SOUTH and not u.crossed_free and u.crossing_tried \
        and state.options["beauregard_rolls"] == "per_phase"
    found = []
    for crossing, label in CROSSINGS.items():
        if crossing and failed:
            found.append(Barred(crossing, label, "BR-8.3", f"{u.name} failed its Beauregard roll: no crossing "
                                                           "this turn"))
        elif crossing == "farm" and u.side == UNION and not state.farm_ford_found:
            found.append(Barred(crossing, label, "BR-8.4d", "Farm Ford has not been found: no Union unit may "
                                                            "cross there"))
        else:
            found.append(Choice(crossing, label))
    return found


def _west_choices(state: GameState, chosen):
    """BR-8.4c: asked of a CSA unit while the CSA is not aware of the flank march: it may not go west."""
    if state.unit(chosen["unit"]).side != CSA or state.csa_aware:
        return NOT_ASKED
    return (False, Barred(True, "yes", "BR-8.4c", "Until the CSA is aware of the flank march, no CSA unit may "
                                                  "move west of Stone Bridge"))


@actions("Move a unit", "BR-8.1",
         one_of("unit", "Unit", "BR-8.1", lambda s, c: movers(s)),
         some_of("path", "Hexes entered (terrain of each)", "BR-8.1", _path_choices, default=(), repeat=True),
         one_of("crossing", "Crosses Bull Run", "BR-8.1", _crossing_choices, default=""),
         yes_no("west_of_stone_bridge", "The move goes west of Stone Bridge", "BR-8.4c", _west_choices,
                default=False),
         when=movement_open,
         retired={"into_enemy_hex": False, "through_enemy_zoc": False, "friendly_in_destination": 0})
def move(state: GameState, dice: Dice, unit: str, path: list, crossing: str, west_of_stone_bridge: bool) -> Step:
    """BR-8: one unit's move this phase: the terrain of each hex entered, and where it crosses Bull Run.
    A grey unit south of the run crossing north first rolls (BR-8.3)."""
    u = state.unit(unit)
    cost = path_cost(path, state.options["terrain_costs"])
    bank = crossed_bank(u.bank, crossing)
    where = f" across Bull Run at {CROSSINGS[crossing]}" if crossing else ""
    mp = f" ({cost} MP)" if path else ""
    results: tuple[Result, ...] = ()
    rules = ["BR-8.1"]
    if u.spec.grey and crossing and u.bank == SOUTH and not u.crossed_free:
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


def _movement_ends(state: GameState) -> None:
    in_phase(MOVEMENT)(state)
    due = due_checks(state)
    if due:
        raise RuleError(CHECK_RULES[due[0]], f"The {due[0].replace('_', ' ')} roll is due before the phase ends")


@actions("End movement", "BR-5.1", when=_movement_ends)
def end_movement(state: GameState, dice: Dice) -> Step:
    """BR-5.1: the initiative side moves first, then the other; then combat."""
    side = state.active
    units = tuple(replace(u, crossing_tried=False) for u in state.units)
    if state.half == 0:
        new = replace(state, units=units, half=1, checks_done=())
        text = f"{SIDE_NAME[side]} movement done; {SIDE_NAME[other(side)]} moves"
    else:
        new = replace(state, units=units, phase=COMBAT, half=0, checks_done=(), attacks=())
        text = f"{SIDE_NAME[side]} movement done; combat, {SIDE_NAME[state.initiative[state.turn - 1]]} attacks first"
    return Step(new, f"Turn {state.turn}: {text}", ("BR-5.1",))


# --- BR-3.0 end of turn ---------------------------------------------------------------------------

@actions("End the turn", "BR-3.0",
         yes_no("union_holds_manassas", "A Union unit occupies the O&A 'To Manassas' hex", "BR-3.0a", default=False),
         yes_no("csa_holds_centerville", "A CSA unit occupies Centerville", "BR-3.0b", default=False),
         when=in_phase(END, "BR-3.0"))
def end_turn(state: GameState, dice: Dice, union_holds_manassas: bool, csa_holds_centerville: bool) -> Step:
    """BR-5.1 step 5: check victory (BR-3.0) and mark the track; after turn 15, BR-12.0."""
    checked = end_of_turn(state, union_holds_manassas, csa_holds_centerville)
    if checked.victory:
        v = checked.victory
        return Step(replace(checked, phase=OVER), f"Turn {state.turn} ends: {v.result}", (v.rule, "BR-3.0"))
    holds = [text for held, text in ((union_holds_manassas, "Union holds To Manassas"),
                                     (csa_holds_centerville, "CSA holds Centerville")) if held]
    nxt = new_turn(checked)
    lead = f" ({'; '.join(holds)})" if holds else ""
    return Step(nxt, f"Turn {state.turn} ends{lead}; turn {nxt.turn} begins at {clock(nxt.turn)}", ("BR-3.0", "BR-5.1"))


@actions("Correct the roster", "BR-2.4", record("roster", "The roster as on the play sheet", "BR-2.4"),
         when=not_over, correction=True)
def correct_roster(state: GameState, dice: Dice, roster: Any) -> Step:
    """Digest section 10: the locked roster is corrected only by this (undoable) event."""
    new = corrected(state, roster)
    return Step(new, f"Roster corrected ({len(new.units)} units)", ("BR-2.4",))
