"""GC-6B the battle as the rules run it, once both sides have declared their units.

The units are fixed for the battle; a `Field` is what changes: each unit's status, each side's
supreme commander (SC) and the last order roll-off. Nothing here rolls dice: the game's actions, the
whole-battle odds (outlook.py) and the advice all read the rules from these functions.

- GC-6B.2: the SC is the present admiral with the most stars, then the earliest declaration, then the
  owner's choice; re-selected at once when it is destroyed (or retreats or escapes, Q14).
- GC-6B.4: the highest strategy among the units that have not acted goes next (the fortress never,
  GC-7.33); ties within a side are ordered by that side's SC, ties across sides by the SC with the
  higher strategy, or by a roll-off when the SCs' strategies are equal (GC-6B.4r). A roll-off settles
  the tie at one strategy value with the same two SCs (Q12 (a)), or by option every tie while the same
  two SCs remain (Q12 (b)).
- GC-6B.5 / GC-6B.6: results of duels and retreats (Reinhard never targets the fortress, GC-7.34);
  GC-6B.7: victory points and the annihilation bonus.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from companion.inputs import Inputs, bounded
from companion.terms import Terms

from .duel import DuelInput, DuelOutcome, Fighter, StrikeInput
from .retreat import DESTROYED as RETREAT_DESTROYED
from .retreat import RETREATED as RETREAT_DONE
from .retreat import RetreatInput, RetreatRollInput, threshold_terms
from .rules import BONUS_MIN_FLEETS, BONUS_VP, FORTRESS_VP, GARRISON_MAX, KILL_VP, NATION

ATTACKER, DEFENDER = 0, 1
SIDES = (ATTACKER, DEFENDER)
SIDE_NAMES = ("attacker", "defender")
NONE = -1

READY, ACTED, DESTROYED, RETREATED, ESCAPED = "ready", "acted", "destroyed", "retreated", "escaped"
PRESENT = (READY, ACTED)
STATUSES = (READY, ACTED, DESTROYED, RETREATED, ESCAPED)
FLEET, GROUND, FORTRESS = "fleet", "ground", "fortress"   # an admiral, an air/ground unit, Iserlohn
SURVIVED = "survived"


@dataclass(frozen=True, order=True)
class BattleUnit(Inputs):
    RULE = "GC-6B"

    name: str
    side: int = bounded(ATTACKER, DEFENDER)     # ATTACKER or DEFENDER
    owner: str                                  # the player whose clique scores its kills
    camp: Literal["EMP", "FPA", "FEZ", "NOBLE", "MCSR"]
    kind: Literal["fleet", "ground", "fortress"]   # FLEET, GROUND or FORTRESS
    stars: int = bounded(0)
    strategy: int
    attack: int
    defence: int
    declaration: int = bounded(0, default=0)   # the number of its side's declaration it came in (GC-6B.2 tie-break)
    reinhard: bool = False

    @property
    def fighter(self) -> Fighter:
        return Fighter(self.strategy, self.attack, self.defence)


@dataclass(frozen=True)
class BattleRules(Inputs):
    """What else a battle's rules depend on: the session's options and the state of the game."""

    RULE = "GC-6B"

    civil_war: bool = False            # GC-8.2: no kill VP between camps of one nation
    deemed: int = bounded(0, GARRISON_MAX, default=0)   # GC-6B.7: posted fleets not sortied, lost with the fortress
    fortress_counts: bool = True       # Q10: the fortress counts toward the size and the bonus test
    fortress_sc: bool = False          # Q11: the fortress may be SC when no admiral is left
    sc_on_departure: bool = True       # Q14: a retreating or escaping SC is replaced too
    fortress_free_attack: bool = False  # Q15: the fortress may make the free attack
    ground_vp: bool = False            # Q16: destroying an air/ground unit scores
    escaped_block_bonus: bool = False  # Q18: an escaped admiral blocks the annihilation bonus
    rolloff_scope: Literal["value", "pair"] = "value"   # Q12: a roll-off stands for one strategy value, or the SCs


@dataclass(frozen=True, order=True)
class Field:
    status: tuple[str, ...]
    sc: tuple[int, int] = (NONE, NONE)
    rolloff: tuple[int, ...] = ()      # the last roll-off: (SC of side 0, SC of side 1, winning side, tied strategy)


@dataclass(frozen=True, order=True)
class Award:
    owner: str
    camp: str
    points: int
    reason: str


def start(units: tuple[BattleUnit, ...]) -> Field:
    return Field(tuple(READY for _ in units))


def fits(units, field: Field) -> bool:
    """Does the field belong to these units: a known status for each, each SC a unit of its side (or none), the
    last roll-off (if any) naming the winning side and the tied strategy?"""
    status, sc, rolloff = field.status, field.sc, field.rolloff
    if not isinstance(status, tuple) or len(status) != len(units) or any(s not in STATUSES for s in status):
        return False
    if not isinstance(sc, tuple) or len(sc) != 2 or \
            any(type(i) is not int or (i != NONE and not (0 <= i < len(units) and units[i].side == side))
                for side, i in zip(SIDES, sc)):
        return False
    return rolloff == () or (isinstance(rolloff, tuple) and len(rolloff) == 4 and
                             all(type(v) is int for v in rolloff) and rolloff[2] in SIDES)


def set_status(field: Field, unit: int, status: str) -> Field:
    statuses = list(field.status)
    statuses[unit] = status
    return replace(field, status=tuple(statuses))


def with_sc(field: Field, side: int, unit: int) -> Field:
    sc = list(field.sc)
    sc[side] = unit
    return replace(field, sc=(sc[0], sc[1]))


def with_rolloff(field: Field, winner: int, strategy: int) -> Field:
    return replace(field, rolloff=(field.sc[0], field.sc[1], winner, strategy))


def standing_rolloff(field: Field, strategy: int, rules: BattleRules) -> int | None:
    """The side whose roll-off still decides a cross-side tie at this strategy, or None (GC-6B.4r): the same
    two SCs, and (Q12 (a), the default) the same tied strategy value."""
    if field.rolloff[:2] != field.sc:
        return None
    if rules.rolloff_scope == "value" and field.rolloff[3:] != (strategy,):
        return None
    return field.rolloff[2]


def on_side(units, side: int) -> list[int]:
    return [i for i, u in enumerate(units) if u.side == side]


def present(units, status, side: int) -> list[int]:
    return [i for i in on_side(units, side) if status[i] in PRESENT]


def engagement_order(units, side: int) -> list[int]:
    """GC-6B.4: a side's units in the order of their opportunities: the highest strategy first, then as declared."""
    return sorted(on_side(units, side), key=lambda i: (-units[i].strategy, units[i].declaration, i))


# --- GC-6B.2 the supreme commander ------------------------------------------------------------------------

def sc_choices(units, status, side: int, rules: BattleRules) -> tuple[int, ...]:
    """The units that may be SC: the present admirals with the most stars and the earliest declaration
    (more than one: the owner chooses). The fortress and air/ground units never (Q11 option: the fortress
    when no admiral is left)."""
    admirals = [i for i in present(units, status, side) if units[i].kind == FLEET]
    if not admirals:
        fortress = [i for i in present(units, status, side) if units[i].kind == FORTRESS]
        return tuple(fortress) if rules.fortress_sc else ()
    best = max((units[i].stars, -units[i].declaration) for i in admirals)
    return tuple(i for i in admirals if (units[i].stars, -units[i].declaration) == best)


def departed(status: str, rules: BattleRules) -> bool:
    """Has an SC with this status left command? Destroyed always; retreated or escaped by Q14."""
    return status == DESTROYED or (rules.sc_on_departure and status in (RETREATED, ESCAPED))


def sc_to_choose(units, field: Field, rules: BattleRules) -> dict[int, tuple[int, ...]]:
    """Sides whose SC is to be (re)selected now, each with the units it may be."""
    return {side: sc_choices(units, field.status, side, rules) for side in SIDES
            if field.sc[side] == NONE or departed(field.status[field.sc[side]], rules)}


def settle_sc(units, field: Field, rules: BattleRules) -> tuple[Field, dict[int, tuple[int, ...]]]:
    """Apply every SC change the rules decide; return the ties left to the owner's choice."""
    ties = {}
    for side, choices in sc_to_choose(units, field, rules).items():
        if len(choices) > 1:
            ties[side] = choices
        elif field.sc[side] != (choices[0] if choices else NONE):
            field = with_sc(field, side, choices[0] if choices else NONE)
    return field, ties


def sc_strategy(units, field: Field, side: int) -> int:
    """The strategy of the side's SC; 0 with no SC (GC-6B.2)."""
    sc = field.sc[side]
    return units[sc].strategy if sc != NONE else 0


# --- GC-6B.4 the engagement order ----------------------------------------------------------------------

def candidates(units, status) -> list[int]:
    """Present units that have not acted; the fortress never has an opportunity (GC-7.33)."""
    return [i for i, u in enumerate(units) if status[i] == READY and u.kind != FORTRESS]


def finished(units, status) -> bool:
    """GC-6B.7: the battle ends when no unit is left to act, or a side has no unit left."""
    return not candidates(units, status) or not all(present(units, status, side) for side in SIDES)


@dataclass(frozen=True)
class Opportunity:
    actors: tuple[int, ...]     # the units that may take the next opportunity
    decider: int | None         # the side whose SC decides a tie across sides
    roll_off: bool              # the SCs must roll off first (GC-6B.4r)
    strategy: int = 0           # the actors' strategy


def opportunity(units, field: Field, rules: BattleRules) -> Opportunity:
    """Who acts next: the highest strategy; a tie within one side is its SC's to order; a tie across
    sides is the call of the SC with the higher strategy, else of the standing roll-off's winner."""
    ready = candidates(units, field.status)
    top = max(units[i].strategy for i in ready)
    tied = tuple(i for i in ready if units[i].strategy == top)
    if len({units[i].side for i in tied}) == 1:
        return Opportunity(tied, None, False, top)
    mine, theirs = sc_strategy(units, field, ATTACKER), sc_strategy(units, field, DEFENDER)
    if mine != theirs:
        return Opportunity(tied, ATTACKER if mine > theirs else DEFENDER, False, top)
    winner = standing_rolloff(field, top, rules)
    return Opportunity(tied, winner, winner is None, top)


# --- GC-6B.5 targets and duels ---------------------------------------------------------------------

def targets(units, status, actor: int) -> tuple[int, ...]:
    """Present enemy units; escaped units are not present, and Reinhard may not pick the fortress (GC-7.34)."""
    me = units[actor]
    return tuple(i for i in present(units, status, 1 - me.side)
                 if not (units[i].kind == FORTRESS and me.reinhard))


def may_pass(units, status, actor: int) -> bool:
    """GC-7.33: a unit may end its opportunity doing nothing only when the fortress is all the enemy has left."""
    enemy = present(units, status, 1 - units[actor].side)
    return bool(enemy) and all(units[i].kind == FORTRESS for i in enemy)


def duel_input(units, actor: int, target: int, actor_modifier: int = 0, target_modifier: int = 0) -> DuelInput:
    return DuelInput(units[actor].fighter, units[target].fighter, actor_modifier, target_modifier)


def kill_awards(units, victim: int, killer: int, rules: BattleRules) -> tuple[Award, ...]:
    """GC-6B.7: +1 to the killer's clique for an enemy admiral of another nation (Q16: air/ground units by
    option); the fortress scores 1 plus 1 for each commander/garrison fleet deemed destroyed with it. None
    in a civil war (GC-8.2)."""
    v, k = units[victim], units[killer]
    if rules.civil_war or NATION[v.camp] == NATION[k.camp]:
        return ()
    if v.kind == FORTRESS:
        extra = f" and {rules.deemed} fleet{'s' if rules.deemed != 1 else ''} deemed destroyed" if rules.deemed else ""
        return (Award(k.owner, k.camp, FORTRESS_VP * (1 + rules.deemed), f"the fortress{extra}"),)
    if v.kind == FLEET or rules.ground_vp:
        return (Award(k.owner, k.camp, KILL_VP, v.name),)
    return ()


def destroy(units, field: Field, victim: int, killer: int, rules: BattleRules) -> tuple[Field, tuple[Award, ...]]:
    return set_status(field, victim, DESTROYED), kill_awards(units, victim, killer, rules)


def apply_duel(units, field: Field, actor: int, target: int, outcome: DuelOutcome,
               rules: BattleRules) -> tuple[Field, tuple[Award, ...]]:
    """The duel's losses, each scored for the unit whose roll destroyed it (return strikes included)."""
    awards: tuple[Award, ...] = ()
    for hit, victim, killer in ((outcome.target_destroyed, target, actor), (outcome.actor_destroyed, actor, target)):
        if hit:
            field, more = destroy(units, field, victim, killer, rules)
            awards += more
    return field, awards


# --- GC-6B.6 retreat ---------------------------------------------------------------------------------

def retreat_terms(units, field: Field, unit: int) -> Terms:
    """GC-6B.6: the parts of the unit's retreat threshold."""
    side = units[unit].side
    sc = sc_strategy(units, field, side) if field.sc[side] != NONE else None
    return threshold_terms(units[unit].strategy, sc, field.sc[side] == unit)


def retreat_threshold(units, field: Field, unit: int) -> int:
    return retreat_terms(units, field, unit).total


def shooters(units, status, retreater: int, rules: BattleRules) -> tuple[int, ...]:
    """The units the enemy SC may pick for the free attack: present enemies, not the fortress (Q15)."""
    return tuple(i for i in present(units, status, 1 - units[retreater].side)
                 if units[i].kind != FORTRESS or rules.fortress_free_attack)


def retreat_input(units, field: Field, unit: int, shooter: int | None, modifier: int = 0,
                  shooter_modifier: int = 0) -> RetreatInput:
    shot = free_attack(units, shooter, unit, shooter_modifier) if shooter is not None else None
    made_of = retreat_terms(units, field, unit)
    return RetreatInput(RetreatRollInput(made_of.total, modifier, made_of), shot)


def free_attack(units, shooter: int, retreater: int, modifier: int = 0) -> StrikeInput:
    return StrikeInput(units[shooter].attack, units[retreater].defence, modifier)


def apply_retreat(units, field: Field, unit: int, outcome: str, shooter: int | None,
                  rules: BattleRules) -> tuple[Field, tuple[Award, ...]]:
    if outcome == RETREAT_DONE:
        return set_status(field, unit, RETREATED), ()
    if outcome == RETREAT_DESTROYED:
        return destroy(units, field, unit, shooter, rules)
    return field, ()


# --- the end of an opportunity and of the battle ------------------------------------------------------

def close(units, field: Field, actor: int, rules: BattleRules) -> tuple[Field, dict[int, tuple[int, ...]]]:
    """The actor has acted (even if destroyed); departed SCs are replaced at once."""
    if field.status[actor] == READY:
        field = set_status(field, actor, ACTED)
    return settle_sc(units, field, rules)


def committed(units, side: int, rules: BattleRules) -> int:
    """The fleets a side committed: admirals, and the fortress by Q10."""
    return sum(1 for i in on_side(units, side)
               if units[i].kind == FLEET or (units[i].kind == FORTRESS and rules.fortress_counts))


def swept(units, status, side: int, rules: BattleRules) -> bool:
    """Is every unit of the side destroyed or retreated (escaped counts as retreated, Q18)?"""
    staying = PRESENT + ((ESCAPED,) if rules.escaped_block_bonus else ())
    return not any(status[i] in staying for i in on_side(units, side))


def bonus(units, field: Field, rules: BattleRules) -> tuple[Award, ...]:
    """GC-6B.7: +1 to the owner of the surviving side's SC, when both sides committed 2 fleets or more
    and every enemy unit is destroyed or retreated; also in a civil war. None with no SC, or when both
    sides are gone."""
    if min(committed(units, side, rules) for side in SIDES) < BONUS_MIN_FLEETS:
        return ()
    for side in SIDES:
        sc = field.sc[side]
        if swept(units, field.status, 1 - side, rules) and not swept(units, field.status, side, rules) \
                and sc != NONE and field.status[sc] in PRESENT:
            return (Award(units[sc].owner, units[sc].camp, BONUS_VP, "annihilation bonus"),)
    return ()


def fates(field: Field) -> tuple[str, ...]:
    return tuple(SURVIVED if s in PRESENT else s for s in field.status)
