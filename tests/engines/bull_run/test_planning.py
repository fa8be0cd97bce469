"""What the companion shows before a choice: the awareness curve (BR-8.4a, digest section 8) and the
several-attack planner (BR-10.1, BR-10.2, A11)."""
from __future__ import annotations

from fractions import Fraction as F
import pytest

from companion.engine import RuleError
from companion.odds import fractions
from engines.bull_run.attacks import planner_note, sequence_input
from engines.bull_run.combat import attack_sequence_odds
from engines.bull_run.fire import FireInput, fire_odds
from engines.bull_run.outlook import by_turn
from engines.bull_run.rules import TURNS
from tests.engines.bull_run.support import QUIET, Table

AWARE = next(name for name in by_turn(Table().state) if name.startswith("CSA aware"))


@pytest.mark.rule("BR-8.4a")
def test_no_awareness_curve_before_the_first_crossing_at_sudley_or_farm_ford():
    """BR-8.4a, section 8: P(CSA aware by turn n) is 0 for every n until a Union unit crosses at Sudley or Farm
    Ford; from the CSA movement phase of that turn it is 1 - (2/3)^k after k checks."""
    table = Table()
    assert by_turn(table.state)[AWARE] == [(n, F(0)) for n in range(1, TURNS + 1)]
    table.start_turn(1)
    table.checks(QUIET)
    table.do("move", unit="Union 1", path=["road"], crossing="bridge")  # Stone Bridge starts no checks
    assert by_turn(table.state)[AWARE][-1][1] == 0
    table.do("move", unit="Union 2", path=["ford"], crossing="sudley")
    curve = dict(by_turn(table.state)[AWARE])
    assert curve[1] == 1 - F(2, 3) and curve[4] == 1 - F(2, 3) ** 4


def independent_sequence(defender_sp: int, attackers, hesitating, fires: bool = True) -> dict:
    """A plain enumeration of a defender (one unit) attacked in order, written apart from the engine's DP:
    every hesitation die, fire die and retreat die, with the BR-11.1 and BR-10.1 rules as the digest says."""
    outcomes: dict = {}

    def walk(i, left, fired, p):
        if i == len(attackers):
            outcomes[("held", defender_sp - left)] = outcomes.get(("held", defender_sp - left), 0) + p
            return
        sp, hesitates = attackers[i], hesitating[i]
        for attacks, q in ((True, F(1, 3)), (False, F(2, 3))) if hesitates else ((True, F(1)),):
            if not attacks:
                walk(i + 1, left, fired, p * q)
                continue
            back = fractions(fire_odds(FireInput(defender_sp))) if fires and not fired else {0: F(1)}
            for on_d, pa in fractions(fire_odds(FireInput(sp))).items():
                for on_a, pb in back.items():
                    after = max(0, left - on_d)
                    r = p * q * pa * pb
                    if after == 0:
                        key = ("eliminated", defender_sp)
                        outcomes[key] = outcomes.get(key, 0) + r
                    elif on_d > on_a:
                        key = ("retreated", defender_sp - after)
                        outcomes[key] = outcomes.get(key, 0) + r / 2
                        walk(i + 1, after, True, r / 2)
                    else:
                        walk(i + 1, after, True, r)
    walk(0, defender_sp, False, F(1))
    return outcomes


@pytest.mark.rule("BR-10.1", "BR-10.2")
def test_the_planner_includes_mcdowells_hesitation_and_says_so():
    """BR-10.1/BR-10.2: a Union stack south of Bull Run attacks only on 5-6: the planner's odds include it (and
    the defender fires back at the first attack made), checked against a plain enumeration."""
    table = Table(solitaire=False)
    table.start_turn(1)
    table.checks(QUIET)
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.through_movement(awareness=1)
    plan = sequence_input(table.state, ["CSA 3"], [(["Union 1"], False), (["Union 3"], False)])
    assert plan.hesitating == (True, False)
    got = {(o.defenders, o.sp_lost): p for o, p in fractions(attack_sequence_odds(plan)).items()}
    assert got == independent_sequence(5, [4, 6], [True, False])
    assert "McDowell's hesitation" in planner_note(plan)
    assert planner_note(plan).startswith("Conditional odds: they hold if the attacks are made in this order")


@pytest.mark.rule("BR-10.1")
@pytest.mark.parametrize("defence_after_attack, fires", [(True, True), (False, False)])
def test_the_planner_follows_a11_and_the_stacks_that_already_attacked(defence_after_attack, fires):
    """BR-10.1 (A11): a stack that attacked this turn still fires back when attacked (default), or not (option);
    a stack that has attacked this turn cannot be planned as an attacker."""
    table = Table(solitaire=False, defence_after_attack=defence_after_attack)
    table.to_combat(1)
    table.attack(["Union 3"], ["CSA 4"], 1, 1)
    table.do("end_combat")
    plan = sequence_input(table.state, ["Union 3"], [(["CSA 3"], False)])
    assert plan.defender_fires is fires
    assert ("fires back" in planner_note(plan)) is fires
    with pytest.raises(RuleError) as caught:
        sequence_input(table.state, ["CSA 3"], [(["Union 3"], False)])
    assert caught.value.rule == "BR-10.1"
