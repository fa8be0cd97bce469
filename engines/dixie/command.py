"""Leaders' command: morale support (DX-11.1b), the artillery leader's +1 CV (A15), and corps command
(DX-13.7): a leader supports only units of its corps; army commanders ("A": Meade, Lee, or a designated
3-star corps commander or "w" wing commander) support everyone; with Meade present a wing commander
commands the 3 corps printed on it; cavalry leaders command only cavalry and horse artillery; artillery
leaders only artillery, of any corps. Option: divisional command (division leaders their own division).
Without 13.7 a leader supports every friendly unit in its position (A15, artillery leaders included)."""
from __future__ import annotations

from companion.engine import RuleError

from .board import DECK, ELIMINATED, REINFORCEMENTS
from .rules import ART, CAV, LDR, USA
from .state import ATTACKING, Card, GameState


def in_play(card: Card) -> bool:
    """A card that has appeared and is not eliminated (DX-13.7)."""
    return card.loc not in (DECK, REINFORCEMENTS, ELIMINATED)


def leaders(state: GameState, side: str, rank: str) -> list[Card]:
    return [c for c in state.cards if c.side == side and c.spec.type == LDR and c.spec.rank == rank and in_play(c)]


def is_army_commander(state: GameState, leader: Card) -> bool:
    return leader.spec.rank == "army" or state.army_commander.get(leader.side) == leader.id


def commands(state: GameState, leader: Card, unit: Card) -> bool:
    """Does the leader's morale support reach this unit? (DX-11.1b; DX-13.7 when on)"""
    spec, u = leader.spec, unit.spec
    if not state.options["corps_command"]:
        return True
    if spec.rank == "artillery":
        return u.type == ART
    if spec.rank == "cavalry":
        return u.type == CAV or (u.type == ART and u.horse)
    if is_army_commander(state, leader):
        return True
    if spec.rank == "wing":
        return u.corps in spec.wing_corps
    if spec.rank == "division" and state.options["divisional_command"]:
        return u.corps == spec.corps and u.division == spec.division
    return u.corps == spec.corps


def commander(state: GameState, unit: Card) -> Card | None:
    """The leader in the unit's position whose command reaches it."""
    leader = state.leader(unit.loc, unit.side)
    return leader if leader and commands(state, leader, unit) else None


def support(leader: Card, stance: str) -> int:
    """DX-11.1b: an X/Y leader adds X to units attacking, Y to units defending."""
    return leader.spec.attack if stance == ATTACKING else leader.spec.defense


def artillery_bonus(state: GameState, card: Card) -> int:
    """A15 / DX-13.7: an artillery leader gives each artillery card it commands +1 CV when it fires."""
    leader = state.leader(card.loc, card.side)
    return int(card.spec.type == ART and leader is not None and leader.spec.rank == "artillery")


def check_designation(state: GameState, leader: Card) -> None:
    """DX-13.7 / A16: who may become army commander."""
    side, spec = leader.side, leader.spec
    if not state.options["corps_command"]:
        raise RuleError("DX-13.7", "Army commanders are designated only with corps command (13.7)")
    if spec.type != LDR or not in_play(leader):
        raise RuleError("DX-13.7", f"{spec.label} is not a leader in play")
    if leaders(state, side, "army"):
        raise RuleError("DX-13.7", f"The {side} army commander is in play: no designation")
    if spec.rank not in ("corps", "wing"):
        raise RuleError("DX-13.7", f"Only a 3-star corps commander (or a USA wing commander) may be designated, "
                                   f"not a {spec.rank} leader")
    current = state.army_commander.get(side)
    wings = leaders(state, side, "wing")
    if current and state.card(current).loc != ELIMINATED:
        overriding = (state.options["wing_claim_overrides"] and spec.rank == "wing"
                      and state.card(current).spec.rank != "wing")
        if not overriding:
            raise RuleError("DX-13.7", f"{state.card(current).spec.label} is army commander: the designation "
                                       "cannot be revoked")
    if side == USA and wings and spec.rank != "wing":
        raise RuleError("DX-13.7", "With Meade absent, one of the wing commanders present must be designated")


def designation_due(state: GameState, side: str) -> bool:
    """DX-13.7: the USA must designate a wing commander when Meade is absent and one is present."""
    if not state.options["corps_command"] or side != USA or leaders(state, side, "army"):
        return False
    current = state.army_commander.get(side)
    alive = current and state.card(current).loc != ELIMINATED
    wings = leaders(state, side, "wing")
    return bool(wings) and not (alive and state.card(current).spec.rank == "wing")
