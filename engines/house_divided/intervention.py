"""HD-5.9 foreign intervention (S10): the three conditions, checked at the start of a CSA turn, and the
trigger; HD-4.9 the return of eliminated FI units (5-6 in each CSA recruitment segment).

Conditions: (1) |MM_USA - MM_CSA| <= 3; (2) the CSA controls Washington and at least one Union city
with 2+ recruitment points; (3) with n the CSA 2+ RP cities the USA holds and m the Union 2+ RP cities
the CSA holds, n = 0 or m >= n (A15 (a); under (b) the city of condition 2 does not count toward m).
Trigger: the CSA wins a battle in that same turn (A21 (a)); once triggered it is permanent.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Mapping

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist

from .gamemap import GameMap
from .rules import CSA, FI_CITY_RP, FI_MM_GAP, FI_RETURN, FI_UNIT_COUNT, USA, WASHINGTON
from .state import ELIMINATED, GameState, Unit


@dataclass(frozen=True)
class Condition:
    number: int
    title: str
    met: bool
    reason: str


def _cities(game_map: GameMap, alignment: str, control: Mapping[str, str], holder: str) -> list[str]:
    return [b.id for b in game_map.boxes
            if b.alignment == alignment and b.rp >= FI_CITY_RP and control.get(b.id) == holder]


def fi_conditions(game_map: GameMap, control: Mapping[str, str], mm_usa: int, mm_csa: int,
                  condition_3: str = "shared") -> tuple[Condition, ...]:
    """The three conditions as things stand, each with the reason it holds or fails."""
    gap = abs(mm_usa - mm_csa)
    first = Condition(1, f"MM gap at most {FI_MM_GAP}", gap <= FI_MM_GAP,
                      f"|{mm_usa} - {mm_csa}| = {gap}" + (" <= " if gap <= FI_MM_GAP else " > ") + str(FI_MM_GAP))
    washington = game_map.role(WASHINGTON)
    union_held = _cities(game_map, USA, control, CSA)
    csa_lost = _cities(game_map, CSA, control, USA)
    missing = []
    if washington is None:
        missing.append("the map has no Washington box")
    elif control.get(washington) != CSA:
        missing.append("the CSA does not control Washington")
    if not union_held:
        missing.append(f"the CSA holds no Union city with {FI_CITY_RP}+ recruitment points")
    second = Condition(2, f"CSA holds Washington and a Union {FI_CITY_RP}+ RP city", not missing,
                       "; ".join(missing) or f"Washington and {', '.join(union_held)} are CSA-held")
    n, m = len(csa_lost), len(union_held)
    counted = m if condition_3 == "shared" else max(0, m - 1)
    third_met = n == 0 or counted >= n
    if n == 0:
        why = f"the USA holds no CSA {FI_CITY_RP}+ RP city"
    else:
        spare = "" if condition_3 == "shared" else " besides the one condition 2 needs (this game's option)"
        why = (f"the USA holds {n} CSA {FI_CITY_RP}+ RP cit{'y' if n == 1 else 'ies'} ({', '.join(csa_lost)}); "
               f"the CSA holds {counted} Union one{'s' if counted != 1 else ''}{spare}: "
               + ("enough" if third_met else "not enough"))
    third = Condition(3, "Lost CSA cities matched by Union cities held", third_met, why)
    return first, second, third


@dataclass(frozen=True)
class FIStatus:
    """The live checker: the conditions now, this CSA turn's snapshot, and the trigger."""

    conditions: tuple[Condition, ...]
    snapshot: bool | None   # the conditions at the start of this CSA turn (None outside a CSA turn)
    triggered: bool
    trigger: str            # what would trigger it now, or why it cannot

    @property
    def met_now(self) -> bool:
        return all(c.met for c in self.conditions)


def trigger_text(snapshot: bool | None, triggered: bool, trigger_rule: str) -> str:
    if triggered:
        return "Foreign intervention has happened: it is permanent"
    if snapshot is None:
        return "The conditions are checked at the start of a CSA turn"
    if not snapshot:
        return "The conditions were not all met at the start of this CSA turn: no intervention this turn"
    if trigger_rule == "turn_start":
        return "The conditions were met at the start of this CSA turn: intervention (this game's option)"
    return "The conditions were met at the start of this CSA turn: a CSA battle win this turn triggers it"


@dataclass(frozen=True)
class ReturnInput(Inputs):
    RULE: ClassVar[str] = "HD-4.9"
    eliminated: int = bounded(0, FI_UNIT_COUNT)   # eliminated FI units


def resolve_fi_return(inputs: ReturnInput, dice: Dice) -> Result:
    """One die per eliminated FI unit; 5-6 puts it back in Europe. The outcome is how many return."""
    faces = [FI_RETURN.roll(dice, f"FI unit {i + 1} returns? (HD-4.9)")[0] for i in range(inputs.eliminated)]
    back = tuple(FI_RETURN.results[f] for f in faces)
    text = ", ".join(f"{f}{' returns' if ok else ''}" for f, ok in zip(faces, back))
    return Result("fi_return", {"eliminated": inputs.eliminated}, tuple(dice.rolls[len(dice.rolls) - len(faces):]),
                  sum(back), ("HD-4.9",), f"FI return rolls: {text or 'none'}: {sum(back)} back in Europe",
                  {"returned": back})


def fi_return_odds(inputs: ReturnInput) -> Dist:
    return inputs.eliminated @ FI_RETURN.odds().map({True: 1, False: 0})


def fi_return_inputs():
    return [ReturnInput(n) for n in range(5)]


def fi_status(state: GameState) -> FIStatus:
    """The live checker on a game state (HD-5.9)."""
    conditions = fi_conditions(state.game_map, state.control, state.mm_usa, state.mm_csa,
                               state.options["fi_condition_3"])
    snapshot = state.fi_snapshot if state.side == CSA else None
    return FIStatus(conditions, snapshot, state.fi_triggered,
                    trigger_text(snapshot, state.fi_triggered, state.options["fi_trigger"]))


def intervene(state: GameState) -> GameState:
    """HD-5.9 effects: CSA sea movement, and the 4 FI units in Europe (outside the CSA MM)."""
    names = {u.name for u in state.units}
    fresh = []
    for arm, grade in state.fi_units:
        number = len(fresh) + 1
        while f"FI {number}" in names:
            number += 1
        name = f"FI {number}"
        names.add(name)
        fresh.append(Unit(name, CSA, arm, grade, box=state.europe, foreign=True))
    return replace(state, fi_triggered=True, units=state.units + tuple(fresh))


def fi_eliminated(state: GameState) -> list[Unit]:
    """The FI units eliminated and not yet back in Europe (HD-4.9)."""
    return [u for u in state.units if u.foreign and u.status == ELIMINATED]
