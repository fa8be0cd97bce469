"""Every registered engine, checked the same way (DESIGN.md, "One shape for every engine").

A new game registered in `engines.GAMES` gets all of these tests without writing any.
"""
from __future__ import annotations

import copy
import inspect
import json
import math
import pkgutil
import random
from fractions import Fraction
from functools import cache
from importlib import import_module

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from companion.dice import DiceError, EnteredDice, RandomDice
from companion.engine import Engine, Result, RuleError, Step
from companion.odds import fractions

ENGINES = engines.registry()
PROCEDURES = [(engine, proc) for engine in ENGINES.values() for proc in engine.procedures]
ACTIONS = [(engine, kind) for engine in ENGINES.values() for kind in sorted(engine.actions.table)]
MAX_INPUTS = 200

each_engine = pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
each_procedure = pytest.mark.parametrize("engine, proc", PROCEDURES,
                                         ids=[f"{e.slug}.{p.name}" for e, p in PROCEDURES])
each_action = pytest.mark.parametrize("engine, kind", ACTIONS, ids=[f"{e.slug}.{k}" for e, k in ACTIONS])


def example(engine: Engine):
    return engine.start(None, engine.example_setup())


def snapshot(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def round_trip(engine: Engine, state):
    return engine.state_from_dict(json.loads(json.dumps(state.to_dict())))


def random_play(engine: Engine, seed: int, steps: int) -> list[Step]:
    """Up to `steps` legal actions from the example state, each drawn at random among the actions that
    need no parameters, with random dice."""
    rng = random.Random(seed)
    state, played = example(engine), []
    kinds = sorted(engine.actions.table)
    for _ in range(steps):
        for kind in rng.sample(kinds, len(kinds)):
            try:
                step = engine.apply(state, {"type": kind}, RandomDice(rng=rng))
            except RuleError:
                continue
            played.append(step)
            state = step.state
            break
        else:
            break
    return played


@cache
def reachable(slug: str) -> tuple:
    """The example state and the states a few random games pass through."""
    engine = ENGINES[slug]
    return (example(engine), *(step.state for seed in range(3) for step in random_play(engine, seed, 60)))


def sample_inputs(proc) -> list:
    inputs = list(proc.inputs())
    return inputs if len(inputs) <= MAX_INPUTS else random.Random(0).sample(inputs, MAX_INPUTS)


def assert_names_rules(engine: Engine, rules) -> None:
    assert rules, "no rule ID named"
    unknown = set(rules) - set(engine.rules)
    assert not unknown, f"rule IDs not in engine.rules: {sorted(unknown)}"


def assert_step_is_sound(engine: Engine, step: Step) -> None:
    assert_names_rules(engine, step.rules)
    for result in step.results:
        assert_names_rules(engine, result.rules)
    assert round_trip(engine, step.state) == step.state


# --- setup and state ------------------------------------------------------------------------------

@each_engine
def test_the_example_setup_starts_a_game(engine):
    defaults = {option.key: option.default for option in engine.options}
    assert example(engine) == engine.new_state(defaults, engine.example_setup())
    assert engine.slug in engines.GAMES and engines.get(engine.slug) is engine


@each_engine
def test_every_option_default_is_one_of_its_choices(engine):
    for option in engine.options:
        assert option.check(option.default) == option.default
        assert option.rule in engine.rules


@each_engine
def test_the_example_state_round_trips_through_json(engine):
    state = example(engine)
    assert round_trip(engine, state) == state


@each_engine
@pytest.mark.parametrize("seed", range(5))
def test_states_after_random_legal_actions_round_trip_through_json(engine, seed):
    played = random_play(engine, seed, 40)
    assert len(played) >= 5, "the random games of this suite need actions without parameters"
    for step in played:
        assert_step_is_sound(engine, step)


# --- procedures and their odds twins --------------------------------------------------------------

@each_engine
def test_the_procedures_are_the_modules_list(engine):
    assert engine.procedures == import_module(f"engines.{engine.slug}").PROCEDURES
    names = [p.name for p in engine.procedures]
    assert len(names) == len(set(names))


@each_engine
def test_every_resolve_function_has_an_odds_twin(engine):
    """Every public `resolve_*` of the engine package is some Procedure's resolve (its twin's pair)."""
    package = import_module(f"engines.{engine.slug}")
    inside = pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    modules = [package, *(import_module(m.name) for m in inside)]
    twinned = {proc.resolve for proc in engine.procedures}
    resolvers = {f"{module.__name__}.{name}": fn for module in modules for name, fn in vars(module).items()
                 if name.startswith("resolve_") and inspect.isfunction(fn) and fn.__module__ == module.__name__}
    assert resolvers
    assert [name for name, fn in resolvers.items() if fn not in twinned] == []


@each_procedure
def test_the_odds_twin_sums_to_exactly_one(engine, proc):
    inputs = sample_inputs(proc)
    assert inputs, f"{proc.name}.inputs() yields nothing"
    for inp in inputs:
        probs = fractions(proc.odds(inp))
        assert all(type(p) is Fraction and p > 0 for p in probs.values()), inp
        assert sum(probs.values()) == 1, inp


@each_procedure
def test_every_result_names_rules_and_a_possible_outcome(engine, proc):
    assert_names_rules(engine, proc.rules)
    for i, inp in enumerate(sample_inputs(proc)):
        dice = RandomDice(seed=i)
        result = proc.resolve(inp, dice)
        assert isinstance(result, Result)
        assert_names_rules(engine, result.rules)
        assert result.rolls == tuple(dice.rolls), "a Result records every die rolled"
        assert result.outcome in fractions(proc.odds(inp)), (inp, result.outcome)


# --- illegal actions ------------------------------------------------------------------------------

def assert_refused(engine: Engine, state, action) -> RuleError:
    before = snapshot(state)
    with pytest.raises(RuleError) as err:
        engine.apply(state, action, RandomDice(seed=0))
    assert snapshot(state) == before
    return err.value


@each_engine
@pytest.mark.parametrize("action", ["roll", None, {}, {"kind": "x"}, {"type": 3}, {"type": "no_such_action"}],
                         ids=["text", "none", "empty", "no-type", "type-not-text", "unknown-type"])
def test_a_malformed_action_is_refused(engine, action):
    assert_refused(engine, example(engine), action)


def required_parameters(engine: Engine, kind: str) -> list[str]:
    params = list(inspect.signature(engine.actions.table[kind]).parameters.values())[2:]
    return [p.name for p in params if p.default is inspect.Parameter.empty]


@each_action
def test_an_unknown_parameter_is_refused(engine, kind):
    given = dict.fromkeys(required_parameters(engine, kind))
    error = assert_refused(engine, example(engine), {"type": kind, **given, "no_such_parameter": 1})
    assert "no_such_parameter" in error.message


@each_action
def test_a_missing_parameter_is_refused(engine, kind):
    required = required_parameters(engine, kind)
    if required:
        error = assert_refused(engine, example(engine), {"type": kind})
        assert required[0] in error.message


@each_engine
def test_actions_of_another_phase_are_refused_at_the_start(engine):
    """At the example state each parameterless action is either legal or refused untouched, and some
    are refused (they belong to later in the game)."""
    state = example(engine)
    before = snapshot(state)
    refused = []
    for kind in sorted(engine.actions.table):
        try:
            engine.apply(state, {"type": kind}, RandomDice(seed=0))
        except RuleError as err:
            refused.append(kind)
            assert err.message
        assert snapshot(state) == before
    assert refused


# --- random action dicts --------------------------------------------------------------------------

def pieces(data) -> list:
    """Every value inside JSON data, containers included."""
    if isinstance(data, dict):
        return [data, *(v for x in data.values() for v in pieces(x))]
    if isinstance(data, list):
        return [data, *(v for x in data for v in pieces(x))]
    return [data]


def leaf_paths(data, path: tuple = ()) -> list[tuple]:
    if isinstance(data, dict) and data:
        return [p for k, v in data.items() for p in leaf_paths(v, path + (k,))]
    if isinstance(data, list) and data:
        return [p for i, v in enumerate(data) for p in leaf_paths(v, path + (i,))]
    return [path]


@cache
def texts(slug: str) -> tuple[str, ...]:
    """The texts of the reachable states (unit names, sides, phases ...): plausible parameter values."""
    return tuple(sorted({v for state in reachable(slug) for v in pieces(state.to_dict()) if isinstance(v, str)}))


def legal(engine: Engine, state, action) -> bool:
    try:
        engine.apply(state, action, RandomDice(seed=0))
    except RuleError:
        return False
    return True


@cache
def legal_actions(slug: str) -> tuple[tuple[object, dict], ...]:
    """Legal actions at the reachable states (one state for each set of legal parameterless actions):
    those with no required parameter, and those whose one required parameter takes a candidate value
    (a text, a one-text list, or a piece of the example setup)."""
    engine = ENGINES[slug]
    candidates = [*texts(slug), *([t] for t in texts(slug)), *pieces(engine.example_setup())]
    found, seen = [], set()
    for state in reachable(slug):
        plain = [(state, {"type": kind}) for kind in sorted(engine.actions.table)
                 if legal(engine, state, {"type": kind})]
        signature = tuple(action["type"] for _, action in plain)
        if signature in seen:
            continue
        seen.add(signature)
        found += plain
        for kind in sorted(engine.actions.table):
            required = required_parameters(engine, kind)
            if len(required) == 1:
                found += [(state, action) for action in ({"type": kind, required[0]: value} for value in candidates)
                          if legal(engine, state, action)][:1]
    return tuple(found)


NASTY = (math.nan, math.inf, -math.inf, -1, 0, 10 ** 12, 0.5, "", " ", "0")


def json_values(words: tuple[str, ...]):
    """JSON-like values, with text often taken from the states, and values that often break parsers."""
    text = st.text(max_size=6) | st.sampled_from(words)
    leaves = st.none() | st.booleans() | st.integers(-3, 30) | st.floats() | st.sampled_from(NASTY) | text
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                        max_leaves=8)


@st.composite
def random_actions(draw, engine: Engine):
    """A state, and an action of a random type with random parameters (mostly the action's own names)."""
    state = draw(st.sampled_from(reachable(engine.slug)))
    kind = draw(st.sampled_from(sorted(engine.actions.table)))
    names = list(inspect.signature(engine.actions.table[kind]).parameters)[2:]
    key = (st.sampled_from(names) | st.text(min_size=1, max_size=6)) if names else st.text(min_size=1, max_size=6)
    keys = draw(st.lists(key.filter(lambda k: k != "type"), max_size=len(names) + 1, unique=True))
    return state, {"type": kind, **{k: draw(json_values(texts(engine.slug))) for k in keys}}


@st.composite
def broken_legal_actions(draw, engine: Engine):
    """A legal action with one or two of its parameters, or values inside them, replaced or dropped."""
    state, action = draw(st.sampled_from(legal_actions(engine.slug)))
    action = copy.deepcopy(action)
    names = list(inspect.signature(engine.actions.table[action["type"]]).parameters)[2:]
    for _ in range(draw(st.integers(1, 2))):
        params = {k: v for k, v in action.items() if k != "type"}
        paths = sorted({*((n,) for n in names), *leaf_paths(params), ("unknown",)} - {()}, key=repr)
        path = draw(st.sampled_from(paths))
        holder = action
        for step in path[:-1]:
            holder = holder[step]
        if len(path) == 1 and path[0] in holder and draw(st.booleans()):
            del holder[path[0]]
        else:
            holder[path[-1]] = draw(json_values(texts(engine.slug)))
    return state, action


DICE = st.one_of(
    st.integers(0, 2 ** 32).map(lambda seed: RandomDice(seed=seed)),
    st.lists(st.integers(0, 7) | st.sampled_from(["4", "x"]), max_size=4).map(lambda faces: EnteredDice(tuple(faces))),
)


@each_engine
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_actions_succeed_or_are_refused_cleanly(engine, data):
    """Random action dicts with random dice, at the example state and states of random games: each
    succeeds or raises RuleError/DiceError, and the state it was tried on is never changed."""
    state, action = data.draw(random_actions(engine) | broken_legal_actions(engine))
    dice = data.draw(DICE)
    before = snapshot(state)
    try:
        step = engine.apply(state, action, dice)
    except (RuleError, DiceError):
        pass
    else:
        assert_step_is_sound(engine, step)
    assert snapshot(state) == before
