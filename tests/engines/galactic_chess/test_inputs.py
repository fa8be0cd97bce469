"""The input contract (digest section 11): every procedure input refuses a wrong type or an out-of-range value
with a RuleError naming the field, never coercing; every roll names its rule, so a die face outside 1..6 or a
missing face is refused naming it. (Junk actions and each procedure's own junk inputs: the conformance suite.)"""
from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import DiceError, ProbeDice, ScriptedDice
from companion.engine import RuleError
from engines.galactic_chess import PROCEDURES
from engines.galactic_chess.battle import BattleRules, BattleUnit, Field
from engines.galactic_chess.duel import DuelInput, Fighter, StrikeInput
from engines.galactic_chess.order import OrderInput
from engines.galactic_chess.outlook import BattleInput
from engines.galactic_chess.plots import PlotInput, PlotRollInput
from engines.galactic_chess.retreat import RetreatInput, RetreatRollInput
from engines.galactic_chess.rolloff import RollOffInput
from tests.scale import examples

X = Fighter(5, 2, 9)
UNIT = BattleUnit("U", 0, "Ann", "EMP", "fleet", 2, 5, 2, 9)
FOE = BattleUnit("V", 1, "Ben", "FPA", "fleet", 2, 4, 1, 8)


@pytest.mark.rule("GC-5", "GC-6B.5", "GC-6B.6", "GC-6A.32", "GC-6B.4r", "GC-6B")
@pytest.mark.parametrize("make, rule, field", [
    (lambda: OrderInput("false"), "GC-5", "ragnarok"),
    (lambda: OrderInput(False, "2"), "GC-5", "invasion_size"),
    (lambda: OrderInput(False, True), "GC-5", "invasion_size"),
    (lambda: OrderInput(False, 13), "GC-5", "invasion_size"),
    (lambda: OrderInput(False, -1), "GC-5", "invasion_size"),
    (lambda: StrikeInput("3", 10), "GC-6B.5", "attack"),
    (lambda: StrikeInput(3, 10.0), "GC-6B.5", "defence"),
    (lambda: StrikeInput(3, 10, True), "GC-6B.5", "modifier"),
    (lambda: Fighter(5, None, 9), "GC-6B.5", "attack"),
    (lambda: DuelInput(X, (5, 2, 9)), "GC-6B.5", "target"),
    (lambda: RetreatRollInput("8"), "GC-6B.6", "threshold"),
    (lambda: RetreatInput(RetreatRollInput(8), "free"), "GC-6B.6", "free_attack"),
    (lambda: PlotRollInput(9, 3), "GC-6A.32", "modifier"),
    (lambda: PlotRollInput(False), "GC-6A.32", "value"),
    (lambda: PlotInput(8, "6"), "GC-6A.32", "target"),
    (lambda: RollOffInput(1), "GC-6B.4r", "sides"),
    (lambda: RollOffInput(2, 3), "GC-6B.4r", "dice_each"),
    (lambda: RollOffInput(2, 1, "GC-5"), "GC-6B.4r", "rule"),
    (lambda: BattleUnit("U", 2, "Ann", "EMP", "fleet", 2, 5, 2, 9), "GC-6B", "side"),
    (lambda: BattleUnit("U", 0, "Ann", "EMP", "tank", 2, 5, 2, 9), "GC-6B", "kind"),
    (lambda: BattleUnit("U", 0, "Ann", "EMP", "fleet", -1, 5, 2, 9), "GC-6B", "stars"),
    (lambda: BattleRules(deemed=4), "GC-6B", "deemed"),
    (lambda: BattleRules(rolloff_scope="always"), "GC-6B", "rolloff_scope"),
    (lambda: BattleInput((UNIT, FOE), policy="bold"), "GC-6B", "policy"),
    (lambda: BattleInput([UNIT, FOE]), "GC-6B", "units"),
    (lambda: BattleInput((UNIT,)), "GC-6B", "units"),
    (lambda: BattleInput((UNIT, FOE), field=Field(("ready",))), "GC-6B", "field"),
    (lambda: BattleInput((UNIT, FOE), field=Field(("ready", "ready"), (1, -1))), "GC-6B", "field"),
])
def test_procedure_inputs_refuse_a_wrong_type_or_range_naming_the_field(make, rule, field):
    """Digest section 11: a wrong type (a text or a bool for an int, a float, None) or an out-of-range value is
    refused with a RuleError naming the field and the rule, never coerced."""
    with pytest.raises(RuleError) as caught:
        make()
    assert caught.value.rule == rule and f"'{field}'" in str(caught.value)


@pytest.mark.rule("GC-5", "GC-6B.5", "GC-6B.6", "GC-6A.32", "GC-6B.4r")
def test_every_roll_names_its_rule_and_a_bad_face_is_refused_by_it():
    """Digest section 11: each roll of every procedure is labelled with its rule ID, so a face outside 1..6 or a
    missing face is refused naming the rule of the roll."""
    for proc in PROCEDURES:
        for inputs in list(proc.inputs())[:6]:
            probe = ProbeDice()
            proc.resolve(inputs, probe)
            if not probe.rolls:        # a battle in which nobody rolls (a unit facing only the fortress passes)
                continue
            assert all(re.search(r"\(GC-[0-9A-Za-z.]+\)", r.label) for r in probe.rolls), proc.name
            first = probe.rolls[0]
            with pytest.raises(DiceError) as bad:
                proc.resolve(inputs, ScriptedDice((7,) * 40))
            assert first.label.split("(")[-1].rstrip(")") in str(bad.value)
            with pytest.raises(DiceError):
                proc.resolve(inputs, ScriptedDice(()))


# --- nested inputs given junk (the conformance suite junks each procedure's own inputs) -----------------------

NAMES = ["Ann", "Ben", "EMP", "FPA", "NOBLE", "Demo Marshal Aurum", "Iserlohn Fortress", "fleet", "false", "2", ""]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 30, 10 ** 30), st.floats(allow_nan=True),
                 st.text(max_size=60), st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=3),
                 st.dictionaries(st.text(max_size=5), st.integers(-3, 5), max_size=2))
NESTED = [Fighter, BattleRules, BattleUnit]
FIELD_JUNK = st.one_of(JUNK, st.sampled_from([X, UNIT, (UNIT, FOE), StrikeInput(2, 9), RetreatRollInput(8),
                                              BattleRules(), Field(("ready", "ready")), "greedy_kill", 0, 1, 2]))


@pytest.mark.rule("GC-6B.5", "GC-6B")
@settings(max_examples=examples(1000))
@given(cls=st.sampled_from(NESTED), data=st.data())
def test_nested_inputs_given_junk_refuse_it_by_name(cls, data):
    """Digest section 11: junk to every field of the inputs nested in procedure inputs (a fighter, a battle unit,
    the battle's rules): accepted only when every field has its type and range, else a RuleError naming a
    field."""
    values = {f.name: data.draw(FIELD_JUNK) for f in dataclasses.fields(cls)}
    try:
        cls(**values)
    except RuleError as refused:
        assert re.search(r"'\w+'", refused.message) and len(refused.message) < 400
