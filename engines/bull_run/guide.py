"""The phase guide: what is due now in the sequence of play (BR-5.1), in plain words."""
from __future__ import annotations

from companion.engine import Due

from .actions import CHECK_RULES, PHASE_NAMES, due_checks
from .attacks import attackers_left, attacks_to_fire, companion_places, firer_side, hit_targets
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


def holder(state: GameState) -> str:
    """The side with this turn's initiative (BR-6.0): it moves and attacks first."""
    return state.initiative[state.turn - 1]


def phase_title(state: GameState) -> str:
    if state.phase == OVER:
        return f"Game over: {state.victory.result}"
    base = f"Turn {state.turn} of {TURNS} ({clock(state.turn)}): {PHASE_NAMES[state.phase]} phase"
    if state.phase in (MOVEMENT, COMBAT):
        verb = "moves" if state.phase == MOVEMENT else "attacks"
        order = "first" if state.active == holder(state) else "second"
        return f"{base}, {SIDE_NAME[state.active]} {verb} {order} ({SIDE_NAME[holder(state)]} initiative)"
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
        return [Due("move", f"Move {side} units", "4 MP each; tell the terrain of each hex and any Bull Run crossing. "
                    "No entering enemy hexes; entering an enemy zone of control ends the move; at most 2 units a hex "
                    "(BR-8.2).", "BR-8.1"), end]
    if state.phase == COMBAT:
        return _combat_steps(state)
    assert state.phase == END
    return [Due("end_turn", "End the turn", "Say who holds the objectives; victory is checked.", "BR-3.0")]


def ordered_attacks_text(state: GameState) -> str:
    """BR-9.2/BR-9.3 for the solitaire CSA's attack step, as this turn's initiative (BR-6.0), the order and option
    A24 read now: ordered attacks when the CSA has the initiative (it attacks first), the player's choice when the
    Union has it (the CSA attacks second)."""
    if holder(state) != CSA:
        return ("The Union has the initiative this turn, so the CSA attacks second: the solitaire player decides "
                "which CSA stacks attack (BR-9.2).")
    text = ("The CSA has the initiative this turn: every CSA stack next to a Union stack is ordered to attack; "
            "declare each one, against the weakest adjacent Union stack (BR-9.2, BR-9.3).")
    if state.options["ordered_attacks"] == "stronger_only" and state.orders[state.turn - 1] in ("D", "E"):
        text += " Under this order a CSA stack that is not stronger than its target need not attack (this game's option)."
    return text


def _combat_steps(state: GameState) -> list[Due]:
    combat = state.combat
    side = SIDE_NAME[state.active]
    if combat is None:
        steps = []
        if attackers_left(state):
            text = "Declare every attack of this step first (which stack attacks which); then resolve them."
            if state.options["solitaire"] and state.active == CSA:
                text = ordered_attacks_text(state) + " " + text
            steps.append(Due("declare_attack", f"{side}: declare an attack", text, "BR-10.1"))
        if attacks_to_fire(state):
            steps.insert(0, Due("fire", "Resolve a declared attack",
                                "Every attack on one defender before the next; both stacks fire at once.", "BR-10.1"))
        else:
            text = "" if steps else f"No {side} stack is left to attack."
            steps.append(Due("end_combat", f"End {side} attacks", text, "BR-10.2"))
        return steps
    stage = combat.stage
    if stage == "allocate":
        parts = [f"{hits} on the {role}: " + ("BR-9.4 places them" if companion_places(state, role)
                                              else f"the {SIDE_NAME[firer_side(state, role)]} player spreads them")
                 for role, _, hits in hit_targets(state)]
        return [Due("allocate_hits", "Apply hits", "; ".join(parts), "BR-10.3")]
    if stage == "retreat_check":
        return [Due("retreat_check", "Retreat check", f"The {combat.checking} took more hits: 4-6 retreats.",
                    "BR-11.1")]
    if stage == "retreat":
        return [Due("retreat", "Retreat", "One hex away from the front; not into enemy units, not across Bull Run "
                    "except at a ford. No such hex: the stack is eliminated.", "BR-11.1")]
    return [Due("advance", "Advance", "The winner may move into the vacated hex.", "BR-11.2")]
