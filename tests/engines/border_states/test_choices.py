"""What may be chosen now (the action specs' choices), as the dashboard shows it: the states a unit may leave and
enter, the commander and entrenched questions, the cards each step takes, the dice counts, and the steps the phase
guide offers. Expected values are read off the example board (engines/border_states/example.py) by hand: Virginia
borders West Virginia, Maryland, North Carolina and CSA home 1; Maryland borders West Virginia, Virginia and Union
home 1; CSA home 5 borders only CSA home 1."""
from __future__ import annotations

import random

import pytest

from companion.dice import RandomDice
from companion.play import random_action
from engines.border_states import ENGINE
from engines.border_states.guide import due_now
from tests.engines.border_states.support import (
    AR,
    DRILL_C,
    JACKSON,
    MARCH_C,
    MD,
    NC,
    ORDER_C,
    PLUS_C,
    POTOMAC,
    TN,
    VA,
    WV,
    C,
    Table,
    U,
    action_table,
    barred,
    battle_table,
    legal,
    offered,
    setup,
)

EXAMPLE_C, EXAMPLE_U = "Example CSA card", "Example Union card"


# --- the action phase ------------------------------------------------------------------------------------------

@pytest.mark.rule("BS-D.4", "BS-D.1")
def test_a_move_offers_the_states_a_unit_may_leave_and_enter():
    """BS-D.4: a unit in combat only retreats; a unit with nowhere to go is barred (BS-D.1: the CSA homes hold one
    unit each, Virginia three); the adjacent states it may enter are offered (Maryland, in combat, too), a full one
    barred."""
    table = action_table({VA: (3, 0), MD: (1, 2), "CSA home 1": (1, 0), "CSA home 5": (1, 0), WV: (3, 0)})
    state = table.state
    assert offered(state, "move", "source") == (WV, VA)
    assert barred(state, "move", "source") == {MD: "BS-D.4", "CSA home 1": "BS-D.4", "CSA home 5": "BS-D.4"}
    assert offered(state, "move", "target", source=VA) == (MD, NC)
    assert barred(state, "move", "target", source=VA) == {WV: "BS-D.4", "CSA home 1": "BS-D.4"}
    assert "holds 3" in table.refuse("BS-D.4", "move", source=VA, target=WV).message


@pytest.mark.rule("BS-D.4")
@pytest.mark.parametrize("units, offered_, barred_", [
    ({VA: (1, 0)}, (True,), {False: "BS-D.4"}),
    ({VA: (2, 0)}, (False, True), {}),
    ({NC: (1, 0), VA: (1, 0)}, (False,), {True: "BS-D.4"}),
], ids=["alone", "with another unit", "elsewhere"])
def test_the_commander_unit_goes_when_it_is_the_only_unit(units, offered_, barred_):
    """BS-D.4: the commander unit (in Virginia) is asked for only where it stands; alone, it is the unit that goes."""
    state = action_table(units, commanders={C: VA}).state
    source = next(iter(units))
    assert offered(state, "move", "commander", source=source) == offered_
    assert barred(state, "move", "commander", source=source) == barred_


@pytest.mark.rule("BS-D.5")
def test_the_entrenched_unit_is_asked_for_only_where_the_side_is_entrenched():
    """BS-D.5 (A10): leaving Virginia, where the CSA is entrenched, the player says whether it is that unit; leaving
    North Carolina, or a Union-side state, the question is not asked."""
    table = action_table({VA: (2, 0), NC: (1, 0), WV: (1, 1)})
    table.modify(entrenched=(VA, WV))
    assert offered(table.state, "move", "entrenched", source=VA) == (False, True)
    assert legal(table.state, "move", "entrenched", source=NC) is None
    assert legal(table.state, "retreat", "entrenched", source=WV) is None
    assert "'entrenched'" in table.refuse("BS-D.5", "move", source=NC, target=TN, entrenched=True).message


@pytest.mark.rule("BS-D.6", "BS-RET", "BS-D.9")
def test_a_retreat_offers_the_own_states_next_to_a_combat():
    """BS-D.6: from Maryland in combat, the Union may retreat to Union home 1; West Virginia is full and Virginia is
    CSA-side, both barred; with no card in hand the discard is barred (BS-D.9)."""
    table = action_table({MD: (1, 2), WV: (0, 3), VA: (1, 0)}, first=U, hand=(2, 0))
    state = table.state
    assert offered(state, "retreat", "source") == (MD,)
    assert offered(state, "retreat", "target", source=MD) == ("Union home 1",)
    assert barred(state, "retreat", "target", source=MD) == {WV: "BS-D.6", VA: "BS-D.6"}
    assert offered(state, "retreat", "discard") == (False,)
    assert barred(state, "retreat", "discard") == {True: "BS-D.9"}
    assert "no card in hand" in table.refuse("BS-D.9", "retreat", source=MD, target="Union home 1",
                                             discard=True).message


@pytest.mark.rule("BS-D.5")
@pytest.mark.parametrize("once, places", [("round", (NC,)), ("standing", (VA, NC))])
def test_entrench_offers_the_own_side_states_where_it_may(once, places):
    """BS-D.5 / A21: the CSA-side border states with a CSA unit, none entrenched there, and (by default) not
    entrenched there this round; Tennessee and Arkansas hold no CSA unit."""
    table = action_table({VA: (1, 0), NC: (1, 0)}, entrench_once=once)
    table.modify(entrench_used=(VA,))
    assert offered(table.state, "entrench", "area") == places
    assert set(barred(table.state, "entrench", "area")) == {VA, NC, TN, AR} - set(places)


@pytest.mark.rule("BS-CARD", "BS-D.9")
def test_the_action_phase_offers_its_own_cards_while_the_side_holds_one():
    """BS-CARD: the cards with the unit icon (the test board's march, order and drill); the combat cards are barred;
    with no card in hand every card is barred (BS-D.9) and the step is not offered."""
    state = action_table({VA: (1, 0)}).state
    assert offered(state, "play_card", "card") == (MARCH_C, ORDER_C, DRILL_C)
    assert barred(state, "play_card", "card") == {JACKSON: "BS-CARD", EXAMPLE_C: "BS-CARD", PLUS_C: "BS-CARD"}
    empty = action_table({VA: (1, 0)}, hand=(0, 2)).state
    assert offered(empty, "play_card", "card") == () and set(barred(empty, "play_card", "card").values()) == {"BS-D.9"}
    assert "play_card" not in ENGINE.actions.open(empty)
    assert [d.action for d in due_now(empty)] == ["move", "entrench", "pass_turn"]


@pytest.mark.rule("BS-RET")
def test_after_a_failed_retreat_only_the_owners_choice_is_offered():
    """BS-RET: on 1-2 the owner moves the damage marker and retreats, or removes the unit; nothing else is open."""
    table = action_table({MD: (1, 2)}, first=U)
    table.do("retreat", 2, source=MD, target=WV)
    assert offered(table.state, "retreat_failed", "choice") == ("damage", "remove")
    assert ENGINE.actions.open(table.state) == ["retreat_failed"]


# --- setup, initiative, recruitment ----------------------------------------------------------------------------

@pytest.mark.rule("BS-SETUP", "BS-D.1")
def test_deployment_offers_the_own_side_states_with_room():
    """BS-SETUP: the CSA deploys into its own-side border states, a full one barred (BS-D.1); once its commander unit
    is on the board, "this is the commander unit" is barred."""
    table = Table({"board": setup()["board"]})
    for area, commander in ((VA, True), (WV, False), (VA, False), (WV, False), (VA, False), (MD, False)):
        table.do("deploy", area=area, commander=commander)
    assert offered(table.state, "deploy", "area") == (NC, TN, AR)
    assert barred(table.state, "deploy", "area") == {VA: "BS-D.1"}
    assert offered(table.state, "deploy", "commander") == (False,)
    assert barred(table.state, "deploy", "commander") == {True: "BS-SETUP"}


@pytest.mark.rule("BS-INIT", "BS-VAR.2")
def test_the_initiative_steps_offer_the_sides_and_the_supply_to_grip():
    """BS-VAR.2: each side grips 0 to all of its supply dice (CSA 16, Union 18 at the start); BS-INIT: the winner
    names either side to go first."""
    table = Table(setup(), initiative_bid=True)
    table.do("draw")
    assert (legal(table.state, "bid", "c").low, legal(table.state, "bid", "c").high) == (0, 16)
    assert legal(table.state, "bid", "u").high == 18
    table.do("bid", c=0, u=0)
    table.do("roll_initiative", 5, 2)
    assert offered(table.state, "choose_first", "first") == (C, U)


# --- the combat ------------------------------------------------------------------------------------------------

@pytest.mark.rule("BS-CMB", "BS-CARD", "BS-D.8")
def test_the_start_and_supply_steps_offer_their_cards_and_dice():
    """CMB.3: a combat card that adds stock dice or is resolved by hand, the ability's dice up to the 50 in the box
    (A17: the CSA has 3 dice, the Union 2); CMB.4: 2 supply dice a unit (CSA 3 units: 6, Union 2 units: 4)."""
    table = battle_table(WV, 3, 2)
    state = table.state
    assert legal(state, "start_effects", "extra_dice").high == 47
    assert offered(state, "start_effects", "card", extra_dice=0) == ("", EXAMPLE_C)
    assert barred(state, "start_effects", "card", extra_dice=0)[JACKSON] == "BS-CARD"
    table.do("start_effects")
    assert offered(table.state, "start_effects", "card", extra_dice=0) == ("", POTOMAC, EXAMPLE_U)
    assert offered(table.state, "start_effects", "card", extra_dice=48) == ("", EXAMPLE_U)
    table.do("start_effects")
    assert legal(table.state, "commit_supply", "count").high == 6
    table.do("commit_supply", count=6)
    assert legal(table.state, "commit_supply", "count").high == 4


def at_throw(*faces: int) -> Table:
    table = battle_table(WV, len(faces), 2)
    for kind, params in (("start_effects", {}), ("start_effects", {}), ("commit_supply", {"count": 0}),
                         ("commit_supply", {"count": 0})):
        table.do(kind, **params)
    table.do("throw", *faces)
    return table


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("confirm, damage", [([], (1, 1)), ([4], (0, 1)), ([6], (0, 0)), ([4, 4, 6], (0, 0))])
def test_a_take_offers_the_dice_thrown_and_the_sixes_left(confirm, damage):
    """CMB ROLL step 3 (A5): from 6, 4, 4 a take confirms faces 4 and 6 (two 4s, one 6 at most) or none, when a 6
    goes to damage; the damage row takes the 6s not confirmed, at least one when nothing is confirmed."""
    state = at_throw(6, 4, 4).state
    found = legal(state, "keep", "confirm")
    assert (found.values, found.low, found.high) == ((4, 6), 0, 3)
    assert found.fits((4, 4, 6)) and not found.fits((4, 4, 4)) and not found.fits((6, 6))
    taken = legal(state, "keep", "damage", confirm=confirm)
    assert (taken.low, taken.high) == damage


@pytest.mark.rule("BS-CARD", "BS-MOD")
def test_a_card_on_the_throw_asks_only_what_it_needs():
    """BS-MOD: T.J. Jackson adds a 6 (no die to change, no sign); the +1 card changes a die the throw shows, by its
    printed +1 (no sign asked); after one card the side has used its card (BS-CARD) and the step is closed."""
    table = at_throw(3, 1, 1)
    state = table.state
    assert offered(state, "roll_card", "card") == (JACKSON, PLUS_C)
    assert legal(state, "roll_card", "face", card=JACKSON) is None
    assert offered(state, "roll_card", "face", card=PLUS_C) == (1, 3)
    assert legal(state, "roll_card", "change", card=PLUS_C) is None
    table.do("roll_card", card=PLUS_C, face=1)
    assert "roll_card" not in ENGINE.actions.open(table.state)
    assert table.refuse("BS-CARD", "roll_card", card=JACKSON).rule == "BS-CARD"


@pytest.mark.rule("BS-CARD")
def test_the_end_of_a_combat_offers_each_sides_cards_resolved_by_hand():
    """CMB.12: a combat card resolved by hand (FREE_TEXT), within the one card a combat: the CSA played its +1 on a
    throw, so its cards are barred."""
    table = at_throw(3, 1)
    table.do("roll_card", card=PLUS_C, face=1)
    table.do("keep")
    table.settle((5, 4))
    assert table.state.battle.stage == "end"
    assert offered(table.state, "end_combat", "card_c") == ("",)
    assert set(barred(table.state, "end_combat", "card_c").values()) == {"BS-CARD"}
    assert offered(table.state, "end_combat", "card_u") == ("", EXAMPLE_U)


# --- the phase guide offers every step open, and no other ------------------------------------------------------

@pytest.mark.rule("BS-ACT", "BS-CMB")
@pytest.mark.parametrize("seed", range(3))
def test_the_guide_offers_exactly_the_steps_open(seed):
    """Through random games: the steps the phase guide offers are the actions open now, so every legal action can be
    reached from the guide and no closed one is offered."""
    rng = random.Random(seed)
    state = ENGINE.start({}, setup())
    while (action := random_action(ENGINE.actions, state, rng)) is not None:
        assert {d.action for d in due_now(state)} == set(ENGINE.actions.open(state)), state.phase
        state = ENGINE.apply(state, action, RandomDice(rng=rng)).state
    assert due_now(state) == []
