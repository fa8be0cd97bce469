"""The frame of every game app: choose a session (new / resume / import), then play it.

The open session's id is kept in the page address (`?session=...`), so a reload, a second tablet
or the landing page's link opens the same game. The server looks at the store once a second for all its
pages, so events made on another device appear without a reload. A long saved game is replayed off the
server's event loop, with progress shown, so that the other tablets are not held meanwhile.
"""
from __future__ import annotations

import asyncio
import io
from functools import partial
from urllib.parse import parse_qs, urlencode
from typing import Callable, Protocol

import panel as pn
import panel_material_ui as pmui
import param

from ..door import is_loopback
from ..engine import Engine, RuleError
from ..quoting import quote
from ..session import GameSession, import_session
from ..store import ImportRefused, NoSuchSession, Store
from .controls import ErrorBanner, UndoBar
from .live import HUB, LiveSession, as_page
from .options import OPTIONS_CSS, OptionsForm, options_html
from .rules import CHIP_CSS, rule_dialog
from .text import Note, Text, plain
from .theme import TOUCH, extension, page
from .unseen import set_aside

LONG_LOG = 2_000  # events: a saved game longer than this is replayed off the server's event loop
# A page still being drawn takes no tap: a clear sheet lies over it.
DRAWING_CSS = (":host(.drawing) { position: relative; } "
               ":host(.drawing)::after { content: ''; position: absolute; inset: 0; z-index: 10000; }")


def asked_session(search: str) -> str | None:
    """The session id in a page address's query, as written: Panel's `query_params` reads a value that looks like a
    number as one (an id "012345678901" as 12345678901, "549453e66000" as infinity)."""
    return parse_qs(search.removeprefix("?")).get("session", [None])[0]


class SetupEditor(Protocol):
    """What an app gives the shell to start a game: a viewable whose `setup()` returns the setup dict
    (raising RuleError or ValueError with a clear message when it is not valid)."""

    def setup(self) -> dict: ...

    def __panel__(self): ...


class SessionPicker(pn.viewable.Viewer):
    """New game (title, options, the game's setup), resume a saved one, or import a session file."""

    message = param.String(default="")

    def __init__(self, store: Store, engine: Engine, editor: SetupEditor,
                 on_open: Callable[[GameSession], None], on_resume: Callable[[str], None] | None = None,
                 **params):
        super().__init__(**params)
        self.store, self.engine, self.editor, self.on_open = store, engine, editor, on_open
        self.on_resume = on_resume or (lambda sid: on_open(GameSession.open(store, sid)))
        self._title = pmui.TextInput(label="Name of this game", placeholder=engine.title, sizing_mode="stretch_width",
                                     css_classes=["session-title"])
        self._options = OptionsForm(engine.options)
        self._start = pmui.Button(label="Start the game", variant="contained", color="primary",
                                  css_classes=["start-game"], **TOUCH)
        self._start.on_click(lambda _: self.start())
        self._import = pmui.FileInput(label="Import a session file (.json)", accept=".json",
                                      css_classes=["import-file"])
        self._import.param.watch(self._file_chosen, "value")
        self._checking = pmui.LinearProgress(visible=False, sizing_mode="stretch_width", css_classes=["import-progress"])
        self._alert = Note(severity="error", visible=False, sizing_mode="stretch_width",
                           css_classes=["picker-error"])
        self._saved = pn.Column(sizing_mode="stretch_width", css_classes=["saved-sessions"])
        self._target: dict = {}
        self._new_name = pmui.TextInput(label="New name", size="large", css_classes=["new-name"])
        save = pmui.Button(label="Save the name", variant="contained", css_classes=["save-name"], **TOUCH)
        save.on_click(lambda _: self._rename())
        self._renaming = pn.Row(self._new_name, save, visible=False)
        self._question = Note(severity="warning", sizing_mode="stretch_width", css_classes=["delete-question"])
        sure = pmui.Button(label="Yes, delete it", variant="contained", color="error", css_classes=["confirm-delete"],
                           **TOUCH)
        sure.on_click(lambda _: self._delete())
        keep = pmui.Button(label="Keep it", variant="outlined", **TOUCH)
        keep.on_click(lambda _: setattr(self._deleting, "visible", False))
        self._deleting = pn.Column(self._question, pn.Row(sure, keep), visible=False, sizing_mode="stretch_width")
        self._list_saved()
        self._show_message()

    def start(self) -> None:
        try:
            session = GameSession.new(self.store, self.engine.slug, self.editor.setup(), self._options.values(),
                                      self._title.value)
        except (RuleError, ValueError) as exc:
            self.message = str(exc)
            return
        self.message = ""
        self.on_open(session)

    async def _file_chosen(self, event) -> None:
        """The file is checked off the server's event loop (a long log takes a while), with progress shown."""
        if not event.new:
            return
        self.message = ""
        self._checking.visible = True
        try:
            await self.import_file(event.new, in_thread=True)
        finally:
            self._checking.visible = False

    async def import_file(self, raw: bytes, in_thread: bool = False) -> None:
        try:
            session = await asyncio.to_thread(import_session, self.store, raw) if in_thread else \
                import_session(self.store, raw)
        except ImportRefused as exc:
            self.message = f"Import refused: {exc}"
            return
        if session.record.slug != self.engine.slug:
            self.message = f"Imported as a game of {session.engine.title}: open it from the landing page."
            self._list_saved()
            return
        self.message = ""
        self.on_open(session)

    @param.depends("message", watch=True)
    def _show_message(self) -> None:
        self._alert.object = plain(self.message)
        self._alert.visible = bool(self.message)

    def _list_saved(self) -> None:
        rows = []
        for info in self.store.sessions(self.engine.slug):
            button = pmui.Button(label=f"Resume: {info['title']}", variant="outlined", css_classes=["resume"],
                                 description=f"Started {info['created']}, {info['events']} events", **TOUCH)
            button.on_click(lambda _, sid=info["id"]: self.on_resume(sid))
            rename = pmui.Button(label="Rename", variant="text", css_classes=["rename"], **TOUCH)
            rename.on_click(lambda _, i=info: self._manage(i, "rename"))
            delete = pmui.Button(label="Delete", variant="text", color="error", css_classes=["delete"], **TOUCH)
            delete.on_click(lambda _, i=info: self._manage(i, "delete"))
            rows.append(pn.Row(button, rename, delete, Text(
                f"{info['events']} events · last played {info['updated'].replace('T', ' ')[:16]} UTC",
                variant="body2")))
        self._saved.objects = rows or [Text("No saved games yet.", variant="body2")]

    def _manage(self, info: dict, what: str) -> None:
        """Rename or delete a saved game: the name typed, or the deletion confirmed, below the list."""
        self._target = info
        self._new_name.value = info["title"] if what == "rename" else ""
        self._question.object = plain(f"Delete \u201c{info['title']}\u201d and its {info['events']} events? This "
                                      "cannot be undone (export it first to keep a copy).")
        self._renaming.visible, self._deleting.visible = what == "rename", what == "delete"

    def _rename(self) -> None:
        try:
            self.store.rename(self._target["id"], self._new_name.value or "")
        except (ValueError, NoSuchSession) as exc:
            self.message = str(exc)
            return
        self._renaming.visible = False
        self._list_saved()

    def _delete(self) -> None:
        self.store.delete(self._target["id"])
        self._deleting.visible = False
        self._list_saved()

    def __panel__(self):
        new = pn.Column(self._title, self.editor, self._start, sizing_mode="stretch_width")
        saved = pn.Column(self._saved, self._renaming, self._deleting, sizing_mode="stretch_width")
        return pn.Column(
            self._alert,
            pmui.Tabs(("New game", new), ("Options", self._options), ("Resume", saved),
                      ("Import", pn.Column(self._import, self._checking)), dynamic=True,
                      sizing_mode="stretch_width", css_classes=["picker-tabs"]),
            sizing_mode="stretch_width", css_classes=["session-picker"])


class GameShell(pn.viewable.Viewer):
    """Picker or game, the session id in the address, the page told of other devices' events."""

    def __init__(self, engine: Engine, editor: Callable[[], SetupEditor],
                 game_view: Callable[[LiveSession], pn.viewable.Viewable], store: Store | None = None, **params):
        super().__init__(**params)
        self.engine = engine
        self.store = store or Store()
        self._editor = editor
        self._game_view = game_view
        self.live: LiveSession | None = None
        self._put_back: list[Callable[[], None]] = []  # what the page hid when it opened, sent once it is drawn
        self._main = pmui.Column(sizing_mode="stretch_width", stylesheets=[DRAWING_CSS])
        if pn.state.curdoc and pn.state.curdoc.session_context:
            pn.state.on_session_destroyed(self._closed)
            self._main.css_classes = ["drawing"]
            pn.state.onload(self._taking_taps)
        wanted = asked_session(pn.state.location.search) if pn.state.location else None
        if wanted:
            self.resume(wanted)
        else:
            self.show_picker()

    def resume(self, session_id: str) -> None:
        """Open a saved game. On a server, one of more than LONG_LOG events is replayed on a worker thread while
        the page shows progress, so the server's event loop goes on answering the other tablets."""
        served = bool(pn.state.curdoc and pn.state.curdoc.session_context)
        if served and self.store.last_seqs([session_id]).get(session_id, 0) > LONG_LOG:
            self._closed(None)
            self.live = None
            self._main.objects = [Text("Opening the saved game: replaying its events ...", variant="h6"),
                                  pmui.LinearProgress(sizing_mode="stretch_width", css_classes=["opening"])]

            async def replay() -> None:
                await self.open_in_thread(session_id)
            pn.state.onload(replay)
            return
        try:
            self.open(GameSession.open(self.store, session_id))
        except NoSuchSession:
            self.show_picker(f"There is no saved game {quote(session_id)}.")

    async def open_in_thread(self, session_id: str) -> None:
        """Replay the saved game on a worker thread, then show it (or the picker, if it is gone)."""
        try:
            session = await asyncio.to_thread(GameSession.open, self.store, session_id)
        except NoSuchSession:
            self.show_picker(f"There is no saved game {quote(session_id)}.")
            return
        self.open(session)

    def show_picker(self, message: str = "") -> None:
        self._closed(None)
        self.live = None
        picker = SessionPicker(self.store, self.engine, self._editor(), self.open, self.resume, message=message)
        self._main.objects = [picker]
        if pn.state.location:
            pn.state.location.search = ""

    def open(self, session: GameSession) -> None:
        self._closed(None)
        self.live = LiveSession(session, pn.state.curdoc if pn.state.curdoc and pn.state.curdoc.session_context
                                else None)
        HUB.join(self.live)
        if pn.state.location:
            pn.state.location.search = "?" + urlencode({"session": session.id})
        self._main.objects = [self._chrome(self.live), self._game_view(self.live)]
        if pn.state.curdoc and pn.state.curdoc.session_context:
            self._put_back = [] if pn.state.loaded else set_aside(self._main)
            pn.state.onload(self._drawn)

    def _taking_taps(self) -> None:
        """The browser says the page is drawn: from now on the page takes taps. Panel drops what it holds for a
        page until then, so the answer to an earlier tap would be lost (the log showing an event whose next step
        never appears)."""
        self._main.css_classes = []

    def _drawn(self) -> None:
        """Once the browser says the page is drawn (Panel drops the changes it holds for a page until then, so other
        tablets' changes wait for this): take in what other devices wrote meanwhile, and have the server watch the
        store."""
        if self.live is not None:
            self.live.poll()
            HUB.watch()
        self._putting_back(pn.state.curdoc)

    def _putting_back(self, document) -> None:
        """What the page hid when it opened, put back one layout a tick: a tap meanwhile waits for one only."""
        if self._put_back:
            as_page(document, partial(self._put_back_one, document))

    def _put_back_one(self, document) -> None:
        if self._put_back:
            self._put_back.pop(0)()
            self._putting_back(document)

    def _closed(self, _context) -> None:
        """The page is gone (or shows another game): no more nudges for its game, nothing more to put back."""
        self._put_back = []
        if self.live is not None:
            HUB.leave(self.live)

    def _chrome(self, live: LiveSession) -> pn.Column:
        session = live.session
        export = pmui.FileDownload(label="Export", callback=lambda: io.StringIO(self._export(live)),
                                   filename=f"{self.engine.slug}-{session.id}.json", css_classes=["export"],
                                   **TOUCH)
        close = pmui.Button(label="Sessions", icon="list", variant="outlined", css_classes=["sessions"], **TOUCH)
        close.on_click(lambda _: self.show_picker())
        title = Text(session.record.title, variant="h5", css_classes=["session-name"])
        options = pmui.Card(pn.pane.HTML(options_html(self.engine.options, session.replay.options),
                                         stylesheets=[OPTIONS_CSS, CHIP_CSS], sizing_mode="stretch_width"),
                            title="Options of this game (bold: not the default)", collapsed=True, collapsible=True,
                            sizing_mode="stretch_width", css_classes=["session-options"])
        notes = Note(plain("\n".join(session.notes)), severity="warning", title="This game was saved by an "
                     "earlier version", visible=bool(session.notes), sizing_mode="stretch_width",
                     css_classes=["session-notes"])
        copy = pmui.Button(label="Continue from here in a copy", variant="contained", css_classes=["continue-copy"],
                           visible=bool(session.stranded), **TOUCH)
        copy.on_click(lambda _: self.open(session.continue_copy()))
        return pn.Column(pn.Row(title, UndoBar(live), export, close, sizing_mode="stretch_width"),
                         notes, copy, ErrorBanner(live), options, rule_dialog(self.engine, session.replay.options),
                         sizing_mode="stretch_width")

    @staticmethod
    def _export(live: LiveSession) -> str:
        """The whole game from the host's device (the computer that serves it); from a player's device, with
        private parts (hands, the dice that dealt them) the page of another player has, the log as this
        device sees it."""
        if not live.session.has_secrets or is_host():
            return live.session.export()
        return live.session.export_log(live.viewer)

    def __panel__(self):
        return self._main


def is_host() -> bool:
    """Is this page open on the computer that serves the games?"""
    context = pn.state.curdoc.session_context if pn.state.curdoc else None
    request = getattr(context, "request", None) if context else None
    address = getattr(request, "remote_ip", None) if request is not None else None
    return address is None or is_loopback(address)


def app_page(engine: Engine, editor: Callable[[], SetupEditor],
             game_view: Callable[[LiveSession], pn.viewable.Viewable]) -> pmui.Page:
    """The whole page of one game app."""
    home = pmui.Button(label="All games", href="/", variant="text", color="light", css_classes=["home"])
    return page(engine.title, [GameShell(engine, editor, game_view)], header=[home])


def serve_app(engine: Engine, editor: Callable[[], SetupEditor],
              game_view: Callable[[LiveSession], pn.viewable.Viewable]) -> None:
    """A game app's page, when its script is being served (by `companion serve` or `panel serve apps/<slug>.py`):
    then it runs for a page's document (`pn.state.served` would ask about this module, not the app's script)."""
    if pn.state.curdoc and pn.state.curdoc.session_context:
        extension("tabulator")
        app_page(engine, editor, game_view).servable(title=engine.title)
