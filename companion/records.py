"""JSON round trips of frozen dataclasses, driven by their type hints.

Engines keep their state as small frozen dataclasses; `to_data` turns one into plain JSON data and
`from_data` rebuilds it, checking every field against its annotation (so a saved state that does
not fit is refused with the field's name, never half-loaded).
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections import abc
from functools import cache
from typing import Any, Mapping, Union


PLAIN = (str, int, float, bool, type(None))


def to_data(obj: Any) -> Any:
    if isinstance(obj, PLAIN):
        return obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [to_data(v) for v in obj]
    if isinstance(obj, abc.Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    return obj


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(kind: Any, data: Any, where: str = "") -> Any:
    """Rebuild a value of type `kind` from JSON data; ValueError naming the field if it does not fit."""
    where = where or getattr(kind, "__name__", str(kind))
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if dataclasses.is_dataclass(kind):
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object")
        hints = _hints(kind)
        values = {}
        for f in dataclasses.fields(kind):
            if f.name in data:
                values[f.name] = from_data(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{where}: missing '{f.name}'")
        return kind(**values)
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_data(arg, data, where)
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError("; ".join(errors) or f"{where}: unexpected None")
    if origin is tuple:
        if not isinstance(data, list):
            raise ValueError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise ValueError(f"{where}: expected {len(args)} items")
        return tuple(from_data(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if origin in (dict, abc.Mapping) or kind in (dict, Mapping, abc.Mapping):
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object")
        value_kind = args[1] if args else Any
        return {str(k): from_data(value_kind, v, f"{where}.{k}") for k, v in data.items()}
    if origin is typing.Literal:
        if data not in args:
            raise ValueError(f"{where}: {data!r} is not one of {args}")
        return data
    if kind is Any:
        return data
    if kind is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{where}: expected true or false")
        return data
    if kind in (int, str, float):
        if isinstance(data, bool) or not isinstance(data, kind):
            raise ValueError(f"{where}: expected {kind.__name__}, got {data!r}")
        return data
    raise TypeError(f"{where}: cannot rebuild {kind!r}")
