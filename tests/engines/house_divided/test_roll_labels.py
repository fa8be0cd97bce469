"""Every roll says what its number is made of: a shot's number (strength + leader points - entrenched, HD-4.10,
HD-4.3), the highest die that holds in a morale check (the morale table, -1 to the die in a fort or entrenched,
HD-4.4) and that stays in a desertion check (+1 lost, -1 not routed, HD-4.6), the number a border state must beat
(the state's number and the HD-4.8 modifiers, TV-9), and what a battle command adds to the table (HD-4.2, TV-2)."""
from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.engine import dice_needed
from engines.house_divided import ENGINE
from engines.house_divided.battle_command import CommandInput, resolve_battle_command
from engines.house_divided.fire import FireInput, Shot, resolve_fire
from engines.house_divided.morale import MoraleCheck, MoraleInput, resolve_morale
from tests.engines.house_divided.support import Table, designated_setup
from tests.engines.house_divided.test_battle import fight, round_one
from tests.engines.house_divided.test_border_states import csa_turn


def labels(state, kind: str, **params) -> list[str]:
    return [r.label for r in dice_needed(ENGINE, state, {"type": kind, **params})]


def rolled(result) -> list[str]:
    return [r.label for r in result.rolls]


GRANT = [{"name": "Grant", "front": 1, "box": "A"}]


@pytest.mark.rule("HD-4.10", "HD-4.3")
def test_a_shot_says_its_number():
    """HD-4.10: a unit hits on its strength or less (the players' basic form: militia 2, veteran 3); a leader point
    adds 1 (HD-4.3); firing at an entrenched side takes 1 off (the form's threshold entry)."""
    table = fight(leaders=GRANT)
    assert labels(table.state, "fire", bonus={"U1": 1}) == [
        "Union fire, round 1: U1, hits on 3 or less = strength 2 + leader points +1 (HD-4.10)",
        "Union fire, round 1: U2, hits on 2 or less = strength 2 (HD-4.10)"]
    dug_in = FireInput((Shot("C2", 3, 0, 1),), open_targets=True)
    assert rolled(resolve_fire(dug_in, ScriptedDice([1]))) == [
        "Fire: C2, hits on 2 or less = strength 3 − entrenched 1; an unentrenched unit on 3 or less (HD-4.10)"]


@pytest.mark.rule("HD-4.4", "HD-4.6")
def test_morale_and_desertion_checks_say_the_highest_die_that_holds():
    """HD-4.4: militia 3 (1862) and veteran 4 hold on their morale or less; in a fort or entrenched the die's -1 lets
    one more face hold. HD-4.6 after the Union's retreat: U1 routed on the losing side stays on 3 - 1 = 2 or less;
    C1 not routed on the winning side on 3 + 1 = 4; C2 routed, winning, on 4."""
    table = fight()
    round_one(table)
    assert labels(table.state, "morale_checks") == [
        "Morale: U1, holds on 3 or less = militia 3 (HD-4.4)",
        "Morale: C1, holds on 3 or less = militia 3 (HD-4.4)",
        "Morale: C2, holds on 4 or less = veteran 4 (HD-4.4)"]
    sheltered = MoraleInput((MoraleCheck("C2", "veteran", 1862, True),))
    assert rolled(resolve_morale(sheltered, ScriptedDice([5]))) == [
        "Morale: C2, holds on 5 or less = veteran 4 + in a fort or entrenched +1 (HD-4.4)"]
    table.do("morale_checks", 4, 1, 5)
    table.do("retreat", side="USA", to="X")
    assert labels(table.state, "desertion_checks") == [
        "Desertion: U1, stays on 2 or less = militia 3 − side lost 1 (HD-4.6)",
        "Desertion: C1, stays on 4 or less = militia 3 + not routed +1 (HD-4.6)",
        "Desertion: C2, stays on 4 or less = veteran 4 (HD-4.6)"]


@pytest.mark.rule("HD-4.8")
def test_a_border_state_roll_says_the_number_to_beat():
    """HD-4.8: Maryland needs more than 6; an MM gap of 5 or less +1 and 1861 +1 on the die: more than 4."""
    table = Table(designated_setup({"BAL": "CSA"}), supply=False)
    csa_turn(table)
    assert labels(table.state, "border_state_roll", border_state="MD") == [
        "Border state: Maryland, succeeds on more than 4 = Maryland 6 − MM gap 5 or less 1 − in 1861 1 (HD-4.8)"]


@pytest.mark.rule("HD-4.2")
def test_a_battle_command_roll_says_what_is_added_to_the_table():
    """HD-4.2 (TV-2, TV-5): day 1 the table alone; day 3 of TV-2 the table + half of day 2's 4 (2); Lee's 3 on
    the CSA's."""
    day_one = CommandInput(1862, "USA")
    assert rolled(resolve_battle_command(day_one, ScriptedDice([4]))) == [
        "Battle command, Union: the 1862 table (HD-4.2)"]
    day_three = CommandInput(1862, "USA", carried=4)
    assert rolled(resolve_battle_command(day_three, ScriptedDice([5]))) == [
        "Battle command, Union: the 1862 table + half the day before's 4 +2 (HD-4.2)"]
    lee = CommandInput(1863, "CSA", 3, 7)
    assert rolled(resolve_battle_command(lee, ScriptedDice([6]))) == [
        "Battle command, CSA: the 1863 table + half the day before's 7 +4 + leaders +3 (HD-4.2)"]
