"""Checks on the card sheets players enter (digest sections 2 and 10): each refusal names the rule it serves.
Action parameters are checked by their specs (companion.spec)."""
from __future__ import annotations

from typing import Any

from companion.engine import RuleError
from companion.quoting import quote


def whole(value: Any, what: str, rule: str) -> int:
    """A whole number: an int, never a bool, a float or a text (nothing is coerced, digest section 11)."""
    if type(value) is not int:
        raise RuleError(rule, f"{what} must be a whole number, not {quote(value)}")
    return value


def text(value: Any, what: str, rule: str, required: bool = False) -> str:
    """A name or a text; missing (None) is empty."""
    value = "" if value is None else value
    if not isinstance(value, str):
        raise RuleError(rule, f"{what} must be text, not {quote(value)}")
    if required and not value.strip():
        raise RuleError(rule, f"{what} is missing")
    return value.strip()


def flag(value: Any, what: str, rule: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(rule, f"{what} must be yes or no (true/false), not {quote(value)}")
    return value
