"""A battle round by round (digest section 3, step 3): what is due now, and the changes each step makes.

Rounds 1-4 are day 1, 5-8 day 2 and so on. At the start of each day both sides roll for command
(HD-4.2); before days 2, 3 ... each side may rally one routed unit (HD-4.5). In each round each side
fires once with at most its firing limit of units (HD-5.6), in the players' firing order (HD-4.10; both
sides, then both place hits, while the order is not entered), the side hit places its hits (a first hit
flips a unit, a second eliminates it), and units flipped that round check morale (HD-4.4, A5), the coastal
garrison as one unit (A13). Entrenchment is each unit's own: the garrison always has it, and fire at a side
with units in and out of their works hits the open ones more easily (HD-4.10, HD-4.11). A fort shelters the
side that held it when the battle began (A24). A side whose units are all eliminated or routed has lost; a
side may also retreat after a round. After the battle, reduced units check for desertion (HD-4.6).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .basic import BasicRules
from .battle_command import fire_limit, passed_on
from .morale import MoraleCheck
from .rules import CSA, FIRE_CAP, GARRISON, GARRISON_HITS, MILITIA, ROUNDS_PER_DAY, SPLIT_UNITS, SPLIT_UNITS_OF, USA
from .state import ELIMINATED, ON_MAP, Battle, BattleRecord, BattleSide, GameState, Unit, other

COMMAND, FIRE, HITS, MORALE, BETWEEN, DESERTION = "command", "fire", "hits", "morale", "between", "desertion"
ENTRENCHED, OPEN, MIXED = "entrenched", "open", "mixed"


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


def split_cap(state: GameState, bside: BattleSide) -> int | None:
    """A22 (b): the units the side's leaders may put points on, 2 each (Lee 3); None under A22 (a)."""
    if state.options["leader_split"] != "capped" or not state.options["leaders"]:
        return None
    return sum(SPLIT_UNITS_OF.get(n, SPLIT_UNITS) for n in bside.leaders)


def active(state: GameState, bside: BattleSide) -> list[Unit]:
    """The side's units that can fight: on the map, not routed, not withdrawn."""
    return [u for u in (state.unit(n) for n in bside.units)
            if u.status == ON_MAP and u.name not in bside.routed and u.name not in bside.withdrawn]


def garrison_present(bside: BattleSide) -> bool:
    """The coastal garrison is in this battle and not yet removed (HD-4.11)."""
    return bside.garrison is not None and bside.garrison < GARRISON_HITS


def garrison_stands(bside: BattleSide) -> bool:
    """The garrison is present and not routed (A13: it checks morale as one unit)."""
    return garrison_present(bside) and GARRISON not in bside.routed


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
    hit = state.options["routed_hit"]
    units = [u for u in (state.unit(n) for n in bside.units)
             if u.status == ON_MAP and u.name not in bside.withdrawn and (u.name not in bside.routed or hit)]
    room = {u.name: 1 if u.reduced else 2 for u in units}
    if garrison_present(bside) and (GARRISON not in bside.routed or hit):
        room[GARRISON] = GARRISON_HITS - bside.garrison
    return room


def dug_in(state: GameState, battle: Battle, side: str, name: str) -> bool:
    """Is this unit of the side entrenched in the battle? The garrison always is, whoever stands beside it
    (HD-4.11); a unit only if it entrenched, and in a contained port not on the attacking side, which has
    left its works (HD-5.4, A20)."""
    if name == GARRISON:
        return True
    return state.unit(name).entrenched and not (battle.contained and side == battle.attacker)


def cover(state: GameState, battle: Battle, side: str) -> str:
    """What fire aimed at this side meets: ENTRENCHED (every unit it can hit is dug in), OPEN (none is) or
    MIXED (some are: they keep their entrenchment, the others have none)."""
    dug = {dug_in(state, battle, side, n) for n in capacity(state, battle.of(side))}
    return MIXED if len(dug) == 2 else ENTRENCHED if dug == {True} else OPEN


def placeable(state: GameState, bside: BattleSide) -> int:
    """How many of the side's due hits can be placed: those that hit only unentrenched units (HD-4.11 with
    HD-4.10) on the room those units have, the others on any room left."""
    room = capacity(state, bside)
    battle = state.battle
    open_room = sum(r for n, r in room.items() if not dug_in(state, battle, bside.side, n))
    on_open = min(bside.open_only, open_room)
    return on_open + min(bside.hits_due - bside.open_only, sum(room.values()) - on_open)


def hit_placement(state: GameState, bside: BattleSide) -> list[str]:
    """A legal placement of the side's due hits to start from: the hits that fall only on unentrenched units
    on those first, then every unit flipped before any is eliminated."""
    room = capacity(state, bside)
    slots = [n for depth in range(2) for n, r in room.items() if r > depth]
    chosen = [n for n in slots if not dug_in(state, state.battle, bside.side, n)][:bside.open_only]
    rest = list(slots)
    for name in chosen:
        rest.remove(name)
    return chosen + rest[:placeable(state, bside) - len(chosen)]


def morale_year(state: GameState, unit: Unit) -> int:
    """The year the morale table is read with (HD-4.4): the game year, or a militia unit's year raised (A25)."""
    if state.options["militia_year"] == "raised" and unit.grade == MILITIA and unit.raised:
        return unit.raised
    return state.year


def sheltered(state: GameState, battle: Battle, side: str, name: str) -> bool:
    """HD-4.4: -1 to the morale check in a fort or entrenched. The garrison is always entrenched (HD-4.11).
    A fort shelters the side that held it when the battle began, and in a containment battle the attacking
    side gets no -1 at all, fort or trench (A24 (a)); under A24 (b) it shelters every unit in the box."""
    if name == GARRISON:
        return True
    if state.options["fort"] == "everyone" and state.game_map.box(battle.box).fort:
        return True
    holds = side == battle.fort_holder and not (battle.contained and side == battle.attacker)
    return holds or dug_in(state, battle, side, name)


def morale_due(state: GameState, bside: BattleSide) -> list[str]:
    """HD-4.4: units flipped this round (by enemy fire), still reduced on the map, not yet checked; the
    garrison after its first hit, as one unit (A13)."""
    if not state.options["morale"]:
        return []

    def standing(name: str) -> bool:
        if name == GARRISON:
            return garrison_present(bside) and state.options["garrison_morale"] == "checks"
        return state.unit(name).status == ON_MAP and state.unit(name).reduced
    return [n for n in bside.flipped if n not in bside.routed and n not in bside.checked and standing(n)]


def morale_checks_due(state: GameState, sides: list[BattleSide]) -> list[MoraleCheck]:
    """The checks due now: each unit's grade and morale year; the garrison at its grade from the basic-rules
    form (A13), always entrenched."""
    battle = state.battle
    checks = []
    for bside in sides:
        for name in morale_due(state, bside):
            grade, year = (state.basic.garrison_as, state.year) if name == GARRISON else \
                (state.unit(name).grade, morale_year(state, state.unit(name)))
            checks.append(MoraleCheck(name, grade, year, sheltered(state, battle, bside.side, name)))
    return checks


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


def open_battle(state: GameState, box: str, garrison: int | None, amphibious: bool = False,
                breakout: bool = False) -> GameState:
    """A battle at `box`, the phasing side attacking, with every unit (and, under S8, every leader) of both
    sides there; the coastal garrison with the CSA when a landing meets it (HD-4.11); who held the box's fort
    (HD-4.4, A24)."""
    attacker = state.side
    sides = []
    for side in (attacker, other(attacker)):
        leaders = tuple(l.name for l in state.leaders_in(box, side)) if state.options["leaders"] else ()
        sides.append(BattleSide(side, tuple(u.name for u in state.units_in(box, side)), leaders,
                                garrison=garrison if side == CSA else None))
    fort = state.game_map.box(box).fort
    return replace(state, battle=Battle(box, tuple(sides), contained=box in state.contained,
                                        amphibious=amphibious, breakout=breakout,
                                        fort_holder=state.controller(box) if fort else ""))


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
            if garrison < GARRISON_HITS:
                flipped.append(name)
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
    bside = replace(bside, flipped=tuple(dict.fromkeys(flipped)), garrison=garrison, hits_due=0, open_only=0)
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
