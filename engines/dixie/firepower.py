"""Who may fire at what, with which F (DX-7.0, DX-7.2, DX-13.1, DX-13.2, DX-13.4, DX-13.5).

- Short range: a card fires at enemy units in its own, engaged position: INF F2, CAV F1 attacking / F3
  defending, ART its printed short value.
- Long range (ART only, printed long value): from an unengaged own-line position (A5: or a held enemy-line
  one) at the position across the Middle Ground, which must be unengaged and hold enemy cards; into an
  engaged position only as artillery support (DX-13.5).
- Enfilade (DX-13.2): F1 from your own line, F2 from the enemy line, at a laterally adjacent position, from a
  position without enemy units (a captured enemy terrain card there does not stop it: vector 9).
- Melee (DX-13.1): INF/CAV F3, ART F1, or a printed melee value (A6).
"""
from __future__ import annotations

from companion.engine import RuleError

from .board import across, lateral, line_of, other
from .modifiers import ENFILADE, LONG, MELEE, SHORT, SUPPORT
from .rules import ART, CAV, CAV_F, ENFILADE_F, INF, INF_F, MELEE_F
from .state import COMBAT, MOVEMENT, Card, GameState, fault


def fire_mode(state: GameState, side: str, origin: str, target: str) -> str:
    """The kind of fire from `origin` at `target`, or the rule that forbids it."""
    enemy = other(side)
    if target == origin:
        if not state.units(target, enemy):
            raise RuleError("DX-7.2", f"No enemy units in {target}: cards fire there only when engaged")
        return SHORT
    if target == across(origin):
        if line_of(origin) != side and not state.options["long_range_from_enemy_line"]:
            raise RuleError("DX-7.2", "Long-range fire goes from your own line across the Middle Ground")
        if state.units(origin, enemy):
            raise RuleError("DX-7.2", f"{origin} is engaged: its artillery cannot fire at long range")
        if not state.at(target, enemy):
            raise RuleError("DX-7.2", f"{target} holds no enemy cards")
        if not state.engaged(target):
            return LONG
        if not state.options["artillery_support"]:
            raise RuleError("DX-7.2", f"{target} is engaged: long-range fire into it is barred (13.5 is off)")
        if line_of(target) == side:
            raise RuleError("DX-13.5", "Artillery support fires into an engaged enemy-line position")
        return SUPPORT
    if target in lateral(origin):
        if not state.options["enfilade"]:
            raise RuleError("DX-7.2", f"{target} is beside {origin}: enfilade (13.2) is off")
        if state.units(origin, enemy):
            raise RuleError("DX-13.2", f"{origin} is engaged: enfilade only from a position without enemy units")
        if not state.units(target, enemy):
            raise RuleError("DX-13.2", f"No enemy units in {target} to enfilade")
        return ENFILADE
    raise RuleError("DX-7.2", f"{target} is out of reach from {origin}: fire goes into your own position, "
                              "across the Middle Ground, or (enfilade) beside it")


FIRE_RULE = {SHORT: "DX-7.2", LONG: "DX-7.2", SUPPORT: "DX-13.5", ENFILADE: "DX-13.2"}   # by kind of fire


def fire_rule(mode: str) -> str:
    return FIRE_RULE[mode]


def firepower(state: GameState, card: Card, mode: str) -> int:
    spec = card.spec
    if mode == MELEE:
        return spec.fp_melee or MELEE_F[spec.type]
    if mode == ENFILADE:
        return ENFILADE_F["own" if line_of(card.loc) == card.side else "enemy"]
    if mode in (LONG, SUPPORT):
        return spec.fp_long
    if spec.type == INF:
        return INF_F
    if spec.type == CAV:
        return CAV_F[state.stance(card.side, card.loc)]
    return spec.fp_short


def check_firer(state: GameState, card: Card, mode: str) -> None:
    """DX-7.0 / DX-7.2: may this card fire this way now?"""
    if not card.is_unit:
        raise RuleError("DX-7.1", f"{card.spec.label} is not a unit: only INF, CAV and ART fire")
    if card.fired:
        raise RuleError("DX-7.0", f"{card.spec.label} has already fired (or meleed) this turn")
    if card.flank == "failed":
        raise RuleError("DX-13.3", f"{card.spec.label} failed its flank attack: it is done for the turn")
    if mode in (LONG, SUPPORT) and card.spec.type != ART:
        raise RuleError("DX-7.2", f"{card.spec.label} is not artillery: only artillery fires at long range")
    if state.step == MOVEMENT and not (card.spec.horse and card.moves):
        raise RuleError("DX-7.2", f"In the Movement step only horse artillery that has moved may fire, not "
                                  f"{card.spec.label}")


def check_counter_battery(state: GameState, firer: Card, named: Card, mode: str, target: str) -> None:
    """DX-13.4 / A11: may the firer single out this enemy artillery card?"""
    if not state.options["counter_battery"]:
        raise RuleError("DX-7.3", "Counter-battery (13.4) is off: the target's owner places the hits")
    if named.loc != target or named.side == firer.side or named.spec.type != ART or not named.is_unit:
        raise RuleError("DX-13.4", f"{named.spec.label} is not an enemy artillery card in {target}")
    if mode == ENFILADE:
        raise RuleError("DX-13.4", "Enfilade fire cannot single out a card")
    if mode in (LONG, SUPPORT) and not named.face_up:
        raise RuleError("DX-13.4", "At long range the named artillery must be face-up")
    if state.options["counter_battery_firers"] == "artillery" and firer.spec.type != ART:
        raise RuleError("DX-13.4", "Only artillery may single out artillery (as chosen under Options)")


def order_key(state: GameState, origin: str, target: str) -> str:
    """A20: the position whose combat must be finished before the next: the target (or the firer's)."""
    return origin if state.options["combat_order_by"] == "firer" else target


def check_order(state: GameState, key: str) -> None:
    """DX-7.0: finish one position before starting the next; a declared melee is part of its position's combat,
    so the combat moves on only once the melee under way there is fought out (DX-13.1)."""
    if key in state.combat_at[:-1]:
        raise RuleError("DX-7.0", f"The combat at {key} is finished: fights at one position are done before "
                                  "the next starts")
    now = state.combat_at[-1] if state.combat_at else None
    if now and key != now and any(m.position == now and m.stage != "done" for m in state.melees):
        raise RuleError("DX-7.0", f"Finish the melee in {now} before the combat moves on to {key}")


def fire_fault(state: GameState, cards: list[Card], target: str) -> RuleError | None:
    """The rule a fire of these cards (of the active side, in one position) at the target breaks, or None."""
    origin = cards[0].loc
    try:
        mode = fire_mode(state, state.active, origin, target)
        for card in cards:
            check_firer(state, card, mode)
        if state.step == COMBAT:
            check_order(state, order_key(state, origin, target))
    except RuleError as error:
        return error
    return None


def reach_of(pos: str) -> tuple[str, ...]:
    """The positions a card may fire at from `pos`: its own, across the Middle Ground, beside it (DX-7.2, 13.2)."""
    return (pos, across(pos), *lateral(pos))


def fire_choices(state: GameState) -> dict[tuple[str, str], tuple[str, ...]]:
    """(from, target) -> the active side's cards that may fire from there at the target now, for every fire it
    could make (DX-7.0, DX-7.2, DX-13.2, DX-13.3, DX-13.5; the position under way first)."""
    def work() -> dict[tuple[str, str], tuple[str, ...]]:
        found = {}
        for origin in state.positions:
            units = state.units(origin, state.active)
            for target in reach_of(origin) if units else ():
                able = tuple(c.id for c in units if fire_fault(state, [c], target) is None)
                if able:
                    found[(origin, target)] = able
        current = state.combat_at[-1:]
        return dict(sorted(found.items(), key=lambda o: order_key(state, *o[0]) not in current))
    return state.once("fire", work)


def firing_options(state: GameState) -> list[tuple[str, str, str]]:
    """(from, target, kind) for every fire the active side could make now, the position under way first."""
    return [(o, t, fire_mode(state, state.active, o, t)) for o, t in fire_choices(state)]


def able_firers(state: GameState, origin: str, target: str) -> list[Card]:
    """The active side's cards in `origin` that may fire at `target` now (DX-7.0, DX-7.2, DX-13.3)."""
    return [state.card(i) for i in fire_choices(state).get((origin, target), ())]


def why_not_firing(state: GameState, card: Card) -> RuleError:
    """Why a card of the active side can fire at nothing now: a refusal that reached the card itself (fired, the
    Movement step, the order of combat) before one of the positions it could fire at."""
    faults = [fire_fault(state, [card], t) for t in reach_of(card.loc)]
    mode_ok = [f for f, t in zip(faults, reach_of(card.loc)) if f is not None and
               fault(fire_mode, state, state.active, card.loc, t) is None]
    return (mode_ok or faults)[0]


def battery_choices(state: GameState, firers: list[Card], target: str) -> dict[str, tuple[Card, Card, RuleError | None]]:
    """DX-13.4: 'firer>artillery' for each firer and each enemy artillery card in the target: the firer and the card
    it would single out, with the rule that bars it (None when it may)."""
    mode = fire_mode(state, state.active, firers[0].loc, target)
    return {f"{f.id}>{a.id}": (f, a, fault(check_counter_battery, state, f, a, mode, target))
            for f in firers for a in state.units(target, other(state.active)) if a.spec.type == ART}


def batteries_to_name(state: GameState, firer: Card, target: str) -> list[Card]:
    """The enemy artillery in the target position the firer may single out (DX-13.4, A11)."""
    try:
        mode = fire_mode(state, firer.side, firer.loc, target)
    except RuleError:
        return []
    named = []
    for card in state.units(target, other(firer.side)):
        try:
            check_counter_battery(state, firer, card, mode, target)
        except RuleError:
            continue
        named.append(card)
    return named
