"""The input contract (digest section 11): every procedure input refuses a wrong type or an out-of-range value
with a RuleError naming the field, never coercing; a die face outside 1..6, or too few faces, is refused naming
the rule of the roll; actions given junk raise only RuleError or a dice error and change nothing."""
from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError
from engines.house_divided import ENGINE, PROCEDURES
from engines.house_divided.battle_command import CommandInput
from engines.house_divided.border_states import BorderInput
from engines.house_divided.command import MarchInput
from engines.house_divided.desertion import DesertionCheck, DesertionInput
from engines.house_divided.fire import FireInput, Shot
from engines.house_divided.garrison import GarrisonInput
from engines.house_divided.intervention import ReturnInput
from engines.house_divided.morale import MoraleCheck, MoraleInput
from engines.house_divided.rally import RallyInput
from engines.house_divided.washington import WashingtonInput
from tests.engines.house_divided.support import TEST_BASIC, Table, setup

# (class, a legal input, {field: values it must refuse}): strings and bools for ints, out-of-range values,
# text for yes/no, values outside a list of choices, lists for tuples.
CASES = [
    (MarchInput, {"year": 1862, "side": "USA"}, {"year": ["1862", True, 1860, 1866, 1862.0], "side": ["Union", 1]}),
    (CommandInput, {"year": 1862, "side": "CSA"},
     {"leaders": ["1", True, -1], "carried": ["3", False, -1, 2.5], "carry": ["half"], "leader_carry": [True]}),
    (BorderInput, {"state": "MO", "year": 1861, "gap": 5},
     {"state": ["XX", None], "year": [1866], "gap": [-1, "5", True], "csa_holds_washington": ["false", 0],
      "required": [13, "3", -1]}),
    (MoraleCheck, {"unit": "u", "grade": "militia", "year": 1862},
     {"unit": [3, None], "grade": ["elite"], "year": [True], "sheltered": ["false", 1]}),
    (MoraleInput, {"checks": ()}, {"checks": [[MoraleCheck("u", "crack", 1862)], ("u",), None]}),
    (DesertionCheck, {"unit": "u", "grade": "veteran", "year": 1862, "lost": True, "routed": False},
     {"lost": ["true", 1], "routed": [None], "leaders": [-1, "2", True], "steady": ["yes"]}),
    (DesertionInput, {"checks": ()}, {"checks": [None, [DesertionCheck("u", "crack", 1862, True, True)]]}),
    (RallyInput, {"routed": ("a",), "chosen": "a"}, {"routed": [["a"], ("a", 1)], "chosen": [None, 1]}),
    (WashingtonInput, {"mm_usa": 30}, {"mm_usa": [-1, "30", True, 30.0], "loss_rule": ["both"]}),
    (ReturnInput, {"eliminated": 2}, {"eliminated": [5, -1, "2", True]}),
    (Shot, {"unit": "u", "strength": 3}, {"strength": [7, -1, "3", True], "bonus": [-1, True], "penalty": [2, -1],
                                         "point": ["1", 7]}),
    (FireInput, {"shots": ()}, {"shots": [[Shot("u", 3)], (3,)], "open_targets": ["false", 1]}),
    (GarrisonInput, {"shots": ()}, {"hits": [2, -1, True, "0"]}),
]


@pytest.mark.rule("HD-4.1", "HD-4.2", "HD-4.4", "HD-4.5", "HD-4.6", "HD-4.7", "HD-4.8", "HD-4.9", "HD-4.10",
                  "HD-4.11")
@pytest.mark.parametrize("cls, good, bad", CASES, ids=[c[0].__name__ for c in CASES])
def test_procedure_inputs_refuse_wrong_types_and_ranges_naming_the_field(cls, good, bad):
    """Section 11: each bad value is a RuleError naming the field and the procedure's rule (or the field's)."""
    cls(**good)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for name, values in bad.items():
        for value in values:
            with pytest.raises(RuleError) as refused:
                cls(**{**good, name: value})
            assert f"'{name}'" in refused.value.message, (name, value)
            assert refused.value.rule == (fields[name].metadata.get("rule") or cls.RULE)


@pytest.mark.rule("HD-4.1", "HD-4.2", "HD-4.4", "HD-4.6", "HD-4.7", "HD-4.8", "HD-4.9", "HD-4.10", "HD-4.11")
@pytest.mark.parametrize("procedure", [p for p in PROCEDURES if p.name != "rally"], ids=lambda p: p.name)
def test_a_bad_die_is_refused_naming_the_rule_of_the_roll(procedure):
    """Section 11: a face outside 1..6 (0, 7, a text), or a missing face, is refused naming the roll's rule."""
    for inputs in procedure.inputs():
        needed = len(procedure.resolve(inputs, ScriptedDice([1] * 40)).rolls)
        if not needed:
            continue
        for faces in ([0] * needed, [7] * needed, ["3"] * needed, [1] * (needed - 1)):
            with pytest.raises(DiceError) as refused:
                procedure.resolve(inputs, ScriptedDice(faces))
            assert re.search(r"\(HD-4\.\d+\)", str(refused.value)), (procedure.name, faces, str(refused.value))


# --- actions given junk -------------------------------------------------------------------------------

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 30, 10 ** 30), st.floats(allow_nan=True),
                 st.text(max_size=60), st.sampled_from(["USA", "CSA", "A", "P", "R3", "europe", "Lee", "Grant",
                                                        "CSA 1", "USA 4", "Garrison", "false", "2", "MO"]),
                 st.lists(st.sampled_from(["CSA 1", "USA 4", "USA 5", "Garrison", "nobody", "A"]), max_size=3),
                 st.dictionaries(st.text(max_size=5), st.integers(-3, 5), max_size=2))
PARAMS = ["unit", "units", "box", "to", "side", "hits", "leader", "leaders", "bonus", "foraged", "settings", "count",
          "change", "reason", "name", "arm", "grade", "border_state", "amphibious", "year", "extra"]


@pytest.fixture(scope="module")
def tables():
    """The EXAMPLE game at the start, in movement and in a battle."""
    start = Table(setup(basic_rules=TEST_BASIC), foraging="manual")
    movement = Table(setup(basic_rules=TEST_BASIC))
    movement.to_movement(6)
    battle = Table(setup(basic_rules=TEST_BASIC))
    battle.to_battles(6)
    battle.do("start_battle", box="P")
    return [(t, t.state.to_dict()) for t in (start, movement, battle)]


@pytest.mark.rule("HD-2", "HD-3")
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(which=st.integers(0, 2), kind=st.sampled_from(sorted(ENGINE.actions.table)),
       params=st.dictionaries(st.sampled_from(PARAMS), JUNK, max_size=3),
       faces=st.lists(st.integers(-1, 8), max_size=4))
@example(which=2, kind="take_hits", params={"units": ["Garrison", "Garrison", "Garrison"]}, faces=[])
@example(which=1, kind="march", params={"units": ["CSA 1"], "to": "A" * 10 ** 4}, faces=[])
def test_actions_given_junk_refuse_it_and_change_nothing(tables, which, kind, params, faces):
    """Section 11: junk of every kind to every action: only a RuleError or a dice error, the state unchanged,
    and a message that quotes at most a short prefix of the bad value."""
    table, saved = tables[which]
    try:
        ENGINE.apply(table.state, {"type": kind, **params}, ScriptedDice(faces))
    except RuleError as refused:
        assert len(refused.message) < 400
    except DiceError:
        pass
    assert table.state.to_dict() == saved
