"""A number the rules add up from parts (a morale, a number to roll, the dice a card throws), kept with its parts.

Each part is named in the players' words; the number is the sum of the parts, so a roll's label that says what
its number is made of ("6 = CV 3 + grade B 0 + terrain +1 + leader +2", "2 = CV 3 − woods 1") is read off the
very terms the rule adds up and cannot disagree with it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .engine import RuleError

MINUS = "−"


def signed(value: int) -> str:
    """+1, 0, −1 (the players' minus sign)."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


@dataclass(frozen=True)
class Terms:
    """The parts of a number, in order: (name, value); the first is the base, the others modify it."""

    parts: tuple[tuple[str, int], ...] = ()

    def plus(self, name: str, value: int) -> Terms:
        return Terms(self.parts + ((name, value),))

    @property
    def total(self) -> int:
        return sum(value for _, value in self.parts)

    def text(self) -> str:
        """"CV 3 + grade B 0 + terrain +1 − woods 1": the base as it is, a part that adds with its sign, one
        that takes away after a minus."""
        return self._joined(True)

    def summed(self) -> str:
        """Parts of equal standing, each as it is: "strategy 8 + the SC's strategy 3 − battle-support card 1"."""
        return self._joined(False)

    def after(self, base: str) -> str:
        """The parts added to a base read elsewhere (a die, a table): "the die + Ragnarok +1"."""
        return base + self._rest(True)

    def _joined(self, signs: bool) -> str:
        if not self.parts:
            return "0"
        name, value = self.parts[0]
        return f"{name} {signed(value) if value < 0 else value}" + Terms(self.parts[1:])._rest(signs)

    def _rest(self, signs: bool) -> str:
        return "".join(f" {MINUS} {name} {-value}" if value < 0 else
                       f" + {name} {signed(value) if signs else value}" for name, value in self.parts)

    def listed(self) -> str:
        """Modifiers one by one, each with its sign: "target in woods −1, across a Bull Run ford −2"."""
        return ", ".join(f"{name} {signed(value)}" for name, value in self.parts)

    def said(self) -> str:
        """The number and what it is made of: "6 = CV 3 + grade B 0 + leader +2"."""
        return f"{signed(self.total) if self.total < 0 else self.total} = {self.text()}"


def check_sum(inputs: object, field: str, number: int, terms: Terms | None, rule: str) -> None:
    """A procedure's number and the parts given for it agree (RuleError naming the field if not)."""
    if terms is not None and terms.total != number:
        raise RuleError(rule, f"{type(inputs).__name__} '{field}' adds up to {terms.total}, not {number}")
