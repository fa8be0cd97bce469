"""Battle at Bull Run: the game state (digest section 2) as frozen dataclasses.

The roster is what the players enter from their play sheet (roster.py); it is locked when the game
starts and changed only by a correction event. The map is not modelled: banks, adjacency, terrain
and occupation come in as the players' answers, each tagged with its rule ID.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion.engine import RuleError
from companion.records import from_data, to_data

from .roster import UnitSpec, roster_from_rows
from .rules import CSA, FIRST_TURN_MINUTES, SOUTH, STACK_LIMIT, TERRAIN_COSTS, TURN_MINUTES, TURNS, UNION

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


DECLARED, MADE, LAPSED = "declared", "made", "lapsed"


@dataclass(frozen=True)
class Attack:
    """One attack declared in a side's attack step (BR-10.1): which stack attacks which, on what ground."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    conditions: Conditions
    status: str = DECLARED            # declared -> made, or lapsed when its target has gone (A25)


@dataclass(frozen=True)
class Combat:
    """The single combat being fought, after both fires (BR-10.3, BR-11.1, BR-11.2)."""

    attack: int                       # its index in the step's attacks
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    stage: str = "allocate"           # allocate -> retreat_check -> retreat -> advance
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
    union_south_seen: int = 0                   # turn a Union unit south of Bull Run was first in contact (A6)
    fords_crossed: tuple[str, ...] = ()         # which western fords the Union has crossed
    union_holds_since: int = 0                  # end of turn since which the Union holds To Manassas
    csa_holds_since: int = 0                    # end of turn since which the CSA holds Centerville
    attacks: tuple[Attack, ...] = ()            # the attacks declared in this attack step (BR-10.1)
    combat: Combat | None = None
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
    engaged = {n for a in state.attacks if a.status == DECLARED for n in a.attackers + a.defenders}
    if state.combat:
        engaged |= set(state.combat.attackers + state.combat.defenders)
    if not engaged <= {s.name for s in specs}:
        raise RuleError("BR-10.1", "Finish the attacks declared before removing one of their units from the roster")
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
    return replace(state, units=units, turn=turn, phase=phase, half=0, checks_done=(), combat=None, attacks=())

