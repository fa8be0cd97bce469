"""Every 2d6 roll says the total it needs and what that is made of: a strike the defence less the attack and any
battle-support card (GC-6B.5), a retreat the unit's strategy and its SC's (GC-6B.6, V9), a plot the plotter's
value less the commander's player's +2 (GC-6A.32, GC-7.21); the order roll says the Ragnarok +1 (GC-5)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from companion.engine import dice_needed
from engines.galactic_chess import ENGINE
from engines.galactic_chess.battle import ATTACKER, DEFENDER, READY, Field, retreat_terms
from engines.galactic_chess.duel import StrikeInput, resolve_strike
from engines.galactic_chess.retreat import RetreatRollInput, resolve_retreat_roll
from tests.engines.galactic_chess.support import Table, setup, unit
from tests.engines.galactic_chess.test_battle import E4_CARDS
from tests.engines.galactic_chess.test_plots import plotting, posts


def labels(state, kind: str, **params) -> list[str]:
    return [r.label for r in dice_needed(ENGINE, state, {"type": kind, **params})]


def e4_battle() -> Table:
    """The play example E4 up to its first opportunity: PL2's Reinhard (S8 A5 D10) against PL3's fleet (D8),
    PL2's SC of strategy 3."""
    table = Table(setup(E4_CARDS))
    table.start({"Ann": ["PL1 SC", "PL1 Fleet"], "Ben": ["PL2 SC", "PL2 Fleet", "PL2 Reinhard", "PL2 Ground"],
                 "Cat": ["PL3 Fleet"]})
    table.do("roll_order", 3)
    table.draw_filler()
    table.do("end_action")
    table.do("end_turn")
    table.do("roll_order", 6)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["PL2 SC", "PL2 Fleet", "PL2 Reinhard"], others=["PL2 Ground"])
    table.do("nominate", player="Ann")
    table.do("declare", fleets=["PL1 SC", "PL1 Fleet"])
    table.do("declare", fleets=["PL3 Fleet"])
    return table


@pytest.mark.rule("GC-6B.5")
def test_a_strike_says_the_total_it_needs():
    """GC-6B.5: 2d6 + attack >= defence: Reinhard (attack 5) at a defence of 8 needs 3 or more; a +1 card on an
    attack 3 roll against defence 9 (the golden game's Flanking Fire) needs 5 or more."""
    table = e4_battle()
    assert labels(table.state, "engage", actor="PL2 Reinhard", target="PL3 Fleet") == [
        "PL2 Reinhard strikes PL3 Fleet: 2d6 needs 3 or more = defence 8 − attack 5 (GC-6B.5)"]
    assert [r.label for r in resolve_strike(StrikeInput(3, 9, 1), ScriptedDice([3, 3])).rolls] == [
        "Strike: 2d6 needs 5 or more = defence 9 − attack 3 − battle-support card 1 (GC-6B.5)"]


@pytest.mark.rule("GC-6B.6", "GC-6B.2")
def test_a_retreat_says_the_total_it_may_reach():
    """GC-6B.6: 2d6 <= own strategy + the SC's: Reinhard 8 + 3 = 11. V9: a unit of strategy 4 under an SC of 3 needs
    7 or less; the SC itself twice its own, 3 + 3."""
    table = e4_battle()
    assert labels(table.state, "retreat", actor="PL2 Reinhard") == [
        "PL2 Reinhard retreats: 2d6 needs 11 or less = strategy 8 + the SC's strategy 3 (GC-6B.6)"]
    units = (unit("SC", ATTACKER, 3, 5, 2, 9, 0), unit("Two", ATTACKER, 2, 4, 2, 8, 2),
             unit("Three", ATTACKER, 3, 3, 2, 8, 3), unit("Foe", DEFENDER, 2, 2, 2, 8))
    field = Field((READY, READY, READY, READY), (2, 3))
    for who, label in ((1, "2d6 needs 7 or less = strategy 4 + the SC's strategy 3"),
                       (2, "2d6 needs 6 or less = strategy 3 + its strategy again, as the SC 3")):
        made_of = retreat_terms(units, field, who)
        roll = resolve_retreat_roll(RetreatRollInput(made_of.total, 0, made_of), ScriptedDice([1, 1]))
        assert [r.label for r in roll.rolls] == [f"Retreat: {label} (GC-6B.6)"]


@pytest.mark.rule("GC-6A.32", "GC-6A.33a", "GC-7.21")
def test_a_plot_says_the_total_it_needs():
    """GC-6A.32: 2d6 >= the plotter's value 7; the counter-plot the target's (6); GC-7.21 (Q22): the player holding
    the commander adds 2, so a 7 needs 5."""
    table = plotting()
    assert labels(table.state, "plot", plotter="Emp Plotter", target="Emp Target") == [
        "Plot by Emp Plotter on Emp Target: 2d6 needs 7 or more = plot value 7 (GC-6A.32)"]
    table.do("plot", 3, 3, plotter="Emp Plotter", target="Emp Target")
    assert labels(table.state, "counter_plot") == [
        "Counter-plot by Emp Target on Emp Plotter: 2d6 needs 6 or more = plot value 6 (GC-6A.33a)"]
    table = posts(cmdr_owner="Ann")
    table.do("garrison_plot", dispatch="Emp Third")
    table.next_turn_of("Ann")
    table.do("roll_order", 1)
    table.draw_filler()
    assert labels(table.state, "garrison_plot", plotter="Emp Plotter", release="Emp Third") == [
        "Garrison plot by Emp Plotter to release Emp Third: 2d6 needs 5 or more = plot value 7 "
        "− holding the commander 2 (GC-7.21)"]


@pytest.mark.rule("GC-5")
def test_the_order_roll_says_the_ragnarok_plus_one():
    """GC-5: one die, +1 once Ragnarok has fired."""
    table = Table(setup(E4_CARDS))
    table.start({"Ann": ["PL1 SC", "PL1 Fleet"], "Ben": ["PL2 SC", "PL2 Fleet", "PL2 Reinhard", "PL2 Ground"],
                 "Cat": ["PL3 Fleet"]})
    assert labels(table.state, "roll_order") == ["Order roll (GC-5)"]
    assert labels(replace(table.state, ragnarok=True), "roll_order") == ["Order roll: the die + Ragnarok +1 (GC-5)"]
