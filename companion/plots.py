"""Bokeh figures of exact distributions, one look for every app and notebook.

Each builder takes exact distributions (or rows computed from them) and returns a Bokeh figure: big type (`FONTS`,
in pixels: read at arm's length on a tablet, tick labels 15 px), no toolbar to fumble on a touch screen, hover showing
the exact fraction, the page's width, and colours that read in light and dark themes (Okabe-Ito, colour-blind safe).
A figure's data is in its sources, so that a page can put a new figure of the same kind into the one it shows
(`patch`): the browser then redraws the data, not the whole figure.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Iterable, Mapping, Sequence

from bokeh.models import (ColorBar, ColumnDataSource, DataRange1d, FactorRange, HoverTool, Legend, LinearColorMapper,
                          NoOverlap, Range1d)
from bokeh.plotting import figure as Figure
from bokeh.palettes import Viridis256
from bokeh.transform import dodge, transform

from .odds import Dist, at_least_table

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442")
EXACTLY, AT_LEAST = "exactly k", "at least k"
HEIGHT = 280  # px: a figure's height; its width is the page's

FONTS = {"title": "16px", "labels": "16px", "ticks": "15px", "legend": "16px", "cticks": "15px", "clabel": "16px"}


# --- legends outside the data, tick labels apart -----------------------------------------------------------------
# Sizes in pixels for the narrowest frame a figure is drawn in on a tablet (an odds card beside the page), so that what
# is apart there is apart in any wider one: a text's width is CHAR_EM of its font size a character.
NARROW_PX = 300                  # the narrowest frame's width
LABEL_PX, CHAR_EM = 16, 0.6      # tick and legend labels at most this size; a character's width in font sizes
LINE_PX = 27                     # a legend's line: a figure is as much taller for each line after the first
NAME_CHARS, UPRIGHT_CHARS = 24, 12  # a category name longer is shortened on an axis, upright ones more (whole in the hover)


def short_names(names: Sequence[str], limit: int = NAME_CHARS) -> list[str]:
    """Category names as an axis shows them: each at most `limit` long, a longer one cut with "…", all different."""
    shown = []
    for i, name in enumerate(names):
        cut = name if len(name) <= limit else name[:limit - 1] + "…"
        shown.append(cut if cut not in shown else f"{name[:limit - 1 - len(str(i + 1))]}…{i + 1}")
    return shown


def upright(labels: Sequence[str]) -> bool:
    """An x axis's labels stand upright when they do not fit side by side in the narrowest frame and are longer than a
    few characters (short ones, such as counts, lie level and the ones that would meet are left out)."""
    wide = max(map(len, labels), default=0) * CHAR_EM * LABEL_PX + LABEL_PX / 2     # a label along the axis, a gap
    return len(labels) * wide > NARROW_PX and wide > 3 * LABEL_PX


def percent(p: Fraction | float) -> str:
    return f"{float(p) * 100:.1f}%"


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def exact_text(p: Fraction | float) -> str:
    """A fraction as a fraction; a float (a value computed in floating point) to 4 decimals, not as the
    huge fraction of its binary value."""
    return f"{p:.4f}" if isinstance(p, float) else fraction_text(Fraction(p))


def _figure(kind: str, title: str, x_range, y_range, xlabel: str, ylabel: str, height: int) -> Figure:
    """A figure of one `kind` (its tag): the page's width, no tools but the hover, the text at `FONTS`, and the
    labels of an axis that would meet left out by the browser (Bokeh's NoOverlap, measured on the page)."""
    fig = Figure(title=title, x_range=x_range, y_range=y_range, x_axis_label=xlabel, y_axis_label=ylabel,
                 height=height, min_height=height, sizing_mode="stretch_width", tools="", toolbar_location=None,
                 tags=[kind])
    fig.title.text_font_size = FONTS["title"]
    for axis in fig.axis:
        axis.update(axis_label_text_font_size=FONTS["labels"], major_label_text_font_size=FONTS["ticks"],
                    major_label_policy=NoOverlap())
    return fig


def _legend(fig, names: Sequence[str]) -> None:
    """A legend above the plot, never on the data: in one row when it fits the narrowest frame, else one a line (the
    figure taller by the lines it adds). The renderers drawn afterwards with a `legend_label` are its entries."""
    row = sum(len(name) * CHAR_EM * LABEL_PX + 2.5 * LABEL_PX for name in names)
    lines = len(names) if row > NARROW_PX else 1
    fig.add_layout(Legend(orientation="vertical" if lines > 1 else "horizontal", location="top_left",
                          label_text_font_size=FONTS["legend"], click_policy="none"), "above")
    fig.update(height=fig.height + (lines - 1) * LINE_PX, min_height=fig.min_height + (lines - 1) * LINE_PX)


def _hover(fig, renderers, tooltips) -> None:
    fig.add_tools(HoverTool(renderers=list(renderers), tooltips=tooltips))


def _upright_x(fig, labels: Sequence[str]) -> None:
    if upright(labels):
        fig.xaxis.major_label_orientation = "vertical"


def hits_bars(d: Dist, title: str, what: str = "hits", height: int = HEIGHT) -> Figure:
    """P(exactly k) and P(at least k) side by side for each k of a count distribution."""
    table = at_least_table(d)
    ks = [str(k) for k, _, _ in table]
    source = ColumnDataSource({
        "k": ks, "exactly": [float(e) for _, e, _ in table], "at_least": [float(a) for _, _, a in table],
        "exactly_fraction": [fraction_text(e) for _, e, _ in table],
        "at_least_fraction": [fraction_text(a) for _, _, a in table],
        "exactly_percent": [percent(e) for _, e, _ in table], "at_least_percent": [percent(a) for _, _, a in table]})
    fig = _figure("hits", title, FactorRange(*ks), Range1d(0, 1.05), what, "probability", height)
    _legend(fig, (EXACTLY, AT_LEAST))
    for offset, column, name, colour in ((-0.2, "exactly", EXACTLY, PALETTE[0]),
                                         (0.2, "at_least", AT_LEAST, PALETTE[1])):
        bars = fig.vbar(x=dodge("k", offset, range=fig.x_range), top=column, width=0.38, source=source,
                        color=colour, legend_label=name)
        _hover(fig, [bars], [(what, "@k"), (name, f"@{column}_fraction (@{column}_percent)")])
    _upright_x(fig, ks)
    return fig


def outcome_bars(pairs: Sequence[tuple[Hashable, Fraction]], title: str,
                 colors: Mapping[str, str] | None = None, height: int = HEIGHT) -> Figure:
    """Named outcomes (win / draw / loss, retreats / holds ...) as horizontal bars in a fixed order, the first on top;
    a long name is shortened on the axis and whole in the hover."""
    names = [str(name) for name, _ in pairs]
    shown = short_names(names)
    source = ColumnDataSource({
        "outcome": shown, "name": names, "probability": [float(p) for _, p in pairs],
        "fraction": [fraction_text(p) for _, p in pairs], "percent": [percent(p) for _, p in pairs],
        "colour": [(colors or {}).get(name, PALETTE[i % len(PALETTE)]) for i, name in enumerate(names)]})
    fig = _figure("outcomes", title, Range1d(0, 1.05), FactorRange(*reversed(shown)), "probability", "", height)
    bars = fig.hbar(y="outcome", right="probability", height=0.8, source=source, color="colour")
    _hover(fig, [bars], [("", "@name"), ("probability", "@fraction (@percent)")])
    return fig


def heatmap(cells: Iterable[tuple[Hashable, Hashable, Fraction]], title: str, x: str, y: str, value: str,
            height: int = HEIGHT) -> Figure:
    """A grid of exact values (e.g. expected hits over SP column x modifier), each cell labelled; long names shortened
    on the axes (whole in the hover), the colour bar beside the grid."""
    cells = [(str(a), str(b), v) for a, b, v in cells]
    xs, ys = (list(dict.fromkeys(c[i] for c in cells)) for i in (0, 1))
    limit = UPRIGHT_CHARS if upright(short_names(xs)) else NAME_CHARS
    xcut, ycut = dict(zip(xs, short_names(xs, limit))), dict(zip(ys, short_names(ys)))
    values = [float(v) for _, _, v in cells]
    low, high = min(values, default=0), max(values, default=0)
    ink = lambda v: "black" if high > low and (v - low) / (high - low) > 0.6 else "white"  # dark text on light cells
    source = ColumnDataSource({
        "x": [xcut[a] for a, _, _ in cells], "y": [ycut[b] for _, b, _ in cells], "value": values,
        "exact": [exact_text(v) for _, _, v in cells], "cell": [f"{a} × {b}" for a, b, _ in cells],
        "label": [f"{v:.0f}" if v == int(v) else f"{v:.2f}" for v in values], "ink": [ink(v) for v in values]})
    fig = _figure("grid", title, FactorRange(*xcut.values()), FactorRange(*ycut.values()), x, y, height)
    colours = LinearColorMapper(palette=Viridis256, low=low, high=high)
    grid = fig.rect(x="x", y="y", width=1, height=1, source=source, line_color=None,
                    fill_color=transform("value", colours))
    fig.text(x="x", y="y", text="label", text_color="ink", text_align="center", text_baseline="middle",
             text_font_size="11pt", source=source)
    fig.add_layout(ColorBar(color_mapper=colours, major_label_text_font_size=FONTS["cticks"],
                            title_text_font_size=FONTS["clabel"]), "right")
    fig.grid.visible = False
    _hover(fig, [grid], [("", "@cell"), (value, "@exact")])
    _upright_x(fig, list(xcut.values()))
    return fig


def curves(series: Mapping[str, Sequence[tuple[int, Fraction]]], title: str, x: str, y: str,
           height: int = HEIGHT) -> Figure:
    """Several exact curves over a count (e.g. P(event has happened by turn n)), each a line with dots."""
    fig = _figure(f"curves {len(series)}", title, DataRange1d(), Range1d(0, 1.05), x, y, height)
    fig.xaxis.ticker.min_interval = 1  # counts
    _legend(fig, list(series))
    for i, (name, points) in enumerate(series.items()):
        source = ColumnDataSource({"n": [n for n, _ in points], "p": [float(p) for _, p in points],
                                   "exact": [exact_text(p) for _, p in points],
                                   "percent": [percent(p) for _, p in points],
                                   "series": [name] * len(points)})
        colour = PALETTE[i % len(PALETTE)]
        fig.line(x="n", y="p", source=source, color=colour, line_width=3, legend_label=name)
        dots = fig.scatter(x="n", y="p", source=source, color=colour, size=8, legend_label=name)
        _hover(fig, [dots], [("", "@series"), (x, "@n"), (y, "@exact (@percent)")])
    return fig


def patch(shown: Figure, new: Figure) -> bool:
    """Put `new` into `shown`, a figure on a page, when both are of the same kind with as many layers: its data,
    categories, title, height, axis labels, legend, colour scale and hover. The browser then redraws the data only,
    the data and its categories arriving together. False, and `shown` untouched, for another kind."""
    if shown.tags != new.tags or len(shown.renderers) != len(new.renderers):
        return False
    sources = {}
    for old, fresh in zip(shown.renderers, new.renderers):
        sources[old.data_source.id] = (old.data_source, fresh.data_source)
    for old, fresh in sources.values():
        old.data = dict(fresh.data)
    for name in ("x_range", "y_range"):
        if isinstance(fresh_range := getattr(new, name), FactorRange):
            getattr(shown, name).factors = list(fresh_range.factors)
    shown.title.text = new.title.text
    shown.update(height=new.height, min_height=new.min_height)
    for old, fresh in zip(shown.xaxis + shown.yaxis, new.xaxis + new.yaxis):
        old.update(axis_label=fresh.axis_label, major_label_orientation=fresh.major_label_orientation)
    for old, fresh in zip(shown.legend, new.legend):
        old.orientation = fresh.orientation
        for item, fresh_item in zip(old.items, fresh.items):
            item.label = fresh_item.label
    for old, fresh in zip(_colour_bars(shown), _colour_bars(new)):
        old.color_mapper.update(low=fresh.color_mapper.low, high=fresh.color_mapper.high)
    for old, fresh in zip(_hovers(shown), _hovers(new)):
        old.tooltips = fresh.tooltips
    return True


def _colour_bars(fig: Figure) -> list[ColorBar]:
    """The figure's colour bars, found among its side panels (not by walking all its models: a figure on a page has
    hundreds, and a tap's patch would walk them twice)."""
    return [panel for panel in fig.above + fig.below + fig.left + fig.right + fig.center if isinstance(panel, ColorBar)]


def _hovers(fig: Figure) -> list[HoverTool]:
    return [tool for tool in fig.tools if isinstance(tool, HoverTool)]
