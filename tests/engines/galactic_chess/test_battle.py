"""The sortie and the battle at the table (GC-6B.x, GC-7.33): allocation round the table, the SC, the first
defender, the engagement order and its roll-off, duels with their strike back, retreats with their free
attack, the fortress, VP and the annihilation bonus. Cards are invented stand-ins: where the digest's example
names a person, the stand-in only plays that role."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engines.galactic_chess.battle import (
    ACTED,
    ATTACKER,
    DEFENDER,
    DESTROYED,
    ESCAPED,
    FLEET,
    FORTRESS,
    GROUND,
    NONE,
    READY,
    RETREATED,
    BattleRules,
    Field,
    bonus,
    opportunity,
    retreat_threshold,
    settle_sc,
    start,
    with_rolloff,
)
from engines.galactic_chess.sortie import FORTRESS_NAME
from engines.galactic_chess.state import BATTLE, END
from tests.engines.galactic_chess.support import Table, event, person, setup, unit

# --- E1 / E2: allocation round the table and the SC -------------------------------------------------------

E1_CARDS = (  # E1's roles: U = Uranff, P = Pastolle, Q = Paetta (all 2 stars), S = Schonkopf (ground unit)
    person("Fleet U", "FPA", 2, 4, 2, 8), person("Fleet Q", "FPA", 2, 3, 2, 8),
    person("Fleet P", "FPA", 2, 4, 2, 8), person("Ground S", "FPA", 0, 3, 3, 7, fights=True),
    person("Emp E1", "EMP", 2, 4, 2, 8), person("Emp E2", "EMP", 1, 3, 1, 7),
)
E1_HANDS = {"Ann": ["Fleet U", "Fleet Q"], "Ben": ["Fleet P", "Ground S"], "Cat": ["Emp E1", "Emp E2"]}


def e1_sortie(order: int = 5) -> Table:
    """Ann's turn 1: FPA attacks EMP with up to 3 fleets (a 5 on the order roll)."""
    table = Table(setup(E1_CARDS))
    table.start(E1_HANDS)
    table.do("roll_order", order)
    table.do("sortie", camp="FPA", defender="EMP")
    return table


@pytest.mark.rule("GC-6B.12", "GC-6B.13", "GC-6B")
def test_vector_e1_allocation_round_the_table():
    """E1 (GC-6B.12/13): size 3, A declares U; B declares P + S (ground); C has no FPA admiral and is skipped; A
    must declare again: Q. Fleets U, P, Q = 3, units 4; after B the count is 2, so allocation goes on. S never
    counts toward the size and never sorties without a fleet."""
    table = e1_sortie()
    assert table.state.sortie.declarer == 0
    table.do("declare", fleets=["Fleet U"])
    alone = table.refuse("GC-6B.12", "declare", others=["Ground S"])          # GC-6B.13: never without a fleet
    assert "air/ground units never sortie alone" in alone.message
    table.do("declare", fleets=["Fleet P"], others=["Ground S"])
    s = table.state.sortie
    assert s.declarer == 0 and sum(u.kind == FLEET for u in s.units) == 2   # Cat skipped: Ann again
    table.do("declare", fleets=["Fleet Q"])
    s = table.state.sortie
    assert [u.name for u in s.units if u.kind == FLEET] == ["Fleet U", "Fleet P", "Fleet Q"] and len(s.units) == 4
    assert s.stage == "nominate"
    assert s.units[s.field.sc[ATTACKER]].name == "Fleet U"   # E2: all 2 stars, the earliest declaration


@pytest.mark.rule("GC-6B.12")
def test_a_player_must_declare_and_may_not_exceed_the_size():
    """GC-6B.12 (Q7): the player whose turn it is declares at least one fleet, never beyond the size left; only
    that player's available fleets of the camp."""
    table = e1_sortie(order=4)   # 2 fleets
    table.refuse("GC-6B.12", "declare")
    table.refuse("GC-6B.12", "declare", fleets=["Fleet P"])          # Ben's fleet, Ann's turn
    table.refuse("GC-6B.12", "declare", fleets=["Emp E1"])           # not of the attacking camp
    table.do("declare", fleets=["Fleet U"])
    table.do("declare", fleets=["Fleet P"])
    assert table.state.sortie.stage == "nominate"                    # the size is reached: Ann is not asked again


@pytest.mark.rule("GC-6B.2")
def test_vector_e2_equal_stars_in_one_declaration_the_owner_chooses():
    """E2 (GC-6B.2): U and Q declared together, both 2 stars: A chooses the SC; nothing goes on until then."""
    table = e1_sortie()
    table.do("declare", fleets=["Fleet U", "Fleet Q"])
    table.do("declare", fleets=["Fleet P"])
    assert table.state.sortie.field.sc[ATTACKER] == NONE
    table.refuse("GC-6B.2", "nominate", player="Cat")
    table.refuse("GC-6B.2", "choose_sc", unit="Fleet P")
    table.do("choose_sc", unit="Fleet Q")
    s = table.state.sortie
    assert s.units[s.field.sc[ATTACKER]].name == "Fleet Q"


# --- E4: the play example ------------------------------------------------------------------------

E4_CARDS = (  # stand-ins for the play example's persons (their values are not published)
    person("PL2 SC", "EMP", 3, 3, 1, 9), person("PL2 Fleet", "EMP", 2, 7, 1, 9),
    person("PL2 Reinhard", "EMP", 2, 8, 5, 10, role="reinhard"), person("PL2 Ground", "EMP", 0, 5, 4, 8, fights=True),
    person("PL1 SC", "FPA", 3, 6, 1, 9), person("PL1 Fleet", "FPA", 2, 2, 1, 9), person("PL3 Fleet", "FPA", 2, 4, 1, 8),
)


@pytest.mark.rule("GC-6B.5", "GC-6B.7", "GC-5", "GC-6B.11", "GC-6B.3")
def test_vector_e4_play_example():
    """E4: turn 1 raw 3: size 1, not forced. PL2 rolls a raw 6: forced, size 3; PL2 alone declares SC, two fleets
    (one Reinhard) and a ground unit: legal. Defenders: SC, two fleets of two owners. Reinhard destroys PL3's
    fleet; the next fleet misses; the defending SC engages the ground unit and dies to its return strike: PL2's
    EMP VP +2 (a ground unit scores for killing an admiral)."""
    table = Table(setup(E4_CARDS))
    table.start({"Ann": ["PL1 SC", "PL1 Fleet"], "Ben": ["PL2 SC", "PL2 Fleet", "PL2 Reinhard", "PL2 Ground"],
                 "Cat": ["PL3 Fleet"]})
    step = table.do("roll_order", 3)
    assert (table.state.order.size, table.state.order.forced) == ("1", False) and "1 fleet" in step.summary
    table.draw_filler()
    table.do("end_action")
    table.do("end_turn")
    table.do("roll_order", 6)
    assert table.state.order.forced and table.state.order.size == "3"
    table.refuse("GC-5", "draw")
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["PL2 SC", "PL2 Fleet", "PL2 Reinhard"], others=["PL2 Ground"])
    s = table.state.sortie
    assert s.units[s.field.sc[ATTACKER]].name == "PL2 SC"
    table.do("nominate", player="Ann")
    table.do("declare", fleets=["PL1 SC", "PL1 Fleet"])
    table.do("declare", fleets=["PL3 Fleet"])
    table.do("engage", 6, 6, actor="PL2 Reinhard", target="PL3 Fleet")
    assert table.status("PL3 Fleet") == DESTROYED and table.state.vp_of("Ben", "EMP") == 1
    table.do("engage", 1, 1, actor="PL2 Fleet", target="PL1 Fleet")
    table.do("strike_back", 1, 1)
    table.do("engage", 1, 1, actor="PL1 SC", target="PL2 Ground")
    table.do("strike_back", 6, 6)
    assert table.status("PL1 SC") == DESTROYED
    assert table.state.vp_of("Ben", "EMP") == 2 and table.state.vp_of("Ann", "FPA") == 0


# --- GC-6B.3 / GC-7.4 / GC-7.33 the first defender, the corridor and the fortress ------------------------

FORT_CARDS = (
    person("Commander C", "EMP", 2, 4, 2, 8, role="stockhausen"), person("Emp Fleet", "EMP", 2, 5, 2, 9),
    person("Emp Two", "EMP", 1, 3, 1, 7), person("Fpa Marshal", "FPA", 3, 7, 4, 10),
    person("Fpa Admiral", "FPA", 2, 5, 2, 9),
)
FORT_HANDS = {"Ann": ["Commander C", "Emp Two"], "Ben": ["Emp Fleet"], "Cat": ["Fpa Marshal", "Fpa Admiral"]}


def fortress_table(order: int = 4, **options) -> Table:
    """Commander C (Stockhausen's role) commands Iserlohn for the Empire; Ann's turn."""
    table = Table(setup(FORT_CARDS), **options)
    table.start(FORT_HANDS)
    table.do("roll_order", order)
    return table


@pytest.mark.rule("GC-7.4", "GC-6B.12")
def test_the_commander_stays_home_when_his_camp_attacks():
    """GC-7.4 (7.31): with the corridor rule on, the commander and garrison cannot sortie for the attacking camp
    that holds Iserlohn."""
    table = fortress_table()
    assert table.state.fortress.commander == "Commander C"
    table.do("sortie", camp="EMP", defender="FPA")
    table.refuse("GC-6B.12", "declare", fleets=["Commander C"])
    table.do("declare", fleets=["Emp Two"])


def fpa_attacks(table: Table) -> None:
    """Cat's FPA attacks: Cat is the active player on turn 3."""
    for _ in range(2):
        table.draw_filler()
        table.do("end_action")
        table.do("end_turn")
        table.do("roll_order", 4)
    table.do("sortie", camp="FPA", defender="EMP")


@pytest.mark.rule("GC-6B.3", "GC-7.33", "GC-7.4")
def test_the_first_defender_holds_the_commander_and_the_fortress_joins_as_a_fleet():
    """GC-6B.3 (7.32): the defending camp holds Iserlohn with the corridor rule on: the attacker SC's owner must
    name the commander's player; in that player's first declaration the fortress may come as a fleet (Q10: it
    counts toward the size), alone or with commander/garrison fleets only."""
    table = fortress_table()
    fpa_attacks(table)
    table.do("declare", fleets=["Fpa Marshal", "Fpa Admiral"])
    table.refuse("GC-6B.3", "nominate", player="Ben")
    table.do("nominate", player="Ann")                                   # only Ann may be named
    assert table.state.sortie.first_defender == 0
    table.refuse("GC-6B.3", "declare", fleets=["Emp Two"], fortress=True)
    table.do("declare", fortress=True)
    s = table.state.sortie
    assert s.units[-1].kind == FORTRESS and s.declarer == 1   # 1 of 2 fleets: Ben declares next
    table.do("declare", fleets=["Emp Fleet"])
    assert table.state.sortie.stage == "fight"
    assert table.state.sortie.deemed == 1                   # the commander stayed home


@pytest.mark.rule("GC-7.33", "GC-7.35", "GC-6B.7")
def test_the_fortress_only_strikes_back_and_falls_to_the_destroyers_camp():
    """GC-7.33: the fortress has no opportunity of its own and strikes back when targeted; GC-7.35: destroyed,
    Iserlohn passes to the destroyer's camp at once, the post vacant, and the commander who did not sortie is
    deemed destroyed: the destroyer's clique scores 1 + 1 (GC-6B.7)."""
    table = fortress_table()
    fpa_attacks(table)
    table.do("declare", fleets=["Fpa Marshal", "Fpa Admiral"])
    table.do("nominate", player="Ann")
    table.do("declare", fortress=True)
    table.do("declare", fleets=["Emp Fleet"])
    s = table.state.sortie
    assert table.unit(FORTRESS_NAME) not in opportunity(s.units, s.field, BattleRules()).actors
    table.do("engage", 1, 1, actor="Fpa Marshal", target=FORTRESS_NAME)   # S7 > S4: the Marshal strikes first
    table.do("strike_back", 1, 1)                                       # the fortress strikes back, misses
    assert table.status(FORTRESS_NAME) == READY
    step = table.do("engage", 6, 6, actor="Fpa Admiral", target=FORTRESS_NAME)
    assert "GC-7.35" in step.rules
    state = table.state
    assert state.fortress.controller == "FPA" and state.fortress.commander == "" and state.fortress.garrison == ()
    assert "Commander C" in state.destroyed and state.placed("Commander C") is None
    assert state.vp_of("Cat", "FPA") == 2


@pytest.mark.rule("GC-7.33", "GC-9.11")
def test_only_a_unit_facing_nothing_but_the_fortress_may_pass():
    """GC-7.33: facing only the fortress, a unit may end its opportunity doing nothing; no other unit may pass
    (the stand-in for Stockhausen is Alliance here, so the Imperial post stays vacant and no fortress fights)."""
    cards = (person("Cmdr", "FPA", 2, 4, 2, 8, role="stockhausen"), person("Red R", "EMP", 2, 8, 3, 9, role="reinhard"),
             person("Emp Other", "EMP", 2, 2, 2, 8), person("Fpa Two", "FPA", 2, 3, 2, 8))
    table = Table(setup(cards))
    table.start({"Ann": ["Red R", "Emp Other"], "Ben": ["Cmdr", "Fpa Two"]})
    assert table.state.fortress.commander == ""   # the stand-in is Alliance: Stockhausen's post is Imperial
    table.do("roll_order", 2)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Red R"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Cmdr"])
    table.refuse("GC-7.33", "pass_opportunity", actor="Red R")
    table.do("engage", 6, 6, actor="Red R", target="Cmdr")
    assert table.state.phase == END


@pytest.mark.rule("GC-7.34", "GC-7.33")
def test_reinhard_facing_only_the_fortress():
    """GC-7.34: Reinhard may not pick the fortress; GC-7.33: with only the fortress left on the enemy side, he
    may pass."""
    units = (unit("R", ATTACKER, 2, 8, 3, 9, reinhard=True), unit("Fort", DEFENDER, 0, 4, 4, 11, kind=FORTRESS))
    from engines.galactic_chess.battle import may_pass, targets
    field = start(units)
    assert targets(units, field.status, 0) == () and may_pass(units, field.status, 0)
    other = (unit("S", ATTACKER, 2, 8, 3, 9), units[1])
    assert targets(other, field.status, 0) == (1,) and may_pass(other, field.status, 0)


@pytest.mark.rule("GC-7.34")
def test_reinhard_may_not_engage_the_fortress_at_the_table():
    """GC-7.34 (Reinhard's own rule): his engagement of the fortress is refused naming GC-7.34; another unit may
    engage it."""
    cards = FORT_CARDS + (person("Fpa Red", "FPA", 2, 8, 3, 9, role="reinhard"),)
    table = Table(setup(cards))
    table.start({**FORT_HANDS, "Cat": ["Fpa Marshal", "Fpa Red"]})
    table.do("roll_order", 4)
    fpa_attacks(table)
    table.do("declare", fleets=["Fpa Marshal", "Fpa Red"])
    table.do("nominate", player="Ann")
    table.do("declare", fortress=True)
    table.do("declare", fleets=["Emp Fleet"])
    table.refuse("GC-7.34", "engage", actor="Fpa Red", target=FORTRESS_NAME)
    table.do("engage", 1, 1, actor="Fpa Red", target="Emp Fleet")


# --- GC-6B.4 the engagement order, GC-6B.4r the roll-off ------------------------------------------------

@pytest.mark.rule("GC-6B.4", "GC-6B.4r")
def test_vector_v8_tie_order():
    """V8 (GC-6B.4): SC_A S6, SC_B S5, A2 and B2 both S4: A's SC interleaves; with A's SC gone the new SC_A has
    S4 < 5: B's SC decides; with SC_B also S4: roll-off (GC-6B.4r), whose winner then decides."""
    units = (unit("SC_A", ATTACKER, 3, 6, 2, 9, 0), unit("A2", ATTACKER, 2, 4, 2, 8, 1),
             unit("SC_B", DEFENDER, 3, 5, 2, 9, 0), unit("B2", DEFENDER, 2, 4, 2, 8, 1),
             unit("B3", DEFENDER, 2, 4, 2, 8, 2))
    rules = BattleRules()
    field = Field((ACTED, READY, ACTED, READY, READY), (0, 2))
    opp = opportunity(units, field, rules)
    assert (set(opp.actors), opp.decider, opp.roll_off) == ({1, 3, 4}, ATTACKER, False)
    gone, _ = settle_sc(units, Field((DESTROYED, READY, ACTED, READY, READY), (0, 2)), rules)
    assert gone.sc == (1, 2) and opportunity(units, gone, rules).decider == DEFENDER
    both, _ = settle_sc(units, Field((DESTROYED, READY, DESTROYED, READY, READY), (0, 2)), rules)
    assert both.sc == (1, 3) and opportunity(units, both, rules).roll_off
    assert opportunity(units, with_rolloff(both, DEFENDER, 4), rules).decider == DEFENDER
    one_side = opportunity(units, Field((ACTED, ACTED, ACTED, READY, READY), (0, 2)), rules)
    assert (one_side.actors, one_side.decider, one_side.roll_off) == ((3, 4), None, False)


@pytest.mark.rule("GC-6B.4r", "GC-6B.4")
@pytest.mark.parametrize("scope, roll_offs", [("value", 2), ("pair", 1)])
def test_vector_v8_a_roll_off_settles_one_tied_strategy_value(scope, roll_offs):
    """V8 (GC-6B.4r, Q12): SC_A and SC_B both S5, cross-side ties first at S4 and later at S3: two roll-offs by
    default (a roll-off settles the tie at one strategy value), one under the per-SC-pair option. Counted by
    walking the engagement order, every unit acting in turn."""
    units = (unit("SC_A", ATTACKER, 3, 5, 2, 9, 0), unit("A4", ATTACKER, 2, 4, 2, 8, 1),
             unit("A3", ATTACKER, 1, 3, 2, 8, 2), unit("SC_B", DEFENDER, 3, 5, 2, 9, 0),
             unit("B4", DEFENDER, 2, 4, 2, 8, 1), unit("B3", DEFENDER, 1, 3, 2, 8, 2))
    rules = BattleRules(rolloff_scope=scope)
    field = Field((ACTED, READY, READY, ACTED, READY, READY), (0, 3))
    rolled = 0
    while any(s == READY for s in field.status):
        opp = opportunity(units, field, rules)
        if opp.roll_off:
            rolled += 1
            field = with_rolloff(field, ATTACKER, opp.strategy)
            continue
        actor = next(i for i in opp.actors if units[i].side == ATTACKER) if opp.decider is not None else opp.actors[0]
        field = replace(field, status=tuple(ACTED if i == actor else s for i, s in enumerate(field.status)))
    assert rolled == roll_offs


@pytest.mark.rule("GC-6B.4r")
def test_a_roll_off_does_not_outlive_its_scs():
    """GC-6B.4r (Q12): a roll-off won by the same two SCs stands; once either SC is replaced, a tie at the same
    strategy value is rolled afresh, under both readings."""
    units = (unit("SC_A", ATTACKER, 3, 5, 2, 9, 0), unit("A2", ATTACKER, 3, 5, 2, 9, 1),
             unit("A4", ATTACKER, 2, 4, 2, 8, 2), unit("SC_B", DEFENDER, 3, 5, 2, 9, 0),
             unit("B4", DEFENDER, 2, 4, 2, 8, 1))
    for scope in ("value", "pair"):
        rules = BattleRules(rolloff_scope=scope)
        won = with_rolloff(Field((ACTED, ACTED, READY, ACTED, READY), (0, 3)), DEFENDER, 4)
        assert opportunity(units, won, rules).decider == DEFENDER
        replaced = replace(won, sc=(1, 3))          # SC_A gone, A2 (S5) in command: the SCs still tie
        assert opportunity(units, replaced, rules).roll_off


@pytest.mark.rule("GC-6B.4", "GC-6B.4r")
def test_the_roll_off_comes_first_at_the_table_and_its_ties_roll_again():
    """GC-6B.4r: equal strategy across sides with SCs of equal strategy: no unit acts until the SCs roll off;
    a tie rolls again; the winner's choice of actor is then free among the tied units (GC-6B.4)."""
    cards = (person("Emp A", "EMP", 2, 5, 2, 9), person("Fpa B", "FPA", 2, 5, 2, 9),
             person("Fpa Low", "FPA", 1, 2, 1, 7))
    table = Table(setup(cards))
    table.start({"Ann": ["Emp A"], "Ben": ["Fpa B", "Fpa Low"]})
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B", "Fpa Low"])
    table.refuse("GC-6B.4r", "engage", actor="Emp A", target="Fpa B")
    table.do("roll_off", 3, 3)
    assert table.state.sortie.field.rolloff == ()
    table.do("roll_off", 2, 5)
    assert table.state.sortie.field.rolloff == (0, 1, DEFENDER, 5)
    table.refuse("GC-6B.4", "engage", actor="Fpa Low", target="Emp A")
    table.do("engage", 1, 1, 1, 1, actor="Fpa B", target="Emp A")
    table.refuse("GC-6B.4", "retreat", actor="Fpa Low")
    step = table.do("retreat", 1, 1, actor="Emp A")     # T = 2 x 5 = 10: it leaves the battle, which ends
    assert "Emp A retreated" in step.summary and table.state.phase == END


# --- GC-6B.2 SC replacement -------------------------------------------------------------------------

@pytest.mark.rule("GC-6B.2", "GC-6B.6")
def test_vector_v9_sc_replacement():
    """V9 (GC-6B.2): the SC dies; left are a 2-star (declared 3rd) and a 3-star (declared 4th): the 3-star is
    SC. With only air/ground units left: no SC, and a retreat's T is the unit's own S."""
    units = (unit("SC", ATTACKER, 3, 5, 2, 9, 0), unit("Two", ATTACKER, 2, 4, 2, 8, 2),
             unit("Three", ATTACKER, 3, 3, 2, 8, 3), unit("Air", ATTACKER, 0, 3, 1, 6, 3, kind=GROUND),
             unit("Foe", DEFENDER, 2, 2, 2, 8))
    rules = BattleRules()
    field, ties = settle_sc(units, Field((DESTROYED, READY, READY, READY, READY), (0, 4)), rules)
    assert field.sc == (2, 4) and not ties
    only_air, _ = settle_sc(units, Field((DESTROYED, DESTROYED, DESTROYED, READY, READY), (0, 4)), rules)
    assert only_air.sc == (NONE, 4) and retreat_threshold(units, only_air, 3) == 3
    assert retreat_threshold(units, field, 1) == 4 + 3 and retreat_threshold(units, field, 2) == 2 * 3


@pytest.mark.rule("GC-6B.2")
def test_a_retreating_sc_is_replaced_and_the_fortress_is_never_sc():
    """GC-6B.2 (Q14, Q11): an SC that retreats or escapes is replaced at once; the fortress and air/ground
    units never become SC."""
    units = (unit("SC", ATTACKER, 3, 5, 2, 9, 0), unit("Next", ATTACKER, 1, 4, 2, 8, 1),
             unit("Fort", DEFENDER, 0, 4, 4, 11, kind=FORTRESS), unit("Air", DEFENDER, 0, 3, 1, 6, kind=GROUND))
    for status in (RETREATED, ESCAPED):
        field, _ = settle_sc(units, Field((status, READY, READY, READY), (0, NONE)), BattleRules())
        assert field.sc == (1, NONE)


# --- GC-6B.7 the annihilation bonus ----------------------------------------------------------------

@pytest.mark.rule("GC-6B.7")
def test_vector_v10_annihilation_bonus():
    """V10 (GC-6B.7): 2 fleets + 1 air unit against 2 fleets, both defenders destroyed: the attacker SC's owner
    scores 1; a defender of 1 fleet + 1 ground unit gives no bonus; the last units of both sides dying in an
    equal-strategy duel give none."""
    units = (unit("A1", ATTACKER, 3, 6, 3, 9, 0), unit("A2", ATTACKER, 2, 4, 2, 8, 1, owner="C"),
             unit("Air", ATTACKER, 0, 4, 1, 6, 1, owner="C", kind=GROUND),
             unit("B1", DEFENDER, 2, 5, 2, 9), unit("B2", DEFENDER, 1, 4, 1, 7, 1))
    swept = Field((ACTED, ACTED, ACTED, DESTROYED, DESTROYED), (0, NONE))
    (award,) = bonus(units, swept, BattleRules())
    assert (award.owner, award.camp, award.points) == ("A", "EMP", 1)
    small = units[:3] + (unit("B1", DEFENDER, 2, 5, 2, 9), unit("G", DEFENDER, 0, 4, 1, 7, kind=GROUND))
    assert bonus(small, swept, BattleRules()) == ()
    both = Field((DESTROYED, DESTROYED, DESTROYED, DESTROYED, DESTROYED), (NONE, NONE))
    assert bonus(units, both, BattleRules()) == ()
    retreated = Field((ACTED, ACTED, ACTED, RETREATED, DESTROYED), (0, NONE))
    assert bonus(units, retreated, BattleRules()) == (award,)
    assert bonus(units, swept, BattleRules(civil_war=True)) == (award,)   # GC-8.2: the bonus counts in a civil war


@pytest.mark.rule("GC-6B.7", "GC-6B.5", "GC-6B.6")
def test_kill_vp_go_to_the_unit_whose_roll_destroyed_an_admiral_and_the_bonus_to_the_sc_owner():
    """GC-6B.7 at the table: the first strike, the return strike and the free attack each score for their
    roller's clique; a swept side gives the surviving SC's owner 1 more."""
    cards = (person("Emp Big", "EMP", 3, 6, 9, 12), person("Emp Small", "EMP", 1, 3, 9, 12),
             person("Fpa One", "FPA", 2, 5, 0, 8), person("Fpa Two", "FPA", 1, 4, 0, 8))
    table = Table(setup(cards))
    table.start({"Ann": ["Emp Big"], "Ben": ["Emp Small"], "Cat": ["Fpa One", "Fpa Two"]})
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp Big"])
    table.do("declare", fleets=["Emp Small"])
    table.do("nominate", player="Cat")
    table.do("declare", fleets=["Fpa One", "Fpa Two"])
    table.do("engage", 1, 1, actor="Emp Big", target="Fpa One")          # 2 + 9 >= 8: hit
    table.do("retreat", 6, 6, actor="Fpa Two")                         # T = 4 + 4: 12 fails
    table.do("free_attack", 1, 1, shooter="Emp Small")                   # 2 + 9 >= 8: destroyed
    state = table.state
    assert state.phase == END and state.sortie is None
    assert state.vp_of("Ann", "EMP") == 2 and state.vp_of("Ben", "EMP") == 1     # Ann: kill + bonus


# --- GC-6B.5 / GC-6B.6 at the table ------------------------------------------------------------------

def duel_table() -> Table:
    cards = (person("Emp High", "EMP", 2, 6, 2, 10), person("Emp Low", "EMP", 1, 2, 1, 7),
             person("Fpa Mid", "FPA", 2, 4, 1, 9), person("Fpa Low", "FPA", 1, 1, 1, 7))
    events = (event("Support Card", "battle_support"), event("Other Support", "battle_support"))
    table = Table(setup(cards, events))
    table.start({"Ann": ["Emp High", "Emp Low"], "Ben": ["Fpa Mid", "Fpa Low", "Support Card", "Other Support"]},
                {"Ann": ["Emp High", "Emp Low"], "Ben": ["Fpa Mid", "Fpa Low"]})
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp High", "Emp Low"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa Mid", "Fpa Low"])
    return table


@pytest.mark.rule("GC-6B.5")
def test_the_strike_back_is_a_separate_throw_and_only_after_a_miss():
    """GC-6B.5: the higher strategy strikes first; the lower strikes back only if it survived, as its own throw
    (whoever the actor is); a hit ends the duel."""
    table = duel_table()
    table.refuse("GC-6B.4", "engage", actor="Fpa Mid", target="Emp High")
    table.do("engage", 1, 2, actor="Emp High", target="Fpa Mid")        # 3 + 2 < 9: miss
    assert table.state.sortie.pending.kind == "strike_back"
    table.refuse("GC-6B.5", "engage", actor="Emp High", target="Fpa Mid")
    table.refuse("GC-6B.6", "free_attack")
    table.do("strike_back", 6, 3)                                       # 9 + 1 >= 10: Emp High destroyed
    assert table.status("Emp High") == DESTROYED and table.state.vp_of("Ben", "FPA") == 1
    table.refuse("GC-6B.5", "strike_back")
    table.do("engage", 1, 1, actor="Fpa Mid", target="Emp Low")         # S4 > S2: Fpa Mid first, misses
    table.do("strike_back", 1, 1)
    assert table.state.sortie.field.status == (DESTROYED, READY, ACTED, READY)


@pytest.mark.rule("GC-11", "GC-6B.5")
def test_a_battle_support_card_modifies_one_roll_once_per_engagement():
    """GC-11 (Q19): a battle-support card in hand adds its signed modifier to the roll it names; one per
    engagement in all; the card is discarded."""
    table = duel_table()
    table.refuse("GC-11", "engage", 1, 1, actor="Emp High", target="Fpa Mid", modifier=3)
    step = table.do("engage", 1, 1, actor="Emp High", target="Fpa Mid", support="Support Card", support_for="target",
                    modifier=-2)
    assert "Support Card" in table.state.discard and "Support Card" not in table.hand("Ben")
    assert "Ben plays Support Card" in step.summary
    table.refuse("GC-11", "strike_back", 6, 6, support="Other Support", modifier=1)
    table.do("strike_back", 5, 4)                                       # 9 + 1 - 2 = 8 < 10: miss
    assert table.status("Emp High") == ACTED


@pytest.mark.rule("GC-6B.5", "GC-11")
def test_any_player_may_play_a_battle_support_card():
    """GC-6B.5: a battle-support card may be played by any player who holds one, whether or not he has a unit in
    the battle (the source sets no such condition)."""
    cards = (person("Emp High", "EMP", 2, 6, 2, 10), person("Fpa Mid", "FPA", 2, 4, 1, 9),
             person("Emp Home", "EMP", 1, 2, 1, 7))
    table = Table(setup(cards, (event("Support Card", "battle_support"),)))
    table.start({"Ann": ["Emp High"], "Ben": ["Fpa Mid"], "Cat": ["Emp Home", "Support Card"]},
                {"Ann": ["Emp High"], "Ben": ["Fpa Mid"], "Cat": ["Emp Home"]})
    table.do("roll_order", 1)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp High"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa Mid"])
    assert not any(u.owner == "Cat" for u in table.state.sortie.units)
    step = table.do("engage", 2, 3, actor="Emp High", target="Fpa Mid", support="Support Card", modifier=2)
    assert "Cat plays Support Card" in step.summary and "Support Card" in table.state.discard
    assert "Fpa Mid" in table.state.destroyed                           # 5 + 2 + 2 = 9 >= 9


@pytest.mark.rule("GC-6B.6")
def test_a_failed_retreat_waits_for_the_free_attack_picked_by_the_enemy_sc():
    """GC-6B.6: the free attack is a separate throw by a present enemy unit the SC picks (not the fortress);
    a survivor stays with its opportunity spent."""
    table = duel_table()
    table.do("engage", 1, 1, actor="Emp High", target="Fpa Mid")
    table.do("strike_back", 1, 1)
    table.do("retreat", 6, 5, actor="Fpa Mid")          # T = 2 x 4 = 8 (its own SC): 11 fails
    table.refuse("GC-6B.6", "free_attack")               # two shooters: the SC must pick
    table.refuse("GC-6B.6", "free_attack", shooter="Fpa Low")
    table.do("free_attack", 1, 1, shooter="Emp Low")     # 2 + 1 < 9: it stays
    assert table.status("Fpa Mid") == ACTED
    table.do("retreat", 1, 1, actor="Emp Low")           # T = 2 + 6 = 8: leaves
    assert table.status("Emp Low") == RETREATED


@pytest.mark.rule("GC-11", "GC-6B.7")
def test_an_escape_shuttle_takes_an_admiral_out_of_the_battle():
    """GC-11: an escaped admiral neither attacks nor is attacked for the rest of the battle (Q18: for the bonus it
    counts as retreated); the card costs no turn."""
    cards = (person("Emp A", "EMP", 2, 6, 2, 10), person("Fpa B", "FPA", 2, 4, 1, 9),
             person("Fpa C", "FPA", 1, 3, 1, 7))
    events = (event("Lifeboat", "response", "escape"),)
    table = Table(setup(cards, events))
    table.start({"Ann": ["Emp A"], "Ben": ["Fpa B", "Fpa C", "Lifeboat"]},
                {"Ann": ["Emp A"], "Ben": ["Fpa B", "Fpa C"]})
    table.do("roll_order", 4)
    table.refuse("GC-11", "respond", card="Lifeboat", target="Fpa B")     # not in a battle
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B", "Fpa C"])
    table.do("respond", card="Lifeboat", target="Fpa B")
    assert table.status("Fpa B") == ESCAPED and "Lifeboat" in table.state.discard
    table.refuse("GC-6B.5", "engage", actor="Emp A", target="Fpa B")
    table.do("engage", 6, 6, actor="Emp A", target="Fpa C")
    assert table.state.phase == END


@pytest.mark.rule("GC-6B.11")
def test_the_attacking_and_defending_camps():
    """GC-6B.11 (Q6): the active player picks any camp with an available fleet; the defender is the other
    nation's regulars; Fezzan never sorties; no camp with a fleet: no sortie, draw instead."""
    cards = (person("Emp A", "EMP", 2, 6, 2, 10), person("Fpa B", "FPA", 2, 4, 1, 9), person("Fez", "FEZ", 1, 3, 1, 3))
    table = Table(setup(cards))
    table.start({"Ann": ["Fez"], "Ben": ["Emp A"], "Cat": ["Fpa B"]})
    table.do("roll_order", 4)
    table.refuse("GC-6B.11", "sortie")                   # EMP or FPA: Ann must choose
    table.refuse("GC-6B.11", "sortie", camp="FEZ")
    table.refuse("GC-6B.11", "sortie", camp="EMP", defender="FEZ")
    step = table.do("sortie", camp="FPA", defender="EMP")
    assert table.state.sortie.defender == "EMP" and table.state.phase == BATTLE and "FPA sorties" in step.summary
    assert table.state.sortie.declarer == 2              # Ann has no FPA fleet: Cat declares first


@pytest.mark.rule("GC-6B.3")
def test_the_nominee_must_be_able_to_defend_and_is_not_the_nominator_if_another_can():
    """GC-6B.3: the attacker SC's owner names another player who can defend; himself only when nobody else can;
    nobody able: the battle ends at once."""
    cards = (person("Emp A", "EMP", 2, 6, 2, 10), person("Fpa B", "FPA", 2, 4, 1, 9),
             person("Fpa Mine", "FPA", 2, 4, 1, 9))
    table = Table(setup(cards))
    table.start({"Ann": ["Emp A", "Fpa Mine"], "Ben": ["Fpa B"]})
    table.do("roll_order", 1)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.refuse("GC-6B.3", "nominate", player="Ann")
    table.refuse("GC-6B.3", "nominate", player="Cat")
    table.do("nominate", player="Ben")
    assert table.state.sortie.first_defender == 1
