"""Galactic Chess Game: the plot after the draw (GC-6A.3) and the plots for Iserlohn's posts (GC-7.12, GC-7.21).

- GC-6A.31: a person of the active player's with an unbracketed plot value plots against a person in play of
  his own nation (Rubinsky: any nation; Rubinsky himself only after Ragnarok). GC-6A.32: 2d6 >= the value
  destroys the target; GC-6A.33a: after a failure a target with a plot value counter-plots.
- GC-7.12 / GC-7.21: the commander post and the garrison slots: a vacant post or a free slot is filled with no
  plot, no roll and no plotter; otherwise a plot by a person of the player's in the controlling camp (Q23),
  +2 on garrison rolls for the commander's player (Q22). Either is the turn's plot.
"""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import Result, RuleError, Step
from companion.spec import NOT_ASKED, Barred, Choice, one_of

from . import civil_war
from .actions import actions, card_step, in_phase, lead, over_the_limit
from .fortress import (
    COMMANDER,
    DISPATCH,
    RELEASE,
    dispatch_candidates,
    garrison_modifier,
    needs_plot,
    post_candidates,
    post_plotters,
)
from .plots import PlotRollInput, resolve_plot_roll
from .rules import HAND_LIMIT, NATION
from .state import CARD, END, CounterPlot, GameState
from .table import remove_persons


def may_plot(state: GameState) -> None:
    """GC-6A: a plot after the draw, instead of a card; not with more than 6 cards (GC-6A.1)."""
    card_step(state)
    if over_the_limit(state):
        raise RuleError("GC-6A.1", f"More than {HAND_LIMIT} cards: a card must be used, not a plot")


def plot_targets(state: GameState, plotter: str) -> list[str]:
    """GC-6A.31: persons in play of the plotter's nation (Rubinsky: any nation); Rubinsky himself only
    after Ragnarok."""
    rubinsky = state.person(plotter).role == "rubinsky"
    return [p.card for p in state.in_play if p.card != plotter
            and (rubinsky or NATION[p.camp] == state.nation_of(plotter))
            and (state.ragnarok or state.person(p.card).role != "rubinsky")]


def plotters(state: GameState) -> list[str]:
    """GC-6A.31: the active player's persons in play with an unbracketed plot value and someone to plot against."""
    return [p.card for p in state.in_play if p.owner == state.player and state.person(p.card).may_plot
            and plot_targets(state, p.card)]


def _plot_open(state: GameState) -> None:
    may_plot(state)
    if not plotters(state):
        raise RuleError("GC-6A.31", f"{state.player} has no person in play with a plot value and someone of his "
                                    "nation to plot against")


def _target_choices(state: GameState, chosen) -> list:
    """GC-6A.31: the plotter's targets; Rubinsky, before Ragnarok, only by a counter-plot."""
    plotter = chosen["plotter"]
    rubinsky = [p.card for p in state.in_play if state.person(p.card).role == "rubinsky" and p.card != plotter
                and not state.ragnarok and (state.person(plotter).role == "rubinsky"
                                            or NATION[p.camp] == state.nation_of(plotter))]
    return plot_targets(state, plotter) + [Barred(r, r, "GC-6A.31", "cannot be plotted against before Ragnarok")
                                           for r in rubinsky]


def _after_plot(state: GameState, new: GameState, result: Result, counter: CounterPlot | None, text: str,
                rules: tuple[str, ...]) -> Step:
    new = replace(civil_war.settle(new), plotted=True, counter=counter, phase=CARD if counter else END)
    if counter:
        text += f"; {counter.target} counter-plots"
    return Step(new, f"{lead(state)}: {text}", rules + (("GC-6A.33a",) if counter else ()), (result,))


@actions("Plot", "GC-6A.32",
         one_of("plotter", "Plotter (a person of yours with a plot value)", "GC-6A.31", lambda s, c: plotters(s)),
         one_of("target", "Target (a person of the same nation)", "GC-6A.31", _target_choices),
         when=_plot_open)
def plot(state: GameState, dice: Dice, plotter: str, target: str) -> Step:
    """GC-6A.32: 2d6 >= the plotter's value destroys the target (no VP); after a failure a target with a
    plot value counter-plots (GC-6A.33a)."""
    result = resolve_plot_roll(PlotRollInput(state.person(plotter).plot), dice, f"Plot by {plotter} on {target}")
    if result.outcome:
        return _after_plot(state, remove_persons(state, [target], "plot"), result, None,
                           f"{result.summary}: {target} is destroyed", ("GC-6A.32",))
    counter = CounterPlot(plotter, target) if state.person(target).plot is not None else None
    return _after_plot(state, state, result, counter, result.summary, ("GC-6A.32",))


def _counter_open(state: GameState) -> None:
    in_phase(CARD, rule="GC-6A.33a")(state)
    if state.counter is None:
        raise RuleError("GC-6A.33a", "A counter-plot follows only a failed plot on a person with a plot value")


@actions("Counter-plot", "GC-6A.33a", when=_counter_open)
def counter_plot(state: GameState, dice: Dice) -> Step:
    """GC-6A.33a: the target of a failed plot rolls 2d6 >= its value (brackets allowed): the plotter is
    destroyed. There is no further counter."""
    counter = state.counter
    result = resolve_plot_roll(PlotRollInput(state.person(counter.target).plot), dice,
                               f"Counter-plot by {counter.target} on {counter.plotter}", "GC-6A.33a")
    new = replace(state, counter=None, phase=END)
    text = result.summary
    if result.outcome:
        new = civil_war.settle(remove_persons(new, [counter.plotter], "plot"))
        text += f": {counter.plotter} is destroyed"
    return Step(new, f"{lead(state)}: {text}", ("GC-6A.33a",), (result,))


# --- GC-7.12 / GC-7.21 Iserlohn's posts -------------------------------------------------------------------

def _post_counter(state: GameState, plotter: str, defender: str) -> CounterPlot | None:
    """Q21 option: the commander, or the displaced or released fleet, counter-plots a failed post plot."""
    if state.options["post_counter_plot"] and defender and state.person(defender).plot is not None:
        return CounterPlot(plotter, defender)
    return None


def _plotter_choices(state: GameState, chosen):
    """GC-7.12 / GC-7.21: a person of the player's in the controlling camp with an unbracketed plot value, when
    the move is a plot; not asked when the post is vacant or a slot is free (no plot, no roll, no plotter)."""
    move = COMMANDER if "candidate" in chosen else DISPATCH if chosen["dispatch"] else RELEASE
    return post_plotters(state, state.player) if needs_plot(state, move) else NOT_ASKED


def _post_open(state: GameState) -> None:
    may_plot(state)
    if not post_candidates(state, state.player):
        raise RuleError("GC-7.12", f"{state.player} has no admiral in {state.fortress.controller}, the camp holding "
                                   "Iserlohn, who could take the post")
    if needs_plot(state, COMMANDER) and not post_plotters(state, state.player):
        raise RuleError("GC-7.12", f"The post is held: a plot needs a person of {state.player}'s in "
                                   f"{state.fortress.controller} with an unbracketed plot value")


@actions("Plot for Iserlohn's commander post", "GC-7.12",
         one_of("candidate", "New commander (an admiral of yours in the camp holding Iserlohn)", "GC-7.12",
                lambda s, c: post_candidates(s, s.player)),
         one_of("plotter", "Plotter (none when the post is vacant)", "GC-7.12", _plotter_choices,
                default=""),
         when=_post_open)
def post_plot(state: GameState, dice: Dice, candidate: str, plotter: str) -> Step:
    """GC-7.12: make one of your admirals in the controlling camp Iserlohn's commander. A vacant post is filled
    with no plot, no roll and no plotter (it still is the turn's plot, Q22); a held one by a plot, 2d6 >= the
    plotter's value: nobody is destroyed, the old commander leaves the post (Q23)."""
    f = state.fortress
    garrison = tuple(g for g in f.garrison if g != candidate)
    promoted = replace(state, fortress=replace(f, commander=candidate, garrison=garrison))
    if not needs_plot(state, COMMANDER):
        new = replace(promoted, plotted=True, phase=END)
        return Step(new, f"{lead(state)}: the post is vacant: {candidate} becomes Iserlohn's commander, no plot "
                         "needed", ("GC-7.12",))
    bonus = garrison_modifier(state, state.player, post=True)
    result = resolve_plot_roll(PlotRollInput(state.person(plotter).plot, bonus), dice,
                               f"Commander plot by {plotter} for {candidate}", "GC-7.12")
    if result.outcome:
        return _after_plot(state, promoted, result, None, f"{result.summary}: {candidate} replaces {f.commander}",
                           ("GC-7.12",))
    return _after_plot(state, state, result, _post_counter(state, plotter, f.commander), result.summary, ("GC-7.12",))


def _may_dispatch(state: GameState) -> bool:
    return bool(dispatch_candidates(state, state.player)) and (
        not needs_plot(state, DISPATCH) or bool(post_plotters(state, state.player)))


def _may_release(state: GameState) -> bool:
    return bool(state.fortress.garrison and post_plotters(state, state.player))


def _garrison_open(state: GameState) -> None:
    may_plot(state)
    if not (_may_dispatch(state) or _may_release(state)):
        raise RuleError("GC-7.21", f"{state.player} can neither dispatch an admiral of his clique in "
                                   f"{state.fortress.controller} to Iserlohn nor release a garrison fleet by a plot")


def _dispatch_choices(state: GameState, chosen) -> list:
    """GC-7.21: an admiral of the player's clique in the controlling camp, not posted yet (a plot, replacing a
    garrison fleet, when the garrison is full); or "" to release a fleet instead."""
    found = [Choice("", "none: release a garrison fleet")] if _may_release(state) else []
    return found + (dispatch_candidates(state, state.player) if _may_dispatch(state) else [])


def _release_choices(state: GameState, chosen):
    """GC-7.21: a garrison fleet other than the commander (Q23), when nobody is dispatched."""
    return NOT_ASKED if chosen["dispatch"] else state.fortress.garrison


def _displace_choices(state: GameState, chosen):
    """GC-7.21 (Q23): when the garrison is full, the fleet the dispatched admiral replaces, not the commander."""
    return state.fortress.garrison if chosen["dispatch"] and needs_plot(state, DISPATCH) else NOT_ASKED


@actions("Plot for Iserlohn's garrison", "GC-7.21",
         one_of("dispatch", "Admiral dispatched to Iserlohn", "GC-7.21", _dispatch_choices, default=""),
         one_of("release", "Garrison fleet released", "GC-7.21", _release_choices, default=""),
         one_of("displace", "Garrison fleet replaced (the garrison is full)", "GC-7.21", _displace_choices, default=""),
         one_of("plotter", "Plotter (none when a slot is free)", "GC-7.21", _plotter_choices,
                default=""),
         when=_garrison_open)
def garrison_plot(state: GameState, dice: Dice, dispatch: str, release: str, displace: str, plotter: str) -> Step:
    """GC-7.21: dispatch one of your admirals to Iserlohn (while fewer than 3 fleets are there, with no plot, no
    roll and no plotter; when full, a plot, the candidate replacing a garrison fleet of your choice), or release
    a garrison fleet (always a plot). The commander's player adds 2 to the roll (Q22)."""
    f = state.fortress
    if dispatch and not needs_plot(state, DISPATCH):
        new = replace(state, fortress=replace(f, garrison=f.garrison + (dispatch,)), plotted=True, phase=END)
        return Step(new, f"{lead(state)}: a slot is free: {dispatch} joins Iserlohn's garrison, no plot needed",
                    ("GC-7.21",))
    if dispatch:
        after = replace(f, garrison=tuple(dispatch if g == displace else g for g in f.garrison))
        what, defender = f"dispatch {dispatch} in place of {displace}", displace
    else:
        after = replace(f, garrison=tuple(g for g in f.garrison if g != release))
        what, defender = f"release {release}", release
    bonus = garrison_modifier(state, state.player, post=False)
    result = resolve_plot_roll(PlotRollInput(state.person(plotter).plot, bonus), dice,
                               f"Garrison plot by {plotter} to {what}", "GC-7.21")
    if result.outcome:
        return _after_plot(state, replace(state, fortress=after), result, None, f"{result.summary}: {what}",
                           ("GC-7.21",))
    return _after_plot(state, state, result, _post_counter(state, plotter, defender), result.summary, ("GC-7.21",))
