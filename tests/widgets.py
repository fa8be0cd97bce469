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
