"""The play sheet's unit table (BR-2.4): the rows players enter, checked as digest section 10 says.

A roster file (what the setup page saves) is JSON or YAML: a list of rows, or {"roster": [...]}, read within bounds
by `read_roster_file`. Pasted play-sheet text has one unit per line: name, side, "entry hex/entry turn", the SP track (its highest box is the unit's
strength), and optionally "grey" for a Beauregard counter and the bank it enters on. Fields are
separated by tabs, commas or semicolons, e.g. `Evans' Brigade, CSA, 1/1, 3-2-1`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from companion.engine import RuleError
from companion.loading import JSON, YAML, LoadRefused, load_text
from companion.quoting import quote

from .rules import COUNTERS, CSA, MAX_SP_ON_TABLE, NORTH, SIDES, SOUTH, STACK_LIMIT, TURNS, UNION

GREY_WORDS = {"grey", "gray", "yes", "y", "beauregard"}
MAX_SHEET, MAX_LINES = 100_000, 500  # characters and lines of a pasted play sheet
MAX_UNITS = MAX_LINES                # rows of a roster: far more than the game's 25 counters
NAME_LIMIT, HEX_LIMIT = 100, 8       # characters of a unit's name and of an entry hex's label
FIELDS = ("name", "side", "entry_hex", "entry_turn", "max_sp", "grey", "bank")


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


def roster_from_rows(rows: Any) -> tuple[UnitSpec, ...]:
    """Play-sheet rows (dicts) as unit specs, each field checked (digest section 10)."""
    if not isinstance(rows, (list, tuple)) or not rows:
        raise RuleError("BR-2.4", "The roster is empty: enter the units from your play sheet")
    if len(rows) > MAX_UNITS:
        raise RuleError("BR-2.4", f"The roster has {len(rows)} rows: at most {MAX_UNITS} are read")
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
    unknown = sorted(str(k) for k in row if k not in FIELDS)
    if unknown:
        raise RuleError("BR-2.4", f"Row {i}: a unit has no field {quote(unknown[0])} (the fields are "
                                  f"{', '.join(FIELDS)})")
    name = str(row.get("name") or "").strip()
    if not name:
        raise RuleError("BR-2.4", f"Row {i}: the unit needs a name")
    if len(name) > NAME_LIMIT:
        raise RuleError("BR-2.4", f"Row {i}: the name is longer than {NAME_LIMIT} characters: {quote(name)}")
    side = str(row.get("side") or "").strip().upper()
    if side not in SIDES:
        raise RuleError("BR-2.4", f"{name}: side must be CSA or UNION, not {quote(row.get('side'))}")
    entry_hex = str(row.get("entry_hex") if row.get("entry_hex") is not None else "").strip()
    if not entry_hex or not entry_hex.isalnum() or len(entry_hex) > HEX_LIMIT:
        given = f", not {quote(row.get('entry_hex'))}" if entry_hex else ""
        raise RuleError("BR-7.0", f"{name}: the entry hex is a label of up to {HEX_LIMIT} digits or letters "
                                  f"('1', 'A'){given}")
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
        raise RuleError("BR-9.0", f"{name}: the bank is north or south of Bull Run, not {quote(row.get('bank'))}")
    return UnitSpec(name, side, entry_hex, turn, max_sp, grey, bank)


def _whole(value: Any, what: str, rule: str) -> int:
    if isinstance(value, bool) or (isinstance(value, str) and len(value) > 20):
        raise RuleError(rule, f"{what} must be a whole number, not {quote(value)}")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise RuleError(rule, f"{what} must be a whole number, not {quote(value)}") from None
    if not math.isfinite(number) or number != int(number):
        raise RuleError(rule, f"{what} must be a whole number, not {quote(value)}")
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


def read_roster_file(raw: str | bytes) -> list[dict]:
    """The roster of a file opened or pasted (BR-2.4): JSON or YAML, a list of unit rows or {"roster": [...]} (as the
    setup page saves it), read within bounds (companion.loading) and every row checked. Anything else is refused
    with a RuleError saying what is wrong; nothing else is raised."""
    fmt = JSON if raw.lstrip()[:1] in ("[", "{", b"[", b"{") else YAML
    try:
        data = load_text(raw, fmt, "The roster file")
    except LoadRefused as exc:
        raise RuleError("BR-2.4", str(exc)) from None
    rows = data.get("roster") if isinstance(data, dict) else data
    roster_from_rows(rows)
    return rows


def parse_play_sheet(text: str) -> list[dict]:
    """Rows for the roster from pasted text; RuleError naming the line that cannot be read. At most 100 kB and 500
    lines are read (a play sheet has a few dozen units)."""
    if not isinstance(text, str) or len(text) > MAX_SHEET or text.count("\n") >= MAX_LINES:
        raise RuleError("BR-2.4", f"A play sheet is text of at most {MAX_LINES} lines and {MAX_SHEET // 1000} kB: "
                                  "paste one unit per line")
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in re.split(r"\t|;|,", line)]
        if len(fields) < 4:
            raise RuleError("BR-2.4", f"Line {number}: expected name, side, hex/turn and SP track; got {quote(line.strip())}")
        name, side, entry, track, *rest = fields
        match = re.fullmatch(r"([0-9A-Za-z]{1,8})\s*/\s*(\d{1,3})", entry)
        if not match:
            raise RuleError("BR-7.0", f"Line {number}: the entry is 'hex/turn' such as 1/1 or A/3, not {quote(entry)}")
        boxes = [int(b) for b in re.findall(r"\d+", track) if len(b) <= 3]
        if not boxes:
            raise RuleError("BR-2.4", f"Line {number}: the SP track {quote(track)} has no numbers")
        extra = {f.lower() for f in rest if f}
        bank = next((b for b in (NORTH, SOUTH) if b in extra), "")
        unknown = extra - GREY_WORDS - {NORTH, SOUTH, "no", "n", ""}
        if unknown:
            raise RuleError("BR-2.4", f"Line {number}: cannot read {quote(', '.join(sorted(unknown)))}")
        rows.append({"name": name, "side": side.upper(), "entry_hex": match.group(1),
                     "entry_turn": int(match.group(2)), "max_sp": max(boxes),
                     "grey": bool(extra & GREY_WORDS), "bank": bank})
    if not rows:
        raise RuleError("BR-2.4", "Nothing to read: paste one unit per line")
    return rows
