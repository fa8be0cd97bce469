"""BS-CMB the combat phase: every border state in combat once, in the order of its number, step by step
as the players do it at the table. The companion takes each throw (rolled by it or entered) and each
keep; the advice module says what each keep is worth."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.quoting import quote

from .board import Card
from .registry import actions, require_phase, use_card
from .rules import (C, DICE_IN_BOX, ENTRENCH_BONUS, FACE_EFFECTS, FACE_MAX, FACE_MIN, SIDE_NAME, SIDES, SUPPLY_PER_UNIT,
                    U)
from .state import COMBAT, VICTORY, Battle, GameState, other
from .succession import advance_commander, move_damage, remove_units
from .throw import ThrowInput, resolve_throw
from .tray import Keep, Tray, counts, losses, outcome


def open_next(state: GameState) -> GameState:
    """The next border state in combat, by its number; with none left, the victory check (BS-CMB.1-2)."""
    due = state.battles_due()
    if not due:
        return replace(state, phase=VICTORY, battle=None)
    area = state.board.area(due[0])
    defender = area.side                      # CMB.1: the side whose own-side border state it is defends
    attacker = other(defender)
    base = {attacker: state.count(area.name, attacker),
            defender: state.count(area.name, defender) + (ENTRENCH_BONUS if area.name in state.entrenched else 0)}
    return replace(state, phase=COMBAT, battle=Battle(area.name, attacker, defender, turn=attacker, dice=base))


def _battle(state: GameState, stage: str) -> Battle:
    require_phase(state, COMBAT)
    battle = state.battle
    if battle is None or battle.stage != stage:
        raise RuleError("BS-CMB", f"The combat in {battle.area if battle else '-'} is at its "
                                  f"'{battle.stage if battle else 'none'}' step")
    return battle


def _next_turn(battle: Battle, stage_after: str) -> Battle:
    """The attacker acts first, then the defender; then the next step starts with the attacker."""
    if battle.turn == battle.attacker:
        return replace(battle, turn=battle.defender)
    return replace(battle, stage=stage_after, turn=battle.attacker)


def stock_note(state: GameState) -> str:
    """A17 option: a warning when both supplies and the combat dice on the table pass the 50 dice in the box."""
    battle = state.battle
    if not state.options["count_stock"] or battle is None:
        return ""
    if battle.trays:
        combat = sum(t.left + sum(t.confirmed) + t.damage for t in battle.trays.values())
    else:
        combat = sum(battle.dice.values()) + sum(battle.supply.values())
    in_play = state.supply[C] + state.supply[U] + combat
    return f"; {in_play} dice in play, more than the {DICE_IN_BOX} in the box (A17)" if in_play > DICE_IN_BOX else ""


@actions
def start_effects(state: GameState, dice: Dice, extra_dice: int = 0, card: str = "") -> Step:
    """CMB.3: the attacker, then the defender, may add dice by its commander card's ability and/or one card."""
    battle = _battle(state, "start")
    side = battle.turn
    if isinstance(extra_dice, bool) or not isinstance(extra_dice, int) or extra_dice < 0:
        raise RuleError("BS-CMB", "Extra dice from the commander's ability are a whole number, 0 or more")
    added, said = extra_dice, []
    if extra_dice:
        said.append(f"+{extra_dice} by {state.commander_name(side)}'s ability")
    if card != "":
        spec = state.board.card(side, card)
        if spec.phase != "combat" or spec.effect in FACE_EFFECTS + ("COSTS_ACTION",):
            raise RuleError("BS-CARD", f"{card} is not played at the start of a combat")
        state = use_card(state, side, battle)
        battle = replace(battle, cards=battle.cards + (side,))
        added += spec.value if spec.effect == "ADD_STOCK_DICE" else 0
        said.append(f"card {card}" + (f" (+{spec.value})" if spec.effect == "ADD_STOCK_DICE" else ""))
    battle = replace(battle, dice={**battle.dice, side: battle.dice[side] + added})
    battle = _next_turn(battle, "supply")
    text = ", ".join(said) or "nothing"
    new = replace(state, battle=battle)
    return Step(new, f"Combat in {battle.area}: {SIDE_NAME[side]} at the start: {text}; {battle.dice[side]} dice"
                     f"{stock_note(new)}", ("BS-CMB", "BS-CARD") if card != "" else ("BS-CMB",))


def supply_limit(state: GameState, side: str) -> int:
    """CMB.4: up to 2 supply dice per own unit in the state, and no more than the side has."""
    return min(SUPPLY_PER_UNIT * state.count(state.battle.area, side), state.supply[side])


@actions
def commit_supply(state: GameState, dice: Dice, count: int = 0) -> Step:
    """CMB.4: the attacker, then the defender, adds supply dice (public); they are spent."""
    battle = _battle(state, "supply")
    side = battle.turn
    limit = supply_limit(state, side)
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= limit:
        raise RuleError("BS-CMB", f"{SIDE_NAME[side]} may add 0 to {limit} supply dice here")
    battle = replace(battle, supply={**battle.supply, side: count})
    battle = _next_turn(battle, "roll")
    if battle.stage == "roll":
        battle = replace(battle, trays={s: Tray(battle.dice[s] + battle.supply[s]) for s in SIDES})
    new = replace(state, battle=battle, supply={**state.supply, side: state.supply[side] - count})
    return Step(new, f"Combat in {battle.area}: {SIDE_NAME[side]} adds {count} supply "
                     f"{'die' if count == 1 else 'dice'}{stock_note(new)}", ("BS-CMB", "BS-D.8"))


def _roller(state: GameState) -> tuple[Battle, str, Tray]:
    battle = _battle(state, "roll")
    side = battle.turn
    return battle, side, battle.trays[side]


@actions
def throw(state: GameState, dice: Dice) -> Step:
    """CMB.5-6: the side rolling throws every die it has left (the attacker to the end, then the defender)."""
    battle, side, tray = _roller(state)
    if battle.throw:
        raise RuleError("BS-CMB", "Take at least one die of this throw first")
    result = resolve_throw(ThrowInput(tray.left), dice, SIDE_NAME[side])
    return Step(replace(state, battle=replace(battle, throw=result.outcome)),
                f"Combat in {battle.area}: {result.summary}", result.rules, (result,))


@actions
def roll_card(state: GameState, dice: Dice, card: str, face: int = 0, change: int = 0) -> Step:
    """A card during a throw (BS-CARD, BS-MOD): ADD_FACE puts a die showing its face into the throw (it
    stays an ordinary die, A6); MODIFY changes one of the thrown dice (`face`) by exactly the signed value
    printed, and MODIFY_EITHER by +k or -k as the player chooses (`change`); the face is clamped to 1-6."""
    battle, side, tray = _roller(state)
    if not battle.throw:
        raise RuleError("BS-CARD", "A card of this kind is played after a throw, before the keep")
    spec = state.board.card(side, card)
    if spec.effect not in FACE_EFFECTS or spec.phase != "combat":
        raise RuleError("BS-CARD", f"{card} does not change a throw" if spec.phase == "combat" else
                        f"{card} is an action-phase card")
    state = use_card(state, side, battle)
    throw_ = list(battle.throw)
    if spec.effect == "ADD_FACE":
        throw_[spec.value - 1] += 1
        tray = replace(tray, left=tray.left + 1)
        said = f"adds a die showing {spec.value}"
    else:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6 or not throw_[face - 1]:
            raise RuleError("BS-MOD", f"The throw shows no {quote(face)} to change")
        step = _modification(spec, change)
        new_face = max(FACE_MIN, min(FACE_MAX, face + step))
        throw_[face - 1] -= 1
        throw_[new_face - 1] += 1
        said = f"changes a {face} to {new_face}" + (" (clamped)" if new_face != face + step else "")
    battle = replace(battle, throw=tuple(throw_), trays={**battle.trays, side: tray}, cards=battle.cards + (side,))
    new = replace(state, battle=battle)
    return Step(new, f"Combat in {battle.area}: {SIDE_NAME[side]} plays {card}: {said}{stock_note(new)}",
                ("BS-CARD", "BS-MOD"))


def _modification(card: Card, change) -> int:
    """BS-MOD (digest section 10): what a face modifier adds. A MODIFY card applies exactly its printed signed
    value (`change` left out, or the same value); a MODIFY_EITHER card takes the sign the player chooses."""
    whole = type(change) is int
    if card.effect == "MODIFY":
        if whole and change in (0, card.value):
            return card.value
        raise RuleError("BS-MOD", f"{card.name} changes a face by exactly {card.value:+d}, as printed; "
                                  f"'change' cannot be {quote(change)}")
    if whole and change in (card.value, -card.value):
        return change
    raise RuleError("BS-MOD", f"{card.name} changes a face by +{card.value} or -{card.value}: choose the sign "
                              f"('change'), not {quote(change)}")


@actions
def keep(state: GameState, dice: Dice, confirm: list | tuple | None = None, damage: int = 0) -> Step:
    """CMB ROLL step 3: take at least one die of the throw; a 6 may go to the damage row. Without a
    choice, every die of the throw is confirmed (the roll ends)."""
    battle, side, tray = _roller(state)
    if not battle.throw:
        raise RuleError("BS-CMB", "Throw first")
    if confirm is None:
        confirm = [f + 1 for f in range(6) for _ in range(battle.throw[f])]
    if not isinstance(confirm, (list, tuple)) or not all(isinstance(f, int) and not isinstance(f, bool)
                                                         for f in confirm):
        raise RuleError("BS-CMB", "The dice confirmed are faces 1 to 6")
    if isinstance(damage, bool) or not isinstance(damage, int):
        raise RuleError("BS-CMB", "The damage dice are a count of 6s")
    choice = Keep(counts(confirm), damage)
    tray = tray.take(battle.throw, choice)
    battle = replace(battle, throw=(), trays={**battle.trays, side: tray})
    text = f"Combat in {battle.area}: {SIDE_NAME[side]} takes {choice.text()}; {tray.left} left"
    if not tray.done:
        return Step(replace(state, battle=battle), text, ("BS-CMB",))
    result = tray.result()
    battle = replace(battle, results={**battle.results, side: result})
    text += f"; strength {result.s}" + (f" in {result.f}s" if result.s else "") + f", {result.d} damage"
    if side == battle.attacker:
        return Step(replace(state, battle=replace(battle, turn=battle.defender)), text, ("BS-CMB",))
    return _decide(state, battle, text)


def _decide(state: GameState, battle: Battle, text: str) -> Step:
    """CMB.7-8: the result; the loser removes 1 unit, or 2 on a win by twice the strength (A1)."""
    a, d = battle.results[battle.attacker], battle.results[battle.defender]
    won = outcome(a, d)
    if won == "draw":
        battle = replace(battle, winner="draw")
        new = _after_losses(replace(state, battle=battle))
        return Step(new, f"{text}; a draw{_consequences(state, new)}", ("BS-CMB",))
    winner = battle.attacker if won == "attacker" else battle.defender
    loser = other(winner)
    n = losses(battle.results[winner], battle.results[loser], state.options["double_loss"])
    n = min(n, state.count(battle.area, loser))
    battle = replace(battle, winner=winner, removals=n, stage="losses", turn=loser)
    text += f"; {SIDE_NAME[winner]} wins, {SIDE_NAME[loser]} removes {n} unit{'s' if n > 1 else ''}"
    if state.commander_at[loser] == battle.area and state.count(battle.area, loser) > n:
        return Step(replace(state, battle=battle), text + " (it chooses whether its commander unit is one)",
                    ("BS-CMB",))
    return _remove(replace(state, battle=battle), state.commander_at[loser] == battle.area, text)


@actions
def remove_losses(state: GameState, dice: Dice, commander: bool = False) -> Step:
    """CMB.8: the loser chooses which of its units go; here, whether its commander unit is one of them."""
    battle = _battle(state, "losses")
    if not isinstance(commander, bool):
        raise RuleError("BS-CMB", "'commander' is yes or no")
    return _remove(state, commander, f"Combat in {battle.area}: {SIDE_NAME[battle.turn]} removes "
                                     f"{battle.removals} unit{'s' if battle.removals > 1 else ''}"
                                     + (" with its commander unit" if commander else ""))


def _remove(state: GameState, commander: bool, text: str) -> Step:
    battle = state.battle
    loser = other(battle.winner)
    new = remove_units(state, battle.area, loser, battle.removals, commander)
    if commander:
        new = advance_commander(new, loser)
    new = _after_losses(new)
    return Step(new, f"{text}{_consequences(state, new)}", ("BS-CMB", "BS-D.10", "BS-D.11") if commander
                else ("BS-CMB", "BS-D.11"))


def _after_losses(state: GameState) -> GameState:
    """CMB.9-11: the damage marker moves toward the side with fewer damage dice (A3: equal, no move; A4:
    also after a draw); a Union loss raises the president's distrust; then the end of the combat."""
    battle = state.battle
    dc, du = battle.results[C].d, battle.results[U].d
    if battle.winner != "draw" or state.options["damage_on_draw"]:
        if dc != du:
            state = move_damage(state, C if dc < du else U)
    if battle.winner == C:
        state = raise_distrust(state)
    return replace(state, battle=replace(state.battle, stage="end", turn=battle.attacker))


def raise_distrust(state: GameState) -> GameState:
    """CMB.10: distrust +1 when the Union loses; landing on or passing START makes its commander advance."""
    length = state.board.distrust_length
    position = (state.distrust + 1) % length
    state = replace(state, distrust=position)
    if position == 0:
        state = advance_commander(state, U)
    return state


def _consequences(before: GameState, after: GameState) -> str:
    parts = []
    if after.damage != before.damage:
        toward = U if after.damage > before.damage else C
        parts.append(f"the damage marker moves toward the {SIDE_NAME[toward]} side")
    if after.distrust != before.distrust:
        parts.append(f"distrust {after.distrust}")
    for side in SIDES:
        if after.commander[side] != before.commander[side]:
            parts.append(f"{SIDE_NAME[side]} commander now {after.commander_name(side)}")
    return "; " + "; ".join(parts) if parts else ""


@actions
def end_combat(state: GameState, dice: Dice, card_c: str = "", card_u: str = "") -> Step:
    """CMB.12: end-of-combat cards (within the one-card limit; their text is resolved by the players);
    every die goes back to the stock; the next border state in combat."""
    battle = _battle(state, "end")
    used = []
    for side, card in ((C, card_c), (U, card_u)):
        if card != "":
            spec = state.board.card(side, card)
            if spec.phase != "combat":
                raise RuleError("BS-CARD", f"{card} is not a combat card")
            state = use_card(state, side, battle)
            battle = replace(battle, cards=battle.cards + (side,))
            used.append(f"{SIDE_NAME[side]} plays {card}")
    done = replace(state, battle=None, battles_done=state.battles_done + (battle.area,))
    new = open_next(done)
    nxt = f"; next, {new.battle.area}" if new.battle else "; the combat phase is over"
    lead = "; ".join(used) + "; " if used else ""
    return Step(new, f"Combat in {battle.area}: {lead}dice back to the stock{nxt}",
                ("BS-CMB", "BS-CARD") if used else ("BS-CMB",))

