"""HD-5.1 supply (S1) as a graph computation on the players' map (digest section 8), with networkx.

At the start of its player turn a side checks every box holding 2 or more of its units (a lone unit is
always in supply; leaders do not count, A12). For side S:

1. G_S is the boxes S controls, joined by the rail and river lines whose two ends S controls (A18:
   a line is friendly when both ends are; roads carry supply only by option). Nothing else joins G_S.
2. The sources are the boxes of G_S with recruitment points on S's own shield (A17 (a); any shield by
   option). A network (a component of G_S) is fed when it holds 2 or more sources.
3. A stack in a box of G_S is in supply when its network is fed: the box is a source and reaches
   another, or it reaches a source that reaches another.
4. A box S does not control (contested, as in containment, or enemy-held) never joins two networks.
   Under A27 (a) its stack is in supply when a supply line joins the box to a friendly box whose network
   is fed; under A27 (b) it is out of supply.
5. A Union stack in a port, or whose network (under 4, a neighbour's network) holds a Union-controlled
   port, is in supply (sea supply; the same for stacks with FI units under A19 (b)).

A stack out of supply (and not foraged, A11) loses exactly one unit, its owner's choice. Every answer
explains itself: the line found, or the sources counted and the lines that are blocked.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
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
    sources: tuple[str, ...] = ()   # the sources of the network it draws on
    network: tuple[str, ...] = ()   # that network: the friendly boxes it reaches (and its own box)

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


@dataclass(frozen=True)
class Networks:
    """G_S cut into its networks (components), with each one's sources and ports."""

    graph: nx.Graph
    sources: frozenset[str]
    ports: frozenset[str]

    @cached_property
    def members(self) -> dict[str, frozenset[str]]:
        """box -> the network it belongs to."""
        found = {}
        for nodes in nx.connected_components(self.graph):
            nodes = frozenset(nodes)
            for node in nodes:
                found[node] = nodes
        return found

    def sources_of(self, box: str) -> tuple[str, ...]:
        return tuple(sorted(self.members[box] & self.sources))

    def fed(self, box: str) -> bool:
        return len(self.sources_of(box)) >= SOURCES_NEEDED

    def has_port(self, box: str) -> bool:
        return bool(self.members[box] & self.ports)

    @cached_property
    def from_source(self) -> dict[str, list[str]]:
        return _nearest(self.graph, set(self.sources))

    @cached_property
    def from_port(self) -> dict[str, list[str]]:
        return _nearest(self.graph, set(self.ports))


def supply_check(game_map: GameMap, control: Mapping[str, str], stacks: Mapping[str, int], side: str, *,
                 sources: str = "own", roads: bool = False, sea: Collection[str] = (),
                 foraged: Collection[str] = (), start: str = "start") -> SupplyReport:
    """HD-5.1 for `side`: `stacks` gives its unit count per box; `sea` the boxes whose stacks may draw
    supply from a port (every Union stack; CSA stacks with FI units under A19 (b)); `foraged` the boxes
    the players marked as foraged (A11); `start` the reading of A27 for a box the side does not control."""
    graph = friendly_graph(game_map, control, side, roads)
    index = game_map.index
    networks = Networks(graph, frozenset(b.id for b in game_map.boxes if b.id in graph and b.rp > 0
                                         and (sources == "any" or b.alignment == side)),
                        frozenset(b.id for b in game_map.boxes if b.id in graph and b.port))
    kinds = carrying(roads)
    results = []
    for box, count in sorted(stacks.items()):
        if count < STACK_THRESHOLD:
            results.append(StackSupply(box, count, LONE, "A lone unit is always in supply", (box,)))
            continue
        if box in graph:
            entry = [box]
        elif start == "start":  # A27 (a): its first line may lead to a friendly box, and it links nothing
            entry = sorted({n for _, n, t in game_map.graph.edges(box, data="type") if t in kinds and n in graph})
        else:                   # A27 (b): every box of the line must be friendly
            entry = []
        judged = _judge(box, count, side, entry, networks, box in sea, index[box].port)
        if judged is None:
            judged = (StackSupply(box, count, FORAGED, "Marked as foraged this turn (this game's option): no loss",
                                  (), *_drawn_on(box, entry, networks)) if box in foraged else
                      StackSupply(box, count, OUT_OF_SUPPLY, _why_not(box, side, entry, networks, game_map, control,
                                                                      kinds, box in sea, start),
                                  (), *_drawn_on(box, entry, networks)))
        results.append(judged)
    return SupplyReport(side, tuple(results))


def _drawn_on(box: str, entry: list[str], networks: Networks) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sources and the boxes of the networks a stack touches (never merged into one for supply)."""
    boxes = {box}.union(*(networks.members[n] for n in entry))
    return tuple(sorted(boxes & networks.sources)), tuple(sorted(boxes))


def _judge(box, count, side, entry, networks: Networks, sea: bool, is_port: bool) -> StackSupply | None:
    """The stack's supply when it has a line (through one network) or the sea; None when it has neither."""
    for n in sorted(entry, key=lambda n: (not networks.fed(n), len(networks.from_source.get(n, ())), n)):
        if networks.fed(n):
            found = networks.sources_of(n)
            path = _line_to(box, n, networks.from_source)
            if path == (box,):  # the box is a source itself: show the line to the nearest other one
                path = _line_from(networks.graph, box, set(found) - {box})
            reason = (f"{' → '.join(path)}: the friendly network holds {len(found)} sources "
                      f"({', '.join(found)}); {SOURCES_NEEDED} are needed")
            return StackSupply(box, count, IN_SUPPLY, reason, path, found,
                               tuple(sorted({box} | networks.members[n])))
    name = SIDE_NAME[side]
    if sea and is_port:
        return StackSupply(box, count, IN_SUPPLY, f"{box} is a port: the {name} stack is supplied by sea",
                           (box,), *_drawn_on(box, entry, networks))
    if sea:
        reached = [n for n in entry if networks.has_port(n)]
        if reached:
            path = min((_line_to(box, n, networks.from_port) for n in reached), key=len)
            return StackSupply(box, count, IN_SUPPLY, f"{' → '.join(path)}: a line to the port {path[-1]}",
                               path, *_drawn_on(box, entry, networks))
    return None


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


def _line_to(box: str, entry: str, nearest: dict[str, list[str]]) -> tuple[str, ...]:
    """The shortest line from the box, through its entry box, to the nearest target."""
    best = list(reversed(nearest[entry]))
    return tuple(best if best[0] == box else [box, *best])


def _why_not(box, side, entry, networks: Networks, game_map: GameMap, control, kinds, sea, start) -> str:
    name = SIDE_NAME[side]
    if box in networks.graph:
        found = networks.sources_of(box)
        held = f"{len(found)} source{'s' if len(found) != 1 else ''}" + (f" ({', '.join(found)})" if found else "")
        network = networks.members[box]
        parts = [f"its friendly network ({', '.join(sorted(network))}) holds {held}; {SOURCES_NEEDED} are needed"]
    else:
        holder = control.get(box) or "nobody"
        parts = [f"{box} is held by {SIDE_NAME.get(holder, holder)}: it links no friendly networks (HD-5.1)"]
        if start != "start":
            parts.append(f"every box of a line must be {name}-controlled (this game's option)")
        for n in entry:
            found = networks.sources_of(n)
            parts.append(f"the network of {n} ({', '.join(sorted(networks.members[n]))}) holds {len(found)} "
                         f"source{'s' if len(found) != 1 else ''}")
        network = frozenset({box})
    blocked = []
    edges = {line for _, _, line in game_map.graph.edges(network, data="line")}
    for line in sorted(edges, key=lambda l: (l.a, l.b, l.type)):
        far = line.b if line.a in network else line.a
        if line.type not in kinds:
            blocked.append(f"{line.a}–{line.b} is a road (roads carry no supply in this game)")
        elif control.get(far) != side:
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
                        roads=state.options["road_supply"], sea=sea, foraged=foraged,
                        start=state.options["supply_start"])
