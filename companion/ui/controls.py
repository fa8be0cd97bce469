"""Small shared controls: the undo/redo bar, the error banner, the odds card and the action panel."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import panel as pn
import panel_material_ui as pmui
import param
from panel.io.document import hold

from ..dice import Dice, RandomDice
from ..engine import RuleError
from ..plots import fraction_text, patch, percent
from ..rulebook import load
from .dice_entry import DiceEntry
from .live import LiveSession, as_page
from .rules import CHIP_CSS, CLAUSE_CSS, RULE_ID, RulesPage, chip, clause_html
from .text import Note, Text, escape, plain
from .theme import TOUCH


class UndoBar(pn.viewable.Viewer):
    """Undo and redo. Undoing an event whose dice were rolled at the table asks to confirm first."""

    confirming = param.Boolean(default=False)

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self._undo = pmui.Button(label="Undo", icon="undo", variant="outlined", css_classes=["undo"], **TOUCH)
        self._redo = pmui.Button(label="Redo", icon="redo", variant="outlined", css_classes=["redo"], **TOUCH)
        self._undo.on_click(lambda _: self.request_undo())
        self._redo.on_click(lambda _: self.live.redo())
        self._confirm = pmui.Button(label="Yes, undo it", color="warning", variant="contained",
                                    css_classes=["confirm-undo"], **TOUCH)
        self._keep = pmui.Button(label="Keep it", variant="outlined", css_classes=["keep"], **TOUCH)
        self._confirm.on_click(lambda _: self.confirm())
        self._keep.on_click(lambda _: setattr(self, "confirming", False))
        self._question = Note(severity="warning", css_classes=["undo-question"], sizing_mode="stretch_width")
        self._box = pn.Column(self._question, pn.Row(self._confirm, self._keep), visible=False,
                              sizing_mode="stretch_width")
        live.param.watch(lambda _: self._refresh(), "version")
        self._refresh()

    def request_undo(self) -> None:
        if self.live.session.undo_is_physical:
            self.confirming = True
        else:
            self.live.undo()

    def confirm(self) -> None:
        self.confirming = False
        self.live.undo()

    @param.depends("confirming", watch=True)
    def _refresh(self) -> None:
        session = self.live.session
        self._undo.disabled = not session.can_undo
        self._redo.disabled = not session.can_redo
        if self.confirming and session.can_undo:
            last = session.replay.applied[-1]
            faces = f" ({'; '.join(r.text() for r in last.rolls)})" if last.seen_by(self.live.viewer) else ""
            self._question.object = plain(f"Undo \u201c{last.summary}\u201d? Its dice{faces} were rolled at the "
                                           "table; after the undo they are rolled again.")
        self._box.visible = self.confirming and session.can_undo

    def __panel__(self):
        return pn.Column(pn.Row(self._undo, self._redo), self._box, sizing_mode="stretch_width")


class ErrorBanner(pn.viewable.Viewer):
    """The last refused entry, naming the rule it breaks, with that rule's clause under it; also a toast."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self._alert = Note(severity="error", visible=False, closeable=True, css_classes=["rule-error"],
                           sizing_mode="stretch_width", title="Not allowed")
        self._clause = pn.pane.HTML(visible=False, sizing_mode="stretch_width", css_classes=["broken-clause"],
                                    stylesheets=[CHIP_CSS, CLAUSE_CSS])
        live.param.watch(self._show, "error")

    def _show(self, event) -> None:
        self._alert.object = plain(event.new)
        self._alert.closed = False
        self._alert.visible = bool(event.new)
        clause = load(self.live.engine.slug).clauses.get(self.live.error_rule) if event.new else None
        self._clause.object = ("<p>What the rules say:</p>" + clause_html(clause)) if clause else ""
        self._clause.visible = clause is not None
        if event.new and pn.state.notifications is not None:
            pn.state.notifications.error(event.new, duration=6000)

    def __panel__(self):
        return pn.Column(self._alert, self._clause, sizing_mode="stretch_width")


EXACT_SHOWN = 12  # characters of a fraction shown beside its percentage; a longer one is shown on demand


class OddsText(str):
    """A probability as a player reads it; `exact`: its fraction when too long to show beside it."""

    exact = ""


def redraw(pane: pn.pane.Bokeh, figure) -> None:
    """Show `figure` in `pane`: put into the figure shown when of the same kind (`plots.patch`, its changes sent to
    the page in one message), so that the browser redraws its data only; another kind (or none yet) replaces it."""
    with hold():
        if pane.object is None or not patch(pane.object, figure):
            pane.object = figure


def odds_text(p: Fraction | float) -> str:
    """A probability for a player: percent and the exact fraction (percent alone for a float, whose fraction
    would be the binary one). A fraction longer than 12 characters is kept for a tap on the tile."""
    if not isinstance(p, (Fraction, int)):
        return percent(p)
    exact = fraction_text(Fraction(p))
    if len(exact) <= EXACT_SHOWN:
        return f"{percent(p)} ({exact})"
    text = OddsText(percent(p))
    text.exact = exact
    return text


def tile(label: str, value: str) -> str:
    """One number of an odds card; a long exact fraction opens under it on a tap."""
    exact = getattr(value, "exact", "")
    shown = (f'<details><summary>{escape(value)}</summary><div class="exact">exactly {escape(exact)}</div></details>'
             if exact else escape(value))
    return f'<div class="tile"><div class="v">{shown}</div><div class="l">{escape(label)}</div></div>'


class OddsCard(pn.viewable.Viewer):
    """A live plot with the key numbers above it."""

    title = param.String(default="Odds")
    numbers = param.List(default=[], doc="(label, text) pairs")
    figure = param.Parameter(default=None, doc="A Bokeh figure (companion.plots), or a function that makes one: made "
                             "once the numbers are on their way to the page (a figure takes the server 10-20 ms)")
    note = param.String(default="")
    visible = param.Boolean(default=True)

    def __init__(self, **params):
        super().__init__(**params)
        self._numbers = pn.pane.HTML(sizing_mode="stretch_width", css_classes=["odds-numbers"], stylesheets=[CHIP_CSS, """
            .tiles { display: flex; flex-wrap: wrap; gap: 8px; }
            .tile { border: 1px solid rgba(128,128,128,.4); border-radius: 8px; padding: 6px 10px; min-width: 140px;
                    max-width: 100%; overflow-wrap: anywhere; }
            .tile .v { font-size: 20px; font-weight: 600; } .tile .l { font-size: 14px; opacity: .85; }
            .tile summary { cursor: pointer; } .tile .exact { font-size: 14px; font-weight: 400; }"""])
        # The plot pane sits in its own plain Panel column: showing or hiding a plot pane directly re-syncs its
        # layout parameters into the Bokeh figure, which Panel 1.9 refuses inside a Material design, and a plot
        # shown in a Material column fails to lay out ("reading 'top_panel'").
        self._plot = pn.pane.Bokeh(sizing_mode="stretch_width")
        self._drawing = False
        self._plot_box = pn.Column(self._plot, sizing_mode="stretch_width", visible=False)
        self._note = Text(variant="caption")
        self._card = pmui.Card(self._numbers, self._plot_box, self._note, title=self.title, sizing_mode="stretch_width",
                               css_classes=["odds-card"], collapsible=False)
        self._update()

    @param.depends("numbers", "figure", "note", "title", "visible", watch=True)
    def _update(self) -> None:
        """A card to hide is only hidden: its contents are left as they are until it is shown again (in the browser
        every change of what is shown lays out the whole page again). A card to show gets its contents first, and is
        shown last."""
        if not (self.visible and (self.numbers or self.figure is not None)):
            self._card.visible = False
            return
        tiles = "".join(tile(label, v) for label, v in self.numbers)
        chips = "".join(chip(rule) for rule in RULE_ID.findall(self.title))
        self._numbers.object = (f'<div class="odds-rules">{chips}</div>' if chips else "") + \
            f'<div class="tiles">{tiles}</div>'
        self._draw_soon()
        self._note.object = self.note
        self._note.visible = bool(self.note)
        self._numbers.visible = bool(self.numbers or chips)
        self._card.title = self.title
        self._card.visible = True

    def _draw_soon(self) -> None:
        """The figure drawn (or shown or hidden) once the numbers have been sent: a plot takes the server and the
        browser longer than new numbers, which a tablet shows at once. Taps before it is drawn are drawn together, as
        the last one. On a page still being drawn, once it is drawn (it would not take the change before); outside a
        server, now."""
        document = pn.state.curdoc
        if document is None or document.session_context is None:
            return self._draw(self.figure)
        if not self._drawing:
            self._drawing = True
            if pn.state.loaded:
                as_page(document, self._draw_later)
            else:
                pn.state.onload(lambda: as_page(document, self._draw_later))

    def _draw_later(self) -> None:
        self._drawing = False
        if self._card.visible:
            self._draw(self.figure)

    def _draw(self, figure) -> None:
        self._plot_box.visible = figure is not None
        if figure is not None:
            redraw(self._plot, figure() if callable(figure) else figure)

    def __panel__(self):
        return self._card


class OddsPanel(pn.viewable.Viewer):
    """The odds of the action being prepared: one card, and a second one when a decision has two sides.
    `show` sets everything at once (setting a value and setting it back within one callback is not
    reliably seen by the page)."""

    def __init__(self, **params):
        super().__init__(**params)
        self.main = OddsCard(title="Odds")
        self.second = OddsCard(title="", visible=False)

    def show(self, title: str = "Odds", numbers=(), figure=None, note: str = "", second=None,
             second_title: str = "") -> None:
        self.main.param.update(title=title, numbers=list(numbers), figure=figure, note=note)
        self.second.param.update(title=second_title, figure=second, visible=second is not None)

    def clear(self) -> None:
        self.show()

    def __panel__(self):
        return pn.Column(self.main, self.second, sizing_mode="stretch_width")


def switch(label: str, value: bool = False, css: str = "") -> pmui.Switch:
    """A yes/no fact about the table, big enough to tap."""
    return pmui.Switch(label=label, value=value, css_classes=[css] if css else [], size="large")


def picker(label: str, css: str) -> pmui.CheckButtonGroup:
    """Buttons tapped on and off (units of a stack, states, ...)."""
    return pmui.CheckButtonGroup(label=label, css_classes=[css], size="large", sizing_mode="stretch_width",
                                 orientation="horizontal")


def lazy_tabs(pages: Mapping[str, Sequence | Callable[[], Sequence]], css: str = "game-tabs",
              live: LiveSession | None = None, follow: Mapping[str, Callable[[], None]] | None = None) -> pmui.Tabs:
    """Tabs each filled the first time it is opened, then kept on the page; a tab given as a function is built
    then too, so that a page opens with only what its first tab shows. With `dynamic=True` a tab shown once and
    hidden again keeps a detached model, and its next update makes Panel point the page's shared stylesheets at
    the CDN (offline, the page loses its styles). A tab's page is a plain Panel column: a plot added to a Material
    column of a tab that is being shown fails to lay out ("reading 'top_panel'" in the browser). With `live`, a
    last tab "Rules" searches the game's rulebook, and `follow` names a tab's drawing (of its plots): done when the
    tab is first filled, then at every change of the game, never for a tab not yet opened."""
    if live is not None:
        pages = {**pages, "Rules": lambda: [RulesPage(live.engine, live.session.replay.options)]}
    names, contents, follow = list(pages), list(pages.values()), follow or {}
    tabs = pmui.Tabs(*((name, pn.Column(sizing_mode="stretch_width")) for name in pages),
                     sizing_mode="stretch_width", css_classes=[css])

    def fill(index: int) -> None:
        page = tabs[index]
        if not page.objects:
            shown = contents[index]() if callable(contents[index]) else contents[index]
            follow.get(names[index], lambda: None)()
            page.objects = [pn.Column(*shown, sizing_mode="stretch_width", css_classes=["tab-page"])]
    tabs.param.watch(lambda e: fill(e.new), "active")
    if follow:
        live.param.watch(lambda _: [draw() for name, draw in follow.items() if tabs[names.index(name)].objects],
                         "version")
    fill(0)
    return tabs


PLAY, ODDS, GAP = 560, 340, 12  # px: the least widths of the play area and of the odds column, the gap between them
BESIDE = f"""@media (min-width: {PLAY + ODDS + GAP + 40}px) {{
  :host {{ position: sticky; top: 0; align-self: flex-start; max-height: calc(100vh - 72px); overflow-y: auto; }}
}}"""  # side by side (a landscape tablet): the odds column stays in view below the title bar (68 px) as the play area
# scrolls, the log scrolling in it


def two_columns(left, right) -> pn.FlexBox:
    """The game page: the play area and, beside it on a landscape tablet or below it in portrait, the odds and the
    log. Beside the play area, the odds stay in view while it scrolls down to the button that commits a step."""
    play = pmui.Column(left, sizing_mode="stretch_width", styles={"flex": f"3 1 {PLAY}px", "min-width": "300px"})
    odds = pn.Column(right, sizing_mode="stretch_width", styles={"flex": f"1 1 {ODDS}px", "min-width": "300px"},
                     stylesheets=[BESIDE], css_classes=["odds-column"])
    return pn.FlexBox(play, odds, flex_wrap="wrap", sizing_mode="stretch_width", styles={"gap": f"{GAP}px"})


class ActionPanel(pn.viewable.Viewer):
    """One action of the game with its controls: the dice entry when it rolls dice, a button when it
    does not, and the reason when the rules do not allow it now. `build()` returns the action dict
    from the form the app puts above it; call `refresh()` when that form changes."""

    blocked = param.String(default="")
    label = param.String(default="Confirm", doc="What the button (or the dice entry) does")
    visible = param.Boolean(default=True)

    def __init__(self, live: LiveSession, label: str, build: Callable[[], Mapping[str, Any]], **params):
        super().__init__(label=label, **params)
        self.live = live
        self._build = build
        self._dice = DiceEntry(on_dice=self.perform, title=label)
        self._button = pmui.Button(label=label, variant="contained", color="primary", css_classes=["do-action"],
                                   **TOUCH)
        self._button.on_click(lambda _: self.perform(RandomDice()))
        self._why = Note(severity="info", visible=False, css_classes=["action-blocked"],
                         sizing_mode="stretch_width")
        self._layout = pn.Column(self._why, self._dice, self._button, sizing_mode="stretch_width",
                                 css_classes=["action-panel"])
        self.refresh()

    @param.depends("label", watch=True)
    def _relabel(self) -> None:
        self._button.label = self._dice.title = self.label

    @param.depends("visible", watch=True)
    def _show(self) -> None:
        self._layout.visible = self.visible

    def action(self) -> Mapping[str, Any]:
        return self._build()

    def refresh(self) -> None:
        try:
            needed = self.live.needed(self.action())
        except (RuleError, ValueError) as exc:
            self.blocked = str(exc)
            needed = []
        else:
            self.blocked = ""
        self._dice.specs = [(r.label, r.sides) for r in needed for _ in r.faces]  # one spec a die
        self._dice.visible = bool(needed) and not self.blocked
        self._button.visible = not needed and not self.blocked
        self._why.object = plain(self.blocked)
        self._why.visible = bool(self.blocked)

    def perform(self, dice: Dice) -> bool:
        try:
            action = self.action()
        except ValueError as exc:
            self.live.fail(str(exc))
            return False
        return self.live.act(action, dice) is not None

    def __panel__(self):
        return self._layout
