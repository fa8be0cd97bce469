"""The phase guide's words agree with the state: who has this turn's initiative (BR-6.0), who moves and attacks first
(BR-5.1, BR-10.2), and whether the solitaire CSA's attacks are ordered (BR-9.2), for both sides holding the
initiative and both halves of the movement and combat phases."""
from __future__ import annotations

import pytest

from engines.bull_run.guide import due_now, phase_title
from engines.bull_run.state import COMBAT, MOVEMENT

from .support import Table

NAME = {"UNION": "Union", "CSA": "CSA"}


def halves(face: int):
    """(phase, half, state) at the start of each half of the movement and combat phases of turn 1."""
    table = Table(solitaire=True)
    table.start_turn(face)
    for half in (0, 1):
        assert table.state.phase == MOVEMENT
        yield MOVEMENT, half, table.state
        table.checks({})
        table.do("end_movement")
    for half in (0, 1):
        assert table.state.phase == COMBAT
        yield COMBAT, half, table.state
        table.do("end_combat")


@pytest.mark.rule("BR-6.0", "BR-5.1", "BR-10.2", "BR-9.2")
@pytest.mark.parametrize("face", [2, 5])
def test_every_text_names_the_side_that_has_the_initiative(face):
    """BR-6.0: 1-3 the Union has the initiative, 4-6 the CSA; it moves and attacks first, the other side second.
    BR-9.2: the solitaire CSA's attacks are ordered only when the CSA has the initiative (then it attacks first);
    when the Union has it the CSA attacks second and the player decides (A8)."""
    holder = "UNION" if face <= 3 else "CSA"
    second = "CSA" if holder == "UNION" else "UNION"
    seen = []
    for phase, half, state in halves(face):
        actor = holder if half == 0 else second
        verb = "moves" if phase == MOVEMENT else "attacks"
        title = phase_title(state)
        assert title.endswith(f"{NAME[actor]} {verb} {('first', 'second')[half]} ({NAME[holder]} initiative)"), title
        texts = " ".join(d.text for d in due_now(state))
        assert f"The {NAME[second]} has the initiative" not in texts
        if phase == COMBAT and actor == "CSA":
            if holder == "CSA":
                assert "The CSA has the initiative this turn: every CSA stack next to a Union stack is ordered " \
                       "to attack" in texts
            else:
                assert "The Union has the initiative this turn, so the CSA attacks second: the solitaire player " \
                       "decides which CSA stacks attack (BR-9.2)" in texts
            assert "Without the initiative" not in texts
            seen.append(half)
    assert seen == [0 if holder == "CSA" else 1]
