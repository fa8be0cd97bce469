"""The input contract (digest section 11): every procedure input refuses a wrong type or an out-of-range value with
a RuleError naming the field (nothing is coerced); every roll names its rule, so a die face outside 1..6 or too
few faces is refused naming the rule of the roll. Random junk in actions and procedure inputs is sent by the
conformance tests (tests/engines/test_conformance.py); action parameters are checked by their specs."""
from __future__ import annotations

import re
from fractions import Fraction as F

import pytest

from companion.dice import DiceError, RandomDice, ScriptedDice
from companion.engine import RuleError, dice_needed
from companion.inputs import Inputs
from engines.dixie import ENGINE, PROCEDURES
from engines.dixie.counter_battery import CounterBatteryInput
from engines.dixie.disorder import DisorderInput
from engines.dixie.enfilade import EnfiladeInput
from engines.dixie.fire import FireInput
from engines.dixie.fire_effect import FireEffectInput, TargetCard
from engines.dixie.flank import FlankInput
from engines.dixie.leaders import LeaderCheckInput
from engines.dixie.melee import Fighter, MeleeInput, MeleeRoundInput, MeleeSide
from engines.dixie.morale import MoraleInput
from engines.dixie.support import SupportInput
from tests.engines.dixie.support import sidebar
from tests.engines.dixie.test_melee import melee_table

PROCEDURE_RULES = ("DX-6.0", "DX-11.3", "DX-7.2", "DX-7.3", "DX-8.3a", "DX-13.1", "DX-13.2", "DX-13.3", "DX-13.4",
                   "DX-13.5")
FIGHTER = Fighter(2, 3, 2, 2, 2)
SIDE = MeleeSide((FIGHTER,))
ROUND = MeleeRoundInput(SIDE, SIDE)

# (class, good fields, [(field, bad value), ...]): a text for an int, a bool for an int, a float, out of range.
CASES = [
    (MoraleInput, {"morale": 3, "hits": 1},
     [("hits", "2"), ("hits", True), ("hits", 5), ("hits", -1), ("morale", "3"), ("morale", 2.0)]),
    (LeaderCheckInput, {"hits": 1}, [("hits", "1"), ("hits", True), ("hits", -1), ("hits", 10 ** 9)]),
    (FireInput, {"groups": ((2, 2),)},
     [("groups", ((2, "2"),)), ("groups", ((True, 2),)), ("groups", ((2, 4),)), ("groups", ((2, 0),)),
      ("groups", ((-1, 2),)), ("groups", [(2, 2)]), ("groups", ((10 ** 6, 2),)), ("groups", ((2.0, 2),))]),
    (SupportInput, {"groups": ((2, 2),)}, [("groups", ((2, 4),)), ("groups", ((2, False),)), ("groups", None)]),
    (TargetCard, {"cv": 2, "morale": 3, "unled": 2, "hits": 0},
     [("cv", 5), ("cv", "2"), ("cv", -1), ("hits", True), ("hits", -1), ("morale", "3")]),
    (FireEffectInput, {"fire": FireInput(((1, 2),)), "targets": (TargetCard(2, 3, 2),)},
     [("fire", ((1, 2),)), ("targets", (2,)), ("leader", "false"), ("leader", 1), ("leader_hits", -1),
      ("leader_hits", "1")]),
    (DisorderInput, {"morales": (3,)}, [("morales", (3.0,)), ("morales", ("3",)), ("morales", [3])]),
    (FlankInput, {"morales": (3,)}, [("morales", (True,)), ("morales", 3)]),
    (EnfiladeInput, {"dice": (2,), "line": "own"},
     [("line", "ours"), ("dice", (2.5,)), ("dice", (-1,)), ("dice", (10 ** 6,)), ("target_cv", "0")]),
    (CounterBatteryInput, {"dice": 2, "f": 2, "target_cv": 2},
     [("f", 4), ("f", "2"), ("dice", True), ("dice", -1), ("target_cv", 0), ("target_hits", 6)]),
    (Fighter, {"dice": 2, "f": 3, "cv": 2, "morale": 2, "unled": 2},
     [("f", 0), ("cv", 5), ("dice", "2"), ("morale", None), ("unled", 1.5)]),
    (MeleeSide, {"fighters": (FIGHTER,)},
     [("fighters", (FIGHTER,) * 11), ("fighters", (Fighter(60, 3, 2, 2, 2),) * 2), ("fighters", [FIGHTER]),
      ("leader", 1), ("leader_hits", -1)]),
    (MeleeRoundInput, {"initiator": SIDE, "opponent": SIDE}, [("opponent", None), ("initiator", (FIGHTER,))]),
    (MeleeInput, {"round": ROUND, "position_value": F(2)}, [("position_value", "2"), ("round", SIDE)]),
]


@pytest.mark.rule(*PROCEDURE_RULES)
@pytest.mark.parametrize("kind, good, field, bad", [(k, g, f, b) for k, g, bad in CASES for f, b in bad],
                         ids=lambda v: v.__name__ if isinstance(v, type) else None)
def test_a_procedure_input_refuses_a_wrong_type_or_range_by_name(kind, good, field, bad):
    """Digest section 11: a wrong type (a text or a bool for an int, a float, a list for a tuple) or an
    out-of-range value is refused with a RuleError naming the field and the procedure's rule, never coerced."""
    kind(**good)
    with pytest.raises(RuleError) as caught:
        kind(**{**good, field: bad})
    assert caught.value.rule == kind.RULE and f"'{field}'" in caught.value.message, caught.value


@pytest.mark.rule(*PROCEDURE_RULES)
def test_every_procedure_input_is_checked():
    """Every procedure's input class (and every input class nested in one) checks its fields, and the table
    above covers each of them."""
    kinds = {type(i) for p in PROCEDURES for i in p.inputs()} - {type(None)}
    covered = {k for k, _, _ in CASES}
    assert kinds <= covered and {TargetCard, FireInput, MeleeSide, MeleeRoundInput, Fighter} <= covered
    assert all(issubclass(k, Inputs) and k.RULE in ENGINE.rules for k in covered)


ROLL_RULE = re.compile(r"\((DX-[0-9][0-9A-Za-z.]*)\)")


@pytest.mark.rule("DX-7.1", "DX-6.0", "DX-11.3", "DX-8.3a", "DX-13.1", "DX-13.2", "DX-13.3", "DX-13.4", "DX-13.5")
def test_every_procedure_roll_names_its_rule():
    """Digest section 11: each roll is labelled with the rule it is made under, a rule of the procedure."""
    for procedure in PROCEDURES:
        for inputs in procedure.inputs():
            dice = RandomDice(seed=7)
            result = procedure.resolve(inputs, dice)
            for roll in dice.rolls:
                named = ROLL_RULE.search(roll.label)
                assert named and named.group(1) in (*procedure.rules, *result.rules), (procedure.name, roll.label)


@pytest.mark.rule("DX-7.2", "DX-13.1", "DX-13.2")
@pytest.mark.parametrize("table, action, rule", [
    (sidebar, {"type": "fire", "firers": ["USA-24"], "target": "USA-C"}, "DX-7.2"),
    (sidebar, {"type": "fire", "firers": ["USA-21"], "target": "USA-C"}, "DX-13.2"),
    (melee_table, {"type": "declare_melee", "position": "USA-R"}, "DX-13.1"),
], ids=["fire", "enfilade", "melee"])
def test_a_die_outside_1_to_6_is_refused_naming_the_rule(table, action, rule):
    """Digest section 11: a face outside 1..6, or too few faces, is refused naming the rule of the roll, and the
    state is unchanged."""
    table = table()
    if action["type"] == "declare_melee":
        table.do("declare_melee", position="USA-R")
        action = {"type": "melee_round"}
    needed = sum(len(r.faces) for r in dice_needed(ENGINE, table.state, action))
    before = table.state.to_dict()
    for faces in ((7,) * needed, (0,) * needed, (2,) * (needed - 1)):
        with pytest.raises(DiceError, match=re.escape(f"({rule})")):
            ENGINE.apply(table.state, action, ScriptedDice(faces))
    assert table.state.to_dict() == before
