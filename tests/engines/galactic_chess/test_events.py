"""Event cards (GC-11) and the hooks the companion applies for them: Ragnarok (GC-5), the Invasion and
Amritsar (GC-7.4), the Ceasefire Order (GC-9.13), Frontier Duty, Iserlohn Capture, the Inquiry, Castrop."""
from __future__ import annotations

import pytest

from engines.galactic_chess.fortress import corridor_active
from engines.galactic_chess.state import ACTION, BATTLE, CARD, END
from tests.engines.galactic_chess.support import Table, event, person, setup

CARDS = (person("Emp Star", "EMP", 2, 5, 2, 9, 8), person("Fpa Star", "FPA", 2, 5, 2, 9, 8),
         person("Cmdr", "EMP", 2, 4, 2, 8, role="stockhausen"), person("Emp Guard", "EMP", 1, 3, 1, 7),
         person("Kirch", "EMP", 1, 4, 2, 8, role="kircheis"), person("Clerk", "FPA", 0, 1, 0, 2, 5))
EVENTS = (event("Long March", "event", "invasion", size=3), event("Total War", "event", "amritsar"),
          event("Twilight", "event", "ragnarok"), event("Truce", "event", "ceasefire"),
          event("Far Posting", "event", "frontier_duty"), event("Storm", "event", "iserlohn_capture"),
          event("Hearing", "event", "inquiry"), event("Uprising", "event", "castrop"), event("Rumours"))


def with_hand(*cards: str, placed=("Emp Star", "Cmdr", "Emp Guard")) -> Table:
    """Ann holds the cards; her turn 1 after the draw."""
    table = Table(setup(CARDS, EVENTS))
    table.start({"Ann": ["Emp Star", "Cmdr", "Emp Guard", *cards], "Ben": ["Fpa Star", "Clerk"], "Cat": ["Kirch"]},
                {"Ann": list(placed), "Ben": ["Fpa Star", "Clerk"], "Cat": []})
    table.do("roll_order", 1)
    table.draw_filler()
    return table


@pytest.mark.rule("GC-7.4", "GC-11", "GC-5")
def test_the_invasion_fixes_the_size_and_amritsar_ends_it_with_total_war():
    """GC-11 / GC-7.4: while Imperial Territory Invasion is active its card fixes the sortie size (the roll
    still tells a forced sortie) and the corridor rule is off; Amritsar ends it: total war, the order result 7,
    a forced sortie of 2d6 fleets."""
    table = with_hand("Long March", "Total War")
    table.do("use_card", card="Long March")
    assert table.state.invasion == 3 and not corridor_active(table.state)
    table.next_turn_of("Ann")
    table.do("roll_order", 2)
    assert (table.state.order.size, table.state.order.forced) == ("3", False)
    table.draw_filler()
    step = table.do("use_card", card="Total War")
    state = table.state
    assert state.invasion == 0 and state.phase == ACTION and state.order.forced and state.order.size == "2d6"
    assert "total war" in step.summary
    table.refuse("GC-5", "draw")
    table.do("sortie", 4, 5, camp="EMP", defender="FPA")
    assert table.state.phase == BATTLE and table.state.sortie.size == 9


@pytest.mark.rule("GC-5", "GC-11")
def test_ragnarok_adds_one_to_every_later_order_roll():
    """GC-5: once Ragnarok has fired, +1 for the rest of the game: a raw 5 gives 3 fleets, not forced; a raw 6
    is a grand offensive."""
    table = with_hand("Twilight")
    table.do("use_card", card="Twilight")
    table.next_turn_of("Ben")
    step = table.do("roll_order", 5)
    assert table.state.order.modified == 6 and not table.state.order.forced and "Ragnarok" in step.summary


@pytest.mark.rule("GC-9.13", "GC-11")
def test_the_ceasefire_names_the_player_who_takes_the_last_turn():
    """GC-9.13 / GC-11: the round completes: the player to the right of the one who played it goes last."""
    table = with_hand("Truce")
    table.do("use_card", card="Truce")
    assert (table.state.ceasefire_by, table.state.last_turn) == ("Ann", "Cat")


@pytest.mark.rule("GC-11", "GC-7.4")
def test_frontier_duty_and_iserlohn_capture():
    """GC-11: Frontier Duty strips the commander and garrison of their posts; Iserlohn Capture deems them
    destroyed (no battle, no VP)."""
    table = with_hand("Far Posting")
    assert table.state.fortress.commander == "Cmdr"
    table.do("use_card", card="Far Posting")
    assert table.state.fortress.posted == () and table.state.placed("Cmdr")
    other = with_hand("Storm")
    other.do("use_card", card="Storm")
    assert "Cmdr" in other.state.destroyed and other.state.fortress.commander == "" and other.state.vp == {}


@pytest.mark.rule("GC-11", "GC-6B.12")
def test_an_inquiry_keeps_an_admiral_out_of_battles_until_he_returns():
    """GC-11 (Inquiry): the admiral named is absent from battles only; he may not be declared until he returns."""
    table = with_hand("Hearing")
    table.refuse("GC-11", "use_card", card="Hearing", target="Clerk")
    table.do("use_card", card="Hearing", target="Fpa Star")
    assert table.state.placed("Fpa Star").absent
    table.do("end_turn")
    table.do("roll_order", 4)
    table.refuse("GC-6B.11", "sortie", camp="FPA")      # Ben's only fleet is absent
    table.do("return_from_inquiry", person="Fpa Star")
    table.refuse("GC-11", "return_from_inquiry", person="Fpa Star")
    table.do("sortie", camp="FPA", defender="EMP")
    table.do("declare", fleets=["Fpa Star"])


@pytest.mark.rule("GC-11", "GC-6A.1")
def test_castrop_is_discarded_to_draw_once_kircheis_has_appeared():
    """GC-11: once Kircheis has appeared, Castrop Rebellion may be discarded to draw 1 at any time; it is not the
    use of a card."""
    table = with_hand("Uprising")
    table.refuse("GC-11", "castrop", card="Uprising", drawn="Filler 17")     # Kircheis is in Cat's hand
    table.do("end_action")
    table.do("end_turn")
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("end_action")
    table.do("end_turn")
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("use_card", card="Kirch")
    size = len(table.hand("Ann"))
    step = table.do("castrop", card="Uprising", drawn="Filler 17")
    assert "Uprising" in table.state.discard and "Filler 17" in table.hand("Ann") and len(table.hand("Ann")) == size
    assert "discards Uprising" in step.summary


@pytest.mark.rule("GC-11")
def test_an_event_without_a_companion_effect_only_moves_the_card():
    """GC-11: effect "none": the players apply its text; the card leaves the hand for the discard pile."""
    table = with_hand("Rumours")
    step = table.do("use_card", card="Rumours")
    assert "Rumours" in table.state.discard and table.state.phase == END and "apply its text" in step.summary
    assert table.state.card_used


@pytest.mark.rule("GC-11")
def test_a_targeted_event_needs_its_target_and_others_take_none():
    table = with_hand("Rumours", "Hearing")
    table.refuse("GC-11", "use_card", card="Rumours", target="Emp Star")
    table.refuse("GC-11", "use_card", card="Hearing")
    assert table.state.phase == CARD
