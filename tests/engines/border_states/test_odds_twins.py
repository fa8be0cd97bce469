"""Every random procedure against its exact odds twin, by exhaustive enumeration of the dice; the single-roll odds
the digest states."""
from __future__ import annotations

from fractions import Fraction as F
from itertools import product
from math import factorial

import pytest

from companion.odds import exhaustive, fractions
from engines.border_states import PROCEDURES
from engines.border_states.initiative import InitiativeInput, initiative_odds
from engines.border_states.recruitment import RecruitInput, recruit_odds, recruits_odds
from engines.border_states.retreat import retreat_odds
from engines.border_states.throw import ThrowInput, throw_odds


@pytest.mark.parametrize("procedure", [pytest.param(p, marks=pytest.mark.rule(*p.rules), id=p.name)
                                       for p in PROCEDURES])
def test_odds_twin_equals_exhaustive_enumeration(procedure):
    """For every input of the procedure's cover, the twin's exact odds are those of running the procedure on every
    sequence of dice; each distribution sums to exactly 1."""
    inputs = list(procedure.inputs())
    assert inputs
    for inp in inputs:
        enumerated = fractions(exhaustive(lambda dice, inp=inp: procedure.resolve(inp, dice).outcome))
        twin = fractions(procedure.odds(inp))
        assert twin == enumerated, (procedure.name, inp)
        assert sum(twin.values()) == 1 and all(0 < p <= 1 for p in twin.values())


@pytest.mark.rule("BS-RET")
def test_the_retreat_roll_succeeds_two_times_in_three():
    """BS-RET: 3-6 succeeds, P = 2/3."""
    assert fractions(retreat_odds(None)) == {True: F(2, 3), False: F(1, 3)}


@pytest.mark.rule("BS-REC")
@pytest.mark.parametrize("k", range(2, 7))
def test_a_recruitment_roll_succeeds_with_7_minus_k_sixths(k):
    """BS-REC: a roll of k or more succeeds, P = (7-k)/6."""
    assert fractions(recruit_odds(RecruitInput(k)))[True] == F(7 - k, 6)


@pytest.mark.rule("BS-INIT")
def test_a_plain_roll_off_is_even():
    """BS-INIT: P = 1/2 each once ties are rolled again; a tie is 1/6 of a roll."""
    p = fractions(initiative_odds(InitiativeInput()))
    assert p == {"C": F(5, 12), "U": F(5, 12), "tie": F(1, 6)}


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("n", range(1, 6))
def test_a_throw_is_multinomial(n):
    """CMB ROLL step 1: each count per face of n dice has the multinomial weight n! / prod(r!) / 6^n."""
    p = fractions(throw_odds(ThrowInput(n)))
    expected = {}
    for faces in product(range(1, 7), repeat=n):
        key = tuple(faces.count(f) for f in range(1, 7))
        expected[key] = expected.get(key, 0) + F(1, 6 ** n)
    assert p == expected
    assert all(w == F(factorial(n), 6 ** n) / prod_factorials(r) for r, w in p.items())


def prod_factorials(counts) -> int:
    out = 1
    for c in counts:
        out *= factorial(c)
    return out


@pytest.mark.rule("BS-REC")
@pytest.mark.parametrize("values, room", [((3, 4, 5), 2), ((2, 6), 5), ((3, 3, 4, 4, 5, 5), 3), ((4,), 0)])
def test_recruits_count_is_capped_poisson_binomial(values, room):
    """Digest section 8: units placed = min(room, successes), successes Poisson-binomial over the states; by
    counting every throw of the states' dice."""
    expected = {}
    for faces in product(range(1, 7), repeat=len(values)):
        n = min(room, sum(f >= k for f, k in zip(faces, values)))
        expected[n] = expected.get(n, 0) + F(1, 6 ** len(values))
    assert fractions(recruits_odds(values, room)) == expected
