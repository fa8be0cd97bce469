"""灰に硝煙と青き天 in a real browser: a whole round on the example board at tablet size, with dice entered at the
table, a battle whose takes follow the keep advice, recruitment, the victory check, undo and reload; the players' own
board typed into the setup's tables and played; and a players' board whose state, card and label carry script,
shown as text with no script run."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import Error as PlaywrightError

from engines.border_states.example import example_board

from .test_shell import screenshots
from .ui import SLOW, button, do, logged, other, other_form, step, tap_faces

pytestmark = pytest.mark.browser


def title(page: Page, text: str) -> None:
    expect(page.locator(".phase-title").first).to_contain_text(text, timeout=SLOW)


def choose(page: Page, css: str, option: str) -> None:
    """Pick an option of a Material select."""
    page.locator(f".{css}").first.click()
    page.locator("li", has_text=re.compile(f"^{re.escape(option)}$")).first.click()


def follow_advice(page: Page, side: str, best: str) -> None:
    """Take the throw as the advice's best line says (a tap takes it)."""
    form = step(page, "keep")
    advice = form.locator(".advice-0 button")
    expect(advice).to_contain_text(f"Best: {best}", timeout=SLOW)
    advice.click()
    logged(page, f"{side} takes {best}")


def chosen(scope, param: str):
    """The option chosen now in a generic form's buttons for a parameter."""
    return scope.locator(f".param-{param} [aria-pressed='true']").first


def plus(scope, param: str, times: int) -> None:
    """Tap the stepper of a number parameter up."""
    for _ in range(times):
        scope.locator(f".param-{param} .stepper-plus button").click()


@pytest.mark.rule("BS-DRAW", "BS-INIT", "BS-ACT", "BS-CMB", "BS-VIC", "BS-SUP", "BS-REC")
def test_a_round_with_entered_dice_and_the_keep_advice(page, server, offline, output_path):
    page.goto(server.url + "/border_states")
    button(page, "Load the example board").click()
    expect(page.locator(".board-note")).to_contain_text("Example board", timeout=SLOW)
    page.locator(".deploy-now input").first.click()
    choose(page, "commander-C", "Virginia")
    choose(page, "commander-U", "Maryland")
    screenshots(page, output_path, "border_states-setup")
    button(page, "Start the game").click()

    step(page, "draw")
    expect(page.locator(".tracks-pane")).to_contain_text("Example board", timeout=SLOW)
    do(page, "Draw cards")
    step(page, "roll_initiative")
    tap_faces(page, 5, 3)
    logged(page, "Initiative: CSA 5, Union 3")
    step(page, "choose_first")
    do(page, "CSA chooses who goes first")

    move = step(page, "move")
    expect(chosen(move, "source")).to_contain_text("Virginia", timeout=SLOW)
    move.locator(".param-target").get_by_role("button", name="Maryland").click()
    do(page, "CSA moves a unit")
    logged(page, "CSA moves a unit Virginia -> Maryland; combat there")
    for side, left in (("Union", 3), ("CSA", 3), ("Union", 2), ("CSA", 2), ("Union", 1), ("CSA", 1)):
        title(page, f"{side} to act ({left} left)")
        other(page, "pass_turn")

    step(page, "start_effects")
    do(page, "CSA: start of the combat in Maryland")
    title(page, "Maryland (CSA attacks)")
    do(page, "Union: start of the combat in Maryland")
    supply = step(page, "commit_supply")
    expect(page.locator(".odds-card").first).to_contain_text("P(the attacker wins) by supply dice", timeout=SLOW)
    plus(supply, "count", 2)
    expect(supply.locator(".param-count .stepper-value")).to_have_text("2", timeout=SLOW)
    do(page, "CSA: supply dice in Maryland")
    logged(page, "CSA adds 2 supply dice")
    plus(supply, "count", 1)
    expect(supply.locator(".param-count .stepper-value")).to_have_text("1", timeout=SLOW)
    screenshots(page, output_path, "border_states-supply")
    do(page, "Union: supply dice in Maryland")
    logged(page, "Union adds 1 supply die")

    step(page, "throw")
    tap_faces(page, 4, 4, 2)
    logged(page, "CSA throws 3 dice")
    expect(page.locator(".battle-tray")).to_contain_text("Thrown by CSA", timeout=SLOW)
    expect(page.locator(".advice-0 button")).to_contain_text("Best: confirm 4,4", timeout=SLOW)
    expect(page.locator(".odds-card").first).to_contain_text("E[damage dice]", timeout=SLOW)
    screenshots(page, output_path, "border_states-keep-advice")
    follow_advice(page, "CSA", "confirm 4,4")
    tap_faces(page, 5)
    follow_advice(page, "CSA", "confirm 5")
    logged(page, "strength 2 in 4s")
    tap_faces(page, 1, 3, 6)
    follow_advice(page, "Union", "confirm 6")
    tap_faces(page, 1, 3)
    follow_advice(page, "Union", "confirm 3")
    tap_faces(page, 6)
    follow_advice(page, "Union", "confirm 6")
    logged(page, "strength 2 in 6s, 0 damage; Union wins, CSA removes 1 unit")
    step(page, "end_combat")
    do(page, "End the combat in Maryland")
    step(page, "check_victory")
    do(page, "Victory check")
    logged(page, "VP: CSA 9, Union 10; no victory yet")
    step(page, "supply")
    do(page, "Supply")
    logged(page, "supply: CSA +6 (capped) = 18; Union +7 (capped) = 18")

    for roll, home in ((3, "CSA home 1"), (5, "CSA home 2"), (6, "CSA home 3"), (4, "Union home 1"),
                       (1, "Union home 2"), (2, "Union home 3"), (6, "Union home 4")):
        expect(chosen(step(page, "recruit"), "area")).to_contain_text(home, timeout=SLOW)
        tap_faces(page, roll)
        logged(page, f"Recruitment in {home}: rolled {roll}")
    expect(page.locator(".odds-card").first).to_contain_text("Union recruitment this phase", timeout=SLOW)
    screenshots(page, output_path, "border_states-recruitment")

    # undo the last roll: it was rolled at the table, so the companion asks first
    button(page, "Undo").click()
    expect(page.locator(".undo-question")).to_contain_text("rolled at the table", timeout=SLOW)
    button(page, "Yes, undo it").click()
    logged(page, "Undo: Round 1: Union: Recruitment in Union home 4")
    step(page, "recruit").locator(".param-area").get_by_role("button", name="Union home 4").click()
    expect(chosen(step(page, "recruit"), "area")).to_contain_text("Union home 4", timeout=SLOW)
    count = page.locator(".event-log li").count()
    tracks = page.locator(".tracks-pane").first.inner_text()

    page.reload()
    expect(chosen(step(page, "recruit"), "area")).to_contain_text("Union home 4", timeout=SLOW)
    assert page.locator(".event-log li").count() == count
    assert page.locator(".tracks-pane").first.inner_text() == tracks

    tap_faces(page, 6)
    logged(page, "Recruitment in Union home 4: rolled 6 against 3+, a unit is placed")
    expect(chosen(step(page, "recruit"), "area")).to_contain_text("Union home 5", timeout=SLOW)
    tap_faces(page, 4)
    logged(page, "round 2 begins")
    title(page, "Round 2 of 4: draw phase")
    expect(page.locator(".tracks-pane")).to_contain_text(re.compile(r"Union: supply 18/18, units 10/10"))
    screenshots(page, output_path, "border_states-round-2")


# --- script in the players' board -------------------------------------------------------------------------------

STATE, CARD, LABEL = "<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "<img src=y onerror=alert(3)>"
INJECTED = """() => {
  const found = [];
  const walk = root => root.querySelectorAll('*').forEach(el => {
    if ((el.tagName === 'IMG' && /onerror/.test(el.outerHTML)) || (el.tagName === 'SCRIPT' && /alert/.test(el.textContent)))
      found.push(el.outerHTML);
    if (el.shadowRoot) walk(el.shadowRoot);
  });
  walk(document);
  return found;
}"""


def scripted_board() -> str:
    """The example board with a home state, a card and the label carrying script."""
    text = json.dumps({**example_board(), "example": LABEL}).replace('"CSA home 1"', json.dumps(STATE))
    return text.replace('"Example CSA card"', json.dumps(CARD))


@pytest.mark.rule("BS-SETUP", "BS-CARD")
def test_script_in_a_board_file_is_shown_as_text_and_never_runs(page, server, offline, output_path):
    """Issue 14: a board file whose home state, CSA card and label are markup with script: the note, the tracks, the
    board, the card's button and the log show them as text; no dialog opens and no element of them appears."""
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/border_states")
    button(page, "Load the example board").click()
    expect(page.locator(".board-note")).to_contain_text("Example board", timeout=SLOW)
    page.locator(".setup-paste textarea").first.fill(scripted_board())
    button(page, "Read the pasted file").click()
    expect(page.locator(".board-note")).to_contain_text(LABEL, timeout=SLOW)
    page.locator(".deploy-now input").first.click()
    choose(page, "commander-C", "Virginia")
    choose(page, "commander-U", "Maryland")
    button(page, "Start the game").click()

    step(page, "draw")
    expect(page.locator(".tracks-pane")).to_contain_text(LABEL, timeout=SLOW)
    do(page, "Draw cards")
    step(page, "roll_initiative")
    tap_faces(page, 5, 3)
    step(page, "choose_first")
    do(page, "CSA chooses who goes first")
    step(page, "move").locator(".param-target").get_by_role("button", name="Maryland").click()
    do(page, "CSA moves a unit")
    for side, left in (("Union", 3), ("CSA", 3), ("Union", 2), ("CSA", 2), ("Union", 1), ("CSA", 1)):
        title(page, f"{side} to act ({left} left)")
        other(page, "pass_turn")
    start = step(page, "start_effects")
    start.locator(".param-card").get_by_role("button", name=CARD).click()
    do(page, "CSA: start of the combat in Maryland")
    logged(page, f"card {CARD}")
    page.get_by_role("tab", name="Board").click()
    expect(page.locator(".board-pane")).to_contain_text(STATE, timeout=SLOW)
    screenshots(page, output_path, "border_states-script-as-text")
    assert dialogs == [] and page.evaluate(INJECTED) == []


# --- the players' own board, typed into the tables ---------------------------------------------------------------

SIDES = {"West Virginia": ("Union", 8, 1), "Maryland": ("Union", 1, 4), "Virginia": ("CSA", 4, 4),
         "North Carolina": ("CSA", 5, 1), "Kentucky": ("Union", 2, 2), "Tennessee": ("CSA", 6, 2),
         "Missouri": ("Union", 3, 2), "Arkansas": ("CSA", 7, 1)}   # side, combat number, VP: our own values
HOMES = [("Pennsylvania", 2), ("Ohio", 3), ("Indiana", 4), ("Illinois", 5), ("New York", 6), ("Iowa", 4),
         ("South Carolina", 2), ("Georgia", 3), ("Alabama", 4), ("Mississippi", 5), ("Louisiana", 6)]
BORDERS = [("Maryland", "West Virginia"), ("West Virginia", "Virginia"), ("Virginia", "North Carolina"),
           ("West Virginia", "Kentucky"), ("Kentucky", "Tennessee"), ("Kentucky", "Missouri"), ("Missouri", "Arkansas"),
           ("Pennsylvania", "Maryland"), ("Ohio", "West Virginia"), ("Indiana", "Kentucky"), ("Illinois", "Missouri"),
           ("New York", "Pennsylvania"), ("Iowa", "Missouri"), ("South Carolina", "North Carolina"),
           ("Georgia", "Tennessee"), ("Alabama", "Tennessee"), ("Mississippi", "Arkansas"), ("Louisiana", "Arkansas")]
FACES = [("Joseph E. Johnston", 3), ("Robert E. Lee", 4), ("Union face 1", 2), ("Union face 2", 3),
         ("Union face 3", 3), ("Union face 4", 4)]
DEPLOYED = {"C": {"Virginia": 3, "North Carolina": 2, "Tennessee": 2, "Arkansas": 1},
            "U": {"Maryland": 2, "Kentucky": 2, "Missouri": 2, "West Virginia": 1}}


def row_where(page: Page, table: str, field: str, text: str = "", bottom: bool = False):
    """The first row of a table whose cell `field` shows exactly `text` (empty: a row still to fill in), the table
    scrolled from its top or its bottom until the row is drawn (it draws only the rows near its view)."""
    holder = page.locator(f".{table} .tabulator-tableholder").first
    rows = page.locator(f".{table} .tabulator-row").filter(has=page.locator(
        f'.tabulator-cell[tabulator-field="{field}"]', has_text=re.compile(f"^{re.escape(text)}$")))
    for at in (1, .6, .3, 0) if bottom else (0, .3, .6, 1):
        holder.evaluate(f"e => e.scrollTop = e.scrollHeight * {at}")
        page.wait_for_timeout(150)
        if rows.count():
            break
    return rows.first


def editing(target, editor: str):
    """Tap a cell until its editor opens (a tap while the table redraws after the last edit is lost); the cell is
    held as found, since a row found by what it shows no longer shows it while edited."""
    for _ in range(4):
        try:
            cell = target.element_handle(timeout=SLOW)
            cell.click()
            return (cell.wait_for_selector(editor, timeout=6_000) if editor == "input"
                    else target.page.locator(editor).first.element_handle(timeout=6_000))
        except PlaywrightError:   # not opened, or the cell redrawn under the tap
            continue
    raise AssertionError(f"no editor opened on {target}")


def type_cell(row, field: str, value, naming: str = "") -> None:
    """Type a value into a cell of a row, as a player does: tap the cell, type, Enter. A naming cell (the one its row
    was found by) is checked in the whole table `naming`: the row no longer shows what it was found by."""
    entry = editing(row.locator(f'.tabulator-cell[tabulator-field="{field}"]'), "input")
    entry.fill(str(value))
    entry.press("Enter")
    settled(row, field, value, naming)


def settled(row, field: str, value, naming: str) -> None:
    """The value shows in its cell (a naming cell: in a cell of that field anywhere in the table `naming`)."""
    target = row.locator(f'.tabulator-cell[tabulator-field="{field}"]')
    shown = target if not naming else row.page.locator(f'.{naming} .tabulator-cell[tabulator-field="{field}"]',
                                                       has_text=re.compile(f"^{re.escape(str(value))}$")).first
    expect(shown).to_have_text(str(value), timeout=SLOW)


def pick_cell(page: Page, row, field: str, value: str, naming: str = "") -> None:
    """Choose a value of a choice cell from its list."""
    target = row.locator(f'.tabulator-cell[tabulator-field="{field}"]')
    editing(target, f".tabulator-edit-list-item:text-matches('^{re.escape(value)}$')").click()
    settled(row, field, value, naming)


def type_own_board(page: Page) -> None:
    """Our own board (not the example): the rows the outline gives filled in, the borders, track squares and cards
    added, the counts typed; nothing written as JSON. A row is found by what it shows, its naming cell typed last."""
    for name, (side, number, vp) in SIDES.items():
        row = row_where(page, "board-areas", "name", name)
        pick_cell(page, row, "side", side)
        type_cell(row, "number", number)
        type_cell(row, "vp", vp)
    for name, success in HOMES:
        type_cell(row_where(page, "board-areas", "name", bottom=True), "success", success)
        type_cell(row_where(page, "board-areas", "name", bottom=True), "name", name, naming="board-areas")
    for a, b in BORDERS:
        button(page, "Add a border").click()
        pick_cell(page, row_where(page, "board-adjacency", "a", bottom=True), "b", b)
        pick_cell(page, row_where(page, "board-adjacency", "a", bottom=True), "a", a, naming="board-adjacency")
    for table, what in (("board-damage-u", "Union square"), ("board-damage-c", "CSA square")):
        button(page, f"Add a {what}").click()
        type_cell(row_where(page, table, "force_cut", "0"), "star", 2)
        type_cell(row_where(page, table, "force_cut", "0"), "force_cut", 1, naming=table)
    for name, actions in FACES:
        type_cell(row_where(page, "board-commanders", "name"), "actions", actions)
        type_cell(row_where(page, "board-commanders", "name"), "name", name, naming="board-commanders")
    for side in ("CSA", "Union"):
        button(page, "Add a card").click()
        pick_cell(page, row_where(page, "board-cards", "name", bottom=True), "side", side)
        type_cell(row_where(page, "board-cards", "name", bottom=True), "copies", 8)
        type_cell(row_where(page, "board-cards", "name", bottom=True), "name", f"{side} dispatch", naming="board-cards")
    for css, value in (("distrust", 4), ("units-C", 11), ("units-U", 13)):
        entry = page.locator(f".{css} input").first
        entry.fill(str(value))
        entry.press("Tab")


@pytest.mark.rule("BS-SETUP", "BS-D.4", "BS-ACT", "BS-INIT")
def test_our_own_board_typed_into_the_tables_is_played(page, server, offline, output_path):
    """Issue 16: the board is entered in the page's tables (no JSON): a mistake is named in a player's words, the board
    becomes valid once fixed, is deployed and played: the draw, the initiative, and an action chosen after another
    action was looked at (every legal action stays a button: after "entrenches", "moves a unit" is there)."""
    page.goto(server.url + "/border_states")
    expect(page.locator(".board-note")).to_contain_text("Fill in the tables", timeout=SLOW)
    type_own_board(page)
    expect(page.locator(".board-note")).to_contain_text("19 states, 18 borders: the board is valid.", timeout=SLOW)
    ohio = row_where(page, "board-areas", "name", "Ohio", bottom=True)
    type_cell(ohio, "name", "Ohio River", naming="board-areas")   # its border left dangling
    expect(page.locator(".board-note")).to_contain_text(
        "Adjacency Ohio–West Virginia: Ohio is not on the board", timeout=SLOW)
    page.locator(".board-note").first.scroll_into_view_if_needed()
    screenshots(page, output_path, "border_states-own-board-error")
    type_cell(row_where(page, "board-areas", "name", "Ohio River", bottom=True), "name", "Ohio", naming="board-areas")
    expect(page.locator(".board-note")).to_contain_text("the board is valid", timeout=SLOW)
    page.locator(".deploy-now input").first.click()
    for side, spread in DEPLOYED.items():
        for area, n in spread.items():
            entry = page.locator(".bs-deployment").get_by_label(area, exact=True).first
            entry.fill(str(n))
            entry.press("Tab")
    choose(page, "commander-C", "Virginia")
    choose(page, "commander-U", "Maryland")
    screenshots(page, output_path, "border_states-own-board")
    button(page, "Start the game").click()

    step(page, "draw")
    do(page, "Draw cards")
    step(page, "roll_initiative")
    tap_faces(page, 5, 3)
    logged(page, "Initiative: CSA 5, Union 3")
    step(page, "choose_first")
    do(page, "CSA chooses who goes first")
    step(page, "move")
    other_form(page, "entrench")
    expect(page.locator(".other-move button")).to_be_visible(timeout=SLOW)
    move = other_form(page, "move")
    expect(chosen(move, "source")).to_contain_text("Virginia", timeout=SLOW)
    move.locator(".param-target").get_by_role("button", name="West Virginia").click()
    do(page, "CSA moves a unit")
    logged(page, "CSA moves a unit Virginia -> West Virginia; combat there")
    page.get_by_role("tab", name="Board").click()
    expect(page.locator(".board-pane")).to_contain_text("Louisiana", timeout=SLOW)
    screenshots(page, output_path, "border_states-own-board-played")
