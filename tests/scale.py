"""How much the property tests try: the CI profile's numbers, or ten times as many under `make fuzz`.

`make test` selects the hypothesis profile "ci" (derandomized: a red run is reproduced by running it again);
`make fuzz` selects "fuzz" (random seeds, printed so a failure can be replayed) through HYPOTHESIS_PROFILE.
"""
from __future__ import annotations

import os

FUZZ = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"


def examples(n: int) -> int:
    """n examples (or whole games) in CI, ten times n under the fuzz profile."""
    return n * 10 if FUZZ else n
