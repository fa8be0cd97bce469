"""A House Divided dashboard: the turn, year and MM track, the phase guide with one dice entry, the battle
board, the players' map drawn as a graph (control set by tapping a box, the supply overlay), border states
and foreign intervention with their live odds, the basic-rules form, odds and tables, and the event log.

Every number shown comes from an engine call (engines.house_divided); this module only lays it out.
Serve it alone with `panel serve apps/house_divided.py`, or with every app by `companion serve`.
"""
from __future__ import annotations

import html
import math
import re

import holoviews as hv
import pandas as pd
import panel as pn
import panel_material_ui as pmui

import engines
from companion import plots
from companion.dice import RandomDice
from companion.engine import RuleError
from companion.odds import fractions, mean, p_at_least
from companion.ui.controls import (
    ActionPanel,
    OddsPanel,
    lazy_tabs,
    odds_text,
    picker,
    switch,
    two_columns,
)
from companion.ui.guide import PhaseGuide, StepForm
from companion.ui.live import LiveSession
from companion.ui.log import EventLog
from companion.ui.shell import app_page
from companion.ui.text import plain as plain_text
from companion.ui.theme import TOUCH, extension
from engines.house_divided import battle as fight
from engines.house_divided.basic import FORM, MAX_STRENGTH, require_filled
from engines.house_divided.battle_command import fire_limit, fire_limit_by_day
from engines.house_divided.border_states import modifiers, success_chance
from engines.house_divided.command import expected_marches
from engines.house_divided.desertion import DesertionCheck
from engines.house_divided.example import LABEL, example_setup
from engines.house_divided.gamemap import (
    BOX_FIELDS,
    map_from_data,
    map_warnings,
    parse_map_text,
)
from engines.house_divided.guide import due_now, phase_title
from engines.house_divided.intervention import fi_status
from engines.house_divided.morale import MoraleCheck, morale_value
from engines.house_divided.rules import (
    ALIGNMENTS,
    ARMS,
    BORDER_STATES,
    COMMAND_TABLE,
    CSA,
    FACES,
    FIRE_CAP,
    GRADES,
    LEADERS,
    LINE_TYPES,
    ROUNDS_PER_DAY,
    SIDE_NAME,
    SIDES,
    TURNS,
    USA,
    YEARS,
)
from engines.house_divided.state import ELIMINATED, GameState
from engines.house_divided.supply import (
    FORAGED,
    IN_SUPPLY,
    LONE,
    OUT_OF_SUPPLY,
    supply_report,
)
from engines.house_divided.turn_start import border_input
from engines.house_divided.views import (
    battle_board,
    border_views,
    box_text,
    command_row,
    desertion_losses,
    fi_return_now,
    fire_preview,
    flags,
    map_view,
    march_odds,
    next_command_odds,
    rout_chances,
    washington_mm_odds,
)

ENGINE = engines.get("house_divided")
NOBODY = "none"  # the control picker's "nobody" (the engine's "" side)
CONTROL_COLOURS = {"Union": plots.PALETTE[0], "CSA": plots.PALETTE[3], "nobody": "#BBBBBB"}
SUPPLY_COLOURS = {IN_SUPPLY: plots.PALETTE[2], OUT_OF_SUPPLY: plots.PALETTE[5], FORAGED: plots.PALETTE[6]}
LINE_COLOURS = {"rail": "#444444", "river": plots.PALETTE[4], "road": plots.PALETTE[1]}
BUTTON_COLOURS = {USA: "primary", CSA: "error", "": "secondary"}
OUTLOOK_DAYS = 4
BORDER_TURNS = 8
CSS = """
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600;
           margin-bottom: 4px; }
.turns { display: grid; grid-template-columns: repeat(20, 1fr); gap: 2px; margin: 4px 0; }
.turns div { border: 1px solid rgba(128,128,128,.4); text-align: center; font-size: 12px; padding: 2px 0;
             border-radius: 3px; }
.turns .past { opacity: .55; } .turns .now { background: rgba(0,114,178,.3); font-weight: 700; }
.years { display: flex; gap: 2px; margin: 4px 0; }
.years div { flex: 1; text-align: center; border: 1px solid rgba(128,128,128,.4); border-radius: 4px; font-size: 13px;
             padding: 2px 0; }
.years .now { background: #E69F00; color: #000; font-weight: 700; }
.mm { display: grid; grid-template-columns: 11em 1fr; gap: 3px 8px; align-items: center; font-size: 15px;
      margin: 6px 0; }
.mm .bar { height: 16px; border-radius: 3px; }
.mm .usa { background: #0072B2; } .mm .csa { background: #D55E00; }
.flags { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 14px; }
table.row { border-collapse: collapse; font-size: 15px; margin: 4px 0; }
.row td, .row th { border: 1px solid rgba(128,128,128,.4); padding: 3px 9px; text-align: center; }
.row .now { background: #E69F00; color: #000; font-weight: 700; }
table.info { border-collapse: collapse; width: 100%; font-size: 15px; }
.info td, .info th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left;
                     vertical-align: top; }
.info .out { color: #CC79A7; font-weight: 700; } .info .ok { color: #009E73; font-weight: 700; }
.rounds { display: flex; gap: 3px; margin: 4px 0; }
.rounds div { flex: 1; text-align: center; border: 1px solid rgba(128,128,128,.4); border-radius: 4px; font-size: 13px;
              padding: 3px 0; }
.rounds .done { opacity: .5; } .rounds .now { background: rgba(0,114,178,.3); font-weight: 700; }
.legend span { display: inline-block; margin-right: 14px; font-size: 13px; }
.legend i { display: inline-block; width: 14px; height: 14px; border-radius: 7px; margin-right: 4px;
            vertical-align: middle; }
.legend i.ring { background: none; border: 3px solid; }
"""


def legal(state: GameState, action: str, param: str, **chosen):
    """What the engine allows now for one parameter of an action, given those chosen before it (None: not
    asked now)."""
    return ENGINE.actions.specs[action].param(param).legal(state, chosen)


def values(state: GameState, action: str, param: str, **chosen) -> list:
    """The values the engine offers now for the parameter (none when it is not asked)."""
    found = legal(state, action, param, **chosen)
    return list(found.values) if found else []


def labelled(state: GameState, action: str, param: str, **chosen) -> dict:
    """The offered values by the label the engine gives them."""
    found = legal(state, action, param, **chosen)
    return {c.label: c.value for c in found.options} if found else {}


def side_name(side: str) -> str:
    return SIDE_NAME.get(side, "nobody")


def esc(value) -> str:
    return html.escape(str(value))


def now(on: bool, name: str = "now") -> str:
    """A cell's class attribute when it is marked (this turn, this year, the die rolled)."""
    return f' class="{name}"' if on else ""


def css_name(key: str) -> str:
    """A name usable as a CSS class (box ids and form keys may hold any character)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", key)


# --- the setup: the players' map (boxes and lines), their units, leaders and MM ------------------------

BOX_COLUMNS = list(BOX_FIELDS)
LINE_COLUMNS = ["from", "to", "type"]
UNIT_COLUMNS = ["name", "side", "arm", "grade", "face", "box", "entrenched"]
LEADER_COLUMNS = ["name", "front", "back", "box"]
FLAGS = {"port", "fort", "entrenched"}


def plain(value):
    """A table cell as JSON-like data: numpy scalars as Python values, an empty cell as None, 3.0 as 3."""
    if hasattr(value, "item"):
        value = value.item()
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, float) and value == int(value):
        return int(value)
    return value


def frame(rows, columns) -> pd.DataFrame:
    return pd.DataFrame([{c: r.get(c) for c in columns} for r in rows], columns=columns)


def rows_of(table: pn.widgets.Tabulator) -> list[dict]:
    """The table's rows with empty cells left out (and unticked flags as no)."""
    rows = []
    for record in table.value.to_dict("records"):
        row = {k: plain(v) for k, v in record.items()}
        rows.append({k: (bool(v) if k in FLAGS else v) for k, v in row.items() if v is not None or k in FLAGS})
    return rows


def same_map(a, b) -> bool:
    """Do two map descriptions give the same boxes and lines (whatever their labels)?"""
    try:
        first, second = (map_from_data({k: v for k, v in m.items() if k != "label"}) for m in (a, b))
    except RuleError:
        return False
    return (first.boxes, first.lines, first.designated) == (second.boxes, second.lines, second.designated)


class SetupEditor(pn.viewable.Viewer):
    """The players' map (a table of boxes, a table of lines, or a JSON/YAML file opened or pasted), their
    units and leaders where they stand, and both sides' MM; or the labelled EXAMPLE."""

    def __init__(self, **params):
        super().__init__(**params)
        self._filling = False       # several tables are being filled at once: check once, at the end
        self._extra: dict = {}      # designated boxes and label of the map file loaded
        self._loaded: dict = {}     # that map as loaded, to tell whether it has been edited since
        self.boxes = self._table(BOX_COLUMNS, "map-boxes", {
            "alignment": {"type": "list", "values": list(ALIGNMENTS)}, "rp": {"type": "number", "min": 0},
            "port": {"type": "tickCross"}, "fort": {"type": "tickCross"}, "x": {"type": "number"},
            "y": {"type": "number"}}, {"rp": "RP", "x": "x (optional)", "y": "y (optional)"})
        self.lines = self._table(LINE_COLUMNS, "map-lines", {"type": {"type": "list", "values": list(LINE_TYPES)}})
        self.units = self._table(UNIT_COLUMNS, "setup-units", {
            "side": {"type": "list", "values": list(SIDES)}, "arm": {"type": "list", "values": list(ARMS)},
            "grade": {"type": "list", "values": list(GRADES)}, "face": {"type": "list", "values": list(FACES)},
            "entrenched": {"type": "tickCross"}})
        self.leaders = self._table(LEADER_COLUMNS, "setup-leaders", {
            "name": {"type": "list", "values": list(LEADERS)}, "front": {"type": "number", "min": 0},
            "back": {"type": "number", "min": 0}},
            {"front": "rating (front)", "back": "rating (back, optional)", "box": "box (empty: not yet entered)"})
        self.upload = pmui.FileInput(label="Open a map file (.json, .yaml)", accept=".json,.yaml,.yml",
                                     css_classes=["map-file"])
        self.upload.param.watch(lambda e: self.read_file(e.new, self.upload.filename) if e.new else None, "value")
        self.paste = pmui.TextAreaInput(label="Or paste a map file (JSON or YAML)", rows=5, sizing_mode="stretch_width",
                                        css_classes=["map-paste"])
        read = pmui.Button(label="Read the pasted map", variant="outlined", css_classes=["read-map"], **TOUCH)
        read.on_click(lambda _: self.read_text(self.paste.value_input or self.paste.value))
        example = pmui.Button(label="Load the EXAMPLE (invented map and units)", variant="outlined",
                              css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.load_example())
        self.mm = {side: pmui.IntInput(label=f"{SIDE_NAME[side]} MM (maximum mobilisation)", value=0, start=0,
                                       css_classes=[f"mm-{side}"], size="large") for side in SIDES}
        self.mm_track = pmui.IntInput(label="MM track size (optional)", value=None, start=1, size="large")
        self.year = pmui.Select(label="Year", options=list(YEARS), value=YEARS[0], size="large", width=140)
        self.turn = pmui.IntInput(label="Turn", value=1, start=1, end=TURNS, size="large", width=140)
        self.calendar = pmui.TextAreaInput(label="Calendar (optional): one turn label a line, ending with its year, "
                                                 "e.g. Jul 1861", rows=4, sizing_mode="stretch_width",
                                           css_classes=["setup-calendar"])
        self.places = {key: pmui.MultiChoice(label=label, options=[], sizing_mode="stretch_width",
                                             css_classes=[f"setup-{key}"])
                       for key, label in (("southern_cities", "The 7 largest Southern cities (HD-6.2)"),
                                          ("landed_ports", "Ports the Union took by landing (HD-5.4)"),
                                          ("contained", "Of those, the contained ones (HD-5.4)"))}
        self.map_note = pmui.Alert(severity="info", sizing_mode="stretch_width", css_classes=["map-note"])
        self.note = pmui.Alert(severity="info", sizing_mode="stretch_width", css_classes=["setup-note"])
        for widget in (self.boxes, self.lines, self.units, self.leaders):
            widget.param.watch(lambda _: self._changed(), "value")
        for widget in (*self.mm.values(), self.mm_track, self.year, self.turn, self.calendar, *self.places.values()):
            widget.param.watch(lambda _: self._changed(), "value")

        def tools(table, blank, what):
            return pmui.Row(self._add(table, blank, what), self._remove(table))

        def section(title, *parts):
            # one after another, not in tabs: a table updated while hidden breaks in the browser
            return pmui.Typography(title, variant="subtitle1"), *parts
        self._layout = pmui.Column(
            pmui.Typography("Your map, units and MM (the source has none of them)", variant="h6"),
            example,
            *section("Map: boxes", self.boxes, tools(self.boxes, {"alignment": "neutral", "rp": 0, "port": False,
                                                                 "fort": False}, "box")),
            *section("Map: lines", self.lines, tools(self.lines, {"type": "rail"}, "line")),
            *section("Map file", self.upload, self.paste, read),
            *section("Units", self.units, tools(self.units, {"side": USA, "arm": "inf", "grade": "militia",
                                                             "face": "full", "entrenched": False}, "unit")),
            *section("Leaders, MM, year", self.leaders, tools(self.leaders, {"name": "Lee"}, "leader"),
                     pn.FlexBox(*self.mm.values(), self.mm_track, self.year, self.turn)),
            *section("Calendar, cities, ports", self.calendar, *self.places.values()),
            self.map_note, self.note, sizing_mode="stretch_width")
        self._check()

    @staticmethod
    def _table(columns, css, editors, titles=None) -> pn.widgets.Tabulator:
        return pn.widgets.Tabulator(frame([], columns), show_index=False, selectable="checkbox", editors=editors,
                                    formatters={k: {"type": "tickCross"} for k in columns if k in FLAGS},
                                    titles=titles or {}, sizing_mode="stretch_width", height=250, css_classes=[css])

    @staticmethod
    def _add(table, blank, what) -> pmui.Button:
        button = pmui.Button(label=f"Add a {what}", variant="outlined", css_classes=[f"add-{what}"], **TOUCH)
        button.on_click(lambda _: setattr(table, "value", frame(rows_of(table) + [dict(blank)],
                                                                list(table.value.columns))))
        return button

    @staticmethod
    def _remove(table) -> pmui.Button:
        button = pmui.Button(label="Remove ticked", variant="outlined", **TOUCH)
        button.on_click(lambda _: setattr(table, "value", frame(
            [r for i, r in enumerate(rows_of(table)) if i not in table.selection], list(table.value.columns))))
        return button

    # --- loading ------------------------------------------------------------------------------------
    def _changed(self) -> None:
        if not self._filling:
            self._check()

    def _fill(self, tables: dict) -> None:
        """Set several widgets' values, then check once: the notes get only their final text (a note set to a
        half-filled map's text and then to the next one within one callback may keep the first on the page)."""
        self._filling = True
        try:
            for widget, value in tables.items():
                widget.value = value
        finally:
            self._filling = False
        self._check()

    def set_map(self, data: dict, more: dict | None = None) -> None:
        """Fill the tables from a map description (already checked), and other widgets with `more` values."""
        self._extra = {k: data[k] for k in ("designated", "label") if data.get(k)}
        self._loaded = {"boxes": data["boxes"], "lines": data.get("lines", [])}
        self._fill({self.boxes: frame(data["boxes"], BOX_COLUMNS),
                    self.lines: frame(data.get("lines", []), LINE_COLUMNS), **(more or {})})

    def read_text(self, text: str, fmt: str | None = None) -> None:
        """A map file's text: JSON if it looks like JSON, else YAML; refused with the reason, tables unchanged."""
        fmt = fmt or ("json" if text.lstrip().startswith(("{", "[")) else "yaml")
        try:
            game_map = parse_map_text(text, fmt)
        except RuleError as exc:
            self.map_note.severity, self.map_note.object = "error", plain_text(f"The map file is refused: {exc}")
            return
        self.set_map(game_map.to_data())

    def read_file(self, raw: bytes, filename: str | None) -> None:
        suffix = (filename or "").rsplit(".", 1)[-1].lower()
        self.read_text(raw.decode("utf-8", "replace"), {"json": "json", "yaml": "yaml", "yml": "yaml"}.get(suffix))

    def load_example(self) -> None:
        data = example_setup()
        self.set_map(data["map"], {self.units: frame(data["units"], UNIT_COLUMNS),
                                   self.leaders: frame(data["leaders"], LEADER_COLUMNS),
                                   **{self.mm[side]: data["mm"][side] for side in SIDES}, self.year: data["year"]})

    # --- reading ------------------------------------------------------------------------------------
    def map_data(self) -> dict:
        data = {"boxes": rows_of(self.boxes), "lines": rows_of(self.lines)}
        if self._extra.get("designated"):
            data["designated"] = self._extra["designated"]
        if self._extra.get("label") and same_map(data, self._loaded):
            data["label"] = self._extra["label"]
        return data

    def is_example(self) -> bool:
        return same_map(self.map_data(), example_setup()["map"])

    def setup(self) -> dict:
        setup = {"map": self.map_data(), "units": rows_of(self.units), "leaders": rows_of(self.leaders),
                 "mm": {side: self.mm[side].value for side in SIDES}, "year": self.year.value,
                 "turn": self.turn.value}
        if self.mm_track.value:
            setup["mm_track"] = self.mm_track.value
        calendar = [line.strip() for line in (self.calendar.value or "").splitlines() if line.strip()]
        if calendar:
            setup["calendar"] = calendar
        setup.update({key: list(w.value) for key, w in self.places.items() if w.value})
        if self.is_example():  # the example's control and its contained landing belong to its map
            example = example_setup()
            setup["map"]["label"] = LABEL
            setup.update({k: example[k] for k in ("label", "control", "landed_ports", "contained")})
        return setup

    def _check(self) -> None:
        ids = [r.get("id") for r in rows_of(self.boxes) if r.get("id")]
        self.lines.editors = {**self.lines.editors, "from": {"type": "list", "values": ids},
                              "to": {"type": "list", "values": ids}}
        self.units.editors = {**self.units.editors, "box": {"type": "list", "values": ids}}
        self.leaders.editors = {**self.leaders.editors, "box": {"type": "list", "values": [""] + ids}}
        for widget in self.places.values():
            widget.options = ids
            kept = [b for b in widget.value if b in ids]
            if kept != list(widget.value):
                widget.value = kept
        if not len(self.boxes.value):
            self.map_note.severity = "info"
            self.map_note.object = "Enter your map's boxes and lines, open or paste your map file, or load the EXAMPLE."
            self.note.visible = False
            return
        try:
            game_map = map_from_data(self.map_data())
        except RuleError as exc:
            self.map_note.severity, self.map_note.object = "error", plain_text(f"The map is not valid yet: {exc}")
            self.note.visible = False
            return
        label = [LABEL + "."] if self.is_example() else ([game_map.label + "."] if game_map.label else [])
        lines = label + [f"{len(game_map.boxes)} boxes, {len(game_map.lines)} lines: the map is valid."]
        warnings = map_warnings(game_map)
        self.map_note.severity = "warning" if label or warnings else "success"
        self.map_note.object = plain_text(" ".join(lines + [w + "." for w in warnings]))
        self.note.visible = True
        try:
            ENGINE.start(None, self.setup())
        except RuleError as exc:
            self.note.severity, self.note.object = "error", plain_text(f"Not ready: {exc}")
            return
        self.note.severity, self.note.object = "success", "Ready: choose the options and start the game."

    def __panel__(self):
        return self._layout


# --- what the page shows, from the engine's views ---------------------------------------------------------

def label_html(state: GameState) -> str:
    labels = dict.fromkeys(x for x in (state.label, state.game_map.label) if x)
    return "".join(f'<div class="example">{esc(x)}</div>' for x in labels)


def command_row_html(state: GameState) -> str:
    """This year's Command Table column for the phasing side (HD-4.1): the march roll's table."""
    row = command_row(state)
    head = "".join(f"<th>{d}</th>" for d in row)
    cells = "".join(f"<td>{m}</td>" for m in row.values())
    return (f'<table class="row" title="Command Table (HD-4.1)"><tr><th>d6</th>{head}</tr>'
            f'<tr><th>{SIDE_NAME[state.side]} marches, {state.year}</th>{cells}</tr></table>')


def track_html(state: GameState) -> str:
    """The turn and year track, both sides' maximum mobilisation, the march roll and the game's flags."""
    turns = "".join(f"<div{now(t == state.turn) or now(t < state.turn, 'past')}"
                    + (f' title="{esc(state.calendar[t - 1])}"' if t <= len(state.calendar) else "") + f">{t}</div>"
                    for t in range(1, TURNS + 1))
    years = "".join(f"<div{now(y == state.year)}>{y}</div>" for y in YEARS)
    scale = state.mm_track or max(state.mm_usa, state.mm_csa, 1)
    bars = "".join(
        f'<span>{SIDE_NAME[s]} MM <b>{state.mm(s)}</b></span>'
        f'<div><div class="bar {s.lower()}" style="width:{100 * state.mm(s) / scale:.1f}%"></div></div>' for s in SIDES)
    gap = abs(state.mm_usa - state.mm_csa)
    track = f" of a {state.mm_track} track" if state.mm_track else ""
    return (f'{label_html(state)}<div class="turns" title="turn track">{turns}</div>'
            f'<div class="years" title="year">{years}</div>'
            f'<div class="mm" title="maximum mobilisation{track}">{bars}<span>gap</span><span>{gap}{track}</span></div>'
            f'<div class="flags">{"".join(f"<span>{esc(f)}</span>" for f in flags(state))}</div>')


STEP_WORDS = {fight.COMMAND: "battle command", fight.FIRE: "fire", fight.HITS: "hits to place",
              fight.MORALE: "morale checks", fight.BETWEEN: "end of the round", fight.DESERTION: "desertion"}


def battle_html(state: GameState) -> str:
    """The battle board: round and day, each side's command, carry, fire limit, leaders and units."""
    board = battle_board(state)
    if board is None:
        return ""
    first = (board.day - 1) * ROUNDS_PER_DAY + 1
    rounds = "".join(f"<div{now(r == board.round) or now(r < board.round, 'done')}>round {r}</div>"
                     for r in range(first, first + ROUNDS_PER_DAY))
    head = (f"<b>Battle at {esc(board.box)}</b>: {SIDE_NAME[board.attacker]} attacking"
            + (", a contained port: the attacker has left its entrenchment (HD-5.4)" if board.contained else ""))
    if board.over:
        doing = f"Decided: {SIDE_NAME[board.winner] + ' victory' if board.winner else 'neither side stands'}"
    else:
        doing = f"Now: {STEP_WORDS[board.step]}" + (f", {SIDE_NAME[board.step_side]}" if board.step_side else "")

    def rows(label, fn):
        return f"<tr><th>{label}</th>" + "".join(f"<td>{fn(s)}</td>" for s in board.sides) + "</tr>"

    def names(units):
        return esc(", ".join(units)) or "-"

    def outlook(s):
        if state.battle.command_day == 0 or not state.options["battle_command"]:
            return "-"
        d = next_command_odds(state, s.side).map(fire_limit)
        return f"expected {float(mean(d)):.2f}; P({FIRE_CAP}) {odds_text(fractions(d).get(FIRE_CAP, 0))}"

    table = "".join([
        "<tr><th></th>" + "".join(f"<th>{SIDE_NAME[s.side]}</th>" for s in board.sides) + "</tr>",
        rows("command C today (HD-4.2)", lambda s: "-" if s.command is None else s.command),
        rows("fire limit min(C, 8) (HD-5.6)", lambda s: s.fire_limit),
        rows("carry to tomorrow ⌈X/2⌉", lambda s: f"+{s.carry_next}"),
        rows("tomorrow's fire limit", outlook),
        rows("leaders (HD-4.3: points to split each round)",
             lambda s: f"{esc(', '.join(s.leaders))}: {s.leader_rating}" if s.leaders else "-"),
        rows("able to fire", lambda s: names(s.active)),
        rows("routed (HD-4.4)", lambda s: names(s.routed)),
        rows("reduced", lambda s: names(s.reduced)),
        rows("eliminated", lambda s: names(s.eliminated)),
        rows("coastal garrison hits (HD-4.11)",
             lambda s: "-" if s.garrison_hits is None else f"{s.garrison_hits} of 2"),
        rows("hits to place", lambda s: s.hits_due),
    ])
    return (f"<p>{head}</p><p><b>Day {board.day}</b>, round {board.round}. {esc(doing)}.</p>"
            f'<div class="rounds">{rounds}</div><table class="info">{table}</table>')


def supply_html(state: GameState) -> str:
    """The phasing side's stacks with their supply line or why there is none, and the boxes that lose a unit."""
    if not state.options["supply"]:
        return "<p>The supply rule (S1) is off in this game.</p>"
    report = supply_report(state)
    name = SIDE_NAME[report.side]
    if state.supply_checked:
        head = (f"<b>Checked this {name} turn.</b> Must still lose one unit in: "
                f"<b>{esc(', '.join(state.supply_due)) or 'none'}</b> (HD-5.1).")
    else:
        losses = ", ".join(report.losses) or "none"
        head = (f"<b>{name} supply, not yet checked this turn</b>; as things stand, one unit lost in: "
                f"<b>{esc(losses)}</b>.")
    rows = []
    for stack in report.stacks:
        cls = "out" if stack.status == OUT_OF_SUPPLY else "ok" if stack.status == IN_SUPPLY else ""
        rows.append(f'<tr><td>{esc(stack.box)}</td><td>{stack.units}</td><td class="{cls}">{esc(stack.status)}</td>'
                    f"<td>{esc(stack.reason)}</td></tr>")
    body = "".join(rows) or f'<tr><td colspan="4">No {name} unit on the map.</td></tr>'
    return (f"<p>{head}</p><table class=\"info\"><tr><th>box</th><th>units</th><th>status</th>"
            f"<th>supply line, or why there is none</th></tr>{body}</table>")


def box_html(state: GameState, box_id: str) -> str:
    """One box as the players described it, and what is on it now."""
    return esc(box_text(state, box_id)).replace("\n", "<br>")


def map_figure(state: GameState, selected: str | None = None) -> hv.Overlay:
    """The map as a graph: boxes coloured by control, lines by type, a ring for each stack's supply status
    (the phasing side, HD-5.1) and a square round the box selected."""
    views = map_view(state)
    nodes = hv.Nodes([(v.x, v.y, v.id, v.name, side_name(v.controller),
                       v.supply or "-", f"Union {v.units[USA]}, CSA {v.units[CSA]}") for v in views],
                     vdims=["name", "control", "supply", "units"])
    edges = pd.DataFrame([(line.a, line.b, line.type) for line in state.game_map.lines],
                         columns=["start", "end", "type"])
    graph = hv.Graph((edges, nodes), vdims=["type"]).opts(
        node_color="control", cmap=CONTROL_COLOURS, node_size=30, edge_color="type", edge_cmap=LINE_COLOURS,
        edge_line_width=4, node_line_color="white", tools=["hover"], inspection_policy="nodes", show_legend=False)
    ys = [v.y for v in views]
    drop = 0.09 * ((max(ys) - min(ys)) or 1)
    rings = hv.Points([(v.x, v.y, v.supply) for v in views if v.supply in SUPPLY_COLOURS], vdims=["supply"]).opts(
        color="supply", cmap=SUPPLY_COLOURS, size=46, fill_alpha=0, line_width=5, marker="circle", show_legend=False)
    chosen = hv.Points([(v.x, v.y) for v in views if v.id == selected]).opts(
        color="black", size=58, fill_alpha=0, line_width=2, line_dash="dashed", marker="square")
    labels = hv.Labels([(v.x, v.y - drop, f"{v.id}\nU{v.units[USA]} C{v.units[CSA]}") for v in views]).opts(
        text_color="black", text_font_size="10pt", text_baseline="top")
    name = "EXAMPLE map" if state.game_map.label == LABEL else state.game_map.label
    title = (f"{name}: c" if name else "C") + f"ontrol and {SIDE_NAME[state.side]} supply"
    return (graph * rings * chosen * labels).opts(
        title=title, responsive=True, min_height=400, xaxis=None, yaxis=None, toolbar=None, padding=0.15,
        bgcolor="#f7f5ee", fontscale=1.1, show_legend=False)


LEGEND = ('<div class="legend">' + "".join(
    f'<span><i style="background:{c}"></i>{esc(n)}</span>' for n, c in CONTROL_COLOURS.items()) + "".join(
    f'<span><i class="ring" style="border-color:{c}"></i>{esc(n)}</span>' for n, c in SUPPLY_COLOURS.items())
    + "".join(f'<span style="color:{c}">━ {t}</span>' for t, c in LINE_COLOURS.items()) + "</div>")


class MapPanel(pn.viewable.Viewer):
    """The map graph and the per-box buttons: a tap on a box shows it, or gives it to the side chosen
    (set_control, undoable); below, the supply check of the phasing side."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.selected: str | None = None
        self._key = None
        self._tapped_figures: set[str] = set()
        self.redraw = hv.streams.Stream.define("MapState", key=0)()
        self.dmap = hv.DynamicMap(lambda key: map_figure(self.live.state, self.selected).opts(hooks=[self._on_tap]),
                                  streams=[self.redraw])
        self.figure = pn.pane.HoloViews(self.dmap, sizing_mode="stretch_width", min_height=380, linked_axes=False,
                                        css_classes=["map-figure"])
        self.brush = pmui.RadioButtonGroup(
            label="A tap on a box (on the map or its button)",
            options={"Shows it": "look", "Gives it to the Union": USA, "Gives it to the CSA": CSA,
                     "Makes it nobody's": NOBODY},
            value="look", size="large", css_classes=["control-brush"])
        self.buttons: dict[str, pmui.Button] = {}
        for box in live.state.game_map.boxes:
            button = pmui.Button(label=box.id, variant="contained",
                                 css_classes=["box-button", f"box-{css_name(box.id)}"], **TOUCH)
            button.on_click(lambda _, b=box.id: self.box_tapped(b))
            self.buttons[box.id] = button
        self.details = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["box-details"])
        self.supply = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["supply-report"])
        self.label = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS])
        self.render()

    def _on_tap(self, plot, element) -> None:
        """Listen to taps on the drawn figure, once per figure (HoloViews' Tap stream stays silent on an
        overlay here, so the Bokeh event is used directly)."""
        figure = plot.state
        if figure.id not in self._tapped_figures:
            self._tapped_figures.add(figure.id)
            figure.on_event("tap", lambda event: self.tap_at(event.x, event.y))

    def tap_at(self, x, y) -> None:
        """A tap on the graph: the nearest box, if the tap was close to one."""
        if x is None or y is None:
            return
        where = self.live.state.game_map.positions
        xs, ys = [p[0] for p in where.values()], [p[1] for p in where.values()]
        reach = 0.12 * max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
        box, gap = min(((b, math.dist(p, (x, y))) for b, p in where.items()), key=lambda t: t[1])
        if gap <= reach:
            self.box_tapped(box)

    def box_tapped(self, box: str) -> None:
        self.selected = box
        if self.brush.value == "look":
            self.render()
            return
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
            look = dict(label=f"{v.id} · {side_name(v.controller)}", color=BUTTON_COLOURS[v.controller],
                        variant="contained" if v.controller else "outlined")
            button = self.buttons[v.id]
            if any(getattr(button, k) != x for k, x in look.items()):
                button.param.update(**look)
        self.details.object = box_html(state, self.selected) if self.selected else \
            "Tap a box to see it; choose a side above to set control by tapping."
        self.supply.object = supply_html(state)
        self.label.object = label_html(state)

    def __panel__(self):
        return pmui.Column(self.label, self.brush, self.figure, pn.pane.HTML(LEGEND, stylesheets=[CSS]),
                           pn.FlexBox(*self.buttons.values(), css_classes=["box-buttons"]), self.details,
                           pmui.Typography("Supply (HD-5.1)", variant="h6"), self.supply, sizing_mode="stretch_width")


def border_html(state: GameState) -> str:
    """Each border state (HD-4.8): whether it may roll, and if not why; its modifiers and chance now."""
    if not state.options["border_states"]:
        return "<p>The border-state rule (S9) is off in this game.</p>"
    rows = "".join(f"<tr><td>{v.name}</td><td>{v.status}</td>" + (
        f'<td class="out">no: {esc(v.refusal)}</td><td></td><td></td></tr>' if v.refusal else
        f'<td class="ok">yes, at the start of a CSA turn</td><td>{esc(v.modifiers)}; more than {v.needed} needed'
        f"</td><td>{odds_text(v.chance)}</td></tr>") for v in border_views(state, BORDER_TURNS))
    return ("<table class=\"info\"><tr><th>state</th><th>status</th><th>may roll (all its cities CSA-held)</th>"
            f"<th>modifiers</th><th>P(support) on a roll</th></tr>{rows}</table>")


def border_curves(state: GameState):
    """P(joined within n CSA turns) for each state that may roll, this turn's modifiers held (HD-4.8)."""
    return {v.name: [(n + 1, p) for n, p in enumerate(v.within)] for v in border_views(state, BORDER_TURNS)
            if not v.refusal}


def fi_html(state: GameState) -> str:
    """The FI checker (HD-5.9): each condition with its reason, the trigger, the FI units."""
    if not state.options["intervention"]:
        return "<p>The foreign intervention rule (S10) is off in this game.</p>"
    status = fi_status(state)
    rows = "".join(f'<tr><td>{c.number}</td><td>{esc(c.title)}</td><td class="{"ok" if c.met else "out"}">'
                   f'{"met" if c.met else "not met"}</td><td>{esc(c.reason)}</td></tr>' for c in status.conditions)
    units = [u for u in state.units if u.foreign]
    where = "; ".join(f"{u.name} ({u.grade} {u.arm}): {'eliminated' if u.status == ELIMINATED else u.box}"
                      for u in units) or "none yet"
    return (f"<p><b>{'All three conditions are met now' if status.met_now else 'Not all conditions are met now'}"
            f"</b>. {esc(status.trigger)}.</p><table class=\"info\"><tr><th>#</th><th>condition</th><th></th>"
            f"<th>why</th></tr>{rows}</table><p>FI units: {esc(where)}.</p>")


def command_table_html(state: GameState) -> str:
    """The whole Command Table (HD-4.1), Union/CSA marches, this year's column marked."""
    head = "".join(f"<th{now(y == state.year)}>{y}</th>" for y in YEARS)
    body = "".join(
        f"<tr><th>{d}</th>" + "".join(
            f"<td{now(y == state.year)}>{COMMAND_TABLE[(y, USA)].results[d]}/{COMMAND_TABLE[(y, CSA)].results[d]}</td>"
            for y in YEARS) + "</tr>" for d in range(1, 7))
    return f'<table class="row" title="Union/CSA marches"><tr><th>d6</th>{head}</tr>{body}</table>'


def unit_odds_html(year: int) -> str:
    """P(rout) and P(desertion) of one unit by grade in this year (HD-4.4, HD-4.6, leaders 0)."""
    rows = []
    for grade in GRADES:
        cells = [MoraleCheck("", grade, year).chance, MoraleCheck("", grade, year, True).chance,
                 *(DesertionCheck("", grade, year, lost, routed).chance
                   for lost, routed in ((True, True), (True, False), (False, False)))]
        rows.append(f"<tr><td>{grade} (morale {morale_value(grade, year)})</td>"
                    + "".join(f"<td>{odds_text(p)}</td>" for p in cells) + "</tr>")
    return ("<table class=\"info\"><tr><th>grade</th><th>rout</th><th>rout, fort or entrenched</th>"
            "<th>desert: lost, routed</th><th>desert: lost, not routed</th><th>desert: won, not routed</th></tr>"
            + "".join(rows) + "</table>")


# --- the panels beside the guide ------------------------------------------------------------------------

class BasicRulesForm(pn.viewable.Viewer):
    """HD-4.10: the basic game's fire numbers from the players' own rulebook; until complete, basic fire is
    unconfigured and the players enter the hits they scored."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.widgets = {}
        for f in FORM:
            css = [f"basic-{css_name(f.key)}"]
            if f.kind == "strength":
                arm, grade, face = f.key.split("/")
                self.widgets[f.key] = pmui.Select(label=f"{arm} {grade} {face}", value="", width=180,
                                                  options=[""] + [str(n) for n in range(MAX_STRENGTH + 1)],
                                                  css_classes=css)
            elif f.kind == "choice":
                blank = {} if f.suggested else {"(not entered)": ""}
                self.widgets[f.key] = pmui.Select(label=f.label, options={**blank, **{t: v for v, t in f.choices}},
                                                  value=f.suggested or "", sizing_mode="stretch_width", css_classes=css)
            else:
                self.widgets[f.key] = pmui.IntInput(label=f.label, start=0, end=MAX_STRENGTH, value=f.suggested,
                                                    css_classes=css, size="large")
        self.status = pmui.Alert(sizing_mode="stretch_width", css_classes=["basic-status"])
        self.panel = ActionPanel(live, "Save the basic rules",
                                 lambda: {"type": "configure_basic_rules", "settings": self.settings()})
        for w in self.widgets.values():
            w.param.watch(lambda _: self.panel.refresh(), "value")
        self._shown = None
        self.render()

    def settings(self) -> dict:
        strength = {k: int(w.value) for k, w in self.widgets.items() if k.count("/") == 2 and w.value != ""}
        return {"strength": strength, **{k: w.value for k, w in self.widgets.items() if "/" not in k}}

    def render(self) -> None:
        basic = self.live.state.basic
        if basic != self._shown:  # the session's entries (after a save, an undo, another device)
            self._shown = basic
            for key, w in self.widgets.items():
                w.value = (str(basic.strength[key]) if key in basic.strength else "") if key.count("/") == 2 \
                    else getattr(basic, key)
        try:
            require_filled(basic)
        except RuleError as exc:
            self.status.severity, self.status.object = "warning", plain_text(exc)
        else:
            self.status.severity, self.status.object = "success", "Basic fire is configured: the companion rolls fire."
        self.panel.refresh()

    def __panel__(self):
        strength = [w for k, w in self.widgets.items() if k.count("/") == 2]
        return pmui.Column(
            pmui.Typography("Basic rules (HD-4.10): from your own basic rulebook", variant="h6"),
            pmui.Typography("A unit hits on a d6 at or under its combat strength; enter each strength, the firing "
                            "order and what entrenchment does. Nothing is assumed.", variant="body2"),
            self.status, pn.FlexBox(*strength), *[w for k, w in self.widgets.items() if "/" not in k], self.panel,
            sizing_mode="stretch_width", css_classes=["basic-rules"])


class OtherActions(pn.viewable.Viewer):
    """Actions at any time of the turn that the guide does not ask for: MM changes (HD-6.3), leaders (HD-5.7),
    entrenching (HD-5.5), containment (HD-5.4), reinforcing a battle."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.choice = pmui.RadioButtonGroup(label="Action", size="large", css_classes=["other-action"], options={
            "Change MM": "adjust_mm", "Place a leader": "place_leader", "Turn a leader": "flip_leader",
            "Move a leader alone": "move_leader", "Entrench": "entrench", "Contain a landing": "declare_containment",
            "Reinforce the battle": "reinforce"}, value="adjust_mm")

        def sel(label, css):
            return pmui.Select(label=label, size="large", sizing_mode="stretch_width", css_classes=[css])
        self.w = {
            "mm_side": pmui.RadioButtonGroup(label="Side", options={SIDE_NAME[s]: s for s in SIDES}, value=USA,
                                             size="large", css_classes=["mm-side"]),
            "mm_change": pmui.IntInput(label="MM change (+/-)", value=0, size="large", css_classes=["mm-change"]),
            "mm_reason": pmui.TextInput(label="Why (basic rules: recruitment, cities ...)",
                                        sizing_mode="stretch_width"),
            "leader": sel("Leader", "other-leader"), "box": sel("Box", "other-box"),
            "side": pmui.RadioButtonGroup(label="Side", options={SIDE_NAME[s]: s for s in SIDES}, value=USA,
                                          size="large"),
            "units": picker("Units that join", "reinforce-units"), "leaders": picker("Leaders that join",
                                                                                    "reinforce-leaders"),
        }
        self.forms = {"adjust_mm": ["mm_side", "mm_change", "mm_reason"], "place_leader": ["leader", "box"],
                      "flip_leader": ["leader"], "move_leader": ["leader", "box"], "entrench": ["box"],
                      "declare_containment": ["box"], "reinforce": ["side", "units", "leaders"]}
        self.panel = ActionPanel(live, "Do it", self.build)
        for w in [self.choice, *self.w.values()]:
            w.param.watch(lambda _: self._refresh(), "value")
        for key in ("side", "mm_side"):
            self.w[key].param.watch(lambda _: self.render(), "value")
        self.choice.param.watch(lambda _: self.render(), "value")
        self.w["leader"].param.watch(lambda _: self._destinations(), "value")
        self.w["units"].param.watch(lambda _: self.render(), "value")
        self.render()

    def build(self) -> dict:
        w, kind = self.w, self.choice.value
        if kind == "adjust_mm":
            return {"type": kind, "side": w["mm_side"].value, "change": w["mm_change"].value or 0,
                    "reason": w["mm_reason"].value}
        if kind == "reinforce":
            return {"type": kind, "side": w["side"].value, "units": list(w["units"].value),
                    "leaders": list(w["leaders"].value)}
        fields = {"leader": "leader", "box": "to" if kind == "move_leader" else "box"}
        return {"type": kind, **{fields[k]: w[k].value for k in self.forms[kind]}}

    def render(self) -> None:
        s = self.live.state
        w, kind = self.w, self.choice.value
        if kind in ("place_leader", "flip_leader", "move_leader"):
            self._keep(w["leader"], values(s, kind, "leader"))
        self._destinations()
        if kind == "adjust_mm":
            self._keep(w["mm_side"], labelled(s, kind, "side"))
            change = legal(s, kind, "change", side=w["mm_side"].value)
            w["mm_change"].param.update(start=change.low, end=change.high)
        if kind == "reinforce" and s.battle:
            self._keep(w["side"], labelled(s, kind, "side"))
            side = w["side"].value
            w["units"].options = values(s, kind, "units", side=side) if side else []
            w["leaders"].options = values(s, kind, "leaders", side=side, units=list(w["units"].value)) \
                if side else []
        self._refresh()

    @staticmethod
    def _keep(widget, options) -> None:
        shown = list(options.values()) if isinstance(options, dict) else options
        widget.param.update(options=options, value=widget.value if widget.value in shown else
                            (shown[0] if shown else None))

    def _destinations(self) -> None:
        """The boxes the engine allows for the action (a leader moving alone: given the leader)."""
        s, kind = self.live.state, self.choice.value
        chief = self.w["leader"].value
        if kind == "move_leader":
            boxes = values(s, kind, "to", leader=chief) if chief else []
        else:
            boxes = values(s, kind, "box") if kind in ("place_leader", "entrench", "declare_containment") else []
        self._keep(self.w["box"], boxes)

    def _refresh(self) -> None:
        shown = set(self.forms[self.choice.value])
        for key, widget in self.w.items():
            widget.visible = key in shown
        self.panel.label = next(k for k, v in self.choice.options.items() if v == self.choice.value)
        self.panel.refresh()

    def __panel__(self):
        return pmui.Column(pmui.Typography("Other actions", variant="h6"), self.choice, *self.w.values(), self.panel,
                           sizing_mode="stretch_width", css_classes=["other-actions"])


class OutlookPanel(pn.viewable.Viewer):
    """The fire limit a side can expect day by day (HD-4.2, HD-5.6), exact, for a year, side and L."""

    def __init__(self, year: int, **params):
        super().__init__(**params)
        self.year = pmui.Select(label="Year", options=list(YEARS), value=year, size="large", width=120)
        self.side = pmui.RadioButtonGroup(label="Side", options={SIDE_NAME[s]: s for s in SIDES}, value=USA,
                                          size="large")
        self.leaders = pmui.IntSlider(label="Leaders' rating L", start=0, end=6, value=0)
        self.pane = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=300, linked_axes=False)
        for w in (self.year, self.side, self.leaders):
            w.param.watch(lambda _: self.draw(), "value")
        self.draw()

    def draw(self) -> None:
        days = fire_limit_by_day(self.year.value, self.side.value, self.leaders.value, OUTLOOK_DAYS)
        series = {f"day {n + 1}": [(k, p_at_least(d, k)) for k in range(1, FIRE_CAP + 1)] for n, d in enumerate(days)}
        self.pane.object = plots.curves(series, f"P(fire limit ≥ k), {SIDE_NAME[self.side.value]} {self.year.value}",
                                        "k units", "probability")

    def __panel__(self):
        return pmui.Column(pmui.Typography("Fire limit by battle day (HD-4.2, HD-5.6)", variant="h6"),
                           pn.FlexBox(self.year, self.side, self.leaders), self.pane, sizing_mode="stretch_width")


# --- the game view -------------------------------------------------------------------------------------------

class HouseDividedView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live

        def html_pane(css):
            return pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=[css])
        self.track = html_pane("turn-track")
        self.phase = pmui.Typography(variant="h6", css_classes=["phase-title"])
        self.board = html_pane("battle-board")
        self.odds = OddsPanel()
        self.log = EventLog(live)
        self.map = MapPanel(live)
        self.border = html_pane("border-panel")
        self.border_plot = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=280, linked_axes=False)
        self.border_box = pmui.Column(self.border_plot, sizing_mode="stretch_width")
        self.fi = html_pane("fi-panel")
        self.washington = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=260, linked_axes=False)
        self.tables = html_pane("command-table")
        self.unit_odds = html_pane("unit-odds")
        self.basic = BasicRulesForm(live)
        self.more = OtherActions(live)
        self._keys: dict[str, object] = {}
        live.param.watch(lambda _: self.render(), "version")
        self.guide = PhaseGuide(live, due_now, self._form, self.odds.clear, phase_title)
        heat = plots.heatmap([(str(y), SIDE_NAME[s], e) for (y, s), e in expected_marches().items()],
                             "Expected marches by year (HD-4.1)", "year", "side", "expected marches")
        pages = {
            "Play": [self.phase, self.board, self.guide],
            "Map": [self.map],
            "Border & Europe": [
                pmui.Typography("Border-state support (HD-4.8)", variant="h6"), self.border, self.border_box,
                pmui.Typography("Foreign intervention (HD-5.9)", variant="h6"), self.fi,
                pmui.Typography("If Washington falls now (HD-4.7)", variant="h6"), self.washington],
            "Basic game & MM": [self.basic, self.more],
            "Odds & tables": [
                pmui.Typography("Command Table (HD-4.1): Union/CSA marches", variant="h6"), self.tables,
                pn.pane.HoloViews(heat, sizing_mode="stretch_width", min_height=260, linked_axes=False),
                OutlookPanel(live.state.year),
                pmui.Typography("One unit's rout and desertion, no leader (HD-4.4, HD-4.6)", variant="h6"),
                self.unit_odds],
        }
        self.tabs = lazy_tabs(pages, live=live)
        self.render()

    # --- rendering -----------------------------------------------------------------------------------
    def _changed(self, name: str, key) -> bool:
        if self._keys.get(name) == key:
            return False
        self._keys[name] = key
        return True

    def render(self) -> None:
        s = self.live.state
        self.track.object = track_html(s)
        self.phase.object = plain_text(phase_title(s))
        self.board.object = battle_html(s)
        self.board.visible = s.battle is not None
        self.map.render()
        self.basic.render()
        self.more.render()
        self.border.object = border_html(s)
        self.fi.object = fi_html(s)
        self.tables.object = command_table_html(s)
        self.unit_odds.object = unit_odds_html(s.year)
        curves = border_curves(s) if s.options["border_states"] else {}
        if self._changed("border", curves):
            self.border_plot.object = plots.curves(curves, "P(joined) within n CSA turns (this turn's modifiers)",
                                                   "CSA turns", "probability") if curves else None
            self.border_box.visible = bool(curves)
        if self._changed("washington", (s.mm_usa, s.options["washington_loss"])):
            self.washington.object = plots.hits_bars(washington_mm_odds(s), "Union MM after the loss", "Union MM")

    def _side_board(self, side: str):
        board = battle_board(self.live.state)
        return next(b for b in board.sides if b.side == side)

    # --- the guide's forms -------------------------------------------------------------------------------
    def _form(self, action: str) -> StepForm:
        builders = {
            "check_supply": self._supply_form, "supply_loss": self._supply_loss_form,
            "border_state_roll": self._border_form, "roll_marches": self._marches_form,
            "set_marches": self._set_marches_form, "breakout": self._breakout_form, "march": self._march_form,
            "start_battle": self._start_battle_form, "battle_command": self._command_form,
            "fire": lambda: self._fire_form("fire"), "record_fire": lambda: self._fire_form("record_fire"),
            "take_hits": self._hits_form, "morale_checks": self._morale_form, "retreat": self._retreat_form,
            "rally": self._rally_form, "desertion_checks": self._desertion_form, "promote": self._promote_form,
            "add_unit": self._add_unit_form, "end_player_turn": self._end_turn_form,
            "washington_loss": self._washington_form, "fi_return_rolls": self._fi_return_form,
        }
        return builders[action]() if action in builders else StepForm(action)

    @staticmethod
    def _select(label: str, css: str) -> pmui.Select:
        return pmui.Select(label=label, css_classes=[css], size="large", sizing_mode="stretch_width")

    @staticmethod
    def _choose(widget, options, value=None) -> None:
        """New options and a value among them, set once."""
        options = list(options) if not isinstance(options, dict) else options
        values = list(options.values()) if isinstance(options, dict) else options
        widget.param.update(options=options, value=value if value in values else (values[0] if values else None))

    def _supply_form(self) -> StepForm:
        foraged = picker("Boxes whose stack foraged this turn (A11): no loss", "foraged")
        reason = pmui.TextInput(label="Why they foraged (goes into the log)", sizing_mode="stretch_width",
                                css_classes=["forage-reason"])

        def update():
            s = self.live.state
            foraged.options = values(s, "check_supply", "foraged")
            foraged.value = []
            foraged.visible = reason.visible = bool(foraged.options)
            reason.value = ""

        def show():
            s = self.live.state
            report = supply_report(s)
            checked = [x for x in report.stacks if x.status != LONE]
            self.odds.show(f"{SIDE_NAME[s.side]} supply now (HD-5.1)", [
                ("stacks of 2+ units", str(len(checked))),
                ("in supply", str(sum(x.status == IN_SUPPLY for x in checked))),
                ("must lose a unit", ", ".join(b for b in report.losses if b not in foraged.value) or "none")],
                note="The Map tab shows each stack's supply line, or why there is none.")
        def build():
            action = {"type": "check_supply", "foraged": list(foraged.value)}
            return {**action, "reason": reason.value} if foraged.value else action
        return StepForm("check_supply", [foraged, reason], update=update, show=show, build=build)

    def _supply_loss_form(self) -> StepForm:
        unit = self._select("Unit lost (the owner chooses, one per box)", "supply-unit")

        def update():
            s = self.live.state
            self._choose(unit, labelled(s, "supply_loss", "unit"))
        return StepForm("supply_loss", [unit], update=update, build=lambda: {"type": "supply_loss", "unit": unit.value})

    def _border_form(self) -> StepForm:
        state_w = pmui.RadioButtonGroup(label="Border state", size="large", css_classes=["border-state"])

        def update():
            s = self.live.state
            self._choose(state_w, labelled(s, "border_state_roll", "border_state"))

        def show():
            s = self.live.state
            try:
                inputs = border_input(s, state_w.value)
            except RuleError as exc:
                return self.odds.show("Border-state support (HD-4.8)", note=str(exc))
            p = success_chance(inputs)
            mods = ", ".join(f"{why} {v:+d}" for why, v in modifiers(inputs)) or "none"
            self.odds.show(f"{BORDER_STATES[inputs.state][0]} support (HD-4.8)",
                           [("P(one militia joins)", odds_text(p))],
                           plots.outcome_bars([("joins", p), ("no support", 1 - p)], "This roll"),
                           f"Modifiers: {mods}; the d6 plus modifiers must be more than {inputs.needed}.")
        return StepForm("border_state_roll", [state_w], update=update, show=show,
                        build=lambda: {"type": "border_state_roll", "border_state": state_w.value})

    def _marches_form(self) -> StepForm:
        row = pn.pane.HTML(stylesheets=[CSS], css_classes=["command-row"])

        def show():
            s = self.live.state
            d = march_odds(s)
            self.odds.show(f"Marches this turn, {SIDE_NAME[s.side]} {s.year} (HD-4.1)",
                           [("expected marches", f"{float(mean(d)):.2f}")] +
                           [(f"P({k} marches)", odds_text(p)) for k, p in sorted(fractions(d).items())],
                           plots.hits_bars(d, "Marches", "marches"))
        return StepForm("roll_marches", [], layout=[row], show=show,
                        update=lambda: setattr(row, "object", command_row_html(self.live.state)))

    def _set_marches_form(self) -> StepForm:
        count = pmui.IntInput(label="Marches your basic rules give", value=0, size="large", css_classes=["march-count"])

        def update():
            allowed = legal(self.live.state, "set_marches", "count")
            count.param.update(start=allowed.low, end=allowed.high, value=allowed.low)
        return StepForm("set_marches", [count], update=update,
                        build=lambda: {"type": "set_marches", "count": count.value or 0})

    def _breakout_form(self) -> StepForm:
        box = self._select("Contained port to break out of", "breakout-box")

        def update():
            self._choose(box, values(self.live.state, "breakout", "box"))
        return StepForm("breakout", [box], update=update, build=lambda: {"type": "breakout", "box": box.value})

    def _neighbours_first(self, box: str | None) -> list[str]:
        """Every box, those joined to `box` by a line first."""
        game_map = self.live.state.game_map
        near = sorted(set(game_map.graph.neighbors(box))) if box in game_map.index else []
        return near + [b.id for b in game_map.boxes if b.id not in near and b.id != box]

    def _march_form(self) -> StepForm:
        origin = self._select("From", "march-from")
        units = picker("Units that march (each at most 2 marches a turn)", "march-units")
        leaders = picker("Leaders riding along (no march spent; each makes one of his 2 march-moves, HD-5.7)",
                         "march-leaders")
        landing = switch("A landing at a port (a CSA recruitment port's coastal garrison defends, HD-4.11)",
                         css="amphibious")
        to = self._select("To (boxes joined by a line first)", "march-to")

        def marching() -> list:
            """The units the engine lets march, at the box chosen."""
            s = self.live.state
            return [n for n in values(s, "march", "units") if s.unit(n).box == origin.value]

        def lands(box: str) -> bool:
            return True in values(self.live.state, "march", "amphibious", units=marching()[:1], to=box)

        def destinations(_=None):
            s = self.live.state
            allowed = values(s, "march", "to", units=marching()[:1]) if marching() else []
            if landing.value:
                allowed = [b for b in allowed if lands(b)]
            self._choose(to, [b for b in self._neighbours_first(origin.value) if b in allowed], to.value)
        landing.param.watch(destinations, "value")

        def refill(_=None):
            s = self.live.state
            here = marching()
            units.param.update(options=here, value=here)
            chiefs = values(s, "march", "leaders", units=here[:1]) if here else []
            leaders.param.update(options=chiefs, value=[], visible=bool(chiefs))
            can_land = bool(here) and any(lands(b) for b in values(s, "march", "to", units=here[:1]))
            landing.param.update(value=False, visible=can_land)
            destinations()
        origin.param.watch(refill, "value")

        def update():
            s = self.live.state
            self._choose(origin, list(dict.fromkeys(s.unit(n).box for n in values(s, "march", "units"))))
            refill()
        return StepForm("march", [origin, units, leaders, landing, to], update=update,
                        build=lambda: {"type": "march", "units": list(units.value), "to": to.value,
                                       "leaders": list(leaders.value), "amphibious": landing.value})

    def _start_battle_form(self) -> StepForm:
        box = self._select("Box (your landings first)", "battle-box")

        def update():
            self._choose(box, values(self.live.state, "start_battle", "box"))
        return StepForm("start_battle", [box], update=update,
                        build=lambda: {"type": "start_battle", "box": box.value})

    def _command_form(self) -> StepForm:
        def show():
            s = self.live.state
            figures, numbers = [], []
            for side in (s.battle.attacker, s.battle.sides[1].side):
                d = next_command_odds(s, side)
                limit = d.map(fire_limit)
                numbers += [(f"{SIDE_NAME[side]}: expected C", f"{float(mean(d)):.2f}"),
                            (f"{SIDE_NAME[side]}: P(8 units fire)", odds_text(fractions(limit).get(FIRE_CAP, 0)))]
                figures.append(plots.hits_bars(d, f"{SIDE_NAME[side]} command C, day {s.battle.day}", "C"))
            self.odds.show(f"Battle command, day {s.battle.day} (HD-4.2)", numbers, figures[0],
                           "The attacker's die first. C = the table + half yesterday's C (rounded up) + leaders; "
                           "min(C, 8) units fire each round.", figures[1], "Defender")
        return StepForm("battle_command", show=show)

    def _fire_form(self, action: str) -> StepForm:
        units = picker("Units that fire (at most the firing limit, HD-5.6)", f"{action}-units")
        hits = pmui.RadioButtonGroup(label="Hits scored by your basic rules", options=[0], value=0, size="large",
                                     css_classes=["fire-hits"], visible=action == "record_fire")
        bonus = [pmui.IntInput(label="", value=0, start=0, size="large", width=200, css_classes=[f"bonus-{i}"])
                 for i in range(FIRE_CAP)]
        side = {"now": USA}
        points = pmui.Typography(variant="body2", css_classes=["leader-points"])

        def relabel(_=None):
            s = self.live.state
            chosen = list(units.value)
            if action == "record_fire":
                scored = legal(s, action, "hits", side=side["now"], units=chosen)
                hits.param.update(options=list(range(scored.low, scored.high + 1)),
                                  value=min(hits.value or 0, scored.high))
            split = legal(s, action, "bonus", side=side["now"], units=chosen) if action == "fire" else None
            rating = split.high if split else 0
            points.object = f"Leader points to split this round: up to {rating}, +1 strength each (HD-4.3)."
            points.visible = rating > 0
            for i, w in enumerate(bonus):
                shown = rating > 0 and i < len(chosen)
                w.param.update(visible=shown, label=f"Leader points on {chosen[i]}" if shown else "",
                               end=split.cap(chosen[i]) if shown else None)
        units.param.watch(relabel, "value")

        def update():
            s = self.live.state
            side["now"] = battle_board(s).step_side
            firing = legal(s, action, "units", side=side["now"])
            units.param.update(options=list(firing.values), value=list(firing.values[:firing.high]))
            hits.value = 0
            for w in bonus:
                w.value = 0
            relabel()

        def build():
            action_dict = {"type": action, "side": side["now"], "units": list(units.value)}
            if action == "record_fire":
                return {**action_dict, "hits": hits.value or 0}
            points = {u: w.value for u, w in zip(units.value, bonus) if w.value}
            return {**action_dict, **({"bonus": points} if points else {})}

        def show():
            s = self.live.state
            title = f"{SIDE_NAME[side['now']]} fire, round {s.battle.round} (HD-4.10)"
            try:
                d = fire_preview(s, side["now"], list(units.value), build().get("bonus"))
            except RuleError as exc:
                return self.odds.show(title, [("firing limit", str(self._side_board(side["now"]).fire_limit))],
                                      note=str(exc))
            self.odds.show(title, [("expected hits", f"{float(mean(d)):.2f}"), ("P(at least 1 hit)",
                                                                              odds_text(p_at_least(d, 1)))],
                           plots.hits_bars(d, f"Hits of {len(units.value)} units firing"))
        return StepForm(action, [units, hits, *bonus], layout=[units, hits, points, pn.FlexBox(*bonus)],
                        build=build, show=show, update=update)

    def _hits_form(self) -> StepForm:
        targets = [pmui.Select(label=f"Hit {i + 1} on", css_classes=[f"hit-{i}"], size="large", width=220)
                   for i in range(FIRE_CAP)]
        side = {"now": USA}

        def update():
            s = self.live.state
            side["now"] = battle_board(s).step_side
            room = legal(s, "take_hits", "units", side=side["now"])
            spread = fight.hit_placement(s, s.battle.of(side["now"]))
            for i, w in enumerate(targets):
                w.param.update(options=list(room.values), value=spread[i] if i < len(spread) else None,
                               visible=i < room.high)
        return StepForm("take_hits", targets, layout=[pn.FlexBox(*targets)], update=update,
                        build=lambda: {"type": "take_hits", "side": side["now"],
                                       "units": [w.value for w in targets if w.visible]})

    def _morale_form(self) -> StepForm:
        def show():
            chances, any_rout = rout_chances(self.live.state)
            self.odds.show("Morale checks (HD-4.4)", [("P(at least one routs)", odds_text(any_rout))] +
                           [(f"P({u} routs)", odds_text(p)) for u, p in chances.items()],
                           plots.outcome_bars(list(chances.items()), "P(rout) of each flipped unit"),
                           "A unit routs when its d6 (-1 in a fort or entrenched) is greater than its morale.")
        return StepForm("morale_checks", show=show)

    def _retreat_form(self) -> StepForm:
        side_w = pmui.RadioButtonGroup(label="The side that retreats (it loses the battle)", size="large",
                                       options={SIDE_NAME[s]: s for s in SIDES}, value=USA,
                                       css_classes=["retreat-side"])
        to = self._select("To (not where the enemy holds or stands)", "retreat-to")

        def boxes(_=None):
            s = self.live.state
            allowed = values(s, "retreat", "to", side=side_w.value) if s.battle and side_w.value else []
            self._choose(to, [b for b in self._neighbours_first(s.battle.box) if b in allowed] if s.battle else [])
        side_w.param.watch(boxes, "value")

        def update():
            s = self.live.state
            self._choose(side_w, labelled(s, "retreat", "side"), s.battle.attacker)
            boxes()
        return StepForm("retreat", [side_w, to], update=update,
                        build=lambda: {"type": "retreat", "side": side_w.value, "to": to.value})

    def _rally_form(self) -> StepForm:
        side_w = pmui.RadioButtonGroup(label="Side", size="large", css_classes=["rally-side"])
        unit = self._select("Routed unit restored to reduced", "rally-unit")

        def refill(_=None):
            s = self.live.state
            self._choose(unit, values(s, "rally", "unit", side=side_w.value) if side_w.value and s.battle else [])
        side_w.param.watch(refill, "value")

        def update():
            self._choose(side_w, labelled(self.live.state, "rally", "side"))
            refill()
        return StepForm("rally", [side_w, unit], update=update,
                        build=lambda: {"type": "rally", "side": side_w.value, "unit": unit.value})

    def _desertion_form(self) -> StepForm:
        def show():
            d = desertion_losses(self.live.state)
            self.odds.show("Desertion after the battle (HD-4.6)",
                           [("expected units lost", f"{float(mean(d)):.2f}")] +
                           [(f"P({k} lost)", odds_text(p)) for k, p in sorted(fractions(d).items())],
                           plots.hits_bars(d, "Units lost to desertion", "units lost"),
                           "+1 if its side lost, -1 if not routed, minus the friendly leaders' rating; "
                           "more than its morale deserts.")
        return StepForm("desertion_checks", show=show)

    def _promote_form(self) -> StepForm:
        unit = self._select("Unit promoted (militia → veteran → crack)", "promote-unit")

        def update():
            self._choose(unit, labelled(self.live.state, "promote", "unit"))
        return StepForm("promote", [unit], update=update, build=lambda: {"type": "promote", "unit": unit.value})

    def _add_unit_form(self) -> StepForm:
        name = pmui.TextInput(label="Name (blank: numbered)", sizing_mode="stretch_width",
                              css_classes=["new-unit-name"])
        arm = pmui.RadioButtonGroup(label="Arm", options=values(self.live.state, "add_unit", "arm"), value=ARMS[0],
                                    size="large")
        grade = pmui.RadioButtonGroup(label="Grade", options=values(self.live.state, "add_unit", "grade"),
                                      value=GRADES[0], size="large")
        box = self._select("Box", "new-unit-box")
        border = switch("A border-state militia from the CSA pool (HD-4.8)", css="new-unit-border")

        def militia(_=None):
            asked = legal(self.live.state, "add_unit", "border_state", grade=grade.value)
            border.param.update(value=False, visible=bool(asked and True in asked.values))
        grade.param.watch(militia, "value")

        def update():
            s = self.live.state
            name.value = ""
            self._choose(box, values(s, "add_unit", "box"))
            militia()
        return StepForm("add_unit", [name, arm, grade, box, border], update=update,
                        build=lambda: {"type": "add_unit", "name": name.value_input or name.value, "arm": arm.value,
                                       "grade": grade.value, "box": box.value, "border_state": border.value})

    def _end_turn_form(self) -> StepForm:
        year = pmui.RadioButtonGroup(label="Year of the next game turn", size="large", css_classes=["next-year"])

        def update():
            s = self.live.state
            asked = legal(s, "end_player_turn", "year")
            self._choose(year, list(range(asked.low, asked.high + 1)) if asked else [], s.year)
            year.visible = asked is not None
        return StepForm("end_player_turn", [year], update=update,
                        build=lambda: {"type": "end_player_turn", **({"year": year.value} if year.visible else {})})

    def _washington_form(self) -> StepForm:
        def show():
            s = self.live.state
            d = washington_mm_odds(s)
            self.odds.show("Washington has fallen (HD-4.7)", [("Union MM now", str(s.mm_usa)),
                                                              ("expected Union MM after", f"{float(mean(d)):.2f}")],
                           plots.hits_bars(d, "Union MM after the loss", "Union MM"),
                           "The loss is the d6, a 1 counting as 2; not a CSA win (HD-6.1).")
        return StepForm("washington_loss", show=show)

    def _fi_return_form(self) -> StepForm:
        def show():
            d = fi_return_now(self.live.state)
            self.odds.show("FI return rolls (HD-4.9)", [(f"P({k} back)", odds_text(p)) for k, p in
                                                       sorted(fractions(d).items())],
                           plots.hits_bars(d, "FI units back in Europe", "units"), "Each returns on 5-6.")
        return StepForm("fi_return_rolls", show=show)

    def __panel__(self):
        return pmui.Column(self.track, two_columns(self.tabs, pmui.Column(self.odds, self.log)),
                           sizing_mode="stretch_width")


def page():
    return app_page(ENGINE, SetupEditor, HouseDividedView)


if pn.state.served:
    extension("tabulator")
    page().servable(title=ENGINE.title)
