"""Digest section 11 under random junk: wrong types, None, huge or negative numbers, texts for yes/no and whole
numbers, unknown names, for every action from positions of every phase and for every procedure input. Each is
done, or refused with RuleError or the dice error, and the state it was tried on never changes."""
from __future__ import annotations

import inspect
from functools import cache

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError
from engines.border_states import ENGINE, PROCEDURES
from engines.border_states.state import RECRUIT
from tests.engines.border_states.support import (
    C_HOMES,
    MD,
    VA,
    WV,
    C,
    Table,
    U,
    action_table,
    at,
    battle_table,
    full_board,
)

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 8), st.sampled_from([10 ** 9, -10 ** 9, 2.0, 0.5]),
                 st.sampled_from(["false", "true", "2", "", "x" * 300, VA, WV, MD, C_HOMES[0], "C", "U", "damage",
                                  "T.J. Jackson", "Test CSA +1", "Nowhere"]),
                 st.lists(st.integers(0, 7), max_size=3), st.dictionaries(st.sampled_from(["a", C]), st.integers(0, 3),
                                                                          max_size=2))


@cache
def positions() -> tuple:
    """A state of every phase: deployment, draw, initiative, action (with a combat), combat at its start, at the
    supply step, with a throw waiting, the losses, recruitment."""
    deploying = Table({"board": full_board()})
    drawing = Table()
    initiative = Table()
    initiative.do("draw")
    acting = action_table({MD: (1, 2), VA: (2, 0)}, first=U, commanders={U: MD})
    starting = battle_table(WV, 3, 2)
    supplying = battle_table(WV, 3, 2)
    supplying.do("start_effects")
    supplying.do("start_effects")
    throwing = battle_table(WV, 2, 2)
    for kind, params in (("start_effects", {}), ("start_effects", {}), ("commit_supply", {"count": 0}),
                         ("commit_supply", {"count": 0})):
        throwing.do(kind, **params)
    throwing.do("throw", 6, 3)
    losing = battle_table(WV, 3, 3, commanders={U: WV})
    losing.fight((5, 5, 1), (3, 1, 2))
    recruiting = at(RECRUIT, {VA: (3, 0), WV: (0, 1)}, first=C, turn=C)
    return tuple(t.state for t in (deploying, drawing, initiative, acting, starting, supplying, throwing, losing,
                                   recruiting))


@st.composite
def junk_actions(draw):
    kind = draw(st.sampled_from(sorted(ENGINE.actions.table)))
    names = list(inspect.signature(ENGINE.actions.table[kind]).parameters)[2:]
    params = draw(st.dictionaries(st.sampled_from(names + ["unknown"]), JUNK, max_size=len(names) + 1))
    return {"type": kind, **params}


@settings(max_examples=5000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.integers(0, 8), action=junk_actions(), faces=st.lists(st.integers(-1, 7), max_size=4))
@example(position=3, action={"type": "retreat", "source": MD, "target": WV, "discard": "false"}, faces=[6])
@example(position=7, action={"type": "remove_losses", "commander": "false"}, faces=[])
def test_junk_actions_are_done_or_refused_cleanly(position, action, faces):
    state = positions()[position]
    before = state.to_dict()
    try:
        step = ENGINE.apply(state, action, ScriptedDice(tuple(faces)))
    except (RuleError, DiceError):
        pass
    else:
        ENGINE.state_from_dict(step.state.to_dict())   # whatever was done leaves a state that saves and loads
    assert state.to_dict() == before


@settings(max_examples=5000, deadline=None, derandomize=True)
@given(procedure=st.sampled_from([p for p in PROCEDURES if p.name != "retreat"]),
       values=st.lists(JUNK, min_size=1, max_size=2))
def test_junk_procedure_inputs_are_refused_by_name(procedure, values):
    """A procedure input of the wrong type or out of range is a RuleError naming its field, never a TypeError."""
    kind = type(next(iter(procedure.inputs())))
    try:
        kind(*values)
    except RuleError as error:
        assert any(f"'{name}'" in error.message for name in kind.__dataclass_fields__)
    except TypeError:
        assert len(values) > len(kind.__dataclass_fields__)     # more values than fields: not an input at all
