"""Each session option (options.py) in its non-default value, against the rule it changes; the default beside it."""
from __future__ import annotations

import pytest

from companion.engine import RuleError, resolve_options
from companion.events import Replay
from engines.border_states import ENGINE
from engines.border_states.options import OPTIONS
from engines.border_states.state import OVER, SUPPLY, VICTORY
from tests.engines.border_states.support import (
    AR,
    KY,
    MD,
    MO,
    NC,
    TN,
    VA,
    WV,
    C,
    Table,
    U,
    action_table,
    area_of,
    at,
    battle_table,
    board,
    offered,
    setup,
    start,
)


def test_every_option_is_tested_here():
    """The options this module covers are exactly the engine's."""
    assert {o.key for o in OPTIONS} == {"supply_variant", "initiative_bid", "double_loss", "damage_on_draw",
                                        "force_cut", "sudden_round_4", "retreat_relieves", "entrench_moves",
                                        "removed_to", "double_succession", "count_stock", "four_a_side",
                                        "entrench_once"}


@pytest.mark.rule("BS-D.8")
def test_an_option_outside_its_choices_is_refused():
    with pytest.raises(RuleError) as caught:
        resolve_options(ENGINE.options, {"supply_variant": "yes"})
    assert caught.value.rule == "BS-D.8"


@pytest.mark.rule("BS-SETUP", "BS-D.8", "BS-SUP")
@pytest.mark.parametrize("variant, start_supply, after", [(False, {C: 16, U: 18}, {C: 8, U: 18}),
                                                          (True, {C: 18, U: 20}, {C: 8, U: 20})])
def test_supply_variant_cap_20_and_start_18_20(variant, start_supply, after):
    """Variant (source ◆ヴァリアント): supply cap 20, the CSA starts with 18 and the Union with 20. V6 with the variant:
    15 + 6 + 2 = 23 is capped at 20 instead of 18."""
    assert start(setup(), supply_variant=variant).supply == start_supply
    table = at(SUPPLY, {KY: (0, 1), TN: (0, 1), VA: (1, 0)}, options={"supply_variant": variant},
               supply={C: 3, U: 15}, first=C)
    table.do("supply")
    assert table.state.supply == after


@pytest.mark.rule("BS-VAR.2", "BS-INIT")
@pytest.mark.parametrize("bidding", [False, True])
def test_initiative_bid_variant(bidding):
    """BS-VAR.2 option: with it, the bids are revealed before the roll; without it, the plain roll-off."""
    table = Table(setup(), initiative_bid=bidding)
    table.do("draw")
    if bidding:
        table.refuse("BS-VAR.2", "roll_initiative", 1, 6)
        table.do("bid", c=0, u=6)
        table.do("roll_initiative", 6, 1)     # 6 v 7
        assert table.state.initiative_winner == U
    else:
        table.refuse("BS-VAR.2", "bid", c=0, u=6)
        table.do("roll_initiative", 6, 1)
        assert table.state.initiative_winner == C


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("csa, union, inclusive, strict", [
    ((5, 5, 1), (3, 1, 2), 2, 1),      # 2 v 1
    ((5, 1, 2), (6, 6, 6), 2, 1),      # 1 v 0
    ((5, 5, 5), (3, 1, 2), 2, 2),      # 3 v 1
    ((4, 4, 4), (3, 3, 1), 1, 1),      # 3 v 2
])
def test_double_loss_strict(csa, union, inclusive, strict):
    """A1 option 'strict': two units go only when S_w > 2 S_l, and never when the loser's S is 0."""
    for rule, removed in (("inclusive", inclusive), ("strict", strict)):
        table = battle_table(WV, 3, 3, double_loss=rule)
        table.fight(csa, union, (0, 3 if union == (6, 6, 6) else 0))
        assert table.battle.removals == removed and table.state.count(WV, U) == 3 - removed


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("on_draw, damage", [(True, 1), (False, 0)])
def test_damage_on_draw(on_draw, damage):
    """A4 option: with 'does not apply', a draw leaves the marker where it is."""
    table = battle_table(WV, 3, 3, damage_on_draw=on_draw)
    table.fight((3, 3, 6), (3, 3, 1), (1, 0))
    assert table.battle.winner == "draw" and table.state.damage == damage


@pytest.mark.rule("BS-VIC.3", "BS-D.3")
@pytest.mark.parametrize("rule, union_force", [("position", 10), ("cumulative", 10 - (0 + 1 + 1))])
def test_force_cut_cumulative(rule, union_force):
    """A7 option 'cumulative': every Union square the marker has reached cuts the force (example squares 0, 1, 1),
    even after it moves back; by position only the square it is on (+1: no cut). Here three failed Union retreats
    take the marker to +3, then two combats with fewer CSA damage dice bring it back to +1."""
    table = action_table({KY: (1, 3), MD: (1, 3)}, first=U, actions=(0, 3), force_cut=rule)
    for source, target in ((KY, "Union home 3"), (KY, MO), (MD, "Union home 1")):
        table.do("retreat", 1, source=source, target=target)
        table.do("retreat_failed", choice="damage")
    assert table.state.damage == 3 and table.battle.area == MD
    table.fight((1,), (6, 2), (0, 1))
    table.do("end_combat")
    table.fight((1,), (6,), (0, 1))
    assert table.state.damage == 1
    assert table.state.max_force(U) == union_force and table.state.max_force(C) == 10


@pytest.mark.rule("BS-VIC.2", "BS-VIC.1")
@pytest.mark.parametrize("sudden, winner, rule", [(False, U, "BS-VIC.2"), (True, C, "BS-VIC.1")])
def test_sudden_round_4(sudden, winner, rule):
    """A8 option: 10 VP wins at once in round 4 too. CSA 9 + grey star 1 = 10 against the Union's 10: by default the
    tie goes to the Union; with the option the CSA's 10 wins."""
    units = {VA: (1, 0), NC: (1, 0), TN: (1, 0), AR: (1, 0), WV: (0, 1), MD: (0, 1), KY: (0, 1), MO: (0, 1)}
    table = at(VICTORY, units, options={"sudden_round_4": sudden}, round=4, damage=1)
    assert (table.state.vp(C), table.state.vp(U)) == (10, 10)
    table.do("check_victory")
    assert table.state.phase == OVER and (table.state.victory.side, table.state.victory.rule) == (winner, rule)


@pytest.mark.rule("BS-D.10", "BS-RET")
@pytest.mark.parametrize("relieves, face", [(False, 1), (True, 2)])
def test_retreat_relieves(relieves, face):
    """A9 option: a commander unit removed after a failed retreat makes the commander card advance."""
    table = action_table({MD: (1, 2)}, first=U, commanders={U: MD}, retreat_relieves=relieves)
    table.do("retreat", 2, source=MD, target="Union home 1", commander=True)
    table.do("retreat_failed", choice="remove")
    assert table.state.commander[U] == face and table.state.commander_at[U] == ""


@pytest.mark.rule("BS-D.7", "BS-D.10")
def test_a_new_commander_does_not_change_this_rounds_actions():
    """BS-D.7 with the A9 option: the card advancing mid-phase leaves the actions read at the phase's start."""
    table = action_table({MD: (1, 2)}, first=U, actions=(4, 3), commanders={U: MD}, retreat_relieves=True)
    table.do("retreat", 2, source=MD, target="Union home 1", commander=True)
    table.do("retreat_failed", choice="remove")
    assert table.state.commander[U] == 2 and table.state.actions_left == {C: 4, U: 2}


@pytest.mark.rule("BS-D.5")
@pytest.mark.parametrize("keeps, entrenched", [(False, ()), (True, (VA,))])
def test_entrench_moves(keeps, entrenched):
    """A10 option 'the state keeps it': the entrenched unit leaving does not take the entrenchment, while the side
    still has units there; the last unit leaving still does."""
    table = action_table({VA: (2, 0)}, actions=(3, 0), entrench_moves=keeps)
    table.do("entrench", area=VA)
    table.do("move", source=VA, target=NC, entrenched=True)
    assert table.state.entrenched == entrenched
    table.do("move", source=VA, target=NC)
    assert table.state.entrenched == ()


@pytest.mark.rule("BS-SETUP")
@pytest.mark.parametrize("union_side, four, refused", [(4, False, False), (5, False, False), (5, True, True),
                                                       (4, True, False)])
def test_four_a_side(union_side, four, refused):
    """A20 option: by default a board needs each border state's side and 3 a side at least (5/3 is a board);
    with the option, 4 own-side border states a side, as some boards show."""
    data = board()
    if union_side == 5:
        area_of(data, AR)["side"] = U
    if refused:
        with pytest.raises(RuleError) as caught:
            start(setup(data, deployment={C: {VA: 3, NC: 3, TN: 2}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}), four_a_side=four)
        assert caught.value.rule == "BS-SETUP" and "4 own-side" in caught.value.message
    else:
        state = start(setup(data, deployment={C: {VA: 3, NC: 3, TN: 2}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}),
                      four_a_side=four)
        assert sum(a.side == U for a in state.board.borders) == union_side


@pytest.mark.rule("BS-D.5")
@pytest.mark.parametrize("once, again", [("round", False), ("standing", True)])
def test_entrench_once(once, again):
    """A21 option: by default the Entrench action is taken once per own-side border state per round, even after
    the entrenched unit has left; with 'standing', another unit may entrench once the first has gone."""
    table = action_table({VA: (2, 0)}, actions=(3, 0), entrench_once=once)
    table.do("entrench", area=VA)
    table.do("move", source=VA, target=NC, entrenched=True)
    assert table.state.entrenched == ()
    assert (VA in offered(table.state, "entrench", "area")) == again
    if again:
        table.do("entrench", area=VA)
        assert table.state.entrenched == (VA,)
    else:
        assert "once per state a round" in table.refuse("BS-D.5", "entrench", area=VA).message


@pytest.mark.rule("BS-SETUP", "BS-D.5")
def test_a_session_saved_before_the_new_options_opens_with_their_defaults():
    """A session saved before A20 and A21 became options (its options and states lack them) still opens and
    plays, with the digest's defaults: any split of at least 3 a side, entrench once per state a round."""
    old = {k: v for k, v in resolve_options(ENGINE.options, {}).items() if k not in ("four_a_side", "entrench_once")}
    replay = Replay(ENGINE, old, setup())
    table = Table(state=replay.state)
    table.to_actions()
    table.do("entrench", area=VA)
    assert table.state.options["entrench_once"] == "round" and table.state.options["four_a_side"] is False
    saved = table.state.to_dict()
    for key in ("four_a_side", "entrench_once"):
        del saved["options"][key]
    del saved["entrench_used"]
    loaded = ENGINE.state_from_dict(saved)
    assert loaded.options == table.state.options and loaded.entrench_used == ()


@pytest.mark.rule("BS-D.11")
@pytest.mark.parametrize("removed_to", ["pool", "lost"])
def test_removed_to_lost(removed_to):
    """A11 option 'lost': units removed in combat or after a failed retreat never return to the pool."""
    table = battle_table(WV, 3, 3, removed_to=removed_to, others={MD: (1, 2)})
    pool = table.state.pool(U)
    table.fight((5, 5, 1), (3, 1, 2))
    gone = 2
    assert table.state.pool(U) == (pool + gone if removed_to == "pool" else pool)
    assert table.state.lost[U] == (0 if removed_to == "pool" else gone)
    retreat = action_table({MD: (1, 2)}, first=U, removed_to=removed_to)
    pool = retreat.state.pool(U)
    retreat.do("retreat", 1, source=MD, target=WV)
    retreat.do("retreat_failed", choice="remove")
    assert retreat.state.pool(U) == (pool + 1 if removed_to == "pool" else pool)


@pytest.mark.rule("BS-D.11", "BS-D.10")
def test_a_removed_commander_unit_returns_to_the_pool_even_when_removed_units_are_lost():
    """A11 option 'lost' with BS-D.10: the removed commander unit returns to the pool and can be recruited again;
    only the other unit removed with it is lost for good."""
    table = battle_table(WV, 3, 3, removed_to="lost", commanders={U: WV})
    pool = table.state.pool(U)
    table.fight((5, 5, 1), (3, 1, 2))
    table.do("remove_losses", commander=True)
    state = table.state
    assert state.lost[U] == 1 and state.pool(U) == pool + 1 and state.commander_at[U] == ""


@pytest.mark.rule("BS-D.10")
@pytest.mark.parametrize("double, face", [(True, 3), (False, 2)])
def test_double_succession(double, face):
    """A15 option 'once': the Union's commander unit lost in the combat in which distrust laps START moves the card
    one face only (V10 with L_D = 6)."""
    table = battle_table(WV, 3, 1, commanders={U: WV}, double_succession=double)
    table.modify(distrust=5)
    table.fight((5, 5, 1), (3,))
    assert table.state.commander[U] == face


@pytest.mark.rule("BS-D.8", "BS-CMB")
@pytest.mark.parametrize("count", [False, True])
def test_count_stock(count):
    """A17 option: a warning when the dice in play (both supplies and the combat dice) pass the 50 in the box:
    18 + 18 supply and 6 base dice are 42; +5 and +4 dice at the start make 51; committing supply moves dice from a
    supply to the table and keeps 51."""
    table = battle_table(WV, 3, 3, count_stock=count)
    table.modify(supply={C: 18, U: 18})
    first = table.do("start_effects", extra_dice=5)
    second = table.do("start_effects", extra_dice=4)
    third = table.do("commit_supply", count=6)
    assert "in the box" not in first.summary
    for step in (second, third):
        assert ("51 dice in play, more than the 50 in the box" in step.summary) == count
