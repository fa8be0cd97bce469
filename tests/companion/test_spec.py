"""Action specs on a toy game: strict types, legal choices in order, barred values with their rule, picks that
must fit together, spreads, parameters not asked, defaults, older saves, secret choices."""
from __future__ import annotations

import random

import pytest

from companion.dice import RandomDice
from companion.engine import RuleError, Step
from companion.play import random_action
from companion.spec import NOT_ASKED, Actions, Barred, Pick, Spread, counts, number, one_of, some_of, yes_no

actions = Actions("T-1")
UNITS = {"Ann": 2, "Ben": 3, "Cid": 9}


def _open(state):
    if state.get("over"):
        raise RuleError("T-9", "The game is over")


@actions("Move", "T-2",
         one_of("unit", "Unit", "T-2", lambda s, c: [*s["free"], *(Barred(u, u, "T-3", "already moved")
                                                                   for u in UNITS if u not in s["free"])]),
         number("steps", "Steps", "T-2", lambda s, c: range(1, UNITS[c["unit"]] + 1)),
         yes_no("rush", "Rush", "T-4", lambda s, c: (False, True) if c["steps"] > 1 else NOT_ASKED, default=False),
         when=_open, retired={"old": 0})
def move(state, dice, unit, steps, rush):
    return Step({**state, "free": [u for u in state["free"] if u != unit]}, f"{unit} moves {steps}", ("T-2",))


@actions("Stack", "T-5",
         some_of("units", "Units", "T-5", lambda s, c: Pick(UNITS, 1, 2, fits=lambda us: sum(UNITS[u] for u in us) <= 5)),
         counts("hits", "Hits", "T-5", lambda s, c: Spread({u: UNITS[u] for u in c["units"]}, 2, 2)),
         one_of("card", "Card", "T-6", lambda s, c: ["Eagle"], secret=True, default="Eagle"),
         when=_open)
def stack(state, dice, units, hits, card):
    return Step({**state, "over": True}, "stacked", ("T-5",))


STATE = {"free": ["Ann", "Ben"]}


@pytest.mark.parametrize("params, words", [
    ({"unit": "Cid", "steps": 1}, "Cid: already moved (T-3)"),
    ({"unit": "Ann", "steps": 3}, "'steps'): 3 is out of range: it must be 1..2"),
    ({"unit": "Ann", "steps": "2"}, "'steps') must be a whole number, not '2'"),
    ({"unit": "Ann", "steps": True}, "'steps') must be a whole number, not True"),
    ({"unit": "Ann", "steps": 2, "rush": "false"}, "'rush') must be yes or no"),
    ({"unit": "Ann", "steps": 1, "rush": True}, "'rush') does not apply now"),
    ({"unit": "Ann"}, "'steps'): choose a value"),
    ({"unit": "Ann", "steps": 1, "old": 1}, "there is no parameter 'old'"),
])
def test_an_action_is_checked_against_its_spec_in_order(params, words):
    with pytest.raises(RuleError) as caught:
        actions.apply(STATE, {"type": "move", **params}, RandomDice(seed=0))
    assert words in str(caught.value)


def test_legal_actions_defaults_and_what_older_saves_sent_pass():
    assert actions.apply(STATE, {"type": "move", "unit": "Ann", "steps": 2}, RandomDice()).summary == "Ann moves 2"
    assert actions.apply(STATE, {"type": "move", "unit": "Ann", "steps": 1, "old": 0}, RandomDice()).summary
    assert actions.open(STATE) == ["move", "stack"] and actions.open({**STATE, "over": True}) == []


@pytest.mark.parametrize("params, words", [
    ({"units": ["Ann", "Ben"], "hits": {"Ann": 1, "Ben": 1}}, ""),
    ({"units": ["Ann", "Cid"], "hits": {"Ann": 2}}, "cannot be chosen together"),
    ({"units": ["Ann", "Ann"], "hits": {"Ann": 2}}, "the same choice is named twice"),
    ({"units": ["Ann"], "hits": {"Ann": 3}}, "'Ann' can take 0..2"),
    ({"units": ["Ben"], "hits": {"Ben": 1}}, "they must add up to 2"),
    ({"units": ["Ben"], "hits": {"Ben": 2}, "card": "Lion"}, "'card'): 'Lion' cannot be chosen now (T-6)"),
])
def test_picks_that_must_fit_spreads_and_secret_choices(params, words):
    action = {"type": "stack", **params}
    if not words:
        assert actions.apply(STATE, action, RandomDice()).state["over"]
        return
    with pytest.raises(RuleError) as caught:
        actions.apply(STATE, action, RandomDice())
    assert words in str(caught.value) and "Eagle" not in str(caught.value)


def test_random_legal_play_takes_only_legal_actions():
    rng = random.Random(0)
    for _ in range(200):
        state = dict(STATE)
        while (action := random_action(actions, state, rng)) is not None:
            state = actions.apply(state, action, RandomDice(rng=rng)).state
        assert state.get("over") or not state["free"]
