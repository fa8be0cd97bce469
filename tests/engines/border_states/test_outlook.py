"""The round outlook (digest section 8: "P(C reaches 10 VP this round)"): the combats still to fight, each ending
as the plain expectimax of test_outcome says, chained by hand here over every combination of their endings."""
from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from companion.engine import RuleError
from engines.border_states.outcome import KINDS
from engines.border_states.outlook import base_dice, round_outlook
from engines.border_states.state import COMBAT
from tests.engines.border_states.support import (
    KY,
    MO,
    NC,
    TN,
    VA,
    WV,
    C,
    U,
    action_table,
)
from tests.engines.border_states.test_outcome import brute, reply, toward

# Example board VP: West Virginia 2, Kentucky 3; the CSA holds Virginia 3, Tennessee 3 and North Carolina 2 (8 VP),
# the Union Missouri (2 VP).
# Grey stars 1, 2, 3, 4 on the Union side of the damage track, blue stars 1, 2, 3, 4 on the CSA side.
UNITS = {WV: (2, 1), KY: (1, 1), VA: (3, 0), TN: (1, 0), NC: (1, 0), MO: (0, 1)}
STARS = (0, 1, 2, 3, 4)


def combat_phase(damage: int = 0, round_: int = 1, **options):
    """After the last action of the round: the combats in West Virginia (CSA 2 v Union 1) and Kentucky (1 v 1)."""
    table = action_table(UNITS, first=U, actions=(0, 1), **options)
    table.modify(damage=damage, round=round_)
    table.do("pass_turn")
    assert table.state.phase == COMBAT and table.state.battles_due() == [WV, KY]
    return table


def by_hand(state, endings: dict) -> dict:
    """(CSA VP, Union VP) -> chance: each combat's (winner, removed, marker) from `endings`, in order; the loser
    removes at most its units there; the holder has more units (BS-D.2); the marker moves one square, stopping at
    the 4th square of either side (A16); then the star of the square it ends on."""
    out: dict = {}
    areas = list(endings)
    for picks in product(*(endings[a].items() for a in areas)):
        p, damage = F(1), state.damage
        vp = {side: sum(a.vp for a in state.board.borders if a.name not in areas and state.controller(a.name) == side)
              for side in (C, U)}
        for area, ((winner, removed, toward), q) in zip(areas, picks):
            defender = state.board.area(area).side
            side = {"attacker": C if defender == U else U, "defender": defender}
            units = {C: state.count(area, C), U: state.count(area, U)}
            if winner != "draw":
                loser = side["defender" if winner == "attacker" else "attacker"]
                units[loser] = max(0, units[loser] - removed)
            if units[C] != units[U]:
                vp[C if units[C] > units[U] else U] += state.board.area(area).vp
            if toward:
                damage = max(-4, min(4, damage + (1 if side[toward] == U else -1)))
            p *= q
        key = (vp[C] + (STARS[damage] if damage > 0 else 0), vp[U] + (STARS[-damage] if damage < 0 else 0))
        out[key] = out.get(key, 0) + p
    return {k: v for k, v in out.items() if v}


@pytest.mark.rule("BS-VIC.1", "BS-CMB", "BS-VIC.3")
@pytest.mark.parametrize("damage", [0, 3, 4, -4])
def test_the_outlook_chains_the_combats_still_to_fight(damage):
    """Section 8 with BS-VIC.1: P(the CSA reaches 10 VP) after the two combats, from their dice (units; no
    supply yet), the marker starting where it stands (4: the end of the track)."""
    state = combat_phase(damage).state
    assert base_dice(state, WV) == (2, 1) and base_dice(state, KY) == (1, 1)
    found = round_outlook(state, exact=True)
    expected = by_hand(state, {WV: brute(2, 1), KY: brute(1, 1)})
    assert {k: v for k, v in found.vp.items() if v} == expected and found.battles == (WV, KY)
    assert found.ten == sum(p for (c, _), p in expected.items() if c >= 10) == found.csa_wins
    if damage == 0:
        assert 0 < found.ten < 1
    if damage >= 3:
        assert found.ten == 1     # 8 VP held, and a grey star of 2 at least wherever the marker goes


@pytest.mark.rule("BS-VIC.2", "BS-CMB")
@pytest.mark.parametrize("sudden", [False, True])
def test_in_round_4_the_outlook_answers_the_comparison(sudden):
    """BS-VIC.2 (A8): in round 4 the CSA wins with more VP than the Union (ties to the Union), or with the option
    also with 10 VP; the dice entered for a combat replace its units' dice."""
    state = combat_phase(round_=4, sudden_round_4=sudden).state
    found = round_outlook(state, {WV: (3, 2)}, exact=True)
    expected = by_hand(state, {WV: brute(3, 2), KY: brute(1, 1)})
    assert {k: v for k, v in found.vp.items() if v} == expected
    assert found.csa_wins == sum(p for (c, u), p in expected.items() if c > u or (sudden and c >= 10))


@pytest.mark.rule("BS-CMB")
def test_a_combat_decided_or_half_rolled_counts_as_it_stands():
    """A combat whose result is known counts for certain; one whose attacker has rolled counts from the defender's
    roll still to come; a combat ended is already on the board."""
    table = combat_phase()
    for _ in range(2):
        table.do("start_effects")
    table.do("commit_supply", count=0)
    table.do("commit_supply", count=0)
    table.settle((4, 4))           # the CSA: strength 2 in 4s, no damage die
    state = table.state
    halfway = round_outlook(state, exact=True)
    r = reply((2, 4), 1, "win_half_draw", "inclusive")
    west: dict = {}
    for i, kind in enumerate(reversed(KINDS)):
        for j, d in enumerate((1, 0)):
            key = (*kind, toward(0, d, kind, True))
            west[key] = west.get(key, 0) + r[6 + 2 * i + j]
    assert {k: v for k, v in halfway.vp.items() if v} == by_hand(state, {WV: west, KY: brute(1, 1)})
    table.settle((1,))             # the Union: 1 v 2, the CSA wins by twice the strength
    assert table.battle.stage == "end" and table.state.count(WV, U) == 0
    after = round_outlook(table.state, exact=True)
    assert after.battles == (KY,)
    assert {k: v for k, v in after.vp.items() if v} == by_hand(table.state, {KY: brute(1, 1)})


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("dice", [{MO: (1, 1)}, {WV: (0, 1)}, {WV: (2,)}, {WV: ("2", 1)}, {WV: (True, 1)}])
def test_dice_entered_for_the_outlook_are_checked(dice):
    """Only combats still to fight, each with 1 or more whole dice a side."""
    with pytest.raises(RuleError):
        round_outlook(combat_phase().state, dice)
