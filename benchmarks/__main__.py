"""`python -m benchmarks`: one line per benchmark, the toolkit's first, then each game's."""
from __future__ import annotations

import tempfile
from pathlib import Path

from . import bull_run, companion
from .harness import report


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        report([*companion.benchmarks(Path(folder)), *bull_run.benchmarks()])


if __name__ == "__main__":
    main()
