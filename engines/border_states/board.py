"""The board file: what the source's lost pictures held, entered once by the players from their board and cards.

Checked as digest section 10 says: the eight border states the source names, each with its side (at least
3 a side for the deployment, A20; 4 a side with the option), a combat number and VP; 6 Union and 5 CSA
home states with recruitment success values 2..6; a symmetric, connected adjacency; whole-number
damage-track squares; a distrust loop of at least one square; every commander face with at least one
action; each side's deck (a face modifier with its signed value, or its size when either sign may be taken).
"""
from __future__ import annotations

import json
import re
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
    `LIMITS`, every field checked; RuleError naming the field and what is wrong, and nothing else. `four_a_side`:
    the A20 option, 4 own-side border states a side."""
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
        raise RuleError("BS-SETUP", cut(_misfit(data, str(exc)))) from None
    check_board(board, four_a_side)
    return board


def _format(text: str | bytes) -> str:
    """JSON when the text opens as JSON does, else YAML."""
    start = text[:100].lstrip()[:1]
    return JSON if start in ("{", "[", b"{", b"[") else YAML


def board_outline() -> dict:
    """A board to fill in, with what the rules themselves fix (digest section 10): the eight border states by name,
    each side's count of home states (6 Union, 5 CSA) and of commander faces (2 CSA, 4 Union), empty decks; every
    value printed on the board is left for the players."""
    homes = [{"side": side, "border": False} for side in (U, C) for _ in range(HOME_STATES[side])]
    return {"areas": [{"name": name, "border": True} for name in BORDER_STATES] + homes, "adjacency": [],
            "damage_u": [], "damage_c": [], "commanders": {side: [{} for _ in range(COMMANDER_FACES[side])]
                                                            for side in SIDES},
            "cards": {side: [] for side in SIDES}, "units": {}}


# --- a field that does not fit, in the words of the board ------------------------------------------------------

TOP = {"areas": "The states", "adjacency": "The adjacency", "damage_u": "The damage track toward the Union",
       "damage_c": "The damage track toward the CSA", "distrust_length": "The distrust loop's length",
       "commanders": "The commander faces", "units": "The unit pieces", "cards": "The decks",
       "example": "The example label"}
FIELD = {"name": "name", "side": "side", "border": "border state (yes or no)", "number": "combat number",
         "vp": "VP", "success": "recruitment success value", "force_cut": "force cut", "star": "star VP",
         "actions": "actions a round", "ability": "ability", "copies": "copies", "phase": "phase",
         "effect": "effect", "value": "value", "text": "text"}
KIND = {"int": "a whole number", "str": "text", "float": "a number"}


def _misfit(data: Any, problem: str) -> str:
    """What the record reader found (a path such as Board.areas[2].number and what is wrong) in a player's words:
    "State 3 (Virginia): the combat number must be a whole number, not 'x'"."""
    found = re.fullmatch(r"Board((?:\.[^.\[:]+|\[\d+\])*): (.*)", problem, re.S)
    if not isinstance(data, Mapping):
        return f"{WHAT} does not fit: it must be a set of named fields ({', '.join(TOP)}), not {quote(data)}"
    path: list = [int(p[1:-1]) if p[0] == "[" else p[1:] for p in re.findall(r"\.[^.\[]+|\[\d+\]", found[1])] \
        if found else None
    value = data
    try:
        for key in path:
            value = value[key]
    except (KeyError, IndexError, TypeError):
        path = None
    if path is None:
        return f"{WHAT} does not fit: {problem}"
    what = found[2]
    if what.startswith("missing '"):
        return f"{_named(data, path + [what[9:-1]])} is missing"
    expected = re.match(r"expected (int|str|float),", what)
    need = (KIND[expected[1]] if expected else "yes or no (true or false)" if what.startswith("expected true")
            else "a set of named fields" if what == "expected an object" else "a list" if what == "expected a list"
            else None)
    if need:
        return f"{_named(data, path)} must be {need}, not {quote(value)}"
    items = re.match(r"expected (\d+) items", what)
    if items and path[0] == "adjacency":
        return f"{_named(data, path[:2])}: a border joins 2 states, not {len(value)}"
    return f"{_named(data, path)}: {what}"


def _named(data: Mapping, path: list) -> str:
    """The thing at `path` of the board's data as a player names it: "State 3 (Virginia): the combat number",
    "CSA card 2 ('Lee'): the copies", "Union unit pieces"."""
    top = path[0]
    if len(path) == 1:
        return TOP.get(top, f"{WHAT}: the field {quote(top)}")
    if top in ("commanders", "cards", "units"):
        side = SIDE_NAME.get(path[1], quote(path[1]))
        if top == "units":
            return f"{side} unit pieces"
        if len(path) == 2:
            return f"The {side} {'commander faces' if top == 'commanders' else 'deck'}"
        record, rest = f"{side} {'commander face' if top == 'commanders' else 'card'} {path[2] + 1}", path[3:]
        records = data[top][path[1]]
    else:
        record = {"areas": "State", "adjacency": "Adjacency", "damage_u": "Damage track square U",
                  "damage_c": "Damage track square C"}.get(top, f"{WHAT}: {quote(top)}")
        record, rest, records = f"{record}{' ' if top in ('areas', 'adjacency') else ''}{path[1] + 1}", path[2:], \
            data[top]
    item = records[path[-len(rest) - 1]] if isinstance(path[-len(rest) - 1], int) else None
    name = item.get("name") if isinstance(item, Mapping) else None
    if isinstance(name, str) and name:
        record += f" ({cut(name, 40)})"
    if not rest:
        return record
    if top == "adjacency":
        return f"{record}: state {rest[0] + 1}" if isinstance(rest[0], int) else record
    return f"{record}: the {FIELD.get(rest[0], quote(rest[0]))}"


# --- the board's checks (digest section 10) --------------------------------------------------------------------

def check_board(board: Board, four_a_side: bool = False) -> None:
    names = [a.name for a in board.areas]
    for i, a in enumerate(board.areas, 1):
        if not a.name.strip():
            raise RuleError("BS-SETUP", f"State {i}: the name is empty")
    dupes = sorted(n for n, k in Counter(names).items() if k > 1)
    if dupes:
        raise RuleError("BS-SETUP", f"State names must be unique: {cut(dupes[0], 60)} is entered twice")
    for a in board.areas:
        if a.side not in SIDES:
            raise RuleError("BS-SETUP", f"State {cut(a.name, 60)}: the side is C (CSA) or U (Union), "
                                        f"not {quote(a.side)}")
    borders = [a for a in board.areas if a.border]
    for a in borders:
        if a.name not in BORDER_STATES:
            raise RuleError("BS-SETUP", f"State {cut(a.name, 60)} is marked a border state, but the rules name only "
                                        f"eight: {', '.join(BORDER_STATES)}")
    for name in BORDER_STATES:
        if name not in {a.name for a in borders}:
            raise RuleError("BS-SETUP", f"Border state {name} is missing: enter it, marked a border state")
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
                raise RuleError("BS-REC", f"Home state {cut(h.name, 60)}: the recruitment success value is 2 to 6, "
                                          + ("but it is missing" if h.success == 0 else f"not {h.success}"))
    taken: dict[int, str] = {}
    for a in sorted(borders, key=lambda a: a.number):
        if a.number < 1:
            raise RuleError("BS-CMB", f"Border state {a.name}: the combat number is 1 or more, "
                                      + ("but it is missing" if a.number == 0 else f"not {a.number}"))
        if a.number in taken:
            raise RuleError("BS-CMB", f"Border states {taken[a.number]} and {a.name} both have combat number "
                                      f"{a.number}: each has its own")
        taken[a.number] = a.name
        if a.vp < 0:
            raise RuleError("BS-VIC", f"Border state {a.name}: the VP are 0 or more, not {a.vp}")
    _check_adjacency(board, names)
    for track, squares in (("U", board.damage_u), ("C", board.damage_c)):
        for i, square in enumerate(squares, 1):
            for field, value in (("force cut", square.force_cut), ("star VP", square.star)):
                if value < 0:
                    raise RuleError("BS-VIC.3", f"Damage track square {track}{i}: the {field} is 0 or more, "
                                                f"not {value}")
    if board.distrust_length < 1:
        raise RuleError("BS-D.10", f"The distrust loop has at least one square, not {board.distrust_length}")
    for side in SIDES:
        faces = board.commanders.get(side, ())
        if len(faces) != COMMANDER_FACES[side]:
            raise RuleError("BS-D.10", f"{SIDE_NAME[side]} has {COMMANDER_FACES[side]} commander faces, "
                                       f"not {len(faces)}")
        for i, face in enumerate(faces, 1):
            if face.actions < 1:
                raise RuleError("BS-D.7", f"{SIDE_NAME[side]} commander face {i}"
                                          f"{' (' + cut(face.name, 40) + ')' if face.name else ''}: the actions a "
                                          f"round are at least 1, not {face.actions}")
        pieces = board.units.get(side)
        if pieces is None:
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} unit pieces: the count is missing")
        if pieces < DEPLOY[side]:
            raise RuleError("BS-SETUP", f"{SIDE_NAME[side]} unit pieces: at least {DEPLOY[side]} (the "
                                        f"{SIDE_NAME[side]} deploys {DEPLOY[side]} units), not {pieces}")
        if side not in board.cards:
            raise RuleError("BS-D.9", f"The {SIDE_NAME[side]} deck is missing: a list of its cards")
        for i, card in enumerate(board.cards[side], 1):
            _check_card(f"{SIDE_NAME[side]} card {i}{' (' + cut(card.name, 40) + ')' if card.name else ''}", card)


def _check_card(name: str, card: Card) -> None:
    """BS-CARD / BS-MOD: a card's copies, phase, effect and the value its effect needs."""
    if card.copies < 1:
        raise RuleError("BS-CARD", f"{name}: the copies are 1 or more, not {card.copies}")
    if card.phase not in ("combat", "action"):
        raise RuleError("BS-CARD", f"{name}: the phase is combat or action, not {quote(card.phase)}")
    if card.effect not in EFFECTS:
        raise RuleError("BS-CARD", f"{name}: the effect is one of {', '.join(EFFECTS)}, not {quote(card.effect)}")
    if card.effect == "ADD_STOCK_DICE" and card.value < 0:
        raise RuleError("BS-CARD", f"{name}: the dice added from the stock (its value) are 0 or more, not {card.value}")
    if card.effect == "ADD_FACE" and not 1 <= card.value <= 6:
        raise RuleError("BS-MOD", f"{name}: the face added (its value) is 1 to 6, not {card.value}")
    if card.effect == "MODIFY" and card.value == 0:
        raise RuleError("BS-MOD", f"{name}: a face modifier's value is signed, such as +1 or -1, not 0")
    if card.effect == "MODIFY_EITHER" and card.value < 1:
        raise RuleError("BS-MOD", f"{name}: a modifier of either sign is entered as its size, 1 or more, not "
                                  f"{card.value}")


def _check_adjacency(board: Board, names: list[str]) -> None:
    """BS-D.4: each border joins two different states of the board, and every state can be reached."""
    graph = nx.Graph()
    graph.add_nodes_from(names)
    known = set(names)
    for pair in board.adjacency:
        label = f"Adjacency {cut(pair[0], 40)}–{cut(pair[1], 40)}"
        if pair[0] == pair[1]:
            raise RuleError("BS-D.4", f"{label}: a state does not border itself")
        for name in pair:
            if name not in known:
                raise RuleError("BS-D.4", f"{label}: {cut(name, 40)} is not on the board")
        graph.add_edge(*pair)
    if not nx.is_connected(graph):
        parts = sorted((sorted(c) for c in nx.connected_components(graph)), key=len)
        raise RuleError("BS-D.4", cut(f"The adjacency leaves {', '.join(parts[0])} cut off from the other states: "
                                      f"add a border joining them"))


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
