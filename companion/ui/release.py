"""A page costs the server nothing it does not need, and its tablet closing it leaves nothing behind.

The page frame (Material's Page) follows Panel's busy flag, which is one for the whole server: every callback
of any page set it on and off again on every open page's frame, and each such change walked every model of that
page (about 13 ms for a game page; with 20 pages open, most of the server's time). `not_busy` cuts the frame
loose from the flag when it is made (nothing on our pages shows it: a tap is answered sooner than a busy bar would
show). Panel's table of views keeps each page's notification area: `let_go` drops it when the page's session ends;
a few seconds later, once for all the pages that closed meanwhile, what they held is collected and the freed memory
handed back to the system (the C allocator would otherwise keep it for the process).
"""
from __future__ import annotations

import contextvars
import ctypes
import ctypes.util
import gc

import panel as pn
from panel.util import edit_readonly

DELAY_S = 5


def not_busy(frame) -> None:
    """The page frame no longer follows Panel's busy flag (nor keeps a watcher on Panel's global state)."""
    with edit_readonly(frame):
        frame.busy = False
    for watchers in pn.state.param.watchers.values():
        for watcher in [w for ws in watchers.values() for w in ws
                        if getattr(getattr(w.fn, "__self__", None), "self_or_cls", None) is frame]:
            pn.state.param.unwatch(watcher)


def on_close(frame) -> None:
    """Let the page's notification area go when its tablet closes it (on a served page)."""
    if pn.state.curdoc and pn.state.curdoc.session_context:
        pn.state.on_session_destroyed(lambda context: let_go(context._document))


def let_go(document) -> None:
    for ref in [ref for ref, view in pn.state._views.items() if view[2] is document]:
        del pn.state._views[ref]
    _RELEASE.soon()


class Release:
    """Collect and hand memory back, once, DELAY_S after the first of the pages that close together."""

    def __init__(self):
        self._due = False
        name = ctypes.util.find_library("c")
        self._trim = getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None

    def soon(self) -> None:
        if not self._due:
            from tornado.ioloop import IOLoop
            self._due = True
            contextvars.Context().run(IOLoop.current().call_later, DELAY_S, self.now)  # a context of no page

    def now(self) -> None:
        self._due = False
        gc.collect()
        if self._trim is not None:
            self._trim(0)


_RELEASE = Release()
