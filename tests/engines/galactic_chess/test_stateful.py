"""Random play through the event log (hypothesis stateful), for 3, 4 and 5 players on the example cards: an
illegal attempt raises RuleError (or a dice error) and changes nothing; every card stays in exactly one place;
hands keep to the limit; undo gives back the state before, exactly, and redo the state after; the whole log
replays to the same state. (States saving and loading unchanged is the conformance suite's.)"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.dice import DiceError, RandomDice, ScriptedDice
from companion.engine import RuleError, dice_needed, resolve_options
from companion.events import Replay
from companion.records import to_data
from engines.galactic_chess import ENGINE
from engines.galactic_chess import battle as fight
from engines.galactic_chess.actions import plot_targets, rules_of_battle, sc_ties
from engines.galactic_chess.example import example_setup
from engines.galactic_chess.options import OPTIONS
from engines.galactic_chess.rules import HAND_LIMIT
from engines.galactic_chess.sortie import fleets_available, ground_available, nominees, side_of, sortie_camps
from engines.galactic_chess.state import (
    ACTION,
    BATTLE,
    CARD,
    DEAL,
    DRAFT,
    END,
    ORDER,
    PLACE,
    TIE,
    misplaced,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS})
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=4), st.sampled_from(["Ann", "EMP"]))
KINDS = sorted(ENGINE.actions.table) + ["trade"]


def subset(draw, items) -> list:
    return draw(st.lists(st.sampled_from(items), unique=True, max_size=3)) if items else []


def plausible(draw, state) -> dict:
    """An action that fits the situation: legal, or illegal only in its details."""
    players, phase = state.players, state.phase
    if phase == DEAL:
        return {"type": "deal_hand"}
    if phase == DRAFT:
        seat = next(i for i, d in enumerate(state.done) if not d)
        return {"type": "draft_pick", "player": players[seat], "card": draw(st.sampled_from(state.packets[seat]))}
    if phase == PLACE:
        seat = next(i for i, d in enumerate(state.done) if not d)
        persons = [c for c in state.hands[seat] if state.is_person(c)]
        return {"type": "place", "player": players[seat], "cards": subset(draw, persons)}
    hand = list(state.hands[state.active]) if state.hands else []
    mine = [p.card for p in state.in_play if p.owner == state.player]
    anyone = [p.card for p in state.in_play]
    if phase == ORDER:
        options = [{"type": "roll_order"}] * 4 + [{"type": "trigger_set_aside", "card": c} for c in state.aside]
        return draw(st.sampled_from(options))
    if phase == ACTION:
        camps = sortie_camps(state)
        sorties = [{"type": "sortie", "camp": c, "defender": d} for c, ds in camps.items() for d in ds]
        draws = [] if state.order.forced else [{"type": "draw"}] * 3
        return draw(st.sampled_from(sorties * 2 + [{"type": "sortie"}] + draws))
    if phase == CARD:
        if state.counter:
            return {"type": "counter_plot"}
        options = [{"type": "end_action"}, {"type": "end_action"}]
        options += [{"type": "use_card", "card": c, "target": draw(st.sampled_from(["", *anyone]))} for c in hand]
        unmet = [c for c in hand if not state.is_person(c) and state.event(c).prerequisite]
        options += [{"type": "discard", "card": c, "unmet": unmet} for c in hand[:2]]
        plotters = [p for p in mine if state.person(p).may_plot]
        options += [{"type": "plot", "plotter": p, "target": t} for p in plotters for t in plot_targets(state, p)[:3]]
        options += [{"type": "post_plot", "plotter": p, "candidate": c} for p in ["", *plotters[:1]] for c in mine[:3]]
        options += [{"type": "garrison_plot", "plotter": p, "dispatch": c} for p in ["", *plotters[:1]]
                    for c in mine[:3]]
        options += [{"type": "garrison_plot", "plotter": p, "release": g}
                    for p in plotters[:1] for g in state.fortress.garrison]
        return draw(st.sampled_from(options))
    if phase == BATTLE:
        return battle_action(draw, state)
    if phase == END:
        return {"type": "end_turn"}
    assert phase == TIE
    return {"type": "ceasefire_roll_off"}


def battle_action(draw, state) -> dict:
    s = state.sortie
    if s.stage in ("attack", "defence"):
        player = state.players[s.declarer]
        side = side_of(s)
        camp = s.attacker if side == fight.ATTACKER else s.defender
        fleets = fleets_available(state, player, camp, side == fight.ATTACKER, s)
        return {"type": "declare", "fleets": subset(draw, fleets) or fleets[:1],
                "others": subset(draw, ground_available(state, player, camp, s)),
                "fortress": draw(st.sampled_from([False, False, True]))}
    ties = sc_ties(state, s)
    if ties:
        return {"type": "choose_sc", "unit": s.units[draw(st.sampled_from(next(iter(ties.values()))))].name}
    if s.stage == "nominate":
        return {"type": "nominate", "player": draw(st.sampled_from(["", *nominees(state, s), *state.players]))}
    if s.pending:
        if s.pending.kind in ("strike_back", "extra_attack"):
            return {"type": s.pending.kind}
        able = fight.shooters(s.units, s.field.status, s.pending.actor, fight.BattleRules())
        return {"type": "free_attack", "shooter": s.units[draw(st.sampled_from(able))].name if able else ""}
    opp = fight.opportunity(s.units, s.field, rules_of_battle(state, s))
    if opp.roll_off:
        return {"type": "roll_off"}
    actor = draw(st.sampled_from(opp.actors))
    name = s.units[actor].name
    targets = fight.targets(s.units, s.field.status, actor) or (0,)
    options = [{"type": "engage", "actor": name, "target": s.units[t].name} for t in targets] * 3
    options += [{"type": "retreat", "actor": name}, {"type": "pass_opportunity", "actor": name}]
    held = [c for h in state.hands for c in h if not state.is_person(c)]
    effect = lambda c: state.event(c).effect
    options += [{"type": "respond", "card": c, "target": u.name} for c in held if effect(c) == "escape"
                for u in s.units[:2]][:2]
    side = [u.name for u in s.units if u.side == s.units[actor].side and u.name != name]
    options += [{"type": "engage", "actor": name, "target": s.units[t].name, "support": c,
                 "extra": subset(draw, side) or side[:1]} for c in held if effect(c) == "double_snake"
                for t in targets[:1]]
    options += [{"type": "fortress_vs_fortress", "card": c, "destroyed": subset(draw, [u.name for u in s.units])[:1],
                 "by": draw(st.sampled_from(["", *(u.name for u in s.units)]))}
                for c in held if effect(c) == "fortress_vs_fortress"]
    return draw(st.sampled_from(options))


def snapshot(state) -> tuple:
    """The state (frozen dataclasses all through) and a copy of its dicts, the only parts an action could
    change in place."""
    return state, json.dumps([state.options, state.vp, state.civil_war, to_data(state.outcome)], sort_keys=True)


def faces_for(draw, rolls) -> tuple[int, ...]:
    """Faces for exactly the dice the action rolls (each within its die), or now and then any few faces."""
    if draw(st.integers(0, 9)) == 0:
        return tuple(draw(st.lists(st.integers(0, 7), max_size=4)))
    return tuple(draw(st.integers(1, r.sides)) for r in rolls for _ in r.faces)


class GalacticChessGame(RuleBasedStateMachine):
    """A game of 3, 4 or 5 players with every option at random, from the deal or from the first turn."""

    @initialize(players=st.sampled_from([3, 4, 5]), options=OPTION_CHOICES,
                prelude=st.sampled_from(["deal", "play", "play", "play"]), seed=st.integers(0, 2 ** 16))
    def start(self, players, options, prelude, seed):
        self.replay = Replay(ENGINE, resolve_options(ENGINE.options, options), example_setup(NAMES[:players]))
        if prelude == "play" and not options.get("draft"):
            dice = RandomDice(seed=seed)
            for _ in range(players):
                self.replay.add(self.replay.action_event({"type": "deal_hand"}, dice))
            for seat in range(players):
                persons = [c for c in self.replay.state.hands[seat] if self.replay.state.is_person(c)]
                self.replay.add(self.replay.action_event({"type": "place", "cards": persons}, ScriptedDice(())))
        self.snapshot = snapshot(self.replay.state)

    @rule(data=st.data())
    def attempt(self, data):
        state = self.replay.state
        if data.draw(st.integers(0, 12)) == 0:
            params = data.draw(st.dictionaries(st.sampled_from(["card", "player", "target", "actor", "fleets", "camp"]),
                                               JUNK, max_size=2))
            action = {"type": data.draw(st.sampled_from(KINDS)), **params}
        elif state.phase == "over":
            return
        else:
            action = plausible(data.draw, state)
        try:
            rolls = dice_needed(ENGINE, state, action)
        except (RuleError, DiceError):
            rolls = []
        faces = faces_for(data.draw, rolls)
        try:
            event = self.replay.action_event(action, ScriptedDice(faces))
        except (RuleError, DiceError):
            assert self.replay.state is state and snapshot(state) == self.snapshot
            return
        self.replay.add(event)
        after = self.replay.state
        assert not misplaced(after), misplaced(after)
        self.replay.add(self.replay.undo_event())
        assert snapshot(self.replay.state) == self.snapshot
        self.replay.add(self.replay.redo_event())
        assert self.replay.state == after
        self.snapshot = snapshot(after)

    @invariant()
    def hands_keep_to_the_limit(self):
        """GC-6A.1: no hand above 6, but the active player's between the draw and the card (7)."""
        state = self.replay.state
        for seat, hand in enumerate(state.hands):
            extra = 1 if seat == state.active and state.phase == CARD else 0
            assert len(hand) <= HAND_LIMIT + extra

    @invariant()
    def vp_and_persons_are_sound(self):
        """GC-6B.7: VP never negative; a person is in play at most once; posts are held by persons in play."""
        state = self.replay.state
        assert all(v >= 0 for camps in state.vp.values() for v in camps.values())
        cards = [p.card for p in state.in_play]
        assert len(cards) == len(set(cards))
        assert all(state.placed(n) for n in state.fortress.posted)

    def teardown(self):
        """The log replayed from the start, undos and redos included, gives the same state."""
        if hasattr(self, "replay"):
            again = Replay(ENGINE, self.replay.options, self.replay.setup)
            again.extend(self.replay.events)
            assert again.state == self.replay.state


GalacticChessGame.TestCase.settings = settings(max_examples=2000, stateful_step_count=12, deadline=None,
                                               suppress_health_check=[HealthCheck.too_slow])
test_random_play = pytest.mark.rule("GC-6A.1", "GC-6B.7", "GC-4")(GalacticChessGame.TestCase)
