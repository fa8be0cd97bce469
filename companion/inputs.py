"""Strict checks of the values players and procedures hand to an engine.

- `checker(kind)`: a function telling why a value is not of the type `kind`, or "" when it is. Nothing is
  coerced: a string is not a bool or an int, a bool is not an int, a float is not an int. It is worked out
  once per type, since procedures build their inputs at every roll of an enumeration.
- `Inputs`: the base of a procedure's frozen input dataclass. On construction every field is checked
  against its annotation and its `bounded(...)` range; a bad field is refused with a `RuleError`
  naming the field and the class's `RULE` (or the field's own rule).
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections import abc
from functools import cache
from typing import Any, Callable, ClassVar, Union

from .engine import RuleError
from .quoting import quote

NAMES = {bool: "yes or no (true/false)", int: "a whole number", str: "a text", float: "a number"}

Check = Callable[[Any], str]


def _first(problems: typing.Iterable[str], wording: str) -> str:
    return next((wording.format(p) for p in problems if p), "")


@cache
def checker(kind: Any) -> Check:
    """value -> why it does not have the type `kind` ("" when it does), in a player's words."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is Any:
        return lambda value: ""
    if origin in (Union, types.UnionType):
        optional = type(None) in args
        parts = [checker(a) for a in args if a is not type(None)]

        def union(value: Any) -> str:
            if value is None and optional:
                return ""
            reasons = [part(value) for part in parts]
            return "" if "" in reasons else " or ".join(dict.fromkeys(reasons))
        return union
    if origin is typing.Literal:
        wanted = "one of " + ", ".join(repr(a) for a in args)
        return lambda value: "" if any(type(value) is type(a) and value == a for a in args) else wanted
    if origin is tuple:
        return _tuple_checker(args)
    if origin in (frozenset, set):
        each = checker(args[0]) if args else None
        return lambda value: "a set" if not isinstance(value, (frozenset, set)) else \
            _first(map(each, value), "a set of which each is {}") if each else ""
    if origin in (dict, abc.Mapping) or kind in (dict, abc.Mapping):
        keys, values = (checker(args[0]), checker(args[1])) if args else (None, None)
        return lambda value: "a table of names and values" if not isinstance(value, abc.Mapping) else \
            _first((keys(k) or values(v) for k, v in value.items()), "a table of which each entry is {}") \
            if keys else ""
    if kind is float:
        return lambda value: "" if isinstance(value, (int, float)) and not isinstance(value, bool) else NAMES[float]
    if kind in (bool, int, str):
        return lambda value: "" if type(value) is kind else NAMES[kind]
    if isinstance(kind, type):
        return lambda value: "" if isinstance(value, kind) else f"a {kind.__name__}"
    return lambda value: ""


def _tuple_checker(args: tuple) -> Check:
    if len(args) == 2 and args[1] is Ellipsis:
        each = checker(args[0])
        return lambda value: "a tuple" if not isinstance(value, tuple) else \
            _first(map(each, value), "a tuple of which each is {}")
    parts = [checker(a) for a in args]

    def fixed(value: Any) -> str:
        if not isinstance(value, tuple):
            return "a tuple"
        if len(parts) != len(value):
            return f"a tuple of {len(parts)}"
        return _first((part(v) for part, v in zip(parts, value)), "a tuple of which each is {}")
    return fixed


def bounded(low: int | None = None, high: int | None = None, rule: str = "", **kwargs) -> Any:
    """A dataclass field whose value (an int, or each int of a tuple) must lie in low..high."""
    return dataclasses.field(metadata={"low": low, "high": high, "rule": rule}, **kwargs)


def _out_of_range(value: Any, low: int | None, high: int | None) -> bool:
    values = value if isinstance(value, tuple) else (value,)
    return any(isinstance(v, int) and ((low is not None and v < low) or (high is not None and v > high))
               for v in values)


def range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low}..{high}"
    return f"{low} or more" if low is not None else f"{high} or less"


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    check: Check
    rule: str
    low: int | None
    high: int | None


@cache
def _fields(cls: type) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(_Field(f.name, checker(hints[f.name]), f.metadata.get("rule") or cls.RULE,
                        f.metadata.get("low"), f.metadata.get("high")) for f in dataclasses.fields(cls))


class Inputs:
    """A procedure's inputs that refuse a wrong type or an out-of-range value on construction."""

    RULE: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for f in _fields(type(self)):
            value = getattr(self, f.name)
            problem = f.check(value)
            if problem:
                raise RuleError(f.rule, f"{type(self).__name__} '{f.name}' must be {problem}, not {quote(value)}")
            if (f.low is not None or f.high is not None) and _out_of_range(value, f.low, f.high):
                raise RuleError(f.rule, f"{type(self).__name__} '{f.name}' is {quote(value)}: it must be "
                                        f"{range_text(f.low, f.high)}")
