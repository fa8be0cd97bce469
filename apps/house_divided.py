"""A House Divided dashboard: the setup in tables, the turn, year and MM track, the phase guide, the battle board,
the map as a graph (control set by a tap, supply), border states, intervention, basic rules, odds and tables, the
log; every number from the engine, every step form from its specs. Serve it with `panel serve` or `companion serve`."""
from __future__ import annotations

import re
from fractions import Fraction
from functools import partial

import holoviews as hv
import pandas as pd
import panel as pn
import panel_material_ui as pmui
from bokeh.models import PanTool, WheelZoomTool

import engines
from companion import plots
from companion.dice import RandomDice
from companion.engine import RuleError
from companion.odds import p_at_least
from companion.labels import place
from companion.ui.choice import TapChoice
from companion.ui.controls import ActionPanel, OddsPanel, lazy_tabs, odds_text, redraw, switch, two_columns
from companion.ui.forms import SpecStep
from companion.ui.guide import PhaseGuide
from companion.ui.live import LiveSession
from companion.ui.log import EventLog
from companion.ui.records import CHOICE, LINES, NUMBER, SOME, Column, RecordForm, RecordTable, SetupForm
from companion.ui.rules import chip
from companion.ui.shell import serve_app
from companion.ui.tables import CSS as TABLE_CSS, Html, html_table, mark
from companion.ui.text import Note, Text, escape, plain
from companion.ui.theme import TOUCH, holoviews
from engines.house_divided import entries
from engines.house_divided.basic import FORM, MAX_STRENGTH, require_filled
from engines.house_divided.battle_command import fire_limit_by_day
from engines.house_divided.command import expected_marches
from engines.house_divided.example import LABEL, example_setup
from engines.house_divided.gamemap import map_from_data
from engines.house_divided.guide import due_now, other_steps, phase_title
from engines.house_divided.intervention import fi_status
from engines.house_divided.rules import CSA, FIRE_CAP, SIDE_NAME, SIDES, TURNS, USA, YEARS
from engines.house_divided.setup_file import MAP_TABLES, PLACES, TABLES, map_summary, read_setup, single_entries
from engines.house_divided.state import GameState
from engines.house_divided.supply import FORAGED, IN_SUPPLY, OUT_OF_SUPPLY, supply_report
from engines.house_divided.views import battle_board, battle_rows, border_curves, box_at, border_views, box_text, command_row, command_table, \
    fi_units_text, flags, map_view, step_odds, unit_odds, washington_mm_odds

holoviews()  # the map
ENGINE = engines.get("house_divided")
NOBODY = "none"  # the control brush's "nobody" (the engine's "" side)
CONTROL_COLOURS = {"Union": plots.PALETTE[0], "CSA": plots.PALETTE[3], "nobody": "#BBBBBB"}
SUPPLY_COLOURS = {IN_SUPPLY: plots.PALETTE[2], OUT_OF_SUPPLY: plots.PALETTE[5], FORAGED: plots.PALETTE[6]}
LINE_COLOURS = {"rail": "#444444", "river": plots.PALETTE[4], "road": plots.PALETTE[1]}
BUTTON_COLOURS = {USA: "primary", CSA: "error", "": "secondary"}
BORDER_TURNS, OUTLOOK_DAYS = 8, 4
MAP_FRAME, MAP_MARK = (700, 330), 26  # px: the map's smallest frame on a tablet; half a box's ring, its line included
CSS = """
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; margin-bottom: 4px; }
.turns { display: grid; grid-template-columns: repeat(20, 1fr); gap: 2px; margin: 4px 0; } .years { display: flex; gap: 2px; }
.turns div, .years div { flex: 1; border: 1px solid rgba(128,128,128,.4); text-align: center; font-size: 16px; border-radius: 3px; }
.turns .past { opacity: .55; } .turns .now { background: rgba(0,114,178,.3); font-weight: 700; }
.years .now { background: #E69F00; color: #000; font-weight: 700; } .flags { display: flex; flex-wrap: wrap; gap: 4px 16px; }
.mm { display: grid; grid-template-columns: 11em 1fr; gap: 3px 8px; align-items: center; font-size: 16px; margin: 6px 0; }
.mm .bar { height: 16px; border-radius: 3px; } .mm .usa { background: #0072B2; } .mm .csa { background: #D55E00; }
.legend span { display: inline-block; margin-right: 14px; font-size: 16px; } .legend i.ring { background: none; border: 3px solid; }
.legend i { display: inline-block; width: 14px; height: 14px; border-radius: 7px; margin-right: 4px; vertical-align: middle; }
"""


def now(on: bool, name: str = "now") -> str:
    return f' class="{name}"' if on else ""


def html_pane(css: str) -> pn.pane.HTML:
    return pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS, TABLE_CSS], css_classes=[css])


def title(text: str) -> Text:
    return Text(text, variant="h6")


# --- the setup: tables of boxes, lines, units and leaders, the few fields, the basic game's fire --------------

def next_place(rows: list[dict]) -> dict:
    """A new box is drawn right of the others (a map whose boxes all have x, y keeps its drawing)."""
    xs, ys = ([r[k] for r in rows if isinstance(r.get(k), (int, float))] for k in ("x", "y"))
    return {"x": max(xs) + 1 if xs else 0, "y": min(ys) if ys else 0}


# HD-4.10: the basic game's fire numbers from the players' own rulebook (nothing assumed), in the setup and in the
# game's Basic rules tab; a field's label short enough to show whole on a tablet (the value suggested is filled in).
SHORT_LABELS = {"leader_point": "Strength per leader point (rules: +1)", "garrison_as": "Coastal garrison fires as"}
FIRE = [Column(f.key, f.key.replace("/", " ") if f.kind == "strength" else SHORT_LABELS.get(f.key, f.label),
               NUMBER if f.kind == "count" else CHOICE,
               range(MAX_STRENGTH + 1) if f.kind == "strength" else {t: v for v, t in f.choices}, default=f.suggested)
        for f in FORM]


def fire_settings(form: RecordForm) -> dict:
    return {"strength": {k: v for k, v in form.values().items() if k.count("/") == 2},
            **{k: v for k, v in form.values().items() if "/" not in k}}


def show_fire(form: RecordForm, basic) -> None:
    form.set_values({**basic.strength, **{k: v for k, v in vars(basic).items() if k != "strength"}})


BLANK_FIRE = fire_settings(RecordForm(FIRE, "basic"))


class SetupEditor(SetupForm):
    """The players' setup (HD-2) in tables and fields, one section after another; a setup or map file opened or
    pasted fills them, and the whole setup can be saved as a file; or the labelled EXAMPLE."""

    empty = "Enter your map's boxes and lines, open or paste your file, or load the EXAMPLE."
    invalid = "The map is not valid yet: "
    example = staticmethod(example_setup)

    def __init__(self, **params):
        super().__init__(ENGINE, "Your map, units and MM (the rules give none of them)",
                         "Load the EXAMPLE (invented map and units)", "house_divided-setup.json", **params)
        self._extra, self._loaded = {}, None  # what a file holds beyond the form; its map as loaded
        self.tables = {k: RecordTable(fields, what, f"setup-{k}", new_row=next_place if k == "boxes" else None)
                       for k, (what, fields) in TABLES.items()}
        self.track = RecordForm([*(Column(s, f"{SIDE_NAME[s]} MM (maximum mobilisation)", NUMBER, default=0) for s in SIDES),
                                 Column("mm_track", "MM track size (optional)", NUMBER), Column("year", "Year", CHOICE,
                                 YEARS, default=YEARS[0]), Column("turn", "Turn (1-40)", NUMBER, default=1), Column(
            "calendar", "Calendar (optional): one turn label a line, ending with its year, e.g. Jul 1861", LINES),
            *(Column(k, label, SOME) for k, label in PLACES.items())], "setup")
        self.fire = RecordForm(FIRE, "basic")
        self.frame([("The map's boxes", self.tables["boxes"]), ("The lines between boxes", self.tables["lines"]),
                    ("Units, where they stand", self.tables["units"]), ("Leaders", self.tables["leaders"]),
                    ("MM, year, turn, calendar, cities and ports", self.track),
                    ("Basic-game fire (HD-4.10)", pn.Column(Text(
                        "The advanced rules take the fire numbers from the basic rulebook: enter them from yours and the "
                        "companion rolls battle fire (or takes your dice); left empty, you enter the hits you score.",
                        variant="body1"), self.fire))],
                   [*self.tables.values(), *self.track.widgets.values(), *self.fire.widgets.values()])

    def opened(self, raw: str | bytes) -> dict:
        """A setup file, or a map file that becomes the map of the setup entered (a bad map refused)."""
        opened = read_setup(raw)
        if set(opened) != {"map"}:
            return opened
        map_from_data(opened["map"])
        return {**{k: v for k, v in self.entered().items() if k != "label"}, "map": opened["map"]}

    def fill(self, setup: dict) -> None:
        """Every entry of the form from a setup (a file's, the example's)."""
        game_map = entries.mapping(setup.get("map", {}), "'map' (its boxes and lines)", "HD-2")
        e = single_entries(setup)
        for key in TABLES:
            self.tables[key].set_rows((game_map if key in MAP_TABLES else setup).get(key, []))
        self.track.set_values({**e["mm"], **e})
        show_fire(self.fire, e["basic_rules"])
        self._loaded = self._map()
        self._extra = {**{k: v for k, v in setup.items() if k in ("label", "control", "fi_units")},
                       **{f"map_{k}": v for k, v in game_map.items() if k in ("label", "designated")}}

    def _ids(self) -> list:
        return [r["id"] for r in self.tables["boxes"].rows() if "id" in r]

    def _map(self) -> dict:
        return {k: self.tables[k].rows() for k in MAP_TABLES}

    def entered(self) -> dict:
        """The setup entered (also while incomplete: it is saved as it is); a file's label only while its map is
        unchanged."""
        extra = {k: v for k, v in self._extra.items() if self._map() == self._loaded or not k.endswith("label")}
        setup = {**{k: v for k, v in extra.items() if not k.startswith("map_")},
                 "map": {**self._map(), **{k[4:]: v for k, v in extra.items() if k.startswith("map_")}},
                 "units": self.tables["units"].rows(), "leaders": self.tables["leaders"].rows(),
                 "mm": {s: self.track.values().get(s, 0) for s in SIDES}, **{k: v for k, v in self.track.values().items()
                                                                             if k not in SIDES}}
        fire = fire_settings(self.fire)
        return {**setup, **({"basic_rules": fire} if fire != BLANK_FIRE else {})}

    def review(self, setup: dict) -> tuple[str, str] | None:
        """The boxes offered in the tables and lists; the map's summary (its warnings) or what is wrong with it."""
        ids = self._ids()
        for key, column in (("lines", "from"), ("lines", "to"), ("units", "box"), ("leaders", "box")):
            self.tables[key].set_choices(column, ([""] if key == "leaders" else []) + ids)
        for key in PLACES:
            self.track.set_choices(key, ids)
        lines = map_summary(setup["map"]) if ids else None
        return lines and ("warning" if len(lines) > 1 else "success", " ".join(f"{x}." for x in lines))


# --- the game: track, battle board, supply, map, border states, intervention, odds and tables ----------------

def track_html(state: GameState) -> str:
    """The turn and year track, both sides' maximum mobilisation and the game's flags."""
    turns = "".join(f"<div{now(t == state.turn) or now(t < state.turn, 'past')}"
                    + (f' title="{escape(state.calendar[t - 1])}"' if t <= len(state.calendar) else "") + f">{t}</div>"
                    for t in range(1, TURNS + 1))
    scale, track = state.mm_track or max(state.mm_usa, state.mm_csa, 1), state.mm_track and f" of a {state.mm_track} track"
    bars = "".join(f'<span>{SIDE_NAME[s]} MM <b>{state.mm(s)}</b></span><div><div class="bar {s.lower()}" '
                   f'style="width:{100 * state.mm(s) / scale:.1f}%"></div></div>' for s in SIDES)
    labels = "".join(f'<div class="example">{escape(x)}</div>' for x in dict.fromkeys(
        x for x in (state.label, state.game_map.label) if x))
    return (f'{labels}<div class="turns" title="turn track">{turns}</div><div class="years" title="year">'
            f'{"".join(f"<div{now(y == state.year)}>{y}</div>" for y in YEARS)}</div><div class="mm" title="maximum '
            f'mobilisation{track or ""}">{bars}<span>gap</span><span>{abs(state.mm_usa - state.mm_csa)}{track or ""}'
            f'</span></div><div class="flags">{"".join(f"<span>{escape(f)}</span>" for f in flags(state))}</div>')


def battle_html(state: GameState) -> str:
    """The battle board: round and day, each side's command, carry, fire limit, leaders and units."""
    board = battle_board(state)
    if board is None:
        return ""
    head = (f"<b>Battle at {escape(board.box)}</b>: {SIDE_NAME[board.attacker]} attacking"
            + (f", a contained port: the attacker has left its entrenchment {chip('HD-5.4')}" if board.contained else ""))
    doing = f"Decided: {SIDE_NAME[board.winner] + ' victory' if board.winner else 'neither side stands'}." * board.over
    rows = [(Html(escape(what) + (f" {chip(rule)}" if rule else "")), *cells) for what, rule, *cells in battle_rows(state)]
    return (f"<p>{head}</p><p><b>Day {board.day}</b>, round {board.round}. {doing}</p>"
            + html_table(rows, ("", *(SIDE_NAME[s.side] for s in board.sides)), heads=True))


def supply_html(state: GameState) -> str:
    """The phasing side's stacks with their supply line or why there is none, and the boxes that lose a unit."""
    if not state.options["supply"]:
        return "<p>The supply rule (S1) is off in this game.</p>"
    report = supply_report(state)
    name = SIDE_NAME[report.side]
    head = (f"<b>Checked this {name} turn.</b> Must still lose one unit in: " if state.supply_checked else
            f"<b>{name} supply, not yet checked this turn</b>; as things stand, one unit lost in: ")
    rows = [(x.box, x.units, mark(x.status, {OUT_OF_SUPPLY: "out", IN_SUPPLY: "ok"}.get(x.status, "")), x.reason)
            for x in report.stacks] or [(f"No {name} unit on the map.",)]
    return (f'<p>{head}<b>{escape(", ".join(state.supply_due if state.supply_checked else report.losses) or "none")}'
            f'</b> {chip("HD-5.1")}</p>' + html_table(rows, ("box", "units", "status", "supply line, or why there is none")))


def map_figure(state: GameState, selected: str | None = None) -> hv.Overlay:
    """Boxes coloured by control, lines by type, rings for the phasing side's supply (HD-5.1), the box chosen; each
    box's id and units beside it where they cover no other label or box (companion.labels), else its id alone.
    Pan and wheel zoom are there but not active: a finger or a wheel on the map scrolls the page (MapPanel)."""
    views = map_view(state)
    at = {v.id: i for i, v in enumerate(views)}
    layout = place([(v.x, v.y) for v in views], [(f"{v.id} U{v.units[USA]} C{v.units[CSA]}", v.id) for v in views],
                   MAP_FRAME, MAP_MARK, [(at[line.a], at[line.b]) for line in state.game_map.lines])
    nodes = hv.Nodes([(v.x, v.y, v.id, v.name, SIDE_NAME.get(v.controller, 'nobody'), v.supply or "-",
                       f"Union {v.units[USA]}, CSA {v.units[CSA]}") for v in views], vdims=["name", "control", "supply", "units"])
    edges = pd.DataFrame([(line.a, line.b, line.type) for line in state.game_map.lines], columns=["start", "end", "type"])
    graph = hv.Graph((edges, nodes), vdims=["type"]).opts(
        node_color="control", cmap=CONTROL_COLOURS, node_size=30, edge_color="type", edge_cmap=LINE_COLOURS,
        edge_line_width=4, node_line_color="white", tools=["hover"], inspection_policy="nodes", show_legend=False)
    rings = hv.Points([(v.x, v.y, v.supply) for v in views if v.supply in SUPPLY_COLOURS], vdims=["supply"]).opts(
        color="supply", cmap=SUPPLY_COLOURS, size=46, fill_alpha=0, line_width=5, marker="circle", show_legend=False)
    chosen = hv.Points([(v.x, v.y) for v in views if v.id == selected]).opts(
        color="black", size=58, fill_alpha=0, line_width=2, line_dash="dashed", marker="square")
    labels = hv.Labels([(p.x, p.y, p.text) for p in layout.labels if p]).opts(
        text_color="black", text_font_size=f"{layout.font}px", text_align="center", text_baseline="middle")
    name = "EXAMPLE map" if state.game_map.label == LABEL else state.game_map.label
    return (graph * rings * chosen * labels).opts(
        title=(f"{name}: c" if name else "C") + f"ontrol and {SIDE_NAME[state.side]} supply", responsive=True,
        min_height=400, xaxis=None, yaxis=None, toolbar=None, xlim=layout.xlim, ylim=layout.ylim, padding=0,
        bgcolor="#f7f5ee", fontscale=1.1, show_legend=False, active_tools=[])


LEGEND = ('<div class="legend">' + "".join(f'<span><i style="background:{c}"></i>{n}</span>' for n, c in CONTROL_COLOURS.items())
          + "".join(f'<span><i class="ring" style="border-color:{c}"></i>{n}</span>' for n, c in SUPPLY_COLOURS.items())
          + "".join(f'<span style="color:{c}">━ {t}</span>' for t, c in LINE_COLOURS.items()) + "</div>")


class MapPanel(pn.viewable.Viewer):
    """The map and its box buttons: a tap shows a box or gives it to the side chosen (set_control); the supply."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live, self.selected, self._key, self._figures = live, None, None, {}
        self.redraw = hv.streams.Stream.define("MapState", key=0)()
        self.figure = pn.pane.HoloViews(hv.DynamicMap(lambda key: map_figure(live.state, self.selected).opts(
            hooks=[self._on_draw]), streams=[self.redraw]), sizing_mode="stretch_width", min_height=380,
            linked_axes=False, css_classes=["map-figure"])
        self.zoom = switch("Zoom and move the map", css="map-zoom")
        self.zoom.param.watch(lambda _: self._tools(), "value")
        self.brush = pmui.RadioButtonGroup(label="A tap on a box (on the map or its button)", options={
            "Shows it": "look", "Gives it to the Union": USA, "Gives it to the CSA": CSA, "Makes it nobody's": NOBODY},
            value="look", size="large", css_classes=["control-brush"])
        self.buttons = {b.id: pmui.Button(label=b.id, css_classes=["box-" + re.sub(r"[^A-Za-z0-9_-]", "_", b.id)], **TOUCH)
                        for b in live.state.game_map.boxes}
        for box, b in self.buttons.items():
            b.on_click(lambda _, box=box: self.box_tapped(box))
        self.details, self.supply = html_pane("box-details"), html_pane("supply-report")
        self.render()

    def _on_draw(self, plot, element) -> None:
        """The Bokeh figure's taps, once per figure (HoloViews' Tap stream stays silent on an overlay here); its tools
        as the zoom switch says (HoloViews turns them off at each redraw)."""
        if plot.state.id not in self._figures:
            self._figures[plot.state.id] = plot.state
            plot.state.on_event("tap", lambda event: self.tap_at(event.x, event.y))
        self._tools()

    def _tools(self) -> None:
        """Pan and wheel zoom active only while "Zoom and move the map" is on; a tap shows a box either way."""
        for figure in self._figures.values():
            bar = figure.toolbar
            bar.active_drag = next((t for t in bar.tools if isinstance(t, PanTool)), None) if self.zoom.value else None
            bar.active_scroll = next((t for t in bar.tools if isinstance(t, WheelZoomTool)), None) \
                if self.zoom.value else None

    def tap_at(self, x, y) -> None:
        """A tap on the graph: the nearest box, if the tap was close to one."""
        if (box := box_at(self.live.state, x, y)) is not None:
            self.box_tapped(box)

    def box_tapped(self, box: str) -> None:
        self.selected = box
        if self.brush.value != "look":
            side = "" if self.brush.value == NOBODY else self.brush.value
            self.live.act({"type": "set_control", "box": box, "side": side}, RandomDice())
        self.render()

    def render(self) -> None:
        state = self.live.state
        views = map_view(state)
        if (key := (views, self.selected, state.game_map.label, state.side)) != self._key:
            self._key = key
            self.redraw.event(key=self.redraw.key + 1)
        for v in views:
            look = dict(label=f"{v.id} · {SIDE_NAME.get(v.controller, 'nobody')}", color=BUTTON_COLOURS[v.controller],
                        variant="contained" if v.controller else "outlined")
            if any(getattr(self.buttons[v.id], k) != x for k, x in look.items()):
                self.buttons[v.id].param.update(**look)
        self.details.object = escape(box_text(state, self.selected)).replace("\n", "<br>") if self.selected else \
            "Tap a box to see it; choose a side above to set control by tapping."
        self.supply.object = supply_html(state)

    def __panel__(self):
        return pn.Column(self.brush, self.zoom, self.figure, pn.pane.HTML(LEGEND, stylesheets=[CSS]),
                         pn.FlexBox(*self.buttons.values(), css_classes=["box-buttons"]), self.details,
                         Text("Supply (HD-5.1)", variant="h6"), self.supply, sizing_mode="stretch_width")


def border_html(state: GameState) -> str:
    """Each border state (HD-4.8): whether it may roll, and if not why; its modifiers and chance now."""
    if not state.options["border_states"]:
        return "<p>The border-state rule (S9) is off in this game.</p>"
    return html_table([(v.name, v.status, mark(f"no: {v.refusal}", "out"), "", "") if v.refusal else (
        v.name, v.status, mark("yes, at the start of a CSA turn", "ok"), f"{v.modifiers}; more than {v.needed} needed",
        f"{odds_text(v.chance)}; within {BORDER_TURNS} CSA turns {odds_text(v.within[-1])}")
        for v in border_views(state, BORDER_TURNS)], ("state", "status", "may roll (all its cities CSA-held)",
                                                       "modifiers", "P(support) on a roll; P(joined within n turns)"))


def fi_html(state: GameState) -> str:
    """The FI checker (HD-5.9): each condition with its reason, the trigger, the FI units."""
    if not state.options["intervention"]:
        return "<p>The foreign intervention rule (S10) is off in this game.</p>"
    status = fi_status(state)
    return (f"<p><b>{'All three conditions are met now' if status.met_now else 'Not all conditions are met now'}"
            f"</b>. {escape(status.trigger)}.</p>" + html_table(
                [(c.number, c.title, mark("met", "ok") if c.met else mark("not met", "out"), c.reason)
                 for c in status.conditions], ("#", "condition", "", "why"))
            + f"<p>FI units: {escape(fi_units_text(state))}.</p>")


def command_table_html(state: GameState) -> str:
    """The Command Table (HD-4.1), Union/CSA marches by die and year, this year marked."""
    return html_table(command_table(), ("d6", *YEARS), "row", YEARS.index(state.year) + 1, heads=True)


def expected_marches_html(year: int) -> str:
    """Each side's expected marches in each year, exact, laid out as the Command Table (HD-4.1), this year marked."""
    marches = expected_marches()
    return html_table([(SIDE_NAME[side], *(plots.fraction_text(marches[y, side]) for y in YEARS)) for side in SIDES],
                      ("side", *YEARS), "row", YEARS.index(year) + 1, heads=True)


def unit_odds_html(year: int) -> str:
    """One unit's rout and desertion chances by grade in a year, no leader (HD-4.4, HD-4.6)."""
    return html_table([(f"{grade} (morale {morale})", *chances) for grade, morale, chances in unit_odds(year)],
                      ("grade", "rout", "rout, fort or entrenched", "desert: lost, routed", "desert: lost, not routed",
                       "desert: won, not routed"))


def outlook_figure(year: int, side: str, leaders: int):
    """P(fire limit >= k) on each battle day, exact, for a year, a side and its leaders' L (HD-4.2, HD-5.6)."""
    days = fire_limit_by_day(year, side, leaders, OUTLOOK_DAYS)
    return plots.curves({f"day {n + 1}": [(k, p_at_least(d, k)) for k in range(1, FIRE_CAP + 1)] for n, d in
                         enumerate(days)}, f"P(fire limit ≥ k), {SIDE_NAME[side]} {year}", "k units", "probability",
                        height=300)


def outlook(year: int) -> pn.Column:
    """The fire limit a side can expect day by day, for the year, side and leaders' rating chosen, each a tap (the
    curves of the figure shown redrawn)."""
    chosen = (TapChoice(YEARS, label="Year", value=year, css_classes=["outlook-year"]),
              TapChoice({SIDE_NAME[s]: s for s in SIDES}, label="Side", value=USA, css_classes=["outlook-side"]),
              TapChoice(range(7), label="Leaders' rating L", value=0, css_classes=["outlook-leaders"]))
    figure = pn.pane.Bokeh(outlook_figure(year, USA, 0), sizing_mode="stretch_width")
    for choice in chosen:
        choice.param.watch(lambda _: redraw(figure, outlook_figure(*(c.value for c in chosen))), "value")
    return pn.Column(title("Fire limit by battle day (HD-4.2, HD-5.6)"), pn.FlexBox(*chosen), figure,
                     sizing_mode="stretch_width")


class BasicRulesForm(pn.viewable.Viewer):
    """HD-4.10: the basic game's fire numbers from the players' rulebook (until complete, hits are entered)."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live, self._shown, self.fields = live, None, RecordForm(FIRE, "basic")
        self.status = Note(sizing_mode="stretch_width", css_classes=["basic-status"])
        self.panel = ActionPanel(live, "Save the basic rules",
                                 lambda: {"type": "configure_basic_rules", "settings": fire_settings(self.fields)})
        for w in self.fields.widgets.values():
            w.param.watch(lambda _: self.panel.refresh(), "value")
        self.render()

    def render(self) -> None:
        basic = self.live.state.basic
        if basic != self._shown:  # the session's entries (after a save, an undo, another device)
            self._shown = basic
            show_fire(self.fields, basic)
        try:
            require_filled(basic)
            self.status.param.update(severity="success", object="Basic fire is configured: the companion rolls fire.")
        except RuleError as exc:
            self.status.param.update(severity="warning", object=plain(exc))
        self.panel.refresh()

    def __panel__(self):
        return pn.Column(title("Basic rules (HD-4.10) from your own rulebook: a unit hits on a d6 at or under its "
                               "combat strength; enter each strength, the firing order, entrenchment. Nothing is "
                               "assumed."), self.status, self.fields, self.panel, sizing_mode="stretch_width",
                         css_classes=["basic-rules"])


class HouseDividedView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live, self._keys = live, {}
        self.track, self.board, self.border, self.fi, self.tables, self.marches, self.units, self.row = map(html_pane, (
            "turn-track", "battle-board", "border-panel", "fi-panel", "command-table", "expected-marches", "unit-odds",
            "command-row"))
        self.phase = Text(variant="h6", css_classes=["phase-title"])
        self.odds, self.log, self.map, self.basic = OddsPanel(), EventLog(live), MapPanel(live), BasicRulesForm(live)
        self.border_plot, self.washington = (pn.pane.Bokeh(sizing_mode="stretch_width") for _ in "ab")
        self.border_box = pn.Column(self.border_plot, sizing_mode="stretch_width")
        live.param.watch(lambda _: self.render(), "version")
        self.guide = PhaseGuide(live, lambda s: due_now(s) + other_steps(s), self._form, self.odds.clear, phase_title)
        self.tabs = lazy_tabs({
            "Play": [self.phase, self.board, self.guide], "Map": [self.map], "Border & Europe": lambda: [
                title("Border-state support (HD-4.8)"), self.border, self.border_box,
                title("Foreign intervention (HD-5.9)"), self.fi, title("If Washington falls now (HD-4.7)"),
                self.washington], "Basic rules": [self.basic],
            "Odds & tables": lambda: [
                title("Command Table (HD-4.1): Union/CSA marches"), self.tables,
                title("Expected marches by year (HD-4.1)"), self.marches,
                outlook(live.state.year), title("One unit's rout and desertion, no leader (HD-4.4, HD-4.6)"),
                self.units]}, live=live, follow={"Border & Europe": self._draw_border})
        self.render()

    def _changed(self, name: str, key) -> bool:
        changed, self._keys[name] = self._keys.get(name) != key, key
        return changed

    def render(self) -> None:
        s = self.live.state
        self.track.object, self.phase.object, self.board.object = track_html(s), phase_title(s), battle_html(s)
        self.board.visible = s.battle is not None
        self.map.render()
        self.basic.render()
        self.border.object, self.fi.object, row = border_html(s), fi_html(s), command_row(s)  # the march roll's row
        self.row.object = html_table([(f"{SIDE_NAME[s.side]} marches, {s.year}", *row.values())], ("d6", *row), "row",
                                     heads=True)
        self.tables.object = command_table_html(s)
        if self._changed("year", s.year):
            self.units.object, self.marches.object = unit_odds_html(s.year), expected_marches_html(s.year)

    def _draw_border(self) -> None:
        """The border-state plot (and the Washington one): drawn once their tab is opened, then as the game goes on."""
        s = self.live.state
        if self._changed("border", curves := border_curves(s, BORDER_TURNS)):
            if curves:
                redraw(self.border_plot, plots.curves(curves, "P(joined) within n CSA turns (this turn's modifiers)",
                                                      "CSA turns", "probability", height=270))
            self.border_box.visible = bool(curves)
        if self._changed("washington", (s.mm_usa, s.options["washington_loss"])):
            redraw(self.washington, plots.hits_bars(washington_mm_odds(s), "Union MM after the loss", "Union MM",
                                                    height=270))

    def _form(self, action: str) -> SpecStep:
        """The step form of an action, built from its spec, with the engine's odds for it beside it."""
        return SpecStep(self.live, action, lambda chosen: self._show(step_odds(self.live.state, action, chosen)),
                        before=[self.row] if action == "roll_marches" else None)

    def _show(self, o) -> None:
        """Odds from the engine: probabilities as odds, means to two places; a distribution's mean and chances."""
        if o is None:
            return self.odds.clear()
        shown = [(k, odds_text(v) if isinstance(v, Fraction) else f"{v:.2f}" if isinstance(v, float) else str(v))
                 for k, v in o.numbers]
        figure = partial(plots.outcome_bars, list(o.outcomes), o.plot) if o.outcomes else \
            partial(plots.hits_bars, o.dist, o.plot or o.title, o.what) if o.dist is not None else None
        second = None if o.second is None else partial(plots.hits_bars, o.second, o.second_plot, o.what)
        self.odds.show(o.title, shown, figure, o.note, second, o.second_title)

    def __panel__(self):
        return pmui.Column(self.track, two_columns(self.tabs, pn.Column(self.odds, self.log)),
                           sizing_mode="stretch_width")


serve_app(ENGINE, SetupEditor, HouseDividedView)
