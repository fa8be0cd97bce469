"""The odds card in a real browser: its figure follows the choices tapped, whatever the size of the data; in the app
frame, the changes of one message from the server lay the page out once."""
from __future__ import annotations

from fractions import Fraction

import panel as pn
import pytest
from playwright.sync_api import expect

from companion import plots
from companion.odds import dist
from companion.ui.controls import OddsCard
from companion.ui.theme import extension, page as frame

from .conftest import answering, free_port
from .ui import SLOW

pytestmark = pytest.mark.browser

# Figures of the kinds the games show, their data growing and shrinking: (kind, n) and the rows each layer has
# (a bar chart of k = 0..n hits: the "exactly" bars and the "at least" bars; n named outcomes; an n x n grid and its
# labels).
FIGURES = [("hits", 2), ("hits", 5), ("hits", 3), ("hits", 7), ("hits", 1), ("hits", 4), ("outcomes", 3),
           ("outcomes", 5), ("outcomes", 2), ("grid", 3), ("grid", 2), ("grid", 4), ("grid", 1), ("hits", 6),
           ("hits", 2), ("hits", 3)]
ROWS = {"hits": lambda n: [n + 1, n + 1], "outcomes": lambda n: [n], "grid": lambda n: [n * n, n * n]}
DRAWN_ROWS = """() => [...Bokeh.index.query(view => view.model.type === "GlyphRenderer")]
  .map(view => view.model.data_source.get_length()).sort((a, b) => a - b)"""  # the rows of each glyph the page draws


def figure(kind: str, n: int):
    if kind == "hits":
        return plots.hits_bars(dist({k: 1 for k in range(n + 1)}), f"{n} dice", "hits")
    if kind == "outcomes":
        return plots.outcome_bars([(f"outcome {k}", Fraction(1, n)) for k in range(n)], f"{n} outcomes")
    return plots.heatmap([(a, b, Fraction(a * b)) for a in range(n) for b in range(n)], f"{n} x {n}", "x", "y", "v")


def card_page():
    extension()
    card = OddsCard(numbers=[("shown", "0")], figure=figure(*FIGURES[0]))
    tap = pn.widgets.Button(label="next", css_classes=["next"], height=48)
    tap.on_click(lambda _: card.param.update(numbers=[("shown", str(tap.clicks))],
                                             figure=figure(*FIGURES[tap.clicks % len(FIGURES)])))
    return pn.Column(tap, card, sizing_mode="stretch_width")


def framed_page():
    """The card and its button in the app frame, beside a column of other components as on a game page."""
    return frame("Odds", [pn.Row(card_page(), pn.Column(*(pn.pane.HTML(f"other {i}") for i in range(20))),
                                 sizing_mode="stretch_width")])


@pytest.fixture
def card_url():
    port = free_port()
    server = pn.serve({"/card": card_page, "/framed": framed_page}, port=port, address="127.0.0.1", show=False,
                      threaded=True, websocket_origin=[f"127.0.0.1:{port}"])
    try:
        answering(f"http://127.0.0.1:{port}/card", 60)
        yield f"http://127.0.0.1:{port}/card"
    finally:
        server.stop()


def drawn(page, rows: list[int]) -> None:
    page.wait_for_function(f"({DRAWN_ROWS})().join() === {sorted(rows)!r}.join()", timeout=SLOW)


def test_the_odds_plot_follows_data_that_grows_and_shrinks(page, card_url):
    """Taps that give the odds plot more rows, fewer, or another kind of chart: each time the page draws the new
    data, with no error in the browser (data with fewer rows patched into the figure shown failed with "Size
    mismatch" or "Offset is outside the bounds of the DataView"); taps in quick succession end on the last figure."""
    page.goto(card_url)
    shown = page.locator(".odds-numbers .tile .v")
    expect(shown).to_have_text("0", timeout=SLOW)
    for i in range(1, 2 * len(FIGURES)):
        page.locator(".next button").click()
        expect(shown).to_have_text(str(i), timeout=SLOW)
        kind, n = FIGURES[i % len(FIGURES)]
        drawn(page, ROWS[kind](n))
    for _ in range(len(FIGURES)):
        page.locator(".next button").click(delay=0)
    last = 3 * len(FIGURES) - 1
    expect(shown).to_have_text(str(last), timeout=SLOW)
    kind, n = FIGURES[last % len(FIGURES)]
    drawn(page, ROWS[kind](n))


# Each layout of the page Bokeh computes, counted (at its root's compute_layout, where a layout asked for by a component
# inside ends), then a layout asked for by every component inside the page at once, as the changes of one message from
# the server do, each where it is drawn.
ASK_EVERY_COMPONENT = """async () => { const layouts = new Map();
  const views = [...Bokeh.index.query(view => typeof view.invalidate_layout === "function")];
  for (const view of views.filter(view => view.is_layout_root)) {
    const compute = view.compute_layout.bind(view);
    layouts.set(view, 0);
    view.compute_layout = () => { layouts.set(view, layouts.get(view) + 1); compute(); };
  }
  for (const view of views) if (!view.is_layout_root) view.invalidate_layout();
  await new Promise(resolve => setTimeout(resolve, 300));
  return [views.length, [...layouts.values()]]; }"""


def test_a_message_that_changes_many_components_lays_the_page_out_once(page, card_url):
    """Bokeh lays out the whole page for each component changed (bokeh/bokeh#14287): more than 20 times for a tap on a
    game page. In the app frame (`Relayout`), once: a layout asked for by each component in the page in one go (as
    the changes of one message do) is done once, after the last (once for each part of the page laid out apart)."""
    page.goto(card_url.replace("/card", "/framed"))
    expect(page.locator(".odds-numbers .tile .v").first).to_have_text("0", timeout=SLOW)
    page.wait_for_function("Bokeh.documents.length > 0 && Bokeh.documents.every(d => d.is_idle)", timeout=SLOW)
    components, layouts = page.evaluate(ASK_EVERY_COMPONENT)
    assert components > 20 and max(layouts) == 1, layouts
