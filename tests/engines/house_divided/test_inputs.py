"""The input contract (digest section 11): every procedure input refuses a wrong type or an out-of-range value
with a RuleError naming the field, never coercing; a die face outside 1..6, or too few faces, is refused naming
the rule of the roll; an action's parameter of the wrong type or out of range is refused naming the parameter."""
from __future__ import annotations

import dataclasses
import re

import pytest
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


# --- action parameters (typed by the action specs) ---------------------------------------------------------

@pytest.fixture(scope="module")
def tables():
    """The EXAMPLE game at the start (foraging by option), in movement (with the Command Table off: marches
    entered), in a battle, and at the CSA's end of turn (the year of turn 2 is asked: no calendar)."""
    start = Table(setup(basic_rules=TEST_BASIC), foraging="manual")
    entered = Table(setup(basic_rules=TEST_BASIC), command=False)
    entered.do("check_supply")
    entered.do("end_start")
    movement = Table(setup(basic_rules=TEST_BASIC))
    movement.to_movement(6)
    battle = Table(setup(basic_rules=TEST_BASIC))
    battle.to_battles(6)
    battle.do("start_battle", box="P")
    battle.do("battle_command", 3, 3)
    battle.do("fire", 1, 1)
    end = Table(setup(basic_rules=TEST_BASIC), supply=False)
    end.to_battles(6)
    end.pass_turn()
    end.to_battles(6)
    end.do("end_battles")
    end.do("end_promotion")
    return {"start": start, "entered": entered, "movement": movement, "battle": battle, "end": end}


BAD_PARAMETERS = [
    ("entered", "set_marches", {}, "count", ["2", 2.0, True, None, -1, 7]),
    ("movement", "march", {"units": ["USA 2"], "to": "X"}, "amphibious", ["false", 0, 1, None]),
    ("movement", "march", {"to": "X"}, "units", ["USA 2", [True], [None], ["nobody"]]),
    ("movement", "march", {"units": ["USA 2"]}, "to", ["nowhere", "A" * 10 ** 4, 3, None]),
    ("start", "check_supply", {}, "foraged", ["A", [1], [False]]),
    ("battle", "take_hits", {}, "units", [["Garrison", "Garrison", "Garrison"], "CSA 9", [None]]),
    ("battle", "take_hits", {"units": ["CSA 9"]}, "side", ["Union", "usa", True, 0]),
    ("end", "end_player_turn", {}, "year", ["1862", 1862.0, True, 1860, 1866, 1863]),
    ("movement", "adjust_mm", {"side": "USA"}, "change", ["-1", 1.0, False, -35]),
]


@pytest.mark.rule("HD-2", "HD-3", "HD-5.2", "HD-4.10", "HD-4.11", "HD-6.3", "HD-A11")
@pytest.mark.parametrize("table, kind, given, name, values", BAD_PARAMETERS,
                         ids=[f"{kind}.{name}" for _, kind, _, name, _ in BAD_PARAMETERS])
def test_a_wrong_type_or_value_of_a_parameter_is_refused_naming_it(tables, table, kind, given, name, values):
    """Section 11: a string for a bool or an int, a float or a bool for an int, a year or a count out of range,
    a box or unit not in the game: refused with a RuleError naming the parameter, never coerced, the state
    unchanged; the message quotes at most a short prefix of the value."""
    game = tables[table]
    for value in values:
        error = game.refuse(ENGINE.actions.specs[kind].param(name).rule, kind, **given, **{name: value})
        assert f"'{name}'" in error.message and len(error.message) < 400, (value, error.message)


@pytest.mark.rule("HD-4.10")
def test_fire_and_hits_as_saved_before_the_specs_still_replay():
    """Saved sessions: the side left blank ('') and an empty leader split ({}), as the dashboard entered them
    before the action specs, still mean the side whose turn it is and no leader points."""
    table = Table(setup(basic_rules=TEST_BASIC))
    table.to_battles(6)
    table.do("start_battle", box="P")
    table.do("battle_command", 3, 3)
    table.do("fire", 1, 6, side="", bonus={})
    table.do("take_hits", side="")
    assert table.unit("CSA 9").reduced
