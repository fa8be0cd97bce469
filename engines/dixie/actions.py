"""Dixie: Gettysburg: every action of the game, in the order of play (DX-3.2 deployment, DX-5.0 the turn).

Each action validates first and raises RuleError (naming the rule) without changing anything; otherwise it
returns a Step with the new state, a one-line summary and the rules it applied. Summaries are public: a
face-down card is never named in them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.dice import Dice
from companion.engine import Actions, Result, RuleError, Step

from .board import DECK, REINFORCEMENTS, RESERVE, across, is_flank, line_of, other
from .cards import mode as deck_mode
from .command import check_designation, commands
from .counter_battery import CounterBatteryInput, on_target, resolve_counter_battery
from .disorder import DisorderInput, resolve_disorder
from .fire import FireInput, Volley, resolve_fire
from .fire_effect import FireEffectInput, TargetCard, allocation
from .firepower import (
    check_counter_battery,
    check_firer,
    check_order,
    fire_mode,
    firepower,
    order_key,
)
from .flank import FlankInput, flank_morale, resolve_flank
from .flow import duty, eliminate, fighting, morale_due, next_turn, settle, settle_notes
from .hits import place, taken
from .leaders import KILLED, LeaderCheckInput, resolve_leader_check
from .modifiers import ENFILADE, LONG, MELEE, SHORT, SUPPORT, checks, fire_dice, melee_share, morale
from .morale import ROUTS, MoraleInput, resolve_morale
from .movement import (
    ADVANCE,
    DISENGAGE,
    check_move,
    disengagements,
    flank_ready,
    flank_targets,
)
from .rules import (
    CSA,
    DAY_FLOW,
    DAYS,
    DECOY_TYPES,
    DRAWS,
    FIRST_SIDE,
    LDR,
    MAX_LEADERS,
    MAX_SPECIALS,
    SPC,
    TER,
    USA,
)
from .stacking import over_limit, room
from .state import (
    ATTACKING,
    COMBAT,
    DEPLOY,
    DUSK,
    MORALE,
    MOVEMENT,
    NIGHT,
    OVER,
    REINFORCEMENT,
    STEP_NAMES,
    Card,
    GameState,
    Melee,
    Task,
    Victory,
)
from .support import SupportInput, resolve_support
from .terrain import check_terrain

actions = Actions("DX-5.0")


# --- shared checks and helpers ------------------------------------------------------------------------

def _open(state: GameState, steps: tuple[str, ...], rule: str = "DX-5.0") -> None:
    if state.step == OVER:
        raise RuleError("DX-4.0", f"The game is over: {state.victory.reason}")
    if state.step not in steps:
        wanted = " or ".join(STEP_NAMES[s] for s in steps)
        raise RuleError(rule, f"This belongs to the {wanted}; it is the {STEP_NAMES[state.step]}")


def _free(state: GameState, action: str) -> None:
    """Refuse anything but the duty in hand (DX-7.3, DX-8.3a ...)."""
    due = duty(state)
    if due and due.action != action:
        raise RuleError(due.rule, f"First: {due.text}")
    if not due and action in ("allocate_hits", "check_hits", "flank_fire", "withdraw", "disorder"):
        raise RuleError("DX-5.0", "Nothing of that kind is due now")


def _card(state: GameState, card_id: Any, side: str | None = None, rule: str = "DX-1.0") -> Card:
    card = state.card(card_id)
    if side and card.side != side:
        raise RuleError(rule, f"{card.spec.label} is a {card.side} card; this is for {side}")
    return card


def _cards(state: GameState, ids: Any, rule: str) -> list[Card]:
    if not isinstance(ids, (list, tuple)) or not ids:
        raise RuleError(rule, "Name the cards (a list of card ids)")
    if len(set(map(str, ids))) != len(ids):
        raise RuleError(rule, "A card is named twice")
    return [state.card(i) for i in ids]


def _position(state: GameState, pos: Any, rule: str = "DX-8.0") -> str:
    if pos not in state.positions:
        raise RuleError(rule, f"'{pos}' is not a position; positions are {', '.join(state.positions)}")
    return pos


def _flag(value: Any, name: str, rule: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(rule, f"'{name}' is yes or no")
    return value


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def public(card: Card) -> str:
    """How the log names a card: by name when face-up, else only as a face-down card."""
    return card.spec.label if card.face_up and not card.decoy else f"a face-down {card.side} card"


def _when(state: GameState) -> str:
    if state.step == DEPLOY:
        return "Deployment"
    if state.step in (DUSK, NIGHT):
        return f"Night after day {state.day}"
    day = f"day {state.day}, " if state.options["historical"] else ""
    return f"Turn {state.turn} ({day}{state.active})"


def _done(state: GameState, new: GameState, summary: str, rules, results=()) -> Step:
    settled = settle(new)
    notes, more = settle_notes(new, settled)
    rules = tuple(dict.fromkeys([*rules, *(r for res in results for r in res.rules), *more]))
    return Step(settled, f"{_when(state)}: {'; '.join([summary, *notes])}", rules, tuple(results))


def _moved_to(card: Card, to: str, **changes) -> Card:
    """A card entering the reserve is turned face-down (DX-8.1); a leader is face-up on the field (DX-11.0b)."""
    face_up = to != RESERVE and (card.face_up or card.spec.type == LDR)
    return replace(card, loc=to, face_up=face_up, **changes)


def _check_special_limit(state: GameState, card: Card, pos: str) -> None:
    """DX-12.0: at most 2 specials in a position per phase, and different cards."""
    here = [p.split(" ")[1] for p in state.specials_played if p.split(" ")[0] == pos]
    if len(here) >= MAX_SPECIALS:
        raise RuleError("DX-12.0", f"{MAX_SPECIALS} specials have been played in {pos} this phase")
    if str(card.spec.number) in here:
        raise RuleError("DX-12.0", f"The same special cannot be played twice in {pos} in one phase")


def _expiry(state: GameState, side: str) -> int:
    """The turn at whose end a special played now is discarded: this turn, or before the battle (or at night)
    the side's next turn (DX-12.0)."""
    if state.step in (DEPLOY, DUSK, NIGHT):
        return state.turn + (1 if side == CSA else 2)
    return state.turn


def _check_decoy(state: GameState, card: Card, pos: str) -> None:
    """DX-13.6: leaders, specials and terrain may go face-down as decoys where there are no enemy units."""
    if not state.options["decoys"]:
        raise RuleError("DX-13.6", "Decoys (13.6) are off")
    if card.spec.type not in DECOY_TYPES:
        raise RuleError("DX-13.6", "Only leaders, specials and terrain may be decoys")
    if state.units(pos, other(card.side)):
        raise RuleError("DX-13.6", f"A decoy goes only where there are no enemy units, not {pos}")


def _place(state: GameState, card: Card, pos: str, decoy: bool) -> Card:
    """A card from the reserve into a position at deployment (DX-3.2, DX-3.3, DX-11.0b, DX-12.0, DX-13.6)."""
    if decoy:
        _check_decoy(state, card, pos)
    if card.spec.type == TER:
        check_terrain(state, card, pos)
    if card.spec.type == LDR and sum(1 for c in state.at(pos, card.side) if c.spec.type == LDR) >= MAX_LEADERS:
        raise RuleError("DX-11.0b", f"{pos} already has a {card.side} leader")
    if card.spec.type == SPC and not decoy:
        _check_special_limit(state, card, pos)
        return replace(card, loc=pos, face_up=True, expires=_expiry(state, card.side))
    return replace(card, loc=pos, face_up=not decoy and not card.is_unit, decoy=decoy)


def _check_stacking(state: GameState, side: str | None, rule: str = "DX-3.1") -> None:
    over = over_limit(state, side)
    if over:
        s, pos = over[0]
        raise RuleError(rule, f"{s} has more units in {pos} than its stacking limit allows: "
                              f"{room(state, s, pos) * -1} too many")


def _draw(state: GameState, side: str, pile: str, count: int, chosen: Any, dice: Dice, rule: str,
          label: str) -> list[Card]:
    """Cards drawn from a hidden pile: the ones the player names, or (none named) random ones by dice."""
    deck = [c for c in state.cards if c.side == side and c.loc == pile]
    count = min(count, len(deck))
    if chosen is not None:
        picked = _cards(state, chosen, rule) if chosen else []
        if len(picked) != count or any(c not in deck for c in picked):
            raise RuleError(rule, f"Name {count} card(s) of the {side} {label}")
        return picked
    picked = []
    for _ in range(count):
        face = dice.d(len(deck), f"{side} draws from the {label} ({rule})")
        picked.append(deck.pop(face - 1))
    return picked


# --- DX-3.2 deployment ----------------------------------------------------------------------------------

@actions
def deploy(state: GameState, dice: Dice, card: str, position: str, decoy: bool = False) -> Step:
    """DX-3.2 / DX-3.3: a muster card into one of its side's positions: units face-down, terrain, leaders and
    specials face-up (decoys face-down, DX-13.6). At night (DX-14.0) reserve cards go into own positions
    without enemy units. Stacking is checked when the battle (or the day) starts."""
    _open(state, (DEPLOY, NIGHT), "DX-3.2")
    c = _card(state, card)
    pos = _position(state, position, "DX-3.2")
    decoy = _flag(decoy, "decoy", "DX-13.6")
    if c.loc != RESERVE:
        raise RuleError("DX-3.2", f"{c.spec.label} is not in the {c.side} reserve")
    if line_of(pos) != c.side:
        raise RuleError("DX-3.2", f"{c.side} deploys only into its own positions, not {pos}")
    if state.step == NIGHT and state.units(pos, other(c.side)):
        raise RuleError("DX-14.0", f"At night cards deploy only where there are no enemy units, not {pos}")
    placed = _place(state, c, pos, decoy)
    new = state.with_cards(placed)
    if c.spec.type == SPC and not decoy:
        new = replace(new, specials_played=state.specials_played + (f"{pos} {c.spec.number}",))
    return _done(state, new, f"{public(placed)} to {pos}", ("DX-3.2",) + (("DX-13.6",) if decoy else ()))


@actions
def start_battle(state: GameState, dice: Dice) -> Step:
    """DX-3.2 / DX-3.1: the deployment is done within the stacking limits; the CSA takes turn 1 (DX-5.0)."""
    _open(state, (DEPLOY,), "DX-3.2")
    _check_stacking(state, None)
    counts = ", ".join(f"{s} {sum(1 for c in state.cards if c.side == s and c.loc in state.holder)}"
                       for s in (CSA, USA))
    new = next_turn(state, FIRST_SIDE)
    return _done(state, new, f"deployment done ({counts} cards on the field); the CSA begins", ("DX-3.2", "DX-5.0"))


# --- DX-6.0 the morale step --------------------------------------------------------------------------------

def _check_leader(state: GameState, leader: Card, dice: Dice, melee: bool = False) -> tuple[GameState, Result]:
    """DX-11.3: one die per hit, a 6 kills; in a melee's checks at once the hits A21 says (`melee_share`)."""
    hits = sum(melee_share(state, leader)) if melee else leader.hits
    result = resolve_leader_check(LeaderCheckInput(hits), dice, leader.spec.label)
    after = eliminate(leader) if result.outcome == KILLED else replace(leader, hits=leader.hits - hits, melee_hits=0)
    return state.with_cards(after), result


def _check_unit(state: GameState, unit: Card, dice: Dice, melee: bool = False) -> tuple[GameState, list[Result]]:
    """DX-6.0: one die per hit against the unit's morale; a failure routs it. In a melee's checks at once the
    hits A21 says, terrain ignored for melee hits (`checks`); hits left unchecked wait for the morale step."""
    throws = [(m, h) for m, h in checks(state, unit, melee) if h]
    results = [resolve_morale(MoraleInput(m, h), dice, unit.spec.label) for m, h in throws]
    left = unit.hits - sum(h for _, h in throws)
    routs = any(r.outcome == ROUTS for r in results)
    after = eliminate(unit) if routs else replace(unit, hits=left, melee_hits=0)
    return state.with_cards(after), results


def _morale_card(state: GameState, card: Any, leader: bool) -> Card:
    _open(state, (MORALE,), "DX-6.0")
    c = _card(state, card, state.active, "DX-6.0")
    leaders, units = morale_due(state, state.active)
    if c not in (leaders if leader else units):
        raise RuleError("DX-11.3" if leader else "DX-6.0", f"{c.spec.label} has no hits to check")
    if not leader and leaders:
        raise RuleError("DX-11.3", "Leader checks come before any other check")
    return c


@actions
def check_leader(state: GameState, dice: Dice, card: str) -> Step:
    """DX-11.3: in the morale step, before any other check, a leader rolls one die per hit: any 6 kills it."""
    c = _morale_card(state, card, leader=True)
    new, result = _check_leader(state, c, dice)
    return _done(state, new, result.summary, ("DX-11.3",), (result,))


@actions
def check_morale(state: GameState, dice: Dice, card: str) -> Step:
    """DX-6.0: one die per hit against the card's modified morale; a failure routs it."""
    c = _morale_card(state, card, leader=False)
    new, results = _check_unit(state, c, dice)
    return _done(state, new, "; ".join(r.summary for r in results), ("DX-6.0",), results)


@actions
def morale_step(state: GameState, dice: Dice) -> Step:
    """DX-5.0 step 1: every check still due, leaders first (DX-11.3), then units (DX-6.0)."""
    _open(state, (MORALE,), "DX-6.0")
    leaders, units = morale_due(state, state.active)
    if not leaders and not units:
        raise RuleError("DX-6.0", "No card of the side holds hits")
    new, results = state, []
    for leader in leaders:
        new, result = _check_leader(new, leader, dice)
        results.append(result)
    for unit in units:
        new, checked = _check_unit(new, new.card(unit.id), dice)
        results += checked
    return _done(state, new, "; ".join(r.summary for r in results), ("DX-6.0",), results)


@actions
def end_morale(state: GameState, dice: Dice) -> Step:
    """DX-5.0: the morale step ends when every hit is checked and no position is in disorder."""
    _open(state, (MORALE,), "DX-5.0")
    if any(morale_due(state, state.active)):
        raise RuleError("DX-6.0", "Check every hit first")
    _free(state, "end_morale")
    if state.day_ending:
        raise RuleError("DX-14.0", "The day ends now: end the day")
    return _done(state, replace(state, step=COMBAT), "morale step done; combat step", ("DX-5.0",))


# --- DX-8.3a disorder ------------------------------------------------------------------------------------------

@actions
def disorder(state: GameState, dice: Dice, card: str | None = None) -> Step:
    """DX-8.3a: every unit of the side over its limit checks morale; failures go to the reserve (A13 option:
    one card at a time, the owner choosing which)."""
    _free(state, "disorder")
    side, pos = over_limit(state)[0]
    units = state.units(pos, side)
    if state.options["disorder_one_at_a_time"]:
        chosen = units[0] if card is None else _card(state, card, side, "DX-8.3a")
        if chosen not in units:
            raise RuleError("DX-8.3a", f"{chosen.spec.label} is not a {side} unit in {pos}")
        units = [chosen]
    elif card is not None:
        raise RuleError("DX-8.3a", "Every unit in the position checks at once (option A13 is off)")
    result = resolve_disorder(DisorderInput(tuple(morale(state, u) for u in units)), dice,
                              tuple(u.spec.label for u in units))
    sent = [_moved_to(u, RESERVE) for u, failed in zip(units, result.details["failed"]) if failed]
    new = state.with_cards(*sent)
    still = ", still over the limit" if (side, pos) in over_limit(new, side) else ""
    tail = f"; {len(sent)} to the reserve{still}"
    return _done(state, new, f"{side} in {pos}: {result.summary}{tail}", ("DX-8.3a",), (result,))


# --- DX-7.0 combat ------------------------------------------------------------------------------------------------

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


def _fire(state: GameState, firers: list[Card], target: str, mode: str, named: dict[str, Card],
          dice: Dice) -> tuple[GameState, list[Result], str]:
    """Each firing card rolls (DX-7.1); hits go to the target's owner to place (DX-7.3) or on a named artillery
    card (DX-13.4); natural 6s hit the enemy leader there (DX-11.3); artillery support's 5s hit friends
    (DX-13.5). Firers and the cards they fire at are turned face-up."""
    side, enemy = firers[0].side, other(firers[0].side)
    results, pooled, friendly, sixes = [], 0, 0, 0
    new = state.with_cards(*(replace(c, fired=True, face_up=True) for c in firers))
    for c in firers:
        n, f = fire_dice(state, c, mode, target, enemy), firepower(state, c, mode)
        label = f"{c.spec.label} fires at {target}"
        art = new.card(named[c.id].id) if c.id in named else None
        battery = art and CounterBatteryInput(n, f, art.spec.cv, art.hits if art.loc == target else art.spec.cv + 1)
        struck = None
        if mode == SUPPORT:
            result = resolve_support(SupportInput(((n, f),)), dice, label)
            hits, six = result.outcome.enemy, result.outcome.leader
            friendly += result.outcome.friendly
            struck = battery and on_target(battery, hits, six)
        elif battery:
            result = resolve_counter_battery(battery, dice)
            hits, six, struck = 0, result.outcome.sixes, result.outcome
        else:
            result = resolve_fire(FireInput(((n, f),)), dice, label, FIRE_RULE[mode])
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


FIRE_RULE = {SHORT: "DX-7.2", LONG: "DX-7.2", SUPPORT: "DX-13.5", ENFILADE: "DX-13.2"}   # by kind of fire


def _named(state: GameState, firers: list[Card], counter_battery: Any, mode: str, target: str) -> dict[str, Card]:
    if counter_battery in (None, {}):
        return {}
    if not isinstance(counter_battery, dict):
        raise RuleError("DX-13.4", "Counter-battery names, for a firing card, the enemy artillery card it fires at")
    ids = {c.id for c in firers}
    named = {}
    for firer_id, art_id in counter_battery.items():
        if firer_id not in ids:
            raise RuleError("DX-13.4", f"'{firer_id}' is not one of the firing cards")
        firer = state.card(firer_id)
        art = state.card(art_id)
        check_counter_battery(state, firer, art, mode, target)
        named[firer_id] = art
    return named


@actions
def fire(state: GameState, dice: Dice, firers: list, target: str, counter_battery: dict | None = None) -> Step:
    """DX-7.0-7.3: cards of one position fire at one target position. In the Movement step only horse
    artillery that has moved may fire (DX-7.2)."""
    _open(state, (COMBAT, MOVEMENT), "DX-7.0")
    _free(state, "fire")
    cards = _cards(state, firers, "DX-7.0")
    pos = _position(state, target, "DX-7.2")
    side = state.active
    origin = cards[0].loc
    for c in cards:
        if c.side != side:
            raise RuleError("DX-7.0", f"{c.spec.label} is not a {side} card")
        if c.loc != origin:
            raise RuleError("DX-7.0", "The firing cards of one fire stand in one position")
    if origin not in state.holder:
        raise RuleError("DX-7.0", "Only cards on the battlefield fire")
    mode = fire_mode(state, side, origin, pos)
    for c in cards:
        check_firer(state, c, mode)
    named = _named(state, cards, counter_battery, mode, pos)
    new = state
    if state.step == COMBAT:
        key = order_key(state, origin, pos)
        check_order(state, key)
        if not state.combat_at or state.combat_at[-1] != key:
            new = replace(new, combat_at=state.combat_at + (key,))
    new, results, text = _fire(new, cards, pos, mode, named, dice)
    return _done(state, new, text, ("DX-7.0", FIRE_RULE[mode], *(("DX-13.4",) if named else ())), results)


def _owner_choice(state: GameState, task: Task, pool: list[Card]) -> tuple[int, ...]:
    """The owner's default placing (DX-7.3), as the advice assumes: first the smallest chance of losing any card,
    then the fewest cards lost on average (`fire_effect.allocation`)."""
    melee = task.source == MELEE
    targets = tuple(TargetCard(0) if c.decoy else TargetCard(c.spec.cv, morale(state, c, melee),
                                                             morale(state, c, melee, led=False), c.hits) for c in pool)
    leader = state.leader(task.position, task.side)
    inputs = FireEffectInput(FireInput(()), targets, leader is not None, leader.hits if leader else 0)
    return allocation(inputs, Volley(task.hits, 0))


@actions
def allocate_hits(state: GameState, dice: Dice, cards: list | None = None) -> Step:
    """DX-7.3: the owner places the hits, one card id per hit, levelled: no card takes its k-th hit before every
    eligible card holds k-1; a card holding more hits than its CV is destroyed at once; hits nobody can take
    are lost. Decoys under long-range fire take one and are eliminated (DX-13.6). Left out, the companion
    places them for the smallest chance of losing any card, then the fewest cards lost on average. Melee hits
    are also counted as such, for the checks at once (DX-13.1, A21)."""
    _free(state, "allocate_hits")
    task = state.tasks[0]
    pool = [state.card(i) for i in task.cards if state.card(i).loc == task.position]
    spots = tuple((0 if c.decoy else c.spec.cv, c.hits) for c in pool)
    if cards is None:
        final = _owner_choice(state, task, pool)
    else:
        ids = [c.id for c in pool]
        if not isinstance(cards, (list, tuple)) or len(cards) != taken(spots, task.hits) \
                or any(i not in ids for i in cards):
            raise RuleError("DX-7.3", f"Place {taken(spots, task.hits)} hit(s) on {task.side} cards in "
                                      f"{task.position}: {', '.join(ids)}")
        final = place(spots, [ids.index(i) for i in cards])
        if final is None:
            raise RuleError("DX-7.3", "Hits are levelled: every card takes a hit before any takes a second")
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
    return _done(state, new, f"{task.side} hits in {task.position}: {'; '.join(lines) or 'none'}{tail}", rules)


@actions
def check_hits(state: GameState, dice: Dice) -> Step:
    """Hits checked at once: after a melee round both sides' (DX-13.1), after artillery support the firer's own
    (DX-13.5); leaders first (DX-11.3), then units (DX-6.0). Terrain is ignored in melee."""
    _free(state, "check_hits")
    task = state.tasks[0]
    melee = task.source == MELEE
    sides = (task.side, other(task.side)) if melee else (task.side,)
    new, results = replace(state, tasks=state.tasks[1:]), []
    for side in sides:
        leader = new.leader(task.position, side)
        if leader and (sum(melee_share(new, leader)) if melee else leader.hits):
            new, result = _check_leader(new, leader, dice, melee)
            results.append(result)
    for side in sides:
        for unit in new.units(task.position, side):
            if unit.hits:
                new, checked = _check_unit(new, unit, dice, melee)
                results += checked
    if melee:
        new = _after_round(new, task.position)
    text = "; ".join(r.summary for r in results) or "no hits to check"
    return _done(state, new, f"hits in {task.position} checked: {text}",
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


@actions
def declare_melee(state: GameState, dice: Dice, position: str, units: list | None = None) -> Step:
    """DX-13.1: before any fire, the active player declares a melee in an engaged position, giving up the fire
    of its units there (A8: melee counts as having fired)."""
    _open(state, (COMBAT,), "DX-13.1")
    _free(state, "declare_melee")
    if not state.options["melee"]:
        raise RuleError("DX-13.1", "Melee (13.1) is off")
    pos = _position(state, position, "DX-13.1")
    if state.combat_at:
        raise RuleError("DX-13.1", "Melees are declared before any fire or melee is fought")
    if not state.engaged(pos):
        raise RuleError("DX-13.1", f"{pos} is not engaged")
    if any(m.position == pos for m in state.melees):
        raise RuleError("DX-13.1", f"A melee is already declared in {pos}")
    mine = [c for c in state.units(pos, state.active) if not c.fired]
    if units is None:
        chosen = mine
    elif state.options["melee_all_units"]:
        raise RuleError("DX-13.1", "All units in the position take part (A8); the option to name them is off")
    else:
        chosen = _cards(state, units, "DX-13.1")
        if any(c not in mine for c in chosen):
            raise RuleError("DX-13.1", f"Melee units are {state.active} units in {pos} that have not fired")
    if not chosen:
        raise RuleError("DX-13.1", f"No {state.active} unit in {pos} can melee")
    new = state.with_cards(*(replace(c, fired=True) for c in chosen))
    new = replace(new, melees=state.melees + (Melee(pos, state.active, tuple(c.id for c in chosen)),))
    return _done(state, new, f"melee declared in {pos} with {_n(len(chosen), 'unit')}", ("DX-13.1",))


@actions
def melee_round(state: GameState, dice: Dice, position: str | None = None) -> Step:
    """DX-13.1: both sides' units in the position roll at once, INF/CAV F3, ART F1 (A6: printed values)."""
    _open(state, (COMBAT,), "DX-13.1")
    _free(state, "melee_round")
    ready = [m for m in state.melees if m.stage == "roll" and (position is None or m.position == position)]
    if not ready:
        raise RuleError("DX-13.1", "No melee is ready for its next round")
    m = ready[0]
    pos = m.position
    check_order(state, pos)
    new = state if state.combat_at[-1:] == (pos,) else replace(state, combat_at=state.combat_at + (pos,))
    mine, theirs = fighting(new, m)
    results, volleys = [], []
    for side, group in ((m.initiator, [new.card(i) for i in mine]), (other(m.initiator), theirs)):
        groups = tuple((fire_dice(state, c, MELEE, pos, other(side)), firepower(state, c, MELEE)) for c in group)
        result = resolve_fire(FireInput(groups), dice, f"{side} melee in {pos}", "DX-13.1")
        results.append(result)
        volleys.append(result.outcome)
    new = _leader_hits(new, other(m.initiator), pos, volleys[0].sixes, melee=True)
    new = _leader_hits(new, m.initiator, pos, volleys[1].sixes, melee=True)
    tasks = _hits_on(new, other(m.initiator), pos, volleys[0].hits, MELEE, m.initiator)
    if volleys[1].hits:
        tasks.append(Task("allocate", m.initiator, pos, volleys[1].hits, False, tuple(mine), MELEE, other(m.initiator)))
    tasks.append(Task("checks", m.initiator, pos, source=MELEE))
    new = _set_melee(replace(new, tasks=new.tasks + tuple(tasks)), replace(m, stage="checks"))
    return _done(state, new, f"melee round {m.rounds + 1} in {pos}: " + "; ".join(r.summary for r in results),
                 ("DX-13.1",), results)


@actions
def melee_choice(state: GameState, dice: Dice, fight: bool) -> Step:
    """DX-13.1: after round 1 the initiator fights round 2 or disengages; then the opponent continues or
    disengages (A8: the melee then ends)."""
    _open(state, (COMBAT,), "DX-13.1")
    _free(state, "melee_choice")
    fight = _flag(fight, "fight", "DX-13.1")
    waiting = [m for m in state.melees if m.stage in ("choice", "reply")]
    if not waiting:
        raise RuleError("DX-13.1", "No melee waits for a choice")
    m = waiting[0]
    chooser = m.initiator if m.stage == "choice" else other(m.initiator)
    if fight:
        stage = "reply" if m.stage == "choice" else "roll"
        text = f"{chooser} fights on in {m.position}"
        return _done(state, _set_melee(state, replace(m, stage=stage)), text, ("DX-13.1",))
    ids = m.units if chooser == m.initiator else tuple(c.id for c in state.units(m.position, chooser))
    new = _set_melee(state, replace(m, stage="done"))
    new = replace(new, tasks=new.tasks + tuple(_withdraw_task(new, chooser, m.position, ids)))
    return _done(state, new, f"{chooser} disengages from the melee in {m.position}", ("DX-13.1", "DX-8.2"))


def _disengage(state: GameState, card: Card, to: Any = None) -> tuple[GameState, str]:
    """DX-8.2: the unit disengages to `to`, one of `disengagements` (the first if none is named). With nowhere
    to go, A23: it stays, or by option it is eliminated. Only the unit moves: its leader stays, and dies at once
    if left alone with enemy units (DX-11.3, when the event settles)."""
    places = disengagements(state, card)
    if not places:
        if to is not None:
            raise RuleError("DX-8.2", f"{card.spec.label} has nowhere to disengage to: {across(card.loc)} holds enemy "
                                      "cards (A23)")
        if state.options["no_disengage_destination"] == "eliminate":
            return state.with_cards(eliminate(card)), f"{public(card)} cannot disengage from {card.loc} and is " \
                                                      "eliminated"
        return state, f"{public(card)} cannot disengage from {card.loc} and stays there"
    dest = places[0] if to is None else to
    if dest not in places:
        raise RuleError("DX-8.2", f"{card.spec.label} disengages only to {' or '.join(places)}: an unengaged friendly "
                                  "position, never one holding enemy cards")
    return state.with_cards(_moved_to(card, dest, disengaged=True)), \
        f"{public(card)} disengages from {card.loc} to {dest}"


@actions
def withdraw(state: GameState, dice: Dice, card: str | None = None, to: str | None = None) -> Step:
    """DX-8.2: a unit that must disengage (after a melee, DX-13.1; at the end of a day, DX-14.0) moves to an
    unengaged friendly position: from its own line its reserve, from the enemy line the own-line position across
    if that holds no enemy card (`disengagements`); with neither, A23. Its leader does not follow (DX-11.3)."""
    _free(state, "withdraw")
    task = state.tasks[0]
    c = state.card(task.cards[0]) if card is None else _card(state, card, task.side, "DX-8.2")
    if c.id not in task.cards:
        raise RuleError("DX-8.2", f"{c.spec.label} is not one of the units that must disengage")
    new, text = _disengage(state, c, to)
    rest = tuple(i for i in task.cards if i != c.id)
    tasks = ((replace(task, cards=rest),) if rest else ()) + state.tasks[1:]
    return _done(state, replace(new, tasks=tasks), text, ("DX-8.2",))


@actions
def end_combat(state: GameState, dice: Dice) -> Step:
    """DX-5.0: the combat step ends once every declared melee is fought; then movement."""
    _open(state, (COMBAT,), "DX-5.0")
    _free(state, "end_combat")
    if any(m.stage != "done" for m in state.melees):
        raise RuleError("DX-13.1", "A declared melee must be fought out first")
    return _done(state, replace(state, step=MOVEMENT), "combat step done; movement step", ("DX-5.0",))


# --- DX-8.0 movement --------------------------------------------------------------------------------------------

@actions
def move(state: GameState, dice: Dice, card: str, to: str) -> Step:
    """DX-8.0-8.3b: one move of one card. An advance eliminates enemy decoys in the position (DX-13.6)."""
    _open(state, (MOVEMENT,), "DX-8.0")
    _free(state, "move")
    c = _card(state, card, state.active, "DX-8.0")
    if to != RESERVE:
        _position(state, to)
    kind = check_move(state, c, to)
    moved = _moved_to(c, to, moves=c.moves + 1, advanced=c.advanced or kind == ADVANCE,
                      disengaged=c.disengaged or kind == DISENGAGE)
    decoys = [eliminate(d) for d in state.at(to, other(c.side)) if d.decoy] if kind == ADVANCE else []
    new = state.with_cards(moved, *decoys)
    rules = {ADVANCE: ("DX-8.1",), DISENGAGE: ("DX-8.2",)}.get(kind, ()) + (("DX-8.3b",) if c.moves else ())
    tail = f"; {_n(len(decoys), 'decoy')} eliminated" if decoys else ""
    return _done(state, new, f"{public(moved)} {kind}s from {c.loc} to {to}{tail}",
                 ("DX-8.0", *rules, *(("DX-13.6",) if decoys else ())))


@actions
def play_terrain(state: GameState, dice: Dice, card: str, position: str) -> Step:
    """DX-10.2: terrain from the reserve in the Movement step, face-up, into an unengaged own-line position
    printed on it (DX-3.3) that holds no enemy units (A22: by option also one held by the enemy)."""
    _open(state, (MOVEMENT,), "DX-10.2")
    _free(state, "play_terrain")
    c = _card(state, card, state.active, "DX-10.2")
    pos = _position(state, position, "DX-10.2")
    if c.loc != RESERVE:
        raise RuleError("DX-10.2", f"{c.spec.label} is not in the reserve")
    if state.engaged(pos):
        raise RuleError("DX-10.2", f"Terrain is played only into an unengaged position, not {pos}")
    check_terrain(state, c, pos)
    if state.units(pos, other(c.side)) and not state.options["terrain_into_enemy_held"]:
        raise RuleError("DX-10.2", f"{pos} is held by enemy units: terrain is played only where there are none (A22)")
    new = state.with_cards(replace(c, loc=pos, face_up=True))
    return _done(state, new, f"{c.spec.label} played into {pos}", ("DX-10.2", "DX-3.3"))


@actions
def play_special(state: GameState, dice: Dice, card: str, position: str) -> Step:
    """DX-12.0: a special from the reserve onto any position (A7), in its owner's turn or, if so printed, the
    enemy's; at most 2 per position per phase and different cards. It lasts for the turn unless printed."""
    _open(state, (MORALE, COMBAT, MOVEMENT, REINFORCEMENT), "DX-12.0")
    c = _card(state, card)
    pos = _position(state, position, "DX-12.0")
    if c.spec.type != SPC or c.loc != RESERVE:
        raise RuleError("DX-12.0", f"{c.spec.label} is not a special card in the reserve")
    own_turn = c.side == state.active
    if own_turn != (c.spec.timing == "own"):
        raise RuleError("DX-12.0", f"{c.spec.label} is played in {'your own' if c.spec.timing == 'own' else 'the enemy'} "
                                   "turn")
    _check_special_limit(state, c, pos)
    new = state.with_cards(replace(c, loc=pos, face_up=True, expires=state.turn))
    new = replace(new, specials_played=state.specials_played + (f"{pos} {c.spec.number}",))
    return _done(state, new, f"{c.side} plays {c.spec.label} on {pos}", ("DX-12.0",))


@actions
def place_decoy(state: GameState, dice: Dice, card: str, position: str) -> Step:
    """DX-13.6: a leader, special or terrain goes face-down as a decoy into an own-line position without enemy
    units, at deployment or in the Movement step."""
    _open(state, (DEPLOY, MOVEMENT, NIGHT), "DX-13.6")
    _free(state, "place_decoy")
    c = _card(state, card)
    if state.step == MOVEMENT and c.side != state.active:
        raise RuleError("DX-13.6", f"It is the {state.active} Movement step")
    pos = _position(state, position, "DX-13.6")
    if c.loc != RESERVE or line_of(pos) != c.side:
        raise RuleError("DX-13.6", "A decoy goes from the reserve into a position of your own line")
    new = state.with_cards(_place(state, c, pos, True))
    return _done(state, new, f"{c.side} places a face-down card in {pos}", ("DX-13.6",))


@actions
def reveal_decoy(state: GameState, dice: Dice, card: str) -> Step:
    """DX-13.6: decoys may be revealed in the Movement step; a revealed special lasts for the turn."""
    _open(state, (MOVEMENT,), "DX-13.6")
    _free(state, "reveal_decoy")
    c = _card(state, card, state.active, "DX-13.6")
    if not c.decoy:
        raise RuleError("DX-13.6", f"{c.spec.label} is not a decoy")
    if c.spec.type == SPC:
        _check_special_limit(state, c, c.loc)
    revealed = replace(c, decoy=False, face_up=True, expires=state.turn if c.spec.type == SPC else 0)
    new = state.with_cards(revealed)
    if c.spec.type == SPC:
        new = replace(new, specials_played=state.specials_played + (f"{c.loc} {c.spec.number}",))
    return _done(state, new, f"{c.spec.label} revealed in {c.loc}", ("DX-13.6",))


@actions
def flank_attack(state: GameState, dice: Dice, cards: list, position: str, leader: str | None = None) -> Step:
    """DX-13.3: reserve cards try a flank attack on a flank position holding friendly and enemy units: each
    checks morale (CV + code, CAV +1, ART -1, + the attack rating of a leader going with them); those that
    pass move in, revealed, and fire at once; the rest stay in the reserve, done for the turn."""
    _open(state, (MOVEMENT,), "DX-13.3")
    _free(state, "flank_attack")
    if not state.options["flank_attack"]:
        raise RuleError("DX-13.3", "Flank attacks (13.3) are off")
    side = state.active
    group = _cards(state, cards, "DX-13.3")
    pos = _position(state, position, "DX-13.3")
    if pos not in flank_targets(state, side):
        if not is_flank(pos) and not state.options["flank_any_position"]:
            raise RuleError("DX-13.3", f"A flank attack goes into a flank position (L or R), not {pos} (A10)")
        raise RuleError("DX-13.3", f"{pos} must hold both friendly and enemy units")
    for c in group:
        if c.side != side or not flank_ready(c):
            raise RuleError("DX-13.3", f"{c.spec.label} is not a {side} unit in the reserve free to attack")
    if len(group) > room(state, side, pos):
        raise RuleError("DX-13.3", f"Only {max(0, room(state, side, pos))} more unit(s) fit in {pos}")
    chief = None
    if leader is not None:
        chief = _card(state, leader, side, "DX-13.3")
        if chief.spec.type != LDR or chief.loc != RESERVE or chief.decoy:
            raise RuleError("DX-13.3", f"{chief.spec.label} is not a leader in the reserve")
        if state.leader(pos, side):
            raise RuleError("DX-11.0b", f"{pos} already has a {side} leader")
    morales = [flank_morale(c.spec.cv, c.spec.morale_modifier, c.spec.type,
                            chief.spec.attack if chief and commands(state, chief, c) else 0) for c in group]
    checks_leader = chief is not None and state.options["flank_leader_check"]
    if checks_leader:
        morales.append(chief.spec.attack)
    result = resolve_flank(FlankInput(tuple(morales)), dice)
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
    return _done(state, new, text, ("DX-13.3",) + (("DX-13.6",) if decoys else ()), (result,))


@actions
def flank_fire(state: GameState, dice: Dice, counter_battery: dict | None = None) -> Step:
    """DX-13.3: the cards that came in by flank attack fire at once into the position."""
    _free(state, "flank_fire")
    task = state.tasks[0]
    cards = [state.card(i) for i in task.cards if state.card(i).loc == task.position]
    rest = replace(state, tasks=state.tasks[1:])
    if not cards or not rest.units(task.position, other(task.side)):
        return _done(state, rest, f"no flank fire into {task.position}", ("DX-13.3",))
    named = _named(rest, cards, counter_battery, SHORT, task.position)
    new, results, text = _fire(rest, cards, task.position, SHORT, named, dice)
    return _done(state, new, text, ("DX-13.3", "DX-7.2"), results)


@actions
def end_movement(state: GameState, dice: Dice) -> Step:
    """DX-8.0 / DX-3.1: when all moves are done the moving side must be within its stacking limits (DX-11.1a);
    every card in an engaged position is turned face-up (DX-8.1)."""
    _open(state, (MOVEMENT,), "DX-8.0")
    _free(state, "end_movement")
    _check_stacking(state, state.active)
    shown = [replace(c, face_up=True) for c in state.cards if c.loc in state.holder and state.engaged(c.loc)
             and not c.face_up and not c.decoy]
    new = replace(state.with_cards(*shown), step=REINFORCEMENT)
    tail = f"; {_n(len(shown), 'card')} revealed in engaged positions" if shown else ""
    return _done(state, new, f"movement done{tail}; reinforcement step", ("DX-8.0", "DX-3.1", "DX-8.1"))


# --- DX-9.0 reinforcement -----------------------------------------------------------------------------------

@actions
def reinforce(state: GameState, dice: Dice, cards: list | None = None) -> Step:
    """DX-9.0: draw 1 card (CSA) or 2 (USA) into the reserve (14.0: 1 each); then the turn passes. Name the
    cards drawn, or let the companion draw them at random."""
    _open(state, (REINFORCEMENT,), "DX-9.0")
    _free(state, "reinforce")
    side = state.active
    count = DRAWS[deck_mode(state.options)][side]
    drawn = _draw(state, side, REINFORCEMENTS, count, cards, dice, "DX-9.0", "reinforcement deck")
    new = state.with_cards(*(replace(c, loc=RESERVE, face_up=False) for c in drawn))
    ending = state.options["historical"] and side == USA and drawn and not new.at(REINFORCEMENTS, USA)
    new = replace(next_turn(new), day_ending=bool(ending))
    tail = "; the day ends after the CSA morale step" if ending else ""
    return _done(state, new, f"{side} draws {_n(len(drawn), 'card')}{tail}; turn {new.turn}, {new.active}",
                 ("DX-9.0", "DX-5.0", *(("DX-14.0",) if ending else ())))


@actions
def designate(state: GameState, dice: Dice, leader: str) -> Step:
    """DX-13.7: with no army commander in play, a 3-star corps commander (USA: a wing commander if one is
    present) becomes army commander, irrevocably (A16: a wing commander's claim may override)."""
    if state.step == OVER:
        raise RuleError("DX-4.0", "The game is over")
    c = _card(state, leader)
    check_designation(state, c)
    new = replace(state, army_commander={**state.army_commander, c.side: c.id})
    return _done(state, new, f"{c.spec.label} is designated {c.side} army commander", ("DX-13.7",))


# --- DX-14.0 the historical day flow ------------------------------------------------------------------------

def _attackers_out(state: GameState) -> tuple[GameState, list[str]]:
    """DX-14.0 / A17: every attacking unit sharing a position with enemy units disengages (DX-8.2): across the
    Middle Ground from the enemy line, to the reserve from its own line; with nowhere to go, A23. Unit cards
    only: a leader left alone with enemy units dies (DX-11.3)."""
    attackers = [c for pos in state.positions if state.engaged(pos) for side in (CSA, USA)
                 if state.stance(side, pos) == ATTACKING for c in state.units(pos, side)]
    texts = []
    for c in attackers:
        state, text = _disengage(state, c)
        texts.append(text)
    return state, texts


@actions
def end_day(state: GameState, dice: Dice) -> Step:
    """DX-14.0: after the USA draws its last reinforcement the CSA takes its morale step and the day ends;
    attacking units disengage (A17). After day 3 the USA wins if the CSA has not."""
    _open(state, (MORALE,), "DX-14.0")
    if not state.day_ending:
        raise RuleError("DX-14.0", "The day is not over: the USA has reinforcements left")
    if any(morale_due(state, state.active)):
        raise RuleError("DX-6.0", "Check every hit first")
    _free(state, "end_day")
    new, moves = _attackers_out(state)
    if state.day >= DAYS:
        new = replace(new, step=OVER, victory=Victory(USA, f"the CSA has not won by the end of day {DAYS}",
                                                      "DX-14.0"))
        return _done(state, new, f"day {state.day} ends: the USA wins", ("DX-14.0",))
    new = replace(new, step=DUSK, day_ending=False, night_done=())
    return _done(state, new, "; ".join([f"day {state.day} ends; attacking units disengage", *moves]),
                 ("DX-14.0", "DX-8.2"))


@actions
def night_draw(state: GameState, dice: Dice, cards: list | None = None, reinforcements: list | None = None) -> Step:
    """DX-14.0: at night each side draws its N cards into the reserve and sets aside the next R6 as the next
    day's reinforcement deck (CSA first). Name the cards, or let the companion draw them."""
    _open(state, (DUSK, NIGHT), "DX-14.0")
    _free(state, "night_draw")
    side = next((s for s in (CSA, USA) if s not in state.night_done), None)
    if side is None:
        raise RuleError("DX-14.0", "Both sides have drawn: deploy, then start the day")
    n, r = DAY_FLOW[state.day + 1][side]
    drawn = _draw(state, side, DECK, n, cards, dice, "DX-14.0", "battle deck")
    rest = state.with_cards(*(replace(c, loc=RESERVE) for c in drawn))
    aside = _draw(rest, side, DECK, r, reinforcements, dice, "DX-14.0", "battle deck")
    new = rest.with_cards(*(replace(c, loc=REINFORCEMENTS) for c in aside))
    new = replace(new, step=NIGHT, night_done=state.night_done + (side,))
    return _done(state, new, f"{side} draws {_n(len(drawn), 'card')} at night and sets {len(aside)} aside", ("DX-14.0",))


@actions
def start_day(state: GameState, dice: Dice) -> Step:
    """DX-14.0: when both sides have drawn and deployed within the stacking limits, the new day starts with a
    CSA turn."""
    _open(state, (NIGHT,), "DX-14.0")
    if len(state.night_done) < 2:
        raise RuleError("DX-14.0", "Both sides make their night draw first")
    _check_stacking(state, None)
    new = replace(next_turn(state, FIRST_SIDE), day=state.day + 1, night_done=())
    return _done(state, new, f"day {state.day + 1} begins", ("DX-14.0",))
