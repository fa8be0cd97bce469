"""Files and pasted text that players load (sessions, maps, boards, rosters, cards): JSON or YAML, read
within bounds and refused with a clear message, never a crash.

`load_text(raw, fmt, what)` returns plain data (dicts with text keys, lists, text, whole numbers, finite
numbers, true/false, null) or raises `LoadRefused` saying what is wrong in a player's words, quoting at
most a short prefix of a bad value. Bounds: the size of the text, the depth of nesting, the number of
values, the length of one text, the size of a number. YAML anchors and aliases are refused outright
(they let a few hundred bytes expand to gigabytes), and so are YAML's non-JSON types (dates, sets, binary).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from .quoting import quote

JSON, YAML = "json", "yaml"


class LoadRefused(ValueError):
    """A file or pasted text that cannot be loaded; nothing was changed."""


@dataclass(frozen=True)
class Limits:
    bytes: int = 2 * 1024 * 1024
    depth: int = 32
    nodes: int = 200_000
    text: int = 10_000          # characters of one text value
    digits: int = 18            # digits of a whole number


DEFAULT = Limits()


def load_text(raw: bytes | str, fmt: str, what: str = "The file", limits: Limits = DEFAULT) -> Any:
    """The checked data of a JSON or YAML text; LoadRefused otherwise."""
    text = _text(raw, what, limits)
    if fmt == JSON:
        data = _json(text, what, limits)
    elif fmt == YAML:
        data = _yaml(text, what, limits)
    else:
        raise LoadRefused(f"{what} is JSON or YAML, not {quote(fmt)}.")
    check_plain(data, what, limits)
    return data


def size_text(size: int) -> str:
    """A file's size for a player: bytes, kB or MB."""
    return f"{size} bytes" if size < 10_000 else f"{size / 1e3:.0f} kB" if size < 10_000_000 else f"{size / 1e6:.1f} MB"


def _text(raw: bytes | str, what: str, limits: Limits) -> str:
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > limits.bytes:
        raise LoadRefused(f"{what} is {size_text(size)}; at most {size_text(limits.bytes)} is read.")
    if isinstance(raw, bytes):
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LoadRefused(f"{what} is not text in UTF-8 (byte {exc.start} is not).") from None
    return raw


def _json(text: str, what: str, limits: Limits) -> Any:
    def number(token: str) -> float:
        value = float(token)
        if not math.isfinite(value):
            raise LoadRefused(f"{what} has a number too large to use: {quote(token)}.")
        return value

    def whole(token: str) -> int:
        if len(token.lstrip("-")) > limits.digits:
            raise LoadRefused(f"{what} has a whole number of {len(token.lstrip('-'))} digits; at most "
                              f"{limits.digits} are read.")
        return int(token)

    def constant(token: str) -> Any:
        raise LoadRefused(f"{what} has {token}, which is not a number JSON allows.")
    try:
        return json.loads(text, parse_float=number, parse_int=whole, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise LoadRefused(f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}).") from None
    except RecursionError:
        raise LoadRefused(f"{what} is nested too deep (at most {limits.depth} levels).") from None


def _yaml(text: str, what: str, limits: Limits) -> Any:
    import yaml  # PyYAML (a dependency of bokeh); only its safe loader is used
    try:
        depth = nodes = 0
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise LoadRefused(f"{what} uses YAML anchors or aliases (& and *), which are not accepted: write "
                                  "each value out.")
            if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                nodes += 1
                if nodes > limits.nodes:
                    raise LoadRefused(f"{what} has more than {limits.nodes} values.")
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > limits.depth:
                    raise LoadRefused(f"{what} is nested too deep (at most {limits.depth} levels).")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or "it cannot be read"
        raise LoadRefused(f"{what} is not valid YAML: {quote(problem, 80)}{where}.") from None
    except (ValueError, OverflowError, RecursionError) as exc:
        raise LoadRefused(f"{what} has a value that cannot be read: {quote(str(exc), 80)}.") from None


def check_plain(data: Any, what: str = "The file", limits: Limits = DEFAULT) -> None:
    """Plain JSON-like data within the limits: no non-JSON type, no non-finite number, no unpaired surrogate,
    text keys, bounded depth, count, text length and number size. Walked without recursion."""
    stack, nodes = [(data, 1)], 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > limits.nodes:
            raise LoadRefused(f"{what} has more than {limits.nodes} values.")
        if depth > limits.depth:
            raise LoadRefused(f"{what} is nested too deep (at most {limits.depth} levels).")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise LoadRefused(f"{what} has a key that is not a text: {quote(key)}.")
                _check_text(key, what, limits)
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            _check_text(value, what, limits)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) >= 10 ** limits.digits:
                raise LoadRefused(f"{what} has a whole number too large: {quote(value)}.")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise LoadRefused(f"{what} has a number too large to use: {quote(value)}.")
        else:
            raise LoadRefused(f"{what} has a value of a kind it cannot hold ({type(value).__name__}): "
                              f"{quote(value)}.")


def _check_text(text: str, what: str, limits: Limits) -> None:
    if len(text) > limits.text:
        raise LoadRefused(f"{what} has a text of {len(text)} characters; at most {limits.text} are read: "
                          f"{quote(text)}.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise LoadRefused(f"{what} has a text with a broken character (an unpaired surrogate): {quote(text)}.") \
            from None
