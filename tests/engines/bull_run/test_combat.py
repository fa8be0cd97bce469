"""Combat, hits, retreat and advance (BR-10, BR-10.1-10.4, BR-11.1, BR-11.2)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import DiceError, ScriptedDice
from companion.odds import exhaustive, fractions
from engines.bull_run import ENGINE
from engines.bull_run.attacks import STAGE_RULES, combat_input
from engines.bull_run.combat import CombatInput, StackInput, combat_odds, summarize
from engines.bull_run.fire import FireInput, fire_odds
from engines.bull_run.state import COMBAT, ELIMINATED, END, ON_MAP
from tests.engines.bull_run.support import QUIET, ROSTER, Table, row


def at_combat(initiative: int = 1, roster=None, **options) -> Table:
    """Turn 1 of a two-player game at the start of the combat phase (1-3: the Union attacks first)."""
    table = Table(roster or ROSTER, solitaire=False, **options)
    table.to_combat(initiative)
    return table


def others_unchanged(table: Table, before, *names: str) -> bool:
    """Do the units outside the named stacks have the SP they had in `before`?"""
    return {u.name: u.sp for u in before.units if u.name not in names} == \
        {u.name: u.sp for u in table.state.units if u.name not in names}


# --- BR-10 / BR-10.1: the attack step: all declared, then resolved defender by defender ----------------

@pytest.mark.rule("BR-10", "BR-10.2")
def test_combat_phase_order_initiative_side_first_each_combat_finished_before_the_next():
    """BR-10: the initiative side attacks first, then the other; each combat ends with its retreat check and
    advance before another attack is resolved or the side's attacks end."""
    table = at_combat(4)
    table.refuse("BR-10.1", "declare_attack", attackers=["Union 3"], defenders=["CSA 4"])
    first = table.declare(["CSA 4"], ["Union 3"])
    second = table.declare(["CSA 3"], ["Union 1"])
    table.do("fire", 6, 1, attack=first)  # 7 SP rolls 6: 2 hits; 6 SP rolls 1: none
    for stage in ("allocate_hits", "retreat_check", "retreat", "advance"):
        table.refuse(STAGE_RULES[table.state.combat.stage], "fire", 1, 1, attack=second)
        table.refuse("BR-10.1", "end_combat")
        faces = (5,) if stage == "retreat_check" else ()
        params = {"advance": True} if stage == "advance" else {}
        table.do(stage, *faces, **params)
    assert table.state.combat is None
    table.do("fire", 1, 1, attack=second)
    table.do("end_combat")
    assert (table.state.phase, table.state.active) == (COMBAT, "UNION")
    table.refuse("BR-10.1", "declare_attack", attackers=["CSA 3"], defenders=["Union 1"])
    table.attack(["Union 1"], ["CSA 3"], 1, 1)
    table.do("end_combat")
    assert table.state.phase == END


@pytest.mark.rule("BR-10.1")
@pytest.mark.parametrize("attackers, defenders", [
    (["CSA 3"], ["Union 1"]),            # not the attacking side
    (["Union 1"], ["Union 2"]),          # defenders of the own side
    (["Union 5"], ["CSA 3"]),            # not yet on the map
    (["Union 1", "Union 1"], ["CSA 3"]),  # a unit named twice
    ([], ["CSA 3"]),
    (["Nobody"], ["CSA 3"]),
    (["Union 1", "Union 2", "Union 3"], ["CSA 3"]),  # three units are not a stack (BR-8.2)
])
def test_only_opposing_stacks_on_the_map_fight(attackers, defenders):
    """BR-10.1: one attacking stack (1-2 units) of the active side against one stack of the other, on the map."""
    error = at_combat().refuse("BR-10.1", "declare_attack", attackers=attackers, defenders=defenders)
    assert "'attackers'" in error.message or "'defenders'" in error.message


@pytest.mark.rule("BR-10.1")
def test_all_attacks_are_declared_before_any_is_resolved():
    """BR-10.1: the attacking side first declares all its attacks, then resolves them; no declaration is
    made or changed after a result has been seen (A25), and a declared attack must be made."""
    table = at_combat()
    first = table.declare(["Union 3"], ["CSA 4"])
    table.declare(["Union 1"], ["CSA 3"])
    table.do("fire", 1, 1, attack=first)  # no hits either way
    table.refuse("BR-10.1", "declare_attack", attackers=["Union 2"], defenders=["CSA 3"])
    error = table.refuse("BR-10.1", "end_combat")
    assert "Union 1 on CSA 3" in error.message


@pytest.mark.rule("BR-10.1")
def test_a_stack_attacks_at_most_once_per_turn():
    """BR-10.1: a stack attacks at most 1 stack per turn: a unit declared once cannot be declared again."""
    table = at_combat()
    table.declare(["Union 3"], ["CSA 4"])
    table.refuse("BR-10.1", "declare_attack", attackers=["Union 3"], defenders=["CSA 3"])
    table.refuse("BR-10.1", "declare_attack", attackers=["Union 3", "Union 4"], defenders=["CSA 3"])


@pytest.mark.rule("BR-10.1")
def test_every_attack_on_one_defender_before_the_next():
    """BR-10.1: the attacks are resolved one defender at a time, every attack on one before the next."""
    table = at_combat()
    on_4 = table.declare(["Union 3"], ["CSA 4"])
    on_3 = table.declare(["Union 2"], ["CSA 3"])
    on_4_again = table.declare(["Union 1"], ["CSA 4"])
    table.do("fire", 1, 1, attack=on_4)
    error = table.refuse("BR-10.1", "fire", 1, 1, attack=on_3)
    assert "'attack'" in error.message
    table.do("fire", 1, attack=on_4_again)  # CSA 4 has made its one defensive roll
    table.do("fire", 1, 1, attack=on_3)
    table.do("end_combat")


@pytest.mark.rule("BR-10.1")
def test_a_defending_stack_is_named_whole_in_every_attack_on_it():
    """BR-10.1: all units of an attacked stack defend: a second attack names the same stack, or none of it."""
    table = at_combat()
    table.declare(["Union 3"], ["CSA 3", "CSA 4"])
    table.refuse("BR-10.1", "declare_attack", attackers=["Union 1"], defenders=["CSA 4"])
    table.declare(["Union 1"], ["CSA 4", "CSA 3"])


@pytest.mark.rule("BR-10.1")
@pytest.mark.parametrize("lapsed_attack", ["lapses", "new_target"])
def test_a_declared_attack_whose_target_has_gone_lapses(lapsed_attack):
    """BR-10.1 (A25): an attack declared on a stack that retreats (or is eliminated) before it is made lapses:
    the stack has made no attack and, by default, takes no new target this step; by option it may."""
    table = at_combat(lapsed_attack=lapsed_attack)
    first = table.declare(["Union 3"], ["Evans' Brigade"])
    table.declare(["Union 1"], ["Evans' Brigade"])
    table.do("fire", 6, 1, attack=first)  # 6 SP rolls 6: 2 hits on Evans (3 SP); Evans rolls 1: none
    table.do("allocate_hits")
    table.do("retreat_check", 6)
    table.do("retreat")
    table.do("advance", advance=False)
    assert [a.status for a in table.state.attacks] == ["made", "lapsed"]
    assert not table.unit("Union 1").attacked
    if lapsed_attack == "lapses":
        table.refuse("BR-10.1", "declare_attack", attackers=["Union 1"], defenders=["CSA 3"])
    else:
        table.attack(["Union 1"], ["CSA 3"], 1, 1)
    table.do("end_combat")


@pytest.mark.rule("BR-10.1")
def test_fire_is_simultaneous_and_every_defending_unit_counts():
    """BR-10.1: both stacks fire before hits land, so a defender destroyed by the attack still fires back;
    all units of the attacked stack defend (their SP add up)."""
    table = at_combat(4)
    step = table.attack(["Evans' Brigade"], ["Union 4"], 5, 6)  # 3 SP rolls 5: 1 hit; 1 SP rolls 6: 1 hit
    assert len(step.results) == 2
    table.do("allocate_hits")
    assert table.sp("Evans' Brigade", "Union 4") == (2, 0)
    assert table.unit("Union 4").status == ELIMINATED
    table.do("advance", advance=False)
    table.do("end_combat")
    table.do("end_combat")
    table.finish_turn()
    table.start_turn(4)
    table.through_movement()
    index = table.declare(["CSA 3"], ["Union 1", "Union 2"])
    assert combat_input(table.state, table.state.attacks[index]).defenders.fire_sp == 7


@pytest.mark.rule("BR-10.1", "BR-11.1")
def test_vector_06_second_attacker_takes_no_hits_and_defender_does_not_roll():
    """Vector 6 (BR-10.1, BR-11.1): the defender rolls once a turn, at the first attack; the second attacker
    receives 0 hits (so never checks) and its fire takes one die only."""
    table = at_combat()
    first = table.declare(["Union 3"], ["CSA 4"])
    second = table.declare(["Union 1"], ["CSA 4"])
    table.do("fire", 1, 6, attack=first)  # 6 SP rolls 1: none; 7 SP rolls 6: 2 hits on Union 3
    table.do("allocate_hits")
    table.do("retreat_check", 1)
    assert not combat_input(table.state, table.state.attacks[second]).defender_fires
    with pytest.raises(DiceError):
        table.replay.action_event({"type": "fire", "attack": second}, ScriptedDice([5, 6]))
    step = table.do("fire", 6, attack=second)  # 4 SP rolls 6: 1 hit
    assert len(step.results) == 1
    assert (table.state.combat.hits_on_attackers, table.state.combat.hits_on_defenders) == (0, 1)
    table.do("allocate_hits")
    assert table.state.combat.checking == "defenders"


@pytest.mark.rule("BR-10.1")
@pytest.mark.parametrize("one_roll_in_all", [False, True], ids=["default", "A11"])
def test_option_a11_a_stack_that_attacked_is_attacked_later(one_roll_in_all):
    """BR-10.1: by default a stack that attacked still makes its one defensive roll when attacked later;
    with A11 a stack rolls once per turn in all, so it does not fire back."""
    table = at_combat(defence_after_attack=not one_roll_in_all)
    table.attack(["Union 3"], ["CSA 4"], 1, 1)
    table.do("end_combat")
    index = table.declare(["CSA 3"], ["Union 3"])
    assert combat_input(table.state, table.state.attacks[index]).defender_fires is not one_roll_in_all
    step = table.do("fire", *((1,) if one_roll_in_all else (1, 1)), attack=index)
    assert len(step.results) == (1 if one_roll_in_all else 2)


# --- BR-10.2: combat initiative and McDowell's hesitation ----------------------------------------------

@pytest.mark.rule("BR-10.2")
@pytest.mark.parametrize("may_attack", [True, False], ids=["default", "A10"])
def test_option_a10_a_stack_that_only_defended(may_attack):
    """BR-10.2: after the initiative side, the other side attacks with stacks that have not attacked; a stack
    that only defended may (A10 default), or may not with the option."""
    table = at_combat(defended_may_attack=may_attack)
    table.attack(["Union 3"], ["CSA 4"], 1, 1)
    table.do("end_combat")
    if may_attack:
        table.declare(["CSA 4"], ["Union 1"])
    else:
        table.refuse("BR-10.2", "declare_attack", attackers=["CSA 4"], defenders=["Union 1"])
    table2 = at_combat(defended_may_attack=may_attack)
    table2.do("end_combat")
    table2.declare(["CSA 3"], ["Union 1"])  # never in combat: always free


def union_south_at_combat(**options) -> Table:
    """Turn 1, the Union first: Union 1 and Union 2 cross at Sudley and stand south of Bull Run."""
    table = Table(solitaire=False, **options)
    table.start_turn(1)
    table.checks(QUIET)
    table.do("move", unit="Union 1", path=["ford"], crossing="sudley")
    table.do("move", unit="Union 2", path=["ford"], crossing="sudley")
    table.do("end_movement")
    table.through_movement(awareness=1)
    return table


@pytest.mark.rule("BR-10.2")
@pytest.mark.parametrize("face", range(1, 7))
def test_mcdowells_hesitation(face):
    """BR-10.2: a Union stack south of Bull Run attacks only on 5-6, rolled when it is declared (one roll per
    stack); on a failure it makes no attack this turn but still defends and fires back."""
    table = union_south_at_combat()
    step = table.do("declare_attack", face, attackers=["Union 1", "Union 2"], defenders=["CSA 3"])
    assert "BR-10.2" in step.rules
    if face >= 5:
        assert table.state.attacks[0].attackers == ("Union 1", "Union 2")
        return
    assert table.state.attacks == () and "no attack this turn" in step.summary
    table.refuse("BR-10.2", "declare_attack", 6, attackers=["Union 1"], defenders=["CSA 3"])
    table.do("end_combat")
    index = table.declare(["CSA 3"], ["Union 1", "Union 2"])
    assert combat_input(table.state, table.state.attacks[index]).defender_fires


@pytest.mark.rule("BR-10.2")
def test_no_hesitation_north_of_bull_run():
    """BR-10.2: a Union stack north of Bull Run attacks with no roll, even when other Union units are south."""
    table = union_south_at_combat()
    table.declare(["Union 3"], ["CSA 3"])
    assert table.state.attacks[0].attackers == ("Union 3",)


@pytest.mark.rule("BR-10.2")
def test_option_a12_hesitation_per_unit():
    """BR-10.2 with A12 per unit: each unit rolls; only the units that pass attack."""
    table = union_south_at_combat(hesitation_per="unit")
    step = table.do("declare_attack", 2, 5, attackers=["Union 1", "Union 2"], defenders=["CSA 3"])
    assert len(step.results[0].rolls) == 2
    assert table.state.attacks[0].attackers == ("Union 2",)
    assert combat_input(table.state, table.state.attacks[0]).attackers.fire_sp == 3
    assert (table.unit("Union 1").hesitation, table.unit("Union 2").hesitation) == ("failed", "passed")


# --- BR-10.3: the firer spreads the hits over the target stack -----------------------------------

def three_hits_on_union_1_and_4(**options) -> Table:
    """CSA 4 + Evans (10 SP, column 9-10) roll 6: 3 hits on the stack Union 1 (4 SP) + Union 4 (1 SP)."""
    table = at_combat(4, **options)
    table.attack(["CSA 4", "Evans' Brigade"], ["Union 1", "Union 4"], 6, 1)
    assert table.state.combat.hits_on_defenders == 3
    return table


@pytest.mark.rule("BR-10.3")
@pytest.mark.parametrize("spread, after", [
    ({"Union 1": 2, "Union 4": 1}, (2, 0)),
    ({"Union 1": 3}, (1, 1)),
    ({"Union 1": 3, "Union 4": 0}, (1, 1)),
])
def test_the_firer_spreads_every_hit_over_the_target_stack(spread, after):
    """BR-10.3 (R1, A13): the firer decides how the hits are spread over the units of the target stack; all
    are spent, none above a unit's SP, and none passes to another stack."""
    table = three_hits_on_union_1_and_4()
    before = table.state
    table.refuse("BR-10.3", "allocate_hits")
    table.refuse("BR-10.3", "allocate_hits", on_defenders={"Union 1": 2})            # a hit left unspent
    table.refuse("BR-10.3", "allocate_hits", on_defenders={"Union 4": 3})            # above the unit's SP
    table.refuse("BR-10.3", "allocate_hits", on_defenders={"Union 1": 2, "Union 2": 1})  # another stack
    table.refuse("BR-10.3", "allocate_hits", on_defenders={"Union 1": "3"})
    table.do("allocate_hits", on_defenders=spread)
    assert table.sp("Union 1", "Union 4") == after
    assert others_unchanged(table, before, "Union 1", "Union 4")


@pytest.mark.rule("BR-10.3")
def test_one_fire_can_destroy_a_whole_stack():
    """BR-10.3: hits beyond one unit go on to the stack's other unit, so one fire can eliminate a 2-unit stack;
    only hits beyond the whole stack's SP are lost."""
    roster = (row("Big", "CSA", "1", 1, 10), row("U1", "UNION", "A", 1, 1), row("U2", "UNION", "A", 1, 2))
    table = at_combat(4, roster)
    table.attack(["Big"], ["U1", "U2"], 6, 1)  # 10 SP rolls 6: 3 hits on 3 SP
    step = table.do("allocate_hits")           # the only spread: both eliminated
    assert table.sp("U1", "U2") == (0, 0) and "eliminated" in step.summary
    assert table.state.sp_lost("UNION") == 3


# --- BR-10.4: SP and the SP a stack fires with -------------------------------------------------------

@pytest.mark.rule("BR-10.4")
@pytest.mark.parametrize("fire_sp, later", [("turn_start", 6), ("combat_start", 5)], ids=["default", "A14"])
def test_vector_05_attacked_twice_then_fires_with_turn_start_sp(fire_sp, later):
    """Vector 5 (BR-10.4): a stack hit once in its first combat is at turn-start - 1 SP for the second, but
    fires at its turn-start SP later in the turn (A14: at its SP when that combat starts)."""
    table = at_combat(4, fire_sp=fire_sp)
    first = table.declare(["CSA 3"], ["Union 3"])
    second = table.declare(["CSA 4"], ["Union 3"])
    table.do("fire", 5, 1, attack=first)  # 5 SP rolls 5: 1 hit; 6 SP rolls 1: none
    table.do("allocate_hits")
    table.do("retreat_check", 1)
    assert table.unit("Union 3").sp == 5
    table.do("fire", 1, attack=second)
    assert table.unit("Union 3").sp == 5
    table.do("end_combat")
    index = table.declare(["Union 3"], ["Evans' Brigade"])
    assert combat_input(table.state, table.state.attacks[index]).attackers.fire_sp == later


@pytest.mark.rule("BR-10.4")
def test_sp_only_decrease_and_a_unit_at_0_is_removed():
    """BR-10.4: hits lower SP (never below 0); at 0 the unit is eliminated, its SP lost, and it cannot fight."""
    table = three_hits_on_union_1_and_4()
    table.do("allocate_hits", on_defenders={"Union 4": 1, "Union 1": 2})
    gone = table.unit("Union 4")
    assert (gone.sp, gone.status, table.state.sp_lost("UNION")) == (0, ELIMINATED, 3)
    table.do("retreat_check", 1)
    table.do("end_combat")
    table.refuse("BR-10.1", "declare_attack", attackers=["Union 4"], defenders=["CSA 3"])


# --- BR-11.1: the retreat check and the retreat --------------------------------------------------

SINGLES = (row("Attacker", "UNION", "A", 1, 8), row("Defender", "CSA", "1", 1, 4))


def single_units(target_terrain: str = "clear", **options) -> Table:
    """Vector 9/10 stacks: Attacker (8 SP, Union) attacks Defender (4 SP, CSA)."""
    table = at_combat(1, SINGLES, **options)
    table.declare(["Attacker"], ["Defender"], target_terrain=target_terrain)
    return table


@pytest.mark.rule("BR-11.1")
@pytest.mark.parametrize("fire, check, outcome", [
    ((5, 5), 4, "retreat"),   # 8 SP rolls 5: 2 hits; 4 SP rolls 5: 1 hit -> the defender checks, 4 retreats
    ((5, 5), 3, "stays"),
    ((3, 6), None, "no roll"),  # 1 hit each
])
def test_vector_10_who_checks(fire, check, outcome):
    """Vector 10 (BR-11.1): hits received attacker 1, defender 2: the defender rolls, 4 retreats, 3 stays;
    hits 1-1: no roll."""
    table = single_units()
    table.do("fire", *fire, attack=0)
    table.do("allocate_hits")
    if check is None:
        assert table.state.combat is None
        table.refuse("BR-10.1", "retreat_check", 6)
        return
    assert table.state.combat.checking == "defenders"
    table.do("retreat_check", check)
    assert (table.state.combat is not None and table.state.combat.stage == "retreat") == (outcome == "retreat")


@pytest.mark.rule("BR-11.1")
@pytest.mark.parametrize("face", range(1, 7))
def test_retreat_check_4_to_6(face):
    """BR-11.1: the stack that received strictly more hits rolls: 4-6 it retreats 1 hex, 1-3 it stays."""
    table = single_units()
    table.do("fire", 1, 6, attack=0)  # 8 SP rolls 1: none; 4 SP rolls 6: 1 hit -> the attacker checks
    table.do("allocate_hits")
    assert table.state.combat.checking == "attackers"
    table.do("retreat_check", face)
    assert (table.state.combat is not None) == (face >= 4)


@pytest.mark.rule("BR-11.1")
def test_vector_09_eight_sp_attacks_four_sp_in_woods():
    """Vector 9 (BR-10.4, BR-10.5, BR-11.1): the two fires, P(defender retreats) = 7/36, P(attacker retreats)
    = 1/12, P(no check) = 4/9, through the engine's fire, hits and retreat check."""
    assert fractions(fire_odds(FireInput(8, -1))) == {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}
    assert fractions(fire_odds(FireInput(4, 0))) == {0: F(2, 3), 1: F(1, 3)}
    declared = single_units("woods").state

    def combat(dice):
        state = ENGINE.apply(declared, {"type": "fire", "attack": 0}, dice).state
        state = ENGINE.apply(state, {"type": "allocate_hits"}, dice).state if state.combat else state
        if state.combat is None:
            return "no check"
        who = state.combat.checking
        state = ENGINE.apply(state, {"type": "retreat_check"}, dice).state
        return f"{who} {'retreat' if state.combat else 'stay'}"

    assert fractions(exhaustive(combat)) == {"defenders retreat": F(7, 36), "defenders stay": F(7, 36),
                                             "attackers retreat": F(1, 12), "attackers stay": F(1, 12),
                                             "no check": F(4, 9)}
    summary = summarize(combat_odds(CombatInput(StackInput(8, (8,)), StackInput(4, (4,)), attacker_modifier=-1)))
    assert (summary.defenders_retreat, summary.attackers_retreat, summary.no_check) == (F(7, 36), F(1, 12), F(4, 9))
    assert (summary.expected_on_defenders, summary.expected_on_attackers) == (F(1, 3) + 2 * F(1, 6), F(1, 3))


@pytest.mark.rule("BR-11.1", "BR-11.2")
def test_vector_11_defender_attacked_by_two_stacks():
    """Vector 11 (BR-10.1, BR-11.1, BR-11.2): D (3+2 SP, clear) is attacked by X (4 SP), then by Y (7 SP)."""
    roster = (row("D1", "UNION", "A", 1, 3), row("D2", "UNION", "A", 1, 2),
              row("X", "CSA", "1", 1, 4), row("Y", "CSA", "2", 1, 7))
    table = at_combat(4, roster)
    x = table.declare(["X"], ["D1", "D2"])
    y = table.declare(["Y"], ["D1", "D2"])
    table.do("fire", 5, 4, attack=x)  # X rolls 5 in 3-4: 1 hit; D (5 SP) rolls 4 in 5-6: 1 hit
    assert (table.state.combat.hits_on_defenders, table.state.combat.hits_on_attackers) == (1, 1)
    table.do("allocate_hits", on_defenders={"D1": 1})
    assert table.state.combat is None  # a tie: no check
    step = table.do("fire", 6, attack=y)  # Y rolls 6 in 7-8: 2 hits; D does not roll
    assert len(step.results) == 1 and table.state.combat.hits_on_defenders == 2
    table.do("allocate_hits", on_defenders={"D1": 2})
    assert table.state.combat.checking == "defenders"
    table.do("retreat_check", 4)
    table.do("retreat")
    assert table.state.combat.stage == "advance" and table.state.combat.vacated == "defenders"
    table.do("advance", advance=True)
    assert table.sp("D1", "D2", "X", "Y") == (0, 2, 3, 7)


@pytest.mark.rule("BR-11.1")
def test_an_eliminated_stack_does_not_roll():
    """BR-11.1: the stack that took more hits but was eliminated makes no retreat check."""
    table = at_combat(4)
    table.attack(["Evans' Brigade"], ["Union 4"], 6, 1)  # 3 SP rolls 6: 1 hit on the 1-SP unit; it rolls 1
    table.do("allocate_hits")
    assert table.unit("Union 4").status == ELIMINATED
    assert table.state.combat.stage == "advance"
    table.refuse("BR-11.2", "retreat_check", 6)


def defender_must_retreat(**options) -> Table:
    """Attacker scores 2 hits, takes none; Defender rolls 6 and must retreat."""
    table = single_units(**options)
    table.do("fire", 5, 1, attack=0)  # 2 hits on Defender, none back
    table.do("allocate_hits")
    table.do("retreat_check", 6)
    return table


@pytest.mark.rule("BR-11.1")
@pytest.mark.parametrize("params, bank, status", [
    ({}, "south", ON_MAP),
    ({"across_ford": True}, "north", ON_MAP),
    ({"legal_hex": False}, "south", ELIMINATED),
])
def test_retreat_one_hex_or_eliminated(params, bank, status):
    """BR-11.1: all units retreat 1 hex together, across Bull Run only at a ford; with no legal hex the stack
    is eliminated and its SP count as lost."""
    table = defender_must_retreat()
    table.do("retreat", **params)
    unit = table.unit("Defender")
    assert (unit.bank, unit.status) == (bank, status)
    assert table.state.sp_lost("CSA") == (4 if status == ELIMINATED else 2)


@pytest.mark.rule("BR-11.1")
def test_option_a18_retreat_across_the_bridge():
    """BR-11.1: a retreat crosses Bull Run only at a ford (A18 default); with A18 the bridge counts."""
    defender_must_retreat().refuse("BR-11.1", "retreat", across_bridge=True)
    bridge = defender_must_retreat(bridge_counts=True)
    bridge.refuse("BR-11.1", "retreat", across_bridge=True, across_ford=True)
    bridge.do("retreat", across_bridge=True)
    assert bridge.unit("Defender").bank == "north"


# --- BR-11.2: the advance ------------------------------------------------------------------------

@pytest.mark.rule("BR-11.2")
@pytest.mark.parametrize("advance, bank", [(True, "south"), (False, "north")])
def test_attacker_may_advance_after_the_defender_retreats(advance, bank):
    """BR-11.2: the winning attacker may move its whole stack into the vacated hex (here across the ford it
    attacked over); it is optional, and must be answered."""
    table = at_combat(1, SINGLES)
    table.attack(["Attacker"], ["Defender"], 6, 1, across_ford=True)  # 8 SP rolls 6 - 2 = 4: 1 hit
    table.do("allocate_hits")
    table.do("retreat_check", 5)
    table.do("retreat")
    table.refuse("BR-11.2", "advance")
    table.do("advance", advance=advance)
    assert table.unit("Attacker").bank == bank and table.state.combat is None


@pytest.mark.rule("BR-11.2")
@pytest.mark.parametrize("advance_by, may", [("attacker", False), ("winner", True)], ids=["default", "A19"])
def test_option_a19_defender_advances_after_the_attacker_retreats(advance_by, may):
    """BR-11.2: by default only the attacker advances; with A19 the winner on either side may."""
    table = single_units(advance_by=advance_by)
    table.do("fire", 1, 6, attack=0)  # none on Defender, 1 on Attacker
    table.do("allocate_hits")
    table.do("retreat_check", 6)
    table.do("retreat")
    if may:
        assert table.state.combat.vacated == "attackers"
        table.do("advance", advance=True)
    else:
        assert table.state.combat is None
        table.refuse("BR-10.1", "advance", advance=True)


@pytest.mark.rule("BR-11.2")
def test_an_eliminated_stack_cannot_advance():
    """BR-11.2: only a stack that is still there may advance; an attacker destroyed in the combat cannot,
    even when the defender then retreats (here fired at turn-start SP, A14)."""
    roster = (row("Worn", "CSA", "1", 1, 6), row("U1", "UNION", "A", 1, 11), row("U2", "UNION", "A", 1, 9),
              row("Def", "UNION", "B", 1, 4))
    for solitaire in (False, True):
        table = Table(roster, solitaire=solitaire)
        table.to_combat(1)
        first = table.declare(["U1"], ["Worn"])
        second = table.declare(["U2"], ["Worn"])
        table.do("fire", 6, 1, attack=first)  # 3 hits: Worn 6 -> 3
        table.do("allocate_hits")
        table.do("retreat_check", 1)
        table.do("fire", 5, attack=second)  # 2 hits: Worn 3 -> 1
        table.do("allocate_hits")
        table.do("retreat_check", 1)
        table.do("end_combat")
        table.attack(["Worn"], ["Def"], 6, 6)  # Worn fires 6 SP: 2 hits; Def 4 SP: 1 hit, which destroys Worn
        table.do("allocate_hits")
        assert table.unit("Worn").status == ELIMINATED
        table.do("retreat_check", 4)
        table.do("retreat")
        assert table.state.combat is None
        table.refuse("BR-10.1", "advance", advance=True)
