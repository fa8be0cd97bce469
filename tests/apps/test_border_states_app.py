"""The border-states dashboard's view models, driven without a browser: the board editor (a file, pasted text, the
deployment), and the view through the golden round 1 (the guide's generic forms filled in and tapped, the keep
advice followed, the odds and the board read), with player text shown as plain text."""
from __future__ import annotations

import json
from fractions import Fraction
from types import SimpleNamespace

import pytest
import yaml

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
from tests.engines.border_states.test_golden import SCRIPT, played
from tests.widgets import choose, click, field, find, perform

pytestmark = pytest.mark.usefixtures("panel_extensions")

SCRIPTED = "<img src=x onerror=alert(1)>"   # a home state's name in a players' board file


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


def offered(live: LiveSession, action: str, param: str, **chosen) -> tuple:
    return ENGINE.actions.specs[action].param(param).legal(live.state, chosen).values


def scripted_board() -> dict:
    data = {**example_setup()["board"], "example": ""}
    for area in data["areas"]:
        area["name"] = SCRIPTED if area["name"] == "CSA home 1" else area["name"]
    data["adjacency"] = [[SCRIPTED if n == "CSA home 1" else n for n in pair] for pair in data["adjacency"]]
    return data


# --- the board editor -----------------------------------------------------------------------------------

def test_an_empty_board_asks_for_the_file():
    editor = BoardEditor()
    assert editor.note.severity == "info" and "load the example" in editor.note.object


@pytest.mark.rule("BS-SETUP")
def test_the_example_board_is_labelled_and_deployed():
    editor = BoardEditor()
    click(find(editor, "load-example"))
    assert editor.note.severity == "warning" and editor.note.object.startswith(plain(LABEL))
    editor.deploy_now.value = True
    editor.commanders["C"].value, editor.commanders["U"].value = "Virginia", "Maryland"
    setup = editor.setup()
    assert setup["board"]["example"] == LABEL
    assert (setup["deployment"], setup["commanders"]) == (example_setup()["deployment"], example_setup()["commanders"])


@pytest.mark.rule("BS-SETUP", "BS-D.1")
def test_the_deployment_offers_what_the_engine_offers():
    """BS-SETUP / BS-D.1: a count for each own-side border state, 0 to 3; the commander unit where units stand, or in
    the pool (the example board has pieces left)."""
    editor = BoardEditor()
    click(find(editor, "load-example"))
    assert {a: (w.start, w.end) for a, w in editor.counts["C"].items()} == {
        a: (0, 3) for a in ("Virginia", "North Carolina", "Tennessee", "Arkansas")}
    editor.counts["C"]["Arkansas"].value = 0
    assert list(editor.commanders["C"].options.values()) == ["", "Virginia", "North Carolina", "Tennessee"]
    editor.text.value = json.dumps({**example_setup()["board"], "distrust_length": 5})   # the board corrected
    assert editor.note.severity == "warning" and editor.counts["C"]["Virginia"].value == 2


@pytest.mark.rule("BS-SETUP")
def test_a_bad_board_file_is_named_in_the_note():
    editor = BoardEditor()
    data = example_setup()["board"]
    data["adjacency"].append(["Maryland", "Atlantis"])
    editor.text.value = json.dumps(data)
    assert editor.note.severity == "error" and "Atlantis" in editor.note.object
    with pytest.raises(Exception, match="Atlantis"):
        editor.setup()


@pytest.mark.rule("BS-SETUP")
def test_a_board_in_yaml_is_read():
    editor = BoardEditor()
    editor.text.value = yaml.safe_dump(example_setup()["board"])
    assert editor.note.severity == "warning" and editor.setup()["board"] == json.loads(json.dumps(
        ENGINE.start(None, {"board": example_setup()["board"]}).board.to_dict()))


@pytest.mark.rule("BS-SETUP")
@pytest.mark.parametrize("raw, phrase", [(b"\xff\xfe junk", "UTF-8"), (b"a: &x [*x]", "anchors"),
                                         (b"[" * 3000, "nested too deep"), (b" " * 300_000, "300 kB")])
def test_a_refused_file_changes_nothing_but_the_note(raw, phrase):
    """Issue 14: a file the loader refuses leaves the text as it was and says why, quoting nothing long."""
    editor = BoardEditor()
    click(find(editor, "load-example"))
    before = editor.text.value
    editor._opened(SimpleNamespace(new=raw))
    assert editor.text.value == before and editor.note.severity == "error"
    assert plain(phrase) in editor.note.object and len(editor.note.object) < 400


@pytest.mark.rule("BS-SETUP")
def test_a_script_in_a_state_name_is_shown_as_text():
    """Issue 14: a home state named with markup is plain text in the note, the board and the recruitment step."""
    editor = BoardEditor()
    editor.text.value = json.dumps(scripted_board())
    assert editor.note.severity == "success"
    state = ENGINE.start(None, {**example_setup(), "board": scripted_board()})
    assert "<img" not in board_html(state) and "&lt;img src=x onerror=alert(1)&gt;" in board_html(state)
    assert plain(SCRIPTED) == r"\<img src\=x onerror\=alert\(1\)\>"


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


@pytest.mark.rule("BS-INIT")
def test_the_winner_going_first_is_the_forms_first_choice(view, live):
    play_until(live, "roll_initiative")
    live.act({"type": "roll_initiative"}, ScriptedDice((2, 5)))
    assert field(view, "first").value == "U"
    perform(view)
    assert live.state.first == "U"


@pytest.mark.rule("BS-RET")
def test_the_retreat_form_shows_its_chance_and_a_discard_makes_it_certain(view, live):
    play_until(live, "retreat")
    view.guide.select("retreat")
    assert field(view, "source").legal.values == ("Maryland", "Kentucky")   # the Union states in combat
    choose(field(view, "source"), "Kentucky")
    assert field(view, "target").legal.values == offered(live, "retreat", "target", source="Kentucky")
    assert field(view, "commander").widget.disabled      # the Union commander unit stands in Maryland
    assert "not in Kentucky" in field(view, "commander").note.object
    assert dict(view.odds.main.numbers) == {"P(it goes)": "66.7% (2/3)"}  # 3+ on a die (BS-RET)
    choose(field(view, "discard"), True)
    assert dict(view.odds.main.numbers) == {"P(it goes)": "100.0% (1)"}


@pytest.mark.rule("BS-CMB")
def test_the_supply_step_shows_the_heatmap_of_both_sides_supply(view, live):
    play_until(live, "commit_supply")
    assert view.guide.active.action == "commit_supply"
    assert view.odds.main.title.startswith("P(the attacker wins) by supply dice")
    assert view.odds.main._plot.object is not None and view.odds.main._note.object == ""
    assert field(view, "count").legal.high == 4      # 2 CSA units in Maryland, 2 supply dice each
    choose(field(view, "count"), 2)
    perform(view)
    assert live.state.battle.supply[live.state.battle.attacker] == 2


@pytest.mark.rule("BS-CMB")
def test_the_supply_step_shows_each_sides_double_loss_and_marker_chances(view, live):
    """Section 8: with the dice the attacker would add and those the defender might add, the chances of each side
    losing 2 units and of the marker moving toward it, from the engine's battle outcome."""
    play_until(live, "commit_supply")
    battle = live.state.battle
    choose(field(view, "count"), 1)
    find(view.guide.active.card, "supply-reply").value = 2
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
    assert plain(f"P(the CSA reaches 10 VP this round) {odds_text(expected.ten)}") in text
    assert plain(", ".join(expected.battles)) in text


@pytest.mark.rule("BS-CMB")
def test_a_tap_on_the_advice_takes_the_best_keep(view, live):
    """The CSA's first throw 4,4,4,2,1 with 5 dice against a defender of 5 dice: the advice's best take is shown
    first; a tap on it makes it."""
    play_until(live, "keep")
    assert view.guide.active.action == "keep"
    best = find(view.guide.active.card, "advice-0")
    assert best.label.startswith("Best: ")
    listed = view._advice()
    click(best)
    assert live.error == "" and live.state.battle.trays["C"].left == 5 - listed[0].keep.size


@pytest.mark.rule("BS-CMB")
def test_a_keep_tapped_in_shows_its_chances(view, live):
    """The faces tapped in (only those thrown, each as often as thrown) and the keep's own line of the advice."""
    play_until(live, "keep")
    confirm = field(view, "confirm")
    assert confirm.legal.values == (1, 2, 4) and not confirm.legal.fits((4, 4, 4, 4))
    choose(confirm, [4, 4, 4])
    shown = dict(view.odds.main.numbers)
    mine = next(c for c in view._advice() if c.keep.faces() == [4, 4, 4] and not c.keep.damage)
    assert shown["this keep: P(win)"] == odds_text(mine.win)
    perform(view)
    assert live.state.battle.trays["C"].confirmed == (0, 0, 0, 3, 0, 0)


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


@pytest.mark.rule("BS-DRAW", "BS-INIT", "BS-ACT", "BS-RET", "BS-CMB", "BS-VIC", "BS-SUP", "BS-REC")
def test_the_golden_round_is_played_through_the_forms(view, live):
    """Every step of the golden round 1 made as a player makes it: the step's form shown, each parameter tapped in,
    the dice entered or the button tapped; the game ends as the golden record does, in round 2."""
    for action, faces, params in SCRIPT:
        if view.guide.active is None or view.guide.active.action != action:
            view.guide.select(action)
        for name, value in params.items():
            choose(field(view, name), value)
        perform(view, faces)
    assert live.state == played().state
    assert view.phase.object == plain("Round 2 of 4: draw phase")
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
    assert field(view, "source").legal.values == offered(live, "move", "source")
    choose(field(view, "source"), "Virginia")
    assert field(view, "target").legal.values == offered(live, "move", "target", source="Virginia")
    commander = field(view, "commander")
    assert commander.box.visible and not commander.widget.disabled
    assert not field(view, "entrenched").box.visible    # no entrenched CSA unit in Virginia


@pytest.mark.rule("BS-CARD", "BS-MOD")
def test_a_card_that_adds_a_face_asks_for_no_die(view, live):
    """T.J. Jackson adds a die showing 6 (an ADD_FACE card): the form asks for no die to change, and the action it
    builds carries none, which the engine takes."""
    play_until(live, "keep")
    view.guide.choose("roll_card")
    choose(field(view, "card"), "T.J. Jackson")
    assert not field(view, "face").box.visible and not field(view, "change").box.visible
    assert view.guide.active.build() == {"type": "roll_card", "card": "T.J. Jackson"}
    perform(view)
    assert live.state.battle.throw == (1, 1, 0, 3, 0, 1)


@pytest.mark.rule("BS-REC")
def test_a_script_in_a_state_name_reaches_the_page_as_text(tmp_path):
    """Issue 14: the recruitment step names the home states: a name with markup is escaped in the step's text and in
    the board; the form's choice shows it as a label (text)."""
    live = LiveSession(GameSession.new(Store(tmp_path), "border_states", {**example_setup(), "board": scripted_board()}))
    view = BorderStatesView(live)
    for action, faces, params in SCRIPT[:[a for a, _, _ in SCRIPT].index("recruit")]:
        assert live.act({"type": action, **params}, ScriptedDice(faces)) is not None, live.error
    assert view.guide.active.action == "recruit"
    assert plain(SCRIPTED) in view.guide.active.text.object
    assert SCRIPTED in field(view, "area").legal.values and "<img" not in view.board.object
