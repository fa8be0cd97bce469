"""The play sheet's unit table (BR-2.4) as players paste or type it.

One unit per line: name, side, "entry hex/entry turn", the SP track (its highest box is the unit's
strength), and optionally "grey" for a Beauregard counter and the bank it enters on. Fields are
separated by tabs, commas or semicolons, e.g. `Evans' Brigade, CSA, 1/1, 3-2-1`.
"""
from __future__ import annotations

import re

from companion.engine import RuleError

from .rules import NORTH, SOUTH

GREY_WORDS = {"grey", "gray", "yes", "y", "beauregard"}


def parse_play_sheet(text: str) -> list[dict]:
    """Rows for the roster from pasted text; RuleError naming the line that cannot be read."""
    rows = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in re.split(r"\t|;|,", line)]
        if len(fields) < 4:
            raise RuleError("BR-2.4", f"Line {number}: expected name, side, hex/turn and SP track; got '{line.strip()}'")
        name, side, entry, track, *rest = fields
        match = re.fullmatch(r"([0-9A-Za-z]+)\s*/\s*(\d+)", entry)
        if not match:
            raise RuleError("BR-7.0", f"Line {number}: the entry is 'hex/turn' such as 1/1 or A/3, not '{entry}'")
        boxes = [int(b) for b in re.findall(r"\d+", track)]
        if not boxes:
            raise RuleError("BR-2.4", f"Line {number}: the SP track '{track}' has no numbers")
        extra = {f.lower() for f in rest if f}
        bank = next((b for b in (NORTH, SOUTH) if b in extra), "")
        unknown = extra - GREY_WORDS - {NORTH, SOUTH, "no", "n", ""}
        if unknown:
            raise RuleError("BR-2.4", f"Line {number}: cannot read '{', '.join(sorted(unknown))}'")
        rows.append({"name": name, "side": side.upper(), "entry_hex": match.group(1),
                     "entry_turn": int(match.group(2)), "max_sp": max(boxes),
                     "grey": bool(extra & GREY_WORDS), "bank": bank})
    if not rows:
        raise RuleError("BR-2.4", "Nothing to read: paste one unit per line")
    return rows
