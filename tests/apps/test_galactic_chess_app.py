"""The Galactic Chess dashboard's view models, driven without a browser: the card editor, hands kept to their
own device, the turn guide's forms with their odds, the battle screen with the target advice, a plot, the end
check, the free actions and the duel matrix. Expected numbers are the digest's 2d6 table (q, r) worked by hand
for the example (fictional) cards: Aurum S6 A3 D9, Dune S3 A1 D7 (Ann, EMP); Harbor S5 A3 D8, Jade S3 A1 D8,
Kestrel P5 (Ben, FPA); Opal (Cat, FPA, no plot value)."""
from __future__ import annotations

import json
import random
from fractions import Fraction as F

import pytest

import apps.galactic_chess as app
from apps.galactic_chess import (
    CardEditor,
    GalacticChessView,
    battle_html,
    estimate_text,
    players_html,
)
from companion.dice import RandomDice, ScriptedDice
from companion.session import GameSession
from companion.store import Store
from companion.ui.live import LiveSession
from engines.galactic_chess.example import EXAMPLE_PERSONS, LABEL, example_setup
from engines.galactic_chess.guide import due_now
from engines.galactic_chess.interval import Estimate
from tests.widgets import click, find, perform

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


@pytest.fixture
def live(tmp_path) -> LiveSession:
    return LiveSession(GameSession.new(Store(tmp_path), "galactic_chess", example_setup()))


@pytest.fixture
def view(live) -> GalacticChessView:
    return GalacticChessView(live)


def act(live: LiveSession, kind: str, *faces: int, **params) -> None:
    assert live.act({"type": kind, **params}, ScriptedDice(faces)) is not None, live.error


def set_up(live: LiveSession) -> None:
    """GC-3: the hands named at the table, the persons placed; Cobalt (the example's Stockhausen) commands Iserlohn."""
    for player, cards in HANDS.items():
        act(live, "deal_hand", player=player, cards=cards)
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


def form(view: GalacticChessView, css: str):
    return find(view.guide.active.card, css)


# --- the cards entered from the players' sheets -------------------------------------------------------------

def test_an_empty_editor_asks_for_the_cards():
    editor = CardEditor()
    assert editor.note.severity == "info" and "load the example" in editor.note.object


def test_the_example_cards_are_labelled_fictional_in_the_note_and_the_setup():
    editor = CardEditor()
    click(find(editor, "load-example"))
    assert editor.note.severity == "warning" and editor.note.object.startswith(LABEL)
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
    editor.paste.value = json.dumps({"persons": persons, "events": [], "fortress": {"strategy": 4, "attack": 4,
                                                                                   "defence": 11}})
    click(find(editor, "read-cards"))
    assert editor.note.severity == "error" and "Demo Marshal Garnet" in editor.note.object
    assert "GC-8.1" in editor.note.object


def test_own_cards_are_not_labelled_as_the_example():
    editor = CardEditor()
    click(find(editor, "load-example"))
    persons = [dict(p) for p in EXAMPLE_PERSONS]
    persons[0]["attack"] = 4
    editor.set_cards({"persons": persons, "events": [], "fortress": {"strategy": 4, "attack": 4, "defence": 11}})
    assert editor.note.severity == "success" and "example" not in editor.setup()


# --- hands are private ----------------------------------------------------------------------------------

@pytest.mark.rule("GC-6A.1")
def test_the_table_shows_hand_sizes_and_only_the_devices_own_player_sees_the_cards(view, live):
    set_up(live)
    table = players_html(live.state)
    assert "Ann · hand 2 cards" in table and "Cat · hand 1 card<" in table
    assert "Flanking Fire" not in table and "Rumours" not in table
    assert "no hand is shown" in view.hand.object
    view.seat.seat = "Ann"              # the device's choice: kept in the browser, never in the session
    assert "Demo Support: Flanking Fire" in view.hand.object and "Rumours" not in view.hand.object
    assert "seat" not in json.dumps(live.session.record.setup) and view.seat.key.endswith(live.session.id)
    view.seat.seat = "Cat"
    assert "Demo Event: Rumours" in view.hand.object and "Flanking Fire" not in view.hand.object


def test_a_device_chosen_in_the_browser_redoes_the_step_for_that_player(view, live):
    """The deal form on Ben's device names Ben's cards; back on the table device the companion deals."""
    view.seat.seat = "Ben"
    assert "Hand of Ben" in view.hand.object and view.guide.active.build()["player"] == "Ben"
    view.seat.seat = ""
    assert not form(view, "dealt-cards").visible and "no hand is shown" in view.hand.object


@pytest.mark.rule("GC-3")
def test_the_deal_names_cards_only_on_the_players_own_device(view, live):
    assert view.guide.active.action == "deal_hand"
    assert not form(view, "dealt-cards").visible
    assert view.guide.active.build() == {"type": "deal_hand", "player": ""}      # the companion deals
    view.seat.seat = "Ann"
    dealt = form(view, "dealt-cards")
    assert dealt.visible and AURUM in dealt.options
    dealt.value = HANDS["Ann"]
    perform(view)
    assert live.state.hand("Ann") == tuple(HANDS["Ann"])


@pytest.mark.rule("GC-3")
def test_placement_is_chosen_on_the_own_device(view, live):
    for player, cards in HANDS.items():
        act(live, "deal_hand", player=player, cards=cards)
    assert view.guide.active.action == "place"
    assert find(view.guide.active.card, "private-note").visible
    view.seat.seat = "Ben"
    persons = form(view, "place-persons")
    assert set(persons.options) == set(PLACED["Ben"])
    persons.value = [HARBOR]
    perform(view)
    assert live.state.placing[1] == (HARBOR,) and "Chosen to place (secret)" in view.hand.object
    assert HARBOR not in players_html(live.state)


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
    view.guide.choose("draw")
    assert not form(view, "drawn-card").visible
    view.seat.seat = "Ben"
    drawn = form(view, "drawn-card")
    assert drawn.visible and LIFEBOAT in drawn.options
    drawn.value = LIFEBOAT
    perform(view)
    assert LIFEBOAT in view.hand.object and LIFEBOAT not in players_html(live.state)
    view.guide.choose("plot")
    form(view, "plotter").value = KESTREL
    form(view, "plot-target").value = OPAL
    numbers = dict(view.odds.main.numbers)
    assert numbers == {"target destroyed": "83.3% (5/6)", "plotter destroyed": "0.0% (0)", "nothing": "16.7% (1/6)"}
    perform(view, (3, 3))
    assert OPAL in live.state.destroyed and view.guide.active.action == "end_turn"


@pytest.mark.rule("GC-9.0", "GC-9.12")
def test_the_end_check_shows_the_monitors(view, live):
    set_up(live)
    act(live, "roll_order", 1)
    act(live, "draw", card=D + "Response: Lifeboat 1")
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
    assert f'{AURUM} <span class="sc">SC</span>' in screen and f'{HARBOR} <span class="sc">SC</span>' in screen


@pytest.mark.rule("GC-6B.5")
def test_the_target_advice_gives_each_duel_exactly_and_the_battle_after_it(view, live):
    """Aurum (S6 A3) strikes Harbor (D8) first: q(5) = 5/6; Harbor strikes back only after a miss with q(6) =
    26/36: Aurum lost 1/6 x 26/36 = 13/108; nobody 1/6 x 10/36 = 5/108 (GC-6B.5)."""
    to_battle(live)
    assert view.guide.active.action == "engage"
    assert form(view, "engage-actor").value == AURUM
    target = form(view, "engage-target")
    assert target.options == [HARBOR, JADE]
    rows = {r.target or "retreat": r for r in view.target_advice(AURUM)}
    assert target.value == max((r for r in rows.values() if r.move == "engage"), key=lambda r: r.wins).target
    target.value = HARBOR
    numbers = dict(view.odds.main.numbers)
    assert numbers[f"{HARBOR} destroyed"] == "83.3% (5/6)"
    assert numbers[f"{AURUM} destroyed"] == "12.0% (13/108)"
    assert numbers["nobody destroyed"] == "4.6% (5/108)"
    assert numbers["who strikes first"] == f"{AURUM} strikes first"
    assert "P(attacker sweeps the field)" in numbers and view.odds.second.visible
    advice = form(view, "target-advice").object
    assert "engage Demo Admiral Harbor" in advice and "retreat" in advice and "exact" in advice
    assert rows["retreat"].exact


@pytest.mark.rule("GC-6B.5", "GC-6B.6", "GC-6B.7")
def test_a_battle_with_entered_dice_a_strike_back_a_retreat_and_its_free_attack(view, live):
    """Aurum destroys Jade (3+3+3 >= 8): Ann +1 VP in EMP. Harbor misses Dune, Dune misses back. Dune retreats:
    T = 3 + 6 = 9, r(9) = 30/36; fails on 11; Harbor's free attack q(7 - 3) = 33/36 misses on 3: Dune stays."""
    to_battle(live)
    form(view, "engage-target").value = JADE
    perform(view, (3, 3))
    assert live.state.vp == {"Ann": {"EMP": 1}} and "Ann: EMP 1 VP" in battle_html(live.state)
    form(view, "engage-target").value = DUNE
    perform(view, (1, 1))
    assert view.guide.active.action == "strike_back"
    assert dict(view.odds.main.numbers) == {f"P({HARBOR} destroyed)": "58.3% (7/12)"}   # q(8 - 1) = 21/36
    perform(view, (2, 2))
    view.guide.choose("retreat")
    numbers = dict(view.odds.main.numbers)
    assert numbers["gets away"] == "83.3% (5/6)" and numbers["free attack by"] == HARBOR
    assert numbers["destroyed"] == "15.3% (11/72)"                  # 1/6 x 33/36
    perform(view, (6, 5))
    assert view.guide.active.action == "free_attack"
    assert dict(view.odds.main.numbers) == {f"P({HARBOR} destroys it)": "91.7% (11/12)"}
    perform(view, (2, 1))
    assert live.state.phase == "end" and DUNE not in live.state.destroyed
    assert "Dune stays" in live.session.events[-1].summary


@pytest.mark.rule("GC-6B.5", "GC-11")
def test_a_battle_support_card_is_offered_on_its_holders_device_only(view, live):
    """GC-6B.5: any player may play a battle-support card on a duel; the engine offers every hand's, and each
    device shows its own: Ann's Flanking Fire on Ann's device, none on Ben's or on the table's."""
    to_battle(live)
    assert view.guide.active.action == "engage" and not form(view, "engage-support").visible
    view.seat.seat = "Ann"
    support = form(view, "engage-support")
    assert support.visible and support.options == ["", D + "Support: Flanking Fire"]
    view.seat.seat = "Ben"
    assert not form(view, "engage-support").visible


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
    advice = form(view, "target-advice").object
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
    assert view.guide.active.action == "choose_sc"
    sc = form(view, "sc-unit")
    assert sc.options == [HARBOR, D + "Admiral Indigo"]
    sc.value = D + "Admiral Indigo"
    perform(view)
    assert f'{D}Admiral Indigo <span class="sc">SC</span>' in battle_html(live.state)


@pytest.mark.rule("GC-7.12", "GC-7.21")
def test_the_iserlohn_post_plots_show_their_chance_or_that_no_roll_is_needed(view, live):
    """Cat's Cobalt commands Iserlohn (EMP). Ann's Aurum (P7) plots for the post: q(7) = 21/36, no +2 (Q22);
    dispatching Dune to a free slot is certain, with no plot, no roll and no plotter (GC-7.21)."""
    set_up(live)
    act(live, "roll_order", 1)
    act(live, "draw", card=LIFEBOAT)
    view.guide.choose("post_plot")
    form(view, "post-plotter").value = AURUM
    form(view, "post-candidate").value = D + "Admiral Basalt"
    assert dict(view.odds.main.numbers) == {"P(success)": "58.3% (7/12)"}
    view.guide.choose("garrison_plot")
    form(view, "garrison-fleet").value = DUNE
    assert dict(view.odds.main.numbers) == {"P(success)": "100.0% (1)", "plot": "none: no roll, no plotter"}
    assert not form(view, "garrison-plotter").visible
    perform(view)
    assert live.state.fortress.garrison == (DUNE,) and live.state.plotted


# --- free actions and the odds tab --------------------------------------------------------------------------

@pytest.mark.rule("GC-11")
def test_a_response_card_is_played_from_the_own_hand(view, live):
    """Ann's Lifeboat (an escape) takes Harbor out of Ben's attack: he neither attacks nor is attacked. Iserlohn's
    commander is Cat's Cobalt, so Cat must be the first defender (GC-6B.3)."""
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
    view.tabs.active = 2                # the "My hand" tab, filled when first opened
    panel = find(view, "free-actions")
    assert find(panel, "free-card").options == []
    view.seat.seat = "Ann"
    assert find(panel, "free-card").options == [LIFEBOAT]
    find(panel, "free-target").value = HARBOR
    click(find(panel, "do-action"))
    assert live.error == "" and "escapes the battle" in live.session.events[-1].summary


@pytest.mark.rule("GC-6B.5")
def test_the_duel_matrix_of_the_camps_on_the_table(view, live):
    set_up(live)
    view.tabs.active = 3                # the "Odds" tab, filled when first opened
    tab = find(view, "odds-tab")
    assert find(tab, "matrix-mine").value == "EMP" and find(tab, "matrix-theirs").value == "FPA"
    note = find(tab, "matrix-note").object
    assert note.startswith("Each cell")
    assert "If the game ended now" in find(tab, "provisional").object


# --- every form, as the guide shows it ------------------------------------------------------------------

def tap_choices(view: GalacticChessView) -> None:
    """What a player taps on the forms that start empty: every person placed, the first fleet declared."""
    action = view.guide.active.action
    if action == "place":
        persons = form(view, "place-persons")
        persons.value = list(persons.options)
    elif action == "declare":
        fleets = form(view, "declare-fleets")
        fleets.value = list(fleets.options)[:1]


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
        due = due_now(s)
        pending = [p for p, d in zip(s.players, s.done) if not d] if s.phase in ("deal", "draft", "place") else []
        view.seat.seat = pending[0] if pending else s.player
        for step in sorted(due, key=lambda d: rng.random() - (d.action in ("draw", "plot", "use_card"))):
            view.guide.select(step.action)
            seen.add(step.action)
            tap_choices(view)
            if live.act(view.guide.active.build(), RandomDice(seed=rng.randrange(10 ** 6))) is not None:
                break
        else:
            pytest.fail(f"no due step could be taken: {[d.action for d in due]}: {live.error}")
    assert {"deal_hand", "place", "roll_order", "draw", "plot", "sortie", "declare", "engage", "end_turn"} <= seen, seen
