"""BR-8 movement: terrain costs (BR-8.1), stacking and ZOC (BR-8.2), Beauregard's confusion (BR-8.3),
and the flank rules that bar moves (BR-8.4c, BR-8.4d).

The map is not modelled: the player tells the terrain of each hex entered, whether the move
crosses Bull Run and where, and the other yes/no facts; the companion sums the MP and enforces
the rules those facts touch.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.engine import RuleError

from .rules import MOVEMENT_ALLOWANCE, NORTH, SOUTH, STACK_LIMIT

CROSSINGS = {"": "no crossing", "sudley": "Sudley Ford", "farm": "Farm Ford", "ford": "another ford",
             "bridge": "a bridge (Stone Bridge)"}
WESTERN_FORDS = ("sudley", "farm")


def path_cost(path: Sequence[str], costs: Mapping[str, Any]) -> int:
    """BR-8.1: MP spent entering each hex of the path; a hex whose cost exceeds the MP left cannot be
    entered, and a prohibited terrain (creek) never."""
    left = MOVEMENT_ALLOWANCE
    for i, terrain in enumerate(path, start=1):
        if terrain not in costs:
            raise RuleError("BR-8.1", f"Hex {i}: '{terrain}' is not a terrain of the table ({', '.join(costs)})")
        cost = costs[terrain]
        if cost is None:
            raise RuleError("BR-8.1", f"Hex {i}: {terrain} may not be entered")
        if cost > left:
            raise RuleError("BR-8.1", f"Hex {i}: {terrain} costs {cost} MP but only {left} of "
                                      f"{MOVEMENT_ALLOWANCE} are left")
        left -= cost
    return MOVEMENT_ALLOWANCE - left


def check_move_facts(*, into_enemy_hex: bool, through_enemy_zoc: bool, friendly_in_destination: int) -> None:
    """BR-8.2: no entering enemy hexes, the move ends on entering an enemy ZOC, at most 2 units a hex."""
    if into_enemy_hex:
        raise RuleError("BR-8.2", "A unit may not enter or pass through a hex with enemy units")
    if through_enemy_zoc:
        raise RuleError("BR-8.2", "Entering an enemy zone of control ends the move; it cannot go on")
    if isinstance(friendly_in_destination, bool) or not isinstance(friendly_in_destination, int) \
            or friendly_in_destination < 0:
        raise RuleError("BR-8.2", "The count of friendly units already in the hex is a whole number")
    if friendly_in_destination + 1 > STACK_LIMIT:
        raise RuleError("BR-8.2", f"At most {STACK_LIMIT} units may stack in a hex; "
                                  f"{friendly_in_destination} are already there")


def crossed_bank(bank: str, crossing: str) -> str:
    if not isinstance(crossing, str) or crossing not in CROSSINGS:
        raise RuleError("BR-8.1", f"Unknown crossing '{crossing}': one of {', '.join(c for c in CROSSINGS if c)}")
    if not crossing:
        return bank
    return NORTH if bank == SOUTH else SOUTH
