"""灰に硝煙と青き天 dashboard: the board, the tracks, the phase guide, the battle tray with keep advice,
recruitment, the VP tally and the event log.

Every number shown comes from an engine call (engines.border_states), and every step form is built from the
engine's action specs; this module only lays them out with the game's own panels.
Serve it alone with `panel serve apps/border_states.py`, or with every app by `companion serve`.
"""
from __future__ import annotations

import asyncio
from functools import partial

import panel as pn
import panel_material_ui as pmui

import engines
from companion import plots
from companion.dice import ScriptedDice
from companion.engine import RuleError
from companion.odds import fractions, mean
from companion.ui.controls import OddsPanel, lazy_tabs, odds_text, redraw, switch, two_columns
from companion.ui.forms import SpecStep
from companion.ui.guide import PhaseGuide
from companion.ui.live import LiveSession
from companion.ui.log import EventLog
from companion.ui.records import CHOICE, FLAG, NUMBER, Column, RecordTable, SetupFile
from companion.ui.shell import serve_app
from companion.ui.text import Note, Text, escape, plain
from companion.ui.theme import TOUCH
from engines.border_states import advice
from engines.border_states.advice import RANKED_BY, supply_question
from engines.border_states.board import board_from_data, board_outline
from engines.border_states.example import EXAMPLE_DEPLOYMENT, example_board
from engines.border_states.guide import due_now, phase_title
from engines.border_states.initiative import initiative_win
from engines.border_states.outcome import battle_outcome
from engines.border_states.outlook import round_outlook
from engines.border_states.retreat import retreat_chance
from engines.border_states.round import recruit_outlook
from engines.border_states.rules import EFFECTS, SIDE_NAME, SIDES, C, U
from engines.border_states.state import DEPLOYMENT, GameState
from engines.border_states.tray import Keep, counts

ENGINE = engines.get("border_states")
OUTCOME_DICE = 7   # losses and marker chances on the page for rolls of up to this many dice (seconds, the first time)
ADVICE = 5         # takes of the keep advice offered as buttons
CSS = """
table.board { border-collapse: collapse; width: 100%; font-size: 16px; }
.board td, .board th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left; }
.board .fight { background: rgba(213,94,0,.18); }
.board .c { color: #8a8f98; font-weight: 700; } .board .u { color: #0072B2; font-weight: 700; }
.tracks { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 16px; margin: 4px 0; }
.damage { display: flex; gap: 2px; margin: 6px 0; }
.damage div { flex: 1; text-align: center; border: 1px solid rgba(128,128,128,.4); border-radius: 4px;
              font-size: 16px; padding: 3px 0; }
.damage .on { background: #E69F00; color: #000; font-weight: 700; }
.dice { display: inline-block; min-width: 28px; text-align: center; border: 2px solid rgba(128,128,128,.6);
        border-radius: 6px; margin: 2px; padding: 2px 4px; font-weight: 700; font-size: 17px; }
.dice.dmg { border-color: #D55E00; color: #D55E00; } .dice.left { opacity: .45; border-style: dashed; }
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
"""


SIDE_OF = {name: side for side, name in SIDE_NAME.items()}   # "CSA" -> "C": the tables show the sides by name
NAMES = tuple(SIDE_OF)
COLUMNS = {  # the board's tables (digest section 10): a column per field of the board file
    "areas": [Column("name", "State"), Column("side", "Side", CHOICE, NAMES), Column("border", "Border state", FLAG),
              Column("number", "Combat number (border states)", NUMBER), Column("vp", "VP (border states)", NUMBER),
              Column("success", "Recruits on (home states)", NUMBER)],
    "adjacency": [Column("a", "State", CHOICE), Column("b", "Borders on", CHOICE)],
    "damage_u": [Column("force_cut", "Union force cut", NUMBER, default=0),
                 Column("star", "CSA star VP", NUMBER, default=0)],
    "damage_c": [Column("force_cut", "CSA force cut", NUMBER, default=0),
                 Column("star", "Union star VP", NUMBER, default=0)],
    "commanders": [Column("side", "Side", CHOICE, NAMES, default="CSA"), Column("name", "Commander face"),
                   Column("actions", "Actions a round", NUMBER), Column("ability", "Ability", optional=True)],
    "cards": [Column("side", "Side", CHOICE, NAMES, default="CSA"), Column("name", "Card"),
              Column("copies", "Copies", NUMBER, default=1),
              Column("phase", "Phase", CHOICE, ("combat", "action"), default="combat"),
              Column("effect", "Effect", CHOICE, EFFECTS, default="FREE_TEXT"),
              Column("value", "Value", NUMBER, optional=True), Column("text", "Text", optional=True)]}
TABLES = {"areas": ("state", "States: the eight border states (combat number, VP) and the home states (recruitment "
                     "roll: this or more)"), "adjacency": ("border", "Borders: each pair of adjacent states once"),
          "damage_u": ("Union square", "Damage track toward the Union (U1 first)"),
          "damage_c": ("CSA square", "Damage track toward the CSA (C1 first)"), "commanders": ("commander face",
          "Commander faces (each side's first face starts)"), "cards": ("card", "Decks: one row per card, with copies")}


def _named(row: dict) -> dict:
    """A record of the board file as a table row: its side by name, a state's values for its kind only."""
    drop = () if "border" not in row else ("success",) if row["border"] else ("number", "vp")
    row = {k: v for k, v in row.items() if k not in drop}
    return {**row, "side": SIDE_NAME.get(row["side"], row["side"])} if "side" in row else row


class BoardEditor(pn.viewable.Viewer):
    """The board (the lost pictures of the source, from the players' board and cards) typed into tables, or opened
    from a board file (JSON or YAML) and saved as one; and, if the players have placed their units already, the
    deployment, with the choices the engine's deployment spec gives."""

    def __init__(self, **params):
        super().__init__(**params)
        self.state: GameState | None = None  # a game on the board entered, for the deployment's choices
        self._preset, self._label, self._filling = {}, "", False   # _preset: counts for the next deployment controls
        self.tables = {key: RecordTable(cols, TABLES[key][0], f"board-{key.replace('_', '-')}",
                                        height=320 if key in ("areas", "adjacency", "cards") else 170)
                       for key, cols in COLUMNS.items()}
        self.distrust = pmui.IntInput(label="Distrust loop: squares", start=1, size="large", css_classes=["distrust"])
        self.units = {s: pmui.IntInput(label=f"{SIDE_NAME[s]} unit pieces (commander unit included)", start=0,
                                       size="large", css_classes=[f"units-{s}"]) for s in SIDES}
        self.note = Note(severity="info", sizing_mode="stretch_width", css_classes=["board-note"])
        self.file = SetupFile(lambda raw: board_from_data(raw).to_dict(), self.entered, self.load,
                              "border_states_board.json", self.note)
        b = [pmui.Button(label=label, variant="outlined", css_classes=[css], **TOUCH) for label, css in (
            ("Load the example board", "load-example"), ("Start a board of my own", "own-board"))]
        b[0].on_click(lambda _: self.load_example())
        b[1].on_click(lambda _: self.load(board_outline()))
        self.deploy_now = switch("The units are already deployed: enter where", css="deploy-now")
        self.counts: dict[str, dict[str, pmui.IntInput]] = {side: {} for side in SIDES}
        self.commanders = {side: pmui.Select(label=DEPLOYMENT.param(f"commander_{side}").label, size="large",
                                             css_classes=[f"commander-{side}"]) for side in SIDES}
        self.deployment = pn.Column(sizing_mode="stretch_width", visible=False, css_classes=["bs-deployment"])
        self.deploy_now.param.watch(lambda e: setattr(self.deployment, "visible", e.new), "value")
        for t in self.tables.values():
            t.on_change(self._check)
        for w in (self.distrust, *self.units.values()):
            w.param.watch(lambda _: self._check(), "value")
        self.tables["areas"].on_change(self._choices)
        parts = [x for key, t in self.tables.items() for x in (Text(TABLES[key][1], variant="subtitle1"), t)]
        self._layout = pn.Column(Text("Board (from your game board and cards)", variant="h6"),
                                 pn.Row(*b), self.file, *parts[:8], pn.FlexBox(self.distrust, *self.units.values()),
                                 *parts[8:], self.note, self.deploy_now, self.deployment, sizing_mode="stretch_width")
        self.load(board_outline())

    def load_example(self) -> None:
        """The example board, and its deployment in the controls made for it (made with their values: a value set
        on a control the page is still drawing can be lost)."""
        self._preset = EXAMPLE_DEPLOYMENT
        self.load(example_board())
        self._preset = {}

    def load(self, data: dict) -> None:
        """The tables from a board's data (a file's, the example's, the outline's, or the tables' own)."""
        self._filling = True
        try:
            self._label = data.get("example", "")
            self.tables["adjacency"].set_rows([dict(zip("ab", r)) for r in data.get("adjacency", [])])
            for key in ("areas", "damage_u", "damage_c"):
                self.tables[key].set_rows([_named(r) for r in data.get(key, [])])
            for key in ("commanders", "cards"):
                self.tables[key].set_rows([_named({"side": s, **r}) for s, rows in data.get(key, {}).items()
                                           for r in rows])
            self.distrust.value = data.get("distrust_length")
            self.units[C].value, self.units[U].value = (data.get("units", {}).get(s) for s in (C, U))
        finally:
            self._filling = False
        self._choices()
        self._check()

    def entered(self) -> dict:
        """The board as the tables hold it (also while incomplete), as the board file has it."""
        rows = {key: [{**r, "side": SIDE_OF.get(r["side"], r["side"])} if "side" in r else r for r in t.rows()]
                for key, t in self.tables.items()}
        data = {"areas": rows["areas"], "adjacency": [[r[k] for k in "ab" if k in r] for r in rows["adjacency"]],
                "damage_u": rows["damage_u"], "damage_c": rows["damage_c"],
                **{key: {s: [{k: v for k, v in r.items() if k != "side"} for r in rows[key] if r.get("side") == s]
                         for s in SIDES} for key in ("commanders", "cards")},
                "units": {s: self.units[s].value for s in SIDES if self.units[s].value is not None}}
        data.update({k: v for k, v in (("distrust_length", self.distrust.value), ("example", self._label)) if v})
        return data

    def _choices(self) -> None:
        names = [r["name"] for r in self.tables["areas"].rows() if isinstance(r.get("name"), str)]
        for key in "ab":
            self.tables["adjacency"].set_choices(key, names)

    def _check(self) -> None:
        """The board as entered, checked by the engine: the note says what is wrong, or that it is valid; a valid
        board gets the deployment's controls (the counts entered kept)."""
        if self._filling:
            return
        data = self.entered()
        try:
            board = board_from_data(data)
        except RuleError as exc:
            outline = data == board_outline()
            self.note.param.update(severity="info" if outline else "error", object=plain(
                "Fill in the tables from your board and cards, open or paste your board file, or load the example."
                if outline else f"Not valid yet: {exc}"))
            self.deployment.objects = []
            return
        label = (board.example + ". ") if board.example else ""
        self.note.param.update(severity="warning" if board.example else "success", object=plain(
            label + f"{len(board.areas)} states, {len(board.adjacency)} borders: the board is valid."))
        self.state = ENGINE.start(None, {"board": board.to_dict()})
        rows = []
        for side in SIDES:
            found, before = DEPLOYMENT.param(side).legal(self.state, {}), self._preset.get(side) or self._spread(side)
            self.counts[side] = {c.value: pmui.IntInput(label=c.label, value=min(before.get(c.value, 0), cap), start=0,
                                                        end=cap, width=130, size="small")
                                 for c, cap in zip(found.options, found.caps)}
            for w in self.counts[side].values():
                w.param.watch(lambda _, side=side: self._commander(side), "value")
            self._commander(side)
            rows += [Text(f"{DEPLOYMENT.param(side).label}: {found.low}", variant="subtitle2"),
                     pn.FlexBox(*self.counts[side].values(), self.commanders[side])]
        self.deployment.objects = rows

    def _spread(self, side: str) -> dict[str, int]:
        return {area: w.value or 0 for area, w in self.counts[side].items()}

    def _commander(self, side: str) -> None:
        """Where the commander unit may stand, given the units placed (the engine's choices)."""
        found = DEPLOYMENT.param(f"commander_{side}").legal(self.state, {side: self._spread(side)})
        w = self.commanders[side]
        w.param.update(options={c.label: c.value for c in found.options},
                       value=w.value if found.offers(w.value) else found.values[0] if found.values else None)

    def setup(self) -> dict:
        setup = {"board": board_from_data(self.entered()).to_dict()}
        if self.deploy_now.value:
            setup["deployment"] = {s: {a: n for a, n in self._spread(s).items() if n} for s in SIDES}
            setup["commanders"] = {s: self.commanders[s].value or "" for s in SIDES}
        return setup

    def __panel__(self):
        return self._layout


def score(take) -> str:   # what the takes are ranked by, for one take
    return f"win + ½ draw {odds_text(take.score)}"


def dice_html(faces, kind: str = "") -> str:
    return "".join(f'<span class="dice {kind}">{f}</span>' for f in faces)


def tray_html(state: GameState) -> str:
    """The battle under way: each side's dice, kept, to damage and still to throw, and the throw waiting."""
    b = state.battle
    if b is None or b.stage in ("start", "supply"):
        return ""
    rows = []
    for side in (b.attacker, b.defender):
        tray = b.trays[side]
        res = b.results.get(side)
        tail = f" → strength {res.s}{' in ' + str(res.f) + 's' if res.s else ''}, {res.d} damage" if res else ""
        rows.append(f"<p><b>{SIDE_NAME[side]} ({b.role(side)})</b>: {dice_html(Keep(tray.confirmed).faces())}"
                    f"{dice_html([6] * tray.damage, 'dmg')}{dice_html(['?'] * tray.left, 'left')}{tail}</p>")
    if b.throw:
        rows.append(f"<p>Thrown by {SIDE_NAME[b.turn]}: {dice_html(reversed(Keep(b.throw).faces()))}</p>")
    return "".join(rows)


def outcome_rows(ending, state: GameState, x: int, y: int) -> list[tuple[str, str]]:
    """The chances of one commitment (x attacker's, y defender's supply dice) for each side, as odds rows."""
    if ending is None:
        return []
    battle = state.battle
    rows = [(f"with {x} and {y} supply dice: P(the attacker wins)", odds_text(ending.win("attacker"))),
            ("P(draw)", odds_text(ending.draw))]
    for side in (battle.attacker, battle.defender):
        role, name = battle.role(side), SIDE_NAME[side]
        rows += [(f"P({name} loses 2 units)", odds_text(ending.loses_two(role, state.count(battle.area, side)))),
                 (f"P(the damage marker moves toward the {name})", odds_text(ending.marker_toward(role)))]
    return rows


def board_html(state: GameState) -> str:
    rows = []
    for a in state.board.borders:
        c, u = state.count(a.name, C), state.count(a.name, U)
        fight = state.in_combat(a.name)
        ctrl = SIDE_NAME.get(state.controller(a.name), "-")
        marks = ["entrenched"] if a.name in state.entrenched else []
        marks += [f"{SIDE_NAME[s]} commander" for s in SIDES if state.commander_at[s] == a.name]
        rows.append(f'<tr class="{"fight" if fight else ""}"><td>{a.number}</td><td>{escape(a.name)}</td>'
                    f'<td>{SIDE_NAME[a.side]}</td><td>{a.vp}</td><td class="c">{c}</td><td class="u">{u}</td>'
                    f'<td>{ctrl}{" (combat)" if fight else ""}</td><td>{", ".join(marks)}</td></tr>')
    for side in SIDES:
        for a in state.board.homes(side):
            n = state.count(a.name, side)
            cmd = " (commander)" if state.commander_at[side] == a.name else ""
            rows.append(f'<tr><td></td><td>{escape(a.name)}</td><td>{SIDE_NAME[side]} home</td>'
                        f'<td>{a.success}+</td><td class="c">{n if side == C else ""}</td>'
                        f'<td class="u">{n if side == U else ""}</td><td></td><td>{cmd}</td></tr>')
    head = "<tr><th>#</th><th>state</th><th>side</th><th>VP / recruit</th><th>CSA</th><th>Union</th>" \
           "<th>control</th><th></th></tr>"
    return f'<table class="board">{head}{"".join(rows)}</table>'


def tracks_html(state: GameState) -> str:
    b = state.board
    squares = [f"C{i}" for i in range(len(b.damage_c), 0, -1)] + ["START"] + [f"U{i}" for i in range(1, len(b.damage_u) + 1)]
    at = len(b.damage_c) + state.damage
    damage = "".join(f'<div class="{"on" if i == at else ""}">{s}</div>' for i, s in enumerate(squares))
    facts = [f"Round {state.round} of 4"]
    for side in SIDES:
        facts.append(f"{SIDE_NAME[side]}: supply {state.supply[side]}/{state.supply_cap()}, units "
                     f"{state.on_board(side)}/{state.max_force(side)} (pool {state.pool(side)}), hand "
                     f"{state.hand[side]}, deck {state.deck[side]}, {state.commander_name(side)}"
                     + (f", {state.actions_left[side]} actions left" if state.phase == "action" else ""))
    facts.append(f"Distrust {state.distrust} of {b.distrust_length}")
    facts.append(f"VP now: CSA {state.vp(C)}, Union {state.vp(U)}")
    label = f'<div class="example">{escape(b.example)}</div>' if b.example else ""
    return (f'{label}<div class="tracks">{"".join(f"<span>{escape(f)}</span>" for f in facts)}</div>'
            f'<div class="damage" title="damage track (BS-CMB.9)">{damage}</div>')


class BorderStatesView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self._pending = None       # the supply question whose heatmap is being worked out
        self._advised = (-1, [])   # (session version, the keep advice then)
        self.tracks = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["tracks-pane"])
        self.board = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["board-pane"])
        self.tray = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["battle-tray"])
        self.phase = Text(variant="h6", css_classes=["phase-title"])
        self.odds = OddsPanel()
        self.log = EventLog(live)
        live.param.watch(lambda _: self.render(), "version")
        self.guide = PhaseGuide(live, due_now, self._form, self.odds.clear, phase_title)
        self.tabs = lazy_tabs({"Play": [self.phase, self.tray, self.guide], "Board": [self.board],
                               "Odds & tables": lambda: [self._outlook_panel(), self._strength_panel()]}, live=live)
        self.render()

    def render(self) -> None:
        s = self.live.state
        self.tracks.object = tracks_html(s)
        self.board.object = board_html(s)
        self.tray.object = tray_html(s)
        self.phase.object = phase_title(s)

    # --- the step forms: the engine's specs, with this game's odds beside them -------------------------------
    def _form(self, action: str) -> SpecStep:
        if action == "commit_supply":
            return self._supply_form()
        if action == "keep":
            return self._keep_form()
        shows = {"bid": lambda a: self._initiative("Initiative with these bids (BS-VAR.2)", a.get("c", 0), a.get("u", 0)),
                 "roll_initiative": lambda a: self._initiative("Initiative (BS-INIT)",
                                                               *(self.live.state.bids.get(x, 0) for x in SIDES)),
                 "retreat": lambda a: self.odds.show("Retreat (BS-RET)", [
                     ("P(it goes)", odds_text(retreat_chance(a.get("discard", False))))]),
                 "recruit": lambda a: self._recruit_odds()}
        return SpecStep(self.live, action, shows.get(action))

    def _initiative(self, title: str, bid_c: int, bid_u: int) -> None:
        p = initiative_win(bid_c, bid_u)
        self.odds.show(title, [("P(the CSA wins it)", odds_text(p)), ("P(the Union wins it)", odds_text(1 - p))])

    def _recruit_odds(self) -> None:
        s = self.live.state
        d = recruit_outlook(s)
        self.odds.show(f"{SIDE_NAME[s.turn]} recruitment this phase (BS-REC)",
                       [("expected units", f"{float(mean(d)):.2f}")] +
                       [(f"P({k} unit{'' if k == 1 else 's'})", odds_text(p)) for k, p in sorted(fractions(d).items())],
                       partial(plots.hits_bars, d, "Units recruited", "units"))

    def _supply_form(self) -> SpecStep:
        """The supply dice, with the defender's possible reply as the attacker weighs it (for the odds only)."""
        reply = pmui.IntInput(label="If the defender then adds (for the odds)", value=0, start=0, size="large",
                              css_classes=["supply-reply"])

        def reset():
            s = self.live.state
            reply.param.update(value=0, end=supply_question(s, 0).grid[3], visible=s.battle.turn == s.battle.attacker)
        step = SpecStep(self.live, "commit_supply", lambda a: self._supply_odds(a.get("count", 0), reply.value or 0, step),
                        after=[reply], on_reset=reset)
        reply.param.watch(lambda _: None if step.quiet else step.on_change(), "value")
        return step

    def _supply_odds(self, count: int, reply: int, form: SpecStep) -> None:
        """The heatmap of P(the attacker wins) over both sides' supply dice and the chances of this commitment,
        worked out off the page's thread: optimal play for many dice can take seconds the first time (then kept)."""
        s = self.live.state
        question = supply_question(s, count, reply)
        title = "P(the attacker wins) by supply dice (BS-CMB, both playing well)"
        self.odds.show(title, [], note="Working out optimal play for these dice (saved for next time)...")
        self._pending = question
        b = s.battle

        async def draw():
            grid = await asyncio.to_thread(advice.supply_grid, *question.grid)
            ending = (await asyncio.to_thread(battle_outcome, *question.dice, double_loss=s.options["double_loss"],
                                              damage_on_draw=s.options["damage_on_draw"])
                      if max(question.dice) <= OUTCOME_DICE else None)
            if self._pending != question or self.guide.active is not form:
                return
            cells = [(x, y, p) for (x, y), p in grid.items()]
            self.odds.show(title, outcome_rows(ending, s, *question.committed),
                           partial(plots.heatmap, cells, "Attacker's P(win)", f"{SIDE_NAME[b.attacker]} supply",
                                   f"{SIDE_NAME[b.defender]} supply", "P(win)"),
                           note="" if ending else f"Losses and marker: worked out for up to {OUTCOME_DICE} dice a side.")
        pn.state.execute(draw)

    def _advice(self) -> list:
        """The keep advice for the throw on the table, worked out once per state (the form redraws on every tap)."""
        if self._advised[0] != self.live.version:
            self._advised = (self.live.version, advice.keep_advice(self.live.state))
        return self._advised[1]

    def _keep_form(self) -> SpecStep:
        """The take from the throw: the best takes of the advice as buttons (a tap makes it), or any take tapped in."""
        buttons = [pmui.Button(label="", variant="outlined", css_classes=["use-advice", f"advice-{i}"], **TOUCH)
                   for i in range(ADVICE)]
        for i, b in enumerate(buttons):
            b.on_click(lambda _, i=i: self.live.act({"type": "keep", "confirm": self._advice()[i].keep.faces(),
                                                     "damage": self._advice()[i].keep.damage}, ScriptedDice(())))

        def reset():
            listed = self._advice()
            for i, b in enumerate(buttons):
                b.param.update(visible=i < len(listed), label="" if i >= len(listed) else
                               f"{'Best: ' if i == 0 else ''}{listed[i].keep.text()} · {score(listed[i])}")
        advisor = pn.Column(Text(f"The takes ranked by {RANKED_BY} (a draw counts half a win), both "
                                 "sides playing well after: tap one to take it, or tap in the dice below.",
                                 variant="body1", css_classes=["ranked-by"]), *buttons,
                            sizing_mode="stretch_width", css_classes=["keep-advice"])
        return SpecStep(self.live, "keep", self._keep_odds, before=[advisor], on_reset=reset)

    def _keep_odds(self, action) -> None:
        listed = self._advice()
        keep = Keep(counts(action.get("confirm") or ()), action.get("damage", 0))
        mine = next((c for c in listed if c.keep == keep), None)
        rows = [(f"{c.keep.text()}: win {odds_text(c.win)}, draw {odds_text(c.draw)}, loss {odds_text(c.loss)}, "
                 f"E[damage dice] {float(c.damage):.2f}", score(c)) for c in listed[:8]]
        numbers = ([(f"this keep: {RANKED_BY}", odds_text(mine.score)), ("P(win)", odds_text(mine.win)),
                    ("P(draw)", odds_text(mine.draw)), ("P(loss)", odds_text(mine.loss))] if mine else []) + rows
        self.odds.show("Keep advice (BS-CMB)", numbers, note=f"{len(listed)} legal keeps, ranked by {RANKED_BY} "
                                                             "(a draw counts half a win); the best first.")

    # --- the tables of the game -------------------------------------------------------------------------
    def _outlook_panel(self):
        """The round outlook (digest section 8), worked out on a tap and off the page's thread."""
        button = pmui.Button(label="Work out this round's outlook", variant="outlined", css_classes=["outlook-go"],
                             **TOUCH)
        text = Text(variant="body1", css_classes=["outlook-text"])

        async def work():
            state = self.live.state
            text.object = "Working out the combats still to fight..."
            found = await asyncio.to_thread(round_outlook, state)
            battles = ", ".join(found.battles) or "none"
            text.object = (f"Combats counted: {battles} (their dice: units, entrenchment and supply committed). "
                           f"P(the CSA reaches 10 VP this round) {odds_text(found.ten)}; "
                           f"P(the CSA wins at this round's victory check) {odds_text(found.csa_wins)}.")
        button.on_click(lambda _: pn.state.execute(work))
        return pn.Column(Text("Round outlook (BS-VIC)", variant="h6"), button, text,
                         sizing_mode="stretch_width")

    def _strength_panel(self):
        dice = pmui.IntSlider(label="Dice", start=1, end=12, value=6, css_classes=["strength-dice"])
        pane = pn.pane.Bokeh(sizing_mode="stretch_width")

        def draw(_=None):
            redraw(pane, plots.curves(advice.strength_curves(dice.value), f"Strength with {dice.value} dice",
                                      "strength S", "P(S >= s)", height=300))
        dice.param.watch(draw, "value")
        draw()
        return pn.Column(Text("Strength under three ways of keeping (BS-CMB)", variant="h6"), dice, pane,
                         sizing_mode="stretch_width")

    def __panel__(self):
        return pmui.Column(self.tracks, two_columns(self.tabs, pn.Column(self.odds, self.log)),
                           sizing_mode="stretch_width")


serve_app(ENGINE, BoardEditor, BorderStatesView)
