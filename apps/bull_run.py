"""Battle at Bull Run dashboard: roster, turn track, phase guide, combat wizard, odds, victory band, log.

Every number shown comes from an engine call (engines.bull_run); this module only lays it out.
Serve it alone with `panel serve apps/bull_run.py`, or with every app by `companion serve`.
"""
from __future__ import annotations

import html
from functools import partial

import panel as pn
import panel_material_ui as pmui

import engines
from companion import plots
from companion.engine import RuleError
from companion.odds import group, mean, named
from companion.ui.choice import TapChoice
from companion.ui.controls import (
    ActionPanel,
    OddsPanel,
    lazy_tabs,
    odds_text,
    picker,
    redraw,
    switch,
    two_columns,
)
from companion.ui.forms import SpecStep
from companion.ui.guide import PhaseGuide
from companion.ui.live import LiveSession
from companion.ui.log import EventLog
from companion.ui.records import CHOICE, FLAG, NUMBER, Column, RecordTable, SetupFile
from companion.ui.shell import serve_app
from companion.ui.tables import CSS, html_table
from companion.ui.text import Note, Text, plain
from companion.ui.theme import TOUCH
from engines.bull_run import actions as act
from engines.bull_run import attacks, outlook, solitaire
from engines.bull_run.combat import attack_sequence_odds, best_attack_order, combat_odds, summarize
from engines.bull_run.example import EXAMPLE_ROSTER, LABEL
from engines.bull_run.fire import expected_hits_grid
from engines.bull_run.flank import AwarenessInput, awareness_odds
from engines.bull_run.guide import due_now, phase_title
from engines.bull_run.hesitation import HESITATION
from engines.bull_run.initiative import SIDE_NAME, union_initiative_count_odds
from engines.bull_run.roster import parse_play_sheet, read_roster_file, roster_from_rows, roster_warnings
from engines.bull_run.rules import (
    CSA,
    FARM_FORD,
    INITIATIVE,
    NORTH,
    ORDERS,
    RETREAT_CHECK,
    SIDES,
    SOUTH,
    TARGET_TERRAINS,
    TURNS,
    UNION,
    VICTORY_TABLE,
)
from engines.bull_run.state import ELIMINATED, ON_MAP, PENDING, clock
from engines.bull_run.victory import table_result

ENGINE = engines.get("bull_run")
TABLES = {"roll_initiative": INITIATIVE, "farm_ford_roll": FARM_FORD, "retreat_check": RETREAT_CHECK}
COLUMNS = [Column("name", "name"), Column("side", "side", CHOICE, SIDES, default=UNION),
           Column("entry_hex", "entry hex"), Column("entry_turn", "entry turn", NUMBER, default=1),
           Column("max_sp", "SP (highest box)", NUMBER, default=1), Column("grey", "grey (Beauregard)", FLAG),
           Column("bank", "enters (bank)", CHOICE, ("", NORTH, SOUTH), optional=True)]
TABLE_CSS = """
table.track { border-collapse: collapse; width: 100%; font-size: 16px; table-layout: fixed; }
.track td { border: 1px solid rgba(128,128,128,.4); text-align: center; padding: 2px 1px; line-height: 1.2; }
small { font-size: 14px; } .track small { opacity: .8; }
.track .now { background: rgba(0,114,178,.25); font-weight: 700; }
.flags { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 4px; font-size: 16px; }
.band { display: flex; gap: 2px; margin-top: 6px; }
.band div { flex: 1; text-align: center; padding: 3px 2px; font-size: 16px; border-radius: 4px;
            border: 1px solid rgba(128,128,128,.4); }
.band .on { background: #E69F00; color: #000; font-weight: 700; }
table.units { border-collapse: collapse; width: 100%; font-size: 16px; }
.units td, .units th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 6px 4px; text-align: left; }
.units .gone { opacity: .5; text-decoration: line-through; }
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
"""


class RosterEditor(pn.viewable.Viewer):
    """The play sheet's unit table as players enter it (BR-2.4): typed in the table, play-sheet lines pasted, or a
    roster file opened or pasted (the engine's reader); the roster saved as a file that opens again the same."""

    def __init__(self, rows=(), **params):
        super().__init__(**params)
        self.units = RecordTable(COLUMNS, "unit", "roster-table", height=260)
        self.units.table.widths = {"name": 200}      # a unit's whole name, not cut to the width of the heading
        self.note = Note(severity="info", sizing_mode="stretch_width", css_classes=["roster-note"])
        self.file = SetupFile(lambda raw: {"roster": read_roster_file(raw)}, self.setup,
                              lambda setup: self.set_rows(setup["roster"]), "bull_run-roster.json", self.note)
        example = pmui.Button(label="Load the example roster", variant="outlined", css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.set_rows(EXAMPLE_ROSTER))
        self.paste = pmui.TextAreaInput(label="Or paste the play sheet: name, side, hex/turn, SP track, [grey]",
                                        placeholder="Evans' Brigade, CSA, 1/1, 3-2-1", rows=3,
                                        sizing_mode="stretch_width", css_classes=["paste-roster"])
        read = pmui.Button(label="Read pasted lines", variant="outlined", css_classes=["read-paste"], **TOUCH)
        read.on_click(lambda _: self.read_paste())
        self.units.on_change(self._check)
        self._layout = pn.Column(
            Text("Roster (from your play sheet)", variant="h6"), example, self.note, self.units,
            self.paste, read, self.file, sizing_mode="stretch_width")
        self.set_rows(rows)

    def set_rows(self, rows) -> None:
        self.units.set_rows([dict(r) for r in rows])

    def rows(self) -> list[dict]:
        return self.units.rows()

    def is_example(self) -> bool:
        return self.rows() == [dict(r) for r in EXAMPLE_ROSTER]

    def read_paste(self) -> None:
        try:
            self.set_rows(parse_play_sheet(self.paste.value_input or self.paste.value))
        except RuleError as exc:
            self.note.param.update(severity="error", object=plain(str(exc)))

    def _check(self) -> None:
        """The roster as entered, checked by the engine; nothing is said about a row the player has not filled in."""
        if not self.rows():
            return self.note.param.update(severity="info", object="Enter your units, open or paste your roster "
                                                                  "file, or load the example.")
        try:
            warnings = roster_warnings(roster_from_rows(self.rows()))
        except RuleError as exc:
            return self.note.param.update(severity="error", object=plain(str(exc)))
        if self.is_example():
            warnings = [LABEL + "."] + warnings
        self.note.param.update(severity="warning" if warnings else "success",
                               object=plain(" ".join(warnings) or "The roster is valid."))

    def setup(self) -> dict:
        return {"roster": self.rows(), **({"example": LABEL} if self.is_example() else {})}

    def __panel__(self):
        return self._layout


def track_html(live: LiveSession) -> str:
    """Turn/clock/initiative track, the flags of the game, SP lost and the BR-12.0 band."""
    s = live.state
    cells = []
    for t in range(1, TURNS + 1):
        side = {UNION: "U", CSA: "C"}.get(s.initiative[t - 1], "&nbsp;")
        order = s.orders[t - 1] if s.options["solitaire"] else ""
        cells.append(f'<td class="{"now" if t == s.turn else ""}"><b>{t}</b><br><small>{clock(t)}</small>'
                     f'<br>{side}{f"<br><small>order {order}</small>" if order else ""}</td>')
    d, result = table_result(s)
    flags = [
        f"Farm Ford {'found (turn ' + str(s.farm_ford_found) + ')' if s.farm_ford_found else 'not found'}",
        f"CSA {'aware (turn ' + str(s.csa_aware) + ')' if s.csa_aware else 'not aware'}",
        f"Union crossed west: {'turn ' + str(s.union_crossed_west) + ', ' + ', '.join(s.fords_crossed) if s.union_crossed_west else 'no'}",
        f"Union units south: {s.union_south()}",
        f"SP lost: Union {s.sp_lost(UNION)}, CSA {s.sp_lost(CSA)}, D = {d:+d}",
    ]
    band = "".join(f'<div class="{"on" if text == result else ""}">{html.escape(text)}</div>'
                   for _, _, text in VICTORY_TABLE)
    example = live.session.record.setup.get("example")
    label = f'<div class="example">{html.escape(example)}</div>' if example else ""
    legend = "turn, clock, U or C: the side with the initiative (BR-6.0)" + (
        "; the solitaire CSA's order (BR-9.1)" if s.options["solitaire"] else "")
    return (f'{label}<table class="track" title="{legend}"><tr>{"".join(cells)}</tr></table><small>{legend}</small>'
            f'<div class="flags">{"".join(f"<span>{html.escape(f)}</span>" for f in flags)}</div>'
            f'<div class="band" title="Victory table (BR-12.0)">{band}</div>')


def units_html(live: LiveSession) -> str:
    s = live.state
    rows = []
    for u in s.units:
        boxes = "■" * u.sp + "□" * (u.spec.max_sp - u.sp)
        status = {PENDING: f"due turn {u.spec.entry_turn} on hex {u.spec.entry_hex}", ON_MAP: f"on map, {u.bank}",
                  ELIMINATED: "eliminated"}[u.status]
        grey = " grey" + (" (crossed)" if u.crossed_free else "") if u.spec.grey else ""
        cls = ' class="gone"' if u.status == ELIMINATED else ""
        rows.append(f"<tr{cls}><td>{html.escape(u.name)}</td><td>{u.side}{grey}</td><td>{boxes} {u.sp}/{u.spec.max_sp}</td>"
                    f"<td>{status}</td></tr>")
    return f'<table class="units"><tr><th>unit</th><th>side</th><th>SP</th><th>where</th></tr>{"".join(rows)}</table>'


def expected_hits_html(over_12: str) -> str:
    """The expected hits of a fire in each CRT column under each sum of modifiers, exact, laid out as the CRT is
    (BR-10.4, BR-10.5)."""
    grid = expected_hits_grid(over_12)
    columns = list(dict.fromkeys(column for column, _, _ in grid))
    hits = {(column, mod): value for column, mod, value in grid}
    return html_table([(f"{mod:+d}" if mod else "0", *(plots.fraction_text(hits[column, mod]) for column in columns))
                       for mod in sorted({mod for _, mod, _ in grid}, reverse=True)], ("modifier", *columns), "row",
                      heads=True)


class BullRunView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.track = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[TABLE_CSS], css_classes=["turn-track"])
        self.phase = Text(variant="h6", css_classes=["phase-title"])
        self.order = Note(severity="info", sizing_mode="stretch_width", css_classes=["order-text"],
                          visible=False)
        self.odds = OddsPanel()
        self.units = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[TABLE_CSS], css_classes=["units"])
        self.outlook = pn.pane.Bokeh(sizing_mode="stretch_width")
        self.initiative = pn.pane.Bokeh(sizing_mode="stretch_width")
        self._curves = self._unrolled = None
        self.log = EventLog(live)
        live.param.watch(lambda _: self.render(), "version")
        self.guide = PhaseGuide(live, due_now, self._form, self.odds.clear, phase_title)
        self.tabs = lazy_tabs({
            "Play": [self.phase, self.order, self.guide],
            "Units": lambda: [self.units, self._correction_panel()],
            "Odds & tables": lambda: [self._expected_hits(), self.outlook, self.initiative],
            "Attack planner": lambda: [self._planner()],
        }, live=live, follow={"Odds & tables": self._draw_outlooks})
        self.render()

    # --- rendering ---------------------------------------------------------------------------------
    def render(self) -> None:
        s = self.live.state
        self.track.object = track_html(self.live)
        self.phase.object = phase_title(s)
        self.units.object = units_html(self.live)
        self._order_panel()

    def _draw_outlooks(self) -> None:
        """The outlook and the initiative odds, drawn once their tab is opened and then as the game goes on."""
        s = self.live.state
        curves = outlook.by_turn(s)
        if curves != self._curves:
            self._curves = curves
            redraw(self.outlook, plots.curves(curves, "Chance it has happened by turn n", "turn", "probability",
                                              height=300))
        unrolled = sum(1 for side in s.initiative if not side)
        if unrolled != self._unrolled:
            self._unrolled = unrolled
            redraw(self.initiative, plots.hits_bars(union_initiative_count_odds(unrolled),
                                                    f"Union initiatives in the {unrolled} turns not yet rolled (BR-6.0)",
                                                    "turns", height=260))

    def _order_panel(self) -> None:
        s = self.live.state
        letter = s.orders[s.turn - 1] if s.options["solitaire"] else ""
        self.order.visible = bool(letter)
        if not letter:
            return
        order = solitaire.order_for(letter, [u.name for u in s.units], "sudley" in s.fords_crossed)
        units = ", ".join(f"{n}{' = ' + u if u else ''}" for n, u in order.units)
        text = f"CSA order {order.letter}: {order.title} (BR-9.1). {order.text}"
        if units:
            text += f"\n\nUnits named: {units}."
        if order.notes:
            text += "\n\n" + " ".join(order.notes)
        self.order.object = plain(text)

    def _form(self, action: str) -> SpecStep:
        """The step form of an action, built from its spec, with the odds this game shows beside it."""
        shows = {"roll_initiative": self._table_odds(INITIATIVE), "farm_ford_roll": self._table_odds(FARM_FORD),
                 "retreat_check": self._table_odds(RETREAT_CHECK), "awareness_check": self._awareness_odds,
                 "csa_action_roll": self._action_odds, "declare_attack": self._declare_odds,
                 "fire": self._fire_odds, "allocate_hits": lambda _: self._combat_odds()}
        if action == "declare_attack":
            return self._declare_form(shows[action])
        return SpecStep(self.live, action, shows.get(action))

    # --- odds shown beside the step ------------------------------------------------------------------
    def _table_odds(self, table):
        def show(_action):
            d = table.odds()
            names = {s: SIDE_NAME[s] for s in SIDES} if table is INITIATIVE else {
                True: "yes, on " + ", ".join(map(str, table.faces_for(True))), False: "no"}
            self.odds.show(f"{table.title} ({table.rule})", [(names[o], odds_text(d.probability(o))) for o in d.outcomes()])
        return show

    def _awareness_odds(self, action) -> None:
        p = awareness_odds(AwarenessInput(action.get("adjacent", False))).probability(True)
        self.odds.show("Flank awareness (BR-8.4a)", [("P(the CSA becomes aware)", odds_text(p))])

    def _action_odds(self, action) -> None:
        inputs = act.action_input(self.live.state, action.get("union_south"), action.get("union_south_seen", False))
        pairs = named(solitaire.action_odds(inputs), ORDERS)
        self.odds.show(f"CSA order, column {solitaire.action_column(inputs)} (BR-9.0)",
                       [(f"order {k}", odds_text(p)) for k, p in pairs if p],
                       partial(plots.outcome_bars, pairs, "CSA order"))

    def _show_combat(self, inputs, note: str = "") -> None:
        summary = summarize(combat_odds(inputs))
        self.odds.show("This combat (BR-10.1, BR-10.4, BR-11.1)", [
            ("P(defender retreats)", odds_text(summary.defenders_retreat)),
            ("P(attacker retreats)", odds_text(summary.attackers_retreat)),
            ("P(defender eliminated)", odds_text(summary.defenders_eliminated)),
            ("P(attacker eliminated)", odds_text(summary.attackers_eliminated)),
            ("expected hits on the defender", f"{float(summary.expected_on_defenders):.2f}"),
            ("expected hits on the attacker", f"{float(summary.expected_on_attackers):.2f}"),
        ], partial(plots.hits_bars, summary.hits_on_defenders,
                   f"Hits on the defender ({inputs.attackers.fire_sp} SP fire)"),
            note, partial(plots.hits_bars, summary.hits_on_attackers,
                          f"Hits on the attacker ({inputs.defenders.fire_sp} SP fire)" if inputs.defender_fires
                          else "Hits on the attacker (the defender does not fire back)"))

    def _declare_odds(self, action) -> None:
        if not action.get("attackers") or not action.get("defenders"):
            return self.odds.clear()
        inputs = attacks.declared_input(self.live.state, action)
        note = ""
        if attacks.hesitates(self.live.state, action.get("attackers", [])):
            note = (f"McDowell's hesitation first (BR-10.2): the stack attacks only on "
                    f"{', '.join(map(str, HESITATION.faces_for(True)))} "
                    f"({odds_text(HESITATION.odds().probability(True))}); these odds are if it does.")
        self._show_combat(inputs, note)

    def _fire_odds(self, action) -> None:
        s = self.live.state
        if not isinstance(action.get("attack"), int) or not 0 <= action["attack"] < len(s.attacks):
            return self.odds.clear()
        self._show_combat(attacks.combat_input(s, s.attacks[action["attack"]]))

    def _combat_odds(self) -> None:
        s = self.live.state
        if s.combat is None:
            return self.odds.clear()
        self.odds.show("Hits to apply (BR-10.3)", [(f"on the {role}", str(hits))
                                                   for role, _, hits in attacks.hit_targets(s)])

    # --- the BR-9.3 target advice beside the declaration --------------------------------------------------
    def _declare_form(self, show) -> SpecStep:
        """BR-9.3: the weakest adjacent Union stack; the player names the stacks next to the CSA stack."""
        pickers = [picker(f"Adjacent Union stack {i}", f"adjacent-{i}") for i in (1, 2, 3)]
        advice = Note(severity="info", visible=False, sizing_mode="stretch_width", css_classes=["target-advice"])
        pick = pmui.Button(label="Attack the weakest (BR-9.3)", variant="outlined", css_classes=["pick-target"], **TOUCH)
        advisor = pn.Column(Text("Name the Union stacks next to the attacking CSA stack:", variant="body2"),
                            *pickers, pick, advice, sizing_mode="stretch_width", css_classes=["target-advisor"])
        step = SpecStep(self.live, "declare_attack", show, before=[advisor], on_reset=lambda: update())
        defenders = step.form.fields[1]

        def choose(_=None):
            result = solitaire.choose_target([p.value for p in pickers if p.value], lambda n: self.live.state.unit(n).sp)
            advice.object, advice.visible = plain(result.reason), True
            if result.target:
                defenders.set(list(result.target))
        pick.on_click(choose)

        def update():
            s = self.live.state
            advisor.visible = s.options["solitaire"] and s.active == CSA
            if advisor.visible:
                for p in pickers:
                    p.options, p.value = dict(defenders.options), []
            advice.visible = False
        return step

    def _planner(self):
        """Several attacks on one defender this step (BR-10.1, BR-11.1): the odds in the order given and the
        best order, McDowell's hesitation included."""
        defenders = picker("Defending stack", "plan-defenders")
        terrain = TapChoice(list(TARGET_TERRAINS), label="Defender's hex", value="clear", css_classes=["plan-terrain"])
        plans = [(picker(f"Attacker {i}", f"plan-attacker-{i}"), switch(f"Attacker {i} is across a ford (-2)"))
                 for i in (1, 2, 3)]
        result = Text(variant="body1", css_classes=["plan-result"])
        bars = pn.pane.Bokeh(sizing_mode="stretch_width")
        box = pn.Column(bars, sizing_mode="stretch_width", visible=False)

        def update(_=None):
            units = attacks.planner_units(self.live.state)
            for buttons in [defenders] + [a for a, _ in plans]:
                buttons.options = units
            try:
                plan = attacks.sequence_input(self.live.state, defenders.value,
                                              [(a.value, f.value) for a, f in plans if a.value], terrain.value)
            except RuleError as exc:
                result.object, box.visible = exc.message, False
                return
            d = attack_sequence_odds(plan)
            order, best = best_attack_order(plan)
            pairs = named(group(d, lambda o: o.defenders), ("retreated", "eliminated", "held"))
            result.object = ("; ".join(f"P({k}) {odds_text(p)}" for k, p in pairs)
                             + f"; expected SP lost {float(mean(d, lambda o: o.sp_lost)):.2f}. Best order: "
                             + ", ".join(f"attacker {i + 1}" for i in order)
                             + f" (P(retreat or eliminated) {odds_text(best)}). " + attacks.planner_note(plan))
            redraw(bars, plots.outcome_bars(pairs, "The defender after these attacks", height=200))
            box.visible = True

        for w in [defenders, terrain] + [x for pair in plans for x in pair]:
            w.param.watch(update, "value")
        self.live.param.watch(update, "version")
        update()
        return pn.Column(Text("Several attacks on one defender (BR-10.1, BR-11.1)", variant="h6"),
                         defenders, terrain, *[x for pair in plans for x in pair], result, box,
                         sizing_mode="stretch_width", css_classes=["attack-planner"])

    def _expected_hits(self):
        return pn.Column(Text("Expected hits by SP column and modifier (BR-10.4, BR-10.5)", variant="h6"),
                         pn.pane.HTML(expected_hits_html(self.live.state.options["over_12"]), stylesheets=[CSS],
                                      css_classes=["expected-hits"]), sizing_mode="stretch_width")

    def _correction_panel(self):
        editor = RosterEditor([{"name": u.spec.name, "side": u.spec.side, "entry_hex": u.spec.entry_hex,
                                "entry_turn": u.spec.entry_turn, "max_sp": u.spec.max_sp, "grey": u.spec.grey,
                                "bank": u.spec.bank} for u in self.live.state.units])
        panel = ActionPanel(self.live, "Correct the roster (undoable)",
                            lambda: {"type": "correct_roster", "roster": editor.rows()})
        editor.units.on_change(panel.refresh)
        return pn.Column(Text("Correct the roster (BR-2.4): units keep their hits.",
                              variant="subtitle1"), editor, panel, sizing_mode="stretch_width")

    def __panel__(self):
        return pmui.Column(self.track, two_columns(self.tabs, pn.Column(self.odds, self.log)),
                           sizing_mode="stretch_width")


serve_app(ENGINE, RosterEditor, BullRunView)
