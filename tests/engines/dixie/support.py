"""Shared set-up for the Dixie tests: made-up test cards and a scripted table driven through the event log."""
from __future__ import annotations

from typing import Any

from engines.dixie import ENGINE
from engines.dixie.state import Card
from tests.engines.table import ReplayedTable


def unit(number: int, side: str, kind: str = "INF", cv: int = 3, morale: str = "B", pile: str = "muster",
         **fields: Any) -> dict:
    """A made-up unit card row (DX-1.0); artillery gets long F2 / short F3 unless given."""
    row = {"number": number, "side": side, "type": kind, "name": f"T{side[0]}{number}", "cv": cv, "morale": morale,
           "pile": pile, **fields}
    if kind == "ART":
        row.setdefault("fp_long", 2)
        row.setdefault("fp_short", 3)
    return row


def leader(number: int, side: str, attack: int = 1, defense: int = 1, stack_bonus: int = 0, rank: str = "corps",
           pile: str = "muster", **fields: Any) -> dict:
    return {"number": number, "side": side, "type": "LDR", "name": f"L{side[0]}{number}", "attack": attack,
            "defense": defense, "stack_bonus": stack_bonus, "rank": rank, "pile": pile, **fields}


def terrain(number: int, side: str, codes: str, modifiers: str = "", pile: str = "muster", **fields: Any) -> dict:
    return {"number": number, "side": side, "type": "TER", "name": f"Ter{side[0]}{number}", "codes": codes,
            "modifiers": modifiers, "pile": pile, **fields}


def special(number: int, side: str, timing: str = "own", pile: str = "muster", **fields: Any) -> dict:
    return {"number": number, "side": side, "type": "SPC", "name": f"S{side[0]}{number}", "timing": timing,
            "pile": pile, **fields}


def card_id(side: str, number: int) -> str:
    return f"{side}-{number}"


SPARE = 97  # the first number of the spare units a small deck gets


def spares(cards) -> list[dict]:
    """Two plain units a side in the muster for a small deck with fewer units: they wait in the reserve, so that
    either side could still occupy two positions and the battle is not over from the start (DX-4.0)."""
    rows = []
    for side in ("CSA", "USA"):
        units = [c for c in cards if c["side"] == side and c["type"] in ("INF", "CAV", "ART")]
        rows += [unit(SPARE + i, side, cv=1) for i in range(max(0, 2 - len(units)))]
    return rows


class Table(ReplayedTable):
    """A game session replayed from its event log, with the dice of every action scripted. Small decks are
    played as custom decks (DX-13.9) unless `custom_decks=False` is given, with `spares` where a side has fewer
    than two units."""

    engine = ENGINE

    def __init__(self, cards, **options: Any):
        options.setdefault("custom_decks", True)
        cards = [dict(c) for c in cards]
        if options["custom_decks"]:
            cards += spares(cards)
        super().__init__({"cards": cards}, **options)

    def card(self, card: str) -> Card:
        return self.state.card(card)

    def deploy(self, placements: dict[str, str]) -> None:
        """card id -> position, then the battle starts (DX-3.2)."""
        for card, pos in placements.items():
            self.do("deploy", card=card, position=pos)
        self.do("start_battle")

    def to_step(self, step: str) -> None:
        """End steps with nothing due until the given step of the active side."""
        enders = {"morale": "end_morale", "combat": "end_combat", "movement": "end_movement",
                  "reinforcement": "reinforce"}
        while self.state.step != step:
            self.do(enders[self.state.step])

    def next_turn(self) -> None:
        """Pass the rest of this turn (no draws left in these small decks) to the next side's morale step."""
        self.to_step("reinforcement")
        self.do("reinforce")


def filler(side: str, start: int, count: int, muster: int | None = None, **fields: Any) -> list[dict]:
    """`count` plain 2B infantry rows numbered from `start`; the first `muster` (default all) in the muster."""
    muster = count if muster is None else muster
    return [unit(start + i, side, cv=2, pile="muster" if i < muster else "reinforcements", **fields)
            for i in range(count)]


def historical_decks(day1_marked: bool = True) -> list[dict]:
    """Made-up historical decks (DX-14.0): CSA 48, USA 60 plain units; 18 muster, 6 reinforcements, the rest
    still in the battle deck; the day-1 cards marked (1) unless asked otherwise."""
    def deck(side: str, first: int, total: int) -> list[dict]:
        return [unit(first + i, side, cv=2, pile="muster" if i < 18 else "reinforcements" if i < 24 else "deck",
                     day=1 if day1_marked and i < 24 else 0) for i in range(total)]
    return deck("CSA", 1, 48) + deck("USA", 101, 60)


def basic_decks() -> list[dict]:
    """Made-up basic-game decks (DX-2.0, DX-2.2): 24 CSA and 30 USA cards, 18-card musters."""
    return filler("CSA", 1, 24, 18) + filler("USA", 101, 30, 18)


def advanced(cards, placements: dict[str, str], advance, **options: Any) -> Table:
    """Deploy, then in CSA turn 1 the cards named in `advance` move from CSA-L across into USA-R; the table is
    left at the start of USA turn 2."""
    table = Table(cards, **options)
    table.deploy(placements)
    table.to_step("movement")
    for card in advance:
        table.do("move", card=card, to="USA-R")
    table.do("end_movement")
    table.do("reinforce")
    return table


# The sidebar of the source (digest vectors 7 and 9), built by a CSA turn 1 of advances; the table is left at
# the start of the USA combat step of turn 2:
#   USA-R: 3 USA INF, no enemy.       CSA-L: 2 ART (long F1, F2) + 1 INF + 1 terrain: full.
#   USA-C: USA INF, CAV, ART + terrain; CSA 2 INF, CAV + a leader: unit_limit(CSA) = 3.
#   CSA-C: CSA INF + ART, nothing to fire at.   USA-L: 3 CSA INF + a leader, held by the CSA, USA terrain.
#   CSA-R: 2 CSA INF.                 USA reserve: 1 INF.
SIDEBAR_CARDS = [
    unit(1, "CSA", "ART", cv=3, fp_long=1, fp_short=3), unit(2, "CSA", "ART", cv=2, fp_long=2, fp_short=2),
    unit(3, "CSA"), terrain(4, "CSA", "L"),
    unit(5, "CSA"), unit(6, "CSA"), unit(7, "CSA", "CAV", cv=2), leader(8, "CSA"),
    unit(9, "CSA", cv=2), unit(10, "CSA", "ART", cv=2),
    unit(11, "CSA"), unit(12, "CSA"), unit(13, "CSA"), leader(14, "CSA"), unit(15, "CSA"), unit(16, "CSA"),
    unit(21, "USA"), unit(22, "USA"), unit(23, "USA"),
    unit(24, "USA"), unit(25, "USA", "CAV", cv=2), unit(26, "USA", "ART", cv=2, fp_long=1, fp_short=2),
    terrain(27, "USA", "C"), terrain(28, "USA", "L", "holder morale +1"), unit(29, "USA"),
]
SIDEBAR_DEPLOYMENT = {
    "CSA-1": "CSA-L", "CSA-2": "CSA-L", "CSA-3": "CSA-L", "CSA-4": "CSA-L",
    "CSA-5": "CSA-C", "CSA-6": "CSA-C", "CSA-7": "CSA-C", "CSA-8": "CSA-C",
    "CSA-11": "CSA-R", "CSA-12": "CSA-R", "CSA-13": "CSA-R", "CSA-14": "CSA-R",
    "USA-21": "USA-R", "USA-22": "USA-R", "USA-23": "USA-R",
    "USA-24": "USA-C", "USA-25": "USA-C", "USA-26": "USA-C", "USA-27": "USA-C", "USA-28": "USA-L",
}
SIDEBAR_MOVES = (("CSA-5", "USA-C"), ("CSA-6", "USA-C"), ("CSA-7", "USA-C"), ("CSA-8", "USA-C"),
                 ("CSA-11", "USA-L"), ("CSA-12", "USA-L"), ("CSA-13", "USA-L"), ("CSA-14", "USA-L"),
                 ("CSA-9", "CSA-C"), ("CSA-10", "CSA-C"), ("CSA-15", "CSA-R"), ("CSA-16", "CSA-R"))


def sidebar(**options: Any) -> Table:
    options.setdefault("enfilade", True)
    table = Table(SIDEBAR_CARDS, **options)
    table.deploy(SIDEBAR_DEPLOYMENT)
    table.to_step("movement")
    for card, to in SIDEBAR_MOVES:
        table.do("move", card=card, to=to)
    table.do("end_movement")
    table.do("reinforce")
    table.to_step("combat")
    return table
