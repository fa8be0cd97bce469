"""What may be chosen now: the legal values of the actions' parameters, as the dashboard offers them (DX-3.2 to
DX-14.0); values one rule bars are named with that rule. A deployment or a movement that could not end within the
stacking limits is refused at the card that would make it so (DX-3.1); a melee under way is fought out before the
combat moves on (DX-7.0); a battle no side can win any more ends (DX-4.0)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from companion.engine import RuleError
from engines.dixie import ENGINE
from engines.dixie.state import OVER
from engines.dixie.victory import can_still_win
from tests.engines.dixie.support import Table, advanced, basic_decks, leader, sidebar, special, terrain, unit
from tests.engines.dixie.test_advanced import BATTERY, BATTERY_PLACES, flank_table
from tests.engines.dixie.test_disengage import csa_cut_off, usa_must_disengage
from tests.engines.dixie.test_fire import xy_table
from tests.engines.dixie.test_melee import melee_table


def legal(table: Table, action: str, param: str, **chosen):
    return ENGINE.actions.specs[action].param(param).legal(table.state, chosen)


def values(table: Table, action: str, param: str, **chosen) -> list:
    return list(legal(table, action, param, **chosen).values)


def barred(table: Table, action: str, param: str, **chosen) -> dict:
    return {b.value: b.rule for b in legal(table, action, param, **chosen).barred}


# --- deployment --------------------------------------------------------------------------------------------------

@pytest.mark.rule("DX-3.2", "DX-3.3", "DX-11.0b", "DX-13.6")
def test_deployment_choices():
    """DX-3.2: any reserve card of either side, into its own line; DX-3.3: terrain only where its code says;
    DX-11.0b: one leader of a side in a position; DX-13.6: a decoy only with 13.6 and only a leader, special or
    terrain."""
    cards = [unit(1, "CSA"), terrain(2, "CSA", "L"), leader(3, "CSA"), leader(4, "CSA"), unit(11, "USA"),
             unit(12, "USA")]
    table = Table(cards)
    assert set(values(table, "deploy", "card")) == {c.id for c in table.state.cards}
    assert values(table, "deploy", "position", card="CSA-1") == ["CSA-L", "CSA-C", "CSA-R"]
    assert values(table, "deploy", "position", card="USA-11") == ["USA-L", "USA-C", "USA-R"]
    assert values(table, "deploy", "position", card="CSA-2") == ["CSA-L"]
    assert barred(table, "deploy", "position", card="CSA-2") == {"CSA-C": "DX-3.3", "CSA-R": "DX-3.3"}
    table.do("deploy", card="CSA-3", position="CSA-L")
    assert barred(table, "deploy", "position", card="CSA-4") == {"CSA-L": "DX-11.0b"}
    assert legal(table, "deploy", "decoy", card="CSA-4", position="CSA-C") is None       # 13.6 is off
    decoys = Table(cards, decoys=True)
    assert values(decoys, "deploy", "decoy", card="CSA-4", position="CSA-C") == [False, True]
    assert barred(decoys, "deploy", "decoy", card="CSA-1", position="CSA-C") == {True: "DX-13.6"}
    decoys.refuse("DX-13.6", "deploy", card="CSA-1", position="CSA-C", decoy=True)


@pytest.mark.rule("DX-3.1", "DX-11.2", "DX-3.2")
def test_no_deployment_that_cannot_end_within_the_limits():
    """DX-3.1: units never leave a position before the battle starts, so a 5th unit goes into a position only
    while a leader with a stack bonus is still in the reserve to raise its limit (DX-11.2), and that leader may
    then only go there."""
    cards = [*(unit(i, "CSA") for i in range(1, 6)), unit(11, "USA"), unit(12, "USA")]
    table = Table(cards)
    for i in range(1, 5):
        table.do("deploy", card=f"CSA-{i}", position="CSA-L")
    assert "CSA-L" not in values(table, "deploy", "position", card="CSA-5")
    assert "stacking limit" in table.refuse("DX-3.1", "deploy", card="CSA-5", position="CSA-L").message
    table.do("deploy", card="CSA-5", position="CSA-C")
    led = Table([*cards, leader(6, "CSA", stack_bonus=1)])
    for i in range(1, 6):
        led.do("deploy", card=f"CSA-{i}", position="CSA-L")
    led.refuse("DX-3.1", "start_battle")
    assert values(led, "deploy", "position", card="CSA-6") == ["CSA-L"]
    assert barred(led, "deploy", "position", card="CSA-6") == {"CSA-C": "DX-3.1", "CSA-R": "DX-3.1"}
    led.do("deploy", card="CSA-6", position="CSA-L")
    led.do("start_battle")


# --- movement ----------------------------------------------------------------------------------------------------

@pytest.mark.rule("DX-8.0", "DX-8.1", "DX-8.2", "DX-7.0", "DX-3.1")
def test_move_choices():
    """DX-8.0: the moving side's units and leaders, each to the places one move takes it, named as a move, an
    advance (DX-8.1) or a disengagement (DX-8.2); a card that fired is barred by DX-7.0. DX-3.1: with three
    units of the terrain-limited USA-R already in, a 4th infantry could not get out again: barred."""
    table = sidebar()
    table.do("fire", 3, 4, 5, firers=["USA-24"], target="USA-C")
    table.to_step("movement")
    movers = values(table, "move", "card")
    assert "USA-24" not in movers and barred(table, "move", "card")["USA-24"] == "DX-7.0"
    assert {"USA-21", "USA-22", "USA-23", "USA-25", "USA-26", "USA-29"} <= set(movers)
    assert {c.label: c.value for c in legal(table, "move", "to", card="USA-21").options} == {
        "reserve (move)": "reserve", "CSA-L (advance)": "CSA-L"}
    assert [c.label for c in legal(table, "move", "to", card="USA-25").options] == ["reserve (disengage)",
                                                                                    "CSA-C (advance)"]
    cards = [*(unit(i, "CSA") for i in range(1, 5)), unit(11, "USA"), unit(12, "USA"), terrain(13, "USA", "R")]
    full = Table(cards)
    full.deploy({**{f"CSA-{i}": "CSA-L" for i in range(1, 5)}, "USA-11": "USA-R", "USA-13": "USA-R"})
    full.to_step("movement")
    for i in range(1, 4):
        full.do("move", card=f"CSA-{i}", to="USA-R")
    assert barred(full, "move", "to", card="CSA-4") == {"USA-R": "DX-3.1"}


@pytest.mark.rule("DX-10.2", "DX-3.3", "DX-13.6")
def test_terrain_and_decoy_choices():
    """DX-10.2: the moving side's terrain in its reserve, into the unengaged own-line position printed on it;
    DX-13.6: decoys only with 13.6, from the moving side's reserve, where no enemy unit stands."""
    cards = [unit(1, "CSA"), terrain(2, "CSA", "L"), terrain(3, "CSA", "R"), leader(4, "CSA"), unit(11, "USA"),
             unit(12, "USA")]
    table = Table(cards, decoys=True)
    table.deploy({"USA-11": "USA-R", "USA-12": "USA-R", "CSA-1": "CSA-R"})
    table.to_step("movement")
    assert values(table, "play_terrain", "card") == ["CSA-2", "CSA-3"]
    assert values(table, "play_terrain", "position", card="CSA-2") == ["CSA-L"]
    assert barred(table, "play_terrain", "position", card="CSA-2")["USA-L"] == "DX-3.3"
    assert set(values(table, "place_decoy", "card")) == {"CSA-2", "CSA-3", "CSA-4"}
    assert values(table, "place_decoy", "position", card="CSA-4") == ["CSA-L", "CSA-C", "CSA-R"]


# --- combat ------------------------------------------------------------------------------------------------------

@pytest.mark.rule("DX-7.0", "DX-7.2", "DX-13.2")
def test_fire_choices():
    """Vector 7/9, USA turn: the USA cards in USA-C fire there (short range); the infantry in USA-R, with no enemy
    there, may only enfilade USA-C at F1 (DX-13.2): firing at USA-R is barred (no enemy units), at CSA-L too (only
    artillery fires at long range, DX-7.2). One fire is made by cards of one position."""
    table = sidebar()
    firers = legal(table, "fire", "firers")
    assert set(firers.values) == {"USA-21", "USA-22", "USA-23", "USA-24", "USA-25", "USA-26"}
    assert firers.fits(("USA-21", "USA-22")) and not firers.fits(("USA-21", "USA-24"))
    assert [c.label for c in legal(table, "fire", "target", firers=["USA-21"]).options] == ["USA-C (enfilade)"]
    assert barred(table, "fire", "target", firers=["USA-21"])["USA-R"] == "DX-7.2"
    assert barred(table, "fire", "target", firers=["USA-21"])["CSA-L"] == "DX-7.2"
    assert [c.label for c in legal(table, "fire", "target", firers=["USA-24", "USA-26"]).options] == ["USA-C (short)"]
    assert legal(table, "fire", "counter_battery", firers=["USA-24"], target="USA-C") is None   # 13.4 is off
    with pytest.raises(RuleError, match="DX-7.0"):            # no firer ticked yet: no target to offer
        legal(table, "fire", "target", firers=[])


@pytest.mark.rule("DX-13.4")
def test_counter_battery_choices():
    """DX-13.4: each firer may single out one enemy artillery card in the target, at long range only a face-up
    one: not asked while the USA battery is face-down, then offered as 'firer>artillery'."""
    table = Table(BATTERY, counter_battery=True)
    table.deploy(BATTERY_PLACES)
    table.to_step("combat")
    assert legal(table, "fire", "counter_battery", firers=["CSA-1"], target="USA-C") is None
    table.next_turn()
    table.to_step("combat")
    table.do("fire", 6, 6, firers=["USA-11"], target="CSA-C")
    table.next_turn()
    table.to_step("combat")
    assert values(table, "fire", "counter_battery", firers=["CSA-1"], target="USA-C") == ["CSA-1>USA-11"]


@pytest.mark.rule("DX-7.3")
def test_hit_placing_choices():
    """Vector 13: 3 hits on X (1CV) and Y (3CV): one card per hit, levelled: all three on Y is not a placing;
    X, Y, X (X destroyed) and X, Y, Y are; none named leaves the placing to the companion, two is not a placing."""
    table = xy_table()
    placing = legal(table, "allocate_hits", "cards")
    assert (placing.low, placing.high, set(placing.values)) == (0, 3, {"CSA-1", "CSA-2"})
    assert not placing.fits(("CSA-2", "CSA-2", "CSA-2")) and not placing.fits(("CSA-1", "CSA-2"))
    assert placing.fits(())
    assert placing.fits(("CSA-1", "CSA-2", "CSA-1")) and placing.fits(("CSA-1", "CSA-2", "CSA-2"))


@pytest.mark.rule("DX-13.1", "DX-8.2")
def test_melee_and_disengagement_choices():
    """DX-13.1: a melee in an engaged position; the units are named only with option A8 (else all fight). DX-8.2:
    a unit that must disengage from its own line goes only to its reserve; with nowhere to go (A23) no
    destination is asked."""
    cards = [unit(1, "CSA", cv=2), unit(11, "USA", cv=3), unit(12, "USA", cv=3)]
    places = {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}
    table = melee_table(cards, places)
    assert values(table, "declare_melee", "position") == ["USA-R"]
    assert legal(table, "declare_melee", "units", position="USA-R") is None
    some = melee_table(cards, places, melee_all_units=False)
    assert values(some, "declare_melee", "units", position="USA-R") == ["USA-11", "USA-12"]
    assert values(usa_must_disengage(fight_on=True), "withdraw", "to", card="USA-11") == ["reserve"]
    assert legal(csa_cut_off(), "withdraw", "to", card="CSA-1") is None


@pytest.mark.rule("DX-13.3", "DX-11.0b")
def test_flank_attack_choices():
    """DX-13.3: the reserve units free to try, as many as the target's room; the flank positions holding both
    sides' units; a reserve leader may go with them, or none."""
    table = flank_table()
    cards = legal(table, "flank_attack", "cards")
    assert (set(cards.values), cards.high) == ({"CSA-2", "CSA-3", "CSA-4"}, 3)   # USA-R: 4 - 1 CSA unit
    assert values(table, "flank_attack", "position", cards=["CSA-2"]) == ["USA-R"]
    assert barred(table, "flank_attack", "position", cards=["CSA-2"])["USA-C"] == "DX-13.3"
    assert values(table, "flank_attack", "leader", cards=["CSA-2"], position="USA-R") == ["", "CSA-5"]


@pytest.mark.rule("DX-9.0", "DX-12.0", "DX-8.3a")
def test_draws_specials_and_disorder_choices():
    """DX-9.0: the cards named as drawn are exactly 1 (CSA) or 2 (USA) of the side's reinforcement deck. DX-12.0:
    a special is played in its owner's turn unless printed for the enemy's, at most 2 in a position a phase.
    DX-8.3a: the card to check is asked only with option A13."""
    table = Table(basic_decks(), custom_decks=False)
    table.do("start_battle")
    table.to_step("reinforcement")
    draw = legal(table, "reinforce", "cards")
    assert (draw.low, draw.high, sorted(draw.values)) == (0, 1, [f"CSA-{i}" for i in range(19, 25)])
    assert draw.fits(()) and draw.fits(("CSA-19",))                 # none named: the dice draw
    table.do("reinforce", cards=["CSA-19"])
    table.to_step("reinforcement")
    usa = legal(table, "reinforce", "cards")
    assert usa.high == 2 and usa.fits(()) and not usa.fits(("USA-37",)) and usa.fits(tuple(usa.values[:2]))
    cards = [unit(1, "CSA"), special(2, "CSA"), special(3, "CSA", timing="enemy"), special(4, "CSA"),
             special(5, "CSA"), unit(21, "USA")]
    specials = Table(cards)
    specials.deploy({"CSA-1": "CSA-L", "USA-21": "USA-R"})
    assert values(specials, "play_special", "card") == ["CSA-2", "CSA-4", "CSA-5"]
    specials.do("play_special", card="CSA-2", position="CSA-L")
    specials.do("play_special", card="CSA-4", position="CSA-L")
    assert barred(specials, "play_special", "position", card="CSA-5") == {"CSA-L": "DX-12.0"}
    assert legal(specials, "disorder", "card") is None


# --- DX-7.0 one position at a time: a melee is part of its position's combat ------------------------------------

def two_fronts():
    """CSA-1 advanced into USA-R against USA-11, CSA-2 into USA-C against USA-12; the USA melees in USA-R and
    both sides fight on after round 1 (no die hits)."""
    cards = [unit(1, "CSA", cv=1), unit(2, "CSA", cv=1), unit(11, "USA", cv=1), unit(12, "USA", cv=1)]
    table = advanced(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-C", "USA-11": "USA-R", "USA-12": "USA-C"}, ["CSA-1"],
                     melee=True)
    table.to_step("movement")
    table.next_turn()
    table.to_step("movement")
    table.do("move", card="CSA-2", to="USA-C")
    table.next_turn()
    table.to_step("combat")
    table.do("declare_melee", position="USA-R")
    table.do("melee_round", 5, 5)
    table.do("check_hits")
    return table


@pytest.mark.rule("DX-7.0", "DX-13.1")
def test_the_combat_moves_on_only_when_the_melee_is_fought_out():
    """DX-7.0: fights at one position are finished before the next starts; the melee in USA-R is unfinished
    until its second round (or a disengagement): fire at USA-C must wait (else the melee could never end)."""
    table = two_fronts()
    assert "Finish the melee in USA-R" in table.refuse("DX-7.0", "fire", 1, firers=["USA-12"], target="USA-C").message
    table.do("melee_choice", fight=True)
    table.do("melee_choice", fight=True)
    table.refuse("DX-7.0", "fire", 1, firers=["USA-12"], target="USA-C")
    table.do("melee_round", 5, 5)
    table.do("check_hits")
    table.do("withdraw")
    table.do("fire", 5, firers=["USA-12"], target="USA-C")
    table.do("end_combat")


# --- DX-4.0 a battle no side can win -----------------------------------------------------------------------------

@pytest.mark.rule("DX-4.0", "DX-13.1")
def test_a_battle_no_side_can_win_ends():
    """DX-4.0: a side wins by occupying 2 enemy positions with its units; when both sides are down to one unit
    (here after a melee in which both units rout) neither can ever win: the battle ends with no winner."""
    cards = [unit(1, "CSA", cv=1), unit(2, "CSA", cv=1), unit(11, "USA", cv=1), unit(12, "USA", cv=1)]
    table = melee_table(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-C", "USA-11": "USA-R", "USA-12": "USA-C"})
    table.do("declare_melee", position="USA-R")
    table.do("melee_round", 1, 1)                # F3: both hit
    table.do("allocate_hits")
    table.do("allocate_hits")
    assert table.state.step != OVER
    table.do("check_hits", 6, 6)                 # a natural 6 fails: both rout
    victory = table.state.victory
    assert table.state.step == OVER and victory.side == "" and victory.rule == "DX-4.0"
    assert "no winner" in victory.text


@pytest.mark.rule("DX-4.0", "DX-13.2")
def test_one_unit_a_side_may_still_win_by_enfilade_under_a9():
    """A9 (option): a position emptied by enfilade counts as captured, so one unit a side can still win: the
    battle goes on; without A9 it is over at once."""
    rows = [unit(1, "CSA"), leader(2, "CSA"), unit(11, "USA")]
    action = {"type": "deploy", "card": "CSA-2", "position": "CSA-L"}
    over = ENGINE.start({"custom_decks": True}, {"cards": rows})
    assert ENGINE.apply(over, action, ScriptedDice(())).state.step == OVER
    a9 = ENGINE.start({"custom_decks": True, "enfilade": True, "enfilade_clear_captures": True}, {"cards": rows})
    assert ENGINE.apply(a9, action, ScriptedDice(())).state.victory is None


@pytest.mark.rule("DX-4.0", "DX-13.2")
def test_only_enemy_line_positions_emptied_by_enfilade_count_toward_a_win():
    """Found by make fuzz (seed 207541, a game that never ended): under A9 a side whose enemy has no unit left and
    that has a position of its OWN line marked as captured by it cannot win with fewer units than the enemy
    positions it needs: only enemy-line positions count, so the battle is closed undecided."""
    rows = [unit(1, "CSA"), leader(2, "CSA"), unit(11, "USA")]
    a9 = ENGINE.start({"custom_decks": True, "enfilade": True, "enfilade_clear_captures": True}, {"cards": rows})
    gone = replace(a9, cards=tuple(replace(c, loc="eliminated") if c.side == "USA" else c for c in a9.cards))
    assert not can_still_win(replace(gone, captured={"CSA-L": "CSA"}), "CSA")
    assert can_still_win(replace(gone, captured={"USA-L": "CSA"}), "CSA")
