"""The combat phase (BS-CMB, CMB.1-12), cards and modified faces (BS-CARD, BS-MOD), commander succession
(BS-D.10), removed units (BS-D.11) and public information (BS-D.12); the source's worked battle (digest
section 9) and the vectors V4, V5, V8 and V10."""
from __future__ import annotations

from itertools import product

import pytest

from companion.dice import ScriptedDice
from engines.border_states import ENGINE

from engines.border_states.advice import SupplyQuestion, keep_advice, supply_question
from engines.border_states.battle import supply_limit
from engines.border_states.state import COMBAT, VICTORY
from engines.border_states.tray import Strength, counts, losses
from tests.engines.border_states.support import (
    DRILL_C,
    EXAMPLE_BATTLE_DEPLOYMENT,
    JACKSON,
    KY,
    MARCH_C,
    MD,
    MINUS_U,
    NC,
    PLUS_C,
    PLUS_U,
    POTOMAC,
    VA,
    WV,
    C,
    Table,
    U,
    battle_table,
    board,
    full_board,
    legal,
    offered,
    setup,
)

# --- the source's worked battle (digest section 9) ---------------------------------------------------------

C_THROWS = (  # (faces thrown, confirmed, to damage, card played on the throw)
    ((5, 4, 3, 3, 3, 2, 1, 1), [3, 3, 3], 0, ""),
    ((6, 5, 3, 3, 1), [3, 3], 1, ""),
    ((5, 1), [], 1, JACKSON),          # Jackson adds a 6: 6, 5, 1; the 6 goes to damage, 2 dice left
    ((5, 2), [5], 0, ""),
    ((6,), [], 1, ""),
)
U_THROWS = (  # the source gives only U's result S=5, F=5, D=1; these throws give it
    ((5, 5, 5, 5, 6, 2, 1, 1), [5, 5, 5, 5], 1, ""),
    ((5, 4, 3), [5, 4, 3], 0, ""),
)


def worked_battle() -> tuple[Table, dict]:
    """Round 1 on the example board: the CSA moves 3 units Virginia -> West Virginia, the Union entrenches there;
    then the combat as the source tells it. Returns the table and what was seen on the way."""
    table = Table(setup(board(), EXAMPLE_BATTLE_DEPLOYMENT, {C: NC, U: MD}))
    table.to_actions(first=C)
    table.do("move", source=VA, target=WV)
    table.do("entrench", area=WV)
    table.do("move", source=VA, target=WV)
    table.do("pass_turn")
    table.do("move", source=VA, target=WV)
    table.pass_all()
    seen = {"base": dict(table.battle.dice), "roles": (table.battle.attacker, table.battle.defender)}
    table.do("start_effects", extra_dice=1)                   # Lee's ability
    table.do("start_effects", card=POTOMAC)                   # Army of the Potomac
    seen["start"] = dict(table.battle.dice)
    seen["caps"] = [supply_limit(table.state, C)]
    table.refuse("BS-CMB", "commit_supply", count=7)
    table.do("commit_supply", count=4)
    seen["caps"].append(supply_limit(table.state, U))
    table.refuse("BS-CMB", "commit_supply", count=5)
    table.do("commit_supply", count=4)
    seen["dice"] = {s: t.left for s, t in table.battle.trays.items()}
    seen["taken"] = {C: 0, U: 0}
    for side, throws in ((C, C_THROWS), (U, U_THROWS)):
        for faces, confirm, damage, card in throws:
            assert table.battle.turn == side
            table.do("throw", *faces)
            if card:
                table.do("roll_card", card=card)
            table.do("keep", confirm=confirm, damage=damage)
            seen["taken"][side] += len(confirm) + damage
    return table, seen


@pytest.mark.rule("BS-CMB", "BS-CARD", "BS-D.8")
def test_the_source_worked_battle():
    """Digest section 9: West Virginia is Union-side, so the CSA attacks. Base dice 3 and 2 + entrenched = 3; Lee
    +1 and Army of the Potomac +1; supply caps 6 and 4, both commit 4: 8 dice each. The CSA's five throws with
    Jackson's added 6 take 9 dice: S 5 in 3s, D 3. The Union: S 5 in 5s, D 1. Equal S, F 5 > 3: the Union wins;
    5 >= 2x5 is false: the CSA removes 1; D 3 v 1: the marker 1 toward the Union side; no distrust; both supplies
    down by 4; every die back to the stock."""
    table, seen = worked_battle()
    assert seen["roles"] == (C, U)
    assert seen["base"] == {C: 3, U: 3}
    assert seen["start"] == {C: 4, U: 4}
    assert seen["caps"] == [6, 4]
    assert seen["dice"] == {C: 8, U: 8}
    assert seen["taken"] == {C: 9, U: 8}
    battle = table.battle
    assert battle.results[C] == Strength(5, 3, 3) and battle.results[U] == Strength(5, 5, 1)
    assert (battle.winner, battle.removals) == (U, 1)
    state = table.state
    assert (state.count(WV, C), state.count(WV, U)) == (2, 2)
    assert state.damage == 1 and state.distrust == 0 and state.commander == {C: 1, U: 1}
    assert state.supply == {C: 16 - 4, U: 18 - 4}
    assert state.hand == {C: 3 - 1, U: 2 - 1} and state.discard == {C: 1, U: 1}
    table.do("end_combat")
    assert table.state.phase == VICTORY and table.state.battle is None
    assert table.state.supply == {C: 12, U: 14}


# --- CMB.1-4 ------------------------------------------------------------------------------------------------

@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("faces", [(4, 4, 2), (6, 6, 1)])
def test_every_take_the_advice_lists_is_a_keep_the_engine_takes(faces):
    """CMB ROLL step 3: the advice lists every legal take of the throw once (any dice of it, at least one, a 6 to
    the confirmed dice or to the damage row), counted here by hand; each, made as the `keep` action, leaves the
    tray the take says."""
    table = battle_table(WV, 3, 2)
    table.do("start_effects")
    table.do("start_effects")
    table.do("commit_supply", count=0)
    table.do("commit_supply", count=0)
    table.do("throw", *faces)
    thrown = counts(faces)
    takes = {(confirm, damage) for confirm in product(*(range(n + 1) for n in thrown))
             for damage in range(thrown[5] - confirm[5] + 1) if sum(confirm) + damage}
    listed = keep_advice(table.state)
    assert {(k.keep.confirm, k.keep.damage) for k in listed} == takes and len(listed) == len(takes)
    for k in listed:
        tray = table.battle.trays[C]
        step = ENGINE.apply(table.state, {"type": "keep", "confirm": k.keep.faces(), "damage": k.keep.damage},
                            ScriptedDice(()))
        assert step.state.battle.trays[C] == tray.take(k.keep)


@pytest.mark.rule("BS-CMB", "BS-D.8")
def test_the_supply_question_each_side_weighs():
    """CMB.4 as the dashboard asks it: 3 CSA units attack 2 entrenched Union units in West Virginia (3 dice a side);
    the CSA may add up to 6 supply dice (2 a unit, from 16), the Union up to 4 (2 a unit, from 18). The attacker
    weighs its count against the defender's possible reply; the defender, its count against the 4 the CSA added."""
    table = battle_table(WV, 3, 2, entrenched=True)
    table.do("start_effects")
    table.do("start_effects")
    assert supply_question(table.state, 3, 2) == SupplyQuestion((3, 3, 6, 4), (3, 2), (6, 5))
    table.do("commit_supply", count=4)
    assert supply_question(table.state, 1) == SupplyQuestion((3, 3, 4, 4), (4, 1), (7, 4))


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("area, attacker", [(WV, C), (MD, C), (VA, U), (NC, U)])
def test_the_owner_of_the_border_state_defends(area, attacker):
    """CMB.1: the player for whom the state is own-side always defends, whoever moved in."""
    battle = battle_table(area, 2, 1).battle
    assert (battle.attacker, battle.defender, battle.turn, battle.stage) == (attacker, U if attacker == C else C,
                                                                             attacker, "start")


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("attacker, defender, entrenched, dice", [(1, 1, False, (1, 1)), (3, 2, True, (3, 3)),
                                                                  (2, 3, True, (2, 4)), (3, 1, False, (3, 1))])
def test_base_dice_one_per_unit_and_one_for_entrenchment(attacker, defender, entrenched, dice):
    """CMB.2: a die per own unit in the state; +1 in all for the defender with an entrenched unit."""
    battle = battle_table(WV, attacker, defender, entrenched).battle
    assert (battle.dice[C], battle.dice[U]) == dice


@pytest.mark.rule("BS-CMB", "BS-CARD")
def test_start_of_combat_attacker_then_defender():
    """CMB.3 (A18): the attacker, then the defender, may add dice by the commander's ability and/or play one card
    (ADD_STOCK_DICE adds its dice; a FREE_TEXT card adds none but is the side's card); a throw or action card is not
    a start-of-combat card."""
    table = battle_table(WV, 2, 2)
    table.refuse("BS-CMB", "commit_supply", count=0)
    table.refuse("BS-CMB", "start_effects", extra_dice=-1)
    table.refuse("BS-CARD", "start_effects", card=JACKSON)
    table.refuse("BS-CARD", "start_effects", card=PLUS_C)
    table.refuse("BS-CARD", "start_effects", card=MARCH_C)
    table.do("start_effects", extra_dice=2, card="Example CSA card")
    assert table.battle.dice == {C: 4, U: 2} and table.battle.turn == U and table.state.hand[C] == 1
    table.do("start_effects", card=POTOMAC)
    assert table.battle.dice == {C: 4, U: 3} and table.battle.stage == "supply" and table.battle.turn == C


@pytest.mark.rule("BS-CMB", "BS-D.8")
@pytest.mark.parametrize("units, supply, cap", [(3, 16, 6), (1, 16, 2), (3, 4, 4), (2, 0, 0)])
def test_supply_up_to_two_per_unit_and_no_more_than_held(units, supply, cap):
    """CMB.4: 0 <= x <= min(2u, supply); dice from the start of the combat do not raise the cap; they are spent."""
    table = battle_table(WV, units, 1)
    table.modify(supply={C: supply, U: 18})
    table.do("start_effects", extra_dice=3)
    table.do("start_effects")
    table.refuse("BS-CMB", "commit_supply", count=cap + 1)
    table.refuse("BS-CMB", "commit_supply", count=True)
    table.do("commit_supply", count=cap)
    assert table.state.supply[C] == supply - cap and table.battle.supply[C] == cap


# --- the ROLL loop (CMB.5-6) ------------------------------------------------------------------------------------

def at_roll(attacker: int = 2, defender: int = 2, area: str = WV, **options) -> Table:
    table = battle_table(area, attacker, defender, **options)
    for _ in range(2):
        table.do("start_effects")
    for _ in range(2):
        table.do("commit_supply", count=0)
    return table


@pytest.mark.rule("BS-CMB")
def test_take_at_least_one_die_and_only_sixes_to_damage():
    """CMB ROLL: throw every die left; take at least 1 and up to all; a taken 6 may go to the damage row, nothing
    else; a throw waits for its take."""
    table = at_roll(3, 2)
    table.refuse("BS-CMB", "keep", confirm=[1])
    table.do("throw", 6, 4, 4)
    table.refuse("BS-CMB", "throw", 1, 2, 3)
    table.refuse("BS-CMB", "keep", confirm=[], damage=0)
    table.refuse("BS-CMB", "keep", confirm=[4, 4, 4])
    table.refuse("BS-CMB", "keep", confirm=[6], damage=1)
    table.refuse("BS-CMB", "keep", confirm=[4], damage=2)
    table.refuse("BS-CMB", "keep", confirm=[], damage=-1)
    table.refuse("BS-CMB", "keep", confirm=[7])
    table.refuse("BS-CMB", "keep", confirm="4")
    table.do("keep", confirm=[4, 4])
    assert table.battle.trays[C].left == 1 and table.battle.turn == C


@pytest.mark.rule("BS-CMB")
def test_a_damage_six_meets_the_take_one_rule():
    """A5: taking only a 6 to the damage row is a legal take, and the loop ends after at most one throw per die."""
    table = at_roll(3, 1)
    throws = 0
    while table.battle.turn == C:
        left = table.battle.trays[C].left
        table.do("throw", *[6] * left)
        table.do("keep", confirm=[], damage=1)
        throws += 1
    assert throws == 3 and table.battle.results[C] == Strength(0, 0, 3)


@pytest.mark.rule("BS-CMB")
def test_the_attacker_rolls_to_completion_before_the_defender():
    """CMB.5-6: the attacker's whole roll, then the defender's."""
    table = at_roll(2, 2)
    table.do("throw", 2, 3)
    table.do("keep", confirm=[3])
    assert table.battle.turn == C
    table.do("throw", 3)
    table.do("keep", confirm=[3])
    assert table.battle.turn == U and table.battle.results[C] == Strength(2, 3, 0)


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("faces, damage, expected", [
    ((3, 3, 3, 5, 1), 0, (3, 3, 0)), ((2, 2, 5, 5, 1), 0, (2, 5, 0)), ((1, 2, 3, 4, 6), 0, (1, 6, 0)),
    ((1, 2, 3, 4, 6), 1, (1, 4, 1)), ((6, 6, 6, 6, 6), 5, (0, 0, 5)), ((6, 6, 6, 1, 1), 1, (2, 6, 1)),
    ((4, 4, 4, 4, 4), 0, (5, 4, 0)),
], ids=["triple", "pairs tie to the higher", "all different", "a 6 to damage", "all to damage", "two 6s kept",
        "five of a kind"])
def test_strength_face_and_damage(faces, damage, expected):
    """CMB.6: S the largest count of one face among the confirmed dice, F that face (the highest of tied faces,
    A2), 0 and 0 when none is confirmed; D the damage dice."""
    table = battle_table(WV, 3, 2)
    table.do("start_effects", extra_dice=2)
    table.do("start_effects")
    table.do("commit_supply", count=0)
    table.do("commit_supply", count=0)
    table.settle(faces, damage)
    assert table.battle.results[C] == Strength(*expected)


# --- CMB.7-8 result and losses (V4) --------------------------------------------------------------------------

def strength_faces(s: int, face: int, n: int) -> tuple[int, ...]:
    """n dice giving strength s in `face` (s = 0: every die a 6 to damage); the other dice all different."""
    if s == 0:
        return (6,) * n
    fillers = [f for f in (1, 2, 3, 4) if f != face][:n - s]
    return (face,) * s + tuple(fillers)


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("winner", [C, U])
@pytest.mark.parametrize("sw, sl, removed", [(2, 1, 2), (3, 2, 1), (4, 2, 2), (6, 3, 2), (7, 4, 1), (1, 0, 2),
                                             (5, 5, 1)])
def test_vector_04_losses(sw, sl, removed, winner):
    """V4 (CMB.7-8, A1 inclusive): (2,1) 2, (3,2) 1, (4,2) 2, (6,3) 2, (7,4) 1, (1,0) 2, 5 v 5 decided on F 1; the
    loser removes them from the state (3 units a side here)."""
    table = battle_table(WV, 3, 3)
    s_of = {winner: sw, (U if winner == C else C): sl}
    n = {side: max(3, s_of[side]) for side in (C, U)}
    table.do("start_effects", extra_dice=n[C] - 3)
    table.do("start_effects", extra_dice=n[U] - 3)
    table.do("commit_supply", count=0)
    table.do("commit_supply", count=0)
    face = {winner: 5, (U if winner == C else C): 3}
    for side in (C, U):
        faces = strength_faces(s_of[side], face[side], n[side])
        table.settle(faces, n[side] if s_of[side] == 0 else 0)
    loser = U if winner == C else C
    assert table.battle.winner == winner and table.battle.removals == removed
    assert table.state.count(WV, loser) == 3 - removed and table.state.count(WV, winner) == 3


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("sw, sl, inclusive, strict", [
    (2, 1, 2, 1), (3, 2, 1, 1), (4, 2, 2, 1), (6, 3, 2, 1), (7, 4, 1, 1), (1, 0, 2, 1), (5, 5, 1, 1),
    (3, 1, 2, 2), (7, 3, 2, 2), (2, 0, 2, 1),
])
def test_vector_04_the_losses_table_and_the_strict_reading(sw, sl, inclusive, strict):
    """V4 / A1: inclusive S_w > S_l and S_w >= 2 S_l (L = 0 counts); strict S_w > 2 S_l and a loser with S 0 loses 1."""
    assert losses(Strength(sw, 5, 0), Strength(sl, 3, 0), "inclusive") == inclusive
    assert losses(Strength(sw, 5, 0), Strength(sl, 3, 0), "strict") == strict


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("c_faces, u_faces, winner", [
    ((4, 4, 4), (3, 3, 1), C), ((3, 3, 1), (4, 4, 4), U), ((4, 4, 1), (4, 4, 2), "draw"),
    ((6, 6, 6), (6, 6, 6), "draw"), ((2, 2, 2), (6, 6, 5), C), ((5, 4, 1), (6, 3, 2), U),
], ids=["S", "S for the defender", "equal S and F", "0 v 0", "S beats a high face", "F"])
def test_the_higher_strength_wins_then_the_higher_face_else_a_draw(c_faces, u_faces, winner):
    """CMB.7: the higher S wins; equal S, the higher F; equal F too (0 v 0 included), a draw, which removes nothing."""
    table = battle_table(WV, 3, 3)
    dmg = {C: 3 if c_faces == (6, 6, 6) else 0, U: 3 if u_faces == (6, 6, 6) else 0}
    table.fight(c_faces, u_faces, (dmg[C], dmg[U]))
    assert table.battle.winner == winner
    if winner == "draw":
        assert (table.state.count(WV, C), table.state.count(WV, U), table.battle.stage) == (3, 3, "end")


@pytest.mark.rule("BS-CMB")
def test_removals_are_capped_by_the_units_there():
    """CMB.8: a double loss with one unit there removes that one; the state is then no longer in combat."""
    table = battle_table(WV, 3, 1)
    table.fight((5, 5, 1), (1,))
    assert table.battle.removals == 1 and table.state.count(WV, U) == 0 and not table.state.in_combat(WV)


@pytest.mark.rule("BS-CMB", "BS-D.10", "BS-D.11")
@pytest.mark.parametrize("commander", [True, False])
def test_the_loser_chooses_whether_its_commander_unit_goes(commander):
    """CMB.8 / CMB.11: the loser picks the units it removes; a commander unit removed goes to the pool and its side's
    commander card advances (BS-D.10); otherwise the card stays."""
    table = battle_table(WV, 3, 3, commanders={U: WV})
    pool = table.state.pool(U)
    step = table.fight((5, 5, 5), (4, 4, 1))
    assert table.battle.stage == "losses" and table.battle.turn == U and "chooses" in step.summary
    table.refuse("BS-CMB", "end_combat")
    table.refuse("BS-CMB", "remove_losses", commander="yes")
    table.do("remove_losses", commander=commander)
    state = table.state
    assert state.count(WV, U) == 2 and state.pool(U) == pool + 1
    assert (state.commander_at[U], state.commander[U]) == (("", 2) if commander else (WV, 1))


@pytest.mark.rule("BS-CMB", "BS-D.10")
def test_a_commander_unit_among_the_last_units_goes_without_a_choice():
    """CMB.8 / CMB.11: when every unit of the loser there is removed, the commander unit is among them."""
    table = battle_table(VA, 3, 2, commanders={C: VA})
    table.fight((5, 5, 1), (3, 1))
    assert table.state.count(VA, C) == 0 and table.state.commander_at[C] == "" and table.state.commander[C] == 2


# --- CMB.9 damage (V5) and CMB.10 distrust ----------------------------------------------------------------------

@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("area, d_attacker, d_defender, move", [
    (WV, 2, 2, 0), (WV, 0, 1, -1), (VA, 0, 1, +1), (WV, 3, 1, +1), (VA, 1, 0, -1),
], ids=["V5 equal", "V5 toward the CSA attacker", "toward the Union attacker", "example", "toward the CSA defender"])
def test_vector_05_the_marker_moves_toward_fewer_damage_dice(area, d_attacker, d_defender, move):
    """V5 (CMB.9): the marker moves 1 square toward the side with fewer damage dice; equal, no move (A3)."""
    table = battle_table(area, 3, 3)
    attacker = (1, 2, 3)[:3 - d_attacker] + (6,) * d_attacker
    defender = (4, 5, 2)[:3 - d_defender] + (6,) * d_defender
    table.fight(attacker, defender, (d_attacker, d_defender))
    assert table.state.damage == move


@pytest.mark.rule("BS-CMB")
def test_the_damage_step_follows_a_draw():
    """CMB.9 (A4 default): the marker moves after a draw too."""
    table = battle_table(WV, 3, 3)
    table.fight((3, 3, 6), (3, 3, 1), (1, 0))
    assert table.battle.winner == "draw" and table.state.damage == 1


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("start, csa, union, damage, end", [
    (4, (1, 2, 6), (4, 5, 2), (1, 0), 4), (-4, (1, 2, 3), (4, 5, 6), (0, 1), -4), (4, (1, 2, 3), (4, 5, 6), (0, 1), 3),
], ids=["Union end", "CSA end", "back from the end"])
def test_the_marker_stops_at_the_end_of_its_track(start, csa, union, damage, end):
    """CMB.9 (A16): the marker stays on the last square of its track (4 a side on the example board)."""
    table = battle_table(WV, 3, 3)
    table.modify(damage=start)
    table.fight(csa, union, damage)
    assert table.state.damage == end


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("area, union_wins, distrust", [(WV, False, 1), (VA, False, 1), (WV, True, 0), (VA, True, 0)],
                         ids=["Union defends and loses", "Union attacks and loses", "Union defends and wins",
                              "Union attacks and wins"])
def test_a_union_loss_raises_distrust(area, union_wins, distrust):
    """CMB.10: distrust +1 whenever the Union loses a combat, attacking or defending; never otherwise."""
    table = battle_table(area, 3, 3)
    union_first = table.battle.attacker == U
    winner_faces, loser_faces = (5, 5, 1), (4, 4, 1)
    union_faces, csa_faces = (winner_faces, loser_faces) if union_wins else (loser_faces, winner_faces)
    table.fight(*((union_faces, csa_faces) if union_first else (csa_faces, union_faces)))
    assert table.state.distrust == distrust


@pytest.mark.rule("BS-D.10", "BS-CMB")
@pytest.mark.parametrize("double_succession", [True, False])
@pytest.mark.parametrize("commander_lost", [False, True])
def test_vector_10_distrust_laps_start(commander_lost, double_succession):
    """V10 (BS-D.10, L_D = 6): from position 5 a Union loss takes the marker to START, so ① -> ②; with the Union's
    commander unit also removed in that combat, ③ (A15); with the A15 option 'once', ② either way."""
    table = battle_table(WV, 3, 1, commanders={U: WV} if commander_lost else {},
                         double_succession=double_succession)
    table.modify(distrust=5)
    table.fight((5, 5, 1), (3,))
    expected = 3 if commander_lost and double_succession else 2
    assert table.state.distrust == 0 and table.state.commander[U] == expected
    assert table.state.commander_name(U) == ("Union commander 3" if expected == 3 else "Union commander 2")


@pytest.mark.rule("BS-D.10")
@pytest.mark.parametrize("side, face, area", [(U, 4, WV), (C, 2, VA)])
def test_no_advance_past_the_last_commander(side, face, area):
    """BS-D.10: no advance past ④ Grant (Union) or ② Lee fatigued (CSA)."""
    table = battle_table(area, 3, 1, commanders={side: area})
    table.modify(commander={**table.state.commander, side: face}, distrust=5)
    table.fight((5, 5, 1), (3,))
    assert table.state.commander[side] == face and table.state.commander_at[side] == ""


# --- CMB.12 and BS-CARD -------------------------------------------------------------------------------------

@pytest.mark.rule("BS-CARD", "BS-CMB")
def test_one_card_per_side_in_a_combat_commander_abilities_extra():
    """BS-CARD: each side uses at most 1 card in one combat, start, throw and end effects together; the
    commander's ability is extra. CMB.12: end-of-combat cards within the limit, then the next combat."""
    table = battle_table(WV, 2, 2, others={KY: (1, 1)})
    table.do("start_effects", extra_dice=1, card="Example CSA card")
    table.do("start_effects")
    table.do("commit_supply", count=0)
    table.do("commit_supply", count=0)
    table.do("throw", 6, 1, 2)
    table.refuse("BS-CARD", "roll_card", card=JACKSON)
    table.do("keep")
    table.do("throw", 3, 3)
    table.do("roll_card", card=PLUS_U, face=3)
    table.do("keep")
    table.refuse("BS-CARD", "end_combat", card_c="Example CSA card")
    table.refuse("BS-CARD", "end_combat", card_u="Example Union card")
    table.refuse("BS-CARD", "end_combat", card_c="", card_u=POTOMAC)
    step = table.do("end_combat")
    assert table.state.phase == COMBAT and table.battle.area == KY and "next, Kentucky" in step.summary
    assert table.state.hand == {C: 1, U: 1} and table.state.discard == {C: 1, U: 1}


@pytest.mark.rule("BS-CARD")
def test_an_end_of_combat_card_is_a_combat_card():
    """BS-CARD / CMB.12: an end-of-combat card counts as the side's card; an action card is refused."""
    table = at_roll(2, 2)
    table.settle((1, 2))
    table.settle((3, 4))
    table.refuse("BS-CARD", "end_combat", card_c=MARCH_C)
    table.do("end_combat", card_c="Example CSA card", card_u="Example Union card")
    assert table.state.discard == {C: 1, U: 1} and table.state.phase == VICTORY


@pytest.mark.rule("BS-CARD")
@pytest.mark.parametrize("card, rule", [(MINUS_U, "BS-CARD"), ("Example CSA card", "BS-CARD"), (MARCH_C, "BS-CARD"),
                                        (DRILL_C, "BS-CARD"), (POTOMAC, "BS-CARD")],
                         ids=["the opponent's card", "no throw effect", "an action card", "an action-phase modifier",
                              "the opponent's start card"])
def test_a_throw_card_is_the_rollers_own_combat_card(card, rule):
    """BS-CARD: die effects touch only your own dice (the card comes from the rolling side's deck); a card that does
    not change a throw, or one of the action phase, is not played on a throw."""
    table = at_roll(2, 2)
    table.refuse("BS-CARD", "roll_card", card=PLUS_C, face=1)        # before the throw
    table.do("throw", 1, 2)
    table.refuse(rule, "roll_card", card=card, face=1)


@pytest.mark.rule("BS-CARD", "BS-CMB")
def test_jacksons_die_is_an_ordinary_die():
    """A6: the added 6 joins the throw as an ordinary die: here it is confirmed with another 6; dice left grow by 1."""
    table = at_roll(2, 1)
    table.do("throw", 6, 2)
    table.do("roll_card", card=JACKSON)
    assert table.battle.throw == (0, 1, 0, 0, 0, 2) and table.battle.trays[C].left == 3
    table.do("keep", confirm=[6, 6])
    table.do("throw", 6)
    table.do("keep", confirm=[], damage=1)
    assert table.battle.results[C] == Strength(2, 6, 1)


@pytest.mark.rule("BS-MOD")
@pytest.mark.parametrize("area, side, card, other, face, shown", [
    (WV, C, PLUS_C, PLUS_C, 6, 6), (WV, C, PLUS_C, PLUS_C, 3, 4), (VA, U, MINUS_U, PLUS_U, 1, 1),
    (VA, U, MINUS_U, PLUS_U, 4, 3),
], ids=["6 +1 stays 6", "3 +1", "1 -1 stays 1", "4 -1"])
def test_vector_08_modified_faces_are_clamped(area, side, card, other, face, shown):
    """V8 (BS-MOD): a 6 modified by +1 stays 6, a 1 by -1 stays 1; playing such a card is still legal (it is used,
    and it is the side's one card of the combat)."""
    table = at_roll(2, 2, area=area)
    assert table.battle.turn == side
    table.do("throw", face, 2)
    step = table.do("roll_card", card=card, face=face)
    counts = [0] * 6
    for f in (shown, 2):
        counts[f - 1] += 1
    assert table.battle.throw == tuple(counts) and table.state.hand[side] == 1
    assert ("clamped" in step.summary) == (shown == face)
    table.refuse("BS-CARD", "roll_card", card=other, face=shown)


@pytest.mark.rule("BS-MOD")
def test_a_modifier_needs_a_die_showing_that_face():
    """BS-MOD: the face changed is one of the thrown dice."""
    table = at_roll(2, 2)
    table.do("throw", 2, 3)
    table.refuse("BS-MOD", "roll_card", card=PLUS_C, face=5)
    for face, change in ((0, 0), (None, 0), ("2", 0), (2.0, 0), (True, 0), (2, "1"), (2, None), (2, [1])):
        table.refuse("BS-MOD", "roll_card", card=PLUS_C, face=face, change=change)


EITHER_C = "Test CSA +1 or -1"


def either_board() -> dict:
    """The test board with an invented CSA card printed with either sign (MODIFY_EITHER 1, digest section 10)."""
    data = full_board()
    data["cards"][C].append({"name": EITHER_C, "copies": 1, "phase": "combat", "effect": "MODIFY_EITHER", "value": 1})
    return data


@pytest.mark.rule("BS-MOD", "BS-CARD")
@pytest.mark.parametrize("area, card, face, change, shown", [
    (WV, PLUS_C, 3, 0, 4), (WV, PLUS_C, 3, 1, None), (WV, PLUS_C, 3, -1, None),
    (VA, MINUS_U, 4, 0, 3), (VA, MINUS_U, 4, -1, None), (VA, MINUS_U, 4, 1, None),
], ids=["+1 as printed", "+1 named", "+1 played as -1", "-1 as printed", "-1 named", "-1 played as +1"])
def test_a_modifier_applies_its_printed_signed_value(area, card, face, change, shown):
    """Section 10: a MODIFY card changes a face by exactly the signed value printed on it: the sign is not asked
    (BS-MOD refuses a 'change' and nothing changes), so a +1 card is never played as -1, nor a -1 card as +1."""
    table = at_roll(2, 2, area=area)
    table.do("throw", face, 2)
    assert legal(table.state, "roll_card", "change", card=card) is None
    if shown is None:
        assert "'change'" in table.refuse("BS-MOD", "roll_card", card=card, face=face, change=change).message
        return
    table.do("roll_card", card=card, face=face, change=change)
    counts = [0] * 6
    for f in (shown, 2):
        counts[f - 1] += 1
    assert table.battle.throw == tuple(counts)


@pytest.mark.rule("BS-MOD", "BS-CARD")
@pytest.mark.parametrize("change, shown", [(1, 4), (-1, 2), (0, None), (2, None), (-2, None)])
def test_a_card_of_either_sign_takes_the_sign_the_player_chooses(change, shown):
    """Section 10: only a card whose text lets the player choose (MODIFY_EITHER k) takes +k or -k, chosen as it is
    played: a 3 becomes a 4 or a 2; no sign chosen, or another size, is refused."""
    table = at_roll(2, 2, board_data=either_board())
    table.do("throw", 3, 2)
    assert offered(table.state, "roll_card", "change", card=EITHER_C) == (1, -1)
    if shown is None:
        assert "choose +1, -1" in table.refuse("BS-MOD", "roll_card", card=EITHER_C, face=3, change=change).message
        return
    table.do("roll_card", card=EITHER_C, face=3, change=change)
    counts = [0] * 6
    for f in (shown, 2):
        counts[f - 1] += 1
    assert table.battle.throw == tuple(counts) and table.state.hand[C] == 1


# --- BS-D.11 and BS-D.12 -------------------------------------------------------------------------------------------

@pytest.mark.rule("BS-D.11")
def test_removed_units_return_to_the_pool():
    """BS-D.11 (A11 default): units removed in combat go back to their owner's pool, and can be recruited again."""
    table = battle_table(WV, 3, 3)
    before = (table.state.pool(C), table.state.pool(U))
    table.fight((5, 5, 1), (3, 1, 2))
    assert (table.state.pool(C), table.state.pool(U)) == (before[0], before[1] + 2)
    assert table.state.lost == {C: 0, U: 0}


def strings(data) -> list[str]:
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return [data] if isinstance(data, str) else []


@pytest.mark.rule("BS-D.12")
def test_only_hand_sizes_are_kept_so_the_shared_view_hides_nothing_secret():
    """BS-D.12: everything but the hands is public. The state keeps the hands as counts only: no card name is
    stored outside the (public) deck lists of the board, even after cards are drawn; the bid of BS-VAR.2 is
    revealed by both sides in one action."""
    table, _ = worked_battle()
    data = table.state.to_dict()
    assert data["hand"] == {C: 2, U: 1}
    outside_board = strings({k: v for k, v in data.items() if k != "board"})
    card_names = {c["name"] for side in data["board"]["cards"].values() for c in side}
    assert not card_names & set(outside_board)
    bidding = Table(setup(), initiative_bid=True)
    bidding.do("draw")
    assert bidding.state.bids == {}
    bidding.do("bid", c=2, u=3)
    assert bidding.state.bids == {C: 2, U: 3} and bidding.state.supply == {C: 14, U: 15}
