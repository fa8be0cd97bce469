"""The input contract (digest section 11): every procedure input refuses a wrong type or a value out of its
range with a RuleError naming the field, never coercing it; a die outside 1..6, or too few dice, is refused
naming the rule of the roll, and the state is unchanged."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError, dice_needed
from engines.bull_run import ENGINE
from engines.bull_run.combat import CombatInput, SequenceInput, StackInput
from engines.bull_run.fire import FireInput
from engines.bull_run.flank import AwarenessInput
from engines.bull_run.hesitation import HesitationInput
from engines.bull_run.roster import parse_play_sheet, roster_from_rows
from engines.bull_run.solitaire import ActionInput
from tests.engines.bull_run.support import Table
from tests.scale import examples

STACK = StackInput(fire_sp=4, units=(2, 2))


@pytest.mark.rule("BR-10.4", "BR-9.0", "BR-8.4a", "BR-10.2", "BR-10.1")
@pytest.mark.parametrize("make, field", [
    (lambda: FireInput(sp="4"), "sp"),
    (lambda: FireInput(sp=4.0), "sp"),
    (lambda: FireInput(sp=True), "sp"),
    (lambda: FireInput(sp=0), "sp"),
    (lambda: FireInput(sp=4, modifier=1), "modifier"),
    (lambda: FireInput(sp=4, over_12="yes"), "over_12"),
    (lambda: ActionInput(union_south=-1), "union_south"),
    (lambda: ActionInput(union_south=3, aware="false"), "aware"),
    (lambda: AwarenessInput(adjacent=1), "adjacent"),
    (lambda: HesitationInput(rolls=0), "rolls"),
    (lambda: HesitationInput(rolls="2"), "rolls"),
    (lambda: StackInput(fire_sp=4, units=(2, "2")), "units"),
    (lambda: StackInput(fire_sp=-1, units=(2,)), "fire_sp"),
    (lambda: CombatInput(attackers=STACK, defenders={"fire_sp": 2}), "defenders"),
    (lambda: CombatInput(attackers=STACK, defenders=STACK, defender_fires="true"), "defender_fires"),
    (lambda: SequenceInput(defenders=STACK, attackers=[STACK], modifiers=(0,)), "attackers"),
    (lambda: SequenceInput(defenders=STACK, attackers=(STACK,), modifiers=(0,), per_unit=None), "per_unit"),
])
def test_a_procedure_input_refuses_a_wrong_type_or_range_naming_the_field(make, field):
    with pytest.raises(RuleError, match=re.escape(field)):
        make()


@pytest.mark.rule("BR-6.0", "BR-8.4b")
@pytest.mark.parametrize("action, rule", [({"type": "roll_initiative"}, "BR-6.0"),
                                          ({"type": "farm_ford_roll"}, "BR-8.4b")])
def test_a_die_outside_1_to_6_or_too_few_are_refused_naming_the_rule_of_the_roll(action, rule):
    table = Table()
    if action["type"] == "farm_ford_roll":
        table.do("roll_initiative", 2)
        table.do("place_reinforcements")
    needed = sum(len(r.faces) for r in dice_needed(ENGINE, table.state, action))
    before = table.state.to_dict()
    for faces in ((7,) * needed, (0,) * needed, (2,) * (needed - 1)):
        with pytest.raises(DiceError, match=re.escape(f"({rule})")):
            ENGINE.apply(table.state, action, ScriptedDice(faces))
    assert table.state.to_dict() == before


@pytest.mark.rule("BR-2.4")
@settings(max_examples=examples(5000), deadline=None)
@given(text=st.one_of(st.text(max_size=200), st.text(alphabet="0123456789/,;\t -AUCSnoygrey\n", max_size=300),
                      st.builds(lambda n, line: line * n, st.integers(1, 3000), st.sampled_from(
                          ["Evans, CSA, 1/1, 2-1\n", "9" * 5000 + "\n", "x,CSA,1/" + "9" * 4400 + ",3\n"]))))
def test_any_pasted_play_sheet_is_rows_or_a_refusal_naming_the_rule(text):
    """A pasted play sheet (BR-2.4) of any text, huge or with numbers of thousands of digits, gives roster rows or a
    RuleError with a short message, never another exception."""
    try:
        roster_from_rows(parse_play_sheet(text))
    except RuleError as exc:
        assert len(str(exc)) < 300
