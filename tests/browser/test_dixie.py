"""Dixie: Gettysburg in a real browser at tablet size: the fictional example deck deployed by tapping cards and
tiles, then a CSA turn and a USA turn: a morale step with entered dice, fires with entered and app dice, a move
that engages, reinforcement draws, the undo of a roll after confirmation, a reload, the same state."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_shell import screenshots
from .ui import SLOW, button, do, guide, log_text, logged, other, step, tap_faces

pytestmark = pytest.mark.browser

# The golden transcript's deployment (tests/engines/dixie/test_golden.py), by position.
DEPLOYMENT = {
    "CSA-L": ("CSA-904", "CSA-905", "CSA-915", "CSA-917"), "CSA-C": ("CSA-906", "CSA-907", "CSA-901"),
    "CSA-R": ("CSA-908", "CSA-909", "CSA-918"),
    "USA-R": ("USA-954", "USA-955", "USA-968"), "USA-C": ("USA-956", "USA-957", "USA-965", "USA-967", "USA-952"),
    "USA-L": ("USA-959", "USA-960", "USA-951"),
}


def card(page, card_id: str):
    return page.locator(f".battlefield [data-card='{card_id}']").first


def tile(page, position: str):
    return page.locator(f".battlefield [data-pos='{position}']").first


def seen_by(page, label: str) -> None:
    page.locator(".seen-by").get_by_role("button", name=label, exact=True).click()


def board(page):
    return page.locator(".battlefield .field").first


def look(page, output_path, name: str) -> None:
    """Screenshots at both tablet sizes: the battlefield with the odds beside it, then the step guide."""
    page.locator(".victory-monitor").first.scroll_into_view_if_needed()
    screenshots(page, output_path, f"{name}-board")
    page.locator(".phase-guide").first.scroll_into_view_if_needed()
    screenshots(page, output_path, f"{name}-guide")


@pytest.mark.rule("DX-3.2", "DX-6.0", "DX-7.2", "DX-7.3", "DX-8.1", "DX-9.0")
def test_a_csa_turn_and_a_usa_turn(page, server, offline, output_path):
    page.goto(server.url + "/dixie")
    button(page, "Load the fictional example deck").click(timeout=SLOW)
    expect(page.locator(".cards-note")).to_contain_text("Example (fictional)", timeout=SLOW)
    button(page, "Start the game").click()
    step(page, "deploy")
    page.wait_for_url(re.compile(r"session="))
    expect(page.locator(".victory-monitor")).to_contain_text("not real Gettysburg card data")

    # deployment: tap the cards in the reserve, then the tile; the USA's reserve is hidden from the CSA
    expect(page.locator(".battlefield [data-pos='reserve-USA'] .back")).to_have_text("18")
    for position, cards in DEPLOYMENT.items():
        if position == "USA-R":
            seen_by(page, "USA")
            expect(card(page, "USA-954")).to_be_visible(timeout=SLOW)
        for card_id in cards:
            card(page, card_id).click()
        tile(page, position).click()
        button(step(page, "deploy"), "Deploy the ticked cards").click()
        expect(tile(page, position).locator("[data-card]")).to_have_count(len(cards), timeout=SLOW)
    seen_by(page, "CSA")
    expect(tile(page, "USA-L").locator(".back")).to_have_count(2)     # USA units face-down: backs to the CSA
    seen_by(page, "Side to play")
    other(page, "start_battle")
    logged(page, "deployment done (CSA 10, USA 11 cards on the field); the CSA begins")

    # CSA turn 1: nothing to check; the battery in CSA-L fires long range at USA-R with dice entered
    step(page, "end_morale")
    do(page, "End the morale step")
    form = step(page, "fire")
    tile(page, "USA-R").click()
    expect(page.locator(".odds-card").first).to_contain_text("P(at least 1 hit)", timeout=SLOW)
    expect(page.locator(".odds-card").first).to_contain_text("Fire CSA-L -> USA-R (long")
    expect(form.locator(".firers")).to_contain_text("Example Battery Anvil")
    look(page, output_path, "dixie-fire")
    tap_faces(page, 1, 6)
    logged(page, "fires at USA-R: 2d at F2 rolled 1 6: 1 hit, 1 six")
    step(page, "allocate_hits")
    do(page, "Allocate hits")
    logged(page, "USA hits in USA-R")
    step(page, "end_combat")
    do(page, "End the combat step")

    # a move that engages: CSA-908 advances from CSA-R across the Middle Ground into USA-L
    step(page, "move")
    card(page, "CSA-908").click()
    tile(page, "USA-L").click()
    do(page, "Move")
    logged(page, "advances from CSA-R to USA-L")
    other(page, "end_movement")
    logged(page, "reinforcement step")
    expect(tile(page, "USA-L")).to_contain_text("engaged", timeout=SLOW)
    step(page, "reinforce")
    button(guide(page), "Roll for me").click()
    logged(page, "CSA draws 1 card; turn 2, USA")

    # USA turn 2: the morale step with dice entered at the table
    step(page, "check_morale")
    expect(page.locator(".odds-card").first).to_contain_text("This morale step", timeout=SLOW)
    tap_faces(page, 4)
    logged(page, "checks morale 4 against 1 hit: rolled 4, holds")
    expect(log_text(page)).to_contain_text("table roll 4")

    # undo that roll: it was rolled at the table, so the companion asks first; then reload
    button(page, "Undo").click()
    expect(page.locator(".undo-question")).to_contain_text("rolled at the table", timeout=SLOW)
    button(page, "Yes, undo it").click()
    logged(page, "Undo: Turn 2 (USA)")
    step(page, "check_morale")
    count = page.locator(".event-log li").count()
    field = board(page).text_content()
    page.reload()
    step(page, "check_morale")
    logged(page, "Undo: Turn 2 (USA)")
    assert page.locator(".event-log li").count() == count
    expect(board(page)).to_have_text(field, timeout=SLOW)
    expect(card(page, "USA-954").locator(".hit")).to_have_text("1")

    tap_faces(page, 4)
    logged(page, "rolled 4, holds")
    step(page, "end_morale")
    do(page, "End the morale step")

    # a fire with the companion's dice: USA-L's infantry at the CSA card that came in
    form = step(page, "fire")
    tile(page, "USA-L").click()
    expect(page.locator(".odds-card").first).to_contain_text("Fire USA-L -> USA-L (short", timeout=SLOW)
    expect(page.locator(".odds-card").first).to_contain_text("P(an enemy unit routed or destroyed")
    button(guide(page), "Roll for me").click()
    logged(page, "fires at USA-L")
    expect(log_text(page)).to_contain_text("companion roll")
    page.wait_for_timeout(500)
    if page.locator(".step-allocate_hits").first.is_visible():
        do(page, "Allocate hits")
        logged(page, "CSA hits in USA-L")
    other(page, "end_combat")
    logged(page, "combat step done; movement step")

    # movement from the reserve, then two cards drawn by the companion
    step(page, "move")
    card(page, "USA-961").click()
    tile(page, "USA-R").click()
    do(page, "Move")
    logged(page, "moves from reserve to USA-R")
    other(page, "end_movement")
    step(page, "reinforce")
    button(guide(page), "Roll for me").click()
    logged(page, "USA draws 2 cards; turn 3, CSA")
    expect(page.locator(".phase-title")).to_contain_text("Turn 3: CSA morale step")
    look(page, output_path, "dixie-turn-3")
