"""A battle round by round (digest section 3, step 3): what is due now, and the changes each step makes.

Rounds 1-4 are day 1, 5-8 day 2 and so on. At the start of each day both sides roll for command
(HD-4.2); before days 2, 3 ... each side may rally one routed unit (HD-4.5). In each round each side
fires once with at most its firing limit of units (HD-5.6), in the players' firing order (HD-4.10; both
sides, then both place hits, while the order is not entered), the side hit places its hits (a first hit
flips a unit, a second eliminates it), and units flipped that round check morale (HD-4.4, A5). A side
whose units are all eliminated or routed has lost; a side may also retreat after a round. After the
battle, reduced units check for desertion (HD-4.6).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .basic import BasicRules
from .battle_command import fire_limit, passed_on
from .rules import FIRE_CAP, GARRISON, GARRISON_HITS, ROUNDS_PER_DAY, USA
from .state import ELIMINATED, ON_MAP, Battle, BattleRecord, BattleSide, GameState, Unit, other

COMMAND, FIRE, HITS, MORALE, BETWEEN, DESERTION = "command", "fire", "hits", "morale", "between", "desertion"


@dataclass(frozen=True)
class BattleDue:
    kind: str     # command, fire, hits, morale, between, desertion
    side: str     # the side that acts ("" for both)


def firing_order(basic: BasicRules) -> str:
    return basic.firing_order or "simultaneous"


def leaders_rating(state: GameState, bside: BattleSide) -> int:
    """L: the total rating of the side's leaders present (HD-4.2; Grant and Sherman add up)."""
    if not state.options["leaders"]:
        return 0
    return sum(state.leader(n).rating for n in bside.leaders)


def active(state: GameState, bside: BattleSide) -> list[Unit]:
    """The side's units that can fight: on the map, not routed, not withdrawn."""
    return [u for u in (state.unit(n) for n in bside.units)
            if u.status == ON_MAP and u.name not in bside.routed and u.name not in bside.withdrawn]


def garrison_stands(bside: BattleSide) -> bool:
    return bside.garrison is not None and bside.garrison < GARRISON_HITS


def fighting(state: GameState, bside: BattleSide) -> bool:
    return bool(active(state, bside)) or garrison_stands(bside)


def shooters(state: GameState, bside: BattleSide) -> list[str]:
    """Who may fire this round (HD-5.6: routed units do not)."""
    found = [u.name for u in active(state, bside)]
    return found + [GARRISON] if garrison_stands(bside) else found


def limit(state: GameState, battle: Battle, side: str) -> int:
    """HD-5.6: min(C, 8) with battle command, else the basic cap of 8."""
    bside = battle.of(side)
    if state.options["battle_command"]:
        return fire_limit(bside.command or 0)
    return FIRE_CAP


def capacity(state: GameState, bside: BattleSide) -> dict[str, int]:
    """The hits each unit of the side can still take (a full unit 2, a reduced one 1, the garrison what is
    left of its 2); routed units only by option A7."""
    units = [u for u in (state.unit(n) for n in bside.units)
             if u.status == ON_MAP and u.name not in bside.withdrawn
             and (u.name not in bside.routed or state.options["routed_hit"])]
    room = {u.name: 1 if u.reduced else 2 for u in units}
    if garrison_stands(bside):
        room[GARRISON] = GARRISON_HITS - bside.garrison
    return room


def entrenched(state: GameState, battle: Battle, side: str) -> bool:
    """Fire aimed at this side meets entrenchment when every unit it can take hits on is entrenched (the
    garrison always is); in a contained port the attacker has left its entrenchment (HD-5.4, A20)."""
    if battle.contained and side == battle.attacker:
        return False
    bside = battle.of(side)
    room = capacity(state, bside)
    return bool(room) and all(n == GARRISON or state.unit(n).entrenched for n in room)


def sheltered(state: GameState, battle: Battle, unit: Unit) -> bool:
    """HD-4.4: -1 to the morale check in a fort or entrenched."""
    if state.game_map.box(battle.box).fort:
        return True
    return unit.entrenched and not (battle.contained and unit.side == battle.attacker)


def morale_due(state: GameState, bside: BattleSide) -> list[Unit]:
    """HD-4.4: units flipped this round (by enemy fire), still reduced on the map, not yet checked."""
    if not state.options["morale"]:
        return []
    return [u for u in (state.unit(n) for n in bside.flipped)
            if u.status == ON_MAP and u.reduced and u.name not in bside.routed and u.name not in bside.checked]


def desertion_due(state: GameState, battle: Battle) -> list[Unit]:
    """HD-4.6: every reduced unit of both sides that took part, routed ones included."""
    if not state.options["desertion"]:
        return []
    return [u for bside in battle.sides for u in (state.unit(n) for n in bside.units)
            if u.status == ON_MAP and u.reduced]


def command_due(state: GameState, battle: Battle) -> bool:
    return state.options["battle_command"] and battle.command_day < battle.day


def due(state: GameState) -> BattleDue:
    """The step the battle wants now."""
    battle = state.battle
    if battle.over:
        return BattleDue(DESERTION, "")
    if command_due(state, battle):
        return BattleDue(COMMAND, "")
    first, second = battle.sides
    order = firing_order(state.basic)
    if order == "simultaneous":
        for bside in battle.sides:
            if not bside.fired:
                return BattleDue(FIRE, bside.side)
        for bside in battle.sides:
            if bside.hits_due:
                return BattleDue(HITS, bside.side)
    else:
        sequence = (first, second) if order == "attacker_first" else (second, first)
        for firer in sequence:
            target = battle.of(other(firer.side))
            if not firer.fired:
                return BattleDue(FIRE, firer.side)
            if target.hits_due:
                return BattleDue(HITS, target.side)
            if state.options["morale_timing"] == "after_fire" and morale_due(state, target):
                return BattleDue(MORALE, target.side)
    if any(morale_due(state, bside) for bside in battle.sides):
        return BattleDue(MORALE, "")
    return BattleDue(BETWEEN, "")


def may_fire(state: GameState, side: str) -> bool:
    """Is it this side's turn to fire (in simultaneous fire: either side that has not fired)?"""
    battle = state.battle
    step = due(state)
    if step.kind != FIRE:
        return False
    return step.side == side or (firing_order(state.basic) == "simultaneous" and not battle.of(side).fired)


def rally_open(state: GameState, side: str) -> bool:
    """HD-4.5: before the first fire of day 2, 3 ..., once a day per side."""
    battle = state.battle
    return (state.options["morale"] and not battle.over and battle.round > 1
            and (battle.round - 1) % ROUNDS_PER_DAY == 0 and not any(s.fired for s in battle.sides)
            and battle.of(side).rallied < battle.day and bool(battle.of(side).routed))


def add_leader_to_command(state: GameState, bside: BattleSide, rating: int) -> BattleSide:
    """HD-4.2: a reinforcing leader's rating counts at once toward the day's command (once it is rolled)."""
    battle = state.battle
    if battle.command_day != battle.day or not state.options["battle_command"]:
        return bside
    command = bside.command + rating
    return replace(bside, command=command,
                   carried=passed_on(command, leaders_rating(state, bside), state.options["carry"],
                                     state.options["leader_carry"]))


def settle(state: GameState) -> GameState:
    """After a step: the battle is over when, with nothing left to place or check, a side cannot fight."""
    battle = state.battle
    if battle.over or any(s.hits_due for s in battle.sides) or due(state).kind == MORALE:
        return state
    standing = [s.side for s in battle.sides if fighting(state, s)]
    if len(standing) == 2:
        return state
    return end(state, standing[0] if standing else "")


def end(state: GameState, winner: str) -> GameState:
    """The battle is decided; it closes now unless reduced units must check for desertion."""
    state = replace(state, battle=replace(state.battle, over=True, winner=winner))
    return state if desertion_due(state, state.battle) else close(state)


def close(state: GameState) -> GameState:
    """The battle leaves the board: routed units are ordinary reduced units again, the result is recorded
    for promotion (HD-5.3), a break-out or a landing takes effect (HD-5.4), a persistent garrison keeps
    its hits (A13)."""
    battle = state.battle
    winner = battle.winner
    record = BattleRecord(battle.box, battle.attacker, winner, survivors(state, battle, winner),
                          garrison_only(battle, winner))
    changes = {}
    defender = battle.sides[1]
    if defender.garrison is not None and state.options["garrison_persistence"] == "persistent":
        changes["garrison_hits"] = {**state.garrison_hits, battle.box: defender.garrison}
    if battle.breakout and winner == USA:
        changes["contained"] = tuple(b for b in state.contained if b != battle.box)
        changes["broken_out"] = state.broken_out + (battle.box,)
    if battle.amphibious and winner == USA and battle.box not in state.landed and \
            state.game_map.box(battle.box).port:
        changes["landed"] = state.landed + (battle.box,)
    return replace(state, battle=None, battles=state.battles + (record,), **changes)


def survivors(state: GameState, battle: Battle, winner: str) -> tuple[str, ...]:
    if not winner:
        return ()
    return tuple(n for n in battle.of(winner).units if state.unit(n).status == ON_MAP)


def garrison_only(battle: Battle, winner: str) -> bool:
    """HD-5.3: the Union beat only the garrison (no regular CSA unit fought)."""
    loser = battle.of(other(winner)) if winner else None
    return bool(loser) and loser.garrison is not None and not loser.units


def place_hits(state: GameState, side: str, targets: tuple[str, ...]) -> tuple[GameState, list[str]]:
    """Each named target takes one hit in turn: full -> reduced (flipped this round), reduced -> eliminated;
    the garrison is removed at its second hit (HD-4.10, HD-4.11)."""
    battle = state.battle
    bside = battle.of(side)
    units: dict[str, Unit] = {}
    flipped, garrison, lines = list(bside.flipped), bside.garrison, []
    for name in targets:
        if name == GARRISON:
            garrison += 1
            lines.append("the garrison is removed" if garrison >= GARRISON_HITS else "the garrison takes a hit")
            continue
        unit = units.get(name, state.unit(name))
        if unit.reduced:
            units[name] = replace(unit, status=ELIMINATED)
            lines.append(f"{name} is eliminated")
        else:
            units[name] = replace(unit, face="reduced")
            flipped.append(name)
            lines.append(f"{name} is flipped")
    bside = replace(bside, flipped=tuple(dict.fromkeys(flipped)), garrison=garrison, hits_due=0)
    state = replace(state.with_units(units), battle=battle.with_side(bside))
    return state, lines


def next_round(state: GameState) -> GameState:
    battle = state.battle
    sides = tuple(replace(s, fired=False, flipped=(), checked=()) for s in battle.sides)
    return replace(state, battle=replace(battle, round=battle.round + 1, sides=sides))


def lone_leaders(state: GameState) -> tuple[GameState, list[str]]:
    """HD-5.7: a leader alone with enemy units is captured, not killed."""
    captured = {}
    for leader in state.leaders:
        if leader.status == ON_MAP and not state.units_in(leader.box, leader.side) \
                and state.units_in(leader.box, other(leader.side)):
            captured[leader.name] = replace(leader, status="captured", box="")
    return state.with_leaders(captured), [f"{n} is captured (HD-5.7)" for n in captured]
