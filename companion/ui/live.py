"""A game session bound to one browser page, and the pages open on this server.

`LiveSession.version` changes whenever the session does, here or on another device, so every component
that shows the game depends on it. A change made on one page is pushed to the other pages of the same session
in this server (`HUB`) once the taps waiting have been answered; one light look at the store every second, for
all pages, catches what another process wrote. Actions go through `act`/`undo`/`redo`: a rule or dice error is
kept in `error` for the page to show, and nothing changes; a confirmed event is already committed to the store
when the page updates.
"""
from __future__ import annotations

import contextvars
import time
import weakref
from collections import defaultdict
from typing import Any, Callable, Mapping

import panel as pn
import param
from panel.io.document import hold
from panel.io.state import set_curdoc

from ..dice import Dice, DiceError
from ..engine import RuleError, dice_needed
from ..events import Event
from ..session import GameSession

WATCH_MS = 1000  # how often the server looks in the store for events another process wrote
QUIET_S = 0.03   # a page told of another page's change redraws once the server has had no change for this long
LATEST_S = 1.0   # ... or this long after it was told, however busy the server


class Hub:
    """The live pages of each session in this server process. A change made on one page is pushed to the
    session's other pages; one look at the store every second, for all pages together, finds what another process
    wrote (a page that nobody touches costs the server nothing).

    All pages share the server's one thread, and a page redrawn for another page's change costs as much as the
    tapped page. So the pages told redraw one at a time, each once the server has had no change for QUIET_S (the
    taps waiting are answered first), and none later than LATEST_S after it was told."""

    def __init__(self):
        self._pages: dict[str, weakref.WeakSet] = defaultdict(weakref.WeakSet)
        self._watch = None
        self._due: dict[LiveSession, float] = {}   # pages to tell, in turn: when each was first told
        self._timer = None

    def join(self, live: LiveSession) -> None:
        self._pages[live.session.id].add(live)

    def leave(self, live: LiveSession) -> None:
        self._pages[live.session.id].discard(live)
        self._due.pop(live, None)
        if not self._pages[live.session.id]:
            del self._pages[live.session.id]

    def changed(self, source: LiveSession) -> None:
        """Tell every other page of the session that something changed."""
        for live in list(self._pages.get(source.session.id, ())):
            if live is not source:
                self.tell(live)
        self._later()

    def tell(self, live: LiveSession) -> None:
        """The page looks at its session: at once when it is not served (a notebook, a test), else in turn (once
        `_later` has (re)started the wait)."""
        if live.document is None:
            live.nudge()
        else:
            self._due.setdefault(live, time.monotonic())

    def _later(self) -> None:
        """(Re)start the wait for a quiet server, unless the page first in line has waited LATEST_S already."""
        if not self._due:
            return
        from tornado.ioloop import IOLoop
        loop = IOLoop.current()
        wait = min(QUIET_S, max(0.0, next(iter(self._due.values())) + LATEST_S - time.monotonic()))
        if self._timer is not None:
            loop.remove_timeout(self._timer)
        self._timer = contextvars.Context().run(loop.call_later, wait, self._next)  # as no page

    def _next(self) -> None:
        """Tell the page first in line; the next one after another quiet moment."""
        self._timer = None
        if self._due:
            live = next(iter(self._due))
            del self._due[live]
            try:
                live.nudge()
            finally:
                self._later()

    def watch(self) -> None:
        """Start the look at the store on the server's event loop (once), as no page's (the page that starts it
        may close)."""
        if self._watch is None:
            from tornado.ioloop import PeriodicCallback
            self._watch = PeriodicCallback(self.look, WATCH_MS)
            contextvars.Context().run(self._watch.start)

    def look(self) -> None:
        """Tell each page whose session has events in the store that the page has not taken in."""
        pages = [live for group in list(self._pages.values()) for live in list(group)]
        by_store = defaultdict(list)
        for live in pages:
            by_store[live.session.store].append(live)
        for store, lives in by_store.items():
            last = store.last_seqs({live.session.id for live in lives})
            for live in lives:
                if last.get(live.session.id, 0) > live.session.known:
                    self.tell(live)
        self._later()


class LiveSession(param.Parameterized):
    version = param.Integer(default=0, doc="Bumped on every change of the session")
    viewer = param.String(default="", doc="The player (or side) this page belongs to; '' for the table")
    error = param.String(default="", doc="The last refused entry, naming the broken rule")
    error_rule = param.String(default="", doc="The rule ID of the last refused entry")
    last = param.String(default="", doc="Summary of the last event this page confirmed")

    nudged = param.Integer(default=0, doc="Bumped when another page of the session says something changed")

    def __init__(self, session: GameSession, document=None, **params):
        super().__init__(**params)
        self.session = session
        self.document = document  # the page's Bokeh document: a nudge runs on its own thread and lock

    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def engine(self):
        return self.session.engine

    def needed(self, action: Mapping[str, Any]) -> list:
        """The dice the action would roll now (labels and sides); RuleError if it is illegal now."""
        return dice_needed(self.engine, self.state, action)

    def act(self, action: Mapping[str, Any], dice: Dice) -> Event | None:
        return self._do(lambda: self.session.act(action, dice))

    def undo(self) -> Event | None:
        return self._do(self.session.undo)

    def redo(self) -> Event | None:
        return self._do(self.session.redo)

    def fail(self, message: str, rule: str = "") -> None:
        """Show a refusal; the same one again is shown again (the player may have closed it)."""
        self.error_rule = rule
        if message == self.error:
            self.param.trigger("error")
        else:
            self.error = message

    def _do(self, operation) -> Event | None:
        """The operation, and everything it changes on this page sent in one message."""
        with hold():
            try:
                event = operation()
            except (RuleError, DiceError) as exc:
                self.fail(str(exc), getattr(exc, "rule", ""))
                self.version += 1  # another device's events may have been taken in
                return None
            self.error = ""
            self.last = event.summary
            self.version += 1
        HUB.changed(self)
        return event

    def poll(self) -> bool:
        """Take in events written by other devices; True if there were any."""
        if self.session.refresh():
            self.version += 1
            return True
        return False

    def nudge(self) -> None:
        """Another page of this session changed something: look now, on this page's own document and as this page
        (`as_page`). A page still being drawn in its browser does not look: Panel drops the changes held for a page
        until the browser says it is ready, and the page looks once it is (`GameShell._drawn`)."""
        def look() -> None:
            if pn.state.loaded:
                self.poll()
                self.nudged += 1
        if self.document is None:
            look()
        else:
            as_page(self.document, look)


def as_page(document, work: Callable[[], None]) -> None:
    """`work` on the page's next tick, as that page, its changes sent together as for a tap on it (a callback keeps
    the page it was scheduled from as Panel's current document, and a plot updated for a page that is not the current
    one reschedules itself on every tick, for ever). Thread-safe: this may run on another page's thread."""
    def run() -> None:
        with set_curdoc(document), hold(document):
            work()
    document.add_next_tick_callback(run)


HUB = Hub()
