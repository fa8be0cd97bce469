"""Plots at the table (GC-6A.31, GC-6A.32, GC-6A.33a) and the plots for Iserlohn's posts (GC-7.12, GC-7.21),
with the corridor rule they feed (GC-7.4)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engines.galactic_chess.fortress import corridor_active
from engines.galactic_chess.guide import due_now
from engines.galactic_chess.state import CARD, END
from tests.engines.galactic_chess.support import Table, event, person, setup

CARDS = (
    person("Emp Plotter", "EMP", 2, 5, 2, 9, 7), person("Emp Target", "EMP", 2, 4, 2, 8, 6, counter_only=True),
    person("Emp Plain", "EMP", 1, 3, 1, 7), person("Emp Bracket", "EMP", 2, 4, 1, 8, 5, counter_only=True),
    person("Fpa Star", "FPA", 2, 5, 2, 9, 8), person("Fpa Two", "FPA", 2, 4, 2, 8),
    person("Fez Fox", "FEZ", 0, 1, 0, 2, 4, role="rubinsky"),
    person("Cmdr", "EMP", 2, 4, 2, 8, 9, role="stockhausen"), person("Emp Third", "EMP", 1, 3, 1, 7),
    person("Emp Fourth", "EMP", 1, 3, 1, 7),
)
HANDS = {"Ann": ["Emp Plotter", "Emp Plain", "Emp Third", "Emp Fourth"],
         "Ben": ["Emp Target", "Fpa Star", "Emp Bracket"],
         "Cat": ["Fez Fox", "Fpa Two", "Cmdr"]}


def plotting(hands=HANDS, order: int = 1, **options) -> Table:
    """Ann's turn 1 after the draw: a card or a plot may follow."""
    table = Table(setup(CARDS, (event("Twilight", "event", "ragnarok"),)), **options)
    table.start(hands)
    table.do("roll_order", order)
    table.draw_filler()
    return table


@pytest.mark.rule("GC-6A.31")
def test_who_may_plot_whom():
    """GC-6A.31: only an unbracketed value plots; the target is a person in play of the plotter's nation,
    never the plotter himself."""
    table = plotting()
    table.refuse("GC-6A.31", "plot", plotter="Emp Plain", target="Emp Target")        # no value
    table.refuse("GC-6A.31", "plot", plotter="Emp Target", target="Emp Plain")        # Ben's person
    table.refuse("GC-6A.31", "plot", plotter="Emp Plotter", target="Fpa Star")        # another nation
    table.refuse("GC-6A.31", "plot", plotter="Emp Plotter", target="Emp Plotter")
    table.refuse("GC-6A.31", "plot", plotter="Emp Plotter", target="Fez Fox")
    table.do("plot", 6, 6, plotter="Emp Plotter", target="Emp Target")


@pytest.mark.rule("GC-6A.31")
def test_rubinsky_plots_across_nations_and_is_safe_until_ragnarok():
    """GC-6A.31: Rubinsky (special rule) may plot against any nation; before Ragnarok he is plotted against only
    by a counter-plot after his own failed plot."""
    table = Table(setup(CARDS, (event("Twilight", "event", "ragnarok"),)))
    table.start({"Ann": ["Fez Fox", "Emp Plotter"], "Ben": ["Fpa Star", "Twilight"], "Cat": ["Emp Target"]},
                {"Ann": ["Fez Fox", "Emp Plotter"], "Ben": ["Fpa Star"], "Cat": ["Emp Target"]})
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("plot", 1, 1, plotter="Fez Fox", target="Fpa Star")           # 2 < 4: fails; the target counter-plots
    table.do("counter_plot", 6, 6)                                          # 12 >= 8: Rubinsky is destroyed
    assert "Fez Fox" in table.state.destroyed


@pytest.mark.rule("GC-6A.31", "GC-5")
def test_rubinsky_is_a_lawful_target_after_ragnarok():
    """GC-6A.31: once Ragnarok has fired, Rubinsky may be plotted against (here by another Fezzan person)."""
    cards = CARDS + (person("Fez Aide", "FEZ", 0, 1, 0, 2, 6),)
    table = Table(setup(cards, (event("Twilight", "event", "ragnarok"),)))
    table.start({"Ann": ["Fez Aide", "Emp Plotter", "Twilight"], "Ben": ["Fez Fox", "Fpa Star"], "Cat": ["Emp Target"]},
                {"Ann": ["Fez Aide", "Emp Plotter"], "Ben": ["Fez Fox", "Fpa Star"], "Cat": ["Emp Target"]})
    table.do("roll_order", 1)
    table.draw_filler()
    table.refuse("GC-6A.31", "plot", plotter="Fez Aide", target="Fez Fox")
    table.do("use_card", card="Twilight")
    table.next_turn_of("Ann")
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("plot", 6, 6, plotter="Fez Aide", target="Fez Fox")
    assert "Fez Fox" in table.state.destroyed


@pytest.mark.rule("GC-6A.32")
def test_a_successful_plot_destroys_without_vp_and_is_the_turns_plot():
    """GC-6A.32: 2d6 >= the plotter's value destroys the target, no VP (9.2); then neither card nor plot."""
    table = plotting()
    step = table.do("plot", 3, 4, plotter="Emp Plotter", target="Emp Target")   # 7 >= 7
    state = table.state
    assert "Emp Target" in state.destroyed and state.placed("Emp Target") is None and state.vp == {}
    assert state.phase == END and "is destroyed" in step.summary


@pytest.mark.rule("GC-6A.33a")
def test_a_failed_plot_brings_the_counter_plot_bracketed_values_included():
    """GC-6A.33a: after a failed plot a target with any plot value rolls 2d6 >= it: the plotter is destroyed; no
    further counter. A target without a value does nothing."""
    table = plotting()
    table.do("plot", 3, 3, plotter="Emp Plotter", target="Emp Target")      # 6 < 7
    assert table.state.counter is not None and table.state.phase == CARD
    table.refuse("GC-6A.33a", "end_action")
    table.refuse("GC-6A.33a", "use_card", card="Emp Third")
    table.do("counter_plot", 3, 3)                                          # 6 >= (6)
    assert "Emp Plotter" in table.state.destroyed and table.state.phase == END
    table.refuse("GC-6A.33a", "counter_plot", 6, 6)
    quiet = plotting()
    quiet.do("plot", 1, 1, plotter="Emp Plotter", target="Emp Third")
    assert quiet.state.counter is None and quiet.state.phase == END


@pytest.mark.rule("GC-6A.33a")
def test_a_failed_counter_plot_ends_it():
    table = plotting()
    table.do("plot", 1, 1, plotter="Emp Plotter", target="Emp Target")
    table.do("counter_plot", 1, 1)
    assert table.state.placed("Emp Plotter") and table.state.placed("Emp Target") and table.state.phase == END


# --- GC-7.12 / GC-7.21 post plots ------------------------------------------------------------------------

def posts(cmdr_owner: str = "Cat") -> Table:
    hands = {"Ann": ["Emp Plotter", "Emp Plain", "Emp Third", "Emp Fourth"], "Ben": ["Fpa Star", "Emp Bracket"],
             "Cat": ["Fpa Two"]}
    hands[cmdr_owner] = hands[cmdr_owner] + ["Cmdr"]
    return plotting(hands)


@pytest.mark.rule("GC-7.12")
def test_a_vacant_post_is_filled_without_a_roll_but_takes_the_plot():
    """GC-7.12 (Q22): a vacant commander post is filled with no plot, no roll and no plotter; it is still the
    turn's plot."""
    table = plotting({"Ann": ["Emp Plotter", "Emp Plain"], "Ben": ["Fpa Star"], "Cat": ["Fpa Two"]})
    assert table.state.fortress.commander == ""
    table.refuse("GC-7.12", "post_plot", candidate="Fpa Star")
    table.refuse("GC-7.12", "post_plot", plotter="Emp Plotter", candidate="Emp Plain")   # no plotter for it
    step = table.do("post_plot", candidate="Emp Plain")
    assert table.state.fortress.commander == "Emp Plain" and table.state.phase == END and table.state.plotted
    assert step.results == ()
    table.refuse("GC-6A", "garrison_plot", dispatch="Emp Plotter")                       # the plot is used


@pytest.mark.rule("GC-7.12")
def test_a_player_with_no_plotter_fills_a_vacant_post():
    """GC-7.12: no plot is made for a vacant post, so a player without any person of unbracketed plot value
    names his candidate all the same."""
    table = plotting({"Ann": ["Emp Plain", "Emp Third"], "Ben": ["Fpa Star"], "Cat": ["Fpa Two"]})
    assert not any(table.state.person(p.card).may_plot for p in table.state.in_camp("EMP", "Ann"))
    assert "post_plot" in [d.action for d in due_now(table.state)]
    table.do("post_plot", candidate="Emp Third")
    assert table.state.fortress.commander == "Emp Third"


@pytest.mark.rule("GC-7.12")
def test_a_commander_plot_replaces_the_commander_and_destroys_nobody():
    """GC-7.12: name an admiral of your clique in the controlling camp; 2d6 >= the plotter's value makes him
    commander; the old commander stays in play without the post; no counter-plot (Q21), no +2."""
    table = posts()
    assert table.state.fortress.commander == "Cmdr"
    table.refuse("GC-7.12", "post_plot", plotter="Emp Plotter", candidate="Cmdr")
    table.do("post_plot", 1, 1, plotter="Emp Plotter", candidate="Emp Third")       # 2 < 7: fails
    assert table.state.fortress.commander == "Cmdr" and table.state.counter is None
    table2 = posts()
    table2.do("post_plot", 4, 3, plotter="Emp Plotter", candidate="Emp Third")
    assert table2.state.fortress.commander == "Emp Third" and table2.state.placed("Cmdr") is not None
    assert "Cmdr" not in table2.state.fortress.posted


@pytest.mark.rule("GC-7.21")
def test_dispatch_to_a_free_slot_needs_no_roll_and_to_a_full_garrison_a_plot():
    """GC-7.21: up to 3 fleets with the commander; a free slot takes a dispatch with no roll; a full garrison
    takes a plot, the candidate replacing a garrison fleet of the plotter's choice."""
    table = posts()
    table.refuse("GC-7.21", "garrison_plot", plotter="Emp Plotter", dispatch="Emp Third")   # no plotter for it
    for fleet in ("Emp Third", "Emp Fourth"):
        step = table.do("garrison_plot", dispatch=fleet)
        assert step.results == ()
        table.next_turn_of("Ann")
        table.do("roll_order", 1)
        table.draw_filler()
    assert table.state.fortress.posted == ("Cmdr", "Emp Third", "Emp Fourth")
    table.refuse("GC-7.21", "garrison_plot", dispatch="Emp Plain", displace="Emp Third")    # full: a plotter
    table.refuse("GC-7.21", "garrison_plot", plotter="Emp Plotter", dispatch="Emp Plain")
    table.refuse("GC-7.21", "garrison_plot", 3, 4, plotter="Emp Plotter", dispatch="Emp Plain", displace="Cmdr")
    table.do("garrison_plot", 3, 4, plotter="Emp Plotter", dispatch="Emp Plain", displace="Emp Third")
    assert table.state.fortress.garrison == ("Emp Plain", "Emp Fourth")


@pytest.mark.rule("GC-7.21")
def test_release_always_rolls_and_the_commanders_player_adds_2():
    """GC-7.21 (Q22, V7): a release removes a garrison fleet (never the commander) on 2d6 >= the value; the
    commander's player adds 2 to the roll."""
    table = posts(cmdr_owner="Ann")
    table.do("garrison_plot", dispatch="Emp Third")
    table.next_turn_of("Ann")
    table.do("roll_order", 1)
    table.draw_filler()
    table.refuse("GC-7.21", "garrison_plot", plotter="Emp Plotter", release="Cmdr")
    step = table.do("garrison_plot", 2, 3, plotter="Emp Plotter", release="Emp Third")   # 5 + 2 >= 7
    assert table.state.fortress.garrison == () and "+2" in step.summary


@pytest.mark.rule("GC-7.4")
def test_the_corridor_rule_is_off_under_the_invasion_after_ragnarok_and_with_nobody_posted():
    """GC-7.4: off while the Invasion is active, after Ragnarok, or with no commander and no garrison (Q24: an
    absent commander still counts)."""
    table = posts()
    state = table.state
    assert corridor_active(state)
    assert not corridor_active(replace(state, invasion=3)) and not corridor_active(replace(state, ragnarok=True))
    vacant = replace(state, fortress=replace(state.fortress, commander=""))
    assert not corridor_active(vacant)
    absent = state.with_placed(replace(state.placed("Cmdr"), absent=True))
    assert corridor_active(absent)
