"""灰に硝煙と青き天 in a real browser: a whole round on the example board at tablet size, with dice entered at the
table, a battle whose takes follow the keep advice, recruitment, the victory check, undo and reload."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

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
    """Take the throw as the advice's best line says."""
    form = step(page, "keep")
    advice = form.locator(".advice-0 button")
    expect(advice).to_contain_text(f"Best: {best}", timeout=SLOW)
    advice.click()
    do(page, f"{side} takes dice")


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
    choose(page, "move-to", "Maryland")
    expect(move.locator(".move-from")).to_contain_text("Virginia")
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
    supply.locator(".supply-count input").fill("2")
    supply.locator(".supply-count input").press("Tab")
    do(page, "CSA: supply dice in Maryland")
    logged(page, "CSA adds 2 supply dice")
    supply.locator(".supply-count input").fill("1")
    supply.locator(".supply-count input").press("Tab")
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
        expect(step(page, "recruit").locator(".recruit-area")).to_contain_text(home, timeout=SLOW)
        tap_faces(page, roll)
        logged(page, f"Recruitment in {home}: rolled {roll}")
    expect(page.locator(".odds-card").first).to_contain_text("Union recruitment this phase", timeout=SLOW)
    screenshots(page, output_path, "border_states-recruitment")

    # undo the last roll: it was rolled at the table, so the companion asks first
    button(page, "Undo").click()
    expect(page.locator(".undo-question")).to_contain_text("rolled at the table", timeout=SLOW)
    button(page, "Yes, undo it").click()
    logged(page, "Undo: Round 1: Union: Recruitment in Union home 4")
    expect(step(page, "recruit").locator(".recruit-area")).to_contain_text("Union home 4", timeout=SLOW)
    count = page.locator(".event-log li").count()
    tracks = page.locator(".tracks-pane").first.inner_text()

    page.reload()
    expect(step(page, "recruit").locator(".recruit-area")).to_contain_text("Union home 4", timeout=SLOW)
    assert page.locator(".event-log li").count() == count
    assert page.locator(".tracks-pane").first.inner_text() == tracks

    tap_faces(page, 6)
    logged(page, "Recruitment in Union home 4: rolled 6 against 3+, a unit is placed")
    tap_faces(page, 4)
    logged(page, "round 2 begins")
    title(page, "Round 2 of 4: draw phase")
    expect(page.locator(".tracks-pane")).to_contain_text(re.compile(r"Union: supply 18/18, units 10/10"))
    screenshots(page, output_path, "border_states-round-2")
