"""Dixie: Gettysburg in a real browser at tablet size: the fictional example deck, with a script-bearing card name,
deployed as in the golden transcript; this device takes the CSA's side, deploys one more card by tapping it and a
tile, then plays the CSA's fire with dice entered at the table (tap the firing card, the target tile), the hits
placed, a move that engages, the draw. What the server sent the CSA's page names no face-down USA card, and the
script in a card name never runs."""
from __future__ import annotations

import html
import json
import re

import pytest
from playwright.sync_api import expect

from companion.dice import ScriptedDice
from companion.session import GameSession
from companion.store import Store
from engines.dixie.example import example_cards
from tests.engines.dixie.test_golden import DEPLOYMENT

from .test_shell import screenshots
from .ui import SLOW, button, logged, other, seat, step, tap_faces

pytestmark = pytest.mark.browser

SCRIPTED = "<img src=x onerror=alert(1)>Battery"


def card(page, card_id: str):
    return page.locator(f".battlefield [data-card='{card_id}']").first


def tile(page, position: str):
    return page.locator(f".battlefield [data-pos='{position}']").first


def act(page) -> None:
    """The guide's action button of the step shown (one that rolls no dice)."""
    page.locator(".phase-guide .action-panel .do-action button").first.click()


def deployed_game(server) -> tuple[str, list[str]]:
    """The example deck (the CSA battery renamed with a script in its name), deployed but for CSA-906; the
    session id and the names of the USA cards still face-down."""
    cards = [dict(c) for c in example_cards()]
    for c in cards:
        if c["side"] == "CSA" and c["number"] == 915:
            c["name"] = SCRIPTED
    session = GameSession.new(Store(server.data_dir), "dixie", {"cards": cards}, title="Dixie")
    for c, pos in DEPLOYMENT.items():
        if c != "CSA-906":
            session.act({"type": "deploy", "card": c, "position": pos}, ScriptedDice([]))
    hidden = [c.spec.name for c in session.state.cards if c.side == "USA" and not c.face_up]
    return session.id, hidden


@pytest.mark.rule("DX-3.2", "DX-7.2", "DX-7.3", "DX-8.1", "DX-9.0")
def test_a_csa_turn_on_the_csa_device_sees_no_hidden_usa_card(page, server, offline, output_path):
    session, hidden = deployed_game(server)
    frames, dialogs = [], []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{server.url}/dixie?session={session}")
    step(page, "deploy")
    seat(page, "CSA")
    expect(tile(page, "USA-L").locator(".back")).to_have_count(2, timeout=SLOW)   # USA units face-down: backs
    card(page, "CSA-906").click()
    tile(page, "CSA-C").click()
    act(page)
    logged(page, "to CSA-C")
    other(page, "start_battle")
    logged(page, "the CSA begins")

    # CSA turn 1: the battery (its name carries a script, shown as text) fires long range at USA-R
    step(page, "end_morale")
    act(page)
    step(page, "fire")
    expect(card(page, "CSA-915")).to_contain_text("onerror", timeout=SLOW)
    card(page, "CSA-915").click()
    tile(page, "USA-R").click()
    expect(page.locator(".odds-card").first).to_contain_text("Fire CSA-L -> USA-R (long", timeout=SLOW)
    screenshots(page, output_path, "dixie-fire")
    tap_faces(page, 1, 6)
    logged(page, "fires at USA-R")
    step(page, "allocate_hits")
    act(page)
    logged(page, "USA hits in USA-R")
    step(page, "end_combat")
    act(page)
    step(page, "move")
    card(page, "CSA-908").click()
    tile(page, "USA-L").click()
    act(page)
    logged(page, "advances from CSA-R to USA-L")
    other(page, "end_movement")
    step(page, "reinforce")
    button(page.locator(".phase-guide .action-panel").first, "Roll for me").click()
    logged(page, "CSA draws 1 card; turn 2, USA")
    screenshots(page, output_path, "dixie-turn-2")

    # the script never ran; the USA's face-down cards never reached this page
    assert dialogs == [] and page.locator(".battlefield img").count() == 0
    received = html.unescape(html.unescape("\n".join(frames).replace("\\u003c", "<").replace("\\u003e", ">")))
    state = GameSession.open(Store(server.data_dir), session).state
    hidden = [c.spec.name for c in state.cards if c.side == "USA" and c.spec.name in hidden and not c.face_up]
    still_hidden = [n for n in hidden if re.search(re.escape(n), received)]
    assert hidden and "Example Brigade" in received and still_hidden == [], still_hidden


@pytest.mark.rule("DX-1.0", "DX-2.0")
def test_our_own_decks_pasted_checked_live_and_started(page, server, offline, output_path):
    """A player's own card list (the fictional example's values under the players' own names and numbers) pasted
    into the setup: the deck check beside the table says what is wrong as the cards change, and clears when fixed;
    the game starts on those cards."""
    cards = [dict(c, name=f"Our {c['name'].replace('Example ', '')}", number=c["number"] - 800)
             for c in example_cards()]
    page.goto(f"{server.url}/dixie")
    paste = page.locator(".setup-paste textarea").first
    paste.fill(json.dumps(cards[1:]))                 # one card short of the CSA's deck
    button(page, "Read the pasted file").click()
    note = page.locator(".cards-note").first
    expect(note).to_contain_text("For the basic game", timeout=SLOW)
    paste.fill(json.dumps(cards))
    button(page, "Read the pasted file").click()
    expect(note).to_contain_text("The decks are valid for the basic game", timeout=SLOW)
    expect(note).not_to_contain_text("For the basic game")
    screenshots(page, output_path, "dixie-own-decks")
    button(page, "Start the game").click()
    step(page, "deploy")
    expect(page.locator(".phase-guide").first).to_contain_text("Our", timeout=SLOW)   # our cards to deploy
