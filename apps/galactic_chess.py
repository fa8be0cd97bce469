"""Galactic Chess Game dashboard: the table (cliques, VP, hand sizes, Iserlohn, decks, civil war), this device's seat
and hand, the turn guide, the battle screen with target advice, the odds and the log. Hands are private: a device
holds a player's seat (companion.ui.seats) and its forms offer what that seat may know (the engine's `known_to`).
Every number shown comes from an engine call. Serve it with `companion serve` (or `panel serve` this file).
"""
from __future__ import annotations

from fractions import Fraction
from functools import partial

import panel as pn
import panel_material_ui as pmui

import engines
from companion import plots
from companion.engine import RuleError
from companion.ui.choice import TapChoice
from companion.ui.controls import OddsPanel, lazy_tabs, odds_text, two_columns
from companion.ui.forms import SpecStep
from companion.ui.guide import PhaseGuide
from companion.ui.live import LiveSession
from companion.ui.log import EventLog
from companion.ui.records import CHOICE, FLAG, NUMBER, TEXT, Column, RecordTable, SetupFile
from companion.ui.seats import SeatPanel
from companion.ui.shell import serve_app
from companion.ui.text import Note, Text, escape, plain
from companion.ui.theme import TOUCH
from engines.galactic_chess import advice
from engines.galactic_chess import battle as fight
from engines.galactic_chess.cards import card_warnings, cards_from_rows, read_card_file, read_setup_file
from engines.galactic_chess.duel import DuelOutcome
from engines.galactic_chess.ending import provisional, senior_admirals, stars_by_camp
from engines.galactic_chess.example import EXAMPLE_EVENTS, EXAMPLE_FORTRESS, EXAMPLE_PERSONS, LABEL
from engines.galactic_chess.fighting import next_actors
from engines.galactic_chess.fortress import COMMANDER, DISPATCH, RELEASE, commander_player, corridor_active
from engines.galactic_chess.guide import due_now, free_steps, phase_title
from engines.galactic_chess.interval import Estimate, share
from engines.galactic_chess.outlook import TRIALS
from engines.galactic_chess.plots import PlotRollInput, plot_chance
from engines.galactic_chess.policy import POLICIES
from engines.galactic_chess.rolloff import RollOffInput, roll_off_odds
from engines.galactic_chess.rules import ALLIANCE, CAMP_NAMES, CAMPS, EFFECTS, EMP, EMPIRE, EVENT_KINDS, FEZ, FPA, \
    MCSR, NOBLE, ROLES
from engines.galactic_chess.state import BATTLE, GameState, known_to
from engines.galactic_chess.table import current_deck

ENGINE = engines.get("galactic_chess")
ADVICE_EXACT_MAX = 8        # units: a tap must stay quick on a tablet; larger battles are estimated
ADVICE_TRIALS = TRIALS
FLAGS, NUMBERS = ("counter_only", "fights", "never_changes_camp"), ("period", "stars", "strategy", "attack", "defence")
OPTIONAL = ("rebel_camp", "plot", "role", "special", "size", "prerequisite", "text")
LISTS = {"camp": [EMP, FPA, FEZ], "rebel_camp": ["", NOBLE, MCSR], "role": list(ROLES), "kind": list(EVENT_KINDS),
         "effect": list(EFFECTS)}
DEFAULTS = {"kind": "event", "effect": "none", "camp": EMP, **{n: int(n == "period") for n in NUMBERS}}
TABLES = {kind: [Column(key, key.replace("_", " "), FLAG if key in FLAGS else NUMBER if key in (*NUMBERS, "plot", "size")
                        else CHOICE if key in LISTS else TEXT, LISTS.get(key, ()), key in OPTIONAL, DEFAULTS.get(key))
                 for key in keys] for kind, keys in (
    ("persons", ("name", "period", "camp", "rebel_camp", "stars", "strategy", "attack", "defence", "plot", *FLAGS,
                 "role", "special")),
    ("events", ("name", "period", "kind", "effect", "size", "prerequisite", "text")),
    ("fortress", ("strategy", "attack", "defence")))}
EXAMPLE = {"persons": EXAMPLE_PERSONS, "events": EXAMPLE_EVENTS, "fortress": EXAMPLE_FORTRESS}
CSS = """
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
small { font-size: 14px; }
.players, .facts { display: flex; flex-wrap: wrap; gap: 6px 12px; font-size: 16px; margin: 6px 0; }
.player { flex: 1 1 330px; border: 1px solid rgba(128,128,128,.4); border-radius: 8px; padding: 6px 10px; }
.player.active { border: 2px solid #0072B2; } .player h4 { margin: 2px 0 4px; font-size: 17px; }
.camp { display: inline-block; min-width: 52px; font-weight: 700; } .stars { color: #E69F00; }
.badge { border-radius: 10px; padding: 0 8px; border: 1px solid rgba(128,128,128,.6); } .hand li { font-size: 16px; }
table.sides { border-collapse: collapse; width: 100%; font-size: 16px; } .sides .gone { opacity: .5; }
.sides td, .sides th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left; }
.sides .next { background: rgba(0,114,178,.2); font-weight: 700; } .sides .sc { background: #E69F00; color: #000; }
"""


def estimate_text(p: Fraction | Estimate) -> str:
    """An exact chance as percent and fraction; an estimate with its 95% interval."""
    if isinstance(p, Estimate):
        low, high = p.interval
        return f"≈{plots.percent(p.value)} (est. {plots.percent(low)}–{plots.percent(high)})"
    return odds_text(p) if Fraction(p).denominator <= 6 ** 6 else f"{plots.percent(p)} (exact)"


# --- the cards entered from the players' sheets ------------------------------------------------------------

class CardEditor(pn.viewable.Viewer):
    """The players, then the persons, events and the Iserlohn card from the players' own printed sheets (digest
    section 10): typed in the tables (companion.ui.records), or a setup or card file (JSON or YAML) pasted or opened,
    and the setup saved as a file; or the labelled example. Whatever is entered is read by the engine's reader
    (bounded, then every card checked)."""

    def __init__(self, **params):
        super().__init__(**params)
        self.players = pmui.TextInput(label="Players, clockwise from the first player (3 to 5 names)",
                                      placeholder="Ann, Ben, Cat", sizing_mode="stretch_width",
                                      css_classes=["players-input"])
        self.tables = {kind: RecordTable(columns, what, f"{kind}-table", height=90 if kind == "fortress" else 260)
                       for (kind, columns), what in zip(TABLES.items(), ("person", "new event", "fortress card"))}
        self.tables["fortress"].set_rows([{}])
        for kind in ("persons", "events"):
            self.tables[kind].table.widths = {"name": 220}     # a card's whole name, not cut to its first letters
        self.note = Note(severity="info", sizing_mode="stretch_width", css_classes=["cards-note"])
        self.file = SetupFile(read_setup_file, self.setup_entered, self.load, "galactic_chess-setup.json", self.note)
        self._quiet, self._example = False, None
        self.players.param.watch(lambda _: self._changed(), "value")
        for table in self.tables.values():
            table.on_change(self._changed)
        example = pmui.Button(label="Load the example (fictional) cards", variant="outlined",
                              css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.set_cards(EXAMPLE, self.players.value.strip() or "Ann, Ben, Cat"))
        titles = {"persons": "Persons (from your card sheets)", "events": "Events", "fortress": "Iserlohn Fortress"}
        self._layout = pn.Column(self.players, example, self.note, *(x for kind in TABLES for x in (
            Text(titles[kind], variant="h6"),
            self.tables[kind].table if kind == "fortress" else self.tables[kind])), self.file,
            sizing_mode="stretch_width")
        self._check()

    def rows(self, kind: str) -> list[dict]:
        """A table's rows as plain values (companion.ui.records: a number typed as text is a number)."""
        return self.tables[kind].rows()

    def cards(self) -> dict:
        return {"persons": self.rows("persons"), "events": self.rows("events"),
                "fortress": (self.rows("fortress") or [{}])[0]}

    def set_cards(self, cards: dict, players: str | None = None) -> None:
        """All the cards at once (and the players, when given), checked once."""
        self._quiet = True
        try:
            self.players.value = self.players.value if players is None else players
            for kind in TABLES:
                self.tables[kind].set_rows([cards[kind] or {}] if kind == "fortress" else cards[kind])
            self._example = self.cards() if cards is EXAMPLE else self._example
        finally:
            self._quiet = False
        self._check()

    def setup_entered(self) -> dict:
        """The setup as the page holds it (also while incomplete): what "Save this setup as a file" writes."""
        return {"players": [p.strip() for p in self.players.value.split(",") if p.strip()], **self.cards()}

    def load(self, setup: dict) -> None:
        """A setup file (or a card file: the players stay) opened or pasted, or the page as it was."""
        self.set_cards(setup, ", ".join(setup["players"]) if setup.get("players") else None)

    def _changed(self) -> None:
        if not self._quiet:
            self._check()

    def _check(self) -> None:
        if not self.rows("persons"):
            return self.note.param.update(severity="info", object=plain(
                "Enter your cards from your own sheets, open your setup file, or load the example (fictional) cards."))
        try:
            read_card_file(self.cards())
            persons, events = cards_from_rows(self.rows("persons"), self.rows("events"))
        except RuleError as exc:
            return self.note.param.update(severity="error", object=plain(exc))
        warnings = ([LABEL + "."] if self.cards() == self._example else []) + card_warnings(persons)
        self.note.param.update(severity="warning" if warnings else "success", object=plain(
            " ".join(warnings) or f"{len(persons)} persons and {len(events)} events: the cards are valid."))

    def setup(self) -> dict:
        setup = {"players": self.setup_entered()["players"], **read_card_file(self.cards())}
        return {**setup, "example": LABEL} if self.cards() == self._example else setup

    def __panel__(self):
        return self._layout


# --- the shared table --------------------------------------------------------------------------------------

def person_text(state: GameState, name: str) -> str:
    p = state.person(name)
    plot = "" if p.plot is None else (f" P({p.plot})" if p.counter_only else f" P{p.plot}")
    kind = f' <span class="stars">{"★" * p.stars}</span>' if p.stars else (" air/ground" if p.fights else "")
    absent = " (absent)" if state.placed(name) and state.placed(name).absent else ""
    return f"{escape(name)}{kind} {p.strategy}/{p.attack}/{p.defence}{plot}{absent}"


def players_html(state: GameState) -> str:
    """Each player: cliques by camp with their persons, VP per camp, the hand's size (never its cards)."""
    boxes = []
    for seat, player in enumerate(state.players):
        rows = [f'<div><span class="camp">{camp}</span><b>{state.vp_of(player, camp)} VP</b> · '
                f'{", ".join(person_text(state, p.card) for p in state.in_camp(camp, player)) or "nobody"}</div>'
                for camp in CAMPS if state.in_camp(camp, player) or state.vp_of(player, camp)]
        n, active = len(state.hands[seat]), seat == state.active and state.phase not in ("deal", "draft", "place")
        boxes.append(f'<div class="player{" active" * active}"><h4>{escape(player)} · hand {n} card{"s" * (n != 1)}'
                     f'</h4>{"".join(rows) or "<i>no persons in play</i>"}</div>')
    return f'<div class="players">{"".join(boxes)}</div>'


def facts_html(s: GameState, example: str = "") -> str:
    """Iserlohn, the decks, the flags (Ragnarok, Invasion, civil war, ceasefire) and the end monitors."""
    f, deck = s.fortress, current_deck(s)
    facts = [f"Iserlohn S{f.card.strategy}/A{f.card.attack}/D{f.card.defence}, held by {f.controller}; commander "
             f"{f'{f.commander} ({commander_player(s)})' if f.commander else 'vacant'}; garrison "
             f"{', '.join(f.garrison) or 'none'}", f"corridor rule {'on' if corridor_active(s) else 'off'}",
             f"Deck in play: {'period ' + str(deck + 1) if deck >= 0 else 'all spent'} (cards left "
             f"{' · '.join(f'{i + 1}: {len(d)}' for i, d in enumerate(s.decks))}); discard {len(s.discard)}, "
             f"destroyed {len(s.destroyed)}", f"civil war: {EMPIRE} {s.civil_war[EMPIRE]}, {ALLIANCE} "
             f"{s.civil_war[ALLIANCE]}", f"Ragnarok {'has fired (+1)' if s.ragnarok else 'not yet'}",
             f"Invasion {f'active, {s.invasion} fleets' if s.invasion else 'not active'}",
             *([f"set aside: {', '.join(s.aside)}"] if s.aside else []),
             *([f"ceasefire by {s.ceasefire_by}: {s.last_turn} takes the last turn"] if s.ceasefire_by else []),
             *(f"Reinhard ({p.name}): " + ("in play" if s.placed(p.name) else "destroyed" if p.name in s.destroyed
                                           else "not in play") for p in s.persons if p.role == "reinhard"),
             *(f"{nation} ★★+ admirals: {len(senior_admirals(s, nation))}" for nation in (EMPIRE, ALLIANCE))]
    label = f'<div class="example">{escape(example)}</div>' if example else ""
    return f'{label}<div class="facts">{"".join(f"<span class=badge>{escape(x)}</span>" for x in facts)}</div>'


def hand_html(state: GameState, player: str) -> str:
    """One player's own cards: hand, draft packet, secret placement (only on the device holding the seat)."""
    if player not in state.players:
        return "<p>This device is the table: no hand is shown. Take your seat above on your own device.</p>"
    seat = state.seat(player)
    return "".join(f"<h4>{title} of {escape(player)}</h4><ul class='hand'>"
                   f"{''.join(f'<li>{card_line(state, c)}</li>' for c in piles[seat]) or '<li>no cards</li>'}</ul>"
                   for title, piles in (("Hand", state.hands), ("Draft packet in front of you", state.packets),
                                        ("Chosen to place (secret)", state.placing))
                   if title == "Hand" or (piles and piles[seat]))


def card_line(state: GameState, name: str) -> str:
    if state.is_person(name):
        p = state.person(name)
        return f"{person_text(state, name)} · {p.camp}{f' [{p.rebel_camp}]' * bool(p.rebel_camp)}, period {p.period}"
    e = state.event(name)
    return (f"{escape(name)} · {e.kind.replace('_', ' ')}{f', size {e.size}' * bool(e.size)}, period {e.period}: "
            f"{escape(e.text)}")


def battle_html(state: GameState) -> str:
    """Both sides in engagement order (strategy first), the SCs, who acts next, the running VP."""
    s = state.sortie
    if state.phase != BATTLE or s is None:
        return ""
    head = (f"<p><b>{s.attacker}</b> ({CAMP_NAMES[s.attacker]}) attacks <b>{s.defender}</b> ({CAMP_NAMES[s.defender]})"
            f", up to {s.size} fleet{'s' * (s.size != 1)} a side{' · civil war: no kill VP' * s.civil_war}</p>")
    nxt, columns = set(next_actors(state)), []
    for side in fight.SIDES:
        rows = "".join(
            f'<tr class="{"next" if i in nxt else "gone" if s.field.status[i] not in fight.PRESENT else ""}"><td>'
            f'{escape(u.name)}{" <span class=sc>SC</span>" * (s.field.sc[side] == i)}</td><td>'
            f'{ {"fleet": "★" * u.stars, "ground": "air/ground", "fortress": "fortress"}[u.kind]}</td><td>'
            f'{u.strategy}/{u.attack}/{u.defence}</td><td>{escape(u.owner)}</td><td>{s.field.status[i]}</td></tr>'
            for i, u in ((i, s.units[i]) for i in fight.engagement_order(s.units, side)))
        columns.append(f'<table class="sides"><tr><th colspan="5">{fight.SIDE_NAMES[side]}: '
                       f'{s.attacker if side == fight.ATTACKER else s.defender}</th></tr>{rows}</table>')
    now = f"<p>Next opportunity: <b>{' or '.join(escape(s.units[i].name) for i in sorted(nxt))}</b></p>" * bool(nxt)
    running = " · ".join(f"{escape(p)}: {s.attacker} {state.vp_of(p, s.attacker)} VP, {s.defender} "
                         f"{state.vp_of(p, s.defender)} VP" for p in sorted({u.owner for u in s.units}))
    return f"{head}{now}{''.join(columns)}<p>VP now: {running}</p>" if s.units else head


# --- the game view --------------------------------------------------------------------------------------

class Seen:
    """The session as this device's seat may know it (`known_to`, once per change): what its step forms offer."""

    def __init__(self, live: LiveSession):
        self.live, self.engine, self._kept = live, live.engine, (None, None)

    @property
    def state(self) -> GameState:
        key = (self.live.version, self.live.viewer)
        if self._kept[0] != key:
            self._kept = (key, known_to(self.live.state, self.live.viewer))
        return self._kept[1]


class GalacticChessView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live, self.seen, self._advice = live, Seen(live), {}
        self.example = live.session.record.setup.get("example", "")
        self.seats = SeatPanel(live, list(live.state.players))
        pane = lambda css: pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=[css])  # noqa: E731
        self.facts, self.players, self.hand = pane("table-facts"), pane("table-players"), pane("own-hand")
        self.battle, self.advice, self.scores = pane("battle-screen"), pane("target-advice"), pane("provisional")
        self.phase = Text(variant="h6", css_classes=["phase-title"])
        self.odds, self.log = OddsPanel(), EventLog(live)
        self.policy = TapChoice({k.replace("_", " "): k for k in POLICIES}, label="Policy for the rest of a battle",
                                value="greedy_kill", css_classes=["advice-policy"])
        live.param.watch(lambda _: self.render(), "version")
        live.param.watch(lambda _: self._seated(), "viewer")
        self.guide = PhaseGuide(live, lambda state: due_now(state) + free_steps(self.seen.state), self._form,
                                self.odds.clear, phase_title)
        self.policy.param.watch(lambda _: self.guide.render(), "value")
        self.tabs = lazy_tabs({"Play": [self.phase, self.battle, self.guide], "Table": [self.players],
                               "My hand": [self.hand], "Odds": [self.policy, self.scores]}, live=live)
        self.render()

    def render(self) -> None:
        s = self.live.state
        self.facts.object, self.players.object = facts_html(s, self.example), players_html(s)
        self.hand.object, self.battle.object = hand_html(s, self.live.viewer), battle_html(s)
        self.phase.object = phase_title(s)
        self.scores.object = ("<h4>If the game ended now, with this camp winning (GC-9.2)</h4><table class=sides><tr>"
                              "<th>camp</th>" + "".join(f"<th>{escape(p)}</th>" for p in s.players) + "</tr>" +
                              "".join(f"<tr><td>{c}</td>" + "".join(f"<td>{o.scores[p]}</td>" for p in s.players) +
                                      "</tr>" for c, o in provisional(s).items()) + "</table>")

    def _seated(self) -> None:
        """A new seat on this device: the forms built for the former one (they may list its cards) are dropped."""
        self.guide.forms.clear()
        self.guide.cards.objects = []
        self.render()
        self.guide.render()

    def _form(self, action: str) -> SpecStep:
        shows = {"roll_order": self._order_odds, "plot": self._plot_odds, "counter_plot": self._counter_odds,
                 "post_plot": self._post_odds, "garrison_plot": self._post_odds, "sortie": self._sortie_odds,
                 "roll_off": self._roll_off_odds, "ceasefire_roll_off": self._roll_off_odds,
                 "engage": self._engage_odds, "retreat": self._retreat_odds, "strike_back": self._strike_odds,
                 "extra_attack": self._strike_odds, "free_attack": self._strike_odds, "end_turn": self._end_odds}
        return SpecStep(self.seen, action, shows.get(action), before=[self.advice] if action == "engage" else [])

    # --- the odds of the step being prepared ---------------------------------------------------------------
    def _order_odds(self, _action) -> None:
        a = advice.order_advice(self.live.state)
        self.odds.show("Order roll (GC-5)", [("P(forced sortie)", odds_text(a.forced)),
                                             ("mean sortie size", f"{float(a.mean):.2f} fleets")],
                       partial(plots.outcome_bars,
                               [(f"{k} fleet{'s' * (k != 1)}", p) for k, p in sorted(a.sizes.items())], "Sortie size"))

    def _plot_odds(self, action) -> None:
        try:
            odds = advice.plot_advice(self.live.state, action.get("plotter"), action.get("target"))
        except RuleError:
            return self.odds.clear()
        pairs = [(k, odds.get(k, Fraction(0))) for k in ("target destroyed", "plotter destroyed", "nothing")]
        self.odds.show("Plot and counter-plot (GC-6A.32, GC-6A.33a)", [(k, odds_text(p)) for k, p in pairs],
                       partial(plots.outcome_bars, pairs, f"{action['plotter']} plots against {action['target']}"))

    def _counter_odds(self, _action) -> None:
        c = self.live.state.counter
        self.odds.show("Counter-plot (GC-6A.33a)", [(f"P({c.plotter} destroyed)", odds_text(plot_chance(
            PlotRollInput(self.live.state.person(c.target).plot))))])

    def _post_odds(self, action) -> None:
        """GC-7.12 / GC-7.21: certain when no plotter is asked (a vacant post, a free slot), else the plot's chance."""
        move = COMMANDER if action["type"] == "post_plot" else DISPATCH if action.get("dispatch") else RELEASE
        title = "Commander post (GC-7.12)" if move == COMMANDER else "Garrison (GC-7.21)"
        try:
            rows = [("P(success)", odds_text(advice.post_advice(self.live.state, move, action.get("plotter", ""))))]
        except RuleError:
            return self.odds.show(title, [("plot", "choose a plotter")])
        self.odds.show(title, rows + ([] if "plotter" in action else [("plot", "none: no roll, no plotter")]))

    def _sortie_odds(self, action) -> None:
        """GC-6B.11: the duel matrix of the two camps' fleets (GC-6B.5), the row's chance to destroy the column's."""
        mine, theirs = action.get("camp"), action.get("defender")
        fleets = [advice.camp_fleets(self.live.state, camp) if camp else [] for camp in (mine, theirs)]
        cells = [(c.theirs, c.mine, c.kill) for row in advice.duel_matrix(*fleets) for c in row]
        self.odds.show("Sortie (GC-6B.11, GC-5)", [("each side commits up to", f"{self.live.state.order.size} fleets")],
                       partial(plots.heatmap, cells, f"P({mine} fleet destroys {theirs} fleet) in one duel", theirs,
                               mine, "P(kill)") if cells else None,
                       note="Each cell: the chance the row's fleet destroys the column's in one duel, whoever engages "
                            "(GC-6B.5); the higher strategy strikes first.")

    def _roll_off_odds(self, action) -> None:
        s, ceasefire = self.live.state, action["type"] == "ceasefire_roll_off"
        names = list(s.tie) if ceasefire else [f"the {fight.SIDE_NAMES[k]} SC" for k in fight.SIDES]
        d = roll_off_odds(RollOffInput(len(names), s.options["rolloff_dice"], "GC-9.13r" if ceasefire else "GC-6B.4r"))
        pairs = [(f"{names[o[0]]} wins", d.probability(o)) for o in d.outcomes() if len(o) == 1]
        self.odds.show("Roll-off (GC-9.13r)" if ceasefire else "Order roll-off (GC-6B.4r)",
                       [(k, odds_text(p)) for k, p in pairs + [("a tie: roll again", 1 - sum(p for _, p in pairs))]])

    def _strike_odds(self, action) -> None:
        rule = {"strike_back": "GC-6B.5", "extra_attack": "GC-11", "free_attack": "GC-6B.6"}[action["type"]]
        self.odds.show(f"{action['type'].replace('_', ' ').capitalize()} ({rule})", [
            (f"P({striker} destroys {victim})", odds_text(p)) for striker, victim, p in
            advice.waiting_strikes(self.live.state)])

    def _retreat_odds(self, action) -> None:
        r = advice.retreat_advice(self.live.state, action["actor"])
        pairs = [("gets away", r.retreats), ("stays", r.stays), ("destroyed", r.destroyed)]
        self.odds.show(f"{action['actor']} retreats: 2d6 ≤ {r.threshold} (GC-6B.6)",
                       [(k, odds_text(p)) for k, p in pairs] + [("free attack by", r.shooter or "nobody")],
                       partial(plots.outcome_bars, pairs, "Retreat"))

    def _end_odds(self, _action) -> None:
        s, stars = self.live.state, stars_by_camp(self.live.state)
        self.odds.show("End check (GC-9.0)", [(f"{n} ★★+ admirals", str(len(senior_admirals(s, n))))
                                              for n in (EMPIRE, ALLIANCE)]
                       + [(f"★ in play, {c}", str(stars[c])) for c in CAMPS if stars[c]]
                       + [("last turn of the ceasefire", s.last_turn)] * bool(s.last_turn),
                       note="The game ends after this turn if Reinhard has fallen (GC-9.11), a nation has no ★★+ "
                            "admiral (GC-9.12) or the ceasefire round is over (GC-9.13).")

    # --- the engagement, with the target advice ----------------------------------------------------------
    def target_advice(self, actor: str) -> list:
        """The advice for the actor whose opportunity it is (kept per session version): each target, and retreating."""
        key = (self.live.version, actor, self.policy.value)
        if key not in self._advice:
            self._advice = {key: advice.target_advice(self.live.state, actor, self.policy.value, ADVICE_TRIALS,
                                                      exact_max=ADVICE_EXACT_MAX)}
        return self._advice[key]

    def _engage_odds(self, action) -> None:
        x, y = action.get("actor"), action.get("target")
        rows = self.target_advice(x) if x else []
        self.advice.object = self._advice_html(rows)
        chosen = next((r for r in rows if r.move == "engage" and r.target == y), None)
        if chosen is None:
            return self.odds.clear()
        names = {DuelOutcome(False, True): f"{y} destroyed", DuelOutcome(True, False): f"{x} destroyed",
                 DuelOutcome(True, True): "both destroyed", DuelOutcome(False, False): "nobody destroyed"}
        pairs = [(names[o], chosen.outcome[o]) for o in names if chosen.outcome.get(o)]
        unit = next(u for u in self.live.state.sortie.units if u.name == x)
        side = fight.SIDE_NAMES[unit.side]
        first = {"actor": f"{x} strikes first", "target": f"{y} strikes first", "both": "both strike at once"}
        self.odds.show(f"{x} engages {y} (GC-6B.5)", [(k, odds_text(p)) for k, p in pairs] + [
            ("who strikes first", first[chosen.first]), (f"P({side} sweeps the field)", estimate_text(chosen.wins)),
            (f"E[VP] of {unit.owner}", f"{float(chosen.vp):.2f}")],
            partial(plots.outcome_bars, pairs, "This duel (exact)"),
            note=self._policy_note(chosen.exact), second_title="The rest of the battle, by choice",
            second=partial(plots.outcome_bars, [(r.target or "retreat", share(r.wins)) for r in rows],
                           f"P({side} sweeps) after each choice"))

    def _policy_note(self, exact: bool) -> str:
        how = "exact" if exact else (f"estimated from {ADVICE_TRIALS:,} simulated battles (more than "
                                     f"{ADVICE_EXACT_MAX} units), with its 95% interval")
        return f"The rest of the battle is played by the policy: {POLICIES[self.policy.value]}; {how}."

    def _advice_html(self, rows: list) -> str:
        best = max(rows, key=lambda r: share(r.wins), default=None)
        return "" if best is None else (
            '<table class="sides"><tr><th>choice</th><th>first strike</th><th>P(kill)</th><th>P(lost)</th><th>'
            'P(sweep the field)</th><th>E[VP]</th></tr>' + "".join(
                f"<tr{' class=next' * (r is best)}><td>"
                f"{'engage ' + escape(r.target) if r.move == 'engage' else 'retreat (P: gets away)'}</td><td>"
                f"{r.first or '-'}</td><td>{odds_text(r.kill)}</td><td>{odds_text(r.lost)}</td><td>"
                f"{estimate_text(r.wins)}</td><td>{float(r.vp):.2f}</td></tr>" for r in rows)
            + f"</table><p><small>{escape(self._policy_note(best.exact))}</small></p>")

    def __panel__(self):
        top = pn.Column(self.facts, self.seats, sizing_mode="stretch_width")
        return pmui.Column(top, two_columns(self.tabs, pn.Column(self.odds, self.log)), sizing_mode="stretch_width")


serve_app(ENGINE, CardEditor, GalacticChessView)
