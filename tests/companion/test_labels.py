"""Labels placed beside the points of a figure (companion.labels): none covers another label or a point's mark, one
crosses a line only when there is no other place, and the short text is used only when the full one has no place."""
from __future__ import annotations

import itertools

from companion.labels import FONTS, crosses, overlap, place

FRAME, MARK = (400, 300), 20


def test_a_segment_crosses_a_box_only_through_it():
    box = (10, 10, 20, 20)
    assert crosses(box, (0, 15), (30, 15)) and crosses(box, (15, 0), (15, 30)) and crosses(box, (12, 12), (50, 50))
    assert not crosses(box, (0, 25), (30, 25)) and not crosses(box, (0, 0), (5, 30))
    assert overlap(box, (19, 19, 30, 30)) and not overlap(box, (20, 0, 30, 30))


def test_a_label_goes_where_no_line_is():
    """A line runs straight down from the first point: its label is not put below it."""
    layout = place([(0, 1), (0, 0), (3, 1)], [("A full", "A"), ("B full", "B"), ("C full", "C")], FRAME, MARK,
                   [(0, 1)])
    a, b, c = layout.labels
    assert (a.text, b.text, c.text) == ("A full", "B full", "C full")
    assert a.y > 1 and b.y < 0 and c.y < 1         # above A (below it is the line), below B and C (the first place)


def test_crowded_points_get_short_texts_and_smaller_type_never_overlapping():
    points = [(x * 0.3, y * 0.3) for x in range(6) for y in range(4)]
    layout = place(points, [(f"P{i} with a long text", f"P{i}") for i in range(len(points))], FRAME, MARK)
    placed = [p for p in layout.labels if p]
    assert layout.font < FONTS[0] and any(p.text.startswith("P") and " " not in p.text for p in placed)
    for a, b in itertools.combinations(placed, 2):
        assert not overlap(a.box, b.box)
