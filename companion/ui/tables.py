"""HTML tables laid out from an engine's views (a board, a report, a rules table) for an HTML pane: every cell's
text escaped, so a name from a player's file shows as text; a cell already written in HTML (a rule chip) is
marked as such; a probability (a Fraction) is shown as odds are everywhere: percent and exact fraction."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from .controls import odds_text
from .text import escape


# An HTML pane showing these tables takes this stylesheet: "info" tables (rows of facts), "row" tables (a rules
# table, its current column marked), "ok" and "out" cells.
CSS = """
table.info, table.row { border-collapse: collapse; font-size: 16px; margin: 4px 0; } table.info { width: 100%; }
.info td, .info th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left; vertical-align: top; }
.row td, .row th { border: 1px solid rgba(128,128,128,.4); padding: 3px 9px; text-align: center; }
.row .now { background: #E69F00; color: #000; font-weight: 700; }
.ok { color: #009E73; font-weight: 700; } .out { color: #CC79A7; font-weight: 700; }
"""


class Html(str):
    """A cell already in HTML (a rule chip, a marked value): laid out as it is."""


def mark(text: Any, css: str) -> Html:
    """A cell's text in a class of its own (e.g. "ok", "out")."""
    return Html(f'<span class="{css}">{escape(text)}</span>')


def _cell(value: Any, tag: str, marked: bool) -> str:
    text = value if isinstance(value, Html) else odds_text(value) if isinstance(value, Fraction) else escape(value)
    return f'<{tag} class="now">{text}</{tag}>' if marked else f"<{tag}>{text}</{tag}>"


def html_table(rows: Sequence[Sequence[Any]], head: Sequence[Any] = (), css: str = "info", marked: int | None = None,
               heads: bool = False) -> str:
    """Rows of cells under an optional header row; `marked`: the index of the column that is current now (class
    "now"); `heads`: the first cell of each row is its heading."""
    top = "<tr>" + "".join(_cell(h, "th", i == marked) for i, h in enumerate(head)) + "</tr>" if head else ""
    body = "".join("<tr>" + "".join(_cell(c, "th" if heads and i == 0 else "td", i == marked) for i, c in enumerate(row))
                   + "</tr>" for row in rows)
    return f'<table class="{css}">{top}{body}</table>'
