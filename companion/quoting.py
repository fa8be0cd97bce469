"""A bad value as a short text for a message: never the whole of a huge value, never an exception."""
from __future__ import annotations

from typing import Any

QUOTE_LIMIT = 40


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)` cut to `limit` characters; safe for any value (huge ints, lone surrogates, deep lists)."""
    try:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
            return f"a number of {len(str(abs(value))) if value.bit_length() < 14000 else 'thousands of'} digits"
        text = repr(value) if not isinstance(value, (list, dict, tuple)) else _short_container(value, limit)
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _short_container(value: Any, limit: int) -> str:
    """The start of a container's repr, built without walking all of it."""
    opening, closing = {list: "[]", tuple: "()", dict: "{}"}[type(value)] if type(value) in (list, tuple, dict) \
        else ("[", "]")
    items = value.items() if isinstance(value, dict) else value
    parts, size = [], 0
    for item in items:
        if size > limit:
            parts.append("…")
            break
        part = (f"{quote(item[0], limit)}: {quote(item[1], limit)}" if isinstance(value, dict)
                else quote(item, limit))
        parts.append(part)
        size += len(part) + 2
    return opening + ", ".join(parts) + closing


def cut(text: str, limit: int = 200) -> str:
    """A message cut to `limit` characters (the start kept)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
