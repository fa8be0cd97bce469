"""Fire on the combat results table and its modifiers (BR-10.4, BR-10.5)."""
from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from companion.dice import ScriptedDice
from companion.engine import RuleError
from companion.odds import fractions, mean
from engines.bull_run.fire import FireInput, fire_odds, modifier_terms, resolve_fire
from engines.bull_run.options import OPTIONS
from engines.bull_run.state import Conditions
from tests.engines.bull_run.support import Table, row

# BR-10.4, typed from the digest: modified roll (0 = "<1") -> hits in columns 1-2, 3-4, 5-6, 7-8, 9-10, 11-12.
CRT = {
    0: (0, 0, 0, 0, 0, 0),
    1: (0, 0, 0, 0, 0, 1),
    2: (0, 0, 0, 0, 1, 1),
    3: (0, 0, 0, 1, 1, 1),
    4: (0, 0, 1, 1, 2, 2),
    5: (0, 1, 1, 2, 2, 3),
    6: (1, 1, 2, 2, 3, 3),
}
DEFAULTS = {o.key: o.default for o in OPTIONS}


def crt(sp: int, roll: int) -> int:
    return CRT[max(roll, 0)][(sp - 1) // 2]


def digest_modifiers(target, attacker, ford, bridge, symmetric, bridge_counts):
    """BR-10.5: -1 for a target on a hill or in woods, -2 across a ford (A18: or the bridge); A9: the
    defender's fire back gets the same treatment only with symmetric modifiers."""
    crossing = -2 if ford or (bridge and bridge_counts) else 0
    on_attacker = (-1 if target in ("hill", "woods") else 0) + crossing
    on_defender = (-1 if attacker in ("hill", "woods") else 0) + crossing if symmetric else 0
    return on_attacker, on_defender


@pytest.mark.rule("BR-10.4", "BR-10.5")
def test_every_cell_of_the_crt():
    """BR-10.4 with BR-10.5: SP 1-12, every modifier sum from 0 to -3, every face."""
    for sp, mod, face in product(range(1, 13), range(-3, 1), range(1, 7)):
        result = resolve_fire(FireInput(sp, mod), ScriptedDice([face]))
        assert result.outcome == crt(sp, face + mod), (sp, mod, face)
        assert result.details["modified"] == face + mod


@pytest.mark.rule("BR-10.4", "BR-10.5")
@pytest.mark.parametrize("sp, face, conditions, modified, row_, column, hits", [
    (5, 4, Conditions(target_terrain="woods"), 3, "3", "5-6", 0),
    (9, 6, Conditions(target_terrain="hill", across_ford=True), 3, "3", "9-10", 1),
    (12, 1, Conditions(), 1, "1", "11-12", 1),
    (11, 1, Conditions(target_terrain="woods"), 0, "<1", "11-12", 0),
])
def test_vector_07_crt_lookups(sp, face, conditions, modified, row_, column, hits):
    """Vector 7 (BR-10.4, BR-10.5): the four hand-computed lookups."""
    mod = modifier_terms(conditions, "attackers", DEFAULTS).total
    result = resolve_fire(FireInput(sp, mod), ScriptedDice([face]))
    assert (result.details["modified"], result.details["row"], result.details["column"], result.outcome) == (
        modified, row_, column, hits)


@pytest.mark.rule("BR-10.4", "BR-10.5")
@pytest.mark.parametrize("sp, mod", list(product((1, 2), (-1, -2, -3))))
def test_vector_07_small_stack_with_a_negative_modifier_scores_nothing(sp, mod):
    """Vector 7 (BR-10.4): a stack of 1-2 SP with any negative modifier always scores 0."""
    assert fractions(fire_odds(FireInput(sp, mod))) == {0: 1}
    assert all(resolve_fire(FireInput(sp, mod), ScriptedDice([f])).outcome == 0 for f in range(1, 7))


@pytest.mark.rule("BR-10.4")
@pytest.mark.parametrize("sps, mod, distribution, expected", [
    ((1, 2), 0, {0: F(5, 6), 1: F(1, 6)}, F(1, 6)),
    ((3, 4), 0, {0: F(2, 3), 1: F(1, 3)}, F(1, 3)),
    ((5, 6), 0, {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}, F(2, 3)),
    ((7, 8), 0, {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}, F(1)),
    ((9, 10), 0, {0: F(1, 6), 1: F(1, 3), 2: F(1, 3), 3: F(1, 6)}, F(3, 2)),
    ((11, 12), 0, {1: F(1, 2), 2: F(1, 6), 3: F(1, 3)}, F(11, 6)),
    ((11, 12), -1, {0: F(1, 6), 1: F(1, 2), 2: F(1, 6), 3: F(1, 6)}, None),
], ids=["1-2", "3-4", "5-6", "7-8", "9-10", "11-12", "11-12 at -1"])
def test_vector_08_distributions_by_column(sps, mod, distribution, expected):
    """Vector 8 (BR-10.4): the exact hit distribution and expected hits of each column."""
    for sp in sps:
        odds = fire_odds(FireInput(sp, mod))
        assert fractions(odds) == distribution
        if expected is not None:
            assert mean(odds) == expected


@pytest.mark.rule("BR-10.4")
@pytest.mark.parametrize("sp", [0, 13, 24])
def test_fire_off_the_table_is_refused(sp):
    """BR-10.4 (A16 default): a firing total must be 1-12."""
    with pytest.raises(RuleError) as caught:
        resolve_fire(FireInput(sp), ScriptedDice([6]))
    assert caught.value.rule == "BR-10.4"


BIG = (row("Big 1", "UNION", "A", 1, 7), row("Big 2", "UNION", "A", 1, 6), row("Reb", "CSA", "1", 1, 3))


@pytest.mark.rule("BR-10.4")
def test_option_a16_a_stack_above_12_sp():
    """BR-10.4: 13 SP cannot fire by default (refused before any die); with A16 it reads the 11-12 column."""
    default = Table(BIG, solitaire=False)
    default.to_combat(1)
    error = default.refuse("BR-10.1", "declare_attack", attackers=["Big 1", "Big 2"], defenders=["Reb"])
    assert "cannot be chosen together" in error.message
    table = Table(BIG, solitaire=False, over_12="use_11_12")
    table.to_combat(1)
    step = table.attack(["Big 1", "Big 2"], ["Reb"], 3, 1)
    assert (step.results[0].details["column"], step.results[0].outcome) == ("11-12", crt(12, 3))



@pytest.mark.rule("BR-10.5")
@pytest.mark.parametrize("target, attacker, ford, bridge", [
    ("clear", "clear", False, False), ("town", "clear", False, False), ("hill", "clear", False, False),
    ("woods", "clear", False, False), ("clear", "clear", True, False), ("woods", "clear", True, False),
    ("hill", "hill", True, False), ("clear", "woods", False, False), ("clear", "clear", False, True),
    ("woods", "hill", False, True),
])
@pytest.mark.parametrize("symmetric, bridge_counts", [(False, False), (True, False), (False, True)],
                         ids=["default", "A9 symmetric", "A18 bridge"])
def test_modifiers_on_both_fires(target, attacker, ford, bridge, symmetric, bridge_counts):
    """BR-10.5: -1 hill or woods (a town gives nothing), -2 across a ford, cumulative; the attacker's roll only
    (A9 default, or both rolls when symmetric); Stone Bridge gives -2 only with A18."""
    table = Table(solitaire=False, symmetric_modifiers=symmetric, bridge_counts=bridge_counts)
    table.to_combat(1)
    ground = {"target_terrain": target, "across_ford": ford}
    if symmetric:
        ground["attacker_terrain"] = attacker
    elif attacker != "clear":
        table.refuse("BR-10.5", "declare_attack", attackers=["Union 3"], defenders=["CSA 4"], **ground,
                     attacker_terrain=attacker)
    if bridge_counts:
        ground["across_bridge"] = bridge
    elif bridge:
        table.refuse("BR-10.5", "declare_attack", attackers=["Union 3"], defenders=["CSA 4"], **ground,
                     across_bridge=True)
    step = table.attack(["Union 3"], ["CSA 4"], 6, 6, **ground)
    on_attacker, on_defender = digest_modifiers(target, attacker, ford, bridge, symmetric, bridge_counts)
    assert [r.details["modified"] for r in step.results] == [6 + on_attacker, 6 + on_defender]
    assert ("BR-10.5" in step.rules) == bool(on_attacker or on_defender)


@pytest.mark.rule("BR-10.5")
@pytest.mark.parametrize("params", [{"target_terrain": "swamp"}, {"attacker_terrain": "road"},
                                    {"across_ford": True, "across_bridge": True}])
def test_impossible_combat_ground_is_refused(params):
    """BR-10.5: the target's ground is clear, town, hill or woods; an attack crosses at a ford or the bridge."""
    table = Table(solitaire=False, symmetric_modifiers=True, bridge_counts=True)
    table.to_combat(1)
    table.refuse("BR-10.5", "declare_attack", attackers=["Union 3"], defenders=["CSA 4"], **params)
