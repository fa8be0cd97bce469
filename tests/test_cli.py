"""`companion serve`: loopback by default, an access code off loopback, the data folder, the app paths, the
engines' tables prepared while it starts, and the installed command serving every page."""
from __future__ import annotations

import gc
import os
import runpy
import stat
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import panel
import pytest
from bokeh.settings import settings

import engines
from companion.cli import LOGIN_TEMPLATE, app_paths, main
from companion.door import AccessCodeProvider, is_loopback
from companion.store import DATA_DIR_ENV
from tests.browser.conftest import answering, free_port

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def restored():
    """`companion serve` sets the process's garbage collection and Bokeh's checks for a server, and has the engines
    prepare their tables on a worker thread: the tests' process gets its own settings back, once that thread is done."""
    threshold = gc.get_threshold()
    yield
    for worker in [t for t in threading.enumerate() if t.name == "prepare-engines"]:
        worker.join()
    gc.unfreeze()
    gc.set_threshold(*threshold)
    settings.perform_error_diagnostics.unset_value()
    settings.perform_document_validation.unset_value()


@pytest.fixture
def served(monkeypatch, tmp_path):
    """The calls `companion serve` makes to `panel.serve`, each as (apps, keyword arguments), with the
    data-folder variable restored after the test."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "from-the-environment"))
    calls = []
    monkeypatch.setattr(panel, "serve", lambda apps, **kwargs: calls.append((apps, kwargs)))
    return calls


def serve(data_dir: Path, *args: str) -> int:
    return main(["serve", "--data-dir", str(data_dir), *args])


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "192.168.1.20"])
def test_a_network_address_without_an_access_code_is_refused(monkeypatch, tmp_path, capsys, address):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "env"))

    def refuse(*args, **kwargs):
        raise AssertionError("nothing may be served")
    monkeypatch.setattr(panel, "serve", refuse)
    assert serve(tmp_path / "data", "--address", address) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"Serving on {address} makes the games reachable from the network: give an access code "
                   "with --access-code (players enter it once per browser).\n")


def test_an_access_code_turns_on_the_login(served, tmp_path):
    data = tmp_path / "data"
    assert serve(data, "--address", "0.0.0.0", "--access-code", "tuesday", "--port", "5123") == 0
    [(apps, kwargs)] = served
    secret = data / "cookie_secret"
    assert isinstance(kwargs["auth_provider"], AccessCodeProvider) and kwargs["auth_provider"].code == "tuesday"
    assert kwargs["cookie_secret"] == secret.read_text() and len(kwargs["cookie_secret"]) == 64
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and stat.S_IMODE(data.stat().st_mode) == 0o700
    assert LOGIN_TEMPLATE.is_file()
    assert (kwargs["address"], kwargs["port"]) == ("0.0.0.0", 5123)
    assert "*" not in kwargs["websocket_origin"] and "127.0.0.1:5123" in kwargs["websocket_origin"]
    assert apps == app_paths()


def test_the_cookie_secret_is_kept_across_restarts(served, tmp_path):
    data = tmp_path / "data"
    for _ in range(2):
        serve(data, "--address", "0.0.0.0", "--access-code", "tuesday")
    assert served[0][1]["cookie_secret"] == served[1][1]["cookie_secret"]


def test_loopback_serves_without_a_login(served, tmp_path, capsys):
    assert serve(tmp_path / "data") == 0
    [(_, kwargs)] = served
    assert kwargs["address"] == "127.0.0.1" and kwargs["port"] == 5006
    assert not {"auth_provider", "cookie_secret", "ssl_certfile"} & set(kwargs)
    assert set(kwargs["websocket_origin"]) == {"127.0.0.1:5006", "localhost:5006"}
    assert f"http://127.0.0.1:5006/  (games saved in {tmp_path / 'data'})" in capsys.readouterr().out


def test_the_data_dir_is_created_and_exported(served, tmp_path):
    data = tmp_path / "not" / "yet" / "there"
    serve(data)
    assert data.is_dir()
    assert os.environ[DATA_DIR_ENV] == str(data)


def test_serving_has_every_engine_prepare_its_tables_on_a_worker_thread(served, tmp_path, monkeypatch):
    prepared = []
    registry = {slug: replace(engine, prepare=lambda slug=slug: prepared.append((slug, threading.current_thread())))
                for slug, engine in engines.registry().items()}
    monkeypatch.setattr(engines, "registry", lambda: registry)
    assert serve(tmp_path / "data") == 0
    for worker in [t for t in threading.enumerate() if t.name == "prepare-engines"]:
        worker.join(10)
    assert [slug for slug, _ in prepared] == list(engines.GAMES)
    assert all(thread.name == "prepare-engines" and thread is not threading.main_thread() for _, thread in prepared)


def test_serving_loads_every_page_s_modules_and_sets_them_aside_from_garbage_collection_first(served, tmp_path,
                                                                                              monkeypatch):
    ran, seen = [], []
    monkeypatch.setattr(runpy, "run_path", lambda script, run=runpy.run_path: ran.append(script) or run(script))
    monkeypatch.setattr(panel, "serve", lambda apps, **kwargs: seen.append((gc.get_freeze_count(), list(ran))))
    assert serve(tmp_path / "data") == 0
    frozen, scripts = seen[0]
    assert frozen > 0 and scripts == list(app_paths().values())
    assert gc.get_threshold() == (10_000, 10, 10)


def test_serving_leaves_bokeh_s_checks_for_developers_to_the_tests(served, tmp_path):
    assert settings.perform_error_diagnostics() and settings.perform_document_validation()
    assert serve(tmp_path / "data") == 0
    assert not settings.perform_error_diagnostics() and not settings.perform_document_validation()


def test_the_installed_command_serves_every_page_from_outside_the_checkout(tmp_path):
    """`make serve` runs the `companion` command that the install made: started from another folder, it has the
    installed packages on its path and not the checkout's folders, and it answers the landing page and every game."""
    command = Path(sys.executable).with_name("companion")
    port = free_port()
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    with open(tmp_path / "server.log", "w") as log:
        server = subprocess.Popen([str(command), "serve", "--port", str(port), "--data-dir", str(tmp_path / "data")],
                                  cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)

    def running() -> None:
        assert server.poll() is None, (tmp_path / "server.log").read_text()
    try:
        for path in ["", *engines.GAMES]:
            answering(f"http://127.0.0.1:{port}/{path}", 120, check=running)
    finally:
        server.terminate()
        server.wait(30)


def test_app_paths_map_the_landing_page_and_each_engine():
    assert app_paths() == {"/": str(ROOT / "apps" / "index.py"),
                           **{f"/{slug}": str(ROOT / "apps" / f"{slug}.py") for slug in engines.GAMES}}


@pytest.mark.parametrize("address, loopback", [
    ("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True),
    ("0.0.0.0", False), ("::", False), ("192.168.1.20", False), ("no-such-host.invalid", False),
])
def test_is_loopback(address, loopback):
    assert is_loopback(address) is loopback
