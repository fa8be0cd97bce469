"""Strict checks of the values players and procedures hand to an engine.

- `type_error(kind, value)`: why `value` is not of the type `kind`, or "" when it is. Nothing is
  coerced: a string is not a bool or an int, a bool is not an int, a float is not an int.
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
from typing import Any, ClassVar, Union

from .engine import RuleError
from .quoting import quote

NAMES = {bool: "yes or no (true/false)", int: "a whole number", str: "a text", float: "a number"}


def type_error(kind: Any, value: Any) -> str:
    """Why `value` does not have the type `kind` ("" when it does), in a player's words."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is Any:
        return ""
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return ""
        reasons = [type_error(a, value) for a in args if a is not type(None)]
        return "" if "" in reasons else " or ".join(dict.fromkeys(reasons))
    if origin is typing.Literal:
        return "" if any(type(value) is type(a) and value == a for a in args) else \
            "one of " + ", ".join(repr(a) for a in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return "a tuple"
        if len(args) == 2 and args[1] is Ellipsis:
            return next((f"a tuple of which each is {e}" for e in (type_error(args[0], v) for v in value) if e), "")
        if len(args) != len(value):
            return f"a tuple of {len(args)}"
        return next((f"a tuple of which each is {e}" for e in (type_error(a, v) for a, v in zip(args, value)) if e), "")
    if origin in (frozenset, set):
        if not isinstance(value, (frozenset, set)):
            return "a set"
        return next((f"a set of which each is {e}" for e in (type_error(args[0], v) for v in value) if e), "") \
            if args else ""
    if origin in (dict, abc.Mapping) or kind in (dict, abc.Mapping):
        if not isinstance(value, abc.Mapping):
            return "a table of names and values"
        if args:
            for k, v in value.items():
                problem = type_error(args[0], k) or type_error(args[1], v)
                if problem:
                    return f"a table of which each entry is {problem}"
        return ""
    if kind is float:
        return "" if isinstance(value, (int, float)) and not isinstance(value, bool) else NAMES[float]
    if kind in (bool, int, str):
        return "" if type(value) is kind else NAMES[kind]
    if isinstance(kind, type):
        return "" if isinstance(value, kind) else f"a {kind.__name__}"
    return ""


def bounded(low: int | None = None, high: int | None = None, rule: str = "", **kwargs) -> Any:
    """A dataclass field whose value (an int, or each int of a tuple) must lie in low..high."""
    return dataclasses.field(metadata={"low": low, "high": high, "rule": rule}, **kwargs)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _out_of_range(value: Any, low: int | None, high: int | None) -> bool:
    values = value if isinstance(value, tuple) else (value,)
    return any(isinstance(v, int) and ((low is not None and v < low) or (high is not None and v > high))
               for v in values)


def range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low}..{high}"
    return f"{low} or more" if low is not None else f"{high} or less"


class Inputs:
    """A procedure's inputs that refuse a wrong type or an out-of-range value on construction."""

    RULE: ClassVar[str] = ""

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            rule = f.metadata.get("rule") or self.RULE
            problem = type_error(hints[f.name], value)
            if problem:
                raise RuleError(rule, f"{type(self).__name__} '{f.name}' must be {problem}, not {quote(value)}")
            low, high = f.metadata.get("low"), f.metadata.get("high")
            if (low is not None or high is not None) and _out_of_range(value, low, high):
                raise RuleError(rule, f"{type(self).__name__} '{f.name}' is {quote(value)}: it must be "
                                      f"{range_text(low, high)}")
