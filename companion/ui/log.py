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
    """Newest first; undone actions struck through; dice marked as rolled here or at the table. The log only grows
    (companion.events), so each line is written once and kept while shown, and the undone actions are read from the
    events not read before: a change costs the lines it changed, not the whole log."""

    limit = param.Integer(default=200)

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self._html = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS, CHIP_CSS], css_classes=["event-log"])
        self._read_from: list | None = None   # the session's events read so far, and how many of them
        self._read, self._undone = 0, set()
        self._lines: dict[tuple, str] = {}    # (seq, undone, seen) -> the line's HTML, for the lines shown
        self.live.param.watch(lambda *_: self._render(), ["version", "viewer"])  # one event per parameter changed
        self._render()

    def _shown(self) -> list[tuple]:
        """The events shown, newest first, each with whether it is undone now (the latest undo or redo of it)."""
        events = self.live.session.events
        if self._read_from is not events or self._read > len(events):   # another session's log: read it anew
            self._read_from, self._read, self._undone, self._lines = events, 0, set(), {}
        for event in events[self._read:]:
            if event.target is not None:
                (self._undone.add if event.kind == UNDO else self._undone.discard)(event.target)
        self._read = len(events)
        return [(event, event.seq in self._undone) for event in reversed(events[-self.limit:])]

    def _entry(self, event, undone: bool) -> dict:
        mark = {UNDO: "↶ ", REDO: "↷ "}.get(event.kind, "")
        seen = event.seen_by(self.live.viewer)
        return {"seq": event.seq, "summary": mark + event.summary, "undone": undone,
                "dice": [(r.text(), r.source == ENTERED) for r in event.rolls] if seen else [],
                "detail": event.detail if seen else "", "hidden": not seen,
                "rules": [r for r in event.rules if r in self.live.engine.rules]}

    def entries(self) -> list[dict]:
        """The log, newest first: seq, summary (with undo/redo marks), undone, dice, rule IDs."""
        return [self._entry(event, undone) for event, undone in self._shown()]

    def _line(self, entry: dict) -> str:
        titles = self.live.engine.rules
        dice = "".join(
            f'<span class="dice {"table" if table else "here"}">{"table roll" if table else "companion roll"} '
            f'{html.escape(text)}</span>' for text, table in entry["dice"])
        chips = "".join(chip(r, titles[r]) for r in entry["rules"])
        cls = ' class="undone"' if entry["undone"] else ""
        detail = f'<div class="detail">{html.escape(entry["detail"])}</div>' if entry["detail"] else ""
        hidden = '<span class="hidden">its dice are private</span>' if entry["hidden"] else ""
        return (f'<li{cls}><span class="seq">{entry["seq"]}.</span><span class="summary">'
                f'{html.escape(entry["summary"])}</span>{dice}{hidden}{chips}{detail}</li>')

    def _render(self) -> None:
        lines = {}
        for event, undone in self._shown():
            key = (event.seq, undone, event.seen_by(self.live.viewer))
            lines[key] = self._lines.get(key) or self._line(self._entry(event, undone))
        self._lines = lines
        self._html.object = f'<ul class="log">{"".join(lines.values()) or "<li>No events yet.</li>"}</ul>'

    def __panel__(self):
        return pn.Column(Text("Event log", variant="h6"), self._html, sizing_mode="stretch_width")
