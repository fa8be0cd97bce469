"""The phase guide: what is due now in the sequence of play, in plain words; only steps the rules allow now."""
from __future__ import annotations

from companion.engine import Due

from .battle import supply_limit
from .registry import PHASE_NAMES, actions
from .round import recruit_places
from .rules import DEPLOY, ROUNDS, SIDE_NAME
from .state import ACTION, COMBAT, DRAW, INITIATIVE, OVER, RECRUIT, SETUP, SUPPLY, VICTORY, GameState


def phase_title(state: GameState) -> str:
    if state.phase == OVER:
        return f"Game over: {state.victory.text}"
    if state.phase == SETUP:
        return f"Deployment: {SIDE_NAME[state.turn]} places a unit"
    title = f"Round {state.round} of {ROUNDS}: {PHASE_NAMES[state.phase]} phase"
    if state.phase == ACTION and state.turn:
        title += f", {SIDE_NAME[state.turn]} to act ({state.actions_left[state.turn]} left)"
    if state.phase == COMBAT and state.battle:
        title += f", {state.battle.area} ({SIDE_NAME[state.battle.attacker]} attacks)"
    if state.phase == RECRUIT and state.turn:
        title += f", {SIDE_NAME[state.turn]} recruits"
    return title


def due_now(state: GameState) -> list[Due]:
    """The steps open now, the required one first: every action that can be taken now, and no other."""
    open_now = set(actions.open(state))
    return [d for d in _steps(state) if d.action in open_now]


def _steps(state: GameState) -> list[Due]:
    phase = state.phase
    if phase == OVER:
        return []
    if phase == SETUP:
        placed = state.on_board(state.turn)
        return [Due("deploy", f"Deploy a {SIDE_NAME[state.turn]} unit",
                    f"Into a {SIDE_NAME[state.turn]}-side border state ({placed} of {DEPLOY[state.turn]} placed).",
                    "BS-SETUP")]
    if phase == DRAW:
        return [Due("draw", "Draw cards", "Two each; whoever controls North Carolina draws one more.", "BS-DRAW")]
    if phase == INITIATIVE:
        if state.initiative_winner:
            return [Due("choose_first", f"{SIDE_NAME[state.initiative_winner]} chooses who goes first", "", "BS-INIT")]
        if state.options["initiative_bid"] and not state.bids:
            return [Due("bid", "Reveal the bids", "Each side grips supply dice in secret; reveal at once.", "BS-VAR.2")]
        return [Due("roll_initiative", "Roll for initiative", "One die each; a tie is rolled again.", "BS-INIT")]
    if phase == ACTION:
        return _action_steps(state)
    if phase == COMBAT:
        return _combat_steps(state)
    if phase == VICTORY:
        return [Due("check_victory", "Victory check", "VP of the border states held, plus the star on the damage "
                    "square.", "BS-VIC")]
    if phase == SUPPLY:
        return [Due("supply", "Supply", "Union +6, CSA +5, +1 for Kentucky and for Tennessee; cap "
                    f"{state.supply_cap()}.", "BS-SUP")]
    assert phase == RECRUIT
    places = recruit_places(state, state.turn)
    return [Due("recruit", f"{SIDE_NAME[state.turn]} recruitment roll",
                f"One roll for each empty home state: {', '.join(places)}.", "BS-REC")]


def _action_steps(state: GameState) -> list[Due]:
    side = SIDE_NAME[state.turn]
    if state.retreat is not None:
        return [Due("retreat_failed", "The retreat failed", "Move the damage marker toward your side and retreat, "
                    "or remove the unit.", "BS-RET")]
    return [Due("move", f"{side} moves a unit", "A unit not in combat, to an adjacent state.", "BS-D.4"),
            Due("retreat", f"{side} retreats a unit", "A unit in combat; 3-6 succeeds, or discard a card.", "BS-D.6"),
            Due("entrench", f"{side} entrenches", "One unit in an own-side border state, " +
                ("once per state a round." if state.options["entrench_once"] == "round" else
                 "one entrenched unit a state at a time."), "BS-D.5"),
            Due("play_card", f"{side} plays an action card", "", "BS-CARD"),
            Due("pass_turn", f"{side} passes", "", "BS-D.7")]


def _combat_steps(state: GameState) -> list[Due]:
    battle = state.battle
    side = SIDE_NAME[battle.turn]
    where = battle.area
    if battle.stage == "start":
        return [Due("start_effects", f"{side}: start of the combat in {where}",
                    "Dice from the commander's ability and/or one card.", "BS-CMB")]
    if battle.stage == "supply":
        return [Due("commit_supply", f"{side}: supply dice in {where}",
                    f"Up to {supply_limit(state, battle.turn)} (2 a unit, from {state.supply[battle.turn]}).", "BS-CMB")]
    if battle.stage == "roll":
        tray = battle.trays[battle.turn]
        if not battle.throw:
            return [Due("throw", f"{side} throws {tray.left} {'die' if tray.left == 1 else 'dice'}",
                        "Then take at least one; a 6 may go to damage.", "BS-CMB")]
        return [Due("keep", f"{side} takes dice", "At least one; a 6 may go to the damage row.", "BS-CMB"),
                Due("roll_card", f"{side} plays a card on this throw", "", "BS-CARD")]
    if battle.stage == "losses":
        return [Due("remove_losses", f"{side} removes {battle.removals} unit{'s' if battle.removals > 1 else ''}",
                    "Say whether the commander unit is one of them.", "BS-CMB")]
    return [Due("end_combat", f"End the combat in {where}", "End-of-combat cards, if any; dice to the stock.",
                "BS-CMB")]

