"""The phase guide: what is due now in the sequence of play (BR-5.1), in plain words."""
from __future__ import annotations

from companion.engine import Due

from .actions import CHECK_RULES, PHASE_NAMES, attackers_left, due_checks, hit_options
from .initiative import SIDE_NAME
from .rules import CSA, TURNS
from .state import COMBAT, END, INITIATIVE, MOVEMENT, ON_MAP, OVER, PENDING, REINFORCEMENTS, GameState, clock

CHECK_ACTIONS = {"farm_ford": "farm_ford_roll", "awareness": "awareness_check", "csa_action": "csa_action_roll"}
CHECK_TEXT = {
    "farm_ford": "Roll for Farm Ford: 5-6 finds it, usable from this turn.",
    "awareness": "Flank awareness: aware at once if a Union unit south of Bull Run is adjacent to a CSA unit; "
                 "otherwise the scouts roll, 5-6.",
    "csa_action": "Roll the CSA action table: count the Union units south of Bull Run.",
}


def phase_title(state: GameState) -> str:
    if state.phase == OVER:
        return f"Game over: {state.victory.result}"
    base = f"Turn {state.turn} of {TURNS} ({clock(state.turn)}): {PHASE_NAMES[state.phase]} phase"
    if state.phase in (MOVEMENT, COMBAT):
        return f"{base}, {SIDE_NAME[state.active]} {'moves' if state.phase == MOVEMENT else 'attacks'}"
    return base


def due_now(state: GameState) -> list[Due]:
    """The steps open now, the required one first."""
    if state.phase == OVER:
        return []
    if state.phase == INITIATIVE:
        steps = [Due("roll_initiative", "Roll for initiative", "1-3 Union, 4-6 CSA: that side moves and attacks first.",
                     "BR-6.0")]
        if state.turn == 1:
            steps.append(Due("preroll_initiative", "Pre-roll all 15 turns",
                             "Roll the initiative of every turn now and mark the track.", "BR-6.0"))
        return steps
    if state.phase == REINFORCEMENTS:
        due = [u for u in state.units if u.status == PENDING and u.spec.entry_turn == state.turn]
        text = "; ".join(f"{u.name} on hex {u.spec.entry_hex}" for u in due) or "No units are due this turn."
        return [Due("place_reinforcements", "Place reinforcements", text, "BR-7.0")]
    if state.phase == MOVEMENT:
        checks = due_checks(state)
        if checks:
            return [Due(CHECK_ACTIONS[checks[0]], checks[0].replace("_", " ").capitalize(), CHECK_TEXT[checks[0]],
                        CHECK_RULES[checks[0]])]
        side = SIDE_NAME[state.active]
        end = Due("end_movement", f"End {side} movement", "", "BR-5.1")
        if not any(not u.moved for u in state.side_units(state.active, ON_MAP)):
            return [Due(end.action, end.title, f"No {side} unit on the map is left to move.", end.rule)]
        return [Due("move", f"Move {side} units", "4 MP each; tell the terrain of each hex and any Bull Run crossing.",
                    "BR-8.1"), end]
    if state.phase == COMBAT:
        return _combat_steps(state)
    assert state.phase == END
    return [Due("end_turn", "End the turn", "Say who holds the objectives; victory is checked.", "BR-3.0")]


def _combat_steps(state: GameState) -> list[Due]:
    combat = state.combat
    side = SIDE_NAME[state.active]
    if combat is None:
        text = "Name the attacking stack and the adjacent stack it attacks."
        if state.options["solitaire"] and state.active == CSA:
            text = ("With the initiative every CSA stack next to a Union stack attacks, the weakest adjacent Union "
                    "stack first (BR-9.2, BR-9.3)." if state.half == 0 else
                    "Without the initiative the solitaire player decides which CSA stacks attack (BR-9.2, A8).")
        end = Due("end_combat", f"End {side} attacks", "", "BR-10.2")
        if not attackers_left(state):
            return [Due(end.action, end.title, f"No {side} stack is left that may attack.", end.rule)]
        return [Due("declare_attack", f"{side} attack", text, "BR-10.1"), end]
    stage = combat.stage
    if stage == "fire":
        return [Due("fire", "Fire", "Both stacks roll at once" if combat.defender_fires else
                    "The attacker rolls; the defender has made its one defensive roll", "BR-10.4")]
    if stage == "allocate":
        parts = []
        for target, hits in (("defenders", combat.hits_on_defenders), ("attackers", combat.hits_on_attackers)):
            if hits:
                parts.append(f"{hits} on the {target}: {' or '.join(hit_options(state, target))}")
        return [Due("allocate_hits", "Apply hits", "; ".join(parts), "BR-10.3")]
    if stage == "retreat_check":
        return [Due("retreat_check", "Retreat check", f"The {combat.checking} took more hits: 4-6 retreats.",
                    "BR-11.1")]
    if stage == "retreat":
        return [Due("retreat", "Retreat", "One hex away from the front; not into enemy units, not across Bull Run "
                    "except at a ford. No such hex: the stack is eliminated.", "BR-11.1")]
    return [Due("advance", "Advance", "The winner may move into the vacated hex.", "BR-11.2")]

