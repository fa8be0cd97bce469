"""Galactic Chess Game dashboard: the shared table (cliques, VP, hand sizes, Iserlohn, decks, civil war), this
device's own hand, the turn guide, the battle screen with target advice, the odds and the event log.

Hands are private: the table shows their sizes; a hand's cards appear only on the device its player has
chosen as theirs ("This device is ..."), a choice kept in that browser alone, never in the session.
Every number shown comes from an engine call (engines.galactic_chess); this module only lays it out.
Serve it alone with `panel serve apps/galactic_chess.py`, or with every app by `companion serve`.
"""
from __future__ import annotations

import html
import json
from fractions import Fraction

import pandas as pd
import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

import engines
from companion import plots
from companion.engine import RuleError
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
from engines.galactic_chess import advice
from engines.galactic_chess import battle as fight
from engines.galactic_chess.cards import (
    card_warnings,
    cards_from_rows,
    fortress_from_row,
)
from engines.galactic_chess.duel import DuelOutcome, Fighter, hit_chance
from engines.galactic_chess.ending import provisional, senior_admirals, stars_by_camp
from engines.galactic_chess.example import (
    EXAMPLE_EVENTS,
    EXAMPLE_FORTRESS,
    EXAMPLE_PERSONS,
    LABEL,
)
from engines.galactic_chess.fighting import rules_of_battle, sc_ties
from engines.galactic_chess.fortress import (
    COMMANDER,
    DISPATCH,
    RELEASE,
    commander_player,
    corridor_active,
)
from engines.galactic_chess.guide import due_now, phase_title
from engines.galactic_chess.interval import Estimate
from engines.galactic_chess.outlook import TRIALS
from engines.galactic_chess.plots import PlotRollInput, plot_chance
from engines.galactic_chess.policy import POLICIES
from engines.galactic_chess.rules import (
    ALLIANCE,
    CAMP_NAMES,
    CAMPS,
    EFFECTS,
    EMP,
    EMPIRE,
    EVENT_KINDS,
    FEZ,
    FPA,
    GRAND,
    MCSR,
    NOBLE,
    ROLES,
)
from engines.galactic_chess.state import BATTLE, GameState
from engines.galactic_chess.table import current_deck

ENGINE = engines.get("galactic_chess")
ADVICE_EXACT_MAX = 8        # units: a tap must stay quick on a tablet; larger battles are estimated
ADVICE_TRIALS = TRIALS
PERSON_COLUMNS = ["name", "period", "camp", "rebel_camp", "stars", "strategy", "attack", "defence", "plot",
                  "counter_only", "fights", "never_changes_camp", "role", "special"]
EVENT_COLUMNS = ["name", "period", "kind", "effect", "size", "prerequisite", "text"]
CSS = """
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
.players { display: flex; flex-wrap: wrap; gap: 8px; }
.player { flex: 1 1 330px; border: 1px solid rgba(128,128,128,.4); border-radius: 8px; padding: 6px 10px; }
.player.active { border: 2px solid #0072B2; }
.player h4 { margin: 2px 0 4px; font-size: 17px; }
.clique { margin: 3px 0; font-size: 15px; }
.camp { display: inline-block; min-width: 52px; font-weight: 700; }
.camp.EMP, .camp.NOBLE { color: #8a6d00; } .camp.FPA, .camp.MCSR { color: #0072B2; } .camp.FEZ { color: #009E73; }
.stars { color: #E69F00; letter-spacing: -1px; }
.vp { font-weight: 700; margin-left: 4px; }
.facts { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 15px; margin: 6px 0; }
.badge { border-radius: 10px; padding: 0 8px; border: 1px solid rgba(128,128,128,.6); }
.badge.on { background: rgba(0,114,178,.2); } .badge.war { background: rgba(213,94,0,.25); }
table.sides { border-collapse: collapse; width: 100%; font-size: 15px; }
.sides td, .sides th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left; }
.sides .next { background: rgba(0,114,178,.2); font-weight: 700; }
.sides .gone { opacity: .5; text-decoration: line-through; }
.sides .sc { background: #E69F00; color: #000; border-radius: 4px; padding: 0 4px; font-size: 12px; }
table.advice { border-collapse: collapse; width: 100%; font-size: 15px; }
.advice td, .advice th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left; }
.advice .best { font-weight: 700; }
.hand li { font-size: 16px; padding: 3px 0; }
"""
DEVICE_CSS = """
.device-label { font-size: 14px; opacity: .75; margin: 4px 0; }
.device-row { display: flex; flex-wrap: wrap; gap: 6px; }
.device { min-height: 48px; min-width: 96px; padding: 0 16px; font-size: 16px; border-radius: 6px; cursor: pointer;
          border: 1px solid #0072B2; background: transparent; color: inherit; }
.device.on { background: #0072B2; color: #fff; font-weight: 600; }
"""


def choices(state: GameState, action: str, name: str, **chosen) -> list | None:
    """The values the engine offers now for one parameter of an action, given those chosen before it (the action's
    spec); None when the parameter is not asked now."""
    found = ENGINE.actions.specs[action].param(name).legal(state, chosen)
    return None if found is None else list(found.values)


def offered(state: GameState, action: str, name: str, **chosen) -> list:
    """The values offered now ([] when the parameter is not asked)."""
    return choices(state, action, name, **chosen) or []


def estimate_text(p: Fraction | Estimate) -> str:
    """An exact chance as percent and fraction; an estimate with its 95% interval."""
    if isinstance(p, Estimate):
        low, high = p.interval
        return f"≈{plots.percent(p.value)} (est. {plots.percent(low)}–{plots.percent(high)})"
    return odds_text(p) if Fraction(p).denominator <= 6 ** 6 else f"{plots.percent(p)} (exact)"


def value_of(p: Fraction | Estimate) -> float:
    return p.value if isinstance(p, Estimate) else float(p)


def as_fraction(p: Fraction | Estimate) -> Fraction:
    """For a plot: the exact chance, or the estimate's share of the simulated battles."""
    return Fraction(p.successes, p.trials) if isinstance(p, Estimate) else p


# --- the cards entered from the players' sheets ------------------------------------------------------------

class CardEditor(pn.viewable.Viewer):
    """The players, then the persons, events and the Iserlohn card from the players' own printed sheets
    (digest section 10): typed in the tables, or a card file pasted; or the labelled fictional example."""

    def __init__(self, **params):
        super().__init__(**params)
        self.players = pmui.TextInput(label="Players, clockwise from the first player (3 to 5 names)",
                                      placeholder="Ann, Ben, Cat", sizing_mode="stretch_width",
                                      css_classes=["players-input"])
        self.persons = pn.widgets.Tabulator(
            self._frame([], PERSON_COLUMNS), show_index=False, selectable="checkbox", sizing_mode="stretch_width",
            height=240, css_classes=["persons-table"],
            editors={"camp": {"type": "list", "values": [EMP, FPA, FEZ]},
                     "rebel_camp": {"type": "list", "values": ["", NOBLE, MCSR]},
                     "counter_only": {"type": "tickCross"}, "fights": {"type": "tickCross"},
                     "never_changes_camp": {"type": "tickCross"},
                     "role": {"type": "list", "values": list(ROLES)}},
            formatters={k: {"type": "tickCross"} for k in ("counter_only", "fights", "never_changes_camp")},
            titles={"rebel_camp": "rebel camp", "counter_only": "(P) counter only", "fights": "air/ground",
                    "never_changes_camp": "never changes camp"})
        self.events = pn.widgets.Tabulator(
            self._frame([], EVENT_COLUMNS), show_index=False, selectable="checkbox", sizing_mode="stretch_width",
            height=200, css_classes=["events-table"],
            editors={"kind": {"type": "list", "values": list(EVENT_KINDS)},
                     "effect": {"type": "list", "values": list(EFFECTS)}})
        self.fortress = {k: pmui.IntInput(label=f"Iserlohn {k}", value=None, size="large", width=150,
                                          css_classes=[f"fortress-{k}"]) for k in ("strategy", "attack", "defence")}
        example = pmui.Button(label="Load the example (fictional) cards", variant="outlined",
                              css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.load_example())
        add_person = pmui.Button(label="Add a person", variant="outlined", css_classes=["add-person"], **TOUCH)
        add_person.on_click(lambda _: self._add(self.persons, PERSON_COLUMNS))
        add_event = pmui.Button(label="Add an event", variant="outlined", css_classes=["add-event"], **TOUCH)
        add_event.on_click(lambda _: self._add(self.events, EVENT_COLUMNS))
        remove = pmui.Button(label="Remove ticked rows", variant="outlined", **TOUCH)
        remove.on_click(lambda _: self._remove())
        self.paste = pmui.TextAreaInput(label="Or paste a card file (JSON with persons, events, fortress)", rows=3,
                                        sizing_mode="stretch_width", css_classes=["paste-cards"])
        read = pmui.Button(label="Read the card file", variant="outlined", css_classes=["read-cards"], **TOUCH)
        read.on_click(lambda _: self.read_paste())
        self.note = pmui.Alert(severity="info", sizing_mode="stretch_width", css_classes=["cards-note"])
        self._quiet = False
        for widget in [self.players, self.persons, self.events, *self.fortress.values()]:
            widget.param.watch(lambda _: None if self._quiet else self._check(), "value")
        self._layout = pmui.Column(
            self.players, example, self.note,
            pmui.Typography("Persons (from your card sheets)", variant="h6"), self.persons,
            pmui.Typography("Events", variant="h6"), self.events,
            pn.FlexBox(*self.fortress.values()), pmui.Row(add_person, add_event, remove),
            self.paste, read, sizing_mode="stretch_width")
        self._check()

    @staticmethod
    def _frame(rows, columns) -> pd.DataFrame:
        return pd.DataFrame([{c: ("" if r.get(c) is None else r.get(c, "")) for c in columns} for r in rows],
                            columns=columns)

    def _add(self, table, columns) -> None:
        blank = {"period": 1, "kind": "event", "effect": "none", "camp": "EMP", "stars": 0, "strategy": 0,
                 "attack": 0, "defence": 0, "size": 0, "counter_only": False, "fights": False,
                 "never_changes_camp": False}
        table.value = self._frame(self._rows(table) + [{c: blank.get(c, "") for c in columns}], columns)

    def _remove(self) -> None:
        for table, columns in ((self.persons, PERSON_COLUMNS), (self.events, EVENT_COLUMNS)):
            if table.selection:
                table.value = self._frame([r for i, r in enumerate(self._rows(table)) if i not in table.selection],
                                          columns)

    def load_example(self) -> None:
        if not self.players.value.strip():
            self._quiet = True
            self.players.value = "Ann, Ben, Cat"
        self.set_cards({"persons": EXAMPLE_PERSONS, "events": EXAMPLE_EVENTS, "fortress": EXAMPLE_FORTRESS})

    def set_cards(self, data: dict) -> None:
        """All the cards at once, checked once (the note set once per callback)."""
        self._quiet = True
        try:
            self.persons.value = self._frame(data.get("persons", []), PERSON_COLUMNS)
            self.events.value = self._frame(data.get("events", []), EVENT_COLUMNS)
            for k, w in self.fortress.items():
                w.value = (data.get("fortress") or {}).get(k)
        finally:
            self._quiet = False
        self._check()

    def read_paste(self) -> None:
        try:
            data = json.loads(self.paste.value_input or self.paste.value or "null")
            if not isinstance(data, dict):
                raise ValueError("the card file is a JSON object with persons, events and fortress")
        except ValueError as exc:
            self.note.severity, self.note.object = "error", f"The card file cannot be read: {exc}"
            return
        self.set_cards(data)

    @staticmethod
    def _rows(table) -> list[dict]:
        out = []
        for record in table.value.to_dict("records"):
            row = {}
            for k, v in record.items():
                v = v.item() if hasattr(v, "item") else v
                if isinstance(v, float) and v == int(v):
                    v = int(v)
                row[k] = v
            out.append(row)
        return out

    def person_rows(self) -> list[dict]:
        rows = []
        for r in self._rows(self.persons):
            r = dict(r)
            r["plot"] = None if r.get("plot") in ("", None) or r.get("plot") != r.get("plot") else r["plot"]
            for flag in ("counter_only", "fights", "never_changes_camp"):
                r[flag] = bool(r.get(flag)) if r.get(flag) not in ("", None) else False
            rows.append(r)
        return rows

    def event_rows(self) -> list[dict]:
        return [{**r, "size": r.get("size") or 0} for r in self._rows(self.events)]

    def is_example(self) -> bool:
        clean = lambda rows: json.dumps([{k: v for k, v in r.items() if v not in ("", None, False, 0)}
                                         for r in rows], sort_keys=True, default=str)
        return (clean(self.person_rows()) == clean(EXAMPLE_PERSONS)
                and clean(self.event_rows()) == clean(EXAMPLE_EVENTS)
                and {k: w.value for k, w in self.fortress.items()} == EXAMPLE_FORTRESS)

    def _check(self) -> None:
        if not len(self.persons.value):
            self.note.severity = "info"
            self.note.object = "Enter your cards from your own sheets, or load the example (fictional) cards."
            return
        try:
            persons, _ = cards_from_rows(self.person_rows(), self.event_rows())
            fortress_from_row({k: w.value for k, w in self.fortress.items()})
        except RuleError as exc:
            self.note.severity, self.note.object = "error", str(exc)
            return
        warnings = card_warnings(persons)
        if self.is_example():
            warnings = [LABEL + "."] + warnings
        self.note.severity = "warning" if warnings else "success"
        self.note.object = " ".join(warnings) or f"{len(self.persons.value)} persons and {len(self.events.value)} " \
                                                 "events: the cards are valid."

    def setup(self) -> dict:
        players = [p.strip() for p in self.players.value.split(",") if p.strip()]
        setup = {"players": players, "persons": self.person_rows(), "events": self.event_rows(),
                 "fortress": {k: w.value for k, w in self.fortress.items()}}
        if self.is_example():
            setup["example"] = LABEL
        return setup

    def __panel__(self):
        return self._layout


# --- this device's player, kept in the browser ------------------------------------------------------------

class DeviceSeat(JSComponent):
    """"This device is ...": the table or one player, chosen with big buttons and kept in the browser's
    localStorage under the session's key, so a reload keeps it and no other device (nor the saved session)
    ever learns it. The buttons are drawn here, from the stored choice, so nothing waits on the server."""

    seat = param.String(default="")
    key = param.String(default="")
    players = param.List(default=[])

    _esm = """
    export function render({ model, el }) {
      const stored = window.localStorage.getItem(model.key);
      if (stored !== null && stored !== model.seat && (stored === '' || model.players.includes(stored))) {
        model.seat = stored;
      }
      const draw = () => {
        el.innerHTML = '';
        const label = document.createElement('div');
        label.className = 'device-label';
        label.textContent = "This device is (kept in this browser only; a hand shows only on its player's device):";
        const row = document.createElement('div');
        row.className = 'device-row';
        for (const [text, value] of [['Table', ''], ...model.players.map((p) => [p, p])]) {
          const button = document.createElement('button');
          button.textContent = text;
          button.className = model.seat === value ? 'device on' : 'device';
          button.setAttribute('aria-pressed', String(model.seat === value));
          button.addEventListener('click', () => { model.seat = value; });
          row.appendChild(button);
        }
        el.append(label, row);
      };
      draw();
      model.on('seat', () => { window.localStorage.setItem(model.key, model.seat); draw(); });
    }
    """


# --- the shared table --------------------------------------------------------------------------------------

def person_text(state: GameState, name: str) -> str:
    p = state.person(name)
    plot = "" if p.plot is None else (f" P({p.plot})" if p.counter_only else f" P{p.plot}")
    kind = f' <span class="stars">{"★" * p.stars}</span>' if p.stars else (" air/ground" if p.fights else "")
    absent = " (absent)" if state.placed(name) and state.placed(name).absent else ""
    return f"{html.escape(name)}{kind} {p.strategy}/{p.attack}/{p.defence}{plot}{absent}"


def players_html(state: GameState) -> str:
    """Each player: cliques by camp with their persons, VP per camp, the hand's size (never its cards)."""
    boxes = []
    for seat, player in enumerate(state.players):
        rows = []
        for camp in CAMPS:
            mine = state.in_camp(camp, player)
            vp = state.vp_of(player, camp)
            if mine or vp:
                people = ", ".join(person_text(state, p.card) for p in mine) or "nobody in play"
                rows.append(f'<div class="clique"><span class="camp {camp}">{camp}</span>'
                            f'<span class="vp">{vp} VP</span> · {people}</div>')
        hand = len(state.hands[seat]) if state.hands else 0
        active = " active" if seat == state.active and state.phase not in ("deal", "draft", "place") else ""
        boxes.append(f'<div class="player{active}"><h4>{html.escape(player)} · hand {hand} '
                     f'card{"s" * (hand != 1)}</h4>{"".join(rows) or "<i>no persons in play</i>"}</div>')
    return f'<div class="players">{"".join(boxes)}</div>'


def facts_html(state: GameState, example: str = "") -> str:
    """Iserlohn, the decks, the flags (Ragnarok, Invasion, civil war, ceasefire) and the end monitors."""
    f = state.fortress
    holder = commander_player(state)
    card = f"Iserlohn S{f.card.strategy}/A{f.card.attack}/D{f.card.defence}, held by {f.controller}"
    commander = f"{f.commander} ({holder})" if f.commander else "vacant"
    garrison = ", ".join(f.garrison) or "none"
    corridor = "on" if corridor_active(state) else "off"
    deck = current_deck(state)
    decks = " · ".join(f"{i + 1}: {len(d)}" for i, d in enumerate(state.decks))
    war = ", ".join(f"{n} {state.civil_war[n]}" for n in (EMPIRE, ALLIANCE))
    facts = [f"{card}; commander {commander}; garrison {garrison}",
             f'<span class="badge {"on" if corridor == "on" else ""}">corridor rule {corridor}</span>',
             (f"Deck in play: {'period ' + str(deck + 1) if deck >= 0 else 'all spent'} (cards left {decks}); "
              f"discard {len(state.discard)}, destroyed {len(state.destroyed)}"),
             f'<span class="badge {"war" if "ongoing" in war else ""}">civil war: {war}</span>',
             f"Ragnarok {'has fired (+1)' if state.ragnarok else 'not yet'}",
             f"Invasion {'active, ' + str(state.invasion) + ' fleets' if state.invasion else 'not active'}"]
    if state.aside:
        facts.append(f"set aside: {', '.join(state.aside)}")
    if state.ceasefire_by:
        facts.append(f'<span class="badge war">ceasefire by {state.ceasefire_by}: {state.last_turn} takes the '
                     f'last turn</span>')
    reinhard = [p for p in state.persons if p.role == "reinhard"]
    if reinhard:
        name = reinhard[0].name
        where = "in play" if state.placed(name) else "destroyed" if name in state.destroyed else "not in play"
        facts.append(f"Reinhard ({name}): {where}")
    for nation in (EMPIRE, ALLIANCE):
        facts.append(f"{nation} ★★+ admirals: {len(senior_admirals(state, nation))}")
    label = f'<div class="example">{html.escape(example)}</div>' if example else ""
    return f'{label}<div class="facts">{"".join(f"<span>{x}</span>" for x in facts)}</div>'


def hand_html(state: GameState, player: str) -> str:
    """One player's own cards: hand, draft packet, secret placement (only ever on that player's device)."""
    if player not in state.players:
        return "<p>This device is the table: no hand is shown. Choose your name above on your own device.</p>"
    seat = state.seat(player)
    parts = []
    for title, cards in (("Hand", state.hands[seat] if state.hands else ()),
                         ("Draft packet in front of you", state.packets[seat] if state.packets else ()),
                         ("Chosen to place (secret)", state.placing[seat] if state.placing else ())):
        if cards or title == "Hand":
            items = "".join(f"<li>{card_line(state, c)}</li>" for c in cards) or "<li>no cards</li>"
            parts.append(f"<h4>{title} of {html.escape(player)}</h4><ul class='hand'>{items}</ul>")
    return "".join(parts)


def card_line(state: GameState, name: str) -> str:
    if state.is_person(name):
        p = state.person(name)
        rebel = f" [{p.rebel_camp}]" if p.rebel_camp else ""
        return f"{person_text(state, name)} · {p.camp}{rebel}, period {p.period}"
    e = state.event(name)
    size = f", size {e.size}" if e.size else ""
    return f"{html.escape(name)} · {e.kind.replace('_', ' ')}{size}, period {e.period}: {html.escape(e.text)}"


def battle_html(state: GameState) -> str:
    """Both sides in engagement order (strategy first), the SCs, who acts next, the running VP."""
    s = state.sortie
    if state.phase != BATTLE or s is None:
        return ""
    war = " · civil war: no kill VP" if s.civil_war else ""
    head = (f"<p><b>{s.attacker}</b> ({CAMP_NAMES[s.attacker]}) attacks <b>{s.defender}</b> "
            f"({CAMP_NAMES[s.defender]}), up to {s.size} fleet{'s' * (s.size != 1)} a side{war}</p>")
    if not s.units:
        return head
    nxt = set()
    if s.stage == "fight" and s.pending is None and not sc_ties(state, s) \
            and not fight.finished(s.units, s.field.status):
        nxt = set(fight.opportunity(s.units, s.field, rules_of_battle(state, s)).actors)
    columns = []
    for side in fight.SIDES:
        order = sorted(fight.on_side(s.units, side), key=lambda i: (-s.units[i].strategy, s.units[i].declaration, i))
        rows = []
        for i in order:
            u = s.units[i]
            status = s.field.status[i]
            kind = {"fleet": "★" * u.stars, "ground": "air/ground", "fortress": "fortress"}[u.kind]
            sc = ' <span class="sc">SC</span>' if s.field.sc[side] == i else ""
            cls = "next" if i in nxt else "gone" if status not in fight.PRESENT else ""
            rows.append(f'<tr class="{cls}"><td>{html.escape(u.name)}{sc}</td><td>{kind}</td>'
                        f'<td>{u.strategy}/{u.attack}/{u.defence}</td><td>{html.escape(u.owner)}</td>'
                        f'<td>{status}</td></tr>')
        title = f"{fight.SIDE_NAMES[side]}: {s.attacker if side == fight.ATTACKER else s.defender}"
        columns.append(f'<table class="sides"><tr><th colspan="5">{title}</th></tr>'
                       f'<tr><th>unit</th><th></th><th>S/A/D</th><th>player</th><th>status</th></tr>'
                       f'{"".join(rows)}</table>')
    now = ""
    if s.pending:
        now = f"<p>Waiting: the {s.pending.kind.replace('_', ' ')} of {html.escape(s.units[s.pending.actor].name)}'s " \
              f"{'retreat' if s.pending.kind == 'free_attack' else 'duel'}</p>"
    elif nxt:
        now = f"<p>Next opportunity: <b>{' or '.join(html.escape(s.units[i].name) for i in sorted(nxt))}</b></p>"
    owners = sorted({u.owner for u in s.units})
    running = " · ".join(f"{html.escape(p)}: {s.attacker} {state.vp_of(p, s.attacker)} VP, "
                         f"{s.defender} {state.vp_of(p, s.defender)} VP" for p in owners)
    return f"{head}{now}{''.join(columns)}<p>VP now: {running}</p>"


# --- the game view --------------------------------------------------------------------------------------

class GalacticChessView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.example = live.session.record.setup.get("example", "")
        self.seat = DeviceSeat(key=f"galactic_chess.seat.{live.session.id}", players=list(live.state.players),
                               stylesheets=[DEVICE_CSS], sizing_mode="stretch_width", margin=(5, 10),
                               css_classes=["device-seat"])
        self.seat.param.watch(lambda _: self._set_device(), "seat")
        self.facts = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["table-facts"])
        self.players = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["table-players"])
        self.hand = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["own-hand"])
        self.battle = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["battle-screen"])
        self.phase = pmui.Typography(variant="h6", css_classes=["phase-title"])
        self.odds = OddsPanel()
        self.log = EventLog(live)
        self._advice: dict[tuple, list] = {}
        self.policy = pmui.RadioButtonGroup(label="Policy for the rest of a battle", size="large",
                                            options={k.replace("_", " "): k for k in POLICIES}, value="greedy_kill",
                                            css_classes=["advice-policy"])
        live.param.watch(lambda _: self.render(), "version")
        self.guide = PhaseGuide(live, due_now, self._form, self.odds.clear, phase_title)
        self.tabs = lazy_tabs({"Play": [self.phase, self.battle, self.guide], "Table": [self.players],
                               "My hand": [self.hand, self._free_actions()], "Odds": [self._odds_tab()]})
        self.render()

    @property
    def me(self) -> str:
        """This device's player ("" for the table)."""
        return self.seat.seat if self.seat.seat in self.live.state.players else ""

    def _set_device(self) -> None:
        self.render()
        if self.guide.active is not None:
            self.guide.select(self.guide.active.action)   # the same step, its inputs redone for this device

    def render(self) -> None:
        s = self.live.state
        self.facts.object = facts_html(s, self.example)
        self.players.object = players_html(s)
        self.hand.object = hand_html(s, self.me)
        self.battle.object = battle_html(s)
        self.phase.object = phase_title(s)

    # --- forms ----------------------------------------------------------------------------------------
    def _form(self, action: str) -> StepForm:
        builders = {"deal_hand": self._deal_form, "draft_pick": self._draft_form, "place": self._place_form,
                    "roll_order": self._order_form, "trigger_set_aside": self._aside_form, "draw": self._draw_form,
                    "use_card": self._use_form, "discard": self._discard_form, "plot": self._plot_form,
                    "counter_plot": self._counter_form, "post_plot": self._post_form,
                    "garrison_plot": self._garrison_form, "sortie": self._sortie_form, "declare": self._declare_form,
                    "choose_sc": self._sc_form, "nominate": self._nominate_form, "roll_off": self._roll_off_form,
                    "engage": self._engage_form, "strike_back": self._strike_back_form, "retreat": self._retreat_form,
                    "free_attack": self._free_attack_form, "pass_opportunity": self._pass_form,
                    "extra_attack": self._extra_attack_form, "fortress_vs_fortress": self._fortress_card_form,
                    "end_turn": self._end_turn_form}
        return builders[action]() if action in builders else StepForm(action)

    def _select(self, label: str, css: str) -> pmui.Select:
        return pmui.Select(label=label, css_classes=[css], size="large", sizing_mode="stretch_width")

    @staticmethod
    def _fill(select, options, keep: bool = False) -> None:
        """New options; the value kept if still offered (keep), else the first."""
        options = list(options)
        value = select.value if keep and select.value in options else (options[0] if options else None)
        select.param.update(options=options, value=value)

    def _private(self) -> pmui.Alert:
        return pmui.Alert(severity="info", visible=False, sizing_mode="stretch_width", css_classes=["private-note"])

    def _owner_note(self, note: pmui.Alert, player: str, what: str) -> bool:
        """True when this device is the player's; else the note says where to do it."""
        mine = self.me == player
        note.object = "" if mine else (f"{what} on {player}'s own device (choose \"This device is {player}\" "
                                       "there): hands stay private.")
        note.visible = not mine
        return mine

    def _period_cards(self) -> list[str]:
        """Every card of the deck now drawn from: the list of the period, not what is left in it, which the engine
        offers for a card named from the table (what is left would tell what the other hands hold)."""
        s = self.live.state
        deck = current_deck(s)
        return [c.name for c in s.persons + s.events if c.period == deck + 1] if deck >= 0 else []

    def _deal_form(self) -> StepForm:
        cards = pmui.MultiChoice(label="The 6 cards you were dealt (empty: the companion deals)",
                                 sizing_mode="stretch_width", css_classes=["dealt-cards"])
        note = pmui.Typography(variant="body2", css_classes=["deal-note"])

        def who() -> str:
            s = self.live.state
            return self.me if self.me and not s.done[s.seat(self.me)] else ""

        def update():
            cards.options, cards.value = self._period_cards(), []
            cards.visible = bool(who())
            note.object = ("Deal your own hand: name the 6 cards, or let the companion deal them (only this device "
                           "shows them)." if who() else "The companion deals the next hand; its cards show only on "
                           "that player's own device.")

        def build():
            named = {"cards": list(cards.value)} if cards.value else {}   # none named: the companion deals
            return {"type": "deal_hand", "player": who(), **named}
        return StepForm("deal_hand", [cards], layout=[note, cards], update=update, build=build)

    def _draft_form(self) -> StepForm:
        card = self._select("The card you keep", "draft-card")
        note = self._private()

        def update():
            s = self.live.state
            mine = bool(self.me) and not s.done[s.seat(self.me)]
            self._fill(card, offered(s, "draft_pick", "card", player=self.me) if mine else [])
            note.object, note.visible = "Keep your card on your own device: packets are private.", not mine
        return StepForm("draft_pick", [card], layout=[note, card], update=update,
                        build=lambda: {"type": "draft_pick", "player": self.me, "card": card.value or ""})

    def _place_form(self) -> StepForm:
        persons = picker("Persons to place (secret until all have chosen)", "place-persons")
        note = self._private()

        def update():
            s = self.live.state
            mine = bool(self.me) and not s.done[s.seat(self.me)]
            persons.options = offered(s, "place", "cards", player=self.me) if mine else []
            persons.value = []
            note.object, note.visible = "Choose your placement on your own device.", not mine
        return StepForm("place", [persons], layout=[note, persons], update=update,
                        build=lambda: {"type": "place", "player": self.me, "cards": list(persons.value)})

    def _order_form(self) -> StepForm:
        return StepForm("roll_order", show=self._order_odds)

    def _order_odds(self) -> None:
        a = advice.order_advice(self.live.state)
        pairs = [(f"{k} fleet{'s' * (k != 1)}", p) for k, p in sorted(a.sizes.items())]
        self.odds.show("Order roll (GC-5)", [("P(forced sortie)", odds_text(a.forced)),
                                             ("mean sortie size", f"{float(a.mean):.2f} fleets")],
                       plots.outcome_bars(pairs, "Sortie size"))

    def _aside_form(self) -> StepForm:
        card = self._select("Set-aside event whose prerequisite now holds", "aside-card")
        return StepForm("trigger_set_aside", [card],
                        update=lambda: self._fill(card, offered(self.live.state, "trigger_set_aside", "card")),
                        build=lambda: {"type": "trigger_set_aside", "card": card.value or ""})

    def _draw_form(self) -> StepForm:
        card = self._select("The card drawn (empty: the companion draws it)", "drawn-card")
        met = switch("If it is a forced event: its prerequisite holds", True, "prerequisite-met")
        note = self._private()

        def asked(_=None):
            met.visible = choices(self.live.state, "draw", "prerequisite_met", card=card.value or "") is not None
        card.param.watch(asked, "value")

        def update():
            s = self.live.state
            mine = self._owner_note(note, s.player, "Name the card drawn")
            self._fill(card, [""] + (self._period_cards() if mine else []))
            card.visible = mine
            met.value = True
            asked()

        def build():
            action = {"type": "draw", "card": card.value or ""}
            return {**action, "prerequisite_met": met.value} if met.visible else action
        return StepForm("draw", [card, met], layout=[note, card, met], update=update, build=build)

    def _own_cards(self, cards: list) -> list[str]:
        """The cards offered that this device's player holds: hands are private, so a device shows only its own."""
        s = self.live.state
        return [c for c in cards if c in s.hand(self.me)] if self.me in s.players and s.hands else []

    def _use_form(self) -> StepForm:
        card = self._select("Card to use", "use-card")
        target = self._select("The person it names", "use-target")
        note = self._private()

        def retarget(_=None):
            names = choices(self.live.state, "use_card", "target", card=card.value) if card.value else None
            self._fill(target, names or [""], keep=True)
            target.visible = names is not None
        card.param.watch(retarget, "value")

        def update():
            s = self.live.state
            mine = self._owner_note(note, s.player, "Choose the card")
            self._fill(card, offered(s, "use_card", "card") if mine else [])
            retarget()
        return StepForm("use_card", [card, target], layout=[note, card, target], update=update,
                        build=lambda: {"type": "use_card", "card": card.value or "",
                                       "target": target.value if target.visible else ""})

    def _discard_form(self) -> StepForm:
        card = self._select("Card to discard (the hand is shown to all)", "discard-card")
        unmet = picker("Events whose prerequisite does not hold now", "discard-unmet")
        note = self._private()

        def update():
            s = self.live.state
            mine = self._owner_note(note, s.player, "Discard")
            self._fill(card, offered(s, "discard", "card") if mine else [])
            unmet.options = offered(s, "discard", "unmet") if mine else []
            unmet.value = list(unmet.options)
        return StepForm("discard", [card, unmet], layout=[note, card, unmet], update=update,
                        build=lambda: {"type": "discard", "card": card.value or "", "unmet": list(unmet.value)})

    def _plot_form(self) -> StepForm:
        plotter, target = self._select("Plotter", "plotter"), self._select("Target (same nation)", "plot-target")

        def retarget(_=None):
            self._fill(target, offered(self.live.state, "plot", "target", plotter=plotter.value) if plotter.value
                       else [], keep=True)
        plotter.param.watch(retarget, "value")

        def update():
            self._fill(plotter, offered(self.live.state, "plot", "plotter"))
            retarget()

        def show():
            try:
                odds = advice.plot_advice(self.live.state, plotter.value, target.value)
            except (RuleError, TypeError):
                return self.odds.clear()
            pairs = [(k, odds.get(k, Fraction(0))) for k in ("target destroyed", "plotter destroyed", "nothing")]
            self.odds.show("Plot and counter-plot (GC-6A.32, GC-6A.33a)", [(k, odds_text(p)) for k, p in pairs],
                           plots.outcome_bars(pairs, f"{plotter.value} plots against {target.value}"))
        return StepForm("plot", [plotter, target], update=update, show=show,
                        build=lambda: {"type": "plot", "plotter": plotter.value or "", "target": target.value or ""})

    def _counter_form(self) -> StepForm:
        def show():
            c = self.live.state.counter
            p = plot_chance(PlotRollInput(self.live.state.person(c.target).plot))
            self.odds.show("Counter-plot (GC-6A.33a)", [(f"P({c.plotter} destroyed)", odds_text(p))])
        return StepForm("counter_plot", show=show)

    def _post_chance(self, move: str, plotter) -> None:
        """The chance of a post move; certain when no plotter is asked (a vacant post, a free slot)."""
        s = self.live.state
        title = f"{'Commander post' if move == COMMANDER else 'Garrison'} (GC-7.{'12' if move == COMMANDER else '21'})"
        if plotter.visible and not plotter.value:
            self.odds.show(title, [("plot", "choose a plotter")])
            return
        rows = [("P(success)", odds_text(advice.post_advice(s, move, plotter.value if plotter.visible else "")))]
        self.odds.show(title, rows if plotter.visible else rows + [("plot", "none: no roll, no plotter")])

    def _post_form(self) -> StepForm:
        plotter, candidate = self._select("Plotter", "post-plotter"), self._select("New commander", "post-candidate")

        def update():
            s = self.live.state
            self._fill(candidate, offered(s, "post_plot", "candidate"))
            plotters = choices(s, "post_plot", "plotter", candidate=candidate.value)
            plotter.visible = plotters is not None
            self._fill(plotter, plotters or [""])

        def build():
            action = {"type": "post_plot", "candidate": candidate.value or ""}
            return {**action, "plotter": plotter.value or ""} if plotter.visible else action
        return StepForm("post_plot", [plotter, candidate], update=update, show=lambda: self._post_chance(COMMANDER, plotter),
                        build=build)

    def _garrison_form(self) -> StepForm:
        plotter = self._select("Plotter", "garrison-plotter")
        mode = pmui.RadioButtonGroup(label="Plot", options={"Dispatch a fleet": DISPATCH, "Release a fleet": RELEASE},
                                     value=DISPATCH, size="large", css_classes=["garrison-mode"])
        fleet = self._select("Fleet", "garrison-fleet")
        displace = self._select("Fleet it replaces (the garrison is full)", "garrison-displace")

        def chosen() -> dict:
            named = fleet.value or ""
            return {"dispatch": named, "release": ""} if mode.value == DISPATCH else {"dispatch": "", "release": named}

        def refill(_=None):
            s = self.live.state
            dispatch = offered(s, "garrison_plot", "dispatch")    # "": a release instead
            modes = {"Dispatch a fleet": DISPATCH} if any(dispatch) else {}
            modes.update({"Release a fleet": RELEASE} if "" in dispatch else {})
            mode.param.update(options=modes, value=mode.value if mode.value in modes.values() else
                              next(iter(modes.values()), DISPATCH))
            self._fill(fleet, [d for d in dispatch if d] if mode.value == DISPATCH else
                       offered(s, "garrison_plot", "release", dispatch=""), keep=True)
            replaced = choices(s, "garrison_plot", "displace", **chosen())
            displace.visible = replaced is not None
            self._fill(displace, replaced or [""], keep=True)
            plotters = choices(s, "garrison_plot", "plotter", **chosen(), displace=displace.value or "")
            plotter.visible = plotters is not None
            self._fill(plotter, plotters or [""], keep=True)
        mode.param.watch(refill, "value")

        def build():
            action = {"type": "garrison_plot", mode.value: fleet.value or ""}
            action.update({"displace": displace.value or ""} if displace.visible else {})
            return {**action, "plotter": plotter.value or ""} if plotter.visible else action

        def show():
            self._post_chance(mode.value, plotter)
        return StepForm("garrison_plot", [plotter, mode, fleet, displace], update=refill, show=show, build=build)

    # --- the sortie ---------------------------------------------------------------------------------------
    def _sortie_form(self) -> StepForm:
        camp, defender = self._select("Attacking camp", "sortie-camp"), self._select("Defending camp", "sortie-defender")

        def retarget(_=None):
            self._fill(defender, offered(self.live.state, "sortie", "defender", camp=camp.value) if camp.value else [],
                       keep=True)
        camp.param.watch(retarget, "value")

        def update():
            self._fill(camp, offered(self.live.state, "sortie", "camp"))
            retarget()

        def show():
            size = self.live.state.order.size
            text = f"{size} fleet{'s' * (size != '1')}" if size != GRAND else f"{GRAND} fleets, rolled now"
            cells = advice.duel_matrix(self._fleets_of(camp.value), self._fleets_of(defender.value)) \
                if camp.value and defender.value else []
            flat = [(c.theirs, c.mine, c.kill) for row in cells for c in row]
            figure = plots.heatmap(flat, f"P({camp.value} fleet destroys {defender.value} fleet) in one duel",
                                   defender.value, camp.value, "P(kill)") if flat else None
            self.odds.show("Sortie (GC-6B.11, GC-5)", [("each side commits up to", text)], figure,
                           note="The duel matrix of the two camps' admirals in play (GC-6B.5).")
        return StepForm("sortie", [camp, defender], update=update, show=show,
                        build=lambda: {"type": "sortie", "camp": camp.value or "", "defender": defender.value or ""})

    def _declare_form(self) -> StepForm:
        fleets = picker("Fleets (admirals)", "declare-fleets")
        others = picker("Air/ground units (only with a fleet)", "declare-others")
        fortress = switch("Iserlohn Fortress joins as a fleet", css="declare-fortress")

        def update():
            s = self.live.state
            b = s.sortie
            fleets.options = offered(s, "declare", "fleets")
            others.options = offered(s, "declare", "others")
            fleets.value, others.value, fortress.value = [], [], False
            fleets.label = f"{s.players[b.declarer]}'s {b.attacker if b.stage == 'attack' else b.defender} fleets " \
                           "(admirals)"
            others.visible = bool(others.options)
            fortress.visible = choices(s, "declare", "fortress", fleets=[], others=[]) is not None

        def build():
            action = {"type": "declare", "fleets": list(fleets.value), "others": list(others.value)}
            return {**action, "fortress": fortress.value} if fortress.visible else action
        return StepForm("declare", [fleets, others, fortress], update=update, build=build)

    def _sc_form(self) -> StepForm:
        unit = self._select("Supreme commander", "sc-unit")

        def update():
            self._fill(unit, offered(self.live.state, "choose_sc", "unit"))
        return StepForm("choose_sc", [unit], update=update, build=lambda: {"type": "choose_sc", "unit": unit.value or ""})

    def _nominate_form(self) -> StepForm:
        player = self._select("First defender", "nominee")

        def update():
            self._fill(player, offered(self.live.state, "nominate", "player"))
        return StepForm("nominate", [player], update=update,
                        build=lambda: {"type": "nominate", "player": player.value or ""})

    def _roll_off_form(self) -> StepForm:
        return StepForm("roll_off", show=lambda: self.odds.show(
            "Order roll-off (GC-6B.4r)", [("each SC wins it", odds_text(Fraction(1, 2)))]))

    # --- the engagement, with the target advice ----------------------------------------------------------
    def target_advice(self, actor: str) -> list:
        """The advice for the actor (cached per session version): each target and retreating."""
        key = (self.live.version, self.live.session.id, actor, self.policy.value)
        if key not in self._advice:
            self._advice = {key: advice.target_advice(self.live.state, actor, self.policy.value, ADVICE_TRIALS,
                                                      exact_max=ADVICE_EXACT_MAX)}
        return self._advice[key]

    def _engage_form(self) -> StepForm:
        actor = pmui.RadioButtonGroup(label="Acting unit", size="large", css_classes=["engage-actor"])
        target = pmui.RadioButtonGroup(label="Target", size="large", css_classes=["engage-target"])
        table = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["target-advice"])
        support = self._select("Battle-support card on this duel (optional)", "engage-support")
        support_for = pmui.RadioButtonGroup(label="It modifies the roll of", options={"the actor": "actor",
                                            "the target": "target"}, value="actor", size="large")
        modifier = pmui.IntInput(label="The card's modifier (signed)", value=0, size="large", width=220,
                                 css_classes=["support-modifier"])
        extra = picker("Double-Headed Snake: the units joining the attack (2 at most)", "engage-extra")

        def rejoin(_=None):
            s = self.live.state
            duel = {"actor": actor.value, "target": target.value}
            cards = self._own_cards(offered(s, "engage", "support", **duel)) if all(duel.values()) else []
            self._fill(support, [""] + cards, keep=True)
            support.visible = support_for.visible = modifier.visible = bool(cards)
            joining = choices(s, "engage", "extra", **duel, support=support.value or "") if support.value else None
            extra.options = joining or []
            extra.value = [v for v in extra.value if v in extra.options]
            extra.visible = joining is not None

        def retarget(_=None):
            names = offered(self.live.state, "engage", "target", actor=actor.value) if actor.value else []
            target.param.update(options=names, value=target.value if target.value in names else
                                (self._best(actor.value) or (names[0] if names else None)))
            table.object = self._advice_html(actor.value)
            rejoin()
        actor.param.watch(retarget, "value")
        target.param.watch(rejoin, "value")
        support.param.watch(rejoin, "value")

        def update():
            actors = offered(self.live.state, "engage", "actor")
            actor.param.update(options=actors, value=actors[0] if actors else None)
            support.value = ""
            modifier.value = 0
            retarget()

        def show():
            rows = self._rows_or_none(actor.value)
            chosen = next((r for r in rows or () if r.move == "engage" and r.target == target.value), None)
            if chosen is None:
                return self.odds.clear()
            b = self.live.state.sortie
            x, y = actor.value, target.value
            names = {DuelOutcome(False, True): f"{y} destroyed", DuelOutcome(True, False): f"{x} destroyed",
                     DuelOutcome(True, True): "both destroyed", DuelOutcome(False, False): "nobody destroyed"}
            pairs = [(names[o], chosen.outcome.get(o, Fraction(0))) for o in names]
            side = next(u.side for u in b.units if u.name == x)
            moves = [(r.target or "retreat", as_fraction(r.wins)) for r in rows]
            first = {"actor": f"{x} strikes first", "target": f"{y} strikes first", "both": "both strike at once"}
            self.odds.show(
                f"{x} engages {y} (GC-6B.5)",
                [(p[0], odds_text(p[1])) for p in pairs if p[1]] +
                [("who strikes first", first[chosen.first]),
                 (f"P({fight.SIDE_NAMES[side]} sweeps the field)", estimate_text(chosen.wins)),
                 (f"E[VP] of {next(u.owner for u in b.units if u.name == x)}", f"{float(chosen.vp):.2f}")],
                plots.outcome_bars([(k, v) for k, v in pairs if v], "This duel (exact)"),
                note=self._policy_note(chosen.exact),
                second=plots.outcome_bars(moves,
                                          f"P({fight.SIDE_NAMES[side]} sweeps) after each choice"),
                second_title="The rest of the battle, by choice")

        def build():
            action = {"type": "engage", "actor": actor.value or "", "target": target.value or ""}
            if support.visible and support.value:
                action.update(support=support.value, support_for=support_for.value, modifier=modifier.value or 0)
            if extra.visible:
                action["extra"] = list(extra.value)
            return action
        return StepForm("engage", [actor, target, support, support_for, modifier, extra],
                        layout=[actor, table, target, support, support_for, modifier, extra], update=update, show=show,
                        build=build)

    def _rows_or_none(self, actor: str | None):
        if not actor:
            return None
        try:
            return self.target_advice(actor)
        except RuleError:
            return None

    def _best(self, actor: str | None) -> str | None:
        """The target giving the actor's side the best chance to sweep the field."""
        rows = [r for r in self._rows_or_none(actor) or () if r.move == "engage"]
        return max(rows, key=lambda r: value_of(r.wins)).target if rows else None

    def _policy_note(self, exact: bool) -> str:
        how = "exact" if exact else (f"estimated from {ADVICE_TRIALS:,} simulated battles (more than "
                                     f"{ADVICE_EXACT_MAX} units), with its 95% interval")
        return f"The rest of the battle is played by the policy: {POLICIES[self.policy.value]}; {how}."

    def _advice_html(self, actor: str | None) -> str:
        rows = self._rows_or_none(actor)
        if not rows:
            return ""
        best = max(rows, key=lambda r: value_of(r.wins))
        out = []
        for r in rows:
            kill = sum((p for o, p in r.outcome.items() if getattr(o, "target_destroyed", False)), Fraction(0))
            lost = sum((p for o, p in r.outcome.items() if getattr(o, "actor_destroyed", False)), Fraction(0))
            if r.move == "retreat":
                kill, lost = r.outcome.get("retreated", Fraction(0)), r.outcome.get("destroyed", Fraction(0))
            move = f"engage {html.escape(r.target)}" if r.move == "engage" else "retreat (P: gets away)"
            cls = ' class="best"' if r is best else ""
            out.append(f"<tr{cls}><td>{move}</td><td>{r.first or '-'}</td><td>{odds_text(kill)}</td>"
                       f"<td>{odds_text(lost)}</td><td>{estimate_text(r.wins)}</td><td>{float(r.vp):.2f}</td></tr>")
        return ('<table class="advice"><tr><th>choice</th><th>first strike</th><th>P(kill)</th><th>P(lost)</th>'
                '<th>P(sweep the field)</th><th>E[VP]</th></tr>' + "".join(out) + "</table>"
                f"<p><small>{html.escape(self._policy_note(rows[0].exact))}</small></p>")

    def _strike_back_form(self) -> StepForm:
        def show():
            b = self.live.state.sortie
            p = b.pending
            back = p.actor if b.units[p.actor].strategy < b.units[p.target].strategy else p.target
            victim = p.target if back == p.actor else p.actor
            chance = hit_chance(fight.free_attack(b.units, back, victim, p.modifier))
            self.odds.show("Strike back (GC-6B.5)", [(f"P({b.units[victim].name} destroyed)", odds_text(chance))])
        return StepForm("strike_back", show=show)

    def _extra_attack_form(self) -> StepForm:
        def show():
            b = self.live.state.sortie
            p = b.pending
            chance = hit_chance(fight.free_attack(b.units, p.extra[0], p.target))
            self.odds.show("Double-Headed Snake (GC-11)", [(f"P({b.units[p.target].name} destroyed)", odds_text(chance))])
        return StepForm("extra_attack", show=show)

    def _fortress_card_form(self) -> StepForm:
        card = self._select("Your Fortress vs Fortress card", "fortress-card")
        lost = picker("Units its check destroyed (as the card says)", "fortress-card-lost")
        by = self._select("Whose roll destroyed them (for the VP; none if no unit's)", "fortress-card-by")
        note = self._private()

        def killers(_=None):
            names = choices(self.live.state, "fortress_vs_fortress", "by", destroyed=list(lost.value))
            self._fill(by, names or [""], keep=True)
            by.visible = names is not None
        lost.param.watch(killers, "value")

        def update():
            s = self.live.state
            mine = bool(self.me)
            note.object, note.visible = "Play it from your own device: hands are private.", not mine
            self._fill(card, self._own_cards(offered(s, "fortress_vs_fortress", "card")))
            lost.options = offered(s, "fortress_vs_fortress", "destroyed")
            lost.value = []
            killers()

        def build():
            action = {"type": "fortress_vs_fortress", "card": card.value or "", "destroyed": list(lost.value)}
            return {**action, "by": by.value or ""} if by.visible else action
        return StepForm("fortress_vs_fortress", [card, lost, by], layout=[note, card, lost, by], update=update,
                        build=build)

    def _retreat_form(self) -> StepForm:
        actor = pmui.RadioButtonGroup(label="Retreating unit", size="large", css_classes=["retreat-actor"])

        def update():
            actors = offered(self.live.state, "retreat", "actor")
            actor.param.update(options=actors, value=actors[0] if actors else None)

        def show():
            try:
                r = advice.retreat_advice(self.live.state, actor.value)
            except RuleError:
                return self.odds.clear()
            pairs = [("gets away", r.retreats), ("stays", r.stays), ("destroyed", r.destroyed)]
            self.odds.show(f"{actor.value} retreats: 2d6 ≤ {r.threshold} (GC-6B.6)",
                           [(k, odds_text(p)) for k, p in pairs] + [("free attack by", r.shooter or "nobody")],
                           plots.outcome_bars(pairs, "Retreat"))
        return StepForm("retreat", [actor], update=update, show=show,
                        build=lambda: {"type": "retreat", "actor": actor.value or ""})

    def _free_attack_form(self) -> StepForm:
        shooter = self._select("Unit making the free attack (the enemy SC picks)", "free-shooter")

        def able() -> list[str]:
            return offered(self.live.state, "free_attack", "shooter")

        def update():
            self._fill(shooter, able())

        def show():
            b = self.live.state.sortie
            index = {u.name: i for i, u in enumerate(b.units)}
            rows = [(name, hit_chance(fight.free_attack(b.units, index[name], b.pending.actor))) for name in able()]
            self.odds.show(f"Free attack on {b.units[b.pending.actor].name} (GC-6B.6)",
                           [(f"P({name} destroys it)", odds_text(p)) for name, p in rows])
        return StepForm("free_attack", [shooter], update=update, show=show,
                        build=lambda: {"type": "free_attack", "shooter": shooter.value or ""})

    def _pass_form(self) -> StepForm:
        actor = pmui.RadioButtonGroup(label="Unit letting its opportunity go", size="large", css_classes=["pass-actor"])

        def update():
            actors = offered(self.live.state, "pass_opportunity", "actor")
            actor.param.update(options=actors, value=actors[0] if actors else None)
        return StepForm("pass_opportunity", [actor], update=update,
                        build=lambda: {"type": "pass_opportunity", "actor": actor.value or ""})

    def _end_turn_form(self) -> StepForm:
        def show():
            s = self.live.state
            stars = stars_by_camp(s)
            numbers = [(f"{n} ★★+ admirals", str(len(senior_admirals(s, n)))) for n in (EMPIRE, ALLIANCE)]
            numbers += [(f"★ in play, {c}", str(stars[c])) for c in CAMPS if stars[c]]
            if s.last_turn:
                numbers.append(("last turn of the ceasefire", s.last_turn))
            self.odds.show("End check (GC-9.0)", numbers, note="The game ends after this turn if Reinhard has fallen "
                           "(GC-9.11), a nation has no ★★+ admiral (GC-9.12) or the ceasefire round is over (GC-9.13).")
        return StepForm("end_turn", show=show)

    # --- free actions: response cards, Castrop, the return from an Inquiry ----------------------------------
    def _free_actions(self):
        kind = pmui.RadioButtonGroup(label="A free action (costs no turn)", size="large", css_classes=["free-kind"],
                                     options={"Response card": "respond", "Castrop Rebellion": "castrop",
                                              "Return from the Inquiry": "return_from_inquiry"}, value="respond")
        card = self._select("Card from your hand", "free-card")
        target = self._select("Admiral or person it names", "free-target")

        def retarget(_=None):
            s = self.live.state
            if kind.value == "return_from_inquiry":
                names = offered(s, "return_from_inquiry", "person") if ENGINE.actions.specs[kind.value].is_open(s) \
                    else []
            else:
                names = choices(s, "respond", "target", card=card.value) if kind.value == "respond" and card.value \
                    else None
            self._fill(target, names or [""], keep=True)
            target.visible = names is not None

        def refill(_=None):
            s = self.live.state
            open_now = kind.value != "return_from_inquiry" and ENGINE.actions.specs[kind.value].is_open(s)
            self._fill(card, self._own_cards(offered(s, kind.value, "card")) if open_now else [], keep=True)
            card.visible = kind.value != "return_from_inquiry"
            retarget()
            panel.refresh()

        def build():
            if kind.value == "return_from_inquiry":
                return {"type": "return_from_inquiry", "person": target.value or ""}
            action = {"type": kind.value, "card": card.value or ""}
            return {**action, "target": target.value or ""} if target.visible else action
        panel = ActionPanel(self.live, "Do it now", build)
        for w in (kind, card, target):
            w.param.watch(lambda _: panel.refresh(), "value")
        card.param.watch(retarget, "value")
        kind.param.watch(refill, "value")
        self.live.param.watch(refill, "version")
        self.seat.param.watch(refill, "seat")
        refill()
        return pmui.Column(pmui.Typography("Free actions from your hand (GC-11)", variant="h6"), kind, card, target,
                           panel, sizing_mode="stretch_width", css_classes=["free-actions"])

    # --- the odds tab: duel matrix, order roll, provisional scores --------------------------------------------
    def _odds_tab(self):
        self.policy.param.watch(lambda _: self.guide.render(), "value")
        mine, theirs = self._select("Fleets of", "matrix-mine"), self._select("against fleets of", "matrix-theirs")
        matrix = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=320, linked_axes=False)
        box = pmui.Column(matrix, sizing_mode="stretch_width", visible=False)
        note = pmui.Typography(variant="body2", css_classes=["matrix-note"])
        scores = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["provisional"])

        def draw(_=None):
            cells = advice.duel_matrix(self._fleets_of(mine.value), self._fleets_of(theirs.value)) \
                if mine.value else []
            flat = [(c.theirs, c.mine, c.kill) for row in cells for c in row]
            box.visible = bool(flat)
            note.object = ("Each cell: the chance the row's fleet destroys the column's in one duel, whoever engages "
                           "(GC-6B.5); the higher strategy strikes first." if flat else
                           "No fleets of these camps are in play.")
            if flat:
                matrix.object = plots.heatmap(flat, f"P({mine.value} fleet destroys {theirs.value} fleet)",
                                              theirs.value, mine.value, "P(kill)")
            s = self.live.state
            rows = "".join(f"<tr><td>{c}</td>" + "".join(f"<td>{o.scores[p]}</td>" for p in s.players) + "</tr>"
                           for c, o in provisional(s).items())
            scores.object = ("<h4>If the game ended now, with this camp winning (GC-9.2)</h4><table class='sides'>"
                             "<tr><th>camp</th>" + "".join(f"<th>{html.escape(p)}</th>" for p in s.players) + "</tr>"
                             + rows + "</table>")

        def camps(_=None):
            s = self.live.state
            present = [c for c in CAMPS if s.in_camp(c)] or list(CAMPS[:2])
            if s.phase == BATTLE and s.sortie:
                mine.param.update(options=present, value=s.sortie.attacker if s.sortie.attacker in present else present[0])
                theirs.param.update(options=present, value=s.sortie.defender if s.sortie.defender in present
                                    else present[-1])
            else:
                self._fill(mine, present, keep=True)
                rival = next((c for c in present if c not in (mine.value, FEZ)), present[-1])
                theirs.param.update(options=present, value=theirs.value if theirs.value in present else rival)
            draw()
        mine.param.watch(draw, "value")
        theirs.param.watch(draw, "value")
        self.live.param.watch(camps, "version")
        camps()
        return pmui.Column(self.policy, pmui.Typography("Duel matrix", variant="h6"), pmui.Row(mine, theirs), note,
                           box, scores, sizing_mode="stretch_width", css_classes=["odds-tab"])

    def _fleets_of(self, camp: str) -> list[tuple[str, Fighter]]:
        """A camp's fleets for the duel matrix: those present in the battle being fought, else its admirals in
        play (absent ones too: the matrix is about their cards)."""
        s = self.live.state
        b = s.sortie
        if s.phase == BATTLE and b and b.stage == "fight" and camp in (b.attacker, b.defender):
            side = fight.ATTACKER if camp == b.attacker else fight.DEFENDER
            return [(b.units[i].name, b.units[i].fighter) for i in fight.present(b.units, b.field.status, side)]
        return [(p.card, Fighter(s.person(p.card).strategy, s.person(p.card).attack, s.person(p.card).defence))
                for p in s.in_camp(camp) if s.person(p.card).admiral]

    def __panel__(self):
        top = pmui.Column(self.facts, self.seat, sizing_mode="stretch_width")
        return pmui.Column(top, two_columns(self.tabs, pmui.Column(self.odds, self.log)), sizing_mode="stretch_width")


def page():
    return app_page(ENGINE, CardEditor, GalacticChessView)


if pn.state.served:
    extension("tabulator")
    page().servable(title=ENGINE.title)
