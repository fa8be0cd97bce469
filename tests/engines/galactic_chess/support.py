"""Shared set-up for the Galactic Chess tests: invented test cards (never the game's) and a table
driven through the event log with scripted dice."""
from __future__ import annotations

from typing import Any

from companion.engine import Step
from engines.galactic_chess import ENGINE
from engines.galactic_chess.battle import BattleUnit
from engines.galactic_chess.state import misplaced
from tests.engines.table import ReplayedTable

PLAYERS = ("Ann", "Ben", "Cat")
FORTRESS = {"strategy": 4, "attack": 4, "defence": 11}   # invented values


def person(name: str, camp: str, stars: int, s: int, a: int, d: int, plot: int | None = None, period: int = 1,
           **extra: Any) -> dict:
    """A test person card (invented)."""
    return {"name": name, "period": period, "camp": camp, "stars": stars, "strategy": s, "attack": a,
            "defence": d, "plot": plot, **extra}


def event(name: str, kind: str = "event", effect: str = "none", period: int = 1, **extra: Any) -> dict:
    return {"name": name, "period": period, "kind": kind, "effect": effect, **extra}


FILLERS = tuple(event(f"Filler {i:02d}") for i in range(1, 31))


def setup(persons, events=(), players=PLAYERS, fortress=FORTRESS, fillers: int = 18, **extra) -> dict:
    return {"players": list(players), "persons": [dict(p) for p in persons],
            "events": [dict(e) for e in events] + [dict(f) for f in FILLERS[:fillers]],
            "fortress": dict(fortress), **extra}


class Table(ReplayedTable):
    """A game session replayed from its event log, with the dice of every action scripted."""

    engine = ENGINE

    def do(self, kind: str, *faces: int, **params: Any) -> Step:
        """Perform one action with exactly these dice and log it; the cards stay in one place each."""
        step = super().do(kind, *faces, **params)
        assert not misplaced(self.state)
        return step

    def start(self, hands: dict[str, list[str]], placed: dict[str, list[str]] | None = None) -> None:
        """GC-3: deal each player the named cards (filled up to 6 from the fillers), place the named persons."""
        state = self.state
        spare = [c for c in state.decks[0] if c.startswith("Filler")]
        for player in state.players:
            own = list(hands.get(player, []))
            while len(own) < 6:
                own.append(spare.pop(0))
            self.do("deal_hand", player=player, cards=own)
        for player in state.players:
            self.do("place", player=player, cards=list((placed or hands).get(player, [])))

    def draw_filler(self) -> Step:
        """GC-6A.1: draw a filler card (an event without effect) from the current deck."""
        deck = next(d for d in self.state.decks if d)
        return self.do("draw", card=next((c for c in deck if c.startswith("Filler")), deck[0]))

    def quiet_turn(self, order: int = 1) -> None:
        """A turn that only draws: order roll (not a 6), a filler drawn, nothing more (a filler used from a hand
        of 7), the end check."""
        self.do("roll_order", order)
        self.draw_filler()
        hand = self.state.hands[self.state.active]
        if len(hand) > 6:
            self.do("use_card", card=next(c for c in hand if c.startswith("Filler")))
        else:
            self.do("end_action")
        self.do("end_turn")

    def next_turn_of(self, player: str) -> None:
        """Finish the turn under way (its end check) and play quiet turns until `player`'s order roll."""
        if self.state.phase == "end":
            self.do("end_turn")
        while self.state.player != player:
            self.quiet_turn()

    def unit(self, name: str) -> int:
        return next(i for i, u in enumerate(self.state.sortie.units) if u.name == name)

    def status(self, name: str) -> str:
        return self.state.sortie.field.status[self.unit(name)]

    def hand(self, player: str) -> tuple[str, ...]:
        return self.state.hand(player)


def unit(name: str, side: int, stars: int, s: int, a: int, d: int, declaration: int = 0, owner: str = "",
         camp: str = "", kind: str = "fleet", reinhard: bool = False) -> BattleUnit:
    """A battle unit for the battle-level tests (side 0 attacks for EMP, side 1 defends for FPA)."""
    return BattleUnit(name, side, owner or ("A" if side == 0 else "B"), camp or ("EMP" if side == 0 else "FPA"),
                      kind, stars, s, a, d, declaration, reinhard)
