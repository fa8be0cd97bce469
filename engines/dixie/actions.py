"""Dixie: Gettysburg: the actions of the game, in the order of play (DX-3.2 deployment, DX-5.0 the turn). This
module holds the deployment, the morale step, disorder, specials, reinforcements, the army commander and the
historical day (DX-14.0); the combat step is in combat_step.py, the Movement step in movement_step.py.

Each action declares its parameters and what may be chosen now (companion.spec); a value that one rule bars
now is listed with that rule and its reason. An action that breaks a rule raises RuleError (naming the rule)
and changes nothing; otherwise it returns a Step with the new state, a one-line summary and the rules it
applied. Summaries are public: a face-down card is never named in them; an action that names a card the enemy
may not see (a deployment face-down, a decoy, a draw, a check of a card in the reserve) is `private` to its side.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable

from companion.dice import Dice
from companion.engine import Result, RuleError, Step
from companion.spec import NOT_ASKED, Actions, Barred, Choice, Pick, one_of, some_of, yes_no

from .board import DECK, REINFORCEMENTS, RESERVE, line_positions, other
from .cards import mode as deck_mode
from .command import check_designation, in_play
from .deployment import check_placing, deploy_choices, placed
from .disorder import DisorderInput, resolve_disorder
from .flow import TASK_ACTIONS, duty, eliminate, morale_due, next_turn, settle, settle_notes
from .leaders import KILLED, LeaderCheckInput, resolve_leader_check
from .modifiers import checks, melee_share, morale_terms, told
from .morale import ROUTS, MoraleInput, resolve_morale
from .movement import disengage, moved_to, stacking_fault
from .rules import CSA, DAY_FLOW, DAYS, DECOY_TYPES, DRAWS, FIRST_SIDE, LDR, SPC, USA
from .specials import check_special_limit, played
from .stacking import over_limit, room
from .state import (
    ATTACKING,
    DEPLOY,
    DUSK,
    MORALE,
    MOVEMENT,
    NIGHT,
    OVER,
    REINFORCEMENT,
    COMBAT,
    STEP_NAMES,
    Card,
    GameState,
    Victory,
    fault,
    label,
    public,
    sees,
)

actions = Actions("DX-5.0")
DUTIES = (*TASK_ACTIONS.values(), "disorder")   # actions open only when due


# --- when an action is open -----------------------------------------------------------------------------

def not_over(state: GameState) -> None:
    if state.step == OVER:
        raise RuleError("DX-4.0", f"The game is over: {state.victory.text}")


def first_duty(state: GameState, action: str) -> None:
    """Refuse anything but the duty in hand (DX-7.3, DX-8.3a ...), and a duty that is not due."""
    due = duty(state)
    if due and due.action != action:
        raise RuleError(due.rule, f"First: {due.text}")
    if not due and action in DUTIES:
        raise RuleError("DX-5.0", "Nothing of that kind is due now")


def in_step(*steps: str, rule: str = "DX-5.0", action: str = "") -> Callable[[GameState], None]:
    """The `when` of an action of these steps: the game not over, one of the steps now and, for `action`,
    nothing else due first."""
    wanted = " or ".join(STEP_NAMES[s] for s in steps)

    def when(state: GameState) -> None:
        not_over(state)
        if state.step not in steps:
            raise RuleError(rule, f"This belongs to the {wanted}; it is the {STEP_NAMES[state.step]}")
        if action:
            first_duty(state, action)
    return when


def when_due(action: str) -> Callable[[GameState], None]:
    """The `when` of a duty: hits to place, checks at once, a flank attack's fire, disengagements, disorder."""
    def when(state: GameState) -> None:
        not_over(state)
        first_duty(state, action)
    return when


# --- choices ------------------------------------------------------------------------------------------------

def sorted_out(items: Iterable[Any], faults: Callable[[Any], RuleError | None],
               name: Callable[[Any], str] = str) -> list:
    """Each item as a Choice, or, when `faults(item)` names a rule it breaks, Barred with that rule and reason."""
    found = []
    for item in items:
        error = faults(item)
        found.append(Choice(item, name(item)) if error is None else Barred(item, name(item), error.rule,
                                                                           error.message))
    return found


def per_state(choices: Callable[[GameState, Any], Any]) -> Callable[[GameState, Any], Any]:
    """Choices that do not depend on the parameters chosen before them: worked out once for a state."""
    key = ("choices", choices.__module__, choices.__qualname__)

    def cached(state: GameState, chosen) -> Any:
        return state.once(key, lambda: choices(state, chosen))
    return cached


def first_fault(faults: Iterable[RuleError | None]) -> RuleError | None:
    """None when any way is open, else the first refusal."""
    faults = list(faults)
    return None if any(f is None for f in faults) else faults[0]


def cards_of(state: GameState, ids: Iterable[str]) -> list[Card]:
    return [state.card(i) for i in ids]


def card_choices(state: GameState, ids: Iterable[str]) -> list[Choice]:
    return [Choice(i, label(state.card(i))) for i in ids]


# --- shared helpers -------------------------------------------------------------------------------------------

def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _when(state: GameState) -> str:
    if state.step == DEPLOY:
        return "Deployment"
    if state.step in (DUSK, NIGHT):
        return f"Night after day {state.day}"
    day = f"day {state.day}, " if state.options["historical"] else ""
    return f"Turn {state.turn} ({day}{state.active})"


def done(state: GameState, new: GameState, summary: str, rules, results=()) -> Step:
    """The step of an action: the new state settled (holders, lone leaders, melees over, victory), the summary
    with what settling did."""
    settled = settle(new)
    notes, more = settle_notes(new, settled)
    rules = tuple(dict.fromkeys([*rules, *(r for res in results for r in res.rules), *more]))
    return Step(settled, f"{_when(state)}: {'; '.join([summary, *notes])}", rules, tuple(results))


def private(step: Step, side: str, cards: Iterable[Card], before: GameState, what: str, detail: str = "") -> Step:
    """Digest section 2: when the action names cards of `side` that the enemy saw neither before nor after it, its
    parameters, its dice and `detail` (naming those cards: "what: ...") go only to `side`'s page; the summary names
    them only as face-down cards."""
    enemy = other(side)
    hidden = [c for c in cards if not sees(before.card(c.id), enemy) and not sees(step.state.card(c.id), enemy)]
    if not hidden:
        return step
    return replace(step, owner=side, detail=detail or f"{what}: {', '.join(label(c) for c in hidden)}")


def check_stacking(state: GameState, side: str | None, rule: str = "DX-3.1") -> None:
    over = over_limit(state, side)
    if over:
        s, pos = over[0]
        raise RuleError(rule, f"{s} has more units in {pos} than its stacking limit allows: "
                              f"{room(state, s, pos) * -1} too many")


def _draw(state: GameState, side: str, pile: str, count: int, named: list | None, dice: Dice, rule: str,
          what: str) -> list[Card]:
    """Cards drawn from a hidden pile: the ones the player names, or (none named) random ones by dice."""
    if named:
        return cards_of(state, named)
    deck = list(state.at(pile, side))
    picked = []
    for _ in range(min(count, len(deck))):
        face = dice.d(len(deck), f"{side} draws from the {what} ({rule})") if len(deck) > 1 else 1   # the last card
        picked.append(deck.pop(face - 1))
    return picked


def _drawing(pile: str, count: Callable[[GameState, str], int], but: str = ""):
    """The choices of cards named as drawn from a hidden pile: exactly as many as are drawn, or none (the dice
    draw them)."""
    def choices(state: GameState, chosen) -> Pick:
        side = drawing_side(state)
        deck = [c.id for c in state.at(pile, side)] if side else []
        if but:
            if not chosen.get(but):
                return NOT_ASKED
            deck = [i for i in deck if i not in chosen[but]]
        n = min(count(state, side), len(deck)) if side else 0
        return Pick(card_choices(state, deck), 0, n, fits=lambda picked: len(picked) in (0, n))
    return choices


def drawing_side(state: GameState) -> str:
    """Who draws now: the active side in its reinforcement step; at night the first side yet to draw."""
    if state.step in (DUSK, NIGHT):
        return next((s for s in (CSA, USA) if s not in state.night_done), "")
    return state.active


# --- DX-3.2 deployment ----------------------------------------------------------------------------------

@per_state
def _deploy_cards(state: GameState, chosen) -> list:
    table = deploy_choices(state)
    return sorted_out(table, lambda i: first_fault(f for p in table[i].values() for f in p.values()),
                      lambda i: label(state.card(i)))


def _deploy_positions(state: GameState, chosen) -> list:
    places = deploy_choices(state).get(chosen["card"], {})
    return sorted_out(places, lambda p: first_fault(places[p].values()))


def _deploy_decoy(state: GameState, chosen):
    if not state.options["decoys"]:
        return NOT_ASKED
    answers = deploy_choices(state).get(chosen["card"], {}).get(chosen["position"], {})
    return sorted_out(answers, answers.get, lambda d: "yes" if d else "no")


@actions("Deploy a card", "DX-3.2",
         one_of("card", "Card from a reserve", "DX-3.2", _deploy_cards),
         one_of("position", "Into", "DX-3.2", _deploy_positions),
         yes_no("decoy", "Face-down as a decoy (13.6)", "DX-13.6", _deploy_decoy, default=False),
         when=in_step(DEPLOY, NIGHT, rule="DX-3.2"))
def deploy(state: GameState, dice: Dice, card: str, position: str, decoy: bool) -> Step:
    """DX-3.2 / DX-3.3: a muster card into one of its side's positions: units face-down, terrain, leaders and
    specials face-up (decoys face-down, DX-13.6). At night (DX-14.0) reserve cards go into own positions
    without enemy units. Stacking is checked when the battle (or the day) starts, and no card may go where its
    side could not be within its limits by then (DX-3.1)."""
    new = placed(state, state.card(card), position, decoy)
    step = done(state, new, f"{public(new.card(card))} to {position}", ("DX-3.2",) + (("DX-13.6",) if decoy else ()))
    return private(step, new.card(card).side, [new.card(card)], state, "Deployed face-down")


def _decoy_open(state: GameState) -> None:
    in_step(DEPLOY, MOVEMENT, NIGHT, rule="DX-13.6", action="place_decoy")(state)
    if not state.options["decoys"]:
        raise RuleError("DX-13.6", "Decoys (13.6) are off")


def decoy_faults(state: GameState) -> dict[str, dict[str, RuleError | None]]:
    """Every reserve card that may be a decoy (DX-13.6): each own-line position, with the rule a decoy there
    breaks (None when legal); in the Movement step only the moving side's cards, and the movement must still be
    able to end within the stacking limits (DX-3.1)."""
    def work():
        if state.step != MOVEMENT:
            found = {i: {p: d[True] for p, d in places.items() if True in d}
                     for i, places in deploy_choices(state).items()}
        else:
            found = {c.id: {p: fault(check_placing, state, c, p, True) or
                            stacking_fault(state, placed(state, c, p, True))
                            for p in line_positions(c.side, state.width)}
                     for c in state.at(RESERVE, state.active)}
        return {i: places for i, places in found.items() if places and state.card(i).spec.type in DECOY_TYPES}
    return state.once("decoys", work)


@per_state
def _decoy_cards(state: GameState, chosen) -> list:
    table = decoy_faults(state)
    return sorted_out(table, lambda i: first_fault(table[i].values()), lambda i: label(state.card(i)))


@actions("Place a decoy", "DX-13.6",
         one_of("card", "Leader, special or terrain from the reserve", "DX-13.6", _decoy_cards),
         one_of("position", "Face-down into", "DX-13.6",
                lambda s, c: sorted_out(decoy_faults(s).get(c["card"], {}), decoy_faults(s).get(c["card"], {}).get)),
         when=_decoy_open)
def place_decoy(state: GameState, dice: Dice, card: str, position: str) -> Step:
    """DX-13.6: a leader, special or terrain goes face-down as a decoy into an own-line position without enemy
    units, at deployment or in the Movement step."""
    c = state.card(card)
    new = placed(state, c, position, True)
    return private(done(state, new, f"{c.side} places a face-down card in {position}", ("DX-13.6",)), c.side, [c],
                   state, "The decoy")


def _battle_can_start(state: GameState) -> None:
    in_step(DEPLOY, rule="DX-3.2")(state)
    check_stacking(state, None)


@actions("Start the battle", "DX-3.2", when=_battle_can_start)
def start_battle(state: GameState, dice: Dice) -> Step:
    """DX-3.2 / DX-3.1: the deployment is done within the stacking limits; the CSA takes turn 1 (DX-5.0)."""
    counts = ", ".join(f"{s} {sum(1 for c in state.cards if c.side == s and c.loc in state.holder)}"
                       for s in (CSA, USA))
    new = next_turn(state, FIRST_SIDE)
    return done(state, new, f"deployment done ({counts} cards on the field); the CSA begins", ("DX-3.2", "DX-5.0"))


# --- DX-6.0 the morale step --------------------------------------------------------------------------------

def check_leader_hits(state: GameState, leader: Card, dice: Dice, melee: bool = False) -> tuple[GameState, Result]:
    """DX-11.3: one die per hit, a 6 kills; in a melee's checks at once the hits A21 says (`melee_share`)."""
    hits = sum(melee_share(state, leader)) if melee else leader.hits
    result = resolve_leader_check(LeaderCheckInput(hits), dice, public(leader))
    after = eliminate(leader) if result.outcome == KILLED else replace(leader, hits=leader.hits - hits, melee_hits=0)
    return state.with_cards(after), result


def check_unit_hits(state: GameState, unit: Card, dice: Dice, melee: bool = False) -> tuple[GameState, list[Result]]:
    """DX-6.0: one die per hit against the unit's morale; a failure routs it. In a melee's checks at once the
    hits A21 says, terrain ignored for melee hits (`checks`); hits left unchecked wait for the morale step."""
    throws = [(t, h) for t, h in checks(state, unit, melee) if h]
    results = [resolve_morale(MoraleInput(t.total, h, told(unit, t)), dice, public(unit)) for t, h in throws]
    left = unit.hits - sum(h for _, h in throws)
    routs = any(r.outcome == ROUTS for r in results)
    after = eliminate(unit) if routs else replace(unit, hits=left, melee_hits=0)
    return state.with_cards(after), results


def _hits(card: Card) -> str:
    return f"{label(card)}: {plural(card.hits, 'hit')}"


@per_state
def _leaders_due(state: GameState, chosen) -> list:
    return [Choice(c.id, _hits(c)) for c in morale_due(state, state.active)[0]]


@per_state
def _units_due(state: GameState, chosen) -> list:
    """DX-6.0, after every leader check (DX-11.3)."""
    leaders, units = morale_due(state, state.active)
    return [Barred(c.id, _hits(c), "DX-11.3", "Leader checks come before any other check") if leaders
            else Choice(c.id, _hits(c)) for c in units]


@actions("Check a leader's hits", "DX-11.3", one_of("card", "Leader", "DX-11.3", _leaders_due),
         when=in_step(MORALE, rule="DX-6.0"))
def check_leader(state: GameState, dice: Dice, card: str) -> Step:
    """DX-11.3: in the morale step, before any other check, a leader rolls one die per hit: any 6 kills it."""
    new, result = check_leader_hits(state, state.card(card), dice)
    return private(done(state, new, result.summary, ("DX-11.3",), (result,)), state.active, [state.card(card)], state,
                   "Checked")


@actions("Check a card's morale", "DX-6.0", one_of("card", "Card", "DX-6.0", _units_due),
         when=in_step(MORALE, rule="DX-6.0"))
def check_morale(state: GameState, dice: Dice, card: str) -> Step:
    """DX-6.0: one die per hit against the card's modified morale; a failure routs it."""
    new, results = check_unit_hits(state, state.card(card), dice)
    return private(done(state, new, "; ".join(r.summary for r in results), ("DX-6.0",), results), state.active,
                   [state.card(card)], state, "Checked")


def _checks_due(state: GameState) -> None:
    in_step(MORALE, rule="DX-6.0")(state)
    if not any(morale_due(state, state.active)):
        raise RuleError("DX-6.0", "No card of the side holds hits")


@actions("Roll the whole morale step", "DX-6.0", when=_checks_due)
def morale_step(state: GameState, dice: Dice) -> Step:
    """DX-5.0 step 1: every check still due, leaders first (DX-11.3), then units (DX-6.0)."""
    leaders, units = morale_due(state, state.active)
    new, results = state, []
    for leader in leaders:
        new, result = check_leader_hits(new, leader, dice)
        results.append(result)
    for unit in units:
        new, checked = check_unit_hits(new, new.card(unit.id), dice)
        results += checked
    return private(done(state, new, "; ".join(r.summary for r in results), ("DX-6.0",), results), state.active,
                   leaders + units, state, "Checked")


def _checked(rule: str, action: str, day_ending: bool) -> Callable[[GameState], None]:
    """The `when` of the end of a morale step: every hit checked, nothing due, and the day ending or not."""
    def when(state: GameState) -> None:
        in_step(MORALE, rule=rule)(state)
        if any(morale_due(state, state.active)):
            raise RuleError("DX-6.0", "Check every hit first")
        first_duty(state, action)
        if state.day_ending != day_ending:
            raise RuleError("DX-14.0", "The day ends now: end the day" if state.day_ending else
                            "The day is not over: the USA has reinforcements left")
    return when


@actions("End the morale step", "DX-5.0", when=_checked("DX-5.0", "end_morale", False))
def end_morale(state: GameState, dice: Dice) -> Step:
    """DX-5.0: the morale step ends when every hit is checked and no position is in disorder."""
    return done(state, replace(state, step=COMBAT), "morale step done; combat step", ("DX-5.0",))


# --- DX-8.3a disorder ------------------------------------------------------------------------------------------

@per_state
def _disorder_card(state: GameState, chosen):
    """A13 option: the owner chooses the card that checks; else every unit checks at once."""
    over = over_limit(state)
    if not state.options["disorder_one_at_a_time"]:
        return NOT_ASKED
    return card_choices(state, [c.id for c in state.units(over[0][1], over[0][0])] if over else [])


@actions("Disorder checks", "DX-8.3a", one_of("card", "Card to check (one at a time, as chosen under Options)", "DX-8.3a", _disorder_card,
                                              default=None),
         when=when_due("disorder"))
def disorder(state: GameState, dice: Dice, card: str | None) -> Step:
    """DX-8.3a: every unit of the side over its limit checks morale; failures go to the reserve (A13 option:
    one card at a time, the owner choosing which)."""
    side, pos = over_limit(state)[0]
    units = state.units(pos, side)
    if state.options["disorder_one_at_a_time"]:
        units = [units[0] if card is None else state.card(card)]
    parts = [morale_terms(state, u) for u in units]
    checking = DisorderInput(tuple(t.total for t in parts), tuple(told(u, t) for u, t in zip(units, parts)))
    result = resolve_disorder(checking, dice, tuple(public(u) for u in units))
    sent = [moved_to(u, RESERVE) for u, failed in zip(units, result.details["failed"]) if failed]
    new = state.with_cards(*sent)
    still = ", still over the limit" if (side, pos) in over_limit(new, side) else ""
    tail = f"; {len(sent)} to the reserve{still}"
    return private(done(state, new, f"{side} in {pos}: {result.summary}{tail}", ("DX-8.3a",), (result,)), side,
                   units, state, "Checked")


# --- DX-12.0 specials --------------------------------------------------------------------------------------------

@per_state
def _special_cards(state: GameState, chosen) -> list:
    """Specials in a reserve, in their owner's turn or, if so printed, the enemy's, with a position to go to."""
    found = []
    for c in state.at(RESERVE):
        if c.spec.type == SPC and (c.side == state.active) == (c.spec.timing == "own") and \
                any(fault(check_special_limit, state, c, p) is None for p in state.positions):
            found.append(Choice(c.id, label(c)))
    return found


@actions("Play a special card", "DX-12.0",
         one_of("card", "Special card from a reserve", "DX-12.0", _special_cards),
         one_of("position", "Onto", "DX-12.0",
                lambda s, c: sorted_out(s.positions, lambda p: fault(check_special_limit, s, s.card(c["card"]), p))),
         when=in_step(MORALE, COMBAT, MOVEMENT, REINFORCEMENT, rule="DX-12.0"))
def play_special(state: GameState, dice: Dice, card: str, position: str) -> Step:
    """DX-12.0: a special from the reserve onto any position (A7), in its owner's turn or, if so printed, the
    enemy's; at most 2 per position per phase and different cards. It lasts for the turn unless printed."""
    c = state.card(card)
    new = played(state, c, position, state.turn)
    return done(state, new, f"{c.side} plays {c.spec.label} on {position}", ("DX-12.0",))


# --- DX-9.0 reinforcement -----------------------------------------------------------------------------------

def _draws(state: GameState, side: str) -> int:
    return DRAWS[deck_mode(state.options)][side]


@actions("Draw reinforcements", "DX-9.0",
         some_of("cards", "Cards drawn (name them, or leave it to the dice)", "DX-9.0",
                 _drawing(REINFORCEMENTS, _draws), default=None),
         when=in_step(REINFORCEMENT, rule="DX-9.0", action="reinforce"))
def reinforce(state: GameState, dice: Dice, cards: list | None) -> Step:
    """DX-9.0: draw 1 card (CSA) or 2 (USA) into the reserve (14.0: 1 each); then the turn passes. Name the
    cards drawn, or let the companion draw them at random."""
    side = state.active
    drawn = _draw(state, side, REINFORCEMENTS, _draws(state, side), cards, dice, "DX-9.0", "reinforcement deck")
    new = state.with_cards(*(replace(c, loc=RESERVE, face_up=False) for c in drawn))
    ending = state.options["historical"] and side == USA and drawn and not new.at(REINFORCEMENTS, USA)
    new = replace(next_turn(new), day_ending=bool(ending))
    tail = "; the day ends after the CSA morale step" if ending else ""
    step = done(state, new, f"{side} draws {plural(len(drawn), 'card')}{tail}; turn {new.turn}, {new.active}",
                ("DX-9.0", "DX-5.0", *(("DX-14.0",) if ending else ())))
    return private(step, side, drawn, state, "Drawn")


# --- DX-13.7 the army commander --------------------------------------------------------------------------------

def _designation_open(state: GameState) -> None:
    not_over(state)
    if not state.options["corps_command"]:
        raise RuleError("DX-13.7", "Army commanders are designated only with corps command (13.7)")


@per_state
def _designable(state: GameState, chosen) -> list:
    return [Choice(c.id, label(c)) for c in state.cards if c.spec.type == LDR and in_play(c)
            and fault(check_designation, state, c) is None]


@actions("Designate an army commander", "DX-13.7",
         one_of("leader", "Leader", "DX-13.7", _designable),
         when=_designation_open)
def designate(state: GameState, dice: Dice, leader: str) -> Step:
    """DX-13.7: with no army commander in play, a 3-star corps commander (USA: a wing commander if one is
    present) becomes army commander, irrevocably (A16: a wing commander's claim may override)."""
    c = state.card(leader)
    new = replace(state, army_commander={**state.army_commander, c.side: c.id})
    return private(done(state, new, f"{public(c)} is designated {c.side} army commander", ("DX-13.7",)), c.side, [c],
                   state, "Designated")


# --- DX-14.0 the historical day flow ------------------------------------------------------------------------

def _attackers_out(state: GameState) -> tuple[GameState, list[str]]:
    """DX-14.0 / A17: every attacking unit sharing a position with enemy units disengages (DX-8.2): across the
    Middle Ground from the enemy line, to the reserve from its own line; with nowhere to go, A23. Unit cards
    only: a leader left alone with enemy units dies (DX-11.3)."""
    attackers = [c for pos in state.positions if state.engaged(pos) for side in (CSA, USA)
                 if state.stance(side, pos) == ATTACKING for c in state.units(pos, side)]
    texts = []
    for c in attackers:
        state, text = disengage(state, state.card(c.id))
        texts.append(text)
    return state, texts


@actions("End the day", "DX-14.0", when=_checked("DX-14.0", "end_day", True))
def end_day(state: GameState, dice: Dice) -> Step:
    """DX-14.0: after the USA draws its last reinforcement the CSA takes its morale step and the day ends;
    attacking units disengage (A17). After day 3 the USA wins if the CSA has not."""
    new, moves = _attackers_out(state)
    if state.day >= DAYS:
        new = replace(new, step=OVER, victory=Victory(USA, f"the CSA has not won by the end of day {DAYS}",
                                                      "DX-14.0"))
        return done(state, new, f"day {state.day} ends: the USA wins", ("DX-14.0",))
    new = replace(new, step=DUSK, day_ending=False, night_done=())
    return done(state, new, "; ".join([f"day {state.day} ends; attacking units disengage", *moves]),
                ("DX-14.0", "DX-8.2"))


def _night_draw_open(state: GameState) -> None:
    in_step(DUSK, NIGHT, rule="DX-14.0", action="night_draw")(state)
    if not drawing_side(state):
        raise RuleError("DX-14.0", "Both sides have drawn: deploy, then start the day")


def _night(which: int) -> Callable[[GameState, str], int]:
    """DX-14.0: the night's N (0) or R (1) for the side, by the day to come."""
    return lambda state, side: DAY_FLOW.get(state.day + 1, {}).get(side, (0, 0))[which]


@actions("Night draw", "DX-14.0",
         some_of("cards", "Cards drawn into the reserve (name them, or leave it to the dice)", "DX-14.0",
                 _drawing(DECK, _night(0)), default=None),
         some_of("reinforcements", "Cards set aside as the next day's reinforcements", "DX-14.0",
                 _drawing(DECK, _night(1), but="cards"), default=None),
         when=_night_draw_open)
def night_draw(state: GameState, dice: Dice, cards: list | None, reinforcements: list | None) -> Step:
    """DX-14.0: at night each side draws its N cards into the reserve and sets aside the next R6 as the next
    day's reinforcement deck (CSA first). Name the cards, or let the companion draw them."""
    side = drawing_side(state)
    n, r = DAY_FLOW[state.day + 1][side]
    drawn = _draw(state, side, DECK, n, cards, dice, "DX-14.0", "battle deck")
    rest = state.with_cards(*(replace(c, loc=RESERVE) for c in drawn))
    aside = _draw(rest, side, DECK, r, reinforcements, dice, "DX-14.0", "battle deck")
    new = rest.with_cards(*(replace(c, loc=REINFORCEMENTS) for c in aside))
    new = replace(new, step=NIGHT, night_done=state.night_done + (side,))
    step = done(state, new, f"{side} draws {plural(len(drawn), 'card')} at night and sets {len(aside)} aside",
                ("DX-14.0",))
    return private(step, side, drawn + aside, state, "", f"Drawn: {', '.join(map(label, drawn)) or 'none'}; set aside: "
                                                         f"{', '.join(map(label, aside)) or 'none'}")


def _day_can_start(state: GameState) -> None:
    in_step(NIGHT, rule="DX-14.0")(state)
    if len(state.night_done) < 2:
        raise RuleError("DX-14.0", "Both sides make their night draw first")
    check_stacking(state, None)


@actions("Start the day", "DX-14.0", when=_day_can_start)
def start_day(state: GameState, dice: Dice) -> Step:
    """DX-14.0: when both sides have drawn and deployed within the stacking limits, the new day starts with a
    CSA turn."""
    new = replace(next_turn(state, FIRST_SIDE), day=state.day + 1, night_done=())
    return done(state, new, f"day {state.day + 1} begins", ("DX-14.0",))
