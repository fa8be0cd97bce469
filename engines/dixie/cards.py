"""The players' own cards (DX-1.0), entered as rows a table editor can fill, checked as digest section 10 says.

The 250-card list is not published with the rules: each row is what one physical card shows. Every row
has `number`, `side`, `type` and `pile` (where the card was dealt: "muster", "reinforcements", or in the
historical battle "deck" for the cards still to come); then the fields of its type:

- INF/CAV/ART: `cv` 1-4, `morale` A/B/C (another letter needs `morale_modifier`, A18), `bp`, `corps`,
  `division`, `day`; ART also `fp_long`, `fp_short`, `horse`; any unit may carry `fp_melee` (A6).
- LDR: `attack`, `defense`, `stack_bonus` 0-2, `rank` (army, wing, corps, division, cavalry, artillery),
  `corps`, and for a wing commander `wing_corps`, the 3 corps printed on it.
- TER: `codes` (L, C, R), `kind`, `modifiers`, `text`.
- SPC: `text`, `timing` (own or enemy turn), optional `stack_bonus`, `modifiers`, `lasting`.

A modifier is `{"side": ..., "what": ..., "value": ...}` or the text "side what value" (several joined
by ";"): for terrain the side is holder, attacker or both (DX-10.3); for a special own, enemy or both.
`what` is morale, fire_cv (cards firing from the position), fire_in_cv (cards firing into it) or
enfilade_in_cv (cards enfilading into it).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

from companion.engine import RuleError
from companion.loading import JSON, YAML, LoadRefused, load_text
from companion.quoting import quote
from companion.terms import Terms

from .rules import (
    ART,
    BP_BUDGET,
    CV_RANGE,
    DAY_FLOW,
    DECK_SIZE,
    F_RANGE,
    HORSE_ARTILLERY,
    LDR,
    MODIFIER_KINDS,
    MORALE_CODES,
    MUSTER,
    RANKS,
    SIDES,
    SPC,
    SPECIAL_SIDES,
    SPECIAL_TIMING,
    STACK_BONUS,
    TER,
    TERRAIN_CODES,
    TERRAIN_SIDES,
    TYPES,
    UNITS,
    USUAL_ART_F,
)

PILES = ("muster", "reinforcements", "deck")
MAX_RATING = 5       # leader attack/defense: small non-negative whole numbers (digest section 10)
CARD_NUMBERS = 250   # the Gettysburg series (digest section 10): numbers outside only warn
MAX_CARDS = 500      # far more than both decks of the historical battle (108): a bound on an entered list
NAME_LIMIT = 100     # characters of a card's name (and 40 of an id)


@dataclass(frozen=True)
class Modifier:
    """One printed effect (DX-10.3, DX-12.0): who it serves, what it changes, by how much."""

    side: str
    what: str
    value: int


@dataclass(frozen=True)
class CardSpec:
    """What one physical card shows (DX-1.0, digest section 10)."""

    id: str
    number: int
    side: str
    type: str
    name: str = ""
    pile: str = "muster"
    bp: int = 0
    day: int = 0                 # the day mark, 0 when unmarked
    corps: str = ""
    division: str = ""
    cv: int = 0
    morale: str = ""
    morale_modifier: int = 0     # DX-6.0 code modifier (A18: entered for an unknown letter)
    fp_long: int = 0
    fp_short: int = 0
    fp_melee: int = 0            # A6: a printed melee value, 0 = DX-13.1's
    horse: bool = False
    attack: int = 0
    defense: int = 0
    stack_bonus: int = 0
    rank: str = ""
    wing_corps: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    kind: str = ""
    modifiers: tuple[Modifier, ...] = ()
    text: str = ""
    timing: str = ""
    lasting: bool = False

    @cached_property
    def is_unit(self) -> bool:
        return self.type in UNITS

    @property
    def label(self) -> str:
        return f"{self.name or self.type} ({self.id})"

    @property
    def base_morale(self) -> int:
        """DX-6.0: CV + the code's modifier (3A = 4, 3B = 3, 3C = 2)."""
        return self.morale_terms().total

    def morale_terms(self) -> Terms:
        """DX-6.0: the parts of the base morale, "CV 3 + grade A +1"."""
        return Terms((("CV", self.cv), (f"grade {self.morale}", self.morale_modifier)))


def read_card_file(raw: str | bytes) -> list:
    """A card list pasted or opened (DX-1.0): JSON or YAML, a list of card rows (or {"cards": [...]}), read within
    bounds (companion.loading) and every card checked. Anything else is refused with a RuleError saying what is
    wrong; nothing else is raised."""
    fmt = JSON if raw.lstrip()[:1] in ("[", "{", b"[", b"{") else YAML
    try:
        data = load_text(raw, fmt, "The card list")
    except LoadRefused as exc:
        raise RuleError("DX-1.0", str(exc)) from None
    rows = data.get("cards") if isinstance(data, dict) else data
    cards_from_rows(rows)
    return rows


def cards_from_rows(rows: Any) -> tuple[CardSpec, ...]:
    """The card rows as specs, each field checked; ids are `SIDE-number` (repeated specials get -2, -3 ...)."""
    if not isinstance(rows, (list, tuple)) or not rows:
        raise RuleError("DX-1.0", "No cards: enter the cards of both battle decks")
    if len(rows) > MAX_CARDS:
        raise RuleError("DX-1.0", f"{len(rows)} cards: at most {MAX_CARDS} are read")
    specs, seen = [], set()
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise RuleError("DX-1.0", f"Row {i} is not a card")
        spec = _spec(i, row, seen)
        seen.add(spec.id)
        specs.append(spec)
    return tuple(specs)


def _spec(i: int, row: Mapping[str, Any], seen: set[str]) -> CardSpec:
    where = f"Row {i}"
    unknown = set(row) - FIELDS
    if unknown:
        raise RuleError("DX-1.0", f"{where}: unknown field {quote(sorted(map(str, unknown))[0])}")
    number = _whole(row.get("number"), f"{where}: card number", "DX-1.0")
    if number < 1:
        raise RuleError("DX-1.0", f"{where}: the card number is 1 or more")
    side = _text(row.get("side")).upper()
    if side not in SIDES:
        raise RuleError("DX-1.0", f"{where}: side is CSA or USA, not {quote(row.get('side'))}")
    kind = _text(row.get("type")).upper()
    if kind not in TYPES:
        raise RuleError("DX-1.0", f"{where}: type is one of {', '.join(TYPES)}, not {quote(row.get('type'))}")
    card_id = _text(row.get("id")) or _free_id(f"{side}-{number}", seen)
    if len(card_id) > 40 or card_id in seen:
        raise RuleError("DX-1.0", f"{where}: the id {quote(card_id)} is " + ("used twice" if card_id in seen else
                                                                              "longer than 40 characters"))
    where = f"Card {card_id}"
    pile = _text(row.get("pile") or "muster").lower()
    if pile not in PILES:
        raise RuleError("DX-2.2", f"{where}: pile is muster, reinforcements or deck, not {quote(row.get('pile'))}")
    fields: dict[str, Any] = dict(
        id=card_id, number=number, side=side, type=kind, name=_text(row.get("name")), pile=pile,
        bp=_count(row, "bp", where, "DX-13.9"), day=_count(row, "day", where, "DX-14.0"),
        corps=_text(row.get("corps")), division=_text(row.get("division")))
    if len(fields["name"]) > NAME_LIMIT:
        raise RuleError("DX-1.0", f"{where}: the name is longer than {NAME_LIMIT} characters: {quote(fields['name'])}")
    if fields["day"] > len(DAY_FLOW):
        raise RuleError("DX-14.0", f"{where}: the day mark is 1 to {len(DAY_FLOW)}")
    fill = {ART: _artillery, LDR: _leader, TER: _terrain, SPC: _special}.get(kind, _unit)
    fields.update(fill(row, where))
    for key in FIELDS - OWN_FIELDS - TYPE_FIELDS[kind]:
        if row.get(key) not in (None, "", 0, False, [], ()):
            raise RuleError("DX-1.0", f"{where}: a {kind} card has no '{key}'")
    return CardSpec(**fields)


def _free_id(base: str, seen: set[str]) -> str:
    if base not in seen:
        return base
    k = 2
    while f"{base}-{k}" in seen:
        k += 1
    return f"{base}-{k}"


def _unit(row: Mapping[str, Any], where: str) -> dict:
    cv = _whole(row.get("cv"), f"{where}: CV", "DX-7.1")
    if not CV_RANGE[0] <= cv <= CV_RANGE[1]:
        raise RuleError("DX-7.1", f"{where}: CV is {CV_RANGE[0]} to {CV_RANGE[1]}, not {cv}")
    letter = _text(row.get("morale")).upper()
    if not re.fullmatch(r"[A-Z]", letter):
        raise RuleError("DX-6.0", f"{where}: the morale code is one letter (A, B or C)")
    given = row.get("morale_modifier")
    if letter in MORALE_CODES:
        modifier = MORALE_CODES[letter]
        if given not in (None, "", 0) and _whole(given, f"{where}: morale modifier", "DX-6.0") != modifier:
            raise RuleError("DX-6.0", f"{where}: code {letter} is {modifier:+d}, not {given}")
    elif given in (None, ""):
        raise RuleError("DX-6.0", f"{where}: morale code {letter} is not in the rules (A/B/C): enter its "
                                  "modifier from your card set")
    else:
        modifier = _whole(given, f"{where}: morale modifier", "DX-6.0")
    melee = 0 if row.get("fp_melee") in (None, "") else _firepower(row, "fp_melee", where, "DX-13.1")
    return dict(cv=cv, morale=letter, morale_modifier=modifier, fp_melee=melee)


def _artillery(row: Mapping[str, Any], where: str) -> dict:
    fields = _unit(row, where)
    for key in USUAL_ART_F:
        fields[key] = _firepower(row, key, where, "DX-7.2")
    fields["horse"] = _flag(row, "horse", where, "DX-7.2")
    return fields


def _firepower(row: Mapping[str, Any], key: str, where: str, rule: str) -> int:
    """DX-7.2: a firepower is F1, F2 or F3 (digest section 10): a whole number 1..3 and nothing else."""
    f = row.get(key)
    if type(f) is not int or not F_RANGE[0] <= f <= F_RANGE[1]:
        raise RuleError(rule, f"{where}: {key} is F{F_RANGE[0]} to F{F_RANGE[1]} (a whole number), not {quote(f)}")
    return f


def _leader(row: Mapping[str, Any], where: str) -> dict:
    ratings = {}
    for key in ("attack", "defense"):
        ratings[key] = _whole(row.get(key), f"{where}: {key} command", "DX-11.1b")
        if not 0 <= ratings[key] <= MAX_RATING:
            raise RuleError("DX-11.1b", f"{where}: the {key} command is 0 to {MAX_RATING}")
    bonus = _count(row, "stack_bonus", where, "DX-11.2")
    if bonus not in STACK_BONUS:
        raise RuleError("DX-11.2", f"{where}: the stack bonus is +0, +1 or +2")
    rank = _text(row.get("rank")).lower()
    if rank not in RANKS:
        raise RuleError("DX-13.7", f"{where}: rank is one of {', '.join(RANKS)}")
    wing = _names(row.get("wing_corps"), where)
    if (rank == "wing") != bool(wing) or (wing and len(wing) != 3):
        raise RuleError("DX-13.7", f"{where}: a wing commander (and only one) lists the 3 corps printed on it")
    return dict(attack=ratings["attack"], defense=ratings["defense"], stack_bonus=bonus, rank=rank,
                wing_corps=wing)


def _terrain(row: Mapping[str, Any], where: str) -> dict:
    text = "".join(_names(row.get("codes"), where, "codes", "DX-3.3"))
    codes = tuple(dict.fromkeys(c.upper() for c in re.findall(r"[A-Za-z0-9]", text)))
    if not codes or not set(codes) <= set(TERRAIN_CODES):
        raise RuleError("DX-3.3", f"{where}: a terrain card is printed with its position code(s), L, C or R")
    return dict(codes=codes, kind=_text(row.get("kind")),
                modifiers=_modifiers(row.get("modifiers"), TERRAIN_SIDES, where, "DX-10.3"),
                text=_text(row.get("text")))


def _special(row: Mapping[str, Any], where: str) -> dict:
    timing = _text(row.get("timing") or "own").lower()
    if timing not in SPECIAL_TIMING:
        raise RuleError("DX-12.0", f"{where}: a special is played in your own turn or the enemy's")
    bonus = _count(row, "stack_bonus", where, "DX-12.0")
    if bonus not in STACK_BONUS:
        raise RuleError("DX-12.0", f"{where}: the stack bonus is +0, +1 or +2")
    return dict(text=_text(row.get("text")), timing=timing, stack_bonus=bonus, lasting=_flag(row, "lasting", where,
                "DX-12.0"), modifiers=_modifiers(row.get("modifiers"), SPECIAL_SIDES, where, "DX-12.0"))


OWN_FIELDS = {"id", "number", "side", "type", "name", "pile", "bp", "day", "corps", "division"}
TYPE_FIELDS = {
    **{t: {"cv", "morale", "morale_modifier", "fp_melee"} for t in UNITS},
    ART: {"cv", "morale", "morale_modifier", "fp_melee", "fp_long", "fp_short", "horse"},
    LDR: {"attack", "defense", "stack_bonus", "rank", "wing_corps"},
    TER: {"codes", "kind", "modifiers", "text"},
    SPC: {"text", "timing", "stack_bonus", "modifiers", "lasting"},
}
FIELDS = OWN_FIELDS | set().union(*TYPE_FIELDS.values())


def parse_modifiers(text: str) -> list[dict]:
    """'holder morale +1; both enfilade_in_cv -1' as modifier rows."""
    rows = []
    for part in (p.strip() for p in (text or "").split(";")):
        if not part:
            continue
        words = part.split()
        if len(words) != 3 or not re.fullmatch(r"[+-]?\d{1,9}", words[2]):
            raise RuleError("DX-10.3", f"{quote(part)} is not 'side what value', e.g. 'holder morale +1'")
        rows.append({"side": words[0].lower(), "what": words[1].lower(), "value": int(words[2])})
    return rows


def _modifiers(value: Any, sides: tuple[str, ...], where: str, rule: str) -> tuple[Modifier, ...]:
    if not isinstance(value, (str, list, tuple)) and value is not None:
        raise RuleError(rule, f"{where}: the modifiers are a list or a text 'side what value; ...', not {quote(value)}")
    rows = parse_modifiers(value) if isinstance(value, str) else list(value or ())
    result = []
    for item in rows:
        if not isinstance(item, Mapping):
            raise RuleError(rule, f"{where}: a modifier is side, what and value")
        side, what = _text(item.get("side")).lower(), _text(item.get("what")).lower()
        if side not in sides:
            raise RuleError(rule, f"{where}: a modifier serves {', '.join(sides)}, not {quote(item.get('side'))}")
        if what not in MODIFIER_KINDS:
            raise RuleError(rule, f"{where}: a modifier changes {', '.join(MODIFIER_KINDS)}, not {quote(item.get('what'))}")
        result.append(Modifier(side, what, _whole(item.get("value"), f"{where}: modifier value", rule)))
    return tuple(result)


def _names(value: Any, where: str = "", key: str = "wing_corps", rule: str = "DX-13.7") -> tuple[str, ...]:
    """A list written as text ("I, XI, III") or as a list."""
    if not isinstance(value, (str, list, tuple)) and value is not None:
        raise RuleError(rule, f"{where}: '{key}' is a list, not {quote(value)}")
    items = re.split(r"[,;\s]+", value) if isinstance(value, str) else list(value or ())
    return tuple(str(v).strip() for v in items if str(v).strip())


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else "" if value is None else str(value).strip()


def _flag(row: Mapping[str, Any], key: str, where: str, rule: str) -> bool:
    value = row.get(key, False)
    if value in (None, ""):
        return False
    if not isinstance(value, bool):
        raise RuleError(rule, f"{where}: '{key}' is yes or no, not {quote(value)}")
    return value


def _count(row: Mapping[str, Any], key: str, where: str, rule: str) -> int:
    value = row.get(key)
    if value in (None, ""):
        return 0
    number = _whole(value, f"{where}: {key}", rule)
    if number < 0:
        raise RuleError(rule, f"{where}: {key} is 0 or more")
    return number


def _whole(value: Any, what: str, rule: str) -> int:
    if isinstance(value, bool):
        raise RuleError(rule, f"{what} must be a whole number")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise RuleError(rule, f"{what} must be a whole number, not {quote(value)}") from None
    if not math.isfinite(number) or number != int(number):
        raise RuleError(rule, f"{what} must be a whole number, not {quote(value)}")
    return int(number)


# --- decks --------------------------------------------------------------------------------------------

def mode(options: Mapping[str, Any]) -> str:
    """The deck and draw table to use: historical (14.0), extended (13.8) or basic."""
    return "historical" if options["historical"] else "extended" if options["extended_line"] else "basic"


def width(options: Mapping[str, Any]) -> int:
    """Positions per line: 3, or 5 with the extended line (DX-13.8)."""
    return 5 if options["extended_line"] else 3


def check_decks(specs: tuple[CardSpec, ...], options: Mapping[str, Any]) -> None:
    """DX-2.0/2.1/2.2, DX-13.8, DX-13.9, DX-14.0: each side's battle deck and how it was dealt."""
    if options["historical"] and (options["extended_line"] or options["custom_decks"]):
        raise RuleError("DX-14.0", "The historical battle has its own decks on the 3-position line: "
                                   "switch off the extended line and custom decks")
    how = mode(options)
    for side in SIDES:
        deck = [s for s in specs if s.side == side]
        numbers = [s.number for s in deck if s.type != SPC]
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        if twice:
            raise RuleError("DX-2.1", f"{side}: card number {twice[0]} is in the battle deck twice "
                                      "(only specials may repeat)")
        if options["custom_decks"]:
            budget = BP_BUDGET[width(options)][side]
            total = sum(s.bp for s in deck)
            if total > budget:
                raise RuleError("DX-13.9", f"{side}: the deck is {total} BP, over the {budget} BP budget")
            if not deck:
                raise RuleError("DX-13.9", f"{side}: the battle deck is empty")
        elif len(deck) != DECK_SIZE[how][side]:
            rule = {"basic": "DX-2.0", "extended": "DX-13.8", "historical": "DX-14.0"}[how]
            raise RuleError(rule, f"{side}: the battle deck is {DECK_SIZE[how][side]} cards, not {len(deck)}")
        _check_piles(side, deck, options)


def _check_piles(side: str, deck: list[CardSpec], options: Mapping[str, Any]) -> None:
    how = mode(options)
    piles = {p: [s for s in deck if s.pile == p] for p in PILES}
    muster = min(MUSTER[how], len(deck))
    if len(piles["muster"]) != muster:
        raise RuleError("DX-2.2", f"{side}: the muster is {muster} cards, not {len(piles['muster'])}")
    if how == "historical":
        first_day = DAY_FLOW[1][side][1]
        if len(piles["reinforcements"]) != first_day:
            raise RuleError("DX-14.0", f"{side}: day 1 has {first_day} reinforcement cards, "
                                       f"not {len(piles['reinforcements'])}")
        if options["day1_cards_only"]:
            unmarked = [s.id for s in piles["muster"] + piles["reinforcements"] if s.day != 1]
            if unmarked:
                raise RuleError("DX-14.0", f"{side}: day-1 muster and reinforcements are cards marked (1); "
                                           f"{unmarked[0]} is not")
    elif piles["deck"]:
        raise RuleError("DX-2.2", f"{side}: outside the historical battle every card is in the muster or "
                                  "the reinforcement deck")


def deck_warnings(specs: tuple[CardSpec, ...]) -> list[str]:
    """What is legal but worth a second look (digest section 10)."""
    warnings = []
    for s in specs:
        if s.type == ART:
            odd = [key for key, usual in USUAL_ART_F.items() if getattr(s, key) not in usual]
            if odd:
                warnings.append(f"{s.label}: {', '.join(f'{k} F{getattr(s, k)}' for k in odd)} is unusual "
                                "(long F1/F2, short F2/F3).")
    beyond = [s.id for s in specs if s.number > CARD_NUMBERS]
    if beyond:
        warnings.append(f"{len(beyond)} card(s) numbered past {CARD_NUMBERS} ({beyond[0]} ...): the series numbers "
                        f"its cards 1 to {CARD_NUMBERS}.")
    horse = [s for s in specs if s.horse]
    if len(horse) > HORSE_ARTILLERY:
        warnings.append(f"{len(horse)} cards are horse artillery; the set has {HORSE_ARTILLERY}.")
    numbers = [s.number for s in specs if s.type != SPC]
    shared = sorted({n for n in numbers if numbers.count(n) > 1})
    if shared:
        warnings.append(f"Card number(s) {', '.join(map(str, shared))} appear on both sides.")
    return warnings
