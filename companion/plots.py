"""HoloViews figures of exact distributions, one look for every app and notebook.

Each builder takes exact distributions (or rows computed from them) and returns a HoloViews
object: big type (`FONTS`, in pixels: read at arm's length on a tablet, tick labels 15 px), no toolbar to
fumble on a touch screen, hover showing the exact fraction, responsive width, and colours that read in light
and dark themes (Okabe-Ito, colour-blind safe).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Iterable, Mapping, Sequence

import holoviews as hv
from bokeh.models import NoOverlap

from .odds import Dist, at_least_table

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442")
EXACTLY, AT_LEAST = "exactly k", "at least k"
HEATMAP_CMAP = "viridis"

FONTS = {"title": "16px", "labels": "16px", "ticks": "15px", "legend": "16px", "cticks": "15px", "clabel": "16px"}
_COMMON = dict(responsive=True, min_height=220, fontsize=FONTS, toolbar=None, default_tools=[],
               show_grid=True)


# --- legends outside the data, tick labels apart -----------------------------------------------------------------
# Sizes in pixels for the narrowest frame a figure is drawn in on a tablet (an odds card beside the page), so that what
# is apart there is apart in any wider one: a text's width is CHAR_EM of its font size a character.
NARROW_PX = 300                  # the narrowest frame's width
LABEL_PX, CHAR_EM = 16, 0.6      # tick and legend labels at most this size; a character's width in font sizes
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


def _ticks(x: Sequence[str] = (), y: Sequence[str] = (), nested: bool = False) -> dict:
    """A hook that keeps the labels of categorical axes apart, set at every drawing (a figure patched in place keeps
    nothing of the one before): long x labels upright (`upright`); where labels would still meet, as many or long ones
    do in a narrow frame, the browser leaves out each one that meets the one before (Bokeh's NoOverlap, measured on
    the page). On a nested x axis (two bars a count) the labels shown are its groups'."""
    looks = {axis: "vertical" if axis == "x" and upright(labels) else "horizontal"
             for axis, labels in (("x", x), ("y", y)) if labels}

    def hook(plot, element) -> None:
        for axis, orientation in looks.items():
            ax = getattr(plot.state, f"{axis}axis")[0]
            setattr(ax, "group_label_orientation" if nested else "major_label_orientation", orientation)
            if not isinstance(ax.major_label_policy, NoOverlap):
                ax.major_label_policy = NoOverlap()
    return {"hooks": [hook]}


def _legend(names: Sequence[str]) -> dict:
    """A legend above the plot, never on the data: in one row when it fits the narrowest frame, else one a line."""
    row = sum(len(name) * CHAR_EM * LABEL_PX + 2.5 * LABEL_PX for name in names)
    return {"legend_position": "top", **({"legend_cols": 1} if row > NARROW_PX else {})}


def percent(p: Fraction | float) -> str:
    return f"{float(p) * 100:.1f}%"


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def exact_text(p: Fraction | float) -> str:
    """A fraction as a fraction; a float (a value computed in floating point) to 4 decimals, not as the
    huge fraction of its binary value."""
    return f"{p:.4f}" if isinstance(p, float) else fraction_text(Fraction(p))


def hits_bars(d: Dist, title: str, what: str = "hits") -> hv.Bars:
    """P(exactly k) and P(at least k) side by side for each k of a count distribution."""
    table = at_least_table(d)
    rows = []
    for k, exactly, at_least in table:
        rows.append((str(k), EXACTLY, float(exactly), fraction_text(exactly), percent(exactly)))
        rows.append((str(k), AT_LEAST, float(at_least), fraction_text(at_least), percent(at_least)))
    bars = hv.Bars(rows, kdims=[what, "kind"], vdims=["probability", "exact", "percent"])
    return bars.opts(title=title, cmap={EXACTLY: PALETTE[0], AT_LEAST: PALETTE[1]},
                     ylim=(0, 1.05), ylabel="probability", xlabel=what, **_legend((EXACTLY, AT_LEAST)),
                     tools=["hover"], multi_level=False, **_ticks(x=[str(k) for k, _, _ in table], nested=True),
                     **_COMMON)


def outcome_bars(pairs: Sequence[tuple[Hashable, Fraction]], title: str,
                 colors: Mapping[str, str] | None = None) -> hv.Bars:
    """Named outcomes (win / draw / loss, retreats / holds ...) as horizontal bars in a fixed order; a long name is
    shortened on the axis and whole in the hover."""
    names = [str(name) for name, _ in pairs]
    shown = short_names(names)
    rows = [(cut, float(p), fraction_text(p), percent(p), name) for cut, name, (_, p) in zip(shown, names, pairs)]
    colors = {cut: (colors or {}).get(name, PALETTE[i % len(PALETTE)]) for i, (cut, name) in enumerate(zip(shown, names))}
    bars = hv.Bars(rows, kdims=["outcome"], vdims=["probability", "exact", "percent", "name"])
    return bars.opts(title=title, invert_axes=True, color="outcome", cmap=colors, ylim=(0, 1.05),
                     ylabel="probability", xlabel="", tools=["hover"], show_legend=False, **_ticks(y=shown),
                     **{**_COMMON, "show_grid": True})


def heatmap(cells: Iterable[tuple[Hashable, Hashable, Fraction]], title: str, x: str, y: str,
            value: str) -> hv.Overlay:
    """A grid of exact values (e.g. expected hits over SP column x modifier), each cell labelled; long names shortened
    on the axes (whole in the hover), the colour bar beside the grid."""
    cells = [(str(a), str(b), v) for a, b, v in cells]
    xs, ys = (list(dict.fromkeys(c[i] for c in cells)) for i in (0, 1))
    limit = UPRIGHT_CHARS if upright(short_names(xs)) else NAME_CHARS
    xcut, ycut = dict(zip(xs, short_names(xs, limit))), dict(zip(ys, short_names(ys)))
    cells = [(xcut[a], ycut[b], float(v), exact_text(v), f"{a} × {b}") for a, b, v in cells]
    grid = hv.HeatMap(cells, kdims=[x, y], vdims=[value, "exact", "cell"]).opts(
        title=title, cmap=HEATMAP_CMAP, colorbar=True, colorbar_position="right", tools=["hover"],
        **_ticks(list(xcut.values()), list(ycut.values())), **_COMMON)
    low, high = min((c[2] for c in cells), default=0), max((c[2] for c in cells), default=0)
    ink = lambda v: "black" if high > low and (v - low) / (high - low) > 0.6 else "white"  # dark text on light cells
    labels = hv.Labels([(a, b, f"{v:.0f}" if v == int(v) else f"{v:.2f}", ink(v)) for a, b, v, _, _ in cells],
                       kdims=[x, y], vdims=["text", "ink"]).opts(text_color="ink", text_font_size="11pt")
    return (grid * labels).opts(title=title)


def curves(series: Mapping[str, Sequence[tuple[int, Fraction]]], title: str, x: str, y: str) -> hv.Overlay:
    """Several exact curves over a count (e.g. P(event has happened by turn n)), each a line with dots."""
    layers = []
    for i, (name, points) in enumerate(series.items()):
        data = [(n, float(p), exact_text(p), percent(p)) for n, p in points]
        color = PALETTE[i % len(PALETTE)]
        layers.append(hv.Curve(data, kdims=[x], vdims=[y, "exact", "percent"], label=name).opts(
            color=color, line_width=3))
        layers.append(hv.Scatter(data, kdims=[x], vdims=[y, "exact", "percent"], label=name).opts(
            color=color, size=8, tools=["hover"]))
    return hv.Overlay(layers).opts(title=title, ylim=(0, 1.05), **_legend(list(series)), **_COMMON)
