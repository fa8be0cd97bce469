"""The Dixie dashboard's view models, driven without a browser: the card editor (form and table), the battlefield
as the table looks, and the view through the golden turns (taps on tiles and cards, the guide's forms, the odds
shown beside each decision); melee and flank-attack advice; refusals that change nothing."""
from __future__ import annotations

import json
import re
from fractions import Fraction as F

import pytest

from apps.dixie import BLIND, EXAMPLE_ROWS, CardEditor, DixieView, battlefield_html
from companion.dice import ScriptedDice
from companion.session import GameSession
from companion.store import Store
from companion.ui.live import LiveSession
from companion.ui.text import plain
from engines.dixie import advice
from engines.dixie.board import across
from engines.dixie.cards import cards_from_rows
from engines.dixie.example import LABEL, example_cards
from tests.engines.dixie.support import Table
from tests.engines.dixie.test_advanced import flank_table
from tests.engines.dixie.test_disengage import csa_cut_off, usa_must_disengage
from tests.engines.dixie.test_golden import DEPLOYMENT, SCRIPT
from tests.engines.dixie.test_melee import V19, melee_table
from tests.figures import exactly, outcomes
from tests.widgets import choose, click, field, find, perform

pytestmark = pytest.mark.usefixtures("panel_extensions")


def live_from(store: Store, table: Table) -> LiveSession:
    """A session with the table's options and cards, its events replayed with the same dice."""
    replay = table.replay
    live = LiveSession(GameSession.new(store, "dixie", {"cards": [dict(c) for c in replay.setup["cards"]]},
                                       replay.options))
    for event in table.events:
        faces = [f for roll in event.rolls for f in roll.faces]
        assert live.act(event.action, ScriptedDice(faces)) is not None, live.error
    return live


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


@pytest.fixture
def live(store) -> LiveSession:
    editor = CardEditor()
    editor.set_rows(EXAMPLE_ROWS)
    return LiveSession(GameSession.new(store, "dixie", editor.setup()))


@pytest.fixture
def view(live) -> DixieView:
    return DixieView(live)


def deployed(live: LiveSession) -> LiveSession:
    for card, pos in DEPLOYMENT.items():
        assert live.act({"type": "deploy", "card": card, "position": pos}, ScriptedDice([])), live.error
    assert live.act({"type": "start_battle"}, ScriptedDice([])), live.error
    return live


def play(live: LiveSession, upto: int) -> None:
    """The golden script's first `upto` steps after deployment."""
    for kind, faces, params in SCRIPT[:upto]:
        assert live.act({"type": kind, **params}, ScriptedDice(faces)), live.error


def number(view: DixieView, label: str) -> str:
    return dict(view.odds.main.numbers)[label]


# --- card entry ------------------------------------------------------------------------------------------------

@pytest.mark.rule("DX-1.0", "DX-2.0", "DX-2.2")
def test_the_example_deck_is_labelled_and_checked():
    """The fictional example deck loads into the table, is labelled as such in the note and the setup, and counts
    CSA 24 / USA 30 with 18-card musters (DX-2.0, DX-2.2)."""
    editor = CardEditor()
    assert editor.note.severity == "info"
    editor.set_rows(EXAMPLE_ROWS)
    assert editor.is_example()
    assert editor.setup() == {"cards": EXAMPLE_ROWS, "example": LABEL}
    assert plain("CSA: 24 cards (muster 18, reinforcements 6); USA: 30 cards (muster 18, reinforcements 12)") \
        in editor.note.object
    assert plain(LABEL) in editor.note.object and "fictional" in LABEL.lower()
    assert cards_from_rows(editor.rows()) == cards_from_rows(example_cards())


@pytest.mark.rule("DX-1.0")
def test_the_cards_saved_as_a_file_open_again_as_the_same_decks():
    editor = CardEditor()
    mine = [dict(r, name=f"My {r['name']}") for r in EXAMPLE_ROWS]
    editor.set_rows(mine)
    saved = editor.file.save.callback().getvalue()
    editor.set_rows([])
    editor.file.read(saved)
    assert editor.rows() == mine and editor.setup() == {"cards": mine} and editor.note.severity != "error"


@pytest.mark.rule("DX-1.0")
def test_the_example_deck_replaces_typed_cards_only_once_the_player_says_so():
    """Cards the player typed are not lost to a stray tap on the example: the page asks first."""
    editor = CardEditor()
    mine = [{"number": 1, "side": "CSA", "type": "INF", "name": "My brigade", "pile": "muster", "cv": 3,
             "morale": "B"}]
    editor.set_rows(mine)
    click(find(editor, "load-example"))
    assert editor.asking.visible and "Replace your 1 cards" in editor.replace.object
    assert editor.rows() == mine
    click(find(editor, "keep-cards"))
    assert not editor.asking.visible and editor.rows() == mine
    click(find(editor, "load-example"))
    click(find(editor, "confirm-example"))
    assert editor.is_example() and not editor.asking.visible


def test_a_blank_card_row_holds_no_nan_and_a_typed_number_is_a_number():
    editor = CardEditor()
    click(find(editor, "add-card"))
    assert editor.rows() == [] and editor.cards.table.value.to_dict("records")[0]["side"] == "CSA"  # no entry yet
    frame = editor.cards.table.value.copy()
    frame.loc[0, "cv"] = "3"
    editor.cards.table.value = frame
    assert editor.rows() == [{"side": "CSA", "type": "INF", "cv": 3}] and "nan" not in editor.note.object.lower()


@pytest.mark.rule("DX-1.0")
def test_a_card_list_pasted_or_opened_is_read_by_the_engine(tmp_path):
    """A card list pasted as JSON (or opened as YAML) fills the table; one the reader refuses (junk, an alias, a
    script-bearing value) leaves the table as it was and says why, as plain text."""
    editor = CardEditor()
    editor.file.read(json.dumps(example_cards()))
    assert editor.is_example() and editor.note.severity == "warning"
    editor.file.read("cards: [&a {number: 1}, *a]")
    assert editor.note.severity == "error" and "alias" in editor.note.object.lower() and editor.is_example()
    editor.file.read(b'[{"number": 1, "side": "<img src=x onerror=alert(1)>", "type": "INF"}]')
    assert editor.note.severity == "error" and "\\<img" in editor.note.object and editor.is_example()
    editor.file.read(b"\xff\xfe junk")
    assert editor.note.severity == "error" and editor.is_example()


@pytest.mark.rule("DX-2.1", "DX-6.0")
def test_the_table_names_the_broken_rule():
    """A card edited in the table is checked at once: an unknown morale letter needs its modifier (A18); a number
    used twice in one battle deck breaks DX-2.1 for the basic game."""
    editor = CardEditor()
    rows = [dict(r) for r in EXAMPLE_ROWS]
    rows[3]["morale"] = "D"
    editor.set_rows(rows)
    assert editor.note.severity == "error" and plain("DX-6.0") in editor.note.object and "modifier" in editor.note.object
    rows[3]["morale"], rows[4]["number"] = "B", rows[3]["number"]
    editor.set_rows(rows)
    assert editor.note.severity == "warning" and plain("DX-2.1") in editor.note.object


# --- the battlefield ------------------------------------------------------------------------------------------------

def order(markup: str) -> list[str]:
    return re.findall(r'data-pos="([^"]+)"', markup)


@pytest.mark.rule("DX-8.0", "DX-3.1", "DX-7.3")
def test_the_battlefield_is_the_table_seen_from_one_side(live):
    """Two lines facing over the Middle Ground, each position straight across from the one it faces (own L faces
    enemy R), the viewer's line and reserve below; the enemy's face-down cards are backs; hits and stack meters."""
    deployed(live)
    play(live, 3)                                   # the CSA battery's hit on USA-954 is placed
    s = live.state
    csa, usa = battlefield_html(s, "CSA"), battlefield_html(s, "USA")
    assert order(csa) == ["reserve-USA", "USA-R", "USA-C", "USA-L", "CSA-L", "CSA-C", "CSA-R", "reserve-CSA"]
    assert order(usa) == ["reserve-CSA", "CSA-R", "CSA-C", "CSA-L", "USA-L", "USA-C", "USA-R", "reserve-USA"]
    top, bottom = order(csa)[1:4], order(csa)[4:7]
    assert all(across(b) == t for t, b in zip(top, bottom))
    # USA-954 took the hit and is face-up; the other USA units there are face-down: backs to the CSA
    assert 'data-card="USA-954"' in csa and 'class="hit" title="1 hit(s)">1<' in csa
    assert 'data-card="USA-955"' not in csa and 'data-card="USA-955"' in usa
    assert csa.count('card back usa') == 6 + 1     # 6 face-down USA units on the field, the hidden USA reserve
    assert "Example Brigade Alder" in csa and "Example Brigade Alder" not in usa
    assert "CSA 3/3" in csa                          # CSA-L: 4 - 1 terrain (woods) = 3, and 3 units there


# --- the view through the golden turns --------------------------------------------------------------------------

def seated(view: DixieView, side: str) -> DixieView:
    view.live.viewer = side
    return view


@pytest.mark.rule("DX-3.2")
def test_deploying_by_tapping_a_card_and_a_tile(view):
    """The CSA's device: tap a card of its reserve (picked in the form), then a tile (the position); the USA's
    cards are not offered to it, nor named anywhere on its page."""
    seated(view, "CSA")
    form = view.guide.active
    assert form.action == "deploy"
    cards = field(view, "card")
    assert {c.value for c in cards.legal.options} == {c.id for c in view.live.state.cards
                                                      if c.side == "CSA" and c.loc == "reserve"}
    view.tap_card("CSA-904")
    view.tap("CSA-L")
    assert form.build() == {"type": "deploy", "card": "CSA-904", "position": "CSA-L"}
    perform(view)
    assert view.live.state.card("CSA-904").loc == "CSA-L"
    usa = [c.spec.name for c in view.live.state.cards if c.side == "USA"]
    page = view.board.html + str([f.legal for f in form.form.fields])
    assert not [n for n in usa if n in page]


@pytest.mark.rule("DX-7.2", "DX-7.1", "DX-11.3", "DX-10.3")
def test_the_fire_form_and_its_odds(view):
    """CSA turn 1: the battery in CSA-L fires at USA-R across the Middle Ground; the orchard there takes 1 CV off
    fire into it (example effect), so 2 dice at F2: P(at least 1 hit) = 1 - (4/6)^2 = 5/9; no leader in USA-R.
    In USA-R stand Aster 4B (morale 4) and Bluebell 3B (morale 3): one hit goes on Aster (lost with 1/3), two are
    levelled one each (lost: 1 - (4/6)(3/6) = 2/3), so a unit is lost with (4/9)(1/3) + (1/9)(2/3) = 2/9. The CSA
    page shows the hits only: the USA units there are face down (digest section 2), and what the hits do to them
    would tell what they are; the engine's advice still has it."""
    deployed(view.live)
    play(view.live, 1)
    seated(view, "CSA")
    form = view.guide.active
    assert form.action == "fire"
    view.tap_card("CSA-915")
    view.tap("USA-R")
    assert form.build() == {"type": "fire", "firers": ["CSA-915"], "target": "USA-R"}
    assert view.odds.main.title.startswith("Fire CSA-L -> USA-R (long")
    assert number(view, "P(at least 1 hit)") == "55.6% (5/9)"
    assert number(view, "P(at least 2 hits)") == "11.1% (1/9)"
    shown = dict(view.odds.main.numbers)
    assert "P(an enemy unit routed or destroyed by its next morale step)" not in shown
    assert "P(the enemy leader there dies)" not in shown and not view.odds.second.visible
    assert view.odds.main.figure is not None and view.odds.main.note == BLIND
    assert advice.fire_advice(view.live.state, ["CSA-915"], "USA-R", {}).card_lost == F(2, 9)
    perform(view, (1, 6))
    assert view.guide.active.action == "allocate_hits"
    perform(view)
    assert view.live.state.card("USA-954").hits == 1


@pytest.mark.rule("DX-8.1", "DX-8.0")
def test_moving_by_tapping_a_card_then_a_tile(view):
    """The movement step: tap a card (chosen), tap the tile across the Middle Ground (where it goes): an advance."""
    deployed(view.live)
    play(view.live, 4)
    seated(view, "CSA")
    form = view.guide.active
    assert form.action == "move"
    view.tap_card("CSA-908")
    view.tap("USA-L")
    assert form.build() == {"type": "move", "card": "CSA-908", "to": "USA-L"}
    view.tap("USA-C")                                   # not a move of CSA-908: nothing changes
    assert form.build()["to"] == "USA-L"
    perform(view)
    assert view.live.state.card("CSA-908").loc == "USA-L"
    assert "advances from CSA-R to USA-L" in view.live.last


@pytest.mark.rule("DX-6.0")
def test_the_morale_step_odds(view):
    """USA turn 2: Aster (4B, 1 hit, no leader, the orchard changes no morale) routs with 1 - 4/6 = 1/3; a page of
    the CSA names Aster only if it is face-up (it is: it took the hit)."""
    deployed(view.live)
    play(view.live, 8)
    seated(view, "USA")
    assert view.guide.active.action == "check_morale"
    assert number(view, "P(Example Brigade Aster (fictional) (USA-954) lost)") == "33.3% (1/3)"
    perform(view, (4,))
    assert view.live.state.card("USA-954").hits == 0


@pytest.mark.rule("DX-8.0", "DX-5.0")
def test_a_refused_action_changes_nothing(view):
    """A move the rules bar is refused with the rule named and changes nothing."""
    deployed(view.live)
    play(view.live, 4)
    before = view.live.state.to_dict()
    assert view.live.act({"type": "move", "card": "CSA-904", "to": "CSA-C"}, ScriptedDice([])) is None
    assert "DX-8.0" in view.live.error and view.live.state.to_dict() == before


@pytest.mark.rule("DX-9.0")
def test_reinforcements_named_or_drawn_by_dice(view):
    deployed(view.live)
    play(view.live, 7)
    seated(view, "CSA")
    form = view.guide.active
    assert form.action == "reinforce" and form.build() == {"type": "reinforce", "cards": []}
    assert [r.sides for r in view.live.needed(form.build())] == [6]     # one of the 6 CSA reinforcements
    choose(field(view, "cards"), ["CSA-919"])
    assert form.build() == {"type": "reinforce", "cards": ["CSA-919"]}
    perform(view)
    assert view.live.state.card("CSA-919").loc == "reserve"
    assert "CSA-919" in view.live.session.events[-1].detail and view.live.session.events[-1].owner == "CSA"


@pytest.mark.rule("DX-4.0")
def test_the_victory_monitor(view):
    """DX-4.0: CSA-908 advanced into USA-L, but USA units are still there: it is not occupied."""
    deployed(view.live)
    play(view.live, 7)
    text = view.victory.object
    assert "CSA occupies 0 of the 2 USA positions it needs" in text and LABEL in text


# --- melee and flank attack ------------------------------------------------------------------------------------------

@pytest.mark.rule("DX-13.1")
def test_melee_advice_beside_the_declaration(store):
    """Vector 19: USA 2CV B against CSA 1CV C in USA-R: after round 1 USA alone 4/9, both gone 2/9, CSA alone 1/9,
    both remain 2/9; the view shows it with the best choices after it."""
    live = live_from(store, melee_table(V19))
    view = seated(DixieView(live), live.state.active)
    form = view.guide.active
    assert form.action == "declare_melee" and form.build()["position"] == "USA-R"
    assert view.position_value.visible
    assert outcomes(view.odds.main.figure) == {"initiator alone": float(F(4, 9)), "opponent alone": float(F(1, 9)), "both": float(F(2, 9)),
                     "neither": float(F(2, 9))}
    assert "P(you hold the position at the end)" in dict(view.odds.main.numbers)
    perform(view)
    assert view.guide.active.action == "melee_round"


@pytest.mark.rule("DX-13.3")
def test_flank_attack_odds_beside_the_choice(store):
    """Vector 15: INF 3B, CAV 2B, ART 3B with an attack-1 leader: 0-3 cards make it with 1/18, 5/18, 4/9, 2/9."""
    live = live_from(store, flank_table())
    view = seated(DixieView(live), "CSA")
    view.guide.choose("flank_attack")
    form = view.guide.active
    assert form.action == "flank_attack"
    for card in ("CSA-2", "CSA-3", "CSA-4"):
        view.tap_card(card)
    view.tap("USA-R")
    view.tap_card("CSA-5")
    assert form.build() == {"type": "flank_attack", "cards": ["CSA-2", "CSA-3", "CSA-4"], "position": "USA-R",
                            "leader": "CSA-5"}
    assert exactly(view.odds.main.figure) == {"0": "1/18", "1": "5/18", "2": "4/9", "3": "2/9"}
    assert number(view, "P(at least one makes it)") == "94.4% (17/18)"


# --- disengagement ---------------------------------------------------------------------------------------------------

@pytest.mark.rule("DX-8.2", "DX-13.1")
def test_the_withdraw_form_offers_only_legal_destinations(store):
    """DX-8.2: the unit that must disengage from its own line is offered only its reserve (never the empty enemy
    position across, which would win the game); a unit with nowhere to go is offered nothing and stays (A23)."""
    live = live_from(store, usa_must_disengage(fight_on=True))
    view = seated(DixieView(live), "USA")
    assert view.guide.active.action == "withdraw"
    assert [c.value for c in field(view, "to").legal.options] == ["reserve"]
    assert view.guide.active.build() == {"type": "withdraw", "card": "USA-11", "to": "reserve"}
    view.tap("CSA-L")
    assert view.guide.active.build()["to"] == "reserve"
    perform(view)
    assert view.live.state.card("USA-11").loc == "reserve" and view.live.state.victory is None
    cut = live_from(store, csa_cut_off())
    cut_off = seated(DixieView(cut), "CSA")
    assert cut_off.guide.active.action == "withdraw" and "to" not in cut_off.guide.active.build()
    perform(cut_off)
    assert cut_off.live.state.card("CSA-1").loc == "USA-R"


# --- hidden cards ----------------------------------------------------------------------------------------------------

@pytest.mark.rule("DX-3.2", "DX-13.6")
def test_a_side_page_never_names_the_other_sides_hidden_cards(store, view):
    """Digest section 2: deployed face-down, a CSA card is named on the CSA's page only (board, forms, log detail);
    the USA's page and the table's see its back and a public summary."""
    seated(view, "CSA")
    view.tap_card("CSA-904")
    view.tap("CSA-L")
    perform(view)
    name = view.live.state.card("CSA-904").spec.name
    assert name in view.board.html and name in view.live.session.events[-1].detail
    for side in ("USA", ""):
        other_page = seated(DixieView(LiveSession(GameSession.open(store, view.live.session.id))), side)
        assert name not in other_page.board.html
        assert name not in json.dumps(json.loads(other_page.live.session.export_log(side))["events"])
