"""SQLite persistence of game sessions (stdlib sqlite3, WAL).

One row per session, one row per event. Each event is committed in its own transaction before
the caller shows it as done, so a crash or a closed tablet loses nothing confirmed. Snapshots of a
session's state every so many events let a long session open without replaying its whole log. A session
can be exported as versioned JSON and imported back; files are parsed as JSON only, checked
field by field, and never unpickled or evaluated.
"""
from __future__ import annotations

import json
import os
import sqlite3
import sys
import uuid
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from .events import Event, now
from .loading import JSON, Limits, LoadRefused, load_text

DATA_DIR_ENV = "TABLE_COMPANION_DATA_DIR"
DB_NAME = "companion.sqlite3"
FORMAT = "table-companion/session"
LOG_FORMAT = "table-companion/log"  # a player's export: the log as that player saw it, not a game to import
SCHEMA_VERSION = 1
MAX_IMPORT_BYTES = 32 * 1024 * 1024
MAX_IMPORT_EVENTS = 50_000
IMPORT_LIMITS = Limits(bytes=MAX_IMPORT_BYTES, nodes=4_000_000)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL,
    title TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    options TEXT NOT NULL,
    setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    action INTEGER NOT NULL,
    code TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
"""


@dataclass(frozen=True)
class Snapshot:
    """The game state as it stood after event `seq`: the state made by action event `action`, saved by the code
    whose digest is `code` (only that code may take it instead of replaying the log up to it)."""

    seq: int
    action: int
    code: str
    state: dict


class NoSuchSession(KeyError):
    """No session of that id is saved here."""


class StaleSession(RuntimeError):
    """Another device added an event first: reload the session and try again."""


class ImportRefused(ValueError):
    """A session file that cannot be imported; nothing was written."""


def data_dir(explicit: str | os.PathLike | None = None) -> Path:
    """Where sessions are saved: the explicit folder, else $TABLE_COMPANION_DATA_DIR, else a per-user
    default (XDG data folder on Linux, Application Support on macOS, %APPDATA% on Windows).
    The folder is created if missing."""
    if explicit:
        path = Path(explicit)
    elif os.environ.get(DATA_DIR_ENV):
        path = Path(os.environ[DATA_DIR_ENV])
    elif sys.platform == "win32":
        path = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "table-companion"
    elif sys.platform == "darwin":
        path = Path.home() / "Library" / "Application Support" / "table-companion"
    else:
        path = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "table-companion"
    path = path.expanduser()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir(mode=0o700)  # the games, and the access cookie's secret: this user's only
    return path


@dataclass
class SessionRecord:
    """A saved session: its identity, setup and the whole event log."""

    id: str
    slug: str
    title: str
    options: dict[str, Any]
    setup: dict[str, Any]
    created: str = field(default_factory=now)
    updated: str = ""
    events: list[Event] = field(default_factory=list)

    def to_export(self) -> dict:
        return {
            "format": FORMAT,
            "schema": SCHEMA_VERSION,
            "slug": self.slug,
            "title": self.title,
            "created": self.created,
            "options": self.options,
            "setup": self.setup,
            "events": [e.to_dict() for e in self.events],
        }


class Store:
    """The session database in one data folder."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.folder = data_dir(folder)
        self.path = self.folder / DB_NAME
        if not self.path.exists():  # readable by this user only; SQLite gives its WAL files the same mode
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        with closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def create(self, slug: str, title: str, options: Mapping, setup: Mapping,
               events: list[Event] = ()) -> SessionRecord:
        """A new session row (and, for an import, all its events) in one transaction."""
        record = SessionRecord(uuid.uuid4().hex[:12], slug, title, dict(options), dict(setup))
        record.updated = record.created
        record.events = list(events)
        with closing(self._connect()) as db, db:
            db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (record.id, slug, title, record.created, record.updated,
                        json.dumps(record.options), json.dumps(record.setup)))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(record.id, e.seq, json.dumps(e.to_dict())) for e in record.events])
        return record

    def append(self, session_id: str, event: Event) -> None:
        """Commit one event in its own transaction. StaleSession if its seq is taken."""
        try:
            with closing(self._connect()) as db, db:
                db.execute("INSERT INTO events VALUES (?, ?, ?)",
                           (session_id, event.seq, json.dumps(event.to_dict())))
                db.execute("UPDATE sessions SET updated = ? WHERE id = ?", (event.at, session_id))
        except sqlite3.IntegrityError:
            raise StaleSession(f"Event {event.seq} of session {session_id} was already written "
                               "by another device") from None

    def load(self, session_id: str) -> SessionRecord:
        with closing(self._connect()) as db:
            row = db.execute("SELECT id, slug, title, options, setup, created, updated FROM sessions "
                             "WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                raise NoSuchSession(f"No saved session {session_id!r}")
            record = SessionRecord(row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]),
                                   row[5], row[6])
        record.events = self.events_after(session_id, 0)
        return record

    def save_snapshot(self, session_id: str, snapshot: Snapshot) -> None:
        """Keep the state after an event, so that the session opens without replaying its log up to it."""
        with closing(self._connect()) as db, db:
            db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                       (session_id, snapshot.seq, snapshot.action, snapshot.code, json.dumps(snapshot.state)))

    def snapshots(self, session_id: str, code: str) -> dict[int, int]:
        """The snapshots of the session saved by the code `code`: the seq of the action whose state each holds
        -> the seq of the event after which it was saved (the latest, for an action saved twice)."""
        with closing(self._connect()) as db:
            rows = db.execute("SELECT action, MAX(seq) FROM snapshots WHERE session_id = ? AND code = ? "
                              "GROUP BY action", (session_id, code)).fetchall()
        return dict(rows)

    def snapshot_state(self, session_id: str, seq: int) -> dict:
        """The state saved after event `seq` (as its `to_dict`)."""
        with closing(self._connect()) as db:
            row = db.execute("SELECT state FROM snapshots WHERE session_id = ? AND seq = ?",
                             (session_id, seq)).fetchone()
        return json.loads(row[0])

    def last_seqs(self, session_ids: Iterable[str]) -> dict[str, int]:
        """The seq of the last saved event of each session (those with none are left out): one light query."""
        ids = list(session_ids)
        with closing(self._connect()) as db:
            rows = db.execute(f"SELECT session_id, MAX(seq) FROM events WHERE session_id IN ({','.join('?' * len(ids))})"
                              " GROUP BY session_id", ids).fetchall()
        return dict(rows)

    def events_after(self, session_id: str, seq: int) -> list[Event]:
        with closing(self._connect()) as db:
            rows = db.execute("SELECT data FROM events WHERE session_id = ? AND seq > ? ORDER BY seq",
                              (session_id, seq)).fetchall()
        return [Event.from_dict(json.loads(r[0])) for r in rows]


    def rename(self, session_id: str, title: str) -> None:
        """A new title for a saved session (1 to 80 characters)."""
        title = title.strip()
        if not 1 <= len(title) <= 80:
            raise ValueError("A game's name is 1 to 80 characters.")
        with closing(self._connect()) as db, db:
            if db.execute("UPDATE sessions SET title = ? WHERE id = ?", (title, session_id)).rowcount != 1:
                raise NoSuchSession(f"No saved session {session_id!r}")

    def delete(self, session_id: str) -> None:
        """Remove a saved session and all its events, in one transaction."""
        with closing(self._connect()) as db, db:
            db.execute("DELETE FROM events WHERE session_id = ?", (session_id,))
            db.execute("DELETE FROM snapshots WHERE session_id = ?", (session_id,))
            if db.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount != 1:
                raise NoSuchSession(f"No saved session {session_id!r}")

    def sessions(self, slug: str | None = None) -> list[dict]:
        """Saved sessions, most recently played first: id, slug, title, created, updated, events."""
        query = ("SELECT s.id, s.slug, s.title, s.created, s.updated, COUNT(e.seq) FROM sessions s "
                 "LEFT JOIN events e ON e.session_id = s.id "
                 + ("WHERE s.slug = ? " if slug else "") + "GROUP BY s.id ORDER BY s.updated DESC")
        with closing(self._connect()) as db:
            rows = db.execute(query, (slug,) if slug else ()).fetchall()
        keys = ("id", "slug", "title", "created", "updated", "events")
        return [dict(zip(keys, r)) for r in rows]



def parse_export(raw: bytes | str) -> dict:
    """The checked content of a session file, or ImportRefused saying what is wrong with it."""
    try:
        data = load_text(raw, JSON, "The session file", IMPORT_LIMITS)
    except LoadRefused as exc:
        raise ImportRefused(str(exc)) from None
    if isinstance(data, dict) and data.get("format") == LOG_FORMAT:
        raise ImportRefused("This is a player's copy of a game's log (no hidden hands or dice): it can be read, "
                            "not played on. Import the host's full export instead.")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused("This is not a Table Companion session file (its 'format' is missing or wrong).")
    if data.get("schema") != SCHEMA_VERSION:
        raise ImportRefused(f"This file has schema version {data.get('schema')!r}; this companion reads "
                            f"version {SCHEMA_VERSION}.")
    expected = {"slug": str, "title": str, "options": dict, "setup": dict, "events": list}
    for key, kind in expected.items():
        if key not in data:
            raise ImportRefused(f"The file has no '{key}'.")
        if not isinstance(data[key], kind):
            raise ImportRefused(f"'{key}' should be a {kind.__name__}.")
    if len(data["events"]) > MAX_IMPORT_EVENTS:
        raise ImportRefused(f"The file has {len(data['events'])} events; at most {MAX_IMPORT_EVENTS} are imported.")
    try:
        data["events"] = [Event.from_dict(e) for e in data["events"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ImportRefused(f"An event in the file is malformed: {exc}") from None
    if [e.seq for e in data["events"]] != list(range(1, len(data["events"]) + 1)):
        raise ImportRefused("The events are not numbered 1, 2, 3 ... in order.")
    return data
