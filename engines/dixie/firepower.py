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
from .state import COMBAT, MOVEMENT, Card, GameState


def fire_mode(state: GameState, side: str, origin: str, target: str) -> str:
    """The kind of fire from `origin` at `target`, or the rule that forbids it."""
    enemy = other(side)
    if target == origin:
        if not state.units(target, enemy):
            raise RuleError("DX-7.2", f"No enemy units in {target}: cards fire there only when engaged")
        return SHORT
    if target == across(origin):
        if line_of(origin) != side and not state.options["long_range_from_enemy_line"]:
            raise RuleError("DX-7.2", "Long-range fire goes from your own line across the Middle Ground (A5)")
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
        raise RuleError("DX-13.4", "Only artillery may single out artillery (A11 option)")


def order_key(state: GameState, origin: str, target: str) -> str:
    """A20: the position whose combat must be finished before the next: the target (or the firer's)."""
    return origin if state.options["combat_order_by"] == "firer" else target


def check_order(state: GameState, key: str) -> None:
    """DX-7.0: finish one position before starting the next."""
    if key in state.combat_at[:-1]:
        raise RuleError("DX-7.0", f"The combat at {key} is finished: fights at one position are done before "
                                  "the next starts")


def firing_options(state: GameState) -> list[tuple[str, str, str]]:
    """(from, target, kind) for every fire the active side could make now, the position under way first
    (DX-7.0: finished positions are left out; in the Movement step only horse artillery that has moved)."""
    side = state.active
    found = []
    for origin in state.positions:
        if not state.units(origin, side):
            continue
        for target in (origin, across(origin), *lateral(origin)):
            try:
                mode = fire_mode(state, side, origin, target)
                if state.step == COMBAT:
                    check_order(state, order_key(state, origin, target))
            except RuleError:
                continue
            if able_firers(state, origin, target):
                found.append((origin, target, mode))
    current = state.combat_at[-1:]
    return sorted(found, key=lambda o: order_key(state, o[0], o[1]) not in current)


def able_firers(state: GameState, origin: str, target: str) -> list[Card]:
    """The active side's cards in `origin` that may fire at `target` now (DX-7.0, DX-7.2, DX-13.3)."""
    try:
        mode = fire_mode(state, state.active, origin, target)
    except RuleError:
        return []
    able = []
    for card in state.units(origin, state.active):
        try:
            check_firer(state, card, mode)
        except RuleError:
            continue
        able.append(card)
    return able


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
