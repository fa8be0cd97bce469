"""What a page hides when it opens is sent to the browser once the page is drawn.

More than half of a game page's components are hidden when it opens (the dice entry, the odds card, the undo
question, the error banner, fields not asked yet ...), and building them on the server and drawing them in the
browser took about 0.5 s of the 2.5-3 s to open a game. `set_aside` takes them out of their layouts; the steps it
returns put them back, in their places, once the page shows what it must and takes taps.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable

import panel as pn
from panel_material_ui.layout.base import MaterialListLike

LAYOUTS = (pn.layout.ListLike, MaterialListLike)  # whose children may be taken out (not a tab or a card's title)


def set_aside(root: Any) -> list[Callable[[], None]]:
    """Take every hidden component out of the plain layouts under `root` (the hidden ones are not looked into);
    return what puts them back, one layout each (a tap meanwhile waits for one of them only, not for all)."""
    steps: list[Callable[[], None]] = []

    def walk(layout: Any) -> None:
        children = getattr(layout, "objects", None)
        if not isinstance(children, list):
            return
        shown = [child for child in children if getattr(child, "visible", True) is not False]
        if isinstance(layout, LAYOUTS) and len(shown) < len(children):
            steps.append(partial(put_back, layout, list(children), {id(c) for c in children} - {id(c) for c in shown}))
            layout.objects = shown
        for child in shown:
            walk(child)

    walk(root)
    return steps


def put_back(layout: Any, before: list, taken: set[int]) -> None:
    """The layout gets its children again in their first order; what was added to it meanwhile stays after them, and
    what was taken out of it meanwhile stays out."""
    now = {id(child) for child in layout.objects}
    first = {id(child) for child in before}
    layout.objects = ([child for child in before if id(child) in now or id(child) in taken]
                      + [child for child in layout.objects if id(child) not in first])
