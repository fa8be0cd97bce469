"""The shared figures (companion.plots) as Bokeh draws them (hv.render): every legend outside the plot's frame, never on
the data; the labels of a categorical axis apart from each other, also with many or long categories, in the narrowest
frame a figure is drawn in on a tablet; a long category name shortened on the axis and whole in the hover."""
from __future__ import annotations

import math
from fractions import Fraction as F

import holoviews as hv
import pytest
from bokeh.models import ColorBar, FactorRange, HoverTool, Legend

from companion import plots
from companion.odds import Dist, dist

hv.extension("bokeh")

# How much room a tick label takes, approximately (a sans-serif font): a character 0.6 of the font size wide, a line
# (or an upright label's width) 1.2 of it; the narrowest frame is the one the figures are made for.
CHAR, LINE = 0.6, 1.2
WIDTH, HEIGHT = plots.NARROW_PX, plots.LOW_PX
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


def pixels(size: str) -> float:
    return float(size[:-2]) * (4 / 3 if size.endswith("pt") else 1)


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


def shown_labels(plot, axis: str) -> tuple[list[str], list[str], float, float]:
    """A categorical axis: its categories (a nested axis's groups, the labels it shows), those whose label is shown, the
    labels' orientation and font size (px)."""
    ax, rng = (plot.xaxis[0], plot.x_range) if axis == "x" else (plot.yaxis[0], plot.y_range)
    assert isinstance(rng, FactorRange)
    nested = not isinstance(rng.factors[0], str)
    factors = list(dict.fromkeys(f[0] for f in rng.factors)) if nested else list(rng.factors)
    visible = factors if nested else [f for f in factors if ax.major_label_overrides.get(f, f) != ""]
    orientation = ax.group_label_orientation if nested else ax.major_label_orientation
    angle = {"horizontal": 0.0, "parallel": 0.0, "vertical": math.pi / 2}.get(orientation, orientation)
    size = ax.group_text_font_size if nested else ax.major_label_text_font_size
    return factors, visible, angle, pixels(size or "11px")


def assert_apart(plot, axis: str) -> None:
    """Neighbouring labels shown on the axis do not meet in the narrowest frame: each takes its width (level) or a
    line (upright) along an x axis, a line along a y axis, and the categories share the frame evenly."""
    factors, visible, angle, font = shown_labels(plot, axis)
    room = (WIDTH if axis == "x" else HEIGHT) / len(factors)
    for a, b in zip(visible, visible[1:]):
        gap = room * (factors.index(b) - factors.index(a))
        if axis == "y" or abs(angle - math.pi / 2) < 1e-6:
            need = LINE * font
        else:
            assert angle == 0
            need = CHAR * font * (len(a) + len(b)) / 2
        assert need <= gap, (axis, a, b, need, gap)
    assert visible and visible[0] == factors[0]


@pytest.mark.parametrize("n", [3, 10, 15, 30, 60])
def test_count_axes_show_labels_that_stay_apart(n):
    """0..n on the x axis: every label while they fit, then only every few, never two that meet."""
    plot = drawn(plots.hits_bars(binomial(n), "Hits", "hits"))
    assert_apart(plot, "x")
    factors, visible, _, _ = shown_labels(plot, "x")
    assert factors == [str(k) for k in range(n + 1)] and (n > 10 or visible == factors)


def test_many_counts_are_one_bar_each_with_at_least_k_in_the_hover():
    """Too many counts for two bars each: P(exactly k) bars, no legend to cover anything, P(at least k) in the hover."""
    figure = plots.hits_bars(binomial(30), "Union MM after the loss", "Union MM")
    plot = drawn(figure)
    assert not [x for side in ("above", "below", "left", "right", "center") for x in getattr(plot, side)
                if isinstance(x, Legend) and x.items]
    assert list(figure.dimension_values("at least k"))[:2] == ["1", "1073741823/1073741824"]


def test_long_heatmap_categories_stand_upright_and_are_whole_in_the_hover():
    cards = [f"Brigade of General Number {i} (Second Corps)" for i in range(1, 9)]
    figure = plots.heatmap([(c, str(h), F(h, 3)) for c in cards for h in range(3)], "P(a card survives)", "card",
                           "hits", "P(survive)")
    plot = drawn(figure)
    assert_apart(plot, "x")
    factors, _, angle, _ = shown_labels(plot, "x")
    assert angle == pytest.approx(math.pi / 2) and all(len(f) <= plots.NAME_CHARS for f in factors)
    grid = figure.get(0)
    assert {cell.split(" × ")[0] for cell in grid.dimension_values("cell")} == set(cards)


def test_many_and_long_outcomes_keep_their_labels_apart_and_whole_in_the_hover():
    names = [f"outcome {i}: the defender retreats with its units and the attacker advances" for i in range(12)]
    figure = plots.outcome_bars([(n, F(1, 12)) for n in names], "The defender after these attacks")
    plot = drawn(figure)
    assert_apart(plot, "y")
    factors, _, _, _ = shown_labels(plot, "y")
    assert len(set(factors)) == 12 and all(len(f) <= plots.NAME_CHARS for f in factors)
    assert list(figure.dimension_values("name")) == names
    assert any(isinstance(t, HoverTool) for t in plot.toolbar.tools)


def test_short_outcomes_are_shown_as_they_are():
    plot = drawn(plots.outcome_bars([("retreated", F(1, 3)), ("eliminated", F(1, 6)), ("held", F(1, 2))], "Defender"))
    factors, visible, _, _ = shown_labels(plot, "y")
    assert sorted(factors) == sorted(visible) == ["eliminated", "held", "retreated"]
