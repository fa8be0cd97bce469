"""BS-ACT the action phase: the sides alternate single actions (move, entrench, retreat, pass, or a card
that costs an action) until each has used its commander card's actions; then the combat phase."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step

from .battle import open_next
from .registry import actions, require_phase, use_card, yes
from .retreat import resolve_retreat
from .rules import SIDE_NAME
from .state import ACTION, GameState, Retreat, check_place, other
from .succession import advance_commander, move_damage, remove_units


def _actor(state: GameState) -> str:
    require_phase(state, ACTION)
    if state.retreat is not None:
        raise RuleError("BS-RET", "The failed retreat waits for its owner's choice")
    return state.turn


def _spent(state: GameState, side: str) -> GameState:
    """BS-ACT / BS-D.7: one action used; the turn passes; when one side is out, the other goes on alone;
    when both are out, the combat phase."""
    left = {**state.actions_left, side: state.actions_left[side] - 1}
    state = replace(state, actions_left=left)
    if left[other(side)]:
        return replace(state, turn=other(side))
    if left[side]:
        return replace(state, turn=side)
    return open_next(replace(state, turn=""))


def _unit_at(state: GameState, area: str, side: str, commander: bool) -> None:
    if state.count(area, side) < 1:
        raise RuleError("BS-D.4", f"{SIDE_NAME[side]} has no unit in {area}")
    if commander and state.commander_at[side] != area:
        raise RuleError("BS-D.4", f"The {SIDE_NAME[side]} commander unit is not in {area}")
    if not commander and state.commander_at[side] == area and state.count(area, side) < 2:
        raise RuleError("BS-D.4", f"The only {SIDE_NAME[side]} unit in {area} is its commander unit")


def _leave(state: GameState, source: str, side: str, entrenched: bool) -> GameState:
    """A unit leaves: the entrenched one takes its entrenchment with it (A10), unless the option keeps it
    with the state; the last unit always does. Only the owner of the state can be entrenched there (BS-D.5)."""
    owner = state.board.area(source).side == side
    if owner and source in state.entrenched and (state.count(source, side) == 0 or
                                                 (entrenched and not state.options["entrench_moves"])):
        return replace(state, entrenched=tuple(a for a in state.entrenched if a != source))
    return state


def _relocate(state: GameState, side: str, source: str, target: str, commander: bool, entrenched: bool) -> GameState:
    state = state.with_count(source, side, -1).with_count(target, side, 1)
    if commander:
        state = replace(state, commander_at={**state.commander_at, side: target})
    return _leave(state, source, side, entrenched)


@actions
def move(state: GameState, dice: Dice, source: str, target: str, commander: bool = False,
         entrenched: bool = False) -> Step:
    """BS-D.4: one own unit not in combat to an adjacent state, within the placement limits (BS-D.1);
    entering a state the enemy holds starts a combat there."""
    side = _actor(state)
    commander, entrenched = yes(commander), yes(entrenched)
    _unit_at(state, source, side, commander)
    if state.in_combat(source):
        raise RuleError("BS-D.4", f"Units in combat in {source} may only retreat (BS-D.6)")
    if not state.board.adjacent(source, target):
        raise RuleError("BS-D.4", f"{source} and {target} are not adjacent")
    check_place(state, target, side, "BS-D.4")
    new = _relocate(state, side, source, target, commander, entrenched)
    fight = "; combat there" if new.in_combat(target) and not state.in_combat(target) else ""
    return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} moves a "
                                   f"{'commander ' if commander else ''}unit {source} -> {target}{fight}",
                ("BS-D.4", "BS-ACT"))


@actions
def entrench(state: GameState, dice: Dice, area: str) -> Step:
    """BS-D.5: stand one own unit upright in an own-side border state; it lasts the round. The action is taken
    once per state per round, even after that unit has gone (A21; with the option, once per entrenched unit)."""
    side = _actor(state)
    _check_entrench(state, side, area)
    new = replace(state, entrenched=state.entrenched + (area,), entrench_used=state.entrench_used + (area,))
    return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} entrenches in {area}", ("BS-D.5", "BS-ACT"))


def _check_entrench(state: GameState, side: str, area: str) -> None:
    """BS-D.5: an own-side border state with a unit of the side, none entrenched there, and (A21) not entrenched
    in this round already."""
    a = state.board.area(area)
    if not a.border or a.side != side:
        raise RuleError("BS-D.5", f"Entrenchment is in a {SIDE_NAME[side]}-side border state; {area} is not one")
    if state.count(area, side) < 1:
        raise RuleError("BS-D.5", f"{SIDE_NAME[side]} has no unit in {area}")
    if area in state.entrenched:
        raise RuleError("BS-D.5", f"A unit in {area} is already entrenched")
    if state.options["entrench_once"] == "round" and area in state.entrench_used:
        raise RuleError("BS-D.5", f"{SIDE_NAME[side]} has already entrenched in {area} this round: once per state a "
                                  "round (A21)")


def entrench_places(state: GameState) -> list[str]:
    """BS-D.5: the border states where the side to act may entrench now."""
    places = []
    for a in state.board.borders:
        try:
            _check_entrench(state, state.turn, a.name)
        except RuleError:
            continue
        places.append(a.name)
    return places


def _retreat_target(state: GameState, side: str, source: str, target: str) -> None:
    """BS-D.6: to an adjacent own home state or own-side border state (which may be in combat), within BS-D.1."""
    if not state.in_combat(source):
        raise RuleError("BS-D.6", f"Only units in combat retreat; {source} is not in combat")
    if not state.board.adjacent(source, target):
        raise RuleError("BS-D.6", f"{source} and {target} are not adjacent")
    if state.board.area(target).side != side:
        raise RuleError("BS-D.6", f"A retreat goes to a {SIDE_NAME[side]} home state or {SIDE_NAME[side]}-side "
                                  f"border state; {target} is neither")
    check_place(state, target, side, "BS-D.6")


@actions
def retreat(state: GameState, dice: Dice, source: str, target: str, commander: bool = False,
            discard: bool = False, entrenched: bool = False) -> Step:
    """BS-D.6 with BS-RET: roll first (3-6 it goes), or discard a card to succeed without rolling."""
    side = _actor(state)
    commander, entrenched = yes(commander), yes(entrenched)
    _unit_at(state, source, side, commander)
    _retreat_target(state, side, source, target)
    if yes(discard):
        state = use_card(state, side)
        new = _relocate(state, side, source, target, commander, entrenched)
        return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} discards a card and retreats "
                                       f"{source} -> {target}", ("BS-D.6", "BS-RET"))
    result = resolve_retreat(None, dice, source)
    if result.outcome:
        new = _relocate(state, side, source, target, commander, entrenched)
        return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]}: {result.summary}: {source} -> {target}",
                    ("BS-D.6",) + result.rules, (result,))
    new = replace(state, retreat=Retreat(side, source, target, commander, entrenched))
    return Step(new, f"Round {state.round}: {SIDE_NAME[side]}: {result.summary}: move the damage marker toward its "
                     "own side and retreat, or remove the unit", ("BS-D.6",) + result.rules, (result,))


@actions
def retreat_failed(state: GameState, dice: Dice, choice: str) -> Step:
    """BS-RET on 1-2: the owner moves the damage marker 1 square toward its own side, then the unit; or
    removes the unit (A9: a commander unit lost this way does not change the commander card)."""
    require_phase(state, ACTION)
    pending = state.retreat
    if pending is None:
        raise RuleError("BS-RET", "No failed retreat is waiting")
    if choice not in ("damage", "remove"):
        raise RuleError("BS-RET", "Choose 'damage' (marker toward your side, then retreat) or 'remove'")
    side = pending.side
    state = replace(state, retreat=None)
    if choice == "damage":
        new = _relocate(move_damage(state, side), side, pending.source, pending.target, pending.commander,
                        pending.entrenched)
        text = f"the damage marker moves toward the {SIDE_NAME[side]} side; the unit retreats to {pending.target}"
    else:
        new = _leave(remove_units(state, pending.source, side, 1, pending.commander), pending.source, side,
                     pending.entrenched)
        if pending.commander and state.options["retreat_relieves"]:
            new = advance_commander(new, side)
        text = f"the unit in {pending.source} is removed"
    return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} after the failed retreat: {text}",
                ("BS-RET", "BS-D.6") if choice == "damage" else ("BS-RET", "BS-D.11"))


@actions
def pass_turn(state: GameState, dice: Dice) -> Step:
    """BS-D.7: a pass uses an action and hands the turn over."""
    side = _actor(state)
    return Step(_spent(state, side), f"Round {state.round}: {SIDE_NAME[side]} passes", ("BS-D.7", "BS-ACT"))


@actions
def play_card(state: GameState, dice: Dice, card: str) -> Step:
    """A card of the action phase (the unit icon); one that costs an action uses one and hands the turn over
    (BS-D.7); its text is resolved by the players."""
    side = _actor(state)
    spec = state.board.card(side, card)
    if spec.phase != "action":
        raise RuleError("BS-CARD", f"{card} is a combat card")
    new = use_card(state, side)
    if spec.effect == "COSTS_ACTION":
        return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} plays {card} (an action)",
                    ("BS-CARD", "BS-D.7"))
    return Step(new, f"Round {state.round}: {SIDE_NAME[side]} plays {card}", ("BS-CARD",))
