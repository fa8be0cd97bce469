"""Dixie: Gettysburg: the game state (digest section 2) as frozen dataclasses.

Every card of both battle decks is a `Card` with exactly one location: the reserve, the reinforcement
deck, the rest of the battle deck (historical battle), a position, or eliminated. Hits, face-up and
the per-turn flags live on the card; what each side may see is `view.side_view`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cache, cached_property
from typing import Any, Callable, Mapping

from companion.engine import RuleError, resolve_options
from companion.records import from_data, to_data

from .board import DECK, REINFORCEMENTS, RESERVE, line_of, other, positions
from .cards import CardSpec, cards_from_rows, check_decks, width
from .options import OPTIONS
from .rules import CSA, LDR, TER

DEPLOY, MORALE, COMBAT, MOVEMENT, REINFORCEMENT, DUSK, NIGHT, OVER = (
    "deploy", "morale", "combat", "movement", "reinforcement", "dusk", "night", "over")
STEP_NAMES = {DEPLOY: "deployment", MORALE: "morale step", COMBAT: "combat step", MOVEMENT: "movement step",
              REINFORCEMENT: "reinforcement step", DUSK: "end of the day", NIGHT: "night", OVER: "game over"}
ATTACKING, DEFENDING = "attacking", "defending"
PILE_LOCATION = {"muster": RESERVE, "reinforcements": REINFORCEMENTS, "deck": DECK}


@dataclass(frozen=True)
class Card:
    """One card in play and where it is (digest section 2)."""

    spec: CardSpec
    loc: str
    face_up: bool = False
    hits: int = 0              # unit hits 0..CV (DX-7.3); leader hits, no cap (DX-11.3)
    melee_hits: int = 0        # of those, taken in the melee round under way in its position (DX-13.1, A21)
    decoy: bool = False        # placed face-down as a decoy (DX-13.6)
    fired: bool = False        # fired (or meleed) this turn (DX-7.0)
    moves: int = 0             # moves made this turn (DX-8.0, DX-8.3b)
    advanced: bool = False     # DX-8.1 this turn
    disengaged: bool = False   # DX-8.2 this turn
    flank: str = ""            # DX-13.3 this turn: "in" (came in, fires at once) or "failed" (done)
    expires: int = 0           # a special in play: the turn at whose end it is discarded (DX-12.0)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def side(self) -> str:
        return self.spec.side

    @property
    def is_unit(self) -> bool:
        return self.spec.is_unit and not self.decoy

    @cached_property
    def data(self) -> dict[str, Any]:
        """The card as plain JSON data (`GameState.to_dict`), worked out once: a card unchanged by an event is the
        same object in the next state."""
        return {"spec": _spec_data(self.spec), **{k: getattr(self, k) for k in CARD_STATE}}


def sees(card: Card, side: str) -> bool:
    """Digest section 2: a side sees its own cards, and the enemy's face-up ones (not the reserve, the decks or a
    face-down card; "" for the table sees the face-up cards only)."""
    return card.side == side or (card.face_up and not card.decoy)


def public(card: Card) -> str:
    """How the log names a card: by name when face-up, else only as a face-down card."""
    return card.spec.label if card.face_up and not card.decoy else f"a face-down {card.side} card"


def fault(check: Callable[..., Any], *args: Any) -> RuleError | None:
    """The refusal a check raises, or None."""
    try:
        check(*args)
    except RuleError as error:
        return error
    return None


def label(card: Card) -> str:
    """How a choice names one of the player's cards: name, values (3B, a leader's 2/1) and id."""
    s = card.spec
    value = f" {s.cv}{s.morale}" if s.is_unit else f" {s.attack}/{s.defense}" if s.type == LDR else ""
    return f"{s.name or s.type}{value} ({card.id})"


@dataclass(frozen=True)
class Task:
    """What must be done before play goes on: hits to place (DX-7.3), checks made at once (DX-13.1,
    DX-13.5), flank-attack fire (DX-13.3), or units that must disengage (DX-13.1, DX-14.0)."""

    kind: str                   # "allocate", "checks", "flank_fire", "withdraw"
    side: str                   # who acts
    position: str
    hits: int = 0
    decoys: bool = False        # allocate: decoys are in the levelling pool (DX-13.6, A14)
    cards: tuple[str, ...] = ()
    source: str = ""            # what caused it, for the log
    firer: str = ""             # allocate: the side whose fire it was


@dataclass(frozen=True)
class Melee:
    """A melee declared this combat step (DX-13.1)."""

    position: str
    initiator: str
    units: tuple[str, ...]      # the initiator's melee units (A8)
    rounds: int = 0
    stage: str = "roll"         # roll -> (checks) -> choice -> reply -> roll -> ... -> done


@dataclass(frozen=True)
class Victory:
    side: str       # "" when the battle ends with no winner
    reason: str
    rule: str

    @property
    def text(self) -> str:
        return f"{self.side} wins ({self.reason})" if self.side else f"no winner ({self.reason})"


@dataclass(frozen=True)
class GameState:
    options: Mapping[str, Any]
    cards: tuple[Card, ...]
    holder: Mapping[str, str]
    turn: int = 0
    active: str = CSA
    step: str = DEPLOY
    day: int = 1
    combat_at: tuple[str, ...] = ()      # DX-7.0: positions fought at this step; all but the last are finished
    melees: tuple[Melee, ...] = ()
    tasks: tuple[Task, ...] = ()
    specials_played: tuple[str, ...] = ()  # "position number" of specials played this phase (DX-12.0)
    night_done: tuple[str, ...] = ()     # DX-14.0: sides that made their night draw
    army_commander: Mapping[str, str] = field(default_factory=dict)  # side -> leader id (DX-13.7)
    captured: Mapping[str, str] = field(default_factory=dict)        # position -> side (A9 option)
    day_ending: bool = False             # DX-14.0: the USA drew its last reinforcement of the day
    victory: Victory | None = None

    # --- lookups --------------------------------------------------------------------------------------
    @cached_property
    def _memo(self) -> dict[Any, Any]:
        return {}

    def once(self, key: Any, make: Callable[[], Any]) -> Any:
        """What `make()` works out from this state, worked out once (the legal choices of the actions)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    @cached_property
    def _index(self) -> dict[str, int]:
        return {c.id: i for i, c in enumerate(self.cards)}

    @cached_property
    def _by_loc(self) -> dict[Any, list[Card]]:
        """The cards by location, and by (location, side); the units by (location, side, True)."""
        where: dict[Any, list[Card]] = {}
        for c in self.cards:
            where.setdefault(c.loc, []).append(c)
            where.setdefault((c.loc, c.side), []).append(c)
            if c.is_unit:
                where.setdefault((c.loc, c.side, True), []).append(c)
        return where

    @cached_property
    def width(self) -> int:
        return width(self.options)

    @cached_property
    def positions(self) -> tuple[str, ...]:
        return positions(self.width)

    def card(self, card_id: Any) -> Card:
        if not isinstance(card_id, str) or card_id not in self._index:
            raise RuleError("DX-1.0", f"There is no card '{card_id}'")
        return self.cards[self._index[card_id]]

    def at(self, loc: str, side: str | None = None) -> list[Card]:
        """The cards in a location (of one side), in deck order; the list is shared: copy it to change it."""
        return self._by_loc.get(loc if side is None else (loc, side), NONE)

    def units(self, pos: str, side: str) -> list[Card]:
        return self._by_loc.get((pos, side, True), NONE)

    def leader(self, pos: str, side: str) -> Card | None:
        """The side's leader in the position (a decoy leader commands nothing), DX-11.0b."""
        return next((c for c in self.at(pos, side) if c.spec.type == LDR and not c.decoy), None)

    def terrain(self, pos: str) -> list[Card]:
        """The terrain in effect in the position (decoys are not), DX-10.3."""
        return [c for c in self.at(pos) if c.spec.type == TER and not c.decoy]

    def engaged(self, pos: str) -> bool:
        """Both sides have at least one unit in the position (digest section 2)."""
        return bool(self.units(pos, CSA)) and bool(self.units(pos, other(CSA)))

    def enemy_cards(self, pos: str, side: str) -> list[Card]:
        return self.at(pos, other(side))

    def stance(self, side: str, pos: str) -> str:
        """DX-11.1b: defending where the side holds the position, else attacking. With A2 off, cards in an
        enemy-line position are attacking in all cases."""
        if not self.options["capture_flips_stance"] and line_of(pos) != side:
            return ATTACKING
        return DEFENDING if self.holder[pos] == side else ATTACKING

    def with_cards(self, *changed: Card) -> GameState:
        cards = list(self.cards)
        for c in changed:
            cards[self._index[c.id]] = c
        return replace(self, cards=tuple(cards))

    def to_dict(self) -> dict:
        """Plain JSON data; the printed fields of each card are converted once and shared."""
        data = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "cards":
                data[f.name] = [dict(c.data) for c in value]
            elif f.name in FLAT:
                data[f.name] = dict(value) if isinstance(value, dict) else list(value)
            else:
                data[f.name] = to_data(value)
        return data


@cache
def _spec_data(spec: CardSpec) -> dict:
    return to_data(spec)


NONE: list[Card] = []
CARD_STATE = tuple(f.name for f in fields(Card) if f.name != "spec")
FLAT = ("options", "holder", "army_commander", "captured", "combat_at", "specials_played", "night_done")  # plain values


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    return from_data(GameState, data)


def new_state(options: Mapping[str, Any], setup: Mapping[str, Any]) -> GameState:
    """DX-2.0-3.2: the battle decks are checked; muster cards start in the reserve for deployment, the rest in
    the reinforcement deck (and, in the historical battle, the rest of the battle deck). An option the session
    was saved without (one added since) takes the digest's default."""
    if not isinstance(setup, Mapping):
        raise RuleError("DX-2.0", "The setup is the list of cards of both battle decks")
    options = resolve_options(OPTIONS, options)
    specs = cards_from_rows(setup.get("cards"))
    check_decks(specs, options)
    cards = tuple(Card(s, PILE_LOCATION[s.pile]) for s in specs)
    holder = {p: line_of(p) for p in positions(width(options))}
    return GameState(options=dict(options), cards=cards, holder=holder)

