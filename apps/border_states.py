"""灰に硝煙と青き天 dashboard: the board, the tracks, the phase guide, the battle tray with keep advice,
recruitment, the VP tally and the event log.

Every number shown comes from an engine call (engines.border_states); this module only lays it out.
Serve it alone with `panel serve apps/border_states.py`, or with every app by `companion serve`.
"""
from __future__ import annotations

import asyncio
import html
import json

import panel as pn
import panel_material_ui as pmui

import engines
from companion import plots
from companion.engine import RuleError
from companion.odds import fractions, mean
from companion.spec import Legal
from companion.ui.controls import OddsPanel, lazy_tabs, odds_text, switch, two_columns
from companion.ui.guide import PhaseGuide, StepForm
from companion.ui.live import LiveSession
from companion.ui.log import EventLog
from companion.ui.shell import app_page
from companion.ui.theme import TOUCH, extension
from engines.border_states import advice
from engines.border_states.battle import supply_limit
from engines.border_states.board import board_from_data
from engines.border_states.example import EXAMPLE_DEPLOYMENT, example_board
from engines.border_states.guide import due_now, phase_title
from engines.border_states.initiative import initiative_win
from engines.border_states.outcome import battle_outcome
from engines.border_states.outlook import round_outlook
from engines.border_states.recruitment import recruits_odds
from engines.border_states.rules import RETREAT, SIDE_NAME, SIDES, C, U
from engines.border_states.state import GameState
from engines.border_states.tray import FACES, Keep

ENGINE = engines.get("border_states")
OUTCOME_DICE = 7   # losses and marker chances on the page for rolls of up to this many dice (seconds, the first time)
CSS = """
table.board { border-collapse: collapse; width: 100%; font-size: 15px; }
.board td, .board th { border-bottom: 1px solid rgba(128,128,128,.3); padding: 5px 4px; text-align: left; }
.board .fight { background: rgba(213,94,0,.18); }
.board .c { color: #8a8f98; font-weight: 700; } .board .u { color: #0072B2; font-weight: 700; }
.tracks { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 15px; margin: 4px 0; }
.damage { display: flex; gap: 2px; margin: 6px 0; }
.damage div { flex: 1; text-align: center; border: 1px solid rgba(128,128,128,.4); border-radius: 4px;
              font-size: 12px; padding: 3px 0; }
.damage .on { background: #E69F00; color: #000; font-weight: 700; }
.dice { display: inline-block; min-width: 28px; text-align: center; border: 2px solid rgba(128,128,128,.6);
        border-radius: 6px; margin: 2px; padding: 2px 4px; font-weight: 700; font-size: 17px; }
.dice.dmg { border-color: #D55E00; color: #D55E00; } .dice.left { opacity: .45; border-style: dashed; }
.example { background: #F0E442; color: #000; padding: 4px 8px; border-radius: 4px; font-weight: 600; }
"""


class BoardEditor(pn.viewable.Viewer):
    """The board file (the lost pictures of the source, from the players' board) and, if the players have
    placed their units already, the deployment."""

    def __init__(self, **params):
        super().__init__(**params)
        self.text = pmui.TextAreaInput(label="Board file (JSON)", rows=6, sizing_mode="stretch_width",
                                       css_classes=["board-json"])
        self.upload = pmui.FileInput(label="Open a board file", accept=".json", css_classes=["board-file"])
        self.upload.param.watch(lambda e: setattr(self.text, "value", e.new.decode("utf-8", "replace"))
                                if e.new else None, "value")
        example = pmui.Button(label="Load the example board", variant="outlined", css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.load_example())
        self.deploy_now = switch("The units are already deployed: enter where", css="deploy-now")
        self.counts = {side: {} for side in SIDES}
        self.commanders = {side: pmui.Select(label=f"{SIDE_NAME[side]} commander unit in", options=[""],
                                             size="large", css_classes=[f"commander-{side}"]) for side in SIDES}
        self.deployment = pmui.Column(sizing_mode="stretch_width", visible=False)
        self.deploy_now.param.watch(lambda e: setattr(self.deployment, "visible", e.new), "value")
        self.note = pmui.Alert(severity="info", sizing_mode="stretch_width", css_classes=["board-note"])
        self.text.param.watch(lambda _: self._check(), "value")
        self._layout = pmui.Column(pmui.Typography("Board (from your game board and cards)", variant="h6"),
                                   pmui.Row(example, self.upload), self.text, self.note, self.deploy_now,
                                   self.deployment, sizing_mode="stretch_width")
        self._check()

    def load_example(self) -> None:
        self.text.value = json.dumps(example_board(), indent=1)
        self._check()
        for side in SIDES:
            for area, n in EXAMPLE_DEPLOYMENT[side].items():
                self.counts[side][area].value = n

    def _check(self) -> None:
        try:
            board = board_from_data(self.text.value or "null")
        except RuleError as exc:
            self.note.severity, self.note.object = ("info", "Open or paste your board file, or load the example."
                                                    ) if not self.text.value else ("error", str(exc))
            return
        label = (board.example + ". ") if board.example else ""
        self.note.severity = "warning" if board.example else "success"
        self.note.object = label + f"{len(board.areas)} states, {len(board.adjacency)} borders: the board is valid."
        rows = []
        for side in SIDES:
            own = [a.name for a in board.borders if a.side == side]
            self.counts[side] = {a: pmui.IntInput(label=a, value=0, start=0, end=3, width=130, size="small")
                                 for a in own}
            self.commanders[side].options = [""] + own
            rows.append(pmui.Typography(f"{SIDE_NAME[side]} ({8 if side == C else 7} units)", variant="subtitle2"))
            rows.append(pn.FlexBox(*self.counts[side].values(), self.commanders[side]))
        self.deployment.objects = rows

    def setup(self) -> dict:
        setup = {"board": json.loads(self.text.value or "null")}
        if self.deploy_now.value:
            setup["deployment"] = {s: {a: w.value for a, w in self.counts[s].items() if w.value}
                                   for s in SIDES}
            setup["commanders"] = {s: self.commanders[s].value for s in SIDES}
        return setup

    def __panel__(self):
        return self._layout


def legal(state: GameState, action: str, param: str, **chosen) -> Legal | None:
    """What the engine allows now for one parameter of an action, given the parameters chosen before it."""
    return ENGINE.actions.specs[action].param(param).legal(state, chosen)


def offer(widget, found: Legal | None) -> None:
    """A select or button group set to the values the engine offers (by their labels), the first chosen."""
    widget.options = {c.label: c.value for c in found.options} if found else {}
    widget.value = found.values[0] if found and found.options else None


def answer(widget, found: Legal | None) -> None:
    """A yes/no switch as the engine allows it: hidden when only "no" is possible (or it is not asked), set and
    fixed when only "yes" is."""
    allowed = found.values if found else ()
    widget.visible = True in allowed
    widget.disabled = allowed == (True,)
    widget.value = allowed == (True,)


class Guide(PhaseGuide):
    """The phase guide with a button for every other step open now, so that each stays reachable after another
    step's form was chosen (after "entrenches", "moves a unit" is still there)."""

    def select(self, action: str | None) -> None:
        super().select(action)
        for due in self._due.values():
            self._button(due).visible = due.action != action


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
        kept = [f + 1 for f in range(FACES) for _ in range(tray.confirmed[f])]
        res = b.results.get(side)
        tail = f" → strength {res.s}{' in ' + str(res.f) + 's' if res.s else ''}, {res.d} damage" if res else ""
        rows.append(f"<p><b>{SIDE_NAME[side]} ({b.role(side)})</b>: {dice_html(kept)}{dice_html([6] * tray.damage, 'dmg')}"
                    f"{dice_html(['?'] * tray.left, 'left')}{tail}</p>")
    if b.throw:
        thrown = [f + 1 for f in reversed(range(FACES)) for _ in range(b.throw[f])]
        rows.append(f"<p>Thrown by {SIDE_NAME[b.turn]}: {dice_html(thrown)}</p>")
    return "".join(rows)


def outcome_rows(ending, state: GameState, battle, x: int, y: int) -> list[tuple[str, str]]:
    """The chances of one commitment (x attacker's, y defender's supply dice) for each side, as odds rows."""
    if ending is None:
        return []
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
        marks = [("entrenched" if a.name in state.entrenched else "")]
        marks += [f"{SIDE_NAME[s]} commander" for s in SIDES if state.commander_at[s] == a.name]
        rows.append(f'<tr class="{"fight" if fight else ""}"><td>{a.number}</td><td>{html.escape(a.name)}</td>'
                    f'<td>{SIDE_NAME[a.side]}</td><td>{a.vp}</td><td class="c">{c}</td><td class="u">{u}</td>'
                    f'<td>{ctrl}{" (combat)" if fight else ""}</td><td>{", ".join(m for m in marks if m)}</td></tr>')
    for side in SIDES:
        for a in state.board.homes(side):
            n = state.count(a.name, side)
            cmd = " (commander)" if state.commander_at[side] == a.name else ""
            rows.append(f'<tr><td></td><td>{html.escape(a.name)}</td><td>{SIDE_NAME[side]} home</td>'
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
    label = f'<div class="example">{html.escape(b.example)}</div>' if b.example else ""
    return (f'{label}<div class="tracks">{"".join(f"<span>{html.escape(f)}</span>" for f in facts)}</div>'
            f'<div class="damage" title="damage track (BS-CMB.9)">{damage}</div>')


class BorderStatesView(pn.viewable.Viewer):
    """The game view of an open session."""

    def __init__(self, live: LiveSession, **params):
        super().__init__(**params)
        self.live = live
        self._pending = None  # the supply dice whose heatmap is being worked out
        self.tracks = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["tracks-pane"])
        self.board = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["board-pane"])
        self.tray = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CSS], css_classes=["battle-tray"])
        self.phase = pmui.Typography(variant="h6", css_classes=["phase-title"])
        self.odds = OddsPanel()
        self.log = EventLog(live)
        live.param.watch(lambda _: self.render(), "version")
        self.guide = Guide(live, due_now, self._form, self.odds.clear, phase_title)
        self.strength = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=300)
        self.tabs = lazy_tabs({
            "Play": [self.phase, self.tray, self.guide],
            "Board": [self.board],
            "Odds & tables": [self._outlook_panel(), self._strength_panel()],
        })
        self.render()

    def render(self) -> None:
        s = self.live.state
        self.tracks.object = tracks_html(s)
        self.board.object = board_html(s)
        self.tray.object = tray_html(s)
        self.phase.object = phase_title(s)

    # --- forms -----------------------------------------------------------------------------------------
    def _form(self, action: str) -> StepForm:
        builders = {"deploy": self._deploy_form, "bid": self._bid_form, "roll_initiative": self._initiative_form,
                    "choose_first": self._first_form, "move": self._move_form, "retreat": self._retreat_form,
                    "retreat_failed": self._retreat_failed_form, "entrench": self._entrench_form,
                    "play_card": self._action_card_form, "start_effects": self._start_form,
                    "commit_supply": self._supply_form, "keep": self._keep_form, "roll_card": self._roll_card_form,
                    "remove_losses": self._losses_form, "end_combat": self._end_combat_form,
                    "recruit": self._recruit_form}
        return builders[action]() if action in builders else StepForm(action)

    def _select(self, label: str, css: str) -> pmui.Select:
        return pmui.Select(label=label, css_classes=[css], size="large", sizing_mode="stretch_width")

    def _deploy_form(self) -> StepForm:
        area = self._select("Own-side border state", "deploy-area")
        commander = switch("This is the commander unit", css="deploy-commander")

        def update():
            offer(area, legal(self.live.state, "deploy", "area"))
            answer(commander, legal(self.live.state, "deploy", "commander"))
        return StepForm("deploy", [area, commander], update=update,
                        build=lambda: {"type": "deploy", "area": area.value, "commander": commander.value})

    def _bid_form(self) -> StepForm:
        bids = {side: pmui.IntInput(label=f"{SIDE_NAME[side]} supply dice gripped", value=0, start=0, size="large",
                                    css_classes=[f"bid-{side}"]) for side in SIDES}

        def update():
            for side, w in bids.items():
                w.value, w.end = 0, legal(self.live.state, "bid", side.lower()).high

        def show():
            p = initiative_win(bids[C].value or 0, bids[U].value or 0)
            self.odds.show("Initiative with these bids (BS-VAR.2)", [("P(the CSA wins it)", odds_text(p)),
                                                                     ("P(the Union wins it)", odds_text(1 - p))])
        return StepForm("bid", list(bids.values()), update=update, show=show,
                        build=lambda: {"type": "bid", "c": bids[C].value or 0, "u": bids[U].value or 0})

    def _initiative_form(self) -> StepForm:
        def show():
            s = self.live.state
            p = initiative_win(s.bids.get(C, 0), s.bids.get(U, 0))
            self.odds.show("Initiative (BS-INIT)", [("P(the CSA wins it)", odds_text(p)),
                                                    ("P(the Union wins it)", odds_text(1 - p))])
        return StepForm("roll_initiative", show=show)

    def _first_form(self) -> StepForm:
        first = pmui.RadioButtonGroup(label="Goes first", size="large", css_classes=["first"])

        def update():
            offer(first, legal(self.live.state, "choose_first", "first"))
            first.value = self.live.state.initiative_winner
        return StepForm("choose_first", [first], update=update,
                        build=lambda: {"type": "choose_first", "first": first.value})

    def _move_form(self) -> StepForm:
        source, target = self._select("From", "move-from"), self._select("To (adjacent)", "move-to")
        commander = switch("The commander unit moves", css="move-commander")
        entrenched = switch("It is the entrenched unit", css="move-entrenched")

        def update():
            offer(source, legal(self.live.state, "move", "source"))

        def retarget(_=None):
            s, chosen = self.live.state, {"source": source.value}
            offer(target, legal(s, "move", "target", **chosen) if source.value else None)
            answer(commander, legal(s, "move", "commander", **chosen) if source.value else None)
            answer(entrenched, legal(s, "move", "entrenched", **chosen) if source.value else None)
        source.param.watch(retarget, "value")
        return StepForm("move", [source, target, commander, entrenched], update=lambda: (update(), retarget()),
                        build=lambda: {"type": "move", "source": source.value, "target": target.value,
                                       "commander": commander.value, "entrenched": entrenched.value})

    def _retreat_form(self) -> StepForm:
        source, target = self._select("From (a state in combat)", "retreat-from"), self._select("To", "retreat-to")
        commander = switch("The commander unit retreats", css="retreat-commander")
        entrenched = switch("It is the entrenched unit", css="retreat-entrenched")
        discard = switch("Discard a card: it succeeds without a roll", css="retreat-discard")

        def update():
            offer(source, legal(self.live.state, "retreat", "source"))
            answer(discard, legal(self.live.state, "retreat", "discard"))

        def retarget(_=None):
            s, chosen = self.live.state, {"source": source.value}
            offer(target, legal(s, "retreat", "target", **chosen) if source.value else None)
            answer(commander, legal(s, "retreat", "commander", **chosen) if source.value else None)
            answer(entrenched, legal(s, "retreat", "entrenched", **chosen) if source.value else None)
        source.param.watch(retarget, "value")

        def show():
            p = RETREAT.odds().probability(True)
            self.odds.show("Retreat (BS-RET)", [("P(it goes)", odds_text(1 if discard.value else p))])
        return StepForm("retreat", [source, target, commander, entrenched, discard],
                        update=lambda: (update(), retarget()), show=show,
                        build=lambda: {"type": "retreat", "source": source.value, "target": target.value,
                                       "commander": commander.value, "entrenched": entrenched.value,
                                       "discard": discard.value})

    def _retreat_failed_form(self) -> StepForm:
        choice = pmui.RadioButtonGroup(label="After the failed roll", size="large", css_classes=["retreat-choice"])
        return StepForm("retreat_failed", [choice],
                        update=lambda: offer(choice, legal(self.live.state, "retreat_failed", "choice")),
                        build=lambda: {"type": "retreat_failed", "choice": choice.value})

    def _entrench_form(self) -> StepForm:
        area = self._select("Own-side border state", "entrench-area")

        return StepForm("entrench", [area], update=lambda: offer(area, legal(self.live.state, "entrench", "area")),
                        build=lambda: {"type": "entrench", "area": area.value})

    def _action_card_form(self) -> StepForm:
        card = self._select("Action card", "action-card")
        return StepForm("play_card", [card], update=lambda: offer(card, legal(self.live.state, "play_card", "card")),
                        build=lambda: {"type": "play_card", "card": card.value})

    def _start_form(self) -> StepForm:
        extra = pmui.IntInput(label="Dice from the commander's ability", value=0, start=0, size="large",
                              css_classes=["start-extra"])
        card = self._select("A card at the start (optional)", "start-card")

        def recard(_=None):
            offer(card, legal(self.live.state, "start_effects", "card", extra_dice=extra.value or 0))

        def update():
            extra.value, extra.end = 0, legal(self.live.state, "start_effects", "extra_dice").high
            recard()
        extra.param.watch(recard, "value")
        return StepForm("start_effects", [extra, card], update=update,
                        build=lambda: {"type": "start_effects", "extra_dice": extra.value or 0, "card": card.value or ""})

    def _supply_form(self) -> StepForm:
        count = pmui.IntInput(label="Supply dice to add", value=0, start=0, size="large", css_classes=["supply-count"])
        theirs = pmui.IntInput(label="If the defender then adds", value=0, start=0, size="large",
                               css_classes=["supply-theirs"])

        def update():
            s = self.live.state
            b = s.battle
            count.value, count.end = 0, legal(s, "commit_supply", "count").high
            theirs.value, theirs.end = 0, supply_limit(s, b.defender)
            theirs.visible = b.turn == b.attacker

        title = "P(the attacker wins) by supply dice (BS-CMB, both playing well)"

        def show():
            """The heatmap and the chances of this commitment are worked out off the page's thread: optimal play
            for many dice can take seconds the first time (then it is kept)."""
            s = self.live.state
            b = s.battle
            att_max = supply_limit(s, b.attacker) if b.turn == b.attacker else b.supply[b.attacker]
            sizes = (b.dice[b.attacker], b.dice[b.defender], att_max, supply_limit(s, b.defender))
            x, y = (count.value or 0, theirs.value or 0) if b.turn == b.attacker else (b.supply[b.attacker],
                                                                                       count.value or 0)
            dice = (b.dice[b.attacker] + x, b.dice[b.defender] + y)
            self.odds.show(title, [], note="Working out optimal play for these dice (saved for next time)...")
            self._pending = (sizes, dice)

            async def draw():
                grid = await asyncio.to_thread(advice.supply_grid, *sizes)
                ending = (await asyncio.to_thread(battle_outcome, *dice, double_loss=s.options["double_loss"],
                                                  damage_on_draw=s.options["damage_on_draw"])
                          if max(dice) <= OUTCOME_DICE else None)
                if self._pending != (sizes, dice) or self.guide.active is not form:
                    return
                cells = [(x, y, p) for (x, y), p in grid.items()]
                self.odds.show(title, outcome_rows(ending, s, b, x, y),
                               plots.heatmap(cells, "Attacker's P(win)", f"{SIDE_NAME[b.attacker]} supply",
                                             f"{SIDE_NAME[b.defender]} supply", "P(win)"),
                               note="" if ending else f"Losses and marker: worked out for up to {OUTCOME_DICE} dice "
                                                      "a side.")
            pn.state.execute(draw)
        form = StepForm("commit_supply", [count, theirs], update=update, show=show,
                        build=lambda: {"type": "commit_supply", "count": count.value or 0})
        return form

    def _keep_form(self) -> StepForm:
        """The dice tray: how many of each face thrown to confirm, how many 6s to damage; with the advice."""
        confirm = [pmui.RadioButtonGroup(label=f"{f + 1}s to confirm", size="large", css_classes=[f"keep-{f + 1}"])
                   for f in range(FACES)]
        damage = pmui.RadioButtonGroup(label="6s to the damage row", size="large", css_classes=["keep-damage"])
        advised: list = []
        buttons = [pmui.Button(label="", variant="outlined", css_classes=["use-advice", f"advice-{i}"], **TOUCH)
                   for i in range(5)]
        for i, b in enumerate(buttons):
            b.on_click(lambda _, i=i: apply(advised[i].keep))
        suggestions = pmui.Column(*buttons, sizing_mode="stretch_width", css_classes=["keep-advice"])

        cache: dict = {}

        def choices() -> list:
            """The advice for the throw on the table, worked out once per state (the form redraws on every tap)."""
            if cache.get("version") != self.live.version:
                cache.update(version=self.live.version, choices=advice.keep_advice(self.live.state))
            return cache["choices"]

        def chosen() -> Keep:
            return Keep(tuple(int(w.value or 0) for w in confirm), int(damage.value or 0))

        def faces() -> list[int]:
            return [f + 1 for f in range(FACES) for _ in range(chosen().confirm[f])]

        def apply(keep: Keep) -> None:
            for w, n in zip(confirm, keep.confirm):
                w.value = n
            damage.value = keep.damage

        def redamage(_=None):
            """The 6s that may go to the damage row, given the dice confirmed (the engine's choices)."""
            found = legal(self.live.state, "keep", "damage", confirm=faces())
            damage.options = list(range(found.low, found.high + 1))
            damage.value = found.low if found.low <= found.high else None
            damage.visible = found.high > 0

        def update():
            found = legal(self.live.state, "keep", "confirm")
            for f, w in enumerate(confirm):
                most = max(n for n in range(found.high + 1) if found.fits((f + 1,) * n))
                w.options = list(range(most + 1))
                w.value = 0
                w.visible = found.offers(f + 1)
            redamage()
            advised[:] = choices()[:len(buttons)]
            for i, b in enumerate(buttons):
                b.visible = i < len(advised)
                if i < len(advised):
                    b.label = f"{'Best: ' if i == 0 else ''}{advised[i].keep.text()} · win {odds_text(advised[i].win)}"

        def show():
            listed = choices()
            keep = chosen()
            mine = next((c for c in listed if c.keep == keep), None)
            rows = [(f"{c.keep.text()}: draw {odds_text(c.draw)}, loss {odds_text(c.loss)}, E[damage dice] "
                     f"{float(c.damage):.2f}", f"win {odds_text(c.win)}") for c in listed[:8]]
            numbers = ([("this keep: P(win)", odds_text(mine.win)), ("P(draw)", odds_text(mine.draw)),
                        ("P(loss)", odds_text(mine.loss))] if mine else []) + rows
            self.odds.show("Keep advice (BS-CMB)", numbers, note=f"{len(listed)} legal keeps; the best first.")
        for w in confirm:
            w.param.watch(redamage, "value")
        return StepForm("keep", confirm + [damage], layout=[suggestions, *confirm, damage], update=update, show=show,
                        build=lambda: {"type": "keep", "confirm": faces(), "damage": chosen().damage})

    def _roll_card_form(self) -> StepForm:
        card = self._select("Card", "roll-card")
        face = pmui.RadioButtonGroup(label="Die to change", size="large", css_classes=["roll-card-face"])
        sign = pmui.RadioButtonGroup(label="Change by (a card printed with either sign)", size="large",
                                     css_classes=["roll-card-sign"])

        def asked(param: str) -> Legal | None:
            return legal(self.live.state, "roll_card", param, card=card.value) if card.value else None

        def refit(_=None):
            for widget, param in ((face, "face"), (sign, "change")):
                found = asked(param)
                offer(widget, found)
                widget.visible = found is not None
        card.param.watch(refit, "value")

        def update():
            offer(card, legal(self.live.state, "roll_card", "card"))
            refit()

        def build():
            action = {"type": "roll_card", "card": card.value}
            for widget, param in ((face, "face"), (sign, "change")):
                if asked(param) is not None:
                    action[param] = widget.value
            return action
        return StepForm("roll_card", [card, face, sign], update=update, build=build)

    def _losses_form(self) -> StepForm:
        commander = switch("The commander unit is one of them", css="losses-commander")
        return StepForm("remove_losses", [commander], update=lambda: setattr(commander, "value", False),
                        build=lambda: {"type": "remove_losses", "commander": commander.value})

    def _end_combat_form(self) -> StepForm:
        cards = {side: self._select(f"{SIDE_NAME[side]} end-of-combat card (optional)", f"end-card-{side}")
                 for side in SIDES}

        def update():
            for side, w in cards.items():
                offer(w, legal(self.live.state, "end_combat", f"card_{side.lower()}"))
        return StepForm("end_combat", list(cards.values()), update=update,
                        build=lambda: {"type": "end_combat", "card_c": cards[C].value or "",
                                       "card_u": cards[U].value or ""})

    def _recruit_form(self) -> StepForm:
        area = self._select("Home state to roll for", "recruit-area")
        commander = switch("Place the commander unit if it succeeds", css="recruit-commander")

        def update():
            offer(area, legal(self.live.state, "recruit", "area"))
            answer(commander, legal(self.live.state, "recruit", "commander"))

        def show():
            s = self.live.state
            places = legal(s, "recruit", "area").values
            room = s.max_force(s.turn) - s.on_board(s.turn)
            d = recruits_odds(tuple(s.board.area(p).success for p in places), min(room, s.pool(s.turn)))
            self.odds.show(f"{SIDE_NAME[s.turn]} recruitment this phase (BS-REC)",
                           [("expected units", f"{float(mean(d)):.2f}")] +
                           [(f"P({k} unit{'' if k == 1 else 's'})", odds_text(p)) for k, p in sorted(fractions(d).items())],
                           plots.hits_bars(d, "Units recruited", "units"))
        return StepForm("recruit", [area, commander], update=update, show=show,
                        build=lambda: {"type": "recruit", "area": area.value, "commander": commander.value})

    def _outlook_panel(self):
        """The round outlook (digest section 8), worked out on a tap and off the page's thread."""
        button = pmui.Button(label="Work out this round's outlook", variant="outlined", css_classes=["outlook-go"],
                             **TOUCH)
        text = pmui.Typography(variant="body1", css_classes=["outlook-text"])

        async def work():
            state = self.live.state
            text.object = "Working out the combats still to fight..."
            found = await asyncio.to_thread(round_outlook, state)
            battles = ", ".join(found.battles) or "none"
            text.object = (f"Combats counted: {battles} (their dice: units, entrenchment and supply committed). "
                           f"P(the CSA reaches 10 VP this round) {odds_text(found.ten)}; "
                           f"P(the CSA wins at this round's victory check) {odds_text(found.csa_wins)}.")
        button.on_click(lambda _: pn.state.execute(work))
        return pmui.Column(pmui.Typography("Round outlook (BS-VIC)", variant="h6"), button, text,
                           sizing_mode="stretch_width")

    def _strength_panel(self):
        dice = pmui.IntSlider(label="Dice", start=1, end=12, value=6, css_classes=["strength-dice"])
        pane = pn.pane.HoloViews(sizing_mode="stretch_width", min_height=300)

        def draw(_=None):
            pane.object = plots.curves(advice.strength_curves(dice.value), f"Strength with {dice.value} dice",
                                       "strength S", "P(S >= s)")
        dice.param.watch(draw, "value")
        draw()
        return pmui.Column(pmui.Typography("Strength under three ways of keeping (BS-CMB)", variant="h6"), dice, pane,
                           sizing_mode="stretch_width")

    def __panel__(self):
        return pmui.Column(self.tracks, two_columns(self.tabs, pmui.Column(self.odds, self.log)),
                           sizing_mode="stretch_width")


def page():
    return app_page(ENGINE, BoardEditor, BorderStatesView)


if pn.state.served:
    extension()
    page().servable(title=ENGINE.title)
