"""Movement, stacking, Beauregard's confusion and the CSA flank (BR-8.1, BR-8.2, BR-8.3, BR-8.4a-d)."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from companion.dice import DiceError
from companion.engine import RuleError
from companion.odds import exhaustive, fractions, happened_by
from engines.bull_run.actions import due_checks
from engines.bull_run.attacks import combat_input
from engines.bull_run.flank import farm_ford_odds, resolve_farm_ford
from engines.bull_run.movement import path_cost
from engines.bull_run.rules import TERRAIN_COSTS
from tests.engines.bull_run.support import QUIET, Table

# BR-8.1, digest section 5 (A1): MP to enter each terrain; None = may not enter.
COSTS = {"clear": 2, "road": 1, "creek": None, "ford": 2, "bridge": 2, "town": 1, "hill": 2, "woods": 3}
ALLOWANCE = 4


def digest_cost(path, costs=COSTS):
    """MP spent on the path, or None when a hex cannot be entered with the MP left."""
    left = ALLOWANCE
    for terrain in path:
        cost = costs[terrain]
        if cost is None or cost > left:
            return None
        left -= cost
    return ALLOWANCE - left


def union_moving(**options) -> Table:
    """Turn 1, the Union moving first, its Farm Ford roll made (and failed)."""
    table = Table(**options)
    table.start_turn(1)
    table.checks(QUIET)
    return table


def csa_moving(**options) -> Table:
    """Turn 1 of a two-player game, the CSA moving first."""
    table = Table(solitaire=False, **options)
    table.start_turn(4)
    return table


def csa_aware(table: Table) -> None:
    """Turn 1 with the Union first: Union 1 crosses at Sudley and the CSA, next to it, becomes aware."""
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.do("end_movement")
    if "csa_action" in due_checks(table.state):
        table.do("csa_action_roll", 1)
    table.do("awareness_check", adjacent=True)


@pytest.mark.rule("BR-8.1")
def test_terrain_costs_are_the_digest_table():
    """BR-8.1 (A1 default): the reconstructed cost table of digest section 5."""
    assert TERRAIN_COSTS == COSTS


@pytest.mark.rule("BR-8.1")
def test_every_path_up_to_four_hexes_costs_what_the_table_says():
    """BR-8.1: 4 MP a turn; a hex whose cost exceeds the MP left (or a creek) cannot be entered."""
    for length in range(1, 5):
        for path in product(COSTS, repeat=length):
            expected = digest_cost(path)
            if expected is None:
                with pytest.raises(RuleError) as caught:
                    path_cost(path, COSTS)
                assert caught.value.rule == "BR-8.1"
            else:
                assert path_cost(path, COSTS) == expected


@pytest.mark.rule("BR-8.1")
@pytest.mark.parametrize("path", [["road"] * 4, ["woods", "road"], ["town", "hill", "road"], ["clear", "ford"]])
def test_move_within_4_mp(path):
    """BR-8.1: a legal path is accepted and its MP reported."""
    table = union_moving()
    step = table.do("move", unit="Union 1", path=path)
    assert f"({digest_cost(path)} MP)" in step.summary
    assert table.unit("Union 1").moved


@pytest.mark.rule("BR-8.1")
@pytest.mark.parametrize("params", [
    {"unit": "Union 1", "path": ["woods", "woods"]},
    {"unit": "Union 1", "path": ["clear", "clear", "road"]},
    {"unit": "Union 1", "path": ["creek"]},
    {"unit": "Union 1", "path": ["swamp"]},
    {"unit": "Union 1", "path": "road"},
    {"unit": "Union 1", "crossing": "rope bridge"},
    {"unit": "Evans' Brigade", "path": ["road"]},
    {"unit": "Union 5", "path": ["road"]},
])
def test_illegal_moves_are_refused(params):
    """BR-8.1: over 4 MP, a creek, unknown terrain, the other side's unit or a unit not yet on the map."""
    union_moving().refuse("BR-8.1", "move", **params)


@pytest.mark.rule("BR-8.1")
def test_a_unit_moves_once_per_movement_phase():
    """BR-8.1: the 4 MP are spent in one move per turn."""
    table = union_moving()
    table.do("move", unit="Union 1", path=["road", "road"])
    table.refuse("BR-8.1", "move", unit="Union 1", path=["road"])


@pytest.mark.rule("BR-8.1")
def test_option_a1_costs_are_editable():
    """BR-8.1 with A1 edited (woods 2 MP, creek 4 MP): two woods hexes and a creek fit in 4 MP."""
    costs = {**COSTS, "woods": 2, "creek": 4}
    table = union_moving(terrain_costs=costs)
    table.do("move", unit="Union 1", path=["woods", "woods"])
    table.do("move", unit="Union 2", path=["creek"])
    default = union_moving()
    default.refuse("BR-8.1", "move", unit="Union 1", path=["woods", "woods"])
    default.refuse("BR-8.1", "move", unit="Union 2", path=["creek"])


@pytest.mark.rule("BR-8.1")
@pytest.mark.parametrize("costs", [{"clear": 2}, {**COSTS, "road": 0}, {**COSTS, "road": True}, {**COSTS, "road": "1"}])
def test_option_a1_edited_costs_are_validated(costs):
    """BR-8.1 (A1): an edited table names every terrain, each a whole number of MP >= 1 or empty."""
    with pytest.raises(RuleError) as caught:
        Table(terrain_costs=costs)
    assert caught.value.rule == "BR-8.1"


@pytest.mark.rule("BR-8.2")
def test_the_move_facts_of_older_saves_still_replay():
    """BR-8.2 is the players' to apply on the map (enemy hexes, zones of control, 2 units a hex), so a move no
    longer asks those facts; a saved move that gave them with their old answer (no) still replays."""
    table = union_moving()
    table.do("move", unit="Union 1", path=["road"], into_enemy_hex=False, through_enemy_zoc=False,
             friendly_in_destination=0)
    assert table.unit("Union 1").moved
    for params in ({"into_enemy_hex": True}, {"through_enemy_zoc": True}, {"friendly_in_destination": 2}):
        error = table.refuse("BR-8.1", "move", unit="Union 2", path=["road"], **params)
        assert "no parameter" in error.message


@pytest.mark.rule("BR-8.2")
def test_a_stack_is_at_most_two_units():
    """BR-8.2: a declared stack has 1-2 units, which fight as one (their SP add up)."""
    table = Table(solitaire=False)
    table.to_combat(1)
    error = table.refuse("BR-10.1", "declare_attack", attackers=["Union 1", "Union 2", "Union 3"],
                         defenders=["CSA 3"])
    assert "choose 1 to 2" in error.message
    index = table.declare(["Union 1", "Union 2"], ["CSA 3"])
    assert combat_input(table.state, table.state.attacks[index]).attackers.fire_sp == 7


@pytest.mark.rule("BR-8.3")
@pytest.mark.parametrize("face", range(1, 7))
def test_beauregard_unit_crosses_north_on_5_or_6(face):
    """BR-8.3: a grey CSA unit crosses Bull Run northward only on 5-6; on a failure it stays south."""
    table = csa_moving()
    table.do("move", face, unit="CSA 2", path=["ford"], crossing="ford")
    unit = table.unit("CSA 2")
    crossed = face >= 5
    assert (unit.bank, unit.crossed_free, unit.moved) == (("north", True, True) if crossed else
                                                           ("south", False, False))


@pytest.mark.rule("BR-8.3")
def test_beauregard_failure_means_no_crossing_this_turn():
    """BR-8.3 (A3 default): one roll per unit per movement phase; it may still move on its own bank."""
    table = csa_moving()
    table.do("move", 4, unit="CSA 2", path=["ford"], crossing="ford")
    table.refuse("BR-8.3", "move", 6, unit="CSA 2", path=["ford"], crossing="ford")
    table.do("move", unit="CSA 2", path=["road"])
    assert table.unit("CSA 2").bank == "south"


@pytest.mark.rule("BR-8.3")
def test_option_a3_a_roll_at_every_attempt():
    """BR-8.3 with A3 'per attempt': after a failed roll the unit may try again in the same phase."""
    table = csa_moving(beauregard_rolls="per_attempt")
    table.do("move", 4, unit="CSA 2", path=["ford"], crossing="ford")
    table.do("move", 5, unit="CSA 2", path=["ford"], crossing="ford")
    assert (table.unit("CSA 2").bank, table.unit("CSA 2").crossed_free) == ("north", True)


@pytest.mark.rule("BR-8.3")
def test_once_across_the_grey_unit_moves_both_ways_without_rolling():
    """BR-8.3: once across it is crossed_free and recrosses south and north with no roll; other units never roll."""
    table = csa_moving()
    table.do("move", 6, unit="CSA 2", path=["ford"], crossing="ford")
    table.do("move", unit="CSA 3", path=["ford"], crossing="ford")  # not grey: no die
    table.through_movement()
    table.finish_turn()
    for _ in range(2):
        table.start_turn(4)
        table.do("move", unit="CSA 2", path=["ford"], crossing="ford")
        table.through_movement()
        table.finish_turn()
    assert (table.unit("CSA 2").bank, table.unit("CSA 3").bank) == ("north", "north")
    with pytest.raises(DiceError):
        csa_moving().do("move", unit="CSA 2", path=["ford"], crossing="ford")  # a first crossing needs its die


@pytest.mark.rule("BR-8.4a")
def test_no_awareness_check_before_a_western_crossing():
    """BR-8.4a: no check until a Union unit has crossed at Sudley or Farm Ford; Stone Bridge does not count."""
    table = union_moving()
    table.do("move", unit="Union 1", path=["bridge"], crossing="bridge")
    table.do("end_movement")
    table.do("csa_action_roll", 1, union_south_seen=False)
    table.refuse("BR-8.4a", "awareness_check", 6)
    assert (table.state.union_crossed_west, table.state.csa_aware) == (0, 0)


@pytest.mark.rule("BR-8.4a")
@pytest.mark.parametrize("crossing", ["sudley", "farm"])
def test_awareness_check_opens_the_csa_phase_after_a_western_crossing(crossing):
    """BR-8.4a, §3: from the CSA movement phase of the crossing turn, the check is made at the start of the
    phase, after the solitaire action roll (made before the phase) and before any CSA move."""
    table = Table()
    table.start_turn(1)
    table.do("farm_ford_roll", 6)
    table.do("move", unit="Union 1", path=["ford"], crossing=crossing)
    assert table.state.union_crossed_west == 1
    table.do("end_movement")
    table.refuse("BR-9.0", "awareness_check", 1)
    table.do("csa_action_roll", 1, union_south_seen=False)
    table.refuse("BR-8.4a", "move", unit="CSA 3", path=["road"])
    table.refuse("BR-8.4a", "end_movement")
    table.do("awareness_check", 1)
    table.do("move", unit="CSA 3", path=["road"])


@pytest.mark.rule("BR-8.4a")
@pytest.mark.parametrize("adjacent, face, aware", [(True, None, True)] + [(False, f, f >= 5) for f in range(1, 7)])
def test_awareness_by_adjacency_or_scouts(adjacent, face, aware):
    """BR-8.4a: aware with no roll when a Union unit south of Bull Run is adjacent to a CSA unit, else on 5-6."""
    table = union_moving()
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.do("end_movement")
    table.do("csa_action_roll", 1)
    faces = () if face is None else (face,)
    step = table.do("awareness_check", *faces, adjacent=adjacent)
    assert bool(table.state.csa_aware) == aware
    assert len(step.results[0].rolls) == (0 if adjacent else 1)


@pytest.mark.rule("BR-8.4a")
def test_awareness_is_checked_each_turn_until_it_is_permanent():
    """BR-8.4a: a failed check is repeated each CSA movement phase; once aware, no more checks, ever."""
    table = union_moving()
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.through_movement(awareness=4)
    table.finish_turn()
    assert not table.state.csa_aware
    table.start_turn(1)
    table.through_movement(awareness=5)
    assert table.state.csa_aware == 2
    table.finish_turn()
    table.start_turn(1)
    table.checks(QUIET)
    table.do("end_movement")
    table.do("csa_action_roll", 1)
    table.refuse("BR-8.4a", "awareness_check", 6)
    assert table.state.csa_aware == 2


@pytest.mark.rule("BR-8.4a")
def test_crossing_after_the_csa_phase_is_checked_next_turn():
    """BR-8.4a: with the CSA moving first, a Union crossing that turn is first checked in the next CSA phase."""
    table = Table()
    table.start_turn(4)
    table.checks(QUIET)
    table.do("end_movement")
    table.checks(QUIET)
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.do("end_movement")
    table.finish_turn()
    table.start_turn(4)
    table.refuse("BR-9.0", "awareness_check", 5)
    table.do("csa_action_roll", 1)
    table.do("awareness_check", 5)
    assert table.state.csa_aware == 2


@pytest.mark.rule("BR-8.4a")
def test_option_a4_adjacency_makes_the_csa_aware_at_once():
    """BR-8.4a with A4 'immediate': adjacency during the Union move makes the CSA aware at that moment."""
    default = union_moving()
    default.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    default.refuse("BR-8.4a", "awareness_check", adjacent=True)
    table = union_moving(adjacency_awareness="immediate")
    table.refuse("BR-8.4a", "awareness_check", adjacent=True)  # nobody has crossed yet
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.do("awareness_check", adjacent=True)
    assert table.state.csa_aware == 1
    table.do("end_movement")
    table.do("csa_action_roll", 1)
    table.refuse("BR-8.4a", "awareness_check", 6)  # already aware: no check in the CSA phase


@pytest.mark.rule("BR-8.4b")
@pytest.mark.parametrize("face", range(1, 7))
def test_farm_ford_found_on_5_or_6(face):
    """BR-8.4b: at the start of the Union movement phase, 5-6 finds Farm Ford, usable from that turn."""
    table = Table()
    table.start_turn(1)
    table.refuse("BR-8.4b", "move", unit="Union 1", path=["road"])
    table.do("farm_ford_roll", face)
    assert table.state.farm_ford_found == (1 if face >= 5 else 0)


@pytest.mark.rule("BR-8.4b")
def test_farm_ford_rolls_stop_once_found():
    """BR-8.4b: a roll every Union movement phase until the ford is found, then no more."""
    table = Table()
    table.start_turn(1)
    table.do("farm_ford_roll", 4)
    table.through_movement()
    table.finish_turn()
    table.start_turn(1)
    table.do("farm_ford_roll", 6)
    table.through_movement()
    table.finish_turn()
    table.start_turn(1)
    table.refuse("BR-8.4b", "farm_ford_roll", 6)
    table.do("move", unit="Union 1", path=["ford"], crossing="farm")
    assert table.state.farm_ford_found == 2


@pytest.mark.rule("BR-8.4b")
def test_option_a5_first_farm_ford_roll_on_a_later_turn():
    """BR-8.4b with A5 moved to turn 3: no roll on turns 1-2, the first roll opens turn 3's Union phase."""
    table = Table(farm_ford_first_turn=3)
    for _ in range(2):
        table.start_turn(1)
        table.refuse("BR-8.4b", "farm_ford_roll", 6)
        table.do("move", unit="Union 1", path=["road"])
        table.through_movement()
        table.finish_turn()
    table.start_turn(1)
    table.refuse("BR-8.4b", "move", unit="Union 1", path=["road"])
    table.do("farm_ford_roll", 5)
    assert table.state.farm_ford_found == 3


@pytest.mark.rule("BR-8.4b")
@pytest.mark.parametrize("turns, p", [(1, Fraction(1, 3)), (3, Fraction(19, 27)), (6, Fraction(665, 729))])
def test_vector_13_farm_ford_found_by_turn_n(turns, p):
    """Vector 13 (BR-8.4b): P(found by turn 1, 3, 6) = 1/3, 19/27, 665/729."""
    def rolls_until_found(dice):
        return any(resolve_farm_ford(None, dice).outcome for _ in range(turns))
    assert fractions(exhaustive(rolls_until_found))[True] == p
    assert happened_by(fractions(farm_ford_odds(None))[True], turns) == p


@pytest.mark.rule("BR-8.4c")
def test_no_csa_move_west_of_stone_bridge_until_aware():
    """BR-8.4c: until csa_aware no CSA unit moves west of Stone Bridge; once aware (and for the Union) the
    question is not asked."""
    table = union_moving()
    table.refuse("BR-8.4c", "move", unit="Union 3", path=["road"], west_of_stone_bridge=True)  # not asked
    table.do("move", unit="Union 3", path=["road"])
    table.do("end_movement")
    table.do("csa_action_roll", 1)
    error = table.refuse("BR-8.4c", "move", unit="CSA 3", path=["road"], west_of_stone_bridge=True)
    assert "until the csa is aware" in error.message.lower()
    table.do("move", unit="CSA 3", path=["road"], west_of_stone_bridge=False)
    aware = union_moving()
    csa_aware(aware)
    aware.refuse("BR-8.4c", "move", unit="CSA 3", path=["road"], west_of_stone_bridge=True)  # not asked
    aware.do("move", unit="CSA 3", path=["road"])
    assert aware.unit("CSA 3").moved


@pytest.mark.rule("BR-8.4d")
def test_no_union_crossing_at_farm_ford_until_found():
    """BR-8.4d: until Farm Ford is found no Union unit crosses there; other fords stay open."""
    table = union_moving()
    table.refuse("BR-8.4d", "move", unit="Union 1", path=["ford"], crossing="farm")
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    found = Table()
    found.start_turn(1)
    found.do("farm_ford_roll", 5)
    step = found.do("move", unit="Union 1", path=["ford"], crossing="farm")
    assert "BR-8.4d" in step.rules
    assert (found.unit("Union 1").bank, found.state.fords_crossed) == ("south", ("farm",))
