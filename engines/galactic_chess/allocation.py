"""Galactic Chess Game: the sortie before the fighting (GC-6B.11-6B.3): the camps, the allocation round the
table, the supreme commanders and the first defender. Who may declare what is worked out in sortie.py.

- GC-6B.11: the active player picks the attacking camp (any camp with an available fleet, Q6) and, where two
  are possible, the defending one. A grand offensive rolls its 2d6 fleets now (Q2).
- GC-6B.12 / 6B.13: each player in turn declares at least one available fleet, up to the size left (Q7);
  air/ground units only with their own fleets, never counted; GC-6B.3: the fortress in the first defender's
  first declaration, alone or with commander/garrison fleets (Q10: it counts toward the size).
- GC-6B.2: the SC is found by stars and declaration, the owner choosing between equals; GC-6B.3 (7.32): the
  attacker SC's owner names the first defender.
"""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import Result, RuleError, Step
from companion.spec import NOT_ASKED, Barred, Pick, one_of, some_of, yes_no

from . import battle as fight
from . import civil_war
from .actions import actions, in_phase, lead
from .battle import ATTACKER, DEFENDER, FORTRESS
from .fighting import at_stage, end_battle, over_if_finished, sc_text, sc_ties, settled
from .order import fleets, resolve_grand_offensive
from .rules import GRAND
from .sortie import (
    battle_unit,
    camp_of_side,
    committed_fleets,
    deemed,
    fleets_available,
    fortress_may_join,
    fortress_unit,
    ground_available,
    next_declarer,
    nominees,
    side_of,
    sortie_camps,
)
from .state import ACTION, BATTLE, END, Declaration, GameState, Sortie


def _sortie_open(state: GameState) -> None:
    in_phase(ACTION, rule="GC-6B")(state)
    if not sortie_camps(state) and not state.order.forced:
        raise RuleError("GC-6B.11", "No camp has a fleet that can sortie: draw a card instead")


@actions("Sortie", "GC-6B.11",
         one_of("camp", "Attacking camp", "GC-6B.11", lambda s, c: list(sortie_camps(s)) or NOT_ASKED, default=""),
         one_of("defender", "Defending camp", "GC-6B.11",
                lambda s, c: sortie_camps(s)[c["camp"]] if c.get("camp") else NOT_ASKED, default=""),
         when=_sortie_open)
def sortie(state: GameState, dice: Dice, camp: str, defender: str) -> Step:
    """GC-6B.11: the active player picks the attacking camp (any camp with an available fleet, Q6) and,
    where two are possible, the defending one. A grand offensive rolls its 2d6 fleets now (Q2). A forced
    sortie with no camp able to sortie is no battle."""
    if not camp:
        new = replace(state, phase=END)
        return Step(new, f"{lead(state)}: forced sortie, but no camp has a fleet that can sortie: no battle",
                    ("GC-6B.11",))
    results: tuple[Result, ...] = ()
    size = state.order.size
    if size == GRAND:
        results = (resolve_grand_offensive(None, dice),)
    count = fleets(size, results[0].outcome if results else 0)
    battle = Sortie(camp, defender, count, civil_war.is_civil(camp, defender))
    battle = replace(battle, declarer=next_declarer(state, battle, state.active))
    new = replace(state, sortie=battle, phase=BATTLE)
    head = f"{results[0].summary}; " if results else ""
    war = " (civil war: no VP for kills, GC-8.2)" if battle.civil_war else ""
    text = f"{lead(state)}: {head}{camp} sorties against {defender} with up to {count} fleet{'s' * (count != 1)}{war}"
    rules = ("GC-6B", "GC-6B.11") + (("GC-5",) if results else ()) + (("GC-8.2",) if war else ())
    return Step(new, text, rules, results)


# --- GC-6B.12 / 6B.13 / 6B.3 the declarations -------------------------------------------------------------

def _declarer(state: GameState) -> tuple[Sortie, int, str, int]:
    """The sortie, the side declaring, its camp and the fleets it may still commit."""
    s = state.sortie
    side = side_of(s)
    room = s.size - committed_fleets(s, side, state.options["fortress_counts"])
    return s, side, camp_of_side(s, side), room


def _fleet_choices(state: GameState, chosen) -> Pick:
    """GC-6B.12: at least one available fleet of the declarer's (none only with the fortress), up to the size
    left (Q7)."""
    s, side, camp, room = _declarer(state)
    free = fleets_available(state, state.players[s.declarer], camp, side == ATTACKER, s)
    return Pick(free, 0 if fortress_may_join(state, s, s.declarer) else 1, room)


def _ground_choices(state: GameState, chosen) -> list[str]:
    """GC-6B.13: the declarer's available air/ground units of the camp, which come with the declaration's fleets
    and never count."""
    s, side, camp, _ = _declarer(state)
    return ground_available(state, state.players[s.declarer], camp, s)


def _fortress_choices(state: GameState, chosen):
    """GC-6B.3: asked in the first defender's first declaration for the camp holding Iserlohn: the fortress comes
    as a fleet, alone or with commander/garrison fleets only, within the size left (Q10)."""
    s, side, camp, room = _declarer(state)
    if not fortress_may_join(state, s, s.declarer):
        return NOT_ASKED
    picked = chosen["fleets"]
    if not picked:
        return (True, Barred(False, "no", "GC-6B.12", f"{state.players[s.declarer]} must declare at least one fleet"))
    if any(n not in state.fortress.posted for n in picked):
        return (False, Barred(True, "yes", "GC-6B.3", "With the fortress come only the commander and garrison "
                                                     "fleets"))
    if len(picked) + (1 if state.options["fortress_counts"] else 0) > room:
        return (False, Barred(True, "yes", "GC-6B.12", f"Only {room} more fleet{'s' * (room != 1)} may sortie "
                                                      f"(size {s.size})"))
    return (False, True)


@actions("Declare units", "GC-6B.12",
         some_of("fleets", "Fleets (admirals; at least one: air/ground units never sortie alone)", "GC-6B.12",
                 _fleet_choices, default=()),
         some_of("others", "Air/ground units (only with a fleet, never counted)", "GC-6B.13", _ground_choices,
                 default=()),
         yes_no("fortress", "Iserlohn Fortress joins as a fleet", "GC-6B.3", _fortress_choices, default=False),
         when=at_stage("attack", "defence", rule="GC-6B.12"))
def declare(state: GameState, dice: Dice, fleets: list, others: list, fortress: bool) -> Step:
    """GC-6B.12: the player whose turn it is declares at least one available fleet, up to the size left
    (Q7); air/ground units only with their own fleets and never counted (GC-6B.13); the fortress in the
    first defender's first declaration, alone or with commander/garrison fleets (GC-6B.3)."""
    s, side, _, _ = _declarer(state)
    seat, player = s.declarer, state.players[s.declarer]
    number = len(s.declarations[side])
    units = tuple(battle_unit(state, n, side, number) for n in fleets)
    if fortress:
        units += (fortress_unit(state, player, number),)
    units += tuple(battle_unit(state, n, side, number) for n in others)
    declarations = list(s.declarations)
    declarations[side] = declarations[side] + (Declaration(player, tuple(fleets) + tuple(others), fortress),)
    s = replace(s, units=s.units + units, field=replace(s.field, status=s.field.status + ("ready",) * len(units)),
                declarations=(declarations[0], declarations[1]))
    s = replace(s, declarer=next_declarer(state, s, state.left_of(seat)))
    text = f"{lead(state)}: {player} declares {', '.join(u.name for u in units)} for the {fight.SIDE_NAMES[side]}"
    rules = ("GC-6B.12",) + (("GC-6B.13",) if others else ()) + (("GC-6B.3",) if fortress else ())
    if s.declarer >= 0:
        return Step(replace(state, sortie=s), f"{text}; {state.players[s.declarer]} declares next", rules)
    return _allocation_done(state, s, text, rules)


def _allocation_done(state: GameState, s: Sortie, text: str, rules: tuple[str, ...]) -> Step:
    s = settled(state, s)
    if s.stage == "attack":
        return Step(replace(state, sortie=replace(s, stage="nominate")),
                    f"{text}; the attackers are set, {sc_text(state, s, ATTACKER)}", rules + ("GC-6B.2",))
    s = replace(s, stage="fight", deemed=deemed(state, s) if any(u.kind == FORTRESS for u in s.units) else 0)
    return over_if_finished(replace(state, sortie=s), f"{text}; the defenders are set, {sc_text(state, s, DEFENDER)}",
                            rules + ("GC-6B.2",))


# --- GC-6B.2 the SC, GC-6B.3 the first defender -------------------------------------------------------------

def _sc_open(state: GameState) -> None:
    at_stage("nominate", "fight", rule="GC-6B.2")(state)
    if not sc_ties(state, state.sortie):
        raise RuleError("GC-6B.2", "No SC is to be chosen now")


def _tied(state: GameState, chosen) -> list[str]:
    """GC-6B.2 (3): the admirals of equal stars in one declaration, between whom the owner chooses."""
    s = state.sortie
    return [s.units[i].name for tie in sc_ties(state, s).values() for i in tie]


@actions("Choose the SC", "GC-6B.2", one_of("unit", "Supreme commander", "GC-6B.2", _tied), when=_sc_open)
def choose_sc(state: GameState, dice: Dice, unit: str) -> Step:
    """GC-6B.2 (3): between admirals of equal stars in one declaration, the owner chooses the SC."""
    s = state.sortie
    side, i = next((side, i) for side, tie in sc_ties(state, s).items() for i in tie if s.units[i].name == unit)
    s = replace(s, field=fight.with_sc(s.field, side, i))
    text = f"{lead(state)}: {s.units[i].owner} makes {unit} the {fight.SIDE_NAMES[side]} SC"
    if s.stage == "fight":
        return over_if_finished(replace(state, sortie=s), text, ("GC-6B.2",))
    return Step(replace(state, sortie=s), text, ("GC-6B.2",))


def _nominate_open(state: GameState) -> None:
    at_stage("nominate", rule="GC-6B.3")(state)
    if sc_ties(state, state.sortie):
        raise RuleError("GC-6B.2", "Choose the attacker SC first")


@actions("Name the first defender", "GC-6B.3",
         one_of("player", "First defender", "GC-6B.3", lambda s, c: nominees(s, s.sortie) or NOT_ASKED, default=""),
         when=_nominate_open)
def nominate(state: GameState, dice: Dice, player: str) -> Step:
    """GC-6B.3 (7.32): the attacker SC's owner names the first defender, who declares first; with nobody able to
    defend there is no fight."""
    s = state.sortie
    if not player:
        text = f"{lead(state)}: nobody can defend {s.defender}"
        return end_battle(replace(state, sortie=replace(s, stage="fight")), text, ("GC-6B.3",))
    seat = state.seat(player)
    s = replace(s, stage="defence", first_defender=seat, declarer=seat)
    return Step(replace(state, sortie=s), f"{lead(state)}: {player} is the first defender", ("GC-6B.3",))
