"""The Bull Run dashboard's view models, driven without a browser: the roster editor, and the view through one
solitaire turn (the guide's forms filled in, its buttons and dice entry tapped, the odds and the track read)."""
from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import panel as pn
import pytest

from apps.bull_run import BullRunView, RosterEditor, expected_hits_html, track_html
from companion.dice import EnteredDice, ScriptedDice
from companion.session import GameSession
from companion.store import Store
from companion.ui.live import LiveSession
from companion.ui.text import plain
from engines.bull_run.attacks import declared_input
from engines.bull_run.combat import combat_odds, summarize
from engines.bull_run.example import EXAMPLE_ROSTER, LABEL
from engines.bull_run.state import GameState
from tests.widgets import choose, click, field, find, perform

pytestmark = pytest.mark.usefixtures("panel_extensions")

SHERMAN, PORTER, KEYES, EVANS, COCKE = ("Sherman's Brigade", "Porter's Brigade", "Keyes' Brigade", "Evans' Brigade",
                                        "Cocke's Brigade")
# A made-up roster: the Union stack Sherman + Porter is 8 SP and Cocke is 4 SP, as in the digest's worked example 9.
ROSTER = [
    {"name": SHERMAN, "side": "UNION", "entry_hex": "A", "entry_turn": 1, "max_sp": 7, "grey": False},
    {"name": PORTER, "side": "UNION", "entry_hex": "A", "entry_turn": 1, "max_sp": 1, "grey": False},
    {"name": KEYES, "side": "UNION", "entry_hex": "B", "entry_turn": 1, "max_sp": 2, "grey": False},
    {"name": EVANS, "side": "CSA", "entry_hex": "1", "entry_turn": 1, "max_sp": 3, "grey": False},
    {"name": COCKE, "side": "CSA", "entry_hex": "2", "entry_turn": 1, "max_sp": 4, "grey": False},
]
MOVE = {"type": "move", "unit": SHERMAN, "path": ["road", "woods"], "crossing": ""}
UNION_ATTACK = {"type": "declare_attack", "attackers": [SHERMAN, PORTER], "defenders": [COCKE],
                "target_terrain": "woods", "across_ford": False}
CSA_ATTACK = {**UNION_ATTACK, "attackers": [EVANS], "defenders": [KEYES], "target_terrain": "clear"}
END_MOVEMENT, END_COMBAT = {"type": "end_movement"}, {"type": "end_combat"}

# One solitaire turn: (the step the guide shows, the action done, its dice).
TURN = [
    ("roll_initiative", {"type": "roll_initiative"}, (2,)),                       # Union (BR-6.0)
    ("place_reinforcements", {"type": "place_reinforcements"}, ()),
    ("farm_ford_roll", {"type": "farm_ford_roll"}, (1,)),                         # not found (BR-8.4b)
    ("move", MOVE, ()),
    ("move", END_MOVEMENT, ()),
    ("csa_action_roll", {"type": "csa_action_roll", "union_south": 0, "union_south_seen": False}, (1,)),  # order A
    ("move", END_MOVEMENT, ()),
    ("declare_attack", UNION_ATTACK, ()),
    ("fire", {"type": "fire", "attack": 0}, (6, 6)),          # 6-1 on 7-8: 2 hits; 6 on 3-4: 1 hit
    ("allocate_hits", {"type": "allocate_hits"}, ()),       # Cocke alone takes 2; BR-9.4: Porter (1 SP) the 1
    ("retreat_check", {"type": "retreat_check"}, (4,)),                          # Cocke retreats
    ("retreat", {"type": "retreat", "legal_hex": True, "across_ford": False}, ()),
    ("advance", {"type": "advance", "advance": True}, ()),
    ("end_combat", END_COMBAT, ()),
    ("declare_attack", CSA_ATTACK, ()),
    ("fire", {"type": "fire", "attack": 0}, (5, 1)),          # 5 on 3-4: 1 hit; 1 on 1-2: 0 hits
    ("allocate_hits", {"type": "allocate_hits"}, ()),
    ("retreat_check", {"type": "retreat_check"}, (4,)),                          # Keyes retreats
    ("retreat", {"type": "retreat", "legal_hex": True, "across_ford": False}, ()),
    ("advance", {"type": "advance", "next_to_stronger_fresh_union": False}, ()),
    ("end_combat", END_COMBAT, ()),
    ("end_turn", {"type": "end_turn", "union_holds_manassas": False, "csa_holds_centerville": False}, ()),
]


def step_of(action_type: str, occurrence: int = 1) -> int:
    """The index in TURN of the n-th step whose action has this type."""
    return [i for i, (_, action, _) in enumerate(TURN) if action["type"] == action_type][occurrence - 1]


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


@pytest.fixture
def live(store) -> LiveSession:
    return LiveSession(GameSession.new(store, "bull_run", {"roster": ROSTER}))


@pytest.fixture
def view(live) -> BullRunView:
    return BullRunView(live)


def play(live: LiveSession, steps: int) -> None:
    """The first `steps` steps of the turn, done with their scripted dice."""
    for _, action, faces in TURN[:steps]:
        assert live.act(action, ScriptedDice(faces)) is not None, live.error


def last_action(live: LiveSession) -> dict:
    return dict(live.session.events[-1].action)


def numbers(view: BullRunView) -> dict[str, str]:
    return dict(view.odds.main.numbers)


def engine_numbers(live: LiveSession, attack: dict) -> dict[str, str]:
    """The combat's numbers from the engine's odds twin, written as the card writes them."""
    s = summarize(combat_odds(declared_input(live.state, attack)))

    def text(p):
        return f"{float(p) * 100:.1f}% ({p})"
    return {"P(defender retreats)": text(s.defenders_retreat), "P(attacker retreats)": text(s.attackers_retreat),
            "P(defender eliminated)": text(s.defenders_eliminated),
            "P(attacker eliminated)": text(s.attackers_eliminated),
            "expected hits on the defender": f"{float(s.expected_on_defenders):.2f}",
            "expected hits on the attacker": f"{float(s.expected_on_attackers):.2f}"}


# --- the roster editor -------------------------------------------------------------------------------

def test_an_empty_roster_asks_for_units():
    editor = RosterEditor()
    assert editor.note.object == "Enter your units, open or paste your roster file, or load the example."
    assert editor.note.severity == "info"


@pytest.mark.rule("BR-2.4")
def test_a_unit_added_says_nothing_until_the_player_fills_it_in():
    """A blank row is no entry: no error about it (nor about the roster) until the player has changed it; then the
    engine's message names what is wrong."""
    editor = RosterEditor()
    click(find(editor, "add-unit"))
    click(find(editor, "add-unit"))
    assert len(editor.units.table.value) == 2 and editor.rows() == []
    assert editor.note.severity == "info" and editor.note.object.startswith("Enter your units")
    table = editor.units.table.value.copy()
    table.loc[1, "name"] = "Bee's Brigade"
    editor.units.table.value = table
    assert editor.rows() == [{"name": "Bee's Brigade", "side": "UNION", "entry_turn": 1, "max_sp": 1, "grey": False}]
    assert editor.note.severity == "error"
    assert editor.note.object == plain("Bee's Brigade: the entry hex is a label of up to 8 digits or letters "
                                       "('1', 'A') (BR-7.0)")


@pytest.mark.rule("BR-2.4")
def test_a_roster_of_ones_own_is_saved_as_a_file_and_opened_again_unchanged():
    """The roster typed in is saved (SetupFile) and opened again, through the engine's reader, as the same rows; a
    refused file leaves the table as it was and says why."""
    editor = RosterEditor(ROSTER)
    saved = editor.file.save.callback().getvalue()
    assert json.loads(saved) == {"roster": ROSTER} == editor.setup()
    editor.set_rows(EXAMPLE_ROSTER)
    editor.file.read(saved)
    assert editor.rows() == ROSTER and editor.note.severity == "warning"   # 5 units of the game's 25
    editor.file.read(json.dumps({"roster": [{**ROSTER[0], "colour": "red"}]}))
    assert editor.rows() == ROSTER and editor.note.severity == "error"
    assert editor.note.object.startswith(plain("The file is refused: Row 1: a unit has no field 'colour'"))


def test_the_example_roster_is_labelled():
    editor = RosterEditor()
    click(find(editor, "load-example"))
    assert editor.is_example()
    assert editor.setup() == {"roster": [dict(row) for row in EXAMPLE_ROSTER], "example": LABEL}
    assert editor.note.object.startswith(plain(LABEL)) and editor.note.severity == "warning"


def test_an_edited_example_is_no_longer_the_example():
    editor = RosterEditor(EXAMPLE_ROSTER)
    table = editor.units.table.value.copy()
    table.loc[0, "max_sp"] = 4
    editor.units.table.value = table
    assert not editor.is_example()
    assert "example" not in editor.setup() and editor.setup()["roster"][0]["max_sp"] == 4


@pytest.mark.rule("BR-2.4")
def test_pasted_play_sheet_lines_become_the_roster():
    editor = RosterEditor()
    editor.paste.value = ("Evans' Brigade, CSA, 1/1, 3-2-1\n"
                          "Burnside's Brigade\tUNION\tA/3\t4-3-2-1\n"
                          "Cocke's Brigade; CSA; 2/4; 5-4-3-2-1; grey; north")
    click(find(editor, "read-paste"))
    assert editor.rows() == [
        {"name": "Evans' Brigade", "side": "CSA", "entry_hex": "1", "entry_turn": 1, "max_sp": 3, "grey": False},
        {"name": "Burnside's Brigade", "side": "UNION", "entry_hex": "A", "entry_turn": 3, "max_sp": 4,
         "grey": False},
        {"name": "Cocke's Brigade", "side": "CSA", "entry_hex": "2", "entry_turn": 4, "max_sp": 5, "grey": True,
         "bank": "north"},
    ]
    assert editor.note.severity == "warning" and "this roster has 3 units" in editor.note.object
    assert not editor.is_example()


def test_a_bad_pasted_line_is_named_and_the_table_kept():
    editor = RosterEditor(EXAMPLE_ROSTER)
    editor.paste.value = "Evans' Brigade, CSA, 1/1, 3-2-1\nBurnside's Brigade, UNION, A-3, 4-3-2-1"
    click(find(editor, "read-paste"))
    assert editor.note.severity == "error"
    assert editor.note.object == plain("Line 2: the entry is 'hex/turn' such as 1/1 or A/3, not 'A-3' (BR-7.0)")
    assert editor.is_example()


@pytest.mark.rule("BR-2.4")
def test_an_invalid_table_is_named_in_the_note():
    editor = RosterEditor([EXAMPLE_ROSTER[0], EXAMPLE_ROSTER[0]])
    assert editor.note.severity == "error"
    assert editor.note.object == plain("Unit names must be unique: Evans' Brigade appears twice (BR-2.4)")


def test_the_odds_tables_and_the_attack_planner_each_fill_their_own_tab_when_first_opened(view):
    """The expected hits, the outlook and the initiative in one tab; the planner of several attacks in its own
    (each built the first time it is opened, so that opening one does not build the other, and the plots drawn
    then)."""
    tabs = view.tabs
    odds, planner = (list(tabs._names).index(name) for name in ("Odds & tables", "Attack planner"))
    assert not tabs[odds].objects and not tabs[planner].objects
    assert view.outlook.object is None and view.initiative.object is None
    tabs.active = odds
    assert find(tabs[odds], "expected-hits").object == expected_hits_html("error")
    assert [pane.object for pane in tabs[odds].select(pn.pane.Bokeh)] == [view.outlook.object, view.initiative.object]
    assert None not in (view.outlook.object, view.initiative.object)
    assert not tabs[planner].objects
    tabs.active = planner
    assert find(tabs[planner], "attack-planner").objects


def test_the_odds_tab_plots_follow_the_game_once_opened(view, live):
    """The initiative odds count the turns not yet rolled: 15 at the start, 14 once turn 1's is rolled."""
    view.tabs.active = list(view.tabs._names).index("Odds & tables")
    assert view.initiative.object.title.text == "Union initiatives in the 15 turns not yet rolled (BR-6.0)"
    perform(view, (2,))
    assert view.initiative.object.title.text == "Union initiatives in the 14 turns not yet rolled (BR-6.0)"


@pytest.mark.rule("BR-10.4", "BR-10.5")
def test_the_expected_hits_of_each_crt_column_and_modifier():
    """The mean of the digest's CRT column over the six rolls, the modifier added: column 11-12 with no modifier
    reads 1, 1, 1, 2, 3, 3 (11/6); 9-10 reads 0, 1, 1, 2, 2, 3 (3/2); at -1 column 11-12 reads <1, 1, 1, 1, 2, 3
    (4/3); at -3 column 7-8 reads 1 only on a 6 (1/6) and column 11-12 1, 1, 1 on 4-6 (1/2)."""
    table = expected_hits_html("error")
    assert "<th>modifier</th><th>1-2</th><th>3-4</th><th>5-6</th><th>7-8</th><th>9-10</th><th>11-12</th>" in table
    assert "<tr><th>0</th><td>1/6</td><td>1/3</td><td>2/3</td><td>1</td><td>3/2</td><td>11/6</td></tr>" in table
    assert "<tr><th>-1</th><td>0</td><td>1/6</td><td>1/3</td><td>2/3</td><td>1</td><td>4/3</td></tr>" in table
    assert "<tr><th>-3</th><td>0</td><td>0</td><td>0</td><td>1/6</td><td>1/3</td><td>1/2</td></tr>" in table


# --- the view through one solitaire turn -------------------------------------------------------------

@pytest.mark.rule("BR-5.1")
def test_the_guide_shows_each_step_of_the_turn(view, live):
    for i, (shown, action, faces) in enumerate(TURN):
        assert view.guide.active.action == shown, f"step {i}"
        assert live.act(action, ScriptedDice(faces)) is not None, live.error
    assert view.phase.object == "Turn 2 of 15 (09:00): initiative phase"


@pytest.mark.rule("BR-6.0")
def test_initiative_odds_and_dice(view, live):
    assert view.odds.main.title == "Initiative (BR-6.0)"
    assert numbers(view) == {"Union": "50.0% (1/2)", "CSA": "50.0% (1/2)"}
    perform(view, (2,))
    assert live.state.initiative[0] == "UNION" and live.session.events[-1].physical


@pytest.mark.rule("BR-8.4b")
def test_farm_ford_odds(view, live):
    play(live, step_of("farm_ford_roll"))
    assert numbers(view) == {"yes, on 5, 6": "33.3% (1/3)", "no": "66.7% (2/3)"}
    perform(view, (1,))
    assert live.state.farm_ford_found == 0


@pytest.mark.rule("BR-8.1")
def test_the_move_form_builds_the_move_from_taps(view, live):
    play(live, step_of("move"))
    unit, path = field(view, "unit"), field(view, "path")
    assert list(unit._short.options.values()) == [SHERMAN, PORTER, KEYES] and unit.value == SHERMAN
    choose(path, ["road", "road"])
    buttons = dict(zip(path.legal.values, path._seq_buttons.objects))
    assert buttons["woods"].disabled and not buttons["road"].disabled  # 2 MP of 4 left, woods costs 3 (BR-8.1)
    assert "creek" not in buttons  # prohibited terrain (BR-8.1)
    choose(path, ["road", "woods"])
    assert view.guide.active.build() == MOVE
    perform(view)
    assert last_action(live) == MOVE and live.state.unit(SHERMAN).moved
    assert list(field(view, "unit")._short.options.values()) == [PORTER, KEYES]


@pytest.mark.rule("BR-8.4d")
def test_the_move_form_takes_a_crossing_and_shows_the_barred_ones(view, live):
    play(live, step_of("move"))
    choose(field(view, "unit"), KEYES)
    crossing = field(view, "crossing")
    assert "farm" not in crossing.legal.values and "Farm Ford" in crossing.note.object and crossing.note.visible
    choose(crossing, "sudley")
    assert view.guide.active.build() == {**MOVE, "unit": KEYES, "path": [], "crossing": "sudley"}
    perform(view)
    assert live.state.unit(KEYES).bank == "south" and live.state.union_crossed_west == 1


@pytest.mark.rule("BR-9.0")
def test_the_csa_order_roll_shows_the_column_and_the_order(view, live):
    play(live, step_of("csa_action_roll"))
    assert field(view, "union_south").value == 0
    assert view.odds.main.title == "CSA order, column none (BR-9.0)"
    assert numbers(view) == {"order A": "66.7% (2/3)", "order B": "33.3% (1/3)"}
    assert view.guide.active.build() == TURN[step_of("csa_action_roll")][1]
    perform(view, (1,))
    assert view.order.visible and view.order.object.startswith(plain("CSA order A: Attack on Centerville (BR-9.1)"))
    assert "<td class=\"now\"><b>1</b><br><small>08:30</small><br>U<br><small>order A</small></td>" in view.track.object


@pytest.mark.rule("BR-10.4", "BR-10.5", "BR-11.1")
def test_a_declared_attack_shows_the_odds_of_worked_example_9(view, live):
    """8 SP attack 4 SP in woods: P(defender retreats) 7/36, P(attacker retreats) 1/12 (digest, example 9)."""
    play(live, step_of("declare_attack"))
    assert not view.odds.main._card.visible  # no attack named yet
    choose(field(view, "attackers"), [SHERMAN, PORTER])
    choose(field(view, "defenders"), [COCKE])
    choose(field(view, "target_terrain"), "woods")
    assert view.guide.active.build() == UNION_ATTACK
    expected = {"P(defender retreats)": "19.4% (7/36)", "P(attacker retreats)": "8.3% (1/12)",
                "P(defender eliminated)": "0.0% (0)", "P(attacker eliminated)": "0.0% (0)",
                "expected hits on the defender": "0.67", "expected hits on the attacker": "0.33"}
    assert numbers(view) == expected == engine_numbers(live, UNION_ATTACK)
    assert view.odds.main.figure is not None and view.odds.second.visible and view.odds.second.figure is not None
    perform(view)
    assert last_action(live) == UNION_ATTACK
    assert view.guide.active.action == "fire" and numbers(view) == expected
    assert view.guide.panel._dice.specs == [
        ("Attacker fire: column 7-8, 8 SP = Sherman's Brigade 7 + Porter's Brigade 1; roll −1 = target in woods −1 "
         "(BR-10.4, BR-10.5)", 6), ("Defender fire: column 3-4, 4 SP = Cocke's Brigade 4 (BR-10.4)", 6)]
    perform(view, (6, 6))
    assert live.state.combat.hits_on_defenders == 2 and live.state.combat.hits_on_attackers == 1


@pytest.mark.rule("BR-10.5")
def test_an_attack_across_a_ford_takes_the_ford_modifier(view, live):
    """8 SP at -3 (woods, ford) hit only on a 6: P(defender checks) = 1/6 * 2/3, P(attacker checks) = 1/3 * 5/6."""
    play(live, step_of("declare_attack"))
    choose(field(view, "attackers"), [SHERMAN, PORTER])
    choose(field(view, "defenders"), [COCKE])
    choose(field(view, "target_terrain"), "woods")
    choose(field(view, "across_ford"), True)
    attack = {**UNION_ATTACK, "across_ford": True}
    assert view.guide.active.build() == attack
    expected = {"P(defender retreats)": "5.6% (1/18)", "P(attacker retreats)": "13.9% (5/36)",
                "P(defender eliminated)": "0.0% (0)", "P(attacker eliminated)": "0.0% (0)",
                "expected hits on the defender": "0.17", "expected hits on the attacker": "0.33"}
    assert numbers(view) == expected == engine_numbers(live, attack)


@pytest.mark.rule("BR-10.1")
def test_an_attack_the_rules_refuse_shows_why(view, live):
    play(live, step_of("declare_attack"))
    choose(field(view, "attackers"), [SHERMAN, PORTER, KEYES])
    choose(field(view, "defenders"), [COCKE])
    assert "3 chosen: choose 1 to 2 (BR-10.1)" in view.guide.panel.blocked


@pytest.mark.rule("BR-9.3", "BR-10.4")
def test_the_solitaire_csa_attack_takes_the_weakest_adjacent_stack(view, live):
    play(live, step_of("declare_attack", 2))
    assert find(view.guide.active.card, "target-advisor").visible
    find(view.guide.active.card, "adjacent-1").value = [SHERMAN]
    find(view.guide.active.card, "adjacent-2").value = [KEYES]
    click(find(view.guide.active.card, "pick-target"))
    assert "weakest adjacent stack" in find(view.guide.active.card, "target-advice").object
    assert field(view, "defenders").value == [KEYES]
    choose(field(view, "attackers"), [EVANS])
    assert view.guide.active.build() == CSA_ATTACK
    # 3 SP (column 3-4) against 2 SP (column 1-2), clear: P(defender checks) = 1/3 * 5/6, P(attacker checks) = 1/6 * 2/3
    expected = {"P(defender retreats)": "13.9% (5/36)", "P(attacker retreats)": "5.6% (1/18)",
                "P(defender eliminated)": "0.0% (0)", "P(attacker eliminated)": "0.0% (0)",
                "expected hits on the defender": "0.33", "expected hits on the attacker": "0.17"}
    assert numbers(view) == expected == engine_numbers(live, CSA_ATTACK)


@pytest.mark.rule("BR-9.4", "BR-10.3")
def test_hits_on_single_units_need_no_choice_and_br94_places_the_csa_hits(view, live):
    """CSA hits go on a Union unit they eliminate: Porter (1 SP) rather than Sherman (7 SP); a lone defender
    takes its hits with nothing to choose."""
    i = step_of("allocate_hits")
    play(live, i)
    assert not any(f.box.visible for f in view.guide.active.form.fields)
    perform(view)
    assert live.state.unit(PORTER).status == "eliminated" and live.state.unit(COCKE).sp == 2


@pytest.mark.rule("BR-10.3")
def test_the_firer_spreads_hits_over_a_two_unit_stack(store):
    roster = [ROSTER[0], ROSTER[2], {**ROSTER[4], "max_sp": 10}]
    live = LiveSession(GameSession.new(store, "bull_run", {"roster": roster}, {"solitaire": False}))
    view = BullRunView(live)
    for action, faces in (({"type": "roll_initiative"}, (5,)), ({"type": "place_reinforcements"}, ()),
                          (END_MOVEMENT, ()), ({"type": "farm_ford_roll"}, (1,)), (END_MOVEMENT, ()),
                          ({**UNION_ATTACK, "attackers": [COCKE], "defenders": [SHERMAN, KEYES]}, ()),
                          ({"type": "fire", "attack": 0}, (6, 1))):
        assert live.act(action, ScriptedDice(faces)) is not None, live.error
    spread = field(view, "on_defenders")
    assert spread.box.visible and (spread.legal.low, spread.legal.high) == (2, 2)
    choose(spread, {SHERMAN: 1, KEYES: 1})
    perform(view)
    assert (live.state.unit(SHERMAN).sp, live.state.unit(KEYES).sp) == (6, 1)


@pytest.mark.rule("BR-11.1")
def test_the_retreat_check_and_the_retreat(view, live):
    play(live, step_of("retreat_check"))
    assert numbers(view) == {"yes, on 4, 5, 6": "50.0% (1/2)", "no": "50.0% (1/2)"}
    perform(view, (4,))
    assert view.guide.active.action == "retreat"
    assert view.guide.active.build() == {"type": "retreat", "legal_hex": True, "across_ford": False}
    choose(field(view, "legal_hex"), False)
    perform(view)
    assert live.state.unit(COCKE).status == "eliminated"


@pytest.mark.rule("BR-11.2")
def test_the_union_attacker_chooses_whether_to_advance(view, live):
    play(live, step_of("advance"))
    assert field(view, "advance").box.visible and not field(view, "next_to_stronger_fresh_union").box.visible
    assert view.guide.active.build() == {"type": "advance", "advance": True}
    choose(field(view, "advance"), False)
    perform(view)
    assert last_action(live) == {"type": "advance", "advance": False}


@pytest.mark.rule("BR-9.5")
@pytest.mark.parametrize("stronger_near", [False, True])
def test_the_solitaire_csa_advance_asks_the_br95_question(view, live, stronger_near):
    play(live, step_of("advance", 2))
    assert field(view, "next_to_stronger_fresh_union").box.visible and not field(view, "advance").box.visible
    choose(field(view, "next_to_stronger_fresh_union"), stronger_near)
    action = {"type": "advance", "next_to_stronger_fresh_union": stronger_near}
    assert view.guide.active.build() == action
    perform(view)
    assert last_action(live) == action and "BR-9.5" in live.session.events[-1].rules


@pytest.mark.rule("BR-3.0")
def test_the_end_of_the_turn_marks_the_track(view, live):
    play(live, step_of("end_turn"))
    assert view.guide.active.build() == TURN[-1][1]
    perform(view)
    track = view.track.object
    assert "<td class=\"\"><b>1</b><br><small>08:30</small><br>U<br><small>order A</small></td>" in track
    assert "<td class=\"now\"><b>2</b><br><small>09:00</small>" in track
    assert "<span>SP lost: Union 2, CSA 2, D = +0</span>" in track
    assert '<div class="on">Draw</div>' in track


def test_the_track_of_a_two_player_game_has_no_orders(store):
    live = LiveSession(GameSession.new(store, "bull_run", {"roster": ROSTER}, {"solitaire": False}))
    live.act({"type": "roll_initiative"}, EnteredDice((5,)))
    track = BullRunView(live).track.object
    assert 'title="turn, clock, U or C: the side with the initiative (BR-6.0)"' in track and "order" not in track
    assert "<td class=\"now\"><b>1</b><br><small>08:30</small><br>C</td>" in track


def test_the_example_label_is_on_the_track(store):
    live = LiveSession(GameSession.new(store, "bull_run", {"roster": list(EXAMPLE_ROSTER), "example": LABEL}))
    assert track_html(live).startswith(f'<div class="example">{LABEL}</div>')


@pytest.mark.rule("BR-12.0")
@pytest.mark.parametrize("union_lost, csa_lost, band", [
    (17, 9, "CSA marginal victory"), (6, 16, "Union victory"), (4, 0, "Draw"), (0, 5, "Union marginal victory"),
    (10, 0, "CSA victory"),
])
def test_the_victory_band_follows_sp_lost(live, union_lost, csa_lost, band):
    """Digest vector 12: D = Union SP lost - CSA SP lost on the BR-12.0 table."""
    big = [{**ROSTER[0], "max_sp": 20}, {**ROSTER[3], "max_sp": 20}]
    state: GameState = live.engine.start(live.session.record.options, {"roster": big})
    state = state.with_units({u.name: replace(u, sp=20 - (union_lost if u.side == "UNION" else csa_lost))
                              for u in state.units})
    track = track_html(SimpleNamespace(state=state, session=SimpleNamespace(record=SimpleNamespace(setup={}))))
    d = union_lost - csa_lost
    assert f"<span>SP lost: Union {union_lost}, CSA {csa_lost}, D = {d:+d}</span>" in track
    assert track.count('class="on"') == 1 and f'<div class="on">{band}</div>' in track
