"""Advice before committing (digest section 8): order roll, duel matrix, target advice with the rest of the
battle played by a policy, retreat, plot and post chances."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest

from companion.engine import RuleError
from engines.galactic_chess import advice
from engines.galactic_chess.battle import ATTACKER, DEFENDER
from engines.galactic_chess.duel import DuelOutcome, Fighter
from engines.galactic_chess.interval import Estimate
from engines.galactic_chess.policy import GREEDY_SAFETY
from tests.engines.galactic_chess.support import Table, event, person, setup

# V11's two fleets, in a game: X (S5 A2 D9) for Ann's Empire, Y (S3 A1 D8) for Ben's Alliance.
CARDS = (person("X", "EMP", 2, 5, 2, 9, 8), person("Y", "FPA", 2, 3, 1, 8, 6, counter_only=True),
         person("Plotter", "FPA", 1, 2, 1, 7, 8), person("Cmdr", "EMP", 2, 4, 2, 8, role="stockhausen"),
         person("Emp Aide", "EMP", 1, 2, 1, 7, 9))


def battle() -> Table:
    table = Table(setup(CARDS, (event("Twilight", "event", "ragnarok"),)))
    table.start({"Ann": ["X", "Cmdr", "Emp Aide"], "Ben": ["Y", "Plotter"]})
    table.do("roll_order", 1)
    table.do("sortie", camp="FPA", defender="EMP")
    table.do("declare", fleets=["Y"])
    table.do("nominate", player="Ann")
    table.do("declare", fleets=["X"])
    return table


@pytest.mark.rule("GC-5")
def test_order_advice():
    """Digest section 8, item 1: P(forced) and the size distribution, before the roll."""
    table = battle()
    got = advice.order_advice(table.state)
    assert (got.forced, got.sizes, got.mean) == (F(1, 6), {1: F(1, 2), 2: F(1, 6), 3: F(1, 3)}, F(11, 6))


@pytest.mark.rule("GC-6B.5")
def test_duel_matrix_who_strikes_first_and_who_kills_whom():
    """Digest section 8, item 3: for each pair, who strikes first and the chances each way (V3, V4)."""
    mine = [("X3", Fighter(6, 2, 10)), ("X4", Fighter(5, 2, 9))]
    theirs = [("Y3", Fighter(4, 1, 9)), ("Y4", Fighter(5, 3, 10))]
    matrix = advice.duel_matrix(mine, theirs)
    v3, v4 = matrix[0][0], matrix[1][1]
    assert (v3.first, v3.kill, v3.loss, v3.both) == ("mine", F(756, 1296), F(150, 1296), 0)
    assert (v4.first, v4.kill, v4.loss, v4.both) == ("both", F(390 + 150, 1296), F(390 + 546, 1296), F(390, 1296))
    assert matrix[0][1].first == "mine" and matrix[1][0].first == "mine"
    assert len(advice.duel_matrix(mine * 5, theirs * 5)) == 10


@pytest.mark.rule("GC-6B.5", "GC-6B.6", "GC-6B.4")
def test_target_advice_gives_each_targets_duel_and_the_battle_after_it():
    """Digest section 8, items 3 and 6: for the unit whose opportunity it is, each legal target's exact duel and
    the chance its side wins (sweeps the enemy from the field), the rest played by the policy; and retreating.
    On V11: engaging Y then Y engaging back: X's side sweeps with P(Y destroyed) = 1 409 616/1 679 616."""
    table = battle()
    table.refuse("GC-6B.4", "engage", actor="Y", target="X")
    rows = advice.target_advice(table.state, "X")
    engage, retreat = rows
    assert (engage.move, engage.target, engage.first, engage.exact) == ("engage", "Y", "actor", True)
    assert engage.outcome == {DuelOutcome(False, True): F(26, 36), DuelOutcome(True, False): F(150, 1296),
                              DuelOutcome(False, False): F(210, 1296)}
    assert engage.wins == F(1409616, 1679616) and engage.loses == F(225900, 1679616)
    assert retreat.move == "retreat" and retreat.outcome["retreated"] == F(33, 36)
    with pytest.raises(RuleError):
        advice.target_advice(table.state, "Y")
    assert advice.battle_outlook(table.state).wins(ATTACKER) == F(225900, 1679616)   # FPA attacks: Y's side
    assert advice.battle_outlook(table.state).wins(DEFENDER) == engage.wins
    assert advice.battle_outlook(table.state, GREEDY_SAFETY).exact


@pytest.mark.rule("GC-6B.6")
def test_retreat_advice():
    """Digest section 8, item 4: r(T) and P(destroyed) = (1 - r(T)) q(D - A) with the enemy's best shooter (V11:
    Y is its own SC, T = 6, r = 15/36, X shoots with q(6))."""
    table = battle()
    got = advice.retreat_advice(table.state, "Y")
    assert (got.threshold, got.retreats, got.shooter) == (6, F(15, 36), "X")
    assert got.destroyed == F(21, 36) * F(26, 36) and got.stays == F(21, 36) * F(10, 36)


@pytest.mark.rule("GC-6A.32", "GC-6A.33a", "GC-7.12", "GC-7.21")
def test_plot_and_post_advice():
    """Digest section 8, item 5: P(target destroyed) = q(P_p), P(plotter destroyed) = (1 - q(P_p)) q(P_t); a
    garrison plot by the commander's player is q(P_p - 2)."""
    table = battle()
    odds = advice.plot_advice(table.state, "Plotter", "Y")
    assert odds == {"target destroyed": F(15, 36), "plotter destroyed": F(21, 36) * F(26, 36),
                    "nothing": F(21, 36) * F(10, 36)}
    with pytest.raises(RuleError):
        advice.plot_advice(table.state, "Plotter", "X")
    assert advice.post_advice(table.state, "release", "X") == F(26, 36)          # Ann holds the commander: q(6)
    assert advice.post_advice(table.state, "commander", "X") == F(15, 36)
    assert advice.post_advice(table.state, "release", "Emp Aide") == F(21, 36)      # q(9 - 2)


@pytest.mark.rule("GC-7.12", "GC-7.21")
def test_a_vacant_post_or_a_free_slot_is_certain_and_needs_no_plotter():
    """GC-7.12 / GC-7.21 (digest section 8, item 5): a vacant commander post, or a dispatch while a garrison slot is
    free, is filled with no plot, no roll and no plotter: certain. A held post, a full garrison and a release are
    the plotter's roll."""
    table = battle()
    state = table.state
    assert advice.post_advice(state, "dispatch") == 1                        # the commander alone: 2 slots free
    with pytest.raises(RuleError):
        advice.post_advice(state, "commander")                               # held: a plotter is needed
    vacant = replace(state, fortress=replace(state.fortress, commander=""))
    assert advice.post_advice(vacant, "commander") == 1
    full = replace(state, fortress=replace(state.fortress, garrison=("X", "Emp Aide")))
    assert advice.post_advice(full, "dispatch", "X") == F(26, 36)             # q(8 - 2)
    with pytest.raises(RuleError):
        advice.post_advice(state, "promote", "X")


@pytest.mark.rule("GC-6B.7", "GC-5")
def test_a_large_battle_is_estimated_and_labelled():
    """Digest section 8: a grand offensive (after Ragnarok, a raw 6: 2d6 fleets) of 7 against 7 is beyond the exact
    size: the advice is a Monte Carlo estimate with its 95% interval."""
    cards = tuple(person(f"E{i}", "EMP", 3 if i == 0 else 2, 3 + i % 4, 2, 8) for i in range(7)) + \
        tuple(person(f"F{i}", "FPA", 3 if i == 0 else 2, 2 + i % 5, 2, 8) for i in range(7))
    players = ("Ann", "Ben", "Cat", "Dan", "Eve")
    table = Table(setup(cards, (event("Twilight", "event", "ragnarok"),), fillers=30, players=players))
    placed = {"Ann": [f"E{i}" for i in range(5)], "Ben": ["E5", "E6"], "Cat": [f"F{i}" for i in range(6)],
              "Dan": ["F6"]}
    table.start({**placed, "Ann": placed["Ann"] + ["Twilight"]}, placed)
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("use_card", card="Twilight")
    table.next_turn_of("Ann")
    table.do("roll_order", 6)
    table.do("sortie", 6, 6, camp="EMP", defender="FPA")
    table.do("declare", fleets=[f"E{i}" for i in range(5)])
    table.do("declare", fleets=["E5", "E6"])
    table.do("nominate", player="Cat")
    table.do("declare", fleets=[f"F{i}" for i in range(6)])
    table.do("declare", fleets=["F6"])
    assert len(table.state.sortie.units) == 14
    view = advice.battle_outlook(table.state, trials=2000)
    assert not view.exact and isinstance(view.wins(ATTACKER), Estimate) and view.wins(ATTACKER).trials == 2000
    low, high = view.wins(ATTACKER).interval
    assert 0 <= low <= view.wins(ATTACKER).value <= high <= 1


@pytest.mark.rule("GC-6B.4r")
def test_no_target_advice_before_a_roll_off():
    """GC-6B.4r: while the SCs must roll off, nobody has the next opportunity yet; after it, equal strategy means
    both strike at once, and if both survive the other engages back."""
    cards = (person("Emp A", "EMP", 2, 5, 2, 9), person("Fpa B", "FPA", 2, 5, 2, 9))
    table = Table(setup(cards))
    table.start({"Ann": ["Emp A"], "Ben": ["Fpa B"]})
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B"])
    with pytest.raises(RuleError) as caught:
        advice.target_advice(table.state, "Emp A")
    assert caught.value.rule == "GC-6B.4r"
    table.do("roll_off", 6, 1)
    engage, _ = advice.target_advice(table.state, "Emp A")
    only_b = engage.outcome[DuelOutcome(False, True)]                   # 35/144, and nobody 25/144: B engages back
    assert engage.first == "both" and only_b == F(35, 144)
    assert engage.ahead == engage.wins == only_b + F(25, 144) * F(35, 144)


@pytest.mark.rule("GC-6B.5")
def test_the_duel_matrix_of_the_battle_on_the_table():
    """Digest section 8: the matrix of the units present in the battle, one side against the other."""
    table = battle()
    (cell,), = advice.battle_matrix(table.state, ATTACKER)       # FPA attacks: Y against X
    assert (cell.mine, cell.theirs, cell.first) == ("Y", "X", "theirs")
    assert (cell.kill, cell.loss) == (F(10, 36) * F(15, 36), F(26, 36))


def at_least(total: int) -> F:
    """P(2d6 >= total), counted over the 36 throws."""
    return F(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= total), 36)


@pytest.mark.rule("GC-6B.5", "GC-6B.6")
def test_the_throw_that_waits_shows_each_strikers_chance():
    """GC-6B.5: after Emp High (S6) misses Fpa Mid, the lower strategy strikes back: Fpa Mid (A1) on Emp High (D10)
    needs 2d6 >= 9. GC-6B.6: after Fpa Mid's failed retreat, the enemy SC may pick either Imperial unit for the free
    attack on it (D9): Emp High (A2) needs 7, Emp Low (A1) needs 8."""
    from tests.engines.galactic_chess.test_battle import duel_table
    table = duel_table()
    with pytest.raises(RuleError):
        advice.waiting_strikes(table.state)
    table.do("engage", 1, 2, actor="Emp High", target="Fpa Mid")
    assert advice.waiting_strikes(table.state) == [("Fpa Mid", "Emp High", at_least(9))]
    table.do("strike_back", 1, 1)
    table.do("retreat", 6, 5, actor="Fpa Mid")
    assert advice.waiting_strikes(table.state) == [("Emp High", "Fpa Mid", at_least(7)),
                                                   ("Emp Low", "Fpa Mid", at_least(8))]


@pytest.mark.rule("GC-6B.5", "GC-6B.6")
def test_each_choice_of_the_advice_names_its_kill_and_its_loss():
    """On V11 (above): engaging Y kills it with 26/36 and loses X with 150/1296; retreating gets away with 33/36."""
    engage, retreat = advice.target_advice(battle().state, "X")
    assert (engage.kill, engage.lost) == (F(26, 36), F(150, 1296))
    assert retreat.kill == F(33, 36) and retreat.lost == retreat.outcome.get("destroyed", F(0))


@pytest.mark.rule("GC-6B.5")
def test_a_camps_fleets_are_those_in_the_battle_or_its_admirals_in_play():
    """The duel matrix's rows: in the battle being fought, the units present on the camp's side; otherwise the camp's
    admirals in play with their printed strategy, attack and defence."""
    table = Table(setup(CARDS, (event("Twilight", "event", "ragnarok"),)))
    table.start({"Ann": ["X", "Cmdr", "Emp Aide"], "Ben": ["Y", "Plotter"]})
    assert advice.camp_fleets(table.state, "EMP") == [("X", Fighter(5, 2, 9)), ("Cmdr", Fighter(4, 2, 8)),
                                                      ("Emp Aide", Fighter(2, 1, 7))]
    assert advice.camp_fleets(table.state, "FEZ") == []
    fought = battle().state
    assert advice.camp_fleets(fought, "EMP") == [("X", Fighter(5, 2, 9))]
