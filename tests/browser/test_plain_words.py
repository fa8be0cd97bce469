"""Plain words on every page, in a real browser: for each game, the landing page, the game's setup page (its example
loaded) and a game started on the example, with every tab of the setup page (New game, Options, Resume, Import) and
of the game page (Play, Units, Board, Map, Odds & tables, Rules, ... whatever the game has) opened in turn. The
text shown on each (every text through the shadow roots, but what is hidden) has no word meant for developers: no
ambiguity or question number (A3, Q12), no test vector (TV-12), no "digest", no "source" (the rulebook the digest
was made from); see tests/words.py. No page logs a JavaScript error meanwhile (the autouse fixture
`no_javascript_errors` watches every page), and nothing is asked of a host other than the local server."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import developer_words
from .test_reading import EXAMPLES
from .ui import SLOW, button

pytestmark = pytest.mark.browser

SHOWN_TEXT = """(root) => {
  // the text shown under root (a page, or the element of a tab group: then its open tab's content, not its tab list)
  const texts = [];
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (child.parentElement && shown(child.parentElement)) texts.push(child.textContent);
      } else if (child.nodeType === Node.ELEMENT_NODE && !['STYLE', 'SCRIPT', 'TEMPLATE'].includes(child.nodeName)
                 && child.getAttribute('role') !== 'tablist') {
        if (child.shadowRoot) walk(child.shadowRoot);
        walk(child);
      }
    }
  };
  walk(root.shadowRoot || root);
  return texts.join(' ').replace(/\\s+/g, ' ').trim();
}"""


def shown_text(scope: Page | Locator) -> str:
    if isinstance(scope, Locator):
        return scope.evaluate(SHOWN_TEXT)
    return scope.evaluate(f"() => ({SHOWN_TEXT})(document.body)")


def settled(scope: Locator) -> str:
    """The open tab's text once it is there and has stopped changing (a tab is built the first time it is opened)."""
    last, deadline = None, time.monotonic() + SLOW / 1000
    while time.monotonic() < deadline:
        text = shown_text(scope)
        if text and text == last:
            return text
        last = text
        time.sleep(0.4)
    raise AssertionError(f"the tab did not settle within {SLOW / 1000:.0f} s: {last!r:.200}")


def every_tab(page: Page, group: str, where: str) -> list[str]:
    """Open each tab of the tab group `group` (a CSS class) in turn; the developer words its content shows."""
    host = page.locator(group).first
    tabs = host.get_by_role("tab")
    expect(tabs.first).to_be_visible(timeout=SLOW)
    found = []
    for i in range(tabs.count()):
        tab = tabs.nth(i)
        name = tab.inner_text().strip()
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true", timeout=SLOW)
        found += [f"{where}, tab {name!r}: {w!r}" for w in developer_words(settled(host))]
    tabs.first.click()
    expect(tabs.first).to_have_attribute("aria-selected", "true", timeout=SLOW)
    return found


def on_page(page: Page, where: str) -> list[str]:
    return [f"{where}: {w!r}" for w in developer_words(shown_text(page))]


@pytest.mark.parametrize("slug", list(EXAMPLES))
def test_every_page_and_tab_of_a_game_speaks_plain_words(page, server, offline, slug):
    page.goto(server.url + "/")
    expect(page.locator(f".game-{slug} .open-game").first).to_be_visible(timeout=SLOW)
    found = on_page(page, "landing page")

    page.locator(f".game-{slug} .open-game").first.click()
    load, note, says = EXAMPLES[slug]
    button(page, load).click(timeout=SLOW)
    expect(page.locator(note).first).to_contain_text(says, timeout=SLOW)
    found += on_page(page, "setup page") + every_tab(page, ".picker-tabs", "setup page")

    button(page, "Start the game").click(timeout=SLOW)
    expect(page.locator(".phase-guide .step").first).to_be_visible(timeout=SLOW)
    found += on_page(page, "game page") + every_tab(page, ".game-tabs", "game page")
    assert not found, "words meant for developers:\n" + "\n".join(found)
