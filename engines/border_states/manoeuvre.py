"""BS-ACT the action phase: the sides alternate single actions (move, entrench, retreat, pass, or a card that
costs an action) until each has used its commander card's actions; then the combat phase.

Each action declares what may be chosen now (companion.spec): the states a unit may leave and enter, whether it
is the commander unit or the entrenched one, the states where the side may entrench, the cards it may play."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Barred, Choice, one_of, yes_no

from .battle import open_next
from .registry import actions, card_choices, require_phase, use_card
from .retreat import resolve_retreat
from .rules import SIDE_NAME
from .state import ACTION, GameState, Retreat, other, place_problem
from .succession import advance_commander, move_damage, remove_units


def acting(state: GameState) -> None:
    """The `when` of a single action: the action phase, no failed retreat waiting for its owner's choice."""
    require_phase(state, ACTION)
    if state.retreat is not None:
        raise RuleError("BS-RET", "The failed retreat waits for its owner's choice")


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


# --- where a unit may go --------------------------------------------------------------------------------

def _move_targets(state: GameState, source: str) -> list:
    """BS-D.4: the adjacent states, those a unit of the side may not enter barred by BS-D.1."""
    side = state.turn
    return [Barred(a, a, "BS-D.4", why) if (why := place_problem(state, a, side)) else Choice(a, a)
            for a in state.board.neighbours(source)]


def _retreat_targets(state: GameState, source: str) -> list:
    """BS-D.6: the adjacent own home states and own-side border states (in combat or not), within BS-D.1."""
    side = state.turn
    found = []
    for a in state.board.neighbours(source):
        if state.board.area(a).side != side:
            why = f"A retreat goes to a {SIDE_NAME[side]} home state or {SIDE_NAME[side]}-side border state"
        else:
            why = place_problem(state, a, side)
        found.append(Barred(a, a, "BS-D.6", why) if why else Choice(a, a))
    return found


def _offered(found: list) -> bool:
    return any(not isinstance(f, Barred) for f in found)


def _move_sources(state: GameState, chosen) -> list:
    """BS-D.4: the side's states with a unit not in combat that has somewhere to go."""
    side, found = state.turn, []
    for a in state.board.areas:
        if not state.count(a.name, side):
            continue
        if state.in_combat(a.name):
            found.append(Barred(a.name, a.name, "BS-D.4", f"Units in combat in {a.name} may only retreat (BS-D.6)"))
        elif not _offered(_move_targets(state, a.name)):
            found.append(Barred(a.name, a.name, "BS-D.4", f"No state next to {a.name} can take another "
                                                          f"{SIDE_NAME[side]} unit (BS-D.1)"))
        else:
            found.append(Choice(a.name, a.name))
    return found


def _retreat_sources(state: GameState, chosen) -> list:
    """BS-D.6: the side's border states in combat whose units have somewhere to retreat to."""
    side, found = state.turn, []
    for a in state.board.borders:
        if not (state.count(a.name, side) and state.in_combat(a.name)):
            continue
        if _offered(_retreat_targets(state, a.name)):
            found.append(Choice(a.name, a.name))
        else:
            found.append(Barred(a.name, a.name, "BS-D.6", f"No {SIDE_NAME[side]} state next to {a.name} can take "
                                                          "another unit (BS-D.1)"))
    return found


def _unit_commander(state: GameState, chosen) -> tuple:
    """BS-D.4: the commander unit goes only from where it stands; it must go when it is the side's only unit there."""
    side, source = state.turn, chosen["source"]
    if state.commander_at[side] != source:
        return False, Barred(True, "yes", "BS-D.4", f"The {SIDE_NAME[side]} commander unit is not in {source}")
    if state.count(source, side) == 1:
        return Barred(False, "no", "BS-D.4", f"The only {SIDE_NAME[side]} unit in {source} is its commander "
                                             "unit"), True
    return False, True


def _unit_entrenched(state: GameState, chosen):
    """BS-D.5 (A10): asked when the side has its entrenched unit in the state the unit leaves."""
    source = chosen["source"]
    if source in state.entrenched and state.board.area(source).side == state.turn:
        return False, True
    return NOT_ASKED


COMMANDER = "The unit is the commander unit"
ENTRENCHED = "The unit is the entrenched one"


@actions("Move a unit", "BS-D.4",
         one_of("source", "From", "BS-D.4", _move_sources),
         one_of("target", "To (adjacent)", "BS-D.4", lambda s, c: _move_targets(s, c["source"])),
         yes_no("commander", COMMANDER, "BS-D.4", _unit_commander, default=False),
         yes_no("entrenched", ENTRENCHED, "BS-D.5", _unit_entrenched, default=False),
         when=acting)
def move(state: GameState, dice: Dice, source: str, target: str, commander: bool, entrenched: bool) -> Step:
    """BS-D.4: one own unit not in combat to an adjacent state, within the placement limits (BS-D.1);
    entering a state the enemy holds starts a combat there."""
    side = state.turn
    new = _relocate(state, side, source, target, commander, entrenched)
    fight = "; combat there" if new.in_combat(target) and not state.in_combat(target) else ""
    return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} moves a "
                                   f"{'commander ' if commander else ''}unit {source} -> {target}{fight}",
                ("BS-D.4", "BS-ACT"))


def entrench_problem(state: GameState, area: str) -> str:
    """BS-D.5: why the side to act may not entrench in its own-side border state `area` ("" when it may): a unit
    of the side there, none entrenched there, and (A21) not entrenched there in this round already."""
    side = state.turn
    if state.count(area, side) < 1:
        return f"{SIDE_NAME[side]} has no unit in {area}"
    if area in state.entrenched:
        return f"A unit in {area} is already entrenched"
    if state.options["entrench_once"] == "round" and area in state.entrench_used:
        return f"{SIDE_NAME[side]} has already entrenched in {area} this round: once per state a round"
    return ""


def _entrench_places(state: GameState, chosen) -> list:
    """BS-D.5: the side's own-side border states; where it may not entrench now, barred with the reason."""
    return [Barred(a.name, a.name, "BS-D.5", why) if (why := entrench_problem(state, a.name)) else Choice(a.name, a.name)
            for a in state.board.borders if a.side == state.turn]


@actions("Entrench", "BS-D.5", one_of("area", "Own-side border state", "BS-D.5", _entrench_places), when=acting)
def entrench(state: GameState, dice: Dice, area: str) -> Step:
    """BS-D.5: stand one own unit upright in an own-side border state; it lasts the round. The action is taken
    once per state per round, even after that unit has gone (A21; with the option, once per entrenched unit)."""
    side = state.turn
    new = replace(state, entrenched=state.entrenched + (area,), entrench_used=state.entrench_used + (area,))
    return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} entrenches in {area}", ("BS-D.5", "BS-ACT"))


def _discard_choices(state: GameState, chosen) -> tuple:
    """BS-RET: a card may be discarded to succeed without a roll, when the side has one in hand (BS-D.9)."""
    if state.hand[state.turn] >= 1:
        return False, True
    return False, Barred(True, "yes", "BS-D.9", f"{SIDE_NAME[state.turn]} has no card in hand")


def _retreat_open(state: GameState) -> None:
    acting(state)
    if not any(state.count(a.name, state.turn) and state.in_combat(a.name) for a in state.board.borders):
        raise RuleError("BS-D.6", f"Only units in combat retreat; no {SIDE_NAME[state.turn]} unit is in combat")


@actions("Retreat a unit", "BS-D.6",
         one_of("source", "From (a state in combat)", "BS-D.6", _retreat_sources),
         one_of("target", "To (an adjacent own state)", "BS-D.6", lambda s, c: _retreat_targets(s, c["source"])),
         yes_no("commander", COMMANDER, "BS-D.4", _unit_commander, default=False),
         yes_no("discard", "Discard a card: it succeeds without a roll", "BS-RET", _discard_choices, default=False),
         yes_no("entrenched", ENTRENCHED, "BS-D.5", _unit_entrenched, default=False),
         when=_retreat_open)
def retreat(state: GameState, dice: Dice, source: str, target: str, commander: bool, discard: bool,
            entrenched: bool) -> Step:
    """BS-D.6 with BS-RET: roll first (3-6 it goes), or discard a card to succeed without rolling."""
    side = state.turn
    if discard:
        new = _relocate(use_card(state, side), side, source, target, commander, entrenched)
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


def _failed_retreat_waits(state: GameState) -> None:
    require_phase(state, ACTION)
    if state.retreat is None:
        raise RuleError("BS-RET", "No failed retreat is waiting")


AFTER_FAILED_RETREAT = (Choice("damage", "Damage marker toward us, then retreat"), Choice("remove", "Remove the unit"))


@actions("After the failed retreat", "BS-RET",
         one_of("choice", "After the failed roll", "BS-RET", lambda s, c: AFTER_FAILED_RETREAT),
         when=_failed_retreat_waits)
def retreat_failed(state: GameState, dice: Dice, choice: str) -> Step:
    """BS-RET on 1-2: the owner moves the damage marker 1 square toward its own side, then the unit; or
    removes the unit (A9: a commander unit lost this way does not change the commander card)."""
    pending = state.retreat
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


@actions("Pass", "BS-D.7", when=acting)
def pass_turn(state: GameState, dice: Dice) -> Step:
    """BS-D.7: a pass uses an action and hands the turn over."""
    side = state.turn
    return Step(_spent(state, side), f"Round {state.round}: {SIDE_NAME[side]} passes", ("BS-D.7", "BS-ACT"))


def _action_cards(state: GameState, chosen) -> list:
    """BS-CARD: the cards of the action phase (the unit icon)."""
    return card_choices(state, state.turn, lambda card: "" if card.phase == "action" else f"{card.name} is a combat card")


@actions("Play an action card", "BS-CARD", one_of("card", "Action card", "BS-CARD", _action_cards), when=acting)
def play_card(state: GameState, dice: Dice, card: str) -> Step:
    """A card of the action phase (the unit icon); one that costs an action uses one and hands the turn over
    (BS-D.7); its text is resolved by the players."""
    side = state.turn
    new = use_card(state, side)
    if state.board.card(side, card).effect == "COSTS_ACTION":
        return Step(_spent(new, side), f"Round {state.round}: {SIDE_NAME[side]} plays {card} (an action)",
                    ("BS-CARD", "BS-D.7"))
    return Step(new, f"Round {state.round}: {SIDE_NAME[side]} plays {card}", ("BS-CARD",))
