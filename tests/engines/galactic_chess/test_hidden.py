"""Hands are hidden (digest section 2): a step that deals, drafts, places or draws cards has a public summary and a
private part (its cards, the dice that chose them) for its owner alone; the game as a seat may know it offers that
seat's own cards only; a parameter whose choices are a hand or the deck never names them in a refusal."""
from __future__ import annotations

import json
import random

import pytest

from companion.dice import RandomDice, ScriptedDice
from companion.engine import RuleError
from companion.play import random_action
from companion.session import GameSession
from companion.store import Store
from engines.galactic_chess import ENGINE
from engines.galactic_chess.example import example_setup
from engines.galactic_chess.guide import free_steps
from engines.galactic_chess.state import known_to, places
from tests.engines.galactic_chess.support import Table, event, person, setup
from tests.engines.galactic_chess.test_battle_cards import snake_battle

CARDS = (person("Emp A", "EMP", 2, 6, 2, 10), person("Fpa B", "FPA", 2, 4, 1, 9), person("Emp C", "EMP", 1, 3, 1, 7))


def names_in(text: str, cards) -> set:
    return {c for c in cards if c in text}


@pytest.mark.rule("GC-3", "GC-3.1")
def test_a_deal_is_public_as_a_count_and_private_in_its_cards_and_dice():
    """GC-3: "Ann is dealt 6 cards" is public; the cards and the dice that chose them are Ann's alone."""
    table = Table(setup(CARDS))
    step = table.do("deal_hand", 1, 1, 1, 1, 1, 1, player="Ann")
    hand = table.hand("Ann")
    assert step.summary == "Ann is dealt 6 cards" and not names_in(step.summary, table.state.card_names())
    assert step.owner == "Ann" and step.detail == f"Ann's cards: {', '.join(hand)}"
    event = table.events[-1]
    assert event.owner == "Ann" and len(event.rolls) == 6
    assert event.public().rolls == () and event.public().action is None and event.public().detail == ""
    named = table.do("deal_hand", player="Ben", named=True, cards=list(table.state.decks[0][:6]))
    assert named.owner == "Ben" and named.summary == "Ben is dealt 6 cards"


@pytest.mark.rule("GC-3", "GC-12")
def test_a_draft_pick_and_a_placement_are_their_players_alone():
    table = Table(setup(CARDS), draft=True)
    for player in ("Ann", "Ben", "Cat"):
        table.do("deal_hand", 1, 1, 1, 1, 1, 1, player=player)
    packet = table.state.packets[0]
    step = table.do("draft_pick", player="Ann", card=packet[0])
    assert (step.owner, step.detail, step.summary) == ("Ann", f"Ann keeps {packet[0]}", "Ann keeps a card")
    plain = Table(setup(CARDS))
    for player, hand in (("Ann", ["Emp A"]), ("Ben", ["Fpa B"]), ("Cat", ["Emp C"])):
        fillers = [c for c in plain.state.decks[0] if c.startswith("Filler")][:5]
        plain.do("deal_hand", player=player, cards=hand + fillers)
    step = plain.do("place", player="Ann", cards=["Emp A"])
    assert (step.owner, step.detail) == ("Ann", "Ann places Emp A")
    assert step.summary == "Ann has chosen a placement (secret)"


@pytest.mark.rule("GC-6A.1", "GC-11")
def test_a_draw_is_the_drawers_alone_unless_it_is_a_forced_event():
    """GC-6A.1: "Ann draws a card" is public, the card and its die Ann's; a forced event is revealed (GC-11)."""
    table = Table(setup(CARDS, (event("Strife", "forced", "civil_war"),)))
    table.start({"Ann": ["Emp A"], "Ben": ["Fpa B"], "Cat": ["Emp C"]})
    table.do("roll_order", 1)
    step = table.do("draw", 2)                  # the deck left: Strife and three fillers
    drawn = table.hand("Ann")[-1]
    assert step.owner == "Ann" and step.detail == f"Ann draws {drawn}" and drawn not in step.summary
    assert "Ann draws a card (hand" in step.summary
    table.do("end_action")
    table.do("end_turn")
    table.do("roll_order", 1)
    step = table.do("draw", card="Strife")
    assert "Strife" in step.summary and step.owner == "Ben"


@pytest.mark.rule("GC-3")
def test_a_deal_saved_with_no_cards_named_replays():
    """A deal saved by an earlier version as {"cards": null} (the companion dealt) replays as a deal by the
    companion; a deal naming its cards without saying so is one named at the table."""
    table = Table(setup(CARDS))
    old = ENGINE.apply(table.state, {"type": "deal_hand", "player": "Ann", "cards": None}, ScriptedDice((1,) * 6))
    new = ENGINE.apply(table.state, {"type": "deal_hand", "player": "Ann"}, ScriptedDice((1,) * 6))
    assert old.state == new.state and len(old.state.hand("Ann")) == 6
    spec = ENGINE.actions.specs["deal_hand"]
    assert spec.param("cards").legal(table.state, {"player": "", "named": False}) is None
    assert spec.param("cards").legal(table.state, {"player": "", "named": True}).low == 6
    assert spec.param("cards").legal(table.state, {"player": "", "named": None}).low == 0


@pytest.mark.rule("GC-6A.2", "GC-3.1", "GC-11")
def test_a_refused_card_never_names_a_hand_or_the_deck():
    """A card not offered is refused without naming the cards that could be (they are a hand or the deck)."""
    table = snake_battle()
    hidden = {c for hand in table.state.hands for c in hand} | {c for d in table.state.decks for c in d}
    for action in ({"type": "engage", "actor": "Emp A1", "target": "Fpa B1", "support": "Nothing"},
                   {"type": "respond", "card": "Nothing"}, {"type": "fortress_vs_fortress", "card": "Nothing"}):
        with pytest.raises(RuleError) as refused:
            ENGINE.apply(table.state, action, RandomDice(seed=0))
        assert not names_in(str(refused.value), hidden), refused.value
    dealing = Table(setup(CARDS))
    for action in ({"type": "deal_hand", "named": True, "cards": ["Nothing"] * 6}, {"type": "deal_hand", "named": True}):
        with pytest.raises(RuleError) as refused:
            ENGINE.apply(dealing.state, action, RandomDice(seed=0))
        assert not names_in(str(refused.value), dealing.state.decks[0]), refused.value


@pytest.mark.rule("GC-6A.1")
def test_the_game_as_a_seat_knows_it_shows_its_own_cards_and_hides_the_others():
    """Digest section 2: another hand, draft packet or secret placement is face down: its cards are among the deck's
    for that seat, which cannot tell them apart (a spent deck stays empty: its size is public, and the hidden cards
    of its period are nowhere); a seat's own cards are as they are. At states of random games, for every seat and
    for the table."""
    rng = random.Random(3)
    state = ENGINE.start({"draft": True}, example_setup())
    for _ in range(120):
        for viewer in ("", *state.players):
            view = known_to(state, viewer)
            seat = state.players.index(viewer) if viewer else -1
            for name in ("hands", "packets", "placing"):
                for i, (pile, seen) in enumerate(zip(getattr(state, name), getattr(view, name))):
                    assert seen == (pile if i == seat else ())
            hidden = {c for name in ("hands", "packets", "placing") for i, pile in enumerate(getattr(state, name))
                      if i != seat for c in pile}
            nowhere = {c for c, spots in places(view).items() if not spots}
            assert all(len(spots) <= 1 for spots in places(view).values()) and nowhere <= hidden
            for i, deck in enumerate(view.decks):
                assert list(deck) == [c for c in state.card_names() if c in deck]     # the entry order: no trace
                assert set(state.decks[i]) <= set(deck) and bool(deck) == bool(state.decks[i])
                assert set(deck) - set(state.decks[i]) <= hidden
        action = random_action(ENGINE.actions, state, rng)
        if action is None:
            break
        state = ENGINE.apply(state, action, RandomDice(rng=rng)).state


@pytest.mark.rule("GC-3")
def test_a_seats_view_does_not_change_with_what_another_seat_was_dealt():
    table, other = Table(setup(CARDS)), Table(setup(CARDS))
    table.do("deal_hand", 1, 1, 1, 1, 1, 1, player="Ben")
    other.do("deal_hand", 9, 9, 9, 9, 9, 9, player="Ben")
    assert table.hand("Ben") != other.hand("Ben")
    assert known_to(table.state, "Ann") == known_to(other.state, "Ann")
    assert known_to(table.state, "") == known_to(other.state, "")


@pytest.mark.rule("GC-6B.5", "GC-11")
def test_a_seat_is_offered_only_its_own_cards_to_play():
    """GC-6B.5 / GC-11: the engine offers every hand's battle-support card; the game as one seat knows it offers
    that seat's own: Ben's Push on Ben's device, Cat's Double-Headed Snake on Cat's, none on Ann's or the table's."""
    table = snake_battle()
    duel = {"actor": "Emp A1", "target": "Fpa B1"}
    support = ENGINE.actions.specs["engage"].param("support")
    offered = {viewer: set(support.legal(known_to(table.state, viewer), duel).values) - {""}
               for viewer in ("", "Ann", "Ben", "Cat")}
    assert offered == {"": set(), "Ann": set(), "Ben": {"Push"}, "Cat": {"Two Heads"}}


@pytest.mark.rule("GC-11")
def test_a_free_action_is_offered_to_the_seat_holding_its_card():
    """GC-11: an Escape Shuttle in a battle, offered as a free step to its holder's seat alone."""
    cards = (person("Emp A", "EMP", 2, 6, 2, 10), person("Fpa B", "FPA", 2, 4, 1, 9))
    table = Table(setup(cards, (event("Lifeboat", "response", "escape"),)))
    table.start({"Ann": ["Emp A"], "Ben": ["Fpa B"], "Cat": ["Lifeboat"]}, {"Ann": ["Emp A"], "Ben": ["Fpa B"]})
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B"])
    steps = {viewer: [d.action for d in free_steps(known_to(table.state, viewer))] for viewer in ("", "Ann", "Cat")}
    assert steps == {"": [], "Ann": [], "Cat": ["respond"]}


@pytest.mark.rule("GC-3")
def test_a_players_export_holds_no_other_hand(tmp_path):
    """A player's export is the log as that player's page shows it: no other player's card or deal die."""
    session = GameSession.new(Store(tmp_path), "galactic_chess", example_setup())
    for player in session.state.players:
        session.act({"type": "deal_hand", "player": player}, RandomDice(seed=7))
    hands = {p: set(session.state.hand(p)) for p in session.state.players}
    for player in session.state.players:
        exported = json.loads(session.export_log(player))["events"]
        others = set().union(*(h for p, h in hands.items() if p != player))
        assert not names_in(json.dumps(exported), others) and names_in(json.dumps(exported), hands[player]) == \
            hands[player]
        assert [bool(e["rolls"]) for e in exported] == [p == player for p in session.state.players]
    full = json.dumps(json.loads(session.export())["events"])
    assert all(names_in(full, h) == h for h in hands.values())


@pytest.mark.rule("GC-3", "GC-3.1", "GC-6A.1")
def test_a_deal_and_a_draw_are_chosen_by_name_first_and_draw_for_me_stays():
    """GC-3.1: the cards dealt or drawn from the physical deck are chosen by name: a page starts from naming them,
    offered the current deck as the drawer may know it (another player's hand is among its cards, the own hand is
    not); "Draw for me" (the companion draws at random from the cards left, a die a card) stays, and a deal or draw
    saved by an earlier version (no `named`, a card "") replays."""
    table = Table(setup(CARDS))
    deal = ENGINE.actions.specs["deal_hand"]
    assert deal.param("named").legal(table.state, {"player": ""}).values[0] is True
    ann = table.do("deal_hand", 1, 1, 1, 1, 1, 1, player="Ann", named=False)       # draw for me: six dice
    assert len(table.events[-1].rolls) == 6 and len(table.hand("Ann")) == 6
    ben = sorted(table.state.decks[0])[:6]
    table.do("deal_hand", player="Ben", named=True, cards=ben)
    names = [p["name"] for p in CARDS] + [f["name"] for f in setup(CARDS)["events"]]
    left_for_ann = [c for c in names if c not in table.hand("Ann")]                # Ben's hand is face down to Ann
    seen = known_to(table.state, "Ann")
    offered = deal.param("cards").legal(seen, {"player": "Cat", "named": True})
    assert sorted(offered.values) == sorted(left_for_ann) and offered.low == offered.high == 6
    assert not set(offered.values) & set(table.hand("Ann"))
    assert ann.summary == "Ann is dealt 6 cards"
    table.do("deal_hand", player="Cat", named=True, cards=list(table.state.decks[0][:6]))
    for player, hand in (("Ann", table.hand("Ann")), ("Ben", ben), ("Cat", table.hand("Cat"))):
        persons = [c for c in hand if c in [p["name"] for p in CARDS]]
        table.do("place", player=player, cards=persons)
    table.do("roll_order", 1)
    draw = ENGINE.actions.specs["draw"].param("card").legal(known_to(table.state, "Ann"), {})
    assert draw.options[0].value == "" and draw.options[0].label.startswith("Draw for me")
    hidden = set(table.hand("Ben")) | set(table.hand("Cat"))
    assert set(draw.values[1:]) == set(table.state.decks[0]) | hidden
    old = ENGINE.apply(table.state, {"type": "draw", "card": ""}, ScriptedDice((1,)))
    new = ENGINE.apply(table.state, {"type": "draw"}, ScriptedDice((1,)))
    assert old.state == new.state and len(new.state.hand("Ann")) == len(table.hand("Ann")) + 1
