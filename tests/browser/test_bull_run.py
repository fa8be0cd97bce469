"""Battle at Bull Run in a real browser: a solitaire turn end to end at tablet size; a roster of the players' own typed
into the table, saved as a file, opened again and played."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .test_shell import screenshots
from .ui import SLOW, button, do, logged, other, step, tap_faces

pytestmark = pytest.mark.browser

ROSTER = """Evans' Brigade, CSA, 1/1, 3-2-1
Cocke's Brigade, CSA, 2/1, 4-3-2-1
Burnside's Brigade, UNION, A/1, 4-3-2-1
Porter's Brigade, UNION, A/2, 5-4-3-2-1"""


@pytest.mark.rule("BR-5.1", "BR-9.0", "BR-9.1", "BR-10.4", "BR-11.1")
def test_solitaire_turn_end_to_end(page, server, offline, output_path):
    """Turn 1 set-up moves, then turn 2: initiative, reinforcements, the CSA order, a combat with dice
    entered at the table, the retreat check; undo of that roll after confirming; reload; same state."""
    page.goto(server.url + "/bull_run")
    page.locator(".paste-roster textarea").first.fill(ROSTER)
    button(page, "Read pasted lines").click()
    expect(page.locator(".roster-note")).to_contain_text("counters", timeout=SLOW)
    button(page, "Start the game").click()

    # turn 1: the CSA has the initiative; the Union crosses at Sudley Ford
    step(page, "roll_initiative")
    tap_faces(page, 4)
    step(page, "place_reinforcements")
    do(page, "Place reinforcements")
    step(page, "csa_action_roll")
    tap_faces(page, 1)
    logged(page, "order A (Attack on Centerville)")
    step(page, "move")
    other(page, "end_movement")
    step(page, "farm_ford_roll")
    tap_faces(page, 1)
    move = step(page, "move")
    move.locator(".param-path").get_by_role("button", name="ford (2 MP)").click()
    move.locator(".param-crossing").get_by_role("button", name="Sudley Ford").click()
    expect(move.locator(".param-crossing .barred")).to_contain_text("Farm Ford has not been found", timeout=SLOW)
    do(page, "Move Union units")
    logged(page, "Burnside's Brigade moves across Bull Run at Sudley Ford")
    step(page, "end_movement")              # no other Union unit is on the map to move
    do(page, "End Union movement")
    step(page, "declare_attack")
    other(page, "end_combat")
    step(page, "declare_attack")
    other(page, "end_combat")
    step(page, "end_turn")
    do(page, "End the turn")
    logged(page, "turn 2 begins at 09:00")

    # turn 2: Union initiative, Porter arrives; the CSA, in contact with Burnside, orders C, then sees the
    # flank march (the action roll comes before the awareness check, BR-9.0)
    step(page, "roll_initiative")
    tap_faces(page, 2)
    step(page, "place_reinforcements")
    do(page, "Place reinforcements")
    logged(page, "Porter's Brigade on hex A")
    step(page, "farm_ford_roll")
    tap_faces(page, 6)
    step(page, "move")
    other(page, "end_movement")
    step(page, "csa_action_roll").locator(".param-union-south-seen input").click()
    tap_faces(page, 3)
    logged(page, "column 1-3, rolled 3: order C")
    expect(page.locator(".order-text")).to_contain_text("CSA order C", timeout=SLOW)
    step(page, "awareness_check").locator(".param-adjacent input").click()
    do(page, "Awareness")
    logged(page, "the CSA is aware")
    step(page, "move")
    other(page, "end_movement")

    # the combat: Burnside (4 SP, south of Bull Run) attacks Evans (3 SP) in woods
    form = step(page, "declare_attack")
    form.locator(".param-attackers").get_by_role("button", name="Burnside's Brigade (4 SP)").click()
    form.locator(".param-defenders").get_by_role("button", name="Evans' Brigade (3 SP)").click()
    form.locator(".param-target-terrain").get_by_role("button", name="woods").click()
    expect(page.locator(".odds-card").first).to_contain_text("P(defender retreats)", timeout=SLOW)
    screenshots(page, output_path, "bull_run-combat")
    tap_faces(page, 5)                      # McDowell's hesitation: 5 attacks (BR-10.2)
    logged(page, "rolled 5, attacks")
    step(page, "fire")
    tap_faces(page, 6, 1)                   # 6 - 1 (woods) = 5 on the 3-4 column: 1 hit; 1 on 3-4: none
    logged(page, "rolled 6 -1 = 5: 1 hit")
    step(page, "allocate_hits")
    do(page, "Apply hits")
    logged(page, "Evans' Brigade 3->2 SP")
    step(page, "retreat_check")
    tap_faces(page, 2)
    logged(page, "Retreat check: Evans' Brigade rolled 2, stays")

    # undo that roll: it was rolled at the table, so the companion asks first
    button(page, "Undo").click()
    expect(page.locator(".undo-question")).to_contain_text("rolled at the table", timeout=SLOW)
    button(page, "Yes, undo it").click()
    logged(page, "Undo: Turn 2: Retreat check")
    step(page, "retreat_check")
    count = page.locator(".event-log li").count()

    page.reload()
    step(page, "retreat_check")
    logged(page, "Undo: Turn 2: Retreat check")
    assert page.locator(".event-log li").count() == count
    expect(page.locator(".turn-track")).to_contain_text("SP lost: Union 0, CSA 1")

    tap_faces(page, 5)
    logged(page, "Evans' Brigade rolled 5, retreats 1 hex")
    step(page, "retreat")
    do(page, "Retreat")
    step(page, "advance")
    do(page, "Advance")
    logged(page, "advances into the vacated hex")
    screenshots(page, output_path, "bull_run-after-combat")


@pytest.mark.rule("BR-6.0", "BR-10.3")
def test_the_rules_assistant(page, server, offline, output_path):
    """A tap on a rule chip in the log opens its clause; a referenced clause is one more tap; closing leaves
    the page as it was. The Rules tab finds a clause by a word of it, and by a term of the game."""
    page.goto(server.url + "/bull_run")
    button(page, "Load the example roster").click()
    button(page, "Start the game").click()
    step(page, "roll_initiative")
    tap_faces(page, 2)
    logged(page, "Union has the initiative")
    page.locator(".event-log .rule[data-rule='BR-6.0']").first.click()
    dialog = page.locator(".clause-dialog")
    expect(dialog).to_contain_text("BR-6.0", timeout=SLOW)
    expect(dialog).to_contain_text("1-3")
    screenshots(page, output_path, "bull_run-clause")
    see = dialog.locator(".rule").first
    if see.count():
        target = see.get_attribute("data-rule")
        see.click()
        expect(dialog.locator("h3")).to_contain_text(target, timeout=SLOW)
        dialog.get_by_role("button", name="Back").click()
        expect(dialog.locator("h3")).to_contain_text("BR-6.0")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)
    step(page, "place_reinforcements")
    page.get_by_role("tab", name="Rules").click()
    search = page.locator(".rules-search input")
    search.fill("spread")
    expect(page.locator(".rules-results")).to_contain_text("BR-10.3", timeout=SLOW)
    search.fill("マクドウエル")
    expect(page.locator(".rules-results")).to_contain_text("BR-10.2", timeout=SLOW)
    screenshots(page, output_path, "bull_run-rules-tab")


# A roster of our own (not the example): name, side, entry hex, entry turn, SP (the highest box of its track).
OWN = [("Hampton's Legion", "CSA", "3", 1, 2), ("Jackson's Brigade", "CSA", "4", 1, 5),
       ("Sherman's Brigade", "UNION", "B", 1, 4), ("Keyes' Brigade", "UNION", "C", 2, 3)]


def cell(page, row: int, field: str):
    return page.locator(".roster-table .tabulator-row").nth(row).locator(f'.tabulator-cell[tabulator-field="{field}"]')


def editing(page, target, editor: str):
    """Tap a cell until its editor opens (a tap while the table redraws after the last edit is lost)."""
    for _ in range(8):
        try:
            target.click()
            found = target.locator("input").first if editor == "input" else page.locator(editor).first
            found.wait_for(timeout=2_500)
            return found
        except PlaywrightError:
            continue
    raise AssertionError(f"no editor opened on {target}")


def type_cell(page, row: int, field: str, value) -> None:
    """Type a value into a cell, as a player does: tap it, type, Enter."""
    target = cell(page, row, field)
    entry = editing(page, target, "input")
    entry.fill(str(value))
    entry.press("Enter")
    expect(target).to_have_text(str(value), timeout=SLOW)


def pick_cell(page, row: int, field: str, value: str) -> None:
    """Choose a value of a choice cell from its list."""
    target = cell(page, row, field)
    editing(page, target, f".tabulator-edit-list-item:text-matches('^{re.escape(value)}$')").click()
    expect(target).to_have_text(value, timeout=SLOW)


@pytest.mark.rule("BR-2.4", "BR-6.0", "BR-9.2", "BR-5.1")
def test_a_roster_of_our_own_typed_saved_opened_and_played(page, server, offline, output_path, tmp_path):
    """The roster typed into the table (no example, no pasted lines): a unit just added says nothing until it is
    filled in; the roster saved as a file and opened again unchanged; the game set up from it and its first steps
    played, every text naming the side that has the initiative."""
    page.goto(server.url + "/bull_run")
    note = page.locator(".roster-note")
    expect(note).to_contain_text("Enter your units", timeout=SLOW)
    for row, (name, side, entry_hex, turn, sp) in enumerate(OWN):
        button(page, "Add a unit").click()
        expect(page.locator(".roster-table .tabulator-row")).to_have_count(row + 1, timeout=SLOW)
        if row == 0:    # a blank row is no entry: nothing said about it yet
            expect(note).to_contain_text("Enter your units", timeout=SLOW)
        type_cell(page, row, "name", name)
        if side != "UNION":
            pick_cell(page, row, "side", side)
        type_cell(page, row, "entry_hex", entry_hex)
        if turn != 1:
            type_cell(page, row, "entry_turn", turn)
        type_cell(page, row, "max_sp", sp)
    expect(note).to_contain_text("The game has 25 counters; this roster has 4 units.", timeout=SLOW)

    with page.expect_download() as saving:
        page.locator(".save-setup button, .save-setup a").first.click()
    file = tmp_path / saving.value.suggested_filename
    saving.value.save_as(file)
    assert file.name == "bull_run-roster.json"
    saved = json.loads(file.read_text(encoding="utf-8"))
    rows = [{"name": n, "side": s, "entry_hex": h, "entry_turn": t, "max_sp": sp, "grey": False} for n, s, h, t, sp in OWN]
    assert saved == {"roster": rows}
    button(page, "Load the example roster").click()
    expect(note).to_contain_text("Example roster", timeout=SLOW)
    page.locator(".setup-file input[type=file]").first.set_input_files(str(file))
    expect(note).to_contain_text("this roster has 4 units", timeout=SLOW)
    expect(cell(page, 3, "name")).to_have_text("Keyes' Brigade", timeout=SLOW)
    screenshots(page, output_path, "bull_run-own-roster")

    button(page, "Start the game").click()
    step(page, "roll_initiative")
    tap_faces(page, 5)                      # 4-6: the CSA has the initiative (BR-6.0)
    logged(page, "rolled 5, CSA has the initiative")
    step(page, "place_reinforcements")
    do(page, "Place reinforcements")
    logged(page, "Turn 1: no reinforcements")
    expect(page.locator(".phase-title")).to_contain_text("CSA moves first (CSA initiative)", timeout=SLOW)
    step(page, "csa_action_roll")
    tap_faces(page, 1)
    logged(page, "order A (Attack on Centerville)")
    expect(page.locator(".turn-track")).to_contain_text("order A", timeout=SLOW)
    step(page, "move")
    other(page, "end_movement")
    step(page, "farm_ford_roll")
    tap_faces(page, 1)
    expect(page.locator(".phase-title")).to_contain_text("Union moves second (CSA initiative)", timeout=SLOW)
    step(page, "move")
    other(page, "end_movement")
    form = step(page, "declare_attack")
    expect(page.locator(".phase-title")).to_contain_text("CSA attacks first (CSA initiative)", timeout=SLOW)
    expect(form).to_contain_text("The CSA has the initiative this turn: every CSA stack", timeout=SLOW)
    expect(form.locator(".param-attackers")).to_contain_text("Jackson's Brigade (5 SP)")
    screenshots(page, output_path, "bull_run-own-roster-play")
