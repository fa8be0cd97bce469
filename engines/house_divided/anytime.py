"""What the players enter at any time of the game to keep the record in line with their table (not steps of the
sequence of play: corrections, in the specs' terms): control of a box as their map shows it (HD-8, with the capture
of Washington, HD-4.7, HD-5.10), the basic rules' MM changes (HD-6.3), the basic-rules form (HD-4.10), and the
leaders' counters entering or turning (HD-5.7). Victory is re-checked after every MM change (HD-6.3)."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import Barred, Choice, number, one_of, record, text

from . import battle as fight
from . import victory
from .actions import actions, boxes, finish, lead, offer, playing, requires, sides, tail
from .basic import basic_rules_from
from .movement import garrison_due
from .rules import CSA, SIDE_NAME, USA, WASHINGTON, WASHINGTON_RECAPTURE
from .state import BACK, ON_MAP, WAITING, GameState
from .washington import WashingtonInput, resolve_washington

NO_TRACK = 999  # the highest MM an entered change reaches when the players give no track size


def _victory(state: GameState, text: str) -> tuple[GameState, str]:
    checked = victory.check(state)
    return checked, text + (f"; {checked.victory.result}" if checked.victory else "")


# --- HD-8 control, HD-4.7 Washington -----------------------------------------------------------------------------

def holder(side: str) -> str:
    return "held by " + SIDE_NAME[side] if side else "uncontrolled"


def _new_controller(state: GameState, chosen) -> list:
    """Anyone but the box's controller now; the Union not at a port its landing has yet to take from the
    coastal garrison (HD-4.11)."""
    box = chosen["box"]
    found = []
    for side, label in ((USA, "the Union"), (CSA, "the CSA"), ("", "nobody")):
        refusal = None
        if state.controller(box) == side:
            refusal = RuleError("HD-8", f"{box} is already {holder(side)}")
        elif side == USA and box in garrison_due(state):
            refusal = RuleError("HD-4.11", f"{box} is not taken by a landing until its coastal garrison is beaten")
        found.append(offer(side, label, refusal))
    return found


@actions("Set control", "HD-8",
         one_of("box", "Box", "HD-8", lambda s, c: boxes(s, "HD-8", "Europe is no one's to control")),
         one_of("side", "Now held by", "HD-8", _new_controller),
         when=playing, correction=True)
def set_control(state: GameState, dice: Dice, box: str, side: str) -> Step:
    """A box changes hands (as the players' map shows). A CSA capture of Washington costs the Union MM at
    once (HD-4.7, every capture: HD-5.10; not a win, HD-6.1); a Union recapture gives back 1 MM."""
    control = {**state.control, box: side} if side else {b: s for b, s in state.control.items() if b != box}
    new = replace(state, control=control)
    text, rules = f"{box} now {holder(side)}", ["HD-8"]
    if box == state.game_map.role(WASHINGTON) and state.options["washington"]:
        if side == CSA:
            new = replace(new, washington_due=True)
            text += ": not a CSA win (HD-6.1); roll the Union MM loss at once"
            rules += ["HD-4.7", "HD-5.10", "HD-6.1"]
        elif side == USA and state.controller(box) == CSA:
            mm = state.mm_usa + WASHINGTON_RECAPTURE
            new = replace(new, mm_usa=mm if state.mm_track is None else min(mm, state.mm_track))
            top = " (the top of the track)" if new.mm_usa < mm else ""
            text += f": recaptured, Union MM +{WASHINGTON_RECAPTURE} ({state.mm_usa} -> {new.mm_usa}{top})"
            rules += ["HD-4.7", "HD-6.3"]
    new, lines = _victory(new, text)
    return Step(new, f"{lead(state)}: {lines}", tuple(rules) + (("HD-6.2",) if new.victory else ()))


def _loss_due(state: GameState) -> None:
    if state.victory:
        raise RuleError(state.victory.rule, f"The game is over: {state.victory.result}")
    if not state.washington_due:
        raise RuleError("HD-4.7", "The Union MM loss is rolled when the CSA takes Washington")


@actions("Washington has fallen", "HD-4.7", when=_loss_due)
def washington_loss(state: GameState, dice: Dice) -> Step:
    """HD-4.7: the Union MM falls by a d6 (a 1 counts as 2); A9 says whether the normal 1-point loss adds."""
    result = resolve_washington(WashingtonInput(state.mm_usa, state.options["washington_loss"]), dice)
    new = replace(state, mm_usa=result.details["mm_after"], washington_due=False)
    new, text = _victory(new, result.summary)
    rules = result.rules + ("HD-A9", "HD-6.3") + (("HD-6.2",) if new.victory else ())
    return Step(new, f"{lead(state)}: {text}", rules, (result,))


# --- HD-6.3 MM -----------------------------------------------------------------------------------------------------

def _mm_change(state: GameState, chosen) -> range:
    """The changes that keep the side's MM on the track: 0 up to its size (the players' entry)."""
    mm = state.mm(chosen["side"])
    top = state.mm_track if state.mm_track is not None else max(NO_TRACK, mm)
    return range(-mm, top - mm + 1)


@actions("Change MM", "HD-6.3",
         one_of("side", "Side", "HD-6.3", lambda s, c: sides(s)),
         number("change", "MM change (+/-)", "HD-6.3", _mm_change, suggest=lambda s, c: 0),
         text("reason", "Why (basic rules: recruitment, cities ...)", "HD-6.3", default=""),
         when=playing, correction=True)
def adjust_mm(state: GameState, dice: Dice, side: str, change: int, reason: str) -> Step:
    """An MM change from the basic rules (recruitment, captured cities): the players' arithmetic. Victory
    is re-checked after it (HD-6.3)."""
    after = state.mm(side) + change
    new = replace(state, **{"mm_usa" if side == USA else "mm_csa": after})
    why = f" ({reason.strip()})" if reason.strip() else ""
    new, text = _victory(new, f"{side} MM {state.mm(side)} -> {after}{why}")
    return Step(new, f"{lead(state)}: {text}", ("HD-6.3", "HD-6.2") if new.victory else ("HD-6.3",))


# --- HD-4.10 the basic-rules form -----------------------------------------------------------------------------------

def _between_rounds(state: GameState) -> None:
    playing(state)
    if state.battle is not None and (any(s.fired or s.hits_due for s in state.battle.sides) or
                                     fight.due(state).kind == fight.MORALE):
        raise RuleError("HD-4.10", "Change the basic rules between rounds")


@actions("Basic rules", "HD-4.10",
         record("settings", "The basic-rules form, from your own rulebook", "HD-4.10"),
         when=_between_rounds, correction=True)
def configure_basic_rules(state: GameState, dice: Dice, settings) -> Step:
    """HD-4.10: the basic-rules form, filled or corrected from the players' rulebook (not in mid-round)."""
    basic = basic_rules_from(settings)
    gaps = basic.missing()
    text = "basic rules entered" + (f" (still missing: {', '.join(gaps)})" if gaps else ": fire can be resolved")
    return Step(replace(state, basic=basic), f"{lead(state)}: {text}", ("HD-4.10",))


# --- HD-5.7 the leaders' counters -------------------------------------------------------------------------------------

def _outside_battles(state: GameState) -> None:
    playing(state)
    if state.battle is not None:
        raise RuleError("HD-5.7", "A leader's counter is placed or turned outside a battle")


def _entering(state: GameState, chosen) -> list:
    """The phasing side's leaders off the map (not yet entered, or back from captivity); the others barred."""
    found = []
    for l in state.leaders:
        refusal = None
        if l.status == ON_MAP:
            refusal = RuleError("HD-5.7", f"{l.name} is on the map, at {l.box}")
        elif l.status != WAITING:
            refusal = RuleError("HD-5.7", f"{l.name} is captured: he returns in his side's next recruitment segment")
        elif l.side != state.side:
            refusal = RuleError("HD-5.7", f"{l.name} enters in his own side's turn")
        found.append(offer(l.name, f"{l.name} (rating {l.rating})", refusal))
    return found


def _leaders_enter(state: GameState) -> None:
    _outside_battles(state)
    requires("leaders", "HD-5.7", "leader")(state)


@actions("Place a leader", "HD-5.7",
         one_of("leader", "Leader", "HD-5.7", _entering),
         one_of("box", "Box", "HD-5.7", lambda s, c: boxes(s, "HD-5.7", "A leader does not go to Europe")),
         when=_leaders_enter, correction=True)
def place_leader(state: GameState, dice: Dice, leader: str, box: str) -> Step:
    """HD-5.7: a leader enters (at his counter's date) or comes back from captivity, in his side's turn."""
    chief = state.leader(leader)
    new = state.with_leaders({chief.name: replace(chief, box=box, status=ON_MAP)})
    new, lines = finish(new)
    return Step(new, f"{lead(state)}: {chief.name} (rating {chief.rating}) at {box}{tail(lines)}", ("HD-5.7",))


def _turning(state: GameState, chosen) -> list:
    """Leaders whose counter has a back face not yet shown."""
    return [Choice(l.name, f"{l.name} ({l.rating} -> {l.back})") if l.back is not None and l.face != BACK else
            Barred(l.name, l.name, "HD-5.7", f"{l.name} has no back face to turn to" if l.back is None else
                   f"{l.name} already shows his back face") for l in state.leaders]


@actions("Turn a leader's counter", "HD-5.7",
         one_of("leader", "Leader", "HD-5.7", _turning),
         when=_outside_battles, correction=True)
def flip_leader(state: GameState, dice: Dice, leader: str) -> Step:
    """HD-5.7: the dated face change (Lee's rating falls after Jackson's death; Grant's and Sherman's rise)."""
    chief = state.leader(leader)
    new = state.with_leaders({chief.name: replace(chief, face=BACK)})
    return Step(new, f"{lead(state)}: {chief.name}'s counter turns: rating {chief.rating} -> {chief.back}",
                ("HD-5.7",))
