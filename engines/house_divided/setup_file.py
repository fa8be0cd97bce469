"""The setup file (HD-2, digest section 8): the players' whole setup (their map, units, leaders, MM, year, calendar
and the places the rules name) or their map alone, as JSON or YAML text, read within bounds (companion.loading:
size, depth, values, text length, number size; YAML anchors and aliases refused). A file that cannot be read is
refused under HD-2 with the loader's message; what it holds is checked when the game starts (state.new_state).
Its tables and entries as a form shows them: TABLES (each field's kind and choices), single_entries, map_summary."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.engine import RuleError
from companion.loading import Limits, LoadRefused, load_text

from . import entries
from .basic import basic_rules_from
from .gamemap import map_format, map_from_data, map_warnings
from .rules import ALIGNMENTS, ARMS, FACES, FULL, GRADES, LEADERS, LINE_TYPES, MILITIA, NEUTRAL, RAIL, SIDE_NAME, SIDES, \
    TURNS, USA, YEARS
from .state import BACK, FRONT

# A setup is a map of a few hundred boxes and lines and as many units: these bounds refuse a hostile file quickly.
LIMITS = Limits(bytes=1_000_000, depth=10, nodes=100_000, text=200, digits=9)


def read_setup(raw: str | bytes, fmt: str | None = None) -> dict:
    """The setup a file gives: its entries, or a map file's boxes and lines as the map of a setup with nothing
    else (JSON when the text opens as JSON does, unless `fmt` says); RuleError saying what is wrong."""
    try:
        data = load_text(raw, fmt or map_format(raw), "The setup file", LIMITS)
    except LoadRefused as exc:
        raise RuleError("HD-2", str(exc)) from None
    if not isinstance(data, dict):
        raise RuleError("HD-2", "The setup file is a table of the setup's entries (map, units, leaders, mm ...), "
                                "or a map's boxes and lines")
    return {"map": data} if "boxes" in data else data


@dataclass(frozen=True)
class Field:
    """One field of a row of the setup (a box, a line, a unit, a leader) as a form shows it: its key in the file,
    its title, its kind (text, number, choice, flag), its choices (the boxes: those of the map entered), whether it
    may be left empty, and what a new row holds."""

    key: str
    title: str
    kind: str = "text"
    values: tuple = ()
    optional: bool = False
    default: Any = None


# The setup's tables: where they are in the file, what a row is, its fields (gamemap and state read them).
TABLES = {
    "boxes": ("box", (
        Field("id", "id"), Field("name", "name"), Field("state", "state", optional=True),
        Field("alignment", "shield", "choice", ALIGNMENTS, default=NEUTRAL), Field("rp", "RP", "number", default=0),
        Field("port", "port", "flag"), Field("fort", "fort", "flag"), Field("x", "x", "number"),
        Field("y", "y", "number"))),
    "lines": ("line", (Field("from", "from", "choice"), Field("to", "to", "choice"),
                       Field("type", "type", "choice", LINE_TYPES, default=RAIL))),
    "units": ("unit", (
        Field("name", "name"), Field("side", "side", "choice", SIDES, default=USA),
        Field("arm", "arm", "choice", ARMS, default=ARMS[0]), Field("grade", "grade", "choice", GRADES, default=MILITIA),
        Field("face", "face", "choice", FACES, default=FULL), Field("box", "box", "choice"),
        Field("entrenched", "entrenched", "flag"), Field("border_state", "border-state militia (HD-4.8)", "flag"),
        Field("raised", "year raised", "number", optional=True))),
    "leaders": ("leader", (
        Field("name", "name", "choice", tuple(LEADERS), default=tuple(LEADERS)[0]),
        Field("front", "rating (front)", "number"), Field("back", "rating (back)", "number", optional=True),
        Field("face", "face up", "choice", (FRONT, BACK), optional=True),
        Field("box", "box, empty while not entered", "choice", optional=True))),
}
MAP_TABLES = ("boxes", "lines")
PLACES = {"southern_cities": "The 7 largest Southern cities (HD-6.2)",
          "landed_ports": "Ports the Union took by landing (HD-5.4)", "contained": "Of those, the contained ones (HD-5.4)"}


def single_entries(setup: Mapping[str, Any]) -> dict:
    """A setup's entries other than its tables, each checked for its kind as a form holds it (HD-2; the game's
    start checks the rest): both MM, the MM track, year, turn, calendar, the places, the basic rules."""
    mm = entries.mapping(setup.get("mm", {}), "'mm' (the maximum mobilisation of each side)", "HD-2")
    track = setup.get("mm_track")
    return {"mm": {s: entries.whole(mm.get(s, 0), f"{SIDE_NAME[s]} MM", "HD-2", 0) for s in SIDES},
            "mm_track": None if track is None else entries.whole(track, "The MM track", "HD-2", 1),
            "year": entries.whole(setup.get("year", YEARS[0]), "The year", "HD-2", YEARS[0], YEARS[-1]),
            "turn": entries.whole(setup.get("turn", 1), "The turn", "HD-2", 1, TURNS),
            "calendar": list(entries.names(setup.get("calendar", []), "The calendar", "HD-2", False)),
            **{k: list(entries.names(setup.get(k, []), f"'{k}'", "HD-2")) for k in PLACES},
            "basic_rules": basic_rules_from(setup.get("basic_rules"))}


def map_summary(data: Any) -> list[str]:
    """A map as entered, in a few sentences: its label, its boxes and lines, what is worth a look
    (map_warnings); RuleError (HD-8) saying what is wrong with it."""
    game_map = map_from_data(data)
    return [game_map.label] * bool(game_map.label) + [
        f"{len(game_map.boxes)} boxes, {len(game_map.lines)} lines: the map is valid"] + map_warnings(game_map)
