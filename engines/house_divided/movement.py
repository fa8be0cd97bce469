"""The movement segment (HD-4.1, HD-5.2, HD-5.4, HD-5.5, HD-5.7, HD-5.9, HD-4.11): what may move where now, as
the choices of the movement actions, and the actions.

- A march moves units of one box of the phasing side, each with a march left (2 a turn, HD-5.2), to another
  box of the map (the basic game's routes are the players'). Contained Union units first break out (HD-5.4);
  units that landed at a garrisoned port first beat the garrison (HD-4.11). A landing goes to a port, the
  CSA's only after foreign intervention (HD-5.9). Nobody marches to Europe; FI units leave it only by CSA
  sea movement, to a port (HD-5.9).
- A leader makes at most 2 march-moves a turn in all, riding along with units, alone (A23 (a)) or joining a
  battle; none of them costs the player a march (HD-5.7).
"""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Choice, Pick, number, one_of, some_of, yes_no

from . import battle as fight
from .actions import actions, finish, in_segment, lead, near_first, offer, phasing, playing, requires, tail
from .command import MarchInput, naval_trigger, resolve_marches
from .garrison import defends
from .rules import CSA, GARRISON_HITS, LEADER_MARCH_MOVES, MAX_MARCHES, SIDE_NAME, UNIT_MARCHES, USA
from .state import BATTLE, MOVEMENT, ON_MAP, GameState, Leader, Unit, other

# --- what may move where --------------------------------------------------------------------------------


def origin_refusal(state: GameState, origin: str) -> RuleError | None:
    """Why units of the phasing side at `origin` may not march away now (None: they may)."""
    if origin in state.contained and state.side == USA and origin not in state.broken_out:
        return RuleError("HD-5.4", f"The Union units at {origin} are contained: win a break-out battle first")
    if origin in garrison_due(state):
        return RuleError("HD-4.11", f"The units that landed at {origin} must first beat the coastal garrison")
    return None


def march_refusal(state: GameState, origin: str, to: str, amphibious: bool = False) -> RuleError | None:
    """Why units of the phasing side at `origin` may not march to `to` now (None: they may)."""
    refusal = origin_refusal(state, origin)
    if refusal:
        return refusal
    if to == origin:
        return RuleError("HD-5.2", f"The units are already at {to}")
    if to == state.europe:
        return RuleError("HD-5.9", "Nobody marches to Europe: FI units are placed there and leave it by sea")
    port = state.game_map.box(to).port
    if origin == state.europe and not port:
        return RuleError("HD-5.9", f"FI units reach America only by CSA sea movement: to a port, not {to}")
    if amphibious and not port:
        return RuleError("HD-4.11", f"A landing is made at a port; {to} is not one")
    if amphibious and state.side == CSA and not state.fi_triggered:
        return RuleError("HD-5.9", "The CSA makes landings only after foreign intervention")
    return None


def march_destinations(state: GameState, origin: str) -> list[str]:
    """The boxes units at `origin` may march to now (overland; a landing also needs a port)."""
    return [b.id for b in state.game_map.boxes if march_refusal(state, origin, b.id) is None]


def unit_refusal(state: GameState, unit: Unit) -> RuleError | None:
    """Why this unit of the phasing side may not march now (None: it may)."""
    if unit.marches >= UNIT_MARCHES:
        return RuleError("HD-5.2", f"{unit.name} has used its {UNIT_MARCHES} marches this turn")
    refusal = origin_refusal(state, unit.box)
    if refusal:
        return refusal
    if not march_destinations(state, unit.box):
        return RuleError("HD-5.2", f"There is no box to march to from {unit.box}")
    return None


def garrison_at(state: GameState, box: str) -> int | None:
    """The coastal garrison a landing of the phasing side at `box` meets: its hits so far (0, or what stays on
    the port under A13 "persistent"), or None when there is none (HD-4.11)."""
    if state.side != USA or not state.options["coastal_defence"] or \
            not defends(state.game_map.box(box), state.controller(box)):
        return None
    hits = state.garrison_hits.get(box, 0) if state.options["garrison_persistence"] == "persistent" else 0
    return hits if hits < GARRISON_HITS else None


def garrison_due(state: GameState) -> tuple[str, ...]:
    """The ports where Union units landed this turn, stand, and must first beat the coastal garrison (HD-4.11)."""
    return tuple(b for b in state.landings if garrison_at(state, b) is not None and state.units_in(b, state.side))


def leader_refusal(state: GameState, chief: Leader, alone: bool, side: str = "") -> RuleError | None:
    """Why the leader may not make a march-move now for his side (the phasing side unless named), with units
    (alone=False) or alone (None: he may)."""
    side = side or state.side
    if not state.options["leaders"]:
        return RuleError("HD-5.7", "The leader rule is off in this game")
    if alone and state.options["leader_moves"] != "alone":
        return RuleError("HD-A23", "Leaders move only with units in this game (option A23)")
    if chief.side != side or chief.status != ON_MAP:
        return RuleError("HD-5.7", f"{chief.name} is not a {SIDE_NAME[side]} leader on the map")
    if chief.moves >= LEADER_MARCH_MOVES:
        return RuleError("HD-5.7", f"{chief.name} has made his {LEADER_MARCH_MOVES} march-moves this turn, "
                                   "with units or alone")
    return None


def leader_destinations(state: GameState, chief: Leader) -> list[str]:
    return [b.id for b in state.game_map.boxes if b.id not in (chief.box, state.europe)]


def reinforce_refusal(state: GameState, side: str, chief: Leader, joining) -> RuleError | None:
    """Why the leader may not join the battle under way on `side`, with these units (None: he may). Joining
    is a march-move, alone (A23) unless units from his box join with him."""
    if chief.side != side or chief.name in state.battle.of(side).leaders:
        return RuleError("HD-5.7", f"{chief.name} cannot join the {SIDE_NAME[side]} side of this battle")
    alone = not any(state.unit(n).box == chief.box for n in joining)
    return leader_refusal(state, chief, alone, side)


# --- HD-4.1, HD-5.2: the marches of the turn -----------------------------------------------------------------

def _unset(state: GameState) -> None:
    if state.marches_left is not None:
        raise RuleError("HD-4.1" if state.options["command"] else "HD-5.2", "The marches of this turn are set")


def _marches_set(state: GameState) -> None:
    if state.marches_left is None:
        raise RuleError("HD-4.1" if state.options["command"] else "HD-5.2", "First roll for marches")


def marches_left(rule: str):
    """A `when` condition: the marches are set and one is left."""
    def check(state: GameState) -> None:
        _marches_set(state)
        if state.marches_left < 1:
            raise RuleError(rule, "No marches are left this turn")
    return check


def _table_on(state: GameState) -> None:
    if not state.options["command"]:
        raise RuleError("HD-4.1", "The Command Table is off: enter the marches your basic rules give")


def _table_off(state: GameState) -> None:
    if state.options["command"]:
        raise RuleError("HD-4.1", "With the Command Table on, the marches are rolled on it")


@actions("Roll for marches", "HD-4.1", when=in_segment(MOVEMENT, "HD-4.1", _table_on, _unset))
def roll_marches(state: GameState, dice: Dice) -> Step:
    """HD-4.1: the marches of this player turn from the Command Table; the raw die is kept (A16)."""
    result = resolve_marches(MarchInput(state.year, state.side), dice)
    die = result.details["face"]
    text = result.summary
    rules = ("HD-4.1", "HD-5.2")
    if naval_trigger(state.side, die, result.outcome, state.options["march_trigger"]):
        text += "; a 6: the basic game's Union naval invasion"
        rules += ("HD-A16",)
    new = replace(state, marches_left=result.outcome, march_die=die)
    return Step(new, f"{lead(state)}: {text}", rules, (result,))


@actions("Marches", "HD-5.2",
         number("count", "Marches your basic rules give", "HD-5.2", lambda s, c: range(0, MAX_MARCHES + 1)),
         when=in_segment(MOVEMENT, "HD-5.2", _table_off, _unset))
def set_marches(state: GameState, dice: Dice, count: int) -> Step:
    """HD-5.2 with the Command Table off: the march count the basic rules give, as the players rolled it."""
    return Step(replace(state, marches_left=count), f"{lead(state)}: {count} marches (basic rules)", ("HD-5.2",))


# --- HD-5.4 break-out -----------------------------------------------------------------------------------------

def _before_any_march(state: GameState) -> None:
    if state.marched:
        raise RuleError("HD-5.4", "Break-out battles come first in the movement segment, before any other march")


@actions("Break out", "HD-5.4",
         one_of("box", "Contained port to break out of", "HD-5.4",
                lambda s, c: [b for b in s.contained if b not in s.broken_out]),
         when=in_segment(MOVEMENT, "HD-5.4", phasing(USA, "HD-5.4", "Only the Union breaks out of containment"),
                         _before_any_march, marches_left("HD-5.4")))
def breakout(state: GameState, dice: Dice, box: str) -> Step:
    """HD-5.4: contained Union units leave only after winning a battle at the start of the Union movement
    segment, before other marches; it costs one march, and counts as one of their 2 marches."""
    moved = {u.name: replace(u, marches=max(u.marches, 1)) for u in state.units_in(box, USA)}
    new = replace(state.with_units(moved), marches_left=state.marches_left - 1)
    new = fight.open_battle(new, box, garrison=None, breakout=True)
    return Step(new, f"{lead(state)}: break-out battle at {box} (one march spent)", ("HD-5.4", "HD-5.2"))


# --- HD-5.2 marches, HD-5.7 leaders along -------------------------------------------------------------------

def _march_units(state: GameState, chosen) -> Pick:
    """HD-5.2: the phasing side's units that may march now, from one box; the others barred, with the rule."""
    found = [offer(u.name, f"{u.name} at {u.box}", unit_refusal(state, u)) for u in state.on_map(state.side)]
    return Pick(found, 1, None, fits=lambda names: len({state.unit(n).box for n in names}) == 1)


def _origin(state: GameState, chosen) -> str | None:
    """The box the units march from (None while no unit is chosen)."""
    return state.unit(chosen["units"][0]).box if chosen.get("units") else None


def _march_to(state: GameState, chosen):
    """The boxes the units may march to (overland; a landing also needs a port), those joined by a line first."""
    origin = _origin(state, chosen)
    if origin is None:
        return NOT_ASKED
    return near_first(state, origin, [offer(b.id, b.name, march_refusal(state, origin, b.id))
                                      for b in state.game_map.boxes if b.id != origin])


def _along(state: GameState, chosen):
    """HD-5.7: the leaders in the box, each with a march-move left (the others barred)."""
    chiefs = state.leaders_in(_origin(state, chosen), state.side)
    if not state.options["leaders"] or not chiefs:
        return NOT_ASKED
    return [offer(l.name, l.name, leader_refusal(state, l, alone=False)) for l in chiefs]


def _landing(state: GameState, chosen) -> tuple:
    """HD-4.11, HD-5.9: a landing goes to a port, the CSA's only after foreign intervention."""
    return (False, offer(True, "yes", march_refusal(state, _origin(state, chosen), chosen["to"], True)))


@actions("March", "HD-5.2",
         some_of("units", "Units that march (from one box; each at most 2 marches a turn)", "HD-5.2", _march_units),
         one_of("to", "To", "HD-5.2", _march_to),
         some_of("leaders", "Leaders riding along (no march spent; each makes one of his 2 march-moves, HD-5.7)",
                 "HD-5.7", _along, default=()),
         yes_no("amphibious", "A landing at a port (a CSA recruitment port's coastal garrison defends, HD-4.11)",
                "HD-4.11", _landing, default=False),
         when=in_segment(MOVEMENT, "HD-5.2", marches_left("HD-5.2")))
def march(state: GameState, dice: Dice, units: list, to: str, leaders: list, amphibious: bool) -> Step:
    """HD-5.2: one march moves units of one box; each unit uses at most 2 marches a turn. Leaders in the box
    may ride along at no march cost, each making one of his 2 march-moves (HD-5.7). A landing goes to a port;
    at a CSA recruitment port it must first beat the coastal garrison (HD-4.11)."""
    moving = [state.unit(n) for n in units]
    going = [state.leader(n) for n in leaders]
    origin = moving[0].box
    changed = {u.name: replace(u, box=to, entrenched=False, marches=u.marches + 1) for u in moving}
    new = state.with_units(changed).with_leaders({l.name: replace(l, box=to, moves=l.moves + 1) for l in going})
    landings = state.landings + ((to,) if amphibious and to not in state.landings else ())
    new = replace(new, marches_left=state.marches_left - 1, marched=True, landings=landings)
    new, lines = finish(new)
    who = ", ".join(u.name for u in moving) + "".join(f" with {l.name}" for l in going)
    rules = ("HD-5.2", "HD-5.7") if going else ("HD-5.2",)
    how = " by landing" if amphibious else ""
    if to in garrison_due(new):
        lines.insert(0, f"the coastal garrison of {to} must be beaten first")
        rules += ("HD-4.11",)
    left = f"{new.marches_left} march{'es' if new.marches_left != 1 else ''} left"
    return Step(new, f"{lead(state)}: {who} march {origin} → {to}{how} ({left}){tail(lines)}", rules)


# --- HD-5.7, A23: a leader alone --------------------------------------------------------------------------------

def _alone(state: GameState, chosen) -> list:
    """The phasing side's leaders on the map, those who may not move alone now barred."""
    return [offer(l.name, f"{l.name} at {l.box}", leader_refusal(state, l, alone=True))
            for l in state.leaders if l.side == state.side and l.status == ON_MAP and leader_destinations(state, l)]


def _leaders_alone_allowed(state: GameState) -> None:
    if state.options["leader_moves"] != "alone":
        raise RuleError("HD-A23", "Leaders move only with units in this game (option A23)")


@actions("Move a leader alone", "HD-5.7",
         one_of("leader", "Leader", "HD-5.7", _alone),
         one_of("to", "To", "HD-5.7", lambda s, c: near_first(s, s.leader(c["leader"]).box, [
             Choice(b, s.game_map.box(b).name) for b in leader_destinations(s, s.leader(c["leader"]))])),
         when=in_segment(MOVEMENT, "HD-5.7", requires("leaders", "HD-5.7", "leader"), _leaders_alone_allowed))
def move_leader(state: GameState, dice: Dice, leader: str, to: str) -> Step:
    """HD-5.7 (A23): a leader moves alone, spending none of the player's marches; with his moves along with
    units, at most 2 march-moves a turn."""
    chief = state.leader(leader)
    new = state.with_leaders({chief.name: replace(chief, box=to, moves=chief.moves + 1)})
    new, lines = finish(new)
    return Step(new, f"{lead(state)}: {chief.name} moves alone {chief.box} → {to}, no march spent "
                     f"(march-move {chief.moves + 1} of {LEADER_MARCH_MOVES}){tail(lines)}", ("HD-5.7", "HD-A23"))


# --- HD-5.5 entrenching, HD-5.4 containment -------------------------------------------------------------------

def diggers(state: GameState, box: str) -> list[Unit]:
    """The phasing side's units at `box` that can entrench: not yet entrenched, with a march left."""
    return [u for u in state.units_in(box, state.side) if not u.entrenched and u.marches < UNIT_MARCHES]


def entrench_refusal(state: GameState, box: str) -> RuleError | None:
    """HD-5.5: not beside enemy units, except CSA units containing a Union landing (HD-5.4)."""
    if state.units_in(box, other(state.side)) and not (state.side == CSA and box in state.contained):
        return RuleError("HD-5.5", f"Enemy units are at {box}: units entrench there only when containing a "
                                   "Union landing (HD-5.4)")
    return None


@actions("Entrench", "HD-5.5",
         one_of("box", "Box whose units entrench (one march)", "HD-5.5",
                lambda s, c: [offer(b, b, entrench_refusal(s, b))
                              for b in dict.fromkeys(u.box for u in s.on_map(s.side)) if diggers(s, b)]),
         when=in_segment(MOVEMENT, "HD-5.5", marches_left("HD-5.5")))
def entrench(state: GameState, dice: Dice, box: str) -> Step:
    """HD-5.5: units entrench by spending a normal march; not beside enemy units, except CSA units
    containing a Union landing (HD-5.4)."""
    rules = ("HD-5.5", "HD-5.2", "HD-5.4") if state.units_in(box, other(state.side)) else ("HD-5.5", "HD-5.2")
    changed = {u.name: replace(u, entrenched=True, marches=u.marches + 1) for u in diggers(state, box)}
    new = replace(state.with_units(changed), marches_left=state.marches_left - 1, marched=True)
    return Step(new, f"{lead(state)}: {', '.join(changed)} entrench at {box} (one march)", rules)


def containable(state: GameState, chosen=None) -> list:
    """HD-5.4: boxes where CSA units stand beside Union units and no containment is declared; a port the Union
    took by landing (Fort Monroe and Pensacola while the Union holds them) may be contained, the others are barred."""
    found = []
    for b in dict.fromkeys(u.box for u in state.on_map(CSA)):
        if b in state.contained or not state.units_in(b, USA):
            continue
        found.append(offer(b, b, None if state.landed_port(b) else RuleError(
            "HD-5.4", f"{b} is not a port the Union took by landing (nor Fort Monroe or Pensacola held by the Union)")))
    return found


def _containment_open(state: GameState) -> None:
    """HD-5.4: declared by the CSA in its movement or battle segment, outside a battle."""
    playing(state)
    if state.battle is not None or state.side != CSA or state.segment not in (MOVEMENT, BATTLE):
        raise RuleError("HD-5.4", "Containment is declared by the CSA in its movement or battle segment")
    requires("containment", "HD-5.4", "containment")(state)


@actions("Contain a landing", "HD-5.4",
         one_of("box", "Port where the CSA contains the Union landing", "HD-5.4", containable),
         when=_containment_open)
def declare_containment(state: GameState, dice: Dice, box: str) -> Step:
    """HD-5.4: CSA units in a port the Union took by landing (Fort Monroe and Pensacola count while the Union
    holds them) may contain it instead of giving battle."""
    new = replace(state, contained=state.contained + (box,))
    return Step(new, f"{lead(state)}: the CSA contains the Union landing at {box}; the side that attacks there "
                     "will lose its own entrenchment", ("HD-5.4", "HD-A20"))


@actions("End movement", "HD-3", when=in_segment(MOVEMENT, "HD-3", _marches_set))
def end_movement(state: GameState, dice: Dice) -> Step:
    return Step(replace(state, segment=BATTLE), f"{lead(state)}: battles", ("HD-3",))
