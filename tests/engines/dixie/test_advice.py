"""The advice (issue: Advice; digest section 8): the melee DP against brute-force expectimax over every dice
sequence, and the fire advice against independent formulas."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F
from functools import cache

import pytest

from companion.odds import exhaustive, fractions
from engines.dixie import ENGINE
from engines.dixie.advice import checks_advice, fire_advice, last_round_advice, leader_risk, melee_advice
from engines.dixie.melee import (
    CONCEDE,
    FIGHT,
    WITHDRAW,
    Fighter,
    MeleeRoundInput,
    MeleeSide,
    plan,
    resolve_melee_round,
)
from tests.engines.dixie.support import Table, advanced, leader, terrain, unit
from tests.engines.dixie.test_melee import melee_table


def survivors(side: MeleeSide, alive, killed: bool) -> MeleeSide:
    """Written out again for the brute force: the fighters left, without their leader's morale if it died."""
    kept = [replace(x, morale=x.unled) if killed else x for x, ok in zip(side.fighters, alive) if ok]
    return MeleeSide(tuple(sorted(kept)), side.leader and not killed)


@cache
def round_outcomes(a: MeleeSide, b: MeleeSide) -> tuple:
    """Every outcome of one round with its chance, by enumerating every dice sequence through the procedure."""
    d = exhaustive(lambda dice: resolve_melee_round(MeleeRoundInput(a, b), dice).outcome, limit=30)
    result = []
    for o, p in fractions(d).items():
        lost_a = len(o.initiator) - sum(o.initiator) + o.initiator_leader_killed
        lost_b = len(o.opponent) - sum(o.opponent) + o.opponent_leader_killed
        result.append((survivors(a, o.initiator, o.initiator_leader_killed),
                       survivors(b, o.opponent, o.opponent_leader_killed), lost_a, lost_b, p))
    return tuple(result)


def brute_force(inputs: MeleeRoundInput, value: F) -> tuple[F, dict]:
    """Expectimax: round 1 enumerated; at each outcome the initiator maximises and the opponent minimises
    value * (holds - opponent holds) + cards lost by the opponent - cards lost by the initiator, round 2
    enumerated for the 'fight on' branch. Returns the value and the choice at each outcome."""
    a = MeleeSide(tuple(sorted(inputs.initiator.fighters)), inputs.initiator.leader, inputs.initiator.leader_hits)
    b = MeleeSide(tuple(sorted(inputs.opponent.fighters)), inputs.opponent.leader, inputs.opponent.leader_hits)
    total, choices = F(0), {}
    for a1, b1, la, lb, p in round_outcomes(a, b):
        if not a1.fighters or not b1.fighters:
            holds = int(bool(a1.fighters) and not b1.fighters) - int(bool(b1.fighters))
            total += p * (value * holds + lb - la)
            continue
        fight = F(0)
        for a2, b2, la2, lb2, q in round_outcomes(a1, b1):
            holds = int(bool(a2.fighters) and not b2.fighters) - int(bool(b2.fighters))
            fight += q * (value * holds + lb + lb2 - la - la2)
        withdraw, concede = lb - la - value, lb - la + value
        reply = min(fight, concede)
        best = max(withdraw, reply)
        choices[(a1, b1)] = WITHDRAW if withdraw > reply else CONCEDE if concede < fight else FIGHT
        total += p * best
    return total, choices


CASES = [
    MeleeRoundInput(MeleeSide((Fighter(2, 3, 2, 2, 2),)), MeleeSide((Fighter(1, 3, 1, 0, 0),))),
    MeleeRoundInput(MeleeSide((Fighter(1, 3, 1, 3, 2), Fighter(1, 1, 1, 2, 1)), leader=True),
                    MeleeSide((Fighter(1, 3, 1, 2, 2),))),
    MeleeRoundInput(MeleeSide((Fighter(1, 3, 1, 1, 1),)), MeleeSide((Fighter(2, 3, 2, 4, 3),), leader=True,
                                                                      leader_hits=1)),
]


@pytest.mark.rule("DX-13.1")
@pytest.mark.parametrize("inputs", CASES, ids=["vector-19", "two-v-one-leader", "one-v-led-two"])
@pytest.mark.parametrize("value", [F(0), F(1), F(2), F(6)])
def test_melee_dp_equals_brute_force_expectimax(inputs, value):
    """Digest section 8: the DP's value and its choice at every point after round 1 equal expectimax over every
    dice sequence of both rounds."""
    expected, choices = brute_force(inputs, value)
    dp = plan(inputs, value)
    assert dp.value == expected
    for node in dp.nodes:
        if node.initiator.fighters and node.opponent.fighters:
            assert node.choice == choices[(node.initiator, node.opponent)]


@pytest.mark.rule("DX-13.1")
def test_melee_plan_probabilities_add_up():
    """The plan's outcome after round 1 sums to 1; P(initiator holds) + P(opponent holds) <= 1 under best play."""
    dp = plan(CASES[1], F(2))
    assert sum(dp.after_round_1.values()) == 1
    assert 0 <= dp.holds and dp.holds + dp.opponent_holds <= 1
    assert sum(n.probability for n in dp.nodes) == 1


@pytest.mark.rule("DX-7.1", "DX-11.3", "DX-6.0")
def test_fire_advice_for_a_full_position():
    """Advice for a planned fire: P(at least k hits) is the binomial tail; P(the enemy leader dies) is
    1 - (35/36)^n; the chance of at least one card lost lies between that of the first hit's check and 1."""
    cards = [*(unit(i, "CSA", cv=4) for i in range(1, 5)), leader(5, "CSA", 1, 1),
             *(unit(10 + i, "USA", cv=4) for i in range(1, 5))]
    places = {**{f"CSA-{i}": "CSA-L" for i in range(1, 6)}, **{f"USA-{10 + i}": "USA-R" for i in range(1, 5)}}
    table = advanced(cards, places, ["CSA-1", "CSA-2", "CSA-3", "CSA-4", "CSA-5"])
    table.to_step("combat")
    advice = fire_advice(table.state, [f"USA-{10 + i}" for i in range(1, 5)], "USA-R")
    assert advice.leader_dies == leader_risk(16) == 1 - F(35, 36) ** 16
    assert advice.at_least[1][2] == 1 - F(4, 6) ** 16
    assert 0 < advice.card_lost < 1
    assert melee_advice(table.state, "USA-R").after_round_1


# --- the checks of a morale step (DX-6.0, DX-11.3) and the last melee round (DX-13.1) ----------------------------

def morale_step_table():
    """CSA turn 1 morale step, set by hand: in CSA-L a 2/1 leader with 1 hit, a 3B unit with 2 hits and a 2A unit
    with 1 hit, on a terrain card giving the holder +1 morale; a 1C unit with 1 hit alone in CSA-C."""
    cards = [unit(1, "CSA"), unit(2, "CSA", cv=2, morale="A"), leader(3, "CSA", 2, 1), unit(4, "CSA", cv=1, morale="C"),
             terrain(5, "CSA", "L", "holder morale +1"), unit(11, "USA")]
    table = Table(cards)
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-L", "CSA-3": "CSA-L", "CSA-5": "CSA-L", "CSA-4": "CSA-C",
                  "USA-11": "USA-L"})
    state = table.state
    hits = {"CSA-3": 1, "CSA-1": 2, "CSA-2": 1, "CSA-4": 1}
    return state.with_cards(*(replace(state.card(i), hits=h) for i, h in hits.items()))


@pytest.mark.rule("DX-6.0", "DX-11.3", "DX-10.3")
def test_checks_advice_equals_the_morale_step_over_every_dice_sequence():
    """The advice for a morale step (each card's chance to be lost, the units routed) equals running the
    morale_step action on every sequence of dice: the leader checks first and its death takes its +1 (defending)
    from the units it commanded; the terrain's +1 counts."""
    state = morale_step_table()
    cards = [c for c in state.cards if c.hits]

    def lost(dice):
        after = ENGINE.apply(state, {"type": "morale_step"}, dice).state
        return frozenset(c.id for c in cards if after.card(c.id).loc == "eliminated")
    outcomes = fractions(exhaustive(lost, limit=6))
    advice = checks_advice(state, cards)
    for c in cards:
        assert advice.lost[c.id] == sum((p for gone, p in outcomes.items() if c.id in gone), F(0)), c.id
    units = {}
    for gone, p in outcomes.items():
        k = len(gone - {"CSA-3"})
        units[k] = units.get(k, 0) + p
    assert fractions(advice.units_lost) == units
    # by hand: the leader dies with 1/6; CSA-2 (2A) has morale 3 + 1 (terrain) + 1 (leader, defending) = 5
    assert advice.lost["CSA-3"] == F(1, 6)
    assert advice.lost["CSA-2"] == F(5, 6) * F(1, 6) + F(1, 6) * F(2, 6)


@pytest.mark.rule("DX-13.1")
def test_last_round_advice_is_vector_19_with_the_initiator_disengaging():
    """Vector 19 as a last round: USA alone 4/9 holds; both remain 2/9 and CSA alone 1/9: the USA disengages and
    the CSA holds (1/3); both gone 2/9."""
    state = melee_table().state
    assert last_round_advice(state, "USA-R", ["USA-11"]) == {"initiator holds": F(4, 9), "opponent holds": F(1, 3),
                                                             "nobody": F(2, 9)}
