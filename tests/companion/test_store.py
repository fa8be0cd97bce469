"""SQLite persistence: WAL, one committed transaction per event, the data folder, export and import."""
from __future__ import annotations

import json
import sqlite3
import stat
import sys
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from companion.dice import RANDOM, Roll
from companion.events import ACTION, Event
from companion.session import import_session
from companion.store import (
    DB_NAME,
    FORMAT,
    SCHEMA_VERSION,
    ImportRefused,
    StaleSession,
    Store,
    data_dir,
    parse_export,
)


def event(seq: int) -> Event:
    return Event(seq, ACTION, f"move {seq}", {"type": "step", "n": seq}, (Roll("d", 6, (seq % 6 + 1,), RANDOM),),
                 ("X-1",))


def test_the_database_is_in_wal_mode(store):
    with closing(sqlite3.connect(store.path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_every_connection_syncs_each_commit_to_disk(store):
    """synchronous=FULL: a commit is on the disk when it returns, even if the machine loses power next."""
    with closing(store._connect()) as db:
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_the_database_and_its_folder_are_this_users_only(tmp_path):
    store = Store(tmp_path / "games")
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.folder.stat().st_mode) == 0o700


def test_an_import_that_fails_while_writing_writes_nothing(store, rows, played, monkeypatch):
    """The session row and all its events go in one transaction: a failure at the third event leaves no trace."""
    export = played.export()
    before = rows()
    written = {"count": 0}
    to_dict = Event.to_dict

    def failing(self):
        written["count"] += 1
        if written["count"] == 3:
            raise OSError("the disk is full")
        return to_dict(self)
    monkeypatch.setattr(Event, "to_dict", failing)
    with pytest.raises(OSError):
        import_session(store, export)
    assert rows() == before


def test_a_session_file_of_this_format_still_imports(store):
    """The file format and its version are a promise to every saved file: a file exported by this version
    (kept in the tests) imports, with every event."""
    raw = (Path(__file__).parent / "data" / "bull_run-session-v1.json").read_text(encoding="utf-8")
    assert (json.loads(raw)["format"], json.loads(raw)["schema"]) == (FORMAT, SCHEMA_VERSION)
    session = import_session(store, raw)
    assert len(session.events) == len(json.loads(raw)["events"]) and not session.stranded


def test_one_row_per_session_and_per_event(store, rows):
    first = store.create("bull_run", "One", {}, {})
    second = store.create("bull_run", "Two", {}, {})
    for seq in (1, 2, 3):
        store.append(first.id, event(seq))
    assert rows() == (2, 3)
    counts = {s["id"]: s["events"] for s in store.sessions()}
    assert counts == {first.id: 3, second.id: 0}


def untimed(events) -> list[Event]:
    """Events without their wall-clock time (the rest must be equal)."""
    return [replace(e, at="") for e in events]


def test_each_append_is_committed_and_seen_by_a_second_store(tmp_path):
    writer, reader = Store(tmp_path), Store(tmp_path)
    record = writer.create("bull_run", "Shared", {"solitaire": True}, {"roster": []})
    for seq in (1, 2, 3):
        writer.append(record.id, event(seq))
        assert untimed(reader.load(record.id).events) == untimed([event(s) for s in range(1, seq + 1)])
        with closing(sqlite3.connect(tmp_path / DB_NAME)) as db:
            assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == seq


def test_a_taken_seq_is_a_stale_session(store, rows):
    record = store.create("bull_run", "Race", {}, {})
    store.append(record.id, event(1))
    late = Event(1, ACTION, "the other device's move", {"type": "other"})
    with pytest.raises(StaleSession, match="Event 1 of session .* was already written by another device"):
        store.append(record.id, late)
    assert rows() == (1, 1)
    assert store.load(record.id).events == [event(1)]


def test_load_returns_what_was_created(store):
    record = store.create("bull_run", "Saved", {"a": 1}, {"roster": [{"name": "x"}]})
    loaded = store.load(record.id)
    assert (loaded.slug, loaded.title, loaded.options, loaded.setup, loaded.events) == (
        "bull_run", "Saved", {"a": 1}, {"roster": [{"name": "x"}]}, [])


def test_sessions_are_listed_most_recent_first(store):
    old = store.create("bull_run", "Old", {}, {})
    new = store.create("bull_run", "New", {}, {})
    store.append(old.id, Event(1, ACTION, "later", {"type": "x"}, at="2999-01-01T00:00:00+00:00"))
    assert [s["id"] for s in store.sessions()] == [old.id, new.id]
    assert store.sessions("dixie") == []


# --- the data folder -----------------------------------------------------------------------------

@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fake user: HOME in tmp_path, and no data-folder settings from the real environment."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("TABLE_COMPANION_DATA_DIR", "XDG_DATA_HOME", "APPDATA"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_an_explicit_folder_wins(home, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_DATA_DIR", str(home / "from-env"))
    assert data_dir(home / "explicit" / "deep") == home / "explicit" / "deep"
    assert (home / "explicit" / "deep").is_dir()
    assert not (home / "from-env").exists()


def test_the_environment_variable_beats_the_default(home, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_DATA_DIR", str(home / "from-env"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))
    assert Store().path == home / "from-env" / DB_NAME
    assert (home / "from-env" / DB_NAME).is_file()
    assert not (home / "xdg").exists()


@pytest.mark.parametrize("platform, env, expected", [
    ("linux", {}, "home/.local/share/table-companion"),
    ("linux", {"XDG_DATA_HOME": "xdg"}, "xdg/table-companion"),
    ("darwin", {}, "home/Library/Application Support/table-companion"),
    ("win32", {"APPDATA": "appdata"}, "appdata/table-companion"),
    ("win32", {}, "home/AppData/Roaming/table-companion"),
], ids=["linux", "linux-xdg", "macos", "windows", "windows-no-appdata"])
def test_the_per_user_default_is_created(home, monkeypatch, platform, env, expected):
    monkeypatch.setattr(sys, "platform", platform)
    for name, value in env.items():
        monkeypatch.setenv(name, str(home / value))
    assert data_dir() == home / expected
    assert (home / expected).is_dir()


# --- export and import ---------------------------------------------------------------------------

def exported(session) -> dict:
    return json.loads(session.export())


def test_export_then_import_round_trip(store, played):
    raw = played.export()
    data = parse_export(raw)
    copy = store.create(data["slug"], data["title"], data["options"], data["setup"], data["events"])
    loaded = store.load(copy.id)
    assert copy.id != played.id
    assert (loaded.slug, loaded.title, loaded.options, loaded.setup) == (
        "bull_run", "Saturday", played.record.options, played.record.setup)
    assert loaded.events == played.events
    assert loaded.to_export()["events"] == json.loads(raw)["events"]


def without(key):
    def edit(data):
        del data[key]
    return edit


def setting(key, value):
    def edit(data):
        data[key] = value
    return edit


def setting_event(key, value):
    def edit(data):
        data["events"][0][key] = value
    return edit


@pytest.mark.parametrize("edit, message", [
    (setting("schema", 2), "This file has schema version 2; this companion reads version 1"),
    (without("schema"), "This file has schema version None"),
    (setting("format", "some-other-app/save"), "not a Table Companion session file"),
    (without("format"), "its 'format' is missing or wrong"),
    *[(without(key), f"The file has no '{key}'") for key in ("slug", "title", "options", "setup", "events")],
    (setting("events", {"1": {}}), "'events' should be a list"),
    (setting("options", []), "'options' should be a dict"),
    (setting_event("kind", "shuffle"), "An event in the file is malformed: event 1: unknown kind 'shuffle'"),
    (setting_event("rolls", [{"label": "x", "sides": 6, "faces": [9], "source": "random"}]),
     "An event in the file is malformed: not a valid recorded roll"),
    (setting_event("seq", 7), r"The events are not numbered 1, 2, 3 \.\.\. in order"),
    (setting("slug", "chess"), "a game this companion does not know: 'chess'"),
], ids=["schema", "no-schema", "format", "no-format", "no-slug", "no-title", "no-options", "no-setup", "no-events",
        "events-type", "options-type", "event-kind", "event-roll", "event-seq", "unknown-game"])
def test_a_bad_session_file_is_refused_and_nothing_is_written(store, rows, played, edit, message):
    data = exported(played)
    edit(data)
    before = rows()
    with pytest.raises(ImportRefused, match=message):
        import_session(store, json.dumps(data))
    assert rows() == before


@pytest.mark.parametrize("raw, message", [
    ("{not json", r"The session file is not valid JSON: Expecting property name"),
    (b"\xff\xfe\x00junk", r"The session file is not text in UTF-8"),
    ("", "not valid JSON"),
    ("[1, 2, 3]", "not a Table Companion session file"),
    ("null", "not a Table Companion session file"),
    (b"x" * 40_000_000, r"The session file is 40\.0 MB; at most 33\.6 MB is read"),
    ("[" * 1_000_000, r"The session file is nested too deep"),
], ids=["text", "binary", "empty", "list", "null", "10MB-junk", "nested-1MB"])
def test_a_file_that_is_not_a_session_is_refused_and_nothing_is_written(store, rows, played, raw, message):
    before = rows()
    with pytest.raises(ImportRefused, match=message):
        import_session(store, raw)
    assert rows() == before


def test_a_session_is_renamed_and_deleted_with_its_events(store, rows, played):
    store.rename(played.id, "  Rematch  ")
    assert store.load(played.id).title == "Rematch"
    with pytest.raises(ValueError):
        store.rename(played.id, " ")
    store.delete(played.id)
    assert rows() == (0, 0)
    with pytest.raises(KeyError):
        store.delete(played.id)
