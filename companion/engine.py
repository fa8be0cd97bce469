"""The shape every game engine shares (see DESIGN.md, "One shape for every engine").

- `RuleError`: an illegal entry or action, naming the rule it breaks; the state is left untouched.
- `Result`: what a random procedure did: inputs, every die, the modified values, outcome, rule IDs.
- `Step`: what an action did to the game: the new state, a one-line summary, the rules and results.
- `Procedure`: a `resolve_*` function with its exact odds twin and its legal inputs.
- `Option`: a per-session choice (the digests' ambiguities and optional rules).
- `Actions`: the table of an engine's actions, `apply(state, action, dice) -> Step`.
- `Engine`: the registry entry that ties one game together.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping

import icepool

from .dice import Dice, ProbeDice, Roll
from .quoting import quote


class RuleError(ValueError):
    """An entry or action the rules do not allow. `rule` is the rule ID it breaks."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


@dataclass(frozen=True)
class Result:
    """The record of one random procedure."""

    procedure: str
    inputs: Mapping[str, Any]
    rolls: tuple[Roll, ...]
    outcome: Hashable
    rules: tuple[str, ...]
    summary: str
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """What one action did: the new state and how to tell it.

    `owner`: the player whose private part this step has (their cards, the dice that chose them): the
    summary is public, but the action's parameters, its dice and `detail` (the line the owner reads) go only
    to that player's page and never into a player's export."""

    state: Any
    summary: str
    rules: tuple[str, ...]
    results: tuple[Result, ...] = ()
    owner: str = ""
    detail: str = ""


def no_inputs() -> list[None]:
    """The inputs of a procedure that takes none."""
    return [None]


def nothing_to_prepare() -> None:
    """An engine whose pages ask for nothing slow to work out."""


@dataclass(frozen=True)
class Procedure:
    """A random procedure: `resolve(inputs, dice) -> Result` and its twin `odds(inputs) -> Dist`.

    `inputs()` yields inputs that cover the legal range; tests enumerate the dice for each of them.
    """

    name: str
    resolve: Callable[[Any, Dice], Result]
    odds: Callable[[Any], Any]
    inputs: Callable[[], Iterable[Any]]
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """A choice made when a session starts, with the digest's default."""

    key: str
    label: str
    rule: str
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    help: str = ""

    def check(self, value: Any) -> Any:
        """The value, if it is one of the choices (of the same type: 1 is not True), or like the default."""
        if self.choices and not any(type(value) is type(c) and value == c for c, _ in self.choices):
            allowed = ", ".join(repr(c) for c, _ in self.choices)
            raise RuleError(self.rule, f"Option '{self.label}' cannot be {quote(value)}: choose one of {allowed}")
        if not self.choices and type(value) is not type(self.default):
            raise RuleError(self.rule, f"Option '{self.label}' must be like {self.default!r}, not {quote(value)}")
        return value


def resolve_options(options: Iterable[Option], chosen: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option's value: the chosen one (checked) or the default. Unknown keys are refused."""
    options = list(options)
    chosen = dict(chosen or {})
    unknown = set(chosen) - {o.key for o in options}
    if unknown:
        raise RuleError("options", f"Unknown option(s): {', '.join(quote(k) for k in sorted(unknown))}")
    return {o.key: o.check(chosen[o.key]) if o.key in chosen else o.default for o in options}


def saved_options(options: Iterable[Option], saved: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The options of a game saved by an earlier version, as this version reads them, and what changed:
    an option no longer offered is dropped, a new one takes its default, a value no longer allowed too."""
    options = list(options)
    values, notes = {}, []
    for option in options:
        if option.key not in saved:
            values[option.key] = option.default
            notes.append(f"The option '{option.label}' is new: this game uses its default.")
            continue
        try:
            values[option.key] = option.check(saved[option.key])
        except RuleError:
            values[option.key] = option.default
            notes.append(f"The option '{option.label}' no longer allows {quote(saved[option.key])}: this game "
                         "uses its default.")
    for key in sorted(set(saved) - {o.key for o in options}):
        notes.append(f"The option {quote(key)} is no longer offered (the rules now settle it); it was "
                     f"{quote(saved[key])}.")
    return values, notes


@dataclass(frozen=True)
class Due:
    """A step the rules want now: the action type that does it, a title, a line of text, the rule."""

    action: str
    title: str
    text: str
    rule: str


@dataclass(frozen=True)
class DieTable:
    """A table read with one die: face -> result, tagged with its rule ID."""

    rule: str
    results: Mapping[int, Hashable]
    title: str = ""

    @property
    def sides(self) -> int:
        return len(self.results)

    def roll(self, dice: Dice, label: str = "") -> tuple[int, Hashable]:
        """Roll the die and read the table: (face, result)."""
        face = dice.d(self.sides, label or f"{self.title} ({self.rule})")
        return face, self.results[face]

    def resolve(self, dice: Dice, procedure: str, describe: Callable[[int, Hashable], str],
                inputs: Mapping[str, Any] | None = None, label: str = "") -> Result:
        """Roll on the table and record it: `describe(face, result)` is the one-line summary."""
        face, result = self.roll(dice, label)
        return Result(procedure, dict(inputs or {}), tuple(dice.rolls[-1:]), result, (self.rule,),
                      describe(face, result), {"face": face})

    def odds(self) -> icepool.Die:
        """The exact distribution of the result."""
        counts: dict[Hashable, int] = {}
        for result in self.results.values():
            counts[result] = counts.get(result, 0) + 1
        return icepool.Die(counts)

    def faces_for(self, result: Hashable) -> tuple[int, ...]:
        return tuple(f for f, r in self.results.items() if r == result)


def dice_needed(engine: "Engine", state: Any, action: Mapping[str, Any]) -> list[Roll]:
    """The dice an action would roll now, found by trying it on probe dice (labels and sides).

    Raises RuleError when the action is illegal now, as performing it would."""
    probe = ProbeDice()
    engine.apply(state, action, probe)
    return probe.rolls


class Actions:
    """An engine's actions by name. Each is `fn(state, dice, **params) -> Step`."""

    def __init__(self, rule: str):
        self.rule = rule  # the rule cited for malformed actions (e.g. the sequence of play)
        self.table: dict[str, Callable[..., Step]] = {}

    def __call__(self, fn: Callable[..., Step]) -> Callable[..., Step]:
        self.table[fn.__name__] = fn
        return fn

    def apply(self, state: Any, action: Mapping[str, Any], dice: Dice) -> Step:
        """Validate and perform one action; raise RuleError and change nothing when it is illegal."""
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise RuleError(self.rule, "An action needs a 'type'")
        params = {k: v for k, v in action.items() if k != "type"}
        fn = self.table.get(action["type"])
        if fn is None:
            raise RuleError(self.rule, f"There is no action '{action['type']}'")
        try:
            inspect.signature(fn).bind(state, dice, **params)
        except TypeError as exc:
            raise RuleError(self.rule, f"Action '{action['type']}': {exc}") from None
        return fn(state, dice, **params)


@dataclass(frozen=True)
class Engine:
    """A game's entry in the registry: what it is, its options and its procedures and actions."""

    slug: str
    title: str
    players: str
    sides: tuple[str, ...]
    rules: Mapping[str, str]  # rule ID -> short title, every ID of the digest
    options: tuple[Option, ...]
    procedures: tuple[Procedure, ...]
    actions: Actions
    new_state: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]  # (options, setup) -> state
    state_from_dict: Callable[[Mapping[str, Any]], Any]
    example_setup: Callable[[], dict]
    summary: str = ""
    # Works out, before any page asks, the tables its pages would otherwise build on their first request (the
    # server runs it on a worker thread when it starts).
    prepare: Callable[[], None] = nothing_to_prepare

    def apply(self, state: Any, action: Mapping[str, Any], dice: Dice) -> Step:
        return self.actions.apply(state, action, dice)

    def start(self, options: Mapping[str, Any] | None, setup: Mapping[str, Any]) -> Any:
        """The opening state of a session, options checked against their choices."""
        return self.new_state(resolve_options(self.options, options), setup)
