"""The players' cards and battle decks (DX-1.0, DX-2.0-2.2, DX-12.0, DX-13.8, DX-13.9, DX-14.0, digest section 10)."""
from __future__ import annotations

import pytest

from companion.engine import RuleError, resolve_options
from engines.dixie import ENGINE
from engines.dixie.cards import cards_from_rows, check_decks, deck_warnings, parse_modifiers
from engines.dixie.example import LABEL, example_setup
from engines.dixie.rules import BP_BUDGET, DAY_FLOW, DECK_SIZE, MUSTER
from tests.engines.dixie.support import basic_decks, filler, historical_decks, leader, special, terrain, unit

DEFAULTS = resolve_options(ENGINE.options, {})


def start(cards, **options):
    return ENGINE.start(options, {"cards": cards})


def refused(rows, rule: str, fragment: str = "", **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        start(rows, **options)
    assert caught.value.rule == rule, caught.value
    assert fragment in caught.value.message
    return caught.value


@pytest.mark.rule("DX-6.0", "DX-1.0")
@pytest.mark.parametrize("grade, morale", [("A", 4), ("B", 3), ("C", 2)])
def test_vector_01_morale_codes(grade, morale):
    """Vector 1 (DX-6.0): 3A -> 4, 3B -> 3, 3C -> 2."""
    (spec,) = cards_from_rows([unit(1, "CSA", cv=3, morale=grade)])
    assert spec.base_morale == morale


@pytest.mark.rule("DX-6.0")
def test_an_unknown_morale_letter_needs_its_modifier():
    """A18: a letter other than A/B/C is refused until the players enter its modifier; a modifier that contradicts
    A/B/C is refused."""
    with pytest.raises(RuleError) as caught:
        cards_from_rows([unit(1, "CSA", morale="D")])
    assert caught.value.rule == "DX-6.0" and "modifier" in caught.value.message
    (spec,) = cards_from_rows([unit(1, "CSA", cv=3, morale="D", morale_modifier=-2)])
    assert spec.base_morale == 1
    with pytest.raises(RuleError):
        cards_from_rows([unit(1, "CSA", morale="A", morale_modifier=-1)])


@pytest.mark.rule("DX-1.0", "DX-7.1", "DX-7.2", "DX-11.1b", "DX-11.2", "DX-13.7", "DX-3.3", "DX-10.3", "DX-12.0")
@pytest.mark.parametrize("row, rule", [
    ({"number": 0, "side": "CSA", "type": "INF", "cv": 2, "morale": "B"}, "DX-1.0"),
    ({"number": 1, "side": "Rebels", "type": "INF", "cv": 2, "morale": "B"}, "DX-1.0"),
    ({"number": 1, "side": "CSA", "type": "Zouave", "cv": 2, "morale": "B"}, "DX-1.0"),
    (unit(1, "CSA", cv=5), "DX-7.1"),
    (unit(1, "CSA", cv=0), "DX-7.1"),
    (unit(1, "CSA", cv=2.5), "DX-7.1"),
    (unit(1, "CSA", "ART", fp_long=0), "DX-7.2"),
    (unit(1, "CSA", "ART", fp_short=6), "DX-7.2"),
    (leader(1, "CSA", attack=-1), "DX-11.1b"),
    (leader(1, "CSA", stack_bonus=3), "DX-11.2"),
    (leader(1, "CSA", rank="king"), "DX-13.7"),
    (leader(1, "USA", rank="wing"), "DX-13.7"),
    (terrain(1, "CSA", "X"), "DX-3.3"),
    (terrain(1, "CSA", ""), "DX-3.3"),
    (terrain(1, "CSA", "L", "holder morale"), "DX-10.3"),
    (terrain(1, "CSA", "L", "owner morale +1"), "DX-10.3"),
    (special(1, "CSA", timing="never"), "DX-12.0"),
    (unit(1, "CSA", pile="hand"), "DX-2.2"),
    ({**unit(1, "CSA"), "attack": 2}, "DX-1.0"),
])
def test_card_fields_are_validated(row, rule):
    """Digest section 10: each field of a card row is checked, naming the rule it belongs to."""
    with pytest.raises(RuleError) as caught:
        cards_from_rows([row])
    assert caught.value.rule == rule, caught.value


@pytest.mark.rule("DX-7.2", "DX-13.1")
@pytest.mark.parametrize("key, value", [("fp_long", 4), ("fp_short", 4), ("fp_long", "2"), ("fp_short", 2.0),
                                        ("fp_long", True), ("fp_short", -1), ("fp_melee", 4), ("fp_melee", 0),
                                        ("fp_melee", "3"), ("fp_melee", 3.0)])
def test_every_firepower_is_a_whole_number_1_to_3(key, value):
    """Digest section 10 / DX-7.2: there are F1, F2 and F3 (「射撃力はF1、F2、F3があります」): every printed F
    (long, short, a melee value) is an int 1..3, and anything else (F4, text, a float, a bool) is refused, naming
    the field."""
    with pytest.raises(RuleError) as caught:
        cards_from_rows([unit(1, "CSA", "ART", **{key: value})])
    assert caught.value.rule == ("DX-13.1" if key == "fp_melee" else "DX-7.2") and key in caught.value.message
    for f in (1, 2, 3):
        (spec,) = cards_from_rows([unit(1, "CSA", "ART", **{key: f})])
        assert getattr(spec, key) == f


@pytest.mark.rule("DX-10.3", "DX-13.7", "DX-1.0")
def test_structured_fields_accept_text_or_lists():
    """Digest section 10: terrain modifiers as 'side what value' text or rows; a wing commander's 3 corps."""
    assert parse_modifiers("holder morale +1; both enfilade_in_cv -1") == [
        {"side": "holder", "what": "morale", "value": 1}, {"side": "both", "what": "enfilade_in_cv", "value": -1}]
    woods, wing = cards_from_rows([terrain(1, "USA", "L,C", [{"side": "holder", "what": "fire_in_cv", "value": -1}]),
                                   leader(2, "USA", rank="wing", wing_corps="I, III, XI")])
    assert woods.codes == ("L", "C") and woods.modifiers[0].value == -1
    assert wing.wing_corps == ("I", "III", "XI")


@pytest.mark.rule("DX-2.0", "DX-2.2")
def test_the_basic_decks_are_24_and_30_with_18_card_musters():
    """DX-2.0 / DX-2.2: 24 CSA and 30 USA cards, 18 of each dealt to the muster; the rest, 6 and 12, are the
    reinforcement decks."""
    state = start(basic_decks())
    for side, reinforcements in (("CSA", 6), ("USA", 12)):
        assert len(state.at("reserve", side)) == 18
        assert len(state.at("reinforcements", side)) == reinforcements
    assert DECK_SIZE["basic"] == {"CSA": 24, "USA": 30} and MUSTER["basic"] == 18
    refused(basic_decks()[1:], "DX-2.0", "24")
    muster_17 = filler("CSA", 1, 24, 17) + filler("USA", 101, 30, 18)
    refused(muster_17, "DX-2.2", "18")


@pytest.mark.rule("DX-2.1", "DX-12.0")
def test_no_duplicate_numbers_except_specials():
    """DX-2.1 / DX-12.0: a card number appears once in a battle deck, except specials, which may repeat."""
    rows = basic_decks()
    rows[1] = dict(rows[1], number=rows[0]["number"])
    refused(rows, "DX-2.1", str(rows[0]["number"]))
    rows = basic_decks()
    rows[0] = special(77, "CSA")
    rows[1] = special(77, "CSA")
    state = start(rows)
    assert {"CSA-77", "CSA-77-2"} <= {c.id for c in state.cards}


@pytest.mark.rule("DX-13.8")
def test_extended_line_decks_are_40_and_50_with_30_card_musters():
    """DX-13.8: battle decks USA 50 / CSA 40, muster 30 each, so reinforcement decks of 20 / 10."""
    rows = filler("CSA", 1, 40, 30) + filler("USA", 101, 50, 30)
    state = start(rows, extended_line=True)
    assert len(state.at("reinforcements", "CSA")) == 10 and len(state.at("reinforcements", "USA")) == 20
    assert len(state.positions) == 10
    refused(basic_decks(), "DX-13.8", "40", extended_line=True)


@pytest.mark.rule("DX-13.9")
def test_vector_10_custom_deck_budgets():
    """Vector 10 / DX-13.9: budgets CSA 270 / USA 300 BP (3 columns), 450 / 500 (5 columns); any deck size."""
    assert BP_BUDGET == {3: {"CSA": 270, "USA": 300}, 5: {"CSA": 450, "USA": 500}}
    small = [unit(1, "CSA", bp=270), unit(2, "USA", bp=150), unit(3, "USA", bp=150)]
    state = start(small, custom_decks=True)
    assert len(state.cards) == 3
    refused([unit(1, "CSA", bp=271), unit(2, "USA")], "DX-13.9", "270", custom_decks=True)
    refused([unit(1, "CSA"), unit(2, "USA", bp=301)], "DX-13.9", "300", custom_decks=True)
    wide = [unit(1, "CSA", bp=450), unit(2, "USA", bp=500)]
    assert start(wide, custom_decks=True, extended_line=True)
    refused([unit(1, "CSA", bp=451), unit(2, "USA")], "DX-13.9", "450", custom_decks=True, extended_line=True)


@pytest.mark.rule("DX-13.9", "DX-2.1")
def test_custom_decks_keep_the_duplicate_rule_and_a_muster_of_18():
    """DX-13.9: DX-2.1 still applies; A19: the muster is 18 (the whole deck when it is smaller)."""
    refused([unit(1, "CSA"), unit(1, "CSA"), unit(2, "USA")], "DX-2.1", custom_decks=True)
    big = filler("CSA", 1, 20, 18) + filler("USA", 101, 5)
    assert len(start(big, custom_decks=True).at("reinforcements", "CSA")) == 2
    refused(filler("CSA", 1, 20, 20) + filler("USA", 101, 5), "DX-2.2", "18", custom_decks=True)


@pytest.mark.rule("DX-14.0")
def test_vector_10_historical_totals():
    """Vector 10 / DX-14.0: CSA 18+6+6+6+6+6 = 48, USA 18+6+12+6+12+6 = 60; day 1 is M18/R6 for both."""
    for side, total in (("CSA", 48), ("USA", 60)):
        assert sum(n + r for n, r in (DAY_FLOW[d][side] for d in DAY_FLOW)) == total == DECK_SIZE["historical"][side]
    rows = historical_decks()
    state = start(rows, historical=True)
    assert [len(state.at(loc, "USA")) for loc in ("reserve", "reinforcements", "deck")] == [18, 6, 36]
    assert [len(state.at(loc, "CSA")) for loc in ("reserve", "reinforcements", "deck")] == [18, 6, 24]
    refused(basic_decks(), "DX-14.0", "48", historical=True)


@pytest.mark.rule("DX-14.0")
def test_historical_day1_option_needs_day1_cards():
    """DX-14.0 option: day-1 muster and reinforcements only from cards marked (1)."""
    assert start(historical_decks(False), historical=True)
    refused(historical_decks(False), "DX-14.0", "(1)", historical=True, day1_cards_only=True)
    assert start(historical_decks(True), historical=True, day1_cards_only=True)
    refused(historical_decks(), "DX-14.0", "3-position", historical=True, extended_line=True)


@pytest.mark.rule("DX-1.0", "DX-7.2")
def test_warnings_are_not_errors():
    """Digest section 10: unusual artillery F values, more than 3 horse artillery, numbers past 250 and numbers
    shared by both sides only warn."""
    specs = cards_from_rows([unit(1, "CSA", "ART", fp_long=3, fp_short=1), unit(251, "USA"),
                             *(unit(10 + i, "CSA", "ART", horse=True) for i in range(4)), unit(1, "USA")])
    text = " ".join(deck_warnings(specs))
    assert "fp_long F3" in text and "4 cards are horse artillery" in text and "1 to 250" in text
    assert "both sides" in text
    check_decks(specs, {**DEFAULTS, "custom_decks": True})


@pytest.mark.rule("DX-2.0", "DX-2.2")
def test_the_example_is_labelled_fictional_and_legal():
    """The example deck says it is invented, in the setup and in every card name, and starts a basic game."""
    setup = example_setup()
    assert "fictional" in setup["example"].lower() and setup["example"] == LABEL
    assert all("(fictional)" in row["name"] for row in setup["cards"])
    assert all(row["number"] > 250 for row in setup["cards"])
    state = ENGINE.start(None, setup)
    assert len(state.at("reserve", "CSA")) == len(state.at("reserve", "USA")) == 18
