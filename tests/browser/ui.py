"""How the browser tests act on the pages: by the CSS classes the apps give their controls."""
from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

SLOW = 30_000  # ms: a cold page on a loaded 2-core machine


def step(page: Page, action: str) -> Locator:
    """The phase guide's form of an action, once it is the step shown."""
    card = page.locator(f".step-{action}").first
    expect(card).to_be_visible(timeout=SLOW)
    return card


def guide(page: Page) -> Locator:
    """The guide's shared dice entry and action button."""
    return page.locator(".phase-guide .action-panel").first


def button(scope: Locator | Page, name: str) -> Locator:
    return scope.get_by_role("button", name=name, exact=True)


def tap_faces(page: Page, *faces: int) -> None:
    """Enter dice rolled at the table: tap each face, then confirm."""
    panel = guide(page)
    for face in faces:
        panel.locator(f".face-{face} button").click()
    label = "Use " + ", ".join(map(str, faces))
    expect(button(panel, label)).to_be_visible(timeout=SLOW)
    button(panel, label).click()


def do(page: Page, label: str) -> None:
    """The guide's action button (for a step that rolls no dice)."""
    button(guide(page), label).click()


def other(page: Page, action: str) -> None:
    """One of the other due steps, shown as a button under the guide (e.g. end_movement)."""
    page.locator(f".other-{action} button").click()


def log_text(page: Page) -> Locator:
    return page.locator(".event-log")


def logged(page: Page, text: str) -> None:
    expect(log_text(page)).to_contain_text(text, timeout=SLOW)
