"""Galactic Chess Game in a real browser at tablet size: a 3-player session on the example (fictional) cards, hands
dealt by typed dice and placed on each player's own seat, a sortie, a battle with the target advice and dice entered
at the table, a plot, the end check, undo, reload, the same state (and this device's seat kept). Then hidden hands:
two seats and the table on three devices, the deal, and what the server sent each page; a seat held by one device
taken by another only once let go; card names carrying script shown as text."""
from __future__ import annotations

import html
import json
import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.session import GameSession
from companion.store import Store
from engines.galactic_chess.example import EXAMPLE_EVENTS, EXAMPLE_FORTRESS, EXAMPLE_PERSONS

from .conftest import TABLET
from .test_shell import SCRIPT, assert_no_script_ran, screenshots
from .ui import SLOW, button, do, guide, logged, other, other_form, seat, step, tap_faces

pytestmark = pytest.mark.browser

D = "Demo "


def title(page: Page, text: str) -> None:
    expect(page.locator(".phase-title").first).to_contain_text(text, timeout=SLOW)


def pick(page: Page, name: str, option: str) -> None:
    """Pick an option of a generic form's searchable select (a parameter with many choices)."""
    page.locator(f".param-{name} [role=combobox]").first.click()
    page.locator("li", has_text=re.compile(f"^{re.escape(option)}$")).first.click()


def name_cards(form, cards: list[str]) -> None:
    """Cards named one by one: a chip each when few can be chosen, else typed into the searchable list and picked."""
    box = form.locator(".param-cards")
    search = box.get_by_role("combobox")
    expect(box.get_by_role("button", name=cards[0], exact=True).or_(search)).to_be_visible(timeout=SLOW)
    for card in cards:
        if search.is_visible():
            search.click()
            menu = form.page.get_by_role("listbox")
            menu.get_by_placeholder("Search...").fill(card.split()[-1])
            expect(menu.get_by_role("menuitem").filter(has_text=card)).to_have_count(1)
            menu.get_by_role("menuitem", name=card, exact=True).click()
            form.page.keyboard.press("Escape")
        else:
            box.get_by_role("button", name=card, exact=True).click()


def typed(page: Page, faces: str) -> None:
    """Dice rolled at the table, typed in."""
    panel = guide(page)
    panel.locator(".typed-faces input").fill(faces)
    button(panel, "Use typed dice").click()


def draw_for_me(page: Page) -> None:
    """The deal by the companion ("Draw for me"): the switch that names the cards turned off."""
    switch = page.locator(".param-named input").first
    expect(switch).to_be_checked(timeout=SLOW)
    switch.click()
    expect(switch).not_to_be_checked(timeout=SLOW)


def cell(page: Page, table: str, row: int, field: str):
    return page.locator(f".{table} .tabulator-row").nth(row).locator(f'.tabulator-cell[tabulator-field="{field}"]')


def editing(target, editor):
    """Tap a cell until its editor opens (a tap while the table redraws after the last edit is lost). A loaded machine
    may take seconds to open it: tapped again too soon, a cell still opening its editor can drop the value typed."""
    for _ in range(4):
        target.click()
        try:
            editor.wait_for(timeout=6_000)
            return editor
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"no editor opened on {target}")


def type_cell(page: Page, table: str, row: int, field: str, value) -> None:
    """Type a value into a table cell, as a player does: tap the cell, type, Enter."""
    target = cell(page, table, row, field)
    entry = editing(target, target.locator("input").first)
    entry.fill(str(value))
    entry.press("Enter")
    expect(target).to_have_text(str(value), timeout=SLOW)


def pick_cell(page: Page, table: str, row: int, field: str, value: str) -> None:
    """Choose a value of a choice cell from its list."""
    target = cell(page, table, row, field)
    editing(target, page.locator(".tabulator-edit-list-item", has_text=re.compile(f"^{re.escape(value)}$")).first
            ).click()
    expect(target).to_have_text(value, timeout=SLOW)


def tab(page: Page, name: str) -> None:
    page.locator(".game-tabs").get_by_role("tab", name=name).click()


def hand(page: Page, text: str, shown: bool = True) -> None:
    """This device's hand (its own tab), then back to play."""
    tab(page, "My hand")
    check = expect(page.locator(".own-hand").first)
    (check.to_contain_text if shown else check.not_to_contain_text)(text, timeout=SLOW)
    tab(page, "Play")


def place(page: Page, player: str, persons: list[str], last: bool = False) -> None:
    """`player`'s persons placed from their own seat, seen taken before the tablet goes on (the last player's
    placement reveals them all)."""
    seat(page, player)
    form = step(page, "place")
    for person in persons:
        form.locator(".param-cards").get_by_role("button", name=person, exact=True).click()
    do(page, f"{player} places persons")
    logged(page, "Placements revealed" if last else f"{player} has chosen a placement (secret)")


@pytest.mark.rule("GC-3", "GC-5", "GC-6B.12", "GC-6B.5", "GC-6B.6", "GC-6A.32", "GC-9")
def test_a_turn_with_a_battle_a_plot_and_the_end_check(page, server, offline, output_path):
    page.goto(server.url + "/galactic_chess")
    button(page, "Load the example (fictional) cards").click()
    expect(page.locator(".cards-note")).to_contain_text("Example (fictional)", timeout=SLOW)
    screenshots(page, output_path, "galactic_chess-setup")
    button(page, "Start the game").click()

    # GC-3: "Draw for me": the companion deals, each die naming a card of the period deck (the first left, each time; the last card
    # of deck 1, Cat's fourth, needs no die)
    for player, faces in (("Ann", "1 1 1 1 1 1"), ("Ben", "1 1 1 1 1 1"), ("Cat", "1 1 1 1 1")):
        expect(step(page, "deal_hand")).to_contain_text(f"Deal {player} a hand", timeout=SLOW)
        draw_for_me(page)
        typed(page, faces)
        logged(page, f"{player} is dealt 6 cards")
    expect(page.locator(".table-facts")).to_contain_text("Example (fictional)", timeout=SLOW)
    hand(page, "no hand is shown")
    place(page, "Ann", [D + p for p in ("Marshal Aurum", "Admiral Basalt", "Admiral Cobalt", "Commodore Dune",
                                        "Lancer Flint")])
    hand(page, "Demo Count Ember")     # Ann's own hand, on the device holding her seat
    place(page, "Ben", [D + p for p in ("Marshal Garnet", "Admiral Harbor", "Admiral Indigo", "Commodore Jade",
                                        "Senator Kestrel")])
    hand(page, "Demo Count Ember", shown=False)
    place(page, "Cat", [D + p for p in ("Governor Mica", "Admiral Nickel", "Admiral Opal")], last=True)
    logged(page, "Iserlohn commander: Demo Admiral Cobalt")
    seat(page, "Table")
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
        form.locator(".param-fleets").get_by_role("button", name=D + fleet, exact=True).click()
    do(page, "Ann declares")
    step(page, "nominate")
    do(page, "Name the first defender")
    logged(page, "Ben is the first defender")
    form = step(page, "declare")
    for fleet in ("Admiral Harbor", "Commodore Jade"):
        form.locator(".param-fleets").get_by_role("button", name=D + fleet, exact=True).click()
    do(page, "Ben declares")
    logged(page, "the defenders are set, SC Demo Admiral Harbor")
    page.locator(".battle-screen").first.scroll_into_view_if_needed()
    screenshots(page, output_path, "galactic_chess-battle")

    # the battle: Aurum's target advice, then dice entered at the table
    form = step(page, "engage")
    expect(form.locator(".target-advice")).to_contain_text("engage Demo Commodore Jade", timeout=SLOW)
    expect(page.locator(".battle-screen")).to_contain_text("Next opportunity: Demo Marshal Aurum")
    form.locator(".param-target").get_by_role("button", name=D + "Commodore Jade", exact=True).click()
    expect(page.locator(".odds-card").first).to_contain_text("Demo Marshal Aurum engages Demo Commodore Jade",
                                                             timeout=SLOW)
    expect(page.locator(".odds-card").first).to_contain_text("P(attacker sweeps the field)")
    screenshots(page, output_path, "galactic_chess-target-advice")
    tap_faces(page, 3, 3)
    logged(page, "Demo Commodore Jade destroyed; Ann +1 VP in EMP")
    form = step(page, "engage")
    form.locator(".param-target").get_by_role("button", name=D + "Commodore Dune", exact=True).click()
    tap_faces(page, 1, 1)
    step(page, "strike_back")
    tap_faces(page, 2, 2)
    logged(page, "nobody is destroyed")
    other_form(page, "retreat")
    expect(page.locator(".odds-card").first).to_contain_text("2d6 ≤ 9", timeout=SLOW)
    tap_faces(page, 6, 5)
    step(page, "free_attack")
    tap_faces(page, 2, 1)
    logged(page, "Demo Commodore Dune stays. The battle is over")
    step(page, "end_turn")
    do(page, "End check")
    logged(page, "Turn 1 (Ann) ends; Ben is next")

    # turn 2, Ben: a draw named on his own seat, then a plot
    step(page, "roll_order")
    tap_faces(page, 2)
    logged(page, "Order roll 2")
    seat(page, "Ben")
    other_form(page, "draw")
    pick(page, "card", D + "Response: Lifeboat 1")
    do(page, "Draw a card")
    logged(page, "Ben draws a card")
    hand(page, "Demo Response: Lifeboat 1")
    form = other_form(page, "plot")
    form.locator(".param-plotter").get_by_role("button", name=D + "Senator Kestrel", exact=True).click()
    form.locator(".param-target").get_by_role("button", name=D + "Admiral Opal", exact=True).click()
    expect(guide(page)).to_contain_text("Plot by Demo Senator Kestrel on Demo Admiral Opal", timeout=SLOW)
    expect(page.locator(".odds-card").first).to_contain_text("83.3% (5/6)", timeout=SLOW)
    screenshots(page, output_path, "galactic_chess-plot")
    tap_faces(page, 3, 3)
    logged(page, "Demo Admiral Opal is destroyed")
    step(page, "end_turn")
    expect(page.locator(".odds-card").first).to_contain_text("Alliance ★★+ admirals", timeout=SLOW)
    do(page, "End check")
    logged(page, "Turn 2 (Ben) ends; Cat is next")

    # undo the end check (no dice: no question), reload: the same state; this device sits as Ben again by itself (the
    # seat is its own: no PIN, no question)
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
    expect(page.locator(".seat-buttons").get_by_role("button", name="Ben", exact=True)).to_have_attribute(
        "aria-pressed", "true", timeout=SLOW)   # by itself: the seat this device last had
    hand(page, "Hand of Ben")
    hand(page, "Demo Response: Lifeboat 1")
    screenshots(page, output_path, "galactic_chess-after-reload")
    do(page, "End check")
    logged(page, "Turn 2 (Ben) ends; Cat is next")
    title(page, "Turn 3: Cat, order roll")


# --- hidden hands on three devices ------------------------------------------------------------------------

def scripted_cards() -> str:
    """The example cards with markup and script in every name (a card file as a player might paste it)."""
    rename = lambda cards: [{**c, "name": f"{c['name']} {SCRIPT}"} for c in cards]  # noqa: E731
    return json.dumps({"persons": rename(EXAMPLE_PERSONS), "events": rename(EXAMPLE_EVENTS),
                       "fortress": EXAMPLE_FORTRESS})


CAT = f"Cat {SCRIPT}"   # a player's name carrying script


class Device:
    """A browser of its own (its own device token), one page on the game, and everything the server sent it."""

    def __init__(self, browser, url: str):
        self.context = browser.new_context(viewport=TABLET["landscape"])
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.goto(url)
        step(self.page, "deal_hand")

    def received(self) -> str:
        """What reached the page: every websocket frame, and the page as it stands, with JSON's and HTML's escapes
        undone (an HTML pane's content travels escaped, and a name in it is escaped once more)."""
        text = "\n".join(self.frames) + self.page.content()
        return html.unescape(html.unescape(text.replace("\\u003c", "<").replace("\\u003e", ">")
                                           .replace("\\\"", "\"")))


def deal_by_the_companion(device: Device, player: str) -> None:
    page = device.page
    expect(step(page, "deal_hand")).to_contain_text(f"Deal {player} a hand", timeout=SLOW)
    draw_for_me(page)
    button(guide(page), "Roll for me").click()
    logged(page, f"{player} is dealt 6 cards")


@pytest.mark.rule("GC-3", "GC-3.1")
def test_each_device_is_sent_its_own_hand_only_and_a_held_seat_is_let_go(browser, page, server, offline,
                                                                         output_path):
    """Issue 14 (2): Ann's and Ben's seats and the table on three devices; each deals by the companion ("Draw for
    me"). What the server sent each page (its websocket frames and the page itself) holds no other player's deal dice
    and no other player's cards as theirs (only among the deck as that page may know it, offered by name for the
    next deal): a player's own cards as such reach only the device holding the seat. Ben's device asking for Ann's
    seat is refused until Ann's device lets it go. Card names and a player's name carrying script stay text on every
    page."""
    page.goto(server.url + "/galactic_chess")
    page.locator(".players-input input").fill(f"Ann, Ben, {CAT}")
    page.locator(".setup-paste textarea").first.fill(scripted_cards())
    button(page, "Read the pasted file").click()
    expect(page.locator(".cards-note")).to_contain_text("the cards are valid", timeout=SLOW)
    button(page, "Start the game").click()
    step(page, "deal_hand")
    game = re.search(r"session=([\w-]+)", page.url).group(1)
    page.close()

    url = f"{server.url}/galactic_chess?session={game}"
    ann, ben, table = (Device(browser, url) for _ in range(3))
    seat(ann.page, "Ann")
    seat(ben.page, "Ben")
    deal_by_the_companion(ann, "Ann")
    deal_by_the_companion(ben, "Ben")
    deal_by_the_companion(table, CAT)
    for device in (ann, ben, table):
        logged(device.page, f"{CAT} is dealt 6 cards")
        device.page.wait_for_timeout(1500)          # the last updates reach the page
    screenshots(ann.page, output_path, "galactic_chess-ann-after-the-deal")
    screenshots(table.page, output_path, "galactic_chess-table-after-the-deal")

    state = GameSession.open(Store(server.data_dir), game).state
    # each hand's cards as printed; the table names the card that is Reinhard, wherever it is (GC-9.11's monitor)
    reinhard = {p.name for p in state.persons if p.role == "reinhard"}
    hands = {p: {c.removesuffix(" " + SCRIPT) for c in state.hand(p) if c not in reinhard} for p in state.players}
    for device, player in ((ann, "Ann"), (ben, "Ben"), (table, "")):
        seen = device.received()
        assert "Ann is dealt 6 cards" in seen and f"{CAT} is dealt 6 cards" in seen
        deck = {c.removesuffix(" " + SCRIPT) for c in state.card_names()} - hands.get(player, set())
        for holder, cards in hands.items():
            leaked = sorted(c for c in cards if c in seen)
            # another hand's cards reach a page only among the deck's as that seat knows it (the deal's choices by
            # name: every card not its own), where they cannot be told from the cards not dealt; never as theirs
            assert leaked == sorted(cards) if holder == player else set(leaked) <= deck, (player, holder, leaked)
            assert (f"{holder}'s cards" in seen) == (holder == player), (player, holder)
            dice = re.search(rf"{re.escape(holder)} is dealt 6 cards[^<]*</span><span class=\"dice", seen)
            assert bool(dice) == (holder == player), (player, holder)
        for li in device.page.locator(".event-log li").all_inner_texts():
            assert ("companion roll" in li) == li.split(".", 1)[1].startswith(f"{player} is dealt"), li
        assert_no_script_ran(device.page, device.dialogs)
    expect(ann.page.locator(".event-log")).to_contain_text(sorted(hands["Ann"])[0], timeout=SLOW)
    hand(ann.page, sorted(hands["Ann"])[0])

    # a seat is one device's: Ben's device asks for Ann's seat and is refused until Ann's device lets it go
    ben.page.locator(".seat-buttons").get_by_role("button", name="Ann", exact=True).click()
    expect(ben.page.locator(".seat-message")).to_contain_text("held by another device", timeout=SLOW)
    hand(ben.page, sorted(hands["Ann"])[0], shown=False)
    let_go = ann.page.locator(".seat-let-go button")
    expect(let_go).to_contain_text("asks for Ann's seat", timeout=SLOW)
    screenshots(ann.page, output_path, "galactic_chess-seat-asked")
    let_go.click()
    expect(ben.page.locator(".seat-buttons").get_by_role("button", name="Ann", exact=True)).to_have_attribute(
        "aria-pressed", "true", timeout=SLOW)
    hand(ben.page, sorted(hands["Ann"])[0])
    hand(ann.page, "no hand is shown")
    for device in (ann, ben, table):
        assert_no_script_ran(device.page, device.dialogs)
        device.context.close()


# --- the players' own cards typed into the tables --------------------------------------------------------------

OWN_PERSONS = [  # name, camp, stars, strategy, attack, defence, plot (typed as text)
    ("Emp Admiral Avon", "EMP", 2, 5, 3, 8, "10"), ("Emp Admiral Brant", "EMP", 1, 4, 2, 7, ""),
    ("Fpa Admiral Corin", "FPA", 2, 5, 3, 8, "9"), ("Fpa Admiral Dace", "FPA", 1, 3, 2, 7, ""),
    ("Emp Captain Eske", "EMP", 1, 3, 1, 6, ""), ("Fpa Captain Fenn", "FPA", 1, 3, 1, 6, "")]
OWN_EVENTS = [f"Event {n}" for n in ("Alder", "Birch", "Cedar", "Elm", "Fir", "Hazel", "Larch", "Maple", "Oak",
                                     "Pine")]
OWN_HANDS = {"Dora": ["Emp Admiral Avon", "Emp Admiral Brant", "Emp Captain Eske", "Event Alder", "Event Birch",
                      "Event Cedar"],
             "Emil": ["Fpa Admiral Corin", "Fpa Admiral Dace", "Event Elm", "Event Fir", "Event Hazel", "Event Larch"],
             "Fay": ["Fpa Captain Fenn", "Event Maple", "Event Oak", "Event Pine"]}


def type_own_cards(page: Page) -> None:
    """Our own cards (not the example), typed into the tables: numbers typed as text, a plot of 10 among them."""
    page.locator(".players-input input").fill("Dora, Emil, Fay")
    for row, (name, camp, *numbers, plot) in enumerate(OWN_PERSONS):
        button(page, "Add a person").click()
        expect(page.locator(".persons-table .tabulator-row")).to_have_count(row + 1, timeout=SLOW)
        type_cell(page, "persons-table", row, "name", name)
        if camp != "EMP":
            pick_cell(page, "persons-table", row, "camp", camp)
        for field, value in zip(("stars", "strategy", "attack", "defence"), numbers):
            type_cell(page, "persons-table", row, field, value)
        if plot:
            type_cell(page, "persons-table", row, "plot", plot)
    for row, name in enumerate(OWN_EVENTS):
        button(page, "Add a new event").click()
        expect(page.locator(".events-table .tabulator-row")).to_have_count(row + 1, timeout=SLOW)
        type_cell(page, "events-table", row, "name", name)
    for field, value in (("strategy", 4), ("attack", 4), ("defence", 10)):
        type_cell(page, "fortress-table", 0, field, value)


@pytest.mark.rule("GC-3", "GC-3.1", "GC-5", "GC-6A.1", "GC-9.0")
def test_own_cards_typed_into_the_tables_dealt_by_name_and_a_turn(page, server, offline, output_path):
    """Issue 16: a game set up from the players' own cards typed into the page's tables (a plot typed as 10 is
    taken), saved as a setup file; the hands dealt by naming the cards held up at the table (no dice asked); the
    persons placed; a turn played."""
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/galactic_chess")
    type_own_cards(page)
    expect(page.locator(".cards-note")).to_contain_text("6 persons and 10 events: the cards are valid", timeout=SLOW)
    with page.expect_download() as saving:
        page.locator(".save-setup button, .save-setup a").first.click()
    saved = json.loads(open(saving.value.path(), encoding="utf-8").read())
    assert saved["players"] == ["Dora", "Emil", "Fay"] and saved["persons"][0]["plot"] == 10
    assert [e["name"] for e in saved["events"]] == OWN_EVENTS and saved["fortress"]["defence"] == 10
    screenshots(page, output_path, "galactic_chess-own-cards")
    button(page, "Start the game").click()

    # GC-3.1: each hand named card by card, from the cards that can still be dealt
    for player, cards in OWN_HANDS.items():
        form = step(page, "deal_hand")
        expect(form).to_contain_text(f"the next player ({player})", timeout=SLOW)
        expect(form.locator(".param-cards").get_by_role("combobox")).to_be_visible()  # 16 cards: a searchable list
        name_cards(form, cards)
        if player == "Dora":
            expect(guide(page).locator(".dice-entry")).to_be_hidden()
            screenshots(page, output_path, "galactic_chess-deal-by-name")
        do(page, f"Deal {player} a hand")
        logged(page, f"{player} is dealt {len(cards)} cards")
    for player, cards in OWN_HANDS.items():
        place(page, player, [c for c in cards if not c.startswith("Event")], last=player == "Fay")
    seat(page, "Table")

    # turn 1, Dora: the order roll, an action with every deck spent, the end check
    step(page, "roll_order")
    tap_faces(page, 1)
    logged(page, "Order roll 1")
    other(page, "draw")                              # nothing to choose: the step is taken as tapped
    logged(page, "every deck is spent: nothing to draw")
    other(page, "end_action")                        # "Nothing more": no card, no plot
    logged(page, "Dora ends the action")
    step(page, "end_turn")
    do(page, "End check")
    logged(page, "Turn 1 (Dora) ends; Emil is next")
    screenshots(page, output_path, "galactic_chess-own-cards-turn")
    assert not dialogs
