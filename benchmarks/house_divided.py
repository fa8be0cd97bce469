"""A House Divided: the supply check (HD-5.1) on a 500-box random map, and the exact firing-limit
distribution over 3 battle days (HD-4.2), each against a plain-Python baseline doing the same job."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

from engines.house_divided.battle_command import fire_limit, fire_limit_by_day, half_carry
from engines.house_divided.gamemap import GameMap, map_from_data
from engines.house_divided.rules import COMMAND_TABLE, SUPPLY_LINES
from engines.house_divided.supply import IN_SUPPLY, LONE, OUT_OF_SUPPLY, supply_check

from .harness import Benchmark

SLUG = "house_divided"
BOXES = 500
DAYS = 3
BATTLE = (1863, "CSA", 3)  # TV-5: the CSA in 1863 with Lee (rating 3)


def random_map(boxes: int = BOXES, seed: int = 1) -> tuple[GameMap, dict[str, str], dict[str, int]]:
    """A random point-to-point map: boxes on a plane joined to their near neighbours by rail, river or road,
    the west CSA-held and the east Union-held (with some boxes flipped), a fifth of them recruitment cities,
    and stacks of 1-4 CSA units in a third of the CSA boxes."""
    rng = random.Random(seed)
    points = {f"b{i}": (rng.random(), rng.random()) for i in range(boxes)}
    control = {b: ("CSA" if x < 0.5 else "USA") if rng.random() > 0.1 else ("USA" if x < 0.5 else "CSA")
               for b, (x, _) in points.items()}
    rows = [{"id": b, "alignment": "CSA" if x < 0.5 else "USA", "rp": rng.choice((0, 0, 0, 0, 1, 2)),
             "port": rng.random() < 0.05, "x": x, "y": y} for b, (x, y) in points.items()]
    lines, seen = [], set()
    for b, (x, y) in points.items():
        near = sorted(points, key=lambda o: (points[o][0] - x) ** 2 + (points[o][1] - y) ** 2)[1:4]
        for other in near:
            key = tuple(sorted((b, other)))
            if key not in seen:
                seen.add(key)
                lines.append({"from": b, "to": other, "type": rng.choice(("rail", "rail", "river", "road"))})
    stacks = {b: rng.randint(1, 4) for b in points if control[b] == "CSA" and rng.random() < 1 / 3}
    return map_from_data({"boxes": rows, "lines": lines}), control, stacks


def plain_supply(game_map: GameMap, control: dict[str, str], stacks: dict[str, int], side: str) -> dict[str, str]:
    """HD-5.1 in plain Python: adjacency lists, then a breadth-first search from each stack, counting sources."""
    near: dict[str, list[str]] = {b.id: [] for b in game_map.boxes}
    for line in game_map.lines:
        if line.type in SUPPLY_LINES:
            near[line.a].append(line.b)
            near[line.b].append(line.a)
    boxes = {b.id: b for b in game_map.boxes}
    status = {}
    for start, count in stacks.items():
        if count < 2:
            status[start] = LONE
            continue
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for there in near[here]:
                if there not in seen and control.get(there) == side:
                    seen.add(there)
                    todo.append(there)
        sources = sum(1 for b in seen if control.get(b) == side and boxes[b].rp > 0 and boxes[b].alignment == side)
        status[start] = IN_SUPPLY if sources >= 2 else OUT_OF_SUPPLY
    return status


def supply(boxes: int = BOXES, runs: int = 7) -> Benchmark:
    game_map, control, stacks = random_map(boxes)
    game_map.graph  # the map's graph is built once, when the map is loaded

    def ours():
        return supply_check(game_map, control, stacks, "CSA")

    return Benchmark(SLUG, "supply_check", ours, lambda: plain_supply(game_map, control, stacks, "CSA"), runs=runs)


def plain_fire_limits(year: int, side: str, leaders: int, days: int) -> list[dict[int, Fraction]]:
    """The firing limit of each day by enumerating every sequence of command dice (6 ** days of them)."""
    cells = COMMAND_TABLE[(year, side)].results
    tallies = [Counter() for _ in range(days)]
    for faces in product(range(1, 7), repeat=days):
        carried = None
        for day, face in enumerate(faces):
            command = cells[face] + half_carry(carried) + leaders
            tallies[day][fire_limit(command)] += 1
            carried = command
    return [{k: Fraction(n, 6 ** days) for k, n in tally.items()} for tally in tallies]


def fire_limits(runs: int = 7) -> Benchmark:
    return Benchmark(SLUG, "fire_limit_days", lambda: fire_limit_by_day(*BATTLE, DAYS),
                     lambda: plain_fire_limits(*BATTLE, DAYS), runs=runs)


def benchmarks(boxes: int = BOXES, runs: int = 7) -> list[Benchmark]:
    return [supply(boxes, runs), fire_limits(runs)]
