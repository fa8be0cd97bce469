"""The look every app shares: touch-size controls and type read at arm's length across a table, in one page frame
(panel-material-ui's Page, which serves all its assets from the Panel server: nothing is loaded from the internet).

At arm's length: body text 16 px or more, secondary text (captions, helper text, a field's label on its outline)
14 px or more, every button 48 px tall and wide, a table's tick boxes 32 px, a plot's tick labels 15 px. `READING`
says so to every Material component of the page (its theme); `SHADOW_CSS` to the other Panel components (tables,
HTML panes), each drawn in a shadow root of its own where the page's stylesheet does not reach; `PlotType` to the
plots."""
from __future__ import annotations

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent
from panel.viewable import Viewable
from panel_material_ui.theme import MaterialDesign

from ..plots import FONTS
from .release import not_busy, on_close
from .relayout import Relayout

TAP = 48      # px: the least height and width of anything tapped
TICK = 32     # px: a table's tick box
TOUCH = {"size": "large", "min_height": TAP}

SHRUNK = "translate(14px, -10px) scale(0.875)"   # a filled-in field's label on its outline: 16 px x 0.875 = 14 px
READING = {
    "typography": {"body2": {"fontSize": "1rem"}, "caption": {"fontSize": "0.875rem"},
                   "overline": {"fontSize": "0.875rem"}, "subtitle2": {"fontSize": "1rem"},
                   "button": {"fontSize": "1rem"}},
    "components": {
        "MuiButton": {"styleOverrides": {"root": {"minHeight": TAP, "minWidth": TAP, "fontSize": "1rem"}}},
        "MuiIconButton": {"styleOverrides": {"root": {"minHeight": TAP, "minWidth": TAP}}},
        "MuiToggleButton": {"styleOverrides": {"root": {"minHeight": TAP, "minWidth": TAP, "fontSize": "1rem"}}},
        "MuiTab": {"styleOverrides": {"root": {"minHeight": TAP, "fontSize": "1rem"}}},
        "MuiTabScrollButton": {"styleOverrides": {"root": {"width": TAP}}},
        "MuiChip": {"styleOverrides": {"root": {"height": TAP, "borderRadius": TAP // 2},
                                       "label": {"fontSize": "1rem"}}},
        "MuiFormHelperText": {"styleOverrides": {"root": {"fontSize": "0.875rem"}}},
        "MuiInputLabel": {"styleOverrides": {"outlined": {"&.MuiInputLabel-shrink": {"transform": SHRUNK}}}},
        "MuiOutlinedInput": {"styleOverrides": {"notchedOutline": {"& legend": {"fontSize": "0.875em"}}}},
    },
}
SHADOW_CSS = f"""
.tabulator-row input[type=checkbox], .tabulator-col input[type=checkbox] {{ width: {TICK}px; height: {TICK}px;
  display: block; margin: 0 auto; cursor: pointer; }}
.tabulator-row .tabulator-cell:has(> input[type=checkbox]),
.tabulator-col:has(input[type=checkbox]) .tabulator-col-content {{ padding: 0 !important; }}
"""  # a table's tick box fills its cell (Panel's column is 40 px wide) but for the border, in a row no taller


class PlotType(JSComponent):
    """The plots' text in pixels (`companion.plots.FONTS`) in the browser: the Material page restyles every plot's
    axes, legends and titles in em, which Bokeh's canvas resolves against 13 px (tick labels of 12 px); each time it
    does, the size is set back."""

    sizes = param.Dict(default={
        "Axis": {"major_label_text_font_size": FONTS["ticks"], "axis_label_text_font_size": FONTS["labels"]},
        "Legend": {"label_text_font_size": FONTS["legend"], "title_text_font_size": FONTS["legend"]},
        "ColorBar": {"major_label_text_font_size": FONTS["cticks"], "title_text_font_size": FONTS["clabel"]},
        "Title": {"text_font_size": FONTS["title"]}})

    _esm = """
    export function render({ model, view }) {
      const doc = view.model.document
      const fix = (m) => {
        for (const [kind, sizes] of Object.entries(model.sizes)) {
          if (!m.type.endsWith(kind)) continue
          const wrong = Object.entries(sizes).filter(([key, size]) => key in m && m[key] !== size)
          if (wrong.length) m.setv(Object.fromEntries(wrong))
        }
      }
      const changed = (event) => {
        if (event.kind === "ModelChanged" && event.model) queueMicrotask(() => fix(event.model))
      }
      doc.all_models.forEach(fix)
      doc.on_change(changed)
      model.on("remove", () => doc.remove_on_change(changed))
    }
    """


class ReadingDesign(MaterialDesign):
    """Material design with `SHADOW_CSS` in the shadow root of every Panel component."""

    modifiers = {**MaterialDesign.modifiers,
                 Viewable: {"stylesheets": MaterialDesign.modifiers[Viewable]["stylesheets"] + [SHADOW_CSS]}}


def page(title: str, main: list, header: list | None = None) -> pmui.Page:
    """The app frame: title bar with the light/dark toggle, a main area that reflows on a tablet, laid out once per
    change (`Relayout`); deaf to Panel's busy flag, and let go whole when its tablet closes it (`release`)."""
    frame = pmui.Page(title=title, main=main, header=[*(header or []), PlotType(width=0, height=0, margin=0),
                                                        Relayout(width=0, height=0, margin=0)],
                      theme_toggle=True, site_url="/", theme_config=READING)
    not_busy(frame)
    on_close(frame)
    return frame


def extension(*components: str) -> None:
    """Load what an app uses: notifications, and Panel components such as "tabulator" whose scripts must be on the
    page before they are first shown."""
    pn.extension(*components, notifications=True, design=ReadingDesign)


def holoviews() -> None:
    """HoloViews drawing with Bokeh (the House Divided map), loaded once a server: loading it again for every page
    took 18 ms of each opening."""
    import holoviews as hv
    if hv.Store.current_backend != "bokeh" or "bokeh" not in hv.Store.renderers:
        hv.extension("bokeh", logo=False)
