"""The House Divided dashboard driven without a browser: the setup editor (the players' setup in tables and fields,
a setup or map file opened, pasted or saved, the basic game's fire, the labelled EXAMPLE), and the game view: the
track, control set by tapping, the supply check, the march roll, a two-day battle through the guide's dice entry
and the step forms built from the engine's specs, the basic-rules form, border states, intervention, the odds and
tables, undo and reopening.

Expected numbers come from the digest (its tables and test vectors) or are worked out here by hand."""
from __future__ import annotations

import copy
import html
import itertools
import json
import math
import random
import re
from fractions import Fraction as F

import panel as pn
import panel_material_ui as pmui
import pytest
from bokeh.events import Tap
from bokeh.models import PanTool, Plot, WheelZoomTool

from apps.house_divided import CSA, MAP_FRAME, USA, HouseDividedView, SetupEditor, border_html, command_table_html, \
    expected_marches_html, fi_html, map_figure, outlook, outlook_figure, unit_odds_html
from companion.engine import resolve_options
from companion.session import GameSession
from companion.store import Store
from companion.ui.controls import UndoBar, odds_text
from companion.ui.live import LiveSession
from companion.ui.options import OptionsForm
from companion.ui.rules import chip
from companion.ui.shell import SessionPicker
from companion.ui.text import Text
from engines.house_divided import ENGINE
from engines.house_divided.basic import STRENGTH_KEYS
from engines.house_divided.example import LABEL, example_setup
from engines.house_divided.guide import other_steps
from tests.engines.house_divided.support import designated_setup
from tests.figures import exactly, series
from tests.widgets import choose, click, field, find, perform

pytestmark = pytest.mark.usefixtures("panel_extensions")

# Invented basic-rules numbers for these tests only (the source has none): militia 2, veteran 3, crack 4, one
# less reduced.
STRENGTH = {k: {"militia": 2, "veteran": 3, "crack": 4}[k.split("/")[1]] - k.endswith("reduced") for k in STRENGTH_KEYS}
YAML_MAP = """
boxes:
  - {id: N1, name: North One, alignment: USA, rp: 2, port: true, x: 0, y: 0}
  - {id: S1, name: South One, alignment: CSA, rp: 1, x: 1, y: 0}
lines:
  - {from: N1, to: S1, type: rail}
"""


def shown(text: str) -> str:
    """A text as the page shows it: the Markdown escapes of `plain` taken off."""
    return re.sub(r"\\(.)", r"\1", text).replace("  \n", "\n")


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


def open_view(store: Store, setup: dict | None = None, **options) -> HouseDividedView:
    session = GameSession.new(store, "house_divided", setup or example_setup(), options)
    return HouseDividedView(LiveSession(session))


@pytest.fixture
def view(store) -> HouseDividedView:
    return open_view(store)


def due(view: HouseDividedView) -> str:
    return view.guide.active.action


def numbers(view: HouseDividedView) -> dict[str, str]:
    return dict(view.odds.main.numbers)


def last(view: HouseDividedView) -> str:
    return view.live.session.events[-1].summary


def drawn_map(panel) -> Plot:
    """The map's Bokeh figure, drawn as the page draws it (with its tap listener)."""
    [figure] = panel.figure.get_root().select({"type": Plot})
    return figure


def to_battle(view: HouseDividedView) -> None:
    """Union turn 1 of the example: supply, 3 marches (a 4 in 1861), the battle at P, day 1's command."""
    perform(view)                                   # supply check: nothing out of supply
    perform(view)                                   # end the start segment
    perform(view, (4,))
    perform(view)                                   # end movement
    assert field(view, "box").value == "P"          # the one box where both sides stand
    perform(view)
    perform(view, (3, 2))                           # 1861: Union 2, CSA 3


# --- the setup editor -----------------------------------------------------------------------------------

@pytest.mark.rule("HD-8")
def test_an_empty_editor_asks_for_the_map():
    editor = SetupEditor()
    assert editor.note.severity == "info" and shown(editor.note.object).startswith("Enter your map's boxes")


@pytest.mark.rule("HD-8")
def test_the_example_is_labelled_and_starts_the_engines_example():
    editor = SetupEditor()
    click(find(editor, "load-example"))
    assert editor.note.severity == "warning" and shown(editor.note.object).startswith(LABEL)
    assert "11 boxes, 10 lines: the map is valid" in shown(editor.note.object)
    assert editor.ready.severity == "success"
    setup = editor.setup()
    assert setup["label"] == LABEL and setup["map"]["label"] == LABEL
    assert ENGINE.start(None, setup).to_dict() == ENGINE.start(None, example_setup()).to_dict()


@pytest.mark.rule("HD-8")
def test_an_edited_example_is_no_longer_labelled():
    editor = SetupEditor()
    editor.load(example_setup())
    click(find(editor, "add-box"))
    table = editor.tables["boxes"].table.value.copy()
    table.loc[len(table) - 1, ["id", "name"]] = ["Z", "Zed"]
    editor.tables["boxes"].table.value = table
    assert editor.tables["boxes"].rows()[-1] == {"id": "Z", "name": "Zed", "alignment": "neutral", "rp": 0,
                                                  "port": False, "fort": False, "x": 5, "y": -2}  # right of the others
    assert "label" not in editor.setup() and "label" not in editor.setup()["map"]
    assert "Box 'Z' has no line to any other box" in shown(editor.note.object)


@pytest.mark.rule("HD-2", "HD-6.2")
def test_the_calendar_and_the_southern_cities_go_into_the_setup():
    """The players' calendar and their 7 largest Southern cities (boxes of their map) start the game with them."""
    editor = SetupEditor()
    editor.load(example_setup())
    cities = find(editor, "setup-southern_cities")
    assert cities.options == [r["id"] for r in example_setup()["map"]["boxes"]]
    cities.value = ["R1", "R2"]
    editor.track.widgets["calendar"].value = "Jul 1861\nSep 1861\nNov 1861"
    assert editor.ready.severity == "success"
    state = ENGINE.start(None, editor.setup())
    assert state.southern_cities == ("R1", "R2") and state.calendar == ("Jul 1861", "Sep 1861", "Nov 1861")


@pytest.mark.rule("HD-2")
def test_a_calendar_entry_without_its_year_is_named():
    editor = SetupEditor()
    editor.load(example_setup())
    editor.track.widgets["calendar"].value = "Jul 1861\nSeptember"
    assert editor.ready.severity == "error"
    assert shown(editor.ready.object) == "Not ready: Calendar entry 'September' must end with its year, 1861 to 1865 (HD-2)"


@pytest.mark.rule("HD-8")
def test_a_yaml_file_fills_the_tables():
    editor = SetupEditor()
    editor.file.upload.value = YAML_MAP.encode()
    assert editor.entered()["map"] == {
        "boxes": [{"id": "N1", "name": "North One", "alignment": "USA", "rp": 2, "port": True,
                   "fort": False, "x": 0, "y": 0},
                  {"id": "S1", "name": "South One", "alignment": "CSA", "rp": 1, "port": False,
                   "fort": False, "x": 1, "y": 0}],
        "lines": [{"from": "N1", "to": "S1", "type": "rail"}]}
    assert "2 boxes, 1 lines: the map is valid" in shown(editor.note.object)
    assert "No box for: washington, richmond" in shown(editor.note.object)  # a warning, not a refusal


@pytest.mark.rule("HD-8")
@pytest.mark.parametrize("change, message", [
    (lambda m: m["lines"].append({"from": "A", "to": "Q", "type": "rail"}),
     "Line 11 (A–Q rail) is dangling: there is no box 'Q'"),
    (lambda m: m["boxes"].append(dict(m["boxes"][0])), "Box 'R1' is listed twice: box ids must be unique"),
    (lambda m: m["boxes"][0].update(rp=-1), "Box 'R1': 'rp' (recruitment points) must be 0 or more, not -1"),
    (lambda m: m["lines"][0].update(type="canal"), "'type' must be one of rail, river, road, not 'canal'"),
], ids=["dangling line", "duplicate box", "bad rp", "bad line type"])
def test_a_bad_map_file_is_refused_with_its_reason_and_the_tables_kept(change, message):
    editor = SetupEditor()
    editor.load(example_setup())
    data = copy.deepcopy(example_setup()["map"])
    change(data)
    editor.file.paste.value = json.dumps(data)
    click(find(editor, "read-setup"))
    assert editor.note.severity == "error"
    assert message in shown(editor.note.object) and shown(editor.note.object).startswith("The file is refused")
    assert "label" in editor.entered() and editor.entered()["map"]["boxes"][0]["id"] == "R1"


@pytest.mark.rule("HD-2")
@pytest.mark.parametrize("text, message", [
    ("{boxes: [", "not valid JSON"), ("[1, 2]", "The setup file is a table of the setup's entries"),
    ("a: &x [1]\nb: *x", "anchor"), ("x" * 2_000_000, "at most 1000 kB is read"),
    ('{"mm": {"USA": "many"}}', "Union MM must be a whole number"), ('{"units": [{"name": "A", "colour": "red"}]}',
                                                                    "A unit has no field 'colour'"),
    ('{"year": 1900}', "The year must be"), ('{"basic_rules": {"firing_order": "random"}}', "The firing order")])
def test_unreadable_or_hostile_text_is_refused_and_changes_nothing(text, message):
    editor = SetupEditor()
    editor.load(example_setup())
    before = editor.entered()
    editor.file.paste.value = text
    click(find(editor, "read-setup"))
    assert editor.note.severity == "error" and message in shown(editor.note.object)
    assert editor.entered() == before


@pytest.mark.rule("HD-2")
def test_a_unit_on_a_box_the_map_lacks_is_named_before_the_start():
    editor = SetupEditor()
    editor.load(example_setup())
    table = editor.tables["units"].table.value.copy()
    table.loc[0, "box"] = "nowhere"
    editor.tables["units"].table.value = table
    assert editor.ready.severity == "error" and "There is no box 'nowhere' on the map" in shown(editor.ready.object)


@pytest.mark.rule("HD-8")
def test_no_cell_of_a_new_row_shows_nan():
    """Issue 16: a new box, line, unit or leader has its defaults and empty cells, never NaN."""
    editor = SetupEditor()
    click(find(editor, "add-box"))
    assert editor.tables["boxes"].rows() == []      # no entry until the player changes it
    assert editor.tables["boxes"]._cells() == [{"alignment": "neutral", "rp": 0, "port": False, "fort": False,
                                                "x": 0, "y": 0}]
    editor.load(example_setup())                     # numbers in the columns: an empty cell is still not NaN
    for what in ("box", "line", "unit", "leader"):
        click(find(editor, f"add-{what}"))
    for table in editor.tables.values():
        cells = table.table.value.to_dict("records")[-1].values()
        assert not any(isinstance(v, float) and v != v for v in cells) and "nan" not in str(list(cells)).lower()


@pytest.mark.rule("HD-2")
def test_a_saved_setup_opens_as_the_same_setup(tmp_path):
    """Issue 16: the whole setup saved as a file (JSON) and opened again gives the same setup, the EXAMPLE's label
    included; a setup of the players' own (no label) too."""
    editor = SetupEditor()
    editor.load(example_setup())
    editor.track.widgets["calendar"].value = "Jul 1861\nSep 1861"
    editor.fire.widgets["firing_order"].value = "simultaneous"
    saved = editor.file.save.callback().getvalue()
    again = SetupEditor()
    again.file.upload.value = saved.encode()
    assert again.entered() == editor.entered() and again.entered()["label"] == LABEL
    assert json.loads(saved) == editor.entered() and again.ready.severity == "success"
    table = again.tables["units"].table.value.copy()
    table.loc[0, "name"] = "My own"
    again.tables["units"].table.value = table
    third = SetupEditor()
    third.file.read(again.file.save.callback().getvalue())
    assert third.entered() == again.entered() and third.entered()["units"][0]["name"] == "My own"


@pytest.mark.rule("HD-4.10")
def test_the_basic_games_fire_is_asked_for_in_the_setup(store):
    """Issue 16: the fire settings entered with the setup start the game with basic fire configured."""
    editor = SetupEditor()
    editor.load(example_setup())
    assert any("advanced rules take the fire numbers from the basic rulebook" in str(getattr(x, "object", ""))
               for x in editor._layout.select(Text))
    assert "basic_rules" not in editor.entered()
    for key, value in STRENGTH.items():
        editor.fire.widgets[key].value = value
    editor.fire.widgets["firing_order"].value = "simultaneous"
    editor.fire.widgets["entrenchment"].value = "threshold"
    assert editor.entered()["basic_rules"]["strength"] == STRENGTH and editor.ready.severity == "success"
    view = open_view(store, editor.setup())
    assert view.live.state.basic.filled and "basic fire configured" in view.track.object
    assert view.basic.fields.widgets["firing_order"].value == "simultaneous"


def test_starting_shows_progress_until_the_start_is_answered():
    """Issue 16: the page marks Start busy on its tap (in the browser); the server's answer (setup() read by the
    shell) clears it."""
    editor = SetupEditor()
    assert "start-game" in editor.busy._esm and "Building the game" in editor.busy._esm
    assert editor.busy in editor._layout.objects and editor.ready in editor._layout.objects
    editor.load(example_setup())
    done = editor.busy.done
    editor.setup()
    assert editor.busy.done == done + 1


def test_the_setup_editor_is_one_page_of_sections_in_the_order_a_player_fills_them(store):
    """Issue 16: no sub-tabs: the sections follow one another under numbered headings, each heading just above what
    it asks for (the map's boxes, their lines, the units, the leaders, the single entries, the basic game's fire),
    the note on the entries above them, whether the game can start and its progress below, and Start the last thing
    on the new-game page."""
    editor = SetupEditor()
    layout = editor._layout
    assert not layout.select(lambda o: isinstance(o, (pn.Tabs, pmui.Tabs)))
    parts = layout.objects
    heads = [i for i, x in enumerate(parts) if isinstance(x, Text) and re.match(r"\d+\. ", str(x.object))]
    assert [parts[i].object for i in heads] == [
        "1. The map's boxes", "2. The lines between boxes", "3. Units, where they stand", "4. Leaders",
        "5. MM, year, turn, calendar, cities and ports", "6. Basic-game fire (HD-4.10)"]
    for i, key in zip(heads, ("boxes", "lines", "units", "leaders")):
        assert parts[i + 1].select(pn.widgets.Tabulator) == [editor.tables[key].table]
    for i, form in ((heads[4], editor.track), (heads[5], editor.fire)):
        shown = {id(w) for w in parts[i + 1].select(pn.widgets.WidgetBase)}
        assert {id(w) for w in form.widgets.values()} <= shown
    assert parts.index(editor.note) < heads[0] and parts[-2:] == [editor.ready, editor.busy]
    picker = SessionPicker(store, ENGINE, editor, lambda session: None).__panel__()
    [tabs] = picker.select(pmui.Tabs)
    new_game = tabs.objects[0]
    assert any(x is layout for x in new_game.objects) and new_game.objects[-1].label == "Start the game"


def test_the_new_session_form_offers_every_option_with_the_digests_default():
    """Section 7's Opt items and the eleven on/off rules (S1-S10, S7 twice) come from the engine's options."""
    values = OptionsForm(ENGINE.options).values()
    assert values == resolve_options(ENGINE.options, None)
    assert {"supply", "command", "containment", "coastal_defence", "washington", "battle_command", "morale",
            "desertion", "leaders", "border_states", "intervention", "carry", "foraging", "fi_trigger"} <= set(values)


# --- the game view ------------------------------------------------------------------------------------------

@pytest.mark.rule("HD-2")
def test_the_track_shows_turn_year_and_both_sides_mm(view):
    track = view.track.object
    assert html.escape(LABEL) in track
    assert '<div class="now">1</div><div>2</div>' in track and '<div class="now">1861</div>' in track
    assert "Union MM <b>34</b>" in track and "CSA MM <b>29</b>" in track and "<span>gap</span><span>5</span>" in track
    assert "basic fire unconfigured (HD-4.10)" in track


@pytest.mark.rule("HD-8")
def test_control_is_set_by_tapping_a_box_button_or_the_graph(view):
    live, panel = view.live, view.map
    panel.brush.value = CSA
    click(find(panel, "box-U1"))
    assert live.state.controller("U1") == CSA and last(view) == "Turn 1 (1861), Union: U1 now held by CSA"
    assert find(panel, "box-U1").label == "U1 · CSA"
    panel.brush.value = USA
    figure = drawn_map(panel)
    figure._trigger_event(Tap(figure, x=-2.95, y=0.05))  # U1 is drawn at (-3, 0), its x,y in the example map
    assert live.state.controller("U1") == USA
    count = len(live.session.events)
    figure._trigger_event(Tap(figure, x=10.0, y=10.0))   # far from every box: nothing happens
    assert len(live.session.events) == count
    panel.brush.value = "look"
    click(find(panel, "box-P"))
    assert len(live.session.events) == count and panel.selected == "P"
    assert "Example P (CSA port taken by landing)" in panel.details.object and "contained (HD-5.4)" in \
        panel.details.object


def test_a_refused_tap_names_the_rule_and_changes_nothing(view):
    before = view.live.state
    view.map.brush.value = USA
    click(find(view.map, "box-U1"))                   # already the Union's
    assert view.live.error.endswith("U1 is already held by Union (HD-8)") and view.live.state is before


@pytest.mark.rule("HD-5.1")
def test_the_supply_check_lists_the_stack_that_loses_a_unit_and_why(view):
    """With U1 taken, Washington's friendly network is itself alone: X-Washington is a road (A18), U1 is the
    CSA's; 1 source (Washington) of the 2 needed and no port in reach: one unit lost. P is a port: supplied."""
    view.map.brush.value = CSA
    click(find(view.map, "box-U1"))
    assert due(view) == "check_supply"
    assert "as things stand, one unit lost in: <b>washington</b>" in view.map.supply.object
    perform(view)
    assert view.live.state.supply_due == ("washington",)
    report = view.map.supply.object
    assert "Must still lose one unit in: <b>washington</b>" in report
    assert "X–washington is a road (roads carry no supply in this game)" in report and "no port in reach" in report
    assert "P is a port: the Union stack is supplied by sea" in report
    assert due(view) == "supply_loss"
    assert field(view, "unit").legal.values == ("USA 2", "USA 3")
    assert [c.label for c in field(view, "unit").legal.options] == ["USA 2 at washington", "USA 3 at washington"]
    perform(view)
    assert view.live.state.unit("USA 2").status == "eliminated"
    assert "Must still lose one unit in: <b>none</b>" in view.map.supply.object


def test_supply_off_says_so(store):
    view = open_view(store, supply=False)
    assert due(view) == "end_start" and "supply rule (S1) is off" in view.map.supply.object


@pytest.mark.rule("HD-4.1")
def test_the_march_roll_shows_its_odds(view):
    """1861 Union column of the Command Table: 2, 2, 2, 3, 3, 4 marches."""
    perform(view)
    perform(view)
    assert due(view) == "roll_marches"
    assert numbers(view) == {"expected marches": "2.67", "P(2 marches)": "50.0% (1/2)",
                             "P(3 marches)": "33.3% (1/3)", "P(4 marches)": "16.7% (1/6)"}
    perform(view, (6,))
    assert view.live.state.marches_left == 4 and "marches left 4 (die 6: 4 marches)" in view.track.object


@pytest.mark.rule("HD-4.2", "HD-5.6", "HD-4.4", "HD-4.6", "HD-4.10")
def test_a_two_day_battle_with_hits_entered_at_the_table(view):
    """Day 1 (1861): Union rolls 3 -> 2, CSA 2 -> 3. Day 2: Union 5 -> 3 + ceil(2/2) = 4, CSA 1 -> 2 + ceil(3/2) =
    4 (HD-4.2). Morale (TV-8, militia 1861): USA 4 in the open 2/3, CSA 9 entrenched 1/2. Desertion: USA 4 won,
    routed: more than 2 on the die, 2/3; CSA 9 lost, not routed: +1 -1, 2/3; so 0, 1, 2 lost: 1/9, 4/9, 4/9."""
    to_battle(view)
    assert "<b>Day 1</b>, round 1" in view.board.object and view.board.visible
    assert due(view) == "record_fire"
    assert field(view, "units").value == ["USA 4", "USA 5"] and field(view, "side").value == USA
    for _ in range(4):
        perform(view)
        perform(view)
        perform(view)                               # next round
    assert due(view) == "battle_command" and view.odds.main.title == "Battle command, day 2 (HD-4.2)"
    assert numbers(view)["Union: expected C"] == f"{float(F(8, 3) + 1):.2f}"  # the 1861 Union column + 1
    perform(view, (5, 1))
    board = view.board.object
    assert "<b>Day 2</b>, round 5" in board
    assert f"<tr><th>command C today {chip('HD-4.2')}</th><td>4</td><td>4</td></tr>" in board
    assert f"<tr><th>fire limit min(C, 8) {chip('HD-5.6')}</th><td>4</td><td>4</td></tr>" in board
    assert "<tr><th>carry to tomorrow ⌈X/2⌉</th><td>+2</td><td>+2</td></tr>" in board
    # day 3 would be the table + 2: Union 1861 {4: 1/2, 5: 1/3, 6: 1/6}, CSA 1861 {4: 1/6, 5: 1/3, 6: 1/3, 7: 1/6}
    assert "<tr><th>tomorrow&#x27;s fire limit, expected</th><td>4.67</td><td>5.50</td></tr>" in board
    assert "<tr><th>tomorrow: P(8 units fire)</th><td>0.0% (0)</td><td>0.0% (0)</td></tr>" in board
    for _ in range(2):
        choose(field(view, "hits"), 1)
        perform(view)
    assert field(view, "side").value == USA and field(view, "units").value == ["USA 4"]
    perform(view)
    assert field(view, "side").value == CSA and field(view, "units").value == ["CSA 9"]
    perform(view)
    assert due(view) == "morale_checks"
    assert numbers(view) == {"P(at least one routs)": "83.3% (5/6)", "P(USA 4 routs)": "66.7% (2/3)",
                             "P(CSA 9 routs)": "50.0% (1/2)"}
    perform(view, (5, 1))
    assert f"<tr><th>routed {chip('HD-4.4')}</th><td>USA 4</td><td>-</td></tr>" in view.board.object
    view.guide.choose("retreat")
    choose(field(view, "side"), CSA)
    assert field(view, "to").value == "R2"           # the box joined to P by a line first
    perform(view)
    assert due(view) == "desertion_checks"
    assert numbers(view) == {"expected units lost": "1.33", "P(0 units lost)": "11.1% (1/9)",
                             "P(1 units lost)": "44.4% (4/9)", "P(2 units lost)": "44.4% (4/9)"}
    assert "Decided: Union victory" in view.board.object
    perform(view, (2, 3))
    assert view.live.state.unit("CSA 9").status == "eliminated" and view.live.state.battle is None
    assert not view.board.visible


@pytest.mark.rule("HD-4.10", "HD-4.3")
def test_basic_fire_after_the_form_is_filled(store):
    """Unconfigured, fire is entered as hits; once the form is saved the companion rolls it. Union militia of
    strength 2 fire at the entrenched CSA 9 (-1): each hits on a 1, P(at least 1 of 2) = 11/36. Lee (rating 3,
    the source's example) puts 1 point on CSA 9: 2 + 1 = 3 against the Union, not entrenched: 1/2."""
    setup = example_setup()
    setup["leaders"] = [{"name": "Lee", "front": 3, "box": "P"}]
    view = open_view(store, setup)
    basic = view.basic
    assert basic.status.severity == "warning" and "Basic fire is unconfigured" in shown(basic.status.object)
    assert basic.panel.blocked == ""
    for key, value in STRENGTH.items():
        basic.fields.widgets[key].value = value
    basic.fields.widgets["firing_order"].value = "simultaneous"
    basic.fields.widgets["entrenchment"].value = "threshold"
    click(basic.panel._button)
    assert view.live.error == "" and view.live.state.basic.filled
    assert basic.status.severity == "success" and "basic fire configured" in view.track.object
    to_battle(view)
    assert due(view) == "fire"
    assert numbers(view) == {"expected hits": "0.33", "P(at least 1 hit)": f"30.6% ({F(11, 36)})"}
    perform(view, (1, 6))
    assert view.live.state.battle.of(CSA).hits_due == 1
    assert field(view, "side").value == CSA and field(view, "units").value == ["CSA 9"]
    bonus = field(view, "bonus")
    assert bonus.box.visible and [c.label for c in bonus.legal.options] == ["CSA 9"] and bonus.legal.caps == (3,)
    choose(bonus, {"CSA 9": 1})
    assert numbers(view) == {"expected hits": "0.50", "P(at least 1 hit)": "50.0% (1/2)"}
    assert view.guide.active.build() == {"type": "fire", "side": CSA, "units": ["CSA 9"], "bonus": {"CSA 9": 1}}
    plus = bonus._rows.objects[0].objects[3]
    for _ in range(4):
        click(plus)
    assert bonus.value == {"CSA 9": 3}                # Lee's rating 3 is all he splits (HD-4.3)


@pytest.mark.rule("HD-4.8", "HD-5.8")
def test_the_border_state_panel_gives_each_reason_and_the_odds(store):
    """TV-9: Missouri in 1861 with D = 5: +2, succeeds on 2+, 5/6. Kentucky: Louisville is the Union's."""
    setup = designated_setup(control={"st_joseph": CSA, "springfield": CSA, "st_louis": CSA}, mm=(30, 25))
    view = open_view(store, setup)
    assert view.border_plot.object is None  # drawn once its tab is opened
    view.tabs.active = 2
    text = view.border.object
    assert "<td>Missouri</td><td>open</td><td><span class=\"ok\">yes" in text
    # Missouri joins within 8 CSA turns, the modifiers held: 1 - (1/6)^8; the curve gives each n
    assert (f"MM gap 5 or less +1, in 1861 +1; more than 3 needed</td><td>83.3% (5/6); within 8 CSA turns "
            f"{odds_text(1 - F(1, 6) ** 8)}</td>") in text
    curve = series(view.border_plot.object)
    assert list(curve) == ["Missouri"] and list(curve["Missouri"].items())[:2] == [
        (1, str(F(5, 6))), (2, str(1 - F(1, 6) ** 2))]
    assert "Kentucky rolls only when the CSA controls all its recruitment cities; not louisville" in text


def test_border_states_on_the_example_map_need_their_boxes(view):
    assert "The map has no box for st_joseph: designate it to roll for Missouri" in border_html(view.live.state)


@pytest.mark.rule("HD-5.9", "HD-A15")
def test_the_fi_panel_gives_each_failing_condition_with_its_reason(view):
    text = fi_html(view.live.state)
    assert "|34 - 29| = 5 &gt; 3" in text                           # condition 1
    assert "the CSA does not control Washington; the CSA holds no Union city with 2+ recruitment points" in text
    assert "the USA holds no CSA 2+ RP city" in text                # condition 3 holds: n = 0
    assert "Not all conditions are met now" in text


@pytest.mark.rule("HD-5.9", "HD-A15")
def test_tv10_the_fi_conditions_met(store):
    """TV-10: MM 30/28; the CSA holds Washington and a Union 2+ RP city; the USA holds a CSA one: met (A15 (a))."""
    setup = designated_setup(control={"washington": CSA, "PHL": CSA, "ATL": USA}, mm=(30, 28))
    text = fi_html(open_view(store, setup).live.state)
    assert "All three conditions are met now" in text and "not met" not in text


@pytest.mark.rule("HD-4.7")
def test_the_washington_odds(view):
    """MM 34 loses max(2, d): 32 on 1 or 2, then 31, 30, 29, 28 (TV-4): in the Border & Europe tab and the step."""
    view.tabs.active = 2
    assert exactly(view.washington.object) == {"28": "1/6", "29": "1/6", "30": "1/6", "31": "1/6", "32": "1/3"}
    view._form("washington_loss").show()
    assert view.odds.main.title == "Washington has fallen (HD-4.7): Union MM now 34"
    assert exactly(view.odds.main.figure) == {"28": "1/6", "29": "1/6", "30": "1/6", "31": "1/6", "32": "1/3"}


@pytest.mark.rule("HD-4.1", "HD-4.4", "HD-4.6")
def test_the_tables_tab(view):
    """The 1861-1865 Command Table's 6 row (Union/CSA); rout on a d6 (-1 sheltered) above morale; desertion on a
    d6 +1 if lost -1 if not routed above morale (1862: crack 5, veteran 4)."""
    table = command_table_html(view.live.state)
    assert '<tr><th>6</th><td class="now">4/5</td><td>4/5</td><td>5/6</td><td>5/5</td><td>6/5</td></tr>' in table
    odds = unit_odds_html(1862)
    assert "<tr><td>crack (morale 5)</td><td>16.7% (1/6)</td><td>0.0% (0)</td><td>33.3% (1/3)</td>" in odds
    assert "<tr><td>veteran (morale 4)</td><td>33.3% (1/3)</td><td>16.7% (1/6)</td><td>50.0% (1/2)</td>" in odds
    view.tabs.active = 4
    assert view.tables.object == table and "militia" in view.units.object


@pytest.mark.rule("HD-4.1")
def test_the_expected_marches_of_each_year(view):
    """The digest's column sums of the Command Table over the six faces: Union 16, 18, 21, 24, 27; CSA 21, 24, 27,
    24, 21 (so 1861: Union 16/6 = 8/3, CSA 21/6 = 7/2), this year (1861) marked."""
    table = expected_marches_html(1861)
    assert '<tr><th>Union</th><td class="now">8/3</td><td>3</td><td>7/2</td><td>4</td><td>9/2</td></tr>' in table
    assert '<tr><th>CSA</th><td class="now">7/2</td><td>4</td><td>9/2</td><td>4</td><td>7/2</td></tr>' in table
    assert view.marches.object == table


@pytest.mark.rule("HD-4.2", "HD-5.6")
def test_the_fire_limit_outlook_follows_tv6():
    """TV-6, USA 1862: day 2 C is 6 with 2/9, day 3 C is 7 with 5/27 (so P(limit >= 6) and P(limit >= 7))."""
    curves = series(outlook_figure(1862, USA, 0))
    _, (year, side, leaders), shown = outlook(1862)                 # the figure follows the year, side and L chosen
    assert (year.value, side.value, leaders.value) == (1862, USA, 0) and series(shown.object) == curves
    drawn = shown.object
    side.value, leaders.value = CSA, 2
    assert shown.object is drawn and series(drawn) == series(outlook_figure(1862, CSA, 2)) != curves
    assert drawn.title.text.endswith("CSA 1862")                    # its curves and title redrawn in the same figure
    assert curves["day 2"][6] == "2/9" and curves["day 2"][7] == "0"
    assert curves["day 3"][7] == "5/27" and curves["day 1"][4] == "1/3"


@pytest.mark.rule("HD-8")
def test_the_map_figure_colours_control_and_supply(view):
    overlay = map_figure(view.live.state, "P")
    graph, rings, chosen, labels = overlay
    nodes = {row[2]: row for row in graph.nodes.data.itertuples(index=False)}
    assert nodes["U1"][4] == "Union" and nodes["R1"][4] == "CSA" and nodes["europe"][4] == "nobody"
    assert len(graph.data) == 10                                     # the example's ten lines
    assert sorted(tuple(r) for r in rings.data.itertuples(index=False)) == [(-2.0, 0.0, "in supply"),
                                                                         (3.0, 0.0, "in supply")]
    assert [tuple(r) for r in chosen.data.itertuples(index=False)] == [(3.0, 0.0)]
    assert overlay.opts.get().kwargs["title"] == "EXAMPLE map: control and Union supply"


@pytest.mark.rule("HD-8")
def test_the_map_scrolls_the_page_until_zoom_is_turned_on_and_a_tap_works_either_way(view):
    """No drag or wheel tool is active at first (a finger or a wheel on the map scrolls the page); the switch turns
    pan and wheel zoom on, also after a redraw, and off again; a tap on a box shows it in both."""
    panel = view.map
    figure = drawn_map(panel)
    bar = figure.toolbar
    assert bar.active_drag is None and bar.active_scroll is None
    panel.zoom.value = True
    assert isinstance(bar.active_drag, PanTool) and isinstance(bar.active_scroll, WheelZoomTool)
    figure._trigger_event(Tap(figure, x=3.0, y=0.0))     # P, drawn at (3, 0): the map redrawn with P chosen
    assert panel.selected == "P" and isinstance(bar.active_drag, PanTool) and isinstance(bar.active_scroll,
                                                                                          WheelZoomTool)
    panel.zoom.value = False
    assert bar.active_drag is None and bar.active_scroll is None
    figure._trigger_event(Tap(figure, x=-3.0, y=0.0))    # U1
    assert panel.selected == "U1"


# How big a label is drawn, approximately (a sans-serif font): a character 0.6 of the font size wide, a line 1.2 of
# it high; a box's mark is its supply ring, 46 px across, with half the ring's 5 px line: a circle of radius 25.5 px.
CHAR, LINE, RING = 0.6, 1.2, 25.5


def label_boxes(overlay, frame) -> tuple[list, list]:
    """The labels' boxes and the boxes' marks, in pixels of a plot frame of `frame` (width, height): the positions of
    the figure's labels and points, its font size and its x and y limits."""
    graph, _, _, labels = overlay
    kwargs, font = overlay.opts.get().kwargs, float(labels.opts.get().kwargs["text_font_size"].removesuffix("px"))
    (x0, x1), (y0, y1) = kwargs["xlim"], kwargs["ylim"]

    def px(x, y):
        return (x - x0) * frame[0] / (x1 - x0), (y - y0) * frame[1] / (y1 - y0)
    boxes = []
    for x, y, text in labels.data.itertuples(index=False):
        (cx, cy), w, h = px(x, y), CHAR * font * len(text), LINE * font
        boxes.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    return boxes, [px(x, y) for x, y, *_ in graph.nodes.data.itertuples(index=False)]


def assert_apart(boxes, marks, frame) -> None:
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    for box, (mx, my) in itertools.product(boxes, marks):
        nearest = (min(max(mx, box[0]), box[2]), min(max(my, box[1]), box[3]))
        assert math.dist(nearest, (mx, my)) >= RING, (box, (mx, my))
    assert all(b[0] >= 0 and b[1] >= 0 and b[2] <= frame[0] and b[3] <= frame[1] for b in boxes)


def dense_map(count: int = 30, seed: int = 7) -> dict:
    """A setup whose map has `count` boxes at random places in a 6 x 4 area, a road from each to the next."""
    rng = random.Random(seed)
    boxes = [{"id": f"B{i}", "name": f"Box {i}", "alignment": "neutral", "rp": 0, "port": False, "fort": False,
              "x": round(rng.uniform(0, 6), 2), "y": round(rng.uniform(0, 4), 2)} for i in range(1, count + 1)]
    lines = [{"from": f"B{i}", "to": f"B{i + 1}", "type": "road"} for i in range(1, count)]
    return {"map": {"boxes": boxes, "lines": lines}, "units": [], "leaders": [], "mm": {"USA": 10, "CSA": 10}}


@pytest.mark.rule("HD-8")
@pytest.mark.parametrize("frame", [MAP_FRAME, (MAP_FRAME[0] * 2, MAP_FRAME[1]), (MAP_FRAME[0], MAP_FRAME[1] * 1.5)])
def test_the_example_maps_labels_cover_no_label_and_no_box(view, frame):
    """At the smallest frame the map is drawn in on a tablet, and at larger ones: every box of the example has its
    label, with its units where there is room nearer it than any other box, and none covers another or a box's mark."""
    overlay = map_figure(view.live.state, "P")
    boxes, marks = label_boxes(overlay, frame)
    assert_apart(boxes, marks, frame)
    texts = list(overlay.get(3).data.iloc[:, 2])
    assert len(texts) == 11 and "washington U2 C0" in texts and "C U0 C3" in texts
    assert "A" in texts        # "A U0 C2" fits only nearer R2 than A: its id alone (its units in the hover)


@pytest.mark.rule("HD-8")
@pytest.mark.parametrize("seed", [7, 11])
def test_a_dense_maps_labels_cover_no_label_and_no_box(seed):
    """30 boxes at random on a small area: smaller text, some labels the id alone or left out, none covering
    another label or a box's mark."""
    overlay = map_figure(ENGINE.start(None, dense_map(seed=seed)))
    boxes, marks = label_boxes(overlay, MAP_FRAME)
    assert_apart(boxes, marks, MAP_FRAME)
    assert len(boxes) >= 22


def test_undo_from_the_shell_and_a_reopened_session_show_the_same_game(view, store):
    view.map.brush.value = CSA
    click(find(view.map, "box-U1"))
    undo = UndoBar(view.live)
    click(undo._undo)
    assert view.live.state.controller("U1") == USA and find(view.map, "box-U1").label == "U1 · Union"
    click(undo._redo)
    perform(view)
    again = HouseDividedView(LiveSession(GameSession.open(store, view.live.session.id)))
    assert again.map.supply.object == view.map.supply.object and again.track.object == view.track.object
    assert due(again) == "supply_loss"


@pytest.mark.rule("HD-6.3", "HD-5.7")
def test_the_mm_change_is_offered_within_its_range_at_any_time(view):
    """An MM change (HD-6.3) is open beside the due step; the stepper stops at the range the engine gives."""
    view.guide.choose("adjust_mm")
    assert due(view) == "adjust_mm" and field(view, "side").value == USA
    change = field(view, "change")
    assert (change.legal.low, change.legal.high) == (-34, 965)
    choose(change, -3)
    choose(field(view, "reason"), "lost a city")
    perform(view)
    assert view.live.state.mm_usa == 31 and "Union MM <b>31</b>" in view.track.object
    assert "place_leader" not in [d.action for d in other_steps(view.live.state)]   # Lee is on the map (HD-5.7)


def test_a_tab_is_filled_when_first_opened_and_then_kept(view):
    assert view.tabs[0].objects and not view.tabs[1].objects
    view.tabs.active = 1
    [shown] = view.tabs[1].objects
    view.tabs.active = 0
    view.tabs.active = 1
    assert view.tabs[1].objects == [shown]


@pytest.mark.rule("HD-4.10")
def test_the_basic_rules_form_follows_undo(view):
    basic = view.basic
    for key, value in STRENGTH.items():
        basic.fields.widgets[key].value = value
    basic.fields.widgets["firing_order"].value = "attacker_first"
    basic.fields.widgets["entrenchment"].value = "none"
    click(basic.panel._button)
    assert view.live.state.basic.firing_order == "attacker_first"
    view.live.undo()
    assert not view.live.state.basic.filled
    assert basic.fields.widgets["firing_order"].value is None and basic.fields.widgets["inf/crack/full"].value is None
    assert basic.status.severity == "warning"


@pytest.mark.rule("HD-5.7", "HD-5.9", "HD-4.11")
def test_the_march_form_offers_only_what_the_engine_allows(store):
    """The march form's lists come from the engine: leaders ride along (no march, one of their 2 march-moves
    each, HD-5.7), never offered once their 2 are made; no march to Europe (HD-5.9); a landing only to a port."""
    setup = example_setup()
    setup["leaders"] = [{"name": "Grant", "front": 2, "box": "washington"}]
    view = open_view(store, setup)
    perform(view)
    perform(view)
    perform(view, (6,))                             # 1861 Union: 4 marches
    view.guide.choose("march")
    choose(field(view, "units"), ["USA 2"])
    to = field(view, "to").legal.values
    assert "europe" not in to and "washington" not in to            # no march to Europe (HD-5.9), nor to stay
    leaders = field(view, "leaders")
    assert leaders.legal.values == ("Grant",) and "march-moves" in leaders.param.label
    landings = []
    for box in to:
        choose(field(view, "to"), box)
        landings += [box] if True in field(view, "amphibious").legal.values else []
    assert landings == ["U1", "R3", "P"]                            # the example's ports
    choose(field(view, "to"), "X")
    choose(leaders, ["Grant"])
    perform(view)
    assert view.live.state.leader("Grant").moves == 1
    view.guide.choose("move_leader")
    assert field(view, "leader").legal.values == ("Grant",) and "X" not in field(view, "to").legal.values
    perform(view)
    assert view.live.state.leader("Grant").moves == 2
    view.guide.choose("march")
    choose(field(view, "units"), [u.name for u in view.live.state.units_in(view.live.state.leader("Grant").box, USA)][:1])
    assert field(view, "leaders").legal is None or field(view, "leaders").legal.values == ()
    assert "move_leader" not in [d.action for d in other_steps(view.live.state)]


@pytest.mark.rule("HD-3")
def test_the_retreat_form_offers_no_enemy_held_box(view):
    """A retreat goes only where the enemy neither holds nor stands: from P the CSA may not go to the Union's X
    or Washington, the Union not to the CSA's R2."""
    to_battle(view)
    for _ in range(2):
        perform(view)
    view.guide.choose("retreat")
    choose(field(view, "side"), CSA)
    assert {"X", "washington", "U1", "P", "europe"}.isdisjoint(field(view, "to").legal.values)
    choose(field(view, "side"), USA)
    assert "R2" not in field(view, "to").legal.values and "X" in field(view, "to").legal.values
