"""How the browser tests act on the pages: by the CSS classes the apps give their controls."""
from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

SLOW = 30_000  # ms: a cold page on a loaded 2-core machine


def step(page: Page, action: str) -> Locator:
    """The phase-guide card of an action, once it is shown."""
    card = page.locator(f".step-{action}").first
    card.wait_for(timeout=SLOW)
    return card


def button(scope: Locator | Page, name: str) -> Locator:
    return scope.get_by_role("button", name=name, exact=True)


def tap_faces(card: Locator, *faces: int) -> None:
    """Enter dice rolled at the table: tap each face, then confirm."""
    for face in faces:
        card.locator(f".face-{face} button").click()
    label = "Use " + ", ".join(map(str, faces))
    expect(button(card, label)).to_be_visible(timeout=SLOW)
    button(card, label).click()


def log_text(page: Page) -> Locator:
    return page.locator(".event-log")

