"""Random play through the event log (hypothesis stateful): illegal attempts are refused by name and change
nothing; placement limits, supply, units, cards, combat dice and the tracks stay in range; undo restores the state
exactly and redo brings the action back."""
from __future__ import annotations

from dataclasses import fields
from functools import cache

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError, dice_needed, resolve_options
from companion.events import Replay
from companion.records import to_data
from engines.border_states import ENGINE
from engines.border_states.options import OPTIONS
from engines.border_states.rules import BORDER_LIMIT, COMMANDER_FACES, HOME_LIMIT
from engines.border_states.state import ACTION, COMBAT, DRAW, INITIATIVE, RECRUIT, SETUP, VICTORY
from tests.engines.border_states.support import (
    EXAMPLE_BATTLE_DEPLOYMENT,
    MD,
    NC,
    VA,
    WV,
    C,
    Table,
    U,
    full_board,
    setup,
)
from tests.engines.border_states.test_golden import SCRIPT

BOARD = full_board()
NAMES = [a["name"] for a in BOARD["areas"]]
NEIGHBOURS = {n: sorted({b for p in BOARD["adjacency"] for a, b in (p, p[::-1]) if a == n}) for n in NAMES}
CARDS = {side: [c["name"] for c in BOARD["cards"][side]] for side in (C, U)}
EFFECT = {c["name"]: c["effect"] for side in (C, U) for c in BOARD["cards"][side]}
BORDER_SIDES = {side: {a["name"] for a in BOARD["areas"] if a["border"] and a["side"] == side} for side in (C, U)}
THROW_CARDS = {side: [c["name"] for c in BOARD["cards"][side] if c["effect"] in ("ADD_FACE", "MODIFY")]
               for side in (C, U)}
HOMES = {side: [a["name"] for a in BOARD["areas"] if not a["border"] and a["side"] == side] for side in (C, U)}
KINDS = sorted(ENGINE.actions.table) + ["bogus"]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2, 20), st.text(max_size=3), st.sampled_from(NAMES),
                 st.sampled_from(CARDS[C] + CARDS[U]),
                 st.lists(st.sampled_from(NAMES), max_size=2), st.lists(st.integers(0, 7), max_size=3))
OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS})
RARELY_TRUE = st.sampled_from([False, False, False, True])
WILD = st.builds(lambda kind, params: {"type": kind, **params}, st.sampled_from(KINDS),
                 st.dictionaries(st.sampled_from(["area", "source", "target", "commander", "card", "confirm", "damage",
                                                  "count", "extra_dice", "choice", "first", "c", "u", "face",
                                                  "change", "card_c", "card_u", "discard", "entrenched", "extra"]),
                                 JUNK, max_size=3))


def act(kind: str, **params):
    return st.fixed_dictionaries({"type": st.just(kind), **params})


def some(values, *more):
    return st.sampled_from(list(values) + list(more))


def situation(state) -> tuple:
    """What the plausible actions depend on (hashable, so their strategies are built once)."""
    phase, side = state.phase, state.turn
    if phase == SETUP:
        return (phase, side)
    if phase == INITIATIVE:
        bidding = state.options["initiative_bid"] and not state.bids
        return (phase, bool(state.initiative_winner), bidding, state.supply[C] if bidding else 0,
                state.supply[U] if bidding else 0)
    if phase == ACTION:
        held = tuple(n for n in NAMES if state.count(n, side))
        return (phase, side, state.retreat is not None, held, tuple(n for n in held if state.in_combat(n)))
    if phase == COMBAT:
        battle = state.battle
        side = battle.turn
        cap = min(2 * state.count(battle.area, side), state.supply[side]) if battle.stage == "supply" else 0
        return (phase, side, battle.stage, cap, battle.throw)
    return (phase, side)


@cache
def attempts(situation: tuple):
    """Mostly actions that fit the situation (legal, or illegal only in their details), sometimes any action with
    junk parameters."""
    return weighted((9, plausible(*situation)), (1, WILD))


def plausible(phase, side="", *more):
    if phase == SETUP:
        own = [n for n in NAMES if n in BORDER_SIDES[side]]
        return act("deploy", area=some(own * 4, *NAMES[:3]), commander=RARELY_TRUE)
    if phase == DRAW:
        return st.just({"type": "draw"})
    if phase == INITIATIVE:
        won, bidding, supply_c, supply_u = side, *more
        if won:
            return act("choose_first", first=some(["", "", C, U], "X"))
        if bidding:
            return act("bid", c=st.integers(0, supply_c + 1), u=st.integers(0, supply_u + 1))
        return st.just({"type": "roll_initiative"})
    if phase == ACTION:
        pending, held, fighting = more
        if pending:
            return act("retreat_failed", choice=some(["damage", "remove", "damage", "remove"], "stay"))
        return action_phase(side, held or NAMES, fighting or held or NAMES)
    if phase == COMBAT:
        return combat(side, *more)
    if phase == VICTORY:
        return st.just({"type": "check_victory"})
    if phase == RECRUIT:
        return act("recruit", area=some(["", ""] + HOMES[side]), commander=RARELY_TRUE)
    return st.just({"type": "supply"})


def action_phase(side, held, fighting):
    def to_neighbour(kind, sources, **more):
        return weighted(*[(1, act(kind, source=st.just(s), target=some(NEIGHBOURS[s] * 3, *NAMES[:2]), **more))
                          for s in sources])
    move = to_neighbour("move", held, commander=RARELY_TRUE, entrenched=RARELY_TRUE)
    retreat = to_neighbour("retreat", fighting, commander=RARELY_TRUE, discard=RARELY_TRUE, entrenched=RARELY_TRUE)
    entrench = act("entrench", area=some(held, WV, VA))
    card = act("play_card", card=some(CARDS[side], "Nothing"))
    return weighted((3, move), (3, retreat), (1, entrench), (1, card), (2, st.just({"type": "pass_turn"})))


def combat(side, stage, cap, throw):
    if stage == "start":
        return act("start_effects", extra_dice=some([0, 0, 1, 2], -1), card=some(["", "", ""] + CARDS[side]))
    if stage == "supply":
        return act("commit_supply", count=st.integers(0, cap + 1))
    if stage == "roll":
        if not throw:
            return st.just({"type": "throw"})
        faces = [f + 1 for f in range(6) for _ in range(throw[f])]
        masks = weighted((9, st.integers(1, 2 ** len(faces) - 1)), (1, st.just(0)))
        keep = st.tuples(masks, st.integers(0, throw[5])).map(lambda pick: keep_of(faces, *pick))
        cards = some(THROW_CARDS[side] * 3 + CARDS[side])
        card = weighted((4, act("roll_card", card=cards, face=some(faces, 0))),
                        (1, act("roll_card", card=cards, face=JUNK, change=JUNK)))
        return weighted((6, keep), (2, card), (1, st.just({"type": "keep"})))
    if stage == "losses":
        return act("remove_losses", commander=st.booleans())
    return act("end_combat", card_c=some(["", "", ""] + CARDS[C]), card_u=some(["", "", ""] + CARDS[U]))


def keep_of(faces, mask, damage):
    """The dice of the throw picked by the bits of `mask`, up to `damage` of their 6s to the damage row."""
    taken = sorted(f for i, f in enumerate(faces) if mask >> i & 1)
    damage = min(damage, taken.count(6))
    return {"type": "keep", "confirm": taken[:len(taken) - damage], "damage": damage}


def weighted(*choices):
    """One of the strategies, each as often as its weight says."""
    return st.sampled_from([s for weight, s in choices for _ in range(weight)]).flatmap(lambda s: s)


@cache
def faces_for(needed: int):
    """Exactly the dice needed most of the time (drawn as one number), otherwise a few faces, some not on a d6."""
    exact = st.integers(0, 6 ** needed - 1).map(lambda k: [k // 6 ** i % 6 + 1 for i in range(needed)])
    return weighted((12, exact), (1, st.lists(st.integers(0, 7), max_size=3)))


def snapshot(state) -> dict:
    """The state's to_dict() without its board (no action changes the board; teardown compares it whole)."""
    return {f.name: to_data(getattr(state, f.name)) for f in fields(state) if f.name != "board"}


def with_bid(script, options):
    """A scripted prelude with the bid of BS-VAR.2 before each initiative roll when the option is on."""
    out = []
    for kind, faces, params in script:
        if kind == "roll_initiative" and options.get("initiative_bid"):
            out.append(("bid", (), {"c": 0, "u": 0}))
        out.append((kind, faces, params))
    return out


COMBAT_PRELUDE = (("draw", (), {}), ("roll_initiative", (5, 2), {}), ("choose_first", (), {"first": C}),
                  ("move", (), {"source": VA, "target": WV}), ("entrench", (), {"area": WV}),
                  ("move", (), {"source": VA, "target": WV}), ("pass_turn", (), {}),
                  ("move", (), {"source": VA, "target": WV}), ("pass_turn", (), {}), ("pass_turn", (), {}))
ROLL_PRELUDE = COMBAT_PRELUDE + (("start_effects", (), {"extra_dice": 1}), ("start_effects", (), {}),
                                 ("commit_supply", (), {"count": 2}), ("commit_supply", (), {"count": 1}))
FIGHTING_PRELUDE = SCRIPT[:6]     # round 1 of the golden transcript: the Union to act, Maryland and Kentucky in combat
LOSSES_PRELUDE = SCRIPT[:SCRIPT.index(("remove_losses", (), {"commander": True}))]  # the Union chooses its losses
WORKED = setup(BOARD, EXAMPLE_BATTLE_DEPLOYMENT, {C: NC, U: MD})
PRELUDES = {"setup": ({"board": BOARD}, ()), "round": (setup(BOARD), ()), "combat": (WORKED, COMBAT_PRELUDE),
            "roll": (WORKED, ROLL_PRELUDE), "fighting": (setup(BOARD), FIGHTING_PRELUDE),
            "losses": (setup(BOARD), LOSSES_PRELUDE)}


@cache
def prelude_events(prelude: str, bidding: bool) -> tuple:
    """The event log of a prelude (the same actions and dice are legal whatever the other options)."""
    data, script = PRELUDES[prelude]
    table = Table(data, initiative_bid=bidding)
    for kind, faces, params in with_bid(script, {"initiative_bid": bidding}):
        table.do(kind, *faces, **params)
    return tuple(table.events)


class BorderStatesGame(RuleBasedStateMachine):
    """A game played at random through the event log with every option at random, from the deployment, from round
    1's draw, from an action phase with states in combat, from the start of the worked example's combat or its
    first throw, or from the loser's choice of losses late in a round."""

    @initialize(options=OPTION_CHOICES, prelude=st.sampled_from(sorted(PRELUDES)))
    def start(self, options, prelude):
        self.replay = Replay(ENGINE, resolve_options(ENGINE.options, options), PRELUDES[prelude][0])
        self.replay.extend(prelude_events(prelude, options.get("initiative_bid", False)))
        self.board = self.replay.state.board.to_dict()
        self.snapshot = snapshot(self.replay.state)
        self.fight = None
        self.track(self.replay.state)
        battle = self.replay.state.battle
        if battle is not None and battle.trays:     # a prelude that stops in a combat: the dice it took (no card)
            self.fight[1].update({s: sum(t.confirmed) + t.damage for s, t in battle.trays.items()})

    @rule(data=st.data())
    def attempt(self, data):
        """One attempt, legal or not; an illegal one changes nothing, a legal one is undone and redone exactly."""
        state = self.replay.state
        action = data.draw(attempts(situation(state)), label="action")
        try:
            needed = sum(len(roll.faces) for roll in dice_needed(ENGINE, state, action))
        except (RuleError, DiceError):
            needed = data.draw(st.integers(0, 2), label="guess")
        faces = data.draw(faces_for(needed), label="faces")
        try:
            event = self.replay.action_event(action, ScriptedDice(faces))
        except (RuleError, DiceError):
            assert self.replay.state is state and snapshot(state) == self.snapshot
            return
        self.replay.add(event)
        after = self.replay.state
        self.check_recruitment(state, after, action)
        self.count_dice(state, action)
        self.replay.add(self.replay.undo_event())
        assert snapshot(self.replay.state) == self.snapshot
        self.replay.add(self.replay.redo_event())
        assert self.replay.state == after
        self.snapshot = snapshot(after)
        self.track(after)

    def teardown(self):
        """The board, left out of the step-by-step snapshots, is as it was at the start."""
        if hasattr(self, "board"):
            assert self.replay.state.board.to_dict() == self.board

    # --- bookkeeping of the current combat ------------------------------------------------------------------
    def track(self, state) -> None:
        """A new combat starts the count of dice taken and faces added afresh."""
        key = (state.round, state.battle.area) if state.battle else None
        if key != (self.fight and self.fight[0]):
            self.fight = (key, {C: 0, U: 0}, {C: 0, U: 0}) if key else None

    def count_dice(self, before, action) -> None:
        """The dice each side takes (confirmed or to damage) and the faces its cards add to a throw."""
        battle = before.battle
        if battle is None or battle.stage != "roll":
            return
        _, taken, added = self.fight
        side = battle.turn
        if action["type"] == "keep":
            confirm = action.get("confirm")
            taken[side] += (sum(battle.throw) if confirm is None else len(confirm)) + action.get("damage", 0)
        if action["type"] == "roll_card" and EFFECT.get(action["card"]) == "ADD_FACE":
            added[side] += 1

    @staticmethod
    def check_recruitment(before, after, action) -> None:
        """BS-REC / BS-D.3: a recruit never takes a side above its maximum force."""
        if action["type"] == "recruit":
            side = before.turn
            if after.on_board(side) > before.on_board(side):
                assert after.on_board(side) == before.on_board(side) + 1 <= before.max_force(side)

    # --- invariants ----------------------------------------------------------------------------------------
    @invariant()
    def placement_limits(self):
        """BS-D.1: 3 a side in a border state; own units only, 1 at most, in a home state."""
        state = self.replay.state
        for area in state.board.areas:
            for side in (C, U):
                n = state.count(area.name, side)
                limit = BORDER_LIMIT if area.border else HOME_LIMIT if area.side == side else 0
                assert 0 <= n <= limit, (area.name, side, n)

    @invariant()
    def supply_units_and_cards(self):
        """BS-D.8: supply 0..cap; BS-D.3 / BS-D.11: units on the board plus those lost never exceed the pieces;
        BS-D.9: deck + hand + discard = the deck size; the tracks in range; the commander unit stands with a unit."""
        state = self.replay.state
        cap = 20 if state.options["supply_variant"] else 18
        for side in (C, U):
            assert 0 <= state.supply[side] <= cap
            assert state.on_board(side) + state.lost[side] <= state.board.units[side]
            assert min(state.deck[side], state.hand[side], state.discard[side]) >= 0
            assert state.deck[side] + state.hand[side] + state.discard[side] == state.board.deck_size(side)
            assert 1 <= state.commander[side] <= COMMANDER_FACES[side]
            where = state.commander_at[side]
            assert not where or state.count(where, side) >= 1, (side, where)
        assert -len(state.board.damage_c) <= state.damage <= len(state.board.damage_u)
        assert 0 <= state.distrust < state.board.distrust_length
        for area in state.entrenched:
            owner = state.board.area(area).side
            assert state.board.area(area).border and state.count(area, owner) >= 1

    @invariant()
    def combat_dice_add_up(self):
        """BS-CMB: the dice a side has taken plus those left to throw are its combat dice, its supply dice and the
        faces its card added; a throw waiting for its take holds exactly the dice left."""
        state = self.replay.state
        battle = state.battle
        assert (battle is not None) == (state.phase == COMBAT)
        if battle is None or not battle.trays:
            return
        _, taken, added = self.fight
        for side in (C, U):
            tray = battle.trays[side]
            assert sum(tray.confirmed) + tray.damage == taken[side]
            assert tray.left + taken[side] == battle.dice[side] + battle.supply[side] + added[side]
        if battle.throw:
            assert sum(battle.throw) == battle.trays[battle.turn].left


BorderStatesGame.TestCase.settings = settings(max_examples=2000, stateful_step_count=8, deadline=None,
                                              suppress_health_check=[HealthCheck.too_slow])
test_random_play = pytest.mark.rule("BS-D.1", "BS-D.3", "BS-D.8", "BS-D.9", "BS-CMB", "BS-REC")(
    BorderStatesGame.TestCase)
