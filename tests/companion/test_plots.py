"""The shared figures (companion.plots) as Bokeh draws them (hv.render): every legend outside the plot's frame, never on
the data; the labels of a categorical axis apart from each other, also with many or long categories: long ones upright
(and shortened, whole in the hover), and any that would still meet left out by the browser (Bokeh's NoOverlap policy,
which measures the labels on the page)."""
from __future__ import annotations

import math
from fractions import Fraction as F

import holoviews as hv
import pytest
from bokeh.models import ColorBar, FactorRange, HoverTool, Legend, NoOverlap

from companion import plots
from companion.odds import Dist, dist

hv.extension("bokeh")

LONG = "CSA aware by scouts, from the first Union crossing at Sudley or Farm Ford (BR-8.4a)"


def binomial(n: int) -> Dist:
    """How many of n fair coins come up heads: n + 1 outcomes."""
    return dist({k: math.comb(n, k) for k in range(n + 1)})


FIGURES_WITH_LEGENDS = {
    "bars": lambda: plots.hits_bars(binomial(3), "Hits"),
    "curves": lambda: plots.curves({"day 1": [(1, F(1, 2)), (2, F(1, 4))], "day 2": [(1, F(1, 3)), (2, F(1, 9))]},
                                   "P(fire limit ≥ k)", "k units", "probability"),
    "curves, long names": lambda: plots.curves({LONG: [(n, F(n, 15)) for n in range(1, 16)],
                                                "Farm Ford found (BR-8.4b)": [(n, F(n, 16)) for n in range(1, 16)]},
                                               "Chance it has happened by turn n", "turn", "probability"),
}


def drawn(figure):
    return hv.render(figure, backend="bokeh")


@pytest.mark.parametrize("kind", FIGURES_WITH_LEGENDS)
def test_every_legend_is_outside_the_frame(kind):
    plot = drawn(FIGURES_WITH_LEGENDS[kind]())
    legends = [x for side in ("above", "below", "left", "right", "center") for x in getattr(plot, side)
               if isinstance(x, Legend)]
    assert legends and all(legend.items for legend in legends)
    assert not [x for x in plot.center if isinstance(x, Legend)]
    outside = plot.above + plot.below + plot.left + plot.right
    assert all(legend in outside for legend in legends)


def test_a_long_legend_has_one_entry_a_line():
    """Entries too long to stand side by side in the narrowest frame are stacked, each whole."""
    [legend] = [x for x in drawn(FIGURES_WITH_LEGENDS["curves, long names"]()).above if isinstance(x, Legend)]
    assert legend.ncols == 1 or legend.orientation == "vertical"
    assert LONG in [item.label["value"] for item in legend.items]


def test_the_heatmaps_colour_bar_is_beside_the_grid():
    plot = drawn(plots.heatmap([("1-2", "0", F(1, 6)), ("3-4", "0", F(1, 3))], "Expected hits", "SP column",
                               "modifier", "expected hits"))
    assert [x for x in plot.right if isinstance(x, ColorBar)] and not [x for x in plot.center if isinstance(x, ColorBar)]


def category_axis(plot, axis: str) -> tuple[list[str], str, object]:
    """A categorical axis: its categories (a nested axis's groups, the labels it shows), the labels' orientation and
    the policy by which the browser leaves out a label that would meet another."""
    ax, rng = (plot.xaxis[0], plot.x_range) if axis == "x" else (plot.yaxis[0], plot.y_range)
    assert isinstance(rng, FactorRange)
    nested = not isinstance(rng.factors[0], str)
    factors = list(dict.fromkeys(f[0] for f in rng.factors)) if nested else list(rng.factors)
    orientation = ax.group_label_orientation if nested else ax.major_label_orientation
    return factors, orientation, ax.major_label_policy


@pytest.mark.parametrize("n", [3, 15, 40])
def test_count_axes_leave_out_labels_that_would_meet(n):
    """0..n on the x axis, two bars a count: the counts label the axis level, and in a frame too narrow for all of them
    the browser shows only those that stay apart (NoOverlap), never two that meet."""
    plot = drawn(plots.hits_bars(binomial(n), "Hits", "hits"))
    factors, orientation, policy = category_axis(plot, "x")
    assert factors == [str(k) for k in range(n + 1)] and orientation == "horizontal"
    assert isinstance(policy, NoOverlap)


def test_long_heatmap_categories_stand_upright_and_are_whole_in_the_hover():
    """Eight long names side by side would need far more than the narrowest frame: they stand upright, shortened (an
    upright label of 12 characters), whole in the hover, the ones that would still meet left out."""
    cards = [f"Brigade of General Number {i} (Second Corps)" for i in range(1, 9)]
    figure = plots.heatmap([(c, str(h), F(h, 3)) for c in cards for h in range(3)], "P(a card survives)", "card",
                           "hits", "P(survive)")
    factors, orientation, policy = category_axis(drawn(figure), "x")
    assert orientation == "vertical" and isinstance(policy, NoOverlap)
    assert len(set(factors)) == 8 and all(len(f) <= 12 for f in factors)
    assert {cell.split(" × ")[0] for cell in figure.get(0).dimension_values("cell")} == set(cards)


def test_short_heatmap_categories_lie_level():
    factors, orientation, _ = category_axis(drawn(plots.heatmap(
        [(c, m, F(1, 6)) for c in ("1-2", "3-4", "5-6") for m in ("-1", "0")], "Expected hits", "SP column",
        "modifier", "expected hits")), "x")
    assert factors == ["1-2", "3-4", "5-6"] and orientation == "horizontal"


def test_many_and_long_outcomes_keep_their_labels_apart_and_whole_in_the_hover():
    names = [f"outcome {i}: the defender retreats with its units and the attacker advances" for i in range(12)]
    figure = plots.outcome_bars([(n, F(1, 12)) for n in names], "The defender after these attacks")
    plot = drawn(figure)
    factors, _, policy = category_axis(plot, "y")
    assert len(set(factors)) == 12 and all(len(f) <= plots.NAME_CHARS for f in factors)
    assert isinstance(policy, NoOverlap)
    assert list(figure.dimension_values("name")) == names
    assert any(isinstance(t, HoverTool) for t in plot.toolbar.tools)


def test_short_outcomes_are_shown_as_they_are():
    factors, _, _ = category_axis(drawn(plots.outcome_bars(
        [("retreated", F(1, 3)), ("eliminated", F(1, 6)), ("held", F(1, 2))], "Defender")), "y")
    assert sorted(factors) == ["eliminated", "held", "retreated"]
