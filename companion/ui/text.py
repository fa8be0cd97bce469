"""Text from players and files on a page: always shown as plain text, never as Markdown or HTML.

Material's Alert renders its text as Markdown with raw HTML, so a session title, a unit name or a refusal that
quotes a file could carry markup or script. `plain(text)` escapes it for an Alert; `escape(text)` for an HTML pane
the app writes itself. `Note` is the alert they are shown in; `Text` a heading, a label or a line of text, in
Material's type scale (without Material's Typography, whose every instance the browser draws as a React root of its
own: a page of them is slow to open).
"""
from __future__ import annotations

import html
import re

import panel as pn
import panel_material_ui as pmui
import param

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


TAGS = {"h5": "h5", "h6": "h6", "subtitle1": "h6", "subtitle2": "h6", "body1": "p", "body2": "p", "caption": "span"}
TYPE_CSS = """
h5, h6, p, span { margin: 0; font-family: var(--mui-font-family, Roboto, Helvetica, Arial, sans-serif);
  color: var(--mui-palette-text-primary, inherit); overflow-wrap: anywhere; }
.h5 { font-size: 1.5rem; font-weight: 400; line-height: 1.334; }
.h6 { font-size: 1.25rem; font-weight: 500; line-height: 1.6; }
.subtitle1 { font-size: 1rem; font-weight: 400; line-height: 1.75; }
.subtitle2 { font-size: 1rem; font-weight: 500; line-height: 1.57; }
.body1, .body2 { font-size: 1rem; font-weight: 400; line-height: 1.5; }
.caption { font-size: 0.875rem; font-weight: 400; line-height: 1.66; }
"""  # Material's type scale as the page's theme has it (`theme.READING`: body2 and subtitle2 at 16 px)


class Text(pn.pane.HTML):
    """A line or paragraph of plain text (line breaks kept) in one of Material's type variants; `object` is the text
    itself, every character shown as itself."""

    variant = param.Selector(default="body1", objects=list(TAGS))

    _rename = {**pn.pane.HTML._rename, "variant": None}
    _rerender_params = [*pn.pane.HTML._rerender_params, "variant"]

    def __init__(self, object: object = "", **params):
        params.setdefault("sizing_mode", "stretch_width")
        params["stylesheets"] = [TYPE_CSS, *params.get("stylesheets", [])]
        super().__init__("" if object is None else str(object), **params)

    def _transform_object(self, obj) -> dict:
        tag, lines = TAGS[self.variant], escape("" if obj is None else obj).replace("\n", "<br>")
        return super()._transform_object(f'<{tag} class="{self.variant}">{lines}</{tag}>')
