"""Browser tests: a real `companion serve` process and Debian's Chromium driven by Playwright.

Never `playwright install`: the launch uses the chromium on PATH (see ../shared/TESTING.md).
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Callable

import pytest

from tests.words import DEVELOPER_WORDS

TABLET = {"landscape": {"width": 1180, "height": 820}, "portrait": {"width": 820, "height": 1180}}
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answering(url: str, timeout: float = 90, context=None, check: Callable[[], None] = lambda: None) -> None:
    """Wait until the server at `url` answers; `check()` raises when it never will (its process has exited)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        check()
        try:
            with urllib.request.urlopen(url, timeout=5, context=context):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer within {timeout} s")


class Server:
    """`companion serve` in a child process, on its own port and data folder."""

    def __init__(self, data_dir: Path, log: Path, *extra: str):
        self.data_dir, self.log, self.extra = data_dir, log, extra
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.scheme = "http"

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [sys.executable, "-m", "companion.cli", "serve", "--port", str(self.port),
                "--data-dir", str(self.data_dir), *self.extra]

    def start(self, timeout: float = 90, scheme: str = "http", context=None) -> Server:
        self.scheme = scheme
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "a") as out:
            self.proc = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        answering(self.url + "/", timeout, context, self._running)
        return self

    def _running(self) -> None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def chromium() -> dict:
    """How Playwright launches Debian's Chromium, headless (never `playwright install`)."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("Chromium is not installed: `make test` installs Debian's chromium (see README)")
    return {"executable_path": path, "headless": True,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                     "--no-first-run", "--disable-sync"]}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    try:
        return {**browser_type_launch_args, **chromium()}
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": TABLET["landscape"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("server")
    srv = Server(folder / "data", folder / "server.log").start()
    yield srv
    srv.stop()


@pytest.fixture
def offline(page):
    """Fails the test if the page asks anything of a host other than the local server."""
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(
        ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")) else None)
    yield outside
    assert not outside, f"the page loaded from outside: {outside}"


PAGE_TEXT = """() => {
  const texts = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = it.currentNode; node; node = it.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE && !['STYLE', 'SCRIPT'].includes(node.parentNode.nodeName)) {
        texts.push(node.textContent);
      } else if (node.shadowRoot) { walk(node.shadowRoot); }
    }
  };
  walk(document.body);
  return texts.join(' ');
}"""  # every text of the page, in its shadow roots too (the players' own entries included)


def developer_words(text: str) -> list[str]:
    """Each developer word in `text` (see tests/words.py), with the 40 characters either side of it."""
    return sorted({text[max(0, m.start() - 40):m.end() + 40] for m in DEVELOPER_WORDS.finditer(text)})


def pytest_configure(config):
    config.addinivalue_line("markers", "javascript_errors(*patterns): JavaScript errors this test expects (each a "
                                       "regular expression searched in the error's text); any other still fails it")


@pytest.fixture(autouse=True)
def no_javascript_errors(request):
    """Fails a test whose pages log a JavaScript error (an uncaught exception or a console error), or show a word
    meant for developers (an ambiguity or question number, a test vector, the digest, the source). Every page of
    every browser context the test opens is watched: the `page` fixture's, and those of `browser.new_context()` and
    `browser.new_page()`. A test expecting an error says so with `@pytest.mark.javascript_errors(pattern, ...)`.
    After the checks, the contexts the test opened are closed."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    expected = [re.compile(p) for m in request.node.iter_markers("javascript_errors") for p in m.args]
    errors: list[str] = []
    contexts: list = []

    def watch(context) -> None:
        contexts.append(context)
        context.on("weberror", lambda e: errors.append(f"uncaught: {e.error} ({e.page.url if e.page else '?'})"))
        context.on("console", lambda msg: errors.append(f"console: {msg.text} ({msg.page.url if msg.page else '?'})")
                   if msg.type == "error" else None)

    browser.on("context", watch)
    if "new_context" in request.fixturenames:
        request.getfixturevalue("new_context")   # so that the `page` fixture's context is closed after the checks
    try:
        yield errors
    finally:
        browser.remove_listener("context", watch)
    try:
        unexpected = [e for e in errors if not any(p.search(e) for p in expected)]
        assert not unexpected, f"JavaScript errors on the page: {unexpected[:5]}"
        for context in contexts:
            for page in context.pages:
                if not page.is_closed():
                    words = developer_words(page.evaluate(PAGE_TEXT))
                    assert not words, f"words meant for developers on {page.url}: {words[:5]}"
    finally:
        for context in contexts:
            context.close()
