"""The border-states dashboard's view models, driven without a browser: the board editor, and the view through the
golden round 1 (the guide's forms filled in and tapped, the keep advice followed, the odds and the board read)."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from apps.border_states import ENGINE, BoardEditor, BorderStatesView, board_html, tracks_html
from companion.dice import ScriptedDice
from companion.session import GameSession
from companion.store import Store
from companion.ui.controls import odds_text
from companion.ui.live import LiveSession
from companion.ui.text import plain
from engines.border_states.example import LABEL, example_setup
from engines.border_states.outcome import battle_outcome
from engines.border_states.outlook import round_outlook
from tests.engines.border_states.test_golden import SCRIPT
from tests.widgets import click, find, perform

pytestmark = pytest.mark.usefixtures("panel_extensions")


@pytest.fixture
def live(tmp_path) -> LiveSession:
    return LiveSession(GameSession.new(Store(tmp_path), "border_states", example_setup()))


@pytest.fixture
def view(live) -> BorderStatesView:
    return BorderStatesView(live)


def play_until(live: LiveSession, kind: str, occurrence: int = 1) -> None:
    """The golden round's steps up to (not including) the n-th one of this kind, with its scripted dice."""
    seen = 0
    for action, faces, params in SCRIPT:
        if action == kind:
            seen += 1
            if seen == occurrence:
                return
        assert live.act({"type": action, **params}, ScriptedDice(faces)) is not None, live.error
    raise AssertionError(f"no step {kind} #{occurrence}")


def form(view: BorderStatesView, css: str):
    return find(view.guide.active.card, css)


# --- the board editor -----------------------------------------------------------------------------------

def test_an_empty_board_asks_for_the_file():
    editor = BoardEditor()
    assert editor.note.severity == "info" and "load the example" in editor.note.object


def test_the_example_board_is_labelled_and_deployed():
    editor = BoardEditor()
    click(find(editor, "load-example"))
    assert editor.note.severity == "warning" and editor.note.object.startswith(LABEL)
    editor.deploy_now.value = True
    setup = editor.setup()
    assert setup["board"]["example"] == LABEL
    assert setup["deployment"] == example_setup()["deployment"]


@pytest.mark.rule("BS-SETUP")
def test_a_bad_board_file_is_named_in_the_note():
    editor = BoardEditor()
    data = example_setup()["board"]
    data["adjacency"].append(["Maryland", "Atlantis"])
    editor.text.value = json.dumps(data)
    assert editor.note.severity == "error" and "Atlantis" in editor.note.object


# --- the view through round 1 --------------------------------------------------------------------------

def test_the_tracks_and_board_show_the_example_label_and_the_units(view, live):
    assert LABEL in view.tracks.object and "Round 1 of 4" in view.tracks.object
    assert '<td>Maryland</td><td>Union</td><td>3</td><td class="c">0</td><td class="u">2</td>' in view.board.object


@pytest.mark.rule("BS-INIT")
def test_initiative_is_rolled_from_the_dice_entry(view, live):
    play_until(live, "roll_initiative")
    assert view.guide.active.action == "roll_initiative"
    assert view.odds.main.title == "Initiative (BS-INIT)"
    perform(view, (5, 3))
    assert live.state.initiative_winner == "C"


@pytest.mark.rule("BS-RET")
def test_the_retreat_form_shows_its_chance_and_a_discard_makes_it_certain(view, live):
    play_until(live, "retreat")
    view.guide.select("retreat")
    assert list(form(view, "retreat-from").options) == ["Maryland", "Kentucky"]  # the Union states in combat
    form(view, "retreat-from").value = "Kentucky"
    assert list(form(view, "retreat-to").options) == list(offered(live, "retreat", "target", source="Kentucky"))
    assert not form(view, "retreat-commander").visible   # the Union commander unit stands in Maryland
    assert dict(view.odds.main.numbers) == {"P(it goes)": "66.7% (2/3)"}  # 3+ on a die (BS-RET)
    form(view, "retreat-discard").value = True
    assert dict(view.odds.main.numbers) == {"P(it goes)": "100.0% (1)"}


@pytest.mark.rule("BS-CMB")
def test_the_supply_step_shows_the_heatmap_of_both_sides_supply(view, live):
    play_until(live, "commit_supply")
    assert view.guide.active.action == "commit_supply"
    assert view.odds.main.title.startswith("P(the attacker wins) by supply dice")
    assert view.odds.main._plot.object is not None and view.odds.main._note.object == ""
    form(view, "supply-count").value = 2
    perform(view)
    assert live.state.battle.supply[live.state.battle.attacker] == 2


@pytest.mark.rule("BS-CMB")
def test_the_supply_step_shows_each_sides_double_loss_and_marker_chances(view, live):
    """Section 8: with the dice the attacker would add and those the defender might add, the chances of each side
    losing 2 units and of the marker moving toward it, from the engine's battle outcome."""
    play_until(live, "commit_supply")
    battle = live.state.battle
    form(view, "supply-count").value = 1
    form(view, "supply-theirs").value = 2
    shown = dict(view.odds.main.numbers)
    ending = battle_outcome(battle.dice[battle.attacker] + 1, battle.dice[battle.defender] + 2)
    assert shown["with 1 and 2 supply dice: P(the attacker wins)"] == odds_text(ending.win("attacker"))
    assert shown["P(CSA loses 2 units)"] == odds_text(ending.loses_two("attacker"))
    assert shown["P(the damage marker moves toward the Union)"] == odds_text(ending.marker_toward("defender"))


@pytest.mark.rule("BS-VIC.1")
def test_the_round_outlook_answers_the_csa_reaching_10_vp(view, live):
    """Section 8: the outlook tab works out P(the CSA reaches 10 VP this round) from the combats still to fight."""
    play_until(live, "start_effects")
    view.tabs.active = 2
    click(find(view, "outlook-go"))
    text = find(view, "outlook-text").object
    expected = round_outlook(live.state)
    assert f"P(the CSA reaches 10 VP this round) {odds_text(expected.ten)}" in text
    assert ", ".join(expected.battles) in text


@pytest.mark.rule("BS-CMB")
def test_the_keep_form_follows_the_advice(view, live):
    """The CSA's first throw 4,4,4,2,1 with 5 dice against a defender of 5 dice: the advice's best take is shown
    first; tapping it sets the tray and the guide takes it."""
    play_until(live, "keep")
    assert view.guide.active.action == "keep"
    assert [form(view, f"keep-{f}").visible for f in range(1, 7)] == [True, True, False, True, False, False]
    best = find(view.guide.active.card, "advice-0")
    assert best.label.startswith("Best: ")
    click(best)
    action = view.guide.active.build()
    assert action["type"] == "keep" and action["confirm"], action
    shown = dict(view.odds.main.numbers)
    assert "this keep: P(win)" in shown
    perform(view)
    assert live.state.battle.trays["C"].left == 5 - len(action["confirm"]) - action["damage"]


@pytest.mark.rule("BS-CMB")
def test_a_keep_not_in_the_throw_is_refused_and_the_state_kept(view, live):
    play_until(live, "keep")
    before = live.state
    assert live.act({"type": "keep", "confirm": [6]}, ScriptedDice(())) is None
    assert "BS-" in live.error and live.state == before


@pytest.mark.rule("BS-REC")
def test_recruitment_odds_for_the_phase(view, live):
    """The CSA's five homes succeed on 3+, 4+, 5+, 3+, 4+ (example board) and 3 units are wanted (7 of 10 on the
    board): P(no unit) = 1/3 * 1/2 * 2/3 * 1/3 * 1/2 = 1/54."""
    play_until(live, "recruit")
    assert view.guide.active.action == "recruit"
    numbers = dict(view.odds.main.numbers)
    assert numbers["P(0 units)"].endswith(f"({Fraction(1, 3) * Fraction(1, 2) * Fraction(2, 3) * Fraction(1, 3) * Fraction(1, 2)})")
    assert "P(1 unit)" in numbers
    perform(view, (3,))
    assert live.state.on_board("C") == 8


def test_the_whole_round_ends_in_round_2(view, live):
    play_until(live, "recruit")
    for action, faces, params in SCRIPT[[a for a, _, _ in SCRIPT].index("recruit"):]:
        assert live.act({"type": action, **params}, ScriptedDice(faces)) is not None, live.error
    assert view.phase.object == "Round 2 of 4: draw phase"
    assert "Round 2 of 4" in tracks_html(live.state) and "Maryland" in board_html(live.state)


@pytest.mark.rule("BS-CMB")
def test_a_throw_takes_one_tapped_face_a_die(view, live):
    """The CSA's first throw is 5 dice in one roll: the dice entry wants 5 faces, under one heading."""
    play_until(live, "throw")
    entry = view.guide.panel._dice
    assert entry.count == 5
    assert entry._heading.object == plain("5 dice: Combat throw, CSA (BS-CMB)")   # shown as plain text
    perform(view, (4, 4, 4, 2, 1))
    assert live.state.battle.throw == (1, 1, 0, 3, 0, 0)


# --- the forms take what may be chosen from the engine --------------------------------------------------------

def offered(live: LiveSession, action: str, param: str, **chosen) -> tuple:
    return ENGINE.actions.specs[action].param(param).legal(live.state, chosen).values


@pytest.mark.rule("BS-ACT", "BS-D.4", "BS-D.5")
def test_every_action_stays_reachable_after_another_is_chosen(view, live):
    """BS-ACT: the CSA may move, entrench, play a card or pass; after tapping "entrenches", "moves a unit" is still
    a button, and tapping it brings the move form back."""
    play_until(live, "move")
    assert view.guide.active.action == "move"
    click(find(view.guide, "other-entrench"))
    assert view.guide.active.action == "entrench"
    back = find(view.guide, "other-move")
    assert back.visible and not find(view.guide, "other-entrench").visible
    click(back)
    assert view.guide.active.action == "move"


@pytest.mark.rule("BS-D.4")
def test_the_move_form_offers_what_the_engine_offers(view, live):
    """The states a unit may leave and enter, as the engine's action specs list them; the CSA commander unit stands
    in Virginia with another unit, so whether it goes is the player's choice."""
    play_until(live, "move")
    assert list(form(view, "move-from").options) == list(offered(live, "move", "source"))
    form(view, "move-from").value = "Virginia"
    assert list(form(view, "move-to").options) == list(offered(live, "move", "target", source="Virginia"))
    assert form(view, "move-commander").visible and not form(view, "move-commander").disabled


@pytest.mark.rule("BS-CARD", "BS-MOD")
def test_a_card_that_adds_a_face_asks_for_no_die(view, live):
    """T.J. Jackson adds a die showing 6 (an ADD_FACE card): the form asks for no die to change, and the action it
    builds carries none, which the engine takes."""
    play_until(live, "keep")
    view.guide.choose("roll_card")
    form(view, "roll-card").value = "T.J. Jackson"
    assert not form(view, "roll-card-face").visible and not form(view, "roll-card-sign").visible
    assert view.guide.active.build() == {"type": "roll_card", "card": "T.J. Jackson"}
    perform(view)
    assert live.state.battle.throw == (1, 1, 0, 3, 0, 1)
