"""HD-4.10 basic fire from the players' form (unconfigured until filled), HD-4.3 the leader's split, A22."""
from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from companion.dice import ScriptedDice
from companion.engine import RuleError
from companion.odds import fractions
from engines.house_divided.basic import FORM, STRENGTH_KEYS, basic_rules_from, require_filled
from engines.house_divided.fire import FireInput, Shot, check_split, fire_odds, resolve_fire, splits
from engines.house_divided.views import fire_preview
from tests.engines.house_divided.support import TEST_BASIC, TEST_STRENGTH, Table, battle_setup, unit


@pytest.mark.rule("HD-4.3", "HD-A22")
def test_vector_03_lees_splits():
    """TV-3 (Lee, R = 3, three units): [1,1,1], [3,0,0] and [2,1,0] are legal; 10 ordered splits sum to 3;
    [2,2,0] is illegal. A22: any split, not capped at 2 (Lee 3) units."""
    exact = list(splits(3, 3))
    assert len(exact) == 10
    assert {(1, 1, 1), (3, 0, 0), (2, 1, 0)} <= set(exact) and (2, 2, 0) not in exact
    units = ("a", "b", "c")
    for split in ((1, 1, 1), (3, 0, 0), (2, 1, 0), (0, 1, 0)):
        check_split(3, dict(zip(units, split)), units)
    with pytest.raises(RuleError) as caught:
        check_split(3, dict(zip(units, (2, 2, 0))), units)
    assert caught.value.rule == "HD-4.3"
    assert len(list(splits(3, 3, exact=False))) == 20  # sums 0..3: 1 + 3 + 6 + 10


@pytest.mark.rule("HD-4.3")
def test_points_go_on_firing_units_only():
    with pytest.raises(RuleError, match="does not fire"):
        check_split(3, {"d": 1}, ("a", "b"))
    with pytest.raises(RuleError, match="whole numbers"):
        check_split(3, {"a": -1}, ("a",))


@pytest.mark.rule("HD-4.10", "HD-4.3")
def test_a_unit_hits_at_or_under_its_number():
    """HD-4.10: hit when d6 <= strength + leader points - the entrenchment penalty; every face."""
    for strength, bonus, penalty, face in product(range(0, 7), range(0, 3), (0, 1), range(1, 7)):
        result = resolve_fire(FireInput((Shot("u", strength, bonus, penalty),)), ScriptedDice([face]))
        assert result.outcome == (face <= strength + bonus - penalty)


@pytest.mark.rule("HD-4.10")
def test_hits_of_several_units_are_poisson_binomial():
    """Strengths 2 and 4 at an entrenched side: chances 1/6 and 1/2, so 0, 1, 2 hits with 5/12, 1/2, 1/12."""
    odds = fire_odds(FireInput((Shot("a", 2, 0, 1), Shot("b", 4, 0, 1))))
    assert fractions(odds) == {0: F(5, 12), 1: F(1, 2), 2: F(1, 12)}


@pytest.mark.rule("HD-4.10")
def test_the_form_lists_every_number_the_source_lacks():
    """HD-4.10: strengths for each arm, grade and face; the firing order; entrenchment; the leader point."""
    keys = {f.key for f in FORM}
    assert set(STRENGTH_KEYS) <= keys and len(STRENGTH_KEYS) == 12
    assert {"firing_order", "entrenchment", "leader_point", "garrison_as"} <= keys
    empty = basic_rules_from({})
    assert not empty.filled and len(empty.missing()) == 14
    with pytest.raises(RuleError, match="unconfigured") as caught:
        require_filled(empty)
    assert caught.value.rule == "HD-4.10"
    assert basic_rules_from(TEST_BASIC).filled


@pytest.mark.rule("HD-4.10", "HD-A13")
@pytest.mark.parametrize("bad, rule", [
    ({"strength": {"inf/militia/full": 7}}, "HD-4.10"),
    ({"strength": {"inf/militia/full": -1}}, "HD-4.10"),
    ({"strength": {"inf/militia/full": 2.5}}, "HD-4.10"),
    ({"strength": {"artillery/militia/full": 2}}, "HD-4.10"),
    ({"firing_order": "random"}, "HD-4.10"),
    ({"entrenchment": "double"}, "HD-4.10"),
    ({"garrison_as": "elite"}, "HD-A13"),
    ({"colour": "blue"}, "HD-4.10"),
    ([], "HD-4.10"),
])
def test_the_form_refuses_bad_entries(bad, rule):
    with pytest.raises(RuleError) as caught:
        basic_rules_from(bad)
    assert caught.value.rule == rule


def skirmish(basic=None, **options):
    """Union attack at A (1862): two Union militia against a CSA militia and a veteran, with Lee (3)."""
    units = [unit("U1", "USA", "A"), unit("U2", "USA", "A"), unit("C1", "CSA", "A"),
             unit("C2", "CSA", "A", "veteran")]
    data = battle_setup(units, [{"name": "Lee", "front": 3, "box": "A"}], year=1862)
    if basic:
        data["basic_rules"] = basic
    table = Table(data, supply=False, **options)
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    return table


@pytest.mark.rule("HD-4.10")
def test_until_the_form_is_filled_fire_is_unconfigured():
    """HD-4.10: no guessing: the fire resolver refuses, and the players enter the hits they scored instead.
    With no firing order entered, both sides fire, then both place their hits."""
    table = skirmish()
    error = table.refuse("HD-4.10", "fire", 1, 1)
    assert "unconfigured" in error.message and "inf/militia/full" in error.message
    with pytest.raises(RuleError, match="unconfigured"):
        fire_preview(table.state)
    table.refuse("HD-4.10", "record_fire", side="USA", units=["U1", "U2"], hits=3)
    table.do("record_fire", side="USA", units=["U1", "U2"], hits=1)
    assert table.state.battle.of("CSA").hits_due == 1
    table.refuse("HD-4.10", "take_hits", side="CSA", units=["C2"])
    table.do("record_fire", side="CSA", units=["C1", "C2"], hits=2)
    table.do("take_hits", side="CSA", units=["C2"])
    table.do("take_hits", side="USA", units=["U1", "U1"])
    assert (table.unit("C2").face, table.unit("U1").status) == ("reduced", "eliminated")


@pytest.mark.rule("HD-4.10")
def test_filling_the_form_mid_game_enables_fire():
    table = skirmish()
    table.do("configure_basic_rules", settings=TEST_BASIC)
    step = table.do("fire", 2, 3)
    assert step.results[0].details["hit_on"] == {"U1": 2, "U2": 2} and step.results[0].outcome == 1
    table.refuse("HD-4.10", "configure_basic_rules", settings={})


@pytest.mark.rule("HD-4.10", "HD-4.3", "HD-5.6")
def test_lees_points_raise_the_hit_number():
    """HD-4.3: Lee's 3 points split 2 + 1 on the two CSA firing units: militia 2 -> 4, veteran 3 -> 4."""
    table = skirmish(TEST_BASIC)
    table.do("fire", 6, 6)
    table.refuse("HD-4.3", "fire", 1, 1, side="CSA", bonus={"C1": 2, "C2": 2})
    preview = fire_preview(table.state, "CSA", bonus={"C1": 2, "C2": 1})
    assert fractions(preview) == {0: F(1, 9), 1: F(4, 9), 2: F(4, 9)}  # both hit on 4 or less: 2/3 each
    step = table.do("fire", 4, 5, side="CSA", bonus={"C1": 2, "C2": 1})
    assert step.results[0].details["hit_on"] == {"C1": 4, "C2": 4}
    assert step.results[0].outcome == 1 and "HD-4.3" in step.rules


@pytest.mark.rule("HD-4.10", "HD-5.5")
def test_fire_at_an_entrenched_side_needs_one_less():
    """HD-4.10 default: -1 to the hit number of fire aimed at a side whose units are all entrenched."""
    units = [unit("U1", "USA", "A", "crack"), unit("C1", "CSA", "A", entrenched=True)]
    table = Table(battle_setup(units, basic_rules=TEST_BASIC), supply=False)
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 1, 1)
    assert table.do("fire", 4).results[0].details["hit_on"] == {"U1": TEST_STRENGTH["inf/crack/full"] - 1}
    plain = dict(TEST_BASIC, entrenchment="none")
    table = Table(battle_setup(units, basic_rules=plain), supply=False)
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 1, 1)
    assert table.do("fire", 4).results[0].details["hit_on"] == {"U1": 4}


@pytest.mark.rule("HD-4.3", "HD-A22")
@pytest.mark.parametrize("reading", ["any", "capped"])
def test_option_a22_the_parenthesis_as_a_cap(reading):
    """A22 (b): a leader's points go on at most 2 units (Lee: 3); (a), the default: any split. Grant (3) with three
    Union firing units: 1 + 1 + 1 only under (a); 2 + 1 either way; Lee (3): 1 + 1 + 1 either way (TV-3)."""
    units = [unit(n, "USA", "A") for n in ("U1", "U2", "U3")] + [unit(n, "CSA", "A") for n in ("C1", "C2", "C3")]
    leaders = [{"name": "Grant", "front": 3, "box": "A"}, {"name": "Lee", "front": 3, "box": "A"}]
    table = Table(battle_setup(units, leaders, year=1862, basic_rules=TEST_BASIC), supply=False,
                  **({} if reading == "any" else {"leader_split": reading}))
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 6, 6)
    spread = {"U1": 1, "U2": 1, "U3": 1}
    if reading == "capped":
        table.refuse("HD-A22", "fire", 6, 6, 6, side="USA", bonus=spread)
        step = table.do("fire", 6, 6, 6, side="USA", bonus={"U1": 2, "U2": 1})
    else:
        step = table.do("fire", 6, 6, 6, side="USA", bonus=spread)
    assert "HD-4.3" in step.rules
    table.do("fire", 6, 6, 6, side="CSA", bonus={"C1": 1, "C2": 1, "C3": 1})
    check_split(3, {"a": 1, "b": 1, "c": 1}, ("a", "b", "c"), cap=3)
    with pytest.raises(RuleError) as refused:
        check_split(3, {"a": 1, "b": 1, "c": 1}, ("a", "b", "c"), cap=2)
    assert refused.value.rule == "HD-A22"


@pytest.mark.rule("HD-4.10", "HD-5.5")
def test_fire_at_units_in_and_out_of_their_works():
    """HD-4.10 with entrenchment each unit's own (as the digest words it for the garrison, HD-4.11): C1 entrenched
    beside C2 in the open. The Union crack unit (4) hits C1 on 1-3 and C2 on 1-4: a 4 hits only C2."""
    units = [unit("U1", "USA", "A", "crack"), unit("C1", "CSA", "A", entrenched=True), unit("C2", "CSA", "A")]
    table = Table(battle_setup(units, basic_rules=TEST_BASIC), supply=False)
    table.to_battles()
    table.do("start_battle", box="A")
    table.do("battle_command", 1, 1)
    assert fractions(fire_preview(table.state)) == {0: F(1, 3), 1: F(2, 3)}
    step = table.do("fire", 4)
    assert step.results[0].details == {"hit_on": {"U1": 3}, "open_only": 1}
    table.refuse("HD-4.10", "take_hits", units=["C1"])
    table.do("take_hits")                      # one way only: on C2
    assert table.unit("C2").reduced and not table.unit("C1").reduced
