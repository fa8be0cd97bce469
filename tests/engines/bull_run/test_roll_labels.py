"""Every roll says what its number is made of: a fire's column from the firing stack's SP unit by unit and the
BR-10.5 modifiers on its die (vector 7: 9 SP on a hill across a ford, column 9-10, -3), and the CSA action
table's column from the Union units south of Bull Run (vector 14: 5 south, aware, column 4+)."""
from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.engine import dice_needed
from engines.bull_run import ENGINE
from engines.bull_run.fire import FireInput, resolve_fire
from tests.engines.bull_run.support import Table, row
from tests.engines.bull_run.test_solitaire import csa_phase


def labels(state, kind: str, **params) -> list[str]:
    return [r.label for r in dice_needed(ENGINE, state, {"type": kind, **params})]


@pytest.mark.rule("BR-10.4", "BR-10.5")
def test_a_fire_says_its_column_and_its_modifiers():
    """Vector 7: 5 + 4 = 9 SP read the 9-10 column; a target on a hill -1 and an attack across a ford -2 make -3
    on the attacker's die; the defender's 4 SP fire back on the 3-4 column, unmodified (A9)."""
    stacks = (row("Heintzelman", "UNION", "A", 1, 5), row("Porter", "UNION", "A", 1, 4),
              row("Jackson", "CSA", "1", 1, 4))
    table = Table(stacks, solitaire=False)
    table.to_combat(1)
    attack = table.declare(["Heintzelman", "Porter"], ["Jackson"], target_terrain="hill", across_ford=True)
    assert labels(table.state, "fire", attack=attack) == [
        "Attacker fire: column 9-10, 9 SP = Heintzelman 5 + Porter 4; roll −3 = target on a hill −1, "
        "across a Bull Run ford −2 (BR-10.4, BR-10.5)",
        "Defender fire: column 3-4, 4 SP = Jackson 4 (BR-10.4)"]
    result = resolve_fire(FireInput(5, -1), ScriptedDice([4]))
    assert [r.label for r in result.rolls] == ["Fire: column 5-6, 5 SP; roll −1 (BR-10.4, BR-10.5)"]


@pytest.mark.rule("BR-9.0")
def test_the_csa_action_roll_says_why_its_column():
    """Vector 14: 5 Union units south and the CSA aware: the 4+ column; not aware: the None column."""
    table = csa_phase(True, ("Union 1", "Union 2", "Union 3", "Union 4"), recognised_south="aware")
    assert labels(table.state, "csa_action_roll", union_south=5) == [
        "CSA action table, column 4+: 5 Union units south of Bull Run (BR-9.0)"]
    table = csa_phase(False)
    assert labels(table.state, "csa_action_roll") == [
        "CSA action table, column none: the CSA has not recognised Union units south of Bull Run (BR-9.0)"]
