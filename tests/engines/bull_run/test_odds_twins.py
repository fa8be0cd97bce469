"""Every random procedure against its exact odds twin, by exhaustive enumeration of the dice."""
from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from companion.dice import ScriptedDice
from companion.odds import exhaustive, fractions
from engines.bull_run import PROCEDURES
from engines.bull_run.combat import SequenceInput, StackInput, best_attack_order, resolve_attack_sequence
from engines.bull_run.crossing import crossing_odds
from engines.bull_run.hesitation import HesitationInput, hesitation_odds
from engines.bull_run.initiative import initiative_odds, union_initiative_count_odds
from engines.bull_run.retreat import retreat_check_odds


@pytest.mark.parametrize("procedure", [pytest.param(p, marks=pytest.mark.rule(*p.rules), id=p.name)
                                       for p in PROCEDURES])
def test_odds_twin_equals_exhaustive_enumeration(procedure):
    """For every input of the procedure's cover, the twin's exact odds are those of running the procedure on
    every sequence of dice; each distribution sums to exactly 1."""
    inputs = list(procedure.inputs())
    assert inputs
    for inp in inputs:
        enumerated = fractions(exhaustive(lambda dice, inp=inp: procedure.resolve(inp, dice).outcome))
        twin = fractions(procedure.odds(inp))
        assert twin == enumerated, (procedure.name, inp)
        assert sum(twin.values()) == 1 and all(0 < p <= 1 for p in twin.values())


@pytest.mark.rule("BR-6.0", "BR-8.3", "BR-10.2", "BR-11.1")
@pytest.mark.parametrize("odds, expected", [
    (initiative_odds(None), {"UNION": F(1, 2), "CSA": F(1, 2)}),
    (crossing_odds(None), {True: F(1, 3), False: F(2, 3)}),
    (retreat_check_odds(None), {True: F(1, 2), False: F(1, 2)}),
    (hesitation_odds(HesitationInput(1)), {1: F(1, 3), 0: F(2, 3)}),
    (hesitation_odds(HesitationInput(2)), {2: F(1, 9), 1: F(4, 9), 0: F(4, 9)}),
], ids=["initiative", "beauregard", "retreat check", "hesitation 1 stack", "hesitation 2 rolls"])
def test_single_roll_odds_match_the_digest(odds, expected):
    """BR-6.0 1-3 Union; BR-8.3 5-6 crosses; BR-11.1 4-6 retreats; BR-10.2 5-6 attacks, binomial with p = 1/3."""
    assert fractions(odds) == expected


@pytest.mark.rule("BR-6.0")
def test_union_initiative_count_is_binomial():
    """BR-6.0 (digest section 8): the number of Union initiatives in 15 turns is binomial with p = 1/2."""
    assert fractions(union_initiative_count_odds(15)) == {k: F(comb(15, k), 2 ** 15) for k in range(16)}


@pytest.mark.rule("BR-10.1", "BR-11.1")
def test_vector_11_through_the_attack_sequence_procedure():
    """Vector 11 (BR-10.1, BR-11.1): X rolls 5, D rolls 4 (a tie), Y rolls 6 with no fire back, D rolls 4 and
    retreats: four dice in all."""
    inputs = SequenceInput(StackInput(5, (3, 2)), (StackInput(4, (4,)), StackInput(7, (7,))), (0, 0))
    result = resolve_attack_sequence(inputs, ScriptedDice([5, 4, 6, 4]))
    assert result.outcome.defenders == "retreated" and len(result.rolls) == 4
    stays = resolve_attack_sequence(inputs, ScriptedDice([5, 4, 6, 3]))
    assert stays.outcome.defenders == "held"


@pytest.mark.rule("BR-10.1")
def test_best_attack_order_is_the_best_by_enumeration():
    """BR-10.1 (digest section 8): of the orders the attackers may take, the one advised makes the defender
    retreat or die most often, as enumerating every order's dice shows."""
    defenders = StackInput(5, (3, 2))
    attackers = (StackInput(4, (4,)), StackInput(12, (6, 6)))
    modifiers = (0, -2)

    def dislodged(order):
        inputs = SequenceInput(defenders, tuple(attackers[i] for i in order), tuple(modifiers[i] for i in order))
        outcomes = fractions(exhaustive(lambda dice: resolve_attack_sequence(inputs, dice).outcome.defenders))
        return 1 - outcomes.get("held", 0)

    by_order = {order: dislodged(order) for order in ((0, 1), (1, 0))}
    order, p = best_attack_order(SequenceInput(defenders, attackers, modifiers))
    assert p == by_order[order] == max(by_order.values())
    assert by_order[(0, 1)] != by_order[(1, 0)]
