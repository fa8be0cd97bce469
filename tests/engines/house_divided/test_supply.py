"""HD-5.1 supply on the players' map: TV-12, TV-13 and TV-15, options A11, A12, A17, A18, A19, A27, and property
tests on random maps against a brute-force search written here."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.house_divided.gamemap import map_from_data
from engines.house_divided.supply import IN_SUPPLY, LONE, OUT_OF_SUPPLY, supply_check
from engines.house_divided.views import map_view
from tests.engines.house_divided.support import Table, box, line, setup, unit

# TV-12 as the digest gives it: R1, R2, R3 CSA recruitment cities; A, B, C; X Union-held.
TV12_MAP = map_from_data({
    "boxes": [box("R1", "CSA", 1), box("R2", "CSA", 1), box("R3", "CSA", 1), box("A"), box("B"), box("C"), box("X")],
    "lines": [line("R1", "A"), line("A", "R2", "river"), line("A", "B", "road"), line("B", "C"), line("C", "R3"),
              line("R3", "X"), line("X", "R1")],
})
TV12_CONTROL = {"R1": "CSA", "R2": "CSA", "R3": "CSA", "A": "CSA", "B": "CSA", "C": "CSA", "X": "USA"}


@pytest.mark.rule("HD-5.1")
def test_vector_12():
    """TV-12: A (2) in supply, 2 sources; C (3) and R3 (2) out, 1 source; B (1) lone; X (2 USA) out; X as a
    port in supply."""
    csa = supply_check(TV12_MAP, TV12_CONTROL, {"A": 2, "C": 3, "R3": 2, "B": 1}, "CSA")
    status = {s.box: s.status for s in csa.stacks}
    assert status == {"A": IN_SUPPLY, "B": LONE, "C": OUT_OF_SUPPLY, "R3": OUT_OF_SUPPLY}
    assert csa.of("A").sources == ("R1", "R2") and set(csa.of("A").network) == {"R1", "A", "R2"}
    assert csa.of("A").path in (("A", "R1"), ("A", "R2"))
    assert set(csa.of("C").network) == {"B", "C", "R3"} and csa.of("C").sources == ("R3",)
    assert "1 source (R3)" in csa.of("C").reason and "A–B is a road" in csa.of("C").reason
    assert "R3–X rail leads to X, held by Union" in csa.of("R3").reason
    assert csa.losses == ("C", "R3")
    usa = supply_check(TV12_MAP, TV12_CONTROL, {"X": 2}, "USA", sea={"X"})
    assert usa.of("X").status == OUT_OF_SUPPLY and "no port" in usa.of("X").reason
    port_map = map_from_data({**TV12_MAP.to_data(), "boxes": [
        {**b, "port": b["id"] == "X"} for b in TV12_MAP.to_data()["boxes"]]})
    usa = supply_check(port_map, TV12_CONTROL, {"X": 2}, "USA", sea={"X"})
    assert usa.of("X").status == IN_SUPPLY and "port" in usa.of("X").reason


@pytest.mark.rule("HD-5.1")
def test_vector_12_on_the_example_map():
    """The shipped EXAMPLE map carries TV-12: the CSA supply check finds C and R3 out of supply."""
    table = Table()
    table.do("check_supply")
    table.do("end_start")
    table.do("roll_marches", 1)
    table.do("end_movement")
    table.do("end_battles")
    table.do("end_promotion")
    table.do("end_player_turn")
    step = table.do("check_supply")
    assert table.state.supply_due == ("C", "R3")
    assert "A: in supply" in step.summary and "C: out of supply, lose 1" in step.summary
    views = {v.id: v for v in map_view(table.state)}
    assert (views["A"].supply, views["C"].supply, views["B"].supply) == (IN_SUPPLY, OUT_OF_SUPPLY, LONE)


@pytest.mark.rule("HD-5.1")
def test_vector_13_a_stack_shrinks_until_safe():
    """TV-13: an unsupplied stack of 3 goes to 2, then 1, then is safe; the owner picks the unit, one per box."""
    table = Table(setup(units=[unit("C3", "CSA", "C"), unit("C4", "CSA", "C"), unit("C5", "CSA", "C"),
                                unit("U1", "USA", "washington")], leaders=[], contained=[]))
    sizes = []
    for _ in range(3):
        table.to_battles()
        table.pass_turn()
        table.refuse("HD-5.1", "end_start")  # the check comes first
        table.do("check_supply")
        table.refuse("HD-5.1", "supply_loss", unit="U1")
        if table.state.supply_due:
            survivors = [u.name for u in table.state.units_in("C", "CSA")]
            table.refuse("HD-5.1", "end_start")
            table.do("supply_loss", unit=survivors[0])
            table.refuse("HD-5.1", "supply_loss", unit=survivors[1])  # exactly one per box
        sizes.append(len(table.state.units_in("C", "CSA")))
        table.do("end_start")
        table.do("roll_marches", 1)
        table.do("end_movement")
        table.pass_turn()
    assert sizes == [2, 1, 1]


@pytest.mark.rule("HD-A11", "HD-5.1")
def test_a_foraged_box_keeps_its_units():
    """A11: by option players may mark a box as foraged: no loss there this turn; by default no stack is
    excused (nothing in the source says when a stack may forage)."""
    table = Table(foraging="manual")
    table.to_battles()
    table.pass_turn()
    table.refuse("HD-A11", "check_supply", foraged=["B"], reason="cattle")  # a lone unit
    table.refuse("HD-A11", "check_supply", foraged=["C"])                    # no reason given
    step = table.do("check_supply", foraged=["C"], reason="a rich valley")
    assert table.state.supply_due == ("R3",) and "a rich valley" in step.summary and "HD-A11" in step.rules
    strict = Table()
    strict.to_battles()
    strict.pass_turn()
    strict.refuse("HD-A11", "check_supply", foraged=["C"], reason="a rich valley")


@pytest.mark.rule("HD-A12")
def test_leaders_and_the_two_unit_threshold():
    """A12: a unit with Lee is a lone unit (default); counting leaders, it is a stack of 2 that needs supply."""
    data = setup(units=[unit("C3", "CSA", "C"), unit("U1", "USA", "washington")], contained=[])
    for counts, due in ((False, ()), (True, ("C",))):
        table = Table(data, leaders_count=counts)
        table.to_battles()
        table.pass_turn()
        table.do("check_supply")
        assert table.state.supply_due == due


@pytest.mark.rule("HD-A17", "HD-A18")
def test_sources_and_road_options():
    """A17 (b): any controlled recruitment city is a source; A18: roads carry supply only by option."""
    mixed = map_from_data({**TV12_MAP.to_data(), "boxes": TV12_MAP.to_data()["boxes"] + [box("N", "USA", 2)],
                           "lines": TV12_MAP.to_data()["lines"] + [line("N", "C")]})
    control = {**TV12_CONTROL, "N": "CSA"}
    assert supply_check(mixed, control, {"C": 2}, "CSA").of("C").status == OUT_OF_SUPPLY
    assert supply_check(mixed, control, {"C": 2}, "CSA", sources="any").of("C").status == IN_SUPPLY
    by_road = supply_check(TV12_MAP, TV12_CONTROL, {"C": 2}, "CSA", roads=True).of("C")
    assert by_road.status == IN_SUPPLY and set(by_road.sources) == {"R1", "R2", "R3"}


@pytest.mark.rule("HD-A19")
def test_fi_sea_supply_option():
    """A19 (b): a CSA stack with FI units in a port is supplied by sea; (a) normal CSA rules."""
    port = map_from_data({"boxes": [box("Q", "CSA", 0, port=True), box("R", "CSA", 1)], "lines": []})
    control = {"Q": "CSA", "R": "CSA"}
    assert supply_check(port, control, {"Q": 2}, "CSA").of("Q").status == OUT_OF_SUPPLY
    assert supply_check(port, control, {"Q": 2}, "CSA", sea={"Q"}).of("Q").status == IN_SUPPLY


# TV-15 as the digest gives it: the rail line R1–B–R2–R3; R1, R2, R3 CSA recruitment cities held by the CSA; B
# held by the Union.
TV15_MAP = map_from_data({"boxes": [box("R1", "CSA", 1), box("B"), box("R2", "CSA", 1), box("R3", "CSA", 1)],
                          "lines": [line("R1", "B"), line("B", "R2"), line("R2", "R3")]})
TV15_CONTROL = {"R1": "CSA", "B": "USA", "R2": "CSA", "R3": "CSA"}


@pytest.mark.rule("HD-5.1", "HD-A27")
def test_vector_15_a_box_not_controlled_joins_no_networks():
    """TV-15: 2 CSA at R1 out of supply ({R1}: 1 source; B does not link R1 to R2, even with a CSA stack at B);
    2 CSA at R2 in supply ({R2, R3}: 2 sources); 2 CSA at B in supply under A27 (a) through its neighbour R2,
    out under (b)."""
    stacks = {"R1": 2, "R2": 2, "B": 2}
    report = supply_check(TV15_MAP, TV15_CONTROL, stacks, "CSA")
    assert {s.box: s.status for s in report.stacks} == {"R1": OUT_OF_SUPPLY, "R2": IN_SUPPLY, "B": IN_SUPPLY}
    assert report.of("R1").sources == ("R1",) and report.of("B").path == ("B", "R2")
    assert report.of("B").sources == ("R2", "R3")
    strict = supply_check(TV15_MAP, TV15_CONTROL, stacks, "CSA", start="friendly")
    assert {s.box: s.status for s in strict.stacks} == {"R1": OUT_OF_SUPPLY, "R2": IN_SUPPLY, "B": OUT_OF_SUPPLY}
    assert "this game's option" in strict.of("B").reason


@pytest.mark.rule("HD-5.1", "HD-A27")
def test_a_stack_in_an_enemy_held_box_never_bridges_two_networks():
    """HD-5.1 / section 8 step 4: with R3 gone, R1 and R2 each hold one source; a CSA stack at the Union-held B
    touches both, but B joins nothing, so it reaches no network of 2 sources: out of supply (A27 (a) and (b))."""
    two = map_from_data({"boxes": [box("R1", "CSA", 1), box("B"), box("R2", "CSA", 1)],
                         "lines": [line("R1", "B"), line("B", "R2")]})
    control = {"R1": "CSA", "B": "USA", "R2": "CSA"}
    assert supply_check(two, control, {"B": 2}, "CSA").of("B").status == OUT_OF_SUPPLY
    for start in ("start", "friendly"):
        stack = supply_check(two, control, {"B": 2}, "CSA", start=start).of("B")
        assert stack.status == OUT_OF_SUPPLY, start
    assert "links no friendly networks" in supply_check(two, control, {"B": 2}, "CSA").of("B").reason
    # the example map: a CSA stack at A (made Union-held) between R1 and R2, each a network of 1 source
    control = {**TV12_CONTROL, "A": "USA"}
    assert supply_check(TV12_MAP, control, {"A": 2}, "CSA").of("A").status == OUT_OF_SUPPLY


@pytest.mark.rule("HD-A27")
def test_option_a27_on_a_game():
    """A27 as a session option: a CSA force of 2 in the Union-held port P of the example map (as when containing a
    landing) traces its first line P–R2 into the fed network {R1, A, R2} under (a), and is out of supply under (b);
    with A Union-held, R2's network holds 1 source: out either way."""
    units = [unit("C1", "CSA", "P"), unit("C2", "CSA", "P"), unit("U1", "USA", "washington")]
    cut = {**setup()["control"], "A": "USA"}
    for control, reading, due in ((None, "start", ()), (None, "friendly", ("P",)), (cut, "start", ("P",))):
        data = setup(units=units, leaders=[], contained=[], **({"control": control} if control else {}))
        table = Table(data, **({} if reading == "start" else {"supply_start": reading}))
        table.to_battles()
        table.pass_turn()
        table.do("check_supply")
        assert table.state.supply_due == due, (reading, control)


# --- property tests against a brute-force search ----------------------------------------------------

def reach(start, friendly, edges):
    """Every box reachable from `start` by lines whose far end is friendly (a plain fixpoint, no graph library)."""
    seen = {start}
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            for here, there in ((a, b), (b, a)):
                if here in seen and there not in seen and there in friendly:
                    seen.add(there)
                    changed = True
    return seen


def brute_force(boxes, lines, control, stacks, side, sources, roads, sea, start="start"):
    """HD-5.1 as the digest words it, box by box: a line passes only through friendly boxes along friendly
    lines; a box the side does not control links nothing, and its stack starts a line to a friendly neighbour
    only under A27 (a)."""
    kinds = {"rail", "river"} | ({"road"} if roads else set())
    friendly = {b["id"] for b in boxes if control.get(b["id"]) == side}
    info = {b["id"]: b for b in boxes}
    edges = [(l["from"], l["to"]) for l in lines if l["type"] in kinds]
    inside = [(a, b) for a, b in edges if a in friendly and b in friendly]

    def fed(network):
        return len([n for n in network if info[n]["rp"] > 0 and (sources == "any" or info[n]["alignment"] == side)]) >= 2

    result = {}
    for where, count in stacks.items():
        if count < 2:
            result[where] = LONE
            continue
        if where in friendly:
            networks = [reach(where, friendly, inside)]
        elif start == "start":
            networks = [reach(n, friendly, inside) for a, b in edges for x, n in ((a, b), (b, a))
                        if x == where and n in friendly]
        else:
            networks = []
        ok = any(fed(n) for n in networks) or (where in sea and (info[where]["port"] or any(
            info[n]["port"] for network in networks for n in network)))
        result[where] = IN_SUPPLY if ok else OUT_OF_SUPPLY
    return result


@st.composite
def random_maps(draw):
    n = draw(st.integers(2, 12))
    ids = [f"b{i}" for i in range(n)]
    boxes = [{"id": i, "alignment": draw(st.sampled_from(["USA", "CSA", "neutral"])), "rp": draw(st.integers(0, 2)),
              "port": draw(st.booleans())} for i in ids]
    kinds = st.sampled_from(["rail", "river", "road"])
    pairs = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids), kinds), max_size=3 * n))
    lines, seen = [], set()
    for a, b, kind in pairs:
        key = (*sorted((a, b)), kind)
        if a != b and key not in seen:
            seen.add(key)
            lines.append({"from": a, "to": b, "type": kind})
    control = {i: draw(st.sampled_from(["USA", "CSA", ""])) for i in ids}
    stacks = {i: k for i in ids if (k := draw(st.integers(0, 3)))}
    return boxes, lines, control, stacks


@pytest.mark.rule("HD-5.1", "HD-A17", "HD-A18", "HD-A27")
@settings(max_examples=300, deadline=None)
@given(random_maps(), st.sampled_from(["USA", "CSA"]), st.sampled_from(["own", "any"]), st.booleans(),
       st.sampled_from(["start", "friendly"]))
def test_supply_agrees_with_brute_force_on_random_maps(data, side, sources, roads, start):
    """On random maps, controls and stacks, every stack's status is the brute-force answer; every line given
    is a real path of friendly supply lines from the stack to a source or port."""
    boxes, lines, control, stacks = data
    game_map = map_from_data({"boxes": boxes, "lines": lines})
    sea = set(stacks) if side == "USA" else set()
    report = supply_check(game_map, control, stacks, side, sources=sources, roads=roads, sea=sea, start=start)
    assert {s.box: s.status for s in report.stacks} == brute_force(boxes, lines, control, stacks, side, sources,
                                                                    roads, sea, start)
    kinds = {"rail", "river"} | ({"road"} if roads else set())
    joined = {frozenset((l["from"], l["to"])) for l in lines if l["type"] in kinds}
    for s in report.stacks:
        if s.status == IN_SUPPLY and len(s.path) > 1:
            assert s.path[0] == s.box
            assert all(frozenset(pair) in joined for pair in zip(s.path, s.path[1:]))
            assert all(control.get(b) == side for b in s.path[1:])
