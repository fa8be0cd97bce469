"""The round around the fighting: deployment (BS-SETUP), draw (BS-DRAW), initiative (BS-INIT, BS-VAR.2),
the victory check (BS-VIC), supply (BS-SUP) and recruitment (BS-REC), then the end of the round."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.odds import Dist
from companion.spec import Barred, Choice, number, one_of, yes_no

from .initiative import InitiativeInput, resolve_initiative
from .recruitment import RecruitInput, recruits_odds, resolve_recruit
from .registry import actions, in_phase, require_phase
from .rules import (C, DEPLOY, DRAW, DRAW_BONUS, DRAW_BONUS_STATE, ROUNDS, SIDE_NAME, SIDES, SUDDEN_VP,
                    SUPPLY_BONUS_STATES, SUPPLY_GAIN, U)
from .state import (ACTION, DRAW as DRAW_PHASE, INITIATIVE, OVER, RECRUIT, SETUP, SUPPLY, VICTORY, GameState,
                    Victory, commander_choices, other, place_problem, places_commander)


def _deploy_places(state: GameState, chosen) -> list:
    """BS-SETUP: the side's own-side border states, those full barred (BS-D.1)."""
    side = state.turn
    return [Barred(a.name, a.name, "BS-D.1", why) if (why := place_problem(state, a.name, side)) else
            Choice(a.name, a.name) for a in state.board.borders if a.side == side]


@actions("Deploy a unit", "BS-SETUP",
         one_of("area", "Own-side border state", "BS-SETUP", _deploy_places),
         yes_no("commander", "This is the commander unit", "BS-SETUP",
                lambda s, c: commander_choices(s, s.turn, "BS-SETUP"), default=None),
         when=in_phase(SETUP))
def deploy(state: GameState, dice: Dice, area: str, commander: bool | None) -> Step:
    """BS-SETUP: the sides place one unit at a time, the CSA first, into own-side border states, until the
    CSA has placed 8 and the Union 7; the commander unit when chosen, or when it is all the pool holds."""
    side = state.turn
    commander = places_commander(state, side, bool(commander))
    new = state.with_count(area, side, 1)
    if commander:
        new = replace(new, commander_at={**state.commander_at, side: area})
    placed = {s: new.on_board(s) for s in SIDES}
    left = {s: DEPLOY[s] - placed[s] for s in SIDES}
    what = f"{SIDE_NAME[side]} {'commander unit' if commander else 'unit'} to {area}"
    if not any(left.values()):
        return Step(replace(new, phase=DRAW_PHASE, turn=""), f"Deployment: {what}; deployment done, round 1 begins",
                    ("BS-SETUP",))
    nxt = other(side) if left[other(side)] else side
    return Step(replace(new, turn=nxt), f"Deployment: {what} ({placed[side]} of {DEPLOY[side]})", ("BS-SETUP",))


def draw_cards(state: GameState, side: str, n: int) -> tuple[GameState, int]:
    """BS-D.9: draw n cards; an empty deck is rebuilt from the discard pile; with both empty, none is drawn."""
    deck, discard, hand = state.deck[side], state.discard[side], state.hand[side]
    drawn = 0
    for _ in range(n):
        if not deck:
            deck, discard = discard, 0
        if not deck:
            break
        deck, hand, drawn = deck - 1, hand + 1, drawn + 1
    return replace(state, deck={**state.deck, side: deck}, discard={**state.discard, side: discard},
                   hand={**state.hand, side: hand}), drawn


@actions("Draw cards", "BS-DRAW", when=in_phase(DRAW_PHASE))
def draw(state: GameState, dice: Dice) -> Step:
    """BS-DRAW: each side draws 2; whoever controls North Carolina draws 1 more."""
    bonus = state.controller(DRAW_BONUS_STATE)
    parts = []
    for side in SIDES:
        state, drawn = draw_cards(state, side, DRAW + (DRAW_BONUS if side == bonus else 0))
        parts.append(f"{SIDE_NAME[side]} {drawn}")
    extra = f" ({SIDE_NAME[bonus]} holds {DRAW_BONUS_STATE}: +{DRAW_BONUS})" if bonus else ""
    new = replace(state, phase=INITIATIVE, bids={}, initiative_winner="")
    return Step(new, f"Round {state.round}: cards drawn: {', '.join(parts)}{extra}", ("BS-DRAW", "BS-D.9"))


def _bidding(state: GameState) -> None:
    require_phase(state, INITIATIVE)
    if not state.options["initiative_bid"]:
        raise RuleError("BS-VAR.2", "The bidding variant is not in use in this game")
    if state.bids:
        raise RuleError("BS-VAR.2", "The bids are already revealed")


def _gripped(side: str):
    """BS-VAR.2: a side grips 0 up to all of its supply dice."""
    return number(side.lower(), f"{SIDE_NAME[side]} supply dice gripped", "BS-VAR.2",
                  lambda s, c: range(0, s.supply[side] + 1), default=0)


@actions("Reveal the bids", "BS-VAR.2", _gripped(C), _gripped(U), when=_bidding)
def bid(state: GameState, dice: Dice, c: int, u: int) -> Step:
    """BS-VAR.2: both sides reveal at once the supply dice they gripped; each count is added to the side's
    initiative rolls, and the dice are spent."""
    supply = {C: state.supply[C] - c, U: state.supply[U] - u}
    return Step(replace(state, bids={C: c, U: u}, supply=supply),
                f"Round {state.round}: initiative bids revealed: CSA {c}, Union {u}", ("BS-VAR.2",))


def _rolling(state: GameState) -> None:
    require_phase(state, INITIATIVE)
    if state.options["initiative_bid"] and not state.bids:
        raise RuleError("BS-VAR.2", "First both sides reveal their bids")
    if state.initiative_winner:
        raise RuleError("BS-INIT", f"{SIDE_NAME[state.initiative_winner]} has won the initiative: it chooses")


@actions("Roll for initiative", "BS-INIT", when=_rolling)
def roll_initiative(state: GameState, dice: Dice) -> Step:
    """BS-INIT: one die each (plus the bids); a tie is rolled again."""
    result = resolve_initiative(InitiativeInput(state.bids.get(C, 0), state.bids.get(U, 0)), dice)
    winner = "" if result.outcome == "tie" else result.outcome
    return Step(replace(state, initiative_winner=winner), f"Round {state.round}: {result.summary}", result.rules,
                (result,))


def _chooser(state: GameState) -> None:
    require_phase(state, INITIATIVE)
    if not state.initiative_winner:
        raise RuleError("BS-INIT", "Roll for the initiative first")


SIDE_CHOICES = tuple(Choice(side, SIDE_NAME[side]) for side in SIDES)


def _first_choices(state: GameState, chosen) -> list[Choice]:
    """BS-INIT: either side may go first; the winner's usual choice, itself, is offered first."""
    return sorted(SIDE_CHOICES, key=lambda c: c.value != state.initiative_winner)


@actions("Choose who goes first", "BS-INIT",
         one_of("first", "Goes first", "BS-INIT", _first_choices, default=None),
         when=_chooser)
def choose_first(state: GameState, dice: Dice, first: str | None) -> Step:
    """BS-INIT: the winner chooses who goes first (by default, itself); the action phase begins with each
    commander's actions."""
    first = first or state.initiative_winner
    left = {s: state.board.commanders[s][state.commander[s] - 1].actions for s in SIDES}
    new = replace(state, phase=ACTION, first=first, turn=first, actions_left=left)
    return Step(new, f"Round {state.round}: {SIDE_NAME[state.initiative_winner]} chooses: {SIDE_NAME[first]} goes "
                     f"first (actions: CSA {left[C]}, Union {left[U]})", ("BS-INIT", "BS-D.7"))


@actions("Victory check", "BS-VIC", when=in_phase(VICTORY))
def check_victory(state: GameState, dice: Dice) -> Step:
    """BS-VIC: rounds 1-3, the CSA wins at once with 10 VP; round 4, the CSA wins with more VP than the
    Union, and the Union wins otherwise (A8: round 4 only compares, by default)."""
    vp = {s: state.vp(s) for s in SIDES}
    tally = f"VP: CSA {vp[C]}, Union {vp[U]}"
    last = state.round == ROUNDS
    if vp[C] >= SUDDEN_VP and (not last or state.options["sudden_round_4"]):
        v = Victory(C, "BS-VIC.1", f"CSA victory: {vp[C]} VP (10 or more)", state.round)
    elif last:
        winner = C if vp[C] > vp[U] else U
        v = Victory(winner, "BS-VIC.2", f"{SIDE_NAME[winner]} victory after round 4: CSA {vp[C]} v Union {vp[U]}"
                                        + (" (a tie goes to the Union)" if vp[C] == vp[U] else ""), state.round)
    else:
        return Step(replace(state, phase=SUPPLY), f"Round {state.round}: {tally}; no victory yet", ("BS-VIC", "BS-VIC.1"))
    return Step(replace(state, phase=OVER, victory=v), f"Round {state.round}: {tally}: {v.text}", ("BS-VIC", v.rule))


@actions("Supply", "BS-SUP", when=in_phase(SUPPLY))
def supply(state: GameState, dice: Dice) -> Step:
    """BS-SUP / BS-D.8: +6 Union and +5 CSA, +1 for each of Kentucky and Tennessee the side controls;
    above the cap (18, or 20 in the variant) the dice are lost."""
    cap = state.supply_cap()
    new, parts = dict(state.supply), []
    for side in SIDES:
        bonus = sum(1 for s in SUPPLY_BONUS_STATES if state.controller(s) == side)
        gained = SUPPLY_GAIN[side] + bonus
        new[side] = min(cap, state.supply[side] + gained)
        parts.append(f"{SIDE_NAME[side]} +{gained}{' (capped)' if state.supply[side] + gained > cap else ''} "
                     f"= {new[side]}")
    after = start_recruitment(replace(state, supply=new, phase=RECRUIT, turn=state.first, recruited=()))
    return Step(after, f"Round {state.round}: supply: {'; '.join(parts)}", ("BS-SUP", "BS-D.8"))


def recruit_places(state: GameState, side: str) -> list[str]:
    """BS-REC: own home states with no unit, not yet rolled this phase, while the side is below its maximum
    force and has units in its pool."""
    if state.on_board(side) >= state.max_force(side) or state.pool(side) < 1:
        return []
    return [a.name for a in state.board.homes(side) if not state.count(a.name, side) and a.name not in state.recruited]


def recruit_outlook(state: GameState) -> Dist:
    """BS-REC: the units the side recruiting now may still place this phase: a roll for each home state left, no
    more than its room under the maximum force (BS-D.3) and its pool hold."""
    side = state.turn
    successes = tuple(state.board.area(p).success for p in recruit_places(state, side))
    return recruits_odds(successes, min(state.max_force(side) - state.on_board(side), state.pool(side)))


def start_recruitment(state: GameState) -> GameState:
    """Recruitment goes on with the side whose turn it is; when it has nothing left to roll, the second
    player recruits; then the round ends (BS-REC: the first player fully, then the other)."""
    if recruit_places(state, state.turn):
        return state
    if state.turn == state.first and recruit_places(state, other(state.first)):
        return replace(state, turn=other(state.first))
    return end_round(state)


def end_round(state: GameState) -> GameState:
    """The round marker moves on and every entrenched unit stands down."""
    return replace(state, round=state.round + 1, phase=DRAW_PHASE, entrenched=(), entrench_used=(), battles_done=(),
                   recruited=(), turn="", first="", initiative_winner="", bids={})


@actions("Recruitment roll", "BS-REC",
         one_of("area", "Home state to roll for", "BS-REC", lambda s, c: recruit_places(s, s.turn), default=None),
         yes_no("commander", "Place the commander unit if it succeeds", "BS-REC",
                lambda s, c: commander_choices(s, s.turn, "BS-REC"), default=None),
         when=in_phase(RECRUIT))
def recruit(state: GameState, dice: Dice, area: str | None, commander: bool | None) -> Step:
    """BS-REC: roll for one empty own home state (the player picks the order; by default the next one
    listed); on its success value a pool unit (or the commander unit) is placed there. When the commander
    unit is all the pool holds, it is the unit placed."""
    side = state.turn
    area = area or recruit_places(state, side)[0]
    commander = places_commander(state, side, bool(commander))
    result = resolve_recruit(RecruitInput(state.board.area(area).success), dice, area)
    new = replace(state, recruited=state.recruited + (area,))
    if result.outcome:
        new = new.with_count(area, side, 1)
        if commander:
            new = replace(new, commander_at={**new.commander_at, side: area})
    new = start_recruitment(new)
    tail = " (the commander unit)" if commander and result.outcome else ""
    tail += f"; round {new.round} begins" if new.phase == DRAW_PHASE else ""
    return Step(new, f"Round {state.round}: {SIDE_NAME[side]}: {result.summary}{tail}", result.rules, (result,))
