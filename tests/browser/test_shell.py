"""The served shell in a real browser: landing page, sessions, dice both ways, undo, reload, sync,
durability across SIGKILL, the access code, and no request leaving the machine."""
from __future__ import annotations

import gc
import json
import logging
import random
import re
import sqlite3
import time
from pathlib import Path

import panel as pn
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

import engines
from companion.cli import app_paths, quiet_closed_tabs
from companion.dice import EnteredDice, RandomDice
from companion.engine import resolve_options
from companion.events import Replay
from companion.play import random_action
from companion.session import GameSession
from companion.store import DATA_DIR_ENV, DB_NAME, Store
from companion.ui.live import LiveSession
from companion.ui.shell import LONG_LOG

from .conftest import TABLET, Server, answering, free_port
from .ui import SLOW, button, do, guide, log_text, odds, other, step, tap_faces

pytestmark = pytest.mark.browser


def start_example_game(page, url: str) -> str:
    """Open Bull Run from the landing page and start a game on the example roster; returns the game's URL."""
    page.goto(url + "/")
    page.locator(".game-bull_run .open-game").first.click()
    button(page, "Load the example roster").click(timeout=SLOW)
    expect(page.locator(".roster-note")).to_contain_text("Example roster", timeout=SLOW)
    button(page, "Start the game").click()
    step(page, "roll_initiative")
    page.wait_for_url(re.compile(r"session="))
    return page.url


def screenshots(page, output_path: str, name: str) -> None:
    """The page at both tablet sizes, saved in the test's output folder for a person to look at."""
    folder = Path(output_path)
    folder.mkdir(parents=True, exist_ok=True)
    for orientation, size in TABLET.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(700)
        page.screenshot(path=folder / f"{name}-{orientation}.png")
    page.set_viewport_size(TABLET["landscape"])


def test_landing_session_dice_undo_reload(page, server, offline, output_path):
    """Landing page -> new session -> a roll by the companion and one entered -> undo (confirmed, the dice
    were physical) -> reload: the session and its log are intact."""
    page.goto(server.url + "/")
    expect(page.locator(".game-bull_run")).to_be_visible(timeout=SLOW)
    for slug, _, _ in engines.CATALOGUE:
        expect(page.locator(f".game-{slug} .open-game")).to_be_visible()
    screenshots(page, output_path, "landing")
    game = start_example_game(page, server.url)

    step(page, "roll_initiative")
    button(guide(page), "Roll for me").click()
    expect(log_text(page)).to_contain_text("Initiative, turn 1: rolled", timeout=SLOW)
    expect(log_text(page)).to_contain_text("companion roll")
    step(page, "place_reinforcements")
    do(page, "Place reinforcements")
    expect(log_text(page)).to_contain_text("no reinforcements", timeout=SLOW)

    # the example roster has no Union unit until turn 3, so the Union's first phase starts with Farm Ford
    # whether or not it has the initiative; if the CSA moves first, end its movement first
    expect(page.locator(".step-farm_ford_roll:visible, .step-csa_action_roll:visible").first).to_be_visible(
        timeout=SLOW)
    if page.locator(".step-csa_action_roll").first.is_visible():
        tap_faces(page, 1)
        step(page, "move")
        other(page, "end_movement")
    step(page, "farm_ford_roll")
    tap_faces(page, 2)
    expect(log_text(page)).to_contain_text("Farm Ford: rolled 2, not found", timeout=SLOW)
    expect(log_text(page)).to_contain_text("table roll 2")
    screenshots(page, output_path, "bull_run")

    before = page.locator(".event-log li").count()
    button(page, "Undo").click()
    expect(page.locator(".undo-question")).to_contain_text("rolled at the table", timeout=SLOW)
    button(page, "Yes, undo it").click()
    expect(log_text(page)).to_contain_text("Undo: Turn 1: Farm Ford", timeout=SLOW)
    assert page.locator(".event-log li").count() == before + 1

    page.goto(game)
    expect(log_text(page)).to_contain_text("Undo: Turn 1: Farm Ford", timeout=SLOW)
    assert page.locator(".event-log li").count() == before + 1
    step(page, "farm_ford_roll")


@pytest.mark.parametrize("typed, message", [
    ("7", "7 is not a face of a d6"),
    ("", "Enter the die you rolled"),
    ("x", "'x' is not a die face"),
    ("0", "0 is not a face of a d6"),
])
def test_bad_dice_are_refused_and_change_nothing(page, server, typed, message):
    start_example_game(page, server.url)
    step(page, "roll_initiative")
    panel = guide(page)
    count = page.locator(".event-log li").count()
    panel.locator(".typed-faces input").fill(typed)
    button(panel, "Use typed dice").click()
    expect(panel.locator(".dice-message")).to_contain_text(message, timeout=SLOW)
    page.wait_for_timeout(500)
    assert page.locator(".event-log li").count() == count
    expect(page.locator(".step-roll_initiative")).to_be_visible()


def test_two_browsers_see_each_event_within_two_seconds(browser, server):
    first = browser.new_context(viewport=TABLET["landscape"]).new_page()
    game = start_example_game(first, server.url)
    second = browser.new_context(viewport=TABLET["portrait"]).new_page()
    second.goto(game)
    step(second, "roll_initiative")
    step(first, "roll_initiative")
    tap_faces(first, 4)
    expect(log_text(first)).to_contain_text("rolled 4, CSA has the initiative", timeout=SLOW)
    expect(log_text(second)).to_contain_text("rolled 4, CSA has the initiative", timeout=2000)
    step(second, "place_reinforcements")


def test_sigkill_right_after_a_confirmed_event_loses_nothing(browser, tmp_path):
    srv = Server(tmp_path / "data", tmp_path / "server.log").start()
    try:
        page = browser.new_context(viewport=TABLET["landscape"]).new_page()
        game = start_example_game(page, srv.url)
        step(page, "roll_initiative")
        tap_faces(page, 5)
        expect(log_text(page)).to_contain_text("rolled 5, CSA has the initiative", timeout=SLOW)
        srv.kill()
    finally:
        srv.stop()
    again = Server(tmp_path / "data", tmp_path / "server.log")
    again.port = srv.port
    again.start()
    try:
        page.goto(game)
        expect(log_text(page)).to_contain_text("rolled 5, CSA has the initiative", timeout=SLOW)
        step(page, "place_reinforcements")
    finally:
        again.stop()


def test_access_code_is_asked_once_per_browser(browser, tmp_path):
    srv = Server(tmp_path / "data", tmp_path / "server.log", "--access-code", "bullrun1861").start()
    try:
        context = browser.new_context(viewport=TABLET["landscape"])
        page = context.new_page()
        page.goto(srv.url + "/bull_run")
        expect(page.get_by_text("Enter the access code")).to_be_visible(timeout=SLOW)
        page.locator("input[name=password]").fill("wrong")
        page.get_by_role("button", name="Enter").click()
        expect(page.get_by_text("Wrong access code")).to_be_visible(timeout=SLOW)
        page.locator("input[name=password]").fill("bullrun1861")
        page.get_by_role("button", name="Enter").click()
        expect(button(page, "Load the example roster")).to_be_visible(timeout=SLOW)  # the page asked for
        assert page.url == srv.url + "/bull_run"
        other = context.new_page()
        other.goto(srv.url + "/bull_run")
        expect(button(other, "Load the example roster")).to_be_visible(timeout=SLOW)
        stranger = browser.new_context().new_page()
        stranger.goto(srv.url + "/bull_run")
        expect(stranger.get_by_text("Enter the access code")).to_be_visible(timeout=SLOW)
    finally:
        srv.stop()


def test_a_tab_closed_in_the_middle_of_an_update_logs_no_traceback(browser, tmp_path):
    """A tablet closing its tab while the server is sending it an update is not an error: the update is
    dropped, the server's log gets no traceback, and the game it played is saved."""
    srv = Server(tmp_path / "data", tmp_path / "server.log").start()
    try:
        for _ in range(3):
            context = browser.new_context(viewport=TABLET["landscape"])
            page = context.new_page()
            start_example_game(page, srv.url)
            button(page, "Roll for me").first.click()
            context.close()
        page = browser.new_page(viewport=TABLET["landscape"])
        start_example_game(page, srv.url)
        page.close()
    finally:
        srv.stop()
    assert "Traceback" not in srv.log.read_text()


SCRIPT = '<img src=x onerror="window.__injected=1"><script>window.__injected=2</script>'


def assert_no_script_ran(page, dialogs: list) -> None:
    """Nothing the hostile text carried ran: no dialog, no flag set by it, no element made from it."""
    page.wait_for_timeout(1500)
    assert dialogs == []
    assert page.evaluate("window.__injected") is None
    assert page.locator("img[src='x']").count() == 0


def test_script_in_a_title_a_unit_name_a_session_address_or_a_file_never_runs(page, server, tmp_path):
    """Player and file text is shown as text on every page: a game's title, a unit's name (in the roster
    and the log), the session in the address, and an imported file's refusal message."""
    dialogs: list = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/bull_run?session=" + SCRIPT)
    expect(page.locator(".picker-error")).to_contain_text("There is no saved game", timeout=SLOW)
    assert_no_script_ran(page, dialogs)

    page.locator(".session-title input").fill(SCRIPT)
    page.locator(".paste-roster textarea").first.fill(f"{SCRIPT}, CSA, 1/1, 3-2-1\nBurnside, UNION, A/1, 4-3-2-1")
    button(page, "Read pasted lines").click()
    button(page, "Start the game").click()
    step(page, "roll_initiative")
    expect(page.locator(".session-name")).to_contain_text("onerror", timeout=SLOW)
    button(guide(page), "Roll for me").click()
    step(page, "place_reinforcements")
    do(page, "Place reinforcements")
    expect(log_text(page)).to_contain_text("reinforcements", timeout=SLOW)
    assert_no_script_ran(page, dialogs)

    page.goto(server.url + "/bull_run")
    page.get_by_role("tab", name="Import").click()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "table-companion/session", "schema": 1, "slug": "bull_run", "title": "x", '
                   '"options": {}, "setup": {}, "events": [{"seq": 1, "kind": "' + SCRIPT.replace('"', "'") + '"}]}')
    page.locator(".import-file input[type=file]").set_input_files(str(bad))
    expect(page.locator(".picker-error")).to_contain_text("Import refused", timeout=SLOW)
    assert_no_script_ran(page, dialogs)


def long_game(folder: Path, count: int) -> str:
    """A saved Bull Run game of `count` events: the initiative roll, then undone and redone again and again."""
    engine = engines.get("bull_run")
    replay = Replay(engine, resolve_options(engine.options, None), engine.example_setup())
    event, step_done = replay.record({"type": "roll_initiative"}, EnteredDice((4,)))
    replay.add(event, step_done.state)
    while len(replay.events) < count:
        replay.add(replay.undo_event() if replay.applied else replay.redo_event())
    return Store(folder).create("bull_run", "A long game", replay.options, replay.setup, replay.events).id


def test_a_long_saved_game_opens_while_another_tablet_plays_on(browser, server):
    """A game of 10,001 events is replayed off the server's event loop: it opens (the last event in its log,
    its next step shown) and a tablet playing another game meanwhile is answered."""
    assert LONG_LOG < 10_000
    long = long_game(server.data_dir, 10_001)
    playing = browser.new_context(viewport=TABLET["landscape"]).new_page()
    start_example_game(playing, server.url)
    opening = browser.new_context(viewport=TABLET["portrait"]).new_page()
    opening.goto(f"{server.url}/bull_run?session={long}")
    tap_faces(playing, 4)
    expect(log_text(playing)).to_contain_text("rolled 4, CSA has the initiative", timeout=SLOW)
    step(opening, "place_reinforcements")
    expect(log_text(opening)).to_contain_text("Redo: Initiative, turn 1", timeout=SLOW)


@pytest.mark.parametrize("number_like", ["549453e66000", "012345678901"])
def test_a_saved_game_whose_id_reads_as_a_number_opens(page, server, number_like):
    """A game id is 12 hex digits, so now and then it reads as a number ("549453e66000" as 5.49e66005, too big for a
    float; "012345678901" with a leading zero): the page address still opens that game, not "no saved game"."""
    session = GameSession.new(Store(server.data_dir), "bull_run", engines.get("bull_run").example_setup())
    with sqlite3.connect(server.data_dir / DB_NAME) as db:
        db.execute("UPDATE sessions SET id = ? WHERE id = ?", (number_like, session.id))
    page.goto(f"{server.url}/bull_run?session={number_like}")
    step(page, "roll_initiative")
    assert page.url.endswith(f"session={number_like}")


@pytest.fixture
def here(tmp_path, monkeypatch):
    """`companion serve`'s apps served in this process (to count what the server still holds), saving in a folder
    of the test's; a closed page's session is dropped within 11 s instead of 32 (a session is kept 10 s for its
    page's websocket to connect). An update on its way to a tab that closes is dropped as `companion serve` drops
    it: a logged traceback, kept by pytest, would hold the page. Its address."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    port = free_port()
    server = pn.serve(app_paths(), port=port, address="127.0.0.1", show=False, threaded=True,
                      websocket_origin=[f"127.0.0.1:{port}"], check_unused_sessions_milliseconds=1000,
                      unused_session_lifetime_milliseconds=10_000)
    panel_log = logging.getLogger("panel")
    level = panel_log.level
    panel_log.setLevel(logging.INFO)  # pytest keeps every log record, and Panel's debug records of a tap hold its page
    try:
        answering(f"http://127.0.0.1:{port}/", 60)   # the server's thread may not listen yet
        quiet_closed_tabs(server.asyncio_loop)
        yield f"http://127.0.0.1:{port}"
    finally:
        panel_log.setLevel(level)
        server.stop()


def test_a_closed_page_leaves_nothing_on_the_server(browser, here):
    """A tablet that closes its game leaves nothing behind: the server frees the page whole (its components,
    its game, its document), so that memory does not grow with every page ever opened."""
    session = GameSession.new(Store(), "bull_run", engines.get("bull_run").example_setup())
    session.act({"type": "roll_initiative"}, EnteredDice((2,)))
    views_before = set(pn.state._views)
    context = browser.new_context()
    page = context.new_page()
    for path in ("/", f"/bull_run?session={session.id}"):
        page.goto(here + path)
        expect(page.locator(".open-game, .phase-guide").first).to_be_visible(timeout=SLOW)
    assert pages_held(session.id) == 1
    context.close()
    assert let_go(session.id) and set(pn.state._views) <= views_before


def test_a_tablet_told_of_another_tablets_change_is_redrawn_and_then_let_go(browser, here):
    """Two tablets on one game at a step with an odds plot: each undo and redo on one is shown on the other, whose
    page (its odds plot too) is redrawn as its own. A plot updated as another page's rescheduled itself on every
    tick for ever, which kept the server busy and the page's session from ever being dropped. Once both close, the
    server holds neither."""
    session = at_fire(Store())
    tablets = [browser.new_context(viewport=TABLET["landscape"]) for _ in range(2)]
    playing, watching = (context.new_page() for context in tablets)
    for page in (playing, watching):
        page.goto(f"{here}/bull_run?session={session.id}")
        step(page, "fire")
        expect(odds(page).locator("canvas").first).to_be_visible(timeout=SLOW)
    for _ in range(3):
        for what in ("Undo", "Redo"):
            button(playing, what).click()
            expect(log_text(watching).locator("li").first).to_contain_text(f"{what}:", timeout=SLOW)
    step(watching, "fire")
    assert pages_held(session.id) == 2
    for context in tablets:
        context.close()
    assert let_go(session.id)


def test_a_tablet_still_being_drawn_when_another_changes_the_game_shows_the_change_once_drawn(browser, server):
    """Panel drops the changes it holds for a page until the page's browser says it is drawn ("document_ready").
    A tablet whose game another tablet changes before then takes the change in once it is drawn, every part of
    the page with it (here its "ready" is held back until the other tablet has undone the attack's fire step)."""
    session = at_fire(Store(server.data_dir))
    url = f"{server.url}/bull_run?session={session.id}"
    playing = browser.new_context(viewport=TABLET["landscape"]).new_page()
    playing.goto(url)
    step(playing, "fire")
    drawing = browser.new_context(viewport=TABLET["portrait"]).new_page()
    ready = HeldReady(drawing)
    drawing.goto(url)
    step(drawing, "fire")
    button(playing, "Undo").click()
    expect(log_text(playing).locator("li").first).to_contain_text("Undo:", timeout=SLOW)
    drawing.wait_for_timeout(1000)  # the server has told the other tablet (a tick after it answered this one)
    assert ready.held, "the page said it was drawn before the other tablet's change"
    ready.release()
    expect(log_text(drawing).locator("li").first).to_contain_text("Undo:", timeout=SLOW)
    step(drawing, "declare_attack")
    expect(drawing.locator(".step-fire")).to_be_hidden()
    button(playing, "Redo").click()
    expect(log_text(drawing).locator("li").first).to_contain_text("Redo:", timeout=SLOW)
    step(drawing, "fire")


def test_a_tablet_takes_no_tap_until_it_is_drawn(browser, server):
    """Panel drops its answer to a tap on a page that the browser has not yet said is drawn: the log would show
    the undo and the step it went back to would never appear. Such a page takes no tap; once drawn it does."""
    session = at_fire(Store(server.data_dir))
    page = browser.new_context(viewport=TABLET["landscape"]).new_page()
    ready = HeldReady(page)
    page.goto(f"{server.url}/bull_run?session={session.id}")
    step(page, "fire")
    with pytest.raises(PlaywrightTimeout):
        button(page, "Undo").click(trial=True, timeout=1000)
    assert ready.held, "the page said it was drawn before it was tapped"
    ready.release()
    button(page, "Undo").click()
    expect(log_text(page).locator("li").first).to_contain_text("Undo:", timeout=SLOW)
    step(page, "declare_attack")
    expect(page.locator(".step-fire")).to_be_hidden()


class HeldReady:
    """Holds back the page's message saying that it is drawn ("document_ready") until `release()`; every other
    message goes on. A Bokeh message is a header, its metadata, its content and `num_buffers` binary frames."""

    def __init__(self, page):
        self.held: list = []
        self._message: list = []
        self._released = False
        self._server = None
        page.route_web_socket(re.compile(r"/ws(\?.*)?$"), self._route)

    def _route(self, ws) -> None:
        self._server = ws.connect_to_server()
        ws.on_message(self._from_page)

    def _from_page(self, frame) -> None:
        self._message.append(frame)
        if len(self._message) < 3 + json.loads(self._message[0]).get("num_buffers", 0):
            return
        message, self._message = self._message, []
        if not self._released and "document_ready" in message[2]:
            self.held += message
        else:
            for part in message:
                self._server.send(part)

    def release(self) -> None:
        self._released = True
        for frame in self.held:
            self._server.send(frame)
        self.held = []


def at_fire(store: Store) -> GameSession:
    """A Bull Run game on the example roster, played on at random until an attack's fire step is open."""
    engine = engines.get("bull_run")
    session = GameSession.new(store, "bull_run", engine.example_setup())
    rng = random.Random(0)
    while "fire" not in engine.actions.open(session.state):
        session.act(random_action(engine.actions, session.state, rng), RandomDice(rng=rng))
    return session


def let_go(session_id: str, within_s: float = 30) -> bool:
    """Has this process let go of every page of this game within `within_s` seconds?"""
    deadline = time.monotonic() + within_s
    while pages_held(session_id) and time.monotonic() < deadline:
        time.sleep(0.5)
    return pages_held(session_id) == 0


def pages_held(session_id: str) -> int:
    """The pages of this game that this process still holds (after a collection); pages of other games made by
    other tests in this process are not counted."""
    gc.collect()
    return sum(isinstance(o, LiveSession) and o.session.id == session_id for o in gc.get_objects())
