"""Work shared out over the cores: results in order, errors raised, a split inside a split runs in place."""
from __future__ import annotations

import threading

import pytest

from companion import cores


def test_each_returns_the_results_in_order():
    assert cores.each(lambda x: x * x, range(10)) == [x * x for x in range(10)]
    assert cores.each(lambda x: x, []) == []


def test_each_raises_the_first_error():
    def fail_on_three(x):
        if x == 3:
            raise ValueError("three")
        return x

    with pytest.raises(ValueError, match="three"):
        cores.each(fail_on_three, range(6))


def test_a_split_inside_a_split_runs_in_place():
    """Every worker busy with an outer item that splits again must not wait for a free worker."""
    def outer(x):
        return sum(cores.each(lambda y: x * y, range(4)))

    assert cores.each(outer, range(8)) == [6 * x for x in range(8)]


def test_start_hands_back_the_result_or_the_error():
    assert cores.start(sum, [1, 2, 3]).result() == 6
    with pytest.raises(ZeroDivisionError):
        cores.start(lambda: 1 / 0).result()


def test_work_started_from_a_worker_runs_on_that_worker():
    def probe(_):
        me = threading.current_thread().name
        return cores.start(lambda: threading.current_thread().name).result() == me

    assert all(cores.each(probe, range(4)))
