"""A live game session: an engine, its event log, and the store that keeps every event.

`act`, `undo` and `redo` first catch up with events other devices wrote, then validate, commit
the event in its own transaction, and only then change the state in memory. A rule error or a
dice error changes nothing anywhere. Every SNAPSHOT_EVERY events the state is saved beside the log;
a session opens from its latest snapshot saved by the same code, replaying only the events after it. An
opening that had to work out SNAPSHOT_OPENING actions or more (after the snapshot, or back from an earlier
one to a position taken back past it) saves the state it reached, so the next opening does not do it again.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, Mapping

import engines

from .dice import Dice, DiceError, ReplayDice
from .engine import Engine, RuleError, resolve_options, saved_options
from .events import ACTION, UNDO, Event, Replay
from .quoting import cut, quote
from .store import LOG_FORMAT, ImportRefused, SessionRecord, Snapshot, StaleSession, Store, parse_export

SNAPSHOT_EVERY = 100  # events: the most a session replays when it opens, after its latest snapshot
SNAPSHOT_OPENING = 10  # actions: an opening that worked out this many saves the state it reached


@cache
def code_version(slug: str) -> str:
    """A digest of the code that replays a game of `slug` (its engine and the companion's core): a snapshot
    is taken in only by the very code that saved it, so any change to the rules replays the log again."""
    digest = hashlib.sha256()
    for folder in (Path(engines.__file__).parent / slug, Path(__file__).parent):
        for path in sorted(folder.rglob("*.py") if folder.name == slug else folder.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(Path(engines.__file__).read_bytes())
    return digest.hexdigest()[:16]


class GameSession:
    """One game session as the apps use it."""

    def __init__(self, store: Store, record: SessionRecord):
        self.store = store
        self.record = record
        self.engine: Engine = engines.get(record.slug)
        options, self.notes = saved_options(self.engine.options, record.options)
        self.replay = Replay(self.engine, options, record.setup)
        self.stranded: list[Event] = []  # saved events that no longer replay by the rules of this version
        self._take(record.events[self._from_snapshot(record.events):])
        if self.replay.worked_out() >= SNAPSHOT_OPENING:
            self._snapshot()

    def _from_snapshot(self, events: list[Event]) -> int:
        """Take in the events up to the latest snapshot this code saved, without replaying them (a state an
        earlier snapshot holds is read when an undo first needs it); how many."""
        saved = {action: seq for action, seq in self.store.snapshots(self.id, code_version(self.engine.slug)).items()
                 if seq <= len(events)}
        if not saved or self.notes:
            return 0

        def known(action: int) -> Any:
            try:
                return self.engine.state_from_dict(self.store.snapshot_state(self.id, saved[action]))
            except (RuleError, KeyError, TypeError, ValueError):
                return None
        latest, action = max((seq, action) for action, seq in saved.items())
        if (state := known(action)) is None:
            return 0
        self.replay.skip(events[:latest], lambda seq: state if seq == action else known(seq))
        return latest

    def _snapshot(self) -> None:
        """Save the state as it stands now (not for a game that no longer replays, nor one with no action)."""
        if self.replay.applied and not self.stranded:
            self.store.save_snapshot(self.id, Snapshot(len(self.replay.events), self.replay.applied[-1].seq,
                                                       code_version(self.engine.slug), self.state.to_dict()))

    def _take(self, events: list[Event]) -> None:
        """Replay saved events; from the first that no longer replays, keep them aside with a note."""
        if self.stranded:
            self.stranded.extend(events)
            return
        for i, event in enumerate(events):
            try:
                self.replay.add(event)
            except (RuleError, DiceError, ValueError) as exc:
                self.stranded = list(events[i:])
                self.notes.append(f"Event {event.seq} ({event.summary}) no longer replays under the rules as this "
                                  f"version reads them: {exc}. The game is shown as it stood before it; the saved "
                                  f"log keeps all {event.seq + len(self.stranded) - 1} events (export it, or "
                                  "continue from here in a copy).")
                return

    def continue_copy(self) -> GameSession:
        """A new session with the events that still replay: the game goes on from there; nothing is lost."""
        record = self.store.create(self.engine.slug, f"{self.record.title} (continued from event "
                                   f"{len(self.replay.events)})", self.replay.options, self.record.setup,
                                   list(self.replay.events))
        return GameSession(self.store, record)

    @classmethod
    def new(cls, store: Store, slug: str, setup: Mapping[str, Any],
            options: Mapping[str, Any] | None = None, title: str = "") -> GameSession:
        """Start a session: options and setup are checked by the engine before anything is saved."""
        engine = engines.get(slug)
        chosen = resolve_options(engine.options, options)
        engine.start(chosen, setup)
        record = store.create(slug, title.strip() or engine.title, chosen, dict(setup))
        return cls(store, record)

    @classmethod
    def open(cls, store: Store, session_id: str) -> GameSession:
        return cls(store, store.load(session_id))

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def state(self) -> Any:
        return self.replay.state

    @property
    def events(self) -> list[Event]:
        return self.replay.events

    @property
    def can_undo(self) -> bool:
        return bool(self.replay.applied)

    @property
    def can_redo(self) -> bool:
        return bool(self.replay.undone)

    @property
    def undo_is_physical(self) -> bool:
        """Would undo take back dice rolled at the table? The UI asks to confirm first."""
        return self.can_undo and self.replay.applied[-1].physical

    @property
    def known(self) -> int:
        """How many of the saved events this copy has taken in (the seq of the last)."""
        return len(self.replay.events) + len(self.stranded)

    def refresh(self) -> bool:
        """Take in events other devices wrote since; True if there were any."""
        new = self.store.events_after(self.id, self.known)
        self._take(new)
        return bool(new)

    def _writable(self) -> None:
        if self.stranded:
            raise RuleError("replay", f"This game stopped replaying at event {self.stranded[0].seq}: continue it "
                                      "in a copy (Sessions) to play on.")


    def act(self, action: Mapping[str, Any], dice: Dice) -> Event:
        self.refresh()
        self._writable()
        event, step = self.replay.record(action, dice)
        return self._commit(event, step.state)

    def undo(self) -> Event:
        self.refresh()
        self._writable()
        return self._commit(self.replay.undo_event())

    def redo(self) -> Event:
        self.refresh()
        self._writable()
        return self._commit(self.replay.redo_event())

    def _commit(self, event: Event, state: Any = None) -> Event:
        try:
            self.store.append(self.id, event)
        except StaleSession:
            self.refresh()
            raise RuleError("sync", "Another device changed this game a moment ago; the page now shows "
                                    "its move. Check, then try again.") from None
        self.replay.add(event, state)
        if event.seq % SNAPSHOT_EVERY == 0:
            self._snapshot()
        return event

    def export(self) -> str:
        """The session as a versioned JSON file, every event included, hidden parts too (the host's export)."""
        record = replace(self.record, events=list(self.replay.events) + self.stranded)
        return json.dumps(record.to_export(), indent=1)

    @property
    def has_secrets(self) -> bool:
        """Does the log hold a player's private part (a hand, the dice that dealt it)?"""
        return any(e.owner for e in self.replay.events)

    def export_log(self, viewer: str) -> str:
        """The log as the page of `viewer` sees it: other players' private parts left out. Not importable."""
        events = [e if e.seen_by(viewer) else e.public() for e in list(self.replay.events) + self.stranded]
        data = {**replace(self.record, events=events).to_export(), "format": LOG_FORMAT, "viewer": viewer}
        return json.dumps(data, indent=1)


def rederived(engine: Engine, options: Mapping[str, Any], setup: Mapping[str, Any], events: list[Event]) -> list[Event]:
    """An imported log as this companion makes it: each action replayed with its recorded dice, its summary and
    rule IDs written by the engine, the dice labelled by it (their sources kept: a companion roll stays one);
    each undo and redo checked against the action it names. RuleError/DiceError/ValueError if it does not
    replay by the rules."""
    replay = Replay(engine, options, setup)
    for saved in events:
        if saved.kind == ACTION:
            event, step = replay.record(saved.action, ReplayDice(saved.rolls))
            if [r.faces for r in event.rolls] != [r.faces for r in saved.rolls]:
                raise ValueError(f"event {saved.seq}: its dice are not the rolls its action makes")
            replay.add(replace(event, at=saved.at), step.state)
            continue
        event = replay.undo_event() if saved.kind == UNDO else replay.redo_event()
        if event.target != saved.target:
            raise ValueError(f"event {saved.seq} names action {saved.target}, not the one it can "
                             f"{saved.kind} ({event.target})")
        replay.add(replace(event, at=saved.at))
    return replay.events


def import_session(store: Store, raw: bytes | str) -> GameSession:
    """Check a session file completely (format, fields, and a replay of every event through its engine, which
    writes each event's summary and rules again), then save it as a new session, named as an imported copy,
    in one transaction. ImportRefused otherwise; nothing is written."""
    data = parse_export(raw)
    try:
        engine = engines.get(data["slug"])
    except KeyError:
        raise ImportRefused(f"This file is for a game this companion does not know: {quote(data['slug'])}.") from None
    try:
        options = resolve_options(engine.options, data["options"])
        events = rederived(engine, options, data["setup"], data["events"])
    except (RuleError, DiceError, ValueError, KeyError, TypeError) as exc:
        raise ImportRefused(f"The file's game does not replay by the rules: {cut(str(exc))}") from None
    title = f"{data['title'].strip()[:80] or engine.title} (imported copy)"
    record = store.create(data["slug"], title, options, data["setup"], events)
    return GameSession(store, record)
