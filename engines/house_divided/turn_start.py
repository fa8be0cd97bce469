"""The start of a player turn: supply (HD-5.1, A11), the CSA's border-state rolls (HD-4.8) and the snapshot of the
FI conditions (HD-5.9)."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Choice, one_of, some_of, text

from .actions import actions, finish, in_segment, lead, offer, phasing, requires, tail
from .border_states import BorderInput, resolve_border_state
from .intervention import fi_conditions, intervene
from .rules import BORDER_STATES, CSA, RICHMOND, USA, WASHINGTON
from .state import ELIMINATED, JOINED, MOVEMENT, START, TRIED, GameState
from .supply import LONE, OUT_OF_SUPPLY, supply_report


# --- HD-5.1 supply ---------------------------------------------------------------------------------------

def _unchecked(state: GameState) -> None:
    if state.supply_checked:
        raise RuleError("HD-5.1", "Supply has been checked this turn")


def _forage_choices(state: GameState, chosen):
    """A11: only by the option, the boxes with a stack of 2+ of the phasing side's units."""
    if state.options["foraging"] != "manual":
        return NOT_ASKED
    return [Choice(s.box, f"{s.box} ({s.status})") for s in supply_report(state).stacks if s.status != LONE]


@actions("Supply check", "HD-5.1",
         some_of("foraged", "Boxes whose stack foraged this turn: no loss", "HD-A11", _forage_choices,
                 default=()),
         text("reason", "Why they foraged (goes into the log)", "HD-A11",
              lambda s, c: None if c.get("foraged") else NOT_ASKED, default=""),
         when=in_segment(START, "HD-5.1", requires("supply", "HD-5.1", "supply"), _unchecked))
def check_supply(state: GameState, dice: Dice, foraged: list, reason: str) -> Step:
    """HD-5.1: every box with 2+ of the phasing side's units traces supply; those that cannot must each lose
    one unit. No stack is excused unless the players use the option A11 and mark a box as foraged, with their
    reason (logged)."""
    boxes = tuple(foraged)
    if boxes and not reason.strip():
        raise RuleError("HD-A11", "Give the reason the marked boxes foraged: it goes into the log")
    report = supply_report(replace(state, foraged=boxes))
    checked = [s for s in report.stacks if s.status != LONE]
    text = "; ".join(f"{s.box}: {s.status}" + (f", lose 1 ({s.reason})" if s.status == OUT_OF_SUPPLY else "")
                     for s in checked) or "no stack of 2 or more units"
    if boxes:
        text += f"; foraged by the players' choice: {reason.strip()}"
    new = replace(state, foraged=boxes, supply_checked=True, supply_due=report.losses)
    return Step(new, f"{lead(state)}: supply check: {text}", ("HD-5.1", "HD-A11") if boxes else ("HD-5.1",))


def _losses_due(state: GameState) -> None:
    if not state.supply_due:
        raise RuleError("HD-5.1", "No box must lose a unit to supply")


@actions("Lose a unit to supply", "HD-5.1",
         one_of("unit", "Unit lost (the owner chooses, one per box)", "HD-5.1",
                lambda s, c: [Choice(u.name, f"{u.name} at {u.box}") for u in s.on_map(s.side)
                              if u.box in s.supply_due]),
         when=in_segment(START, "HD-5.1", _losses_due))
def supply_loss(state: GameState, dice: Dice, unit: str) -> Step:
    """HD-5.1: a stack out of supply loses exactly one unit; its owner chooses which."""
    u = state.unit(unit)
    new = replace(state.with_units({u.name: replace(u, status=ELIMINATED)}),
                  supply_due=tuple(b for b in state.supply_due if b != u.box))
    new, lines = finish(new)
    return Step(new, f"{lead(state)}: {u.name} is lost at {u.box}, out of supply{tail(lines)}", ("HD-5.1",))


# --- HD-4.8 border states ---------------------------------------------------------------------------------

def border_input(state: GameState, code: str) -> BorderInput:
    """HD-4.8 for a state (MO, KY, MD) as the game stands now; RuleError if it may not roll."""
    name, cities = BORDER_STATES[code]
    if state.border.get(code) == JOINED:
        raise RuleError("HD-5.8", f"{name} has already given its support: once per state per game")
    if state.border.get(code) == TRIED:
        raise RuleError("HD-A14", f"{name} has had its one attempt (option A14)")
    for city in cities:
        box = state.game_map.role(city)
        if box is None:
            raise RuleError("HD-4.8", f"The map has no box for {city}: designate it to roll for {name}")
        if state.controller(box) != CSA:
            raise RuleError("HD-4.8", f"{name} rolls only when the CSA controls all its recruitment cities; "
                                      f"not {box}")
    washington, richmond = state.game_map.role(WASHINGTON), state.game_map.role(RICHMOND)
    return BorderInput(code, state.year, abs(state.mm_usa - state.mm_csa),
                       bool(washington) and state.controller(washington) == CSA,
                       bool(richmond) and state.controller(richmond) == USA,
                       state.options["border_required"][code])


def border_refusal(state: GameState, code: str) -> RuleError | None:
    """Why the state may not roll now (None: it may)."""
    try:
        border_input(state, code)
    except RuleError as refused:
        return refused
    if code in state.border_rolled:
        return RuleError("HD-4.8", f"{BORDER_STATES[code][0]} has rolled this turn")
    return None


def border_choices(state: GameState, chosen=None) -> list:
    """HD-4.8: every border state; those that may not roll now barred, with their reason."""
    return [offer(code, name, border_refusal(state, code)) for code, (name, _) in BORDER_STATES.items()]


@actions("Border-state roll", "HD-4.8",
         one_of("border_state", "Border state", "HD-4.8", border_choices),
         when=in_segment(START, "HD-4.8", requires("border_states", "HD-4.8", "border-state"),
                         phasing(CSA, "HD-4.8", "Border states roll at the start of a CSA turn")))
def border_state_roll(state: GameState, dice: Dice, border_state: str) -> Step:
    """HD-4.8: at the start of a CSA turn, for a state whose recruitment cities the CSA all controls."""
    inputs = border_input(state, border_state)
    result = resolve_border_state(inputs, dice)
    border = dict(state.border)
    if result.outcome:
        border[inputs.state] = JOINED
    elif state.options["border_attempts"] == "one_attempt":
        border[inputs.state] = TRIED
    new = replace(state, border=border, border_rolled=state.border_rolled + (inputs.state,),
                  border_pool=state.border_pool + bool(result.outcome))
    rules = result.rules + (("HD-5.8",) if result.outcome else ())
    return Step(new, f"{lead(state)}: {result.summary}", rules, (result,))


# --- the end of the start segment, the FI snapshot (HD-5.9) --------------------------------------------------

def _supply_done(state: GameState) -> None:
    if state.options["supply"] and not state.supply_checked:
        raise RuleError("HD-5.1", "First the supply check")
    if state.supply_due:
        raise RuleError("HD-5.1", f"Remove one unit in each box out of supply first: {', '.join(state.supply_due)}")


@actions("End the start segment", "HD-3", when=in_segment(START, "HD-3", _supply_done))
def end_start(state: GameState, dice: Dice) -> Step:
    """The start segment ends once supply losses are taken; a CSA turn notes the FI conditions (HD-5.9)."""
    new, text, rules = replace(state, segment=MOVEMENT), "movement", ["HD-3"]
    if state.side == CSA and state.options["intervention"] and not state.fi_triggered:
        conditions = fi_conditions(state.game_map, state.control, state.mm_usa, state.mm_csa,
                                   state.options["fi_condition_3"])
        met = all(c.met for c in conditions)
        new = replace(new, fi_snapshot=met)
        failing = [f"{c.number} ({c.reason})" for c in conditions if not c.met]
        text += "; FI conditions " + ("all met" if met else "not met: " + "; ".join(failing))
        rules.append("HD-5.9")
        if met and state.options["fi_trigger"] == "turn_start":
            new = intervene(new)
            text += "; foreign intervention (this game's option)"
            rules.append("HD-A21")
    return Step(new, f"{lead(state)}: {text}", tuple(rules))
