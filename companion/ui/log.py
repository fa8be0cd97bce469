"""The event log as players read it: newest first, each line with its dice and rule IDs."""
from __future__ import annotations

import html

import panel as pn
import param

from ..dice import ENTERED
from ..events import REDO, UNDO
from .live import LiveSession
from .rules import CHIP_CSS, chip
from .text import Text

CSS = """
.log { list-style: none; padding: 0; margin: 0; font-size: 16px; }
.log li { padding: 6px 4px; border-bottom: 1px solid rgba(128,128,128,.25); }
.log li.undone .summary { text-decoration: line-through; opacity: .6; }
.log .seq { opacity: .6; margin-right: .4em; }
.log .dice { margin-left: 6px; font-size: 14px; padding: 0 5px; border-radius: 4px; white-space: nowrap; }
.log .dice.here { background: rgba(0,114,178,.15); }
.log .dice.table { background: rgba(230,159,0,.3); }
.log .hidden { margin-left: 6px; font-size: 14px; opacity: .7; font-style: italic; }
.log .detail { font-size: 14px; margin: 2px 0 0 1.6em; }
"""


class EventLog(pn.viewable.Viewer):
    """Newest first; undone actions struck through; dice marked as rolled here or at the table."""

    limit = param.Integer(default=200)

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self._html = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS, CHIP_CSS], css_classes=["event-log"])
        self.live.param.watch(lambda *_: self._render(), ["version", "viewer"])  # one event per parameter changed
        self._render()

    def entries(self) -> list[dict]:
        """The log, newest first: seq, summary (with undo/redo marks), undone, dice, rule IDs."""
        known = self.live.engine.rules
        last_word: dict[int, str] = {}  # action seq -> the kind of the latest undo/redo of it
        for event in self.live.session.events:
            if event.target is not None:
                last_word[event.target] = event.kind
        undone = {seq for seq, kind in last_word.items() if kind == UNDO}
        out = []
        for event in reversed(self.live.session.events[-self.limit:]):
            mark = {UNDO: "↶ ", REDO: "↷ "}.get(event.kind, "")
            seen = event.seen_by(self.live.viewer)
            out.append({"seq": event.seq, "summary": mark + event.summary, "undone": event.seq in undone,
                        "dice": [(r.text(), r.source == ENTERED) for r in event.rolls] if seen else [],
                        "detail": event.detail if seen else "", "hidden": not seen,
                        "rules": [r for r in event.rules if r in known]})
        return out

    def _render(self) -> None:
        titles = self.live.engine.rules
        items = []
        for entry in self.entries():
            dice = "".join(
                f'<span class="dice {"table" if table else "here"}">{"table roll" if table else "companion roll"} '
                f'{html.escape(text)}</span>' for text, table in entry["dice"])
            chips = "".join(chip(r, titles[r]) for r in entry["rules"])
            cls = ' class="undone"' if entry["undone"] else ""
            detail = f'<div class="detail">{html.escape(entry["detail"])}</div>' if entry["detail"] else ""
            hidden = '<span class="hidden">its dice are private</span>' if entry["hidden"] else ""
            items.append(f'<li{cls}><span class="seq">{entry["seq"]}.</span><span class="summary">'
                         f'{html.escape(entry["summary"])}</span>{dice}{hidden}{chips}{detail}</li>')
        body = "".join(items) or "<li>No events yet.</li>"
        self._html.object = f'<ul class="log">{body}</ul>'

    def __panel__(self):
        return pn.Column(Text("Event log", variant="h6"), self._html, sizing_mode="stretch_width")
