"""The battle segment (HD-3, HD-4.2 - HD-4.6, HD-4.10, HD-4.11, HD-5.6): where a battle is fought, and each step
of it (battle.py says which is due): reinforcements, command, fire, hits, morale, the next round or a retreat,
desertion; with what may be chosen at each."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Barred, Choice, Pick, Spread, counts, number, one_of, some_of, yes_no

from . import battle as fight
from .actions import (actions, battle_step, finish, in_battle, in_segment, lead, near_first, offer, requires, sides,
                      tail)
from .basic import require_filled
from .battle_command import CommandInput, resolve_battle_command
from .desertion import DesertionCheck, DesertionInput, resolve_desertion
from .fire import FireInput, Shot, check_split, resolve_fire
from .intervention import intervene
from .morale import MoraleInput, resolve_morale
from .movement import garrison_at, garrison_due, origin_refusal, reinforce_refusal
from .rally import RallyInput, resolve_rally
from .rules import CSA, FULL, GARRISON, INF, REDUCED, SIDE_NAME, SIDES
from .state import BATTLE, ELIMINATED, ON_MAP, PROMOTION, BattleSide, GameState, Unit, other

# --- where a battle is fought ------------------------------------------------------------------------------


def enemy_at(state: GameState, box: str) -> bool:
    """Is there an enemy for the phasing side at `box`: its units, or the coastal garrison a landing there meets
    (HD-4.11, even with no CSA unit in the port)?"""
    return bool(state.units_in(box, other(state.side))) or (box in state.landings and garrison_at(state, box)
                                                            is not None)


def battle_boxes(state: GameState, chosen=None) -> list[Choice]:
    """The boxes where the phasing side's units meet an enemy; the landings first."""
    mine = dict.fromkeys(u.box for u in state.on_map(state.side) if u.box != state.europe)
    found = [b for b in dict.fromkeys([*state.landings, *mine]) if b in mine and enemy_at(state, b)]
    return [Choice(b, f"{b} (landing)" if b in state.landings else b) for b in found]


def _landing_answer(state: GameState, chosen) -> tuple:
    """HD-4.11: a battle where the phasing side landed this turn is the landing's; elsewhere it is none."""
    box = chosen["box"]
    if box in state.landings:
        return True, Barred(False, "no", "HD-4.11", f"{SIDE_NAME[state.side]} units landed at {box} this turn: "
                                                    "the battle there is the landing's")
    return False, Barred(True, "yes", "HD-4.11", f"No units landed at {box} this turn: the battle there is no "
                                                 "landing (a march overland meets no garrison)")


@actions("Fight a battle", "HD-3",
         one_of("box", "Box (your landings first)", "HD-3", battle_boxes),
         yes_no("amphibious", "The battle of a landing made this turn", "HD-4.11", _landing_answer, default=None),
         when=in_segment(BATTLE, "HD-3"))
def start_battle(state: GameState, dice: Dice, box: str, amphibious: bool | None) -> Step:
    """A battle where the phasing side's units meet the enemy. At a port where they landed this turn it is
    the landing's battle: a CSA recruitment port's coastal garrison defends, even with no CSA unit there
    (HD-4.11). `amphibious`, if given, must say which it is."""
    landing = box in state.landings
    new = fight.open_battle(state, box, garrison_at(state, box) if landing else None, amphibious=landing)
    new = replace(new, landings=tuple(b for b in state.landings if b != box))
    rules, extra = ["HD-3"], []
    if new.battle.sides[1].garrison is not None:
        extra.append("the coastal garrison defends")
        rules.append("HD-4.11")
    if new.battle.contained:
        extra.append(f"{box} is contained: the {SIDE_NAME[state.side]} attacker leaves its entrenchment")
        rules += ["HD-5.4", "HD-A20"]
    text = f"{lead(state)}: battle at {box}, {SIDE_NAME[state.side]} attacking" + (" by landing" if landing else "")
    return Step(new, text + tail(extra), tuple(rules))


def _no_garrison_due(state: GameState) -> None:
    due = garrison_due(state)
    if due:
        raise RuleError("HD-4.11", f"The landing at {', '.join(due)} must first beat the coastal garrison: "
                                   "fight that battle")


@actions("End the battle segment", "HD-3", when=in_segment(BATTLE, "HD-3", _no_garrison_due))
def end_battles(state: GameState, dice: Dice) -> Step:
    """The battle segment ends once every landing at a garrisoned port has fought its battle (HD-4.11)."""
    return Step(replace(state, segment=PROMOTION), f"{lead(state)}: promotion", ("HD-3",))


# --- reinforcements (the basic game), HD-5.7 leaders joining ------------------------------------------------------

def _reinforcement_time(state: GameState) -> None:
    in_battle()(state)
    kind = fight.due(state).kind
    before_fire = kind == fight.FIRE and not any(s.fired for s in state.battle.sides)
    if kind not in (fight.COMMAND, fight.BETWEEN) and not before_fire:
        raise RuleError("HD-3", "Reinforcements join between rounds, before anyone fires")


def joiners(state: GameState, side: str) -> list[Unit]:
    """The side's units on the map that are not in the battle (nor in Europe)."""
    inside = state.battle.of(side).units
    return [u for u in state.on_map(side) if u.name not in inside and u.box != state.europe]


def join_refusal(state: GameState, unit: Unit) -> RuleError | None:
    """Units of the phasing side that may not leave their box do not join a battle elsewhere: contained Union
    units before their break-out (HD-5.4), a landing before it beats the coastal garrison (HD-4.11)."""
    return origin_refusal(state, unit.box) if unit.side == state.side else None


def _chiefs(state: GameState, side: str) -> list:
    """The side's leaders on the map who are not in the battle."""
    return [l for l in state.leaders if l.side == side and l.status == ON_MAP and l.name not in
            state.battle.of(side).leaders]


def _leader_alone(state: GameState, side: str) -> bool:
    """Can a leader of the side join the battle alone (A23)?"""
    return any(reinforce_refusal(state, side, l, ()) is None for l in _chiefs(state, side))


def _may_join(state: GameState, side: str) -> bool:
    return _leader_alone(state, side) or any(join_refusal(state, u) is None for u in joiners(state, side))


def _joining_units(state: GameState, chosen) -> Pick:
    """Units from anywhere on the map that may leave their box; none at all only when a leader can join alone
    (A23)."""
    side = chosen["side"]
    return Pick([offer(u.name, f"{u.name} at {u.box}", join_refusal(state, u)) for u in joiners(state, side)],
                0 if _leader_alone(state, side) else 1)


def _joining_leaders(state: GameState, chosen):
    """HD-5.7: leaders with a march-move left, alone (A23) or with units from their box."""
    chiefs = _chiefs(state, chosen["side"])
    if not state.options["leaders"] or not chiefs:
        return NOT_ASKED
    found = [offer(l.name, f"{l.name} at {l.box}", reinforce_refusal(state, chosen["side"], l, chosen["units"]))
             for l in chiefs]
    return Pick(found, 0 if chosen["units"] else 1)


@actions("Reinforce the battle", "HD-3",
         one_of("side", "Side joined", "HD-3", lambda s, c: sides(s, lambda side: _may_join(s, side))),
         some_of("units", "Units that join", "HD-3", _joining_units, default=()),
         some_of("leaders", "Leaders that join (one of their 2 march-moves, HD-5.7)", "HD-5.7", _joining_leaders,
                 default=()),
         when=_reinforcement_time)
def reinforce(state: GameState, dice: Dice, side: str, units: list, leaders: list) -> Step:
    """Units or leaders join the battle before a round's fire (the basic game's reinforcement); a leader's
    rating counts toward the day's command at once (HD-4.2). Joining is one of his 2 march-moves (HD-5.7)."""
    battle = state.battle
    bside = battle.of(side)
    joining = [state.unit(n) for n in units]
    chiefs = [state.leader(n) for n in leaders]
    new = state.with_units({u.name: replace(u, box=battle.box, entrenched=False) for u in joining})
    new = new.with_leaders({c.name: replace(c, box=battle.box, moves=c.moves + 1) for c in chiefs})
    grown = replace(bside, units=bside.units + tuple(u.name for u in joining),
                    leaders=bside.leaders + tuple(c.name for c in chiefs))
    grown = fight.add_leader_to_command(new, grown, sum(c.rating for c in chiefs))
    new = replace(new, battle=battle.with_side(grown))
    names = ", ".join([u.name for u in joining] + [c.name for c in chiefs])
    rules = ("HD-3", "HD-4.2", "HD-5.7") if chiefs else ("HD-3",)
    return Step(new, f"{lead(state)}: {names} join the battle at {battle.box}", rules)


# --- HD-4.5 rally, HD-4.2 battle command ----------------------------------------------------------------------

def _rally_open(state: GameState) -> None:
    in_battle("HD-4.5")(state)
    requires("morale", "HD-4.5", "battlefield morale")(state)
    if not any(fight.rally_open(state, side) for side in SIDES):
        raise RuleError("HD-4.5", "A side rallies one routed unit after every 4th round, before the next day's "
                                  "first fire")


@actions("Rally", "HD-4.5",
         one_of("side", "Side that rallies", "HD-4.5", lambda s, c: sides(s, lambda side: fight.rally_open(s, side))),
         one_of("unit", "Routed unit restored to reduced", "HD-4.5", lambda s, c: s.battle.of(c["side"]).routed),
         when=_rally_open)
def rally(state: GameState, dice: Dice, side: str, unit: str) -> Step:
    """HD-4.5: before days 2, 3 ..., each side may restore one routed unit to ordinary reduced status."""
    battle = state.battle
    bside = battle.of(side)
    result = resolve_rally(RallyInput(bside.routed, unit), dice)
    restored = replace(bside, routed=tuple(n for n in bside.routed if n != result.outcome), rallied=battle.day)
    return Step(replace(state, battle=battle.with_side(restored)), f"{lead(state)}: {result.summary}",
                result.rules, (result,))


def command_input(state: GameState, bside: BattleSide) -> CommandInput:
    """HD-4.2 for the side's next command roll: from the second day on, what the day before passes on."""
    return CommandInput(state.year, bside.side, fight.leaders_rating(state, bside),
                        bside.carried if state.battle.command_day else None, state.options["carry"],
                        state.options["leader_carry"])


@actions("Battle command", "HD-4.2",
         when=battle_step(fight.COMMAND, "HD-4.2", "Battle command is rolled at the start of each battle day"))
def battle_command(state: GameState, dice: Dice) -> Step:
    """HD-4.2: at the start of each battle day each side rolls on the Command Table; from day 2 half the
    previous day's command (rounded up) is added; leaders add their rating. The attacker's die first."""
    battle = state.battle
    results, battle_sides = [], []
    for bside in battle.sides:
        result = resolve_battle_command(command_input(state, bside), dice)
        results.append(result)
        battle_sides.append(replace(bside, command=result.outcome, carried=result.details["passes_on"]))
    new = replace(state, battle=replace(battle, sides=tuple(battle_sides), command_day=battle.day))
    text = f"{lead(state)}: day {battle.day} at {battle.box}: " + "; ".join(r.summary for r in results)
    return Step(new, text, ("HD-4.2", "HD-5.6"), tuple(results))


# --- HD-4.10 fire, HD-5.6 the firing limit, HD-4.3 leader points -------------------------------------------------

def _fire_due(state: GameState) -> None:
    in_battle("HD-4.10")(state)
    kind = fight.due(state).kind
    if kind == fight.COMMAND:
        raise RuleError("HD-4.2", f"First the battle command of day {state.battle.day}")
    if kind != fight.FIRE:
        raise RuleError("HD-4.10", "Nobody fires now")


def _basic_filled(state: GameState) -> None:
    _fire_due(state)
    require_filled(state.basic)


def _firer(state: GameState, chosen) -> BattleSide:
    return state.battle.of(chosen.get("side") or fight.due(state).side)


def _firing_sides(state: GameState, chosen) -> list[Choice]:
    """The side whose turn it is to fire (in simultaneous fire: either side that has not fired)."""
    return sides(state, lambda side: fight.may_fire(state, side))


def _firing(state: GameState, chosen) -> Pick:
    """HD-5.6: at most the firing limit of the side's units able to fire (routed units do not)."""
    bside = _firer(state, chosen)
    return Pick(fight.shooters(state, bside), 0, fight.limit(state, state.battle, bside.side))


def _due_side(state: GameState, chosen) -> str:
    """The side the battle step is due for: the one a form starts from."""
    return fight.due(state).side


def _all_firing(state: GameState, chosen) -> list[str]:
    """The units a form starts from: as many of those able to fire as the firing limit allows (HD-5.6)."""
    pick = _firing(state, chosen)
    return list(pick.options)[:pick.high]


def firing_units(state: GameState, side: str | None, units: list | None) -> tuple[BattleSide, tuple[str, ...]]:
    """Who fires: the side named (or whose turn it is), the units named (or all that can fire, when they are
    within the firing limit, HD-5.6)."""
    bside = _firer(state, {"side": side})
    if units is not None:
        return bside, tuple(units)
    able = fight.shooters(state, bside)
    cap = fight.limit(state, state.battle, bside.side)
    if len(able) > cap:
        raise RuleError("HD-5.6", f"Choose at most {cap} of the {len(able)} units that can fire")
    return bside, tuple(able)


def _points(state: GameState, chosen):
    """HD-4.3: the leaders' rating split into whole points on the firing units (A22 (b) caps the units)."""
    bside = _firer(state, chosen)
    rating = fight.leaders_rating(state, bside)
    units = chosen["units"] if chosen["units"] is not None else fight.shooters(state, bside)
    if not rating or not units:
        return NOT_ASKED
    return Spread(dict.fromkeys(units, rating), 0, rating)


def shots(state: GameState, firing: tuple[str, ...], bonus: dict[str, int], penalty: int,
          garrison_hits: int | None) -> tuple[Shot, ...]:
    """Each firing unit's number from the players' basic rules (HD-4.10; RuleError while unconfigured),
    with its leader points (HD-4.3) and the entrenchment penalty."""
    basic = state.basic
    found = []
    for name in firing:
        if name == GARRISON:
            strength = basic.of(INF, basic.garrison_as, FULL if not garrison_hits else REDUCED)
        else:
            u = state.unit(name)
            strength = basic.of(u.arm, u.grade, u.face)
        found.append(Shot(name, strength, bonus.get(name, 0), penalty, basic.leader_point))
    return tuple(found)


def fire_input(state: GameState, side: str | None = None, units: list | None = None,
               bonus: dict | None = None) -> tuple[BattleSide, FireInput]:
    """The fire a side would make now, its parameters as the action's spec checks them: who fires (HD-5.6), the
    leader split (HD-4.3, A22), each unit's number (HD-4.10), and what the fire meets: entrenched units, open
    ones, or both (the garrison is always entrenched, HD-4.11). RuleError while the basic rules are
    unconfigured."""
    bside, firing = firing_units(state, side, units)
    points = dict(bonus or {})
    check_split(fight.leaders_rating(state, bside), points, firing, fight.split_cap(state, bside))
    basic = require_filled(state.basic)
    cover = fight.cover(state, state.battle, other(bside.side))
    penalty = int(basic.entrenchment == "threshold" and cover != fight.OPEN)
    return bside, FireInput(shots(state, firing, points, penalty, bside.garrison),
                            bool(penalty) and cover == fight.MIXED)


@actions("Fire", "HD-4.10",
         one_of("side", "Side that fires", "HD-4.10", _firing_sides, default=None, suggest=_due_side),
         some_of("units", "Units that fire (at most the firing limit, HD-5.6)", "HD-5.6", _firing, default=None,
                 suggest=_all_firing),
         counts("bonus", "Leader points on firing units (+1 strength each, HD-4.3)", "HD-4.3", _points, default=None),
         when=_basic_filled, retired={"side": "", "bonus": {}})
def fire(state: GameState, dice: Dice, side: str | None, units: list | None, bonus: dict | None) -> Step:
    """HD-4.10 with the players' basic numbers: each firing unit (at most the firing limit, HD-5.6) rolls a
    d6 and hits at or under its strength, plus the leader points put on it (HD-4.3)."""
    bside, inputs = fire_input(state, side, units, bonus)
    result = resolve_fire(inputs, dice, f"{SIDE_NAME[bside.side]} fire, round {state.battle.round}")
    garrison = inputs.open_targets and fight.garrison_present(state.battle.of(other(bside.side)))
    rules = result.rules + ("HD-5.6",) + (("HD-4.11",) if garrison else ())
    return _fired(state, bside, result.outcome, result.summary, rules, (result,), result.details["open_only"])


@actions("Fire (hits entered)", "HD-4.10",
         one_of("side", "Side that fires", "HD-4.10", _firing_sides, suggest=_due_side),
         some_of("units", "Units that fire (at most the firing limit, HD-5.6)", "HD-5.6", _firing, suggest=_all_firing),
         number("hits", "Hits scored by your basic rules (at most one a unit)", "HD-4.10",
                lambda s, c: range(0, len(c["units"]) + 1)),
         when=_fire_due)
def record_fire(state: GameState, dice: Dice, side: str, units: list, hits: int) -> Step:
    """HD-4.10 resolved at the table by the players' own basic rules: which units fired (at most the firing
    limit, HD-5.6) and the hits they scored (at most one each)."""
    bside = state.battle.of(side)
    text = (f"{SIDE_NAME[side]} fire, round {state.battle.round}: {len(units)} unit"
            f"{'s' if len(units) != 1 else ''} fired, {hits} hit{'s' if hits != 1 else ''} (entered)")
    return _fired(state, bside, hits, text, ("HD-4.10", "HD-5.6"), ())


def _fired(state: GameState, bside: BattleSide, hits: int, text: str, rules, results, open_only: int = 0) -> Step:
    battle = state.battle
    target = battle.of(other(bside.side))
    battle = battle.with_side(replace(bside, fired=True)).with_side(replace(target, hits_due=hits,
                                                                            open_only=open_only))
    return _after(state, fight.settle(replace(state, battle=battle)), text, rules, results)


# --- HD-4.10 hits, HD-4.11 the garrison's, A7 ---------------------------------------------------------------------

def _hit_sides(state: GameState, chosen) -> list[Choice]:
    """The side that places its hits now (in simultaneous fire: either side with hits to place)."""
    step = fight.due(state)
    either = fight.firing_order(state.basic) == "simultaneous"
    return sides(state, lambda side: side == step.side or (either and state.battle.of(side).hits_due > 0))


def _hit(state: GameState, chosen) -> BattleSide:
    return state.battle.of(chosen.get("side") or fight.due(state).side)


def _targets(state: GameState, chosen) -> Pick:
    """A unit for each hit that can be placed: each at most the hits it can still take (a full unit 2, a
    reduced one 1, the garrison what is left of its 2); a hit scored only against unentrenched units on one of
    them (HD-4.11); routed units take none (A7)."""
    bside = _hit(state, chosen)
    room = fight.capacity(state, bside)
    needed = fight.placeable(state, bside)
    dug = {n for n in room if fight.dug_in(state, state.battle, bside.side, n)}
    sure = bside.hits_due - bside.open_only
    routed = [Barred(n, n, "HD-A7", f"{n} is routed: routed units take no hits in this game")
              for n in bside.routed if n not in room and (n == GARRISON or state.unit(n).status == ON_MAP)]

    def fits(names) -> bool:
        return all(names.count(n) <= room[n] for n in set(names)) and sum(n in dug for n in names) <= sure
    return Pick([*(Choice(n, f"{n} ({r} hit{'s' if r != 1 else ''} left)") for n, r in room.items()), *routed],
                needed, needed, fits)


def auto_targets(state: GameState, bside: BattleSide) -> tuple[str, ...]:
    """The hits' targets when only one placement is possible; RuleError when the players must name them."""
    room = fight.capacity(state, bside)
    needed = fight.placeable(state, bside)
    eligible = [n for n in room if bside.hits_due - bside.open_only or not
                fight.dug_in(state, state.battle, bside.side, n)]
    if needed == sum(room.values()):
        return tuple(n for n, r in room.items() for _ in range(r))
    if len(eligible) == 1:
        return (eligible[0],) * needed
    raise RuleError("HD-4.10", f"Name a unit for each of the {needed} hits on the {SIDE_NAME[bside.side]} side")


@actions("Take hits", "HD-4.10",
         one_of("side", "Side that places its hits", "HD-4.10", _hit_sides, default=None, suggest=_due_side),
         some_of("units", "Unit hit, for each hit (the first flips it, the second eliminates it)", "HD-4.10",
                 _targets, default=None, repeat=True, suggest=lambda s, c: fight.hit_placement(s, _hit(s, c))),
         when=battle_step(fight.HITS, "HD-4.10", "No hits are waiting to be placed"), retired={"side": ""})
def take_hits(state: GameState, dice: Dice, side: str | None, units: list | None) -> Step:
    """HD-4.10: the side hit names a unit for each hit: the first hit flips a unit, the second eliminates it;
    the garrison goes at its second hit (HD-4.11). Routed units take none (A7). A hit scored only against
    unentrenched units goes on one of them (HD-4.11). Hits beyond what the side can take are lost."""
    bside = _hit(state, {"side": side})
    targets = tuple(units) if units is not None else auto_targets(state, bside)
    new, lines = fight.place_hits(state, bside.side, targets)
    new = fight.settle(new)
    rules = ("HD-4.10", "HD-4.11") if GARRISON in targets else ("HD-4.10",)
    return _after(state, new, f"{SIDE_NAME[bside.side]} hits: " + (", ".join(lines) or "none"), rules)


def _after(before: GameState, state: GameState, text: str, rules, results=()) -> Step:
    """A battle step's Step; when the battle has closed, its consequences (captures, intervention)."""
    rules = list(rules)
    if state.battle is None and before.battle is not None:
        state, lines, more = _closed(state)
        text += tail(lines)
        rules += more
    return Step(state, f"{lead(before)}: {text}", tuple(dict.fromkeys(rules)), tuple(results))


def _closed(state: GameState) -> tuple[GameState, list[str], list[str]]:
    """A battle has just closed: the FI trigger (HD-5.9) and captured leaders (HD-5.7)."""
    record = state.battles[-1]
    lines = [f"the battle at {record.box} is over: " +
             (f"{SIDE_NAME[record.winner]} victory" if record.winner else "neither side stands")]
    rules = []
    if state.side == CSA and record.winner == CSA and state.fi_snapshot and not state.fi_triggered \
            and state.options["intervention"] and state.options["fi_trigger"] == "battle":
        state = intervene(state)
        lines.append("a CSA battle win with the FI conditions met: foreign intervention")
        rules += ["HD-5.9", "HD-A21"]
    state, captured = finish(state)
    return state, lines + captured, rules + (["HD-5.7"] if captured else [])


# --- HD-4.4 morale, the round's end, a retreat ---------------------------------------------------------------------

@actions("Morale checks", "HD-4.4", when=battle_step(fight.MORALE, "HD-4.4", "No morale check is due now"))
def morale_checks(state: GameState, dice: Dice) -> Step:
    """HD-4.4: each unit flipped this round by enemy fire rolls; greater than its morale, it routs
    (-1 in a fort or entrenched, A24). The coastal garrison checks as one unit, always entrenched (A13)."""
    battle = state.battle
    step = fight.due(state)
    checking = [battle.of(step.side)] if step.side else list(battle.sides)
    inputs = MoraleInput(tuple(fight.morale_checks_due(state, checking)))
    result = resolve_morale(inputs, dice)
    routs = {c.unit for c, gone in zip(inputs.checks, result.outcome) if gone}
    for bside in checking:
        mine = fight.morale_due(state, bside)
        battle = battle.with_side(replace(bside, checked=bside.checked + tuple(mine),
                                          routed=bside.routed + tuple(n for n in mine if n in routs)))
    new = fight.settle(replace(state, battle=battle))
    return _after(state, new, result.summary, result.rules, (result,))


@actions("Next round", "HD-3", when=battle_step(fight.BETWEEN, "HD-3", "The round is not finished"))
def next_round(state: GameState, dice: Dice) -> Step:
    battle = state.battle
    new = fight.next_round(state)
    day = " (a new day: rally, then battle command)" if new.battle.day > battle.day else ""
    return Step(new, f"{lead(state)}: round {new.battle.round} at {battle.box}{day}", ("HD-3",))


def retreat_refusal(state: GameState, side: str, to: str) -> RuleError | None:
    """Why a side may not retreat from the battle to `to` (None: it may)."""
    if to in (state.battle.box, state.europe):
        return RuleError("HD-3", f"A retreat leaves the box for another one, not {to}")
    enemy = other(side)
    if state.controller(to) == enemy:
        return RuleError("HD-3", f"{to} is held by the {SIDE_NAME[enemy]}: a retreat does not go into an "
                                 "enemy-held box")
    if state.units_in(to, enemy):
        return RuleError("HD-3", f"{SIDE_NAME[enemy]} units stand at {to}: a retreat does not go into them")
    return None


def retreat_boxes(state: GameState, side: str) -> list[str]:
    """The boxes the side may retreat to from the battle under way."""
    return [b.id for b in state.game_map.boxes if retreat_refusal(state, side, b.id) is None]


def _going(state: GameState, bside: BattleSide) -> list[Unit]:
    """The side's units that leave with a retreat (not those already withdrawn beside their garrison)."""
    return [u for u in (state.unit(n) for n in bside.units)
            if u.status == ON_MAP and u.box == state.battle.box and u.name not in bside.withdrawn]


def _retreat_sides(state: GameState, chosen) -> list:
    """Each side, unless it has no box to go to, or only its coastal garrison stands (it never retreats)."""
    found = []
    for side in SIDES:
        bside = state.battle.of(side)
        refusal = None
        if fight.garrison_stands(bside) and not _going(state, bside):
            refusal = RuleError("HD-4.11", "The coastal garrison never retreats: it fights on until it falls")
        elif not retreat_boxes(state, side):
            refusal = RuleError("HD-3", f"The {SIDE_NAME[side]} has no box to retreat to")
        found.append(offer(side, SIDE_NAME[side], refusal))
    return found


@actions("Retreat", "HD-3",
         one_of("side", "The side that retreats (it loses the battle)", "HD-3", _retreat_sides),
         one_of("to", "To (not where the enemy holds or stands)", "HD-3",
                lambda s, c: near_first(s, s.battle.box, [offer(b.id, b.name, retreat_refusal(s, c["side"], b.id))
                                                          for b in s.game_map.boxes
                                                          if b.id not in (s.battle.box, s.europe)])),
         when=battle_step(fight.BETWEEN, "HD-3", "A side retreats at the end of a round"))
def retreat(state: GameState, dice: Dice, side: str, to: str) -> Step:
    """A side may retreat after a round (basic game), to a box the enemy neither holds nor stands in: it loses
    the battle. A standing coastal garrison never retreats (HD-4.11): the CSA units withdraw and it fights on
    alone."""
    battle = state.battle
    bside = battle.of(side)
    going = _going(state, bside)
    new = state.with_units({u.name: replace(u, box=to, entrenched=False) for u in going})
    new = new.with_leaders({n: replace(new.leader(n), box=to) for n in bside.leaders
                            if new.leader(n).status == ON_MAP})
    names = ", ".join(u.name for u in going) or "no unit"
    if fight.garrison_stands(bside):
        withdrawn = replace(bside, withdrawn=bside.withdrawn + tuple(u.name for u in going), leaders=())
        new = fight.settle(replace(new, battle=battle.with_side(withdrawn)))
        return _after(state, new, f"{names} withdraw to {to}; the garrison fights on alone", ("HD-3", "HD-4.11"))
    new = fight.end(new, other(side))
    return _after(state, new, f"{SIDE_NAME[side]} retreats to {to} ({names})", ("HD-3",))


# --- HD-4.6 desertion ------------------------------------------------------------------------------------------------

def desertion_inputs_of(state: GameState) -> tuple[list[Unit], DesertionInput]:
    """HD-4.6 for the battle just decided: the units that check and their modifiers."""
    battle = state.battle
    checking = fight.desertion_due(state, battle)
    steady = state.options["morale"] or state.options["steady_without_morale"] == "all"
    checks = []
    for u in checking:
        bside = battle.of(u.side)
        ratings = [state.leader(n).rating for n in bside.leaders] if state.options["leaders"] else []
        leaders = (sum(ratings) if state.options["desertion_leaders"] == "sum" else max(ratings)) if ratings else 0
        checks.append(DesertionCheck(u.name, u.grade, fight.morale_year(state, u),
                                     bool(battle.winner) and u.side != battle.winner, u.name in bside.routed, leaders,
                                     steady))
    return checking, DesertionInput(tuple(checks))


@actions("Desertion", "HD-4.6",
         when=battle_step(fight.DESERTION, "HD-4.6", "Desertion is checked after the battle"))
def desertion_checks(state: GameState, dice: Dice) -> Step:
    """HD-4.6: after the battle every reduced unit that took part rolls; greater than its morale, it is
    eliminated (+1 lost, -1 not routed, - the friendly leaders' rating)."""
    checking, inputs = desertion_inputs_of(state)
    result = resolve_desertion(inputs, dice)
    gone = {u.name: replace(u, status=ELIMINATED) for u, lost in zip(checking, result.outcome) if lost}
    new = fight.close(state.with_units(gone))
    return _after(state, new, result.summary, result.rules, (result,))
