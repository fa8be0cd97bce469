"""The border-states dashboard's view models, driven without a browser: the board editor (a file, pasted text, the
deployment), and the view through the golden round 1 (the guide's generic forms filled in and tapped, the keep
advice followed, the odds and the board read), with player text shown as plain text."""
from __future__ import annotations

import html
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

# A board of the players' own (not the example): the rules' eight border states, homes named for real states, their
# own values, borders, track, commanders and one card a side; typed into the tables as a player types it.
OWN_STATES = [
    {"name": "West Virginia", "side": "Union", "border": True, "number": 8, "vp": 1},
    {"name": "Maryland", "side": "Union", "border": True, "number": 1, "vp": 4},
    {"name": "Kentucky", "side": "Union", "border": True, "number": 2, "vp": 2},
    {"name": "Missouri", "side": "Union", "border": True, "number": 3, "vp": 2},
    {"name": "Virginia", "side": "CSA", "border": True, "number": 4, "vp": 4},
    {"name": "North Carolina", "side": "CSA", "border": True, "number": 5, "vp": 1},
    {"name": "Tennessee", "side": "CSA", "border": True, "number": 6, "vp": 2},
    {"name": "Arkansas", "side": "CSA", "border": True, "number": 7, "vp": 1},
] + [{"name": n, "side": "Union", "border": False, "success": v} for n, v in (
    ("Pennsylvania", 2), ("Ohio", 3), ("Indiana", 4), ("Illinois", 5), ("New York", 6), ("Iowa", 4))] + [
    {"name": n, "side": "CSA", "border": False, "success": v} for n, v in (
        ("South Carolina", 2), ("Georgia", 3), ("Alabama", 4), ("Mississippi", 5), ("Louisiana", 6))]
OWN_BORDERS = [("Maryland", "West Virginia"), ("West Virginia", "Virginia"), ("Virginia", "North Carolina"),
               ("West Virginia", "Kentucky"), ("Kentucky", "Tennessee"), ("Kentucky", "Missouri"),
               ("Missouri", "Arkansas"), ("Pennsylvania", "Maryland"), ("Ohio", "West Virginia"),
               ("Indiana", "Kentucky"), ("Illinois", "Missouri"), ("New York", "Pennsylvania"), ("Iowa", "Missouri"),
               ("South Carolina", "North Carolina"), ("Georgia", "Tennessee"), ("Alabama", "Tennessee"),
               ("Mississippi", "Arkansas"), ("Louisiana", "Arkansas")]
OWN_COMMANDERS = [{"side": "CSA", "name": "Joseph E. Johnston", "actions": 3},
                  {"side": "CSA", "name": "Robert E. Lee", "actions": 4}] + [
    {"side": "Union", "name": f"Union face {i}", "actions": 2 + i // 2} for i in range(1, 5)]
OWN_CARDS = [{"side": "CSA", "name": "Forced march", "copies": 8, "phase": "combat", "effect": "MODIFY", "value": 1},
             {"side": "Union", "name": "Rail lines", "copies": 8, "phase": "combat", "effect": "ADD_STOCK_DICE",
              "value": 1}]


def type_own_board(editor: BoardEditor) -> None:
    """The players' own board entered in the editor's tables and fields (no file, no example)."""
    editor.tables["areas"].set_rows(OWN_STATES)
    editor.tables["adjacency"].set_rows([{"a": a, "b": b} for a, b in OWN_BORDERS])
    editor.tables["damage_u"].set_rows([{"force_cut": 1, "star": 1}, {"force_cut": 2, "star": 3}])
    editor.tables["damage_c"].set_rows([{"force_cut": 1, "star": 2}])
    editor.tables["commanders"].set_rows(OWN_COMMANDERS)
    editor.tables["cards"].set_rows(OWN_CARDS)
    editor.distrust.value = 4
    editor.units["C"].value, editor.units["U"].value = 11, 13


def test_a_new_board_is_an_outline_to_fill_in():
    """Issue 16: nobody writes JSON: the editor opens on the board's tables, the eight border states named and a row
    for each home state and commander face, with a note that asks for the values (no error before a touch)."""
    editor = BoardEditor()
    rows = editor.tables["areas"].rows()
    assert [r["name"] for r in rows if r["border"]][:2] == ["West Virginia", "Maryland"] and len(rows) == 19
    assert [r.get("side") for r in rows if not r["border"]] == ["Union"] * 6 + ["CSA"] * 5
    assert len(editor.tables["commanders"].rows()) == 6
    assert editor.note.severity == "info" and "Fill in the tables" in editor.note.object


@pytest.mark.rule("BS-SETUP")
def test_a_board_typed_into_the_tables_starts_the_game_and_saves_as_a_file():
    """Issue 16: the players' own board typed into the tables is valid, deploys and starts; saved as a file, it opens
    again as the same tables."""
    editor = BoardEditor()
    type_own_board(editor)
    assert editor.note.severity == "success", editor.note.object
    assert editor.note.object == plain("19 states, 18 borders: the board is valid.")
    assert set(editor.counts["C"]) == {"Virginia", "North Carolina", "Tennessee", "Arkansas"}
    for area, n in (("Virginia", 3), ("North Carolina", 2), ("Tennessee", 2), ("Arkansas", 1)):
        editor.counts["C"][area].value = n
    for area, n in (("Maryland", 2), ("Kentucky", 2), ("Missouri", 2), ("West Virginia", 1)):
        editor.counts["U"][area].value = n
    editor.deploy_now.value = True
    state = ENGINE.start(None, editor.setup())
    assert state.board.area("Ohio").success == 3 and state.board.area("Maryland").vp == 4
    assert state.board.neighbours("Missouri") == ("Kentucky", "Arkansas", "Illinois", "Iowa")
    assert state.count("Virginia", "C") == 3 and state.board.commanders["C"][1].name == "Robert E. Lee"
    saved = editor.file.save.callback().getvalue()
    again = BoardEditor()
    again.file.read(saved)
    assert again.entered() == editor.entered() and again.note.severity == "success"


@pytest.mark.rule("BS-SETUP", "BS-D.4")
@pytest.mark.parametrize("change, said", [
    (lambda e: e.tables["areas"].set_rows([r if r["name"] != "Iowa" else {**r, "name": "Delaware"}
                                           for r in OWN_STATES]),
     "Adjacency Iowa–Missouri: Iowa is not on the board"),
    (lambda e: e.tables["areas"].set_rows([r if r["name"] != "Virginia" else {**r, "number": "x"}
                                           for r in OWN_STATES]),
     "State 5 (Virginia): the combat number must be a whole number, not 'x'"),
    (lambda e: e.tables["areas"].set_rows([r if r["name"] != "Ohio" else {k: v for k, v in r.items() if k != "success"}
                                           for r in OWN_STATES]),
     "Home state Ohio: the recruitment success value is 2 to 6, but it is missing"),
    (lambda e: e.tables["commanders"].set_rows(OWN_COMMANDERS[:1] + OWN_COMMANDERS[2:]),
     "CSA has 2 commander faces, not 1"),
    (lambda e: setattr(e.units["U"], "value", 5), "Union unit pieces: at least 7 (the Union deploys 7 units), not 5"),
])
def test_a_board_error_names_the_field_in_a_players_words(change, said):
    """Issue 16: the note names the state, face or field and what is wrong with it, as a player says it."""
    editor = BoardEditor()
    type_own_board(editor)
    change(editor)
    assert editor.note.severity == "error" and editor.note.object.startswith(plain(f"Not valid yet: {said} (BS-"))
    assert editor.deployment.objects == []


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
    editor.distrust.value = 5   # the board corrected
    assert editor.note.severity == "warning" and editor.counts["C"]["Virginia"].value == 2


@pytest.mark.rule("BS-SETUP")
def test_a_board_file_in_yaml_pasted_fills_the_tables():
    editor = BoardEditor()
    editor.file.paste.value = yaml.safe_dump(example_setup()["board"])
    click(find(editor, "read-setup"))
    assert editor.note.severity == "warning" and editor.setup()["board"] == json.loads(json.dumps(
        ENGINE.start(None, {"board": example_setup()["board"]}).board.to_dict()))
    assert {"name": "Maryland", "side": "Union", "border": True, "number": 2, "vp": 3} in editor.tables["areas"].rows()


@pytest.mark.rule("BS-SETUP")
@pytest.mark.parametrize("raw, phrase", [(b"\xff\xfe junk", "UTF-8"), (b"a: &x [*x]", "anchors"),
                                         (b"[" * 3000, "nested too deep"), (b" " * 300_000, "300 kB"),
                                         (b'{"areas": 5}', "The states must be a list, not 5")])
def test_a_refused_file_changes_nothing_but_the_note(raw, phrase):
    """Issue 14: a file the loader refuses leaves the tables as they were and says why, quoting nothing long."""
    editor = BoardEditor()
    click(find(editor, "load-example"))
    before = editor.entered()
    editor.file.read(raw)
    assert editor.entered() == before and editor.note.severity == "error"
    assert plain(phrase) in editor.note.object and len(editor.note.object) < 400


@pytest.mark.rule("BS-SETUP")
def test_a_script_in_a_state_name_is_shown_as_text():
    """Issue 14: a home state named with markup is plain text in the note, the board and the recruitment step."""
    editor = BoardEditor()
    editor.load(scripted_board())
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
    assert f"P(the CSA reaches 10 VP this round) {odds_text(expected.ten)}" in text
    assert ", ".join(expected.battles) in text


@pytest.mark.rule("BS-CMB")
def test_a_tap_on_the_advice_takes_the_best_keep(view, live):
    """The CSA's first throw 4,4,4,2,1 with 5 dice against a defender of 5 dice: the advice's best take is shown
    first; a tap on it makes it."""
    play_until(live, "keep")
    assert view.guide.active.action == "keep"
    best = find(view.guide.active.card, "advice-0")
    listed = view._advice()
    top = listed[0]
    assert best.label == f"Best: {top.keep.text()} · win + ½ draw {odds_text(top.win + top.draw / 2)}"
    assert "ranked by P(win) + ½ P(draw)" in find(view.guide.active.card, "ranked-by").object
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
    assert shown["this keep: P(win) + ½ P(draw)"] == odds_text(mine.win + mine.draw / 2)
    assert shown["P(win)"] == odds_text(mine.win)
    assert all(v.startswith("win + ½ draw ") for k, v in view.odds.main.numbers[5:])
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
    assert view.phase.object == "Round 2 of 4: draw phase"
    assert "Round 2 of 4" in tracks_html(live.state) and "Maryland" in board_html(live.state)


@pytest.mark.rule("BS-CMB")
def test_a_throw_takes_one_tapped_face_a_die(view, live):
    """The CSA's first throw is 5 dice in one roll: the dice entry wants 5 faces, under one heading."""
    play_until(live, "throw")
    entry = view.guide.panel._dice
    assert entry.count == 5
    assert entry._heading.object == (  # shown as plain text (a Text pane)
        "5 dice:\nCombat throw, CSA: 5 dice = units 2 + Robert E. Lee's ability +1 + supply +2 (BS-CMB)")
    perform(view, (4, 4, 4, 2, 1))
    assert live.state.battle.throw == (1, 1, 0, 3, 0, 0)


# --- the forms take what may be chosen from the engine --------------------------------------------------------

@pytest.mark.rule("BS-ACT", "BS-D.4", "BS-D.5")
def test_every_action_stays_reachable_after_another_is_chosen(view, live):
    """BS-ACT: the CSA may move, entrench, play a card or pass; after tapping "entrenches", "moves a unit" is still
    a button, and tapping it brings the move form back. From every action open now, every other one is a button (the
    pass among them)."""
    play_until(live, "move")
    assert view.guide.active.action == "move"
    click(find(view.guide, "other-entrench"))
    assert view.guide.active.action == "entrench"
    back = find(view.guide, "other-move")
    assert back.visible and not find(view.guide, "other-entrench").visible
    click(back)
    assert view.guide.active.action == "move"
    open_now = set(live.engine.actions.open(live.state))
    assert {"move", "entrench"} <= open_now
    for action in sorted(open_now - {"pass_turn"}):     # a pass has nothing to fill in: a tap passes at once
        if view.guide.active.action != action:
            click(find(view.guide, f"other-{action}"))
        assert view.guide.active.action == action
        assert {a for a, b in view.guide._buttons.items() if b.visible} == open_now - {action}


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
    text = view.guide.active.text
    assert SCRIPTED in text.object and "<img" not in html.unescape(text._transform_object(text.object)["object"])
    assert SCRIPTED in field(view, "area").legal.values and "<img" not in view.board.object
