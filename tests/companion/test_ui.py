"""The shared Panel components, driven without a browser: widget values set and buttons tapped in Python."""
from __future__ import annotations

import asyncio
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from types import SimpleNamespace

import panel as pn
import panel_material_ui as pmui
import pytest
from panel.util import edit_readonly

import engines
from apps.bull_run import BullRunView
from companion.dice import ENTERED, RANDOM, EnteredDice, RandomDice
from companion.engine import dice_needed
from companion.events import UNDO
from companion.plots import outcome_bars
from companion.rulebook import load
from companion.session import GameSession
from companion.spec import ONE_OF, SOME_OF, ActionSpec, Param
from companion.store import Store
from companion.ui.controls import ActionPanel, ErrorBanner, OddsCard, UndoBar, lazy_tabs, odds_text
from companion.ui.dice_entry import DiceEntry
from companion.ui.forms import CHOICE_MS, SpecForm
from companion.ui.live import HUB, Hub, LiveSession
from companion.ui.log import EventLog
from companion.ui.options import OptionsForm
from companion.ui.shell import GameShell, SessionPicker
from companion.ui.text import escape, plain
from companion.ui.theme import page
from engines.bull_run.guide import due_now
from tests.widgets import click, find

pytestmark = pytest.mark.usefixtures("panel_extensions")

ENGINE = engines.get("bull_run")
SETUP = {"roster": [  # both sides on the map from turn 1, so every phase has a unit to act
    {"name": "Evans' Brigade", "side": "CSA", "entry_hex": "1", "entry_turn": 1, "max_sp": 3},
    {"name": "Burnside's Brigade", "side": "UNION", "entry_hex": "A", "entry_turn": 1, "max_sp": 4},
]}
INITIATIVE = {"type": "roll_initiative"}
TWO_DICE = [("Attacker fire (BR-10.4)", 6), ("Defender fire (BR-10.4)", 6)]


@pytest.fixture
def live(store) -> LiveSession:
    return LiveSession(GameSession.new(store, "bull_run", SETUP))


def saved_events(live: LiveSession) -> list:
    """The session's events as the store has them."""
    return live.session.store.load(live.session.id).events


# --- DiceEntry ---------------------------------------------------------------------------------------

class Recorder:
    """An `on_dice` callback that keeps the dice it was given and answers `accept`."""

    def __init__(self, accept: bool = True):
        self.calls, self.accept = [], accept

    def __call__(self, dice) -> bool:
        self.calls.append(dice)
        return self.accept


@pytest.fixture
def initiative_entry(live):
    """A dice entry for the initiative roll of a live session, counting the calls that reach the session."""
    calls = []

    def on_dice(dice) -> bool:
        calls.append(dice)
        return live.act(INITIATIVE, dice) is not None
    entry = DiceEntry(on_dice=on_dice, specs=[("Initiative (BR-6.0)", 6)])
    return entry, calls


def test_tapped_faces_build_the_roll_and_use_submits_them():
    on_dice = Recorder()
    entry = DiceEntry(on_dice=on_dice, specs=TWO_DICE)
    assert entry._use.disabled
    entry._pad._handle_msg(4)  # a tap on the pad's 4, as the browser sends it
    assert entry.faces == [4] and entry._use.disabled
    assert entry._heading.object == ("2 dice:\nAttacker fire (BR-10.4)\nDefender fire (BR-10.4)\nTapped 4\n"
                                     "Next: Defender fire (BR-10.4)")  # a line each
    entry._pad._handle_msg(2)
    assert entry.faces == [4, 2] and not entry._use.disabled and entry._use.label == "Use 4, 2"
    click(entry._use)
    assert [type(d) for d in on_dice.calls] == [EnteredDice] and on_dice.calls[0].faces == (4, 2)
    assert entry.faces == [] and entry.message == ""


def test_roll_for_me_submits_random_dice():
    on_dice = Recorder()
    entry = DiceEntry(on_dice=on_dice, specs=TWO_DICE)
    click(entry._roll)
    assert [type(d) for d in on_dice.calls] == [RandomDice]


@pytest.mark.parametrize("text", ["4 2", "4,2", " 4 ; 2 "])
def test_typed_dice_are_used(text):
    on_dice = Recorder()
    entry = DiceEntry(on_dice=on_dice, specs=TWO_DICE)
    entry._typed.value = text
    click(entry._use_typed)
    assert on_dice.calls[0].faces == (4, 2)
    assert entry._typed.value == ""


def test_the_pad_has_one_button_per_face_of_the_largest_die():
    entry = DiceEntry(on_dice=Recorder(), specs=[("Initiative (BR-6.0)", 6)])
    assert entry._pad.sides == 6
    entry.specs = [("A d6", 6), ("A d10", 10)]
    assert entry._pad.sides == 10


@pytest.mark.parametrize("sent", ["4", 4.0, True, None, [4], {"face": 4}])
def test_a_message_from_the_pad_that_is_not_a_face_is_dropped(sent):
    entry = DiceEntry(on_dice=Recorder(), specs=TWO_DICE)
    entry._pad._handle_msg(sent)
    assert entry.faces == [] and entry.message == ""


@pytest.mark.parametrize("text, message", [
    ("7", "7 is not a face of a d6: each die shows 1 to 6."),
    ("0", "0 is not a face of a d6: each die shows 1 to 6."),
    ("", "Enter the die you rolled: whole numbers from 1 to 6."),
    ("   ", "Enter the die you rolled: whole numbers from 1 to 6."),
    ("x", "'x' is not a die face: enter whole numbers from 1 to 6."),
    ("2.5", "'2.5' is not a die face: enter whole numbers from 1 to 6."),
    ("4 2", "This roll takes 1 die; you entered 2."),
], ids=["seven", "zero", "empty", "blank", "text", "decimal", "two-for-one"])
def test_bad_typed_dice_give_a_message_and_leave_the_session_unchanged(live, initiative_entry, text, message):
    entry, calls = initiative_entry
    entry._typed.value = text
    click(entry._use_typed)
    assert entry.message == message
    assert entry._alert.visible and entry._alert.object == plain(message)
    assert calls == []
    assert live.session.events == [] and saved_events(live) == [] and live.version == 0


@pytest.mark.parametrize("face", [7, 0])
def test_a_tapped_face_outside_the_die_gives_a_message_and_leaves_the_session_unchanged(live, initiative_entry, face):
    entry, calls = initiative_entry
    entry.tap(face)
    assert entry.message == f"{face} is not a face of a d6."
    assert entry.faces == [] and calls == [] and saved_events(live) == []


def test_too_few_typed_dice_are_refused():
    on_dice = Recorder()
    entry = DiceEntry(on_dice=on_dice, specs=TWO_DICE)
    entry._typed.value = "4"
    click(entry._use_typed)
    assert entry.message == "This roll takes 2 dice; you entered 1." and on_dice.calls == []


def test_use_needs_the_whole_roll():
    entry = DiceEntry(on_dice=Recorder(), specs=TWO_DICE)
    entry.tap(3)
    assert entry._use.disabled


def test_tapping_more_faces_than_the_roll_takes_is_refused(initiative_entry):
    entry, calls = initiative_entry
    entry.tap(3)
    entry.tap(5)
    assert entry.faces == [3]
    assert entry.message == "This roll takes 1 die: clear to enter them again."
    click(entry._clear)
    assert entry.faces == [] and entry.message == "" and calls == []


def test_good_dice_reach_the_session(live, initiative_entry):
    entry, calls = initiative_entry
    entry.tap(2)
    click(entry._use)
    assert len(calls) == 1
    [event] = saved_events(live)
    assert [(r.faces, r.source) for r in event.rolls] == [((2,), ENTERED)]
    assert entry.faces == []


def test_a_refused_action_puts_the_tapped_faces_back(live):
    entry = DiceEntry(on_dice=lambda dice: live.act({"type": "farm_ford_roll"}, dice) is not None,
                      specs=[("Farm Ford (BR-8.4b)", 6)])
    entry.tap(5)
    click(entry._use)
    assert entry.faces == [5]
    assert "(BR-8.4b)" in live.error
    assert saved_events(live) == []


def test_a_refused_action_puts_the_typed_text_back():
    entry = DiceEntry(on_dice=Recorder(accept=False), specs=TWO_DICE)
    entry._typed.value = "6 1"
    click(entry._use_typed)
    assert entry._typed.value == "6 1" and entry.faces == []


# --- LiveSession -------------------------------------------------------------------------------------

def test_act_undo_and_redo_bump_the_version(live):
    event = live.act(INITIATIVE, EnteredDice((2,)))
    assert (live.version, live.last, live.error) == (1, event.summary, "")
    live.undo()
    assert live.version == 2 and live.state.initiative[0] == ""
    live.redo()
    assert live.version == 3 and live.state.initiative[0] == "UNION"
    assert [e.seq for e in saved_events(live)] == [1, 2, 3]


@pytest.mark.parametrize("action, dice, message", [
    ({"type": "end_turn"}, RandomDice(seed=1),
     "This belongs to the end of turn phase; it is the movement phase of turn 1 (BR-3.0)"),
    ({"type": "awareness_check"}, EnteredDice((5,)), "This roll is not due now (BR-8.4a)"),
    ({"type": "farm_ford_roll"}, EnteredDice((7,)), "7 is not a face of a d6"),
    ({"type": "farm_ford_roll"}, EnteredDice((3, 4)), "This roll uses 1 die, but 2 were entered: Farm Ford (BR-8.4b)."),
], ids=["wrong-phase", "check-not-due", "bad-face", "too-many-dice"])
def test_a_refused_action_sets_the_error_and_changes_nothing(live, action, dice, message):
    live.act(INITIATIVE, EnteredDice((2,)))
    live.act({"type": "place_reinforcements"}, RandomDice(seed=1))
    state, events = live.state, saved_events(live)
    assert live.act(action, dice) is None
    assert message in live.error
    assert live.state == state and saved_events(live) == events == live.session.events


def test_undo_with_nothing_to_undo_names_it(live):
    assert live.undo() is None
    assert live.error == "There is nothing to undo (undo)"
    assert saved_events(live) == []


def test_poll_takes_in_another_devices_events(live):
    other = GameSession.open(Store(live.session.store.folder), live.session.id)
    assert live.poll() is False and live.version == 0
    other.act(INITIATIVE, EnteredDice((5,)))
    assert live.poll() is True
    assert live.version == 1 and live.state == other.state and live.state.initiative[0] == "CSA"
    assert live.poll() is False and live.version == 1


def test_the_servers_look_at_the_store_tells_only_the_pages_behind_it(live):
    """One look for all pages: a page whose game another process added to is told (and takes the event in);
    a page already up to date is not; and a page gone is no longer looked at."""
    other = GameSession.open(Store(live.session.store.folder), live.session.id)
    HUB.join(live)
    try:
        HUB.look()
        assert live.nudged == 0
        other.act(INITIATIVE, EnteredDice((5,)))
        HUB.look()
        assert live.nudged == 1 and live.state == other.state
        HUB.look()
        assert live.nudged == 1
    finally:
        HUB.leave(live)
    other.undo()
    HUB.look()
    assert live.nudged == 1



def told_in_turn(live: LiveSession, changes: int, every_s: float) -> tuple[list, list[LiveSession]]:
    """Three served pages of the live page's game (their nudges recorded) on a server's hub of their own while the
    live page changes the game `changes` times, every `every_s`: which page was told after how many changes, and
    the three pages."""
    hub, told = Hub(), []
    others = [LiveSession(live.session, document=object()) for _ in range(3)]
    done = [0]

    async def run() -> None:
        for page in (live, *others):
            hub.join(page)
        for _ in range(changes):
            hub.changed(live)
            done[0] += 1
            await asyncio.sleep(every_s)
        for _ in range(100):
            if len(told) >= len(others):
                return
            await asyncio.sleep(0.05)
    with pytest.MonkeyPatch.context() as patch, ThreadPoolExecutor(1) as server:  # a loop of its own, as a server's
        patch.setattr(LiveSession, "nudge", lambda self: told.append((done[0], self)))
        server.submit(asyncio.run, run()).result()
    return told, others


def test_pages_told_of_a_change_redraw_in_turn_once_the_server_is_quiet(live, monkeypatch):
    """A tapped page is answered before the pages of its game on other tablets are redrawn (they share the server's
    one thread): they are told one at a time, each once, once no page has changed anything for a moment."""
    monkeypatch.setattr("companion.ui.live.QUIET_S", 0.5)
    monkeypatch.setattr("companion.ui.live.LATEST_S", 30)
    told, others = told_in_turn(live, changes=10, every_s=0.05)
    assert [changes for changes, _ in told] == [10] * 3 and {id(page) for _, page in told} == set(map(id, others))


def test_pages_told_of_a_change_are_not_kept_waiting_for_ever_by_a_busy_server(live, monkeypatch):
    monkeypatch.setattr("companion.ui.live.QUIET_S", 0.5)
    monkeypatch.setattr("companion.ui.live.LATEST_S", 0.2)
    told, others = told_in_turn(live, changes=40, every_s=0.05)
    assert told[0][0] < 40 and {id(page) for _, page in told[:3]} == set(map(id, others))

# --- UndoBar -----------------------------------------------------------------------------------------

def test_undo_of_dice_rolled_at_the_table_asks_first(live):
    bar = UndoBar(live)
    event = live.act(INITIATIVE, EnteredDice((2,)))
    click(bar._undo)
    assert bar.confirming and bar._box.visible
    assert bar._question.object == plain(f"Undo \u201c{event.summary}\u201d? Its dice (2) were rolled at the table; "
                                          "after the undo they are rolled again.")
    assert live.session.events == [event]
    click(bar._keep)
    assert not bar.confirming and not bar._box.visible and live.session.events == [event]
    click(bar._undo)
    click(bar._confirm)
    assert not bar.confirming
    assert [e.kind for e in saved_events(live)] == ["action", UNDO] and live.state.initiative[0] == ""


def test_undo_of_dice_the_companion_rolled_does_not_ask(live):
    bar = UndoBar(live)
    live.act(INITIATIVE, RandomDice(seed=1))
    click(bar._undo)
    assert not bar.confirming and not bar._box.visible
    assert [e.kind for e in saved_events(live)] == ["action", UNDO]


def test_redo_and_the_buttons_follow_what_can_be_undone(live):
    bar = UndoBar(live)
    assert bar._undo.disabled and bar._redo.disabled
    live.act(INITIATIVE, RandomDice(seed=1))
    assert not bar._undo.disabled and bar._redo.disabled
    click(bar._undo)
    assert bar._undo.disabled and not bar._redo.disabled
    click(bar._redo)
    assert not bar._undo.disabled and bar._redo.disabled
    assert [e.kind for e in saved_events(live)] == ["action", "undo", "redo"]


# --- ErrorBanner, OddsCard, EventLog -----------------------------------------------------------------

def test_the_error_banner_shows_the_refusal_and_clears_on_success(live):
    banner = ErrorBanner(live)
    assert not banner._alert.visible
    live.act({"type": "end_turn"}, RandomDice(seed=1))
    assert banner._alert.visible and banner._alert.object == plain(live.error) and "(BR-3.0)" in live.error
    live.act(INITIATIVE, RandomDice(seed=1))
    assert not banner._alert.visible


def test_the_same_refusal_again_shows_the_closed_banner_again(live):
    banner = ErrorBanner(live)
    live.act({"type": "end_turn"}, RandomDice(seed=1))
    banner._alert.closed = True  # the player closed it
    live.act({"type": "end_turn"}, RandomDice(seed=1))
    assert banner._alert.visible and not banner._alert.closed and plain("(BR-3.0)") in banner._alert.object


def test_a_refusal_shows_the_clause_it_breaks_under_it(live):
    """The clause is the rulebook's, with its rule ID; it goes when the next entry is accepted."""
    banner = ErrorBanner(live)
    live.act({"type": "end_turn"}, RandomDice(seed=1))
    clause = load("bull_run").clauses[live.error_rule]
    assert live.error_rule == "BR-3.0" and banner._clause.visible
    assert "What the rules say" in banner._clause.object and "BR-3.0" in banner._clause.object
    assert escape(clause.title) in banner._clause.object
    live.act(INITIATIVE, RandomDice(seed=1))
    assert not banner._clause.visible


def test_an_odds_card_without_numbers_or_figure_is_hidden():
    card = OddsCard(title="Odds")
    assert not card._card.visible


def test_an_odds_card_shows_the_numbers_it_is_given():
    card = OddsCard(title="Initiative (BR-6.0)", numbers=[("Union", "50.0% (1/2)"), ("CSA", "50.0% (1/2)")],
                    note="as the table says")
    assert card._card.visible and card._card.title == "Initiative (BR-6.0)"
    html = card._numbers.object
    assert html.count('<div class="tile">') == 2
    assert '<div class="v">50.0% (1/2)</div><div class="l">Union</div>' in html
    assert not card._plot_box.visible and card._note.visible and card._note.object == "as the table says"
    card.numbers = []
    assert not card._card.visible


def test_an_odds_card_is_only_hidden_when_it_empties_and_gets_its_new_contents_when_shown_again():
    card = OddsCard(title="Initiative (BR-6.0)", numbers=[("Union", "50.0% (1/2)")], note="as the table says",
                    figure=outcome_bars([("0", Fraction(1, 2)), ("1", Fraction(1, 2))], "Odds"))
    parts = (card._numbers.object, card._note.object, card._note.visible, card._plot_box.visible, card._card.title)
    changes = []
    for part in (card._numbers, card._note, card._plot_box):
        part.param.watch(changes.append, ["object", "visible"] if part is not card._plot_box else ["visible"])
    card.param.update(title="Odds", numbers=[], note="", figure=None)
    assert not card._card.visible and not changes
    assert (card._numbers.object, card._note.object, card._note.visible, card._plot_box.visible,
            card._card.title) == parts
    card.param.update(title="Fire (DX-5.0)", numbers=[("Hits", "25.0% (1/4)")])
    assert card._card.visible and card._card.title == "Fire (DX-5.0)"
    assert '<div class="v">25.0% (1/4)</div><div class="l">Hits</div>' in card._numbers.object
    assert not card._note.visible and not card._plot_box.visible


def test_an_odds_card_with_only_a_figure_shows_the_figure():
    card = OddsCard(figure=outcome_bars([("0", Fraction(1, 2)), ("1", Fraction(1, 2))], "Odds"))
    assert card._card.visible and card._plot_box.visible and not card._numbers.visible


def test_the_event_log_is_newest_first_with_undone_actions_dice_sources_and_rules(live):
    log = EventLog(live)
    assert log.entries() == [] and "No events yet." in log._html.object
    live.act(INITIATIVE, EnteredDice((2,)))
    live.act({"type": "place_reinforcements"}, RandomDice(seed=1))
    farm = live.act({"type": "farm_ford_roll"}, RandomDice(seed=3))
    live.undo()
    entries = log.entries()
    assert [e["seq"] for e in entries] == [4, 3, 2, 1]
    assert entries[0]["summary"] == "↶ Undo: " + farm.summary and not entries[0]["undone"]
    assert [e["undone"] for e in entries[1:]] == [True, False, False]
    assert entries[1]["dice"] == [(farm.rolls[0].text(), False)] and farm.rolls[0].source == RANDOM
    assert entries[3]["dice"] == [("2", True)]
    assert entries[2]["dice"] == []
    assert entries[3]["rules"] == ["BR-6.0"] and entries[2]["rules"] == ["BR-7.0"]
    assert entries[1]["rules"] == entries[0]["rules"] == ["BR-8.4b"]
    html = log._html.object
    assert html.index("4.</span>") < html.index("1.</span>")
    assert '<li class="undone"><span class="seq">3.</span>' in html
    assert "table roll 2" in html and "companion roll" in html
    assert 'data-rule="BR-6.0" title="Initiative"' in html


def test_the_event_log_strikes_a_line_through_again_as_its_action_is_undone_redone_and_undone(live):
    """Each line is kept once written: one whose action's undo state changed is written again."""
    log = EventLog(live)
    live.act(INITIATIVE, EnteredDice((2,)))
    struck = '<li class="undone"><span class="seq">1.</span>'
    for step, undone in ((live.undo, True), (live.redo, False), (live.undo, True)):
        step()
        assert (struck in log._html.object) is undone
        assert [e["undone"] for e in log.entries()][-1] is undone
    assert log._html.object.count("<li") == 4


def test_a_tabs_drawing_is_done_when_it_is_first_opened_then_at_every_change_of_the_game(live):
    """`lazy_tabs(follow=...)`: a tab's plots are not drawn while nobody has opened it, and follow the game once
    it has been (here: the versions of the game at which each drawing was done)."""
    drawn = []
    tabs = lazy_tabs({"Play": [], "Plots": lambda: [pn.pane.HTML("plots")]}, live=live,
                     follow={"Plots": lambda: drawn.append(live.version)})
    live.act(INITIATIVE, EnteredDice((2,)))
    assert drawn == [] and not tabs[1].objects
    tabs.active = 1
    assert drawn == [1] and tabs[1].objects
    live.undo()
    assert drawn == [1, 2]


# --- ActionPanel -------------------------------------------------------------------------------------

def test_an_action_that_rolls_dice_gets_the_dice_entry(live):
    panel = ActionPanel(live, "Roll for initiative", lambda: INITIATIVE)
    assert panel._dice.visible and not panel._button.visible and panel.blocked == ""
    assert panel._dice.specs == [("Initiative, turn 1 (BR-6.0)", 6)] == [
        (r.label, r.sides) for r in dice_needed(ENGINE, live.state, INITIATIVE)]
    panel._dice.tap(5)
    click(panel._dice._use)
    assert live.state.initiative[0] == "CSA"


def test_an_action_without_dice_gets_a_button(live):
    live.act(INITIATIVE, RandomDice(seed=1))
    panel = ActionPanel(live, "Place reinforcements", lambda: {"type": "place_reinforcements"})
    assert panel._button.visible and not panel._dice.visible and panel._button.label == "Place reinforcements"
    click(panel._button)
    assert live.state.phase == "movement" and len(saved_events(live)) == 2


def test_an_illegal_action_shows_why_and_no_controls(live):
    panel = ActionPanel(live, "Roll for Farm Ford", lambda: {"type": "farm_ford_roll"})
    assert panel.blocked == "This belongs to the movement phase; it is the initiative phase of turn 1 (BR-8.4b)"
    assert panel._why.visible and panel._why.object == plain(panel.blocked)
    assert not panel._dice.visible and not panel._button.visible


def test_a_form_that_cannot_build_its_action_is_blocked_and_refused(live):
    def build():
        raise ValueError("Choose a unit first")
    panel = ActionPanel(live, "Move", build)
    assert panel.blocked == "Choose a unit first"
    assert panel.perform(RandomDice(seed=1)) is False
    assert live.error == "Choose a unit first" and saved_events(live) == []


def test_refresh_follows_the_form(live):
    action = {"type": "farm_ford_roll"}
    panel = ActionPanel(live, "Next", lambda: action)
    action = INITIATIVE
    panel.refresh()
    assert panel.blocked == "" and panel._dice.visible


# --- PhaseGuide, through the Bull Run view -----------------------------------------------------------

def test_the_guide_follows_the_engines_due_steps(live):
    guide = BullRunView(live).guide

    def shown() -> tuple[str, set[str]]:
        """The active form and the other steps offered as buttons; checked against the engine's due steps."""
        due = due_now(live.state)
        offered = {action for action, b in guide._buttons.items() if b.visible}
        assert (guide.active.action, offered) == (due[0].action, {d.action for d in due[1:]})
        assert [name for name, f in guide.forms.items() if f.card.visible] == [guide.active.action]
        return guide.active.action, offered

    assert shown() == ("roll_initiative", {"preroll_initiative"})
    assert find(guide.others, "other-preroll_initiative").label == "Pre-roll all 15 turns"
    live.act(INITIATIVE, EnteredDice((2,)))
    assert shown() == ("place_reinforcements", set())
    live.act({"type": "place_reinforcements"}, RandomDice(seed=1))
    assert shown() == ("farm_ford_roll", set())
    live.act({"type": "farm_ford_roll"}, EnteredDice((1,)))
    assert shown() == ("move", {"end_movement"})
    assert find(guide.others, "other-end_movement").label == "End Union movement"


def test_the_guides_step_has_what_the_rules_say_one_tap_away(live):
    """The step's title carries a chip for its rule (the dialog opens it in the browser)."""
    guide = BullRunView(live).guide
    due = due_now(live.state)[0]
    title = guide.active.title.object
    assert f'data-rule="{due.rule}"' in title and "What the rules say" in title
    assert due.rule in load("bull_run").clauses


def test_a_plain_step_chosen_is_done_at_once(live):
    guide = BullRunView(live).guide
    for action, dice in ((INITIATIVE, EnteredDice((2,))), ({"type": "place_reinforcements"}, RandomDice(seed=1)),
                         ({"type": "farm_ford_roll"}, EnteredDice((1,)))):
        live.act(action, dice)
    click(find(guide.others, "other-end_movement"))
    assert saved_events(live)[-1].action == {"type": "end_movement"} and live.state.half == 1
    assert guide.active.action == "csa_action_roll"


def test_after_choosing_another_step_the_first_one_stays_reachable(live):
    """Every step open now stays one tap away: choosing the second due step shows a button for the first."""
    guide = BullRunView(live).guide
    guide.choose("preroll_initiative")
    assert guide.active.action == "preroll_initiative"
    assert guide._buttons["roll_initiative"].visible and not guide._buttons["preroll_initiative"].visible
    guide.choose("roll_initiative")
    assert guide.active.action == "roll_initiative" and guide._buttons["preroll_initiative"].visible


def test_a_chosen_step_that_rolls_dice_becomes_the_form_shown(live):
    guide = BullRunView(live).guide
    guide.choose("preroll_initiative")
    assert guide.active.action == "preroll_initiative" and saved_events(live) == []
    assert len(guide.panel._dice.specs) == 15 and guide.panel.label == "Pre-roll all 15 turns"


# --- OptionsForm -------------------------------------------------------------------------------------

def test_the_options_form_starts_at_the_defaults():
    assert OptionsForm(ENGINE.options).values() == {o.key: o.default for o in ENGINE.options}


def test_the_options_form_returns_the_changed_choices():
    form = OptionsForm(ENGINE.options)
    form._widgets["lapsed_attack"].value = "new_target"
    form._widgets["solitaire"].value = False
    form._widgets["terrain_costs"]["road"].value = "3"
    form._widgets["terrain_costs"]["woods"].value = ""
    chosen = form.values()
    assert chosen["lapsed_attack"] == "new_target" and chosen["solitaire"] is False
    assert chosen["terrain_costs"]["road"] == 3 and chosen["terrain_costs"]["woods"] is None


@pytest.mark.parametrize("text", ["x", "1.5", "-1"])
def test_a_table_cell_that_is_not_a_whole_number_names_the_field(text):
    form = OptionsForm(ENGINE.options)
    form._widgets["terrain_costs"]["road"].value = text
    message = f"Terrain costs (editable): road must be a whole number or empty, not '{text}'"
    with pytest.raises(ValueError, match=re.escape(message)):
        form.values()


# --- SessionPicker and GameShell ---------------------------------------------------------------------

class Editor(pmui.Column):
    """A setup editor that returns the roster it was given."""

    def __init__(self, roster):
        super().__init__()
        self.roster = roster

    def setup(self) -> dict:
        return {"roster": list(self.roster)}


def picker_for(store, roster=SETUP["roster"]):
    opened = []
    return SessionPicker(store, ENGINE, Editor(roster), opened.append), opened


def test_a_start_with_an_invalid_roster_shows_the_rule_and_writes_nothing(store):
    picker, opened = picker_for(store, roster=[])
    click(picker._start)
    assert picker.message == "The roster is empty: enter the units from your play sheet (BR-2.4)"
    assert picker._alert.visible and picker._alert.object == plain(picker.message)
    assert opened == [] and store.sessions() == []


def test_a_start_with_a_bad_option_shows_the_field_and_writes_nothing(store):
    picker, opened = picker_for(store)
    picker._options._widgets["terrain_costs"]["hill"].value = "two"
    click(picker._start)
    assert "hill must be a whole number" in picker.message
    assert opened == [] and store.sessions() == []


def test_a_valid_start_opens_the_saved_game(store):
    picker, opened = picker_for(store)
    picker._title.value = "Saturday"
    picker._options._widgets["solitaire"].value = False
    click(picker._start)
    [session] = opened
    assert picker.message == "" and not picker._alert.visible
    [saved] = store.sessions()
    assert (saved["id"], saved["title"]) == (session.id, "Saturday")
    assert session.record.options["solitaire"] is False


def choose_file(picker, raw: bytes) -> None:
    """Chooses a file as the page does; its handler (a coroutine) runs to its end on a thread of its own, so
    that no event loop left by an earlier test (the browser tests') holds it."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(setattr, picker._import, "value", raw).result()


def test_import_of_a_valid_export_opens_it(store, tmp_path):
    elsewhere = GameSession.new(Store(tmp_path / "elsewhere"), "bull_run", SETUP, title="Friday")
    elsewhere.act(INITIATIVE, EnteredDice((4,)))
    picker, opened = picker_for(store)
    choose_file(picker, elsewhere.export().encode())
    [session] = opened
    assert session.record.title == "Friday (imported copy)" and session.events == elsewhere.events
    assert [s["id"] for s in store.sessions()] == [session.id]


@pytest.mark.parametrize("raw, message", [
    (b"not json", "Import refused: The session file is not valid JSON"),
    (b'{"format": "something else"}', "Import refused: This is not a Table Companion session file"),
], ids=["not-json", "wrong-format"])
def test_import_of_junk_is_refused_and_writes_nothing(store, raw, message):
    picker, opened = picker_for(store)
    choose_file(picker, raw)
    assert picker.message.startswith(message) and picker._alert.visible
    assert opened == [] and store.sessions() == []


def test_the_resume_list_shows_saved_sessions_and_opens_them(store):
    first = GameSession.new(store, "bull_run", SETUP, title="Friday")
    GameSession.new(store, "bull_run", SETUP, title="Saturday")
    first.act(INITIATIVE, EnteredDice((4,)))
    picker, opened = picker_for(store)
    buttons = [b for b in picker._saved.select(pmui.Button) if "resume" in b.css_classes]
    assert sorted(b.label for b in buttons) == ["Resume: Friday", "Resume: Saturday"]
    click(next(b for b in buttons if b.label == "Resume: Friday"))
    assert [s.id for s in opened] == [first.id] and opened[0].state.initiative[0] == "CSA"


def test_the_resume_list_says_when_there_is_nothing_saved(store):
    picker, _ = picker_for(store)
    assert [o.object for o in picker._saved.objects] == ["No saved games yet."]


def test_the_shell_works_without_a_server(store):
    shell = GameShell(ENGINE, lambda: Editor(SETUP["roster"]), lambda live: pmui.Typography("game"), store=store)
    assert shell.live is None and find(shell, "session-picker")
    click(find(shell, "start-game"))
    assert shell.live is not None and [s["id"] for s in store.sessions()] == [shell.live.session.id]
    chrome, view = shell.__panel__().objects
    assert view.object == "game"
    assert find(chrome, "session-name").object == "Battle at Bull Run"
    click(find(chrome, "sessions"))
    assert shell.live is None and find(shell, "session-picker")


def test_a_long_saved_game_is_replayed_on_a_worker_thread_and_then_shown(store, monkeypatch):
    """Replaying a long log on the server's event loop would hold every other tablet (issue: instant at the
    table): `open_in_thread` replays it on another thread, then shows the game, or the picker if it is gone."""
    session = GameSession.new(store, "bull_run", SETUP, title="Long")
    session.act(INITIATIVE, EnteredDice((4,)))
    shell = GameShell(ENGINE, lambda: Editor(SETUP["roster"]), lambda live: pmui.Typography("game"), store=store)
    replayed_on, loop_on = [], []
    opened = GameSession.open
    monkeypatch.setattr(GameSession, "open", classmethod(
        lambda cls, st, sid: replayed_on.append(threading.get_ident()) or opened(st, sid)))

    async def resume(session_id: str) -> None:
        loop_on.append(threading.get_ident())
        await shell.open_in_thread(session_id)

    def on_a_loop_of_its_own(session_id: str) -> None:  # this thread may already run a loop (a browser test's)
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, resume(session_id)).result()
    on_a_loop_of_its_own(session.id)
    assert shell.live.session.id == session.id and shell.live.session.state.initiative[0] == "CSA"
    assert replayed_on and loop_on and replayed_on[0] != loop_on[0]
    on_a_loop_of_its_own("no-such-game")
    assert shell.live is None and "There is no saved game" in find(shell, "picker-error").object


def test_a_saved_game_is_renamed_and_deleted_after_a_confirmation(store):
    picker, _ = picker_for(store)
    session = GameSession.new(store, "bull_run", SETUP, title="Sunday")
    picker._list_saved()
    info = store.sessions()[0]
    picker._manage(info, "rename")
    assert picker._renaming.visible and picker._new_name.value == "Sunday"
    picker._new_name.value = "Sunday <b>rematch</b>"
    click(find(picker._renaming, "save-name"))
    assert store.load(session.id).title == "Sunday <b>rematch</b>"
    picker._manage(store.sessions()[0], "delete")
    assert picker._deleting.visible and "cannot be undone" in picker._question.object
    click(find(picker._deleting, "confirm-delete"))
    assert store.sessions() == [] and not picker._deleting.visible


def test_a_long_exact_fraction_is_shown_on_demand_and_a_short_one_beside_its_percentage():
    assert odds_text(Fraction(7, 36)) == "19.4% (7/36)"
    long = odds_text(Fraction(123456789, 987654321))
    assert long == "12.5%" and long.exact == "13717421/109739369"
    card = OddsCard(title="Odds", numbers=[("P(win)", long)])
    assert "<details><summary>12.5%</summary>" in card._numbers.object and "13717421/109739369" in card._numbers.object


# --- generic forms ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("repeat", [False, True])
def test_a_fresh_list_starts_from_the_engines_suggestion_and_then_keeps_the_players_own(repeat):
    """A some-of field of a new step starts from the values the engine suggests (those still legal); once the
    player changed it, a refresh keeps the player's choice."""
    picks = Param("units", SOME_OF, "Units", "X-1", choices=lambda s, c: ["a", "b", "c"], repeat=repeat,
                  suggest=lambda s, c: ["b", "z"])
    form = SpecForm(SimpleNamespace(state=None), ActionSpec("pick", "Pick", "X-1", (picks,)))
    form.reset()
    [field] = form.fields
    assert field.value == ["b"]
    field.set(["a", "c"])
    form.refresh()
    assert field.value == ["a", "c"]


def test_a_tap_on_the_board_goes_to_the_first_field_that_offers_it():
    """A tapped position or card fills the first asked field offering it: a one-of is set, a list ticks it on and
    off; a value no field offers changes nothing."""
    unit = Param("unit", ONE_OF, "Unit", "X-1", choices=lambda s, c: ["u1", "u2"])
    to = Param("to", ONE_OF, "To", "X-1", choices=lambda s, c: ["p1", "p2"] if c.get("unit") else [])
    cards = Param("cards", SOME_OF, "Cards", "X-1", choices=lambda s, c: ["u2", "c1", "c2"])
    form = SpecForm(SimpleNamespace(state=None), ActionSpec("move", "Move", "X-1", (unit, to, cards)))
    form.reset()
    assert form.take("u2") and form.chosen()["unit"] == "u2"
    assert form.take("p2") and form.chosen()["to"] == "p2"
    assert form.take("c1") and form.take("c2") and form.take("c1") and form.chosen()["cards"] == ["c2"]
    assert form.take("u2", (SOME_OF,)) and form.chosen()["cards"] == ["c2", "u2"]
    assert not form.take("nowhere") and form.chosen() == {"unit": "u2", "to": "p2", "cards": ["c2", "u2"]}


def test_many_choices_are_a_searchable_list_and_a_few_are_buttons_or_chips():
    """A "one of" of up to 6 choices is a row of buttons, of 7 or more a searchable select; a "some of" of up to
    12 is a row of chips, of 13 or more (a deck's cards by name) a searchable list taking at most its count."""
    names = [f"Card {n}" for n in range(20)]
    for kind, shown, most in ((ONE_OF, 6, None), (SOME_OF, 12, 5)):
        for count in (shown, shown + 1):
            param = Param("pick", kind, "Pick", "X-1", choices=lambda s, c, count=count: names[:count], high=most)
            form = SpecForm(SimpleNamespace(state=None), ActionSpec("pick", "Pick", "X-1", (param,)))
            form.reset()
            [field] = form.fields
            short, long = field._short, field._long
            assert (short.visible, long.visible) == (count == shown, count > shown)
            assert list((short if count == shown else long).options) == names[:count]
            assert isinstance(short, pmui.RadioButtonGroup if kind == ONE_OF else pmui.CheckButtonGroup)
            assert long.searchable and isinstance(long, pmui.Select if kind == ONE_OF else pmui.MultiChoice)
            assert ("many" in field.box.css_classes) == (kind == SOME_OF)          # each option tapped on or off
            assert short._debounce == long._debounce == CHOICE_MS                  # a tap taken at once
            if kind == SOME_OF:
                assert long.max_items == most
                field.set(names[2:4])
                assert form.chosen()["pick"] == names[2:4] and (short if count == shown else long).value == names[2:4]


def test_the_page_frame_does_not_follow_the_servers_busy_flag():
    """Panel's busy flag is one for the whole server: a page frame following it was set busy and idle again around
    every callback of every page, each time walking every model of its page. The frame neither follows it nor keeps
    a watcher on Panel's state."""
    frame = page("A game", [])
    try:
        with edit_readonly(pn.state):
            pn.state.busy = True
        assert frame.busy is False
        assert not [w for ws in pn.state.param.watchers.values() for w in ws.values() for w in w
                    if getattr(getattr(w.fn, "__self__", None), "self_or_cls", None) is frame]
    finally:
        with edit_readonly(pn.state):
            pn.state.busy = False
