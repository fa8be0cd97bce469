"""The look every app shares: touch-size controls and one page frame (panel-material-ui's Page,
which serves all its assets from the Panel server: nothing is loaded from the internet)."""
from __future__ import annotations

import panel as pn
import panel_material_ui as pmui

TOUCH = {"size": "large", "min_height": 48}

def page(title: str, main: list, header: list | None = None) -> pmui.Page:
    """The app frame: title bar with the light/dark toggle, a main area that reflows on a tablet."""
    return pmui.Page(title=title, main=main, header=header or [], theme_toggle=True, site_url="/")


def extension(*components: str) -> None:
    """Load what an app uses: HoloViews plots on Bokeh, notifications, and Panel components such as
    "tabulator" whose scripts must be on the page before they are first shown."""
    import holoviews as hv
    hv.extension("bokeh", logo=False)
    pn.extension(*components, notifications=True)
