"""Shared set-up for the border-states tests: boards, deployments, hand-made positions, and a table played
action by action with scripted dice (through the event log when it starts from a setup).

The example board's values are invented (engines/border_states/example.py); the extra cards of the test
board are invented for the tests too. Only the state names and the two named cards come from the rules.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.engine import RuleError, Step, resolve_options
from companion.events import Event, Replay
from companion.spec import Legal
from engines.border_states import ENGINE
from engines.border_states.example import EXAMPLE_DEPLOYMENT, example_board
from engines.border_states.state import ACTION, GameState

C, U = "C", "U"
WV, MD, VA, NC = "West Virginia", "Maryland", "Virginia", "North Carolina"
KY, TN, MO, AR = "Kentucky", "Tennessee", "Missouri", "Arkansas"
U_HOMES = tuple(f"Union home {i}" for i in range(1, 7))   # success 3, 4, 5, 3, 4, 5 on the example board
C_HOMES = tuple(f"CSA home {i}" for i in range(1, 6))     # success 3, 4, 5, 3, 4
JACKSON, POTOMAC = "T.J. Jackson", "Army of the Potomac"
PLUS_C, MINUS_U, PLUS_U = "Test CSA +1", "Test Union -1", "Test Union +1"
MARCH_C, MARCH_U, ORDER_C, DRILL_C = "Test CSA march", "Test Union march", "Test CSA order", "Test CSA drill"

# Invented cards for the tests: face modifiers (BS-MOD) and action-phase cards (BS-CARD, BS-D.7).
TEST_CARDS = {
    C: [{"name": PLUS_C, "copies": 2, "phase": "combat", "effect": "MODIFY", "value": 1},
        {"name": MARCH_C, "copies": 1, "phase": "action", "effect": "COSTS_ACTION"},
        {"name": ORDER_C, "copies": 1, "phase": "action", "effect": "FREE_TEXT"},
        {"name": DRILL_C, "copies": 1, "phase": "action", "effect": "MODIFY", "value": 1}],
    U: [{"name": MINUS_U, "copies": 2, "phase": "combat", "effect": "MODIFY", "value": -1},
        {"name": PLUS_U, "copies": 1, "phase": "combat", "effect": "MODIFY", "value": 1},
        {"name": MARCH_U, "copies": 1, "phase": "action", "effect": "COSTS_ACTION"}],
}

# The worked example's armies (digest section 9): three CSA units next to West Virginia, two Union units in it.
EXAMPLE_BATTLE_DEPLOYMENT = {C: {VA: 3, NC: 2, TN: 2, AR: 1}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}


def legal(state: GameState, kind: str, param: str, **chosen: Any) -> Legal | None:
    """What the engine's spec offers now for one parameter of an action, given the parameters before it."""
    return ENGINE.actions.specs[kind].param(param).legal(state, chosen)


def offered(state: GameState, kind: str, param: str, **chosen: Any) -> tuple:
    """The values offered now for one parameter (barred ones left out)."""
    return legal(state, kind, param, **chosen).values


def barred(state: GameState, kind: str, param: str, **chosen: Any) -> dict:
    """The values shown as barred now for one parameter, each with the rule that bars it."""
    return {b.value: b.rule for b in legal(state, kind, param, **chosen).barred}


def board(**changes: Any) -> dict:
    """The example board (a deep copy), with fields replaced."""
    data = copy.deepcopy(example_board())
    data.update(copy.deepcopy(changes))
    return data


def full_board(**changes: Any) -> dict:
    """The example board with the invented test cards added to each deck."""
    data = board(**changes)
    for side, cards in TEST_CARDS.items():
        data["cards"][side] = data["cards"][side] + copy.deepcopy(cards)
    return data


def area_of(data: dict, name: str) -> dict:
    return next(a for a in data["areas"] if a["name"] == name)


def setup(board_data: dict | None = None, deployment: dict | None = None, commanders: dict | None = None) -> dict:
    """A deployed setup: the example deployment and commander units unless given."""
    return {"board": board_data or full_board(),
            "deployment": copy.deepcopy(EXAMPLE_DEPLOYMENT if deployment is None else deployment),
            "commanders": dict({C: VA, U: MD} if commanders is None else commanders)}


def start(setup_data: dict | None = None, **options: Any) -> GameState:
    return ENGINE.start(options, setup_data or setup())


def placed(state: GameState, units: dict[str, tuple[int, int]], **fields: Any) -> GameState:
    """The state with exactly these (CSA, Union) units on the board and other fields replaced."""
    counts = {a.name: {C: 0, U: 0} for a in state.board.areas}
    for area, (c, u) in units.items():
        counts[area] = {C: c, U: u}
    return replace(state, units=counts, **fields)


class Table:
    """A game played action by action with scripted dice: through the event log when it starts from a
    setup, or directly on a hand-made state."""

    def __init__(self, setup_data: dict | None = None, state: GameState | None = None, **options: Any):
        self.replay = None
        if state is None:
            self.replay = Replay(ENGINE, resolve_options(ENGINE.options, options), setup_data or setup())
        self._state = state
        self.steps: list[Step] = []

    @property
    def state(self) -> GameState:
        return self.replay.state if self.replay else self._state

    @property
    def events(self) -> list[Event]:
        return self.replay.events

    @property
    def battle(self):
        return self.state.battle

    def do(self, kind: str, *faces: int, **params: Any) -> Step:
        """Perform one action with exactly these dice; returns what the engine did."""
        action = {"type": kind, **params}
        dice = ScriptedDice(faces)
        step = ENGINE.apply(self.state, action, dice)
        assert dice.unused() == 0, f"{kind} left dice unused"
        if self.replay:
            self.replay.add(self.replay.action_event(action, ScriptedDice(faces)))
        else:
            self._state = step.state
        self.steps.append(step)
        return step

    def apply(self, kind: str, dice, **params: Any) -> Step:
        """Perform one action on a hand-made state with any dice source (for enumerating the dice)."""
        assert self.replay is None
        step = ENGINE.apply(self._state, {"type": kind, **params}, dice)
        self._state = step.state
        return step

    def modify(self, **fields: Any) -> None:
        """Change fields of a hand-made state (to set up a position)."""
        assert self.replay is None
        self._state = replace(self._state, **fields)

    def refuse(self, rule: str, kind: str, *faces: int, **params: Any) -> RuleError:
        """The action is illegal under `rule` and changes nothing."""
        before = self.state.to_dict()
        with pytest.raises(RuleError) as caught:
            self.do(kind, *faces, **params)
        assert caught.value.rule == rule, caught.value
        assert self.state.to_dict() == before
        return caught.value

    # --- the round's routine steps --------------------------------------------------------------
    def to_actions(self, first: str = C, faces: tuple[int, int] = (5, 2), bids: tuple[int, int] | None = None):
        """Draw, initiative (CSA 5 v Union 2 unless given) and the choice of the first player."""
        self.do("draw")
        if bids is not None:
            self.do("bid", c=bids[0], u=bids[1])
        self.do("roll_initiative", *faces)
        self.do("choose_first", first=first)

    def pass_all(self) -> None:
        """Both sides pass their remaining actions."""
        while self.state.phase == ACTION:
            self.do("pass_turn")

    def settle(self, faces: tuple[int, ...], damage: int = 0) -> Step:
        """One throw of every die left, all taken: `damage` of the 6s to the damage row, the rest confirmed."""
        self.do("throw", *faces)
        confirm = sorted(faces)
        for _ in range(damage):
            confirm.remove(6)
        return self.do("keep", confirm=confirm, damage=damage)

    def fight(self, attacker: tuple[int, ...], defender: tuple[int, ...], damage: tuple[int, int] = (0, 0),
              supply: tuple[int, int] = (0, 0)) -> Step:
        """A combat at its start: no start effects, these supply dice, one throw each, all taken."""
        self.do("start_effects")
        self.do("start_effects")
        self.do("commit_supply", count=supply[0])
        self.do("commit_supply", count=supply[1])
        self.settle(attacker, damage[0])
        return self.settle(defender, damage[1])


def battle_table(area: str, attacker: int, defender: int, entrenched: bool = False,
                 commanders: dict[str, str] | None = None, board_data: dict | None = None,
                 others: dict[str, tuple[int, int]] | None = None, **options: Any) -> Table:
    """A table at the start of the combat in `area` (the only state in combat): the attacker's and the
    defender's units there, each side's commander unit where given (else in the pool); other units as
    `others` says. The last action of the round is a Union pass."""
    state = start(setup(board_data), **options)
    own = state.board.area(area).side
    foe = C if own == U else U
    units = dict(others or {})
    units[area] = (attacker, defender) if foe == C else (defender, attacker)
    where = {C: "", U: "", **(commanders or {})}
    state = placed(state, units, commander_at=where, entrenched=(area,) if entrenched else (), phase=ACTION,
                   round=1, first=C, turn=U, actions_left={C: 0, U: 1}, hand={C: 2, U: 2},
                   deck={s: state.deck[s] - 2 for s in (C, U)})
    table = Table(state=state)
    table.do("pass_turn")
    assert table.state.battle.area == area
    return table


def action_table(units: dict[str, tuple[int, int]], first: str = C, actions: tuple[int, int] = (4, 3),
                 commanders: dict[str, str] | None = None, hand: tuple[int, int] = (2, 2), **options: Any) -> Table:
    """A table in round 1's action phase with exactly these (CSA, Union) units, `first` to act, the given
    actions left (CSA, Union), commander units where given (else in the pool) and cards in hand."""
    state = start(setup(), **options)
    hands = {C: hand[0], U: hand[1]}
    state = placed(state, units, commander_at={C: "", U: "", **(commanders or {})}, phase=ACTION, first=first,
                   turn=first, actions_left={C: actions[0], U: actions[1]}, hand=hands,
                   deck={s: state.deck[s] - hands[s] for s in (C, U)})
    return Table(state=state)


def at(phase: str, units: dict[str, tuple[int, int]], board_data: dict | None = None, options: dict | None = None,
       **fields: Any) -> Table:
    """A table at `phase` with exactly these (CSA, Union) units, no commander unit on the board unless given,
    and other fields replaced."""
    state = start(setup(board_data), **(options or {}))
    fields.setdefault("commander_at", {C: "", U: ""})
    return Table(state=placed(state, units, phase=phase, **fields))
