"""Golden transcript: a scripted 3-player session on the example (fictional) cards, its event log rendered as
text (GC-4): setup, an order roll, a sortie and its battle, a plot and its counter-plot, cards, end checks."""
from __future__ import annotations

from pathlib import Path

import pytest

from engines.galactic_chess.example import example_setup
from tests.engines.galactic_chess.support import Table
from tests.engines.table import transcript_line

GOLDEN = Path(__file__).parent / "golden" / "three_players.txt"

# (action, dice, parameters)
SCRIPT = (
    ("deal_hand", (), {"player": "Ann", "cards": ["Demo Marshal Aurum", "Demo Admiral Basalt", "Demo Admiral Cobalt",
                                                 "Demo Lancer Flint", "Demo Event: Turncoat", "Demo Count Ember"]}),
    ("deal_hand", (), {"player": "Ben", "cards": ["Demo Marshal Garnet", "Demo Admiral Harbor", "Demo Trooper Lynx",
                                                 "Demo Senator Kestrel", "Demo Support: Flanking Fire",
                                                 "Demo Event: Rumours"]}),
    ("deal_hand", (), {"player": "Cat", "cards": ["Demo Governor Mica", "Demo Admiral Indigo", "Demo Commodore Jade",
                                                 "Demo Commodore Dune", "Demo Admiral Opal", "Demo Admiral Nickel"]}),
    ("place", (), {"player": "Ann", "cards": ["Demo Marshal Aurum", "Demo Admiral Basalt", "Demo Admiral Cobalt",
                                             "Demo Lancer Flint", "Demo Count Ember"]}),
    ("place", (), {"player": "Ben", "cards": ["Demo Marshal Garnet", "Demo Admiral Harbor", "Demo Trooper Lynx",
                                             "Demo Senator Kestrel"]}),
    ("place", (), {"player": "Cat", "cards": ["Demo Governor Mica", "Demo Admiral Indigo", "Demo Commodore Jade",
                                             "Demo Commodore Dune"]}),
    ("roll_order", (5,), {}),
    ("sortie", (), {"camp": "EMP", "defender": "FPA"}),
    ("declare", (), {"fleets": ["Demo Marshal Aurum", "Demo Admiral Basalt"], "others": ["Demo Lancer Flint"]}),
    ("declare", (), {"fleets": ["Demo Commodore Dune"]}),
    ("nominate", (), {"player": "Ben"}),
    ("declare", (), {"fleets": ["Demo Marshal Garnet", "Demo Admiral Harbor"], "others": ["Demo Trooper Lynx"]}),
    ("declare", (), {"fleets": ["Demo Commodore Jade"]}),
    ("roll_off", (3, 3), {}),
    ("roll_off", (5, 2), {}),
    ("engage", (4, 3, 1, 2), {"actor": "Demo Marshal Aurum", "target": "Demo Marshal Garnet"}),
    ("engage", (3, 3, 6, 6), {"actor": "Demo Admiral Harbor", "target": "Demo Admiral Basalt",
                              "support": "Demo Support: Flanking Fire", "support_for": "actor", "modifier": 1}),
    ("engage", (5, 5, 1, 1), {"actor": "Demo Commodore Dune", "target": "Demo Commodore Jade"}),
    ("retreat", (6, 5), {"actor": "Demo Trooper Lynx"}),
    ("free_attack", (4, 4), {"shooter": "Demo Marshal Aurum"}),
    ("end_turn", (), {}),
    ("roll_order", (2,), {}),
    ("draw", (), {"card": "Demo Event: Sibling Strife", "prerequisite_met": False}),
    ("plot", (1, 2), {"plotter": "Demo Senator Kestrel", "target": "Demo Admiral Indigo"}),
    ("end_turn", (), {}),
    ("roll_order", (4,), {}),
    ("draw", (), {"card": "Demo Event: Long March"}),
    ("use_card", (), {"card": "Demo Admiral Opal"}),
    ("end_turn", (), {}),
    ("trigger_set_aside", (), {"card": "Demo Event: Sibling Strife"}),
    ("roll_order", (1,), {}),
    ("draw", (), {"card": "Demo Event: Total War"}),
    ("end_action", (), {}),
    ("end_turn", (), {}),
)


def transcript() -> str:
    table = Table(example_setup())
    for kind, faces, params in SCRIPT:
        table.do(kind, *faces, **params)
    return "".join(transcript_line(event) + "\n" for event in table.events)


@pytest.mark.rule("GC-4", "GC-3", "GC-6B", "GC-6A")
def test_golden_three_player_session():
    """GC-4: setup, the order roll, a sortie with a roll-off, duels (one with a support card), a retreat and its
    free attack, VP and the bonus, the end check; a forced event set aside and resolved later (a civil war that
    ends at once), a plot, a card used; as the log tells them."""
    assert transcript() == GOLDEN.read_text(encoding="utf-8")
