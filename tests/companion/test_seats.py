"""Seats in a game with private parts: one device a seat; another takes it only when let go, or with the PIN;
a page is shown only its own seat's private parts."""
from __future__ import annotations

import json

import pytest

import engines
from companion.dice import EnteredDice
from companion.engine import Step
from companion.events import Event
from companion.seats import OK, TAKEN, WRONG_PIN, Seats
from companion.session import GameSession, import_session
from companion.store import ImportRefused
from companion.ui.live import HUB, LiveSession
from companion.ui.log import EventLog
from companion.ui.seats import SeatPanel

pytestmark = pytest.mark.usefixtures("panel_extensions")


def test_a_seat_is_one_devices_at_a_time():
    seats = Seats()
    assert seats.claim("g", "Ann", "tablet-1") == OK
    assert seats.claim("g", "Ann", "tablet-1") == OK             # its own, after a reload
    assert seats.claim("g", "Ann", "tablet-2") == TAKEN
    assert seats.asked("g", "tablet-1") == ["Ann"]
    assert seats.let_go("g", "Ann", "tablet-1") == "tablet-2" and seats.holder("g", "Ann") == "tablet-2"
    assert seats.claim("g", "Ben", "tablet-2") == OK and seats.holder("g", "Ann") == ""  # one seat a device


def test_a_seat_with_a_pin_is_taken_with_it():
    seats = Seats()
    seats.claim("g", "Ann", "tablet-1", pin="1861")
    assert seats.claim("g", "Ann", "tablet-2", pin="0000") == WRONG_PIN
    assert seats.claim("g", "Ann", "tablet-2") == TAKEN
    assert seats.claim("g", "Ann", "tablet-2", pin="1861") == OK and seats.holder("g", "Ann") == "tablet-2"


@pytest.fixture
def two_pages(store):
    session = GameSession.new(store, "bull_run", engines.get("bull_run").example_setup())
    first, second = LiveSession(session), LiveSession(GameSession.open(store, session.id))
    HUB.join(first)
    HUB.join(second)
    yield first, second
    HUB.leave(first)
    HUB.leave(second)


def tap(panel: SeatPanel, seat: str, token: str) -> None:
    panel.buttons.token = token
    panel.buttons.wanted = seat
    panel.buttons.tap += 1


def test_the_holder_is_asked_and_lets_its_seat_go(two_pages):
    first, second = two_pages
    a, b = SeatPanel(first, ["Ann", "Ben"]), SeatPanel(second, ["Ann", "Ben"])
    tap(a, "Ann", "tablet-1")
    assert first.viewer == "Ann" and a.buttons.seat == "Ann"
    tap(b, "Ann", "tablet-2")
    assert second.viewer == "" and b.taking.visible and "held by another device" in b.message.object
    assert a.asked.visible and "Ann" in a.asked.label
    a.let_go()
    assert first.viewer == "" and second.viewer == "Ann"


def test_two_pages_of_one_device_never_take_its_seat_back_from_each_other(two_pages):
    """A device sits in one seat of a game: when a second page of it (a reloaded page, while the old one lingers on
    the server) sits as Ben, the first page turns to the table view and does not take Ann back (and Ben from the
    second page) at the next change; a page refused a held seat still takes it once it is let go."""
    first, second = two_pages
    a, b = SeatPanel(first, ["Ann", "Ben"]), SeatPanel(second, ["Ann", "Ben"])
    tap(a, "Ann", "tablet-1")
    tap(b, "Ben", "tablet-1")
    for _ in range(3):
        a._looked()
        b._looked()
    assert (first.viewer, second.viewer) == ("", "Ben")
    other = SeatPanel(first, ["Ann", "Ben"])
    tap(other, "Ben", "tablet-2")
    assert other.waiting == "Ben" and first.viewer == ""
    b.let_go()
    other._looked()
    assert (first.viewer, second.viewer, other.waiting) == ("Ben", "", "")


def test_a_page_opened_again_sits_where_its_device_last_sat(two_pages):
    """A page reloaded on a tablet sits again in the seat its device last had in this game (the browser keeps it),
    once the page has loaded; a seat another device holds now is asked for, not taken."""
    first, second = two_pages
    tap(SeatPanel(first, ["Ann", "Ben"]), "Ben", "tablet-1")
    again = SeatPanel(second, ["Ann", "Ben"])
    again.buttons.param.update(token="tablet-1", last="Ben")
    assert second.viewer == "Ben" and again.buttons.seat == "Ben"
    other = SeatPanel(LiveSession(GameSession.open(second.session.store, second.session.id)), ["Ann", "Ben"])
    other.buttons.param.update(token="tablet-2", last="Ben")
    assert other.live.viewer == "" and other.waiting == "Ben"


def test_a_first_tap_that_sends_the_device_and_the_seat_at_once_takes_the_seat(two_pages):
    """A new device's first tap reaches the server as one change of its token, the seat and the tap together: the
    seat is taken, and the log redrawn for it, as when they come one by one."""
    first, _ = two_pages
    panel, log = SeatPanel(first, ["Ann", "Ben"]), EventLog(first)
    panel.buttons.param.update(token="tablet-1", wanted="Ann", tap=panel.buttons.tap + 1)
    assert first.viewer == "Ann" and panel.buttons.seat == "Ann"
    first.param.update(viewer="", version=first.version + 1)
    assert first.viewer == "" and log.entries() == []


def test_a_page_sees_only_its_own_private_parts(store, monkeypatch):
    """An event's private part (its dice, the detail) reaches only its owner's page; a player's export leaves
    out the others' private parts and cannot be imported; the host's full export keeps everything."""
    session = GameSession.new(store, "bull_run", engines.get("bull_run").example_setup())
    engine = session.engine
    apply = engine.actions.apply

    def dealt(state, action, dice):
        step = apply(state, action, dice)
        return Step(step.state, "Ann is dealt 6 cards", step.rules, step.results, owner="Ann",
                    detail="Ann's cards: the Eagle, the Lion")
    monkeypatch.setattr(engine.actions, "apply", dealt)
    session.act({"type": "roll_initiative"}, EnteredDice((5,)))
    ann, ben = LiveSession(session, viewer="Ann"), LiveSession(session, viewer="Ben")
    [mine], [theirs] = EventLog(ann).entries(), EventLog(ben).entries()
    assert mine["dice"] == [("5", True)] and mine["detail"] == "Ann's cards: the Eagle, the Lion"
    assert theirs["dice"] == [] and theirs["detail"] == "" and theirs["hidden"]
    assert "Eagle" not in EventLog(ben)._html.object and "Eagle" in EventLog(ann)._html.object
    for viewer in ("Ben", ""):
        text = session.export_log(viewer)
        assert "Eagle" not in text and '"faces"' not in text
        with pytest.raises(ImportRefused, match="player's copy"):
            import_session(store, text)
    assert "Eagle" in session.export_log("Ann") and "Eagle" in session.export()
    assert json.loads(session.export())["events"][0]["owner"] == "Ann"
    assert Event.from_dict(json.loads(session.export())["events"][0]).detail.endswith("the Lion")
