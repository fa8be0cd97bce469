"""The shared figures (companion.plots) as Bokeh draws them: every legend outside the plot's frame, never on the data;
the labels of a categorical axis apart from each other, also with many or long categories: long ones upright (and
shortened, whole in the hover), and any that would still meet left out by the browser (Bokeh's NoOverlap policy,
which measures the labels on the page); the exact fraction in every hover; a figure of the same kind put into the one
a page shows (`patch`)."""
from __future__ import annotations

import math
import re
from fractions import Fraction as F

import pytest
from bokeh.models import ColorBar, FactorRange, HoverTool, Legend, LinearColorMapper, NoOverlap

from companion import plots
from companion.odds import Dist, dist
from tests.figures import data, exactly, outcomes, series

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
EVERY_KIND = {
    **FIGURES_WITH_LEGENDS,
    "outcomes": lambda: plots.outcome_bars([("held", F(1, 3)), ("retreated", F(2, 3))], "Defender"),
    "grid": lambda: plots.heatmap([("1-2", "0", F(1, 6)), ("3-4", "0", F(1, 3))], "Expected hits", "SP column",
                                  "modifier", "expected hits"),
    "one curve": lambda: plots.curves({"one": [(1, F(1, 2))]}, "other", "n", "p"),
}


@pytest.mark.parametrize("kind", FIGURES_WITH_LEGENDS)
def test_every_legend_is_outside_the_frame(kind):
    plot = FIGURES_WITH_LEGENDS[kind]()
    legends = [x for side in ("above", "below", "left", "right", "center") for x in getattr(plot, side)
               if isinstance(x, Legend)]
    assert legends and all(legend.items for legend in legends)
    assert not [x for x in plot.center if isinstance(x, Legend)]
    outside = plot.above + plot.below + plot.left + plot.right
    assert all(legend in outside for legend in legends)


def test_a_long_legend_has_one_entry_a_line():
    """Entries too long to stand side by side in the narrowest frame are stacked, each whole, and the figure is taller
    by the second line; short ones stand in a row."""
    plot = FIGURES_WITH_LEGENDS["curves, long names"]()
    [legend] = [x for x in plot.above if isinstance(x, Legend)]
    assert legend.orientation == "vertical" and plot.height == plots.HEIGHT + plots.LINE_PX
    assert LONG in [item.label.value for item in legend.items]
    plot = FIGURES_WITH_LEGENDS["curves"]()
    [short] = [x for x in plot.above if isinstance(x, Legend)]
    assert short.orientation == "horizontal" and [item.label.value for item in short.items] == ["day 1", "day 2"]
    assert plot.height == plots.HEIGHT


def test_the_heatmaps_colour_bar_is_beside_the_grid():
    plot = EVERY_KIND["grid"]()
    assert [x for x in plot.right if isinstance(x, ColorBar)] and not [x for x in plot.center if isinstance(x, ColorBar)]


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_every_hover_shows_the_exact_values_of_its_layer(kind):
    """Each hover names only columns its layers have, and one of them is an exact fraction (a/b or a whole number)."""
    plot = EVERY_KIND[kind]()
    hovers = plot.select(HoverTool)
    assert hovers and plot.toolbar_location is None
    for hover in hovers:
        for layer in hover.renderers:
            columns = layer.data_source.data
            named = re.findall(r"@(\w+)", " ".join(text for _, text in hover.tooltips))
            assert named and all(name in columns for name in named)
            assert any(re.fullmatch(r"\d+(/\d+)?", str(v)) for name in named for v in columns[name])


def category_axis(plot, axis: str) -> tuple[list[str], str, object]:
    """A categorical axis: its categories, the labels' orientation and the policy by which the browser leaves out a
    label that would meet another."""
    ax, rng = (plot.xaxis[0], plot.x_range) if axis == "x" else (plot.yaxis[0], plot.y_range)
    assert isinstance(rng, FactorRange)
    return list(rng.factors), ax.major_label_orientation, ax.major_label_policy


@pytest.mark.parametrize("n", [3, 15, 40])
def test_count_axes_leave_out_labels_that_would_meet(n):
    """0..n on the x axis, two bars a count: the counts label the axis level, and in a frame too narrow for all of them
    the browser shows only those that stay apart (NoOverlap), never two that meet."""
    plot = plots.hits_bars(binomial(n), "Hits", "hits")
    factors, orientation, policy = category_axis(plot, "x")
    assert factors == [str(k) for k in range(n + 1)] and orientation == "horizontal"
    assert isinstance(policy, NoOverlap)


def test_hits_bars_give_p_exactly_and_p_at_least_of_each_count():
    """3 fair coins: exactly 0..3 heads 1/8, 3/8, 3/8, 1/8; at least 1, 7/8, 1/2, 1/8."""
    plot = plots.hits_bars(binomial(3), "Hits")
    assert exactly(plot) == {"0": "1/8", "1": "3/8", "2": "3/8", "3": "1/8"}
    assert data(plot)["at_least_fraction"] == ["1", "7/8", "1/2", "1/8"]
    assert [item.label.value for item in plot.legend[0].items] == [plots.EXACTLY, plots.AT_LEAST]


def test_long_heatmap_categories_stand_upright_and_are_whole_in_the_hover():
    """Eight long names side by side would need far more than the narrowest frame: they stand upright, shortened (an
    upright label of 12 characters), whole in the hover, the ones that would still meet left out."""
    cards = [f"Brigade of General Number {i} (Second Corps)" for i in range(1, 9)]
    plot = plots.heatmap([(c, str(h), F(h, 3)) for c in cards for h in range(3)], "P(a card survives)", "card",
                         "hits", "P(survive)")
    factors, orientation, policy = category_axis(plot, "x")
    assert orientation == "vertical" and isinstance(policy, NoOverlap)
    assert len(set(factors)) == 8 and all(len(f) <= 12 for f in factors)
    assert {cell.split(" × ")[0] for cell in data(plot)["cell"]} == set(cards)
    assert data(plot)["exact"][:3] == ["0", "1/3", "2/3"]


def test_short_heatmap_categories_lie_level():
    factors, orientation, _ = category_axis(plots.heatmap(
        [(c, m, F(1, 6)) for c in ("1-2", "3-4", "5-6") for m in ("-1", "0")], "Expected hits", "SP column",
        "modifier", "expected hits"), "x")
    assert factors == ["1-2", "3-4", "5-6"] and orientation == "horizontal"


def test_many_and_long_outcomes_keep_their_labels_apart_and_whole_in_the_hover():
    names = [f"outcome {i}: the defender retreats with its units and the attacker advances" for i in range(12)]
    plot = plots.outcome_bars([(n, F(1, 12)) for n in names], "The defender after these attacks")
    factors, _, policy = category_axis(plot, "y")
    assert len(set(factors)) == 12 and all(len(f) <= plots.NAME_CHARS for f in factors)
    assert isinstance(policy, NoOverlap)
    assert list(outcomes(plot)) == names


def test_outcomes_are_read_in_their_order_from_the_top():
    """A category axis counts from the bottom: the first outcome is its last category."""
    factors, _, _ = category_axis(plots.outcome_bars(
        [("retreated", F(1, 3)), ("eliminated", F(1, 6)), ("held", F(1, 2))], "Defender"), "y")
    assert factors == ["held", "eliminated", "retreated"]


def test_a_figure_of_the_same_kind_is_put_into_the_one_shown():
    """Another count, title and axis label in the figure shown: its data, categories, title, axis and hover are the
    new figure's; its models are the same (the page keeps them and redraws the data)."""
    shown = plots.hits_bars(binomial(2), "2 coins", "hits")
    source, x_range = shown.renderers[0].data_source, shown.x_range
    assert plots.patch(shown, plots.hits_bars(binomial(4), "4 coins", "heads"))
    assert shown.renderers[0].data_source is source and shown.x_range is x_range
    assert exactly(shown) == {"0": "1/16", "1": "1/4", "2": "3/8", "3": "1/4", "4": "1/16"}
    assert list(x_range.factors) == ["0", "1", "2", "3", "4"]
    assert shown.title.text == "4 coins" and shown.xaxis[0].axis_label == "heads"
    assert ("heads", "@k") in shown.select(HoverTool)[0].tooltips


def test_a_patched_grid_and_curves_take_the_new_colour_scale_and_names():
    grid = plots.heatmap([("a", "b", F(1))], "g", "x", "y", "v")
    assert plots.patch(grid, plots.heatmap([("a", "b", F(1)), ("c", "b", F(5))], "g", "x", "y", "v"))
    assert (grid.select_one(LinearColorMapper).low, grid.select_one(LinearColorMapper).high) == (1, 5)
    curve = plots.curves({"day 1": [(1, F(1, 2))], "day 2": [(1, F(1, 4))]}, "c", "n", "p")
    assert plots.patch(curve, plots.curves({LONG: [(1, F(1, 3))], "day 3": [(1, F(1, 5))]}, "c", "n", "p"))
    assert series(curve) == {LONG: {1: "1/3"}, "day 3": {1: "1/5"}}
    assert [item.label.value for item in curve.legend[0].items] == [LONG, "day 3"]
    assert curve.legend[0].orientation == "vertical" and curve.height == plots.HEIGHT + plots.LINE_PX


@pytest.mark.parametrize("shown, new", [("bars", "outcomes"), ("outcomes", "grid"), ("grid", "bars"),
                                         ("curves", "one curve")])
def test_a_figure_of_another_kind_is_not_put_into_the_one_shown(shown, new):
    """Another kind of chart, or curves with another number of lines: `patch` refuses and leaves the figure as it was."""
    figure = EVERY_KIND[shown]()
    before = [dict(layer.data_source.data) for layer in figure.renderers], figure.title.text
    assert not plots.patch(figure, EVERY_KIND[new]())
    assert ([dict(layer.data_source.data) for layer in figure.renderers], figure.title.text) == before
