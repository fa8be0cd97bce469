"""Every random procedure against its exact odds twin, by exhaustive enumeration of the dice."""
from __future__ import annotations

import pytest

from companion.odds import exhaustive, fractions
from engines.house_divided import PROCEDURES


@pytest.mark.parametrize("procedure", [pytest.param(p, marks=pytest.mark.rule(*p.rules), id=p.name)
                                       for p in PROCEDURES])
def test_odds_twin_equals_exhaustive_enumeration(procedure):
    """For every input the procedure's generator yields, the twin's exact odds are those of running the
    procedure on every sequence of dice; each distribution sums to exactly 1."""
    inputs = list(procedure.inputs())
    assert inputs
    for inp in inputs:
        enumerated = fractions(exhaustive(lambda dice, inp=inp: procedure.resolve(inp, dice).outcome))
        twin = fractions(procedure.odds(inp))
        assert twin == enumerated, (procedure.name, inp)
        assert sum(twin.values()) == 1 and all(0 < p <= 1 for p in twin.values())


def test_every_digest_procedure_has_a_twin():
    """Digest section 4: HD-4.1 to HD-4.11 each have a procedure (HD-4.3 inside fire, HD-4.10 fire itself)."""
    named = {rule for p in PROCEDURES for rule in p.rules}
    assert {f"HD-4.{i}" for i in range(1, 12)} <= named
