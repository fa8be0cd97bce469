"""Every roll says what its number is made of: a side's first combat throw its dice part by part (CMB.2-4: the
digest's worked battle, 3 units + Lee +1 + supply 4 = 8 dice; 2 units + entrenched +1 + Army of the Potomac +1 +
supply 4 = 8, the card named only as a card, BS-D.12), a later throw the dice left, and an initiative roll the bid
added to it (BS-VAR.2)."""
from __future__ import annotations

import pytest

from companion.engine import dice_needed
from engines.border_states import ENGINE
from tests.engines.border_states.support import EXAMPLE_BATTLE_DEPLOYMENT, MD, NC, POTOMAC, VA, WV, C, Table, U, \
    board, setup


def labels(state, kind: str, **params) -> list[str]:
    return [r.label for r in dice_needed(ENGINE, state, {"type": kind, **params})]


@pytest.mark.rule("BS-CMB", "BS-D.8")
def test_a_combat_throw_says_its_dice():
    """Digest section 9: the CSA attacks West Virginia with 3 units, Lee's ability +1 and 4 supply dice; the Union
    defends with 2 units, entrenched +1, Army of the Potomac +1 and 4 supply dice: 8 dice each; the CSA's second
    throw is the 5 dice its first left."""
    table = Table(setup(board(), EXAMPLE_BATTLE_DEPLOYMENT, {C: NC, U: MD}))
    table.to_actions(first=C)
    table.do("move", source=VA, target=WV)
    table.do("entrench", area=WV)
    table.do("move", source=VA, target=WV)
    table.do("pass_turn")
    table.do("move", source=VA, target=WV)
    table.pass_all()
    table.do("start_effects", extra_dice=1)
    table.do("start_effects", card=POTOMAC)
    table.do("commit_supply", count=4)
    table.do("commit_supply", count=4)
    lee = table.state.commander_name(C)
    assert labels(table.state, "throw") == [
        f"Combat throw, CSA: 8 dice = units 3 + {lee}'s ability +1 + supply +4 (BS-CMB)"]
    table.do("throw", 5, 4, 3, 3, 3, 2, 1, 1)
    table.do("keep", confirm=[3, 3, 3], damage=0)
    assert labels(table.state, "throw") == ["Combat throw, CSA: the 5 dice left (BS-CMB)"]
    table.do("throw", 6, 5, 3, 3, 1)
    table.do("keep")                                   # every die confirmed: the CSA's roll is over
    assert labels(table.state, "throw") == [
        "Combat throw, Union: 8 dice = units 2 + entrenched +1 + card +1 + supply +4 (BS-CMB)"]


@pytest.mark.rule("BS-INIT", "BS-VAR.2")
def test_an_initiative_roll_says_the_bid_added_to_it():
    """BS-VAR.2: each side's bid is added to its roll; without a bid the die alone (BS-INIT)."""
    table = Table(setup(), initiative_bid=True)
    table.do("draw")
    table.do("bid", c=3, u=0)
    assert labels(table.state, "roll_initiative") == ["Initiative, CSA: the die + bid +3 (BS-INIT, BS-VAR.2)",
                                                      "Initiative, Union (BS-INIT)"]
