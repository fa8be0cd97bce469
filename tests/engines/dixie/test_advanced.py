"""The advanced rules: flank attack (DX-13.3), counter-battery (DX-13.4), artillery support (DX-13.5), decoys
(DX-13.6), army commanders (DX-13.7), the extended line (DX-13.8); digest vectors 15, 16 and 18."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.odds import fractions
from engines.dixie.advice import fire_advice, flank_advice
from engines.dixie.board import across, lateral, terrain_positions
from engines.dixie.combat_step import checked_at_once
from engines.dixie.enfilade import EnfiladeInput, enfilade_odds
from engines.dixie.firepower import batteries_to_name
from engines.dixie.flank import FlankInput, flank_odds
from engines.dixie.modifiers import flank_terms
from engines.dixie.movement import flank_ready, flank_targets
from engines.dixie.stacking import unit_limit
from engines.dixie.support import SupportInput, support_odds
from engines.dixie.view import side_view
from tests.engines.dixie.support import Table, advanced, filler, leader, special, terrain, unit

# --- DX-13.3 flank attack ------------------------------------------------------------------------------------

FLANK = [unit(1, "CSA"), unit(2, "CSA", cv=3, morale="B"), unit(3, "CSA", "CAV", cv=2, morale="B"),
         unit(4, "CSA", "ART", cv=3, morale="B"), leader(5, "CSA", attack=1, defense=0), unit(11, "USA"),
         unit(12, "USA", cv=2)]


def flank_table(**options):
    options.setdefault("flank_attack", True)
    table = advanced(FLANK, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, ["CSA-1"], **options)
    table.next_turn()
    table.to_step("movement")
    return table


@pytest.mark.rule("DX-13.3")
def test_vector_15_flank_attack_odds():
    """Vector 15: with an attack-1 leader, INF 3B -> M4 (2/3), CAV 2B -> M4 (2/3), ART 3B -> M3 (1/2); successes
    0-3 with 1/18, 5/18, 4/9, 2/9."""
    table = flank_table()
    chief = table.card("CSA-5")
    assert [flank_terms(table.state, table.card(c), chief).total for c in ("CSA-2", "CSA-3", "CSA-4")] == [4, 4, 3]
    expected = {0: F(1, 18), 1: F(5, 18), 2: F(4, 9), 3: F(2, 9)}
    assert fractions(flank_odds(FlankInput((4, 4, 3)))) == expected
    assert fractions(flank_advice(table.state, ["CSA-2", "CSA-3", "CSA-4"], "USA-R", "CSA-5")) == expected


@pytest.mark.rule("DX-13.3")
def test_a_flank_attack_through_the_actions():
    """DX-13.3: those that pass are revealed, move in with the leader and fire at once; those that fail stay in
    the reserve, done for the turn."""
    table = flank_table()
    table.refuse("DX-13.3", "flank_attack", 4, 4, 4, cards=["CSA-2", "CSA-3", "CSA-4"], position="USA-C")
    step = table.do("flank_attack", 4, 4, 4, cards=["CSA-2", "CSA-3", "CSA-4"], position="USA-R", leader="CSA-5")
    assert "2 of 3 go in" in step.summary
    assert [table.card(c).loc for c in ("CSA-2", "CSA-3", "CSA-4", "CSA-5")] == ["USA-R", "USA-R", "reserve", "USA-R"]
    assert table.card("CSA-2").face_up and not table.card("CSA-4").face_up
    table.refuse("DX-13.3", "end_movement")
    table.refuse("DX-13.3", "move", card="CSA-4", to="CSA-R")
    step = table.do("flank_fire", 1, 2, 3, 1, 2)      # INF F2 (3 dice) and CAV F1 attacking (2 dice)
    assert table.state.tasks[0].hits == 3 and "2d at F1 rolled 1 2: 1 hit" in step.summary
    table.do("allocate_hits")
    table.do("end_movement")


@pytest.mark.rule("DX-13.3")
def test_flank_attack_limits():
    """DX-13.3: only reserve units, no more than the destination's remaining limit, into a flank position holding
    friendly and enemy units (A10: any position by option); off without 13.3."""
    table = flank_table()
    table.refuse("DX-13.3", "flank_attack", 4, cards=["CSA-1"], position="USA-R")
    crowd = [*(unit(20 + i, "CSA") for i in range(4))]
    full = advanced([*FLANK, *crowd], {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, ["CSA-1"],
                    flank_attack=True)
    full.next_turn()
    full.to_step("movement")
    full.refuse("DX-13.3", "flank_attack", 1, 1, 1, 1, cards=["CSA-20", "CSA-21", "CSA-22", "CSA-23"],
                position="USA-R")
    off = flank_table(flank_attack=False)
    off.refuse("DX-13.3", "flank_attack", 4, cards=["CSA-2"], position="USA-R")


# --- DX-13.4 counter-battery, DX-13.5 artillery support ------------------------------------------------------------

BATTERY = [unit(1, "CSA", "ART", cv=3, fp_long=2), unit(2, "CSA"), unit(11, "USA", "ART", cv=2, fp_long=1),
           unit(12, "USA", cv=1), leader(13, "USA")]
BATTERY_PLACES = {"CSA-1": "CSA-C", "CSA-2": "CSA-L", "USA-11": "USA-C", "USA-12": "USA-C", "USA-13": "USA-C"}


@pytest.mark.rule("DX-13.4")
def test_counter_battery_puts_every_hit_on_the_named_artillery():
    """DX-13.4: a firing card may name an enemy artillery card ('firer>artillery'); at long range it must be
    face-up; all of that card's hits go on it, ignoring levelling, and hits past its CV are lost. With 13.4 off
    no card is singled out."""
    table = Table(BATTERY, counter_battery=True)
    table.deploy(BATTERY_PLACES)
    table.to_step("combat")
    table.refuse("DX-13.4", "fire", 1, 1, 1, firers=["CSA-1"], target="USA-C", counter_battery=["CSA-1>USA-11"])
    table.next_turn()
    table.to_step("combat")
    table.do("fire", 6, 6, firers=["USA-11"], target="CSA-C")       # now face-up
    table.next_turn()
    table.to_step("combat")
    advice = fire_advice(table.state, ["CSA-1"], "USA-C", {"CSA-1": "USA-11"})
    assert sum(p for o, p in fractions(advice.batteries["CSA-1"]).items() if o.hits == 0) == F(8, 27)
    table.do("fire", 1, 2, 6, firers=["CSA-1"], target="USA-C", counter_battery=["CSA-1>USA-11"])
    assert table.card("USA-11").hits == 2 and table.card("USA-12").hits == 0 and not table.state.tasks
    assert table.card("USA-13").hits == 1
    off = Table(BATTERY)
    off.deploy(BATTERY_PLACES)
    off.to_step("combat")
    off.refuse("DX-13.4", "fire", 1, 1, 1, firers=["CSA-1"], target="USA-C", counter_battery=["CSA-1>USA-11"])


@pytest.mark.rule("DX-13.4")
def test_counter_battery_firers_option():
    """A11: any engaged firer may single out artillery; with the option only artillery may."""
    cards = [unit(1, "CSA"), unit(11, "USA", "ART", cv=2), unit(12, "USA")]
    for firers, ok in (("any", True), ("artillery", False)):
        table = advanced(cards, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, ["CSA-1"],
                         counter_battery=True, counter_battery_firers=firers)
        table.next_turn()
        table.to_step("combat")
        if ok:
            table.do("fire", 1, 1, 1, firers=["CSA-1"], target="USA-R", counter_battery=["CSA-1>USA-11"])
            assert table.card("USA-11").loc == "eliminated"
        else:
            table.refuse("DX-13.4", "fire", 1, 1, 1, firers=["CSA-1"], target="USA-R",
                         counter_battery=["CSA-1>USA-11"])


@pytest.mark.rule("DX-13.5")
def test_vector_16_artillery_support():
    """Vector 16 (DX-13.5): long F2 rolling [1, 5, 6]: 1 enemy hit, 1 friendly hit (checked at once), 1 enemy
    leader hit; with 3 dice P(no friendly hit) = (5/6)^3 = 125/216."""
    assert fractions(support_odds(SupportInput(((3, 2),)))) and sum(
        p for o, p in fractions(support_odds(SupportInput(((3, 2),)))).items() if o.friendly == 0) == F(125, 216)
    cards = [unit(1, "CSA", "ART", cv=3, fp_long=2), unit(2, "CSA", cv=2), unit(11, "USA", cv=2), leader(12, "USA")]
    table = advanced(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, ["CSA-2"],
                     artillery_support=True)
    table.next_turn()
    table.to_step("combat")
    assert fire_advice(table.state, ["CSA-1"], "USA-R").friendly_hit == 1 - F(125, 216)
    step = table.do("fire", 1, 5, 6, firers=["CSA-1"], target="USA-R")
    assert "1 enemy hit(s), 1 friendly, 1 on the enemy leader" in step.summary
    assert [t.kind for t in table.state.tasks] == ["allocate", "allocate", "checks"]
    assert table.card("USA-12").hits == 1
    table.do("allocate_hits")
    table.do("allocate_hits")
    cards, melee = checked_at_once(table.state)  # only the firer's own unit hit by its support
    assert not melee and [c.id for c in cards] == ["CSA-2"]
    table.do("check_hits", 2)
    assert table.card("CSA-2").hits == 0 and table.card("USA-11").hits == 1


# --- DX-13.2 enfilade (vector 18), DX-13.6 decoys -------------------------------------------------------------------

@pytest.mark.rule("DX-13.2", "DX-10.3")
def test_vector_18_enfilade_into_woods():
    """Vector 18: enfilade from 3CV at F1: P(at least 1 hit) = 91/216; into woods (-1 CV, 2 dice): 11/36."""
    def at_least_one(d):
        return 1 - sum(p for v, p in fractions(d).items() if v.hits == 0)
    assert at_least_one(enfilade_odds(EnfiladeInput((3,), "own"))) == F(91, 216)
    assert at_least_one(enfilade_odds(EnfiladeInput((3,), "own", -1))) == F(11, 36)
    cards = [unit(1, "CSA"), unit(11, "USA", cv=3), terrain(12, "USA", "C", "both enfilade_in_cv -1")]
    table = advanced(cards, {"CSA-1": "CSA-C", "USA-11": "USA-R", "USA-12": "USA-C"}, [], enfilade=True)
    table.next_turn()
    table.to_step("movement")
    table.do("move", card="CSA-1", to="USA-C")
    table.next_turn()
    table.to_step("combat")
    advice = fire_advice(table.state, ["USA-11"], "USA-C")
    assert advice.kind == "enfilade" and advice.at_least[1][2] == F(11, 36)
    step = table.do("fire", 2, 1, firers=["USA-11"], target="USA-C")
    assert "2d at F1 rolled 2 1: 1 hit" in step.summary


@pytest.mark.rule("DX-13.6")
def test_decoys():
    """DX-13.6: leaders, specials and terrain may go face-down as decoys where there are no enemy units; an enemy
    advance eliminates them; they count for stacking by their real type (A14); they may be revealed in the
    Movement step; the other side sees only a card back."""
    cards = [terrain(1, "CSA", "L"), leader(2, "CSA"), special(3, "CSA"), unit(4, "CSA"), unit(5, "CSA"),
             unit(11, "USA"), unit(12, "USA")]
    table = Table(cards, decoys=True)
    table.refuse("DX-13.6", "place_decoy", card="CSA-4", position="CSA-L")
    table.do("place_decoy", card="CSA-1", position="CSA-L")
    table.do("deploy", card="CSA-2", position="CSA-L", decoy=True)
    table.do("deploy", card="CSA-3", position="CSA-C", decoy=True)
    table.deploy({"CSA-4": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-L"})
    assert unit_limit(table.state, "CSA", "CSA-L") == 3
    seen = side_view(table.state, "USA")["positions"]["CSA-L"]["cards"]
    assert seen.count({"back": "CSA"}) == 3
    table.to_step("movement")
    table.do("reveal_decoy", card="CSA-2")
    assert table.card("CSA-2").face_up and not table.card("CSA-2").decoy
    table.next_turn()
    table.to_step("movement")
    step = table.do("move", card="USA-12", to="CSA-R")
    assert "decoy" not in step.summary
    table.do("move", card="USA-11", to="CSA-L")
    assert table.card("CSA-1").loc == "eliminated"
    off = Table(cards)
    off.refuse("DX-13.6", "place_decoy", card="CSA-1", position="CSA-L")


@pytest.mark.rule("DX-13.6")
def test_decoys_absorb_long_range_hits():
    """A14: under long-range fire decoys are in the levelling pool; a hit eliminates the decoy and is used up. The
    owner's default keeps the decoy while a unit can take the hit."""
    cards = [terrain(1, "CSA", "L"), unit(2, "CSA"), unit(11, "USA", "ART", cv=2, fp_long=2)]
    table = Table(cards, decoys=True)
    table.do("place_decoy", card="CSA-1", position="CSA-L")
    table.deploy({"CSA-2": "CSA-L", "USA-11": "USA-R"})
    table.next_turn()
    table.to_step("combat")
    table.do("fire", 1, 3, firers=["USA-11"], target="CSA-L")
    assert set(table.state.tasks[0].cards) == {"CSA-1", "CSA-2"}
    table.do("allocate_hits", cards=["CSA-1"])
    assert table.card("CSA-1").loc == "eliminated" and table.card("CSA-2").hits == 0
    other = Table(cards, decoys=True)
    other.do("place_decoy", card="CSA-1", position="CSA-L")
    other.deploy({"CSA-2": "CSA-L", "USA-11": "USA-R"})
    other.next_turn()
    other.to_step("combat")
    other.do("fire", 1, 3, firers=["USA-11"], target="CSA-L")
    other.do("allocate_hits")
    assert other.card("CSA-1").loc == "CSA-L" and other.card("CSA-2").hits == 1


# --- DX-13.7 army commanders, DX-13.8 extended line ------------------------------------------------------------------

@pytest.mark.rule("DX-13.7")
def test_army_commander_designation():
    """DX-13.7 / A16: with Lee or Meade absent a 3-star corps commander may be designated, irrevocably; the USA
    must pick a wing commander present; a wing commander's claim overrides a 3-star designation."""
    cards = [leader(1, "CSA", rank="corps", corps="I"), leader(2, "CSA", rank="corps", corps="II"),
             leader(3, "CSA", rank="division", corps="I"), unit(4, "CSA", corps="II"),
             leader(11, "USA", rank="corps", corps="I"), leader(12, "USA", rank="wing", wing_corps="I,III,XI",
                                                              pile="reinforcements"),
             unit(13, "USA"), *filler("USA", 100, 16)]
    table = Table(cards, corps_command=True)
    table.refuse("DX-13.7", "designate", leader="CSA-3")
    table.do("designate", leader="CSA-1")
    table.refuse("DX-13.7", "designate", leader="CSA-2")
    table.do("designate", leader="USA-11")
    assert table.state.army_commander == {"CSA": "CSA-1", "USA": "USA-11"}
    table.deploy({"CSA-4": "CSA-L", "USA-13": "USA-L"})
    table.next_turn()
    table.to_step("reinforcement")
    table.do("reinforce", cards=["USA-12"])                  # the wing commander appears
    table.refuse("DX-13.7", "designate", leader="CSA-2")
    table.do("designate", leader="USA-12")
    assert table.state.army_commander["USA"] == "USA-12"
    table.refuse("DX-13.7", "designate", leader="USA-11")
    off = Table(cards)
    off.refuse("DX-13.7", "designate", leader="CSA-1")
    final = Table(cards, corps_command=True, wing_claim_overrides=False)
    final.do("designate", leader="USA-11")
    final.deploy({"CSA-4": "CSA-L", "USA-13": "USA-L"})
    final.next_turn()
    final.to_step("reinforcement")
    final.do("reinforce", cards=["USA-12"])
    final.refuse("DX-13.7", "designate", leader="USA-12")


@pytest.mark.rule("DX-13.8")
def test_extended_line_geometry():
    """DX-13.8: 5 positions a line (i faces 6 - i); terrain may go in its printed position or next to it."""
    assert across("CSA-1") == "USA-5" and across("USA-3") == "CSA-3" and lateral("CSA-3") == ("CSA-2", "CSA-4")
    assert terrain_positions("CSA", ("L",), 5) == ("CSA-1", "CSA-2")
    assert terrain_positions("CSA", ("C",), 5) == ("CSA-2", "CSA-3", "CSA-4")
    assert terrain_positions("CSA", ("L",), 3) == ("CSA-L",)


@pytest.mark.rule("DX-13.3", "DX-13.4")
def test_flank_and_counter_battery_choices():
    """DX-13.3: the flank positions holding both sides' units, and the reserve units free to try; DX-13.4 (A11): the
    enemy artillery a firer may single out (at long range only face-up)."""
    table = flank_table()
    state = table.state
    assert flank_targets(state, "CSA") == ["USA-R"]
    assert [c.id for c in state.at("reserve", "CSA") if flank_ready(c)] == ["CSA-2", "CSA-3", "CSA-4"]
    assert flank_targets(flank_table(flank_any_position=True).state, "CSA") == ["USA-R"]
    battery = Table(BATTERY, counter_battery=True)
    battery.deploy(BATTERY_PLACES)
    battery.to_step("combat")
    assert batteries_to_name(battery.state, battery.card("CSA-1"), "USA-C") == []      # face-down at long range
    battery.next_turn()
    battery.to_step("combat")
    battery.do("fire", 6, 6, firers=["USA-11"], target="CSA-C")
    battery.next_turn()
    battery.to_step("combat")
    assert [c.id for c in batteries_to_name(battery.state, battery.card("CSA-1"), "USA-C")] == ["USA-11"]
