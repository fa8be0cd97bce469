"""The landing page: the five games, links to the saved sessions of the games with an engine."""
from __future__ import annotations

import html

import panel as pn
import panel_material_ui as pmui
import pytest

import engines
from apps.index import landing
from companion.cli import app_paths
from companion.session import GameSession
from companion.store import DATA_DIR_ENV, Store
from companion.ui.text import Text

pytestmark = pytest.mark.usefixtures("panel_extensions")

TITLES = ["Battle at Bull Run", "Dixie: Gettysburg", "灰に硝煙と青き天 -南北戦争-",
          "A House Divided (advanced rules)", "Galactic Chess Game"]


@pytest.fixture
def store(tmp_path, monkeypatch) -> Store:
    """The data folder the landing page reads."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    return Store(tmp_path)


def cards(page) -> dict[str, pmui.Card]:
    return {c.css_classes[1].removeprefix("game-"): c for o in page.main for c in o.select(pmui.Card)}


def test_the_five_games_are_listed_in_order(store):
    page = landing()
    assert [c.title for c in cards(page).values()] == TITLES
    assert list(cards(page)) == [slug for slug, _, _ in engines.CATALOGUE]
    assert page.main[-1].object == f"Games are saved in {store.folder}"


def test_games_with_an_engine_link_their_saved_sessions(store):
    first = GameSession.new(store, "bull_run", engines.get("bull_run").example_setup(), title="Friday <night>")
    second = GameSession.new(store, "bull_run", engines.get("bull_run").example_setup(), title="Saturday")
    card = cards(landing())["bull_run"]
    [saved] = [x for x in card.select(pn.pane.HTML) if not isinstance(x, Text)]
    for session in (first, second):
        assert f'<a href="/bull_run?session={session.id}">{html.escape(session.record.title)}</a>' in saved.object
    assert "0 events" in saved.object
    [play] = card.select(pmui.Button)
    assert play.href == "/bull_run"
    assert "unavailable" not in card.css_classes


def test_a_game_with_an_engine_and_no_saved_session_says_so(store):
    [saved] = [x for x in cards(landing())["bull_run"].select(pn.pane.HTML) if not isinstance(x, Text)]
    assert saved.object == "<p>No saved games yet.</p>"


@pytest.mark.parametrize("slug", [slug for slug, _, _ in engines.CATALOGUE])
def test_every_game_has_a_served_page_and_a_card_that_opens_it(store, slug):
    assert app_paths()[f"/{slug}"].endswith(f"apps/{slug}.py")
    [play] = cards(landing())[slug].select(pmui.Button)
    assert play.href == f"/{slug}"
