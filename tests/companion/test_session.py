"""Live sessions: new, open, act, undo, redo, refresh across devices, and import through the engine."""
from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from companion.dice import ENTERED, DiceError, EnteredDice, RandomDice, Roll, parse_faces
from companion.engine import RuleError
from companion.events import ACTION, REDO, UNDO, Event, Replay
from companion.play import random_action
from companion.session import SNAPSHOT_EVERY, SNAPSHOT_OPENING, GameSession, code_version, import_session
from companion.store import ImportRefused, Store
from tests.scale import examples

SETUP = engines.get("bull_run").example_setup()


def test_new_saves_the_session_with_every_option_resolved(store, rows):
    session = GameSession.new(store, "bull_run", SETUP, {"solitaire": False}, title="  Sunday  ")
    assert rows() == (1, 0)
    saved = store.load(session.id)
    assert saved.title == "Sunday"
    assert saved.options["solitaire"] is False and saved.options["lapsed_attack"] == "lapses"
    assert session.state.turn == 1 and session.state.phase == "initiative"
    assert GameSession.new(store, "bull_run", SETUP).record.title == "Battle at Bull Run"


@pytest.mark.parametrize("setup, options, message", [
    ({"roster": []}, None, "The roster is empty"),
    (SETUP, {"no_such_option": 1}, "Unknown option"),
    (SETUP, {"lapsed_attack": "R2"}, "cannot be 'R2'"),
    (SETUP, {"solitaire": 1}, "cannot be 1"),
], ids=["empty-roster", "unknown-option", "bad-choice", "int-for-bool"])
def test_a_bad_start_saves_nothing(store, rows, setup, options, message):
    with pytest.raises(RuleError, match=message):
        GameSession.new(store, "bull_run", setup, options)
    assert rows() == (0, 0)


def test_the_played_session_is_in_memory_and_in_the_store(store, played):
    assert [(e.kind, e.target) for e in played.events] == [
        (ACTION, None), (ACTION, None), (ACTION, None), (UNDO, 3), (REDO, 3)]
    state = played.state
    assert (state.turn, state.phase, state.initiative[0], state.farm_ford_found) == (1, "movement", "UNION", 1)
    assert store.load(played.id).events == played.events
    assert GameSession.open(store, played.id).state == state


def test_undo_and_redo_move_the_state_and_are_saved(store, played):
    before = played.state
    undo = played.undo()
    assert undo.kind == UNDO and undo.target == 3
    assert played.state.farm_ford_found == 0 and played.can_redo
    assert GameSession.open(store, played.id).state == played.state
    played.redo()
    assert played.state == before and not played.can_redo
    assert [e.kind for e in store.load(played.id).events][-2:] == [UNDO, REDO]


def test_undo_of_dice_rolled_at_the_table_is_flagged(played):
    assert played.undo_is_physical
    played.undo()
    assert not played.undo_is_physical  # the next action to undo rolled no dice


def test_two_sessions_on_one_store_see_each_other_through_refresh(tmp_path):
    tablet = GameSession.new(Store(tmp_path), "bull_run", SETUP)
    phone = GameSession.open(Store(tmp_path), tablet.id)
    tablet.act({"type": "roll_initiative"}, EnteredDice((5,)))
    assert phone.state.phase == "initiative"
    assert phone.refresh() is True
    assert phone.state == tablet.state and phone.state.initiative[0] == "CSA"
    assert phone.refresh() is False
    phone.act({"type": "place_reinforcements"}, RandomDice(seed=1))
    phone.undo()
    assert tablet.refresh() is True
    assert tablet.state == phone.state and tablet.events == phone.events


def test_act_first_catches_up_with_the_other_device(tmp_path):
    tablet = GameSession.new(Store(tmp_path), "bull_run", SETUP)
    phone = GameSession.open(Store(tmp_path), tablet.id)
    tablet.act({"type": "roll_initiative"}, EnteredDice((1,)))
    phone.act({"type": "place_reinforcements"}, RandomDice(seed=1))
    assert [e.seq for e in phone.events] == [1, 2]
    assert phone.state.initiative[0] == "UNION"


def test_a_move_lost_in_a_race_is_refused_and_the_winner_shown(tmp_path, monkeypatch):
    """The phone misses the tablet's event until it tries to write the same seq."""
    tablet = GameSession.new(Store(tmp_path), "bull_run", SETUP)
    phone = GameSession.open(Store(tmp_path), tablet.id)
    tablet.act({"type": "roll_initiative"}, EnteredDice((1,)))
    real, missed = phone.store.events_after, iter([True])

    def late(session_id, seq):
        return [] if next(missed, False) else real(session_id, seq)

    monkeypatch.setattr(phone.store, "events_after", late)
    with pytest.raises(RuleError, match="Another device changed this game") as err:
        phone.act({"type": "roll_initiative"}, EnteredDice((6,)))
    assert err.value.rule == "sync"
    assert phone.state == tablet.state and phone.state.initiative[0] == "UNION"
    assert len(Store(tmp_path).load(tablet.id).events) == 1


@pytest.mark.parametrize("action, dice, error, message", [
    ({"type": "no_such_action"}, lambda: RandomDice(seed=1), RuleError, "There is no action 'no_such_action'"),
    ({"type": "end_turn"}, lambda: RandomDice(seed=1), RuleError, "end of turn phase"),
    ({"type": "roll_initiative", "turn": 3}, lambda: RandomDice(seed=1), RuleError,
     "there is no parameter 'turn'"),
    ({"type": "roll_initiative"}, lambda: EnteredDice((7,)), DiceError, "7 is not a face of a d6"),
    ({"type": "roll_initiative"}, lambda: EnteredDice(parse_faces("six")), DiceError, "'six' is not a die face"),
    ({"type": "roll_initiative"}, lambda: EnteredDice(()), DiceError, "needs 1 d6"),
    ({"type": "roll_initiative"}, lambda: EnteredDice((3, 4)), DiceError, "This roll uses 1 die, but 2 were entered"),
], ids=["unknown", "wrong-phase", "garbage-param", "bad-face", "text", "no-dice", "too-many-dice"])
def test_an_illegal_action_or_bad_dice_changes_nothing(store, rows, action, dice, error, message):
    session = GameSession.new(store, "bull_run", SETUP)
    before = (session.state, list(session.events), rows())
    with pytest.raises(error, match=message):
        session.act(action, dice())
    assert (session.state, list(session.events), rows()) == before
    assert GameSession.open(store, session.id).state == session.state


def test_one_dice_source_serves_many_actions(store):
    session = GameSession.new(store, "bull_run", SETUP)
    dice = RandomDice(seed=2)
    session.act({"type": "roll_initiative"}, dice)
    session.act({"type": "place_reinforcements"}, dice)
    assert [len(e.rolls) for e in session.events] == [1, 0]
    assert GameSession.open(store, session.id).state == session.state




def test_import_replays_the_file_through_the_engine(store, rows, played):
    copy = import_session(store, played.export())
    assert copy.id != played.id
    assert copy.state == played.state
    assert copy.events == played.events
    assert [r.source for e in copy.events for r in e.rolls] == [ENTERED, ENTERED]
    assert rows() == (2, 10)
    assert GameSession.open(store, copy.id).state == played.state


ENTERED_3 = {"label": "Initiative (BR-6.0)", "sides": 6, "source": "entered"}


@pytest.mark.parametrize("index, changes, message", [
    (0, {"action": {"type": "place_reinforcements"}}, "This belongs to the reinforcement phase"),
    (2, {"action": {"type": "end_turn"}}, "This belongs to the end of turn phase"),
    (0, {"rolls": [{**ENTERED_3, "faces": [3, 3]}]}, "This roll uses 1 die, but 2 were entered"),
    (0, {"rolls": []}, "needs 1 d6"),
    (3, {"target": 1}, "event 4 names action 1, not the one it can undo \\(3\\)"),
    (4, {"kind": "undo"}, "event 5 names action 3, not the one it can undo \\(2\\)"),
], ids=["reinforce-first", "wrong-phase", "extra-die", "missing-die", "undo-target", "double-undo"])
def test_import_refuses_a_file_whose_events_break_the_rules(store, rows, played, index, changes, message):
    data = json.loads(played.export())
    data["events"][index].update(changes)
    before = rows()
    with pytest.raises(ImportRefused, match=f"The file's game does not replay by the rules: .*{message}"):
        import_session(store, json.dumps(data))
    assert rows() == before


def saved_by_an_earlier_version(store: Store, options: dict, actions: list[tuple[dict, tuple]]) -> str:
    """A session as an earlier version saved it: its options and action events, written straight to the store."""
    events = [Event(i + 1, ACTION, f"event {i + 1}", action, tuple(Roll("a die", 6, (f,), ENTERED) for f in faces))
              for i, (action, faces) in enumerate(actions)]
    return store.create("bull_run", "Old game", options, SETUP, events).id


def test_a_session_saved_with_options_no_longer_offered_opens_with_a_note(store):
    """An option the rules now settle is dropped, a new one takes its default; the game opens, and says so."""
    old = {k: v for k, v in engines.get("bull_run").start(None, SETUP).options.items() if k != "lapsed_attack"}
    sid = saved_by_an_earlier_version(store, {**old, "hit_allocation": "R3"}, [({"type": "roll_initiative"}, (2,))])
    session = GameSession.open(store, sid)
    assert session.state.phase == "reinforcements" and not session.stranded
    assert any("'hit_allocation' is no longer offered" in n for n in session.notes)
    assert any("An attack whose target has gone" in n and "is new" in n for n in session.notes)


def test_a_session_whose_event_no_longer_replays_opens_up_to_it_and_loses_nothing(store):
    """An event that the rules of this version refuse: the game opens as it stood before it, with a note naming
    the event; nothing is written over, the export keeps every event, and play goes on in a copy."""
    sid = saved_by_an_earlier_version(store, {}, [
        ({"type": "roll_initiative"}, (2,)), ({"type": "place_reinforcements"}, ()),
        ({"type": "farm_ford_roll", "old_parameter": True}, (6,)), ({"type": "end_movement"}, ())])
    session = GameSession.open(store, sid)
    assert session.state.phase == "movement" and [e.seq for e in session.stranded] == [3, 4]
    assert any("Event 3" in n and "no longer replays" in n for n in session.notes)
    with pytest.raises(RuleError, match="continue it in a copy"):
        session.act({"type": "farm_ford_roll"}, EnteredDice((6,)))
    assert len(store.load(sid).events) == 4
    assert [e["seq"] for e in json.loads(session.export())["events"]] == [1, 2, 3, 4]
    copy = session.continue_copy()
    assert copy.id != sid and len(copy.events) == 2 and "continued from event 2" in copy.record.title
    copy.act({"type": "farm_ford_roll"}, EnteredDice((6,)))
    assert copy.state.farm_ford_found == 1


def test_an_import_writes_each_events_summary_and_rules_again_from_the_engine(store, played):
    """An imported log is re-derived, not trusted: a summary or rule list written into the file is replaced by
    what the engine says the action did; the dice and their sources are kept as recorded."""
    data = json.loads(played.export())
    data["events"][0]["summary"] = "<img src=x onerror=alert(1)> the CSA wins"
    data["events"][0]["rules"] = ["BR-12.0"]
    session = import_session(store, json.dumps(data))
    first, original = session.events[0], played.events[0]
    assert (first.summary, first.rules) == (original.summary, original.rules)
    assert [(r.faces, r.source) for r in first.rolls] == [(r.faces, r.source) for r in original.rolls]
    assert [e.summary for e in session.events] == [e.summary for e in played.events]


@pytest.mark.parametrize("field, value", [
    ("seq", True), ("seq", 1.9), ("seq", "1"), ("target", "3"), ("summary", 5),
    ("rolls", [{**ENTERED_3, "faces": "3"}]), ("rolls", [{**ENTERED_3, "faces": ["3"]}]),
    ("rolls", [{**ENTERED_3, "faces": [3.0]}]), ("rolls", [{**ENTERED_3, "faces": [3], "source": "bogus"}]),
    ("rolls", [{**ENTERED_3, "faces": [True]}]),
], ids=lambda v: repr(v)[:20])
def test_an_import_with_loosely_typed_fields_is_refused(store, rows, played, field, value):
    data = json.loads(played.export())
    data["events"][0][field] = value
    before = rows()
    with pytest.raises(ImportRefused, match="malformed"):
        import_session(store, json.dumps(data))
    assert rows() == before


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


@settings(max_examples=examples(5000), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_session_file_is_a_copy_or_a_refusal_that_writes_nothing(store, rows, played, data):
    """Junk bytes, any JSON, or a real export with one field made junk: an imported copy that replays to the
    engine's state, or ImportRefused with a short message and nothing written."""
    export = json.loads(played.export())
    kind = data.draw(st.sampled_from(["bytes", "json", "field", "event"]))
    if kind == "bytes":
        raw = data.draw(st.binary(max_size=300))
    elif kind == "json":
        raw = json.dumps(data.draw(JSON_VALUES))
    else:
        target = export if kind == "field" else data.draw(st.sampled_from(export["events"]))
        target[data.draw(st.sampled_from(sorted(target)))] = data.draw(JSON_VALUES)
        raw = json.dumps(export)
    before = rows()
    try:
        copy = import_session(store, raw)
    except ImportRefused as exc:
        assert len(str(exc)) < 600 and rows() == before
    else:
        assert GameSession.open(store, copy.id).state == copy.state and rows()[0] == before[0] + 1


def test_an_import_of_too_many_events_is_refused_before_any_replay(store, rows, played):
    data = json.loads(played.export())
    data["events"] = [{"seq": i + 1, "kind": "undo", "summary": "", "target": 1} for i in range(50_001)]
    with pytest.raises(ImportRefused, match="50001 events; at most 50000"):
        import_session(store, json.dumps(data))
    assert rows() == (1, 5)


# --- snapshots: a long game opens without replaying its whole log -------------------------------------------

def long_game(store: Store, slug: str = "bull_run", events: int = 2 * SNAPSHOT_EVERY + 37, seed: int = 3) -> GameSession:
    """A game of `events` events of random legal play, an undo and a redo now and then (a game that ends is
    taken back a few actions and played on)."""
    engine, rng = engines.get(slug), random.Random(seed)
    session = GameSession.new(store, slug, engine.example_setup(), title="long")
    while len(session.events) < events:
        action = random_action(engine.actions, session.state, rng)
        if action is None or rng.random() < 0.05:
            session.undo() if session.can_undo else None
        elif session.can_redo and rng.random() < 0.3:
            session.redo()
        else:
            session.act(action, RandomDice(rng=rng))
    return session


def full_replay(store: Store, session: GameSession) -> Replay:
    replay = Replay(session.engine, session.replay.options, session.record.setup)
    replay.extend(store.load(session.id).events)
    return replay


@pytest.fixture
def applies(monkeypatch) -> list:
    """The seqs of the action events worked out by a replay, in order."""
    done, work = [], Replay._apply

    def counted(self, state, event):
        done.append(event.seq)
        return work(self, state, event)
    monkeypatch.setattr(Replay, "_apply", counted)
    return done


def test_a_long_game_opens_from_its_latest_snapshot_replaying_only_the_events_after_it(store, applies):
    """(A House Divided: 40 turns, so 37 more actions never reach its end.)"""
    game, rng = long_game(store, "house_divided", events=2 * SNAPSHOT_EVERY), random.Random(1)
    while len(game.events) < 2 * SNAPSHOT_EVERY + 37:
        game.act(random_action(game.engine.actions, game.state, rng), RandomDice(rng=rng))
    saved = store.snapshots(game.id, code_version("house_divided"))
    assert max(saved.values()) == 2 * SNAPSHOT_EVERY   # one every SNAPSHOT_EVERY events
    applies.clear()
    opened = GameSession.open(store, game.id)
    state, worked = opened.state, list(applies)
    assert worked == list(range(2 * SNAPSHOT_EVERY + 1, 2 * SNAPSHOT_EVERY + 38))
    assert state == full_replay(store, game).state == game.state
    assert opened.events == game.events and opened.can_undo == game.can_undo and opened.can_redo == game.can_redo


def test_undo_past_the_snapshots_gives_every_state_a_full_replay_gives(store):
    game = long_game(store)
    opened, full = GameSession.open(store, game.id), full_replay(store, game)
    while full.applied:
        assert opened.replay.applied == full.applied and opened.state == full.state
        for replay in (opened.replay, full):
            replay.add(replay.undo_event())
    assert opened.state == full.state
    while full.undone:
        for replay in (opened.replay, full):
            replay.add(replay.redo_event())
        assert opened.state == full.state


def test_a_snapshot_saved_by_other_code_is_not_taken(store, applies, monkeypatch):
    """Any change to the engine's or the companion's code gives another digest: the whole log replays."""
    game = long_game(store)
    monkeypatch.setattr("companion.session.code_version", lambda slug: "another version")
    applies.clear()
    assert GameSession.open(store, game.id).state == game.state
    assert sorted(set(applies)) == sorted(e.seq for e in game.events if e.kind == ACTION)


def test_a_snapshot_that_does_not_read_is_passed_over(store):
    game = long_game(store)
    with closing(sqlite3.connect(store.path)) as db, db:
        db.execute("UPDATE snapshots SET state = '{\"turn\": \"noon\"}'")
    opened = GameSession.open(store, game.id)
    assert opened.state == game.state
    opened.replay.add(opened.replay.undo_event())
    assert opened.state == full_replay(store, game).states[-2]


def test_a_game_replayed_whole_on_opening_or_import_saves_a_snapshot(store):
    game = long_game(store, events=SNAPSHOT_EVERY + 30)
    assert max(store.snapshots(game.id, code_version("bull_run")).values()) == SNAPSHOT_EVERY
    copy = import_session(store, game.export())
    assert max(store.snapshots(copy.id, code_version("bull_run")).values()) == SNAPSHOT_EVERY + 30
    with closing(sqlite3.connect(store.path)) as db, db:
        db.execute("DELETE FROM snapshots")
    GameSession.open(store, copy.id)
    assert max(store.snapshots(copy.id, code_version("bull_run")).values()) == SNAPSHOT_EVERY + 30


def test_an_opening_that_works_out_many_actions_saves_the_state_it_reached(store, applies):
    """A game taken back past its latest snapshot opens from an earlier state; the opening saves the state it
    reached, and the next one works out nothing. An opening that works out fewer actions saves nothing. (A House
    Divided, which these few actions do not end.)"""
    game, rng = long_game(store, "house_divided", events=SNAPSHOT_EVERY), random.Random(5)
    for _ in range(3):
        game.undo()
    saved = max(store.snapshots(game.id, code_version("house_divided")).values())
    applies.clear()
    assert GameSession.open(store, game.id).state == game.state and len(applies) >= SNAPSHOT_OPENING
    applies.clear()
    assert GameSession.open(store, game.id).state == game.state and applies == []
    assert max(store.snapshots(game.id, code_version("house_divided")).values()) != saved
    saved = max(store.snapshots(game.id, code_version("house_divided")).values())
    for played in range(SNAPSHOT_OPENING):
        game.act(random_action(game.engine.actions, game.state, rng), RandomDice(rng=rng))
        applies.clear()
        assert GameSession.open(store, game.id).state == game.state and len(applies) == played + 1
        assert (max(store.snapshots(game.id, code_version("house_divided")).values()) == saved) == (played + 1 < SNAPSHOT_OPENING)


def test_a_deleted_game_leaves_no_snapshot(store):
    game = long_game(store)
    store.delete(game.id)
    with closing(sqlite3.connect(store.path)) as db:
        assert db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 0


@pytest.mark.parametrize("slug", sorted(engines.registry()))
def test_every_game_opens_from_its_snapshot_to_the_state_its_log_gives(store, slug):
    game = long_game(store, slug, events=SNAPSHOT_EVERY + 20, seed=11)
    opened, full = GameSession.open(store, game.id), full_replay(store, game)
    assert opened.state == full.state
    for _ in range(30):
        if not full.applied:
            break
        for replay in (opened.replay, full):
            replay.add(replay.undo_event())
        assert opened.state == full.state
