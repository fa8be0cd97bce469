"""HTML tables laid out from an engine's views (a board, a report, a rules table) for an HTML pane: every cell's
text escaped, so a name from a player's file shows as text; a cell already written in HTML (a rule chip) is
marked as such; a probability (a Fraction) is shown as odds are everywhere: percent and exact fraction."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from .controls import odds_text
from .text import escape


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
