"""Galactic Chess Game: the game state (digest section 2) as frozen dataclasses.

Every card is in exactly one place: a period deck, a hand, a draft packet, a secret placement, in
play (a person in a clique), the discard pile, the destroyed pile or set aside (a forced event waiting
for its prerequisite). Hands are private: `known_to` is the game as one seat may know it (the forms of that
seat's device offer only what it holds), `player_view` one player's view with the other hands as counts.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any, Mapping

from companion.engine import RuleError
from companion.loading import LoadRefused, check_plain
from companion.quoting import quote
from companion.records import from_data, to_data

from .battle import BattleUnit, Field
from .cards import LIMITS, EventCard, FortressCard, Person, cards_from_rows, fortress_from_row
from .rules import (
    ALLIANCE,
    EMPIRE,
    FORTRESS_START,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NATION,
    PEACE,
    PERIODS,
)

DEAL, DRAFT, PLACE, ORDER, ACTION, CARD, BATTLE, END, TIE, OVER = (
    "deal", "draft", "place", "order", "action", "card", "battle", "end", "tie", "over")
PHASE_NAMES = {DEAL: "the deal", DRAFT: "the draft", PLACE: "opening placement", ORDER: "order roll",
               ACTION: "action", CARD: "card or plot", BATTLE: "battle", END: "end check",
               TIE: "ceasefire roll-off", OVER: "game over"}


@dataclass(frozen=True)
class Placed:
    """A person in play: one of its owner's clique in its camp (digest glossary)."""

    card: str
    owner: str
    camp: str
    absent: bool = False      # Inquiry: absent from battles (GC-11)


@dataclass(frozen=True)
class Fortress:
    """Iserlohn: the card's values, the controlling camp, the commander and the other garrison fleets."""

    card: FortressCard
    controller: str = FORTRESS_START
    commander: str = ""
    garrison: tuple[str, ...] = ()    # the fleets besides the commander (GC-7.21: 3 at most with him)

    @property
    def posted(self) -> tuple[str, ...]:
        return ((self.commander,) if self.commander else ()) + self.garrison


@dataclass(frozen=True)
class OrderRoll:
    raw: int
    modified: int
    size: str
    forced: bool
    by_card: str = ""         # an event ordered this sortie (Amritsar)


@dataclass(frozen=True)
class CounterPlot:
    """A failed plot waiting for the target's counter-plot (GC-6A.33a)."""

    plotter: str
    target: str


@dataclass(frozen=True)
class Declaration:
    player: str
    units: tuple[str, ...]
    fortress: bool = False


@dataclass(frozen=True)
class Pending:
    """A throw that waits on an earlier one: the strike back of a duel, the free attack after a failed retreat,
    the strikes of the Double-Headed Snake's extra attackers (GC-11)."""

    kind: str                 # "strike_back", "free_attack" or "extra_attack"
    actor: int
    target: int = -1          # the duel's target
    modifier: int = 0         # a battle-support card already named for this roll
    extra: tuple[int, ...] = ()   # the extra attackers still to strike, in order


@dataclass(frozen=True)
class Sortie:
    """A battle (GC-6B): allocation round the table, then the engagement loop."""

    attacker: str             # the attacking camp
    defender: str             # the defending camp
    size: int                 # fleets each side may commit
    civil_war: bool
    stage: str = "attack"     # attack -> nominate -> defence -> fight
    declarer: int = -1        # the seat to declare next
    first_defender: int = -1
    declarations: tuple[tuple[Declaration, ...], tuple[Declaration, ...]] = ((), ())
    units: tuple[BattleUnit, ...] = ()
    field: Field = Field(())
    deemed: int = 0           # commander/garrison fleets that did not sortie with the fortress
    pending: Pending | None = None
    support: tuple[int, ...] = ()   # the sides that used a battle-support card this engagement
    begun: bool = False       # the first opportunity (or roll-off) has been taken: "before the battle" is past


@dataclass(frozen=True)
class Outcome:
    """The end of the game (GC-9.0, GC-9.2)."""

    camps: tuple[str, ...]    # the winning camp, or the camps of a reunited nation
    rule: str
    reason: str
    scores: Mapping[str, int] = field(default_factory=dict)
    stars: Mapping[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameState:
    options: Mapping[str, Any]
    players: tuple[str, ...]
    persons: tuple[Person, ...]
    events: tuple[EventCard, ...]
    fortress: Fortress
    decks: tuple[tuple[str, ...], ...]
    hands: tuple[tuple[str, ...], ...]
    first: int = 0
    phase: str = DEAL
    turn: int = 1
    active: int = 0
    in_play: tuple[Placed, ...] = ()
    discard: tuple[str, ...] = ()
    destroyed: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()
    packets: tuple[tuple[str, ...], ...] = ()     # GC-12: the draft packet in front of each seat
    placing: tuple[tuple[str, ...], ...] = ()      # GC-3: secret placements, revealed together
    done: tuple[bool, ...] = ()                    # per seat: has dealt / picked / placed in this setup step
    order: OrderRoll | None = None
    drew: bool = False
    card_used: bool = False
    plotted: bool = False
    counter: CounterPlot | None = None
    sortie: Sortie | None = None
    vp: Mapping[str, Mapping[str, int]] = field(default_factory=dict)   # player -> camp -> VP
    ragnarok: bool = False
    invasion: int = 0                              # the Invasion's fixed size while it is active
    civil_war: Mapping[str, str] = field(default_factory=lambda: {EMPIRE: PEACE, ALLIANCE: PEACE})
    war_winner: Mapping[str, str] = field(default_factory=dict)   # GC-8.3: nation -> the camp that won its war
    ceasefire_by: str = ""
    last_turn: str = ""                            # GC-9.13: the player who takes the last turn
    reinhard_down: str = ""                        # "" / the destroying camp / "plot" / "event"
    tie: tuple[str, ...] = ()                      # GC-9.13r: camps rolling off
    outcome: Outcome | None = None                 # the end (camps empty while a roll-off is due)

    # --- cards ----------------------------------------------------------------------------------------
    @cached_property
    def _cards(self) -> dict[str, Person | EventCard]:
        return {c.name: c for c in self.persons + self.events}

    def person(self, name: str) -> Person:
        card = self._cards.get(name) if isinstance(name, str) else None
        if not isinstance(card, Person):
            raise RuleError("GC-3", f"There is no person card {quote(name)}")
        return card

    def event(self, name: str) -> EventCard:
        card = self._cards.get(name) if isinstance(name, str) else None
        if not isinstance(card, EventCard):
            raise RuleError("GC-11", f"There is no event card {quote(name)}")
        return card

    def is_person(self, name: str) -> bool:
        return isinstance(self._cards.get(name) if isinstance(name, str) else None, Person)

    def card_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.persons) + tuple(e.name for e in self.events)

    # --- players ----------------------------------------------------------------------------------
    @property
    def player(self) -> str:
        """The active player."""
        return self.players[self.active]

    def seat(self, player: Any) -> int:
        if isinstance(player, str) and player in self.players:
            return self.players.index(player)
        raise RuleError("GC-3", f"There is no player {quote(player)}: the players are {', '.join(self.players)}")

    def left_of(self, seat: int) -> int:
        """The next seat clockwise: the turn passes to the left (GC-4)."""
        return (seat + 1) % len(self.players)

    def right_of(self, seat: int) -> int:
        return (seat - 1) % len(self.players)

    def hand(self, player: str) -> tuple[str, ...]:
        return self.hands[self.seat(player)]

    def holder(self, card: str) -> str:
        """The player whose hand holds the card, or ""."""
        return next((p for p, h in zip(self.players, self.hands) if card in h), "")

    # --- persons in play ----------------------------------------------------------------------------
    def placed(self, name: str) -> Placed | None:
        return next((p for p in self.in_play if p.card == name), None)

    def in_camp(self, camp: str, owner: str | None = None) -> list[Placed]:
        return [p for p in self.in_play if p.camp == camp and owner in (None, p.owner)]

    def nation_of(self, name: str) -> str:
        """A person's nation in play: by its camp now (a defector counts in his new camp)."""
        return NATION[self.placed(name).camp]

    def with_placed(self, placed: Placed) -> GameState:
        return replace(self, in_play=tuple(placed if p.card == placed.card else p for p in self.in_play))

    def vp_of(self, player: str, camp: str) -> int:
        return self.vp.get(player, {}).get(camp, 0)

    def to_dict(self) -> dict:
        """The state as JSON data (companion.records), the long parts the quick way: the entered cards, which never
        change in a game, and the card names in each pile."""
        piles = {name: [list(p) for p in getattr(self, name)] for name in ("decks", "hands", "packets", "placing")}
        piles.update({name: list(getattr(self, name)) for name in ("discard", "destroyed", "aside")})
        data = to_data(replace(self, persons=(), events=(), **{name: () for name in piles}))
        data.update(piles, persons=json.loads(_cards_json(self.persons)), events=json.loads(_cards_json(self.events)))
        return data


@lru_cache(maxsize=16)
def _cards_json(cards: tuple) -> str:
    """The entered cards as JSON text, worked out once per card set: they never change in a game."""
    return json.dumps(to_data(cards))


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    return from_data(GameState, data)


def check_players(players: Any) -> tuple[str, ...]:
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RuleError("GC-3", "Name the players in their seats, clockwise")
    names = tuple(p.strip() for p in players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError("GC-3", f"The game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if len(set(names)) != len(names):
        raise RuleError("GC-3", "Each player needs a different name")
    return names


def new_state(options: Mapping[str, Any], setup: Mapping[str, Any]) -> GameState:
    """GC-3: the cards entered from the players' sheets, shuffled into their period decks (GC-3.1), and the
    players seated clockwise; the deal (or the draft, GC-12) comes next."""
    try:
        check_plain(setup, "The setup", LIMITS)
    except LoadRefused as exc:
        raise RuleError("GC-3", str(exc)) from None
    if not isinstance(setup, Mapping):
        raise RuleError("GC-3", "The setup names the players and the cards")
    players = check_players(setup.get("players"))
    persons, events = cards_from_rows(setup.get("persons", []), setup.get("events", []))
    first = setup.get("first_player", players[0])
    if first not in players:
        raise RuleError("GC-3", f"The first player {quote(first)} is not one of the players")
    decks = tuple(tuple(c.name for c in persons + events if c.period == period) for period in PERIODS)
    n = len(players)
    return GameState(options=dict(options), players=players, persons=persons, events=events,
                     fortress=Fortress(fortress_from_row(setup.get("fortress"))), decks=decks,
                     hands=((),) * n, first=players.index(first), active=players.index(first), done=(False,) * n)


# --- card conservation -----------------------------------------------------------------------------

def places(state: GameState) -> dict[str, list[str]]:
    """Where each card is: every place that holds it (exactly one when the state is sound)."""
    where: dict[str, list[str]] = {name: [] for name in state.card_names()}
    spots = [(f"deck {p}", d) for p, d in zip(PERIODS, state.decks)]
    spots += [(f"hand of {p}", h) for p, h in zip(state.players, state.hands)]
    spots += [(f"draft packet before {p}", k) for p, k in zip(state.players, state.packets)]
    spots += [(f"placement of {p}", k) for p, k in zip(state.players, state.placing)]
    spots += [("in play", tuple(p.card for p in state.in_play)), ("discard", state.discard),
              ("destroyed", state.destroyed), ("set aside", state.aside)]
    for place, cards in spots:
        for card in cards:
            where.setdefault(card, []).append(place)
    return where


def misplaced(state: GameState) -> dict[str, list[str]]:
    """The cards not in exactly one place (empty when every card is accounted for)."""
    return {card: spots for card, spots in places(state).items() if len(spots) != 1}


# --- views ----------------------------------------------------------------------------------------

def public_view(state: GameState) -> dict:
    """What every player sees: hands, decks, draft packets and secret placements as counts only."""
    data = state.to_dict()
    data["hands"] = [len(h) for h in state.hands]
    data["decks"] = [len(d) for d in state.decks]
    data["packets"] = [len(k) for k in state.packets]
    data["placing"] = [len(k) for k in state.placing]
    return data


def player_view(state: GameState, player: str) -> dict:
    """One player's view: the public view plus that player's own hand, packet and placement."""
    seat = state.seat(player)
    data = public_view(state)
    data["own_hand"] = list(state.hands[seat])
    if state.packets:
        data["own_packet"] = list(state.packets[seat])
    if state.placing:
        data["own_placing"] = list(state.placing[seat])
    return data


def known_to(state: GameState, viewer: str) -> GameState:
    """The game as `viewer` (a player, or "" for the table) may know it (digest section 2): the other players'
    hands, draft packets and secret placements are face down, so their cards are put back into the decks of their
    periods, in the deck's own order, where they cannot be told from the cards not dealt yet; a spent deck stays
    empty (the decks' sizes are public), and the hidden cards of its period are in no place the viewer sees. The
    viewer's own cards and every public place are as they are."""
    seat = state.players.index(viewer) if viewer in state.players else -1
    hidden = {c for name in ("hands", "packets", "placing") for i, pile in enumerate(getattr(state, name))
              if i != seat for c in pile}
    if not hidden:
        return state
    unknown = hidden.union(*state.decks)
    decks = tuple(tuple(c.name for c in state.persons + state.events if c.period == period and c.name in unknown)
                  if deck else () for period, deck in zip(PERIODS, state.decks))
    mine = {name: tuple(pile if i == seat else () for i, pile in enumerate(getattr(state, name)))
            for name in ("hands", "packets", "placing")}
    return replace(state, decks=decks, **mine)
