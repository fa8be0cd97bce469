"""The race engine's key index: the position of every key, whatever their home slots; a clear error otherwise."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.border_states.race import _Index

KEYS = st.lists(st.integers(0, 2 ** 64 - 1), unique=True, max_size=400)


@given(KEYS, st.lists(st.integers(0, 2 ** 64 - 1), max_size=20))
def test_every_key_is_found_at_its_position_and_no_other_is(keys, others):
    index = _Index(np.array(keys, dtype=np.uint64))
    assert index(np.array(keys, dtype=np.uint64)).tolist() == list(range(len(keys)))
    for other in set(others) - set(keys):
        with pytest.raises(KeyError):
            index(np.array([other], dtype=np.uint64))


@given(st.integers(1, 300), st.integers(0, 15))
def test_keys_crowding_one_home_slot_run_on_past_the_end(count, home):
    """Keys with equal low bits queue after their home, past the last home slot if need be."""
    keys = (np.arange(1, count + 1, dtype=np.uint64) << np.uint64(32)) | np.uint64(home)
    index = _Index(keys)
    assert index(keys[::-1]).tolist() == list(range(count))[::-1]
    with pytest.raises(KeyError):
        index(np.array([home], dtype=np.uint64))


def test_a_repeated_key_is_a_collision():
    with pytest.raises(RuntimeError, match="collision"):
        _Index(np.array([7, 3, 7], dtype=np.uint64))
