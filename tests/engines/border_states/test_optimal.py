"""Optimal play of the combat roll (BS-CMB, digest section 8): the digest's test vectors and reference values
(section 9), the dynamic programme against a plain expectimax over every legal keep (exact, `Fraction`),
and its win probability against battles simulated with its own advice."""
from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from benchmarks import border_states as brute
from engines.border_states import optimal, race
from engines.border_states.advice import RANKED_BY, attacker_advice, defender_advice
from engines.border_states.grid import Grid
from engines.border_states.optimal import (
    OBJECTIVES,
    POLICIES,
    Chances,
    attacker_chances,
    defender_chances,
    max_chance_strength_at_least,
    max_expected_strength,
    strength_distribution,
    supply_grid,
)
from engines.border_states.tray import FACES, Strength, Tray, Trays, outcome

EMPTY = (0,) * FACES


def trays(total: int):
    """Every labelled tray with `total` dice in play: left to throw, confirmed per face, damage."""
    for left in range(total + 1):
        for damage in range(total - left + 1):
            for confirmed in product(range(total - left - damage + 1), repeat=FACES):
                if sum(confirmed) == total - left - damage:
                    yield Tray(left, confirmed, damage)


def results(top: int):
    """Every attacker strength with S up to top (F = 0 with S = 0)."""
    return [Strength(0, 0, 0)] + [Strength(s, f, 0) for s in range(1, top + 1) for f in range(1, FACES + 1)]


def from_defender(tray: Tray, value: tuple) -> Chances:
    p, marker, win, draw, damage = value
    return Chances(win, draw, 1 - win - draw, tray.damage + damage, marker)


def from_attacker(tray: Tray, value: tuple) -> Chances:
    p, damage, win, draw = value
    return Chances(win, draw, 1 - win - draw, tray.damage + damage)


# -- digest section 9 --------------------------------------------------------------------------------------

@pytest.mark.rule("BS-CMB")
def test_hand_computed_vectors_v1_to_v3():
    assert max_chance_strength_at_least(2, 2, exact=True) == Fraction(11, 36)
    assert max_expected_strength(2, exact=True) == Fraction(47, 36)
    assert max_chance_strength_at_least(3, 3, exact=True) == Fraction(269, 1944)
    assert max_chance_strength_at_least(3, 2, exact=True) == Fraction(193, 243)


EXPECTED_STRENGTH = [1, 1.3056, 1.9326, 2.5169, 3.1223, 3.7984, 4.5274, 5.3031]
AT_LEAST = {  # T -> {N: P(S >= T)}
    3: {3: .1384, 4: .4517, 5: .7703, 6: .9527, 7: .9971, 8: 1.0000},
    4: {4: .0780, 5: .3037, 6: .5965, 7: .8351, 8: .9581},
    5: {5: .0500, 6: .2249, 7: .4959, 8: .7489},
    6: {6: .0352, 7: .1783, 8: .4301},
}


@pytest.mark.rule("BS-CMB")
def test_reference_table_of_opponent_blind_play():
    assert [round(max_expected_strength(n), 4) for n in range(1, 9)] == EXPECTED_STRENGTH
    assert {t: {n: round(max_chance_strength_at_least(n, t), 4) for n in row} for t, row in AT_LEAST.items()} == AT_LEAST
    assert max_chance_strength_at_least(4, 3, exact=True) == Fraction(126461, 279936)


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("objective, primary", [("win", .7160), ("win_half_draw", .7173), ("win_or_draw", .7289)])
def test_eight_dice_defender_against_the_worked_example(objective, primary):
    chances = defender_chances(Tray(8), Strength(5, 3, 3), objective)
    win, draw = OBJECTIVES[objective]
    assert round(win * chances.win + draw * chances.draw, 4) == primary


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("attacker, defender, value, places", [
    (3, 3, .4862, 4), (4, 4, .4904, 4), (5, 5, .4908, 4), (8, 8, .4941, 4), (6, 8, .152, 3), (8, 6, .839, 3)])
def test_attacker_value_with_both_sides_optimal(attacker, defender, value, places):
    chances = attacker_chances(Tray(attacker), defender)
    assert round(chances.win + chances.draw / 2, places) == value


@pytest.mark.rule("BS-CMB")
def test_three_against_three_exactly():
    chances = attacker_chances(Tray(3), 3, exact=True)
    assert chances == from_attacker(Tray(3), brute.attacker(3)(3, EMPTY, 0))
    assert round(chances.win + chances.draw / 2, 4) == Fraction(4862, 10000)


# -- against the plain expectimax over every legal keep ----------------------------------------------------

def defender_targets(n: int):
    """Every attacker result up to n <= 3 with fewer, as many and more damage dice than the defender can take;
    every result with 0 or 2 damage dice at 4; a spread at 5."""
    if n <= 3:
        return [Strength(r.s, r.f, d) for r in results(n + 1) for d in sorted({0, 1, n, n + 1})]
    if n == 4:
        return [Strength(r.s, r.f, d) for r in results(n + 1) for d in (0, 2)]
    return [Strength(s, f, 1) for s in range(1, 7) for f in (1, 3, 6)] + [Strength(0, 0, 1)]


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_defender_equals_expectimax_on_every_tray(n):
    for attacker in defender_targets(n):
        value = brute.defender(attacker)
        for tray in trays(n):
            assert defender_chances(tray, attacker, exact=True) == from_defender(tray, value(
                tray.left, tray.confirmed, tray.damage)), (attacker, tray)


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("objective", ["win", "win_or_draw"])
def test_other_objectives_equal_expectimax(objective):
    for attacker in [Strength(2, 3, 1), Strength(3, 6, 0), Strength(1, 1, 2)]:
        value = brute.defender(attacker, objective)
        for tray in trays(4):
            assert defender_chances(tray, attacker, objective, exact=True) == from_defender(
                tray, value(tray.left, tray.confirmed, tray.damage))


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("defender", [1, 2, 3, 4, 5])
def test_attacker_equals_expectimax_on_every_tray(defender):
    value = brute.attacker(defender)
    for n in range(1, 6):
        for tray in trays(n):
            assert attacker_chances(tray, defender, exact=True) == from_attacker(
                tray, value(tray.left, tray.confirmed, tray.damage)), tray


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_opponent_blind_tables_equal_expectimax(n):
    assert max_expected_strength(n, exact=True) == brute.strength(lambda s: s)(n, EMPTY, 0)[0]
    for target in range(n + 2):
        assert max_chance_strength_at_least(n, target, exact=True) == brute.strength(
            lambda s: int(s >= target))(n, EMPTY, 0)[0]


def test_the_race_tables_equal_the_labelled_grid_beyond_five_dice():
    """The defender's reply is solved in face classes, skipping dominated takes (more than one die of a face
    that can no longer reach its goal); the labelled grid tries every take. Primaries agree exactly at 6."""
    n = 6
    for attacker in [Strength(2, 4, 0), Strength(3, 1, 0), Strength(4, 6, 0), Strength(0, 0, 0)]:
        reply = optimal._reply_table(optimal.DEFAULT, n, True)
        states = race.defender_states(Trays.of([Tray(n)]), attacker, False)[n]
        weights = OBJECTIVES[optimal.DEFAULT]

        def terminal(counts):
            values = [weights[0] * (r == "defender") + weights[1] * (r == "draw") for r in
                      (outcome(attacker, Tray(0, tuple(c)).result()) for c in counts.tolist())]
            values = np.array([Fraction(v) for v in values], dtype=object)
            return np.stack([values, 0 * values, values, values])

        grid = Grid(n, terminal, exact=True)
        assert reply.value(n, states)[0, 0] == grid.values[n, 0][0, 0]


# -- strength distributions ----------------------------------------------------------------------------------

def policy_distribution(n: int, choose) -> dict[int, Fraction]:
    """S -> P(S) keeping every die of the face choose(confirmed, throw) picks (an independent recursion)."""
    out: dict[int, Fraction] = {}

    def walk(left, confirmed, p):
        if not left:
            out[max(confirmed)] = out.get(max(confirmed), Fraction(0)) + p
            return
        for throw, q in brute.throws(left, True):
            f = choose(confirmed, throw)
            walk(left - throw[f], tuple(c + (throw[f] if i == f else 0) for i, c in enumerate(confirmed)), p * q)

    walk(n, EMPTY, Fraction(1))
    return out


def greedy(confirmed, throw):
    return max((f for f in range(FACES) if throw[f]), key=lambda f: (confirmed[f] + throw[f], throw[f]))


def most_common(confirmed, throw):
    return max((f for f in range(FACES) if throw[f]), key=lambda f: (throw[f], confirmed[f]))


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("policy, choose", [("greedy", greedy), ("most_common", most_common)])
def test_simple_policies_equal_an_independent_recursion(policy, choose):
    for n in range(1, 5):
        expected = policy_distribution(n, choose)
        got = strength_distribution(n, policy, exact=True)
        assert {s: p for s, p in got.items() if p} == expected


@pytest.mark.rule("BS-CMB")
def test_strength_distributions_for_the_notebook():
    for n in (1, 5, 8, 12):
        means = {}
        for policy in POLICIES:
            distribution = strength_distribution(n, policy)
            assert set(distribution) == set(range(n + 1))
            assert sum(distribution.values()) == pytest.approx(1)
            means[policy] = sum(s * p for s, p in distribution.items())
        assert means["optimal"] == pytest.approx(max_expected_strength(n))
        assert means["most_common"] <= means["greedy"] + 1e-12 <= means["optimal"] + 2e-12
    exact = strength_distribution(3, exact=True)
    assert sum(s * p for s, p in exact.items()) == max_expected_strength(3, exact=True)


@pytest.mark.rule("BS-CMB")
def test_the_engine_prepares_the_strength_tables_of_every_policy_before_a_page_asks():
    optimal._strength_table.cache_clear()
    from engines.border_states import ENGINE
    ENGINE.prepare()
    built = optimal._strength_table.cache_info().misses
    assert built == len(POLICIES)
    for dice in (1, 6, 12):
        for policy in POLICIES:
            strength_distribution(dice, policy)
    assert optimal._strength_table.cache_info().misses == built


# -- the supply heatmap, the data folder ---------------------------------------------------------------------

@pytest.mark.rule("BS-CMB")
def test_supply_grid():
    grid = supply_grid(3, 3, 2, 3)
    assert len(grid.win) == 3 and all(len(row) == 4 for row in grid.win)
    assert round(grid.win[0][0] + grid.draw[0][0] / 2, 4) == .4862
    for x, y in product(range(3), range(4)):
        chances = attacker_chances(Tray(3 + x), 3 + y)
        assert (grid.win[x][y], grid.draw[x][y]) == pytest.approx((chances.win, chances.draw))
        if x:
            assert grid.win[x][y] > grid.win[x - 1][y]
        if y:
            assert grid.win[x][y] < grid.win[x][y - 1]


@pytest.fixture
def data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_DATA_DIR", str(tmp_path))
    brute.clear_caches()
    yield tmp_path / "cache" / "border_states"
    brute.clear_caches()


def test_the_policy_is_cached_versioned_in_the_data_folder(data_folder, monkeypatch):
    optimal.full_policy(4)
    files = sorted(p.name for p in data_folder.iterdir())
    assert files == [f"attacker-win_half_draw-4-4-v{optimal.CACHE_VERSION}.npz",
                     f"reply-win_half_draw-4-v{optimal.CACHE_VERSION}.npz"]
    before = attacker_chances(Tray(4), 4)
    for name in ("_attacker_table", "_reply_table"):
        getattr(optimal, name).cache_clear()

    def refuse(*args, **kwargs):
        raise AssertionError("rebuilt a table that is in the data folder")

    with monkeypatch.context() as patch:
        patch.setattr(optimal, "Race", refuse)
        patch.setattr(optimal, "Grid", refuse)
        assert attacker_chances(Tray(4), 4) == before


def test_a_stale_or_broken_cache_file_is_rebuilt(data_folder):
    data_folder.mkdir(parents=True)
    stale = data_folder / f"reply-win_half_draw-3-v{optimal.CACHE_VERSION}.npz"
    np.savez(stale, format=np.array(optimal.CACHE_FORMAT), version=np.array(optimal.CACHE_VERSION - 1))
    (data_folder / f"attacker-win_half_draw-3-3-v{optimal.CACHE_VERSION}.npz").write_bytes(b"not a table")
    assert round(attacker_chances(Tray(3), 3).win, 4) == round(float(brute.attacker(3)(3, EMPTY, 0)[2]), 4)
    with np.load(stale, allow_pickle=False) as data:
        assert int(data["version"]) == optimal.CACHE_VERSION


def test_unknown_objective_and_too_many_dice():
    with pytest.raises(ValueError, match="objective"):
        defender_chances(Tray(3), Strength(1, 1, 0), "win_everything")
    with pytest.raises(ValueError, match="16"):
        attacker_chances(Tray(17), 3)


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("side", ["defender", "attacker"])
def test_the_advice_lists_every_take_with_its_expectimax_value_best_first(side):
    """A throw of 4 dice (2, 2, 5, 6) from a 4-dice tray: every legal take is listed once, with the chances the
    plain expectimax gives after it, best first by the expectimax's value vector."""
    tray, throw, attacker = Tray(4), (0, 2, 0, 0, 1, 1), Strength(2, 4, 1)
    if side == "defender":
        advice, value, damage_at = defender_advice(tray, throw, attacker, exact=True), brute.defender(attacker), 4
    else:
        advice, value, damage_at = attacker_advice(tray, throw, 3, exact=True), brute.attacker(3), 1
    keeps = brute.keeps(throw)
    assert len(advice) == len(keeps) and {a.keep for a in advice} == set(keeps) and [a.best for a in advice] == [True] + [False] * (
        len(keeps) - 1)
    vectors = []
    for a in advice:
        after = tray.take(a.keep)
        v = value(after.left, after.confirmed, after.damage)
        expected = from_defender(after, v) if side == "defender" else from_attacker(after, v)
        assert (a.win, a.draw, a.loss, a.damage) == (expected.win, expected.draw, expected.loss, expected.damage)
        vectors.append(brute.keep_value(value, tray, a.keep, damage_at))
    assert vectors == sorted(vectors, reverse=True)


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("side", ["defender", "attacker"])
def test_each_take_says_what_it_is_ranked_by_win_plus_half_a_draw(side):
    """Issue 16: the list of takes is ranked first by P(win) + 1/2 P(draw); each take carries that number, and it
    never rises down the list."""
    tray, throw = Tray(4), (0, 2, 0, 0, 1, 1)
    advice = (defender_advice(tray, throw, Strength(2, 4, 1), exact=True) if side == "defender"
              else attacker_advice(tray, throw, 3, exact=True))
    assert RANKED_BY == "P(win) + ½ P(draw)"
    assert [a.score for a in advice] == [a.win + Fraction(1, 2) * a.draw for a in advice]
    assert [a.score for a in advice] == sorted((a.score for a in advice), reverse=True)


# -- against simulated battles -------------------------------------------------------------------------------

def play(tray: Tray, advise, rng: random.Random, memo: dict) -> Strength:
    """A side's whole roll, each keep the best of the advice."""
    while not tray.done:
        throw = [0] * FACES
        for _ in range(tray.left):
            throw[rng.randrange(FACES)] += 1
        throw = tuple(throw)
        if (tray, throw) not in memo:
            memo[tray, throw] = advise(tray, throw)[0].keep
        tray = tray.take(memo[tray, throw])
    return tray.result()


@pytest.mark.rule("BS-CMB")
def test_win_probability_against_200000_simulated_battles():
    battles, dice = 200_000, 4
    rng = random.Random(2023)
    attacker_memo: dict = {}
    defender_memo: dict = {}
    tally = {"attacker": 0, "draw": 0, "defender": 0}
    for _ in range(battles):
        a = play(Tray(dice), lambda t, th: attacker_advice(t, th, dice), rng, attacker_memo)
        memo = defender_memo.setdefault(a, {})
        d = play(Tray(dice), lambda t, th: defender_advice(t, th, a), rng, memo)
        tally[outcome(a, d)] += 1
    chances = attacker_chances(Tray(dice), dice)
    for p, count in ((chances.win, tally["attacker"]), (chances.draw, tally["draw"])):
        error = (p * (1 - p) / battles) ** 0.5
        assert abs(count / battles - p) < 4.5 * error
    primary = chances.win + chances.draw / 2
    assert abs((tally["attacker"] + tally["draw"] / 2) / battles - primary) < 4.5 * (.25 / battles) ** 0.5
