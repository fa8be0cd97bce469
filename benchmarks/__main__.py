"""`python -m benchmarks`: one line per benchmark, the toolkit's first, then each game's module
(`benchmarks/<slug>.py` with a `benchmarks()` function, found by its name being a game's slug), then the
pages in a real browser (`browser.py`; `python -m benchmarks.browser` runs those alone)."""
from __future__ import annotations

import tempfile
from importlib import import_module
from pathlib import Path

import engines

from . import browser, companion
from .harness import report


def main() -> None:
    here = Path(__file__).parent
    games = [import_module(f"benchmarks.{slug}") for slug in engines.GAMES if (here / f"{slug}.py").is_file()]
    with tempfile.TemporaryDirectory() as folder:
        report([*companion.benchmarks(Path(folder)), *(b for game in games for b in game.benchmarks())])
    browser.main()


if __name__ == "__main__":
    main()
