"""Every registered engine, checked the same way (DESIGN.md, "One shape for every engine").

A new game registered in `engines.GAMES` gets all of these tests without writing any.
"""
from __future__ import annotations

import dataclasses
import inspect
import json
import math
import pkgutil
import random
from fractions import Fraction
from functools import cache
from importlib import import_module

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from companion.dice import DiceError, EnteredDice, RandomDice
from companion.engine import Engine, Result, RuleError, Step
from companion.odds import fractions
from companion.play import playable, random_action, random_params, random_value
from companion.spec import COUNTS, KINDS, NUMBER, ONE_OF, RECORD, SOME_OF, TEXT, YES_NO, Legal, Param
from tests.scale import examples
from tests.words import DEVELOPER_WORDS

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
    """Up to `steps` legal actions from the example state, each picked at random among the legal choices
    of the engine's specs, with random dice."""
    rng = random.Random(seed)
    state, played = example(engine), []
    for _ in range(steps):
        action = random_action(engine.actions, state, rng)
        if action is None:
            break
        step = engine.apply(state, action, RandomDice(rng=rng))
        played.append(step)
        state = step.state
    return played


@cache
def reachable(slug: str) -> tuple:
    """The example state and states that random legal games pass through (every third one)."""
    engine = ENGINES[slug]
    passed = [step.state for seed in range(4) for step in random_play(engine, seed, 300)]
    return (example(engine), *passed[::3])


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
    assert len(played) >= 5, "random legal play stops at once"
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


# --- action specs -----------------------------------------------------------------------------

@each_engine
def test_every_action_has_a_spec(engine):
    """Every action declares its parameters: kind, label, rule (a rule of the game)."""
    assert set(engine.actions.specs) == set(engine.actions.table)
    for spec in engine.actions.specs.values():
        assert spec.label and spec.rule in engine.rules, spec.name
        assert list(inspect.signature(engine.actions.table[spec.name]).parameters)[2:] == \
            [p.name for p in spec.params]
        for p in spec.params:
            assert p.kind in KINDS and p.label and p.rule in engine.rules, (spec.name, p.name)


def open_actions(engine: Engine, state) -> list:
    """The actions open now that random play can fill in (not those taking entered data)."""
    return [s for s in (engine.actions.specs[name] for name in engine.actions.open(state)) if playable(s)]


def completed(engine: Engine, spec, state, chosen: dict, rng: random.Random) -> dict:
    """The action with `chosen` first and every later parameter at a random legal value."""
    params = dict(chosen)
    for p in spec.params:
        if p.name in params:
            continue
        legal = p.legal(state, params)
        if legal is not None:
            params[p.name] = random_value(p, legal, rng)
    return {"type": spec.name, **params}


def offered(p: Param, legal: Legal, rng: random.Random) -> list:
    """Values the choices offer: each option (a few), the ends of a range, some legal selections."""
    if p.kind in (ONE_OF, YES_NO):
        return list(legal.values[:8])
    if p.kind == NUMBER:
        return sorted({legal.low, legal.high, rng.randint(legal.low, legal.high)})
    return [random_value(p, legal, rng) for _ in range(3)]


@each_engine
def test_every_value_the_choices_offer_is_accepted(engine):
    """At states of random legal games, every value `choices` offers (given the parameters before it) leads
    to a legal action with legal later choices, which the engine performs."""
    rng = random.Random(0)
    tried = 0
    for state in reachable(engine.slug):
        before = snapshot(state)
        for spec in open_actions(engine, state):
            chosen: dict = {}
            for p in spec.params:
                legal = p.legal(state, chosen)
                if legal is None:
                    continue
                for value in offered(p, legal, rng):
                    action = completed(engine, spec, state, {**chosen, p.name: value}, rng)
                    try:
                        engine.apply(state, action, RandomDice(seed=tried))
                    except RuleError as err:
                        raise AssertionError(f"offered but refused: {action}: {err}") from None
                    tried += 1
                chosen[p.name] = random_value(p, legal, rng)
            if not spec.params:
                engine.apply(state, {"type": spec.name}, RandomDice(seed=tried))
        assert snapshot(state) == before
    assert tried > 20


WRONG_TYPES = {
    YES_NO: ["false", "true", 0, 1, None, [True]],
    NUMBER: ["2", 2.0, True, None, [1]],
    ONE_OF: [True, 2.5, None, [], {}],
    SOME_OF: ["x", None, 3, {"a": 1}, [None], [True]],
    COUNTS: [["x"], "x", None, {"x": "1"}, {"x": True}, {"x": 1.0}],
    TEXT: [3, None, ["x"], "\ud800"],
}


def not_offered(p: Param, legal: Legal) -> list:
    """Values of the right type that the choices do not offer."""
    if p.kind == YES_NO:
        return [v for v in (False, True) if not legal.offers(v)]
    if p.kind == ONE_OF:
        return ["no such choice", 10 ** 9, -1] if not legal.offers(-1) else ["no such choice"]
    if p.kind == NUMBER:
        return [legal.low - 1, legal.high + 1, 10 ** 12]
    if p.kind == SOME_OF:
        bad = [["no such choice"]]
        if legal.high is not None:
            bad.append([legal.values[0]] * (legal.high + 1) if legal.values else ["x"] * (legal.high + 1))
        if not p.repeat and legal.values:
            bad.append([legal.values[0], legal.values[0]])
        return bad
    if p.kind == COUNTS:
        bad = [{"no such choice": 1}]
        if legal.values:
            bad.append({legal.values[0]: legal.caps[0] + 1})
            bad.append({v: 0 for v in legal.values} if legal.low > 0 else {legal.values[0]: legal.high + 1})
        return bad
    if p.kind == TEXT:
        return ["x" * (legal.high + 1)]
    return []


@each_engine
def test_values_not_offered_and_wrong_types_are_refused_naming_the_parameter(engine):
    """At states of random legal games, a value the choices do not offer, or of the wrong type (no
    coercion: "false" is not a bool, "2", 2.0 and True are not ints), is refused with a RuleError naming the
    parameter, and the state is unchanged."""
    rng = random.Random(1)
    tried = 0
    for state in reachable(engine.slug)[::2]:
        for spec in open_actions(engine, state):
            base = completed(engine, spec, state, {}, rng)
            chosen: dict = {}
            for p in spec.params:
                legal = p.legal(state, chosen)
                chosen[p.name] = base.get(p.name, p.default)
                if legal is None or p.kind == RECORD:
                    continue
                for value in [*WRONG_TYPES.get(p.kind, []), *not_offered(p, legal)]:
                    if spec.is_retired(p.name, value):
                        continue  # what an older version sent: accepted so that saved games replay
                    if value is None and p.default is None:
                        continue  # a null for a parameter whose default is None means it was not given
                    error = assert_refused(engine, state, {**base, p.name: value})
                    assert f"'{p.name}'" in error.message, (spec.name, p.name, value, error.message)
                    tried += 1
    assert tried > 20


@each_engine
def test_actions_not_open_are_refused(engine):
    """At states of random legal games, an action that is not open now is refused and changes nothing."""
    for state in reachable(engine.slug)[::3]:
        open_now = set(engine.actions.open(state))
        for name in sorted(set(engine.actions.specs) - open_now):
            assert_refused(engine, state, {"type": name})


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


@each_action
def test_an_unknown_parameter_is_refused(engine, kind):
    error = assert_refused(engine, example(engine), {"type": kind, "no_such_parameter": 1})
    assert "no_such_parameter" in error.message


# --- random junk ----------------------------------------------------------------------------------

def pieces(data) -> list:
    """Every value inside JSON data, containers included."""
    if isinstance(data, dict):
        return [data, *(v for x in data.values() for v in pieces(x))]
    if isinstance(data, list):
        return [data, *(v for x in data for v in pieces(x))]
    return [data]


@cache
def texts(slug: str) -> tuple[str, ...]:
    """The texts of the reachable states (unit names, sides, phases ...): plausible parameter values."""
    return tuple(sorted({v for state in reachable(slug) for v in pieces(state.to_dict()) if isinstance(v, str)}))


NASTY = (math.nan, math.inf, -math.inf, -1, 0, 10 ** 12, 10 ** 400, 0.5, 1e308, "", " ", "0", "false", "\ud800",
         "x" * 10_000)


def json_values(words: tuple[str, ...]):
    """JSON-like values, with text often taken from the states, and values that often break parsers."""
    text = st.text(max_size=6) | st.sampled_from(words)
    leaves = st.none() | st.booleans() | st.integers(-3, 30) | st.floats() | st.sampled_from(NASTY) | text
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                        max_leaves=8)


@st.composite
def junk_actions(draw, engine: Engine):
    """A state of a random game, and an action of a random type: mostly a legal one with one or two of its
    parameters replaced by junk or dropped, else random parameters (mostly the action's own names)."""
    state = draw(st.sampled_from(reachable(engine.slug)))
    open_now = [s.name for s in open_actions(engine, state)]
    if open_now and draw(st.booleans()):
        spec = engine.actions.specs[draw(st.sampled_from(open_now))]
        action = {"type": spec.name, **random_params(spec, state, random.Random(draw(st.integers(0, 2 ** 16))))}
        for _ in range(draw(st.integers(1, 2))):
            name = draw(st.sampled_from([p.name for p in spec.params] + ["unknown"]))
            if name in action and draw(st.booleans()):
                del action[name]
            else:
                action[name] = draw(json_values(texts(engine.slug)))
        return state, action
    spec = engine.actions.specs[draw(st.sampled_from(sorted(engine.actions.specs)))]
    names = [p.name for p in spec.params]
    key = (st.sampled_from(names) | st.text(min_size=1, max_size=6)) if names else st.text(min_size=1, max_size=6)
    keys = draw(st.lists(key.filter(lambda k: k != "type"), max_size=len(names) + 1, unique=True))
    return state, {"type": spec.name, **{k: draw(json_values(texts(engine.slug))) for k in keys}}


DICE = st.one_of(
    st.integers(0, 2 ** 32).map(lambda seed: RandomDice(seed=seed)),
    st.lists(st.integers(0, 7) | st.sampled_from(["4", "x", 2.0, True, None]), max_size=4).map(
        lambda faces: EnteredDice(tuple(faces))),
)


@each_engine
@settings(max_examples=examples(5000))
@given(data=st.data())
def test_junk_actions_are_refused_cleanly(engine, data):
    """Random action dicts with random dice (wrong types, None, huge or negative numbers, strings for bools
    and ints, unknown names), at the states of random games: each succeeds or raises RuleError/DiceError, and
    the state it was tried on is never changed."""
    state, action = data.draw(junk_actions(engine))
    dice = data.draw(DICE)
    before = snapshot(state)
    try:
        step = engine.apply(state, action, dice)
    except (RuleError, DiceError):
        pass
    else:
        assert_step_is_sound(engine, step)
    assert snapshot(state) == before


def input_class(proc):
    """The dataclass of a procedure's inputs (None for a procedure that takes none)."""
    first = next(iter(proc.inputs()))
    return type(first) if dataclasses.is_dataclass(first) else None


INPUT_PROCEDURES = [(e, p) for e, p in PROCEDURES if input_class(p) is not None]


@pytest.mark.parametrize("engine, proc", INPUT_PROCEDURES, ids=[f"{e.slug}.{p.name}" for e, p in INPUT_PROCEDURES])
@settings(max_examples=examples(300))
@given(data=st.data())
def test_junk_procedure_inputs_are_refused_by_rule(engine, proc, data):
    """A procedure's inputs with one field replaced by junk: built, they are refused with a RuleError naming
    the field (or, if the junk happens to be legal, the odds still sum to 1)."""
    good = data.draw(st.sampled_from(sample_inputs(proc)))
    field = data.draw(st.sampled_from([f.name for f in dataclasses.fields(good)]))
    junk = data.draw(json_values(texts(engine.slug)))
    try:
        inputs = dataclasses.replace(good, **{field: junk})
    except RuleError as err:
        assert f"'{field}'" in err.message
        return
    try:
        assert sum(fractions(proc.odds(inputs)).values()) == 1
    except RuleError:
        pass


@each_engine
def test_what_a_page_shows_of_the_rules_is_in_plain_words(engine):
    """Option labels, help and choices, action and parameter labels, and the labels and reasons of the choices
    offered in random games name no ambiguity or question number, test vector, digest or source: an option says
    what it changes at the table, with its rule ID."""
    texts = [t for o in engine.options for t in (o.label, o.help, *(label for _, label in o.choices))]
    texts += [t for s in engine.actions.specs.values() for t in (s.label, *(p.label for p in s.params),
                                                                   *(p.help for p in s.params))]
    for state in reachable(engine.slug)[::3]:
        for spec in open_actions(engine, state):
            legal = spec.params[0].legal(state, {}) if spec.params else None
            texts += [t for c in (legal.options + legal.barred if legal else ()) for t in
                      (getattr(c, "label", ""), getattr(c, "reason", ""))]
    assert not [t for t in texts if isinstance(t, str) and DEVELOPER_WORDS.search(t)]
