"""HD-4.10: the basic game's fire numbers, which the source lacks: a per-session form the players fill
from their own basic rulebook.

Public fact: a firing unit hits on a d6 at or under its combat strength; the first hit flips a unit,
the second eliminates it. Unknown, so entered here: the combat strength of each arm, grade and face;
the firing order within a round; what entrenchment does to fire. The leader point is +1 strength
(the source, S8) and the garrison's strength is that of a grade the players pick (A13, militia
suggested). Nothing is guessed: until the form is complete the fire resolver says it is unconfigured.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.engine import RuleError

from . import entries
from .rules import ARMS, FACES, GRADES, MAX_STRENGTH, MILITIA

RULE = "HD-4.10"
FIRING_ORDERS = (("simultaneous", "Both sides fire, then both place their hits"),
                 ("attacker_first", "The attacker fires first, then the defender"),
                 ("defender_first", "The defender fires first, then the attacker"))
ENTRENCHMENT = (("threshold", "-1 to the hit number of fire aimed at an entrenched side"),
                ("none", "No effect on fire"))


def strength_key(arm: str, grade: str, face: str) -> str:
    return f"{arm}/{grade}/{face}"


STRENGTH_KEYS = tuple(strength_key(a, g, f) for a in ARMS for g in GRADES for f in FACES)


@dataclass(frozen=True)
class FormField:
    """One entry of the form, as a dashboard shows it."""

    key: str
    label: str
    kind: str                                  # "strength" (0-6), "choice" or "count"
    choices: tuple[tuple[str, str], ...] = ()
    suggested: Any = None                      # a value the rules text gives or suggests, shown filled in


FORM = (
    *(FormField(k, f"Combat strength: {k.replace('/', ', ')}", "strength") for k in STRENGTH_KEYS),
    FormField("firing_order", "Firing order within a round", "choice", FIRING_ORDERS),
    FormField("entrenchment", "Entrenchment against fire", "choice", ENTRENCHMENT),
    FormField("leader_point", "Strength added by one leader point (the rules say +1)", "count", suggested=1),
    FormField("garrison_as", "Coastal garrison fires as (militia suggested)", "choice",
              tuple((g, g) for g in GRADES), suggested=MILITIA),
)


@dataclass(frozen=True)
class BasicRules:
    """The players' entries; an empty strength table or an empty choice means not filled yet."""

    strength: Mapping[str, int]
    firing_order: str = ""
    entrenchment: str = ""
    leader_point: int = 1
    garrison_as: str = MILITIA

    def missing(self) -> list[str]:
        gaps = [k for k in STRENGTH_KEYS if k not in self.strength]
        gaps += [name for name, value in (("firing_order", self.firing_order), ("entrenchment", self.entrenchment))
                 if not value]
        return gaps

    @property
    def filled(self) -> bool:
        return not self.missing()

    def of(self, arm: str, grade: str, face: str) -> int:
        return self.strength[strength_key(arm, grade, face)]


UNCONFIGURED = BasicRules({})


def basic_rules_from(data: Any) -> BasicRules:
    """The form's entries, checked; fields left out stay unfilled."""
    data = entries.mapping(data if data is not None else {}, "The basic rules", RULE)
    entries.fields(data, ("strength", "firing_order", "entrenchment", "leader_point", "garrison_as"),
                   "The basic rules", RULE)
    table = entries.mapping(data.get("strength", {}), "The strength table", RULE)
    unknown = sorted(set(table) - set(STRENGTH_KEYS))
    if unknown:
        raise RuleError(RULE, f"The strength table has no entry '{unknown[0]}': the keys are arm/grade/face, "
                              f"e.g. {STRENGTH_KEYS[0]}")
    strength = {k: entries.whole(table[k], f"Combat strength {k}", RULE, 0, MAX_STRENGTH)
                for k in STRENGTH_KEYS if k in table}
    order = data.get("firing_order", "")
    if order:
        entries.choice(order, [c for c, _ in FIRING_ORDERS], "The firing order", RULE)
    entrench = data.get("entrenchment", "")
    if entrench:
        entries.choice(entrench, [c for c, _ in ENTRENCHMENT], "Entrenchment", RULE)
    point = entries.whole(data.get("leader_point", 1), "A leader point", RULE, 0, MAX_STRENGTH)
    garrison = entries.choice(data.get("garrison_as", MILITIA), GRADES, "The garrison's grade", "HD-A13")
    return BasicRules(strength, order, entrench, point, garrison)


def require_filled(basic: BasicRules) -> BasicRules:
    """The fire resolver's gate: RuleError listing what is still to enter."""
    gaps = basic.missing()
    if gaps:
        raise RuleError(RULE, "Basic fire is unconfigured: the advanced rules do not give the basic game's numbers. "
                              "Fill the basic-rules form from your rulebook (missing: " + ", ".join(gaps) + "), "
                              "or enter the hits you scored with your own rules")
    return basic
