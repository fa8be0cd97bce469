"""Text from players and files on a page: always shown as plain text, never as Markdown or HTML.

Material's Typography and Alert render their text as Markdown with raw HTML, so a session title, a unit
name or a refusal that quotes a file could carry markup or script. `plain(text)` escapes it for those
components; `escape(text)` for an HTML pane the app writes itself.
"""
from __future__ import annotations

import html
import re

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark: CommonMark lets each be escaped


def escape(text: object) -> str:
    """Text for an HTML pane: every character shown as itself."""
    return html.escape(str(text), quote=True)


def plain(text: object) -> str:
    """Text for a Markdown-rendering component (Typography, Alert): every punctuation mark escaped, so no
    tag, entity, emphasis, link or bare address can start; line breaks kept."""
    return _PUNCTUATION.sub(r"\\\1", str(text)).replace("\n", "  \n")
