"""BS-CMB the combat phase: every border state in combat once, in the order of its number, step by step
as the players do it at the table. The companion takes each throw (rolled by it or entered) and each
keep; the advice module says what each keep is worth."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Choice, Pick, number, one_of, some_of, yes_no
from companion.terms import Terms

from .board import Card
from .registry import NO_CARD, actions, card_choices, require_phase, use_card
from .rules import (C, DICE_IN_BOX, ENTRENCH_BONUS, FACE_EFFECTS, FACE_MAX, FACE_MIN, SIDE_NAME, SIDES, SUPPLY_PER_UNIT,
                    U)
from .state import COMBAT, VICTORY, Battle, GameState, other
from .succession import advance_commander, move_damage, remove_units
from .throw import ThrowInput, resolve_throw
from .tray import FACES, Keep, Tray, counts, losses, outcome


def open_next(state: GameState) -> GameState:
    """The next border state in combat, by its number; with none left, the victory check (BS-CMB.1-2)."""
    due = state.battles_due()
    if not due:
        return replace(state, phase=VICTORY, battle=None)
    area = state.board.area(due[0])
    defender = area.side                      # CMB.1: the side whose own-side border state it is defends
    attacker = other(defender)
    base = {side: Terms((("units", state.count(area.name, side)),)) for side in (attacker, defender)}
    if area.name in state.entrenched:
        base[defender] = base[defender].plus("entrenched", ENTRENCH_BONUS)
    return replace(state, phase=COMBAT, battle=Battle(area.name, attacker, defender, turn=attacker, made_of=base))


def _battle(state: GameState, stage: str) -> Battle:
    require_phase(state, COMBAT)
    battle = state.battle
    if battle is None or battle.stage != stage:
        raise RuleError("BS-CMB", f"The combat in {battle.area if battle else '-'} is at its "
                                  f"'{battle.stage if battle else 'none'}' step")
    return battle


def at_stage(stage: str):
    """The `when` of a step of the combat under way."""
    return lambda state: _battle(state, stage)


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
    return f"; {in_play} dice in play, more than the {DICE_IN_BOX} in the box (this game's option)" if in_play > DICE_IN_BOX else ""


def dice_room(state: GameState, side: str) -> int:
    """The dice a side may still add to its roll: no throw has more than the 50 dice in the box (A17)."""
    return DICE_IN_BOX - state.battle.dice[side]


def _extra_dice(state: GameState, chosen) -> range:
    return range(0, dice_room(state, state.battle.turn) + 1)


def _start_cards(state: GameState, chosen) -> list:
    """CMB.3: a combat card that adds dice from the stock (within the 50 dice, A17) or is resolved by hand."""
    side = state.battle.turn
    room = dice_room(state, side) - chosen["extra_dice"]

    def why_not(card: Card) -> str:
        if card.phase != "combat" or card.effect not in ("ADD_STOCK_DICE", "FREE_TEXT"):
            return f"{card.name} is not played at the start of a combat"
        if card.effect == "ADD_STOCK_DICE" and card.value > room:
            return f"{card.name} would take the roll past the {DICE_IN_BOX} dice in the box (this game's option)"
        return ""
    return [NO_CARD, *card_choices(state, side, why_not, in_combat=True)]


@actions("Start of the combat", "BS-CMB",
         number("extra_dice", "Dice from the commander's ability", "BS-CMB", _extra_dice, default=0),
         one_of("card", "A card at the start (optional)", "BS-CARD", _start_cards, default=""),
         when=at_stage("start"))
def start_effects(state: GameState, dice: Dice, extra_dice: int, card: str) -> Step:
    """CMB.3: the attacker, then the defender, may add dice by its commander card's ability and/or one card."""
    battle = state.battle
    side = battle.turn
    dice, said = battle.made_of[side], []
    if extra_dice:
        said.append(f"+{extra_dice} by {state.commander_name(side)}'s ability")
        dice = dice.plus(f"{state.commander_name(side)}'s ability", extra_dice)
    if card != "":
        spec = state.board.card(side, card)
        state = use_card(state, side)
        battle = replace(battle, cards=battle.cards + (side,))
        if spec.effect == "ADD_STOCK_DICE":
            dice = dice.plus("card", spec.value)     # the state keeps no card's name (BS-D.12)
        said.append(f"card {card}" + (f" (+{spec.value})" if spec.effect == "ADD_STOCK_DICE" else ""))
    battle = replace(battle, made_of={**battle.made_of, side: dice})
    battle = _next_turn(battle, "supply")
    text = ", ".join(said) or "nothing"
    new = replace(state, battle=battle)
    return Step(new, f"Combat in {battle.area}: {SIDE_NAME[side]} at the start: {text}; {battle.dice[side]} dice"
                     f"{stock_note(new)}", ("BS-CMB", "BS-CARD") if card != "" else ("BS-CMB",))


def supply_limit(state: GameState, side: str) -> int:
    """CMB.4: up to 2 supply dice per own unit in the state, and no more than the side has (nor past the 50 dice
    in the box, A17)."""
    return min(SUPPLY_PER_UNIT * state.count(state.battle.area, side), state.supply[side], dice_room(state, side))


@actions("Supply dice", "BS-CMB",
         number("count", "Supply dice to add", "BS-CMB", lambda s, c: range(0, supply_limit(s, s.battle.turn) + 1),
                default=0),
         when=at_stage("supply"))
def commit_supply(state: GameState, dice: Dice, count: int) -> Step:
    """CMB.4: the attacker, then the defender, adds supply dice (public); they are spent."""
    battle = state.battle
    side = battle.turn
    battle = replace(battle, supply={**battle.supply, side: count})
    battle = _next_turn(battle, "roll")
    if battle.stage == "roll":
        battle = replace(battle, trays={s: Tray(battle.dice[s] + battle.supply[s]) for s in SIDES})
    new = replace(state, battle=battle, supply={**state.supply, side: state.supply[side] - count})
    return Step(new, f"Combat in {battle.area}: {SIDE_NAME[side]} adds {count} supply "
                     f"{'die' if count == 1 else 'dice'}{stock_note(new)}", ("BS-CMB", "BS-D.8"))


def _throwing(state: GameState) -> None:
    if _battle(state, "roll").throw:
        raise RuleError("BS-CMB", "Take at least one die of this throw first")


@actions("Throw", "BS-CMB", when=_throwing)
def throw(state: GameState, dice: Dice) -> Step:
    """CMB.5-6: the side rolling throws every die it has left (the attacker to the end, then the defender)."""
    battle = state.battle
    side = battle.turn
    tray = battle.trays[side]
    first = tray == Tray(battle.dice[side] + battle.supply[side])
    made_of = battle.made_of[side].plus("supply", battle.supply[side]) if first and battle.supply[side] else \
        battle.made_of[side] if first else None
    result = resolve_throw(ThrowInput(tray.left, made_of), dice, SIDE_NAME[side])
    return Step(replace(state, battle=replace(battle, throw=result.outcome)),
                f"Combat in {battle.area}: {result.summary}", result.rules, (result,))


def thrown(rule: str):
    """The `when` of a step after a throw, before its keep."""
    def when(state: GameState) -> None:
        if not _battle(state, "roll").throw:
            raise RuleError(rule, "Throw first: this is done after a throw, before the keep")
    return when


def _throw_cards(state: GameState, chosen) -> list:
    """BS-CARD: the combat cards that change a throw (ADD_FACE, MODIFY, MODIFY_EITHER)."""
    def why_not(card: Card) -> str:
        if card.phase != "combat":
            return f"{card.name} is an action-phase card"
        return "" if card.effect in FACE_EFFECTS else f"{card.name} does not change a throw"
    return card_choices(state, state.battle.turn, why_not, in_combat=True)


def _played(state: GameState, chosen) -> Card:
    return state.board.card(state.battle.turn, chosen["card"])


def _face_choices(state: GameState, chosen):
    """BS-MOD: a face modifier changes one of the dice thrown (a face the throw shows)."""
    if _played(state, chosen).effect == "ADD_FACE":
        return NOT_ASKED
    return [Choice(f + 1, str(f + 1)) for f, n in enumerate(state.battle.throw) if n]


def _change_choices(state: GameState, chosen):
    """BS-MOD (digest section 10): a MODIFY card changes a face by exactly the signed value printed; only a
    MODIFY_EITHER card takes the sign the player chooses."""
    card = _played(state, chosen)
    if card.effect != "MODIFY_EITHER":
        return NOT_ASKED
    return Choice(card.value, f"+{card.value}"), Choice(-card.value, f"-{card.value}")


@actions("Play a card on the throw", "BS-CARD",
         one_of("card", "Card", "BS-CARD", _throw_cards),
         one_of("face", "Die to change", "BS-MOD", _face_choices, default=0),
         one_of("change", "Change by (a card printed with either sign)", "BS-MOD", _change_choices, default=0),
         when=thrown("BS-CARD"))
def roll_card(state: GameState, dice: Dice, card: str, face: int, change: int) -> Step:
    """A card during a throw (BS-CARD, BS-MOD): ADD_FACE puts a die showing its face into the throw (it
    stays an ordinary die, A6); MODIFY changes one of the thrown dice (`face`) by exactly the signed value
    printed, and MODIFY_EITHER by +k or -k as the player chooses (`change`); the face is clamped to 1-6."""
    battle = state.battle
    side = battle.turn
    tray = battle.trays[side]
    spec = state.board.card(side, card)
    state = use_card(state, side)
    throw_ = list(battle.throw)
    if spec.effect == "ADD_FACE":
        throw_[spec.value - 1] += 1
        tray = replace(tray, left=tray.left + 1)
        said = f"adds a die showing {spec.value}"
    else:
        step = change if spec.effect == "MODIFY_EITHER" else spec.value
        new_face = max(FACE_MIN, min(FACE_MAX, face + step))
        throw_[face - 1] -= 1
        throw_[new_face - 1] += 1
        said = f"changes a {face} to {new_face}" + (" (clamped)" if new_face != face + step else "")
    battle = replace(battle, throw=tuple(throw_), trays={**battle.trays, side: tray}, cards=battle.cards + (side,))
    new = replace(state, battle=battle)
    return Step(new, f"Combat in {battle.area}: {SIDE_NAME[side]} plays {card}: {said}{stock_note(new)}",
                ("BS-CARD", "BS-MOD"))


def _confirm_choices(state: GameState, chosen) -> Pick:
    """CMB ROLL step 3: dice of the throw (a face as often as it was thrown); none when a 6 goes to damage."""
    throw_ = state.battle.throw
    return Pick([Choice(f + 1, str(f + 1)) for f, n in enumerate(throw_) if n], 0 if throw_[FACES - 1] else 1,
                sum(throw_), fits=lambda faces: all(faces.count(f + 1) <= n for f, n in enumerate(throw_)))


def _damage_choices(state: GameState, chosen) -> range:
    """CMB ROLL step 3 (A5): the 6s thrown and not confirmed may go to the damage row; at least one when no die is
    confirmed (a die of each throw is taken). Every die confirmed (the default): none."""
    confirm = chosen["confirm"]
    if confirm is None:
        return range(0, 1)
    return range(0 if confirm else 1, state.battle.throw[FACES - 1] - confirm.count(FACES) + 1)


@actions("Take dice", "BS-CMB",
         some_of("confirm", "Dice confirmed (faces)", "BS-CMB", _confirm_choices, default=None, repeat=True),
         number("damage", "6s to the damage row (a take is at least 1 die)", "BS-CMB", _damage_choices, default=0),
         when=thrown("BS-CMB"))
def keep(state: GameState, dice: Dice, confirm: list | None, damage: int) -> Step:
    """CMB ROLL step 3: take at least one die of the throw; a 6 may go to the damage row. Without a
    choice, every die of the throw is confirmed (the roll ends)."""
    battle = state.battle
    side = battle.turn
    if confirm is None:
        confirm = [f + 1 for f in range(FACES) for _ in range(battle.throw[f])]
    choice = Keep(counts(confirm), damage)
    tray = battle.trays[side].take(choice)
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


@actions("Remove the losses", "BS-CMB",
         yes_no("commander", "The commander unit is one of them", "BS-CMB", default=False),
         when=at_stage("losses"))
def remove_losses(state: GameState, dice: Dice, commander: bool) -> Step:
    """CMB.8: the loser chooses which of its units go; here, whether its commander unit is one of them."""
    battle = state.battle
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


def _end_cards(side: str):
    """CMB.12: an end-of-combat card (a combat card resolved by hand), within the one card a combat (BS-CARD)."""
    def why_not(card: Card) -> str:
        if card.phase != "combat":
            return f"{card.name} is not a combat card"
        return "" if card.effect == "FREE_TEXT" else f"{card.name} is not played at the end of a combat"
    return lambda state, chosen: [NO_CARD, *card_choices(state, side, why_not, in_combat=True)]


@actions("End the combat", "BS-CMB",
         one_of("card_c", "CSA end-of-combat card (optional)", "BS-CARD", _end_cards(C), default=""),
         one_of("card_u", "Union end-of-combat card (optional)", "BS-CARD", _end_cards(U), default=""),
         when=at_stage("end"))
def end_combat(state: GameState, dice: Dice, card_c: str, card_u: str) -> Step:
    """CMB.12: end-of-combat cards (within the one-card limit; their text is resolved by the players);
    every die goes back to the stock; the next border state in combat."""
    battle = state.battle
    used = []
    for side, card in ((C, card_c), (U, card_u)):
        if card != "":
            state = use_card(state, side)
            battle = replace(battle, cards=battle.cards + (side,))
            used.append(f"{SIDE_NAME[side]} plays {card}")
    done = replace(state, battle=None, battles_done=state.battles_done + (battle.area,))
    new = open_next(done)
    nxt = f"; next, {new.battle.area}" if new.battle else "; the combat phase is over"
    lead = "; ".join(used) + "; " if used else ""
    return Step(new, f"Combat in {battle.area}: {lead}dice back to the stock{nxt}",
                ("BS-CMB", "BS-CARD") if used else ("BS-CMB",))
