"""Golden transcript: a scripted full round 1 on the example board, its event log rendered as text."""
from __future__ import annotations

from pathlib import Path

import pytest

from engines.border_states.guide import due_now, phase_title
from tests.engines.border_states.support import KY, MD, TN, VA, C, Table, U, board, setup
from tests.engines.table import transcript_line

GOLDEN = Path(__file__).parent / "golden" / "round_1.txt"

# (action, dice, parameters)
SCRIPT = (
    ("draw", (), {}),
    ("roll_initiative", (5, 3), {}),
    ("choose_first", (), {"first": C}),
    ("move", (), {"source": VA, "target": MD}),
    ("entrench", (), {"area": MD}),
    ("move", (), {"source": TN, "target": KY}),
    ("retreat", (2,), {"source": KY, "target": "Union home 3"}),
    ("retreat_failed", (), {"choice": "damage"}),
    ("retreat", (1,), {"source": KY, "target": TN}),
    ("retreat_failed", (), {"choice": "remove"}),
    ("pass_turn", (), {}),
    ("move", (), {"source": VA, "target": MD, "commander": True}),
    ("start_effects", (), {"extra_dice": 1}),
    ("start_effects", (), {"card": "Army of the Potomac"}),
    ("commit_supply", (), {"count": 2}),
    ("commit_supply", (), {"count": 1}),
    ("throw", (4, 4, 4, 2, 1), {}),
    ("keep", (), {"confirm": [4, 4, 4]}),
    ("throw", (4, 1), {}),
    ("keep", (), {"confirm": [4, 1]}),
    ("throw", (3, 3, 3, 6, 1), {}),
    ("keep", (), {"confirm": [3, 3, 3], "damage": 1}),
    ("throw", (2,), {}),
    ("keep", (), {"confirm": [2]}),
    ("remove_losses", (), {"commander": True}),
    ("end_combat", (), {}),
    ("check_victory", (), {}),
    ("supply", (), {}),
    ("recruit", (3,), {"area": "CSA home 1"}),
    ("recruit", (5,), {"area": "CSA home 2"}),
    ("recruit", (6,), {"area": "CSA home 3"}),
    ("recruit", (4,), {"area": "Union home 1", "commander": True}),
    ("recruit", (1,), {"area": "Union home 2"}),
    ("recruit", (2,), {"area": "Union home 4"}),
    ("recruit", (6,), {"area": "Union home 5"}),
    ("recruit", (4,), {"area": "Union home 6"}),
)


def played() -> Table:
    table = Table(setup(board()))
    for kind, faces, params in SCRIPT:
        table.do(kind, *faces, **params)
    return table


def transcript(table: Table) -> str:
    """The event log: one line per event with its rule IDs and dice."""
    return "".join(transcript_line(event) + "\n" for event in table.events)


@pytest.mark.rule("BS-DRAW", "BS-INIT", "BS-ACT", "BS-D.4", "BS-D.5", "BS-D.6", "BS-RET", "BS-D.7", "BS-CMB",
                  "BS-CARD", "BS-D.10", "BS-VIC", "BS-SUP", "BS-REC")
def test_golden_round_1():
    """A whole round: draw with the North Carolina bonus; initiative; moves into combat, an entrenchment, two failed
    retreats (one each way of choosing), a pass; the combat in Maryland through its start, supply, throws and takes,
    the loser's choice of its commander unit, damage, distrust and end; the victory check; supply with the cap;
    recruitment to the maximum force, then the Union's; round 2 begins."""
    assert transcript(played()) == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.rule("BS-CMB", "BS-D.10", "BS-SUP", "BS-REC")
def test_golden_round_1_ends_where_the_digest_says():
    """The figures the transcript tells, checked on the state: MD 2 CSA v 1 Union; the marker back on START (+1 by the
    failed Union retreat, -1 by the combat's damage dice 0 v 1); distrust 1; the Union on its ② commander with its
    commander unit recruited again; supplies 14 + 5 + 1 and 17 + 6 + 1, both capped at 18; the CSA recruited to 10."""
    state = played().state
    assert (state.count(MD, C), state.count(MD, U)) == (2, 1)
    assert (state.damage, state.distrust, state.commander) == (0, 1, {C: 1, U: 2})
    assert state.commander_at == {C: MD, U: "Union home 1"}
    assert state.supply == {C: 18, U: 18}
    assert (state.on_board(C), state.on_board(U)) == (10, 8)
    assert (state.round, state.phase, state.entrenched) == (2, "draw", ())


@pytest.mark.rule("BS-ACT", "BS-CMB", "BS-REC")
def test_the_guide_offers_each_step_of_the_round():
    """The phase guide: at every state of the scripted round, the step taken is one the guide offers, and the title
    names the round and the phase (and whose turn it is)."""
    table = Table(setup(board()))
    for kind, faces, params in SCRIPT:
        state = table.state
        assert kind in [due.action for due in due_now(state)], (kind, state.phase)
        assert phase_title(state).startswith(f"Round {state.round} of 4: ")
        table.do(kind, *faces, **params)
    assert phase_title(table.state) == "Round 2 of 4: draw phase"
