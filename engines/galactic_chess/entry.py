"""Checks on what players enter (card sheets, action parameters): each refusal names the rule it serves."""
from __future__ import annotations

import math
from typing import Any

from companion.engine import RuleError


def whole(value: Any, what: str, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value != int(value):
        raise RuleError(rule, f"{what} must be a whole number, not {value!r}")
    return int(value)


def text(value: Any, what: str, rule: str, required: bool = False) -> str:
    """A name or a text; missing (None) is empty."""
    value = "" if value is None else value
    if not isinstance(value, str):
        raise RuleError(rule, f"{what} must be text, not {value!r}")
    if required and not value.strip():
        raise RuleError(rule, f"{what} is missing")
    return value.strip()


def names(value: Any, what: str, rule: str) -> tuple[str, ...]:
    """A list of distinct names; missing (None) is none."""
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RuleError(rule, f"{what} must be a list of names, not {value!r}")
    if len(set(value)) != len(value):
        raise RuleError(rule, f"{what}: a name is given twice")
    return tuple(v.strip() for v in value)


def flag(value: Any, what: str, rule: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(rule, f"{what} must be yes or no (true/false), not {value!r}")
    return value
