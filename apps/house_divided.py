"""A House Divided dashboard: the turn, year and MM track, the phase guide, the battle board, the players' map as
a graph (control set by tapping a box, the supply overlay), border states and foreign intervention with their
odds, the basic-rules form and the log. Every number comes from the engine (engines.house_divided), every step
form from its action specs. Serve it with `panel serve apps/house_divided.py`, or every app by `companion serve`."""
from __future__ import annotations

import math
import re

import holoviews as hv
import pandas as pd
import panel as pn
import panel_material_ui as pmui
import yaml

import engines
from companion import plots
from companion.dice import RandomDice
from companion.engine import RuleError
from companion.odds import fractions, mean, p_at_least
from companion.spec import SOME_OF
from companion.ui.controls import ActionPanel, OddsPanel, lazy_tabs, odds_text, two_columns
from companion.ui.forms import SpecStep
from companion.ui.guide import PhaseGuide
from companion.ui.live import LiveSession
from companion.ui.log import EventLog
from companion.ui.rules import chip
from companion.ui.shell import app_page
from companion.ui.text import escape, plain
from companion.ui.theme import TOUCH, extension
from engines.house_divided.basic import FORM, MAX_STRENGTH, require_filled
from engines.house_divided.battle_command import fire_limit
from engines.house_divided.example import LABEL, example_setup
from engines.house_divided.gamemap import map_from_data, map_warnings
from engines.house_divided.guide import due_now, other_steps, phase_title
from engines.house_divided.intervention import fi_status
from engines.house_divided.rules import CSA, FIRE_CAP, SIDE_NAME, SIDES, TURNS, USA, YEARS
from engines.house_divided.setup_file import read_setup
from engines.house_divided.state import ELIMINATED, GameState
from engines.house_divided.supply import FORAGED, IN_SUPPLY, OUT_OF_SUPPLY, supply_report
from engines.house_divided.views import battle_board, border_views, box_text, desertion_losses, \
    fi_return_now, fire_preview, flags, map_view, march_odds, next_command_odds, rout_chances, washington_mm_odds

ENGINE = engines.get("house_divided")
NOBODY = "none"  # the control brush's "nobody" (the engine's "" side)
CONTROL_COLOURS = {"Union": plots.PALETTE[0], "CSA": plots.PALETTE[3], "nobody": "#BBBBBB"}
SUPPLY_COLOURS = {IN_SUPPLY: plots.PALETTE[2], OUT_OF_SUPPLY: plots.PALETTE[5], FORAGED: plots.PALETTE[6]}
LINE_COLOURS = {"rail": "#444444", "river": plots.PALETTE[4], "road": plots.PALETTE[1]}
BUTTON_COLOURS = {USA: "primary", CSA: "error", "": "secondary"}
BORDER_TURNS = 4
SETUP_HELP = ("Your setup (YAML or JSON): map, units, leaders, mm, year, turn, mm_track, calendar, control, "
              "southern_cities, landed_ports, contained")
CSS = """
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; margin-bottom: 4px; }
.turns { display: grid; grid-template-columns: repeat(20, 1fr); gap: 2px; margin: 4px 0; } .years { display: flex; gap: 2px; }
.turns div, .years div { flex: 1; border: 1px solid rgba(128,128,128,.4); text-align: center; font-size: 12px; border-radius: 3px; }
.turns .past { opacity: .55; } .turns .now { background: rgba(0,114,178,.3); font-weight: 700; }
.years .now { background: #E69F00; color: #000; font-weight: 700; } .flags { display: flex; flex-wrap: wrap; gap: 4px 16px; }
.mm { display: grid; grid-template-columns: 11em 1fr; gap: 3px 8px; align-items: center; font-size: 15px; margin: 6px 0; }
.mm .bar { height: 16px; border-radius: 3px; } .mm .usa { background: #0072B2; } .mm .csa { background: #D55E00; }
table.info { border-collapse: collapse; font-size: 15px; margin: 4px 0; width: 100%; }
.info td, .info th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left; vertical-align: top; }
.info .out { color: #CC79A7; font-weight: 700; } .info .ok { color: #009E73; font-weight: 700; }
.legend span { display: inline-block; margin-right: 14px; font-size: 13px; } .legend i.ring { background: none; border: 3px solid; }
.legend i { display: inline-block; width: 14px; height: 14px; border-radius: 7px; margin-right: 4px; vertical-align: middle; }
"""


def now(on: bool, name: str = "now") -> str:
    return f' class="{name}"' if on else ""


def button(label: str, css: str, do) -> pmui.Button:
    b = pmui.Button(label=label, variant="outlined", css_classes=[css], **TOUCH)
    b.on_click(lambda _: do())
    return b


def html_pane(css: str) -> pn.pane.HTML:
    return pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=[css])


def joined(names) -> str:
    return escape(", ".join(names)) or "-"


class SetupEditor(pn.viewable.Viewer):
    """The players' setup (HD-2) as one YAML or JSON document the engine reads (a map file becomes its map)."""

    def __init__(self, **params):
        super().__init__(**params)
        self.text = pmui.TextAreaInput(label=SETUP_HELP, rows=14, sizing_mode="stretch_width", css_classes=["setup-text"])
        self.paste = pmui.TextAreaInput(label="Or paste a map file", rows=4, sizing_mode="stretch_width", css_classes=["map-paste"])
        self.upload = pmui.FileInput(label="Open a setup or map file", accept=".json,.yaml,.yml", css_classes=["map-file"])
        self.upload.param.watch(lambda e: self.read(e.new) if e.new else None, "value")
        self.map_note, self.note = (pmui.Alert(severity="info", sizing_mode="stretch_width", css_classes=[c])
                                    for c in ("map-note", "setup-note"))
        self.text.param.watch(lambda _: self._check(), "value")
        self._layout = pmui.Column(
            pmui.Typography("Your map, units and MM (the source has none of them)", variant="h6"),
            button("Load the EXAMPLE (invented map and units)", "load-example", self.load_example), self.upload,
            self.text, self.paste, button("Read the pasted map", "read-map",
                                          lambda: self.read(self.paste.value_input or self.paste.value or "")),
            self.map_note, self.note, sizing_mode="stretch_width")
        self._check()

    def load_example(self) -> None:
        self.text.value = yaml.safe_dump(example_setup(), sort_keys=False, width=100)

    def read(self, raw: str | bytes) -> None:
        """A setup or map file read by the engine's bounded loader; one refused changes nothing but the note."""
        try:
            opened = read_setup(raw)
            if set(opened) == {"map"}:
                map_from_data(opened["map"])
                opened = {**read_setup(self.text.value or "{}"), **opened}
            text = yaml.safe_dump(opened, sort_keys=False, width=100)
        except Exception as exc:  # noqa: BLE001 (a player's file: whatever fails is refused, shown, nothing changed)
            return self.map_note.param.update(severity="error", object=plain(f"The file is refused: {exc}"))
        self.text.value = text

    def setup(self) -> dict:
        """The setup entered; the EXAMPLE's label only while it is the example unchanged."""
        setup = read_setup(self.text.value or "")
        if setup.get("label") == LABEL and setup != example_setup():
            del setup["label"]
            if isinstance(setup.get("map"), dict) and setup["map"].get("label") == LABEL:
                setup["map"] = {k: v for k, v in setup["map"].items() if k != "label"}
        return setup

    def _check(self) -> None:
        self.note.visible = False
        if not (self.text.value or "").strip():
            return self.map_note.param.update(severity="info", object="Type or paste your setup, or open a file.")
        try:
            setup = self.setup()
            game_map = map_from_data(setup.get("map"))
        except Exception as exc:  # noqa: BLE001 (typed text: whatever fails is shown)
            return self.map_note.param.update(severity="error", object=plain(f"Not valid yet: {exc}"))
        lines = ([setup["label"]] if setup.get("label") else [game_map.label] if game_map.label else []) + [
            f"{len(game_map.boxes)} boxes, {len(game_map.lines)} lines: the map is valid"] + map_warnings(game_map)
        self.map_note.param.update(severity="warning" if len(lines) > 1 else "success", object=plain(" ".join(f"{x}." for x in lines)))
        try:
            ENGINE.start(None, setup)
            self.note.param.update(visible=True, severity="success", object="Ready: choose the options and start.")
        except Exception as exc:  # noqa: BLE001
            self.note.param.update(visible=True, severity="error", object=plain(f"Not ready: {exc}"))

    def __panel__(self):
        return self._layout


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

    def outlook(s):  # tomorrow's fire limit (HD-4.2, HD-5.6)
        if not (state.battle.command_day and state.options["battle_command"]):
            return "-"
        d = next_command_odds(state, s.side).map(fire_limit)
        return f"expected {float(mean(d)):.2f}; P({FIRE_CAP}) {odds_text(fractions(d).get(FIRE_CAP, 0))}"
    rows = [("", lambda s: f"<b>{SIDE_NAME[s.side]}</b>"),
            (f"command C today {chip('HD-4.2')}", lambda s: "-" if s.command is None else s.command),
            (f"fire limit min(C, 8) {chip('HD-5.6')}", lambda s: s.fire_limit),
            ("carry to tomorrow ⌈X/2⌉", lambda s: f"+{s.carry_next}"), ("tomorrow's fire limit", outlook),
            (f"leaders (points to split each round) {chip('HD-4.3')}", lambda s: f"{joined(s.leaders)}: {s.leader_rating}"
             if s.leaders else "-"),
            ("able to fire", lambda s: joined(s.active)), (f"routed {chip('HD-4.4')}", lambda s: joined(s.routed)),
            ("reduced", lambda s: joined(s.reduced)), ("eliminated", lambda s: joined(s.eliminated)),
            (f"coastal garrison hits {chip('HD-4.11')}",
             lambda s: "-" if s.garrison_hits is None else f"{s.garrison_hits} of 2"), ("hits to place", lambda s: s.hits_due)]
    table = "".join(f"<tr><th>{label}</th>{''.join(f'<td>{fn(s)}</td>' for s in board.sides)}</tr>" for label, fn in rows)
    return f'<p>{head}</p><p><b>Day {board.day}</b>, round {board.round}. {doing}</p><table class="info">{table}</table>'


def supply_html(state: GameState) -> str:
    """The phasing side's stacks with their supply line or why there is none, and the boxes that lose a unit."""
    if not state.options["supply"]:
        return "<p>The supply rule (S1) is off in this game.</p>"
    report = supply_report(state)
    name = SIDE_NAME[report.side]
    head = (f"<b>Checked this {name} turn.</b> Must still lose one unit in: " if state.supply_checked else
            f"<b>{name} supply, not yet checked this turn</b>; as things stand, one unit lost in: ")
    rows = "".join(f'<tr><td>{escape(x.box)}</td><td>{x.units}</td><td class="'
                   f'{"out" if x.status == OUT_OF_SUPPLY else "ok" if x.status == IN_SUPPLY else ""}">{escape(x.status)}'
                   f"</td><td>{escape(x.reason)}</td></tr>" for x in report.stacks)
    return (f'<p>{head}<b>{escape(", ".join(state.supply_due if state.supply_checked else report.losses) or "none")}'
            f'</b> {chip("HD-5.1")}</p><table class="info"><tr><th>box</th><th>units</th><th>status</th><th>supply line,'
            f' or why there is none</th></tr>{rows or f"<tr><td colspan=4>No {name} unit on the map.</td></tr>"}</table>')


def map_figure(state: GameState, selected: str | None = None) -> hv.Overlay:
    """Boxes coloured by control, lines by type, rings for the phasing side's supply (HD-5.1), the box chosen."""
    views = map_view(state)
    nodes = hv.Nodes([(v.x, v.y, v.id, v.name, SIDE_NAME.get(v.controller, 'nobody'), v.supply or "-",
                       f"Union {v.units[USA]}, CSA {v.units[CSA]}") for v in views], vdims=["name", "control", "supply", "units"])
    edges = pd.DataFrame([(line.a, line.b, line.type) for line in state.game_map.lines], columns=["start", "end", "type"])
    graph = hv.Graph((edges, nodes), vdims=["type"]).opts(
        node_color="control", cmap=CONTROL_COLOURS, node_size=30, edge_color="type", edge_cmap=LINE_COLOURS,
        edge_line_width=4, node_line_color="white", tools=["hover"], inspection_policy="nodes", show_legend=False)
    drop = 0.09 * ((max(v.y for v in views) - min(v.y for v in views)) or 1)
    rings = hv.Points([(v.x, v.y, v.supply) for v in views if v.supply in SUPPLY_COLOURS], vdims=["supply"]).opts(
        color="supply", cmap=SUPPLY_COLOURS, size=46, fill_alpha=0, line_width=5, marker="circle", show_legend=False)
    chosen = hv.Points([(v.x, v.y) for v in views if v.id == selected]).opts(
        color="black", size=58, fill_alpha=0, line_width=2, line_dash="dashed", marker="square")
    labels = hv.Labels([(v.x, v.y - drop, f"{v.id}\nU{v.units[USA]} C{v.units[CSA]}") for v in views]).opts(
        text_color="black", text_font_size="10pt", text_baseline="top")
    name = "EXAMPLE map" if state.game_map.label == LABEL else state.game_map.label
    return (graph * rings * chosen * labels).opts(
        title=(f"{name}: c" if name else "C") + f"ontrol and {SIDE_NAME[state.side]} supply", responsive=True,
        min_height=400, xaxis=None, yaxis=None, toolbar=None, padding=0.15, bgcolor="#f7f5ee", fontscale=1.1,
        show_legend=False)


LEGEND = ('<div class="legend">' + "".join(f'<span><i style="background:{c}"></i>{n}</span>' for n, c in CONTROL_COLOURS.items())
          + "".join(f'<span><i class="ring" style="border-color:{c}"></i>{n}</span>' for n, c in SUPPLY_COLOURS.items())
          + "".join(f'<span style="color:{c}">━ {t}</span>' for t, c in LINE_COLOURS.items()) + "</div>")


class MapPanel(pn.viewable.Viewer):
    """The map and its box buttons: a tap shows a box or gives it to the side chosen (set_control); the supply."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live, self.selected, self._key, self._tapped = live, None, None, set()
        self.redraw = hv.streams.Stream.define("MapState", key=0)()
        self.figure = pn.pane.HoloViews(hv.DynamicMap(lambda key: map_figure(live.state, self.selected).opts(
            hooks=[self._on_tap]), streams=[self.redraw]), sizing_mode="stretch_width", min_height=380,
            linked_axes=False, css_classes=["map-figure"])
        self.brush = pmui.RadioButtonGroup(label="A tap on a box (on the map or its button)", options={
            "Shows it": "look", "Gives it to the Union": USA, "Gives it to the CSA": CSA, "Makes it nobody's": NOBODY},
            value="look", size="large", css_classes=["control-brush"])
        self.buttons = {b.id: button(b.id, "box-" + re.sub(r"[^A-Za-z0-9_-]", "_", b.id),
                                     lambda b=b.id: self.box_tapped(b)) for b in live.state.game_map.boxes}
        self.details, self.supply = html_pane("box-details"), html_pane("supply-report")
        self.render()

    def _on_tap(self, plot, element) -> None:
        """The Bokeh figure's taps, once per figure (HoloViews' Tap stream stays silent on an overlay here)."""
        if plot.state.id not in self._tapped:
            self._tapped.add(plot.state.id)
            plot.state.on_event("tap", lambda event: self.tap_at(event.x, event.y))

    def tap_at(self, x, y) -> None:
        """A tap on the graph: the nearest box, if the tap was close to one."""
        where = self.live.state.game_map.positions
        if x is None or y is None or not where:
            return
        box, gap = min(((b, math.dist(p, (x, y))) for b, p in where.items()), key=lambda t: t[1])
        if gap <= 0.12 * max(max(p[i] for p in where.values()) - min(p[i] for p in where.values()) for i in (0, 1)):
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
        key = (tuple((v.id, v.controller, tuple(v.units.items()), v.supply, v.leaders) for v in views),
               self.selected, state.game_map.label, state.side)
        if key != self._key:
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
        return pn.Column(self.brush, self.figure, pn.pane.HTML(LEGEND, stylesheets=[CSS]),
                         pn.FlexBox(*self.buttons.values(), css_classes=["box-buttons"]), self.details,
                         pmui.Typography("Supply (HD-5.1)", variant="h6"), self.supply, sizing_mode="stretch_width")


def border_html(state: GameState) -> str:
    """Each border state (HD-4.8): whether it may roll, and if not why; its modifiers and chance now."""
    if not state.options["border_states"]:
        return "<p>The border-state rule (S9) is off in this game.</p>"
    rows = "".join(f"<tr><td>{v.name}</td><td>{v.status}</td>" + (
        f'<td class="out">no: {escape(v.refusal)}</td><td></td><td></td></tr>' if v.refusal else
        f'<td class="ok">yes, at the start of a CSA turn</td><td>{escape(v.modifiers)}; more than {v.needed} needed'
        f"</td><td>{odds_text(v.chance)}; within {BORDER_TURNS} CSA turns {odds_text(v.within[-1])}</td></tr>")
        for v in border_views(state, BORDER_TURNS))
    return ('<table class="info"><tr><th>state</th><th>status</th><th>may roll (all its cities CSA-held)</th>'
            f"<th>modifiers</th><th>P(support) on a roll; P(joined within n turns, modifiers as now)</th></tr>{rows}</table>")


def fi_html(state: GameState) -> str:
    """The FI checker (HD-5.9): each condition with its reason, the trigger, the FI units."""
    if not state.options["intervention"]:
        return "<p>The foreign intervention rule (S10) is off in this game.</p>"
    status = fi_status(state)
    rows = "".join(f'<tr><td>{c.number}</td><td>{escape(c.title)}</td><td class="{"ok" if c.met else "out"}">'
                   f'{"met" if c.met else "not met"}</td><td>{escape(c.reason)}</td></tr>' for c in status.conditions)
    where = "; ".join(f"{u.name} ({u.grade} {u.arm}): {'eliminated' if u.status == ELIMINATED else u.box}" for u in
                      state.units if u.foreign) or "none yet"
    return (f"<p><b>{'All three conditions are met now' if status.met_now else 'Not all conditions are met now'}"
            f"</b>. {escape(status.trigger)}.</p><table class=\"info\"><tr><th>#</th><th>condition</th><th></th>"
            f"<th>why</th></tr>{rows}</table><p>FI units: {escape(where)}.</p>")


class BasicRulesForm(pn.viewable.Viewer):
    """HD-4.10: the basic game's fire numbers from the players' rulebook (until complete, hits are entered)."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live, self._shown = live, None
        self.widgets = {f.key: self._widget(f) for f in FORM}
        self.status = pmui.Alert(sizing_mode="stretch_width", css_classes=["basic-status"])
        self.panel = ActionPanel(live, "Save the basic rules",
                                 lambda: {"type": "configure_basic_rules", "settings": self.settings()})
        for w in self.widgets.values():
            w.param.watch(lambda _: self.panel.refresh(), "value")
        self.render()

    @staticmethod
    def _widget(f):
        css = ["basic-" + re.sub(r"[^A-Za-z0-9_-]", "_", f.key)]
        if f.kind == "count":
            return pmui.IntInput(label=f.label, start=0, end=MAX_STRENGTH, value=f.suggested, css_classes=css, size="large")
        options = {**({} if f.suggested else {"(not entered)": ""}), **(
            {str(n): str(n) for n in range(MAX_STRENGTH + 1)} if f.kind == "strength" else {t: v for v, t in f.choices})}
        return pmui.Select(label=f.key.replace("/", " ") if f.kind == "strength" else f.label, options=options,
                           value=f.suggested or "", css_classes=css, width=180 if f.kind == "strength" else 360)

    def settings(self) -> dict:
        strength = {k: int(w.value) for k, w in self.widgets.items() if k.count("/") == 2 and w.value != ""}
        return {"strength": strength, **{k: w.value for k, w in self.widgets.items() if "/" not in k}}

    def render(self) -> None:
        basic = self.live.state.basic
        if basic != self._shown:  # the session's entries (after a save, an undo, another device)
            self._shown = basic
            for key, w in self.widgets.items():
                w.value = str(basic.strength.get(key, "")) if key.count("/") == 2 else getattr(basic, key)
        try:
            require_filled(basic)
            self.status.param.update(severity="success", object="Basic fire is configured: the companion rolls fire.")
        except RuleError as exc:
            self.status.param.update(severity="warning", object=plain(exc))
        self.panel.refresh()

    def __panel__(self):
        return pmui.Column(pmui.Typography(
            "Basic rules (HD-4.10) from your own rulebook: a unit hits on a d6 at or under its combat strength; enter "
            "each strength, the firing order, entrenchment. Nothing is assumed.", variant="h6"), self.status,
            pn.FlexBox(*self.widgets.values()), self.panel, sizing_mode="stretch_width", css_classes=["basic-rules"])


class HouseDividedView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.track, self.board, self.border, self.fi = map(html_pane, ("turn-track", "battle-board", "border-panel", "fi-panel"))
        self.phase = pmui.Typography(variant="h6", css_classes=["phase-title"])
        self.odds, self.log, self.map, self.basic = OddsPanel(), EventLog(live), MapPanel(live), BasicRulesForm(live)
        live.param.watch(lambda _: self.render(), "version")
        self.guide = PhaseGuide(live, lambda s: due_now(s) + other_steps(s), self._form, self.odds.clear, phase_title)
        self.tabs = lazy_tabs({"Play": [self.phase, self.board, self.guide], "Map": [self.map], "Border & Europe": [
            pmui.Typography("Border-state support (HD-4.8)", variant="h6"), self.border,
            pmui.Typography("Foreign intervention (HD-5.9)", variant="h6"), self.fi], "Basic rules": [self.basic]}, live=live)
        self.render()

    def render(self) -> None:
        s = self.live.state
        self.track.object, self.phase.object, self.board.object = track_html(s), plain(phase_title(s)), battle_html(s)
        self.board.visible = s.battle is not None
        self.map.render()
        self.basic.render()
        self.border.object, self.fi.object = border_html(s), fi_html(s)

    def _form(self, action: str) -> SpecStep:
        """The step form of an action, built from its spec, with the odds this game shows beside it."""
        s = lambda: self.live.state  # noqa: E731 (the state when the odds are shown)
        shows = {
            "fire": self._fire_odds, "record_fire": self._fire_odds, "battle_command": self._command_odds,
            "morale_checks": self._morale_odds,
            "roll_marches": lambda _: self._dist(f"Marches this turn, {SIDE_NAME[s().side]} {s().year} (HD-4.1)",
                                                 march_odds(s()), "marches"),
            "desertion_checks": lambda _: self._dist(
                "Desertion after the battle (HD-4.6)", desertion_losses(s()), "units lost", "+1 if its side lost, "
                "-1 if not routed, minus the friendly leaders' rating; more than its morale deserts."),
            "washington_loss": lambda _: self._dist(
                f"Washington has fallen (HD-4.7): Union MM now {s().mm_usa}", washington_mm_odds(s()), "Union MM",
                "The loss is the d6, a 1 counting as 2; not a CSA win (HD-6.1)."),
            "fi_return_rolls": lambda _: self._dist("FI return rolls (HD-4.9)", fi_return_now(s()), "FI units back",
                                                    "Each returns on 5-6.")}

        def started() -> None:  # a step come round: its lists start as the engine suggests (units firing, hits)
            for f in step.form.fields:
                if f.param.kind == SOME_OF and f.suggested and f.legal is not None:
                    f.set(f.suggested)
        step = SpecStep(self.live, action, shows.get(action), on_reset=started)
        return step

    def _dist(self, title: str, d, what: str, note: str = "") -> None:  # a number the dice decide: mean, chances
        self.odds.show(title, [(f"expected {what}", f"{float(mean(d)):.2f}")] + [
            (f"P({k} {what})", odds_text(p)) for k, p in sorted(fractions(d).items())],
            plots.hits_bars(d, title, what), note)

    def _command_odds(self, _) -> None:
        s = self.live.state
        odds = {SIDE_NAME[side]: next_command_odds(s, side) for side in (s.battle.attacker, s.battle.sides[1].side)}
        numbers = [x for n, d in odds.items() for x in ((f"{n}: expected C", f"{float(mean(d)):.2f}"), (
            f"{n}: P(8 units fire)", odds_text(fractions(d.map(fire_limit)).get(FIRE_CAP, 0))))]
        first, second = (plots.hits_bars(d, f"{n} command C, day {s.battle.day}", "C") for n, d in odds.items())
        self.odds.show(f"Battle command, day {s.battle.day} (HD-4.2)", numbers, first, "The attacker's die first. C = "
                       "the table + half yesterday's C (rounded up) + leaders; min(C, 8) units fire.", second, "Defender")

    def _fire_odds(self, action) -> None:
        s = self.live.state
        side = action.get("side") or battle_board(s).step_side
        title = f"{SIDE_NAME[side]} fire, round {s.battle.round} (HD-4.10)"
        try:
            d = fire_preview(s, side, action.get("units"), action.get("bonus"))
        except RuleError as exc:
            return self.odds.show(title, note=str(exc))
        self.odds.show(title, [("expected hits", f"{float(mean(d)):.2f}"), ("P(at least 1 hit)", odds_text(
            p_at_least(d, 1)))], plots.hits_bars(d, f"Hits of {len(action.get('units') or [])} units firing"))

    def _morale_odds(self, _) -> None:
        chances, any_rout = rout_chances(self.live.state)
        self.odds.show("Morale checks (HD-4.4)", [("P(at least one routs)", odds_text(any_rout))] + [
            (f"P({u} routs)", odds_text(p)) for u, p in chances.items()],
            plots.outcome_bars(list(chances.items()), "P(rout) of each flipped unit"),
            "A unit routs when its d6 (-1 in a fort or entrenched) is greater than its morale.")

    def __panel__(self):
        return pmui.Column(self.track, two_columns(self.tabs, pmui.Column(self.odds, self.log)),
                           sizing_mode="stretch_width")


def page():
    return app_page(ENGINE, SetupEditor, HouseDividedView)


if pn.state.served:
    extension()
    page().servable(title=ENGINE.title)
