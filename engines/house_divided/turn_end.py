"""The end of a player turn: promotion (HD-5.3), recruitment with the captured leaders' return (HD-5.7), the FI
return rolls (HD-4.9) and border-state militia (HD-4.8); then the next player turn, or the end of turn 40
(HD-6.2)."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Barred, Choice, number, one_of, text, yes_no

from . import victory
from .actions import actions, boxes, finish, in_segment, lead, tail
from .intervention import ReturnInput, fi_eliminated, resolve_fi_return
from .rules import ARMS, CSA, FULL, GARRISON, GRADES, MILITIA, TURNS, USA, YEARS
from .state import CAPTURED, ON_MAP, PROMOTION, RECRUITMENT, START, WAITING, GameState, Unit, year_of

NAME_LIMIT = 40  # characters of a recruited unit's name


# --- HD-5.3 promotion -------------------------------------------------------------------------------------------

def promotable(state: GameState, chosen=None) -> list:
    """HD-5.3: the surviving units of each battle won this turn whose promotion is still open; crack units and the
    winners over a garrison alone barred, and every FI unit (HD-5.9)."""
    found = []
    winners = [n for r in state.battles if r.winner and not r.promoted for n in r.survivors]
    for name in dict.fromkeys([*winners, *(u.name for u in state.units if u.foreign)]):
        u = state.unit(name)
        if u.status != ON_MAP:
            continue
        won = [r for r in state.battles if r.winner == u.side and name in r.survivors and not r.promoted]
        refusal = None
        if u.foreign:
            refusal = RuleError("HD-5.9", f"{name} is an FI unit: FI units are never promoted")
        elif all(r.garrison_only for r in won):
            refusal = RuleError("HD-5.3", "No promotion for beating only a coastal garrison")
        elif u.grade == GRADES[-1]:
            refusal = RuleError("HD-5.3", f"{name} is already crack")
        found.append(Choice(name, f"{name} ({u.grade})") if refusal is None else
                     Barred(name, name, refusal.rule, refusal.message))
    return found


@actions("Promote", "HD-5.3",
         one_of("unit", "Unit promoted (militia → veteran → crack)", "HD-5.3", promotable),
         when=in_segment(PROMOTION, "HD-5.3"))
def promote(state: GameState, dice: Dice, unit: str) -> Step:
    """HD-5.3: each battle's winner promotes one participant (militia -> veteran -> crack); not for beating
    only a garrison; FI units are never promoted (HD-5.9)."""
    u = state.unit(unit)
    usable = [i for i, r in enumerate(state.battles)
              if r.winner == u.side and u.name in r.survivors and not r.promoted and not r.garrison_only]
    grade = GRADES[GRADES.index(u.grade) + 1]
    records = list(state.battles)
    records[usable[0]] = replace(records[usable[0]], promoted=u.name)
    new = replace(state.with_units({u.name: replace(u, grade=grade)}), battles=tuple(records))
    return Step(new, f"{lead(state)}: {u.name} is promoted to {grade}", ("HD-5.3",))


@actions("End promotion", "HD-3", when=in_segment(PROMOTION))
def end_promotion(state: GameState, dice: Dice) -> Step:
    """To recruitment, where the side's captured leaders return (HD-5.7)."""
    back = {l.name: replace(l, status=WAITING) for l in state.leaders if l.side == state.side and l.status == CAPTURED}
    new = replace(state.with_leaders(back), segment=RECRUITMENT)
    text = f"; {', '.join(back)} return{'s' if len(back) == 1 else ''} from captivity" if back else ""
    return Step(new, f"{lead(state)}: recruitment{text}", ("HD-3", "HD-5.7") if back else ("HD-3",))


# --- HD-4.9 the FI return rolls -----------------------------------------------------------------------------------

def return_due(state: GameState) -> bool:
    """HD-4.9: in a CSA recruitment segment with FI units eliminated, before their return rolls."""
    return state.side == CSA and bool(fi_eliminated(state)) and not state.fi_return_rolled


def _returns_due(state: GameState) -> None:
    if not return_due(state):
        raise RuleError("HD-4.9", "FI return rolls are made once in each CSA recruitment segment, for eliminated "
                                  "FI units")


@actions("FI return rolls", "HD-4.9", when=in_segment(RECRUITMENT, "HD-4.9", _returns_due))
def fi_return_rolls(state: GameState, dice: Dice) -> Step:
    """HD-4.9: in each CSA recruitment segment, a roll for each eliminated FI unit; 5-6 puts it in Europe."""
    gone = fi_eliminated(state)
    result = resolve_fi_return(ReturnInput(len(gone)), dice)
    back = {u.name: replace(u, status=ON_MAP, box=state.europe, face=FULL, entrenched=False)
            for u, ok in zip(gone, result.details["returned"]) if ok}
    new = replace(state.with_units(back), fi_return_rolled=True)
    return Step(new, f"{lead(state)}: {result.summary}", result.rules, (result,))


# --- recruitment (the basic game), HD-4.8 border-state militia ------------------------------------------------------

def unit_name(state: GameState, wanted: str) -> str:
    """The name a recruit is entered under: the players' (blank: the side and a number), with a number added
    when it is taken, so every unit's name stays its own (HD-2)."""
    base = " ".join(wanted.split()) or state.side
    taken = {u.name for u in state.units} | {GARRISON}
    if base not in taken and wanted.strip():
        return base
    number = 2 if wanted.strip() else 1
    while f"{base} {number}" in taken:
        number += 1
    return f"{base} {number}"


def _border_militia(state: GameState, chosen):
    """HD-4.8: asked of the CSA while border-state militia wait in its pool; such a unit joins as militia."""
    if state.side != CSA or state.border_pool < 1:
        return NOT_ASKED
    if chosen["grade"] != MILITIA:
        return False, Barred(True, "yes", "HD-4.8", "A border-state unit joins as militia")
    return False, True


@actions("Recruit a unit", "HD-3",
         text("name", "Name (blank: numbered; a name in use gets a number)", "HD-2", default="", high=NAME_LIMIT),
         one_of("arm", "Arm", "HD-2", lambda s, c: ARMS),
         one_of("box", "Box", "HD-2", lambda s, c: boxes(s, "HD-5.9", "Only FI units are in Europe")),
         one_of("grade", "Grade", "HD-2", lambda s, c: GRADES, default=MILITIA),
         yes_no("border_state", "A border-state militia from the CSA pool (HD-4.8)", "HD-4.8", _border_militia,
                default=False),
         when=in_segment(RECRUITMENT))
def add_unit(state: GameState, dice: Dice, name: str, arm: str, box: str, grade: str, border_state: bool) -> Step:
    """Recruitment (basic game): the phasing side puts a new unit on the map; a border-state militia comes
    from the CSA pool (HD-4.8)."""
    name = unit_name(state, name)
    unit = Unit(name, state.side, arm, grade, box=box, border_state=border_state, raised=state.year)
    new = replace(state, units=state.units + (unit,), border_pool=state.border_pool - border_state)
    new, lines = finish(new)
    return Step(new, f"{lead(state)}: {name} ({grade} {arm}) recruited at {box}{tail(lines)}",
                ("HD-3", "HD-4.8") if border_state else ("HD-3",))


# --- the next player turn ------------------------------------------------------------------------------------------

def _year_choices(state: GameState, chosen):
    """The year of the next game turn, asked after the CSA player turn when the players' calendar does not give
    it: this year or the next."""
    if state.side == USA or state.turn == TURNS or state.turn + 1 <= len(state.calendar):
        return NOT_ASKED
    return range(state.year, min(state.year + 1, YEARS[-1]) + 1)


def _returns_rolled(state: GameState) -> None:
    if state.options["intervention"] and return_due(state):
        raise RuleError("HD-4.9", "First the return rolls for eliminated FI units")


@actions("End the player turn", "HD-3",
         number("year", "Year of the next game turn", "HD-3", _year_choices, default=None),
         when=in_segment(RECRUITMENT, "HD-3", _returns_rolled))
def end_player_turn(state: GameState, dice: Dice, year: int | None) -> Step:
    """The Union player turn hands over to the CSA; after the CSA's, the next game turn (its year from the
    calendar, or as the players give it). After turn 40 the game ends (HD-6.2)."""
    units = tuple(replace(u, marches=0) for u in state.units)
    leaders = tuple(replace(l, moves=0) for l in state.leaders)
    common = dict(units=units, leaders=leaders, segment=START, marches_left=None, march_die=0, marched=False,
                  supply_checked=False, supply_due=(), foraged=(), broken_out=(), landings=(), border_rolled=(),
                  battles=(), fi_return_rolled=False, fi_snapshot=None)
    if state.side == USA:
        return Step(replace(state, side=CSA, **common), f"{lead(state)} ends; the CSA player turn begins", ("HD-3",))
    if state.turn == TURNS:
        over = victory.after_last_turn(state)
        return Step(replace(state, victory=over), f"{lead(state)} ends: {over.result}", ("HD-6.2",))
    turn = state.turn + 1
    new_year = year_of(state.calendar[turn - 1]) if turn <= len(state.calendar) else year or state.year
    new = replace(state, side=USA, turn=turn, year=new_year, **common)
    return Step(new, f"{lead(state)} ends; {new.turn_label} begins", ("HD-3",))
