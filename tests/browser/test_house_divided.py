"""A House Divided in a real browser at tablet size: the EXAMPLE map, control set by tapping a box, the supply
check with its explanation, a two-day battle with dice entered at the table, desertion, undo, reload; a map file
whose names carry script, shown as text; a setup of our own typed into the page's tables and fields, started and
played."""
from __future__ import annotations

import copy
import json
import re

import pytest
from playwright.sync_api import expect

from apps.house_divided import MAP_FRAME
from engines.house_divided.example import EXAMPLE_MAP

from .conftest import TABLET
from .test_border_states import pick_cell, row_where, type_cell
from .test_shell import SCRIPT, assert_no_script_ran, screenshots
from .ui import SLOW, button, do, guide, logged, other_form, step, tap_faces

pytestmark = pytest.mark.browser


# Where a point of the map (its x, y) is on the screen, from the Bokeh figure's own scales; the figure is the
# one drawn inside the map pane's box.
MAP_POINT = """([x, y, pane]) => {
  const figures = [];
  const walk = (view) => {
    if (view.frame && view.frame.x_scale) figures.push(view);
    for (const child of view.child_views ?? []) walk(child);
  };
  for (const root of Bokeh.index.roots) walk(root);
  const inside = (r) => r.width > 0 && r.left >= pane.x - 1 && r.top >= pane.y - 1 &&
                        r.right <= pane.x + pane.width + 1 && r.bottom <= pane.y + pane.height + 1;
  const view = figures.find((v) => inside(v.el.getBoundingClientRect()));
  const box = view.el.getBoundingClientRect();
  return {x: box.left + view.frame.x_scale.compute(x), y: box.top + view.frame.y_scale.compute(y)};
}"""


# The map's Bokeh figure (the one drawn inside the map pane's box): its frame's size and place on the screen, its x
# range, the gesture tools active, the touch-action of the layer that takes the gestures, and how far the page is
# scrolled: window.scrollY plus the scroll of every box around the map that scrolls (the Material page scrolls its
# main content, not the window).
MAP_STATE = """(el) => {
  const pane = el.getBoundingClientRect();
  const figures = [];
  const walk = (view) => {
    if (view.frame && view.frame.x_scale) figures.push(view);
    for (const child of view.child_views ?? []) walk(child);
  };
  for (const root of Bokeh.index.roots) walk(root);
  const inside = (r) => r.width > 0 && r.left >= pane.x - 1 && r.top >= pane.y - 1 &&
                        r.right <= pane.x + pane.width + 1 && r.bottom <= pane.y + pane.height + 1;
  const view = figures.find((v) => inside(v.el.getBoundingClientRect()));
  const scrolled = (el) => {
    let total = window.scrollY;
    for (let e = el; e; e = e.parentNode instanceof ShadowRoot ? e.parentNode.host : e.parentNode) {
      if (e instanceof Element && e !== document.documentElement) total += e.scrollTop;
    }
    return total;
  };
  const box = view.el.getBoundingClientRect(), bbox = view.frame.bbox, bar = view.model.toolbar;
  return {width: bbox.width, height: bbox.height, left: box.left + bbox.left, top: box.top + bbox.top,
          x: [view.frame.x_range.start, view.frame.x_range.end], drag: bar.active_drag != null,
          scroll: bar.active_scroll != null && bar.active_scroll != 'auto',
          touch: getComputedStyle(view.canvas_view.events_el).touchAction, scrollY: scrolled(view.el)};
}"""


def map_state(page) -> dict:
    return page.evaluate(MAP_STATE, pane(page))


def pane(page):
    """The map pane's element, for MAP_STATE."""
    return page.locator(".map-figure").element_handle(timeout=SLOW)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A touch screen, as on the tablet."""
    return {**browser_context_args, "has_touch": True}


def tap_map(page, x: float, y: float) -> None:
    """A finger on the map graph at the box drawn at (x, y)."""
    pane = page.locator(".map-figure")
    pane.scroll_into_view_if_needed()
    where = page.evaluate(MAP_POINT, [x, y, pane.bounding_box()])
    page.touchscreen.tap(where["x"], where["y"])


def tab(page, name: str) -> None:
    page.get_by_role("tab", name=name, exact=True).click()


def fires(page, side: str, hits: int = 0) -> None:
    """A side's fire resolved at the table (basic fire unconfigured): the hits it scored."""
    expect(button(guide(page), f"{side} fires")).to_be_visible(timeout=SLOW)
    for _ in range(hits):
        step(page, "record_fire").locator(".param-hits .stepper-plus button").click()
    do(page, f"{side} fires")


def first_march_roll(page) -> None:
    """The start segment ended, then the Union's first march roll of 1861 with a 4 entered: 3 marches."""
    step(page, "end_start")
    do(page, "End the start segment")
    expect(step(page, "roll_marches").locator(".command-row")).to_contain_text("Union marches, 1861", timeout=SLOW)
    tap_faces(page, 4)
    logged(page, "Union march roll 4 in 1861: 3 marches")


@pytest.mark.rule("HD-8", "HD-5.1", "HD-4.1", "HD-4.2", "HD-5.6", "HD-4.4", "HD-4.6", "HD-4.10")
def test_example_map_supply_and_a_two_day_battle(page, server, offline, output_path):
    page.goto(server.url + "/house_divided")
    button(page, "Load the EXAMPLE (invented map and units)").click(timeout=SLOW)
    expect(page.locator(".review-note")).to_contain_text("EXAMPLE map and units", timeout=SLOW)
    expect(page.locator(".setup-note")).to_contain_text("Ready", timeout=SLOW)
    screenshots(page, output_path, "house_divided-setup")
    # the tap on Start shows the busy bar and holds the button at once, before the server answers (issue 16)
    handles = [page.locator(css).first.element_handle() for css in (".start-game button", ".start-progress .starting")]
    busy = page.evaluate("([start, bar]) => { start.click(); return [bar.hidden, start.closest('.start-game') ? 1 : 0, "
                         "bar.textContent]; }", handles)
    assert busy[0] is False and busy[2] == "Building the game…", busy
    step(page, "check_supply")
    expect(page.locator(".turn-track")).to_contain_text("EXAMPLE", timeout=SLOW)
    expect(page.locator(".turn-track")).to_contain_text("Union MM 34")

    # control by tapping a box: U1, the Union port, goes to the CSA; Washington loses its sea supply
    tab(page, "Map")
    page.locator(".control-brush").get_by_role("button", name="Gives it to the CSA").click(timeout=SLOW)
    page.locator(".box-U1 button").click()
    logged(page, "U1 now held by CSA")
    expect(page.locator(".box-U1")).to_contain_text("U1 · CSA", timeout=SLOW)
    tap_map(page, -1.0, -1.0)                # X, held by the Union, drawn at (-1, -1) on the example map
    logged(page, "X now held by CSA")
    expect(page.locator(".box-X")).to_contain_text("X · CSA", timeout=SLOW)

    tab(page, "Play")
    step(page, "check_supply")
    do(page, "Supply check")
    logged(page, "washington: out of supply, lose 1")
    tab(page, "Map")
    report = page.locator(".supply-report")
    expect(report).to_contain_text("Must still lose one unit in: washington", timeout=SLOW)
    expect(report).to_contain_text("no port in reach for the Union stack")
    expect(report).to_contain_text("P is a port")
    page.locator(".map-figure").scroll_into_view_if_needed()
    screenshots(page, output_path, "house_divided-map")

    tab(page, "Play")
    step(page, "supply_loss")
    do(page, "Lose a unit to supply")
    logged(page, "USA 2 is lost at washington")
    first_march_roll(page)
    step(page, "end_movement")
    do(page, "End movement")
    step(page, "start_battle")
    do(page, "Fight a battle")
    logged(page, "battle at P, Union attacking")

    # day 1: command rolled at the table, four rounds without hits
    step(page, "battle_command")
    tap_faces(page, 3, 2)
    logged(page, "day 1 at P: Union battle command: rolled 3, table 2 = 2")
    for r in range(1, 5):
        fires(page, "Union")
        fires(page, "CSA")
        logged(page, f"CSA fire, round {r}")
        do(page, "Next round")
        logged(page, f"round {r + 1} at P")

    # day 2: the carry, a hit each, morale, the CSA retreats, desertion
    step(page, "battle_command")
    tap_faces(page, 5, 1)
    logged(page, "rolled 5, table 3 + carry ⌈2/2⌉ = 1 = 4")
    board = page.locator(".battle-board")
    expect(board).to_contain_text("Day 2", timeout=SLOW)
    fires(page, "Union", 1)
    fires(page, "CSA", 1)
    do(page, "Union takes 1 hit")
    logged(page, "USA 4 is flipped")
    do(page, "CSA takes 1 hit")
    logged(page, "CSA 9 is flipped")
    step(page, "morale_checks")
    expect(page.locator(".odds-card").first).to_contain_text("P(at least one routs)", timeout=SLOW)
    tap_faces(page, 5, 1)
    logged(page, "USA 4 (militia, morale 2) rolled 5: routs")
    expect(board).to_contain_text("routed", timeout=SLOW)
    board.scroll_into_view_if_needed()
    screenshots(page, output_path, "house_divided-battle")
    other_form(page, "retreat").locator(".param-side").get_by_role("button", name="CSA").click()
    do(page, "Retreat")
    logged(page, "CSA retreats to R2")
    step(page, "desertion_checks")
    expect(page.locator(".odds-card").first).to_contain_text("P(0 units lost)", timeout=SLOW)
    tap_faces(page, 2, 3)
    logged(page, "CSA 9 rolled 3: deserts")

    # the odds and tables: this year's column of the Command Table, one unit's rout odds; the outlook redrawn for the CSA
    tab(page, "Odds & tables")
    expect(page.locator(".command-table")).to_contain_text("4/5", timeout=SLOW)
    expect(page.locator(".unit-odds")).to_contain_text("militia (morale 2)")
    side = button(page.locator(".outlook-side"), "CSA")
    side.click()
    expect(side).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(500)
    tab(page, "Border & Europe")
    expect(page.locator(".fi-panel")).to_contain_text("Not all conditions are met now", timeout=SLOW)
    tab(page, "Play")

    # undo the desertion roll (dice from the table: confirmed first), then reload: the same game
    button(page, "Undo").click()
    expect(page.locator(".undo-question")).to_contain_text("rolled at the table", timeout=SLOW)
    button(page, "Yes, undo it").click()
    logged(page, "Undo: Turn 1 (1861), Union: Desertion")
    step(page, "desertion_checks")
    count = page.locator(".event-log li").count()
    before = board.inner_text()
    page.reload()
    step(page, "desertion_checks")
    logged(page, "Undo: Turn 1 (1861), Union: Desertion")
    assert page.locator(".event-log li").count() == count
    expect(board).to_contain_text("Decided: Union victory", timeout=SLOW)
    assert board.inner_text() == before


def scripted_map() -> str:
    """The EXAMPLE map with a box's name and the map's label carrying script."""
    data = copy.deepcopy(EXAMPLE_MAP)
    data["label"] = f"Scripted map {SCRIPT}"
    data["boxes"][6]["name"] = f"X box {SCRIPT}"      # X, held by the Union, drawn at (-1, -1)
    return json.dumps(data)


@pytest.mark.rule("HD-8")
def test_script_in_a_map_file_is_shown_as_text_and_never_runs(page, server, offline, output_path):
    """Issue 14: a pasted map whose label and box name carry script, and a refused one whose line names a box by
    script: the notes, the track and the box's details show them as text; no dialog, no element of them."""
    dialogs: list = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/house_divided")
    button(page, "Load the EXAMPLE (invented map and units)").click(timeout=SLOW)
    expect(page.locator(".setup-note")).to_contain_text("Ready", timeout=SLOW)
    paste = page.locator(".setup-paste textarea").first
    refused = json.loads(scripted_map())
    refused["lines"].append({"from": "A", "to": SCRIPT, "type": "rail"})
    paste.fill(json.dumps(refused))
    button(page, "Read the pasted file").click()
    expect(page.locator(".review-note")).to_contain_text(f"there is no box '{SCRIPT[:38]}…", timeout=SLOW)
    paste.fill(scripted_map())
    button(page, "Read the pasted file").click()
    expect(page.locator(".review-note")).to_contain_text(f"Scripted map {SCRIPT}", timeout=SLOW)
    expect(page.locator(".setup-note")).to_contain_text("Ready", timeout=SLOW)
    button(page, "Start the game").click()
    expect(page.locator(".turn-track")).to_contain_text(f"Scripted map {SCRIPT}", timeout=SLOW)
    tab(page, "Map")
    page.locator(".box-X button").click(timeout=SLOW)
    expect(page.locator(".box-details")).to_contain_text(f"X box {SCRIPT}", timeout=SLOW)
    screenshots(page, output_path, "house_divided-script-as-text")
    assert_no_script_ran(page, dialogs)


def wheel_on_map(page) -> dict:
    """A mouse wheel turned over the middle of the map's frame; the map's state before it."""
    before = map_state(page)
    page.mouse.move(before["left"] + before["width"] / 2, before["top"] + before["height"] / 2)
    page.mouse.wheel(0, 240)
    return before


@pytest.mark.rule("HD-8")
def test_a_wheel_on_the_map_scrolls_the_page_until_zoom_is_on(page, server, offline, output_path):
    """The map takes no drag or wheel at first: the wheel scrolls the page and a finger may too (touch-action auto);
    "Zoom and move the map" gives the wheel to the map (it zooms, the page stays); off again, the page scrolls. At
    both tablet sizes the map's frame is at least the size its labels are placed for."""
    page.goto(server.url + "/house_divided")
    button(page, "Load the EXAMPLE (invented map and units)").click(timeout=SLOW)
    expect(page.locator(".setup-note")).to_contain_text("Ready", timeout=SLOW)
    button(page, "Start the game").click()
    step(page, "check_supply")
    tab(page, "Map")
    page.locator(".map-figure").scroll_into_view_if_needed(timeout=SLOW)
    page.wait_for_function("() => window.Bokeh && Bokeh.index.roots.length > 0", timeout=SLOW)
    screenshots(page, output_path, "house_divided-map-labels")
    for size in TABLET.values():
        page.set_viewport_size(size)
        page.locator(".map-figure").scroll_into_view_if_needed()
        page.wait_for_function(f"(pane) => ({MAP_STATE})(pane).width >= {MAP_FRAME[0]}",
                               arg=pane(page), timeout=SLOW)
        state = map_state(page)
        assert state["width"] >= MAP_FRAME[0] and state["height"] >= MAP_FRAME[1], (size, state)
    page.set_viewport_size(TABLET["landscape"])
    page.locator(".map-figure").scroll_into_view_if_needed()

    state = wheel_on_map(page)
    assert not state["drag"] and not state["scroll"] and state["touch"] == "auto", state
    page.wait_for_function(f"([pane, y]) => ({MAP_STATE})(pane).scrollY != y", arg=[
        pane(page), state["scrollY"]], timeout=SLOW)   # the page scrolled ...
    assert map_state(page)["x"] == state["x"]                                      # ... and the map did not zoom

    page.locator(".map-zoom input").first.click()
    page.locator(".map-figure").scroll_into_view_if_needed()
    page.wait_for_function(f"(pane) => ({MAP_STATE})(pane).scroll", arg=pane(page),
                           timeout=SLOW)
    state = wheel_on_map(page)
    assert state["drag"] and state["touch"] == "none", state
    page.wait_for_function(f"([pane, x]) => ({MAP_STATE})(pane).x[0] != x", arg=[
        pane(page), state["x"][0]], timeout=SLOW)    # the map zoomed ...
    assert map_state(page)["scrollY"] == state["scrollY"]                            # ... and the page stayed

    page.locator(".map-zoom input").first.click()
    page.wait_for_function(f"(pane) => !({MAP_STATE})(pane).scroll", arg=pane(page),
                           timeout=SLOW)
    state = wheel_on_map(page)
    page.wait_for_function(f"([pane, y]) => ({MAP_STATE})(pane).scrollY != y", arg=[
        pane(page), state["scrollY"]], timeout=SLOW)
    tap_map(page, -1.0, -1.0)                # a tap still shows a box: X, drawn at (-1, -1)
    expect(page.locator(".box-details")).to_contain_text("Example X", timeout=SLOW)


# --- our own setup, typed into the page's tables and fields --------------------------------------------------------

# Our own small map (not the example): id, name, shield, RP, where it is drawn (None: where a new box is put).
OWN_BOXES = [("Our A", "Our box A", "USA", 1, None), ("Our B", "Our box B", "USA", 1, None),
             ("Our C", "Our box C", "CSA", 1, None), ("Our D", "Our box D", "CSA", 0, (1, -1))]
OWN_LINES = [("Our A", "Our B", "rail"), ("Our B", "Our C", "rail"), ("Our B", "Our D", "road"),
             ("Our C", "Our D", "river")]
OWN_UNITS = [("Our Union 1", "USA", "inf", "Our A"), ("Our Union 2", "USA", "cav", "Our A"),
             ("Our CSA 1", "CSA", "inf", "Our C"), ("Our CSA 2", "CSA", "inf", "Our D")]
# Our own fire numbers for the test (not a rulebook's): militia 2, veteran 3, crack 4, one less reduced.
OWN_STRENGTH = {f"{arm}_{grade}_{face}": n - (face == "reduced") for arm in ("inf", "cav")
                for grade, n in (("militia", 2), ("veteran", 3), ("crack", 4)) for face in ("full", "reduced")}


def choose(page, css: str, option: str) -> None:
    """Pick an option of a Material select of the setup (its list opens at the end of the page)."""
    page.locator(f".{css}").first.click()
    page.locator("li[role=menuitem]:visible", has_text=re.compile(f"^{re.escape(option)}$")).first.click()


def number(page, css: str, value: int) -> None:
    entry = page.locator(f".{css} input").first
    entry.fill(str(value))
    entry.press("Tab")


def type_own_setup(page) -> None:
    """Our boxes, lines, units, leader, MM and the basic game's fire, each typed where the page asks for it; a row
    found by its empty naming cell, which is typed last."""
    for n, (box, name, shield, rp, at) in enumerate(OWN_BOXES):
        button(page, "Add a box").click()
        row = lambda: row_where(page, "setup-boxes", "id", bottom=True)  # noqa: E731 (found afresh each time)
        if at is None:        # a new box is put right of the others, on the top row: never an empty place
            expect(row().locator('.tabulator-cell[tabulator-field="x"]')).to_have_text(str(n), timeout=SLOW)
            expect(row().locator('.tabulator-cell[tabulator-field="y"]')).to_have_text("0")
        else:
            type_cell(row(), "x", at[0])
            type_cell(row(), "y", at[1])
        type_cell(row(), "name", name)
        if shield != "neutral":
            pick_cell(page, row(), "alignment", shield)
        if rp:
            type_cell(row(), "rp", rp)
        type_cell(row(), "id", box, naming="setup-boxes")
    for a, b, kind in OWN_LINES:
        button(page, "Add a line").click()
        row = lambda: row_where(page, "setup-lines", "from", bottom=True)  # noqa: E731
        pick_cell(page, row(), "to", b)
        if kind != "rail":
            pick_cell(page, row(), "type", kind)
        pick_cell(page, row(), "from", a, naming="setup-lines")
    for name, side, arm, box in OWN_UNITS:
        button(page, "Add a unit").click()
        row = lambda: row_where(page, "setup-units", "name", bottom=True)  # noqa: E731
        if side != "USA":
            pick_cell(page, row(), "side", side)
        if arm != "inf":
            pick_cell(page, row(), "arm", arm)
        pick_cell(page, row(), "box", box)
        type_cell(row(), "name", name, naming="setup-units")
    button(page, "Add a leader").click()      # Grant, our own rating 2, with our Union units
    row = lambda: row_where(page, "setup-leaders", "box", bottom=True)  # noqa: E731
    pick_cell(page, row(), "name", "Grant")
    type_cell(row(), "front", 2)
    pick_cell(page, row(), "box", "Our A", naming="setup-leaders")
    number(page, "setup-USA", 20)
    number(page, "setup-CSA", 18)
    for css, value in OWN_STRENGTH.items():
        choose(page, f"basic-{css}", str(value))
    choose(page, "basic-firing_order", "Both sides fire, then both place their hits")
    choose(page, "basic-entrenchment", "-1 to the hit number of fire aimed at an entrenched side")


@pytest.mark.rule("HD-2", "HD-8", "HD-4.10", "HD-4.1")
def test_our_own_setup_typed_into_the_page_is_started_and_played(page, server, offline, output_path):
    """Issue 16: a setup of our own typed into the setup's tables and fields, no example and no file: a new box
    placed where it shows (no empty place), the lines, units and a leader on our boxes, both MM, the basic game's
    fire; the map checked as we go, then Start (progress shown) and the first steps of the Union turn: the supply
    check and a march roll with the die entered."""
    page.goto(server.url + "/house_divided")
    expect(page.locator(".review-note")).to_contain_text("Enter your map's boxes", timeout=SLOW)
    type_own_setup(page)
    note = page.locator(".review-note")
    expect(note).to_contain_text("4 boxes, 4 lines: the map is valid", timeout=SLOW)
    expect(note).not_to_contain_text("EXAMPLE")
    expect(page.locator(".setup-note")).to_contain_text("Ready", timeout=SLOW)
    for section in (".setup-boxes", ".setup-units", ".basic-inf_militia_full"):
        page.locator(section).first.scroll_into_view_if_needed()
        screenshots(page, output_path, f"house_divided-own-setup-{section.split('-', 1)[1]}")
    page.locator(".start-game").first.scroll_into_view_if_needed()
    screenshots(page, output_path, "house_divided-own-setup-start")

    handles = [page.locator(css).first.element_handle() for css in (".start-game button", ".start-progress .starting")]
    busy = page.evaluate("([start, bar]) => { start.click(); return [bar.hidden, bar.textContent]; }", handles)
    assert busy == [False, "Building the game…"], busy
    step(page, "check_supply")
    track = page.locator(".turn-track")
    for shown in ("Union MM 20", "CSA MM 18", "basic fire configured"):
        expect(track).to_contain_text(shown, timeout=SLOW)
    expect(track).not_to_contain_text("EXAMPLE")
    do(page, "Supply check")
    first_march_roll(page)
    screenshots(page, output_path, "house_divided-own-setup-played")
    tab(page, "Map")
    expect(page.locator(".box-Our_D")).to_contain_text("Our D · CSA", timeout=SLOW)
    page.locator(".box-Our_A button").click()
    expect(page.locator(".box-details")).to_contain_text("Our box A", timeout=SLOW)
    page.locator(".map-figure").scroll_into_view_if_needed()
    screenshots(page, output_path, "house_divided-own-setup-map")
