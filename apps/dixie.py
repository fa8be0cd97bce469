"""Dixie: Gettysburg dashboard: the battlefield as tiles, the step guide, fire / melee / flank odds, the
victory monitor and the event log; card entry by form and table.

Every number shown comes from an engine call (engines.dixie); this module only lays it out.
Serve it alone with `panel serve apps/dixie.py`, or with every app by `companion serve`.
"""
from __future__ import annotations

import html
import math
import re
from fractions import Fraction
from typing import Any, Callable

import pandas as pd
import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

import engines
from companion import plots
from companion.dice import RandomDice
from companion.engine import RuleError, resolve_options
from companion.odds import fractions, group, mean, p_at_least
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
from companion.ui.theme import TOUCH, extension
from engines.dixie import advice
from engines.dixie.board import (
    DECK,
    ELIMINATED,
    REINFORCEMENTS,
    RESERVE,
    across,
    line_of,
    line_positions,
    other,
)
from engines.dixie.cards import cards_from_rows, check_decks, deck_warnings
from engines.dixie.example import LABEL, example_cards
from engines.dixie.fire_effect import OWNER_PLACING
from engines.dixie.firepower import battery_choices
from engines.dixie.flow import morale_due
from engines.dixie.guide import due_now, phase_title
from engines.dixie.leaders import death_by_fire
from engines.dixie.melee import CONCEDE, ENDED, FIGHT, WITHDRAW
from engines.dixie.morale import ROUTS, MoraleInput, morale_odds
from engines.dixie.rules import F_RANGE, LDR, MORALE_CODES, RANKS, SIDES, TER, TYPES
from engines.dixie.stacking import over_limit, unit_count, unit_limit
from engines.dixie.state import Card, GameState
from engines.dixie.victory import needed, occupied
from engines.dixie.view import sees

ENGINE = engines.get("dixie")
COLUMNS = ["number", "side", "type", "name", "pile", "cv", "morale", "morale_modifier", "fp_long", "fp_short",
           "fp_melee", "horse", "attack", "defense", "stack_bonus", "rank", "wing_corps", "corps", "division", "codes",
           "kind", "modifiers", "text", "timing", "lasting", "bp", "day"]
FLAGS = ("horse", "lasting")
NUMBERS = ("number", "cv", "morale_modifier", "fp_long", "fp_short", "fp_melee", "attack", "defense", "stack_bonus",
           "bp", "day")
FIREPOWERS = list(range(F_RANGE[0], F_RANGE[1] + 1))
SIDE_CLASS = {"CSA": "csa", "USA": "usa"}
CHOICE_TEXT = {ENDED: "over (a side is gone)", FIGHT: "both fight round 2", WITHDRAW: "you disengage",
               CONCEDE: "the enemy disengages"}

CSS = """
.field { display: grid; gap: 8px; font-family: inherit; }
.line, .band, .reserve { display: grid; gap: 8px; }
.tile { border: 2px solid rgba(128,128,128,.5); border-radius: 10px; padding: 6px; min-height: 96px;
        cursor: pointer; background: rgba(128,128,128,.06); display: flex; flex-direction: column; gap: 4px; }
.tile.engaged { background: rgba(213,94,0,.12); border-color: #D55E00; }
.tile.focus { outline: 4px solid #E69F00; outline-offset: 1px; }
.tile.reserve-tile { min-height: 0; }
.head { display: flex; justify-content: space-between; gap: 4px; font-size: 14px; flex-wrap: wrap; }
.head b { font-size: 16px; }
.tag { border-radius: 8px; padding: 0 6px; font-size: 12px; font-weight: 700; }
.tag.engaged { background: #D55E00; color: #fff; }
.tag.csa { background: #6b7079; color: #fff; } .tag.usa { background: #0072B2; color: #fff; }
.meter { display: flex; align-items: center; gap: 4px; font-size: 12px; }
.meter .bar { flex: 1; height: 8px; border-radius: 4px; background: rgba(128,128,128,.25); overflow: hidden; }
.meter .bar i { display: block; height: 100%; }
.meter.csa .bar i { background: #6b7079; } .meter.usa .bar i { background: #0072B2; }
.meter.over { color: #D55E00; font-weight: 700; } .meter.over .bar i { background: #D55E00; }
.cards { display: flex; flex-wrap: wrap; gap: 4px; }
.card { border-radius: 6px; padding: 3px 7px; font-size: 13px; line-height: 1.3; border: 2px solid; min-height: 32px;
        box-sizing: border-box; display: inline-flex; gap: 4px; align-items: center; max-width: 100%; }
.card.csa { border-color: #6b7079; } .card.usa { border-color: #0072B2; }
.card .arm { font-size: 11px; font-weight: 700; opacity: .8; }
.card .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 11em; }
.card.down { border-style: dashed; }
.card.back { font-weight: 700; color: #fff; min-width: 44px; justify-content: center; }
.card.back.csa { background: repeating-linear-gradient(45deg, #6b7079 0 6px, #8a8f98 6px 12px); }
.card.back.usa { background: repeating-linear-gradient(45deg, #0072B2 0 6px, #2a8fce 6px 12px); }
.card .hit { background: #D55E00; color: #fff; border-radius: 50%; min-width: 20px; height: 20px;
             text-align: center; font-weight: 700; font-size: 12px; line-height: 20px; }
.card .flag { font-size: 11px; opacity: .75; font-style: italic; }
.mg { text-align: center; font-size: 13px; letter-spacing: .2em; opacity: .7; padding: 2px;
      border-top: 1px dashed rgba(128,128,128,.6); border-bottom: 1px dashed rgba(128,128,128,.6); }
.counts { font-size: 12px; opacity: .8; }
"""
PANE_CSS = """
.victory { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 15px; margin: 2px 0; }
.victory .near { color: #D55E00; font-weight: 700; }
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
table.list { border-collapse: collapse; width: 100%; font-size: 14px; }
.list td, .list th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 4px; text-align: left; }
"""


# --- card entry ---------------------------------------------------------------------------------------------

def clean_row(record: dict) -> dict:
    """A table row as a card row: empty cells left out, whole numbers (and whole numbers typed as text into a
    number column) as ints (the engine checks the rest)."""
    row = {}
    for key, value in record.items():
        value = value.item() if hasattr(value, "item") else value
        if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
            continue
        if key in FLAGS:
            if value in (True, False):
                if value:
                    row[key] = True
                continue
        if isinstance(value, float) and value == int(value):
            value = int(value)
        if key in NUMBERS and isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
            value = int(value)
        row[key] = value
    return row


def frame(rows) -> pd.DataFrame:
    """The rows as the table shows them: empty cells blank, not NaN."""
    data = pd.DataFrame([{c: r.get(c) for c in COLUMNS} for r in rows], columns=COLUMNS).astype(object)
    return data.where(pd.notna(data), None)


EXAMPLE_ROWS = [clean_row({c: r.get(c) for c in COLUMNS}) for r in example_cards()]


class CardEditor(pn.viewable.Viewer):
    """The players' own cards (DX-1.0, digest section 10): a quick form with defaults that adds one card at a
    time, and the table of every card to review and correct. The fictional example deck can be loaded."""

    def __init__(self, **params):
        super().__init__(**params)
        self.table = pn.widgets.Tabulator(
            frame([]), show_index=False, selectable="checkbox", sizing_mode="stretch_width", height=300,
            css_classes=["card-table"], frozen_columns=["number", "side", "type"],
            editors={"side": {"type": "list", "values": list(SIDES)}, "type": {"type": "list", "values": list(TYPES)},
                     "pile": {"type": "list", "values": ["muster", "reinforcements", "deck"]},
                     "horse": {"type": "tickCross"}, "lasting": {"type": "tickCross"},
                     "rank": {"type": "list", "values": [""] + list(RANKS)},
                     "timing": {"type": "list", "values": ["", "own", "enemy"]}},
            formatters={"horse": {"type": "tickCross"}, "lasting": {"type": "tickCross"}})
        self.form = self._quick_form()
        example = pmui.Button(label="Load the fictional example deck", variant="outlined",
                              css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.set_rows(EXAMPLE_ROWS))
        remove = pmui.Button(label="Remove ticked", variant="outlined", css_classes=["remove-ticked"], **TOUCH)
        remove.on_click(lambda _: self.set_rows([r for i, r in enumerate(self.rows())
                                                 if i not in self.table.selection]))
        clear = pmui.Button(label="Clear all", variant="text", css_classes=["clear-cards"], **TOUCH)
        clear.on_click(lambda _: self.set_rows([]))
        self.note = pmui.Alert(severity="info", sizing_mode="stretch_width", css_classes=["cards-note"])
        self.table.param.watch(lambda _: self._check(), "value")
        self._layout = pmui.Column(
            pmui.Typography("Your battle decks (from your own cards)", variant="h6"),
            pmui.Typography("Enter each card as printed: the form adds one card with the usual values preset; the "
                            "table below holds every card and can be edited cell by cell.", variant="body2"),
            pmui.Row(example, remove, clear), self.form, self.table, self.note, sizing_mode="stretch_width")
        self._check()

    # the quick form
    def _quick_form(self) -> pmui.Column:
        w = self.fields = {
            "side": pmui.RadioButtonGroup(label="Side", options=list(SIDES), value="CSA", size="large",
                                          css_classes=["new-side"]),
            "type": pmui.RadioButtonGroup(label="Type", options=list(TYPES), value="INF", size="large",
                                          css_classes=["new-type"]),
            "number": pmui.IntInput(label="Card number", value=1, start=1, size="large", width=140,
                                    css_classes=["new-number"]),
            "name": pmui.TextInput(label="Name", size="large", css_classes=["new-name"], width=260),
            "pile": pmui.RadioButtonGroup(label="Dealt to", options=["muster", "reinforcements", "deck"],
                                          value="muster", size="large", css_classes=["new-pile"]),
            "cv": pmui.RadioButtonGroup(label="CV", options=[1, 2, 3, 4], value=3, size="large",
                                        css_classes=["new-cv"]),
            "morale": pmui.RadioButtonGroup(label="Morale code", options=list(MORALE_CODES), value="B", size="large",
                                            css_classes=["new-morale"]),
            "fp_long": pmui.RadioButtonGroup(label="Long F", options=FIREPOWERS, value=2, size="large"),
            "fp_short": pmui.RadioButtonGroup(label="Short F", options=FIREPOWERS, value=3, size="large"),
            "horse": switch("Horse artillery"),
            "attack": pmui.IntInput(label="Attack command", value=1, start=0, end=5, size="large", width=140),
            "defense": pmui.IntInput(label="Defense command", value=1, start=0, end=5, size="large", width=140),
            "stack_bonus": pmui.RadioButtonGroup(label="Stack bonus", options=[0, 1, 2], value=0, size="large"),
            "rank": pmui.Select(label="Rank", options=list(RANKS), value="corps", size="large", width=160),
            "wing_corps": pmui.TextInput(label="Wing: its 3 corps", placeholder="I, XI, III", size="large", width=160),
            "codes": pmui.CheckButtonGroup(label="Position code(s)", options=["L", "C", "R"], value=["C"],
                                           size="large"),
            "kind": pmui.TextInput(label="Kind", placeholder="woods", size="large", width=160),
            "modifiers": pmui.TextInput(label="Effects: side what value; ...", placeholder="holder morale +1",
                                        size="large", width=300),
            "text": pmui.TextInput(label="Printed text", size="large", width=300),
            "timing": pmui.RadioButtonGroup(label="Played in", options=["own", "enemy"], value="own", size="large"),
            "lasting": switch("Lasts beyond the turn"),
            "corps": pmui.TextInput(label="Corps", size="large", width=110),
            "division": pmui.TextInput(label="Division", size="large", width=110),
            "bp": pmui.IntInput(label="Battle points", value=0, start=0, size="large", width=130),
            "day": pmui.Select(label="Day mark", options={"none": 0, "1": 1, "2": 2, "3": 3}, value=0, size="large",
                               width=110),
        }
        add = pmui.Button(label="Add this card", variant="contained", color="primary", css_classes=["add-card"],
                          **TOUCH)
        add.on_click(lambda _: self.add_card())
        self.form_error = pmui.Alert(severity="error", visible=False, sizing_mode="stretch_width",
                                     css_classes=["add-error"])
        self._groups = {
            "unit": pn.FlexBox(w["cv"], w["morale"]),
            "art": pn.FlexBox(w["fp_long"], w["fp_short"], w["horse"]),
            "leader": pn.FlexBox(w["attack"], w["defense"], w["stack_bonus"], w["rank"], w["wing_corps"]),
            "terrain": pn.FlexBox(w["codes"], w["kind"], w["modifiers"], w["text"]),
            "special": pn.FlexBox(w["timing"], w["lasting"], w["stack_bonus"], w["modifiers"], w["text"]),
        }
        w["type"].param.watch(lambda _: self._show_groups(), "value")
        self._show_groups()
        return pmui.Column(pn.FlexBox(w["side"], w["type"], w["pile"]),
                           pn.FlexBox(w["number"], w["name"], w["corps"], w["division"], w["bp"], w["day"]),
                           *self._groups.values(), add, self.form_error, sizing_mode="stretch_width",
                           css_classes=["quick-card"])

    def _show_groups(self) -> None:
        kind = self.fields["type"].value
        wanted = {"INF": ("unit",), "CAV": ("unit",), "ART": ("unit", "art"), "LDR": ("leader",),
                  "TER": ("terrain",), "SPC": ("special",)}[kind]
        for name, box in self._groups.items():
            box.visible = name in wanted

    def form_row(self) -> dict:
        """The card the form describes: the common fields and those of its type."""
        w = self.fields
        kind = w["type"].value
        keys = ["number", "side", "type", "name", "pile", "corps", "division", "bp", "day"] + {
            "INF": ["cv", "morale"], "CAV": ["cv", "morale"], "ART": ["cv", "morale", "fp_long", "fp_short", "horse"],
            "LDR": ["attack", "defense", "stack_bonus", "rank", "wing_corps"],
            "TER": ["codes", "kind", "modifiers", "text"],
            "SPC": ["timing", "lasting", "stack_bonus", "modifiers", "text"]}[kind]
        row = {k: w[k].value for k in keys if not (k in ("bp", "day") and not w[k].value)}   # 0: not printed
        if kind == "TER":
            row["codes"] = "".join(row["codes"])
        return clean_row(row)

    def add_card(self) -> None:
        """The form's card, checked on its own (DX-1.0), appended to the table; the number moves on by one."""
        row = self.form_row()
        try:
            cards_from_rows([row])
        except RuleError as exc:
            self.form_error.object, self.form_error.visible = str(exc), True
            return
        self.form_error.visible = False
        self.set_rows(self.rows() + [row])
        self.fields["number"].value = row["number"] + 1
        self.fields["name"].value = ""

    # the table
    def set_rows(self, rows) -> None:
        self.table.value = frame(rows)

    def rows(self) -> list[dict]:
        return [clean_row(r) for r in self.table.value.to_dict("records")]

    def is_example(self) -> bool:
        return self.rows() == EXAMPLE_ROWS

    def _check(self) -> None:
        rows = self.rows()
        if not rows:
            self.note.severity, self.note.object = "info", "Enter your cards, or load the fictional example deck."
            return
        try:
            specs = cards_from_rows(rows)
        except RuleError as exc:
            self.note.severity, self.note.object = "error", str(exc)
            return
        counts = "; ".join(
            f"{side}: {sum(1 for s in specs if s.side == side)} cards (muster "
            f"{sum(1 for s in specs if s.side == side and s.pile == 'muster')}, reinforcements "
            f"{sum(1 for s in specs if s.side == side and s.pile == 'reinforcements')})" for side in SIDES)
        notes = deck_warnings(specs)
        try:
            check_decks(specs, resolve_options(ENGINE.options, {}))
        except RuleError as exc:
            notes.append(f"For the basic game: {exc} (custom decks, the extended line and the historical battle "
                         "are chosen under Options).")
        if self.is_example():
            notes.insert(0, LABEL + ".")
        self.note.severity = "warning" if notes else "success"
        self.note.object = f"{counts}. " + " ".join(notes or ["The decks are valid for the basic game."])

    def setup(self) -> dict:
        setup = {"cards": self.rows()}
        if self.is_example():
            setup["example"] = LABEL
        return setup

    def __panel__(self):
        return self._layout


# --- the battlefield ------------------------------------------------------------------------------------------

def card_html(card: Card, viewer: str) -> str:
    """One card as the viewer sees it: an enemy face-down card as its back (digest section 2), an own face-down
    card dashed; hits as a marker."""
    side = SIDE_CLASS[card.side]
    if not sees(card, viewer):
        return f'<span class="card back {side}" title="face-down {card.side} card">{card.side}</span>'
    s = card.spec
    if s.is_unit:
        value = f"{s.cv}{s.morale}" + (f" L{s.fp_long}/S{s.fp_short}" if s.type == "ART" else "")
    elif s.type == LDR:
        value = f"{s.attack}/{s.defense}" + (f" +{s.stack_bonus}" if s.stack_bonus else "")
    else:
        value = s.kind if s.type == TER else ""
    flags = [f for f, on in (("decoy", card.decoy), ("fired", card.fired), ("moved", card.moves)) if on]
    hit = f'<span class="hit" title="{card.hits} hit(s)">{card.hits}</span>' if card.hits else ""
    down = " down" if not card.face_up else ""
    tip = html.escape(f"{s.label}{'' if card.face_up else ' (face-down)'}")
    arm = ("HA" if s.horse else s.type)
    return (f'<span class="card {side}{down}" data-card="{card.id}" title="{tip}"><span class="arm">{arm}</span>'
            f'<span class="name">{html.escape(s.name or s.id)}</span><b>{html.escape(value)}</b>{hit}'
            + "".join(f'<span class="flag">{f}</span>' for f in flags) + "</span>")


def meter_html(state: GameState, side: str, pos: str) -> str:
    """The side's stack meter in the position: units / unit limit (DX-3.1)."""
    units, limit = unit_count(state, side, pos), unit_limit(state, side, pos)
    width = 100 if limit <= 0 else min(100, round(100 * units / limit))
    over = " over" if units > limit else ""
    return (f'<div class="meter {SIDE_CLASS[side]}{over}" title="{side} units / stacking limit (DX-3.1)">'
            f'<span>{side} {units}/{limit}</span><div class="bar"><i style="width:{width}%"></i></div></div>')


def tile_html(state: GameState, pos: str, viewer: str, focus: str) -> str:
    engaged = state.engaged(pos)
    holder = state.holder[pos]
    tags = (f'<span class="tag {SIDE_CLASS[holder]}">held by {holder}</span>' if holder != line_of(pos) else "") + (
        '<span class="tag engaged">engaged</span>' if engaged else "")
    meters = "".join(meter_html(state, s, pos) for s in SIDES if s == line_of(pos) or state.units(pos, s))
    cards = "".join(card_html(c, viewer) for c in sorted(state.at(pos), key=lambda c: (c.side != viewer, c.spec.type)))
    cls = "tile" + (" engaged" if engaged else "") + (" focus" if pos == focus else "")
    return (f'<div class="{cls}" data-pos="{pos}"><div class="head"><b>{pos.replace("-", " ")}</b>{tags}</div>'
            f'{meters}<div class="cards">{cards}</div></div>')


def reserve_html(state: GameState, side: str, viewer: str, focus: str) -> str:
    """A side's reserve (hidden from the enemy: only its size), and its deck counts (DX-9.0, DX-14.0)."""
    cards = state.at(RESERVE, side)
    shown = "".join(card_html(c, viewer) for c in cards) if side == viewer else \
        f'<span class="card back {SIDE_CLASS[side]}">{len(cards)}</span>'
    deck = len(state.at(DECK, side))
    counts = (f"reinforcement deck {len(state.at(REINFORCEMENTS, side))}" + (f", battle deck {deck}" if deck else "")
              + f", eliminated {len(state.at(ELIMINATED, side))}")
    cls = "tile reserve-tile" + (" focus" if focus == f"reserve-{side}" else "")
    return (f'<div class="{cls}" data-pos="reserve-{side}"><div class="head"><b>{side} reserve ({len(cards)})</b>'
            f'<span class="counts">{counts}</span></div><div class="cards">{shown}</div></div>')


def battlefield_html(state: GameState, viewer: str, focus: str = "") -> str:
    """The table as the viewer sits at it: its own line and reserve below, the enemy's above, each position
    straight across the Middle Ground from the one it faces (Fig. 2, DX-8.0)."""
    own = line_positions(viewer, state.width)
    enemy = tuple(across(p) for p in own)
    cols = f'style="grid-template-columns: repeat({len(own)}, minmax(0, 1fr))"'

    def row(line) -> str:
        return f'<div class="line" {cols}>' + "".join(tile_html(state, p, viewer, focus) for p in line) + "</div>"
    return (f'<div class="field">{reserve_html(state, other(viewer), viewer, focus)}{row(enemy)}'
            f'<div class="mg">MIDDLE GROUND</div>{row(own)}{reserve_html(state, viewer, viewer, focus)}</div>')


class Battlefield(JSComponent):
    """The battlefield tiles: a tap on a tile (or a reserve) calls `on_tap(place)`, a tap on one of the viewer's
    cards `on_card(card id)`."""

    html = param.String(default="")

    _esm = """
    export function render({ model, el }) {
      const draw = () => {
        el.innerHTML = model.html;
        el.querySelectorAll('[data-pos]').forEach((tile) => {
          tile.addEventListener('click', () => model.send_msg({ pos: tile.dataset.pos }));
        });
        el.querySelectorAll('[data-card]').forEach((card) => {
          card.addEventListener('click', (event) => {
            event.stopPropagation();
            model.send_msg({ card: card.dataset.card });
          });
        });
      };
      draw();
      model.on('html', draw);
    }
    """

    def __init__(self, on_tap: Callable[[str], None], on_card: Callable[[str], None], **params):
        super().__init__(stylesheets=[CSS], sizing_mode="stretch_width", **params)
        self._on_tap, self._on_card = on_tap, on_card

    def _handle_msg(self, msg: Any) -> None:
        if not isinstance(msg, dict):
            return
        if isinstance(msg.get("pos"), str):
            self._on_tap(msg["pos"])
        elif isinstance(msg.get("card"), str):
            self._on_card(msg["card"])


def victory_html(live: LiveSession) -> str:
    """The victory monitor (DX-4.0): the enemy-line positions each side occupies, of those it needs."""
    s = live.state
    need = needed(s)
    parts = []
    for side in SIDES:
        held = occupied(s, side)
        cls = ' class="near"' if len(held) == need - 1 else ""
        parts.append(f"<span{cls}>{side} occupies {len(held)} of the {need} {other(side)} positions it needs"
                     f"{': ' + ', '.join(held) if held else ''}</span>")
    if s.victory:
        parts.insert(0, f"<b>{html.escape(s.victory.text)} ({s.victory.rule})</b>")
    if s.options["historical"]:
        parts.append(f"<span>Day {s.day} of 3: the USA wins if the CSA has not won by the end of day 3</span>")
    example = live.session.record.setup.get("example")
    label = f'<div class="example">{html.escape(example)}</div>' if example else ""
    return f'{label}<div class="victory">{"".join(parts)}</div>'


# --- the game view ------------------------------------------------------------------------------------------------

def card_name(card: Card) -> str:
    s = card.spec
    value = f" {s.cv}{s.morale}" if s.is_unit else f" {s.attack}/{s.defense}" if s.type == LDR else ""
    return f"{s.name or s.type}{value} ({card.id}) in {card.loc}"


def choices(cards) -> dict[str, str]:
    return {card_name(c): c.id for c in cards}


def allowed(state: GameState, action: str, param: str, **chosen: Any):
    """What the engine allows for one parameter of an action now, given those chosen before it (None when the
    parameter does not apply in this state)."""
    return ENGINE.actions.specs[action].param(param).legal(state, chosen)


def offered(state: GameState, action: str, param: str, **chosen: Any) -> dict[str, Any]:
    """The engine's legal values of one parameter now, {label: value} (empty when it does not apply)."""
    found = allowed(state, action, param, **chosen)
    return {} if found is None else {c.label: c.value for c in found.options}


def offered_cards(state: GameState, action: str, param: str, **chosen: Any) -> list[Card]:
    return [state.card(i) for i in offered(state, action, param, **chosen).values()]


def short_choices(cards) -> dict[str, str]:
    """Labels for buttons: the name and values, the id only where two cards would read the same."""
    def short(c: Card) -> str:
        s = c.spec
        value = f" {s.cv}{s.morale}" if s.is_unit else f" {s.attack}/{s.defense}" if s.type == LDR else ""
        return f"{s.name or s.type}{value}"
    names = [short(c) for c in cards]
    return {(n if names.count(n) == 1 else f"{n} ({c.id})"): c.id for n, c in zip(names, cards)}


WRAP = {"flexWrap": "wrap", "& .MuiToggleButton-root": {"textTransform": "none", "flex": "0 0 auto", "width": "auto"}}


def card_picker(label: str, css: str) -> pmui.CheckButtonGroup:
    """Cards tapped on and off, wrapping over several rows."""
    buttons = picker(label, css)
    buttons.sx = WRAP
    return buttons


class DixieView(pn.viewable.Viewer):
    """The game view of an open session."""

    focus = param.String(default="", doc="The tile last tapped")

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.odds = OddsPanel()
        self.log = EventLog(live)
        self.seen_by = pmui.RadioButtonGroup(label="Seen by", options={"Side to play": "", "CSA": "CSA", "USA": "USA"},
                                             value="", size="large", css_classes=["seen-by"], width=400)
        self.board = Battlefield(self.tap, self.tap_card, css_classes=["battlefield"])
        self.victory = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[PANE_CSS],
                                    css_classes=["victory-monitor"])
        self.phase = pmui.Typography(variant="h6", css_classes=["phase-title"])
        self.position_value = pmui.IntInput(label="A position is worth (cards), for the melee advice", value=2,
                                            start=0, end=10, size="large", width=300, css_classes=["position-value"])
        self._taps: dict[str, Callable[[str], None]] = {}
        self._card_taps: dict[str, Callable[[str], None]] = {}
        live.param.watch(lambda _: self.render(), "version")
        self.seen_by.param.watch(lambda _: self.render(), "value")
        self.guide = PhaseGuide(live, due_now, self._form, self.odds.clear, phase_title)
        self.position_value.param.watch(lambda _: self._reshow(), "value")
        self.cards = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[PANE_CSS], css_classes=["card-list"])
        self.tabs = lazy_tabs({
            "Play": [self.phase, self.guide, self.position_value],
            "Cards": [self.cards, self._special_panel()],
            "Odds & tables": [self._tables()],
        })
        self.render()

    @property
    def viewer(self) -> str:
        return self.seen_by.value or self.live.state.active

    def render(self) -> None:
        s = self.live.state
        self.board.html = battlefield_html(s, self.viewer, self.focus)
        self.victory.object = victory_html(self.live)
        self.phase.object = phase_title(s)
        self.cards.object = self._card_list()
        due = due_now(s)
        self.position_value.visible = bool(due) and due[0].action in ("declare_melee", "melee_choice")

    @param.depends("focus", watch=True)
    def _refocus(self) -> None:
        self.board.html = battlefield_html(self.live.state, self.viewer, self.focus)

    def tap(self, place: str) -> None:
        """A tap on a tile: the step shown takes it as the position to act in (fire from / at, move to, deploy
        into ...)."""
        self.focus = place
        form = self.guide.active
        handler = self._taps.get(form.action) if form else None
        if handler:
            handler(place)

    def tap_card(self, card: str) -> None:
        """A tap on one of the viewer's cards: the step shown ticks it (or picks it) if it may use it."""
        form = self.guide.active
        handler = self._card_taps.get(form.action) if form else None
        if handler and any(c.id == card for c in self.live.state.cards):
            handler(card)

    @staticmethod
    def _toggle(buttons) -> Callable[[str], None]:
        def tap(card: str) -> None:
            if card in buttons.options.values():
                buttons.value = [c for c in buttons.value if c != card] if card in buttons.value else \
                    [*buttons.value, card]
        return tap

    @staticmethod
    def _pick(select) -> Callable[[str], None]:
        def tap(card: str) -> None:
            if card in (select.options or {}).values():
                select.value = card
        return tap

    def _reshow(self) -> None:
        form = self.guide.active
        if form and form.show:
            form.show()

    def _card_list(self) -> str:
        """The viewer's own cards with where they are, and the enemy's face-up ones."""
        s, viewer = self.live.state, self.viewer
        rows = []
        for c in s.cards:
            if not sees(c, viewer) or (c.side != viewer and c.loc in (RESERVE, REINFORCEMENTS, DECK)):
                continue
            sp = c.spec
            what = f"CV {sp.cv}, morale {sp.morale} ({sp.base_morale})" if sp.is_unit else (
                f"command {sp.attack}/{sp.defense}, stack +{sp.stack_bonus}, {sp.rank}" if sp.type == LDR else
                html.escape(sp.text or sp.kind))
            rows.append(f"<tr><td>{html.escape(sp.label)}</td><td>{sp.type}</td><td>{what}</td><td>{c.loc}</td>"
                        f"<td>{c.hits or ''}</td></tr>")
        return (f"<p>Cards seen by {viewer}.</p><table class='list'><tr><th>card</th><th>type</th><th>values</th>"
                f"<th>where</th><th>hits</th></tr>{''.join(rows)}</table>")

    # --- forms -----------------------------------------------------------------------------------------
    def _form(self, action: str) -> StepForm:
        builders = {"deploy": self._deploy_form, "fire": self._fire_form, "declare_melee": self._melee_form,
                    "melee_round": self._melee_round_form, "melee_choice": self._melee_choice_form,
                    "move": self._move_form, "allocate_hits": self._allocate_form, "withdraw": self._withdraw_form,
                    "check_leader": lambda: self._check_form("check_leader", True),
                    "check_morale": lambda: self._check_form("check_morale", False),
                    "morale_step": self._morale_step_form, "check_hits": self._check_hits_form,
                    "disorder": self._disorder_form, "flank_attack": self._flank_form,
                    "play_terrain": lambda: self._card_position_form("play_terrain"),
                    "place_decoy": lambda: self._card_position_form("place_decoy"),
                    "reveal_decoy": self._reveal_form, "reinforce": self._reinforce_form,
                    "designate": self._designate_form}
        return builders[action]() if action in builders else StepForm(action)

    def _select(self, label: str, css: str) -> pmui.Select:
        return pmui.Select(label=label, css_classes=[css], size="large", sizing_mode="stretch_width")

    @staticmethod
    def _set(select, options: dict | list, keep: bool = True) -> bool:
        """New options, keeping the value when it is still one of them; True if the value changed."""
        values = list(options.values()) if isinstance(options, dict) else list(options)
        value = select.value if keep and select.value in values else (values[0] if values else None)
        changed = value != select.value
        select.param.update(options=options, value=value)
        return changed

    def _position_tap(self, select) -> Callable[[str], None]:
        def tap(place: str) -> None:
            values = list(select.options.values()) if isinstance(select.options, dict) else list(select.options)
            if place in values:
                select.value = place
        return tap

    # deployment
    def _deploy_form(self) -> StepForm:
        side = pmui.RadioButtonGroup(label="Side", options=list(SIDES), value="CSA", size="large",
                                     css_classes=["deploy-side"])
        cards = card_picker("Cards to deploy (tap them, then a tile of your line)", "deploy-cards")
        position = self._select("Into", "deploy-to")
        decoy = switch("Face-down as decoys (13.6)", css="deploy-decoy")
        many = pmui.Button(label="Deploy the ticked cards", variant="contained", color="primary",
                           css_classes=["deploy-all"], **TOUCH)

        def refill(_=None):
            s = self.live.state
            left = [c for c in offered_cards(s, "deploy", "card") if c.side == side.value]
            cards.param.update(options=short_choices(left), value=[c for c in cards.value if c in {x.id for x in left}])
            places()

        def places(_=None):
            """Where the first ticked card may go, and whether it may go as a decoy (DX-3.2, DX-13.6)."""
            s = self.live.state
            first = cards.value[0] if cards.value else None
            self._set(position, offered(s, "deploy", "position", card=first) if first else {})
            decoy.visible = bool(first and position.value) and \
                allowed(s, "deploy", "decoy", card=first, position=position.value) is not None

        def build():
            if not cards.value:
                raise ValueError("Tick the cards to deploy, then tap a tile of your line")
            return {"type": "deploy", "card": cards.value[0], "position": position.value, "decoy": decoy.value}

        def update():
            decoy.value = False
            refill()

        def deploy_all(_=None):
            for card in list(cards.value):
                if self.live.act({"type": "deploy", "card": card, "position": position.value,
                                  "decoy": decoy.value}, RandomDice()) is None:
                    break

        def tap(place: str) -> None:
            if place.startswith("reserve-"):
                side.value = place.removeprefix("reserve-")
            elif line_of(place) in SIDES:
                side.value = line_of(place)
                if place in (position.options or {}).values():
                    position.value = place

        def tap_card(card: str) -> None:
            c = self.live.state.card(card)
            if c.loc == RESERVE and c.side != side.value:
                side.value = c.side
            self._toggle(cards)(card)
        side.param.watch(refill, "value")
        cards.param.watch(places, "value")
        position.param.watch(places, "value")
        many.on_click(deploy_all)
        self._taps["deploy"] = tap
        self._card_taps["deploy"] = tap_card
        return StepForm("deploy", [side, cards, position, decoy], layout=[side, cards, position, decoy, many],
                        build=build, update=update)

    # the morale step
    def _show_checks(self, title: str, cards: list[Card], melee: bool = False) -> None:
        if not cards:
            return self.odds.clear()
        result = advice.checks_advice(self.live.state, cards, melee)
        s = self.live.state
        numbers = [(f"P({s.card(i).spec.name or i} lost)", odds_text(p)) for i, p in result.lost.items()]
        self.odds.show(title, numbers, plots.hits_bars(result.units_lost, "Units routed", "units"),
                       "Leaders check first (DX-11.3): a leader killed takes its command from the units' checks.")

    def _show_morale_step(self) -> None:
        leaders, units = morale_due(self.live.state, self.live.state.active)
        self._show_checks("This morale step (DX-6.0, DX-11.3)", leaders + units)

    def _check_form(self, action: str, leader: bool) -> StepForm:
        card = self._select("Leader" if leader else "Card", f"{action}-card")

        def update():
            self._set(card, offered(self.live.state, action, "card"), keep=False)
        return StepForm(action, [card], build=lambda: {"type": action, "card": card.value}, update=update,
                        show=self._show_morale_step)

    def _morale_step_form(self) -> StepForm:
        return StepForm("morale_step", show=self._show_morale_step)

    def _check_hits_form(self) -> StepForm:
        def show():
            s = self.live.state
            task = s.tasks[0] if s.tasks else None
            if task is None:
                return self.odds.clear()
            melee = task.source == "melee"
            sides = SIDES if melee else (task.side,)
            cards = [c for c in s.at(task.position) if c.side in sides and c.hits and (c.is_unit or c.spec.type == LDR)]
            self._show_checks(f"The checks in {task.position} (DX-6.0, DX-11.3)", cards, melee)
        return StepForm("check_hits", show=show)

    def _disorder_form(self) -> StepForm:
        card = self._select("Card to check (option A13: one at a time)", "disorder-card")

        def update():
            s = self.live.state
            card.visible = allowed(s, "disorder", "card") is not None
            self._set(card, offered(s, "disorder", "card"), keep=False)

        def show():
            s = self.live.state
            over = over_limit(s)
            if not over:
                return self.odds.clear()
            d = advice.disorder_advice(s, *over[0])
            self.odds.show(f"Disorder in {over[0][1]} (DX-8.3a)",
                           [("expected cards to the reserve", f"{float(mean(d)):.2f}")],
                           plots.hits_bars(d, "Cards sent to the reserve", "cards"))
        return StepForm("disorder", [card], update=update, show=show,
                        build=lambda: {"type": "disorder", **({"card": card.value} if card.visible else {})})

    # combat
    def _fire_form(self) -> StepForm:
        origin = self._select("Firing position", "fire-from")
        target = self._select("Target position", "fire-at")
        firers = card_picker("Firing cards", "firers")
        named = self._select("Single out enemy artillery (13.4)", "counter-battery")

        def able() -> dict[str, dict[str, str]]:
            """The engine's firers by position, and for each the targets it offers: {card: {label: target}}."""
            s = self.live.state
            return {i: offered(s, "fire", "target", firers=[i]) for i in offered(s, "fire", "firers").values()}

        def ready(target_value: str | None) -> list[str]:
            """The firers in the chosen position that the engine lets fire at the target."""
            s = self.live.state
            return [i for i, targets in able().items()
                    if s.card(i).loc == origin.value and target_value in targets.values()]

        def pairs() -> dict[str, tuple[str, str]]:
            """DX-13.4: the pairs 'firer>artillery' the engine offers for the ticked firers: value -> (firer, card)."""
            s = self.live.state
            if not firers.value or not target.value:
                return {}
            table = battery_choices(s, [s.card(i) for i in firers.value], target.value)
            return {v: (table[v][0].id, table[v][1].id)
                    for v in offered(s, "fire", "counter_battery", firers=list(firers.value), target=target.value)
                    .values()}

        def refill(_=None):
            """The cards that may fire from the origin at the target, all ticked; the artillery to single out."""
            s = self.live.state
            ids = ready(target.value) if origin.value and target.value else []
            firers.param.update(options=short_choices([s.card(i) for i in ids]), value=ids)
            batteries = {a for _, a in pairs().values()}
            named.visible = bool(batteries)
            self._set(named, {"(none: the owner places the hits)": "", **choices([s.card(a) for a in sorted(batteries)])},
                      keep=False)

        def retarget(_=None):
            s = self.live.state
            targets = {label: t for i, found in able().items() if s.card(i).loc == origin.value
                       for label, t in found.items()}
            if not self._set(target, targets):
                refill()

        def update():
            s = self.live.state
            if not self._set(origin, list(dict.fromkeys(s.card(i).loc for i in able())), keep=False):
                retarget()

        def tap(place: str) -> None:
            s = self.live.state
            targets = (target.options or {}).values()
            if place in targets and place != origin.value:
                target.value = place
            elif any(s.card(i).loc == place for i in able()):
                origin.value = place
            elif place in targets:
                target.value = place

        def counter() -> list[str]:
            """DX-13.4: the named battery is the target of each ticked firer that may single it out."""
            if not (named.visible and named.value):
                return []
            return [v for v, (_, a) in pairs().items() if a == named.value]

        def build():
            action = {"type": "fire", "firers": list(firers.value), "target": target.value}
            cb = counter()
            return {**action, "counter_battery": cb} if cb else action

        def show():
            s = self.live.state
            try:
                named_by = {f: a for v, (f, a) in pairs().items() if v in counter()}
                adv = advice.fire_advice(s, list(firers.value), target.value, named_by)
            except (RuleError, KeyError):
                return self.odds.clear()
            numbers = [(f"P(at least {k} hit{'s' if k > 1 else ''})", odds_text(p_at_least(adv.hits, k)))
                       for k in (1, 2, 3) if p_at_least(adv.hits, k)]
            numbers.append(("expected hits", f"{float(mean(adv.hits)):.2f}"))
            numbers.append(("P(an enemy unit routed or destroyed by its next morale step)", odds_text(adv.card_lost)))
            if s.leader(target.value, other(s.active)):
                numbers.append(("P(the enemy leader there dies)", odds_text(adv.leader_dies)))
            if adv.support is not None:
                numbers.append(("P(at least one hit on your own units)", odds_text(adv.friendly_hit)))
            for firer, fate in adv.batteries.items():
                numbers.append((f"{firer}: P(the named battery destroyed)",
                                odds_text(sum((p for o, p in fractions(fate).items() if o.destroyed), Fraction(0)))))
            lost = group(adv.effect, lambda e: e.units_lost)
            self.odds.show(f"Fire {origin.value} -> {target.value} ({adv.kind}, DX-7.1-7.3)", numbers,
                           plots.hits_bars(adv.hits, "Hits for the enemy to place"),
                           f"The owner is assumed to place the hits {OWNER_PLACING} (DX-7.3); the enemy's "
                           "leader, terrain and command count in its morale checks.",
                           plots.hits_bars(lost, "Enemy units lost by its next morale step", "units"),
                           "Enemy units lost")
        origin.param.watch(retarget, "value")
        target.param.watch(refill, "value")
        self._taps["fire"] = tap
        self._card_taps["fire"] = self._toggle(firers)
        return StepForm("fire", [origin, target, firers, named], build=build, show=show, update=update)

    def _allocate_form(self) -> StepForm:
        mine = switch(f"Place them myself (else the companion places them {OWNER_PLACING})", css="place-own")
        spots = [pmui.Select(label=f"Hit {i + 1} on", size="large", css_classes=[f"hit-{i + 1}"], width=320)
                 for i in range(12)]
        box = pn.FlexBox(*spots, visible=False)

        def update():
            s = self.live.state
            legal = allowed(s, "allocate_hits", "cards")
            mine.value = False
            for i, w in enumerate(spots):
                w.visible = i < legal.low            # one card for each hit the pool can take (DX-7.3)
                self._set(w, offered(s, "allocate_hits", "cards"), keep=False)
        mine.param.watch(lambda e: setattr(box, "visible", e.new), "value")

        def build():
            if not mine.value:
                return {"type": "allocate_hits"}
            return {"type": "allocate_hits", "cards": [w.value for w in spots if w.visible]}
        return StepForm("allocate_hits", [mine, *spots], layout=[mine, box], build=build, update=update)

    def _melee_form(self) -> StepForm:
        position = self._select("Melee in", "melee-at")
        units = card_picker("Your units in the melee (A8 option)", "melee-units")

        def refill(_=None):
            s = self.live.state
            named = allowed(s, "declare_melee", "units", position=position.value) if position.value else None
            mine = offered_cards(s, "declare_melee", "units", position=position.value) if named else []
            units.param.update(options=short_choices(mine), value=[c.id for c in mine])
            units.visible = named is not None

        def update():
            self._set(position, offered(self.live.state, "declare_melee", "position"), keep=False)
            refill()

        def build():
            action = {"type": "declare_melee", "position": position.value}
            return action if self.live.state.options["melee_all_units"] else {**action, "units": list(units.value)}

        def show():
            if not position.value:
                return self.odds.clear()
            try:
                plan = advice.melee_advice(self.live.state, position.value, list(units.value) or None,
                                           Fraction(self.position_value.value or 0))
            except RuleError:
                return self.odds.clear()
            self._show_plan(plan, position.value)
        position.param.watch(refill, "value")
        self._taps["declare_melee"] = self._position_tap(position)
        self._card_taps["declare_melee"] = self._toggle(units)
        return StepForm("declare_melee", [position, units], build=build, show=show, update=update)

    def _show_plan(self, plan, pos: str) -> None:
        """DX-13.1 advice: round 1, both sides' best choices, round 2 (exact DP, digest section 8)."""
        by_choice: dict[str, Fraction] = {}
        for node in plan.nodes:
            by_choice[node.choice] = by_choice.get(node.choice, 0) + node.probability
        note = "After round 1, with the best choices: " + "; ".join(
            f"{CHOICE_TEXT[c]} {odds_text(p)}" for c, p in by_choice.items()) + \
            f". Scored as position worth {self.position_value.value} cards + cards lost by each side."
        nobody = 1 - plan.holds - plan.opponent_holds
        self.odds.show(f"Melee in {pos} (DX-13.1)", [
            ("P(you hold the position at the end)", odds_text(plan.holds)),
            ("P(the enemy holds it)", odds_text(plan.opponent_holds)),
            ("your expected cards lost", f"{float(plan.expected_initiator_lost):.2f}"),
            ("enemy expected cards lost", f"{float(plan.expected_opponent_lost):.2f}")],
            plots.outcome_bars(list(plan.after_round_1.items()), "After round 1"), note,
            plots.outcome_bars([("you hold", plan.holds), ("the enemy holds", plan.opponent_holds),
                                ("nobody", nobody)], "At the end, both choosing best"), "After round 2")

    def _melee_round_form(self) -> StepForm:
        def show():
            s = self.live.state
            m = next((m for m in s.melees if m.stage == "roll"), None)
            if m is None:
                return self.odds.clear()
            ids = [i for i in m.units if s.card(i).loc == m.position]
            if m.rounds == 0:
                value = Fraction(self.position_value.value or 0)
                return self._show_plan(advice.melee_advice(s, m.position, ids, value), m.position)
            end = advice.last_round_advice(s, m.position, ids)
            self.odds.show(f"Melee in {m.position}: round 2 (DX-13.1)",
                           [(f"P({k})", odds_text(p)) for k, p in end.items()],
                           plots.outcome_bars(list(end.items()), "After round 2"),
                           "After round 2 an initiator without sole presence disengages.")
        return StepForm("melee_round", show=show)

    def _show_node(self, node, pos: str) -> None:
        nobody = 1 - node.holds - node.opponent_holds
        self.odds.show(f"Melee in {pos}: round 2 (DX-13.1)", [
            ("best choice now", CHOICE_TEXT[node.choice]),
            ("P(the initiator holds at the end)", odds_text(node.holds)),
            ("P(the opponent holds it)", odds_text(node.opponent_holds)),
            ("initiator's expected further losses", f"{float(node.expected_initiator_lost):.2f}"),
            ("opponent's expected further losses", f"{float(node.expected_opponent_lost):.2f}")],
            plots.outcome_bars([("initiator holds", node.holds), ("opponent holds", node.opponent_holds),
                                ("nobody", nobody)], "At the end, both choosing best"),
            f"Value to the initiator if both fight on: {float(node.fight_value):.2f}; under best play: "
            f"{float(node.value):.2f} (position worth {self.position_value.value} cards).")

    def _melee_choice_form(self) -> StepForm:
        fight = pmui.RadioButtonGroup(label="Choice", options={"Fight on": True, "Disengage": False}, value=True,
                                      size="large", css_classes=["melee-fight"])

        def update():
            try:
                node = advice.melee_choice_advice(self.live.state, Fraction(self.position_value.value or 0))
            except RuleError:
                return
            m = next(m for m in self.live.state.melees if m.stage in ("choice", "reply"))
            mine = node.choice != (WITHDRAW if m.stage == "choice" else CONCEDE)
            fight.value = mine

        def show():
            try:
                node = advice.melee_choice_advice(self.live.state, Fraction(self.position_value.value or 0))
            except RuleError:
                return self.odds.clear()
            m = next(m for m in self.live.state.melees if m.stage in ("choice", "reply"))
            self._show_node(node, m.position)
        return StepForm("melee_choice", [fight], update=update, show=show,
                        build=lambda: {"type": "melee_choice", "fight": fight.value})

    def _withdraw_form(self) -> StepForm:
        card = self._select("Unit", "withdraw-card")
        to = self._select("Disengages to", "withdraw-to")

        def retarget(_=None):
            s = self.live.state
            self._set(to, offered(s, "withdraw", "to", card=card.value) if card.value else {}, keep=False)

        def update():
            s = self.live.state
            self._set(card, choices(offered_cards(s, "withdraw", "card")), keep=False)
            retarget()

        def build():
            return {"type": "withdraw", "card": card.value, **({"to": to.value} if to.value else {})}
        card.param.watch(retarget, "value")
        self._taps["withdraw"] = self._position_tap(to)
        self._card_taps["withdraw"] = self._pick(card)
        return StepForm("withdraw", [card, to], update=update, build=build)

    # movement
    def _movers(self) -> list[Card]:
        return offered_cards(self.live.state, "move", "card")

    def _move_form(self) -> StepForm:
        card = self._select("Card", "move-card")
        to = self._select("To", "move-to")

        def retarget(_=None):
            s = self.live.state
            self._set(to, offered(s, "move", "to", card=card.value) if card.value else {})

        def update():
            self._set(card, choices(self._movers()))
            retarget()

        def tap(place: str) -> None:
            s = self.live.state
            dest = RESERVE if place == f"reserve-{s.active}" else place
            if dest in (to.options or {}).values():
                to.value = dest
                return
            here = [c for c in self._movers() if c.loc == dest]
            if here:
                card.value = here[0].id

        card.param.watch(retarget, "value")
        self._taps["move"] = tap
        self._card_taps["move"] = self._pick(card)
        return StepForm("move", [card, to], update=update,
                        build=lambda: {"type": "move", "card": card.value, "to": to.value})

    def _card_position_form(self, action: str) -> StepForm:
        card = self._select("Card", f"{action}-card")
        position = self._select("Into", f"{action}-to")

        def retarget(_=None):
            self._set(position, offered(self.live.state, action, "position", card=card.value) if card.value else {})

        def update():
            self._set(card, choices(offered_cards(self.live.state, action, "card")), keep=False)
            retarget()
        card.param.watch(retarget, "value")
        self._taps[action] = self._position_tap(position)
        self._card_taps[action] = self._pick(card)
        return StepForm(action, [card, position], update=update,
                        build=lambda: {"type": action, "card": card.value, "position": position.value})

    def _reveal_form(self) -> StepForm:
        card = self._select("Decoy", "reveal-card")

        def update():
            self._set(card, choices(offered_cards(self.live.state, "reveal_decoy", "card")), keep=False)
        return StepForm("reveal_decoy", [card], update=update,
                        build=lambda: {"type": "reveal_decoy", "card": card.value})

    def _flank_form(self) -> StepForm:
        cards = card_picker("Reserve units that try it", "flank-cards")
        position = self._select("Into (a flank position with both sides' units)", "flank-to")
        leader = self._select("Leader going with them", "flank-leader")

        def update():
            cards.param.update(options=short_choices(offered_cards(self.live.state, "flank_attack", "cards")), value=[])
            retarget()

        def retarget(_=None):
            s = self.live.state
            self._set(position, offered(s, "flank_attack", "position", cards=list(cards.value)))
            chief()

        def chief(_=None):
            s = self.live.state
            self._set(leader, offered(s, "flank_attack", "leader", cards=list(cards.value), position=position.value)
                      if position.value else {})

        def build():
            action = {"type": "flank_attack", "cards": list(cards.value), "position": position.value}
            return {**action, "leader": leader.value} if leader.value else action

        def show():
            if not cards.value or not position.value:
                return self.odds.clear()
            try:
                d = advice.flank_advice(self.live.state, list(cards.value), position.value, leader.value or None)
            except RuleError:
                return self.odds.clear()
            self.odds.show(f"Flank attack into {position.value} (DX-13.3)",
                           [("expected cards that make it", f"{float(mean(d)):.2f}"),
                            ("P(at least one makes it)", odds_text(p_at_least(d, 1)))],
                           plots.hits_bars(d, "Cards that make it", "cards"),
                           "Each card checks morale: CV + code, CAV +1, ART -1, + the attack rating of a leader "
                           "going with them; those that pass move in and fire at once.")
        cards.param.watch(retarget, "value")
        position.param.watch(chief, "value")
        self._taps["flank_attack"] = self._position_tap(position)
        self._card_taps["flank_attack"] = self._toggle(cards)
        return StepForm("flank_attack", [cards, position, leader], build=build, show=show, update=update)

    # reinforcement and the rest
    def _reinforce_form(self) -> StepForm:
        name = switch("Name the cards drawn (drawn at the table)", css="name-drawn")
        cards = card_picker("Cards drawn", "drawn-cards")

        def update():
            s = self.live.state
            name.value = False
            cards.param.update(options=short_choices(offered_cards(s, "reinforce", "cards")), value=[])
            cards.visible = False
        name.param.watch(lambda e: setattr(cards, "visible", e.new), "value")
        return StepForm("reinforce", [name, cards], update=update,
                        build=lambda: {"type": "reinforce", **({"cards": list(cards.value)} if name.value else {})})

    def _designate_form(self) -> StepForm:
        leader = self._select("Army commander", "designate-leader")

        def update():
            self._set(leader, choices(offered_cards(self.live.state, "designate", "leader")), keep=False)
        return StepForm("designate", [leader], update=update,
                        build=lambda: {"type": "designate", "leader": leader.value})

    def _special_panel(self):
        """DX-12.0: a special card from the reserve onto any position, in its owner's turn or, if so printed, the
        enemy's (the step guide does not ask for it: it is played when the players choose)."""
        card = self._select("Special card in a reserve", "special-card")
        position = self._select("Onto", "special-to")

        def refresh(_=None):
            s = self.live.state
            self._set(card, choices(offered_cards(s, "play_special", "card")))
            retarget()
            panel.visible = ENGINE.actions.specs["play_special"].is_open(s)
            panel.refresh()

        def retarget(_=None):
            self._set(position, offered(self.live.state, "play_special", "position", card=card.value)
                      if card.value else {})
        panel = ActionPanel(self.live, "Play the special", lambda: {"type": "play_special", "card": card.value,
                                                                   "position": position.value})
        card.param.watch(retarget, "value")
        for w in (card, position):
            w.param.watch(lambda _: panel.refresh(), "value")
        self.live.param.watch(refresh, "version")
        refresh()
        return pmui.Column(pmui.Typography("Play a special card (DX-12.0)", variant="subtitle1"), card, position, panel,
                           sizing_mode="stretch_width", css_classes=["special-panel"])

    def _tables(self):
        """Teaching plots: the rout curve by morale (DX-6.0) and the leader's risk under n dice (DX-11.3)."""
        rout = {f"morale {m}": [(h, fractions(morale_odds(MoraleInput(m, h)))[ROUTS]) for h in range(1, 5)]
                for m in range(1, 6)}
        risk = {"P(the leader is killed)": [(n, death_by_fire(n)) for n in range(0, 25, 2)]}
        return pmui.Column(
            pn.pane.HoloViews(plots.curves(rout, "P(a card routs) by hits held (DX-6.0)", "hits", "probability"),
                              sizing_mode="stretch_width", min_height=300),
            pn.pane.HoloViews(plots.curves(risk, "Leader risk under n enemy dice (DX-11.3)", "dice fired",
                                           "probability"), sizing_mode="stretch_width", min_height=300),
            sizing_mode="stretch_width")

    def __panel__(self):
        play = pmui.Column(self.victory, self.seen_by, self.board, self.tabs, sizing_mode="stretch_width")
        return two_columns(play, pmui.Column(self.odds, self.log, sizing_mode="stretch_width"))


def page():
    return app_page(ENGINE, CardEditor, DixieView)


if pn.state.served:
    extension("tabulator")
    page().servable(title=ENGINE.title)
