"""Fire (DX-7.0-7.3), leader hits (DX-11.3) and the sidebar of the source (digest vectors 3, 5, 7, 9, 11-13, 17,
20)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from companion.odds import fractions, p_at_least, p_where
from engines.dixie.combat_step import allocate_hits
from engines.dixie.advice import fire_advice
from engines.dixie.fire import FireInput, Volley, fire_odds, resolve_fire
from engines.dixie import fire_effect
from engines.dixie.fire_effect import FireEffectInput, TargetCard, allocation, fire_effect_odds
from engines.dixie.firepower import able_firers, firepower, firing_options
from engines.dixie.hits import levelled, place
from engines.dixie.leaders import LeaderCheckInput, death_by_fire, leader_check_odds
from engines.dixie.stacking import unit_limit
from engines.dixie.terrain import terrain_terms
from tests.engines.dixie.support import advanced, leader, sidebar, unit


@pytest.mark.rule("DX-7.1", "DX-7.2")
def test_vector_03_three_dice_at_f2():
    """Vector 3 (DX-7.1/7.2): a 3CV infantry at F2 rolls [2, 4, 5]: 1 hit."""
    assert resolve_fire(FireInput(((3, 2),)), ScriptedDice([2, 4, 5])).outcome == Volley(1, 0)
    table = sidebar()
    step = table.do("fire", 2, 4, 5, firers=["USA-24"], target="USA-C")
    assert table.state.tasks[0].hits == 1 and "3d at F2 rolled 2 4 5: 1 hit" in step.summary


@pytest.mark.rule("DX-7.1")
def test_vector_11_four_dice_at_f2():
    """Vector 11: four dice at F2: P(at least 1 hit) = 1 - (4/6)^4 = 65/81."""
    hits = fire_odds(FireInput(((4, 2),))).map(lambda v: v.hits)
    assert p_at_least(hits, 1) == F(65, 81)


@pytest.mark.rule("DX-7.2", "DX-11.1a", "DX-8.1", "DX-13.2")
def test_vector_07_sidebar_usa_turn():
    """Vector 7, USA turn: USA-R (3 INF, no enemy) cannot fire but may enfilade USA-C at F1; in USA-C the CSA
    limit is 3 (terrain), the USA fires INF F2, CAV F3 (defending), ART short F2."""
    table = sidebar()
    state = table.state
    table.refuse("DX-7.2", "fire", firers=["USA-21"], target="USA-R")
    table.refuse("DX-7.2", "fire", firers=["USA-21"], target="CSA-L")
    assert unit_limit(state, "CSA", "USA-C") == 3
    assert [firepower(state, table.card(c), "short") for c in ("USA-24", "USA-25", "USA-26")] == [2, 3, 2]
    assert firepower(state, table.card("USA-21"), "enfilade") == 1
    table.do("fire", 1, 1, 1, firers=["USA-21"], target="USA-C")
    assert table.state.tasks[0].side == "CSA"


@pytest.mark.rule("DX-7.2", "DX-10.3", "DX-4.0")
def test_vector_07_sidebar_usa_l_is_held_by_the_csa():
    """Vector 7: USA-L with 4 CSA cards (3 units + a leader) is held by the CSA, which gets the USA terrain's
    benefit; USA reserve cards may advance in; the CSA there cannot fire except by enfilade; CSA-R infantry
    cannot move in because it is full. One enemy position is not yet a win."""
    table = sidebar()
    state = table.state
    assert state.holder["USA-L"] == "CSA" and state.victory is None
    assert terrain_terms(state, "CSA", "USA-L", "morale") == [("TerU28", 1)]
    assert terrain_terms(state, "USA", "USA-L", "morale") == []
    table.to_step("movement")
    step = table.do("move", card="USA-29", to="USA-L")
    assert "advances" in step.summary and step.rules[:2] == ("DX-8.0", "DX-8.1")
    table.next_turn()
    table.to_step("combat")
    table.refuse("DX-13.2", "fire", firers=["CSA-11"], target="USA-C")   # USA-L now holds an enemy card


@pytest.mark.rule("DX-7.2", "DX-3.1", "DX-11.1a")
def test_vector_07_sidebar_csa_turn():
    """Vector 7, CSA turn: CSA-L's artillery fires long range at USA-R at each card's long F; in USA-C the CSA
    fires INF F2 and CAV F1 (attacking); CSA-C cannot fire (long range into an engaged position is barred); the
    CSA in USA-L fires only by enfilade; CSA-R infantry cannot move into the full USA-L."""
    table = sidebar()
    table.next_turn()
    table.to_step("combat")
    state = table.state
    assert [firepower(state, table.card(c), "long") for c in ("CSA-1", "CSA-2")] == [1, 2]
    assert [firepower(state, table.card(c), "short") for c in ("CSA-5", "CSA-7")] == [2, 1]
    table.refuse("DX-7.2", "fire", firers=["CSA-10"], target="USA-C")
    table.refuse("DX-7.2", "fire", firers=["CSA-9"], target="CSA-C")
    table.refuse("DX-7.2", "fire", firers=["CSA-11"], target="USA-L")
    assert firepower(state, table.card("CSA-11"), "enfilade") == 2
    table.do("fire", 6, 6, 6, 6, 6, firers=["CSA-1", "CSA-2"], target="USA-R")
    table.to_step("movement")
    table.do("move", card="CSA-15", to="USA-L")
    assert "USA-L" in table.refuse("DX-3.1", "end_movement").message


@pytest.mark.rule("DX-7.2")
def test_vector_17_long_range_no_hit():
    """Vector 17: ART 3CV (F1) + ART 2CV (F2) fire at USA-R: P(0 hits) = (5/6)^3 (4/6)^2 = 125/486."""
    table = sidebar()
    table.next_turn()
    table.to_step("combat")
    advice = fire_advice(table.state, ["CSA-1", "CSA-2"], "USA-R")
    assert advice.kind == "long"
    assert fractions(advice.hits)[0] == F(125, 486)


@pytest.mark.rule("DX-13.5", "DX-7.2")
def test_artillery_support_opens_long_range_into_engaged_positions():
    """Vector 7: CSA-C cannot fire unless 13.5 is used; with it, its artillery supports into USA-C."""
    table = sidebar(artillery_support=True)
    table.next_turn()
    table.to_step("combat")
    assert fire_advice(table.state, ["CSA-10"], "USA-C").kind == "support"


@pytest.mark.rule("DX-13.2")
def test_vector_09_enfilade():
    """Vector 9 (DX-13.2): engaged USA-C cannot enfilade; USA-R enfilades USA-C at F1; the CSA in USA-L at F2;
    a USA advance into USA-L stops the F2 enfilade; a CSA advance from CSA-L into USA-R stops the F1 one."""
    table = sidebar()
    table.refuse("DX-13.2", "fire", firers=["USA-24"], target="USA-R")
    assert fire_advice(table.state, ["USA-21"], "USA-C").kind == "enfilade"
    table.to_step("movement")
    table.do("move", card="USA-29", to="USA-L")
    table.next_turn()
    table.to_step("combat")
    table.refuse("DX-13.2", "fire", firers=["CSA-11"], target="USA-C")
    table.to_step("movement")
    table.do("move", card="CSA-3", to="USA-R")
    table.next_turn()
    table.to_step("combat")
    table.refuse("DX-13.2", "fire", firers=["USA-21"], target="USA-C")

    other = sidebar()
    other.next_turn()
    other.to_step("combat")
    step = other.do("fire", 1, 2, 3, firers=["CSA-11"], target="USA-C")
    assert "F2" in step.summary and other.state.tasks[0].hits == 2


@pytest.mark.rule("DX-7.0")
def test_a_card_that_fired_may_not_move_and_fires_once():
    """DX-7.0: a firing card is turned face-up, may not move this turn, and fires once."""
    table = sidebar()
    table.do("fire", 3, 4, 5, firers=["USA-24"], target="USA-C")
    assert table.card("USA-24").face_up and table.card("USA-24").fired
    table.refuse("DX-7.0", "fire", 1, 1, 1, firers=["USA-24"], target="USA-C")
    table.to_step("movement")
    table.refuse("DX-7.0", "move", card="USA-24", to="reserve")


@pytest.mark.rule("DX-7.0")
def test_finish_one_position_before_the_next():
    """DX-7.0 (A20): fire at one target position is finished before fire at another starts; by option the firing
    position counts instead."""
    table = sidebar()
    table.next_turn()
    table.to_step("combat")
    table.do("fire", 5, 5, 5, firers=["CSA-1"], target="USA-R")
    table.do("fire", 5, 5, 5, firers=["CSA-5"], target="USA-C")
    table.refuse("DX-7.0", "fire", 5, 5, firers=["CSA-2"], target="USA-R")
    by_firer = sidebar(combat_order_by="firer")
    by_firer.next_turn()
    by_firer.to_step("combat")
    by_firer.do("fire", 5, 5, 5, firers=["CSA-1"], target="USA-R")
    by_firer.do("fire", 5, 5, 5, firers=["CSA-5"], target="USA-C")
    by_firer.refuse("DX-7.0", "fire", 5, 5, firers=["CSA-2"], target="USA-R")
    by_firer.do("fire", 5, 5, 5, firers=["CSA-6"], target="USA-C")


def xy_table(**options):
    """X (1CV B) and Y (3CV A) advanced into USA-R; in turn 2 one of the three USA units there has fired 3 hits."""
    cards = [unit(1, "CSA", cv=1, morale="B"), unit(2, "CSA", cv=3, morale="A"), unit(11, "USA", cv=3),
             unit(12, "USA", cv=3), leader(13, "USA", 1, 1), unit(14, "USA", cv=3)]
    table = advanced(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R",
                             "USA-13": "USA-R", "USA-14": "USA-R"}, ["CSA-1", "CSA-2"], **options)
    table.to_step("combat")
    table.do("fire", 1, 2, 2, firers=["USA-11"], target="USA-R")
    return table


@pytest.mark.rule("DX-7.3")
def test_vector_13_levelling():
    """Vector 13 (DX-7.3): 3 hits on X (1CV B) and Y (3CV A): one each, then the owner puts the 3rd on Y (X = 1,
    Y = 2); P(both survive) = (1/6)(4/6)^2 = 2/27. A 3rd hit on X is legal and destroys it; all on Y is not."""
    pool = ((1, 0), (3, 0))
    assert set(levelled(pool, 3)) == {(1, 2), (2, 1)}
    assert place(pool, [1, 1, 1]) is None and place(pool, [0, 1, 0]) == (2, 1)
    table = xy_table()
    table.refuse("DX-7.3", "allocate_hits", cards=["CSA-2", "CSA-2", "CSA-2"])
    table.refuse("DX-7.3", "allocate_hits", cards=["CSA-2", "CSA-2"])
    table.do("allocate_hits")
    assert (table.card("CSA-1").hits, table.card("CSA-2").hits) == (1, 2)
    effect = fire_effect_odds(FireEffectInput(FireInput(()), (TargetCard(1, 1, 1, hits=1), TargetCard(3, 4, 4, 2))))
    assert fractions(effect)[min(fractions(effect))] == F(2, 27)
    other = xy_table()
    other.do("allocate_hits", cards=["CSA-1", "CSA-2", "CSA-1"])
    assert other.card("CSA-1").loc == "eliminated" and other.card("CSA-2").hits == 1


@pytest.mark.rule("DX-7.3")
def test_hits_already_taken_count_and_extra_hits_are_lost():
    """DX-7.3: hits taken earlier in the turn count for levelling; a card past its CV is destroyed at once and
    drops out; hits no card can take are lost; hit cards are turned face-up."""
    table = xy_table()
    table.do("allocate_hits", cards=["CSA-1", "CSA-2", "CSA-2"])
    assert table.card("CSA-1").face_up
    table.do("fire", 1, 1, 1, 1, 1, 1, firers=["USA-12", "USA-14"], target="USA-R")
    table.refuse("DX-7.3", "allocate_hits", cards=["CSA-2", "CSA-2", "CSA-2"])
    table.refuse("DX-7.3", "allocate_hits", cards=["CSA-1", "CSA-2", "CSA-2", "CSA-2"])
    step = table.do("allocate_hits", cards=["CSA-1", "CSA-2", "CSA-2"])
    assert table.card("CSA-1").loc == "eliminated" and table.card("CSA-2").loc == "eliminated"
    assert "3 lost" in step.summary


@pytest.mark.rule("DX-7.3", "DX-6.0")
def test_vector_12_fire_at_a_lone_2b_card():
    """Vector 12: 3CV at F2 on a lone 2B card: hits 0-3 with 8/27, 4/9, 2/9, 1/27; P(card lost) = 8/27 + 16/81 +
    1/27 = 43/81."""
    hits = fire_odds(FireInput(((3, 2),))).map(lambda v: v.hits)
    assert fractions(hits) == {0: F(8, 27), 1: F(4, 9), 2: F(2, 9), 3: F(1, 27)}
    effect = fire_effect_odds(FireEffectInput(FireInput(((3, 2),)), (TargetCard(2, 2, 2),)))
    assert p_where(effect, lambda e: e.units_lost == 1) == F(43, 81)
    table = advanced([unit(1, "CSA", cv=2, morale="B"), unit(11, "USA", cv=3)],
                     {"CSA-1": "CSA-L", "USA-11": "USA-R"}, ["CSA-1"])
    table.to_step("combat")
    assert fire_advice(table.state, ["USA-11"], "USA-R").card_lost == F(43, 81)


@pytest.mark.rule("DX-11.3")
def test_vector_05_and_20_leader_death():
    """Vector 5 (DX-11.3): 3 leader hits, P(killed) = 1 - (5/6)^3 = 91/216. Vector 20: under 6 dice of fire
    P(killed) = 1 - (35/36)^6 (about 0.1555)."""
    assert fractions(leader_check_odds(LeaderCheckInput(3)))["killed"] == F(91, 216)
    assert death_by_fire(6) == 1 - F(35, 36) ** 6 and round(float(death_by_fire(6)), 4) == 0.1555
    effect = fire_effect_odds(FireEffectInput(FireInput(((6, 2),)), (TargetCard(4, 9, 9),), leader=True))
    assert p_where(effect, lambda e: e.leader_killed) == 1 - F(35, 36) ** 6


@pytest.mark.rule("DX-11.3")
def test_natural_sixes_hit_the_enemy_leader():
    """DX-11.3: every natural 6 of enemy fire into a leader's position gives it a hit, checked in its side's next
    morale step."""
    table = xy_table()
    table.do("allocate_hits")
    table.do("fire", 6, 6, 3, firers=["USA-12"], target="USA-R")
    assert table.card("USA-13").hits == 0       # the USA fires: its own leader takes nothing
    cards = [unit(1, "CSA"), leader(2, "CSA"), unit(11, "USA"), unit(12, "USA")]
    hit = advanced(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"},
                   ["CSA-1", "CSA-2"])
    hit.to_step("combat")
    hit.do("fire", 6, 5, 6, firers=["USA-11"], target="USA-R")
    assert hit.card("CSA-2").hits == 2 and not hit.state.tasks


@pytest.mark.rule("DX-11.3")
def test_a_leader_alone_among_enemy_units_is_killed_at_once():
    """DX-11.3 note: a leader cannot hold a position alone: alone with enemy units it is killed at once."""
    cards = [unit(1, "CSA"), leader(2, "CSA"), unit(11, "USA")]
    table = advanced(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "USA-11": "USA-R"}, [])
    table.next_turn()
    table.to_step("movement")
    table.do("move", card="CSA-2", to="USA-R")
    assert table.card("CSA-2").loc == "eliminated"


@pytest.mark.rule("DX-7.2", "DX-7.0")
def test_vector_07_who_may_fire_at_what():
    """Vector 7, CSA turn: the step guide's firing options. CSA-L's two batteries (not its infantry) fire long range
    at USA-R; the CSA in USA-C fires there; CSA-C has no target (USA-C across it is engaged, 13.5 off); the CSA in
    USA-L may enfilade only with 13.2, and is engaged with nothing."""
    table = sidebar()
    table.next_turn()
    table.to_step("combat")
    state = table.state
    assert sorted(firing_options(state)) == [("CSA-L", "USA-R", "long"), ("USA-C", "USA-C", "short"),
                                             ("USA-L", "USA-C", "enfilade")]
    assert [c.id for c in able_firers(state, "CSA-L", "USA-R")] == ["CSA-1", "CSA-2"]
    assert [c.id for c in able_firers(state, "USA-C", "USA-C")] == ["CSA-5", "CSA-6", "CSA-7"]
    assert able_firers(state, "CSA-C", "USA-C") == [] and able_firers(state, "CSA-R", "CSA-C") == []
    table.do("fire", 6, 6, 6, 6, 6, firers=["CSA-1", "CSA-2"], target="USA-R")
    assert ("CSA-L", "USA-R", "long") not in firing_options(table.state)


@pytest.mark.rule("DX-7.3")
def test_the_owner_placing_is_what_its_text_says():
    """DX-7.3 / digest section 8: the companion places hits first for the smallest chance of losing any card, then
    for the fewest cards lost on average, and every text that describes the placing says so. Where the two differ:
    3 hits on two 2CV cards of morale 4 (holds a check with 2/3) and 1 (1/6); after one hit each, the third on the
    morale-4 card keeps P(no card lost) = (2/3)^2 (1/6) = 2/27 against (2/3)(1/6)^2 = 1/54, though on average it
    loses more cards: 5/9 + 5/6 = 25/18 against 1/3 + 35/36 = 47/36."""
    strong, weak = TargetCard(2, 4, 4), TargetCard(2, 1, 1)
    hold = {4: F(2, 3), 1: F(1, 6)}
    placings = levelled(((2, 0), (2, 0)), 3)
    none_lost = {p: hold[4] ** p[0] * hold[1] ** p[1] for p in placings}
    average = {p: (1 - hold[4] ** p[0]) + (1 - hold[1] ** p[1]) for p in placings}
    assert none_lost == {(2, 1): F(2, 27), (1, 2): F(1, 54)} and average == {(2, 1): F(25, 18), (1, 2): F(47, 36)}
    assert allocation(FireEffectInput(FireInput(()), (strong, weak)), Volley(3, 0)) == (2, 1)
    said = "smallest chance of losing any card, then the fewest cards lost on average"
    assert fire_effect.OWNER_PLACING == f"for the {said}" and said in " ".join(allocate_hits.__doc__.split())
