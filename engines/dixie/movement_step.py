"""The Movement step (DX-8.0): moves one card at a time; terrain played from the reserve (DX-10.2), decoys placed
and revealed (DX-13.6), flank attacks (DX-13.3) with their fire at once, horse artillery's fire after its move
(DX-7.2, in combat_step.py); when all moves are done the side must be within its stacking limits (DX-3.1) and
every card in an engaged position is revealed (DX-8.1)."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Barred, Choice, Pick, one_of, some_of
from companion.terms import Terms

from .actions import (
    actions,
    card_choices,
    cards_of,
    check_stacking,
    done,
    first_fault,
    in_step,
    per_state,
    plural,
    private,
    sorted_out,
    when_due,
)
from .board import RESERVE, is_flank, other, terrain_positions
from .combat_step import battery_pick, named_batteries, volley
from .flank import FlankInput, resolve_flank
from .flow import eliminate
from .modifiers import SHORT, flank_terms
from .movement import (
    ADVANCE,
    DISENGAGE,
    flank_ready,
    flank_targets,
    kind_of,
    move_choices,
    move_result,
    reaches,
    stacking_fault,
)
from .rules import LDR, SPC, TER
from .specials import check_special_limit, played
from .stacking import room
from .state import MOVEMENT, REINFORCEMENT, GameState, Task, fault, label, public
from .terrain import check_terrain


# --- DX-8.0 moves -----------------------------------------------------------------------------------------------

@per_state
def _movers(state: GameState, chosen) -> list:
    table = move_choices(state)
    return sorted_out(table, lambda i: first_fault(table[i].values()),
                      lambda i: f"{label(state.card(i))} in {state.card(i).loc}")


def _destinations(state: GameState, chosen) -> list:
    places = move_choices(state).get(chosen["card"], {})
    card = state.card(chosen["card"])
    return sorted_out(places, places.get, lambda to: f"{to} ({kind_of(state, card, to)})")


@actions("Move a card", "DX-8.0",
         one_of("card", "Card", "DX-8.0", _movers),
         one_of("to", "To", "DX-8.0", _destinations),
         when=in_step(MOVEMENT, rule="DX-8.0", action="move"))
def move(state: GameState, dice: Dice, card: str, to: str) -> Step:
    """DX-8.0-8.3b: one move of one card. An advance eliminates enemy decoys in the position (DX-13.6)."""
    c = state.card(card)
    new, kind, decoys = move_result(state, c, to)
    rules = {ADVANCE: ("DX-8.1",), DISENGAGE: ("DX-8.2",)}.get(kind, ()) + (("DX-8.3b",) if c.moves else ())
    tail = f"; {plural(len(decoys), 'decoy')} eliminated" if decoys else ""
    step = done(state, new, f"{public(new.card(card))} {kind}s from {c.loc} to {to}{tail}",
                ("DX-8.0", *rules, *(("DX-13.6",) if decoys else ())))
    return private(step, c.side, [c], state, "Moved")


# --- DX-10.2 terrain ----------------------------------------------------------------------------------------

def _terrain_fault(state: GameState, card, pos: str) -> RuleError | None:
    """DX-10.2: into an own-line position printed on the card (DX-3.3), unengaged, that holds no enemy units (A22:
    by option also one held by the enemy); the movement must still be able to end within the limits (DX-3.1)."""
    found = fault(check_terrain, state, card, pos)
    if found:
        return found
    if state.engaged(pos):
        return RuleError("DX-10.2", f"Terrain is played only into an unengaged position, not {pos}")
    if state.units(pos, other(card.side)) and not state.options["terrain_into_enemy_held"]:
        return RuleError("DX-10.2", f"{pos} is held by enemy units: terrain is played only where there are none")
    return stacking_fault(state, state.with_cards(replace(card, loc=pos, face_up=True)))


def terrain_faults(state: GameState) -> dict[str, dict[str, RuleError | None]]:
    """The moving side's terrain in its reserve: each position, those printed on the card first, with the rule
    playing it there breaks (None when legal)."""
    def work():
        found = {}
        for c in state.at(RESERVE, state.active):
            if c.spec.type == TER:
                printed = terrain_positions(c.side, c.spec.codes, state.width)
                found[c.id] = {p: _terrain_fault(state, c, p) for p in dict.fromkeys([*printed, *state.positions])}
        return found
    return state.once("terrain", work)


@per_state
def _terrain_cards(state: GameState, chosen) -> list:
    table = terrain_faults(state)
    return sorted_out(table, lambda i: first_fault(table[i].values()), lambda i: label(state.card(i)))


@actions("Play terrain", "DX-10.2",
         one_of("card", "Terrain card from the reserve", "DX-10.2", _terrain_cards),
         one_of("position", "Into", "DX-10.2",
                lambda s, c: sorted_out(terrain_faults(s).get(c["card"], {}), terrain_faults(s).get(c["card"], {}).get)),
         when=in_step(MOVEMENT, rule="DX-10.2", action="play_terrain"))
def play_terrain(state: GameState, dice: Dice, card: str, position: str) -> Step:
    """DX-10.2: terrain from the reserve in the Movement step, face-up, into an unengaged own-line position
    printed on it (DX-3.3) that holds no enemy units (A22: by option also one held by the enemy)."""
    c = state.card(card)
    new = state.with_cards(replace(c, loc=position, face_up=True))
    return done(state, new, f"{c.spec.label} played into {position}", ("DX-10.2", "DX-3.3"))


# --- DX-13.6 decoys revealed ----------------------------------------------------------------------------------

def _revealed(state: GameState, card) -> GameState:
    """The decoy face-up: a special now lasts for the turn and counts among this phase's specials (DX-12.0)."""
    if card.spec.type == SPC:
        return played(state, card, card.loc, state.turn)
    return state.with_cards(replace(card, decoy=False, face_up=True, expires=0))


@per_state
def _decoys_to_reveal(state: GameState, chosen) -> list:
    decoys = [c for c in state.cards if c.side == state.active and c.decoy]
    return sorted_out([c.id for c in decoys], lambda i: _reveal_fault(state, state.card(i)),
                      lambda i: f"{label(state.card(i))} in {state.card(i).loc}")


def _reveal_fault(state: GameState, card) -> RuleError | None:
    if card.spec.type == SPC:
        found = fault(check_special_limit, state, card, card.loc)
        if found:
            return found
    return stacking_fault(state, _revealed(state, card))


@actions("Reveal a decoy", "DX-13.6", one_of("card", "Decoy", "DX-13.6", _decoys_to_reveal),
         when=in_step(MOVEMENT, rule="DX-13.6", action="reveal_decoy"))
def reveal_decoy(state: GameState, dice: Dice, card: str) -> Step:
    """DX-13.6: decoys may be revealed in the Movement step; a revealed special lasts for the turn."""
    c = state.card(card)
    return done(state, _revealed(state, c), f"{c.spec.label} revealed in {c.loc}", ("DX-13.6",))


# --- DX-13.3 flank attack ---------------------------------------------------------------------------------------

def _flank_open(state: GameState) -> None:
    in_step(MOVEMENT, rule="DX-13.3", action="flank_attack")(state)
    if not state.options["flank_attack"]:
        raise RuleError("DX-13.3", "Flank attacks (13.3) are off")


@per_state
def _flank_cards(state: GameState, chosen) -> Pick:
    """DX-13.3: reserve units that have neither moved nor tried a flank attack this turn, as many as the roomiest
    target takes."""
    side = state.active
    most = max((room(state, side, p) for p in flank_targets(state, side)), default=0)
    units = [c for c in state.at(RESERVE, side) if c.is_unit]
    ready = card_choices(state, [c.id for c in units if flank_ready(c)]) if most > 0 else []
    done_ = [Barred(c.id, label(c), "DX-13.3", f"{c.spec.label} has {'tried a flank attack' if c.flank else 'moved'} "
                    "this turn") for c in units if not flank_ready(c)]
    return Pick(ready + done_, 1, max(most, 1))


def _flank_positions(state: GameState, chosen) -> list:
    side, group = state.active, cards_of(state, chosen["cards"])
    targets = flank_targets(state, side)

    def why(pos: str) -> RuleError | None:
        if pos not in targets:
            if not is_flank(pos) and not state.options["flank_any_position"]:
                return RuleError("DX-13.3", f"A flank attack goes into a flank position (L or R), not {pos}")
            return RuleError("DX-13.3", f"{pos} must hold both friendly and enemy units")
        if len(group) > room(state, side, pos):
            return RuleError("DX-13.3", f"Only {max(0, room(state, side, pos))} more unit(s) fit in {pos}")
        return _filled(state, group, pos)
    return sorted_out(state.positions, why)


def _filled(state: GameState, group: list, pos: str) -> RuleError | None:
    """DX-3.1: with every card of the group in (the worst case), can the other units still end the movement
    within the limits? (Those that come in stay there.)"""
    after = state.with_cards(*(replace(c, loc=pos, flank="in", moves=1) for c in group))
    return stacking_fault(state, after, {**reaches(state, state.active), **{c.id: frozenset((pos,)) for c in group}})


def _flank_leader(state: GameState, chosen) -> list:
    """DX-13.3: a reserve leader may go with the group (none: an empty choice); one leader a position (DX-11.0b)."""
    side, pos = state.active, chosen["position"]
    leaders = [c for c in state.at(RESERVE, side) if c.spec.type == LDR]
    there = state.leader(pos, side)
    return [Choice("", "no leader"), *(Barred(c.id, label(c), "DX-11.0b", f"{pos} already has a {side} leader")
                                       if there else Choice(c.id, label(c)) for c in leaders)]


@actions("Flank attack", "DX-13.3",
         some_of("cards", "Reserve units that try it", "DX-13.3", _flank_cards),
         one_of("position", "Into (a flank position with both sides' units)", "DX-13.3", _flank_positions),
         one_of("leader", "Leader going with them", "DX-13.3", _flank_leader, default=None),
         when=_flank_open)
def flank_attack(state: GameState, dice: Dice, cards: list, position: str, leader: str | None) -> Step:
    """DX-13.3: reserve cards try a flank attack on a flank position holding friendly and enemy units: each
    checks morale (CV + code, CAV +1, ART -1, + the attack rating of a leader going with them); those that
    pass move in, revealed, and fire at once; the rest stay in the reserve, done for the turn."""
    side, pos = state.active, position
    group = cards_of(state, cards)
    chief = state.card(leader) if leader else None
    parts = [flank_terms(state, c, chief) for c in group]
    checks_leader = chief is not None and state.options["flank_leader_check"]
    if checks_leader:
        parts.append(Terms((("attack rating", chief.spec.attack),)))
    checking = FlankInput(tuple(t.total for t in parts), tuple(parts))
    result = resolve_flank(checking, dice, tuple(c.spec.label for c in group + [chief] * checks_leader))
    passed = result.details["passed"]
    went = [c for c, ok in zip(group, passed) if ok]
    changed = [replace(c, loc=pos, face_up=True, flank="in", moves=1, advanced=True) if ok
               else replace(c, flank="failed") for c, ok in zip(group, passed)]
    leader_goes = chief is not None and went and (passed[-1] if checks_leader else True)
    if chief is not None:
        changed.append(replace(chief, loc=pos, face_up=True, moves=1, advanced=True) if leader_goes
                       else replace(chief, flank="failed"))
    decoys = [eliminate(d) for d in state.at(pos, other(side)) if d.decoy] if went else []
    new = state.with_cards(*changed, *decoys)
    if went:
        new = replace(new, tasks=new.tasks + (Task("flank_fire", side, pos, cards=tuple(c.id for c in went)),))
    names = ", ".join(c.spec.label for c in went) or "none"
    text = f"flank attack on {pos}: {len(went)} of {len(group)} go in ({names})" + (
        f", with {chief.spec.label}" if leader_goes else "")
    step = done(state, new, text, ("DX-13.3",) + (("DX-13.6",) if decoys else ()), (result,))
    return private(step, side, group + ([chief] if chief else []), state, "Tried it and stayed in the reserve")


def _flank_firers(state: GameState) -> tuple[Task | None, list]:
    task = state.tasks[0] if state.tasks and state.tasks[0].kind == "flank_fire" else None
    if task is None:
        return None, []
    return task, [c for c in cards_of(state, task.cards) if c.loc == task.position]


def _flank_batteries(state: GameState, chosen):
    task, cards = _flank_firers(state)
    if not cards or not state.units(task.position, other(task.side)):
        return NOT_ASKED
    return battery_pick(state, cards, task.position)


@actions("Flank attack fire", "DX-13.3",
         some_of("counter_battery", "Single out enemy artillery (13.4)", "DX-13.4", _flank_batteries, default=()),
         when=when_due("flank_fire"))
def flank_fire(state: GameState, dice: Dice, counter_battery: list) -> Step:
    """DX-13.3: the cards that came in by flank attack fire at once into the position."""
    task, cards = _flank_firers(state)
    rest = replace(state, tasks=state.tasks[1:])
    if not cards or not rest.units(task.position, other(task.side)):
        return done(state, rest, f"no flank fire into {task.position}", ("DX-13.3",))
    named = named_batteries(state, cards, task.position, counter_battery)
    new, results, text = volley(rest, cards, task.position, SHORT, named, dice)
    return done(state, new, text, ("DX-13.3", "DX-7.2"), results)


# --- the end of the Movement step -----------------------------------------------------------------------------

def _movement_ends(state: GameState) -> None:
    in_step(MOVEMENT, rule="DX-8.0", action="end_movement")(state)
    check_stacking(state, state.active)


@actions("End movement", "DX-8.0", when=_movement_ends)
def end_movement(state: GameState, dice: Dice) -> Step:
    """DX-8.0 / DX-3.1: when all moves are done the moving side must be within its stacking limits (DX-11.1a);
    every card in an engaged position is turned face-up (DX-8.1)."""
    shown = [replace(c, face_up=True) for c in state.cards if c.loc in state.holder and state.engaged(c.loc)
             and not c.face_up and not c.decoy]
    new = replace(state.with_cards(*shown), step=REINFORCEMENT)
    tail = f"; {plural(len(shown), 'card')} revealed in engaged positions" if shown else ""
    return done(state, new, f"movement done{tail}; reinforcement step", ("DX-8.0", "DX-3.1", "DX-8.1"))
