"""The cards, as the players enter them from their own printed sheets (digest sections 2 and 10).

No card values are shipped: a person is entered with its period, camp (and rebel camp), stars,
strategy / attack / defence, plot value (plain, or bracketed = counter-plots only) and special-rule
text; an event with its period, kind and text, and the effect the companion should apply (rules.EFFECTS).
A person the rules name (Reinhard, Rubinsky, ...) is marked with its role, never found by its name.
The card file (the same fields, in JSON or YAML) is read within bounds (companion.loading): `read_card_file`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.engine import RuleError
from companion.loading import JSON, YAML, Limits, LoadRefused, check_plain, load_text
from companion.quoting import quote

from .entry import flag, text, whole
from .rules import (
    EFFECTS,
    EMP,
    EVENT_KINDS,
    FEZ,
    FORCED,
    FPA,
    MAX_PLAYERS,
    MAX_SORTIE,
    MCSR,
    NOBLE,
    P_SENSIBLE,
    PERIODS,
    RESPONSE,
    ROLES,
    SUPPORT,
    TARGETED_EFFECTS,
)

REBEL_OF = {EMP: NOBLE, FPA: MCSR}   # GC-8.1: NOBLE only on Imperial persons, MCSR only on Alliance ones
# A card file is a few hundred cards of a dozen fields each: these bounds refuse a hostile one quickly, in little
# memory (digest section 11).
LIMITS = Limits(bytes=500_000, depth=6, nodes=20_000, text=2_000, digits=6)
CARD_FILE = "The card file"
SETUP_FILE = "The setup file"
FILE_FIELDS = ("persons", "events", "fortress")


@dataclass(frozen=True)
class Person:
    name: str
    period: int
    camp: str                       # EMP, FPA or FEZ as printed
    stars: int                      # 0: not an admiral
    strategy: int
    attack: int
    defence: int
    plot: int | None = None         # None: no plot value
    counter_only: bool = False      # the value is in brackets: counter-plots only (GC-6A.31)
    rebel_camp: str = ""            # NOBLE or MCSR: joins the rebels in a civil war (GC-8.1)
    fights: bool = False            # a star-less person that fights as an air/ground unit (GC-6B.13)
    never_changes_camp: bool = False  # special rule of the Yang / Reinhard kind (GC-6A.2)
    role: str = ""                  # rules.ROLES
    special: str = ""               # the special-rule text

    @property
    def admiral(self) -> bool:
        return self.stars >= 1

    @property
    def may_plot(self) -> bool:
        """GC-6A.31: only an unbracketed plot value starts a plot."""
        return self.plot is not None and not self.counter_only


@dataclass(frozen=True)
class EventCard:
    name: str
    period: int
    kind: str                       # forced, event, battle_support, response
    effect: str = "none"            # rules.EFFECTS
    size: int = 0                   # the fixed sortie size an Invasion card prints
    prerequisite: str = ""
    text: str = ""


@dataclass(frozen=True)
class FortressCard:
    strategy: int
    attack: int
    defence: int


def _flag(row: Mapping, key: str, name: str, rule: str) -> bool:
    return flag(row.get(key, False), f"{name}: '{key}'", rule)


def _period(row: Mapping, name: str) -> int:
    period = whole(row.get("period"), f"{name}: period", "GC-3.1")
    if period not in PERIODS:
        raise RuleError("GC-3.1", f"{name}: the period is 1 to 4, not {quote(period)}")
    return period


def person_from_row(row: Any) -> Person:
    if not isinstance(row, Mapping):
        raise RuleError("GC-3", f"A person card is a set of fields, not {quote(row)}")
    name = text(row.get("name"), "A person's name", "GC-3", True)
    camp = text(row.get("camp"), f"{name}: camp", "GC-3", True).upper()
    if camp not in (EMP, FPA, FEZ):
        raise RuleError("GC-3", f"{name}: the printed camp is EMP, FPA or FEZ, not {quote(row.get('camp'))}")
    rebel = text(row.get("rebel_camp"), f"{name}: rebel camp", "GC-8.1").upper()
    if rebel and REBEL_OF.get(camp) != rebel:
        raise RuleError("GC-8.1", f"{name}: only Imperial persons may join NOBLE and only Alliance persons MCSR")
    stars = whole(row.get("stars", 0), f"{name}: stars", "GC-6B.2")
    if stars < 0:
        raise RuleError("GC-6B.2", f"{name}: stars cannot be negative")
    values = [whole(row.get(k), f"{name}: {k}", "GC-6B.5") for k in ("strategy", "attack", "defence")]
    plot = row.get("plot")
    plot = None if plot is None else whole(plot, f"{name}: plot value", "GC-6A.31")
    counter_only = _flag(row, "counter_only", name, "GC-6A.31")
    if counter_only and plot is None:
        raise RuleError("GC-6A.31", f"{name}: a bracketed plot value needs the value")
    fights = _flag(row, "fights", name, "GC-6B.13")
    if fights and stars:
        raise RuleError("GC-6B.13", f"{name}: an admiral fights as a fleet; only star-less persons are "
                                    "air/ground units")
    role = text(row.get("role"), f"{name}: role", "GC-3").lower()
    if role not in ROLES:
        raise RuleError("GC-3", f"{name}: the role is one of {', '.join(r for r in ROLES if r)}, or none")
    return Person(name, _period(row, name), camp, stars, *values, plot, counter_only, rebel,
                  fights, _flag(row, "never_changes_camp", name, "GC-6A.2"), role,
                  text(row.get("special"), f"{name}: special rule", "GC-3"))


def event_from_row(row: Any) -> EventCard:
    if not isinstance(row, Mapping):
        raise RuleError("GC-11", f"An event card is a set of fields, not {quote(row)}")
    name = text(row.get("name"), "An event's name", "GC-11", True)
    kind = text(row.get("kind"), f"{name}: kind", "GC-11", True).lower()
    if kind not in EVENT_KINDS:
        raise RuleError("GC-11", f"{name}: the kind is one of {', '.join(EVENT_KINDS)}, not {quote(row.get('kind'))}")
    effect = text(row.get("effect") or "none", f"{name}: effect", "GC-11").lower()
    if effect not in EFFECTS:
        raise RuleError("GC-11", f"{name}: the effect is one of {', '.join(EFFECTS)}, not {quote(row.get('effect'))}")
    if kind == FORCED and effect in TARGETED_EFFECTS:
        raise RuleError("GC-11", f"{name}: a forced event resolves on the draw, so it cannot name a person ({effect})")
    if effect == "escape" and kind != RESPONSE:
        raise RuleError("GC-11", f"{name}: an escape is used in a battle, as a response card")
    if effect in ("fortress_vs_fortress", "double_snake") and kind not in (SUPPORT, RESPONSE):
        raise RuleError("GC-11", f"{name}: this card is played in a battle, as a battle-support or response card")
    size = whole(row.get("size", 0), f"{name}: size", "GC-7.4")
    if effect == "invasion" and not 1 <= size <= MAX_SORTIE:
        raise RuleError("GC-7.4", f"{name}: enter the fixed sortie size the Invasion card prints (1 to {MAX_SORTIE})")
    return EventCard(name, _period(row, name), kind, effect, size,
                     text(row.get("prerequisite"), f"{name}: prerequisite", "GC-11"),
                     text(row.get("text"), f"{name}: text", "GC-11"))


def fortress_from_row(row: Any) -> FortressCard:
    if not isinstance(row, Mapping):
        raise RuleError("GC-7.33", "Enter the Iserlohn Fortress card's strategy, attack and defence")
    return FortressCard(*(whole(row.get(k), f"Iserlohn: {k}", "GC-7.33") for k in ("strategy", "attack", "defence")))


def cards_from_rows(persons: Any, events: Any) -> tuple[tuple[Person, ...], tuple[EventCard, ...]]:
    for rows, what in ((persons, "person"), (events, "event")):
        if not isinstance(rows, (list, tuple)):
            raise RuleError("GC-3", f"The {what} cards are a list")
    people = tuple(person_from_row(r) for r in persons)
    happenings = tuple(event_from_row(r) for r in events)
    names = [c.name for c in people + happenings]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RuleError("GC-3", f"Each card needs its own name (number two copies): {', '.join(twice)}")
    for role in ROLES:
        marked = [p.name for p in people if role and p.role == role]
        if len(marked) > 1:
            raise RuleError("GC-3", f"Only one person is {ROLES[role].split(' (')[0]}: {', '.join(marked)}")
    return people, happenings


def card_warnings(persons: tuple[Person, ...]) -> list[str]:
    """Legal entries worth a second look (digest section 2)."""
    low, high = P_SENSIBLE
    return [f"{p.name}: a plot value of {p.plot} {'always' if p.plot < low else 'never'} succeeds on 2d6"
            for p in persons if p.plot is not None and not low <= p.plot <= high]



def read_card_file(source: Any) -> dict:
    """The card file (digest section 10: the persons, the events and the Iserlohn card, as in section 2): its JSON or
    YAML text, or its data (the tables the players typed), read within `LIMITS` and every card checked. Returns
    {"persons": [...], "events": [...], "fortress": {...}} as given; RuleError naming what is wrong, and nothing
    else."""
    try:
        if isinstance(source, (str, bytes)):
            opening = source[:100].lstrip()[:1]
            source = load_text(source, JSON if opening in ("{", "[", b"{", b"[") else YAML, CARD_FILE, LIMITS)
        else:
            check_plain(source, CARD_FILE, LIMITS)
    except LoadRefused as exc:
        raise RuleError("GC-3", str(exc)) from None
    if not isinstance(source, dict) or set(source) - set(FILE_FIELDS):
        raise RuleError("GC-3", f"{CARD_FILE} holds {', '.join(FILE_FIELDS)}; not {quote(source)}")
    cards = {"persons": source.get("persons", []), "events": source.get("events", []), "fortress": source.get("fortress")}
    cards_from_rows(cards["persons"], cards["events"])
    fortress_from_row(cards["fortress"])
    return cards


def read_setup_file(source: Any) -> dict:
    """A saved setup (GC-3): the players, clockwise from the first (optional), and the card file, as `read_card_file`
    reads it. Returns {"players": [...], "persons": ..., "events": ..., "fortress": ...}; RuleError naming what is
    wrong."""
    if isinstance(source, (str, bytes)):
        opening = source[:100].lstrip()[:1]
        try:
            source = load_text(source, JSON if opening in ("{", "[", b"{", b"[") else YAML, SETUP_FILE, LIMITS)
        except LoadRefused as exc:
            raise RuleError("GC-3", str(exc)) from None
    if not isinstance(source, dict):
        raise RuleError("GC-3", f"{SETUP_FILE} holds players, {', '.join(FILE_FIELDS)}; not {quote(source)}")
    players = source.get("players", [])
    if not isinstance(players, list) or len(players) > MAX_PLAYERS or not all(
            isinstance(p, str) and p.strip() for p in players):
        raise RuleError("GC-3", f"{SETUP_FILE}: the players are a list of up to {MAX_PLAYERS} names, not "
                                f"{quote(players)}")
    return {"players": [p.strip() for p in players],
            **read_card_file({k: v for k, v in source.items() if k != "players"})}
