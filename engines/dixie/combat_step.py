"""The combat step (DX-7.0): melees declared first (DX-13.1), then fire in any order, one position finished
before the next; the hits placed by their owner (DX-7.3) and, after a melee round or artillery support, checked
at once; a melee's choices and the disengagements it forces (DX-8.2)."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import Result, RuleError, Step
from companion.spec import NOT_ASKED, Choice, Pick, one_of, some_of, yes_no

from .actions import (
    actions,
    card_choices,
    cards_of,
    check_leader_hits,
    check_unit_hits,
    done,
    in_step,
    per_state,
    plural,
    sorted_out,
    when_due,
)
from .board import other
from .counter_battery import CounterBatteryInput, on_target, resolve_counter_battery
from .fire import FireInput, Volley, dice_from, resolve_fire
from .fire_effect import FireEffectInput, TargetCard, allocation
from .firepower import (
    battery_choices,
    check_order,
    fire_choices,
    fire_fault,
    fire_mode,
    fire_rule,
    firepower,
    order_key,
    why_not_firing,
)
from .flow import eliminate, fighting
from .hits import place, taken
from .modifiers import ENFILADE, LONG, MELEE, SUPPORT, fire_terms, melee_share, morale, told
from .movement import disengage, disengagements
from .rules import LDR
from .state import COMBAT, MOVEMENT, Card, GameState, Melee, Task, fault, label, public
from .support import SupportInput, resolve_support


# --- DX-7.0-7.3 fire ----------------------------------------------------------------------------------------

def _hits_on(state: GameState, side: str, pos: str, hits: int, source: str, firer: str,
             decoys: bool = False) -> list[Task]:
    pool = [c for c in state.at(pos, side) if c.is_unit or (decoys and c.decoy)]
    return [Task("allocate", side, pos, hits, decoys, tuple(c.id for c in pool), source, firer)] if hits and pool else []


def _leader_hits(state: GameState, side: str, pos: str, sixes: int, melee: bool = False) -> GameState:
    """DX-11.3: each natural 6 of enemy fire into the position is a hit on the side's leader there (a melee's
    are also counted as melee hits, A21)."""
    leader = state.leader(pos, side)
    if not leader or not sixes:
        return state
    melee_hits = leader.melee_hits + (sixes if melee else 0)
    return state.with_cards(replace(leader, hits=leader.hits + sixes, melee_hits=melee_hits))


def _struck(card: Card, battery) -> Card:
    """A named artillery card after counter-battery hits (DX-13.4)."""
    hit = replace(card, hits=battery.hits, face_up=True)
    return eliminate(hit) if battery.destroyed else hit


def volley(state: GameState, firers: list[Card], target: str, mode: str, named: dict[str, Card],
           dice: Dice) -> tuple[GameState, list[Result], str]:
    """Each firing card rolls (DX-7.1); hits go to the target's owner to place (DX-7.3) or on a named artillery
    card (DX-13.4); natural 6s hit the enemy leader there (DX-11.3); artillery support's 5s hit friends
    (DX-13.5). Firers and the cards they fire at are turned face-up."""
    side, enemy = firers[0].side, other(firers[0].side)
    results, pooled, friendly, sixes = [], 0, 0, 0
    new = state.with_cards(*(replace(c, fired=True, face_up=True) for c in firers))
    for c in firers:
        terms, f = fire_terms(state, c, mode, target, enemy), firepower(state, c, mode)
        n = dice_from(terms)
        what = f"{c.spec.label} fires at {target}"
        art = new.card(named[c.id].id) if c.id in named else None
        battery = art and CounterBatteryInput(n, f, art.spec.cv, art.hits if art.loc == target else art.spec.cv + 1,
                                              terms)
        struck = None
        if mode == SUPPORT:
            result = resolve_support(SupportInput(((n, f),), (terms,)), dice, what)
            hits, six = result.outcome.enemy, result.outcome.leader
            friendly += result.outcome.friendly
            struck = battery and on_target(battery, hits, six)
        elif battery:
            result = resolve_counter_battery(battery, dice, f"{what}, counter-battery")
            hits, six, struck = 0, result.outcome.sixes, result.outcome
        else:
            result = resolve_fire(FireInput(((n, f),), (terms,)), dice, what, fire_rule(mode))
            hits, six = result.outcome.hits, result.outcome.sixes
        if struck:
            hits = 0
            if art.loc == target:
                new = new.with_cards(_struck(art, struck))
        results.append(result)
        pooled += hits
        sixes += six
    new = _leader_hits(new, enemy, target, sixes)
    decoys = mode == LONG and state.options["decoys_absorb_hits"]
    tasks = _hits_on(new, enemy, target, pooled, mode, side, decoys)
    own = _hits_on(new, side, target, friendly, "support", side)
    if own:
        tasks += own + [Task("checks", side, target, source="support")]
    new = replace(new, tasks=new.tasks + tuple(tasks))
    return new, results, "; ".join(r.summary for r in results)


@per_state
def _firers(state: GameState, chosen) -> Pick:
    """DX-7.0: cards of one position that may all fire at one target; the moving side's others barred with the
    rule that stops them."""
    table = fire_choices(state)
    able = list(dict.fromkeys(i for ids in table.values() for i in ids))
    barred = sorted_out([c.id for p in state.positions for c in state.units(p, state.active) if c.id not in able],
                        lambda i: why_not_firing(state, state.card(i)), lambda i: _in(state.card(i)))

    def fits(picked) -> bool:
        origins = {state.card(i).loc for i in picked}
        return len(origins) == 1 and any(o in origins and set(picked) <= set(ids) for (o, _), ids in table.items())
    return Pick([Choice(i, _in(state.card(i))) for i in able] + barred, 1, None, fits=fits)


def _in(card: Card) -> str:
    return f"{label(card)} in {card.loc}"


def _targets(state: GameState, chosen) -> list:
    cards = cards_of(state, chosen["firers"])
    if not cards:
        raise RuleError("DX-7.0", "Choose the firing cards first: the targets are those of their position")

    def name(target: str) -> str:
        kind = fault(fire_mode, state, state.active, cards[0].loc, target)
        return target if kind else f"{target} ({fire_mode(state, state.active, cards[0].loc, target)})"
    return sorted_out(state.positions, lambda t: fire_fault(state, cards, t), name)


def battery_pick(state: GameState, firers: list[Card], target: str):
    """DX-13.4: the enemy artillery each firer may single out ('firer>artillery'), one each; not asked when
    counter-battery is off or no firer may."""
    if not state.options["counter_battery"]:
        return NOT_ASKED
    table = battery_choices(state, firers, target)
    if all(f is not None for _, _, f in table.values()):
        return NOT_ASKED
    items = sorted_out(table, lambda v: table[v][2], lambda v: f"{label(table[v][0])} at {label(table[v][1])}")
    return Pick(items, 0, None, fits=lambda picked: len({table[v][0].id for v in picked}) == len(picked))


def named_batteries(state: GameState, firers: list[Card], target: str, pairs: list) -> dict[str, Card]:
    """firer id -> the enemy artillery card it singles out (DX-13.4)."""
    if not pairs:
        return {}
    table = battery_choices(state, firers, target)
    return {table[v][0].id: table[v][1] for v in pairs}


@actions("Fire", "DX-7.0",
         some_of("firers", "Firing cards (of one position)", "DX-7.0", _firers),
         one_of("target", "Target position", "DX-7.2", _targets),
         some_of("counter_battery", "Single out enemy artillery (13.4)", "DX-13.4",
                 lambda s, c: battery_pick(s, cards_of(s, c["firers"]), c["target"]), default=()),
         when=in_step(COMBAT, MOVEMENT, rule="DX-7.0", action="fire"))
def fire(state: GameState, dice: Dice, firers: list, target: str, counter_battery: list) -> Step:
    """DX-7.0-7.3: cards of one position fire at one target position. In the Movement step only horse
    artillery that has moved may fire (DX-7.2)."""
    cards = cards_of(state, firers)
    origin = cards[0].loc
    mode = fire_mode(state, state.active, origin, target)
    named = named_batteries(state, cards, target, counter_battery)
    new = state
    if state.step == COMBAT:
        key = order_key(state, origin, target)
        if not state.combat_at or state.combat_at[-1] != key:
            new = replace(new, combat_at=state.combat_at + (key,))
    new, results, text = volley(new, cards, target, mode, named, dice)
    return done(state, new, text, ("DX-7.0", fire_rule(mode), *(("DX-13.4",) if named else ())), results)


# --- DX-7.3 hits -------------------------------------------------------------------------------------------

def _task(state: GameState, kind: str) -> Task | None:
    return state.tasks[0] if state.tasks and state.tasks[0].kind == kind else None


def _pool(state: GameState, task: Task) -> list[Card]:
    return [c for c in cards_of(state, task.cards) if c.loc == task.position]


def _spots(pool: list[Card]) -> tuple[tuple[int, int], ...]:
    return tuple((0 if c.decoy else c.spec.cv, c.hits) for c in pool)


@per_state
def _placings(state: GameState, chosen) -> Pick:
    """DX-7.3: one card per hit the pool can take, levelled; or none (the companion places them)."""
    task = _task(state, "allocate")
    if task is None:
        return Pick([], 0, 0)
    pool = _pool(state, task)
    spots, ids = _spots(pool), [c.id for c in pool]
    n = taken(spots, task.hits)
    return Pick([Choice(c.id, f"a face-down card ({c.id})" if c.decoy else label(c)) for c in pool], 0, n,
                fits=lambda picked: not picked or len(picked) == n and place(spots, [ids.index(i) for i in picked])
                is not None)


def _owner_choice(state: GameState, task: Task, pool: list[Card]) -> tuple[int, ...]:
    """The owner's default placing (DX-7.3), as the advice assumes: first the smallest chance of losing any card,
    then the fewest cards lost on average (`fire_effect.allocation`)."""
    melee = task.source == MELEE
    targets = tuple(TargetCard(0) if c.decoy else TargetCard(c.spec.cv, morale(state, c, melee),
                                                             morale(state, c, melee, led=False), c.hits) for c in pool)
    leader = state.leader(task.position, task.side)
    inputs = FireEffectInput(FireInput(()), targets, leader is not None, leader.hits if leader else 0)
    return allocation(inputs, Volley(task.hits, 0))


@actions("Place the hits", "DX-7.3",
         some_of("cards", "The card each hit goes on (left out: the companion places them)", "DX-7.3", _placings,
                 default=None, repeat=True),
         when=when_due("allocate_hits"))
def allocate_hits(state: GameState, dice: Dice, cards: list | None) -> Step:
    """DX-7.3: the owner places the hits, one card id per hit, levelled: no card takes its k-th hit before every
    eligible card holds k-1; a card holding more hits than its CV is destroyed at once; hits nobody can take
    are lost. Decoys under long-range fire take one and are eliminated (DX-13.6). Left out, the companion
    places them for the smallest chance of losing any card, then the fewest cards lost on average. Melee hits
    are also counted as such, for the checks at once (DX-13.1, A21)."""
    task = state.tasks[0]
    pool = _pool(state, task)
    ids = [c.id for c in pool]
    final = place(_spots(pool), [ids.index(i) for i in cards]) if cards else _owner_choice(state, task, pool)
    changed, lines = [], []
    for c, h in zip(pool, final):
        if h == c.hits:
            continue
        limit = 0 if c.decoy else c.spec.cv
        melee_hits = c.melee_hits + (h - c.hits if task.source == MELEE else 0)
        changed.append(eliminate(c) if h > limit else replace(c, hits=h, melee_hits=melee_hits, face_up=True))
        what = "eliminated" if c.decoy else "destroyed" if h > limit else f"{h} hit{'s' if h != 1 else ''}"
        lines.append(f"{c.spec.label}: {what}")
    new = replace(state.with_cards(*changed), tasks=state.tasks[1:])
    lost = task.hits - sum(h - c.hits for c, h in zip(pool, final))
    if task.source == ENFILADE and not new.units(task.position, task.side):
        new = replace(new, captured={**state.captured, task.position: task.firer})
    tail = f"; {lost} lost" if lost > 0 else ""
    rules = ("DX-7.3", "DX-13.6") if any(c.decoy for c in pool) else ("DX-7.3",)
    return done(state, new, f"{task.side} hits in {task.position}: {'; '.join(lines) or 'none'}{tail}", rules)


def checked_at_once(state: GameState) -> tuple[list[Card], bool]:
    """The leaders and units the due hits check takes, leaders first (DX-11.3), and whether it follows a melee
    round: after a melee round both sides' (DX-13.1), after artillery support the firer's own (DX-13.5)."""
    task = state.tasks[0]
    melee = task.source == MELEE
    sides = (task.side, other(task.side)) if melee else (task.side,)
    leaders = [leader for side in sides if (leader := state.leader(task.position, side))
               and (sum(melee_share(state, leader)) if melee else leader.hits)]
    return leaders + [unit for side in sides for unit in state.units(task.position, side) if unit.hits], melee


@actions("Check the hits at once", "DX-13.1", when=when_due("check_hits"))
def check_hits(state: GameState, dice: Dice) -> Step:
    """Hits checked at once (`checked_at_once`): leaders first (DX-11.3), then units (DX-6.0). Terrain is ignored
    in melee."""
    task, (cards, melee) = state.tasks[0], checked_at_once(state)
    new, results = replace(state, tasks=state.tasks[1:]), []
    for card in cards:
        if card.spec.type == LDR:
            new, result = check_leader_hits(new, new.card(card.id), dice, melee)
            results.append(result)
        elif (unit := new.card(card.id)).hits and unit.loc == task.position:
            new, checked = check_unit_hits(new, unit, dice, melee)
            results += checked
    if melee:
        new = _after_round(new, task.position)
    text = "; ".join(r.summary for r in results) or "no hits to check"
    return done(state, new, f"hits in {task.position} checked: {text}",
                ("DX-13.1",) if melee else ("DX-13.5",), results)


# --- DX-13.1 melee ------------------------------------------------------------------------------------------------

def _melee(state: GameState, pos: str) -> Melee:
    return next(m for m in state.melees if m.position == pos)


def _set_melee(state: GameState, melee: Melee) -> GameState:
    return replace(state, melees=tuple(melee if m.position == melee.position else m for m in state.melees))


def _withdraw_task(state: GameState, side: str, pos: str, ids) -> list[Task]:
    cards = tuple(i for i in ids if state.card(i).loc == pos)
    return [Task("withdraw", side, pos, cards=cards, source=MELEE)] if cards else []


def _after_round(state: GameState, pos: str) -> GameState:
    """After a round's checks: the melee ends if a side is gone, else the initiator chooses (round 1), else an
    initiator without sole presence disengages (DX-13.1)."""
    m = _melee(state, pos)
    m = replace(m, rounds=m.rounds + 1)
    mine, theirs = fighting(state, m)
    if mine and theirs and m.rounds == 1:
        return _set_melee(state, replace(m, stage="choice"))
    tasks = _withdraw_task(state, m.initiator, pos, mine) if theirs else []
    return replace(_set_melee(state, replace(m, stage="done")), tasks=state.tasks + tuple(tasks))


def _melee_open(state: GameState) -> None:
    in_step(COMBAT, rule="DX-13.1", action="declare_melee")(state)
    if not state.options["melee"]:
        raise RuleError("DX-13.1", "Melee (13.1) is off")
    if state.combat_at:
        raise RuleError("DX-13.1", "Melees are declared before any fire or melee is fought")


def _meleers(state: GameState, pos: str) -> list[Card]:
    """A8: the active side's units in the position that have not fired (melee counts as firing)."""
    return [c for c in state.units(pos, state.active) if not c.fired]


@per_state
def _melee_positions(state: GameState, chosen) -> list:
    """DX-13.1: an engaged position, one melee each, with units of the active side to fight it."""
    def why(pos: str) -> RuleError | None:
        if any(m.position == pos for m in state.melees):
            return RuleError("DX-13.1", f"A melee is already declared in {pos}")
        if not _meleers(state, pos):
            return RuleError("DX-13.1", f"No {state.active} unit in {pos} can melee")
        return None
    return sorted_out([p for p in state.positions if state.engaged(p)], why)


def _melee_units(state: GameState, chosen):
    """A8 option: the initiator names its melee units; by default all of them fight."""
    if state.options["melee_all_units"]:
        return NOT_ASKED
    return Pick(card_choices(state, [c.id for c in _meleers(state, chosen["position"])]), 1)


@actions("Declare a melee", "DX-13.1",
         one_of("position", "Melee in", "DX-13.1", _melee_positions),
         some_of("units", "Your units in the melee", "DX-13.1", _melee_units, default=None),
         when=_melee_open)
def declare_melee(state: GameState, dice: Dice, position: str, units: list | None) -> Step:
    """DX-13.1: before any fire, the active player declares a melee in an engaged position, giving up the fire
    of its units there (A8: melee counts as having fired)."""
    chosen = _meleers(state, position) if units is None else cards_of(state, units)
    new = state.with_cards(*(replace(c, fired=True) for c in chosen))
    new = replace(new, melees=state.melees + (Melee(position, state.active, tuple(c.id for c in chosen)),))
    return done(state, new, f"melee declared in {position} with {plural(len(chosen), 'unit')}",
                ("DX-13.1",))


def ready_melees(state: GameState) -> list[str]:
    """DX-13.1 / DX-7.0: the positions whose melee may roll its next round now: the melee under way, else any
    declared one whose position is not finished."""
    return [m.position for m in state.melees if m.stage == "roll" and fault(check_order, state, m.position) is None]


def _round_open(state: GameState) -> None:
    in_step(COMBAT, rule="DX-13.1", action="melee_round")(state)
    rolling = [m.position for m in state.melees if m.stage == "roll"]
    if not rolling:
        raise RuleError("DX-13.1", "No melee is ready for its next round")
    if not ready_melees(state):
        check_order(state, rolling[0])


@actions("Melee round", "DX-13.1",
         one_of("position", "Melee in", "DX-13.1", lambda s, c: ready_melees(s), default=None),
         when=_round_open)
def melee_round(state: GameState, dice: Dice, position: str | None) -> Step:
    """DX-13.1: both sides' units in the position roll at once, INF/CAV F3, ART F1 (A6: printed values)."""
    m = _melee(state, position or ready_melees(state)[0])
    pos = m.position
    new = state if state.combat_at[-1:] == (pos,) else replace(state, combat_at=state.combat_at + (pos,))
    mine, theirs = fighting(new, m)
    results, volleys = [], []
    for side, group in ((m.initiator, cards_of(new, mine)), (other(m.initiator), theirs)):
        parts = [fire_terms(state, c, MELEE, pos, other(side)) for c in group]
        groups = tuple((dice_from(t), firepower(state, c, MELEE)) for c, t in zip(group, parts))
        result = resolve_fire(FireInput(groups, tuple(told(c, t) for c, t in zip(group, parts))), dice,
                              f"{side} melee in {pos}", "DX-13.1", tuple(public(c) for c in group))
        results.append(result)
        volleys.append(result.outcome)
    new = _leader_hits(new, other(m.initiator), pos, volleys[0].sixes, melee=True)
    new = _leader_hits(new, m.initiator, pos, volleys[1].sixes, melee=True)
    tasks = _hits_on(new, other(m.initiator), pos, volleys[0].hits, MELEE, m.initiator)
    if volleys[1].hits:
        tasks.append(Task("allocate", m.initiator, pos, volleys[1].hits, False, tuple(mine), MELEE, other(m.initiator)))
    tasks.append(Task("checks", m.initiator, pos, source=MELEE))
    new = _set_melee(replace(new, tasks=new.tasks + tuple(tasks)), replace(m, stage="checks"))
    return done(state, new, f"melee round {m.rounds + 1} in {pos}: " + "; ".join(r.summary for r in results),
                ("DX-13.1",), results)


def waiting_melee(state: GameState) -> Melee | None:
    """DX-13.1: the melee whose initiator (then opponent) chooses after round 1."""
    return next((m for m in state.melees if m.stage in ("choice", "reply")), None)


def _choice_open(state: GameState) -> None:
    in_step(COMBAT, rule="DX-13.1", action="melee_choice")(state)
    if waiting_melee(state) is None:
        raise RuleError("DX-13.1", "No melee waits for a choice")


@actions("Fight on or disengage", "DX-13.1", yes_no("fight", "Fight on (else disengage)", "DX-13.1"),
         when=_choice_open)
def melee_choice(state: GameState, dice: Dice, fight: bool) -> Step:
    """DX-13.1: after round 1 the initiator fights round 2 or disengages; then the opponent continues or
    disengages (A8: the melee then ends)."""
    m = waiting_melee(state)
    chooser = m.initiator if m.stage == "choice" else other(m.initiator)
    if fight:
        stage = "reply" if m.stage == "choice" else "roll"
        text = f"{chooser} fights on in {m.position}"
        return done(state, _set_melee(state, replace(m, stage=stage)), text, ("DX-13.1",))
    ids = m.units if chooser == m.initiator else tuple(c.id for c in state.units(m.position, chooser))
    new = _set_melee(state, replace(m, stage="done"))
    new = replace(new, tasks=new.tasks + tuple(_withdraw_task(new, chooser, m.position, ids)))
    return done(state, new, f"{chooser} disengages from the melee in {m.position}", ("DX-13.1", "DX-8.2"))


# --- DX-8.2 forced disengagement --------------------------------------------------------------------------------

@per_state
def _leaving(state: GameState, chosen) -> list:
    task = _task(state, "withdraw")
    return card_choices(state, task.cards) if task else []


def _way_out(state: GameState, chosen):
    """DX-8.2: only an unengaged friendly position; with none, the unit stays or is eliminated (A23)."""
    task = _task(state, "withdraw")
    if task is None:
        return []
    places = disengagements(state, state.card(chosen["card"] or task.cards[0]))
    return list(places) if places else NOT_ASKED


@actions("Disengage", "DX-8.2",
         one_of("card", "Unit", "DX-8.2", _leaving, default=None),
         one_of("to", "Disengages to", "DX-8.2", _way_out, default=None),
         when=when_due("withdraw"), retired={"to": None})
def withdraw(state: GameState, dice: Dice, card: str | None, to: str | None) -> Step:
    """DX-8.2: a unit that must disengage (after a melee, DX-13.1; at the end of a day, DX-14.0) moves to an
    unengaged friendly position: from its own line its reserve, from the enemy line the own-line position across
    if that holds no enemy card (`disengagements`); with neither, A23. Its leader does not follow (DX-11.3)."""
    task = state.tasks[0]
    c = state.card(card or task.cards[0])
    new, text = disengage(state, c, to)
    rest = tuple(i for i in task.cards if i != c.id)
    tasks = ((replace(task, cards=rest),) if rest else ()) + state.tasks[1:]
    return done(state, replace(new, tasks=tasks), text, ("DX-8.2",))


def _combat_ends(state: GameState) -> None:
    in_step(COMBAT, rule="DX-5.0", action="end_combat")(state)
    if any(m.stage != "done" for m in state.melees):
        raise RuleError("DX-13.1", "A declared melee must be fought out first")


@actions("End the combat step", "DX-5.0", when=_combat_ends)
def end_combat(state: GameState, dice: Dice) -> Step:
    """DX-5.0: the combat step ends once every declared melee is fought; then movement."""
    return done(state, replace(state, step=MOVEMENT), "combat step done; movement step", ("DX-5.0",))

