"""What players type in, checked: each check raises RuleError naming the rule the entry is for.

The setup, the players' map and the basic-rules form arrive as JSON-like values (an action's own parameters
are checked by its spec, companion.spec); these turn them into the expected type or refuse them with a
message a player understands, before anything changes.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

from companion.engine import RuleError
from companion.quoting import quote


def text(value: Any, what: str, rule: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RuleError(rule, f"{what} must be a name, not {quote(value)}")
    return value.strip()


def choice(value: Any, allowed: Iterable[str], what: str, rule: str) -> str:
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        raise RuleError(rule, f"{what} must be one of {', '.join(allowed)}, not {quote(value)}")
    return value


def whole(value: Any, what: str, rule: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number (JSON 3 or 3.0), within [low, high]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            (isinstance(value, float) and (not math.isfinite(value) or value != int(value))):
        raise RuleError(rule, f"{what} must be a whole number, not {quote(value)}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise RuleError(rule, f"{what} must be {span}, not {quote(number)}")
    return number


def flag(value: Any, what: str, rule: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(rule, f"{what} is yes or no, not {quote(value)}")
    return value


def names(value: Any, what: str, rule: str, unique: bool = True) -> tuple[str, ...]:
    """A list of names (a single name counts as a list of one)."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise RuleError(rule, f"{what} must be a list of names, not {quote(value)}")
    found = tuple(text(v, what, rule) for v in value)
    if unique and len(set(found)) != len(found):
        raise RuleError(rule, f"{what}: a name is given twice")
    return found


def mapping(value: Any, what: str, rule: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise RuleError(rule, f"{what} must be a table of names and values, not {quote(value)}")
    return value


def fields(row: Mapping[str, Any], known: Iterable[str], what: str, rule: str) -> None:
    """Refuse a field the row should not have (a misspelt key is a bad field)."""
    unknown = sorted(set(row) - set(known))
    if unknown:
        raise RuleError(rule, f"{what}: unknown field{'s' if len(unknown) > 1 else ''} "
                              f"{', '.join(quote(k) for k in unknown[:3])} (known: {', '.join(known)})")
