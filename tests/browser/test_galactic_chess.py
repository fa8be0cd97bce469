"""Galactic Chess Game in a real browser at tablet size: a 3-player session on the example (fictional) cards, hands
dealt by typed dice and placed on each player's own device, a sortie, a battle with the target advice and dice
entered at the table, a plot, the end check, undo, reload, the same state (and this device's player kept)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .test_shell import screenshots
from .ui import SLOW, button, do, guide, logged, other, step, tap_faces

pytestmark = pytest.mark.browser

D = "Demo "


def title(page: Page, text: str) -> None:
    expect(page.locator(".phase-title").first).to_contain_text(text, timeout=SLOW)


def device(page: Page, player: str) -> None:
    """This device is the player's (the choice stays in this browser)."""
    page.locator(".device-seat").get_by_role("button", name=player, exact=True).click()
    expect(page.locator(".device-seat").get_by_role("button", name=player, exact=True)).to_have_attribute(
        "aria-pressed", "true", timeout=SLOW)


def choose(page: Page, css: str, option: str) -> None:
    """Pick an option of a Material select."""
    page.locator(f".{css}").first.click()
    page.locator("li", has_text=re.compile(f"^{re.escape(option)}$")).first.click()


def typed(page: Page, faces: str) -> None:
    """Dice rolled at the table, typed in."""
    panel = guide(page)
    panel.locator(".typed-faces input").fill(faces)
    button(panel, "Use typed dice").click()


def tab(page: Page, name: str) -> None:
    page.locator(".game-tabs").get_by_role("tab", name=name).click()


def hand(page: Page, text: str, shown: bool = True) -> None:
    """This device's hand (its own tab), then back to play."""
    tab(page, "My hand")
    check = expect(page.locator(".own-hand").first)
    (check.to_contain_text if shown else check.not_to_contain_text)(text, timeout=SLOW)
    tab(page, "Play")


def place(page: Page, player: str, persons: list[str]) -> None:
    device(page, player)
    form = step(page, "place")
    for person in persons:
        form.locator(".place-persons").get_by_role("button", name=D + person, exact=True).click()
    do(page, f"{player} places persons")
    logged(page, f"{player} has chosen a placement (secret)" if player != "Cat" else "Placements revealed")


@pytest.mark.rule("GC-3", "GC-5", "GC-6B.12", "GC-6B.5", "GC-6B.6", "GC-6A.32", "GC-9")
def test_a_turn_with_a_battle_a_plot_and_the_end_check(page, server, offline, output_path):
    page.goto(server.url + "/galactic_chess")
    button(page, "Load the example (fictional) cards").click()
    expect(page.locator(".cards-note")).to_contain_text("Example (fictional)", timeout=SLOW)
    screenshots(page, output_path, "galactic_chess-setup")
    button(page, "Start the game").click()

    # GC-3: the companion deals, each die naming a card of the period deck (the first left, each time)
    for player in ("Ann", "Ben", "Cat"):
        step(page, "deal_hand")
        typed(page, "1 1 1 1 1 1")
        logged(page, f"{player} is dealt 6 cards")
    expect(page.locator(".table-facts")).to_contain_text("Example (fictional)", timeout=SLOW)
    hand(page, "no hand is shown")
    place(page, "Ann", ["Marshal Aurum", "Admiral Basalt", "Admiral Cobalt", "Commodore Dune", "Lancer Flint"])
    hand(page, "Demo Count Ember")     # Ann's own hand, on her device
    place(page, "Ben", ["Marshal Garnet", "Admiral Harbor", "Admiral Indigo", "Commodore Jade", "Senator Kestrel"])
    hand(page, "Demo Count Ember", shown=False)
    place(page, "Cat", ["Governor Mica", "Admiral Nickel", "Admiral Opal"])
    logged(page, "Iserlohn commander: Demo Admiral Cobalt")
    tab(page, "Table")
    expect(page.locator(".table-players")).to_contain_text("Ann · hand 1 card", timeout=SLOW)
    expect(page.locator(".table-players")).not_to_contain_text("Demo Count Ember")
    screenshots(page, output_path, "galactic_chess-table")
    tab(page, "Play")

    # turn 1, Ann: order roll 4 (2 fleets), EMP sorties against FPA
    step(page, "roll_order")
    expect(page.locator(".odds-card").first).to_contain_text("P(forced sortie)", timeout=SLOW)
    tap_faces(page, 4)
    logged(page, "Order roll 4: small offensive, 2 fleets")
    step(page, "sortie")
    do(page, "Sortie")
    logged(page, "EMP sorties against FPA with up to 2 fleets")
    form = step(page, "declare")
    for fleet in ("Marshal Aurum", "Commodore Dune"):
        form.locator(".declare-fleets").get_by_role("button", name=D + fleet, exact=True).click()
    do(page, "Ann declares")
    step(page, "nominate")
    do(page, "Name the first defender")
    logged(page, "Ben is the first defender")
    form = step(page, "declare")
    for fleet in ("Admiral Harbor", "Commodore Jade"):
        form.locator(".declare-fleets").get_by_role("button", name=D + fleet, exact=True).click()
    do(page, "Ben declares")
    logged(page, "the defenders are set, SC Demo Admiral Harbor")
    page.locator(".battle-screen").first.scroll_into_view_if_needed()
    screenshots(page, output_path, "galactic_chess-battle")

    # the battle: Aurum's target advice, then dice entered at the table
    form = step(page, "engage")
    expect(form.locator(".target-advice")).to_contain_text("engage Demo Commodore Jade", timeout=SLOW)
    expect(page.locator(".battle-screen")).to_contain_text("Next opportunity: Demo Marshal Aurum")
    form.locator(".engage-target").get_by_role("button", name=D + "Commodore Jade", exact=True).click()
    expect(page.locator(".odds-card").first).to_contain_text("Demo Marshal Aurum engages Demo Commodore Jade",
                                                             timeout=SLOW)
    expect(page.locator(".odds-card").first).to_contain_text("P(attacker sweeps the field)")
    screenshots(page, output_path, "galactic_chess-target-advice")
    tap_faces(page, 3, 3)
    logged(page, "Demo Commodore Jade destroyed; Ann +1 VP in EMP")
    form = step(page, "engage")
    form.locator(".engage-target").get_by_role("button", name=D + "Commodore Dune", exact=True).click()
    tap_faces(page, 1, 1)
    step(page, "strike_back")
    tap_faces(page, 2, 2)
    logged(page, "nobody is destroyed")
    other(page, "retreat")
    step(page, "retreat")
    expect(page.locator(".odds-card").first).to_contain_text("2d6 ≤ 9", timeout=SLOW)
    tap_faces(page, 6, 5)
    step(page, "free_attack")
    tap_faces(page, 2, 1)
    logged(page, "Demo Commodore Dune stays. The battle is over")
    step(page, "end_turn")
    do(page, "End check")
    logged(page, "Turn 1 (Ann) ends; Ben is next")

    # turn 2, Ben: a draw named on his own device, then a plot
    step(page, "roll_order")
    tap_faces(page, 2)
    device(page, "Ben")
    other(page, "draw")
    step(page, "draw")
    choose(page, "drawn-card", D + "Response: Lifeboat 1")
    do(page, "Draw a card")
    logged(page, "Ben draws a card")
    hand(page, "Demo Response: Lifeboat 1")
    other(page, "plot")
    step(page, "plot")
    choose(page, "plotter", D + "Senator Kestrel")
    choose(page, "plot-target", D + "Admiral Opal")
    expect(guide(page)).to_contain_text("Plot by Demo Senator Kestrel on Demo Admiral Opal", timeout=SLOW)
    expect(page.locator(".odds-card").first).to_contain_text("83.3% (5/6)", timeout=SLOW)
    screenshots(page, output_path, "galactic_chess-plot")
    tap_faces(page, 3, 3)
    logged(page, "Demo Admiral Opal is destroyed")
    step(page, "end_turn")
    expect(page.locator(".odds-card").first).to_contain_text("Alliance ★★+ admirals", timeout=SLOW)
    do(page, "End check")
    logged(page, "Turn 2 (Ben) ends; Cat is next")

    # undo the end check (no dice: no question), reload: the same state, and this device is still Ben's
    button(page, "Undo").click()
    logged(page, "Undo: Turn 2 (Ben) ends")
    title(page, "Turn 2: Ben, end check")
    count = page.locator(".event-log li").count()
    facts = page.locator(".table-facts").first.inner_text()
    page.reload()
    title(page, "Turn 2: Ben, end check")
    step(page, "end_turn")
    assert page.locator(".event-log li").count() == count
    assert page.locator(".table-facts").first.inner_text() == facts
    hand(page, "Hand of Ben")
    hand(page, "Demo Response: Lifeboat 1")
    expect(page.locator(".device-seat").get_by_role("button", name="Ben", exact=True)).to_have_attribute(
        "aria-pressed", "true", timeout=SLOW)
    screenshots(page, output_path, "galactic_chess-after-reload")
    do(page, "End check")
    logged(page, "Turn 2 (Ben) ends; Cat is next")
    title(page, "Turn 3: Cat, order roll")
