"""The players' map (digest section 8): boxes and the rail, river and road lines between them.

Players describe their own map once, as a list of boxes and a list of lines in the session setup,
or as a JSON or YAML file, read within bounds (companion.loading: size, depth, values, text length,
number size; YAML anchors and aliases refused). Everything is checked as the digest says: box ids
unique, both ends of every line existing, line types, alignments and recruitment points from the
allowed values; a dangling line, a duplicate box or a bad field is refused with a message naming it
and quoting at most a short prefix of the bad value (HD-8). Isolated boxes and missing designated
boxes are warnings.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Mapping

import networkx as nx

from companion.engine import RuleError
from companion.loading import JSON, YAML, Limits, LoadRefused, check_plain, load_text
from companion.quoting import cut, quote

from . import entries
from .rules import ALIGNMENTS, DESIGNATED, EUROPE, LANDED_FORTS, LINE_TYPES, NEUTRAL

RULE = "HD-8"
BOX_FIELDS = ("id", "name", "state", "alignment", "rp", "port", "fort", "x", "y")
LINE_FIELDS = ("from", "to", "type")
MAP_FIELDS = ("boxes", "lines", "designated", "label")
# A map is a few hundred boxes and lines: these bounds refuse a hostile file quickly, in a few megabytes.
LIMITS = Limits(bytes=500_000, depth=8, nodes=50_000, text=200, digits=9)
SHORT = 24        # characters of a box id named in a message about a line
ISOLATED = 5      # boxes without a line named one by one in the warnings


@dataclass(frozen=True)
class Box:
    id: str
    name: str
    state: str = ""
    alignment: str = NEUTRAL   # the shield: USA, CSA or neutral
    rp: int = 0                # recruitment points
    port: bool = False
    fort: bool = False
    x: float | None = None
    y: float | None = None


@dataclass(frozen=True)
class Line:
    a: str
    b: str
    type: str  # rail, river or road

    def text(self) -> str:
        return f"{cut(self.a, SHORT)}–{cut(self.b, SHORT)} {self.type}"


@dataclass(frozen=True)
class GameMap:
    boxes: tuple[Box, ...]
    lines: tuple[Line, ...]
    designated: tuple[tuple[str, str], ...] = ()  # (role, box id) where the id differs from the role
    label: str = ""                               # "EXAMPLE ..." on the shipped example

    @cached_property
    def index(self) -> dict[str, Box]:
        return {b.id: b for b in self.boxes}

    @cached_property
    def graph(self) -> nx.MultiGraph:
        """The map as an undirected multigraph: node attributes from the boxes, an edge per line (its type and
        the line itself)."""
        graph = nx.MultiGraph()
        for b in self.boxes:
            graph.add_node(b.id, name=b.name, alignment=b.alignment, rp=b.rp, port=b.port, fort=b.fort)
        for line in self.lines:
            graph.add_edge(line.a, line.b, type=line.type, line=line)
        return graph

    @cached_property
    def positions(self) -> dict[str, tuple[float, float]]:
        """Where to draw each box: the players' x,y when every box has them, else a fixed spring layout."""
        if all(b.x is not None for b in self.boxes):
            return {b.id: (b.x, b.y) for b in self.boxes}
        layout = nx.spring_layout(nx.Graph(self.graph), seed=1)
        return {node: (float(x), float(y)) for node, (x, y) in layout.items()}

    def box(self, box_id: str) -> Box:
        found = self.index.get(box_id)
        if found is None:
            raise RuleError(RULE, f"There is no box {quote(box_id)} on the map")
        return found

    def has(self, box_id: str) -> bool:
        return box_id in self.index

    def role(self, role: str) -> str | None:
        """The box id of a designated role (Washington, Richmond, a border-state city, Europe), if any."""
        box_id = dict(self.designated).get(role, role)
        return box_id if self.has(box_id) else None

    def to_data(self) -> dict:
        """The map as the file format writes it."""
        boxes = []
        for b in self.boxes:
            row = {"id": b.id, "name": b.name, "state": b.state, "alignment": b.alignment, "rp": b.rp,
                   "port": b.port, "fort": b.fort}
            if b.x is not None:
                row.update(x=b.x, y=b.y)
            boxes.append(row)
        data = {"boxes": boxes, "lines": [{"from": l.a, "to": l.b, "type": l.type} for l in self.lines]}
        if self.designated:
            data["designated"] = dict(self.designated)
        if self.label:
            data["label"] = self.label
        return data


def _box(i: int, row: Any) -> Box:
    where = f"Box {i}"
    if not isinstance(row, Mapping):
        raise RuleError(RULE, f"{where} is not a box (a table of fields)")
    box_id = entries.text(row.get("id"), f"{where}: 'id'", RULE)
    where = f"Box {quote(box_id)}"
    entries.fields(row, BOX_FIELDS, where, RULE)
    name = row.get("name", box_id)
    name = entries.text(name, f"{where}: 'name'", RULE)
    state = row.get("state", "")
    if not isinstance(state, str):
        raise RuleError(RULE, f"{where}: 'state' must be text, not {quote(state)}")
    alignment = entries.choice(row.get("alignment", NEUTRAL), ALIGNMENTS, f"{where}: 'alignment'", RULE)
    rp = entries.whole(row.get("rp", 0), f"{where}: 'rp' (recruitment points)", RULE, 0)
    port = entries.flag(row.get("port", False), f"{where}: 'port'", RULE)
    fort = entries.flag(row.get("fort", False), f"{where}: 'fort'", RULE)
    if ("x" in row) != ("y" in row):
        raise RuleError(RULE, f"{where}: give both 'x' and 'y', or neither")
    x = y = None
    if "x" in row:
        x, y = (_coordinate(row[k], f"{where}: '{k}'") for k in ("x", "y"))
    return Box(box_id, name, state.strip(), alignment, rp, port, fort, x, y)


def _coordinate(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or abs(value) == float("inf"):
        raise RuleError(RULE, f"{what} must be a number, not {quote(value)}")
    return float(value)


def _line(i: int, row: Any, ids: set[str]) -> Line:
    where = f"Line {i}"
    if not isinstance(row, Mapping):
        raise RuleError(RULE, f"{where} is not a line (a table with 'from', 'to' and 'type')")
    entries.fields(row, LINE_FIELDS, where, RULE)
    a = entries.text(row.get("from"), f"{where}: 'from'", RULE)
    b = entries.text(row.get("to"), f"{where}: 'to'", RULE)
    kind = entries.choice(row.get("type"), LINE_TYPES, f"{where} ({cut(a, SHORT)}–{cut(b, SHORT)}): 'type'", RULE)
    line = Line(a, b, kind)
    for end in (a, b):
        if end not in ids:
            raise RuleError(RULE, f"{where} ({line.text()}) is dangling: there is no box {quote(end)}")
    if a == b:
        raise RuleError(RULE, f"{where} joins box {quote(a)} to itself")
    return line


def map_from_data(data: Any) -> GameMap:
    """The map from its description (a dict with 'boxes' and 'lines', plain data within `LIMITS`); RuleError
    naming the first fault."""
    try:
        check_plain(data, "The map", LIMITS)
    except LoadRefused as exc:
        raise RuleError(RULE, str(exc)) from None
    if not isinstance(data, Mapping):
        raise RuleError(RULE, "The map is a table with 'boxes' and 'lines'")
    entries.fields(data, MAP_FIELDS, "The map", RULE)
    rows = data.get("boxes")
    if not isinstance(rows, (list, tuple)) or not rows:
        raise RuleError(RULE, "The map has no boxes: list them under 'boxes'")
    boxes = tuple(_box(i, row) for i, row in enumerate(rows, start=1))
    seen: set[str] = set()
    for b in boxes:
        if b.id in seen:
            raise RuleError(RULE, f"Box {quote(b.id)} is listed twice: box ids must be unique")
        seen.add(b.id)
    line_rows = data.get("lines", [])
    if not isinstance(line_rows, (list, tuple)):
        raise RuleError(RULE, "'lines' must be a list of lines")
    lines = tuple(_line(i, row, seen) for i, row in enumerate(line_rows, start=1))
    pairs: set[tuple[str, str, str]] = set()
    for line in lines:
        key = (*sorted((line.a, line.b)), line.type)
        if key in pairs:
            raise RuleError(RULE, f"The line {line.text()} is listed twice")
        pairs.add(key)
    designated = entries.mapping(data.get("designated", {}), "'designated'", RULE)
    for role, box_id in designated.items():
        if role not in DESIGNATED:
            raise RuleError(RULE, f"'designated': {quote(role)} is not a role the rules name ({', '.join(DESIGNATED)})")
        if entries.text(box_id, f"'designated' {role}", RULE) not in seen:
            raise RuleError(RULE, f"'designated' {role}: there is no box {quote(box_id)}")
    label = data.get("label", "")
    if not isinstance(label, str):
        raise RuleError(RULE, "'label' must be text")
    game_map = GameMap(boxes, lines, tuple(sorted((r, v.strip()) for r, v in designated.items())), label)
    for role in LANDED_FORTS:
        box_id = game_map.role(role)
        if box_id and not game_map.box(box_id).port:
            raise RuleError("HD-5.4", f"The box designated {role} ({quote(box_id)}) must be a port: it counts as a "
                                      "port the Union took by landing")
    return game_map


def map_warnings(game_map: GameMap) -> list[str]:
    """What is legal but worth a look: boxes with no line (the first few named), and designated boxes the map
    lacks."""
    joined = {end for line in game_map.lines for end in (line.a, line.b)}
    europe = game_map.role(EUROPE)
    isolated = [b.id for b in game_map.boxes if b.id not in joined and b.id != europe]
    warnings = [f"Box {quote(b)} has no line to any other box" for b in isolated[:ISOLATED]]
    if len(isolated) > ISOLATED:
        warnings.append(f"{len(isolated) - ISOLATED} more boxes have no line to any other box")
    missing = [role for role in DESIGNATED if game_map.role(role) is None]
    if missing:
        warnings.append("No box for: " + ", ".join(missing) + " (give the box this id, or map it under "
                        "'designated'); the rules that name them cannot be applied until then")
    return warnings


def parse_map_text(text: str | bytes, fmt: str | None = None) -> GameMap:
    """A map from the text of a JSON or YAML file (JSON when it opens as JSON does, unless `fmt` says), read
    within `LIMITS`; RuleError saying what is wrong, and nothing else."""
    try:
        data = load_text(text, fmt or map_format(text), "The map file", LIMITS)
    except LoadRefused as exc:
        raise RuleError(RULE, str(exc)) from None
    return map_from_data(data)


def map_format(text: str | bytes) -> str:
    """JSON when the text opens as JSON does, else YAML."""
    start = text[:100].lstrip()[:1]
    return JSON if start in ("{", "[", b"{", b"[") else YAML


def load_map_file(path: str | Path) -> GameMap:
    """A map from a .json, .yaml or .yml file."""
    path = Path(path)
    fmt = {".json": JSON, ".yaml": YAML, ".yml": YAML}.get(path.suffix.lower())
    if fmt is None:
        raise RuleError(RULE, f"{quote(path.name)}: a map file ends in .json, .yaml or .yml")
    return parse_map_text(path.read_bytes(), fmt)
