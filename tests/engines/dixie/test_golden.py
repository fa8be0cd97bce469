"""Golden transcript: deployment and two scripted turns with the fictional example deck, the event log rendered
as text (DX-3.2, DX-5.0)."""
from __future__ import annotations

from pathlib import Path

import pytest

from engines.dixie.example import example_cards
from tests.engines.dixie.support import Table
from tests.engines.table import transcript_line

GOLDEN = Path(__file__).parent / "golden" / "example_turns_1_2.txt"

DEPLOYMENT = {
    "CSA-904": "CSA-L", "CSA-905": "CSA-L", "CSA-915": "CSA-L", "CSA-917": "CSA-L",
    "CSA-906": "CSA-C", "CSA-907": "CSA-C", "CSA-901": "CSA-C",
    "CSA-908": "CSA-R", "CSA-909": "CSA-R", "CSA-918": "CSA-R",
    "USA-954": "USA-R", "USA-955": "USA-R", "USA-968": "USA-R",
    "USA-956": "USA-C", "USA-957": "USA-C", "USA-965": "USA-C", "USA-967": "USA-C", "USA-952": "USA-C",
    "USA-959": "USA-L", "USA-960": "USA-L", "USA-951": "USA-L",
}

# (action, dice, parameters) after deployment: CSA turn 1, USA turn 2.
SCRIPT = (
    ("end_morale", (), {}),
    ("fire", (1, 6), {"firers": ["CSA-915"], "target": "USA-R"}),
    ("allocate_hits", (), {}),
    ("end_combat", (), {}),
    ("move", (), {"card": "CSA-908", "to": "USA-L"}),
    ("move", (), {"card": "CSA-909", "to": "USA-L"}),
    ("end_movement", (), {}),
    ("reinforce", (), {"cards": ["CSA-919"]}),
    ("morale_step", (4,), {}),
    ("end_morale", (), {}),
    ("fire", (2, 6, 5), {"firers": ["USA-959"], "target": "USA-L"}),
    ("allocate_hits", (), {}),
    ("fire", (3, 1), {"firers": ["USA-960"], "target": "USA-L"}),
    ("allocate_hits", (), {"cards": ["CSA-909"]}),
    ("end_combat", (), {}),
    ("move", (), {"card": "USA-961", "to": "USA-R"}),
    ("move", (), {"card": "USA-953", "to": "USA-R"}),
    ("end_movement", (), {}),
    ("reinforce", (), {"cards": ["USA-969", "USA-970"]}),
)


def transcript() -> str:
    """The event log of the deployment and SCRIPT: one line per event with its rule IDs and dice."""
    table = Table(example_cards(), custom_decks=False)
    table.deploy(DEPLOYMENT)
    for kind, faces, params in SCRIPT:
        table.do(kind, *faces, **params)
    return "".join(transcript_line(event) + "\n" for event in table.events)


@pytest.mark.rule("DX-5.0", "DX-3.2", "DX-7.3", "DX-8.1", "DX-9.0")
def test_golden_turns():
    """DX-5.0: deployment, then a CSA turn (long-range fire with terrain, hits placed, an advance, a draw) and a
    USA turn (the morale check of its hit card, fire in the engaged position, moves, two draws), as the log
    tells them; face-down cards are never named."""
    assert transcript() == GOLDEN.read_text(encoding="utf-8")
