"""Random play through the event log (hypothesis stateful): illegal attempts raise RuleError naming a rule of the
game (or DiceError) and change nothing; every card stays in exactly one place; hits stay within bounds; no leader is
left alone with enemy units; stacking is within the limits whenever the rules require it; undo restores the state
exactly and redo brings the same state back. A crash it found once (a melee round with one side gone) has its own
test with the example that reaches it (test_melee.py)."""
from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError, dice_needed
from engines.dixie import ENGINE
from engines.dixie.board import OFF_FIELD, RESERVE, across, lateral, moves_from
from engines.dixie.flow import duty
from engines.dixie.stacking import over_limit
from engines.dixie.state import DEPLOY, MOVEMENT, NIGHT
from tests.engines.dixie.support import Table, leader, special, terrain, unit

# Made-up decks, played as custom decks: every arm, leaders (one with a +1 stack bonus, one artillery leader),
# terrain with effects, specials, horse artillery, and a USA reinforcement deck.
CARDS = [
    unit(1, "CSA"), unit(2, "CSA", cv=2, morale="A"), unit(3, "CSA", cv=1, morale="C"), unit(4, "CSA", "CAV", cv=2),
    unit(5, "CSA", "ART", cv=2, fp_long=2, fp_short=3), unit(6, "CSA", "ART", cv=1, horse=True, fp_long=1,
                                                               fp_short=2),
    leader(7, "CSA", 2, 1, stack_bonus=1, rank="army"), leader(8, "CSA", 1, 1, rank="artillery"),
    terrain(9, "CSA", "LC", "holder morale +1; both enfilade_in_cv -1"), special(10, "CSA", stack_bonus=1),
    unit(21, "USA"), unit(22, "USA", cv=4, morale="B"), unit(23, "USA", cv=2, morale="C"),
    unit(24, "USA", "CAV", cv=3), unit(25, "USA", "ART", cv=3, fp_long=1, fp_short=2), leader(26, "USA", 1, 2),
    terrain(27, "USA", "R", "holder fire_in_cv -1"), special(28, "USA", timing="enemy", modifiers="own morale +1"),
    *(unit(30 + i, "USA", cv=1 + i % 3, pile="muster" if i < 10 else "reinforcements") for i in range(12)),
]
IDS = [c.id for c in ENGINE.start({"custom_decks": True}, {"cards": CARDS}).cards]
POSITIONS = ["CSA-L", "CSA-C", "CSA-R", "USA-L", "USA-C", "USA-R"]
DEPLOYMENT = {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "CSA-7": "CSA-L", "CSA-5": "CSA-C", "CSA-8": "CSA-C",
              "CSA-9": "CSA-C", "CSA-3": "CSA-R", "CSA-4": "CSA-R", "USA-21": "USA-R", "USA-22": "USA-R",
              "USA-26": "USA-R", "USA-27": "USA-R", "USA-23": "USA-C", "USA-25": "USA-C", "USA-24": "USA-L",
              "USA-30": "USA-L"}
ADVANCES = (("CSA-1", "USA-R"), ("CSA-2", "USA-R"), ("CSA-7", "USA-R"), ("CSA-3", "USA-L"))
OPTIONS = st.fixed_dictionaries({}, optional={
    "melee": st.sampled_from([True, True, False]),
    **{key: st.booleans() for key in ("enfilade", "flank_attack", "counter_battery", "artillery_support",
                                      "decoys", "corps_command", "melee_all_units", "disorder_one_at_a_time",
                                      "enfilade_clear_captures", "flank_any_position", "flank_leader_check")},
    "counter_battery_firers": st.sampled_from(["any", "artillery"]),
    "combat_order_by": st.sampled_from(["target", "firer"]),
    "decoy_stacking": st.sampled_from(["real_type", "as_unit"]),
    "melee_other_hits": st.sampled_from(["all", "melee_only", "all_terrain_for_fire"]),
    "terrain_into_enemy_held": st.booleans(),
    "no_disengage_destination": st.sampled_from(["stay", "eliminate"]),
})
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2, 40), st.text(max_size=3), st.sampled_from(IDS),
                 st.lists(st.sampled_from(IDS), max_size=3))
KINDS = ["bogus", *sorted(ENGINE.actions.table)]
WILD = st.builds(lambda kind, params: {"type": kind, **params}, st.sampled_from(KINDS),
                 st.dictionaries(st.sampled_from(["card", "position", "to", "firers", "target", "cards", "fight",
                                                  "leader", "units", "counter_battery", "decoy", "extra"]),
                                 JUNK, max_size=2))


def ids(cards) -> list[str]:
    return [c.id for c in cards] or IDS


def makers(state) -> list:
    """Ways to draw an action that fits the situation: legal, or illegal only in its details. Each is a function
    of hypothesis' `draw`; the plain ones are listed several times to be drawn more often."""
    side = state.active
    mine = [c for c in state.cards if c.side == side]
    field = [c for c in mine if c.loc not in OFF_FIELD]
    units = [c for c in field if c.is_unit]
    reserve = [c for c in mine if c.loc == RESERVE]
    anyone_reserve = [c for c in state.cards if c.loc == RESERVE]

    def one(cards):
        return lambda draw: draw(st.sampled_from(ids(cards)))

    def pos(draw):
        return draw(st.sampled_from(POSITIONS))

    def plain(kind):
        return lambda draw: {"type": kind}

    def make(kind, **params):
        return lambda draw: {"type": kind, **{k: f(draw) for k, f in params.items()}}

    found = []
    if state.tasks:  # only the task in hand can be done
        task = state.tasks[0]
        pool = list(task.cards) or IDS
        kind = {"allocate": "allocate_hits", "checks": "check_hits", "flank_fire": "flank_fire",
                "withdraw": "withdraw"}[task.kind]
        return [plain(kind)] * 4 + [
            make("allocate_hits", cards=lambda draw: draw(st.lists(st.sampled_from(pool), max_size=task.hits + 1))),
            make("withdraw", card=one([state.card(i) for i in pool]),
                 to=lambda draw: draw(st.sampled_from(POSITIONS + [RESERVE])))]
    elif state.step == DEPLOY:
        found += [make("deploy", card=one(anyone_reserve), position=pos)] * 3
        found += [plain("start_battle")] * 2 + [make("place_decoy", card=one(anyone_reserve), position=pos)]
    elif state.step == MOVEMENT:
        movers = [c for c in mine if c.loc not in OFF_FIELD or c.loc == RESERVE]

        def move(draw):
            card = draw(st.sampled_from(movers))
            return {"type": "move", "card": card.id,
                    "to": draw(st.sampled_from([*moves_from(card.loc, card.side, state.width), *POSITIONS]))}
        found += [move] * 6 if movers else []
        found += [plain("end_movement")] * 2
        found += [make("play_terrain", card=one(reserve), position=pos),
                  *[make("flank_attack", cards=lambda draw: draw(st.lists(st.sampled_from(ids(reserve)), min_size=1,
                                                                          max_size=2, unique=True)),
                         position=lambda draw: draw(st.sampled_from(["USA-R", "USA-L", "CSA-R", "CSA-L"])))] * 2,
                  make("place_decoy", card=one(reserve), position=pos), make("reveal_decoy", card=one(field)),
                  make("fire", firers=lambda draw: [one(units)(draw)], target=pos)]
    elif state.step == "combat":
        ready = [c for c in units if not c.fired]
        engaged = [c for c in ready if state.engaged(c.loc)]

        def fire(draw):
            card = draw(st.sampled_from(ready))
            return {"type": "fire", "firers": [card.id],
                    "target": draw(st.sampled_from([card.loc, across(card.loc), *lateral(card.loc)]))}

        def engaged_fire(draw):
            cards = draw(st.lists(st.sampled_from(engaged), min_size=1, max_size=2, unique=True))
            return {"type": "fire", "firers": [c.id for c in cards], "target": cards[0].loc}
        found += [fire] * 2 if ready else []
        found += [engaged_fire] * 6 if engaged else []
        stages = {m.stage for m in state.melees}
        if "roll" in stages:
            return [plain("melee_round")] * 3 + [plain("end_combat"), *found[:1]]
        if stages & {"choice", "reply"}:
            return [make("melee_choice", fight=lambda draw: draw(st.booleans()))] * 3 + [plain("melee_round")]
        places = [p for p in POSITIONS if state.engaged(p)] or POSITIONS
        early = state.options["melee"] and not state.combat_at
        found += [make("declare_melee", position=lambda draw: draw(st.sampled_from(places)))] * (8 if early else 1)
        found += [plain("end_combat"), plain("disorder"), plain("melee_round")]
    elif state.step == "morale":
        found += [plain(k) for k in ("morale_step", "end_morale", "end_morale", "disorder")]
        found += [make("check_leader", card=one(field)), make("check_morale", card=one(field))]
    else:
        found += [make("reinforce", cards=lambda draw: draw(st.none() | st.lists(st.sampled_from(IDS), max_size=2))),
                  plain("reinforce"), plain("disorder")]
    found += [make("play_special", card=one(anyone_reserve), position=pos),
              make("designate", leader=lambda draw: draw(st.sampled_from(IDS)))]
    return found


# Where a game may start: the deployment, or a battle already joined by a CSA turn 1 of advances into USA-R and
# USA-L, taken on to a later step. The events are legal under any options.
PRELUDES = {
    "deployment": (),
    "usa_combat": ("end_morale",),
    "csa_combat": ("end_morale", "end_combat", "end_movement", "reinforce", "end_morale"),
    "csa_movement": ("end_morale", "end_combat", "end_movement", "reinforce", "end_morale", "end_combat"),
}


@cache
def prelude(name: str) -> tuple:
    """The events of a prelude, recorded once."""
    table = Table(CARDS)
    if name != "deployment":
        table.deploy(DEPLOYMENT)
        table.to_step("movement")
        for card, to in ADVANCES:
            table.do("move", card=card, to=to)
        table.do("end_movement")
        table.do("reinforce")
        for kind in PRELUDES[name]:
            table.do(kind, **({"cards": ["USA-40", "USA-41"]} if kind == "reinforce" else {}))
    return tuple(table.events)


def faces_for(needed: list):
    """Exactly the dice needed most of the time (faces for each roll's own sides), otherwise a few odd faces."""
    exact = st.tuples(*(st.integers(1, r.sides) for r in needed for _ in r.faces)) if needed else st.just(())
    return st.one_of(*[exact] * 9, st.lists(st.integers(0, 7), max_size=3).map(tuple))


class DixieGame(RuleBasedStateMachine):
    """A game played at random through the event log, with random options, from the deployment or from a
    battle already joined."""

    @initialize(options=OPTIONS, start=st.sampled_from(sorted(PRELUDES)))
    def begin(self, options, start):
        self.replay = Table(CARDS, **options).replay
        self.replay.extend(prelude(start))
        self.snapshot = self.replay.state.to_dict()

    @rule(data=st.data())
    def attempt(self, data):
        """One attempt, legal or not; an illegal one changes nothing, a legal one is undone and redone exactly."""
        state = self.replay.state
        if data.draw(st.integers(0, 11), label="wild") == 11:
            action = data.draw(WILD, label="action")
        else:
            pick = data.draw(st.randoms(use_true_random=False), label="pick")
            action = pick.choice(makers(state))(data.draw)
        try:
            needed = dice_needed(ENGINE, state, action)
        except (RuleError, DiceError):
            needed = []
        faces = data.draw(faces_for(needed), label="faces")
        try:
            event = self.replay.action_event(action, ScriptedDice(faces))
        except (RuleError, DiceError) as refused:
            assert not isinstance(refused, RuleError) or refused.rule in ENGINE.rules, refused
            assert self.replay.state is state and state.to_dict() == self.snapshot
            return
        self.replay.add(event)
        after = self.replay.state
        self.replay.add(self.replay.undo_event())
        assert self.replay.state.to_dict() == self.snapshot
        self.replay.add(self.replay.redo_event())
        assert self.replay.state == after
        self.snapshot = after.to_dict()

    @invariant()
    def every_card_in_exactly_one_place(self):
        """Card conservation: the same cards, each in one valid location (digest section 2)."""
        state = self.replay.state
        assert [c.id for c in state.cards] == IDS
        assert all(c.loc in OFF_FIELD or c.loc in state.holder for c in state.cards)

    @invariant()
    def hits_within_bounds(self):
        """DX-7.3: a unit holds 0..CV hits (past its CV it is destroyed); DX-11.3: leader hits are never negative;
        of them, those taken in a melee are counted (A21); cards off the field hold none except units sent to the
        reserve by disorder."""
        for c in self.replay.state.cards:
            assert c.hits >= 0 and 0 <= c.melee_hits <= c.hits
            if c.spec.is_unit:
                assert c.hits <= c.spec.cv
            if c.loc in ("eliminated", "reinforcements", "deck"):
                assert c.hits == 0

    @invariant()
    def no_leader_alone_with_the_enemy(self):
        """DX-11.3: a leader in a position with enemy units and no friendly unit is killed at once."""
        state = self.replay.state
        for pos in state.positions:
            for side in ("CSA", "USA"):
                if state.leader(pos, side) and not state.units(pos, side):
                    assert not state.units(pos, "USA" if side == "CSA" else "CSA")

    @invariant()
    def stacking_within_limits(self):
        """DX-3.1: outside deployment and the Movement step, a side over its limit is always in disorder due (or
        hits are still to be checked before it is)."""
        state = self.replay.state
        if state.step not in (DEPLOY, MOVEMENT, NIGHT, "over") and over_limit(state):
            assert duty(state) is not None or state.step == "morale"


DixieGame.TestCase.settings = settings(max_examples=2000, stateful_step_count=8, deadline=None,
                                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
test_random_play = pytest.mark.rule("DX-3.1", "DX-7.3", "DX-11.3", "DX-5.0")(DixieGame.TestCase)
