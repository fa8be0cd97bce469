"""A House Divided: the game state (digest section 2) as frozen dataclasses.

The map, the units' starting places, the leaders' ratings, the MM values and the basic-game numbers are
the players' entries (the source has none of them); they come in the session setup and are checked here,
each refusal naming its rule.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from companion.engine import RuleError
from companion.quoting import cut, quote
from companion.records import from_data, to_data

from . import entries
from .basic import UNCONFIGURED, BasicRules, basic_rules_from
from .gamemap import GameMap, map_from_data
from .rules import (
    ARMS,
    BORDER_STATES,
    CSA,
    EUROPE,
    FACES,
    FI_UNIT_COUNT,
    FI_UNITS_V31,
    FULL,
    GARRISON,
    GRADES,
    LANDED_FORTS,
    LEADERS,
    MAX_REQUIRED,
    MILITIA,
    REDUCED,
    ROUNDS_PER_DAY,
    SIDES,
    TURNS,
    USA,
    YEARS,
)

START, MOVEMENT, BATTLE, PROMOTION, RECRUITMENT = "start", "movement", "battle", "promotion", "recruitment"
ON_MAP, ELIMINATED = "on_map", "eliminated"
WAITING, CAPTURED = "waiting", "captured"
FRONT, BACK = "front", "back"
JOINED, TRIED = "joined", "tried"


def other(side: str) -> str:
    return CSA if side == USA else USA


@dataclass(frozen=True)
class Unit:
    name: str
    side: str
    arm: str
    grade: str
    face: str = FULL
    box: str = ""
    status: str = ON_MAP
    entrenched: bool = False
    marches: int = 0           # marches used this turn (HD-5.2)
    foreign: bool = False      # an FI unit (HD-5.9)
    border_state: bool = False  # a border-state militia (HD-4.8)
    raised: int = 0            # the year it was raised, for militia morale under A25 (b); 0: not known

    @property
    def reduced(self) -> bool:
        return self.face == REDUCED


@dataclass(frozen=True)
class Leader:
    name: str
    side: str
    front: int                 # the rating on each face: the players' counters (HD-5.7)
    back: int | None = None
    face: str = FRONT
    box: str = ""
    status: str = WAITING      # waiting (not yet entered or returned), on_map, captured
    moves: int = 0             # march-moves this turn, with units or alone (HD-5.7, A23)

    @property
    def rating(self) -> int:
        return self.front if self.face == FRONT else self.back


@dataclass(frozen=True)
class BattleSide:
    side: str
    units: tuple[str, ...]            # every unit that took part (HD-4.6)
    leaders: tuple[str, ...] = ()
    routed: tuple[str, ...] = ()
    withdrawn: tuple[str, ...] = ()   # retreated while their garrison fights on (HD-4.11)
    flipped: tuple[str, ...] = ()     # flipped to reduced this round (HD-4.4)
    checked: tuple[str, ...] = ()     # flipped units that have checked morale this round
    command: int | None = None        # C of the day (HD-4.2)
    carried: int | None = None        # X, what the day passes on (A3, A4)
    fired: bool = False               # has fired this round
    hits_due: int = 0                 # enemy hits on this side still to place
    open_only: int = 0                # of those, the hits that can fall only on unentrenched units (HD-4.11)
    rallied: int = 0                  # the day of its last rally (HD-4.5)
    garrison: int | None = None       # hits on the coastal garrison (HD-4.11); None: no garrison


@dataclass(frozen=True)
class Battle:
    box: str
    sides: tuple[BattleSide, BattleSide]   # the attacker, then the defender
    round: int = 1
    command_day: int = 0                   # the last day whose command was rolled (HD-4.2)
    contained: bool = False                # in a contained port: the attacker loses its entrenchment (HD-5.4)
    amphibious: bool = False
    breakout: bool = False                 # a Union break-out from containment (HD-5.4)
    fort_holder: str = ""                  # who held the box's fort when the battle began (HD-4.4, A24)
    over: bool = False
    winner: str = ""

    @property
    def day(self) -> int:
        return math.ceil(self.round / ROUNDS_PER_DAY)

    @property
    def attacker(self) -> str:
        return self.sides[0].side

    def of(self, side: str) -> BattleSide:
        return self.sides[0] if self.sides[0].side == side else self.sides[1]

    def with_side(self, changed: BattleSide) -> Battle:
        return replace(self, sides=tuple(changed if s.side == changed.side else s for s in self.sides))


@dataclass(frozen=True)
class BattleRecord:
    box: str
    attacker: str
    winner: str                       # "" when neither side won
    survivors: tuple[str, ...]        # the winner's units still on the map
    garrison_only: bool = False       # the loser was only the coastal garrison (HD-5.3)
    promoted: str = ""


@dataclass(frozen=True)
class Victory:
    side: str
    result: str
    rule: str
    turn: int


@dataclass(frozen=True)
class GameState:
    options: Mapping[str, Any]
    game_map: GameMap
    units: tuple[Unit, ...]
    control: Mapping[str, str]
    mm_usa: int
    mm_csa: int
    basic: BasicRules = UNCONFIGURED
    leaders: tuple[Leader, ...] = ()
    label: str = ""                             # "EXAMPLE ..." for the shipped example
    calendar: tuple[str, ...] = ()              # the players' turn labels, "Jul 1861" ...
    southern_cities: tuple[str, ...] = ()       # HD-6.2: the 7 largest Southern cities, as the players name them
    fi_units: tuple[tuple[str, str], ...] = FI_UNITS_V31
    mm_track: int | None = None
    turn: int = 1
    year: int = 1861
    side: str = USA                             # the phasing side
    segment: str = START
    marches_left: int | None = None             # None until rolled (HD-4.1)
    march_die: int = 0                          # the raw die (A16)
    marched: bool = False                       # a march was spent this segment (break-outs come first)
    landed: tuple[str, ...] = ()                # ports the Union took by landing (HD-5.4)
    contained: tuple[str, ...] = ()
    broken_out: tuple[str, ...] = ()            # boxes whose Union units broke out this turn
    landings: tuple[str, ...] = ()              # ports the phasing side landed at this turn, battle not yet begun
    garrison_hits: Mapping[str, int] = field(default_factory=dict)  # A13 persistent
    supply_checked: bool = False
    supply_due: tuple[str, ...] = ()            # boxes that must lose a unit (HD-5.1)
    foraged: tuple[str, ...] = ()
    border: Mapping[str, str] = field(default_factory=dict)  # MO/KY/MD -> joined / tried (HD-5.8, A14)
    border_rolled: tuple[str, ...] = ()         # states rolled this CSA turn
    border_pool: int = 0                        # border-state militia waiting in the CSA pool
    fi_snapshot: bool | None = None             # the FI conditions at the start of this CSA turn
    fi_triggered: bool = False
    fi_return_rolled: bool = False
    washington_due: bool = False                # HD-4.7: the Union MM loss is to roll now
    battle: Battle | None = None
    battles: tuple[BattleRecord, ...] = ()      # the battles of this player turn
    victory: Victory | None = None

    # --- derived views -------------------------------------------------------------------------
    @property
    def europe(self) -> str:
        return self.game_map.role(EUROPE) or EUROPE

    @property
    def turn_label(self) -> str:
        return self.calendar[self.turn - 1] if self.turn <= len(self.calendar) else f"Turn {self.turn} ({self.year})"

    def mm(self, side: str) -> int:
        return self.mm_usa if side == USA else self.mm_csa

    def unit(self, name: Any) -> Unit:
        if isinstance(name, str):
            for u in self.units:
                if u.name == name:
                    return u
        raise RuleError("HD-2", f"There is no unit named {quote(name)}")

    def leader(self, name: Any) -> Leader:
        if isinstance(name, str):
            for leader in self.leaders:
                if leader.name == name:
                    return leader
        raise RuleError("HD-5.7", f"There is no leader named {quote(name)} in this game")

    def on_map(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.units if u.status == ON_MAP and (side is None or u.side == side)]

    def units_in(self, box: str, side: str | None = None) -> list[Unit]:
        return [u for u in self.on_map(side) if u.box == box]

    def leaders_in(self, box: str, side: str) -> list[Leader]:
        return [l for l in self.leaders if l.status == ON_MAP and l.box == box and l.side == side]

    def controller(self, box: str) -> str:
        return self.control.get(box, "")

    def landed_port(self, box: str) -> bool:
        """A port the Union took by landing; Fort Monroe and Pensacola count as such while the Union holds
        them (HD-5.4)."""
        forts = {self.game_map.role(role) for role in LANDED_FORTS}
        return box in self.landed or (box in forts and self.controller(box) == USA)

    def with_units(self, changed: Mapping[str, Unit]) -> GameState:
        return replace(self, units=tuple(changed.get(u.name, u) for u in self.units))

    def with_leaders(self, changed: Mapping[str, Leader]) -> GameState:
        return replace(self, leaders=tuple(changed.get(l.name, l) for l in self.leaders))

    def to_dict(self) -> dict:
        return to_data(self)


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    return from_data(GameState, data)


# --- setup ------------------------------------------------------------------------------------------

NAMED = 40  # characters of a name given in a message
SETUP_FIELDS = ("label", "map", "control", "units", "leaders", "mm", "mm_track", "turn", "year", "calendar",
                "landed_ports", "contained", "southern_cities", "basic_rules", "fi_units")
UNIT_FIELDS = ("name", "side", "arm", "grade", "face", "box", "entrenched", "border_state", "raised")
LEADER_FIELDS = ("name", "front", "back", "face", "box")


def check_options(options: Mapping[str, Any]) -> None:
    required = entries.mapping(options["border_required"], "Border-state numbers", "HD-4.8")
    if set(required) != set(BORDER_STATES):
        raise RuleError("HD-4.8", f"Border-state numbers are needed for exactly {', '.join(BORDER_STATES)}")
    for state, value in required.items():
        entries.whole(value, f"The number {state} must beat", "HD-4.8", 0, MAX_REQUIRED)


def _unit(row: Any, game_map: GameMap, year: int) -> Unit:
    if not isinstance(row, Mapping):
        raise RuleError("HD-2", f"A unit is a table of fields, not {quote(row)}")
    name = entries.text(row.get("name"), "A unit's 'name'", "HD-2")
    who = cut(name, NAMED)
    entries.fields(row, UNIT_FIELDS, f"Unit {who}", "HD-2")
    side = entries.choice(row.get("side"), SIDES, f"{who}: 'side'", "HD-2")
    arm = entries.choice(row.get("arm", "inf"), ARMS, f"{who}: 'arm'", "HD-2")
    grade = entries.choice(row.get("grade", MILITIA), GRADES, f"{who}: 'grade'", "HD-2")
    face = entries.choice(row.get("face", FULL), FACES, f"{who}: 'face'", "HD-2")
    box = entries.text(row.get("box"), f"{who}: 'box'", "HD-2")
    game_map.box(box)
    entrenched = entries.flag(row.get("entrenched", False), f"{who}: 'entrenched'", "HD-2")
    border = entries.flag(row.get("border_state", False), f"{who}: 'border_state'", "HD-4.8")
    if border and (side != CSA or grade != MILITIA):
        raise RuleError("HD-4.8", f"{who}: a border-state unit is CSA militia")
    raised = entries.whole(row.get("raised", year), f"{who}: 'raised' (the year it was raised)", "HD-A25",
                           YEARS[0], year)
    return Unit(name, side, arm, grade, face, box, entrenched=entrenched, border_state=border, raised=raised)


def _leader(row: Any, game_map: GameMap) -> Leader:
    if not isinstance(row, Mapping):
        raise RuleError("HD-5.7", f"A leader is a table of fields, not {quote(row)}")
    name = entries.choice(row.get("name"), LEADERS, "A leader's 'name'", "HD-5.7")
    entries.fields(row, LEADER_FIELDS, f"Leader {name}", "HD-5.7")
    front = entries.whole(row.get("front"), f"{name}: the front rating (from your counter)", "HD-5.7", 0, 9)
    back = row.get("back")
    if back is not None:
        back = entries.whole(back, f"{name}: the back rating", "HD-5.7", 0, 9)
    face = entries.choice(row.get("face", FRONT), (FRONT, BACK), f"{name}: 'face'", "HD-5.7")
    if face == BACK and back is None:
        raise RuleError("HD-5.7", f"{name} shows his back face: enter its rating")
    box = row.get("box") or ""
    if box:
        game_map.box(entries.text(box, f"{name}: 'box'", "HD-5.7"))
    return Leader(name, LEADERS[name], front, back, face, box, ON_MAP if box else WAITING)


def _box_list(value: Any, game_map: GameMap, what: str, rule: str) -> tuple[str, ...]:
    boxes = entries.names(value or [], what, rule)
    for box in boxes:
        game_map.box(box)
    return boxes


def _calendar(value: Any) -> tuple[str, ...]:
    labels = entries.names(value or [], "The calendar", "HD-2", unique=False)
    years = []
    for label in labels:
        tail = label.split()[-1]
        if not tail.isdigit() or int(tail) not in YEARS:
            raise RuleError("HD-2", f"Calendar entry {quote(label)} must end with its year, 1861 to 1865")
        years.append(int(tail))
    if years != sorted(years):
        raise RuleError("HD-2", "The calendar's years must not go backwards")
    if len(labels) > TURNS:
        raise RuleError("HD-2", f"The game has {TURNS} turns; the calendar lists {len(labels)}")
    return labels


def year_of(label: str) -> int:
    return int(label.split()[-1])


def _fi_units(value: Any) -> tuple[tuple[str, str], ...]:
    if value is None:
        return FI_UNITS_V31
    if not isinstance(value, (list, tuple)) or len(value) != FI_UNIT_COUNT:
        raise RuleError("HD-5.9", f"Foreign intervention brings {FI_UNIT_COUNT} units: list each one's arm and grade")
    rows = []
    for row in value:
        row = entries.mapping(row, "An FI unit", "HD-5.9")
        rows.append((entries.choice(row.get("arm"), ARMS, "An FI unit's arm", "HD-5.9"),
                     entries.choice(row.get("grade"), GRADES, "An FI unit's grade", "HD-5.9")))
    return tuple(rows)


def new_state(options: Mapping[str, Any], setup: Mapping[str, Any]) -> GameState:
    """The opening state from the players' setup: map, control, units, leaders, MM (HD-2, HD-8)."""
    check_options(options)
    setup = entries.mapping(setup, "The setup", "HD-2")
    entries.fields(setup, SETUP_FIELDS, "The setup", "HD-2")
    game_map = map_from_data(setup.get("map"))
    control = {b.id: b.alignment for b in game_map.boxes if b.alignment in SIDES}
    for box, side in entries.mapping(setup.get("control", {}), "'control'", "HD-2").items():
        game_map.box(box)
        control[box] = entries.choice(side, (*SIDES, ""), f"Control of {cut(box, NAMED)}", "HD-2")
    control = {b: s for b, s in control.items() if s}
    calendar = _calendar(setup.get("calendar"))
    turn = entries.whole(setup.get("turn", 1), "The turn", "HD-2", 1, TURNS)
    year = year_of(calendar[turn - 1]) if turn <= len(calendar) else \
        entries.whole(setup.get("year", YEARS[0]), "The year", "HD-2", YEARS[0], YEARS[-1])
    rows = setup.get("units", [])
    if not isinstance(rows, (list, tuple)):
        raise RuleError("HD-2", "'units' is a list of units")
    units = tuple(_unit(row, game_map, year) for row in rows)
    _unique([u.name for u in units], "Unit names", "HD-2")
    leader_rows = setup.get("leaders", [])
    if not isinstance(leader_rows, (list, tuple)):
        raise RuleError("HD-5.7", "'leaders' is a list of leaders")
    leaders = tuple(_leader(row, game_map) for row in leader_rows)
    _unique([l.name for l in leaders], "Leaders", "HD-5.7")
    mm = entries.mapping(setup.get("mm"), "'mm' (the maximum mobilisation of each side)", "HD-2")
    mm_usa, mm_csa = (entries.whole(mm.get(side), f"{side} MM", "HD-2", 0) for side in SIDES)
    track = setup.get("mm_track")
    if track is not None:
        track = entries.whole(track, "The MM track size", "HD-2", 1)
        if max(mm_usa, mm_csa) > track:
            raise RuleError("HD-2", f"An MM of {max(mm_usa, mm_csa)} is off a track of {track}")
    landed = _box_list(setup.get("landed_ports"), game_map, "'landed_ports'", "HD-5.4")
    contained = _box_list(setup.get("contained"), game_map, "'contained'", "HD-5.4")
    for box in landed:
        if not game_map.box(box).port:
            raise RuleError("HD-5.4", f"{quote(box)} is not a port: only ports are taken by landing")
    southern = _box_list(setup.get("southern_cities"), game_map, "'southern_cities'", "HD-6.2")
    label = setup.get("label", "")
    if not isinstance(label, str):
        raise RuleError("HD-2", "'label' is text")
    state = GameState(options=dict(options), game_map=game_map, units=units, control=control, mm_usa=mm_usa,
                      mm_csa=mm_csa, basic=basic_rules_from(setup.get("basic_rules")), leaders=leaders,
                      label=label, calendar=calendar, southern_cities=southern,
                      fi_units=_fi_units(setup.get("fi_units")), mm_track=track, turn=turn, year=year,
                      landed=landed, contained=contained if options["containment"] else ())
    if not all(state.landed_port(box) for box in contained):
        raise RuleError("HD-5.4", "Only a port the Union took by landing (or Fort Monroe or Pensacola while the "
                                  "Union holds it) can be contained")
    return state


def _unique(found: Iterable[str], what: str, rule: str) -> None:
    found = list(found)
    twice = sorted({n for n in found if found.count(n) > 1})
    if twice:
        raise RuleError(rule, f"{what} must be unique: {quote(twice[0])} appears twice"
                              + (f" (and {len(twice) - 1} more)" if len(twice) > 1 else ""))
    if GARRISON in found:
        raise RuleError(rule, f"'{GARRISON}' is the coastal garrison's name (HD-4.11): name the unit otherwise")
