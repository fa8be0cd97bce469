"""Battle at Bull Run: the game state (digest section 2) as frozen dataclasses.

The roster is what the players enter from their play sheet (BR-2.4, digest section 10); it is
checked here and locked when the game starts. The map is not modelled: banks, adjacency, terrain
and occupation come in as the players' answers, each tagged with its rule ID.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion.engine import RuleError
from companion.records import from_data, to_data

from .rules import (COUNTERS, CSA, FIRST_TURN_MINUTES, MAX_SP_ON_TABLE, NORTH, SIDES, SOUTH, STACK_LIMIT,
                    TERRAIN_COSTS, TURN_MINUTES, TURNS, UNION)

PENDING, ON_MAP, ELIMINATED = "pending", "on_map", "eliminated"
INITIATIVE, REINFORCEMENTS, MOVEMENT, COMBAT, END, OVER = (
    "initiative", "reinforcements", "movement", "combat", "end", "over")


def other(side: str) -> str:
    return CSA if side == UNION else UNION


def clock(turn: int) -> str:
    """BR-5.1: turn n starts at 08:30 + 30(n-1) minutes."""
    minutes = FIRST_TURN_MINUTES + TURN_MINUTES * (turn - 1)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True)
class UnitSpec:
    """A row of the play sheet's unit table (BR-2.4) as the players entered it."""

    name: str
    side: str
    entry_hex: str
    entry_turn: int
    max_sp: int
    grey: bool = False          # a Beauregard counter (BR-8.3)
    bank: str = ""              # side of Bull Run it enters on; default by side (Union north, CSA south)

    @property
    def entry_bank(self) -> str:
        return self.bank or (NORTH if self.side == UNION else SOUTH)


@dataclass(frozen=True)
class Unit:
    spec: UnitSpec
    sp: int
    status: str = PENDING
    bank: str = ""
    crossed_free: bool = False   # has passed BR-8.3 (the play sheet's circle)
    turn_start_sp: int = 0       # BR-10.4 (A14): what it fires with this turn
    moved: bool = False
    crossing_tried: bool = False  # a BR-8.3 roll was made this movement phase (A3)
    attacked: bool = False
    defended: bool = False       # made its one defensive roll this turn (BR-10.1)
    fought: bool = False
    hesitation: str = ""         # "passed" / "failed" this turn (BR-10.2)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def side(self) -> str:
        return self.spec.side

    @property
    def lost(self) -> int:
        """SP lost so far; units that have not entered play have lost nothing."""
        return 0 if self.status == PENDING else self.spec.max_sp - self.sp


@dataclass(frozen=True)
class Conditions:
    """The players' answers about the ground of one combat (BR-10.5, A9, A18)."""

    target_terrain: str = "clear"     # the defender's hex
    attacker_terrain: str = "clear"   # the attacker's hex (matters only with symmetric modifiers)
    across_ford: bool = False         # the attack crosses a Bull Run ford
    across_bridge: bool = False       # ... or Stone Bridge (counts only with option A18)


@dataclass(frozen=True)
class Combat:
    """The single combat being fought (BR-10.1, BR-10.3, BR-11.1, BR-11.2)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    conditions: Conditions
    attacker_fire_sp: int
    defender_fire_sp: int
    defender_fires: bool
    stage: str = "fire"               # fire -> allocate -> retreat_check -> retreat -> advance
    hits_on_attackers: int = 0
    hits_on_defenders: int = 0
    checking: str = ""                # "attackers" / "defenders": the stack making the retreat check
    vacated: str = ""                 # the stack whose hex is empty after retreat or elimination


@dataclass(frozen=True)
class Victory:
    side: str          # UNION, CSA, or "" for a draw
    result: str        # e.g. "Union victory", "CSA marginal victory"
    rule: str
    turn: int


@dataclass(frozen=True)
class GameState:
    options: Mapping[str, Any]
    units: tuple[Unit, ...]
    turn: int = 1
    phase: str = INITIATIVE
    half: int = 0                               # 0: the initiative side's movement/combat, 1: the other's
    initiative: tuple[str, ...] = ("",) * TURNS  # "UNION"/"CSA" per turn, "" until rolled (BR-6.0)
    orders: tuple[str, ...] = ("",) * TURNS      # solitaire CSA order per turn (BR-9.0)
    checks_done: tuple[str, ...] = ()           # start-of-phase checks made in this movement half
    farm_ford_found: int = 0                    # turn found (BR-8.4b), 0 = not yet
    csa_aware: int = 0                          # turn the CSA became aware (BR-8.4a), 0 = not yet
    union_crossed_west: int = 0                 # turn of the first Union crossing at Sudley or Farm Ford
    fords_crossed: tuple[str, ...] = ()         # which western fords the Union has crossed
    union_holds_since: int = 0                  # end of turn since which the Union holds To Manassas
    csa_holds_since: int = 0                    # end of turn since which the CSA holds Centerville
    combat: Combat | None = None
    defender: tuple[str, ...] = ()              # the defender whose attacks are being made (BR-10.1)
    defenders_done: tuple[tuple[str, ...], ...] = ()
    victory: Victory | None = None

    # --- derived views -------------------------------------------------------------------------
    @property
    def active(self) -> str:
        """The side moving or attacking now (the initiative side in the first half)."""
        first = self.initiative[self.turn - 1]
        return first if self.half == 0 else other(first)

    def unit(self, name: str) -> Unit:
        for u in self.units:
            if u.name == name:
                return u
        raise RuleError("BR-2.4", f"There is no unit named '{name}' on the roster")

    def side_units(self, side: str, status: str | None = None) -> list[Unit]:
        return [u for u in self.units if u.side == side and (status is None or u.status == status)]

    def sp_lost(self, side: str) -> int:
        """SP lost by a side: the sum of max_sp - sp over its units that have entered play."""
        return sum(u.lost for u in self.side_units(side))

    def union_south(self) -> int:
        """Union units on the map south of Bull Run, as the companion has tracked them."""
        return sum(1 for u in self.side_units(UNION, ON_MAP) if u.bank == SOUTH)

    def with_units(self, changed: Mapping[str, Unit]) -> GameState:
        return replace(self, units=tuple(changed.get(u.name, u) for u in self.units))

    def to_dict(self) -> dict:
        return to_data(self)


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    return from_data(GameState, data)


def roster_from_rows(rows: Any) -> tuple[UnitSpec, ...]:
    """Play-sheet rows (dicts) as unit specs, each field checked (digest section 10)."""
    if not isinstance(rows, (list, tuple)) or not rows:
        raise RuleError("BR-2.4", "The roster is empty: enter the units from your play sheet")
    specs = []
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise RuleError("BR-2.4", f"Row {i} of the roster is not a unit")
        specs.append(_spec(i, row))
    names = [s.name for s in specs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RuleError("BR-2.4", f"Unit names must be unique: {', '.join(dupes)} appears twice")
    return tuple(specs)


def _spec(i: int, row: Mapping[str, Any]) -> UnitSpec:
    name = str(row.get("name") or "").strip()
    if not name:
        raise RuleError("BR-2.4", f"Row {i}: the unit needs a name")
    side = str(row.get("side") or "").strip().upper()
    if side not in SIDES:
        raise RuleError("BR-2.4", f"{name}: side must be CSA or UNION, not '{row.get('side')}'")
    entry_hex = str(row.get("entry_hex") if row.get("entry_hex") is not None else "").strip()
    if not entry_hex or not entry_hex.isalnum():
        raise RuleError("BR-7.0", f"{name}: the entry hex is a label of digits or letters ('1', 'A')")
    turn = _whole(row.get("entry_turn"), f"{name}: entry turn", "BR-7.0")
    if not 1 <= turn <= TURNS:
        raise RuleError("BR-7.0", f"{name}: entry turn must be 1 to {TURNS}, not {turn}")
    max_sp = _whole(row.get("max_sp"), f"{name}: strength (SP)", "BR-2.4")
    if max_sp < 1:
        raise RuleError("BR-2.4", f"{name}: strength must be at least 1 SP (the highest box of its track)")
    grey = row.get("grey", False)
    if not isinstance(grey, bool):
        raise RuleError("BR-8.3", f"{name}: 'grey' is yes or no")
    if grey and side != CSA:
        raise RuleError("BR-8.3", f"{name}: only CSA counters are grey (Beauregard's)")
    bank = str(row.get("bank") or "").strip().lower()
    if bank not in ("", NORTH, SOUTH):
        raise RuleError("BR-9.0", f"{name}: the bank is north or south of Bull Run")
    return UnitSpec(name, side, entry_hex, turn, max_sp, grey, bank)


def _whole(value: Any, what: str, rule: str) -> int:
    if isinstance(value, bool):
        raise RuleError(rule, f"{what} must be a whole number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise RuleError(rule, f"{what} must be a whole number, not '{value}'") from None
    if not math.isfinite(number) or number != int(number):
        raise RuleError(rule, f"{what} must be a whole number, not {value}")
    return int(number)


def roster_warnings(specs: tuple[UnitSpec, ...]) -> list[str]:
    """What is legal but worth a second look (digest section 10)."""
    warnings = []
    if len(specs) != COUNTERS:
        warnings.append(f"The game has {COUNTERS} counters; this roster has {len(specs)} units.")
    for side in SIDES:
        strongest = sorted((s.max_sp for s in specs if s.side == side), reverse=True)[:STACK_LIMIT]
        if sum(strongest) > MAX_SP_ON_TABLE:
            warnings.append(f"Two {side} units can stack to {sum(strongest)} SP, more than the "
                            f"combat table's {MAX_SP_ON_TABLE} (BR-10.4).")
    return warnings


def check_options(options: Mapping[str, Any]) -> None:
    costs = options["terrain_costs"]
    if set(costs) != set(TERRAIN_COSTS):
        raise RuleError("BR-8.1", f"The terrain table needs exactly: {', '.join(TERRAIN_COSTS)}")
    for terrain, cost in costs.items():
        if cost is not None and (isinstance(cost, bool) or not isinstance(cost, int) or cost < 1):
            raise RuleError("BR-8.1", f"The cost of {terrain} must be a whole number of MP (1 or more), or empty")


def place(unit: Unit) -> Unit:
    """BR-7.0 / BR-4.0: a unit enters play at full strength on its entry hex."""
    return replace(unit, status=ON_MAP, bank=unit.spec.entry_bank, turn_start_sp=unit.sp)


def new_state(options: Mapping[str, Any], setup: Mapping[str, Any]) -> GameState:
    """BR-4.0: the roster is locked and the turn-1 units are placed on their entry hexes."""
    check_options(options)
    specs = roster_from_rows(setup.get("roster"))
    units = tuple(Unit(spec, spec.max_sp) for spec in specs)
    units = tuple(place(u) if u.spec.entry_turn == 1 else u for u in units)
    return GameState(options=dict(options), units=units)


def corrected(state: GameState, rows: Any) -> GameState:
    """The state with a corrected roster: units keep their hits and status by name; a new unit whose
    entry turn has passed is placed, one still to come is pending."""
    specs = roster_from_rows(rows)
    old = {u.name: u for u in state.units}
    units = []
    for spec in specs:
        before = old.get(spec.name)
        if before is None:
            unit = Unit(spec, spec.max_sp)
            due = spec.entry_turn < state.turn or (spec.entry_turn == state.turn and state.phase not in
                                                   (INITIATIVE, REINFORCEMENTS))
            units.append(place(unit) if due else unit)
            continue
        hits = before.spec.max_sp - before.sp
        sp = max(0, spec.max_sp - hits)
        status = ELIMINATED if sp == 0 and before.status != PENDING else before.status
        start_hits = before.spec.max_sp - before.turn_start_sp if before.status != PENDING else 0
        units.append(replace(before, spec=spec, sp=sp, status=status,
                             turn_start_sp=max(0, spec.max_sp - start_hits)))
    if state.combat and not all(n in {s.name for s in specs}
                                for n in state.combat.attackers + state.combat.defenders):
        raise RuleError("BR-10.1", "Finish the combat before removing one of its units from the roster")
    return replace(state, units=tuple(units))


def stack_units(state: GameState, names: Any, side: str, role: str) -> tuple[Unit, ...]:
    """The units of a declared stack, checked: 1-2 units of one side, all on the map (BR-8.2)."""
    if not isinstance(names, (list, tuple)) or not names or not all(isinstance(n, str) for n in names):
        raise RuleError("BR-10.1", f"Name the units of the {role} stack")
    if len(set(names)) != len(names):
        raise RuleError("BR-10.1", f"A unit is named twice in the {role} stack")
    if len(names) > STACK_LIMIT:
        raise RuleError("BR-8.2", f"A stack is at most {STACK_LIMIT} units; the {role} stack has {len(names)}")
    units = tuple(state.unit(n) for n in names)
    for u in units:
        if u.side != side:
            raise RuleError("BR-10.1", f"{u.name} is {u.side}: the {role} stack must be {side}")
        if u.status != ON_MAP:
            raise RuleError("BR-10.1", f"{u.name} is not on the map ({u.status.replace('_', ' ')})")
    return units


def new_turn(state: GameState) -> GameState:
    """The start of the next turn: per-turn flags cleared and every unit's turn-start SP noted."""
    units = tuple(replace(u, turn_start_sp=u.sp, moved=False, crossing_tried=False, attacked=False,
                          defended=False, fought=False, hesitation="") for u in state.units)
    turn = state.turn + 1
    phase = INITIATIVE if not state.initiative[turn - 1] else REINFORCEMENTS
    return replace(state, units=units, turn=turn, phase=phase, half=0, checks_done=(), combat=None,
                   defender=(), defenders_done=())

