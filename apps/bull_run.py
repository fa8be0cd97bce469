"""Battle at Bull Run dashboard: roster, turn track, phase guide, combat wizard, odds, victory band, log.

Every number shown comes from an engine call (engines.bull_run); this module only lays it out.
Serve it alone with `panel serve apps/bull_run.py`, or with every app by `companion serve`.
"""
from __future__ import annotations

import html

import pandas as pd
import panel as pn
import panel_material_ui as pmui

import engines
from companion import plots
from companion.engine import RuleError
from companion.odds import group, mean, named
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
from engines.bull_run import actions as act
from engines.bull_run import outlook, solitaire
from engines.bull_run.combat import (
    attack_sequence_odds,
    best_attack_order,
    combat_odds,
    summarize,
)
from engines.bull_run.example import EXAMPLE_ROSTER, LABEL
from engines.bull_run.fire import expected_hits_grid
from engines.bull_run.flank import AwarenessInput, awareness_odds
from engines.bull_run.guide import due_now, phase_title
from engines.bull_run.hesitation import HESITATION
from engines.bull_run.initiative import SIDE_NAME, union_initiative_count_odds
from engines.bull_run.movement import CROSSINGS
from engines.bull_run.roster import parse_play_sheet, roster_from_rows, roster_warnings
from engines.bull_run.rules import (
    CSA,
    FARM_FORD,
    INITIATIVE,
    ORDERS,
    RETREAT_CHECK,
    SIDES,
    TARGET_TERRAINS,
    TURNS,
    UNION,
    VICTORY_TABLE,
)
from engines.bull_run.state import ELIMINATED, ON_MAP, PENDING, clock
from engines.bull_run.victory import table_result

ENGINE = engines.get("bull_run")
TABLES = {"roll_initiative": INITIATIVE, "farm_ford_roll": FARM_FORD, "retreat_check": RETREAT_CHECK}
COLUMNS = ["name", "side", "entry_hex", "entry_turn", "max_sp", "grey", "bank"]
TABLE_CSS = """
table.track { border-collapse: collapse; width: 100%; font-size: 14px; table-layout: fixed; }
.track td { border: 1px solid rgba(128,128,128,.4); text-align: center; padding: 2px 1px; line-height: 1.2; }
.track small { font-size: 11px; opacity: .8; }
.track .now { background: rgba(0,114,178,.25); font-weight: 700; }
.flags { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 4px; font-size: 14px; }
.band { display: flex; gap: 2px; margin-top: 6px; }
.band div { flex: 1; text-align: center; padding: 3px 2px; font-size: 12px; border-radius: 4px;
            border: 1px solid rgba(128,128,128,.4); }
.band .on { background: #E69F00; color: #000; font-weight: 700; }
table.units { border-collapse: collapse; width: 100%; font-size: 15px; }
.units td, .units th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 6px 4px; text-align: left; }
.units .gone { opacity: .5; text-decoration: line-through; }
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
"""


class RosterEditor(pn.viewable.Viewer):
    """The play sheet's unit table as players enter it (BR-2.4): type in the table, or paste lines."""

    def __init__(self, rows=(), **params):
        super().__init__(**params)
        self.table = pn.widgets.Tabulator(
            self._frame(rows), show_index=False, selectable="checkbox", sizing_mode="stretch_width",
            height=260, css_classes=["roster-table"],
            editors={"side": {"type": "list", "values": list(SIDES)}, "grey": {"type": "tickCross"},
                     "bank": {"type": "list", "values": ["", "north", "south"]},
                     "entry_turn": {"type": "number", "min": 1, "max": TURNS}, "max_sp": {"type": "number", "min": 1}},
            formatters={"grey": {"type": "tickCross"}},
            titles={"entry_hex": "entry hex", "entry_turn": "entry turn", "max_sp": "SP (highest box)",
                    "grey": "grey (Beauregard)", "bank": "enters (bank)"})
        example = pmui.Button(label="Load the example roster", variant="outlined", css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.set_rows(EXAMPLE_ROSTER))
        add = pmui.Button(label="Add a unit", variant="outlined", css_classes=["add-unit"], **TOUCH)
        add.on_click(lambda _: self.set_rows(self.rows() + [{"name": "", "side": UNION, "entry_hex": "", "entry_turn": 1,
                                                               "max_sp": 1, "grey": False, "bank": ""}]))
        remove = pmui.Button(label="Remove ticked", variant="outlined", **TOUCH)
        remove.on_click(lambda _: self.set_rows([r for i, r in enumerate(self.rows()) if i not in self.table.selection]))
        self.paste = pmui.TextAreaInput(label="Or paste the play sheet: name, side, hex/turn, SP track, [grey]",
                                        placeholder="Evans' Brigade, CSA, 1/1, 3-2-1", rows=3,
                                        sizing_mode="stretch_width", css_classes=["paste-roster"])
        read = pmui.Button(label="Read pasted lines", variant="outlined", css_classes=["read-paste"], **TOUCH)
        read.on_click(lambda _: self.read_paste())
        self.note = pmui.Alert(severity="info", visible=False, sizing_mode="stretch_width", css_classes=["roster-note"])
        self.table.param.watch(lambda _: self._check(), "value")
        self._layout = pmui.Column(
            pmui.Typography("Roster (from your play sheet)", variant="h6"), self.table,
            pmui.Row(example, add, remove), self.paste, read, self.note, sizing_mode="stretch_width")
        self._check()

    @staticmethod
    def _frame(rows) -> pd.DataFrame:
        return pd.DataFrame([{c: r.get(c, "") for c in COLUMNS} for r in rows], columns=COLUMNS)

    def set_rows(self, rows) -> None:
        self.table.value = self._frame(rows)

    def rows(self) -> list[dict]:
        out = []
        for record in self.table.value.to_dict("records"):
            row = {k: (v.item() if hasattr(v, "item") else v) for k, v in record.items()}
            row["grey"] = bool(row.get("grey")) if row.get("grey") not in ("", None) else False
            row["bank"] = row.get("bank") or ""
            out.append(row)
        return out

    def is_example(self) -> bool:
        rows = [{k: r[k] for k in EXAMPLE_ROSTER[0]} for r in self.rows()]
        normal = [{k: str(v) for k, v in r.items()} for r in rows]
        return normal == [{k: str(v) for k, v in r.items()} for r in EXAMPLE_ROSTER]

    def read_paste(self) -> None:
        try:
            self.set_rows(parse_play_sheet(self.paste.value_input or self.paste.value))
        except RuleError as exc:
            self.note.severity, self.note.object, self.note.visible = "error", str(exc), True

    def _check(self) -> None:
        if not len(self.table.value):
            self.note.severity, self.note.object, self.note.visible = "info", "Enter your units, or load the example.", True
            return
        try:
            warnings = roster_warnings(roster_from_rows(self.rows()))
        except RuleError as exc:
            self.note.severity, self.note.object, self.note.visible = "error", str(exc), True
            return
        if self.is_example():
            warnings = [LABEL + "."] + warnings
        self.note.severity = "warning" if warnings else "success"
        self.note.object = " ".join(warnings) or "The roster is valid."
        self.note.visible = True

    def setup(self) -> dict:
        setup = {"roster": self.rows()}
        if self.is_example():
            setup["example"] = LABEL
        return setup

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
                     f'<br>{side}{" " + order if order else ""}</td>')
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
    legend = "turn / clock / initiative" + (" and CSA order" if s.options["solitaire"] else "")
    return (f'{label}<table class="track" title="{legend}"><tr>{"".join(cells)}</tr></table>'
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


class BullRunView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self.track = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[TABLE_CSS], css_classes=["turn-track"])
        self.phase = pmui.Typography(variant="h6", css_classes=["phase-title"])
        self.order = pmui.Alert(severity="info", sizing_mode="stretch_width", css_classes=["order-text"],
                                visible=False)
        self.odds = OddsPanel()
        self.units = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[TABLE_CSS], css_classes=["units"])
        self.outlook = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=300)
        self.initiative = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=260)
        self._curves = self._unrolled = None
        self.log = EventLog(live)
        live.param.watch(lambda _: self.render(), "version")
        self.guide = PhaseGuide(live, due_now, self._form, self.odds.clear, phase_title)
        heat = plots.heatmap(expected_hits_grid(live.state.options["over_12"]),
                             "Expected hits by SP column and modifier (BR-10.4, BR-10.5)", "SP column", "modifier",
                             "expected hits")
        self.tabs = lazy_tabs({
            "Play": [self.phase, self.order, self.guide],
            "Units": [self.units, self._correction_panel()],
            "Odds & tables": [pn.pane.HoloViews(heat, sizing_mode="stretch_width", min_height=320), self.outlook,
                              self.initiative, self._planner()],
        })
        self.render()

    # --- rendering ---------------------------------------------------------------------------------
    def render(self) -> None:
        s = self.live.state
        self.track.object = track_html(self.live)
        self.phase.object = phase_title(s)
        self.units.object = units_html(self.live)
        curves = outlook.by_turn(s)
        if curves != self._curves:
            self._curves = curves
            self.outlook.object = plots.curves(curves, "Chance it has happened by turn n", "turn", "probability")
        unrolled = sum(1 for side in s.initiative if not side)
        if unrolled != self._unrolled:
            self._unrolled = unrolled
            self.initiative.object = plots.hits_bars(union_initiative_count_odds(unrolled),
                                                     f"Union initiatives in the {unrolled} turns not yet rolled (BR-6.0)",
                                                     "turns")
        self._order_panel()

    def _order_panel(self) -> None:
        s = self.live.state
        letter = s.orders[s.turn - 1] if s.options["solitaire"] else ""
        self.order.visible = bool(letter)
        if not letter:
            return
        order = solitaire.order_for(letter, [u.name for u in s.units], "sudley" in s.fords_crossed)
        units = ", ".join(f"{n}{' = ' + u if u else ''}" for n, u in order.units)
        text = f"**CSA order {order.letter}: {order.title}** (BR-9.1). {order.text}"
        if units:
            text += f"\n\nUnits named: {units}."
        if order.notes:
            text += "\n\n" + " ".join(order.notes)
        self.order.object = text

    def _form(self, action: str) -> StepForm:
        """The step form of an action type, built the first time it is due."""
        builders = {"awareness_check": self._awareness_form, "csa_action_roll": self._action_form,
                    "move": self._move_form, "declare_attack": self._attack_form, "allocate_hits": self._allocate_form,
                    "retreat": self._retreat_form, "advance": self._advance_form, "end_turn": self._end_turn_form}
        if action in builders:
            return builders[action]()
        if action in TABLES:
            return StepForm(action, show=self._table_odds(TABLES[action]))
        if action == "fire":
            return StepForm(action, show=self._fire_odds)
        return StepForm(action)

    # --- odds shown beside the step ------------------------------------------------------------------
    def _table_odds(self, table):
        def show():
            d = table.odds()
            names = {s: SIDE_NAME[s] for s in SIDES} if table is INITIATIVE else {
                True: "yes, on " + ", ".join(map(str, table.faces_for(True))), False: "no"}
            self.odds.show(f"{table.title} ({table.rule})", [(names[o], odds_text(d.probability(o))) for o in d.outcomes()])
        return show

    def _show_combat(self, combat, note: str = "") -> None:
        summary = summarize(combat_odds(act.combat_input(self.live.state, combat)))
        self.odds.show("This combat (BR-10.1, BR-10.4, BR-11.1)", [
            ("P(defender retreats)", odds_text(summary.defenders_retreat)),
            ("P(attacker retreats)", odds_text(summary.attackers_retreat)),
            ("P(defender eliminated)", odds_text(summary.defenders_eliminated)),
            ("P(attacker eliminated)", odds_text(summary.attackers_eliminated)),
            ("expected hits on the defender", f"{float(summary.expected_on_defenders):.2f}"),
            ("expected hits on the attacker", f"{float(summary.expected_on_attackers):.2f}"),
        ], plots.hits_bars(summary.hits_on_defenders, f"Hits on the defender ({combat.attacker_fire_sp} SP fire)"),
            note, plots.hits_bars(summary.hits_on_attackers,
                                  f"Hits on the attacker ({combat.defender_fire_sp} SP fire)" if combat.defender_fires
                                  else "Hits on the attacker (the defender does not fire back)"))

    def _fire_odds(self) -> None:
        if self.live.state.combat is None:
            return self.odds.clear()
        self._show_combat(self.live.state.combat)

    # --- forms -----------------------------------------------------------------------------------------
    def _awareness_form(self) -> StepForm:
        adjacent = switch("A Union unit south of Bull Run is adjacent to a CSA unit", css="adjacent")

        def show():
            p = awareness_odds(AwarenessInput(adjacent.value)).probability(True)
            self.odds.show("Flank awareness (BR-8.4a)", [("P(the CSA becomes aware)", odds_text(p))])
        return StepForm("awareness_check", [adjacent],
                        build=lambda: {"type": "awareness_check", "adjacent": adjacent.value}, show=show,
                        update=lambda: setattr(adjacent, "value", False))

    def _action_form(self) -> StepForm:
        count = pmui.IntInput(label="Union units south of Bull Run (A7: count them on the map)", start=0,
                              css_classes=["union-south"], size="large")

        def show():
            try:
                inputs = act.action_input(self.live.state, count.value)
            except RuleError:
                return self.odds.clear()
            pairs = named(solitaire.action_odds(inputs), ORDERS)
            self.odds.show(f"CSA order, column {solitaire.action_column(inputs)} (BR-9.0)",
                       [(f"order {k}", odds_text(p)) for k, p in pairs if p], plots.outcome_bars(pairs, "CSA order"))
        return StepForm("csa_action_roll", [count],
                        build=lambda: {"type": "csa_action_roll", "union_south": count.value}, show=show,
                        update=lambda: setattr(count, "value", self.live.state.union_south()))

    def _move_form(self) -> StepForm:
        unit = pmui.Select(label="Unit", css_classes=["move-unit"], size="large", sizing_mode="stretch_width")
        path = pmui.TextInput(label="Hexes entered (terrain)", disabled=True, sizing_mode="stretch_width",
                              css_classes=["move-path"])
        buttons = []
        for terrain, cost in self.live.state.options["terrain_costs"].items():
            b = pmui.Button(label=f"{terrain} {cost if cost is not None else 'x'}", variant="outlined",
                            disabled=cost is None, css_classes=["terrain", f"terrain-{terrain}"], **TOUCH)
            b.on_click(lambda _, t=terrain: setattr(path, "value", f"{path.value} {t}".strip()))
            buttons.append(b)
        back = pmui.Button(label="Back one hex", variant="text", **TOUCH)
        back.on_click(lambda _: setattr(path, "value", " ".join(path.value.split()[:-1])))
        crossing = pmui.Select(label="Crosses Bull Run", options={v: k for k, v in CROSSINGS.items()}, value="",
                               css_classes=["move-crossing"], size="large", sizing_mode="stretch_width")
        west = switch("The move goes west of Stone Bridge (BR-8.4c)", css="west")
        enemy = switch("It enters or passes a hex with enemy units (BR-8.2)", css="enemy-hex")
        zoc = switch("It goes on after entering an enemy ZOC (BR-8.2)", css="zoc")
        friends = pmui.IntInput(label="Friendly units already in the destination hex", value=0, start=0, size="large")
        inputs = [unit, path, crossing, west, enemy, zoc, friends]

        def update():
            s = self.live.state
            names = [u.name for u in s.side_units(s.active, ON_MAP) if not u.moved]
            unit.options = names
            unit.value = names[0] if names else None
            path.value, crossing.value, friends.value = "", "", 0
            west.value = enemy.value = zoc.value = False
            west.visible = s.active == CSA
        return StepForm("move", inputs,
                        layout=[unit, pn.FlexBox(*buttons), pmui.Row(path, back, sizing_mode="stretch_width"),
                                crossing, west, enemy, zoc, friends],
                        build=lambda: {"type": "move", "unit": unit.value, "path": path.value.split(),
                                       "crossing": crossing.value, "west_of_stone_bridge": west.value,
                                       "into_enemy_hex": enemy.value, "through_enemy_zoc": zoc.value,
                                       "friendly_in_destination": friends.value or 0},
                        update=update)

    def _attack_form(self) -> StepForm:
        attackers = picker("Attacking stack (1-2 units)", "attackers")
        defenders = picker("Defending stack (all its units)", "defenders")
        terrain = pmui.RadioButtonGroup(label="Defender's hex", options=list(TARGET_TERRAINS), value="clear",
                                        css_classes=["target-terrain"], size="large")
        own = pmui.RadioButtonGroup(label="Attacker's hex (symmetric modifiers, A9)", options=list(TARGET_TERRAINS),
                                    value="clear", size="large")
        ford = switch("The attack is across a Bull Run ford (-2)", css="across-ford")
        bridge = switch("The attack is across Stone Bridge", css="across-bridge")
        advisor, pickers, advice = self._target_advisor(defenders)
        inputs = [attackers, defenders, terrain, own, ford, bridge]

        def build():
            return {"type": "declare_attack", "attackers": list(attackers.value), "defenders": list(defenders.value),
                    "target_terrain": terrain.value, "attacker_terrain": own.value, "across_ford": ford.value,
                    "across_bridge": bridge.value}

        def show():
            action = build()
            try:
                combat = act.preview_attack(self.live.state, **{k: v for k, v in action.items() if k != "type"})
            except RuleError:
                return self.odds.clear()
            note = ""
            if act.hesitates(self.live.state, action["attackers"]):
                note = (f"McDowell's hesitation first (BR-10.2): the stack attacks only on "
                        f"{', '.join(map(str, HESITATION.faces_for(True)))} "
                        f"({odds_text(HESITATION.odds().probability(True))}); these odds assume it does.")
            self._show_combat(combat, note)

        def update():
            s = self.live.state
            enemy = CSA if s.active == UNION else UNION
            attackers.options = act.attackers_left(s)
            defenders.options = [u.name for u in s.side_units(enemy, ON_MAP)]
            attackers.value, defenders.value, terrain.value, own.value = [], [], "clear", "clear"
            ford.value = bridge.value = False
            own.visible = s.options["symmetric_modifiers"]
            advisor.visible = s.options["solitaire"] and s.active == CSA
            for p in pickers:
                p.options, p.value = list(defenders.options), []
            advice.visible = False
        return StepForm("declare_attack", inputs, layout=[advisor] + inputs, build=build, show=show,
                        update=update)

    def _target_advisor(self, defenders):
        """BR-9.3: the weakest adjacent Union stack; the player names the stacks next to the CSA stack."""
        pickers = [picker(f"Adjacent Union stack {i}", f"adjacent-{i}") for i in (1, 2, 3)]
        advice = pmui.Alert(severity="info", visible=False, sizing_mode="stretch_width", css_classes=["target-advice"])
        pick = pmui.Button(label="Attack the weakest (BR-9.3)", variant="outlined", css_classes=["pick-target"], **TOUCH)

        def choose(_=None):
            result = solitaire.choose_target([p.value for p in pickers if p.value],
                                             lambda n: self.live.state.unit(n).sp)
            advice.object, advice.visible = result.reason, True
            if result.target:
                defenders.value = list(result.target)
        pick.on_click(choose)
        intro = pmui.Typography("CSA with the initiative: every CSA stack next to a Union stack attacks (BR-9.2), "
                                "the weakest adjacent Union stack first (BR-9.3). Name the stacks next to it:",
                                variant="body2")
        return pmui.Column(intro, *pickers, pick, advice, sizing_mode="stretch_width"), pickers, advice

    def _allocate_form(self) -> StepForm:
        selects = {target: pmui.Select(css_classes=[f"hits-{target}"], sizing_mode="stretch_width", size="large")
                   for target in ("defenders", "attackers")}

        def update():
            s = self.live.state
            combat = s.combat
            for target, select in selects.items():
                hits = combat.hits_on_defenders if target == "defenders" else combat.hits_on_attackers
                select.visible = bool(hits)
                if not hits:
                    continue
                options = list(act.hit_options(s, target))
                firer = act.firer_side(s, target)
                solo = s.options["solitaire"] and firer == CSA
                plural = "s" if hits > 1 else ""
                select.label = (f"{hits} hit{plural} on the {target}: the companion places them (BR-9.4)" if solo else
                                f"{hits} hit{plural} on the {target}: the {SIDE_NAME[firer]} player chooses (BR-10.3)")
                select.options = options
                select.value = solitaire.hit_choice([(n, s.unit(n).sp) for n in options], hits) if solo else options[0]
                select.disabled = len(options) == 1

        def build():
            return {"type": "allocate_hits", **{f"on_{t}": w.value for t, w in selects.items() if w.visible}}
        return StepForm("allocate_hits", list(selects.values()), build=build, show=self._fire_odds,
                        update=update)

    def _retreat_form(self) -> StepForm:
        legal = switch("There is a legal hex to retreat to (else the stack is eliminated)", True, "legal-hex")
        ford = switch("It retreats across Bull Run at a ford", css="retreat-ford")

        def update():
            legal.value, ford.value = True, False
        return StepForm("retreat", [legal, ford],
                        build=lambda: {"type": "retreat", "legal_hex": legal.value, "across_ford": ford.value},
                        update=update)

    def _advance_form(self) -> StepForm:
        near = switch("Advancing would put it next to a stronger Union stack that has not fought this turn (BR-9.5)",
                      css="stronger-near")
        go = switch("Advance into the vacated hex", True, "do-advance")

        def update():
            forced = act.companion_advances(self.live.state)
            near.value, go.value = False, True
            near.visible, go.visible = forced, not forced

        def build():
            if act.companion_advances(self.live.state):
                return {"type": "advance", "next_to_stronger_fresh_union": near.value}
            return {"type": "advance", "advance": go.value}
        return StepForm("advance", [near, go], build=build, update=update)

    def _end_turn_form(self) -> StepForm:
        union = switch("A Union unit occupies the O&A 'To Manassas' hex (BR-3.0a)", css="union-holds")
        csa = switch("A CSA unit occupies Centerville (BR-3.0b)", css="csa-holds")

        def update():
            union.value = csa.value = False
        return StepForm("end_turn", [union, csa],
                        build=lambda: {"type": "end_turn", "union_holds_manassas": union.value,
                                       "csa_holds_centerville": csa.value}, update=update)

    def _planner(self):
        """Several attacks on one defender this turn (BR-10.1, BR-11.1): the odds in the order given and the
        best order. Hits on the defender are placed as BR-9.4 places them."""
        defenders = picker("Defending stack", "plan-defenders")
        terrain = pmui.RadioButtonGroup(label="Defender's hex", options=list(TARGET_TERRAINS), value="clear", size="large")
        attacks = [(picker(f"Attacker {i}", f"plan-attacker-{i}"), switch(f"Attacker {i} is across a ford (-2)"))
                   for i in (1, 2, 3)]
        result = pn.pane.HTML(sizing_mode="stretch_width", css_classes=["plan-result"])
        bars = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=200)
        box = pmui.Column(bars, sizing_mode="stretch_width", visible=False)

        def names() -> list[str]:
            return [u.name for u in self.live.state.units if u.status == ON_MAP]

        def update(_=None):
            for buttons in [defenders] + [a for a, _ in attacks]:
                buttons.options = names()
            try:
                plan = act.sequence_input(self.live.state, defenders.value,
                                          [(a.value, f.value) for a, f in attacks if a.value], terrain.value)
            except RuleError as exc:
                result.object, box.visible = html.escape(exc.message), False
                return
            d = attack_sequence_odds(plan)
            order, best = best_attack_order(plan)
            outcomes = group(d, lambda o: o.defenders)
            pairs = named(outcomes, ("retreated", "eliminated", "held"))
            result.object = ("; ".join(f"P({k}) {odds_text(p)}" for k, p in pairs)
                             + f"; expected SP lost {float(mean(d, lambda o: o.sp_lost)):.2f}. Best order: attacker "
                             + ", ".join(str(i + 1) for i in order) + f" (P(retreat or eliminated) {odds_text(best)}).")
            bars.object, box.visible = plots.outcome_bars(pairs, "The defender after these attacks"), True

        for w in [defenders, terrain] + [x for pair in attacks for x in pair]:
            w.param.watch(update, "value")
        update()
        return pmui.Column(pmui.Typography("Several attacks on one defender (BR-10.1, BR-11.1)", variant="h6"),
                           pmui.Typography("The defender fires back once, at the first attacker; hits on it go to a "
                                           "unit they eliminate, else the weakest (the BR-9.4 way).", variant="body2"),
                           defenders, terrain, *[x for pair in attacks for x in pair], result, box,
                           sizing_mode="stretch_width", css_classes=["attack-planner"])

    def _correction_panel(self):
        editor = RosterEditor([{"name": u.spec.name, "side": u.spec.side, "entry_hex": u.spec.entry_hex,
                                "entry_turn": u.spec.entry_turn, "max_sp": u.spec.max_sp, "grey": u.spec.grey,
                                "bank": u.spec.bank} for u in self.live.state.units])
        panel = ActionPanel(self.live, "Correct the roster (undoable)",
                            lambda: {"type": "correct_roster", "roster": editor.rows()})
        editor.table.param.watch(lambda _: panel.refresh(), "value")
        return pmui.Column(pmui.Typography("Correct the roster (digest section 10): units keep their hits.",
                                           variant="subtitle1"), editor, panel, sizing_mode="stretch_width")

    def __panel__(self):
        return pmui.Column(self.track, two_columns(self.tabs, pmui.Column(self.odds, self.log)),
                           sizing_mode="stretch_width")


def page():
    return app_page(ENGINE, RosterEditor, BullRunView)


if pn.state.served:
    extension("tabulator")
    page().servable(title="Battle at Bull Run")
