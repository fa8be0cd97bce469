"""What a page hides when it opens is set aside, then put back in its place."""
from __future__ import annotations

import panel as pn
import panel_material_ui as pmui

from companion.ui.unseen import set_aside


def put_back(steps) -> None:
    for step in steps:
        step()


def html(name: str, visible: bool = True) -> pn.pane.HTML:
    return pn.pane.HTML(name, name=name, visible=visible)


def names(layout) -> list[str]:
    return [child.name for child in layout.objects]


def test_hidden_parts_are_taken_out_and_put_back_in_their_places():
    inner = pn.Column(html("a"), html("b", visible=False), html("c"), name="inner")
    box = pmui.Column(html("d", visible=False), inner, name="box")
    hidden = pn.Column(html("e"), html("f", visible=False), visible=False, name="hidden")
    root = pn.Column(box, hidden, name="root")
    steps = set_aside(root)
    assert (names(root), names(box), names(inner)) == (["box"], ["inner"], ["a", "c"])
    assert names(hidden) == ["e", "f"]  # what is inside a hidden part goes with it
    put_back(steps)
    assert (names(root), names(box), names(inner)) == (["box", "hidden"], ["d", "inner"], ["a", "b", "c"])


def test_what_changed_meanwhile_is_kept():
    b, c, d = html("b", visible=False), html("c"), html("d", visible=False)
    column = pn.Column(html("a"), b, c, d)
    steps = set_aside(column)
    column.remove(c)
    column.append(html("e"))
    column.append(d)  # shown meanwhile by the page
    d.visible = True
    put_back(steps)
    assert names(column) == ["a", "b", "d", "e"]


def test_a_tab_is_looked_into_but_not_taken_out():
    page = pn.Column(html("x", visible=False), html("y"))
    tabs = pmui.Tabs(("One", page), ("Two", html("z", visible=False)))
    steps = set_aside(tabs)
    assert (len(tabs.objects), names(page)) == (2, ["y"])
    put_back(steps)
    assert names(page) == ["x", "y"]
