"""The rules assistant of every game in a real browser, at tablet size: a rule chip in the log opens its
clause, a referenced clause is one more tap, closing leaves the page as it was; the Rules tab finds a clause
by a word of it."""
from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

import engines
from companion.dice import RandomDice
from companion.play import random_action
from companion.rulebook import load
from companion.session import GameSession
from companion.store import Store

from .test_shell import screenshots
from .ui import SLOW

pytestmark = pytest.mark.browser


def game_with_a_log(server, slug: str) -> str:
    """A game of the example setup with its first few steps played (by legal choices), saved in the server's
    folder; its id."""
    engine = engines.get(slug)
    session = GameSession.new(Store(server.data_dir), slug, engine.example_setup(), title="Rules")
    rng = random.Random(3)
    for _ in range(4):
        action = random_action(engine.actions, session.state, rng)
        if action is None:
            break
        session.act(action, RandomDice(rng=rng))
    return session.id


def a_word_of(slug: str) -> tuple[str, str]:
    """A clause with references, and the longest word of its title (to search for)."""
    clause = next(c for c in load(slug).clauses.values() if c.see and max(map(len, c.title.split()), default=0) > 4)
    return clause.id, max(clause.title.split(), key=len).strip("()',.")


@pytest.mark.parametrize("slug", engines.GAMES)
def test_a_rule_chip_opens_its_clause_and_the_rules_tab_finds_it(page, server, offline, output_path, slug):
    page.goto(f"{server.url}/{slug}?session={game_with_a_log(server, slug)}")
    chip = page.locator(".event-log .rule").first
    expect(chip).to_be_visible(timeout=SLOW)
    rule = chip.get_attribute("data-rule")
    before = page.locator(".event-log li").count()
    chip.click()
    dialog = page.locator(".clause-dialog")
    expect(dialog.locator("h3")).to_contain_text(rule, timeout=SLOW)
    screenshots(page, output_path, f"{slug}-clause")
    reference = dialog.locator(".rule").first
    if reference.count():
        target = reference.get_attribute("data-rule")
        reference.click()
        expect(dialog.locator("h3")).to_contain_text(target, timeout=SLOW)
        dialog.get_by_role("button", name="Back").click()
        expect(dialog.locator("h3")).to_contain_text(rule)
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)
    assert page.locator(".event-log li").count() == before
    clause, word = a_word_of(slug)
    page.get_by_role("tab", name="Rules", exact=True).click()
    page.locator(".rules-search input").fill(word)
    expect(page.locator(".rules-results")).to_contain_text(clause, timeout=SLOW)
    screenshots(page, output_path, f"{slug}-rules-tab")
