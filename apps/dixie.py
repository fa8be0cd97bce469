"""Dixie: Gettysburg dashboard: the battlefield as tiles, this device's side, the step guide on the engine's forms,
fire / melee / flank / morale odds, the victory monitor, the log; the cards typed, pasted or opened. Every number
comes from engines.dixie. A page set to one side is sent no face-down card of the other (digest section 2).
Serve it alone with `panel serve apps/dixie.py`, or with every app by `companion serve`."""
from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any, Callable

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

import engines
from companion import plots
from companion.engine import RuleError, resolve_options
from companion.odds import fractions, group, mean, p_at_least
from companion.spec import ONE_OF
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
from engines.dixie import advice
from engines.dixie.board import DECK, ELIMINATED, REINFORCEMENTS, RESERVE, across, line_of, line_positions, other
from engines.dixie.cards import cards_from_rows, check_decks, deck_warnings, read_card_file
from engines.dixie.combat_step import checked_at_once
from engines.dixie.example import LABEL, example_cards
from engines.dixie.fire_effect import OWNER_PLACING
from engines.dixie.flow import morale_due
from engines.dixie.guide import due_now, free_steps, phase_title
from engines.dixie.melee import CONCEDE, ENDED, FIGHT, WITHDRAW
from engines.dixie.rules import LDR, RANKS, SIDES, TER, TYPES
from engines.dixie.stacking import over_limit, unit_count, unit_limit
from engines.dixie.state import Card, GameState
from engines.dixie.victory import needed, occupied
from engines.dixie.view import name_for, odds_blind, seen_specs, sees

ENGINE = engines.get("dixie")
NUMBERS = ("number", "cv", "morale_modifier", "fp_long", "fp_short", "fp_melee", "attack", "defense", "stack_bonus",
           "bp", "day")
CHOICES = {"side": SIDES, "type": TYPES, "pile": ("muster", "reinforcements", "deck"), "rank": ("", *RANKS),
           "timing": ("", "own", "enemy")}
COLUMNS = [Column(key, key, NUMBER if key in NUMBERS else FLAG if key in ("horse", "lasting") else
                  CHOICE if key in CHOICES else TEXT, CHOICES.get(key, ()))
           for key in ("number", "side", "type", "name", "pile", "cv", "morale", "morale_modifier", "fp_long",
                       "fp_short", "fp_melee", "horse", "attack", "defense", "stack_bonus", "rank", "wing_corps",
                       "corps", "division", "codes", "kind", "modifiers", "text", "timing", "lasting", "bp", "day")]
CHOICE_TEXT = {ENDED: "over (a side is gone)", FIGHT: "both fight round 2", WITHDRAW: "you disengage",
               CONCEDE: "the enemy disengages"}

CSS = """
.field { display: grid; gap: 8px; font-family: inherit; } .line { display: grid; gap: 8px; }
.tile { border: 2px solid rgba(128,128,128,.5); border-radius: 10px; padding: 6px; min-height: 96px; cursor: pointer;
  background: rgba(128,128,128,.06); display: flex; flex-direction: column; gap: 4px; }
.tile.engaged { background: rgba(213,94,0,.12); border-color: #D55E00; } .tile.reserve-tile { min-height: 0; }
.head { display: flex; justify-content: space-between; gap: 4px; font-size: 16px; flex-wrap: wrap; }
.head b { font-size: 17px; } .tag { border-radius: 8px; padding: 0 6px; font-size: 16px; font-weight: 700; }
.tag.engaged { background: #D55E00; color: #fff; } .tag.csa { background: #6b7079; color: #fff; }
.tag.usa { background: #0072B2; color: #fff; }
.meter { display: flex; align-items: center; gap: 4px; font-size: 16px; }
.meter .bar { flex: 1; height: 8px; border-radius: 4px; background: rgba(128,128,128,.25); overflow: hidden; }
.meter .bar i { display: block; height: 100%; } .meter.csa .bar i { background: #6b7079; }
.meter.usa .bar i { background: #0072B2; } .meter.over { color: #D55E00; font-weight: 700; }
.meter.over .bar i { background: #D55E00; } .cards { display: flex; flex-wrap: wrap; gap: 4px; }
.card { border-radius: 6px; padding: 3px 7px; font-size: 16px; line-height: 1.3; border: 2px solid; min-height: 32px;
  box-sizing: border-box; display: inline-flex; gap: 4px; align-items: center; max-width: 100%; }
.card.csa { border-color: #6b7079; } .card.usa { border-color: #0072B2; } .card.down { border-style: dashed; }
.card .arm { font-weight: 700; opacity: .8; } .card .flag { opacity: .75; }
.card .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 11em; }
.card b { white-space: nowrap; }
.card.back { font-weight: 700; color: #fff; min-width: 44px; justify-content: center; }
.card.back.csa { background: repeating-linear-gradient(45deg, #6b7079 0 6px, #8a8f98 6px 12px); }
.card.back.usa { background: repeating-linear-gradient(45deg, #0072B2 0 6px, #2a8fce 6px 12px); }
.card .hit { background: #D55E00; color: #fff; border-radius: 50%; min-width: 24px; height: 24px; text-align: center;
  font-weight: 700; line-height: 24px; }
.counts { opacity: .8; }
.mg { text-align: center; font-size: 16px; letter-spacing: .2em; opacity: .7; padding: 2px;
  border-top: 1px dashed rgba(128,128,128,.6); border-bottom: 1px dashed rgba(128,128,128,.6); }
.victory { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 16px; margin: 2px 0; }
.victory .near { color: #D55E00; font-weight: 700; }
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
"""


BLIND = "Face-down cards are involved: odds of what happens to them would tell what they are, so this page shows none."


# --- card entry ---------------------------------------------------------------------------------------------
def unticked_left_out(rows: list[dict]) -> list[dict]:
    """Card rows as the engine reads them: an unticked flag is not written."""
    return [{k: v for k, v in r.items() if v is not False} for r in rows]


EXAMPLE_ROWS = unticked_left_out([{c.key: r[c.key] for c in COLUMNS if c.key in r} for r in example_cards()])


class CardEditor(pn.viewable.Viewer):
    """The players' own cards (DX-1.0): typed in the table, or a card list pasted or opened (the engine's reader);
    the deck check beside the table, live."""

    def __init__(self, **params):
        super().__init__(**params)
        self.cards = RecordTable(COLUMNS, "card", "card-table", height=300, new_row=lambda _: {"side": "CSA",
                                                                                               "type": "INF"})
        self.cards.table.frozen_columns = ["number", "side", "type"]
        self.note = Note(severity="info", sizing_mode="stretch_width", css_classes=["cards-note"])
        self.file = SetupFile(lambda raw: {"cards": read_card_file(raw)}, self.setup,
                              lambda setup: self.set_rows(setup["cards"]), "dixie-cards.json", self.note)
        self.replace = Note(severity="warning", sizing_mode="stretch_width", css_classes=["replace-question"])
        b = [pmui.Button(label=label, variant=variant, css_classes=[css], **TOUCH) for label, css, variant in (
            ("Load the fictional example deck", "load-example", "outlined"), ("Clear all", "clear-cards", "outlined"),
            ("Yes, replace them", "confirm-example", "contained"), ("Keep my cards", "keep-cards", "outlined"))]
        self.asking = pn.Column(self.replace, pn.Row(*b[2:]), visible=False, sizing_mode="stretch_width")
        for button, act in zip(b, (self.load_example, lambda: self.set_rows([]),
                                   lambda: self.load_example(confirmed=True),
                                   lambda: setattr(self.asking, "visible", False))):
            button.on_click(lambda _, act=act: act())
        self.cards.on_change(self._check)
        self._layout = pn.Column(
            Text("Your battle decks (from your own cards)", variant="h6"),
            pn.Row(*b[:2]), self.asking, self.note, self.cards, self.file, sizing_mode="stretch_width")
        self._check()

    def load_example(self, confirmed: bool = False) -> None:
        """The fictional example deck; cards the player typed are replaced only once the player says so."""
        typed = self.rows()
        if typed and not confirmed and not self.is_example():
            self.replace.object = f"Replace your {len(typed)} cards with the fictional example deck?"
            self.asking.visible = True
            return
        self.asking.visible = False
        self.set_rows(EXAMPLE_ROWS)

    def set_rows(self, rows) -> None:
        self.cards.set_rows([{c.key: r[c.key] for c in COLUMNS if c.key in r} for r in rows])

    def rows(self) -> list[dict]:
        return unticked_left_out(self.cards.rows())

    def is_example(self) -> bool:
        return self.rows() == EXAMPLE_ROWS

    def _check(self) -> None:
        rows = self.rows()
        if not rows:
            return self.note.param.update(severity="info", object="Enter your cards, or load the fictional example.")
        try:
            specs = cards_from_rows(rows)
        except RuleError as exc:
            return self.note.param.update(severity="error", object=plain(str(exc)))
        counts = "; ".join(f"{side}: {len(own)} cards (muster {sum(s.pile == 'muster' for s in own)}, reinforcements "
                           f"{sum(s.pile == 'reinforcements' for s in own)})"
                           for side in SIDES for own in [[s for s in specs if s.side == side]])
        notes = deck_warnings(specs)
        try:
            check_decks(specs, resolve_options(ENGINE.options, {}))
        except RuleError as exc:
            notes.append(f"For the basic game: {exc} (custom decks, the extended line and the historical battle "
                         "are chosen under Options).")
        if self.is_example():
            notes.insert(0, LABEL + ".")
        self.note.param.update(severity="warning" if notes else "success", object=plain(
            f"{counts}. " + " ".join(notes or ["The decks are valid for the basic game."])))

    def setup(self) -> dict:
        return {"cards": self.rows(), **({"example": LABEL} if self.is_example() else {})}

    def __panel__(self):
        return self._layout


# --- the battlefield ------------------------------------------------------------------------------------------

def card_html(card: Card, viewer: str) -> str:
    """One card as `viewer` sees it: one it may not see as its back (digest section 2; "" the table: face-up only)."""
    side = card.side.lower()
    if not sees(card, viewer):
        return f'<span class="card back {side}" title="face-down {card.side} card">{card.side}</span>'
    s = card.spec
    value = (f"{s.cv}{s.morale}" + (f" L{s.fp_long}/S{s.fp_short}" if s.type == "ART" else "")) if s.is_unit else (
        f"{s.attack}/{s.defense}" + (f" +{s.stack_bonus}" if s.stack_bonus else "") if s.type == LDR else
        s.kind if s.type == TER else "")
    flags = [f for f, on in (("decoy", card.decoy), ("fired", card.fired), ("moved", card.moves)) if on]
    hit = f'<span class="hit" title="{card.hits} hit(s)">{card.hits}</span>' if card.hits else ""
    tip = escape(f"{s.label}{'' if card.face_up else ' (face-down)'}")
    return (f'<span class="card {side}{"" if card.face_up else " down"}" data-card="{escape(card.id)}" title="{tip}">'
            f'<span class="arm">{"HA" if s.horse else s.type}</span><span class="name">{escape(s.name or s.id)}</span>'
            f'<b>{escape(value)}</b>{hit}' + "".join(f'<span class="flag">{f}</span>' for f in flags) + "</span>")


def meter_html(state: GameState, side: str, pos: str) -> str:
    """The side's stack meter in the position: units / unit limit (DX-3.1)."""
    units, limit = unit_count(state, side, pos), unit_limit(state, side, pos)
    return (f'<div class="meter {side.lower()}{" over" if units > limit else ""}" title="{side} units / stacking limit'
            f' (DX-3.1)"><span>{side} {units}/{limit}</span><div class="bar"><i style="width:'
            f'{100 if limit <= 0 else min(100, round(100 * units / limit))}%"></i></div></div>')


def tile_html(state: GameState, pos: str, viewer: str) -> str:
    engaged, holder = state.engaged(pos), state.holder[pos]
    tags = (f'<span class="tag {holder.lower()}">held by {holder}</span>' if holder != line_of(pos) else "") + (
        '<span class="tag engaged">engaged</span>' if engaged else "")
    meters = "".join(meter_html(state, s, pos) for s in SIDES if s == line_of(pos) or state.units(pos, s))
    cards = "".join(card_html(c, viewer) for c in sorted(state.at(pos), key=lambda c: (c.side != viewer, c.spec.type)))
    return (f'<div class="tile{" engaged" if engaged else ""}" data-pos="{pos}"><div class="head">'
            f'<b>{pos.replace("-", " ")}</b>{tags}</div>'
            f'{meters}<div class="cards">{cards}</div></div>')


def reserve_html(state: GameState, side: str, viewer: str) -> str:
    """A side's reserve (hidden from the enemy and the table: only its size), and its deck counts (DX-9.0)."""
    cards = state.at(RESERVE, side)
    shown = "".join(card_html(c, viewer) for c in cards) if side == viewer else \
        f'<span class="card back {side.lower()}">{len(cards)}</span>'
    deck = len(state.at(DECK, side))
    counts = (f"reinforcement deck {len(state.at(REINFORCEMENTS, side))}" + (f", battle deck {deck}" if deck else "")
              + f", eliminated {len(state.at(ELIMINATED, side))}")
    return (f'<div class="tile reserve-tile" data-pos="reserve-{side}"><div class="head"><b>{side} reserve '
            f'({len(cards)})</b>'
            f'<span class="counts">{counts}</span></div><div class="cards">{shown}</div></div>')


def battlefield_html(state: GameState, viewer: str) -> str:
    """The table as the viewer sits at it (the table as the CSA): its line below, each position across (DX-8.0)."""
    seat = viewer or SIDES[0]
    own = line_positions(seat, state.width)
    cols = f'style="grid-template-columns: repeat({len(own)}, minmax(0, 1fr))"'

    def row(line) -> str:
        return f'<div class="line" {cols}>' + "".join(tile_html(state, p, viewer) for p in line) + "</div>"
    return (f'<div class="field">{reserve_html(state, other(seat), viewer)}{row(across(p) for p in own)}'
            f'<div class="mg">MIDDLE GROUND</div>{row(own)}{reserve_html(state, seat, viewer)}</div>')


class Battlefield(JSComponent):
    """The battlefield tiles: a tap on a tile (or a reserve) calls `on_tap(place)`, on a card `on_card(card id)`."""

    html = param.String(default="")

    _esm = """
    export function render({ model, el }) {
      const draw = () => {
        el.innerHTML = model.html;
        el.querySelectorAll('[data-pos]').forEach((t) => t.addEventListener('click', () => model.send_msg({
          pos: t.dataset.pos })));
        el.querySelectorAll('[data-card]').forEach((c) => c.addEventListener('click', (e) => {
          e.stopPropagation(); model.send_msg({ card: c.dataset.card }); }));
      };
      draw();
      model.on('html', draw);
    }
    """

    def __init__(self, on_tap: Callable[[str], None], on_card: Callable[[str], None], **params):
        super().__init__(stylesheets=[CSS], sizing_mode="stretch_width", **params)
        self._on_tap, self._on_card = on_tap, on_card

    def _handle_msg(self, msg: Any) -> None:
        for key, act in (("pos", self._on_tap), ("card", self._on_card)):
            if isinstance(msg, dict) and isinstance(msg.get(key), str):
                return act(msg[key])


def victory_html(live: LiveSession) -> str:
    """The victory monitor (DX-4.0): the enemy-line positions each side occupies, of those it needs."""
    s, need = live.state, needed(live.state)
    parts = [f"<span{' class=near' if len(held) == need - 1 else ''}>{side} occupies {len(held)} of the {need} "
             f"{other(side)} positions it needs{': ' + ', '.join(held) if held else ''}</span>"
             for side in SIDES for held in [occupied(s, side)]]
    if s.victory:
        parts.insert(0, f"<b>{escape(s.victory.text)} ({s.victory.rule})</b>")
    if s.options["historical"]:
        parts.append(f"<span>Day {s.day} of 3: the USA wins if the CSA has not won by the end of day 3</span>")
    example = live.session.record.setup.get("example")
    return (f'<div class="example">{escape(example)}</div>' if example else "") + \
        f'<div class="victory">{"".join(parts)}</div>'


# --- the game view ------------------------------------------------------------------------------------------------

class DixieView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.odds, self.log = OddsPanel(), EventLog(live)
        self.seats = SeatPanel(live, list(SIDES))
        self.board = Battlefield(self.tap, self.tap_card, css_classes=["battlefield"])
        self.victory = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["victory-monitor"])
        self.phase = Text(variant="h6", css_classes=["phase-title"])
        self.position_value = pmui.IntInput(label="A position is worth (cards), for the melee advice", value=2,
                                            start=0, end=10, size="large", width=300, css_classes=["position-value"])
        live.param.watch(lambda _: self.render(), "version")
        live.param.watch(lambda _: self._seated(), "viewer")
        self.guide = PhaseGuide(live, lambda s: due_now(s) + free_steps(s, self.live.viewer), self._form,
                                self.odds.clear, phase_title)
        self.position_value.param.watch(lambda _: (f := self.guide.active) and f.show and f.show(), "value")
        self.tabs = lazy_tabs({"Play": [self.phase, self.guide, self.position_value]}, live=live)
        self.render()

    def render(self) -> None:
        s = self.live.state
        self.board.html = battlefield_html(s, self.live.viewer)
        self.victory.object = victory_html(self.live)
        self.phase.object = phase_title(s)
        self.position_value.visible = any(d.action in ("declare_melee", "melee_round", "melee_choice")
                                          for d in due_now(s)[:1])

    def _seated(self) -> None:
        """A new side on this device: the forms built for the former one (they may list its cards) are dropped."""
        self.guide.forms.clear()
        self.guide.cards.objects = []
        self.render()
        self.guide.render()

    def tap(self, place: str) -> None:
        """A tap on a tile: the first position the step shown may take there (fire at, move to, deploy into ...)."""
        if isinstance(form := self.guide.active, SpecStep):
            form.form.take(RESERVE if place.startswith("reserve-") else place, (ONE_OF,))

    def tap_card(self, card: str) -> None:
        """A tap on one of the viewer's cards: the step shown picks it, or ticks it on or off."""
        if isinstance(form := self.guide.active, SpecStep):
            form.form.take(card)

    # --- the step forms and the odds beside them -----------------------------------------------------------
    def _form(self, action: str) -> SpecStep:
        shows = {"fire": self._fire_odds, "declare_melee": self._melee_odds, "melee_round": self._round_odds,
                 "melee_choice": self._choice_odds, "flank_attack": self._flank_odds, "disorder": self._disorder_odds,
                 "check_leader": self._morale_odds, "check_morale": self._morale_odds,
                 "morale_step": self._morale_odds, "check_hits": self._hits_odds}
        show = shows.get(action)
        return SpecStep(self.live, action, show if action == "fire" else show and (lambda a: self._blind(a) or show(a)),
                        spec=seen_specs(ENGINE.actions.specs, self.live.viewer)[action])

    def _blind(self, action) -> bool:
        """No odds that would tell this page what a face-down card is (digest section 2)."""
        if blind := odds_blind(self.live.state, self.live.viewer, action):
            self.odds.show(note=BLIND)
        return blind

    def _show_checks(self, title: str, cards: list[Card], melee: bool = False) -> None:
        if not cards:
            return self.odds.clear()
        s, result = self.live.state, advice.checks_advice(self.live.state, cards, melee)
        numbers = [(f"P({name_for(s.card(i), self.live.viewer)} lost)", odds_text(p)) for i, p in result.lost.items()]
        self.odds.show(title, numbers, partial(plots.hits_bars, result.units_lost, "Units routed", "units"),
                       "Leaders check first (DX-11.3): a leader killed takes its command from the units' checks.")

    def _morale_odds(self, _action) -> None:
        leaders, units = morale_due(self.live.state, self.live.state.active)
        self._show_checks("This morale step (DX-6.0, DX-11.3)", leaders + units)

    def _hits_odds(self, _action) -> None:
        s = self.live.state
        self._show_checks(f"The checks in {s.tasks[0].position} (DX-6.0, DX-11.3)", *checked_at_once(s)) \
            if s.tasks else self.odds.clear()

    def _disorder_odds(self, _action) -> None:
        if not (over := over_limit(self.live.state)):
            return self.odds.clear()
        d = advice.disorder_advice(self.live.state, *over[0])
        self.odds.show(f"Disorder in {over[0][1]} (DX-8.3a)",
                       [("expected cards to the reserve", f"{float(mean(d)):.2f}")],
                       partial(plots.hits_bars, d, "Cards sent to the reserve", "cards"))

    def _fire_odds(self, action) -> None:
        s = self.live.state
        named_by = dict(v.split(">", 1) for v in action.get("counter_battery") or [])
        try:
            adv = advice.fire_advice(s, list(action.get("firers") or []), action.get("target"), named_by)
        except (RuleError, KeyError, TypeError):
            return self.odds.clear()
        numbers = [(f"P(at least {k} hit{'s' if k > 1 else ''})", odds_text(p_at_least(adv.hits, k)))
                   for k in (1, 2, 3) if p_at_least(adv.hits, k)] + [("expected hits", f"{float(mean(adv.hits)):.2f}")]
        title = f"Fire {s.card(action['firers'][0]).loc} -> {action['target']} ({adv.kind}, DX-7.1-7.3)"
        if odds_blind(s, self.live.viewer, action):  # the hits only: what they do tells what the cards are
            return self.odds.show(title, numbers, partial(plots.hits_bars, adv.hits, "Hits for the enemy to place"),
                                  BLIND)
        numbers.append(("P(an enemy unit routed or destroyed by its next morale step)", odds_text(adv.card_lost)))
        if s.leader(action["target"], other(s.active)):
            numbers.append(("P(the enemy leader there dies)", odds_text(adv.leader_dies)))
        if adv.support is not None:
            numbers.append(("P(at least one hit on your own units)", odds_text(adv.friendly_hit)))
        for firer, fate in adv.batteries.items():
            numbers.append((f"{name_for(s.card(firer), self.live.viewer)}: P(the named battery destroyed)",
                            odds_text(sum((p for o, p in fractions(fate).items() if o.destroyed), Fraction(0)))))
        self.odds.show(title, numbers,
                       partial(plots.hits_bars, adv.hits, "Hits for the enemy to place"),
                       f"The owner is assumed to place the hits {OWNER_PLACING} (DX-7.3); the enemy's leader, "
                       "terrain and command count in its morale checks.",
                       partial(plots.hits_bars, group(adv.effect, lambda e: e.units_lost),
                               "Enemy units lost by its next morale step", "units"), "Enemy units lost")

    def _worth(self) -> Fraction:
        return Fraction(self.position_value.value or 0)

    def _melee_odds(self, action) -> None:
        try:
            self._show_plan(advice.melee_advice(self.live.state, action["position"], action.get("units") or None,
                                                self._worth()), action["position"])
        except (RuleError, KeyError):
            self.odds.clear()

    def _show_plan(self, plan, pos: str) -> None:
        """DX-13.1 advice: round 1, both sides' best choices, round 2 (exact, digest section 8)."""
        by_choice = {c: sum(n.probability for n in plan.nodes if n.choice == c)
                     for c in dict.fromkeys(n.choice for n in plan.nodes)}
        note = "After round 1, with the best choices: " + "; ".join(
            f"{CHOICE_TEXT[c]} {odds_text(p)}" for c, p in by_choice.items()) + \
            f". Scored as position worth {self.position_value.value} cards + cards lost by each side."
        self.odds.show(f"Melee in {pos} (DX-13.1)", [
            ("P(you hold the position at the end)", odds_text(plan.holds)),
            ("P(the enemy holds it)", odds_text(plan.opponent_holds)),
            ("your expected cards lost", f"{float(plan.expected_initiator_lost):.2f}"),
            ("enemy expected cards lost", f"{float(plan.expected_opponent_lost):.2f}")],
            partial(plots.outcome_bars, list(plan.after_round_1.items()), "After round 1"), note,
            partial(plots.outcome_bars, [("you hold", plan.holds), ("the enemy holds", plan.opponent_holds),
                                        ("nobody", 1 - plan.holds - plan.opponent_holds)],
                    "At the end, both choosing best"),
            "After round 2")

    def _round_odds(self, _action) -> None:
        s = self.live.state
        if (m := next((m for m in s.melees if m.stage == "roll"), None)) is None:
            return self.odds.clear()
        ids = [i for i in m.units if s.card(i).loc == m.position]
        if m.rounds == 0:
            return self._show_plan(advice.melee_advice(s, m.position, ids, self._worth()), m.position)
        end = advice.last_round_advice(s, m.position, ids)
        self.odds.show(f"Melee in {m.position}: round 2 (DX-13.1)", [(f"P({k})", odds_text(p)) for k, p in end.items()],
                       partial(plots.outcome_bars, list(end.items()), "After round 2"),
                       "After round 2 an initiator without sole presence disengages.")

    def _choice_odds(self, _action) -> None:
        try:
            node = advice.melee_choice_advice(self.live.state, self._worth())
        except RuleError:
            return self.odds.clear()
        self.odds.show("Melee: round 2 (DX-13.1)", [
            ("best choice now", CHOICE_TEXT[node.choice]), ("P(the initiator holds at the end)", odds_text(node.holds)),
            ("P(the opponent holds it)", odds_text(node.opponent_holds)),
            ("initiator's expected further losses", f"{float(node.expected_initiator_lost):.2f}"),
            ("opponent's expected further losses", f"{float(node.expected_opponent_lost):.2f}")], None,
            f"Value to the initiator if both fight on: {float(node.fight_value):.2f}; under best play: "
            f"{float(node.value):.2f} (position worth {self.position_value.value} cards).")

    def _flank_odds(self, action) -> None:
        try:
            d = advice.flank_advice(self.live.state, list(action["cards"]), action["position"], action.get("leader"))
        except (RuleError, KeyError, IndexError):
            return self.odds.clear()
        self.odds.show(f"Flank attack into {action['position']} (DX-13.3)",
                       [("expected cards that make it", f"{float(mean(d)):.2f}"),
                        ("P(at least one makes it)", odds_text(p_at_least(d, 1)))],
                       partial(plots.hits_bars, d, "Cards that make it", "cards"),
                       "Each card checks morale: CV + code, CAV +1, ART -1, + the attack rating of a leader going "
                       "with them; those that pass move in and fire at once.")

    def __panel__(self):
        play = pmui.Column(self.seats, self.victory, self.board, self.tabs, sizing_mode="stretch_width")
        return two_columns(play, pn.Column(self.odds, self.log, sizing_mode="stretch_width"))


serve_app(ENGINE, CardEditor, DixieView)
