"""HD-5.1 supply (S1) as a graph computation on the players' map (digest section 8), with networkx.

At the start of its player turn a side checks every box holding 2 or more of its units (a lone unit is
always in supply; leaders do not count, A12). For side S:

1. G_S is the boxes S controls, joined by the rail and river lines whose two ends S controls (A18:
   a line is friendly when both ends are; roads carry supply only by option).
2. A checked box is added to G_S with its friendly lines even if the enemy controls it (contested).
3. K is the box's connected component; its sources are the boxes of K that S controls, with
   recruitment points, on S's own shield (A17 (a); any shield by option).
4. The box is in supply when K holds 2 or more sources: it is a source and reaches another, or it
   reaches a source that reaches another.
5. A Union stack in a port, or whose K holds a Union-controlled port, is in supply (sea supply; the
   same for stacks with FI units under A19 (b)).

A stack out of supply (and not foraged, A11) loses exactly one unit, its owner's choice. Every answer
explains itself: the line found, or the sources counted and the lines that are blocked.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Mapping

import networkx as nx

from .gamemap import GameMap
from .rules import ROAD, SIDE_NAME, SOURCES_NEEDED, STACK_THRESHOLD, SUPPLY_LINES, USA
from .state import ON_MAP, GameState

LONE, IN_SUPPLY, OUT_OF_SUPPLY, FORAGED = "lone", "in supply", "out of supply", "foraged"


@dataclass(frozen=True)
class StackSupply:
    box: str
    units: int
    status: str                     # lone, in supply, out of supply, foraged
    reason: str
    path: tuple[str, ...] = ()      # the supply line found: the box ... a source (or a port)
    sources: tuple[str, ...] = ()   # the sources its friendly network holds
    network: tuple[str, ...] = ()   # K, the boxes it reaches by friendly lines

    @property
    def in_supply(self) -> bool:
        return self.status != OUT_OF_SUPPLY


@dataclass(frozen=True)
class SupplyReport:
    side: str
    stacks: tuple[StackSupply, ...]

    @property
    def losses(self) -> tuple[str, ...]:
        """The boxes where one unit must be removed (HD-5.1)."""
        return tuple(s.box for s in self.stacks if s.status == OUT_OF_SUPPLY)

    def of(self, box: str) -> StackSupply | None:
        return next((s for s in self.stacks if s.box == box), None)


def carrying(roads: bool) -> tuple[str, ...]:
    return SUPPLY_LINES + (ROAD,) if roads else SUPPLY_LINES


def friendly_graph(game_map: GameMap, control: Mapping[str, str], side: str, roads: bool = False) -> nx.Graph:
    """G_S: the boxes the side controls and the supply-carrying lines between them."""
    graph = nx.Graph()
    graph.add_nodes_from(b.id for b in game_map.boxes if control.get(b.id) == side)
    kinds = carrying(roads)
    graph.add_edges_from((l.a, l.b) for l in game_map.lines
                         if l.type in kinds and control.get(l.a) == side and control.get(l.b) == side)
    return graph


def supply_check(game_map: GameMap, control: Mapping[str, str], stacks: Mapping[str, int], side: str, *,
                 sources: str = "own", roads: bool = False, sea: Collection[str] = (),
                 foraged: Collection[str] = ()) -> SupplyReport:
    """HD-5.1 for `side`: `stacks` gives its unit count per box; `sea` the boxes whose stacks may draw
    supply from a port (every Union stack; CSA stacks with FI units under A19 (b)); `foraged` the boxes
    the players marked as foraged (A11)."""
    graph = friendly_graph(game_map, control, side, roads)
    index = {b.id: b for b in game_map.boxes}
    component: dict[str, int] = {}
    members: list[set[str]] = []
    for i, nodes in enumerate(nx.connected_components(graph)):
        members.append(nodes)
        for node in nodes:
            component[node] = i
    is_source = {b.id for b in game_map.boxes if b.id in graph and b.rp > 0
                 and (sources == "any" or b.alignment == side)}
    ports = {b.id for b in game_map.boxes if b.id in graph and b.port}
    from_source = _nearest(graph, is_source)
    from_port = _nearest(graph, ports) if sea else {}
    kinds = carrying(roads)
    full = game_map.graph
    results = []
    for box, count in sorted(stacks.items()):
        if count < STACK_THRESHOLD:
            results.append(StackSupply(box, count, LONE, "A lone unit is always in supply", (box,)))
            continue
        if box in component:
            entry = [box]
            network = set(members[component[box]])
        else:  # contested or enemy-held: the box itself, with its lines to friendly boxes
            entry = sorted({n for _, n, t in full.edges(box, data="type") if t in kinds and n in component})
            network = {box}.union(*(members[component[n]] for n in entry))
        found = tuple(sorted(network & is_source))
        result = _judge(box, count, side, network, found, entry, graph, from_source, from_port,
                        box in sea, index[box].port, box in foraged, full, control, kinds)
        results.append(result)
    return SupplyReport(side, tuple(results))


def _nearest(graph: nx.Graph, targets: set[str]) -> dict[str, list[str]]:
    """For every node that reaches one of `targets`: the shortest path from the nearest target to it."""
    if not targets:
        return {}
    return nx.multi_source_dijkstra_path(graph, targets)


def _line_from(graph: nx.Graph, box: str, targets: set[str]) -> tuple[str, ...]:
    """The shortest line from the box to the nearest of `targets` (breadth first, stopping there)."""
    parent = {box: box}
    for here, there in nx.bfs_edges(graph, box):
        parent[there] = here
        if there in targets:
            line = [there]
            while line[-1] != box:
                line.append(parent[line[-1]])
            return tuple(reversed(line))
    return ()


def _line_to(box: str, entry: list[str], nearest: dict[str, list[str]]) -> tuple[str, ...]:
    """The shortest line from the box to the nearest target, through its entry boxes."""
    paths = [nearest[n] for n in entry if n in nearest]
    if not paths:
        return ()
    best = list(reversed(min(paths, key=len)))
    return tuple(best if best[0] == box else [box, *best])


def _judge(box, count, side, network, found, entry, graph, from_source, from_port, sea, is_port, foraged,
           full, control, kinds) -> StackSupply:
    name = SIDE_NAME[side]
    k = tuple(sorted(network))
    if len(found) >= SOURCES_NEEDED:
        path = _line_to(box, entry, from_source)
        if path == (box,):  # the box is a source itself: show the line to the nearest other one
            path = _line_from(graph, box, set(found) - {box})
        reason = (f"{' → '.join(path)}: its friendly network holds {len(found)} sources "
                  f"({', '.join(found)}); {SOURCES_NEEDED} are needed")
        return StackSupply(box, count, IN_SUPPLY, reason, path, found, k)
    if sea and is_port:
        return StackSupply(box, count, IN_SUPPLY, f"{box} is a port: the {name} stack is supplied by sea",
                           (box,), found, k)
    if sea:
        path = _line_to(box, entry, from_port)
        if path:
            return StackSupply(box, count, IN_SUPPLY, f"{' → '.join(path)}: a line to the port {path[-1]}",
                               path, found, k)
    if foraged:
        return StackSupply(box, count, FORAGED, "Marked as foraged this turn (A11): no loss", (), found, k)
    return StackSupply(box, count, OUT_OF_SUPPLY, _why_not(box, side, network, found, full, control, kinds, sea),
                       (), found, k)


def _why_not(box, side, network, found, full, control, kinds, sea) -> str:
    name = SIDE_NAME[side]
    held = f"{len(found)} source{'s' if len(found) != 1 else ''}" + (f" ({', '.join(found)})" if found else "")
    parts = [f"its friendly network ({', '.join(sorted(network))}) holds {held}; {SOURCES_NEEDED} are needed"]
    blocked = []
    for line in sorted({line for _, _, line in full.edges(network, data="line")}, key=lambda l: (l.a, l.b, l.type)):
        far = line.b if line.a in network else line.a
        if line.type not in kinds:
            blocked.append(f"{line.a}–{line.b} is a road (roads carry no supply, A18)")
        elif far not in network:
            holder = control.get(far) or "nobody"
            blocked.append(f"{line.text()} leads to {far}, held by {SIDE_NAME.get(holder, holder)}")
    if blocked:
        parts.append("blocked: " + "; ".join(blocked))
    if sea:
        parts.append(f"no port in reach for the {name} stack")
    return "; ".join(parts)


def supply_stacks(units, leaders=(), leaders_count: bool = False) -> dict[str, int]:
    """Unit counts per box (leaders added when A12 counts them)."""
    counts: dict[str, int] = {}
    for u in units:
        counts[u.box] = counts.get(u.box, 0) + 1
    if leaders_count:
        for leader in leaders:
            if leader.box in counts:
                counts[leader.box] += 1
    return counts


def supply_report(state: GameState, side: str | None = None) -> SupplyReport:
    """HD-5.1 on a game state, for the phasing side unless another is named, with the session's options."""
    side = side or state.side
    units = [u for u in state.on_map(side) if u.box != state.europe]
    leaders = [l for l in state.leaders if l.status == ON_MAP and l.side == side]
    stacks = supply_stacks(units, leaders, state.options["leaders_count"])
    sea = set(stacks) if side == USA else \
        {u.box for u in units if u.foreign} if state.options["fi_supply"] == "sea" else set()
    foraged = state.foraged if state.side == side else ()
    return supply_check(state.game_map, state.control, stacks, side, sources=state.options["supply_sources"],
                        roads=state.options["road_supply"], sea=sea, foraged=foraged)
