"""The options form of a new session: one control per option of the engine, defaults preselected."""
from __future__ import annotations

import html
from typing import Any, Mapping

import panel as pn
import panel_material_ui as pmui

from ..engine import Option
from .rules import chip
from .text import Text


def options_html(options: tuple[Option, ...], values: Mapping[str, Any]) -> str:
    """The options a session was started with, as a table: what, the choice, the rule."""
    rows = []
    for opt in options:
        value = values.get(opt.key, opt.default)
        shown = dict(opt.choices).get(value) if opt.choices else ", ".join(
            f"{k} {'-' if v is None else v}" for k, v in value.items())
        mark = "" if value == opt.default else ' class="changed"'
        rows.append(f"<tr{mark}><td>{html.escape(opt.label)}</td><td>{html.escape(str(shown))}</td>"
                    f"<td>{chip(opt.rule)}</td></tr>")
    return ('<table class="options"><tr><th>option</th><th>in this game</th><th>rule</th></tr>'
            + "".join(rows) + "</table>")


OPTIONS_CSS = """
table.options { border-collapse: collapse; width: 100%; font-size: 16px; }
.options td, .options th { text-align: left; padding: 4px 6px; border-bottom: 1px solid rgba(128,128,128,.3); }
.options tr.changed td { font-weight: 700; }
"""


class OptionsForm(pn.viewable.Viewer):
    """Choices become selects; a table option (e.g. terrain costs) becomes one small field per row,
    where an empty field means "not allowed"."""

    def __init__(self, options: tuple[Option, ...], **params):
        super().__init__(**params)
        self.options = options
        self._widgets: dict[str, Any] = {}
        for opt in options:
            if opt.choices:
                labels = {label: value for value, label in opt.choices}
                self._widgets[opt.key] = pmui.Select(label=f"{opt.label} ({opt.rule})", options=labels,
                                                     value=opt.default, description=opt.help or None,
                                                     sizing_mode="stretch_width", css_classes=[f"option-{opt.key}"])
            else:
                self._widgets[opt.key] = {k: pmui.TextInput(label=k, value="" if v is None else str(v), width=90)
                                          for k, v in opt.default.items()}

    def values(self) -> dict[str, Any]:
        """The chosen options; ValueError naming the field when a table cell is not a whole number."""
        chosen = {}
        for opt in self.options:
            widget = self._widgets[opt.key]
            if isinstance(widget, dict):
                table = {}
                for key, field in widget.items():
                    text = field.value.strip()
                    if text and not text.isdigit():
                        raise ValueError(f"{opt.label}: {key} must be a whole number or empty, not '{text}'")
                    table[key] = int(text) if text else None
                chosen[opt.key] = table
            else:
                chosen[opt.key] = widget.value
        return chosen

    def __panel__(self):
        rows = []
        for opt in self.options:
            widget = self._widgets[opt.key]
            if isinstance(widget, dict):
                rows.append(pn.Column(Text(f"{opt.label} ({opt.rule}): {opt.help}", variant="body2"),
                                      pn.FlexBox(*widget.values()), sizing_mode="stretch_width"))
            else:
                rows.append(widget)
        return pn.Column(*rows, sizing_mode="stretch_width", css_classes=["options-form"])
