"""Plots (GC-6A.32, GC-6A.33a) and the plots for Iserlohn's posts (GC-7.12, GC-7.21).

A plot succeeds when 2d6 (+2 for the commander's player on a garrison roll, Q22) reaches the plotter's
value: a lower value is better. After a failed plot on a person, a target that has any plot value,
bracketed or not, counter-plots the same way; there is no further counter. Post plots destroy nobody
and have no counter-plot (Q21).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist
from companion.terms import Terms

from .rules import GARRISON_BONUS
from .two_dice import WAYS, at_least, needs, signed, throw

TARGET_DESTROYED, PLOTTER_DESTROYED, NOTHING = "target destroyed", "plotter destroyed", "nothing"


@dataclass(frozen=True)
class PlotRollInput(Inputs):
    RULE = "GC-6A.32"

    value: int                                          # the plot value to reach
    modifier: int = bounded(0, GARRISON_BONUS, default=0)   # GC-7.21: +2 for the commander's player (Q22)


def need_terms(inputs: PlotRollInput) -> Terms:
    """The 2d6 total that succeeds: the plot value, less the +2 of the player holding the commander (Q22)."""
    terms = Terms((("plot value", inputs.value),))
    return terms.plus("holding the commander", -inputs.modifier) if inputs.modifier else terms


def plot_chance(inputs: PlotRollInput) -> Fraction:
    return Fraction(at_least(need_terms(inputs).total), WAYS)


def resolve_plot_roll(inputs: PlotRollInput, dice: Dice, label: str = "Plot", rule: str = "GC-6A.32") -> Result:
    need = need_terms(inputs)
    total = throw(dice, f"{label}: {needs(need, 'more')} ({rule})")
    done = total >= need.total
    text = f"{label}: {total}{signed(inputs.modifier)} vs plot value {inputs.value}: {'success' if done else 'failure'}"
    return Result("plot_roll", {"value": inputs.value, "modifier": inputs.modifier}, tuple(dice.rolls[-1:]), done,
                  (rule,), text, {"total": total})


def plot_roll_odds(inputs: PlotRollInput) -> Dist:
    p = plot_chance(inputs)
    return dist({True: p, False: 1 - p})


def plot_roll_inputs():
    return [PlotRollInput(value, modifier) for value in range(1, 15) for modifier in (0, 2)]


@dataclass(frozen=True)
class PlotInput(Inputs):
    RULE = "GC-6A.32"

    plotter: int                 # the plotter's (unbracketed) value
    target: int | None = None    # the target's value, bracketed or not; None: no counter-plot


def resolve_plot(inputs: PlotInput, dice: Dice) -> Result:
    """A plot on a person and, after a failure, the target's counter-plot."""
    plot = resolve_plot_roll(PlotRollInput(inputs.plotter), dice)
    results, outcome = [plot], TARGET_DESTROYED if plot.outcome else NOTHING
    if not plot.outcome and inputs.target is not None:
        results.append(resolve_plot_roll(PlotRollInput(inputs.target), dice, "Counter-plot", "GC-6A.33a"))
        outcome = PLOTTER_DESTROYED if results[-1].outcome else NOTHING
    rules = tuple(dict.fromkeys(r for res in results for r in res.rules))
    return Result("plot", {"plotter": inputs.plotter, "target": inputs.target},
                  tuple(r for res in results for r in res.rolls), outcome, rules,
                  "; ".join(r.summary for r in results))


def plot_odds(inputs: PlotInput) -> Dist:
    """P(target destroyed) = q(P_p); P(plotter destroyed) = (1 - q(P_p)) q(P_t)."""
    p = plot_chance(PlotRollInput(inputs.plotter))
    back = plot_chance(PlotRollInput(inputs.target)) if inputs.target is not None else Fraction(0)
    return dist({TARGET_DESTROYED: p, PLOTTER_DESTROYED: (1 - p) * back, NOTHING: (1 - p) * (1 - back)})


def plot_inputs():
    return [PlotInput(p, t) for p in (2, 5, 8, 12, 13) for t in (None, 3, 6, 11, 13)]
