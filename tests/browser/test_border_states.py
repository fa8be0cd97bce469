"""灰に硝煙と青き天 in a real browser: a whole round on the example board at tablet size, with dice entered at the
table, a battle whose takes follow the keep advice, recruitment, the victory check, undo and reload; and a players'
board whose state, card and label carry script, shown as text with no script run."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from engines.border_states.example import example_board

from .test_shell import screenshots
from .ui import SLOW, button, do, logged, other, step, tap_faces

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
    page.locator(".board-json textarea").first.fill(scripted_board())
    page.locator(".board-json textarea").first.press("Tab")
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
