"""HD-4.8 border-state support, HD-5.8 once per state, A10 and A14."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from engines.house_divided.border_states import BorderInput, joined_within, resolve_border_state, success_chance
from engines.house_divided.guide import due_now
from engines.house_divided.views import border_odds
from tests.engines.house_divided.support import Table, designated_setup


def succeeds_on(inputs: BorderInput) -> list[int]:
    return [d for d in range(1, 7) if resolve_border_state(inputs, ScriptedDice([d])).outcome]


@pytest.mark.rule("HD-4.8", "HD-A10")
@pytest.mark.parametrize("inputs, modifier, faces, p", [
    (BorderInput("MO", 1861, 5), 2, [2, 3, 4, 5, 6], F(5, 6)),
    (BorderInput("MD", 1862, 8, csa_holds_washington=True), 1, [6], F(1, 6)),
    (BorderInput("KY", 1864, 12, usa_holds_richmond=True), -4, [6], F(1, 6)),
    (BorderInput("MD", 1861, 3, csa_holds_washington=True), 3, [4, 5, 6], F(1, 2)),
], ids=["MO-1861", "MD-1862", "KY-1864", "MD-1861"])
def test_vector_09(inputs, modifier, faces, p):
    """TV-9: the modifier, the faces that succeed (d6 + modifier greater than the number) and P."""
    result = resolve_border_state(inputs, ScriptedDice([6]))
    assert result.details["modified"] - 6 == modifier
    assert succeeds_on(inputs) == faces and success_chance(inputs) == p


@pytest.mark.rule("HD-A10", "HD-4.8")
def test_year_modifiers_fall_after_1862():
    """A10: 1861 +1, 1862 0, then -1, -2, -3 (the source's example, not its '+1 a year')."""
    gaps = {year: resolve_border_state(BorderInput("MO", year, 8), ScriptedDice([1])).details["modified"] - 1
            for year in range(1861, 1866)}
    assert gaps == {1861: 1, 1862: 0, 1863: -1, 1864: -2, 1865: -3}


@pytest.mark.rule("HD-4.8")
def test_joined_by_turn_multiplies_each_turns_odds():
    """Digest section 8: P(joined within T turns) = 1 - prod(1 - p_t), each turn with its own year."""
    turns = [BorderInput("MO", 1861, 5), BorderInput("MO", 1862, 5), BorderInput("MO", 1863, 5)]
    p = [F(5, 6), F(2, 3), F(1, 2)]  # +2, +1, 0 against 3
    assert joined_within(turns) == [1 - (1 - p[0]), 1 - (1 - p[0]) * (1 - p[1]),
                                    1 - (1 - p[0]) * (1 - p[1]) * (1 - p[2])]


def csa_turn(table):
    """To the start of the CSA player turn."""
    table.to_battles()
    table.pass_turn()


@pytest.mark.rule("HD-4.8", "HD-5.8")
def test_maryland_rolls_until_it_joins_then_never_again():
    """HD-4.8: with Baltimore CSA-held the CSA rolls at the start of its turn; MM 30/28 (+1) in 1861 (+1): Maryland
    needs more than 6, so 5 or 6. A 4 fails; one roll a turn; a 5 next turn joins: a militia in the pool. HD-5.8:
    once per state."""
    table = Table(designated_setup({"BAL": "CSA"}), supply=False)
    csa_turn(table)
    assert "border_state_roll" in [d.action for d in due_now(table.state)]
    assert border_odds(table.state, "MD").probability(True) == F(1, 3)
    table.do("border_state_roll", 4, border_state="MD")
    table.refuse("HD-4.8", "border_state_roll", 5, border_state="MD")
    table.refuse("HD-4.8", "border_state_roll", 5, border_state="MO")   # Missouri's cities are Union-held
    table.refuse("HD-4.8", "border_state_roll", 5, border_state="VA")
    table.to_battles()
    table.pass_turn()
    table.to_battles()
    table.pass_turn()
    step = table.do("border_state_roll", 5, border_state="MD")
    assert "HD-5.8" in step.rules and table.state.border_pool == 1
    table.to_battles()
    table.pass_turn()
    table.to_battles()
    table.pass_turn()
    table.refuse("HD-5.8", "border_state_roll", 6, border_state="MD")


@pytest.mark.rule("HD-A14")
def test_option_a14_one_attempt():
    """A14 (b): one attempt only: after a failure the state never rolls again."""
    table = Table(designated_setup({"BAL": "CSA"}), supply=False, border_attempts="one_attempt")
    csa_turn(table)
    table.do("border_state_roll", 1, border_state="MD")
    for _ in range(2):
        table.to_battles()
        table.pass_turn()
    table.refuse("HD-A14", "border_state_roll", 6, border_state="MD")


@pytest.mark.rule("HD-4.8")
def test_the_border_militia_joins_the_csa():
    """HD-4.8: the militia stays for the rest of the game: the CSA recruits it as a militia unit."""
    table = Table(designated_setup({"BAL": "CSA"}, mm=(30, 29)), supply=False)
    csa_turn(table)
    table.do("border_state_roll", 6, border_state="MD")
    table.to_battles()
    table.do("end_battles")
    table.do("end_promotion")
    table.refuse("HD-4.8", "add_unit", name="MD militia", arm="inf", box="BAL", grade="veteran", border_state=True)
    table.do("add_unit", name="MD militia", arm="inf", box="BAL", border_state=True)
    assert table.unit("MD militia").border_state and table.state.border_pool == 0
    table.refuse("HD-4.8", "add_unit", name="MD militia 2", arm="inf", box="BAL", border_state=True)


@pytest.mark.rule("HD-4.8")
def test_a_missing_city_box_is_named():
    data = designated_setup()
    data["map"]["boxes"] = [b for b in data["map"]["boxes"] if b["id"] != "st_joseph"]
    data["map"]["lines"] = [ln for ln in data["map"]["lines"] if "st_joseph" not in (ln["from"], ln["to"])]
    data["control"].pop("st_joseph")
    table = Table(data, supply=False)
    csa_turn(table)
    error = table.refuse("HD-4.8", "border_state_roll", 6, border_state="MO")
    assert "st_joseph" in error.message
