"""Action specs: what an action asks for, and what may be chosen now.

Every action of an engine declares its parameters (`Param`): a name, a kind, the label a player reads,
the rule ID, and `choices(state, chosen) -> ...`, the legal values now given the parameters chosen
before it (from -> units -> to). `Actions.apply` checks an action against its spec before anything
else: the type of every value strictly (no coercion: a string is not a bool or an int, a bool is not
an int), then the value against the legal choices, and refuses with a `RuleError` naming the
parameter and the rule; the state is never touched.

What `choices` returns, by kind:

| kind | value | `choices` returns |
| --- | --- | --- |
| `ONE_OF` | a text or a whole number | the legal values (or `Choice(value, label)`s) |
| `SOME_OF` | a list of such values | the values that may be picked (or a `Pick` with its own count range) |
| `NUMBER` | a whole number | a `range` of the legal numbers |
| `YES_NO` | true/false | the legal answers: `(False, True)`, `(False,)`, ... |
| `TEXT` | a text | `None` (any text up to the param's length) |
| `COUNTS` | {value: whole number} | a `Spread`: how many each value may take and the total |
| `RECORD` | entered data (a table) | `None`: the action's own loader checks it |

`choices` may also return `NOT_ASKED`: the parameter does not apply in this state (the action may
leave it out, or give its default). The choices must be exact: every value offered leads to a legal
action for some choice of the later parameters (the conformance tests check it).
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement
from typing import Any, Callable, Iterable, Mapping

from .dice import Dice
from .engine import RuleError, Step
from .quoting import quote

ONE_OF, SOME_OF, NUMBER, YES_NO, TEXT, COUNTS, RECORD = (
    "one of", "some of", "number", "yes/no", "text", "counts", "record")
KINDS = (ONE_OF, SOME_OF, NUMBER, YES_NO, TEXT, COUNTS, RECORD)
REQUIRED = object()   # a parameter without a default must be given
NOT_ASKED = object()  # `choices` for a parameter that does not apply in this state
TEXT_LIMIT = 200      # characters of a free text, unless the param says otherwise
SHOWN = 8             # legal values named in a refusal


@dataclass(frozen=True)
class Choice:
    """One legal value and what a player reads for it."""

    value: Any
    label: str


@dataclass(frozen=True)
class Barred:
    """A value that cannot be chosen now, and the rule that bars it: shown to the player, not offered."""

    value: Any
    label: str
    rule: str
    reason: str


@dataclass(frozen=True)
class Pick:
    """`SOME_OF` choices with a count range of their own (e.g. "1-2 units"), and `fits(values)`, what a
    whole selection must also meet (e.g. the stack's SP on the table)."""

    options: Iterable[Any]
    low: int = 0
    high: int | None = None
    fits: Callable[[tuple], bool] | None = None


@dataclass(frozen=True)
class Spread:
    """`COUNTS` choices: `caps` {value: the most it may take}; the total in low..high."""

    caps: Mapping[Any, int]
    low: int = 0
    high: int | None = None
    labels: Mapping[Any, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Legal:
    """The legal values of one parameter now, in one shape for every kind.

    `options`: the values that may be chosen (ONE_OF, SOME_OF, YES_NO, COUNTS); `low`..`high`: the
    range of a NUMBER, the count of a SOME_OF, the total of a COUNTS, the length of a TEXT;
    `caps`: the most each COUNTS value may take."""

    options: tuple[Choice, ...] = ()
    low: int = 0
    high: int | None = None
    caps: tuple[int, ...] = ()
    fits: Callable[[tuple], bool] | None = None
    barred: tuple[Barred, ...] = ()

    def bar(self, value: Any) -> Barred | None:
        """The rule barring `value`, if the choices name it."""
        return next((b for b in self.barred if type(b.value) is type(value) and b.value == value), None)

    @property
    def values(self) -> tuple:
        return tuple(c.value for c in self.options)

    def offers(self, value: Any) -> bool:
        """Is `value` one of the options? (types must match: True is not 1)"""
        return any(type(value) is type(v) and value == v for v in self.values)

    def cap(self, value: Any) -> int:
        return next(c for o, c in zip(self.values, self.caps) if type(o) is type(value) and o == value)

    def named(self) -> str:
        shown = ", ".join(c.label for c in self.options[:SHOWN])
        return shown + (f" (and {len(self.options) - SHOWN} more)" if len(self.options) > SHOWN else "")


def _choices(items: Iterable[Any]) -> tuple[tuple[Choice, ...], tuple[Barred, ...]]:
    """The offered choices and the barred values among `items` (values, Choices or Barreds)."""
    offered, barred = [], []
    for i in items:
        if isinstance(i, Barred):
            barred.append(i)
        else:
            offered.append(i if isinstance(i, Choice) else Choice(i, _label(i)))
    return tuple(offered), tuple(barred)


def _label(value: Any) -> str:
    return {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Param:
    """One parameter of an action. Build with `one_of`, `some_of`, `number`, `yes_no`, `text`, `counts`,
    `record`."""

    name: str
    kind: str
    label: str
    rule: str
    choices: Callable[[Any, Mapping[str, Any]], Any] | None = None
    default: Any = REQUIRED
    low: int = 0                # SOME_OF: fewest items (unless choices give a Pick)
    high: int | None = None     # SOME_OF: most items; TEXT: most characters
    repeat: bool = False        # SOME_OF: an ordered list in which a value may come again
    help: str = ""
    secret: bool = False        # the legal values tell what other players hide: never named in a refusal
    suggest: Callable[[Any, Mapping[str, Any]], Any] | None = None  # the value a form starts from, if not the default

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def legal(self, state: Any, chosen: Mapping[str, Any]) -> Legal | None:
        """The legal values now, or None when the parameter does not apply in this state."""
        found = self.choices(state, chosen) if self.choices else None
        if found is NOT_ASKED:
            return None
        kind = self.kind
        if kind in (YES_NO, ONE_OF):
            options, barred = _choices((False, True) if found is None and kind == YES_NO else found)
            return Legal(options, barred=barred)
        if kind == SOME_OF:
            pick = found if isinstance(found, Pick) else Pick(found, self.low, self.high)
            options, barred = _choices(pick.options)
            high = len(options) if pick.high is None and not self.repeat else pick.high
            return Legal(options, pick.low, high, fits=pick.fits, barred=barred)
        if kind == NUMBER:
            return Legal(low=found.start, high=found.stop - 1)
        if kind == COUNTS:
            caps = dict(found.caps)
            labels = {v: found.labels.get(v, _label(v)) for v in caps}
            high = sum(caps.values()) if found.high is None else found.high
            return Legal(tuple(Choice(v, labels[v]) for v in caps), found.low, high, tuple(caps.values()))
        if kind == TEXT:
            return Legal(high=self.high or TEXT_LIMIT)
        return Legal()  # RECORD

    # --- checking one value ------------------------------------------------------------------------
    def type_problem(self, value: Any) -> str:
        """Why `value` cannot be a value of this kind at all ("" when it can)."""
        kind = self.kind
        if kind == YES_NO:
            return "" if type(value) is bool else "yes or no (true or false)"
        if kind == NUMBER:
            return "" if type(value) is int else "a whole number"
        if kind == ONE_OF:
            return "" if type(value) in (str, int) else "one of the listed choices"
        if kind == SOME_OF:
            if not isinstance(value, (list, tuple)):
                return "a list of the listed choices"
            return "" if all(type(v) in (str, int) for v in value) else "a list of the listed choices"
        if kind == COUNTS:
            if not isinstance(value, Mapping):
                return "a count for each of the listed choices"
            return "" if all(type(k) in (str, int) and type(v) is int for k, v in value.items()) else \
                "a whole number for each of the listed choices"
        if kind == TEXT:
            if type(value) is not str:
                return "a text"
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "a text of readable characters"
        return ""

    def value_problem(self, value: Any, legal: Legal) -> str:
        """Why `value` is not legal now ("" when it is)."""
        kind = self.kind
        if self.secret and kind in (ONE_OF, SOME_OF, COUNTS):
            items = value if kind == SOME_OF else value.keys() if kind == COUNTS else (value,)
            if not all(legal.offers(v) for v in items):
                return f"{quote(value)} cannot be chosen now"
        if kind in (ONE_OF, YES_NO):
            if legal.offers(value):
                return ""
            return f"{quote(value)} cannot be chosen now; " + (
                f"choose {legal.named()}" if legal.options else "there is nothing to choose")
        if kind == NUMBER:
            if legal.low <= value <= legal.high:
                return ""
            return f"{quote(value)} is out of range: it must be {legal.low}..{legal.high}" if legal.low <= legal.high \
                else "no number can be chosen now"
        if kind == SOME_OF:
            for v in value:
                if not legal.offers(v):
                    return f"{quote(v)} cannot be chosen now; choose from {legal.named()}"
            if not self.repeat and len(set(value)) != len(value):
                return "the same choice is named twice"
            high = legal.high if legal.high is not None else len(value)
            if not legal.low <= len(value) <= high:
                return f"{len(value)} chosen: choose {_count(legal.low, high)}"
            if legal.fits and not legal.fits(tuple(value)):
                return f"{', '.join(quote(v) for v in value[:SHOWN])} cannot be chosen together"
            return ""
        if kind == COUNTS:
            for v, n in value.items():
                if not legal.offers(v):
                    return f"{quote(v)} cannot be chosen now; choose from {legal.named()}"
                if not 0 <= n <= legal.cap(v):
                    return f"{quote(v)} can take 0..{legal.cap(v)}, not {quote(n)}"
            total = sum(value.values())
            if not legal.low <= total <= legal.high:
                return f"the counts add up to {total}: they must add up to {_count(legal.low, legal.high, '')}"
            return ""
        if kind == TEXT and len(value) > legal.high:
            return f"a text of at most {legal.high} characters"
        return ""

    def barring(self, value: Any, legal: Legal) -> Barred | None:
        """The Barred entry that refuses `value` (or an item of it), if any."""
        items = value if self.kind == SOME_OF else value.keys() if self.kind == COUNTS else (value,)
        return next((b for b in (legal.bar(v) for v in items) if b), None)

    def check(self, state: Any, chosen: Mapping[str, Any], given: Mapping[str, Any]) -> Any:
        """The value this parameter takes in the action (given, or its default), checked; RuleError if not legal."""
        legal = self.legal(state, chosen)
        value = given.get(self.name, self.default)
        if legal is None:
            if value is REQUIRED or _same(value, self.default):
                return None if value is REQUIRED else value
            raise RuleError(self.rule, f"{self.label} ('{self.name}') does not apply now")
        if value is REQUIRED:
            raise RuleError(self.rule, f"{self.label} ('{self.name}'): choose " + (
                legal.named() if self.kind in (ONE_OF, SOME_OF, COUNTS) and legal.options and not self.secret
                else "a value"))
        if value is None and self.name not in given:
            return None  # a default of None: the action works the value out itself
        barred = self.barring(value, legal)
        if barred:
            raise RuleError(barred.rule, f"{self.label} ('{self.name}'): {barred.label}: {barred.reason}")
        problem = self.value_problem(value, legal)
        if problem:
            raise RuleError(self.rule, f"{self.label} ('{self.name}'): {problem}")
        return list(value) if isinstance(value, tuple) else value


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _count(low: int, high: int | None, noun: str = " ") -> str:
    if high is None:
        return f"{low} or more"
    return f"{low}" if low == high else f"{low} to {high}"


def _param(kind: str):
    def make(name: str, label: str, rule: str, choices: Callable | None = None, **options) -> Param:
        return Param(name, kind, label, rule, choices, **options)
    make.__name__ = kind.replace(" ", "_").replace("/", "_")
    make.__doc__ = f"A `{kind}` parameter: name, label a player reads, rule ID, `choices(state, chosen)`."
    return make


one_of, some_of, number, yes_no, text, counts, record = (_param(k) for k in KINDS)


@dataclass(frozen=True)
class ActionSpec:
    """An action's declaration: its label, rule, parameters and when it is open.

    `when(state)` raises RuleError (naming the rule) when the action cannot be taken now at all;
    `correction`: an entry the players may make at any time to put the record right (not a step
    of the sequence of play); `retired`: what an older version sent, {name: value}: that value of that
    parameter is dropped before the checks (the parameter is gone, or the value now means its default), so
    that saved games still replay."""

    name: str
    label: str
    rule: str
    params: tuple[Param, ...]
    when: Callable[[Any], None] | None = None
    correction: bool = False
    retired: Mapping[str, Any] = field(default_factory=dict)

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def is_retired(self, name: str, value: Any) -> bool:
        """Is this what an older version sent for the parameter (dropped before the checks)?"""
        return name in self.retired and _same(value, self.retired[name])

    def check(self, state: Any, given: Mapping[str, Any]) -> dict[str, Any]:
        """The action's parameters, every one checked in order; RuleError naming the first bad one."""
        names = {p.name for p in self.params}
        defaults = {p.name: p.default for p in self.params}
        given = {k: v for k, v in given.items()
                 if not self.is_retired(k, v) and not (v is None and k in defaults and defaults[k] is None)}
        unknown = [k for k in given if k not in names]
        if unknown:
            raise RuleError(self.rule, f"{self.label}: there is no parameter {quote(unknown[0])}"
                                       + (f"; its parameters are {', '.join(sorted(names))}" if names else ""))
        for p in self.params:
            if p.name in given:
                problem = p.type_problem(given[p.name])
                if problem:
                    raise RuleError(p.rule, f"{p.label} ('{p.name}') must be {problem}, not {quote(given[p.name])}")
        if self.when:
            self.when(state)
        chosen: dict[str, Any] = {}
        for p in self.params:
            chosen[p.name] = p.check(state, chosen, given)
        return chosen

    def is_open(self, state: Any) -> bool:
        """Can the action be taken now with some choice of its parameters?"""
        try:
            if self.when:
                self.when(state)
            chosen: dict[str, Any] = {}
            for p in self.params:
                legal = p.legal(state, chosen)
                chosen[p.name] = p.default if legal is None else _first(p, legal)
        except RuleError:
            return False
        return True


def selections(p: Param, legal: Legal, limit: int = 4):
    """Legal selections of a SOME_OF parameter, smallest first: every one when there are few choices,
    else those grown item by item (a selection that fits is grown only by items that keep it fitting)."""
    values = legal.values
    high = legal.high if legal.high is not None else len(values)
    fits = legal.fits or (lambda _: True)
    for size in range(legal.low, min(high, legal.low + limit) + 1):
        pool = combinations_with_replacement(values, size) if p.repeat else combinations(values, size)
        for i, chosen in enumerate(pool):
            if i > 5000:
                break
            if fits(chosen):
                yield chosen


class _Closed(RuleError):
    def __init__(self):
        super().__init__("", "nothing to choose")


def _first(p: Param, legal: Legal) -> Any:
    """A legal value of the parameter (the first), or _Closed when there is none."""
    if p.kind in (ONE_OF, YES_NO):
        if not legal.options:
            raise _Closed()
        return legal.values[0]
    if p.kind == NUMBER:
        if legal.low > legal.high:
            raise _Closed()
        return legal.low
    if p.kind == SOME_OF:
        found = next(selections(p, legal), None)
        if found is None:
            raise _Closed()
        return list(found)
    if p.kind == COUNTS:
        if sum(legal.caps) < legal.low:
            raise _Closed()
        left, spread = legal.low, {}
        for v, cap in zip(legal.values, legal.caps):
            spread[v] = min(cap, left)
            left -= spread[v]
        return spread
    return p.default if not p.required else ""


class Actions:
    """An engine's actions by name, each `fn(state, dice, **params) -> Step` with its `ActionSpec`.

    Declare one with `@actions(label, rule, *params, when=..., correction=False)`."""

    def __init__(self, rule: str):
        self.rule = rule  # the rule cited for malformed actions (e.g. the sequence of play)
        self.table: dict[str, Callable[..., Step]] = {}
        self.specs: dict[str, ActionSpec] = {}

    def __call__(self, label: Any, rule: str = "", *params: Param, when: Callable[[Any], None] | None = None,
                 correction: bool = False, retired: Mapping[str, Any] | None = None):
        if callable(label):  # a bare @actions: an action still without a spec
            self.table[label.__name__] = label
            return label

        def register(fn: Callable[..., Step]) -> Callable[..., Step]:
            names = [p.name for p in params]
            signature = list(inspect.signature(fn).parameters)[2:]
            if names != signature:
                raise TypeError(f"{fn.__name__}: the spec's parameters {names} are not the function's {signature}")
            self.table[fn.__name__] = fn
            self.specs[fn.__name__] = ActionSpec(fn.__name__, label, rule or self.rule, tuple(params), when, correction,
                                                 dict(retired or {}))
            return fn
        return register

    def open(self, state: Any) -> list[str]:
        """The actions that can be taken now, in the order they were declared."""
        return [name for name, spec in self.specs.items() if spec.is_open(state)]

    def apply(self, state: Any, action: Mapping[str, Any], dice: Dice) -> Step:
        """Check and perform one action; raise RuleError and change nothing when it is illegal."""
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise RuleError(self.rule, "An action needs a 'type'")
        params = {k: v for k, v in action.items() if k != "type"}
        fn = self.table.get(action["type"])
        if fn is None:
            raise RuleError(self.rule, f"There is no action {quote(action['type'])}")
        spec = self.specs.get(action["type"])
        if spec is not None:
            return fn(state, dice, **spec.check(state, params))
        try:
            inspect.signature(fn).bind(state, dice, **params)
        except TypeError as exc:
            raise RuleError(self.rule, f"Action '{action['type']}': {exc}") from None
        return fn(state, dice, **params)
