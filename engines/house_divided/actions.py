"""A House Divided: every action of a player turn, in the order of play (digest section 3, HD-3).

A game turn is the Union player turn, then the CSA's; each runs start (supply, border states, the FI
snapshot), movement (marches, break-outs first), battles, promotion and recruitment. Each action
validates first and raises RuleError (naming the rule) without changing anything; otherwise it returns
a Step with the new state, a one-line summary starting with the turn, and the rules it applied.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.dice import Dice
from companion.engine import Actions, RuleError, Step
from companion.quoting import quote

from . import battle as fight
from . import entries, movement, victory
from .basic import basic_rules_from, require_filled
from .battle_command import CommandInput, resolve_battle_command
from .border_states import BorderInput, resolve_border_state
from .command import MarchInput, naval_trigger, resolve_marches
from .desertion import DesertionCheck, DesertionInput, resolve_desertion
from .fire import FireInput, Shot, check_split, resolve_fire
from .intervention import ReturnInput, fi_conditions, resolve_fi_return
from .morale import MoraleInput, resolve_morale
from .rally import RallyInput, resolve_rally
from .rules import (
    ARMS,
    BORDER_STATES,
    CSA,
    FULL,
    GARRISON,
    GRADES,
    INF,
    LEADER_MARCH_MOVES,
    MILITIA,
    REDUCED,
    RICHMOND,
    SIDE_NAME,
    SIDES,
    TURNS,
    UNIT_MARCHES,
    USA,
    WASHINGTON,
    WASHINGTON_RECAPTURE,
    YEARS,
)
from .state import (
    BACK,
    BATTLE,
    CAPTURED,
    ELIMINATED,
    JOINED,
    MOVEMENT,
    ON_MAP,
    PROMOTION,
    RECRUITMENT,
    START,
    TRIED,
    WAITING,
    Battle,
    BattleSide,
    GameState,
    Unit,
    other,
    year_of,
)
from .supply import LONE, OUT_OF_SUPPLY, supply_report
from .washington import WashingtonInput, resolve_washington

actions = Actions("HD-3")
SEGMENT_NAMES = {START: "start", MOVEMENT: "movement", BATTLE: "battle", PROMOTION: "promotion",
                 RECRUITMENT: "recruitment"}


def lead(state: GameState) -> str:
    """How a log line starts: the turn and the phasing side."""
    return f"{state.turn_label}, {SIDE_NAME[state.side]}"


def _playing(state: GameState) -> None:
    if state.victory:
        raise RuleError(state.victory.rule, f"The game is over: {state.victory.result}")
    if state.washington_due:
        raise RuleError("HD-4.7", "Washington has fallen: first roll the Union MM loss")


def _segment(state: GameState, segment: str, rule: str = "HD-3") -> None:
    """The action belongs to this segment of the phasing side's turn, outside any battle."""
    _playing(state)
    if state.battle is not None:
        raise RuleError("HD-3", f"Finish the battle at {state.battle.box} first")
    if state.segment != segment:
        raise RuleError(rule, f"This belongs to the {SEGMENT_NAMES[segment]} segment; it is the "
                              f"{SEGMENT_NAMES[state.segment]} segment of the {SIDE_NAME[state.side]} turn")


def _box(state: GameState, value: Any, what: str = "The box", rule: str = "HD-8") -> str:
    box = entries.text(value, what, rule)
    if box != state.europe:
        state.game_map.box(box)
    return box


def _units(state: GameState, value: Any, rule: str, what: str = "The units") -> tuple[Unit, ...]:
    return tuple(state.unit(n) for n in entries.names(value, what, rule))


def _finish(state: GameState) -> tuple[GameState, list[str]]:
    """After units moved, left or died: captured leaders (HD-5.7) and containment that has ended."""
    state, lines = fight.lone_leaders(state)
    still = tuple(b for b in state.contained if state.units_in(b, USA) and state.units_in(b, CSA))
    if still != state.contained:
        state = replace(state, contained=still)
    return state, lines


def _tail(lines: list[str]) -> str:
    return f"; {'; '.join(lines)}" if lines else ""


# --- start of the player turn: supply (HD-5.1), border states (HD-4.8), the FI snapshot (HD-5.9) ------

@actions
def check_supply(state: GameState, dice: Dice, foraged: list | tuple = (), reason: str = "") -> Step:
    """HD-5.1: every box with 2+ of the phasing side's units traces supply; those that cannot must each lose
    one unit. No stack is excused unless the players use the option A11 and mark a box as foraged, with their
    reason (logged)."""
    _segment(state, START, "HD-5.1")
    if not state.options["supply"]:
        raise RuleError("HD-5.1", "The supply rule is off in this game")
    if state.supply_checked:
        raise RuleError("HD-5.1", "Supply has been checked this turn")
    boxes = entries.names(foraged, "Foraged boxes", "HD-A11")
    if boxes and state.options["foraging"] != "manual":
        raise RuleError("HD-A11", "Foraging excuses no stack in this game: the source never says when a stack may "
                                  "forage (option A11)")
    if boxes and not (isinstance(reason, str) and reason.strip()):
        raise RuleError("HD-A11", "Give the reason the marked boxes foraged: it goes into the log")
    report = supply_report(replace(state, foraged=boxes))
    for box in boxes:
        stack = report.of(box)
        if stack is None or stack.status == LONE:
            raise RuleError("HD-A11", f"Only a box with a stack of 2+ {SIDE_NAME[state.side]} units forages; "
                                      f"not {quote(box)}")
    checked = [s for s in report.stacks if s.status != LONE]
    text = "; ".join(f"{s.box}: {s.status}" + (f", lose 1 ({s.reason})" if s.status == OUT_OF_SUPPLY else "")
                     for s in checked) or "no stack of 2 or more units"
    if boxes:
        text += f"; foraged by the players' choice (A11): {reason.strip()}"
    new = replace(state, foraged=boxes, supply_checked=True, supply_due=report.losses)
    return Step(new, f"{lead(state)}: supply check: {text}", ("HD-5.1", "HD-A11") if boxes else ("HD-5.1",))


@actions
def supply_loss(state: GameState, dice: Dice, unit: str) -> Step:
    """HD-5.1: a stack out of supply loses exactly one unit; its owner chooses which."""
    _segment(state, START, "HD-5.1")
    u = state.unit(unit)
    if u.side != state.side or u.status != ON_MAP or u.box not in state.supply_due:
        raise RuleError("HD-5.1", f"{u.name} is not in a box that must lose a unit to supply"
                                  f" ({', '.join(state.supply_due) or 'none'})")
    new = replace(state.with_units({u.name: replace(u, status=ELIMINATED)}),
                  supply_due=tuple(b for b in state.supply_due if b != u.box))
    new, lines = _finish(new)
    return Step(new, f"{lead(state)}: {u.name} is lost at {u.box}, out of supply{_tail(lines)}", ("HD-5.1",))


def border_input(state: GameState, code: str) -> BorderInput:
    """HD-4.8 for a state as the game stands now; RuleError if it may not roll."""
    code = entries.choice(code, BORDER_STATES, "The border state", "HD-4.8")
    name, cities = BORDER_STATES[code]
    if state.border.get(code) == JOINED:
        raise RuleError("HD-5.8", f"{name} has already given its support: once per state per game")
    if state.border.get(code) == TRIED:
        raise RuleError("HD-A14", f"{name} has had its one attempt (option A14)")
    for city in cities:
        box = state.game_map.role(city)
        if box is None:
            raise RuleError("HD-4.8", f"The map has no box for {city}: designate it to roll for {name}")
        if state.controller(box) != CSA:
            raise RuleError("HD-4.8", f"{name} rolls only when the CSA controls all its recruitment cities; "
                                      f"not {box}")
    washington, richmond = state.game_map.role(WASHINGTON), state.game_map.role(RICHMOND)
    return BorderInput(code, state.year, abs(state.mm_usa - state.mm_csa),
                       bool(washington) and state.controller(washington) == CSA,
                       bool(richmond) and state.controller(richmond) == USA,
                       state.options["border_required"][code])


@actions
def border_state_roll(state: GameState, dice: Dice, border_state: str) -> Step:
    """HD-4.8: at the start of a CSA turn, for a state whose recruitment cities the CSA all controls."""
    _segment(state, START, "HD-4.8")
    if not state.options["border_states"]:
        raise RuleError("HD-4.8", "The border-state rule is off in this game")
    if state.side != CSA:
        raise RuleError("HD-4.8", "Border states roll at the start of a CSA turn")
    inputs = border_input(state, border_state)
    if inputs.state in state.border_rolled:
        raise RuleError("HD-4.8", f"{inputs.state} has rolled this turn")
    result = resolve_border_state(inputs, dice)
    border = dict(state.border)
    if result.outcome:
        border[inputs.state] = JOINED
    elif state.options["border_attempts"] == "one_attempt":
        border[inputs.state] = TRIED
    new = replace(state, border=border, border_rolled=state.border_rolled + (inputs.state,),
                  border_pool=state.border_pool + bool(result.outcome))
    rules = result.rules + (("HD-5.8",) if result.outcome else ())
    return Step(new, f"{lead(state)}: {result.summary}", rules, (result,))


@actions
def end_start(state: GameState, dice: Dice) -> Step:
    """The start segment ends once supply losses are taken; a CSA turn notes the FI conditions (HD-5.9)."""
    _segment(state, START)
    if state.options["supply"] and not state.supply_checked:
        raise RuleError("HD-5.1", "First the supply check")
    if state.supply_due:
        raise RuleError("HD-5.1", f"Remove one unit in each box out of supply first: {', '.join(state.supply_due)}")
    new, text, rules = replace(state, segment=MOVEMENT), "movement", ["HD-3"]
    if state.side == CSA and state.options["intervention"] and not state.fi_triggered:
        conditions = fi_conditions(state.game_map, state.control, state.mm_usa, state.mm_csa,
                                   state.options["fi_condition_3"])
        met = all(c.met for c in conditions)
        new = replace(new, fi_snapshot=met)
        failing = [f"{c.number} ({c.reason})" for c in conditions if not c.met]
        text += "; FI conditions " + ("all met" if met else "not met: " + "; ".join(failing))
        rules.append("HD-5.9")
        if met and state.options["fi_trigger"] == "turn_start":
            new = intervene(new)
            text += "; foreign intervention (A21 (b))"
            rules.append("HD-A21")
    return Step(new, f"{lead(state)}: {text}", tuple(rules))


def intervene(state: GameState) -> GameState:
    """HD-5.9 effects: CSA sea movement, and the 4 FI units in Europe (outside the CSA MM)."""
    names = {u.name for u in state.units}
    fresh = []
    for arm, grade in state.fi_units:
        number = len(fresh) + 1
        while f"FI {number}" in names:
            number += 1
        name = f"FI {number}"
        names.add(name)
        fresh.append(Unit(name, CSA, arm, grade, box=state.europe, foreign=True))
    return replace(state, fi_triggered=True, units=state.units + tuple(fresh))


# --- movement (HD-4.1, HD-5.2, HD-5.4, HD-5.5, HD-5.7) ------------------------------------------------

def _marches_left(state: GameState, rule: str = "HD-5.2") -> None:
    if state.marches_left is None:
        raise RuleError("HD-4.1" if state.options["command"] else "HD-5.2", "First roll for marches")
    if state.marches_left < 1:
        raise RuleError(rule, "No marches are left this turn")


@actions
def roll_marches(state: GameState, dice: Dice) -> Step:
    """HD-4.1: the marches of this player turn from the Command Table; the raw die is kept (A16)."""
    _segment(state, MOVEMENT, "HD-4.1")
    if not state.options["command"]:
        raise RuleError("HD-4.1", "The Command Table is off: enter the marches your basic rules give")
    if state.marches_left is not None:
        raise RuleError("HD-4.1", "The marches of this turn have been rolled")
    result = resolve_marches(MarchInput(state.year, state.side), dice)
    die = result.details["face"]
    text = result.summary
    rules = ("HD-4.1", "HD-5.2")
    if naval_trigger(state.side, die, result.outcome, state.options["march_trigger"]):
        text += "; a 6: the basic game's Union naval invasion (A16)"
        rules += ("HD-A16",)
    new = replace(state, marches_left=result.outcome, march_die=die)
    return Step(new, f"{lead(state)}: {text}", rules, (result,))


@actions
def set_marches(state: GameState, dice: Dice, count: int) -> Step:
    """HD-5.2 with the Command Table off: the march count the basic rules give, as the players rolled it."""
    _segment(state, MOVEMENT, "HD-5.2")
    if state.options["command"]:
        raise RuleError("HD-4.1", "With the Command Table on, the marches are rolled on it")
    if state.marches_left is not None:
        raise RuleError("HD-5.2", "The marches of this turn are set")
    count = entries.whole(count, "The marches", "HD-5.2", 0, 6)
    return Step(replace(state, marches_left=count), f"{lead(state)}: {count} marches (basic rules)", ("HD-5.2",))


@actions
def breakout(state: GameState, dice: Dice, box: str) -> Step:
    """HD-5.4: contained Union units leave only after winning a battle at the start of the Union movement
    segment, before other marches; it costs one march, and counts as one of their 2 marches."""
    _segment(state, MOVEMENT, "HD-5.4")
    box = _box(state, box)
    if state.side != USA:
        raise RuleError("HD-5.4", "Only the Union breaks out of containment")
    if box not in state.contained:
        raise RuleError("HD-5.4", f"{box} is not contained")
    if state.marched:
        raise RuleError("HD-5.4", "Break-out battles come first in the movement segment, before any other march")
    _marches_left(state, "HD-5.4")
    union = state.units_in(box, USA)
    moved = {u.name: replace(u, marches=max(u.marches, 1)) for u in union}
    new = replace(state.with_units(moved), marches_left=state.marches_left - 1)
    new = _open_battle(new, box, amphibious=False, breakout=True)
    return Step(new, f"{lead(state)}: break-out battle at {box} (one march spent)", ("HD-5.4", "HD-5.2"))


@actions
def march(state: GameState, dice: Dice, units: list | tuple, to: str, leaders: list | tuple = (),
          amphibious: bool = False) -> Step:
    """HD-5.2: one march moves units of one box; each unit uses at most 2 marches a turn. Leaders in the box
    may ride along at no march cost, each making one of his 2 march-moves (HD-5.7). A landing goes to a port;
    at a CSA recruitment port it must first beat the coastal garrison (HD-4.11)."""
    _segment(state, MOVEMENT, "HD-5.2")
    _marches_left(state)
    moving = _units(state, units, "HD-5.2")
    if not moving:
        raise RuleError("HD-5.2", "Name the units that march")
    to = _box(state, to, "The destination")
    amphibious = entries.flag(amphibious, "'amphibious'", "HD-4.11")
    origin = moving[0].box
    for u in moving:
        if u.side != state.side or u.status != ON_MAP:
            raise RuleError("HD-5.2", f"{u.name} is not a {SIDE_NAME[state.side]} unit on the map")
        if u.box != origin:
            raise RuleError("HD-5.2", "A march moves units from one box: "
                                      f"{u.name} is at {u.box}, not {origin}")
        if u.marches >= UNIT_MARCHES:
            raise RuleError("HD-5.2", f"{u.name} has used its {UNIT_MARCHES} marches this turn")
    refusal = movement.march_refusal(state, origin, to, amphibious)
    if refusal:
        raise refusal
    going = _leaders_along(state, leaders, origin)
    changed = {u.name: replace(u, box=to, entrenched=False, marches=u.marches + 1) for u in moving}
    new = state.with_units(changed).with_leaders({l.name: replace(l, box=to, moves=l.moves + 1) for l in going})
    landings = state.landings + ((to,) if amphibious and to not in state.landings else ())
    new = replace(new, marches_left=state.marches_left - 1, marched=True, landings=landings)
    new, lines = _finish(new)
    who = ", ".join(u.name for u in moving) + "".join(f" with {l.name}" for l in going)
    rules = ("HD-5.2", "HD-5.7") if going else ("HD-5.2",)
    how = " by landing" if amphibious else ""
    if to in movement.garrison_due(new):
        lines.insert(0, f"the coastal garrison of {to} must be beaten first")
        rules += ("HD-4.11",)
    left = f"{new.marches_left} march{'es' if new.marches_left != 1 else ''} left"
    return Step(new, f"{lead(state)}: {who} march {origin} → {to}{how} ({left}){_tail(lines)}", rules)


def _leaders_along(state: GameState, value: Any, origin: str):
    """HD-5.7: the leaders riding along from `origin`, each with a march-move left."""
    going = tuple(state.leader(n) for n in entries.names(value, "The leaders", "HD-5.7"))
    for leader in going:
        refusal = movement.leader_refusal(state, leader, alone=False)
        if refusal:
            raise refusal
        if leader.box != origin:
            raise RuleError("HD-5.7", f"{leader.name} is not with these units at {origin}")
    return going


@actions
def move_leader(state: GameState, dice: Dice, leader: str, to: str) -> Step:
    """HD-5.7 (A23): a leader moves alone, spending none of the player's marches; with his moves along with
    units, at most 2 march-moves a turn."""
    _segment(state, MOVEMENT, "HD-5.7")
    chief = state.leader(leader)
    refusal = movement.leader_refusal(state, chief, alone=True)
    if refusal:
        raise refusal
    to = _box(state, to, "The destination", "HD-5.7")
    if to not in movement.leader_destinations(state, chief):
        raise RuleError("HD-5.7", f"{chief.name} cannot move to {to}")
    new = state.with_leaders({chief.name: replace(chief, box=to, moves=chief.moves + 1)})
    new, lines = _finish(new)
    return Step(new, f"{lead(state)}: {chief.name} moves alone {chief.box} → {to}, no march spent "
                     f"(march-move {chief.moves + 1} of {LEADER_MARCH_MOVES}){_tail(lines)}", ("HD-5.7", "HD-A23"))


@actions
def entrench(state: GameState, dice: Dice, box: str) -> Step:
    """HD-5.5: units entrench by spending a normal march; not beside enemy units, except CSA units
    containing a Union landing (HD-5.4)."""
    _segment(state, MOVEMENT, "HD-5.5")
    box = _box(state, box)
    _marches_left(state, "HD-5.5")
    own = [u for u in state.units_in(box, state.side) if not u.entrenched and u.marches < UNIT_MARCHES]
    if not own:
        raise RuleError("HD-5.5", f"No {SIDE_NAME[state.side]} unit at {box} can entrench (none there, "
                                  "all entrenched, or all have used their marches)")
    rules = ["HD-5.5", "HD-5.2"]
    if state.units_in(box, other(state.side)):
        if not (state.side == CSA and box in state.contained):
            raise RuleError("HD-5.5", f"Enemy units are at {box}: units entrench there only when containing a "
                                      "Union landing (HD-5.4)")
        rules.append("HD-5.4")
    changed = {u.name: replace(u, entrenched=True, marches=u.marches + 1) for u in own}
    new = replace(state.with_units(changed), marches_left=state.marches_left - 1, marched=True)
    return Step(new, f"{lead(state)}: {', '.join(changed)} entrench at {box} (one march)", tuple(rules))


@actions
def declare_containment(state: GameState, dice: Dice, box: str) -> Step:
    """HD-5.4: CSA units in a port the Union took by landing (Fort Monroe and Pensacola count while the Union
    holds them) may contain it instead of giving battle."""
    _playing(state)
    if state.battle is not None or state.segment not in (MOVEMENT, BATTLE) or state.side != CSA:
        raise RuleError("HD-5.4", "Containment is declared by the CSA in its movement or battle segment")
    if not state.options["containment"]:
        raise RuleError("HD-5.4", "The containment rule is off in this game")
    box = _box(state, box)
    if not state.landed_port(box):
        raise RuleError("HD-5.4", f"{box} is not a port the Union took by landing (nor Fort Monroe or Pensacola "
                                  "held by the Union)")
    if box in state.contained:
        raise RuleError("HD-5.4", f"{box} is already contained")
    if not state.units_in(box, CSA) or not state.units_in(box, USA):
        raise RuleError("HD-5.4", f"Containment needs CSA units in {box} beside the Union landing")
    new = replace(state, contained=state.contained + (box,))
    return Step(new, f"{lead(state)}: the CSA contains the Union landing at {box}; the side that attacks there "
                     "will lose its own entrenchment (A20)", ("HD-5.4", "HD-A20"))


@actions
def end_movement(state: GameState, dice: Dice) -> Step:
    _segment(state, MOVEMENT)
    if state.marches_left is None:
        raise RuleError("HD-4.1" if state.options["command"] else "HD-5.2", "First roll for marches")
    return Step(replace(state, segment=BATTLE), f"{lead(state)}: battles", ("HD-3",))


# --- battles (HD-4.2 - HD-4.6, HD-4.10, HD-4.11, HD-5.6) ------------------------------------------

def _open_battle(state: GameState, box: str, amphibious: bool, breakout: bool) -> GameState:
    attacker = state.side
    garrison = movement.garrison_at(state, box) if amphibious else None
    sides = []
    for side in (attacker, other(attacker)):
        leaders = tuple(l.name for l in state.leaders_in(box, side)) if state.options["leaders"] else ()
        sides.append(BattleSide(side, tuple(u.name for u in state.units_in(box, side)), leaders,
                                garrison=garrison if side == CSA else None))
    fort = state.game_map.box(box).fort
    return replace(state, battle=Battle(box, tuple(sides), contained=box in state.contained,
                                        amphibious=amphibious, breakout=breakout,
                                        fort_holder=state.controller(box) if fort else ""))


@actions
def start_battle(state: GameState, dice: Dice, box: str, amphibious: bool | None = None) -> Step:
    """A battle where the phasing side's units meet the enemy. At a port where they landed this turn it is
    the landing's battle: a CSA recruitment port's coastal garrison defends, even with no CSA unit there
    (HD-4.11). `amphibious`, if given, must say which it is."""
    _segment(state, BATTLE)
    box = _box(state, box)
    landing = box in state.landings
    if amphibious is not None and entries.flag(amphibious, "'amphibious'", "HD-4.11") != landing:
        raise RuleError("HD-4.11", f"{SIDE_NAME[state.side]} units landed at {box} this turn: the battle there is "
                                   "the landing's" if landing else f"No units landed at {box} this turn: the "
                                   "battle there is no landing (a march overland meets no garrison)")
    if box == state.europe:
        raise RuleError("HD-3", "No battle is fought in Europe")
    if not state.units_in(box, state.side):
        raise RuleError("HD-3", f"No {SIDE_NAME[state.side]} unit is at {box}")
    new = _open_battle(state, box, landing, breakout=False)
    defender = new.battle.sides[1]
    if not defender.units and defender.garrison is None:
        raise RuleError("HD-3", f"There is no enemy to fight at {box}")
    new = replace(new, landings=tuple(b for b in state.landings if b != box))
    rules = ["HD-3"]
    extra = []
    if defender.garrison is not None:
        extra.append("the coastal garrison defends")
        rules.append("HD-4.11")
    if new.battle.contained:
        extra.append(f"{box} is contained: the {SIDE_NAME[state.side]} attacker leaves its entrenchment")
        rules += ["HD-5.4", "HD-A20"]
    text = f"{lead(state)}: battle at {box}, {SIDE_NAME[state.side]} attacking" + (" by landing" if landing else "")
    return Step(new, text + _tail(extra), tuple(rules))


def _battle(state: GameState, rule: str = "HD-3") -> Battle:
    _playing(state)
    if state.battle is None:
        raise RuleError(rule, "No battle is being fought")
    return state.battle


def _battle_side(state: GameState, value: Any, rule: str) -> BattleSide:
    side = entries.choice(value, SIDES, "The side", rule)
    return state.battle.of(side)


@actions
def reinforce(state: GameState, dice: Dice, side: str, units: list | tuple = (), leaders: list | tuple = ()) -> Step:
    """Units or leaders join the battle before a round's fire (the basic game's reinforcement); a leader's
    rating counts toward the day's command at once (HD-4.2). Joining is one of his 2 march-moves (HD-5.7)."""
    battle = _battle(state)
    bside = _battle_side(state, side, "HD-3")
    kind = fight.due(state).kind
    before_fire = kind == fight.FIRE and not any(s.fired for s in battle.sides)
    if kind not in (fight.COMMAND, fight.BETWEEN) and not before_fire:
        raise RuleError("HD-3", "Reinforcements join between rounds, before anyone fires")
    joining = _units(state, units, "HD-3")
    chiefs = tuple(state.leader(n) for n in entries.names(leaders, "The leaders", "HD-5.7"))
    if not joining and not chiefs:
        raise RuleError("HD-3", "Name the units or leaders that join")
    if chiefs and not state.options["leaders"]:
        raise RuleError("HD-5.7", "The leader rule is off in this game")
    for u in joining:
        if u.side != bside.side or u.status != ON_MAP or u.name in bside.units or u.box == state.europe:
            raise RuleError("HD-3", f"{u.name} cannot join the {SIDE_NAME[bside.side]} side of this battle")
    for chief in chiefs:
        refusal = movement.reinforce_refusal(state, bside.side, chief, joining)
        if refusal:
            raise refusal
    new = state.with_units({u.name: replace(u, box=battle.box, entrenched=False) for u in joining})
    new = new.with_leaders({c.name: replace(c, box=battle.box, moves=c.moves + 1) for c in chiefs})
    grown = replace(bside, units=bside.units + tuple(u.name for u in joining),
                    leaders=bside.leaders + tuple(c.name for c in chiefs))
    grown = fight.add_leader_to_command(new, grown, sum(c.rating for c in chiefs))
    new = replace(new, battle=battle.with_side(grown))
    names = ", ".join([u.name for u in joining] + [c.name for c in chiefs])
    rules = ("HD-3", "HD-4.2", "HD-5.7") if chiefs else ("HD-3",)
    return Step(new, f"{lead(state)}: {names} join the battle at {battle.box}", rules)


@actions
def rally(state: GameState, dice: Dice, side: str, unit: str) -> Step:
    """HD-4.5: before days 2, 3 ..., each side may restore one routed unit to ordinary reduced status."""
    battle = _battle(state, "HD-4.5")
    bside = _battle_side(state, side, "HD-4.5")
    if not state.options["morale"]:
        raise RuleError("HD-4.5", "The battlefield morale rules are off in this game")
    if not fight.rally_open(state, bside.side):
        raise RuleError("HD-4.5", "A side rallies one routed unit after every 4th round, before the next day's "
                                  "first fire")
    result = resolve_rally(RallyInput(bside.routed, entries.text(unit, "The unit", "HD-4.5")), dice)
    restored = replace(bside, routed=tuple(n for n in bside.routed if n != result.outcome), rallied=battle.day)
    return Step(replace(state, battle=battle.with_side(restored)), f"{lead(state)}: {result.summary}",
                result.rules, (result,))


def command_input(state: GameState, bside: BattleSide) -> CommandInput:
    """HD-4.2 for the side's next command roll: from the second day on, what the day before passes on."""
    return CommandInput(state.year, bside.side, fight.leaders_rating(state, bside),
                        bside.carried if state.battle.command_day else None, state.options["carry"],
                        state.options["leader_carry"])


@actions
def battle_command(state: GameState, dice: Dice) -> Step:
    """HD-4.2: at the start of each battle day each side rolls on the Command Table; from day 2 half the
    previous day's command (rounded up) is added; leaders add their rating. The attacker's die first."""
    battle = _battle(state, "HD-4.2")
    if fight.due(state).kind != fight.COMMAND:
        raise RuleError("HD-4.2", "Battle command is rolled at the start of each battle day")
    results, sides = [], []
    for bside in battle.sides:
        result = resolve_battle_command(command_input(state, bside), dice)
        results.append(result)
        sides.append(replace(bside, command=result.outcome, carried=result.details["passes_on"]))
    new = replace(state, battle=replace(battle, sides=tuple(sides), command_day=battle.day))
    text = f"{lead(state)}: day {battle.day} at {battle.box}: " + "; ".join(r.summary for r in results)
    return Step(new, text, ("HD-4.2", "HD-5.6"), tuple(results))


def firing_units(state: GameState, side: Any, units: Any, rule: str = "HD-4.10") -> tuple[BattleSide, tuple[str, ...]]:
    """Who fires: the side whose turn it is, with at most its firing limit of units able to fire (HD-5.6)."""
    battle = _battle(state, rule)
    step = fight.due(state)
    if step.kind == fight.COMMAND:
        raise RuleError("HD-4.2", f"First the battle command of day {battle.day}")
    if side in ("", None):
        if step.kind != fight.FIRE:
            raise RuleError(rule, "Nobody fires now")
        side = step.side
    bside = _battle_side(state, side, rule)
    if not fight.may_fire(state, bside.side):
        raise RuleError(rule, f"It is not the {SIDE_NAME[bside.side]} side's turn to fire")
    able = fight.shooters(state, bside)
    cap = fight.limit(state, battle, bside.side)
    if units is None:
        if len(able) > cap:
            raise RuleError("HD-5.6", f"Choose at most {cap} of the {len(able)} units that can fire")
        return bside, tuple(able)
    named = entries.names(units, "The firing units", rule)
    for name in named:
        if name not in able:
            raise RuleError("HD-5.6", f"{quote(name)} cannot fire: routed, eliminated or not in this battle")
    if len(named) > cap:
        raise RuleError("HD-5.6", f"At most {cap} {SIDE_NAME[bside.side]} units fire each round (firing limit)")
    return bside, named


def shots(state: GameState, bside: BattleSide, firing: tuple[str, ...], bonus: dict[str, int],
          penalty: int) -> tuple[Shot, ...]:
    """Each firing unit's number from the players' basic rules (HD-4.10; RuleError while unconfigured),
    with its leader points (HD-4.3) and the entrenchment penalty."""
    basic = state.basic
    shots = []
    for name in firing:
        if name == GARRISON:
            strength = basic.of(INF, basic.garrison_as, FULL if not bside.garrison else REDUCED)
        else:
            u = state.unit(name)
            strength = basic.of(u.arm, u.grade, u.face)
        shots.append(Shot(name, strength, bonus.get(name, 0), penalty, basic.leader_point))
    return tuple(shots)


def fire_input(state: GameState, side: Any = "", units: Any = None, bonus: Any = None) -> tuple[BattleSide, FireInput]:
    """The fire a side would make now: who fires (HD-5.6), the leader split (HD-4.3, A22), each unit's number
    (HD-4.10), and what the fire meets: entrenched units, open ones, or both (the garrison is always
    entrenched, HD-4.11). RuleError while the basic rules are unconfigured, or if the fire is not allowed."""
    bside, firing = firing_units(state, side, units)
    points = {k: entries.whole(v, f"Leader points on {k}", "HD-4.3", 0)
              for k, v in entries.mapping(bonus or {}, "The leader points", "HD-4.3").items()}
    if any(points.values()) and not state.options["leaders"]:
        raise RuleError("HD-4.3", "The leader rule is off in this game")
    check_split(fight.leaders_rating(state, bside), points, firing, fight.split_cap(state, bside))
    basic = require_filled(state.basic)
    cover = fight.cover(state, state.battle, other(bside.side))
    penalty = int(basic.entrenchment == "threshold" and cover != fight.OPEN)
    return bside, FireInput(shots(state, bside, firing, points, penalty), bool(penalty) and cover == fight.MIXED)


@actions
def fire(state: GameState, dice: Dice, side: str = "", units: list | tuple | None = None,
         bonus: dict | None = None) -> Step:
    """HD-4.10 with the players' basic numbers: each firing unit (at most the firing limit, HD-5.6) rolls a
    d6 and hits at or under its strength, plus the leader points put on it (HD-4.3)."""
    bside, inputs = fire_input(state, side, units, bonus)
    result = resolve_fire(inputs, dice, f"{SIDE_NAME[bside.side]} fire, round {state.battle.round}")
    garrison = inputs.open_targets and fight.garrison_present(state.battle.of(other(bside.side)))
    rules = result.rules + ("HD-5.6",) + (("HD-4.11",) if garrison else ())
    return _fired(state, bside, result.outcome, result.summary, rules, (result,), result.details["open_only"])


@actions
def record_fire(state: GameState, dice: Dice, side: str, units: list | tuple, hits: int) -> Step:
    """HD-4.10 resolved at the table by the players' own basic rules: which units fired (at most the firing
    limit, HD-5.6) and the hits they scored (at most one each)."""
    bside, firing = firing_units(state, side, units)
    hits = entries.whole(hits, "The hits scored", "HD-4.10", 0, len(firing))
    text = (f"{SIDE_NAME[bside.side]} fire, round {state.battle.round}: {len(firing)} unit"
            f"{'s' if len(firing) != 1 else ''} fired, {hits} hit{'s' if hits != 1 else ''} (entered)")
    return _fired(state, bside, hits, text, ("HD-4.10", "HD-5.6"), ())


def _fired(state: GameState, bside: BattleSide, hits: int, text: str, rules, results, open_only: int = 0) -> Step:
    battle = state.battle
    target = battle.of(other(bside.side))
    battle = battle.with_side(replace(bside, fired=True)).with_side(replace(target, hits_due=hits,
                                                                            open_only=open_only))
    return _after(state, fight.settle(replace(state, battle=battle)), text, rules, results)


@actions
def take_hits(state: GameState, dice: Dice, side: str = "", units: list | tuple | None = None) -> Step:
    """HD-4.10: the side hit names a unit for each hit: the first hit flips a unit, the second eliminates it;
    the garrison goes at its second hit (HD-4.11). Routed units take none (A7). A hit scored only against
    unentrenched units goes on one of them (HD-4.11). Hits beyond what the side can take are lost."""
    battle = _battle(state, "HD-4.10")
    step = fight.due(state)
    if step.kind != fight.HITS:
        raise RuleError("HD-4.10", "No hits are waiting to be placed")
    bside = battle.of(step.side) if side in ("", None) else _battle_side(state, side, "HD-4.10")
    either = fight.firing_order(state.basic) == "simultaneous" and bside.hits_due
    if bside.side != step.side and not either:
        raise RuleError("HD-4.10", f"First the {SIDE_NAME[step.side]} side places its hits")
    room = fight.capacity(state, bside)
    needed = fight.placeable(state, bside)
    dug = {n for n in room if fight.dug_in(state, battle, bside.side, n)}
    sure = bside.hits_due - bside.open_only
    eligible = [n for n in room if sure or n not in dug]
    if units is None:
        if needed == sum(room.values()):
            targets = tuple(n for n, r in room.items() for _ in range(r))
        elif len(eligible) == 1:
            targets = (eligible[0],) * needed
        else:
            raise RuleError("HD-4.10", f"Name a unit for each of the {needed} hits on the {SIDE_NAME[bside.side]} side")
    else:
        targets = entries.names(units, "The units hit", "HD-4.10", unique=False)
    if len(targets) != needed:
        raise RuleError("HD-4.10", f"{needed} hit{'s' if needed != 1 else ''} to place, {len(targets)} named")
    for name in set(targets):
        if name not in room:
            rule = "HD-A7" if name in bside.routed else "HD-4.10"
            raise RuleError(rule, f"{quote(name)} cannot take hits (routed, eliminated or not on this side)")
        if targets.count(name) > room[name]:
            raise RuleError("HD-4.10", f"{name} can take only {room[name]} more hit{'s' if room[name] != 1 else ''}")
    if sum(1 for n in targets if n in dug) > sure:
        raise RuleError("HD-4.11" if GARRISON in targets else "HD-4.10",
                        f"Only {sure} of the hits can fall on entrenched units (the garrison always is); the others "
                        "hit unentrenched units only")
    new, lines = fight.place_hits(state, bside.side, targets)
    new = fight.settle(new)
    rules = ("HD-4.10", "HD-4.11") if GARRISON in targets else ("HD-4.10",)
    return _after(state, new, f"{SIDE_NAME[bside.side]} hits: " + (", ".join(lines) or "none"), rules)


def _after(before: GameState, state: GameState, text: str, rules, results=()) -> Step:
    """A battle step's Step; when the battle has closed, its consequences (captures, intervention)."""
    rules = list(rules)
    if state.battle is None and before.battle is not None:
        state, lines, more = _closed(state)
        text += _tail(lines)
        rules += more
    return Step(state, f"{lead(before)}: {text}", tuple(dict.fromkeys(rules)), tuple(results))


def _closed(state: GameState) -> tuple[GameState, list[str], list[str]]:
    """A battle has just closed: the FI trigger (HD-5.9) and captured leaders (HD-5.7)."""
    record = state.battles[-1]
    lines = [f"the battle at {record.box} is over: " +
             (f"{SIDE_NAME[record.winner]} victory" if record.winner else "neither side stands")]
    rules = []
    if state.side == CSA and record.winner == CSA and state.fi_snapshot and not state.fi_triggered \
            and state.options["intervention"] and state.options["fi_trigger"] == "battle":
        state = intervene(state)
        lines.append("a CSA battle win with the FI conditions met: foreign intervention")
        rules += ["HD-5.9", "HD-A21"]
    state, captured = _finish(state)
    return state, lines + captured, rules + (["HD-5.7"] if captured else [])


@actions
def morale_checks(state: GameState, dice: Dice) -> Step:
    """HD-4.4: each unit flipped this round by enemy fire rolls; greater than its morale, it routs
    (-1 in a fort or entrenched, A24). The coastal garrison checks as one unit, always entrenched (A13)."""
    battle = _battle(state, "HD-4.4")
    step = fight.due(state)
    if step.kind != fight.MORALE:
        raise RuleError("HD-4.4", "No morale check is due now")
    sides = [battle.of(step.side)] if step.side else list(battle.sides)
    inputs = MoraleInput(tuple(fight.morale_checks_due(state, sides)))
    result = resolve_morale(inputs, dice)
    routs = {c.unit for c, gone in zip(inputs.checks, result.outcome) if gone}
    for bside in sides:
        mine = fight.morale_due(state, bside)
        battle = battle.with_side(replace(bside, checked=bside.checked + tuple(mine),
                                          routed=bside.routed + tuple(n for n in mine if n in routs)))
    new = fight.settle(replace(state, battle=battle))
    return _after(state, new, result.summary, result.rules, (result,))


@actions
def next_round(state: GameState, dice: Dice) -> Step:
    battle = _battle(state)
    if battle.over or fight.due(state).kind != fight.BETWEEN:
        raise RuleError("HD-3", "The round is not finished")
    new = fight.next_round(state)
    day = " (a new day: rally, then battle command)" if new.battle.day > battle.day else ""
    return Step(new, f"{lead(state)}: round {new.battle.round} at {battle.box}{day}", ("HD-3",))


@actions
def retreat(state: GameState, dice: Dice, side: str, to: str) -> Step:
    """A side may retreat after a round (basic game), to a box the enemy neither holds nor stands in: it loses
    the battle. A standing coastal garrison never retreats (HD-4.11): the CSA units withdraw and it fights on
    alone."""
    battle = _battle(state)
    bside = _battle_side(state, side, "HD-3")
    if battle.over or fight.due(state).kind != fight.BETWEEN:
        raise RuleError("HD-3", "A side retreats at the end of a round")
    to = _box(state, to, "Where the side retreats")
    refusal = movement.retreat_refusal(state, bside.side, to)
    if refusal:
        raise refusal
    going = [u for u in (state.unit(n) for n in bside.units)
             if u.status == ON_MAP and u.box == battle.box and u.name not in bside.withdrawn]
    new = state.with_units({u.name: replace(u, box=to, entrenched=False) for u in going})
    new = new.with_leaders({n: replace(new.leader(n), box=to) for n in bside.leaders
                            if new.leader(n).status == ON_MAP})
    names = ", ".join(u.name for u in going) or "no unit"
    if fight.garrison_stands(bside):
        if not going:
            raise RuleError("HD-4.11", "The coastal garrison never retreats: it fights on until it falls")
        withdrawn = replace(bside, withdrawn=bside.withdrawn + tuple(u.name for u in going), leaders=())
        new = fight.settle(replace(new, battle=battle.with_side(withdrawn)))
        return _after(state, new, f"{names} withdraw to {to}; the garrison fights on alone", ("HD-3", "HD-4.11"))
    new = fight.end(new, other(bside.side))
    return _after(state, new, f"{SIDE_NAME[bside.side]} retreats to {to} ({names})", ("HD-3",))


def desertion_inputs_of(state: GameState) -> tuple[list[Unit], DesertionInput]:
    """HD-4.6 for the battle just decided: the units that check and their modifiers."""
    battle = state.battle
    checking = fight.desertion_due(state, battle)
    steady = state.options["morale"] or state.options["steady_without_morale"] == "all"
    checks = []
    for u in checking:
        bside = battle.of(u.side)
        ratings = [state.leader(n).rating for n in bside.leaders] if state.options["leaders"] else []
        leaders = (sum(ratings) if state.options["desertion_leaders"] == "sum" else max(ratings)) if ratings else 0
        checks.append(DesertionCheck(u.name, u.grade, fight.morale_year(state, u),
                                     bool(battle.winner) and u.side != battle.winner, u.name in bside.routed, leaders,
                                     steady))
    return checking, DesertionInput(tuple(checks))


@actions
def desertion_checks(state: GameState, dice: Dice) -> Step:
    """HD-4.6: after the battle every reduced unit that took part rolls; greater than its morale, it is
    eliminated (+1 lost, -1 not routed, - the friendly leaders' rating)."""
    battle = _battle(state, "HD-4.6")
    if not battle.over:
        raise RuleError("HD-4.6", "Desertion is checked after the battle")
    checking, inputs = desertion_inputs_of(state)
    result = resolve_desertion(inputs, dice)
    gone = {u.name: replace(u, status=ELIMINATED) for u, lost in zip(checking, result.outcome) if lost}
    new = fight.close(state.with_units(gone))
    return _after(state, new, result.summary, result.rules, (result,))


@actions
def end_battles(state: GameState, dice: Dice) -> Step:
    """The battle segment ends once every landing at a garrisoned port has fought its battle (HD-4.11)."""
    _segment(state, BATTLE)
    due = movement.garrison_due(state)
    if due:
        raise RuleError("HD-4.11", f"The landing at {', '.join(due)} must first beat the coastal garrison: "
                                   "fight that battle")
    return Step(replace(state, segment=PROMOTION), f"{lead(state)}: promotion", ("HD-3",))


# --- promotion (HD-5.3) and recruitment (HD-4.9, HD-5.7) ----------------------------------------------

@actions
def promote(state: GameState, dice: Dice, unit: str) -> Step:
    """HD-5.3: each battle's winner promotes one participant (militia -> veteran -> crack); not for beating
    only a garrison; FI units are never promoted (HD-5.9)."""
    _segment(state, PROMOTION, "HD-5.3")
    u = state.unit(unit)
    if u.foreign:
        raise RuleError("HD-5.9", f"{u.name} is an FI unit: FI units are never promoted")
    if u.status != ON_MAP:
        raise RuleError("HD-5.3", f"{u.name} is not on the map")
    won = [i for i, r in enumerate(state.battles) if r.winner == u.side and u.name in r.survivors and not r.promoted]
    if not won:
        raise RuleError("HD-5.3", f"{u.name} did not take part in a won battle this turn that still has its promotion")
    usable = [i for i in won if not state.battles[i].garrison_only]
    if not usable:
        raise RuleError("HD-5.3", "No promotion for beating only a coastal garrison")
    if u.grade == GRADES[-1]:
        raise RuleError("HD-5.3", f"{u.name} is already crack")
    grade = GRADES[GRADES.index(u.grade) + 1]
    records = list(state.battles)
    records[usable[0]] = replace(records[usable[0]], promoted=u.name)
    new = replace(state.with_units({u.name: replace(u, grade=grade)}), battles=tuple(records))
    return Step(new, f"{lead(state)}: {u.name} is promoted to {grade}", ("HD-5.3",))


@actions
def end_promotion(state: GameState, dice: Dice) -> Step:
    """To recruitment, where the side's captured leaders return (HD-5.7)."""
    _segment(state, PROMOTION)
    back = {l.name: replace(l, status=WAITING) for l in state.leaders if l.side == state.side and l.status == CAPTURED}
    new = replace(state.with_leaders(back), segment=RECRUITMENT)
    text = f"; {', '.join(back)} return{'s' if len(back) == 1 else ''} from captivity" if back else ""
    return Step(new, f"{lead(state)}: recruitment{text}", ("HD-3", "HD-5.7") if back else ("HD-3",))


def fi_eliminated(state: GameState) -> list[Unit]:
    return [u for u in state.units if u.foreign and u.status == ELIMINATED]


@actions
def fi_return_rolls(state: GameState, dice: Dice) -> Step:
    """HD-4.9: in each CSA recruitment segment, a roll for each eliminated FI unit; 5-6 puts it in Europe."""
    _segment(state, RECRUITMENT, "HD-4.9")
    gone = fi_eliminated(state)
    if state.side != CSA or not gone or state.fi_return_rolled:
        raise RuleError("HD-4.9", "FI return rolls are made once in each CSA recruitment segment, for eliminated "
                                  "FI units")
    result = resolve_fi_return(ReturnInput(len(gone)), dice)
    back = {u.name: replace(u, status=ON_MAP, box=state.europe, face=FULL, entrenched=False)
            for u, ok in zip(gone, result.details["returned"]) if ok}
    new = replace(state.with_units(back), fi_return_rolled=True)
    return Step(new, f"{lead(state)}: {result.summary}", result.rules, (result,))


@actions
def add_unit(state: GameState, dice: Dice, name: str, arm: str, box: str, grade: str = MILITIA,
             border_state: bool = False) -> Step:
    """Recruitment (basic game): the phasing side puts a new unit on the map; a border-state militia comes
    from the CSA pool (HD-4.8)."""
    _segment(state, RECRUITMENT)
    name = entries.text(name, "The unit's name", "HD-2")
    if name == GARRISON or any(u.name == name for u in state.units):
        raise RuleError("HD-2", f"The name {quote(name)} is taken")
    arm = entries.choice(arm, ARMS, "The arm", "HD-2")
    grade = entries.choice(grade, GRADES, "The grade", "HD-2")
    box = _box(state, box)
    if box == state.europe:
        raise RuleError("HD-5.9", "Only FI units are in Europe")
    border_state = entries.flag(border_state, "'border_state'", "HD-4.8")
    pool = state.border_pool
    if border_state:
        if state.side != CSA or pool < 1:
            raise RuleError("HD-4.8", "No border-state militia waits in the CSA recruitment pool")
        if grade != MILITIA:
            raise RuleError("HD-4.8", "A border-state unit joins as militia")
        pool -= 1
    unit = Unit(name, state.side, arm, grade, box=box, border_state=border_state, raised=state.year)
    new = replace(state, units=state.units + (unit,), border_pool=pool)
    new, lines = _finish(new)
    return Step(new, f"{lead(state)}: {name} ({grade} {arm}) recruited at {box}{_tail(lines)}",
                ("HD-3", "HD-4.8") if border_state else ("HD-3",))


@actions
def end_player_turn(state: GameState, dice: Dice, year: int | None = None) -> Step:
    """The Union player turn hands over to the CSA; after the CSA's, the next game turn (its year from the
    calendar, or as the players give it). After turn 40 the game ends (HD-6.2)."""
    _segment(state, RECRUITMENT)
    if state.side == CSA and fi_eliminated(state) and state.options["intervention"] and not state.fi_return_rolled:
        raise RuleError("HD-4.9", "First the return rolls for eliminated FI units")
    units = tuple(replace(u, marches=0) for u in state.units)
    leaders = tuple(replace(l, moves=0) for l in state.leaders)
    common = dict(units=units, leaders=leaders, segment=START, marches_left=None, march_die=0, marched=False,
                  supply_checked=False, supply_due=(), foraged=(), broken_out=(), landings=(), border_rolled=(), battles=(),
                  fi_return_rolled=False, fi_snapshot=None)
    if state.side == USA:
        if year is not None:
            raise RuleError("HD-3", "The year changes only at the end of a game turn")
        new = replace(state, side=CSA, **common)
        return Step(new, f"{lead(state)} ends; the CSA player turn begins", ("HD-3",))
    if state.turn == TURNS:
        return Step(replace(state, victory=victory.after_last_turn(state)), f"{lead(state)} ends: "
                    f"{victory.after_last_turn(state).result}", ("HD-6.2",))
    turn = state.turn + 1
    if turn <= len(state.calendar):
        new_year = year_of(state.calendar[turn - 1])
        if year is not None and year != new_year:
            raise RuleError("HD-3", f"The calendar puts turn {turn} in {new_year}")
    else:
        new_year = state.year if year is None else entries.whole(year, "The year", "HD-3", state.year,
                                                                   min(state.year + 1, YEARS[-1]))
    new = replace(state, side=USA, turn=turn, year=new_year, **common)
    return Step(new, f"{lead(state)} ends; {new.turn_label} begins", ("HD-3",))


# --- at any time: control (HD-4.7, HD-5.10), MM (HD-6.3), the basic-rules form, leaders --------------------

@actions
def set_control(state: GameState, dice: Dice, box: str, side: str) -> Step:
    """A box changes hands (as the players' map shows). A CSA capture of Washington costs the Union MM at
    once (HD-4.7, every capture: HD-5.10; not a win, HD-6.1); a Union recapture gives back 1 MM."""
    _playing(state)
    box = _box(state, box)
    side = entries.choice(side, (*SIDES, ""), "The new controller", "HD-8")
    if box == state.europe:
        raise RuleError("HD-8", "Europe is no one's to control")
    if state.controller(box) == side:
        raise RuleError("HD-8", f"{box} is already {'held by ' + SIDE_NAME[side] if side else 'uncontrolled'}")
    if side == USA and box in movement.garrison_due(state):
        raise RuleError("HD-4.11", f"{box} is not taken by a landing until its coastal garrison is beaten")
    control = {**state.control, box: side} if side else {b: s for b, s in state.control.items() if b != box}
    new = replace(state, control=control)
    text, rules = f"{box} now {'held by ' + SIDE_NAME[side] if side else 'uncontrolled'}", ["HD-8"]
    if box == state.game_map.role(WASHINGTON) and state.options["washington"]:
        if side == CSA:
            new = replace(new, washington_due=True)
            text += ": not a CSA win (HD-6.1); roll the Union MM loss at once"
            rules += ["HD-4.7", "HD-5.10", "HD-6.1"]
        elif side == USA and state.controller(box) == CSA:
            new = replace(new, mm_usa=new.mm_usa + WASHINGTON_RECAPTURE)
            text += f": recaptured, Union MM +{WASHINGTON_RECAPTURE} ({state.mm_usa} -> {new.mm_usa})"
            rules += ["HD-4.7", "HD-6.3"]
    new, lines = _victory(new, text)
    return Step(new, f"{lead(state)}: {lines}", tuple(rules) + (("HD-6.2",) if new.victory else ()))


def _victory(state: GameState, text: str) -> tuple[GameState, str]:
    checked = victory.check(state)
    return checked, text + (f"; {checked.victory.result}" if checked.victory else "")


@actions
def washington_loss(state: GameState, dice: Dice) -> Step:
    """HD-4.7: the Union MM falls by a d6 (a 1 counts as 2); A9 says whether the normal 1-point loss adds."""
    if state.victory:
        raise RuleError(state.victory.rule, f"The game is over: {state.victory.result}")
    if not state.washington_due:
        raise RuleError("HD-4.7", "The Union MM loss is rolled when the CSA takes Washington")
    result = resolve_washington(WashingtonInput(state.mm_usa, state.options["washington_loss"]), dice)
    new = replace(state, mm_usa=result.details["mm_after"], washington_due=False)
    new, text = _victory(new, result.summary)
    rules = result.rules + ("HD-A9", "HD-6.3") + (("HD-6.2",) if new.victory else ())
    return Step(new, f"{lead(state)}: {text}", rules, (result,))


@actions
def adjust_mm(state: GameState, dice: Dice, side: str, change: int, reason: str = "") -> Step:
    """An MM change from the basic rules (recruitment, captured cities): the players' arithmetic. Victory
    is re-checked after it (HD-6.3)."""
    _playing(state)
    side = entries.choice(side, SIDES, "The side", "HD-6.3")
    change = entries.whole(change, "The MM change", "HD-6.3")
    if not isinstance(reason, str):
        raise RuleError("HD-6.3", "The reason is text")
    after = state.mm(side) + change
    if change == 0 or after < 0 or (state.mm_track is not None and after > state.mm_track):
        raise RuleError("HD-6.3", f"{side} MM {state.mm(side)} {change:+d} = {after} is not on the track")
    new = replace(state, **{"mm_usa" if side == USA else "mm_csa": after})
    why = f" ({reason.strip()})" if reason.strip() else ""
    new, text = _victory(new, f"{side} MM {state.mm(side)} -> {after}{why}")
    return Step(new, f"{lead(state)}: {text}", ("HD-6.3", "HD-6.2") if new.victory else ("HD-6.3",))


@actions
def configure_basic_rules(state: GameState, dice: Dice, settings: dict) -> Step:
    """HD-4.10: the basic-rules form, filled or corrected from the players' rulebook (not in mid-round)."""
    _playing(state)
    if state.battle is not None and (any(s.fired or s.hits_due for s in state.battle.sides) or
                                     fight.due(state).kind == fight.MORALE):
        raise RuleError("HD-4.10", "Change the basic rules between rounds")
    basic = basic_rules_from(settings)
    gaps = basic.missing()
    text = "basic rules entered" + (f" (still missing: {', '.join(gaps)})" if gaps else ": fire can be resolved")
    return Step(replace(state, basic=basic), f"{lead(state)}: {text}", ("HD-4.10",))


@actions
def place_leader(state: GameState, dice: Dice, leader: str, box: str) -> Step:
    """HD-5.7: a leader enters (at his counter's date) or comes back from captivity, in his side's turn."""
    _playing(state)
    chief = state.leader(leader)
    if not state.options["leaders"]:
        raise RuleError("HD-5.7", "The leader rule is off in this game")
    if state.battle is not None or chief.side != state.side or chief.status != WAITING:
        raise RuleError("HD-5.7", f"{chief.name} enters in his own side's turn, outside a battle, when off the map")
    box = _box(state, box, "The box", "HD-5.7")
    if box == state.europe:
        raise RuleError("HD-5.7", "A leader does not go to Europe")
    new = state.with_leaders({chief.name: replace(chief, box=box, status=ON_MAP)})
    new, lines = _finish(new)
    return Step(new, f"{lead(state)}: {chief.name} (rating {chief.rating}) at {box}{_tail(lines)}", ("HD-5.7",))


@actions
def flip_leader(state: GameState, dice: Dice, leader: str) -> Step:
    """HD-5.7: the dated face change (Lee's rating falls after Jackson's death; Grant's and Sherman's rise)."""
    _playing(state)
    chief = state.leader(leader)
    if state.battle is not None:
        raise RuleError("HD-5.7", "Turn a leader's counter outside a battle")
    if chief.face == BACK or chief.back is None:
        raise RuleError("HD-5.7", f"{chief.name} has no back face to turn to" if chief.back is None else
                                  f"{chief.name} already shows his back face")
    new = state.with_leaders({chief.name: replace(chief, face=BACK)})
    return Step(new, f"{lead(state)}: {chief.name}'s counter turns: rating {chief.rating} -> {chief.back}",
                ("HD-5.7",))
