"""Files and pasted text players load: read within bounds, refused clearly, never a crash."""
from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.loading import JSON, YAML, LoadRefused, load_text
from tests.scale import examples

LAUGHS = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
          "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
          "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
          "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n")


@pytest.mark.parametrize("raw, fmt, words", [
    (LAUGHS, YAML, "anchors or aliases"),
    ("a: &x 1\nb: *x\n", YAML, "anchors or aliases"),
    ("[" * 5000 + "]" * 5000, JSON, "nested too deep"),
    ("- " * 40 + "x", YAML, "nested too deep"),
    ('{"a": 1e400}', JSON, "number too large"),
    ("a: .inf", YAML, "number too large"),
    ('{"a": ' + "9" * 5000 + "}", JSON, "5000 digits"),
    ("a: " + "9" * 5000, YAML, "cannot be read"),
    ('{"a": NaN}', JSON, "NaN"),
    ('{"a": "\\ud800"}', JSON, "unpaired surrogate"),
    (b"\xff\xfe{}", JSON, "not text in UTF-8"),
    ("{" * 3, JSON, "not valid JSON"),
    ("a: [1, 2", YAML, "not valid YAML"),
    ("a: !!python/object:os.system ls", YAML, "not valid YAML"),
    ("a: 2024-01-01", YAML, "kind it cannot hold"),
    ("a: !!binary aGVsbG8=", YAML, "kind it cannot hold"),
    ("x" * (3 * 1024 * 1024), JSON, "3146 kB; at most 2097 kB"),
    ('{"a": "' + "y" * 20_000 + '"}', JSON, "20000 characters"),
    ("{1: 2}", YAML, "key that is not a text"),
])
def test_hostile_files_are_refused_with_a_clear_message(raw, fmt, words):
    start = time.perf_counter()
    tracemalloc.start()
    with pytest.raises(LoadRefused) as caught:
        load_text(raw, fmt, "The map file")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert words in str(caught.value) and str(caught.value).startswith("The map file")
    assert len(str(caught.value)) < 300
    assert time.perf_counter() - start < 5 and peak < 64 * 1024 * 1024


def test_plain_files_load():
    assert load_text('{"a": [1, 2.5, "x", true, null]}', JSON) == {"a": [1, 2.5, "x", True, None]}
    assert load_text("a: [1, 2.5, x, true, null]\n", YAML) == {"a": [1, 2.5, "x", True, None]}


JUNK_TEXT = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                 max_leaves=20).map(lambda d: json.dumps(d, allow_nan=True)),
    st.sampled_from([LAUGHS, "[" * 100, "a: &x [*x]", '{"a": 1e999}', "- - - - - - - -" * 20, "\ud800", "!!set {a}"]),
)


@settings(max_examples=examples(5000), deadline=2000)
@given(raw=JUNK_TEXT, fmt=st.sampled_from([JSON, YAML]))
def test_junk_is_data_or_a_refusal(raw, fmt):
    """Anything at all: plain data, or LoadRefused; never another exception, and quickly."""
    try:
        load_text(raw, fmt)
    except LoadRefused as refused:
        assert len(str(refused)) < 400
