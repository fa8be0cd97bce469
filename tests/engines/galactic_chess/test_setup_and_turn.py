"""Setup (GC-3, GC-3.1, GC-3.4, GC-12), the turn (GC-4, GC-5, GC-6A, GC-6A.1, GC-6A.2), negotiation (GC-10)
and the card entry that every rule reads (digest sections 2 and 10)."""
from __future__ import annotations

import dataclasses

import pytest

from companion.dice import ScriptedDice
from companion.engine import RuleError
from engines.galactic_chess import ENGINE
from engines.galactic_chess.cards import card_warnings, cards_from_rows
from engines.galactic_chess.state import ACTION, CARD, DRAFT, END, ORDER, PLACE, misplaced, player_view, public_view
from tests.engines.galactic_chess.support import FILLERS, PLAYERS, Table, event, person, setup

CORE = (person("Emp Star", "EMP", 2, 5, 2, 9, 8), person("Fpa Star", "FPA", 2, 5, 2, 9, 8),
        person("Emp Minor", "EMP", 1, 3, 1, 7), person("Fpa Minor", "FPA", 1, 3, 1, 7))


def started(cards=CORE, events=(), hands=None, placed=None, **options) -> Table:
    table = Table(setup(cards, events), **options)
    table.start(hands or {"Ann": ["Emp Star"], "Ben": ["Fpa Star"]}, placed)
    return table


# --- GC-3 setup ------------------------------------------------------------------------------------

@pytest.mark.rule("GC-3")
@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C", "D", "E", "F"], ["A", "A", "B"], ["A", "", "B"],
                                     "ABC"])
def test_three_to_five_players_with_distinct_names(players):
    """GC-3 (digest section 1): 3 to 5 players, seated clockwise, each named once, as a list."""
    with pytest.raises(RuleError) as caught:
        ENGINE.start(None, {**setup(CORE), "players": players})
    assert caught.value.rule == "GC-3"


@pytest.mark.rule("GC-3", "GC-8.1", "GC-6A.31", "GC-6B.13", "GC-11", "GC-7.4", "GC-3.1")
@pytest.mark.parametrize("persons, events, rule", [
    ([person("X", "ZZZ", 1, 1, 1, 1)], [], "GC-3"),
    ([person("X", "FPA", 1, 1, 1, 1, rebel_camp="NOBLE")], [], "GC-8.1"),
    ([person("X", "EMP", 1, 1, 1, 1, counter_only=True)], [], "GC-6A.31"),
    ([person("X", "EMP", 1, 1, 1, 1, fights=True)], [], "GC-6B.13"),
    ([person("X", "EMP", 1, 1, 1.5, 1)], [], "GC-6B.5"),
    ([person("X", "EMP", 1, 1, 1, 1, period=5)], [], "GC-3.1"),
    ([person("X", "EMP", 1, 1, 1, 1), person("X", "FPA", 1, 1, 1, 1)], [], "GC-3"),
    ([person("X", "EMP", 1, 1, 1, 1, role="reinhard"), person("Y", "EMP", 1, 1, 1, 1, role="reinhard")], [], "GC-3"),
    ([], [event("E", "forced", "inquiry")], "GC-11"),
    ([], [event("E", "surprise")], "GC-11"),
    ([], [event("E", "event", "invasion")], "GC-7.4"),
    ([], [event("E", "event", "escape")], "GC-11"),
    ([person("X", "EMP", 1, 1, 2.0, 1)], [], "GC-6B.5"),
    ([person("X", "EMP", True, 1, 1, 1)], [], "GC-6B.2"),
    ([], [event("E", "event", "invasion", size=13)], "GC-7.4"),
    ([], [event("E", "event", "double_snake")], "GC-11"),
    ([], [event("E", "forced", "fortress_vs_fortress")], "GC-11"),
], ids=["camp", "rebel-camp", "brackets-without-value", "admiral-air-unit", "not-whole", "period", "same-name",
        "two-reinhards", "forced-target", "kind", "invasion-size", "escape-not-response", "float-int", "bool-int",
        "invasion-beyond-12", "snake-as-event", "fortress-card-forced"])
def test_entered_cards_are_checked(persons, events, rule):
    """Digest section 10: values are whole numbers; NOBLE only on Imperial and MCSR only on Alliance persons; a
    bracketed plot value needs its value; only star-less persons are air/ground units; each card its own name."""
    with pytest.raises(RuleError) as caught:
        cards_from_rows(persons, events)
    assert caught.value.rule == rule


@pytest.mark.rule("GC-6A.32")
def test_a_plot_value_outside_3_to_12_is_worth_a_warning():
    """Digest section 2: warn when a plot value makes the 2d6 roll always or never succeed."""
    persons, _ = cards_from_rows([person("Sure", "EMP", 0, 1, 1, 1, 2), person("Never", "EMP", 0, 1, 1, 1, 13),
                                  person("Fine", "EMP", 0, 1, 1, 1, 7)], [])
    assert card_warnings(persons) == ["Sure: a plot value of 2 always succeeds on 2d6",
                                      "Never: a plot value of 13 never succeeds on 2d6"]


@pytest.mark.rule("GC-3", "GC-3.1")
def test_the_deal_gives_six_cards_named_at_the_table_or_dealt_by_the_companion():
    """GC-3: 6 cards each from deck 1 (GC-3.1); named cards must be in the current deck; the companion deals
    with one die per card, sized to the deck."""
    table = Table(setup(CORE + (person("Later", "EMP", 1, 1, 1, 1, period=2),)))
    table.refuse("GC-3.1", "deal_hand", player="Ann", cards=["Emp Star"])            # 6 cards, not 1
    table.refuse("GC-3.1", "deal_hand", player="Ann", cards=["Later"] + [f["name"] for f in FILLERS[:5]])
    deck = table.state.decks[0]
    step = table.do("deal_hand", 1, 1, 1, 1, 1, 1, player="Ben")
    assert table.hand("Ben") == deck[:6] and "Ben is dealt 6 cards" in step.summary
    assert [r.sides for r in table.events[-1].rolls] == list(range(len(deck), len(deck) - 6, -1))
    table.refuse("GC-3", "deal_hand", player="Ben")


@pytest.mark.rule("GC-3", "GC-3.4")
def test_secret_placement_of_persons_then_reveal_and_the_commander():
    """GC-3: each player picks persons (Q5: not events) in secret; all are revealed together; GC-3.4: the
    commander is Stockhausen if placed, otherwise Seeckt, otherwise the post is vacant."""
    cards = CORE + (person("Seeckt Role", "EMP", 2, 4, 2, 8, role="seeckt"),
                    person("Stock Role", "EMP", 2, 4, 2, 8, role="stockhausen"))
    table = Table(setup(cards))
    hands = {"Ann": ["Emp Star", "Seeckt Role", "Stock Role"], "Ben": ["Fpa Star"], "Cat": []}
    for player in PLAYERS:
        own = hands[player] + [c for c in table.state.decks[0] if c.startswith("Filler")][:6 - len(hands[player])]
        table.do("deal_hand", player=player, cards=own)
    table.refuse("GC-3", "place", player="Ann", cards=["Filler 01"])
    table.refuse("GC-3", "place", player="Ann", cards=["Fpa Star"])
    table.do("place", player="Ann", cards=["Emp Star", "Seeckt Role"])
    assert table.state.in_play == () and player_view(table.state, "Ben")["placing"] == [2, 0, 0]
    assert player_view(table.state, "Ann")["own_placing"] == ["Emp Star", "Seeckt Role"]
    table.do("place", player="Ben", cards=["Fpa Star"])
    step = table.do("place", player="Cat")
    assert table.state.phase == ORDER and table.state.fortress.commander == "Seeckt Role"
    assert "Emp Star" in step.summary and table.state.placed("Fpa Star").camp == "FPA"


@pytest.mark.rule("GC-3.4")
def test_stockhausen_comes_before_seeckt_and_nobody_leaves_the_post_vacant():
    """GC-3.4: Stockhausen, if placed, is preferred to Seeckt; neither placed: vacant, and the corridor rule is
    off (GC-7.4: nobody posted)."""
    cards = CORE + (person("Seeckt Role", "EMP", 2, 4, 2, 8, role="seeckt"),
                    person("Stock Role", "EMP", 2, 4, 2, 8, role="stockhausen"))
    both = started(cards, hands={"Ann": ["Emp Star", "Seeckt Role", "Stock Role"], "Ben": ["Fpa Star"]})
    assert both.state.fortress.commander == "Stock Role"
    from engines.galactic_chess.fortress import corridor_active
    assert corridor_active(both.state)
    none = started(cards)
    assert none.state.fortress.commander == "" and not corridor_active(none.state)


@pytest.mark.rule("GC-12")
def test_the_draft_keeps_one_and_passes_the_rest_to_the_right():
    """GC-12 (option): deal 6; keep 1 and pass 5 face down to the right; from each packet arriving from the left
    keep 1 and pass on; the hand is the 5 kept and the last card received."""
    table = Table(setup(CORE), draft=True)
    for player in PLAYERS:
        table.do("deal_hand", player=player, cards=list(table.state.decks[0][:6]))
    state = table.state
    assert state.phase == DRAFT and state.hands == ((), (), ()) and [len(p) for p in state.packets] == [6, 6, 6]
    first_packets = state.packets
    table.refuse("GC-12", "draft_pick", card=first_packets[1][0], player="Ann")
    for seat, player in enumerate(PLAYERS):
        table.do("draft_pick", card=table.state.packets[seat][0], player=player)
    # Ann now holds what Ben (her left) passed to his right
    assert table.state.packets[0] == first_packets[1][1:]
    while table.state.phase == DRAFT:
        for seat, player in enumerate(PLAYERS):
            if not table.state.done[seat]:
                table.do("draft_pick", card=table.state.packets[seat][0], player=player)
    assert table.state.phase == PLACE and sorted(len(h) for h in table.state.hands) == [6, 6, 6]
    assert set(table.hand("Ann")) >= {first_packets[0][0], first_packets[1][1]}
    assert not misplaced(table.state)


@pytest.mark.rule("GC-12", "GC-3.1")
def test_a_draft_from_decks_that_run_short_passes_over_the_players_without_a_packet():
    """GC-12 with fewer cards than the deal (GC-3.1: nothing once every deck is spent): Ann is dealt the 4 cards,
    Ben and Cat none; only a player with a packet keeps a card, the packets pass on, and the draft ends when they
    are spent. With no card at all, the placement comes at once."""
    table = Table(setup(CORE, fillers=0), draft=True)
    table.do("deal_hand", player="Ann", cards=[c["name"] for c in CORE])
    table.do("deal_hand", player="Ben")
    table.do("deal_hand", player="Cat", cards=[])
    assert [len(p) for p in table.state.packets] == [4, 0, 0] and table.state.done == (False, True, True)
    table.refuse("GC-12", "draft_pick", player="Ben", card=CORE[0]["name"])
    picks = 0
    while table.state.phase == DRAFT:
        seat = table.state.done.index(False)
        table.do("draft_pick", player=PLAYERS[seat], card=table.state.packets[seat][0])
        picks += 1
    assert table.state.phase == PLACE and picks == 3 and sorted(len(h) for h in table.state.hands) == [1, 1, 2]
    empty = Table(setup((), fillers=0), draft=True)
    for player in PLAYERS:
        empty.do("deal_hand", player=player)
    assert empty.state.phase == PLACE


# --- GC-4 / GC-5 / GC-6A the turn ------------------------------------------------------------------

@pytest.mark.rule("GC-4", "GC-9")
def test_the_turn_is_order_roll_action_end_check_and_passes_left():
    """GC-4: order roll, action, end check, in that order; then the player on the left."""
    table = started()
    table.refuse("GC-6A", "draw", card="Filler 13")
    table.refuse("GC-9", "end_turn")
    table.do("roll_order", 2)
    table.refuse("GC-5", "roll_order", 2)
    assert table.state.phase == ACTION
    table.draw_filler()
    assert table.state.phase == CARD
    table.refuse("GC-6A", "draw", card="Filler 14")
    table.do("end_action")
    step = table.do("end_turn")
    assert (table.state.player, table.state.turn, table.state.phase) == ("Ben", 2, ORDER)
    assert "Ben is next" in step.summary


@pytest.mark.rule("GC-5", "GC-6A")
def test_a_forced_sortie_is_the_only_action_and_with_no_fleet_there_is_no_battle():
    """GC-5: an unmodified 6 forces the sortie: drawing is refused; with no camp able to sortie there is no
    battle (Q6) and the turn goes to its end check. Without a forced sortie, no sortie is possible then."""
    table = Table(setup(CORE))
    table.start({})
    table.do("roll_order", 6)
    table.refuse("GC-5", "draw")
    step = table.do("sortie")
    assert table.state.phase == END and "no battle" in step.summary


@pytest.mark.rule("GC-6A.1", "GC-6A.2")
def test_after_the_draw_one_card_or_one_plot_not_both():
    """GC-6A: after drawing, use a card or make a plot (or nothing); GC-6A.2: one card a turn; a person joins
    the player's clique in its camp."""
    table = started(hands={"Ann": ["Emp Star", "Emp Minor"], "Ben": ["Fpa Star"]},
                    placed={"Ann": ["Emp Star"], "Ben": ["Fpa Star"]})
    table.do("roll_order", 1)
    table.draw_filler()
    step = table.do("use_card", card="Emp Minor")
    assert table.state.placed("Emp Minor").owner == "Ann" and table.state.phase == END
    assert "joins Ann's EMP clique" in step.summary
    table.refuse("GC-6A", "use_card", card="Filler 01")
    table.refuse("GC-6A", "plot", plotter="Emp Star", target="Emp Minor")


@pytest.mark.rule("GC-6A.1")
def test_seven_cards_after_the_draw_force_a_card_and_a_hand_without_persons_discards():
    """GC-6A.1: with more than 6 cards the player must use a card (no plot, no nothing); if none is usable
    the hand is shown and one card discarded (persons are always usable)."""
    table = started(hands={"Ann": ["Emp Star"], "Ben": ["Fpa Star"]}, placed={"Ann": [], "Ben": ["Fpa Star"]})
    table.do("roll_order", 1)
    table.draw_filler()
    assert len(table.hand("Ann")) == 7
    table.refuse("GC-6A.1", "end_action")
    table.refuse("GC-6A.1", "discard", card="Filler 01")
    table.do("use_card", card="Emp Star")
    assert len(table.hand("Ann")) == 6


UNUSABLE = (event("Sup 1", "battle_support"), event("Sup 2", "battle_support"), event("Resp 1", "response"),
            event("Resp 2", "response"), event("Hearing", "event", "inquiry"),
            event("Late Call", "event", prerequisite="the Invasion is under way"),
            event("Drawn Call", "event", prerequisite="the Invasion is under way"))


@pytest.mark.rule("GC-6A.1")
def test_a_discard_only_when_no_card_at_all_is_usable():
    """GC-6A.1: a hand of more than 6 is discarded from only when no card at all is usable now, persons and
    events alike: an event card without a prerequisite is usable, so is one whose prerequisite holds; battle-
    support and response cards are not the turn's card; an Inquiry with no admiral in play has nobody to name.
    The players name the events whose printed prerequisite does not hold."""
    fillers = started(hands={"Ben": ["Fpa Star"]}, placed={"Ben": ["Fpa Star"]})
    fillers.do("roll_order", 1)
    fillers.draw_filler()
    fillers.refuse("GC-6A.1", "plot", plotter="Fpa Star", target="Fpa Minor")
    fillers.refuse("GC-6A.1", "discard", card="Filler 01")            # a filler event is usable: use it
    clerk = person("Fpa Clerk", "FPA", 0, 1, 0, 2)
    table = Table(setup(CORE + (clerk,), UNUSABLE))
    table.start({"Ann": ["Sup 1", "Sup 2", "Resp 1", "Resp 2", "Hearing", "Late Call"], "Ben": ["Fpa Clerk"]},
                {"Ann": [], "Ben": ["Fpa Clerk"]})
    table.do("roll_order", 1)
    table.do("draw", card="Drawn Call")
    assert len(table.hand("Ann")) == 7
    table.refuse("GC-6A.1", "discard", card="Sup 1")                           # the prerequisites may hold
    table.refuse("GC-6A.1", "discard", card="Sup 1", unmet=["Late Call"])      # Drawn Call may still be used
    table.refuse("GC-6A.1", "discard", card="Sup 1", unmet=["Late Call", "Drawn Call", "Sup 2"])
    step = table.do("discard", card="Sup 1", unmet=["Late Call", "Drawn Call"])
    assert "Sup 1" in table.state.discard and "shows" in step.summary and table.state.phase == END
    placed = Table(setup(CORE, UNUSABLE))
    placed.start({"Ann": ["Sup 1", "Sup 2", "Resp 1", "Resp 2", "Hearing", "Late Call"], "Ben": ["Fpa Star"]},
                 {"Ann": [], "Ben": ["Fpa Star"]})
    placed.do("roll_order", 1)
    placed.do("draw", card="Drawn Call")
    placed.refuse("GC-6A.1", "discard", card="Sup 1", unmet=["Late Call", "Drawn Call"])   # an admiral to hear


@pytest.mark.rule("GC-6A.1", "GC-11", "GC-3.1")
def test_a_forced_event_drawn_resolves_at_once_and_is_the_turns_card():
    """GC-6A.1 (Q4): a forced event drawn is revealed and resolved, and is the turn's card; with its
    prerequisite unmet it is set aside (Q39) and resolves at the start of a later turn, before the order roll."""
    events = (event("Twilight", "forced", "ragnarok"), event("Later Force", "forced", "ragnarok"))
    table = started(events=events)
    table.do("roll_order", 1)
    step = table.do("draw", card="Twilight")
    assert table.state.ragnarok and table.state.phase == END and "turn's card" in step.summary
    assert "Twilight" in table.state.discard
    table.do("end_turn")
    table.do("roll_order", 1)
    table.do("draw", card="Later Force", prerequisite_met=False)
    assert table.state.aside == ("Later Force",) and table.state.phase == CARD
    table.do("end_action")
    table.do("end_turn")
    table.refuse("GC-6A.1", "trigger_set_aside", card="Twilight")
    table.do("trigger_set_aside", card="Later Force")
    assert table.state.aside == () and "Later Force" in table.state.discard


@pytest.mark.rule("GC-3.1")
def test_decks_are_drawn_in_period_order_and_when_all_are_spent_nothing_is_drawn():
    """GC-3.1: deck 1, then 2, 3 and 4; Q38: with every deck spent, the draw gets nothing but a card or a
    plot may still follow."""
    table = Table(setup(CORE + (person("P2", "EMP", 1, 1, 1, 1, period=2),), fillers=18))
    table.start({"Ann": ["Emp Star"], "Ben": ["Fpa Star"]})
    table.do("roll_order", 1)
    table.refuse("GC-3.1", "draw", card="P2")
    left = list(table.state.decks[0])
    assert table.state.decks[0] and "P2" in table.state.decks[1]
    state = table.state
    from dataclasses import replace
    spent = replace(state, decks=((), (), (), ()), discard=state.discard + tuple(c for d in state.decks for c in d))
    step = ENGINE.apply(spent, {"type": "draw"}, ScriptedDice(()))
    assert "nothing to draw" in step.summary and step.state.phase == CARD and left


@pytest.mark.rule("GC-3.1")
def test_the_last_card_of_a_deck_is_drawn_with_no_die():
    """GC-3.1: the companion picks a card with a die sized to the deck; the last card of a deck is the card drawn,
    with no die (a one-sided die is no roll, and a saved session could not record it)."""
    table = started(CORE + (person("P2", "EMP", 1, 1, 1, 1, period=2),))
    table.do("roll_order", 1)
    state = table.state
    last = dataclasses.replace(state, decks=((), ("P2",), (), ()), discard=state.discard + state.decks[0])
    step = ENGINE.apply(last, {"type": "draw"}, ScriptedDice(()))
    assert step.state.hand("Ann")[-1] == "P2" and step.state.decks[1] == ()


@pytest.mark.rule("GC-6A.2", "GC-11")
def test_vector_e3_a_special_rule_beats_an_event():
    """E3 (GC-6A.2): a defection event on a person who never changes camp (Yang's, Reinhard's rule) is
    illegal; on anyone else it moves the person to the other nation's camp, owner unchanged."""
    cards = CORE + (person("Loyal", "FPA", 2, 6, 2, 10, never_changes_camp=True),)
    events = (event("Turncoat", "event", "defection"), event("Turncoat 2", "event", "defection"))
    table = started(cards, events, hands={"Ann": ["Emp Star", "Turncoat", "Turncoat 2"], "Ben": ["Fpa Star", "Loyal"]},
                    placed={"Ann": ["Emp Star"], "Ben": ["Fpa Star", "Loyal"]})
    table.do("roll_order", 1)
    table.draw_filler()
    table.refuse("GC-6A.2", "use_card", card="Turncoat", target="Loyal")
    table.refuse("GC-11", "use_card", card="Turncoat", target="Nobody")
    table.do("use_card", card="Turncoat", target="Fpa Star")
    assert table.state.placed("Fpa Star").camp == "EMP" and table.state.placed("Fpa Star").owner == "Ben"


@pytest.mark.rule("GC-11")
def test_support_and_response_cards_are_not_the_turns_card():
    """GC-11: a battle-support card is used in a battle; a response card costs no turn (respond)."""
    events = (event("Support", "battle_support"), event("Reply", "response"))
    table = started(events=events, hands={"Ann": ["Emp Star", "Support", "Reply"], "Ben": ["Fpa Star"]},
                    placed={"Ann": ["Emp Star"], "Ben": ["Fpa Star"]})
    table.do("roll_order", 1)
    table.draw_filler()
    table.refuse("GC-11", "use_card", card="Support")
    table.refuse("GC-11", "use_card", card="Reply")
    step = table.do("respond", card="Reply")
    assert table.state.phase == CARD and not table.state.card_used and "Reply" in table.state.discard
    assert "responds with Reply" in step.summary


@pytest.mark.rule("GC-10")
def test_negotiation_binds_nobody_and_no_card_changes_hands():
    """GC-10: deals are words only: the companion has no action that trades cards or changes a rule."""
    table = started()
    assert not {name for name in ENGINE.actions.table if any(w in name for w in ("trade", "give", "swap", "exchange"))}
    table.refuse("GC-4", "trade", card="Emp Minor", to="Ben")


# --- views ----------------------------------------------------------------------------------------

@pytest.mark.rule("GC-6A.1")
def test_hands_are_private_and_their_sizes_public():
    """Digest section 2: a hand is hidden but its size public; the decks show counts only."""
    table = started()
    view = player_view(table.state, "Ann")
    assert view["hands"] == [len(h) for h in table.state.hands] and view["own_hand"] == list(table.hand("Ann"))
    assert view["decks"] == [len(d) for d in table.state.decks]
    shared = public_view(table.state)
    assert shared["hands"] == view["hands"] and "own_hand" not in shared
    assert player_view(table.state, "Ben")["own_hand"] == list(table.hand("Ben"))
    with pytest.raises(RuleError):
        player_view(table.state, "Zed")
