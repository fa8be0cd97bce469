"""Large array computations shared out over the machine's cores.

NumPy releases the interpreter lock inside its loops, so threads working on separate slices of one
array computation run at the same time. Work started from one of these threads runs in place, so a
split inside a split never waits on itself.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")
PREFIX = "companion-cores"


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix=PREFIX)


def _in_place() -> bool:
    return (os.cpu_count() or 1) < 2 or threading.current_thread().name.startswith(PREFIX)


def each(fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """[fn(item) for item in items], the calls spread over the cores; the first exception is raised."""
    items = list(items)
    if len(items) < 2 or _in_place():
        return [fn(item) for item in items]
    return list(_pool().map(fn, items))


def start(fn: Callable[..., R], *args) -> Future:
    """fn(*args) begun on another core while the caller goes on; its result (or exception) is the future's."""
    if _in_place():
        done: Future = Future()
        try:
            done.set_result(fn(*args))
        except Exception as error:  # handed to whoever asks for the result, as the pool would
            done.set_exception(error)
        return done
    return _pool().submit(fn, *args)
