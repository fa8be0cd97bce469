"""How the browser tests act on the pages: by the CSS classes the apps give their controls; and a game played up to
a step in the server's own store, to open a page on."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.dice import ScriptedDice
from companion.session import GameSession
from companion.store import Store

SLOW = 30_000  # ms: a cold page on a loaded 2-core machine


def step(page: Page, action: str) -> Locator:
    """The phase guide's form of an action, once it is the step shown."""
    card = page.locator(f".step-{action}").first
    expect(card).to_be_visible(timeout=SLOW)
    return card


def guide(page: Page) -> Locator:
    """The guide's shared dice entry and action button."""
    return page.locator(".phase-guide .action-panel").first


def commit(page: Page) -> Locator:
    """The button that commits the step shown: the dice entry's "Roll for me" when it rolls dice, else the guide's
    action button."""
    return guide(page).locator(".roll-for-me button:visible, .do-action button:visible").first


def odds(page: Page) -> Locator:
    """The odds card of the action being prepared."""
    return page.locator(".odds-card").first


def button(scope: Locator | Page, name: str) -> Locator:
    return scope.get_by_role("button", name=name, exact=True)


def tap_faces(page: Page, *faces: int) -> None:
    """Enter dice rolled at the table: tap each face, then confirm."""
    panel = guide(page)
    for face in faces:
        panel.locator(f"button.face-{face}").click()
    label = "Use " + ", ".join(map(str, faces))
    expect(button(panel, label)).to_be_visible(timeout=SLOW)
    button(panel, label).click()


def do(page: Page, label: str) -> None:
    """The guide's action button (for a step that rolls no dice)."""
    button(guide(page), label).click()


def other(page: Page, action: str) -> None:
    """One of the other due steps, shown as a button under the guide (e.g. end_movement)."""
    page.locator(f".other-{action} button").click()


def other_form(page: Page, action: str) -> Locator:
    """Another due step whose form shows once its button under the guide is tapped: the form. A button drawn a
    moment before (the step just became due) can miss a tap while the page still draws it: tapped again, only
    while it is still shown, after 6 s without the form."""
    card, tapped = page.locator(f".step-{action}").first, page.locator(f".other-{action} button")
    tapped.click()
    try:
        card.wait_for(timeout=6_000)
    except PlaywrightTimeout:
        if tapped.is_visible():
            tapped.click()
    return step(page, action)


def log_text(page: Page) -> Locator:
    return page.locator(".event-log")


def logged(page: Page, text: str) -> None:
    expect(log_text(page)).to_contain_text(text, timeout=SLOW)


def seat(page: Page, name: str) -> None:
    """This device takes a seat (a side, a player; "Table": none) with the seat buttons."""
    buttons = page.locator(".seat-buttons")
    buttons.get_by_role("button", name=name, exact=True).click()
    expect(buttons.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true",
                                                                                   timeout=SLOW)


def played(server, slug: str, setup: Mapping[str, Any], script: Iterable[tuple[str, tuple, dict]],
           options: Mapping[str, Any] | None = None) -> str:
    """A game started on `setup` in the server's store and played through `script`, (action, dice, parameters) as
    the engines' golden transcripts write them; its session id."""
    session = GameSession.new(Store(server.data_dir), slug, setup, options)
    for kind, faces, params in script:
        session.act({"type": kind, **params}, ScriptedDice(faces))
    return session.id
