"""Random play through the event log (hypothesis stateful): illegal attempts change nothing, SP stay in range,
the SP lost per side add up to the hits applied, and undo restores the state exactly."""
from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError, dice_needed
from engines.bull_run import ENGINE
from engines.bull_run.actions import due_checks
from engines.bull_run.options import OPTIONS
from engines.bull_run.rules import CSA, TERRAIN_COSTS, UNION
from engines.bull_run.state import (
    COMBAT,
    ELIMINATED,
    END,
    INITIATIVE,
    MOVEMENT,
    ON_MAP,
    PENDING,
    REINFORCEMENTS,
    state_from_dict,
)
from tests.engines.bull_run.support import ROSTER, Table

PLAYERS = ("Union 1", "Union 2", "Union 4", "Union 5", "Evans' Brigade", "CSA 2", "CSA 4", "CSA 5")
MACHINE_ROSTER = tuple(r for r in ROSTER if r["name"] in PLAYERS)  # 4 a side: a 1-SP, a grey and a late unit
NAMES = [r["name"] for r in MACHINE_ROSTER]
TERRAINS = [*TERRAIN_COSTS, "swamp"]
CROSSINGS = ["", "", "", "sudley", "farm", "ford", "bridge", "rope"]
GROUND = ["clear", "clear", "town", "hill", "woods", "swamp"]
KINDS = sorted(set(ENGINE.actions.table) - {"correct_roster"}) + ["bogus"]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2, 20), st.text(max_size=3),
                 st.lists(st.sampled_from(NAMES), max_size=3))
OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS if o.choices})
RARELY_TRUE = st.sampled_from([False, False, False, True])


def on_map(state, side: str) -> tuple[str, ...]:
    return tuple(u.name for u in state.units if u.side == side and u.status == ON_MAP)


def situation(state) -> tuple:
    """What the plausible actions depend on (hashable, so their strategies are built once)."""
    fighting = state.phase in (MOVEMENT, COMBAT)
    combat = state.combat
    return (state.phase, tuple(due_checks(state)), state.active if fighting else "", on_map(state, UNION),
            on_map(state, CSA), combat.stage if combat else "", combat.attackers if combat else (),
            combat.defenders if combat else ())


def stack(names: tuple[str, ...]):
    return st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True) if names else st.just([])


def act(kind: str, **params):
    return st.fixed_dictionaries({"type": st.just(kind), **params})


@cache
def attempts(phase, due, active, union, csa, stage, attackers, defenders):
    """Mostly actions that fit the phase (legal or nearly so), sometimes any action with junk parameters."""
    fitting = plausible(phase, due, active, union, csa, stage, attackers, defenders)
    return st.one_of(*[fitting] * 7, WILD)


def plausible(phase, due, active, union, csa, stage, attackers, defenders):
    """Actions that fit the situation: legal, or illegal only in their details."""
    if phase == INITIATIVE:
        return st.sampled_from([{"type": "roll_initiative"}] * 5 + [{"type": "preroll_initiative"}])
    if phase == REINFORCEMENTS:
        return st.just({"type": "place_reinforcements"})
    if phase == MOVEMENT:
        if due and due[0] == "farm_ford":
            return st.just({"type": "farm_ford_roll"})
        if due and due[0] == "awareness":
            return act("awareness_check", adjacent=st.booleans())
        if due:
            return st.one_of(st.just({"type": "csa_action_roll"}),
                             act("csa_action_roll", union_south=st.integers(0, 6)))
        move = act("move", unit=st.sampled_from((union if active == UNION else csa) or NAMES),
                   path=st.lists(st.sampled_from(TERRAINS), max_size=3), crossing=st.sampled_from(CROSSINGS),
                   west_of_stone_bridge=RARELY_TRUE, into_enemy_hex=RARELY_TRUE, through_enemy_zoc=RARELY_TRUE,
                   friendly_in_destination=st.sampled_from([0, 0, 1, 2]))
        return st.one_of(move, move, st.just({"type": "end_movement"}))
    if phase == COMBAT and not stage:
        own, enemy = (union, csa) if active == UNION else (csa, union)
        declare = act("declare_attack", attackers=stack(own), defenders=stack(enemy),
                      target_terrain=st.sampled_from(GROUND), attacker_terrain=st.sampled_from(GROUND),
                      across_ford=RARELY_TRUE, across_bridge=RARELY_TRUE)
        return st.one_of(*[declare] * 4, st.just({"type": "end_combat"}))
    if stage == "allocate":
        return act("allocate_hits", on_attackers=st.sampled_from(["", *attackers, *attackers]),
                   on_defenders=st.sampled_from(["", *defenders, *defenders]))
    if stage == "retreat":
        return act("retreat", legal_hex=st.sampled_from([True, True, True, False]), across_ford=RARELY_TRUE,
                   across_bridge=RARELY_TRUE)
    if stage == "advance":
        return st.fixed_dictionaries({"type": st.just("advance"), "next_to_stronger_fresh_union": st.booleans()},
                                     optional={"advance": st.booleans()})
    if stage:
        return st.just({"type": stage})
    if phase == END:
        return act("end_turn", union_holds_manassas=st.booleans(), csa_holds_centerville=st.booleans())
    return st.just({"type": "roll_initiative"})


WILD = st.builds(lambda kind, params: {"type": kind, **params}, st.sampled_from(KINDS),
                 st.dictionaries(st.sampled_from(["unit", "path", "advance", "attackers", "defenders", "legal_hex",
                                                  "adjacent", "union_south", "crossing", "on_defenders", "extra"]),
                                 JUNK, max_size=2))


@cache
def faces_for(needed: int):
    """Exactly the dice needed most of the time (leaning to 4-6, so fires hit and checks succeed), otherwise any
    few faces, some not on a d6."""
    exact = st.lists(st.sampled_from((1, 2, 3, 4, 5, 6, 4, 5, 6)), min_size=needed, max_size=needed)
    return st.one_of(*[exact] * 9, st.lists(st.integers(0, 7), max_size=3))


# Scripted first attacks by initiative face: attackers, defenders, fire dice. The Union's 7 SP roll 6 (2 hits)
# and Evans rolls 2 (none); the CSA's 10 SP roll 6 (3 hits) and the Union's 5 SP roll 6 (2 hits).
FIGHTS = {1: (["Union 1", "Union 2"], ["Evans' Brigade"], (6, 2)),
          4: (["CSA 4", "Evans' Brigade"], ["Union 1", "Union 4"], (6, 6))}


class BullRunGame(RuleBasedStateMachine):
    """A solitaire or two-player game played at random through the event log, with every option at random,
    from the start of turn 1, from its combat phase, or from a first attack that has just fired."""

    @initialize(options=OPTION_CHOICES, prelude=st.sampled_from(["start", "combat", "fire"]),
                initiative=st.sampled_from(sorted(FIGHTS)))
    def start(self, options, prelude, initiative):
        self.table = Table(MACHINE_ROSTER, **options)
        if prelude != "start":
            self.table.to_combat(initiative)
        if prelude == "fire":
            attackers, defenders, faces = FIGHTS[initiative]
            self.table.do("declare_attack", attackers=attackers, defenders=defenders)
            self.table.do("fire", *faces)
        self.replay = self.table.replay
        self.snapshot = self.replay.state.to_dict()
        self.lost = {UNION: 0, CSA: 0}

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
            assert self.replay.state is state and state.to_dict() == self.snapshot
            return
        self.replay.add(event)
        after = self.replay.state
        self.count_losses(state, after, action)
        self.replay.add(self.replay.undo_event())
        assert self.replay.state.to_dict() == self.snapshot
        self.replay.add(self.replay.redo_event())
        assert self.replay.state == after
        self.snapshot = after.to_dict()

    def teardown(self):
        """The state reached saves and loads unchanged."""
        if hasattr(self, "snapshot"):
            assert state_from_dict(self.snapshot).to_dict() == self.snapshot

    def count_losses(self, state, after, action) -> None:
        """BR-10.3/BR-10.4/BR-11.1: SP only fall, only when hits are applied or a stack cannot retreat, and by
        exactly the hits spent (R3: on one unit, the excess lost; R1: spilling over inside the stack)."""
        drop = {u.name: u.sp - after.unit(u.name).sp for u in state.units}
        assert min(drop.values()) >= 0
        if action["type"] == "allocate_hits":
            combat = state.combat
            for names, hits in ((combat.attackers, combat.hits_on_attackers),
                                (combat.defenders, combat.hits_on_defenders)):
                if state.options["hit_allocation"] == "R1":
                    assert sum(drop[n] for n in names) == min(hits, sum(state.unit(n).sp for n in names))
                else:
                    hit = [n for n in names if drop[n]]
                    assert len(hit) == (1 if hits else 0)
                    assert all(drop[n] == min(hits, state.unit(n).sp) for n in hit)
        elif action["type"] == "retreat":
            combat = state.combat
            names = combat.attackers if combat.checking == "attackers" else combat.defenders
            eliminated = action.get("legal_hex") is False
            assert all(drop[n] == (state.unit(n).sp if eliminated else 0) for n in names)
        else:
            assert not any(drop.values())
        for u in state.units:
            self.lost[u.side] += drop[u.name]

    @invariant()
    def units_in_range(self):
        """BR-2.4/BR-10.4: 0 <= SP <= max SP; at 0 a unit is eliminated; a unit not yet in play is intact."""
        for u in self.replay.state.units:
            assert 0 <= u.sp <= u.spec.max_sp
            assert (u.status == ELIMINATED) == (u.sp == 0)
            if u.status == PENDING:
                assert u.sp == u.spec.max_sp
            if u.status == ON_MAP:
                assert u.sp <= u.turn_start_sp

    @invariant()
    def losses_add_up(self):
        """BR-12.0: the SP lost per side are the hits applied so far."""
        state = self.replay.state
        assert (state.sp_lost(UNION), state.sp_lost(CSA)) == (self.lost[UNION], self.lost[CSA])


BullRunGame.TestCase.settings = settings(max_examples=2000, stateful_step_count=10, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_random_play = pytest.mark.rule("BR-2.4", "BR-10.3", "BR-10.4", "BR-11.1")(BullRunGame.TestCase)
