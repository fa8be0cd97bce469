"""Text from players and files on a page: always shown as plain text, never as Markdown or HTML.

Material's Typography and Alert render their text as Markdown with raw HTML, so a session title, a unit
name or a refusal that quotes a file could carry markup or script. `plain(text)` escapes it for those
components; `escape(text)` for an HTML pane the app writes itself.
"""
from __future__ import annotations

import html
import re

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~>])")


def escape(text: object) -> str:
    """Text for an HTML pane: every character shown as itself."""
    return html.escape(str(text), quote=True)


def plain(text: object) -> str:
    """Text for a Markdown-rendering component (Typography, Alert): HTML escaped, Markdown marks escaped."""
    return _MARKDOWN.sub(r"\\\1", html.escape(str(text), quote=False)).replace("\n", "  \n")
