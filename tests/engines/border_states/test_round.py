"""The round around the fighting: draw (BS-DRAW, BS-D.9), initiative (BS-INIT, BS-VAR.2), the victory check
(BS-VIC, BS-VIC.1-3), supply (BS-SUP, BS-D.8), recruitment (BS-REC) and the maximum force (BS-D.3)."""
from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from companion.odds import exhaustive, fractions, mean
from engines.border_states.initiative import initiative_win
from engines.border_states.recruitment import recruits_odds
from engines.border_states.round import recruit_outlook
from engines.border_states.state import ACTION, DRAW, INITIATIVE, OVER, RECRUIT, SUPPLY, VICTORY
from tests.engines.border_states.support import (
    AR,
    C_HOMES,
    KY,
    MD,
    MO,
    NC,
    TN,
    U_HOMES,
    VA,
    WV,
    C,
    Table,
    U,
    area_of,
    at,
    full_board,
    offered,
    setup,
)

# --- BS-DRAW and BS-D.9 --------------------------------------------------------------------------------------

@pytest.mark.rule("BS-DRAW")
@pytest.mark.parametrize("nc, drawn", [((2, 0), (3, 2)), ((1, 2), (2, 3)), ((1, 1), (2, 2)), ((0, 0), (2, 2))],
                         ids=["CSA holds NC", "Union holds NC", "NC contested", "NC empty"])
def test_each_side_draws_two_and_north_carolina_one_more(nc, drawn):
    """BS-DRAW: 2 cards each; whoever controls North Carolina draws 1 more (nobody, when empty or equal)."""
    table = at(DRAW, {NC: nc, VA: (1, 0), WV: (0, 1)})
    deck = dict(table.state.deck)
    step = table.do("draw")
    assert (table.state.hand[C], table.state.hand[U]) == drawn
    assert table.state.deck == {C: deck[C] - drawn[0], U: deck[U] - drawn[1]}
    assert table.state.phase == INITIATIVE and "BS-DRAW" in step.rules


@pytest.mark.rule("BS-D.9", "BS-DRAW")
@pytest.mark.parametrize("deck, discard, hand, after", [
    (1, 5, 0, (4, 0, 2)),      # one from the deck, then the discard pile is shuffled into a new deck
    (0, 1, 3, (0, 0, 4)),      # only one card left anywhere
    (0, 0, 2, (0, 0, 2)),      # both empty: nothing is drawn
    (9, 0, 25, (7, 0, 27)),    # no hand limit
])
def test_an_empty_deck_is_rebuilt_from_the_discard_pile(deck, discard, hand, after):
    """BS-D.9: an empty deck is rebuilt by shuffling its discard pile; with both empty nothing is drawn; the hand
    has no limit. (The Union side, which does not hold North Carolina here.)"""
    table = at(DRAW, {VA: (1, 0)}, deck={C: 14, U: deck}, discard={C: 0, U: discard}, hand={C: 0, U: hand})
    table.do("draw")
    assert (table.state.deck[U], table.state.discard[U], table.state.hand[U]) == after


@pytest.mark.rule("BS-DRAW")
def test_drawing_belongs_to_the_draw_phase():
    """BS-DRAW: the draw is the first step of a round, once."""
    table = Table(setup())
    table.do("draw")
    table.refuse("BS-DRAW", "draw")


# --- BS-INIT and BS-VAR.2 ------------------------------------------------------------------------------------

@pytest.mark.rule("BS-INIT")
@pytest.mark.parametrize("c, u", list(product(range(1, 7), repeat=2)))
def test_the_higher_roll_wins_the_initiative(c, u):
    """BS-INIT: one die each; the higher roll chooses; a tie is rolled again."""
    table = Table(setup())
    table.do("draw")
    table.do("roll_initiative", c, u)
    expected = C if c > u else U if u > c else ""
    assert table.state.initiative_winner == expected and table.state.phase == INITIATIVE


@pytest.mark.rule("BS-INIT")
def test_a_tie_is_rolled_again_and_the_winner_chooses():
    """BS-INIT: after a tie both roll again; the winner chooses to go first or second; nothing else is asked."""
    table = Table(setup())
    table.do("draw")
    table.refuse("BS-INIT", "choose_first")
    step = table.do("roll_initiative", 4, 4)
    assert "roll again" in step.summary
    table.refuse("BS-INIT", "choose_first")
    table.do("roll_initiative", 2, 3)
    table.refuse("BS-INIT", "roll_initiative", 6, 1)
    table.refuse("BS-INIT", "choose_first", first="Both")
    table.do("choose_first")
    assert (table.state.phase, table.state.first, table.state.turn) == (ACTION, U, U)


@pytest.mark.rule("BS-INIT")
@pytest.mark.parametrize("faces, winner", [((5, 2), C), ((2, 5), U)])
def test_the_winner_is_offered_first_to_go_first(faces, winner):
    """BS-INIT: the winner chooses who goes first; either side may be chosen, the winner itself offered first."""
    table = Table(setup())
    table.do("draw")
    table.do("roll_initiative", *faces)
    assert offered(table.state, "choose_first", "first") == (winner, C if winner == U else U)


@pytest.mark.rule("BS-VAR.2")
def test_the_bid_is_revealed_at_once_spent_and_added_to_every_roll():
    """BS-VAR.2: both sides reveal their gripped supply dice at once; the dice are spent; each count is added to
    its side's roll and again to every tie re-roll, with no new bid."""
    table = Table(setup(), initiative_bid=True)
    table.do("draw")
    table.refuse("BS-VAR.2", "roll_initiative", 6, 1)
    table.refuse("BS-VAR.2", "bid", c=17, u=0)
    table.refuse("BS-VAR.2", "bid", c=0, u=-1)
    table.do("bid", c=3, u=1)
    assert table.state.supply == {C: 16 - 3, U: 18 - 1}
    table.refuse("BS-VAR.2", "bid", c=0, u=0)
    step = table.do("roll_initiative", 2, 4)        # 5 v 5
    assert table.state.initiative_winner == "" and "BS-VAR.2" in step.rules
    table.do("roll_initiative", 1, 3)                # 4 v 4
    assert table.state.initiative_winner == ""
    table.do("roll_initiative", 1, 2)                # 4 v 3
    assert table.state.initiative_winner == C


@pytest.mark.rule("BS-VAR.2")
def test_without_the_variant_there_is_no_bid():
    """BS-VAR.2 is a variant: without it, no bid is taken."""
    table = Table(setup())
    table.do("draw")
    table.refuse("BS-VAR.2", "bid", c=1, u=0)


def digest_formula(delta: int) -> F:
    """BS-VAR.2: P(win) = P(X-Y >= 1-delta) / (1 - P(X-Y = -delta)), X and Y fair d6, by counting."""
    diffs = [x - y for x in range(1, 7) for y in range(1, 7)]
    win = F(sum(d >= 1 - delta for d in diffs), 36)
    tie = F(sum(d == -delta for d in diffs), 36)
    return win / (1 - tie)


@pytest.mark.rule("BS-VAR.2", "BS-INIT")
@pytest.mark.parametrize("delta, p", [(0, F(1, 2)), (1, F(21, 31)), (2, F(13, 16)), (3, F(10, 11)), (4, F(33, 34)),
                                      (5, F(1)), (7, F(1))])
def test_the_delta_table(delta, p):
    """BS-VAR.2 table: P(winning the initiative) for a bid lead of delta, exact; it depends on the difference only."""
    assert digest_formula(delta) == p
    for theirs in (0, 2):
        assert initiative_win(theirs + delta, theirs) == p
    if delta:
        assert initiative_win(0, delta) == 1 - p


# --- BS-VIC -----------------------------------------------------------------------------------------------

def v9_board() -> dict:
    """The example board with Tennessee worth 4 VP (V9 needs a 3 and a 4)."""
    data = full_board()
    area_of(data, TN)["vp"] = 4
    return data


@pytest.mark.rule("BS-VIC", "BS-VIC.1")
@pytest.mark.parametrize("damage, wins", [(3, True), (2, False), (0, False)])
def test_vector_09_ten_vp_wins_at_once_in_rounds_1_to_3(damage, wins):
    """V9 (BS-VIC.1): round 2, the CSA holds 3 + 4 VP and the marker's square shows a grey star 3: 10, the CSA wins
    at once; with star 2 (9 VP) or none, the game goes on to the supply phase."""
    table = at(VICTORY, {VA: (2, 0), TN: (1, 0), WV: (0, 2)}, v9_board(), round=2, damage=damage)
    assert table.state.vp(C) == 7 + [0, 1, 2, 3][damage]
    step = table.do("check_victory")
    if wins:
        assert table.state.phase == OVER and table.state.victory.side == C and table.state.victory.rule == "BS-VIC.1"
        assert "BS-VIC.1" in step.rules
        table.refuse("BS-VIC", "supply")
    else:
        assert table.state.phase == SUPPLY and table.state.victory is None


@pytest.mark.rule("BS-VIC", "BS-VIC.1")
def test_vp_are_recounted_from_scratch():
    """BS-VIC: VP never accumulate: 9 VP in round 1 and 9 again in round 2 is no victory."""
    table = at(VICTORY, {VA: (2, 0), TN: (1, 0), NC: (1, 0)}, round=1)
    assert table.state.vp(C) == 3 + 3 + 2 + 0
    table.do("check_victory")
    assert table.state.phase == SUPPLY
    again = at(VICTORY, {VA: (2, 0), TN: (1, 0), NC: (1, 0), AR: (1, 0)}, round=2)
    again.do("check_victory")
    assert again.state.phase == SUPPLY and again.state.vp(C) == 9


@pytest.mark.rule("BS-VIC", "BS-VIC.2")
@pytest.mark.parametrize("c_states, u_states, damage, winner", [
    ((VA, NC, AR), (MD, KY), 0, U),          # V9: 6 v 6, a tie goes to the Union
    ((VA, NC, AR, MO), (MD, KY), 0, C),      # 8 v 6
    ((VA, NC), (MD, KY), 0, U),              # 5 v 6
    ((VA, NC, AR), (MD,), 1, C),             # 6 + grey star 1 v 3
    ((VA, NC, AR), (MD,), -4, U),            # 6 v 3 + blue star 4: 7
    ((VA, NC, TN, AR), (WV, MD, KY, MO), 1, U),  # 10 v 10: round 4 only compares (A8)
])
def test_round_4_compares_vp_and_ties_go_to_the_union(c_states, u_states, damage, winner):
    """BS-VIC.2: in round 4 the Union counts too (states held plus the blue star); more CSA VP wins for the CSA,
    anything else, ties included, for the Union; the game ends."""
    units = {**{s: (1, 0) for s in c_states}, **{s: (0, 1) for s in u_states}}
    table = at(VICTORY, units, round=4, damage=damage)
    table.do("check_victory")
    victory = table.state.victory
    assert (table.state.phase, victory.side, victory.rule, victory.round) == (OVER, winner, "BS-VIC.2", 4)


@pytest.mark.rule("BS-VIC.3", "BS-D.3")
@pytest.mark.parametrize("damage, force, stars", [
    (0, (10, 10), (0, 0)), (1, (10, 10), (1, 0)), (2, (10, 9), (2, 0)), (3, (10, 9), (3, 0)), (4, (10, 8), (4, 0)),
    (-1, (10, 10), (0, 1)), (-2, (9, 10), (0, 2)), (-4, (8, 10), (0, 4)),
])
def test_the_damage_square_sets_force_cuts_and_stars(damage, force, stars):
    """BS-VIC.3 (A7 position): above START (toward the Union) Union force cuts and grey CSA stars; below, CSA force
    cuts and blue Union stars; read from the square the marker is on (example squares: cut 0,1,1,2, star 1-4)."""
    state = at(VICTORY, {}, damage=damage).state
    assert (state.max_force(C), state.max_force(U)) == force
    assert (state.vp(C), state.vp(U)) == stars


# --- BS-SUP and BS-D.8 ---------------------------------------------------------------------------------------

@pytest.mark.rule("BS-SUP", "BS-D.8")
def test_vector_06_supply_with_the_cap():
    """V6 (BS-SUP): the Union has 15 and controls Kentucky and Tennessee: 15 + 6 + 2 = 23, capped at 18; the CSA
    has 3 and controls neither: 8."""
    table = at(SUPPLY, {KY: (0, 1), TN: (1, 2), VA: (1, 0)}, supply={C: 3, U: 15}, first=C)
    step = table.do("supply")
    assert table.state.supply == {C: 8, U: 18} and "capped" in step.summary


@pytest.mark.rule("BS-SUP", "BS-D.8")
@pytest.mark.parametrize("ky, tn, gain", [((1, 0), (1, 0), (7, 6)), ((1, 0), (0, 1), (6, 7)), ((0, 0), (1, 1), (5, 6)),
                                          ((2, 1), (0, 0), (6, 6))])
def test_kentucky_and_tennessee_give_one_each(ky, tn, gain):
    """BS-D.8 (A13): +5 CSA and +6 Union, and +1 for each of Kentucky and Tennessee the side controls."""
    table = at(SUPPLY, {KY: ky, TN: tn}, supply={C: 0, U: 0}, first=C)
    table.do("supply")
    assert (table.state.supply[C], table.state.supply[U]) == gain


@pytest.mark.rule("BS-SUP")
def test_supply_belongs_to_its_phase():
    table = at(VICTORY, {VA: (1, 0)})
    table.refuse("BS-SUP", "supply")


# --- BS-REC and BS-D.3 ---------------------------------------------------------------------------------------

# CSA homes 1-3 empty (3+, 4+, 5+), homes 4-5 held; 8 CSA units on the board: room for 2. The Union's homes are
# all held, so it has nothing to roll.
V7_UNITS = {C_HOMES[3]: (1, 0), C_HOMES[4]: (1, 0), VA: (3, 0), NC: (3, 0),
            **{h: (0, 1) for h in U_HOMES}, WV: (0, 1)}


def recruit_table(units=V7_UNITS, board_data=None, **fields) -> Table:
    fields.setdefault("first", C)
    fields.setdefault("turn", fields["first"])
    return at(RECRUIT, units, board_data, **fields)


def csa_recruits(dice) -> int:
    """The CSA's recruitment phase of the V7 position with these dice: the units it places."""
    table = recruit_table()
    while table.state.phase == RECRUIT and table.state.turn == C:
        table.apply("recruit", dice)
    return table.state.on_board(C) - 8


@pytest.mark.rule("BS-REC")
def test_vector_07_recruitment_is_poisson_binomial_capped_by_room():
    """V7 (BS-REC): 3 empty home states at 3+, 4+, 5+ and room for 2: P(0) 1/9, P(1) 7/18, P(2) 1/2, E 25/18, by
    the engine's phase on every die sequence, by the closed form, and by counting the 216 throws."""
    engine = fractions(exhaustive(csa_recruits))
    twin = fractions(recruits_odds((3, 4, 5), 2))
    counted = {}
    for faces in product(range(1, 7), repeat=3):
        n = min(2, sum(f >= k for f, k in zip(faces, (3, 4, 5))))
        counted[n] = counted.get(n, 0) + F(1, 216)
    expected = {0: F(1, 9), 1: F(7, 18), 2: F(1, 2)}
    assert engine == twin == counted == expected
    assert mean(recruits_odds((3, 4, 5), 2)) == F(25, 18)


@pytest.mark.rule("BS-REC", "BS-D.3")
@pytest.mark.parametrize("pieces, most", [(12, 2), (9, 1)], ids=["room for 2", "1 piece in the pool"])
def test_the_phase_outlook_counts_the_rolls_left_within_room_and_pool(pieces, most):
    """BS-REC with BS-D.3: the V7 position's units still to come this phase (the dashboard's odds), capped by the room
    under the maximum force (2) or by the pool (12 or 9 CSA pieces, 8 on the board), counted over the 216 throws of
    the 3 empty homes at 3+, 4+, 5+."""
    table = recruit_table(board_data=full_board(units={C: pieces, U: 14}))
    counted = {}
    for faces in product(range(1, 7), repeat=3):
        n = min(most, sum(f >= k for f, k in zip(faces, (3, 4, 5))))
        counted[n] = counted.get(n, 0) + F(1, 216)
    assert fractions(recruit_outlook(table.state)) == counted


@pytest.mark.rule("BS-REC")
def test_the_player_picks_the_order_and_the_phase_stops_at_max_force():
    """BS-REC: any order; a success places a pool unit; the phase stops as soon as the units on the board reach
    the maximum force, without rolling the rest."""
    table = recruit_table()
    table.do("recruit", 5, area=C_HOMES[2])
    table.refuse("BS-REC", "recruit", 6, area=C_HOMES[2])     # rolled already (and now held)
    table.refuse("BS-REC", "recruit", 6, area=C_HOMES[3])     # held
    table.refuse("BS-REC", "recruit", 6, area=U_HOMES[0])     # not a CSA home state
    step = table.do("recruit", 3, area=C_HOMES[0])
    assert table.state.on_board(C) == 10 and table.state.count(C_HOMES[2], C) == 1
    assert table.state.phase == DRAW and table.state.round == 2 and "round 2 begins" in step.summary


@pytest.mark.rule("BS-REC")
@pytest.mark.parametrize("face, placed", [(2, 0), (3, 0), (4, 1), (6, 1)])
def test_a_roll_of_the_success_value_or_more_places_a_unit(face, placed):
    """BS-REC: a home state's success value k+ (4+ for CSA home 2 on the example board)."""
    table = recruit_table()
    table.do("recruit", face, area=C_HOMES[1])
    assert table.state.count(C_HOMES[1], C) == placed


@pytest.mark.rule("BS-REC", "BS-D.10")
def test_the_commander_unit_may_be_recruited():
    """BS-REC: the commander unit, when in the pool, may be the unit placed; not when it is on the board."""
    table = recruit_table(commander_at={C: "", U: WV})
    table.do("recruit", 6, area=C_HOMES[0], commander=True)
    assert table.state.commander_at[C] == C_HOMES[0]
    table.refuse("BS-REC", "recruit", 6, area=C_HOMES[1], commander=True)


@pytest.mark.rule("BS-REC", "BS-D.10")
@pytest.mark.parametrize("chosen", [{}, {"commander": True}], ids=["not said", "chosen"])
def test_with_only_the_commander_unit_in_the_pool_it_is_the_unit_recruited(chosen):
    """BS-REC: a success places a unit from the pool; when the commander unit is all the pool holds (a board of 10
    CSA pieces, 9 on the board), it is the unit placed, chosen or not - it does not vanish; "not the commander
    unit" is refused, naming why."""
    table = recruit_table({VA: (3, 0), NC: (3, 0), TN: (3, 0), WV: (0, 1), **{h: (0, 1) for h in U_HOMES}},
                          board_data=full_board(units={C: 10, U: 14}))
    assert (table.state.pool(C), table.state.commander_at[C]) == (1, "")
    assert offered(table.state, "recruit", "commander") == (True,)
    assert "all the CSA pool holds" in table.refuse("BS-REC", "recruit", area=C_HOMES[0], commander=False).message
    step = table.do("recruit", 6, area=C_HOMES[0], **chosen)
    state = table.state
    assert state.commander_at[C] == C_HOMES[0] and state.pool(C) == 0 and "(the commander unit)" in step.summary


@pytest.mark.rule("BS-REC", "BS-D.10")
def test_with_other_units_in_the_pool_the_player_chooses():
    """BS-REC: with ordinary units in the pool too, the commander unit is placed only when the player says so."""
    table = recruit_table()
    table.do("recruit", 6, area=C_HOMES[0])
    assert table.state.commander_at[C] == "" and table.state.count(C_HOMES[0], C) == 1


@pytest.mark.rule("BS-D.3", "BS-REC")
def test_units_above_a_cut_force_stay_through_the_round_and_only_recruiting_stops():
    """BS-D.3: with the marker two squares toward the Union (force 9 on the example board) the Union's 10 units
    stay on the board through supply, recruitment and into the next round, where they move as ever; only its
    recruitment is blocked. Once losses bring it below 9 it recruits again, up to 9."""
    units = {WV: (0, 3), MD: (0, 3), KY: (0, 3), MO: (0, 1), VA: (1, 0), **{h: (1, 0) for h in C_HOMES}}
    table = at(SUPPLY, units, first=U, damage=2, supply={C: 0, U: 0})
    assert table.state.max_force(U) == 9 and table.state.on_board(U) == 10
    table.do("supply")
    assert table.state.phase == DRAW and table.state.on_board(U) == 10 and table.state.round == 2
    table.to_actions(first=U, faces=(1, 6))
    table.do("move", source=MO, target="Union home 4")
    assert table.state.on_board(U) == 10
    below = at(RECRUIT, {**units, WV: (0, 1)}, first=U, turn=U, damage=2)
    assert below.state.on_board(U) == 8
    while below.state.phase == RECRUIT and below.state.turn == U:
        below.do("recruit", 6)
    assert below.state.on_board(U) == 9


@pytest.mark.rule("BS-REC")
def test_the_first_player_recruits_fully_then_the_other():
    """BS-REC: the first player rolls for every empty home state (here the Union, first), then the other."""
    units = {WV: (0, 2), VA: (2, 0), **{h: (1, 0) for h in C_HOMES[:3]}, **{h: (0, 1) for h in U_HOMES[:4]}}
    table = recruit_table(units, first=U)
    order = []
    while table.state.phase == RECRUIT:
        order.append(table.state.turn)
        table.do("recruit", 1)
    assert "".join(order) == "UUCC" and table.state.round == 2


@pytest.mark.rule("BS-REC", "BS-D.3")
def test_a_side_at_max_force_does_nothing():
    """BS-REC: a side with its units on the board at max force already does nothing; the other side recruits."""
    units = {VA: (3, 0), NC: (3, 0), TN: (3, 0), AR: (1, 0), WV: (0, 1)}
    table = at(SUPPLY, units, first=C)
    table.do("supply")
    assert table.state.phase == RECRUIT and table.state.turn == U


@pytest.mark.rule("BS-D.3")
def test_a_lower_max_force_removes_nothing_and_blocks_recruiting():
    """BS-D.3: the damage marker two squares toward the Union cuts its force to 9 (example board); its 10 units
    stay on the board, and it recruits none."""
    units = {WV: (0, 3), MD: (0, 3), KY: (0, 3), MO: (0, 1), VA: (1, 0)}
    table = at(SUPPLY, units, first=U, damage=2)
    assert table.state.max_force(U) == 9
    table.do("supply")
    assert table.state.on_board(U) == 10 and table.state.turn == C


@pytest.mark.rule("BS-REC", "BS-D.11")
def test_an_empty_pool_ends_recruiting():
    """BS-REC: with no unit left in the pool the side stops (the example board's CSA has 12 pieces)."""
    units = {VA: (3, 0), NC: (3, 0), TN: (2, 0), C_HOMES[4]: (1, 0), WV: (0, 1), **{h: (0, 1) for h in U_HOMES}}
    table = recruit_table(units, lost={C: 2, U: 0})
    assert table.state.pool(C) == 1
    table.do("recruit", 6)
    assert table.state.pool(C) == 0 and table.state.phase == DRAW


@pytest.mark.rule("BS-REC")
def test_recruiting_belongs_to_its_phase():
    table = at(VICTORY, {VA: (1, 0)})
    table.refuse("BS-REC", "recruit", 6, area=C_HOMES[0])
