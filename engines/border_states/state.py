"""灰に硝煙と青き天: the game state (digest section 2) as frozen dataclasses, and its derived views.

Everything is public but the hands (BS-D.12): the companion keeps only their counts, so the shared
view of a game shows nothing secret. The board (the players' board file) is part of the setup.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from companion.engine import RuleError
from companion.records import from_data, to_data
from companion.spec import ActionSpec, Barred, Choice, Spread, counts, one_of
from companion.terms import Terms

from .board import Board, board_from_data, force_cut, star
from .options import OPTIONS
from .rules import (DEPLOY, BORDER_LIMIT, C, HOME_LIMIT, MAX_FORCE, SIDE_NAME, SIDES, SUPPLY_CAP, SUPPLY_CAP_VARIANT,
                    SUPPLY_START, SUPPLY_START_VARIANT, U)
from .tray import Strength, Tray

SETUP, DRAW, INITIATIVE, ACTION, COMBAT, VICTORY, SUPPLY, RECRUIT, OVER = (
    "setup", "draw", "initiative", "action", "combat", "victory", "supply", "recruit", "over")


def other(side: str) -> str:
    return U if side == C else C


def per_side(value: int = 0) -> dict[str, int]:
    return {C: value, U: value}


@dataclass(frozen=True)
class Battle:
    """The combat of one border state (BS-CMB), step by step."""

    area: str
    attacker: str
    defender: str
    stage: str = "start"                       # start -> supply -> roll -> losses -> end
    turn: str = ""                             # who acts next in this stage (the attacker first)
    made_of: Mapping[str, Terms] = field(default_factory=dict)   # each side's combat dice before supply, part by part
    supply: Mapping[str, int] = field(default_factory=per_side)    # supply dice committed (CMB.4)
    cards: tuple[str, ...] = ()                # sides that have used their one card (BS-CARD)
    trays: Mapping[str, Tray] = field(default_factory=dict)
    throw: tuple[int, ...] = ()                # the throw waiting for a keep, a count per face
    results: Mapping[str, Strength] = field(default_factory=dict)
    winner: str = ""                           # "C", "U", or "draw"
    removals: int = 0
    advanced: tuple[str, ...] = ()             # sides whose commander card advanced in this combat (A15)

    def role(self, side: str) -> str:
        return "attacker" if side == self.attacker else "defender"

    @property
    def dice(self) -> dict[str, int]:
        """Each side's combat dice before supply (CMB.2-3): the sum of its parts."""
        return {s: self.made_of[s].total if s in self.made_of else 0 for s in SIDES}


@dataclass(frozen=True)
class Retreat:
    """A failed retreat roll (BS-RET) waiting for the owner's choice."""

    side: str
    source: str
    target: str
    commander: bool
    entrenched: bool = False   # the unit retreating is the entrenched one (BS-D.5, A10)


@dataclass(frozen=True)
class Victory:
    side: str
    rule: str
    text: str
    round: int


@dataclass(frozen=True)
class GameState:
    options: Mapping[str, Any]
    board: Board
    round: int = 1
    phase: str = SETUP
    units: Mapping[str, Mapping[str, int]] = field(default_factory=dict)   # state -> side -> units (where any)
    commander_at: Mapping[str, str] = field(default_factory=lambda: {C: "", U: ""})  # "" = in the pool
    entrenched: tuple[str, ...] = ()
    entrench_used: tuple[str, ...] = ()   # states where the Entrench action was taken this round (BS-D.5, A21)
    supply: Mapping[str, int] = field(default_factory=per_side)
    deck: Mapping[str, int] = field(default_factory=per_side)
    hand: Mapping[str, int] = field(default_factory=per_side)
    discard: Mapping[str, int] = field(default_factory=per_side)
    damage: int = 0                      # +k: k squares toward the Union side; -k toward the CSA
    damage_reach: Mapping[str, int] = field(default_factory=per_side)  # furthest square reached (A7 option)
    distrust: int = 0
    commander: Mapping[str, int] = field(default_factory=lambda: per_side(1))  # face 1, 2, ...
    lost: Mapping[str, int] = field(default_factory=per_side)    # removed for good (A11 option)
    first: str = ""
    turn: str = ""
    actions_left: Mapping[str, int] = field(default_factory=per_side)
    bids: Mapping[str, int] = field(default_factory=per_side)
    initiative_winner: str = ""
    battle: Battle | None = None
    battles_done: tuple[str, ...] = ()
    recruited: tuple[str, ...] = ()
    retreat: Retreat | None = None
    victory: Victory | None = None

    # --- derived views ------------------------------------------------------------------------
    def count(self, area: str, side: str) -> int:
        return self.units.get(area, {}).get(side, 0) if isinstance(area, str) else 0

    def on_board(self, side: str) -> int:
        return sum(v.get(side, 0) for v in self.units.values())

    def pool(self, side: str) -> int:
        return self.board.units[side] - self.on_board(side) - self.lost[side]

    def in_combat(self, area: str) -> bool:
        """BS-D.2: a border state with units of both sides."""
        return self.board.area(area).border and self.count(area, C) > 0 and self.count(area, U) > 0

    def controller(self, area: str) -> str:
        """BS-D.2: the side with more units there (a lone side counts); empty or equal, nobody."""
        c, u = self.count(area, C), self.count(area, U)
        return C if c > u else U if u > c else ""

    def max_force(self, side: str) -> int:
        """BS-D.3: 10 less the force cut the damage track shows for this side (A7)."""
        cumulative = self.options["force_cut"] == "cumulative"
        reach = self.damage_reach[side] if cumulative else (self.damage if side == U else -self.damage)
        return MAX_FORCE - force_cut(self.board, side, reach, cumulative)

    def vp(self, side: str) -> int:
        """BS-VIC: VP of the border states the side controls, plus its star on the damage marker's square."""
        held = sum(a.vp for a in self.board.borders if self.controller(a.name) == side)
        return held + star(self.board, self.damage, side)

    def commander_name(self, side: str) -> str:
        return self.board.commanders[side][self.commander[side] - 1].name

    def supply_cap(self) -> int:
        return SUPPLY_CAP_VARIANT if self.options["supply_variant"] else SUPPLY_CAP

    def battles_due(self) -> list[str]:
        """BS-CMB: the border states in combat still to resolve, in the order of their numbers."""
        return [a.name for a in self.board.borders if self.in_combat(a.name) and a.name not in self.battles_done]

    def room(self, area: str, side: str) -> int:
        """BS-D.1: how many more units of `side` the state can take."""
        a = self.board.area(area)
        if not a.border:
            return HOME_LIMIT - self.count(area, side) if a.side == side else 0
        return BORDER_LIMIT - self.count(area, side)

    def with_count(self, area: str, side: str, delta: int) -> GameState:
        """`delta` more units of `side` in `area` (a state left empty is left out of `units`)."""
        units = {k: dict(v) for k, v in self.units.items()}
        place = units.setdefault(area, per_side())
        place[side] += delta
        if not any(place.values()):
            del units[area]
        return replace(self, units=units)

    def to_dict(self) -> dict:
        return {f.name: self.board.to_dict() if f.name == "board" else to_data(getattr(self, f.name))
                for f in fields(self)}


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    state = from_data(GameState, data)
    return replace(state, options=with_defaults(state.options))


def with_defaults(options: Mapping[str, Any]) -> dict[str, Any]:
    """The session's options, with the digest's default for any option added since the session was saved."""
    return {**{o.key: o.default for o in OPTIONS}, **options}


def place_problem(state: GameState, area: str, side: str) -> str:
    """BS-D.1: why a unit of `side` may not be placed in `area` ("" when it may): own units only, one, in an own
    home state; never an enemy home state; 3 a side in a border state."""
    a = state.board.area(area)
    if not a.border and a.side != side:
        return f"{area} is a {SIDE_NAME[a.side]} home state: {SIDE_NAME[side]} units may not enter"
    if state.room(area, side) < 1:
        limit = BORDER_LIMIT if a.border else HOME_LIMIT
        return f"{area} already holds {limit} {SIDE_NAME[side]} unit{'s' if limit > 1 else ''}"
    return ""


def places_commander(state: GameState, side: str, chosen: bool) -> bool:
    """BS-REC / BS-SETUP: the unit placed from the pool is the commander unit when the player chooses it, or when
    the commander unit is all the pool holds."""
    return not state.commander_at[side] and (chosen or state.pool(side) == 1)


def commander_choices(state: GameState, side: str, rule: str) -> tuple:
    """BS-SETUP / BS-REC: may the unit placed from the pool be the commander unit? Not while it is on the board;
    it must be when it is all the pool holds."""
    if state.commander_at[side]:
        return False, Barred(True, "yes", rule, f"The {SIDE_NAME[side]} commander unit is already on the board")
    if state.pool(side) == 1:
        return Barred(False, "no", rule, f"The commander unit is all the {SIDE_NAME[side]} pool holds: it is the "
                                         "unit placed"), True
    return False, True


def new_state(options: Mapping[str, Any], setup: Mapping[str, Any]) -> GameState:
    """BS-SETUP: the board checked, decks shuffled (their counts), supply dealt, markers on START; then
    the deployment, the CSA first, one unit at a time, or all of it at once as the players placed it."""
    options = with_defaults(options)
    board = board_from_data(setup.get("board"), options["four_a_side"])
    start = SUPPLY_START_VARIANT if options["supply_variant"] else SUPPLY_START
    state = GameState(options=dict(options), board=board,
                      supply=dict(start), deck={s: board.deck_size(s) for s in SIDES}, turn=C)
    if setup.get("deployment") is not None:
        state = deployed(state, setup["deployment"], setup.get("commanders") or {})
    return state


def _spread(side: str):
    """BS-SETUP / BS-D.1: the side's units over its own-side border states, 3 at most in one; 8 CSA, 7 Union."""
    return counts(side, f"{SIDE_NAME[side]} units deployed", "BS-SETUP", lambda state, chosen: Spread(
        {a.name: state.room(a.name, side) for a in state.board.borders if a.side == side}, DEPLOY[side], DEPLOY[side]))


def _commander_unit(side: str):
    """BS-SETUP: the commander unit stands with a unit of its side, or stays in the pool while the pool holds
    another piece."""
    def choices(state: GameState, chosen) -> list[Choice]:
        stays = [Choice("", "in the pool")] if state.board.units[side] > DEPLOY[side] else []
        return stays + [Choice(a, a) for a, n in (chosen.get(side) or {}).items() if n]
    return one_of(f"commander_{side}", f"{SIDE_NAME[side]} commander unit", "BS-SETUP", choices)


# The deployment as the players placed it, entered at once (`deployed`): what may be chosen, for a setup editor.
DEPLOYMENT = ActionSpec("deployment", "The deployment as placed", "BS-SETUP",
                        (_spread(C), _commander_unit(C), _spread(U), _commander_unit(U)))


def deployed(state: GameState, deployment: Any, commanders: Any) -> GameState:
    """BS-SETUP in one go: {side: {own-side border state: units}}, 8 CSA and 7 Union units within the
    placement limits, and where each commander unit stands (if deployed)."""
    if not isinstance(deployment, Mapping) or not isinstance(commanders, Mapping):
        raise RuleError("BS-SETUP", "The deployment is a count of units per side and state")
    for side in SIDES:
        placed = deployment.get(side, {})
        if not isinstance(placed, Mapping):
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]}: a count of units per state")
        for area, n in placed.items():
            a = state.board.area(area)
            if not a.border or a.side != side:
                raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} deploys into its own-side border states; {area} is not one")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0 or n > state.room(area, side):
                raise RuleError("BS-D.1", f"{area}: 0 to {BORDER_LIMIT} {SIDE_NAME[side]} units")
            state = state.with_count(area, side, n)
        if state.on_board(side) != DEPLOY[side]:
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} deploys {DEPLOY[side]} units, not {state.on_board(side)}")
        where = commanders.get(side, "")
        if where and state.count(where, side) < 1:
            raise RuleError("BS-SETUP", f"The {SIDE_NAME[side]} commander unit stands with a unit: {where} has none")
        if not where and state.pool(side) < 1:
            raise RuleError("BS-SETUP", f"Every {SIDE_NAME[side]} piece is deployed, the commander unit too: say "
                                        "where it stands")
        state = replace(state, commander_at={**state.commander_at, side: where})
    return replace(state, phase=DRAW, turn="")
