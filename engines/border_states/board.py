"""The board file: what the source's lost pictures held, entered once by the players from their board and cards.

Checked as digest section 10 says: the eight border states the source names, each with its side (at least
3 a side for the deployment, A20; 4 a side with the option), a combat number and VP; 6 Union and 5 CSA
home states with recruitment success values 2..6; a symmetric, connected adjacency; whole-number
damage-track squares; a distrust loop of at least one square; every commander face with at least one
action; each side's deck (a face modifier with its signed value, or its size when either sign may be taken).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

import networkx as nx

from companion.engine import RuleError
from companion.loading import JSON, YAML, Limits, LoadRefused, check_plain, load_text
from companion.quoting import cut, quote
from companion.records import from_data, to_data

from .rules import (BORDER_LIMIT, BORDER_STATES, C, COMMANDER_FACES, DEPLOY, EFFECTS, HOME_STATES, SIDE_NAME, SIDES,
                    U)

# A board file is a few hundred values: these bounds refuse a hostile one quickly, in a few megabytes.
LIMITS = Limits(bytes=200_000, depth=8, nodes=5_000, text=1_000, digits=6)
WHAT = "The board file"


@dataclass(frozen=True)
class Area:
    """A state on the board: a border state (with its combat number and VP) or a home state (with its
    recruitment success value)."""

    name: str
    side: str            # the side it belongs to: a home state's owner, a border state's own side
    border: bool
    number: int = 0      # border states: the order of combat (BS-CMB)
    vp: int = 0          # border states: victory points (BS-VIC)
    success: int = 0     # home states: a recruitment roll of this or more succeeds (BS-REC)


@dataclass(frozen=True)
class Square:
    """A damage-track square: the force cut of the side it lies toward and the other side's star VP."""

    force_cut: int = 0
    star: int = 0


@dataclass(frozen=True)
class Commander:
    name: str
    actions: int          # actions a round while this face is shown (BS-D.7)
    ability: str = ""     # the card's ability, as printed (resolved by the players)


@dataclass(frozen=True)
class Card:
    """A card of a side's deck with the companion's effect vocabulary (digest section 10)."""

    name: str
    copies: int = 1
    phase: str = "combat"          # the icon: "combat" (rifleman) or "action" (unit)
    effect: str = "FREE_TEXT"      # one of rules.EFFECTS
    value: int = 0                 # ADD_STOCK_DICE n, ADD_FACE f, MODIFY the signed k printed, MODIFY_EITHER k
    text: str = ""


@dataclass(frozen=True)
class Board:
    areas: tuple[Area, ...]
    adjacency: tuple[tuple[str, str], ...]
    damage_u: tuple[Square, ...]    # squares above START, toward the Union: Union force cuts, CSA stars
    damage_c: tuple[Square, ...]    # squares below START, toward the CSA: CSA force cuts, Union stars
    distrust_length: int
    commanders: Mapping[str, tuple[Commander, ...]]
    units: Mapping[str, int]        # pieces a side has, its commander unit included
    cards: Mapping[str, tuple[Card, ...]]
    example: str = ""               # the label of an example board (invented values)

    def area(self, name: str) -> Area:
        found = self._by_name.get(name) if isinstance(name, str) else None
        if found is None:
            raise RuleError("BS-D.1", f"There is no state {quote(name)} on the board")
        return found

    @cached_property
    def _by_name(self) -> dict[str, Area]:
        return {a.name: a for a in self.areas}

    @cached_property
    def borders(self) -> tuple[Area, ...]:
        """Border states in their order of combat."""
        return tuple(sorted((a for a in self.areas if a.border), key=lambda a: a.number))

    def homes(self, side: str) -> tuple[Area, ...]:
        return tuple(a for a in self.areas if not a.border and a.side == side)

    def neighbours(self, name: str) -> tuple[str, ...]:
        """BS-D.4: the states adjacent to `name` (whichever order the file names a pair in), in the board's order."""
        return self._neighbours[name]

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        near = {a.name: set() for a in self.areas}
        for a, b in self.adjacency:
            near[a].add(b)
            near[b].add(a)
        return {name: tuple(a.name for a in self.areas if a.name in found) for name, found in near.items()}

    def deck_size(self, side: str) -> int:
        return sum(card.copies for card in self.cards[side])

    def card(self, side: str, name: str) -> Card:
        for card in self.cards[side]:
            if card.name == name:
                return card
        raise RuleError("BS-D.9", f"{SIDE_NAME[side]} has no card {quote(name)} in its deck")

    def to_dict(self) -> dict:
        """The board as JSON data (a fresh copy each time: the board never changes, its text is made once)."""
        return json.loads(self._text)

    @cached_property
    def _text(self) -> str:
        return json.dumps(to_data(self))


def board_from_data(data: Any, four_a_side: bool = False) -> Board:
    """A board from its data, or from the file's text (JSON, or YAML as digest section 10 has it), read within
    `LIMITS`, every field checked; RuleError naming what is wrong, and nothing else. `four_a_side`: the A20
    option, 4 own-side border states a side."""
    try:
        if isinstance(data, (str, bytes)):
            data = load_text(data, _format(data), WHAT, LIMITS)
        else:
            check_plain(data, WHAT, LIMITS)
    except LoadRefused as exc:
        raise RuleError("BS-SETUP", str(exc)) from None
    try:
        board = from_data(Board, data)
    except (ValueError, TypeError) as exc:
        raise RuleError("BS-SETUP", cut(f"{WHAT} does not fit: {exc}")) from None
    check_board(board, four_a_side)
    return board


def _format(text: str | bytes) -> str:
    """JSON when the text opens as JSON does, else YAML."""
    start = text[:100].lstrip()[:1]
    return JSON if start in ("{", "[", b"{", b"[") else YAML


def check_board(board: Board, four_a_side: bool = False) -> None:
    names = [a.name for a in board.areas]
    dupes = sorted(n for n, k in Counter(names).items() if k > 1)
    if dupes:
        raise RuleError("BS-SETUP", f"State names must be unique: {quote(dupes, 80)}")
    for a in board.areas:
        if a.side not in SIDES:
            raise RuleError("BS-SETUP", f"{quote(a.name)}: the side is C or U, not {quote(a.side)}")
    borders = [a for a in board.areas if a.border]
    if sorted(a.name for a in borders) != sorted(BORDER_STATES):
        raise RuleError("BS-SETUP", f"The border states are the eight the rules name: {', '.join(BORDER_STATES)}")
    for side in SIDES:
        own = [a.name for a in borders if a.side == side]
        least = -(-DEPLOY[side] // BORDER_LIMIT)     # the deployment, 3 units a state at most
        if four_a_side and len(own) != len(BORDER_STATES) // 2:
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} needs {len(BORDER_STATES) // 2} own-side border states "
                                        f"(this game's option: 4 a side), not {len(own)}")
        if len(own) < least:
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} needs at least {least} own-side border states to deploy "
                                        f"its {DEPLOY[side]} units, not {len(own)}")
        homes = board.homes(side)
        if len(homes) != HOME_STATES[side]:
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} has {HOME_STATES[side]} home states, not {len(homes)}")
        for h in homes:
            if not 2 <= h.success <= 6:
                raise RuleError("BS-REC", f"{quote(h.name)}: the recruitment success value is 2 to 6, not {h.success}")
    numbers = sorted(a.number for a in borders)
    if numbers != sorted(set(numbers)) or min(numbers) < 1:
        raise RuleError("BS-CMB", "Each border state has its own combat number (1 or more)")
    if any(a.vp < 0 for a in borders):
        raise RuleError("BS-VIC", "VP are 0 or more")
    _check_adjacency(board, names)
    for square in board.damage_u + board.damage_c:
        if square.force_cut < 0 or square.star < 0:
            raise RuleError("BS-VIC.3", "Force cuts and stars on the damage track are 0 or more")
    if board.distrust_length < 1:
        raise RuleError("BS-D.10", "The distrust loop has at least one square")
    for side in SIDES:
        faces = board.commanders.get(side, ())
        if len(faces) != COMMANDER_FACES[side]:
            raise RuleError("BS-D.10", f"{SIDE_NAME[side]} has {COMMANDER_FACES[side]} commander faces, not {len(faces)}")
        for face in faces:
            if face.actions < 1:
                raise RuleError("BS-D.7", f"{quote(face.name) if face.name else 'A commander'} needs at least 1 action")
        if board.units.get(side, 0) < 1:
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} needs a count of unit pieces")
        if side not in board.cards:
            raise RuleError("BS-D.9", f"{SIDE_NAME[side]} needs its deck: a list of its cards")
        for card in board.cards[side]:
            name = quote(card.name)
            if card.copies < 1 or card.effect not in EFFECTS or card.phase not in ("combat", "action"):
                raise RuleError("BS-CARD", f"{name}: copies 1 or more, phase combat or action, effect one of "
                                           f"{', '.join(EFFECTS)}")
            if card.effect == "ADD_STOCK_DICE" and card.value < 0:
                raise RuleError("BS-CARD", f"{name}: the dice added from the stock are 0 or more")
            if card.effect == "ADD_FACE" and not 1 <= card.value <= 6:
                raise RuleError("BS-MOD", f"{name}: the face added is 1 to 6")
            if card.effect == "MODIFY" and card.value == 0:
                raise RuleError("BS-MOD", f"{name}: a face modifier prints a signed value such as +1 or -1")
            if card.effect == "MODIFY_EITHER" and card.value < 1:
                raise RuleError("BS-MOD", f"{name}: a modifier of either sign is entered as its size, 1 or more")
    if board.units[C] < 8 or board.units[U] < 7:
        raise RuleError("BS-SETUP", "The CSA deploys 8 units and the Union 7: enter at least that many pieces")


def _check_adjacency(board: Board, names: list[str]) -> None:
    graph = nx.Graph()
    graph.add_nodes_from(names)
    known = set(names)
    for pair in board.adjacency:
        if len(pair) != 2 or pair[0] == pair[1] or any(n not in known for n in pair):
            raise RuleError("BS-D.4", f"Adjacency {quote(list(pair), 80)}: two different states of the board")
        graph.add_edge(*pair)
    if not nx.is_connected(graph):
        parts = [sorted(c) for c in nx.connected_components(graph)]
        raise RuleError("BS-D.4", cut(f"The adjacency is not connected: {'; '.join(', '.join(p) for p in parts)}"))


def force_cut(board: Board, side: str, reach: int, cumulative: bool = False) -> int:
    """BS-VIC.3 (A7): the force cut of `side` with the marker `reach` squares toward it: the square it
    stands on, or with the option every one of that side's squares it has reached."""
    squares = board.damage_u if side == U else board.damage_c
    if reach <= 0:
        return 0
    if cumulative:
        return sum(s.force_cut for s in squares[:reach])
    return squares[reach - 1].force_cut


def star(board: Board, damage: int, side: str) -> int:
    """BS-VIC.1/2: the star VP of `side` on the marker's square (CSA stars lie toward the Union)."""
    squares = board.damage_u if side == C else board.damage_c
    reach = damage if side == C else -damage
    return squares[reach - 1].star if reach > 0 else 0
