"""DX-13.4 counter-battery: a firing card may name one enemy artillery card as its target (at long range
it must be face-up; in an engaged position any engaged firer may, A11). All that card's hits go on the named
card, ignoring the levelling of DX-7.3; hits beyond its CV are lost once it is destroyed. Its natural 6s
still hit the enemy leader there (DX-11.3)."""
from __future__ import annotations

from dataclasses import dataclass

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist, fractions
from companion.terms import Terms

from .fire import FireInput, fire_odds, resolve_fire
from .rules import CV_RANGE, F_RANGE, MOST_DICE


@dataclass(frozen=True)
class CounterBatteryInput(Inputs):
    RULE = "DX-13.4"
    dice: int = bounded(0, MOST_DICE)
    f: int = bounded(*F_RANGE)
    target_cv: int = bounded(*CV_RANGE)
    target_hits: int = bounded(0, CV_RANGE[1] + 1, default=0)   # hits already on the named card (CV + 1: destroyed)
    made_of: Terms | None = None   # the parts of the firer's dice, when known (modifiers.fire_terms)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.fire()

    def fire(self) -> FireInput:
        return FireInput(((self.dice, self.f),), (self.made_of,) if self.made_of else ())


@dataclass(frozen=True, order=True)
class Battery:
    hits: int          # on the named card after the fire (its CV + 1 when destroyed)
    destroyed: bool
    sixes: int


def on_target(inputs: CounterBatteryInput, hits: int, sixes: int) -> Battery:
    total = min(inputs.target_hits + hits, inputs.target_cv + 1)
    return Battery(total, total > inputs.target_cv, sixes)


def resolve_counter_battery(inputs: CounterBatteryInput, dice: Dice, label: str = "Counter-battery") -> Result:
    fire = resolve_fire(inputs.fire(), dice, label, "DX-13.4")
    outcome = on_target(inputs, fire.outcome.hits, fire.outcome.sixes)
    text = f"{fire.summary}; the named artillery now holds {outcome.hits} hit(s)" + (
        ", destroyed" if outcome.destroyed else "")
    return Result("counter_battery", {"inputs": inputs}, fire.rolls, outcome, ("DX-13.4", *fire.rules), text)


def counter_battery_odds(inputs: CounterBatteryInput) -> Dist:
    weights = {}
    for v, p in fractions(fire_odds(inputs.fire())).items():
        key = on_target(inputs, v.hits, v.sixes)
        weights[key] = weights.get(key, 0) + p
    return dist(weights)


def counter_battery_inputs():
    for dice in range(0, 5):
        for f in (1, 2, 3):
            yield CounterBatteryInput(dice, f, 2)
    yield CounterBatteryInput(3, 2, 1, target_hits=1)
    yield CounterBatteryInput(4, 3, 4)
