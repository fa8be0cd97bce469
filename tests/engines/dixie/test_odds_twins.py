"""Every random procedure against its exact odds twin, by exhaustive enumeration of the dice (DX-6.0 ... DX-13.5)."""
from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from companion.odds import exhaustive, fractions
from engines.dixie import PROCEDURES
from engines.dixie.fire import FireInput, Volley, fire_inputs, fire_odds
from engines.dixie.morale import MoraleInput, morale_inputs
from engines.dixie.support import SupportInput, SupportOutcome, support_odds


@pytest.mark.parametrize("procedure", [pytest.param(p, marks=pytest.mark.rule(*p.rules), id=p.name)
                                       for p in PROCEDURES])
def test_odds_twin_equals_exhaustive_enumeration(procedure):
    """For every input of the procedure's cover, the twin's exact odds are those of running the procedure on every
    sequence of dice; each distribution sums to exactly 1."""
    inputs = list(procedure.inputs())
    assert inputs
    for inp in inputs:
        enumerated = fractions(exhaustive(lambda dice, inp=inp: procedure.resolve(inp, dice).outcome, limit=30))
        twin = fractions(procedure.odds(inp))
        assert twin == enumerated, (procedure.name, inp)
        assert sum(twin.values()) == 1 and all(0 < p <= 1 for p in twin.values())


@pytest.mark.rule("DX-7.1", "DX-6.0")
def test_the_covers_reach_six_fire_dice_and_three_morale_checks():
    """The acceptance floor: fire inputs up to 6 dice, morale inputs up to 3 checks (and beyond)."""
    assert max(i.dice for i in fire_inputs()) >= 6
    assert max(i.hits for i in morale_inputs()) >= 3
    assert {p.name for p in PROCEDURES} >= {"morale", "leader_check", "fire", "fire_effect", "disorder",
                                            "melee_round", "melee", "enfilade", "flank_attack", "counter_battery",
                                            "artillery_support"}


@pytest.mark.rule("DX-7.2", "DX-11.3")
@pytest.mark.parametrize("n, f", [(1, 1), (3, 2), (6, 3), (4, 1)])
def test_fire_is_trinomial(n, f):
    """DX-7.2 / DX-11.3: each die hits on <= F and is a natural 6 with 1/6, independently: P(h hits, s sixes) =
    n! / (h! s! (n-h-s)!) (F/6)^h (1/6)^s ((5-F)/6)^(n-h-s)."""
    expected = {}
    for h in range(n + 1):
        for s in range(n + 1 - h):
            p = comb(n, h) * comb(n - h, s) * F(f, 6) ** h * F(1, 6) ** s * F(5 - f, 6) ** (n - h - s)
            if p:
                expected[Volley(h, s)] = p
    assert fractions(fire_odds(FireInput(((n, f),)))) == expected


@pytest.mark.rule("DX-7.1")
def test_mixed_fire_is_a_convolution_of_binomials():
    """Digest section 8: P(hits) from a mix of firers is the convolution of one binomial per F value."""
    hits = fractions(fire_odds(FireInput(((2, 1), (2, 3)))).map(lambda v: v.hits))
    f1 = {k: comb(2, k) * F(1, 6) ** k * F(5, 6) ** (2 - k) for k in range(3)}
    f3 = {k: comb(2, k) * F(1, 2) ** 2 for k in range(3)}
    assert hits == {k: sum(f1[i] * f3[k - i] for i in range(3) if 0 <= k - i <= 2) for k in range(5)}


@pytest.mark.rule("DX-13.5")
def test_artillery_support_is_multinomial():
    """Digest section 8: F2 long-range dice fall 1-2 enemy, 5 friendly, 6 leader, 3-4 nothing (multinomial); F1
    only 1 is an enemy hit."""
    one = fractions(support_odds(SupportInput(((1, 2),))))
    assert one == {SupportOutcome(1, 0, 0): F(1, 3), SupportOutcome(0, 1, 0): F(1, 6), SupportOutcome(0, 0, 1): F(1, 6),
                   SupportOutcome(0, 0, 0): F(1, 3)}
    assert fractions(support_odds(SupportInput(((1, 1),))))[SupportOutcome(1, 0, 0)] == F(1, 6)


@pytest.mark.rule("DX-6.0")
def test_morale_survival_is_p_to_the_hits():
    """DX-6.0: p(pass) = clamp(M, 1, 5)/6 and P(survive h hits) = p^h."""
    for m in range(-2, 10):
        for h in range(5):
            p = F(min(max(m, 1), 5), 6)
            assert fractions(PROCEDURES[0].odds(MoraleInput(m, h))).get("holds", 0) == p ** h
