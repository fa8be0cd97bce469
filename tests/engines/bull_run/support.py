"""Shared set-up for the Bull Run tests: test rosters and a scripted table driven through the event log."""
from __future__ import annotations

from typing import Any

from companion.engine import Step, dice_needed
from engines.bull_run import ENGINE
from engines.bull_run.actions import due_checks
from engines.bull_run.guide import CHECK_ACTIONS
from engines.bull_run.state import COMBAT, MOVEMENT, Unit
from tests.engines.table import ReplayedTable


def row(name: str, side: str, entry_hex: str, entry_turn: int, max_sp: int, grey: bool = False) -> dict:
    """One play-sheet row (BR-2.4)."""
    return {"name": name, "side": side, "entry_hex": entry_hex, "entry_turn": entry_turn, "max_sp": max_sp,
            "grey": grey}


# A made-up roster for tests: several stacks a side, a grey unit, a 1-SP unit and a turn-2 arrival.
ROSTER = (
    row("Union 1", "UNION", "A", 1, 4),
    row("Union 2", "UNION", "A", 1, 3),
    row("Union 3", "UNION", "B", 1, 6),
    row("Union 4", "UNION", "B", 1, 1),
    row("Union 5", "UNION", "C", 2, 5),
    row("Evans' Brigade", "CSA", "1", 1, 3),
    row("CSA 2", "CSA", "2", 1, 4, grey=True),
    row("CSA 3", "CSA", "3", 1, 5),
    row("CSA 4", "CSA", "4", 1, 7),
    row("CSA 5", "CSA", "5", 2, 6),
)

# Faces that make each start-of-phase check fail (BR-8.4a, BR-8.4b) or give order A (BR-9.0 None column).
QUIET = {"farm_ford": 1, "awareness": 1, "csa_action": 1}


class Table(ReplayedTable):
    """A game session replayed from its event log, with the dice of every action scripted."""

    engine = ENGINE

    def __init__(self, roster=ROSTER, **options: Any):
        super().__init__({"roster": [dict(r) for r in roster]}, **options)

    def unit(self, name: str) -> Unit:
        return self.state.unit(name)

    def sp(self, *names: str) -> tuple[int, ...]:
        return tuple(self.unit(n).sp for n in names)

    def start_turn(self, initiative: int) -> None:
        """BR-6.0 and BR-7.0: roll the initiative (1-3 Union, 4-6 CSA) and place the reinforcements."""
        self.do("roll_initiative", initiative)
        self.do("place_reinforcements")

    def checks(self, faces: dict[str, int]) -> None:
        """The rolls owed at the start of this movement half, each with its scripted face (QUIET unless given)."""
        faces = {**QUIET, **faces}
        for check in due_checks(self.state):
            kind = CHECK_ACTIONS[check]
            rolls = dice_needed(ENGINE, self.state, {"type": kind})
            self.do(kind, *[faces[check]] * len(rolls))

    def through_movement(self, **faces: int) -> None:
        """Both movement halves with no moves: only the owed rolls (QUIET faces unless given)."""
        faces = {**QUIET, **faces}
        while self.state.phase == MOVEMENT:
            self.checks(faces)
            self.do("end_movement")

    def to_combat(self, initiative: int, **faces: int) -> None:
        self.start_turn(initiative)
        self.through_movement(**faces)

    def declare(self, attackers, defenders, *faces: int, **ground) -> int:
        """BR-10.1: declare one attack (the faces are McDowell's hesitation, if it rolls); its index."""
        self.do("declare_attack", *faces, attackers=list(attackers), defenders=list(defenders), **ground)
        return len(self.state.attacks) - 1

    def attack(self, attackers, defenders, *faces: int, **ground) -> Step:
        """Declare one attack and resolve it at once: `faces` are the attacker's and the defender's fire."""
        return self.do("fire", *faces, attack=self.declare(attackers, defenders, **ground))

    def finish_turn(self, **holds: bool) -> Step:
        while self.state.phase == COMBAT:
            self.do("end_combat")
        return self.do("end_turn", **holds)

    def quiet_turn(self, initiative: int = 1) -> Step:
        self.to_combat(initiative)
        return self.finish_turn()
