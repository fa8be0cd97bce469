"""Every random procedure against its exact odds twin, by exhaustive enumeration of the dice."""
from __future__ import annotations

import pytest

from companion.odds import exhaustive, fractions
from engines.galactic_chess import PROCEDURES


@pytest.mark.parametrize("procedure", [pytest.param(p, marks=pytest.mark.rule(*p.rules), id=p.name)
                                       for p in PROCEDURES])
def test_odds_twin_equals_exhaustive_enumeration(procedure):
    """For every input of the procedure's cover, the twin's exact odds are those of running the procedure on
    every sequence of dice; each distribution sums to exactly 1."""
    inputs = list(procedure.inputs())
    assert inputs
    for inp in inputs:
        enumerated = fractions(exhaustive(lambda dice, inp=inp: procedure.resolve(inp, dice).outcome, limit=24))
        twin = fractions(procedure.odds(inp))
        assert twin == enumerated, (procedure.name, inp)
        assert sum(twin.values()) == 1 and all(0 < p <= 1 for p in twin.values())
