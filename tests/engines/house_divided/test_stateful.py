"""Random play through the event log (hypothesis stateful): illegal attempts raise RuleError and change
nothing, legal ones keep the state within the rules' bounds, and undo restores the state exactly."""
from __future__ import annotations

import json
from functools import cache

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError, dice_needed
from engines.house_divided import ENGINE
from engines.house_divided import battle as fight
from engines.house_divided.options import OPTIONS
from engines.house_divided.rules import FIRE_CAP, GARRISON, GARRISON_HITS, LEADER_MARCH_MOVES, UNIT_MARCHES
from engines.house_divided.state import BATTLE, MOVEMENT, PROMOTION, RECRUITMENT, START, state_from_dict
from tests.engines.house_divided.support import TEST_BASIC, Table, setup

BOXES = ("R1", "A", "R2", "B", "C", "R3", "X", "washington", "U1", "P", "europe", "nowhere")
UNITS = tuple(f"CSA {i}" for i in range(1, 10)) + tuple(f"USA {i}" for i in range(1, 6)) + ("FI 1", GARRISON, "ghost")
KINDS = sorted(ENGINE.actions.table) + ["bogus"]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2, 9), st.text(max_size=3), st.sampled_from(BOXES),
                 st.lists(st.sampled_from(UNITS), max_size=3))
OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS if o.choices})
SIDES = st.sampled_from(["USA", "CSA", "USA", "CSA", "Union"])


def act(kind: str, **params):
    return st.fixed_dictionaries({"type": st.just(kind), **params})


def situation(state) -> tuple:
    """What the plausible actions depend on (hashable, so their strategies are built once)."""
    battle = state.battle
    step = fight.due(state) if battle else None
    own = tuple(u.name for u in state.on_map(state.side))
    fighters = tuple(sorted({*battle.sides[0].units, *battle.sides[1].units})) if battle else ()
    choice, size = (), 0
    if step and step.kind == "fire":
        choice = tuple(fight.shooters(state, battle.of(step.side)))
        size = fight.limit(state, battle, step.side)
    elif step and step.kind == "hits":
        room = fight.capacity(state, battle.of(step.side))
        choice = tuple(n for n, r in sorted(room.items()) for _ in range(r))
        size = min(battle.of(step.side).hits_due, len(choice))
    return (state.segment, state.side, own, step.kind if step else "", step.side if step else "", fighters, choice,
            size, state.washington_due, tuple(state.supply_due))


@cache
def attempts(*key):
    return st.one_of(*[plausible(*key)] * 6, WILD)


def plausible(segment, side, own, kind, step_side, fighters, choice, size, washington_due, supply_due):
    """Actions that fit the situation: legal, or illegal only in their details."""
    anytime = st.one_of(act("set_control", box=st.sampled_from(BOXES), side=SIDES),
                        act("adjust_mm", side=SIDES, change=st.integers(-3, 3)))
    if washington_due:
        return st.one_of(st.just({"type": "washington_loss"}), anytime)
    mine = st.sampled_from(own or UNITS)
    group = st.lists(mine, min_size=1, max_size=3, unique=True)
    if kind:
        targets = st.lists(st.sampled_from(fighters + (GARRISON,)), max_size=3)
        fitting = st.permutations(choice).map(lambda order: list(order[:size])) if choice else st.just([])
        by_kind = {
            "command": st.one_of(st.just({"type": "battle_command"}),
                                 act("rally", side=SIDES, unit=st.sampled_from(fighters))),
            "fire": st.one_of(st.just({"type": "fire"}), act("fire", side=st.just(step_side), units=fitting),
                              act("fire", side=st.just(step_side), units=fitting),
                              act("fire", side=st.just(step_side),
                                  units=st.lists(st.sampled_from(fighters + (GARRISON,)), max_size=3, unique=True)),
                              act("fire", side=st.just(step_side), bonus=st.dictionaries(
                                  st.sampled_from(fighters), st.integers(0, 3), max_size=2)),
                              act("record_fire", side=SIDES, units=st.lists(st.sampled_from(fighters), max_size=3,
                                                                            unique=True), hits=st.integers(0, 3))),
            "hits": st.one_of(st.just({"type": "take_hits"}), act("take_hits", side=st.just(step_side), units=fitting),
                              act("take_hits", side=st.just(step_side), units=fitting),
                              act("take_hits", side=st.just(step_side), units=targets)),
            "morale": st.just({"type": "morale_checks"}),
            "between": st.one_of(st.just({"type": "next_round"}), st.just({"type": "next_round"}),
                                 act("retreat", side=SIDES, to=st.sampled_from(BOXES)),
                                 act("reinforce", side=SIDES, units=group),
                                 act("rally", side=SIDES, unit=st.sampled_from(fighters))),
            "desertion": st.just({"type": "desertion_checks"}),
        }
        return by_kind[kind]
    if segment == START:
        return st.one_of(st.just({"type": "check_supply"}), st.just({"type": "check_supply"}),
                         act("check_supply", foraged=st.lists(st.sampled_from(BOXES), max_size=2, unique=True)),
                         act("supply_loss", unit=mine), act("supply_loss", unit=mine),
                         act("border_state_roll", border_state=st.sampled_from(["MO", "KY", "MD"])),
                         st.just({"type": "end_start"}), st.just({"type": "end_start"}), anytime)
    if segment == MOVEMENT:
        return st.one_of(st.just({"type": "roll_marches"}), st.just({"type": "roll_marches"}),
                         act("march", units=group, to=st.sampled_from(BOXES)),
                         act("march", units=group, to=st.sampled_from(BOXES), amphibious=st.booleans()),
                         act("march", units=group, to=st.sampled_from(BOXES), leaders=st.just(["Lee"])),
                         act("breakout", box=st.sampled_from(BOXES)), act("entrench", box=st.sampled_from(BOXES)),
                         act("declare_containment", box=st.sampled_from(BOXES)),
                         act("move_leader", leader=st.just("Lee"), to=st.sampled_from(BOXES)),
                         st.just({"type": "end_movement"}), anytime)
    if segment == BATTLE:
        return st.one_of(act("start_battle", box=st.sampled_from(BOXES)),
                         act("start_battle", box=st.sampled_from(BOXES), amphibious=st.booleans()),
                         act("declare_containment", box=st.sampled_from(BOXES)),
                         st.just({"type": "end_battles"}), anytime)
    if segment == PROMOTION:
        return st.one_of(act("promote", unit=mine), st.just({"type": "end_promotion"}))
    assert segment == RECRUITMENT
    return st.one_of(st.just({"type": "fi_return_rolls"}), st.just({"type": "end_player_turn"}),
                     act("end_player_turn", year=st.sampled_from([1861, 1862])),
                     act("add_unit", name=st.sampled_from(["new 1", "new 2", "USA 1"]),
                         arm=st.sampled_from(["inf", "cav"]), box=st.sampled_from(BOXES)), anytime)


WILD = st.builds(lambda kind, params: {"type": kind, **params}, st.sampled_from(KINDS),
                 st.dictionaries(st.sampled_from(["unit", "units", "box", "to", "side", "hits", "leader", "bonus",
                                                  "foraged", "settings", "count", "extra"]), JUNK, max_size=2))


@cache
def faces_for(needed: int):
    """Exactly the dice needed most of the time (leaning low, so fire hits), otherwise a few faces, some not
    on a d6."""
    exact = st.lists(st.sampled_from((1, 1, 2, 2, 3, 4, 5, 6)), min_size=needed, max_size=needed)
    return st.one_of(*[exact] * 9, st.lists(st.integers(0, 7), max_size=3))


PRELUDES = ("start", "movement", "battle", "round", "round", "breakout", "csa", "csa battle", "csa battle")


def play(table: Table, prelude: str) -> None:
    """Scripted openings, so random play also starts in the movement segment, in battles and in the CSA turn:
    the Union attacks at P, breaks out of P (if containment is on), or the CSA attacks the Union landing there."""
    if prelude == "start":
        return
    table.to_movement(6)
    if prelude == "breakout" and table.state.contained:
        table.do("breakout", box="P")
    elif prelude in ("battle", "round", "csa", "csa battle"):
        table.do("end_movement")
        if prelude in ("battle", "round"):
            table.do("start_battle", box="P")
        else:
            table.pass_turn()
    if prelude == "round":  # the Union's 1 and 6 flip CSA 9, whose 6 misses: morale or the round's end next
        if table.state.options["battle_command"]:
            table.do("battle_command", 4, 2)
        table.do("fire", 1, 6)
        table.do("take_hits")
        if fight.due(table.state).kind == "morale":  # A5 (b): CSA 9 checks at once, and holds
            table.do("morale_checks", 1)
        table.do("fire", 6)
    if prelude == "csa battle":
        table.do("check_supply") if table.state.options["supply"] else None
        for box in table.state.supply_due:
            table.do("supply_loss", unit=table.state.units_in(box, "CSA")[0].name)
        table.do("end_start")
        table.do("roll_marches", 6) if table.state.options["command"] else table.do("set_marches", count=1)
        table.do("end_movement")
        table.do("start_battle", box="P")


def mutable_parts(state) -> str:
    """The only parts of a state that could change in place: its dicts (the rest is frozen dataclasses and
    tuples). A state left untouched keeps its identity and these."""
    return json.dumps([state.options, state.control, state.garrison_hits, state.border, state.basic.strength],
                      sort_keys=True)


class HouseDividedGame(RuleBasedStateMachine):
    """The EXAMPLE game (with test basic numbers) played at random through the event log, options at random."""

    @initialize(options=OPTION_CHOICES, prelude=st.sampled_from(PRELUDES))
    def start(self, options, prelude):
        self.table = Table(setup(basic_rules=TEST_BASIC), **options)
        play(self.table, prelude)
        self.replay = self.table.replay
        self.saved = mutable_parts(self.replay.state)

    @rule(data=st.data())
    def attempt(self, data):
        """One attempt, legal or not; an illegal one changes nothing, a legal one is undone and redone exactly."""
        state = self.replay.state
        action = data.draw(attempts(*situation(state)), label="action")
        try:
            needed = len(dice_needed(ENGINE, state, action))
        except (RuleError, DiceError):
            needed = data.draw(st.integers(0, 2), label="guess")
        faces = data.draw(faces_for(needed), label="faces")
        try:
            event = self.replay.action_event(action, ScriptedDice(faces))
        except (RuleError, DiceError):
            assert self.replay.state is state and mutable_parts(state) == self.saved
            return
        self.replay.add(event)
        after = self.replay.state
        self.replay.add(self.replay.undo_event())
        assert self.replay.state is state and mutable_parts(state) == self.saved
        self.replay.add(self.replay.redo_event())
        assert self.replay.state == after
        self.saved = mutable_parts(after)

    def teardown(self):
        """The state reached saves as JSON and loads unchanged."""
        if hasattr(self, "replay"):
            state = self.replay.state
            assert state_from_dict(json.loads(json.dumps(state.to_dict()))) == state

    @invariant()
    def within_the_rules(self):
        """HD-5.2 marches, HD-5.7 leaders' march-moves, HD-5.6 the firing limit, HD-4.11 the garrison's 2 hits,
        units on real boxes, MM >= 0."""
        state = self.replay.state
        assert state.mm_usa >= 0 and state.mm_csa >= 0
        assert state.marches_left is None or state.marches_left >= 0
        assert all(0 <= leader.moves <= LEADER_MARCH_MOVES for leader in state.leaders)
        for u in state.on_map():
            assert 0 <= u.marches <= UNIT_MARCHES
            assert state.game_map.has(u.box) or (u.foreign and u.box == state.europe)
        battle = state.battle
        if battle:
            for bside in battle.sides:
                assert fight.limit(state, battle, bside.side) <= FIRE_CAP
                assert set(bside.routed) <= set(bside.units) and bside.hits_due >= 0
                assert bside.garrison is None or 0 <= bside.garrison <= GARRISON_HITS
                assert all(n == GARRISON or state.unit(n).reduced for n in bside.routed)


HouseDividedGame.TestCase.settings = settings(max_examples=2000, stateful_step_count=10, deadline=None,
                                              suppress_health_check=[HealthCheck.too_slow])
test_random_play = pytest.mark.rule("HD-3", "HD-5.2", "HD-5.6", "HD-5.7", "HD-4.11")(HouseDividedGame.TestCase)
