"""Driving Panel components from a test, as a tap in the browser would."""
from __future__ import annotations


def click(button) -> None:
    """One tap: runs the button's on_click callbacks."""
    button.clicks += 1


def find(root, css: str):
    """The one component under `root` (a layout or a viewer) that has the CSS class `css`."""
    layout = root.__panel__() if hasattr(root, "__panel__") else root
    found = layout.select(lambda o: css in (getattr(o, "css_classes", None) or ()))
    assert len(found) == 1, f"{len(found)} components have the class {css!r}"
    return found[0]


def perform(view, faces: tuple[int, ...] = ()) -> None:
    """The phase guide's action of a game view, as tapped: the faces on its dice entry and "use", or its
    button; the session takes it."""
    panel = view.guide.panel
    assert not panel.blocked, panel.blocked
    if faces:
        assert panel._dice.visible and not panel._button.visible
        for face in faces:
            panel._dice.tap(face)
        click(panel._dice._use)
    else:
        assert panel._button.visible and not panel._dice.visible
        click(panel._button)
    assert view.live.error == ""
