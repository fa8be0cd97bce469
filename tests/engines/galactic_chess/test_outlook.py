"""The whole battle under a policy (digest section 8, item 6): V11 and V12 exactly, the exact recursion
against 200,000 battles played with dice, the Monte Carlo estimate and its Wilson interval."""
from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from companion.odds import fractions
from engines.galactic_chess.battle import (
    ACTED,
    ATTACKER,
    DEFENDER,
    DESTROYED,
    GROUND,
    READY,
    RETREATED,
    SURVIVED,
    BattleRules,
    Field,
    apply_duel,
    apply_retreat,
    opportunity,
    retreat_threshold,
    with_rolloff,
)
from engines.galactic_chess.duel import DuelOutcome
from engines.galactic_chess.interval import Estimate, wilson
from engines.galactic_chess.outlook import (
    EXACT_MAX_UNITS,
    BattleInput,
    Model,
    after_move,
    battle_odds,
    exact,
    outlook,
    read,
    simulate,
)
from engines.galactic_chess.policy import ENGAGE, GREEDY_KILL, GREEDY_SAFETY, RETREAT, Move
from engines.galactic_chess.retreat import DESTROYED as SHOT
from engines.galactic_chess.retreat import RETREATED as AWAY
from engines.galactic_chess.retreat import STAYS
from tests.engines.galactic_chess.support import unit

# V11: X(S5 A2 D9) vs Y(S3 A1 D8), one owner each, different nations.
X, Y = unit("X", ATTACKER, 2, 5, 2, 9), unit("Y", DEFENDER, 2, 3, 1, 8)
# V12: A1 3* S6 A3 D9 (decl. 1), A2 2* S4 A2 D8 (decl. 2) vs B1 2* S5 A2 D9 (decl. 1), B2 1* S4 A1 D7 (decl. 2).
V12 = (unit("A1", ATTACKER, 3, 6, 3, 9, 0), unit("A2", ATTACKER, 2, 4, 2, 8, 1),
       unit("B1", DEFENDER, 2, 5, 2, 9, 0), unit("B2", DEFENDER, 1, 4, 1, 7, 1))


@pytest.mark.rule("GC-6B.4", "GC-6B.5")
def test_vector_v11_one_against_one_always_engaging():
    """V11 (GC-6B.5): X acts, then Y: P(Y destroyed) = 1 409 616/1 679 616, P(X destroyed) = 225 900/1 679 616,
    P(both live) = (210/1296)^2."""
    view = outlook(BattleInput((X, Y)))
    assert view.exact
    assert view.fate("Y", DESTROYED) == F(1409616, 1679616)
    assert view.fate("X", DESTROYED) == F(225900, 1679616)
    assert view.chance(lambda o: o.fates == (SURVIVED, SURVIVED)) == F(210, 1296) ** 2


@pytest.mark.rule("GC-6B.6")
def test_vector_v11_when_y_retreats_instead():
    """V11 (GC-6B.6): X engages first; if Y then retreats (its own SC: T = 6, r = 15/36; on a failure X shoots
    with q(6)): P(Y destroyed) = 36 881/46 656, P(Y retreats) = 175/2592."""
    model = Model(BattleInput((X, Y)))
    first = model.first()
    total: Counter = Counter()
    for w, after, _ in model.move_branches(first, 0, Move(ENGAGE, 1), None):
        if model.over(after):
            total[after.status[1]] += F(w, 1296)
            continue
        for w2, end, _ in model.move_branches(after, 1, Move(RETREAT), 0):
            total[end.status[1]] += F(w, 1296) * F(w2, 1296)
    assert total[DESTROYED] == F(36881, 46656) and total[RETREATED] == F(175, 2592)


@pytest.mark.rule("GC-6B.2", "GC-6B.4", "GC-6B.4r", "GC-6B.5", "GC-6B.7")
def test_vector_v12_two_against_two():
    """V12 (the digest author's exhaustive enumeration): always engage, the target most likely destroyed, the tie
    winner first, roll-offs 1/2: P(exactly A1 and B1 survive) = 124 845 787/161 243 136, P(A sweeps B) 0.175763,
    P(B sweeps A) 0.030442, P(nobody left) 0.0029249, E[B losses] 1.150137, E[A losses] 0.850282, E[VP] A's owner
    1.325899, B's owner 0.880724."""
    view = outlook(BattleInput(V12))
    exactly = view.chance(lambda o: o.fates == (SURVIVED, DESTROYED, SURVIVED, DESTROYED))
    assert exactly == F(124845787, 161243136)
    for value, digest, places in ((view.wins(ATTACKER), 0.175763, 6), (view.wins(DEFENDER), 0.030442, 6),
                                  (view.both_gone(), 0.0029249, 7), (view.losses(DEFENDER), 1.150137, 6),
                                  (view.losses(ATTACKER), 0.850282, 6), (view.vp("A"), 1.325899, 6),
                                  (view.vp("B"), 0.880724, 6)):
        assert round(float(value), places) == digest


# --- the exact recursion against battles played with dice -------------------------------------------

def plan(model: Model, node: int) -> tuple | None:
    """What the next opportunity of a state rolls, and the state each result leads to, from the rules'
    functions only (never the recursion's weights): None once the battle is over."""
    units, rules, field = model.units, model.rules, model.fields[node]
    if model.over(field):
        return None
    opp = opportunity(units, field, rules)
    if opp.roll_off:
        return ("roll-off", model.node(with_rolloff(field, ATTACKER, opp.strategy)),
                model.node(with_rolloff(field, DEFENDER, opp.strategy)))
    actor, move, shooter = model.decide(field)

    def after(changed):
        changed_field, awards = changed
        return model.node(model.finish(changed_field, actor)), model.add(model.zero(), awards)

    if move.kind == ENGAGE:
        x, y = units[actor], units[move.target]
        ends = {(hx, hy): after(apply_duel(units, field, actor, move.target, DuelOutcome(hy, hx), rules))
                for hx in (False, True) for hy in (False, True)}
        return ("engage", x.strategy - y.strategy, y.defence - x.attack, x.defence - y.attack, ends)
    if move.kind == RETREAT:
        need = units[actor].defence - units[shooter].attack if shooter is not None else None
        ends = {r: after(apply_retreat(units, field, actor, r, shooter, rules)) for r in (AWAY, SHOT, STAYS)}
        return ("retreat", retreat_threshold(units, field, actor), need, ends)
    return ("pass", after((field, ())))


def play_with_dice(model: Model, trials: int, seed: int) -> Counter:
    """Battles played die by die: the policy's choices, then 2d6 for each strike in the order GC-6B.5 gives (the
    lower strategy only if it survived), the retreat roll and the free attack (GC-6B.6), 1d6 roll-offs re-rolled
    on ties (GC-6B.4r)."""
    rng = random.Random(seed)
    die = lambda: int(rng.random() * 6) + 1
    two = lambda: die() + die()
    plans: dict[int, tuple | None] = {}
    counts: Counter = Counter()
    first = model.node(model.first())
    for _ in range(trials):
        node, vp = first, [0] * len(model.cliques)
        while True:
            if node not in plans:
                plans[node] = plan(model, node)
            step = plans[node]
            if step is None:
                break
            if step[0] == "roll-off":
                a, b = die(), die()
                node = node if a == b else step[1] if a > b else step[2]
                continue
            if step[0] == "engage":
                _, lead, need_x, need_y, ends = step
                hit_x = hit_y = False
                if lead >= 0:
                    hit_x = two() >= need_x
                if lead == 0 or (lead > 0 and not hit_x):
                    hit_y = two() >= need_y
                if lead < 0:
                    hit_y = two() >= need_y
                    hit_x = not hit_y and two() >= need_x
                node, won = ends[(hit_x, hit_y)]
            elif step[0] == "retreat":
                _, threshold, need, ends = step
                result = AWAY if two() <= threshold else SHOT if need is not None and two() >= need else STAYS
                node, won = ends[result]
            else:
                node, won = step[1]
            vp = [v + w for v, w in zip(vp, won)]
        counts[model.outcome(model.fields[node], tuple(vp))] += 1
    return counts


# Three against three with an air unit: ties at strategy 4 across sides, SC changes, roll-offs once both first
# SCs are gone, retreats under the safety policy, VP to two owners on one side.
MIXED = (unit("A1", ATTACKER, 3, 6, 3, 9, 0), unit("A2", ATTACKER, 2, 4, 2, 8, 1, owner="C"),
         unit("Air", ATTACKER, 0, 4, 1, 6, 1, owner="C", kind=GROUND),
         unit("B1", DEFENDER, 2, 5, 2, 9, 0), unit("B2", DEFENDER, 1, 4, 1, 7, 1), unit("B3", DEFENDER, 2, 4, 3, 8, 1))
TRIALS = 200_000


def assert_agrees(exact_probs: dict, counts: Counter, trials: int) -> None:
    """Each outcome's share within 4.5 standard errors of its exact chance (the outcomes below 1/1000 together),
    and the expected VP of each clique within 4.5 standard errors."""
    small = sum(p for p in exact_probs.values() if p < F(1, 1000))
    seen_small = sum(c for o, c in counts.items() if exact_probs.get(o, 0) < F(1, 1000))
    for p, k in [(p, counts.get(o, 0)) for o, p in exact_probs.items() if p >= F(1, 1000)] + [(small, seen_small)]:
        se = math.sqrt(float(p) * (1 - float(p)) / trials)
        assert abs(k / trials - float(p)) <= 4.5 * se + 1e-12, (p, k)
    assert set(counts) <= set(exact_probs), "a simulated outcome the recursion calls impossible"
    cliques = {(o, c) for out in exact_probs for o, c, _ in out.vp}
    for clique in cliques:
        def value(out, clique=clique):
            return sum(v for o, c, v in out.vp if (o, c) == clique)

        mu = sum(p * value(o) for o, p in exact_probs.items())
        var = sum(p * (value(o) - mu) ** 2 for o, p in exact_probs.items())
        seen = sum(n * value(o) for o, n in counts.items()) / trials
        assert abs(seen - float(mu)) <= 4.5 * math.sqrt(float(var) / trials)


@pytest.mark.rule("GC-6B.4", "GC-6B.4r", "GC-6B.5", "GC-6B.6", "GC-6B.7")
def test_exact_recursion_agrees_with_200000_battles_played_with_dice():
    """The exact distribution of a 3 v 3 battle under the safety policy against 200,000 battles rolled die by
    die under the same policy: every outcome and every clique's expected VP within 4.5 standard errors."""
    inputs = BattleInput(MIXED, policy=GREEDY_SAFETY)
    probs = fractions(battle_odds(inputs))
    model = Model(inputs)
    counts = play_with_dice(model, TRIALS, seed=7)
    assert any(f == RETREATED for o in probs for f in o.fates)        # the policy does retreat
    assert any(opportunity(MIXED, f, model.rules).roll_off for f in model.fields if not model.over(f))   # and roll off
    assert_agrees(probs, counts, TRIALS)


# Q12's case: both SCs S5, cross-side ties at S4 and later at S3 (two roll-offs by default, one per SC pair).
TIES = (unit("SC_A", ATTACKER, 3, 5, 2, 9, 0), unit("A4", ATTACKER, 2, 4, 2, 8, 1),
        unit("A3", ATTACKER, 1, 3, 2, 8, 2), unit("SC_B", DEFENDER, 3, 5, 2, 9, 0),
        unit("B4", DEFENDER, 2, 4, 2, 8, 1), unit("B3", DEFENDER, 1, 3, 2, 8, 2))


@pytest.mark.rule("GC-6B.4r")
def test_the_battle_odds_follow_the_roll_off_option():
    """Q12: under the option that a roll-off stands for the SC pair, the exact odds agree with battles rolled die by
    die under that option, and differ from the default's (a roll-off for one strategy value)."""
    by_pair = BattleInput(TIES, rules=BattleRules(rolloff_scope="pair"))
    probs = fractions(battle_odds(by_pair))
    assert probs != fractions(battle_odds(BattleInput(TIES)))
    model = Model(by_pair)
    assert_agrees(probs, play_with_dice(model, 50_000, seed=11), 50_000)


@pytest.mark.rule("GC-6B.7")
def test_monte_carlo_estimate_agrees_with_the_exact_recursion():
    """The simulation used beyond the exact size, run on a battle within it, agrees with the exact odds."""
    model = Model(BattleInput(V12))
    start = {(model.first(), model.zero()): 1}
    assert_agrees(fractions(exact(model, start)), simulate(model, start, TRIALS, seed=3), TRIALS)


@pytest.mark.rule("GC-6B.7")
def test_beyond_the_digests_size_the_outlook_is_an_estimate_with_its_interval():
    """Digest section 8: exact up to 12 units (about 3^n (n+1) states, past 10^7 from 13); beyond, Monte Carlo
    labelled as an estimate with its 95% Wilson interval."""
    big = tuple(unit(f"A{i}", ATTACKER, 1 + i % 3, 3 + i % 4, 2, 8, i) for i in range(7)) + \
        tuple(unit(f"B{i}", DEFENDER, 1 + i % 2, 2 + i % 5, 2, 8, i) for i in range(7))
    assert len(big) == EXACT_MAX_UNITS + 2
    view = outlook(BattleInput(big), trials=4000, seed=1)
    assert not view.exact and isinstance(view.wins(ATTACKER), Estimate)
    low, high = view.wins(ATTACKER).interval
    assert low <= view.wins(ATTACKER).value <= high and view.wins(ATTACKER).trials == 4000
    assert "95% interval" in view.wins(ATTACKER).text()
    small = outlook(BattleInput(V12))
    assert small.exact and isinstance(small.wins(ATTACKER), F)
    quick = outlook(BattleInput(V12), trials=4000, seed=1, exact_max=3)     # a caller may lower the exact size
    assert not quick.exact and quick.wins(ATTACKER).interval[0] <= 0.175763 <= quick.wins(ATTACKER).interval[1]


@pytest.mark.rule("GC-6B.7")
def test_wilson_interval():
    """The Wilson score interval (z = 1.96): 0 of 10 gives (0, 0.2775), 5 of 10 gives (0.2366, 0.7634)."""
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    assert tuple(round(x, 4) for x in wilson(5, 10)) == (0.2366, 0.7634)
    with pytest.raises(ValueError):
        wilson(0, 0)


@pytest.mark.rule("GC-6B.5", "GC-6B.6")
def test_after_move_plays_the_chosen_move_then_the_policy():
    """A move the player picks (not the policy's) starts the rest of the battle: the V11 battle after X chooses to
    retreat instead of engaging: X is its own SC, T = 10, r = 33/36; on a failure Y shoots, q(8) = 15/36; if X
    stays, Y engages it and X, striking first with q(6) = 26/36, is lost with 10/36 x 15/36."""
    model = Model(BattleInput((X, Y)))
    nodes = after_move(model, model.first(), 0, Move(RETREAT))
    view = read(model, nodes)
    assert view.fate("X", RETREATED) == F(33, 36)
    assert view.fate("X", DESTROYED) == F(3, 36) * F(15, 36) + F(3, 36) * F(21, 36) * F(10, 36) * F(15, 36)


@pytest.mark.rule("GC-6B.5")
def test_the_greedy_kill_policy_targets_the_likeliest_kill_and_the_safety_policy_avoids_losses():
    """Digest section 8: greedy-kill engages the enemy most likely destroyed in that duel; greedy-safety picks the
    move least likely to lose the unit (here a retreat with T = 12, certain)."""
    weak, strong = unit("Weak", DEFENDER, 1, 3, 0, 5), unit("Strong", DEFENDER, 2, 7, 9, 12, 1)
    me = unit("Me", ATTACKER, 3, 6, 3, 9)
    strong_has_acted = Field((READY, ACTED, READY), (0, 1))
    greedy = Model(BattleInput((me, strong, weak), policy=GREEDY_KILL))
    assert greedy.decide(strong_has_acted)[:2] == (0, Move(ENGAGE, 2))
    alone = BattleInput((me, strong), policy=GREEDY_SAFETY, field=Field((READY, ACTED), (0, 1)))
    assert Model(alone).decide(Model(alone).first())[1] == Move(RETREAT)
