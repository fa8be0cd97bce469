"""HoloViews figures of exact distributions, one look for every app and notebook.

Each builder takes exact distributions (or rows computed from them) and returns a HoloViews
object: big type, no toolbar to fumble on a touch screen, hover showing the exact fraction,
responsive width, and colours that read in light and dark themes (Okabe-Ito, colour-blind safe).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Iterable, Mapping, Sequence

import holoviews as hv

from .odds import Dist, at_least_table

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442")
EXACTLY, AT_LEAST = "exactly k", "at least k"
HEATMAP_CMAP = "viridis"

_COMMON = dict(responsive=True, min_height=220, fontscale=1.25, toolbar=None, default_tools=[],
               show_grid=True)


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
    rows = []
    for k, exactly, at_least in at_least_table(d):
        rows.append((str(k), EXACTLY, float(exactly), fraction_text(exactly), percent(exactly)))
        rows.append((str(k), AT_LEAST, float(at_least), fraction_text(at_least), percent(at_least)))
    bars = hv.Bars(rows, kdims=[what, "kind"], vdims=["probability", "exact", "percent"])
    return bars.opts(title=title, cmap={EXACTLY: PALETTE[0], AT_LEAST: PALETTE[1]},
                     ylim=(0, 1.05), ylabel="probability", xlabel=what, legend_position="top",
                     tools=["hover"], multi_level=False, **_COMMON)


def outcome_bars(pairs: Sequence[tuple[Hashable, Fraction]], title: str,
                 colors: Mapping[str, str] | None = None) -> hv.Bars:
    """Named outcomes (win / draw / loss, retreats / holds ...) as horizontal bars in a fixed order."""
    rows = [(str(name), float(p), fraction_text(p), percent(p)) for name, p in pairs]
    colors = dict(colors or {str(name): PALETTE[i % len(PALETTE)] for i, (name, _) in enumerate(pairs)})
    bars = hv.Bars(rows, kdims=["outcome"], vdims=["probability", "exact", "percent"])
    return bars.opts(title=title, invert_axes=True, color="outcome", cmap=colors, ylim=(0, 1.05),
                     ylabel="probability", xlabel="", tools=["hover"], show_legend=False,
                     **{**_COMMON, "show_grid": True})


def heatmap(cells: Iterable[tuple[Hashable, Hashable, Fraction]], title: str, x: str, y: str,
            value: str) -> hv.Overlay:
    """A grid of exact values (e.g. expected hits over SP column x modifier), each cell labelled."""
    cells = [(str(a), str(b), float(v), exact_text(v)) for a, b, v in cells]
    grid = hv.HeatMap(cells, kdims=[x, y], vdims=[value, "exact"]).opts(
        title=title, cmap=HEATMAP_CMAP, colorbar=True, tools=["hover"], **_COMMON)
    low, high = min((c[2] for c in cells), default=0), max((c[2] for c in cells), default=0)
    ink = lambda v: "black" if high > low and (v - low) / (high - low) > 0.6 else "white"  # dark text on light cells
    labels = hv.Labels([(a, b, f"{v:.0f}" if v == int(v) else f"{v:.2f}", ink(v)) for a, b, v, _ in cells],
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
    return hv.Overlay(layers).opts(title=title, legend_position="bottom_right", ylim=(0, 1.05), **_COMMON)
