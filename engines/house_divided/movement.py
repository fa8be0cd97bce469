"""What may move where now (HD-5.2, HD-5.7, HD-5.9, HD-4.11, HD-5.4): the refusals the actions raise and the
lists a dashboard offers, from one set of checks.

- A march moves units of one box of the phasing side, each with a march left (2 a turn, HD-5.2), to another
  box of the map (the basic game's routes are the players'). Contained Union units first break out (HD-5.4);
  units that landed at a garrisoned port first beat the garrison (HD-4.11). A landing goes to a port, the
  CSA's only after foreign intervention (HD-5.9). Nobody marches to Europe; FI units leave it only by CSA
  sea movement, to a port (HD-5.9).
- A leader makes at most 2 march-moves a turn in all, riding along with units, alone (A23 (a)) or joining a
  battle; none of them costs the player a march (HD-5.7).
- A retreat goes to a box the enemy neither holds nor stands in.
"""
from __future__ import annotations

from typing import Sequence

from companion.engine import RuleError

from .garrison import defends
from .rules import CSA, GARRISON_HITS, LEADER_MARCH_MOVES, SIDE_NAME, UNIT_MARCHES, USA
from .state import ON_MAP, GameState, Leader, Unit, other


def origin_refusal(state: GameState, origin: str) -> RuleError | None:
    """Why units of the phasing side at `origin` may not march away now (None: they may)."""
    if origin in state.contained and state.side == USA and origin not in state.broken_out:
        return RuleError("HD-5.4", f"The Union units at {origin} are contained: win a break-out battle first")
    if origin in garrison_due(state):
        return RuleError("HD-4.11", f"The units that landed at {origin} must first beat the coastal garrison")
    return None


def march_refusal(state: GameState, origin: str, to: str, amphibious: bool = False) -> RuleError | None:
    """Why units of the phasing side at `origin` may not march to `to` now (None: they may)."""
    refusal = origin_refusal(state, origin)
    if refusal:
        return refusal
    if to == origin:
        return RuleError("HD-5.2", f"The units are already at {to}")
    if to == state.europe:
        return RuleError("HD-5.9", "Nobody marches to Europe: FI units are placed there and leave it by sea")
    port = state.game_map.box(to).port
    if origin == state.europe and not port:
        return RuleError("HD-5.9", f"FI units reach America only by CSA sea movement: to a port, not {to}")
    if amphibious and not port:
        return RuleError("HD-4.11", f"A landing is made at a port; {to} is not one")
    if amphibious and state.side == CSA and not state.fi_triggered:
        return RuleError("HD-5.9", "The CSA makes landings only after foreign intervention")
    return None


def march_origins(state: GameState) -> list[str]:
    """The boxes from which units of the phasing side may march now."""
    boxes = sorted({u.box for u in state.on_map(state.side) if u.marches < UNIT_MARCHES})
    return [b for b in boxes if origin_refusal(state, b) is None]


def marchers(state: GameState, origin: str) -> list[str]:
    """The units at `origin` that have a march left (HD-5.2)."""
    return [u.name for u in state.units_in(origin, state.side) if u.marches < UNIT_MARCHES]


def march_destinations(state: GameState, origin: str, amphibious: bool = False) -> list[str]:
    """The boxes units at `origin` may march to now (a landing: the ports)."""
    return [b.id for b in state.game_map.boxes if march_refusal(state, origin, b.id, amphibious) is None]


def garrison_at(state: GameState, box: str) -> int | None:
    """The coastal garrison a landing of the phasing side at `box` meets: its hits so far (0, or what stays on
    the port under A13 "persistent"), or None when there is none (HD-4.11)."""
    if state.side != USA or not state.options["coastal_defence"] or \
            not defends(state.game_map.box(box), state.controller(box)):
        return None
    hits = state.garrison_hits.get(box, 0) if state.options["garrison_persistence"] == "persistent" else 0
    return hits if hits < GARRISON_HITS else None


def garrison_due(state: GameState) -> tuple[str, ...]:
    """The ports where Union units landed this turn and must first beat the coastal garrison (HD-4.11)."""
    return tuple(b for b in state.landings if garrison_at(state, b) is not None)


def leader_refusal(state: GameState, chief: Leader, alone: bool, side: str = "") -> RuleError | None:
    """Why the leader may not make a march-move now for his side (the phasing side unless named), with units
    (alone=False) or alone (None: he may)."""
    side = side or state.side
    if not state.options["leaders"]:
        return RuleError("HD-5.7", "The leader rule is off in this game")
    if alone and state.options["leader_moves"] != "alone":
        return RuleError("HD-A23", "Leaders move only with units in this game (option A23)")
    if chief.side != side or chief.status != ON_MAP:
        return RuleError("HD-5.7", f"{chief.name} is not a {SIDE_NAME[side]} leader on the map")
    if chief.moves >= LEADER_MARCH_MOVES:
        return RuleError("HD-5.7", f"{chief.name} has made his {LEADER_MARCH_MOVES} march-moves this turn, "
                                   "with units or alone")
    return None


def leaders_along(state: GameState, origin: str) -> list[str]:
    """The leaders who may ride along with a march from `origin` (each makes one of his march-moves)."""
    return [l.name for l in state.leaders_in(origin, state.side) if leader_refusal(state, l, alone=False) is None]


def leaders_alone(state: GameState) -> list[str]:
    """The leaders who may move alone now (A23)."""
    return [l.name for l in state.leaders if leader_refusal(state, l, alone=True) is None]


def reinforce_refusal(state: GameState, side: str, chief: Leader, joining: Sequence[Unit]) -> RuleError | None:
    """Why the leader may not join the battle under way on `side`, with these units (None: he may). Joining
    is a march-move, alone (A23) unless units from his box join with him."""
    if chief.side != side or chief.name in state.battle.of(side).leaders:
        return RuleError("HD-5.7", f"{chief.name} cannot join the {SIDE_NAME[side]} side of this battle")
    alone = not any(u.box == chief.box for u in joining)
    return leader_refusal(state, chief, alone, side)


def reinforcing_leaders(state: GameState, side: str) -> list[str]:
    """The leaders who may join the battle under way on `side`, alone or with units from their box."""
    return [l.name for l in state.leaders
            if reinforce_refusal(state, side, l, state.units_in(l.box, side)) is None]


def leader_destinations(state: GameState, chief: Leader) -> list[str]:
    return [b.id for b in state.game_map.boxes if b.id not in (chief.box, state.europe)]


def retreat_refusal(state: GameState, side: str, to: str) -> RuleError | None:
    """Why a side may not retreat from the battle to `to` (None: it may)."""
    if to in (state.battle.box, state.europe):
        return RuleError("HD-3", f"A retreat leaves the box for another one, not {to}")
    enemy = other(side)
    if state.controller(to) == enemy:
        return RuleError("HD-3", f"{to} is held by the {SIDE_NAME[enemy]}: a retreat does not go into an "
                                 "enemy-held box")
    if state.units_in(to, enemy):
        return RuleError("HD-3", f"{SIDE_NAME[enemy]} units stand at {to}: a retreat does not go into them")
    return None


def retreat_boxes(state: GameState, side: str) -> list[str]:
    """The boxes the side may retreat to from the battle under way."""
    return [b.id for b in state.game_map.boxes if retreat_refusal(state, side, b.id) is None]
