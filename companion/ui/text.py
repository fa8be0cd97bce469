"""Text from players and files on a page: always shown as plain text, never as Markdown or HTML.

Material's Typography and Alert render their text as Markdown with raw HTML, so a session title, a unit
name or a refusal that quotes a file could carry markup or script. `plain(text)` escapes it for those
components; `escape(text)` for an HTML pane the app writes itself. `Note` is the alert they are shown in.
"""
from __future__ import annotations

import html
import re

import panel_material_ui as pmui

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark: CommonMark lets each be escaped


def escape(text: object) -> str:
    """Text for an HTML pane: every character shown as itself."""
    return html.escape(str(text), quote=True)


def plain(text: object) -> str:
    """Text for a Markdown-rendering component (Typography, Alert): every punctuation mark escaped, so no
    tag, entity, emphasis, link or bare address can start; line breaks kept."""
    return _PUNCTUATION.sub(r"\\\1", str(text)).replace("\n", "  \n")


class Note(pmui.Alert):
    """An alert (a refusal, a check of what was entered, a question) whose text only the server writes. The page
    never edits it, so a change of its text said to come from the page is one of the server's own handed back
    late (seen on a loaded machine: an older text shown again over a newer one, escaped twice); it is not taken."""

    def _process_property_change(self, msg):
        return {k: v for k, v in super()._process_property_change(msg).items() if k not in ("object", "title")}
