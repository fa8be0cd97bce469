"""Labels beside the points of a figure (the boxes of a map), placed so that none covers another label or a point.

A figure's size on the screen is known only in the browser, so the labels are placed for the smallest frame the
figure is drawn in (`frame`, pixels): a larger frame only moves the points, and the labels with them, further apart
(every position is in data units, every size in pixels), so nothing that is apart at the smallest size meets at a
larger one. A label's box is estimated from its text: `CHAR_EM` of the font size a character, `LINE_EM` a line.
Each label tries the places around its point (below, above, right, left, then the corners) with its full text, then
its short text, first where it crosses no line of the figure and is nearer its own point than any other, then
anywhere free; at the largest font size at which every label finds a place. A label with no place left is not drawn (its point still names itself in the hover).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

CHAR_EM, LINE_EM = 0.62, 1.3     # a character's width and a line's height, in font sizes (sans serif, generous)
FONTS = (15, 14, 13)              # pixels: the largest that places every label is used (13 px at least, as tick labels)
GAP = 3                           # pixels between a point's mark and its label
MARGIN = 0.25                     # room around the points, a fraction of their spread on each side


@dataclass(frozen=True)
class Placed:
    """A label as drawn: its centre (data units), its text, and its box in pixels of the smallest frame."""

    x: float
    y: float
    text: str
    box: tuple[float, float, float, float]     # left, bottom, right, top


@dataclass(frozen=True)
class Layout:
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    font: int                                   # pixels
    labels: tuple[Placed | None, ...]           # one per point, None when it has no place


def text_box(cx: float, cy: float, text: str, font: float) -> tuple[float, float, float, float]:
    """The box a one-line text centred at (cx, cy) covers, in pixels."""
    w, h = CHAR_EM * font * len(text) + 2, LINE_EM * font
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    """Two boxes (left, bottom, right, top) share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def crosses(box: Sequence[float], a: Sequence[float], b: Sequence[float]) -> bool:
    """The segment from a to b passes through the box (Liang-Barsky clipping)."""
    low, high = 0.0, 1.0
    for p, q in ((a[0] - b[0], a[0] - box[0]), (b[0] - a[0], box[2] - a[0]), (a[1] - b[1], a[1] - box[1]),
                 (b[1] - a[1], box[3] - a[1])):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
        if low > high:
            return False
    return True


def limits(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    pad = MARGIN * (high - low) if high > low else 1.0
    return low - pad, high + pad


def place(points: Sequence[tuple[float, float]], texts: Sequence[tuple[str, str]], frame: tuple[int, int],
          mark: float, lines: Sequence[tuple[int, int]] = ()) -> Layout:
    """Labels for `points` (data units): each has a full and a short text; `mark` is the half-width in pixels of what
    is drawn at a point (its circle and ring), `frame` the smallest (width, height) in pixels of the plot's frame,
    `lines` the points joined by a line (pairs of indices)."""
    xlim, ylim = limits([p[0] for p in points]), limits([p[1] for p in points])
    sx, sy = frame[0] / (xlim[1] - xlim[0]), frame[1] / (ylim[1] - ylim[0])
    pixels = [((x - xlim[0]) * sx, (y - ylim[0]) * sy) for x, y in points]
    marks = [(px - mark, py - mark, px + mark, py + mark) for px, py in pixels]
    segments = [(pixels[i], pixels[j]) for i, j in lines]
    near = [min((abs(px - qx) + abs(py - qy) for j, (qx, qy) in enumerate(pixels) if j != i), default=0)
            for i, (px, py) in enumerate(pixels)]
    order = sorted(range(len(points)), key=lambda i: near[i])   # the most crowded first
    for font in FONTS:
        boxes: list = [None] * len(points)
        for i in order:
            others = pixels[:i] + pixels[i + 1:]
            boxes[i] = _spot(pixels[i], texts[i], font, mark, frame, marks, [b for b in boxes if b], segments, others)
        if all(boxes) or font == FONTS[-1]:
            break
    labels = tuple(Placed(xlim[0] + (b[0][0] + b[0][2]) / 2 / sx, ylim[0] + (b[0][1] + b[0][3]) / 2 / sy, b[1], b[0])
                   if b else None for b in boxes)
    return Layout(xlim, ylim, font, labels)


def _spot(at, texts, font, mark, frame, marks, taken, segments, others):
    """The first place around a point where its full (then its short) text covers no mark and no label placed, and
    if it can crosses no line and is nearer its own point than any other."""
    px, py = at
    for strict in (True, False):
        for text in texts:
            w, h = CHAR_EM * font * len(text) + 2, LINE_EM * font
            dx, dy = mark + GAP + w / 2, mark + GAP + h / 2
            for cx, cy in ((0, -dy), (0, dy), (dx, 0), (-dx, 0), (dx, -dy), (-dx, -dy), (dx, dy), (-dx, dy)):
                box = text_box(px + cx, py + cy, text, font)
                inside = box[0] >= 0 and box[1] >= 0 and box[2] <= frame[0] and box[3] <= frame[1]
                if inside and not any(overlap(box, m) for m in marks) and not any(overlap(box, t[0]) for t in taken) \
                        and not (strict and (any(crosses(box, a, b) for a, b in segments) or
                                             any(math.dist((px + cx, py + cy), q) < math.dist((cx, cy), (0, 0))
                                                 for q in others))):
                    return box, text
    return None
