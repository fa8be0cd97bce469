"""The setup file (HD-2, digest section 8): the players' whole setup (their map, units, leaders, MM, year, calendar
and the places the rules name) or their map alone, as JSON or YAML text, read within bounds (companion.loading:
size, depth, values, text length, number size; YAML anchors and aliases refused). A file that cannot be read is
refused under HD-2 with the loader's message; what it holds is checked when the game starts (state.new_state)."""
from __future__ import annotations

from companion.engine import RuleError
from companion.loading import Limits, LoadRefused, load_text

from .gamemap import map_format

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
