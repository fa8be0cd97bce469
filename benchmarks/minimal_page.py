"""The baseline page of the browser benchmarks: one button updating one HTML pane and one small bar plot,
served as the game pages are. Its times are the floor of a Panel round trip on this machine."""
import holoviews as hv
import panel as pn
import panel_material_ui as pmui

hv.extension("bokeh")


def bars(n: int) -> hv.Bars:
    return hv.Bars([("hit", n % 6 + 1), ("miss", 6 - n % 6)]).opts(height=220, responsive=True)


count = pn.pane.HTML("0 taps", css_classes=["counter"])
plot = pn.pane.HoloViews(bars(0), sizing_mode="stretch_width")
button = pmui.Button(label="Tap", css_classes=["tap"], min_height=48)


def tap(_) -> None:
    n = int(count.object.split()[0]) + 1
    count.object = f"{n} taps"
    plot.object = bars(n)


button.on_click(tap)
pn.Column(button, count, plot, sizing_mode="stretch_width").servable(title="Baseline")
