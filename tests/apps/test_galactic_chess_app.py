"""The Galactic Chess dashboard's view models, driven without a browser: the card editor and its card file, seats
and hidden hands (each device's forms, hand and log as its seat may know the game), the turn guide's generic forms
with their odds, the battle screen with the target advice, a plot, the end check, the free actions and the duel
matrix. Expected numbers are the digest's 2d6 table (q, r) worked by hand for the example (fictional) cards: Aurum S6
A3 D9, Dune S3 A1 D7 (Ann, EMP); Harbor S5 A3 D8, Jade S3 A1 D8, Kestrel P5 (Ben, FPA); Opal (Cat, FPA, no plot
value)."""
from __future__ import annotations

import json
import random
import re
from fractions import Fraction as F

import pytest
import yaml

import apps.galactic_chess as app
from apps.galactic_chess import CardEditor, GalacticChessView, battle_html, estimate_text, hand_html, players_html
from companion.dice import RandomDice, ScriptedDice
from companion.session import GameSession
from companion.store import Store
from companion.ui.live import HUB, LiveSession
from companion.ui.log import EventLog
from engines.galactic_chess.example import EXAMPLE_EVENTS, EXAMPLE_FORTRESS, EXAMPLE_PERSONS, LABEL, example_setup
from engines.galactic_chess.guide import due_now
from engines.galactic_chess.interval import Estimate
from tests.widgets import choose, click, field, find, perform

pytestmark = pytest.mark.usefixtures("panel_extensions")

D = "Demo "
AURUM, DUNE, HARBOR, JADE = D + "Marshal Aurum", D + "Commodore Dune", D + "Admiral Harbor", D + "Commodore Jade"
KESTREL, OPAL, LIFEBOAT = D + "Senator Kestrel", D + "Admiral Opal", D + "Response: Lifeboat 1"
HANDS = {"Ann": ["Marshal Aurum", "Admiral Basalt", "Commodore Dune", "Lancer Flint", "Support: Flanking Fire",
                 "Event: Turncoat"],
         "Ben": ["Marshal Garnet", "Admiral Harbor", "Admiral Indigo", "Commodore Jade", "Senator Kestrel",
                 "Trooper Lynx"],
         "Cat": ["Admiral Cobalt", "Count Ember", "Governor Mica", "Event: Rumours", "Admiral Nickel", "Admiral Opal"]}
HANDS = {p: [D + c for c in cards] for p, cards in HANDS.items()}
PLACED = {p: [c for c in cards if "Event" not in c and "Support" not in c] for p, cards in HANDS.items()}
CARDS = {"persons": list(EXAMPLE_PERSONS), "events": list(EXAMPLE_EVENTS), "fortress": EXAMPLE_FORTRESS}


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


@pytest.fixture
def live(store) -> LiveSession:
    page = LiveSession(GameSession.new(store, "galactic_chess", example_setup()))
    HUB.join(page)
    yield page
    HUB.leave(page)


@pytest.fixture
def view(live) -> GalacticChessView:
    return GalacticChessView(live)


def sit(view: GalacticChessView, player: str) -> None:
    """This device (one token per view) takes the player's seat ("" for the table) with its seat buttons."""
    buttons = view.seats.buttons
    buttons.token = f"tablet-{id(view)}"
    buttons.wanted = player
    buttons.tap += 1


def act(live: LiveSession, kind: str, *faces: int, **params) -> None:
    assert live.act({"type": kind, **params}, ScriptedDice(faces)) is not None, live.error


def set_up(live: LiveSession) -> None:
    """GC-3: the hands named at the table, the persons placed; Cobalt (the example's Stockhausen) commands Iserlohn."""
    for player, cards in HANDS.items():
        act(live, "deal_hand", player=player, named=True, cards=cards)
    for player, cards in PLACED.items():
        act(live, "place", player=player, cards=cards)


def to_battle(live: LiveSession) -> None:
    """Ann's order roll 4 (2 fleets, GC-5); EMP sorties against FPA: Aurum and Dune against Harbor and Jade."""
    set_up(live)
    act(live, "roll_order", 4)
    act(live, "sortie", camp="EMP", defender="FPA")
    act(live, "declare", fleets=[AURUM, DUNE])
    act(live, "nominate", player="Ben")
    act(live, "declare", fleets=[HARBOR, JADE])


def offered(view: GalacticChessView, name: str) -> list | None:
    """The values the form shown offers for a parameter (None when it is not asked)."""
    control = field(view, name)
    return None if control.legal is None else list(control.legal.values)


# --- the cards entered from the players' sheets -------------------------------------------------------------

def test_an_empty_editor_asks_for_the_cards():
    editor = CardEditor()
    assert editor.note.severity == "info" and "load the example" in editor.note.object


def test_the_example_cards_are_labelled_fictional_in_the_note_and_the_setup():
    editor = CardEditor()
    click(find(editor, "load-example"))
    assert editor.note.severity == "warning" and "Example \\(fictional\\)" in editor.note.object
    setup = editor.setup()
    assert setup["example"] == LABEL and setup["players"] == ["Ann", "Ben", "Cat"]
    assert [p["name"] for p in setup["persons"]] == [p["name"] for p in EXAMPLE_PERSONS]
    assert setup["fortress"] == {"strategy": 4, "attack": 4, "defence": 11}


@pytest.mark.rule("GC-8.1")
def test_a_wrong_card_is_named_in_the_note():
    """Only Imperial persons join NOBLE (GC-8.1): a card file with an Alliance noble is refused by name."""
    editor = CardEditor()
    persons = [dict(p) for p in EXAMPLE_PERSONS]
    persons[6]["rebel_camp"] = "NOBLE"
    editor.file.paste.value = json.dumps({**CARDS, "persons": persons})
    click(find(editor, "read-setup"))
    assert editor.note.severity == "error" and "Demo Marshal Garnet" in editor.note.object
    assert "GC\\-8\\.1" in editor.note.object


def test_own_cards_are_not_labelled_as_the_example():
    editor = CardEditor()
    click(find(editor, "load-example"))
    persons = [dict(p) for p in EXAMPLE_PERSONS]
    persons[0]["attack"] = 4
    editor.set_cards({**CARDS, "persons": persons})
    assert editor.note.severity == "success" and "example" not in editor.setup()


@pytest.mark.rule("GC-3")
def test_a_card_file_in_yaml_fills_the_tables_and_a_hostile_one_changes_nothing():
    """Digest section 10: the card file in YAML (or JSON) fills the tables; a file the reader refuses (aliases, junk,
    bytes that are not text) leaves the tables as they were and says why, quoting no more than a prefix."""
    editor = CardEditor()
    editor.file.paste.value = yaml.safe_dump(json.loads(json.dumps(CARDS)))
    click(find(editor, "read-setup"))
    assert len(editor.rows("persons")) == len(EXAMPLE_PERSONS) and editor.cards()["fortress"] == EXAMPLE_FORTRESS
    before = editor.cards()
    for raw in ("a: &a [x]\nb: [*a, *a]", "[" * 5000, "persons: <img src=x onerror=alert(1)>" + "x" * 5000):
        editor.file.paste.value = raw
        click(find(editor, "read-setup"))
        assert editor.note.severity == "error" and editor.cards() == before
        assert not re.search(r"(?<!\\)<", editor.note.object) and len(editor.note.object) < 400
    editor.file.upload.value = b"\xff\xfe{}"
    assert "UTF\\-8" in editor.note.object and editor.cards() == before


@pytest.mark.rule("GC-3")
def test_numbers_typed_as_text_in_the_tables_are_numbers():
    """A number typed into a table cell arrives as text ("10"): it is read as the number (plot 10, plot 9), in the
    person, event and Iserlohn tables alike."""
    editor = CardEditor()
    click(find(editor, "load-example"))
    persons, events = editor.tables["persons"].table, editor.tables["events"].table
    frame = persons.value.copy()
    frame.loc[0, "plot"], frame.loc[1, "plot"], frame.loc[0, "attack"] = "10", " 9", "4"
    persons.value = frame
    frame = events.value.copy()
    frame.loc[0, "period"] = "2"
    events.value = frame
    fortress = editor.tables["fortress"].table
    frame = fortress.value.copy()
    frame.loc[0, "defence"] = "12"
    fortress.value = frame
    assert editor.note.severity == "success", editor.note.object
    setup = editor.setup()
    assert [p["plot"] for p in setup["persons"][:2]] == [10, 9] and setup["persons"][0]["attack"] == 4
    assert setup["events"][0]["period"] == 2 and setup["fortress"]["defence"] == 12


@pytest.mark.rule("GC-3")
def test_the_setup_saved_as_a_file_opens_again_as_the_same_setup():
    """The players and the cards typed in, saved as a file, open again in a fresh page as the same setup; a refused
    file changes nothing. An old card file (no players) keeps the players typed."""
    editor = CardEditor()
    editor.players.value = "Dora, Emil, Fay, Gus"
    persons = [dict(p) for p in EXAMPLE_PERSONS]
    persons[0]["attack"] = 4
    editor.set_cards({**CARDS, "persons": persons})
    saved = editor.file.save.callback().getvalue()
    fresh = CardEditor()
    fresh.file.upload.value = saved.encode()
    assert fresh.setup() == editor.setup() and fresh.setup()["players"] == ["Dora", "Emil", "Fay", "Gus"]
    assert fresh.note.severity == "success"
    fresh.file.paste.value = json.dumps({"players": "Dora", **CARDS})
    click(find(fresh, "read-setup"))
    assert fresh.note.severity == "error" and "players" in fresh.note.object and fresh.setup() == editor.setup()
    fresh.file.paste.value = json.dumps(CARDS)
    click(find(fresh, "read-setup"))
    assert fresh.setup()["players"] == ["Dora", "Emil", "Fay", "Gus"] and fresh.cards()["fortress"] == EXAMPLE_FORTRESS
    assert [(p["name"], p["attack"]) for p in fresh.setup()["persons"]] == [(p["name"], p["attack"])
                                                                           for p in EXAMPLE_PERSONS]


# --- seats, and hands kept to their own device --------------------------------------------------------------

@pytest.mark.rule("GC-6A.1")
def test_the_table_shows_hand_sizes_and_only_the_seats_device_its_cards(view, live):
    set_up(live)
    table = players_html(live.state)
    assert "Ann · hand 2 cards" in table and "Cat · hand 1 card<" in table
    assert "Flanking Fire" not in table and "Rumours" not in table
    assert "no hand is shown" in view.hand.object
    sit(view, "Ann")
    assert live.viewer == "Ann" and "Demo Support: Flanking Fire" in view.hand.object
    assert "Rumours" not in view.hand.object
    sit(view, "Cat")
    assert "Demo Event: Rumours" in view.hand.object and "Flanking Fire" not in view.hand.object


def test_a_held_seat_is_taken_by_another_device_only_when_let_go(view, live, store):
    """One device a seat (companion.ui.seats): a second device asking for Ann's seat is refused, and Ann's device
    is asked; once it lets go, the second device is Ann's and the first shows no hand."""
    set_up(live)
    other = LiveSession(GameSession.open(store, live.session.id))
    HUB.join(other)
    second = GalacticChessView(other)
    sit(view, "Ann")
    sit(second, "Ann")
    assert other.viewer == "" and "held by another device" in second.seats.message.object
    assert "no hand is shown" in second.hand.object and view.seats.asked.visible
    view.seats.let_go()
    assert other.viewer == "Ann" and live.viewer == ""
    assert "Flanking Fire" in second.hand.object and "no hand is shown" in view.hand.object
    HUB.leave(other)


@pytest.mark.rule("GC-3", "GC-3.1")
def test_the_deal_chooses_cards_by_name_draw_for_me_stays_and_its_dice_stay_on_the_dealt_players_device(view, live,
                                                                                                   store):
    """GC-3.1: the deal starts from the cards chosen by name (no dice asked), offered as Ann may know the deck: the
    same whether or not Ben has been dealt. "Draw for me" (the switch off) deals at random: the dealt player's log
    shows the dice and the cards, another device's only "Ann is dealt 6 cards"."""
    sit(view, "Ann")
    assert view.guide.active.action == "deal_hand" and field(view, "named").widget.value is True
    before = offered(view, "cards")
    assert sorted(before) == sorted(live.state.decks[0]) and not view.guide.panel._dice.visible
    assert "chosen by name" in field(view, "named").widget.label
    choose(field(view, "named"), False)
    assert offered(view, "cards") is None and view.guide.active.build()["named"] is False
    perform(view, (1,) * 6)
    ben = LiveSession(GameSession.open(store, live.session.id), viewer="Ben")
    act(ben, "deal_hand", 5, 5, 5, 5, 5, 5, player="Ben")
    live.poll()
    hand = live.state.hand("Ann")
    [mine, _], [theirs, _] = EventLog(live).entries()[::-1], EventLog(ben).entries()[::-1]
    assert mine["summary"] == "Ann is dealt 6 cards" and mine["dice"] and all(c in mine["detail"] for c in hand)
    assert theirs["dice"] == [] and theirs["detail"] == "" and theirs["hidden"]
    assert not any(c in EventLog(ben)._html.object for c in hand)
    choose(field(view, "player"), "Cat")
    choose(field(view, "named"), True)
    assert offered(view, "cards") == [c for c in before if c not in hand]
    cat = [c for deck in live.state.decks for c in deck][:6]     # the last of period 1, then period 2 (GC-3.1)
    choose(field(view, "cards"), cat)
    perform(view)
    assert sorted(live.state.hand("Cat")) == sorted(cat)


@pytest.mark.rule("GC-3")
def test_placement_is_chosen_on_the_own_device(view, live):
    for player, cards in HANDS.items():
        act(live, "deal_hand", player=player, named=True, cards=cards)
    assert view.guide.active.action == "place" and offered(view, "cards") == []
    sit(view, "Ben")
    choose(field(view, "player"), "Ben")
    assert set(offered(view, "cards")) == set(PLACED["Ben"])
    choose(field(view, "cards"), [HARBOR])
    perform(view)
    assert live.state.placing[1] == (HARBOR,) and "Chosen to place (secret)" in view.hand.object
    assert HARBOR not in players_html(live.state)


@pytest.mark.rule("GC-6B.5", "GC-11")
def test_a_battle_support_card_is_offered_on_its_holders_device_only(view, live):
    """GC-6B.5: any player may play a battle-support card on a duel; the engine offers every hand's, and each
    device its own: Ann's Flanking Fire on Ann's device, none on Ben's or on the table's."""
    to_battle(live)
    assert view.guide.active.action == "engage" and offered(view, "support") == [""]
    sit(view, "Ann")
    assert offered(view, "support") == ["", D + "Support: Flanking Fire"]
    sit(view, "Ben")
    assert offered(view, "support") == [""]


@pytest.mark.rule("GC-11")
def test_a_response_card_is_a_free_step_on_its_holders_device(view, live):
    """Ann's Lifeboat (an escape) takes Harbor out of Ben's attack: he neither attacks nor is attacked. The step is
    offered on Ann's device only. Iserlohn's commander is Cat's Cobalt, so Cat must be the first defender."""
    set_up(live)
    act(live, "roll_order", 1)
    act(live, "draw", card=LIFEBOAT)
    act(live, "end_action")
    act(live, "end_turn")
    act(live, "roll_order", 4)
    act(live, "sortie", camp="FPA", defender="EMP")
    act(live, "declare", fleets=[HARBOR, JADE])
    act(live, "nominate", player="Cat")
    act(live, "declare", fleets=[D + "Admiral Cobalt", D + "Admiral Nickel"])
    assert "respond" not in view.guide._due
    sit(view, "Ann")
    assert "respond" in view.guide._due
    view.guide.choose("respond")
    assert offered(view, "card") == [LIFEBOAT]
    choose(field(view, "target"), HARBOR)
    perform(view)
    assert "escapes the battle" in live.session.events[-1].summary


def test_script_in_a_card_or_player_name_is_shown_as_text(store):
    """Every name from the players' sheets reaches the page escaped: the table, the hand, the battle screen, the log."""
    evil = "<img src=x onerror=alert(1)>"
    persons = [dict(p) for p in EXAMPLE_PERSONS]
    persons[0]["name"] = evil + "Aurum"
    live = LiveSession(GameSession.new(store, "galactic_chess", {**example_setup(("Ann", "<b>Ben</b>", "Cat")),
                                                                 "persons": persons}))
    view = GalacticChessView(live)
    hand = [evil + "Aurum", *HANDS["Ann"][1:]]
    act(live, "deal_hand", player="Ann", named=True, cards=hand)
    live.viewer = "Ann"
    pages = [players_html(live.state), hand_html(live.state, "Ann"), view.facts.object, view.log._html.object]
    assert all("<img" not in page and "<b>Ben" not in page for page in pages)
    assert "&lt;img src=x onerror=alert(1)&gt;Aurum" in view.hand.object


# --- the turn: order roll, draw, plot, end check ---------------------------------------------------------

@pytest.mark.rule("GC-5")
def test_the_order_roll_shows_the_forced_chance_and_the_sizes(view, live):
    """GC-5 without Ragnarok: forced 1/6; 1 fleet 1/2, 2 fleets 1/6, 3 fleets 1/3; mean 11/6."""
    set_up(live)
    assert view.guide.active.action == "roll_order"
    numbers = dict(view.odds.main.numbers)
    assert numbers["P(forced sortie)"] == "16.7% (1/6)" and numbers["mean sortie size"] == "1.83 fleets"
    perform(view, (4,))
    assert live.state.order.size == "2"


@pytest.mark.rule("GC-6A.1", "GC-6A.32")
def test_a_draw_named_on_the_own_device_then_a_plot_with_its_odds(view, live):
    """Ben draws (he names the card on his device), then Kestrel (P5) plots against Opal (no plot value):
    P(target destroyed) = q(5) = 30/36 and no counter-plot (GC-6A.33a)."""
    set_up(live)
    act(live, "roll_order", 1)
    act(live, "draw", card=D + "Response: Lifeboat 2")
    act(live, "end_action")
    act(live, "end_turn")
    act(live, "roll_order", 2)
    sit(view, "Ben")
    view.guide.choose("draw")
    assert LIFEBOAT in offered(view, "card") and not set(HANDS["Ann"]) & set(offered(view, "card"))
    choose(field(view, "card"), LIFEBOAT)
    perform(view)
    assert LIFEBOAT in view.hand.object and LIFEBOAT not in players_html(live.state)
    view.guide.choose("plot")
    choose(field(view, "plotter"), KESTREL)
    choose(field(view, "target"), OPAL)
    numbers = dict(view.odds.main.numbers)
    assert numbers == {"target destroyed": "83.3% (5/6)", "plotter destroyed": "0.0% (0)", "nothing": "16.7% (1/6)"}
    perform(view, (3, 3))
    assert OPAL in live.state.destroyed and view.guide.active.action == "end_turn"


@pytest.mark.rule("GC-9.0", "GC-9.12")
def test_the_end_check_shows_the_monitors(view, live):
    set_up(live)
    act(live, "roll_order", 1)
    act(live, "draw", card=LIFEBOAT)
    act(live, "end_action")
    assert view.guide.active.action == "end_turn"
    numbers = dict(view.odds.main.numbers)
    # Empire: Aurum, Basalt, Cobalt, Nickel; Alliance: Garnet, Harbor, Indigo, Opal
    assert numbers["Empire ★★+ admirals"] == "4" and numbers["Alliance ★★+ admirals"] == "4"
    perform(view)
    assert live.state.turn == 2 and view.phase.object == "Turn 2: Ben, order roll"


# --- the battle screen and the target advice ----------------------------------------------------------

@pytest.mark.rule("GC-6B.4", "GC-6B.2")
def test_the_battle_screen_lists_both_sides_in_engagement_order(view, live):
    to_battle(live)
    screen = battle_html(live.state)
    assert "<b>EMP</b> (Empire) attacks <b>FPA</b> (Alliance)" in screen
    assert "Next opportunity: <b>Demo Marshal Aurum</b>" in screen
    assert screen.index(AURUM) < screen.index(DUNE) and screen.index(HARBOR) < screen.index(JADE)
    assert f"{AURUM} <span class=sc>SC</span>" in screen and f"{HARBOR} <span class=sc>SC</span>" in screen


@pytest.mark.rule("GC-6B.5")
def test_the_target_advice_gives_each_duel_exactly_and_the_battle_after_it(view, live):
    """Aurum (S6 A3) strikes Harbor (D8) first: q(5) = 5/6; Harbor strikes back only after a miss with q(6) =
    26/36: Aurum lost 1/6 x 26/36 = 13/108; nobody 1/6 x 10/36 = 5/108 (GC-6B.5)."""
    to_battle(live)
    assert view.guide.active.action == "engage" and field(view, "actor").value == AURUM
    assert offered(view, "target") == [HARBOR, JADE]
    choose(field(view, "target"), HARBOR)
    numbers = dict(view.odds.main.numbers)
    assert numbers[f"{HARBOR} destroyed"] == "83.3% (5/6)"
    assert numbers[f"{AURUM} destroyed"] == "12.0% (13/108)"
    assert numbers["nobody destroyed"] == "4.6% (5/108)"
    assert numbers["who strikes first"] == f"{AURUM} strikes first"
    assert "P(attacker sweeps the field)" in numbers and view.odds.second.visible
    rows = view.target_advice(AURUM)
    best = max((r for r in rows), key=lambda r: r.wins)
    advice = view.advice.object
    assert "engage Demo Admiral Harbor" in advice and "retreat" in advice and "exact" in advice
    assert f"<tr class=next><td>{'engage ' + best.target if best.target else 'retreat'}" in advice
    assert "policy: always engage the enemy unit most likely to be destroyed" in view.odds.main.note
    view.policy.value = "greedy_safety"                               # the rest of the battle played another way
    assert "policy: engage, retreat or pass, whichever is least likely to lose the unit" in view.odds.main.note


@pytest.mark.rule("GC-6B.5", "GC-6B.6", "GC-6B.7")
def test_a_battle_with_entered_dice_a_strike_back_a_retreat_and_its_free_attack(view, live):
    """Aurum destroys Jade (3+3+3 >= 8): Ann +1 VP in EMP. Harbor misses Dune, Dune misses back. Dune retreats:
    T = 3 + 6 = 9, r(9) = 30/36; fails on 11; Harbor's free attack q(7 - 3) = 33/36 misses on 3: Dune stays."""
    to_battle(live)
    choose(field(view, "target"), JADE)
    perform(view, (3, 3))
    assert live.state.vp == {"Ann": {"EMP": 1}} and "Ann: EMP 1 VP" in battle_html(live.state)
    choose(field(view, "target"), DUNE)
    perform(view, (1, 1))
    assert view.guide.active.action == "strike_back"
    assert dict(view.odds.main.numbers) == {f"P({DUNE} destroys {HARBOR})": "58.3% (7/12)"}   # q(8 - 1) = 21/36
    perform(view, (2, 2))
    view.guide.choose("retreat")
    numbers = dict(view.odds.main.numbers)
    assert numbers["gets away"] == "83.3% (5/6)" and numbers["free attack by"] == HARBOR
    assert numbers["destroyed"] == "15.3% (11/72)"                  # 1/6 x 33/36
    perform(view, (6, 5))
    assert view.guide.active.action == "free_attack"
    assert dict(view.odds.main.numbers) == {f"P({HARBOR} destroys {DUNE})": "91.7% (11/12)"}
    perform(view, (2, 1))
    assert live.state.phase == "end" and DUNE not in live.state.destroyed
    assert "Dune stays" in live.session.events[-1].summary


@pytest.mark.rule("GC-6B.4")
def test_an_illegal_engagement_is_refused_and_changes_nothing(view, live):
    to_battle(live)
    before = live.state
    assert live.act({"type": "engage", "actor": DUNE, "target": HARBOR}, ScriptedDice((1, 1))) is None
    assert "GC-6B.4" in live.error and live.state == before


@pytest.mark.rule("GC-6B.7")
def test_beyond_the_exact_size_the_advice_is_an_estimate_with_its_interval(view, live, monkeypatch):
    """With the exact size lowered below this battle's 4 units, the chance of sweeping the field is simulated and
    shown as an estimate with its 95% interval; the duel itself stays exact."""
    monkeypatch.setattr(app, "ADVICE_EXACT_MAX", 3)
    monkeypatch.setattr(app, "ADVICE_TRIALS", 2000)
    to_battle(live)
    view.guide.select("engage")
    advice = view.advice.object
    assert "(est. " in advice and "estimated from 2,000 simulated battles" in advice
    numbers = dict(view.odds.main.numbers)
    assert numbers["P(attacker sweeps the field)"].startswith("≈")
    assert any(v == "83.3% (5/6)" for v in numbers.values())


@pytest.mark.rule("GC-6B.7")
def test_an_estimate_is_labelled_with_its_interval():
    assert estimate_text(Estimate(4512, 10000)).startswith("≈45.1% (est. ")
    assert estimate_text(F(5, 6)) == "83.3% (5/6)"


@pytest.mark.rule("GC-6B.2")
def test_equal_stars_in_one_declaration_the_owner_chooses_the_sc(view, live):
    """E2 (GC-6B.2): Harbor and Indigo, both 2 stars, in Ben's one declaration: Ben chooses."""
    set_up(live)
    act(live, "roll_order", 4)
    act(live, "sortie", camp="EMP", defender="FPA")
    act(live, "declare", fleets=[AURUM, DUNE])
    act(live, "nominate", player="Ben")
    act(live, "declare", fleets=[HARBOR, D + "Admiral Indigo"])
    assert view.guide.active.action == "choose_sc" and offered(view, "unit") == [HARBOR, D + "Admiral Indigo"]
    choose(field(view, "unit"), D + "Admiral Indigo")
    perform(view)
    assert f"{D}Admiral Indigo <span class=sc>SC</span>" in battle_html(live.state)


@pytest.mark.rule("GC-7.12", "GC-7.21")
def test_the_iserlohn_post_plots_show_their_chance_or_that_no_roll_is_needed(view, live):
    """Cat's Cobalt commands Iserlohn (EMP). Ann's Aurum (P7) plots for the post: q(7) = 21/36, no +2 (Q22);
    dispatching Dune to a free slot is certain, with no plot, no roll and no plotter (GC-7.21)."""
    set_up(live)
    act(live, "roll_order", 1)
    act(live, "draw", card=LIFEBOAT)
    view.guide.choose("post_plot")
    choose(field(view, "candidate"), D + "Admiral Basalt")
    choose(field(view, "plotter"), AURUM)
    assert dict(view.odds.main.numbers) == {"P(success)": "58.3% (7/12)"}
    view.guide.choose("garrison_plot")
    choose(field(view, "dispatch"), DUNE)
    assert dict(view.odds.main.numbers) == {"P(success)": "100.0% (1)", "plot": "none: no roll, no plotter"}
    assert offered(view, "plotter") is None
    perform(view)
    assert live.state.fortress.garrison == (DUNE,) and live.state.plotted


# --- the sortie's duel matrix and the scores now ---------------------------------------------------------------

@pytest.mark.rule("GC-6B.11", "GC-6B.5", "GC-9.2")
def test_the_sortie_shows_the_duel_matrix_of_its_camps_and_the_odds_tab_the_scores_now(view, live):
    """GC-6B.11: choosing the camps shows their fleets' duel matrix (GC-6B.5). GC-9.2: were the game to end now with
    EMP winning, each player scores 1 per person of his EMP clique: Ann 4 (Aurum, Basalt, Dune, Flint), Ben 0, Cat 3
    (Cobalt, Ember, Nickel)."""
    set_up(live)
    act(live, "roll_order", 4)
    assert view.guide.active.action == "sortie"
    choose(field(view, "camp"), "EMP")
    choose(field(view, "defender"), "FPA")
    assert view.odds.main.figure is not None and view.odds.main.note.startswith("Each cell")
    assert "<tr><td>EMP</td><td>4</td><td>0</td><td>3</td></tr>" in view.scores.object


# --- every form, as the guide shows it ------------------------------------------------------------------

def tap_choices(view: GalacticChessView) -> None:
    """What a player taps on the forms that start empty: the cards dealt by name (those on top of the table's deck),
    every person placed, the first fleet declared."""
    action = view.guide.active.action
    if action == "deal_hand":
        choose(field(view, "cards"), [c for deck in view.live.state.decks for c in deck][:6])
    elif action == "place":
        choose(field(view, "cards"), offered(view, "cards"))
    elif action == "declare":
        choose(field(view, "fleets"), offered(view, "fleets")[:1])


@pytest.mark.rule("GC-4", "GC-9.0")
@pytest.mark.parametrize("seed, draft", [(1, False), (2, True)])
def test_every_due_step_has_a_form_that_builds_shows_and_acts(tmp_path, seed, draft):
    """Games played only through the guide's forms as they fill themselves in, on the device of the player
    whose turn it is, with dice rolled by the companion (a new game when one ends): each form's inputs, odds and
    action work, and its action is legal or refused by a rule (then another due step is taken)."""
    rng, seen, games = random.Random(seed), set(), 0
    live = view = None
    for _ in range(200):
        if view is None or not due_now(live.state):
            games += 1
            live = LiveSession(GameSession.new(Store(tmp_path / str(games)), "galactic_chess", example_setup(),
                                               {"draft": draft}))
            view = GalacticChessView(live)
        s = live.state
        pending = [p for p, d in zip(s.players, s.done) if not d] if s.phase in ("deal", "draft", "place") else []
        sit(view, pending[0] if pending else s.player)
        for step in sorted(view.guide._due.values(), key=lambda d: rng.random() - (d.action in ("draw", "plot"))):
            view.guide.select(step.action)
            seen.add(step.action)
            tap_choices(view)
            if live.act(view.guide.active.build(), RandomDice(seed=rng.randrange(10 ** 6))) is not None:
                break
        else:
            pytest.fail(f"no due step could be taken: {list(view.guide._due)}: {live.error}")
    assert {"deal_hand", "place", "roll_order", "draw", "plot", "sortie", "declare", "engage", "end_turn"} <= seen, seen
