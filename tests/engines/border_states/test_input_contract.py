"""The input contract (digest section 11): yes/no flags take only true or false, by the action specs; procedure
inputs refuse a wrong type or an out-of-range value naming the field; a die face outside 1..6, or too few faces,
is refused naming the rule of the roll; a refused action leaves the state as it was."""
from __future__ import annotations

import pytest

from companion.dice import DiceError, ScriptedDice
from companion.engine import RuleError
from engines.border_states import ENGINE
from engines.border_states.initiative import InitiativeInput
from engines.border_states.recruitment import RecruitInput
from engines.border_states.state import RECRUIT
from engines.border_states.throw import ThrowInput
from tests.engines.border_states.support import (
    C_HOMES,
    MD,
    NC,
    VA,
    WV,
    C,
    Table,
    U,
    action_table,
    at,
    battle_table,
    full_board,
    setup,
)


def attempt(table: Table, kind: str, faces: tuple[int, ...], **params):
    """The action with these dice: the new state, or None when it is refused (and then nothing changed)."""
    before = table.state.to_dict()
    try:
        return ENGINE.apply(table.state, {"type": kind, **params}, ScriptedDice(faces)).state
    except RuleError:
        assert table.state.to_dict() == before
        return None


def entrenched(table: Table, area: str) -> Table:
    table.modify(entrenched=(area,))
    return table


def deploying() -> Table:
    return Table({"board": full_board()})


def recruiting() -> Table:
    """The CSA to recruit for its empty home states, its commander unit in the pool with other units."""
    return at(RECRUIT, {VA: (3, 0), NC: (3, 0), WV: (0, 1)}, first=C, turn=C)


# Each flag given as the text "false", the position it is tried in, and what would show it taken for yes.
FALSE_FLAGS = [
    pytest.param(lambda: action_table({VA: (2, 0)}, commanders={C: VA}), "move", (),
                 dict(source=VA, target=NC, commander="false"), lambda s: s.commander_at[C] == NC,
                 id="move commander"),
    pytest.param(lambda: entrenched(action_table({VA: (2, 0)}), VA), "move", (),
                 dict(source=VA, target=NC, entrenched="false"), lambda s: VA not in s.entrenched,
                 id="move entrenched"),
    pytest.param(lambda: action_table({MD: (1, 2)}, first=U, commanders={U: MD}), "retreat", (6,),
                 dict(source=MD, target=WV, commander="false"), lambda s: s.commander_at[U] == WV,
                 id="retreat commander"),
    pytest.param(lambda: action_table({MD: (1, 2)}, first=U), "retreat", (6,),
                 dict(source=MD, target=WV, discard="false"), lambda s: s.hand[U] == 1, id="retreat discard"),
    pytest.param(lambda: entrenched(action_table({WV: (1, 2)}, first=U), WV), "retreat", (6,),
                 dict(source=WV, target=MD, entrenched="false"), lambda s: WV not in s.entrenched,
                 id="retreat entrenched"),
    pytest.param(deploying, "deploy", (), dict(area=VA, commander="false"), lambda s: s.commander_at[C] == VA,
                 id="deploy commander"),
    pytest.param(recruiting, "recruit", (6,), dict(area=C_HOMES[0], commander="false"),
                 lambda s: s.commander_at[C] == C_HOMES[0], id="recruit commander"),
]


@pytest.mark.rule("BS-D.4", "BS-D.6", "BS-RET", "BS-D.5", "BS-SETUP", "BS-REC")
@pytest.mark.parametrize("make, kind, faces, params, taken_for_yes", FALSE_FLAGS)
def test_true_is_yes_in_those_positions(make, kind, faces, params, taken_for_yes):
    """The check below can fail: with true instead of "false", each position shows the flag taken (a discarded
    card rolls no die)."""
    params = {k: True if v == "false" else v for k, v in params.items()}
    table = make()
    after = attempt(table, kind, () if params.get("discard") is True else faces, **params)
    assert after is not None and taken_for_yes(after)


@pytest.mark.rule("BS-D.4", "BS-D.6", "BS-RET", "BS-D.5", "BS-SETUP", "BS-REC")
@pytest.mark.parametrize("make, kind, faces, params, taken_for_yes", FALSE_FLAGS)
def test_the_text_false_for_a_flag_is_refused_naming_it(make, kind, faces, params, taken_for_yes):
    """Section 11: the text "false" for a yes/no parameter is refused, naming the parameter, never taken for yes
    (no card discarded, the commander unit and the entrenched unit where they were); nothing changes."""
    table = make()
    flag = next(k for k, v in params.items() if v == "false")
    before = table.state.to_dict()
    with pytest.raises(RuleError) as caught:
        ENGINE.apply(table.state, {"type": kind, **params}, ScriptedDice(faces))
    assert f"'{flag}'" in caught.value.message and table.state.to_dict() == before


@pytest.mark.rule("BS-CMB")
def test_the_commander_flag_of_the_losses_is_refused_unless_true_or_false():
    """CMB.8 / section 11: the loser's 'commander' answer is yes or no; the text "false" is refused by name."""
    table = battle_table(WV, 3, 3, commanders={U: WV})
    table.fight((5, 5, 1), (3, 1, 2))
    assert table.battle.stage == "losses"
    assert "'commander'" in table.refuse("BS-CMB", "remove_losses", commander="false").message


# --- procedure inputs ------------------------------------------------------------------------------------------

@pytest.mark.rule("BS-REC", "BS-VAR.2", "BS-CMB")
@pytest.mark.parametrize("make, field, rule", [
    (lambda v: RecruitInput(v), "success", "BS-REC"),
    (lambda v: InitiativeInput(v, 0), "bid_c", "BS-VAR.2"),
    (lambda v: InitiativeInput(0, v), "bid_u", "BS-VAR.2"),
    (lambda v: ThrowInput(v), "dice", "BS-CMB"),
])
@pytest.mark.parametrize("value", ["2", True, 2.0, None, [3], -1, 10 ** 9],
                         ids=["text", "bool", "float", "None", "list", "negative", "huge"])
def test_a_procedure_input_refuses_a_wrong_type_or_range_naming_the_field(make, field, rule, value):
    """Section 11: '2', True and 2.0 are not whole numbers; -1 and 10^9 are out of range (success 2..6, a bid
    0..20, a throw 1..50 dice); the error names the field and the rule."""
    with pytest.raises(RuleError) as caught:
        make(value)
    assert caught.value.rule == rule and f"'{field}'" in caught.value.message


@pytest.mark.rule("BS-REC", "BS-VAR.2", "BS-CMB")
def test_the_edges_of_the_ranges_are_accepted():
    assert RecruitInput(2).success == 2 and RecruitInput(6).success == 6
    assert InitiativeInput(20, 0).bid_c == 20 and ThrowInput(1).dice == 1 and ThrowInput(50).dice == 50
    for bad in (lambda: RecruitInput(1), lambda: RecruitInput(7), lambda: InitiativeInput(21, 0),
                lambda: ThrowInput(0), lambda: ThrowInput(51)):
        with pytest.raises(RuleError):
            bad()


# --- dice ------------------------------------------------------------------------------------------------------

def rolling(kind: str):
    """A table whose next action `kind` rolls dice, with its parameters and the number of faces it takes."""
    if kind == "roll_initiative":
        table = Table(setup())
        table.do("draw")
        return table, {}, 2
    if kind == "retreat":
        return action_table({MD: (1, 2)}, first=U), {"source": MD, "target": WV}, 1
    if kind == "recruit":
        return recruiting(), {"area": C_HOMES[0]}, 1
    table = battle_table(WV, 3, 2)
    for step in ("start_effects", "start_effects"):
        table.do(step)
    table.do("commit_supply", count=0)
    table.do("commit_supply", count=0)
    return table, {}, 3


@pytest.mark.rule("BS-INIT", "BS-RET", "BS-REC", "BS-CMB")
@pytest.mark.parametrize("kind, rule", [("roll_initiative", "BS-INIT"), ("retreat", "BS-RET"),
                                        ("recruit", "BS-REC"), ("throw", "BS-CMB")])
@pytest.mark.parametrize("bad", [0, 7, -1], ids=["0", "7", "-1"])
def test_a_face_outside_1_to_6_is_refused_naming_the_rule(kind, rule, bad):
    """Section 11: each roll takes faces 1..6; a face outside is refused naming the rule of the roll; nothing
    changes."""
    table, params, needed = rolling(kind)
    before = table.state.to_dict()
    with pytest.raises(DiceError) as caught:
        ENGINE.apply(table.state, {"type": kind, **params}, ScriptedDice((bad,) + (3,) * (needed - 1)))
    assert rule in str(caught.value) and table.state.to_dict() == before


@pytest.mark.rule("BS-INIT", "BS-RET", "BS-REC", "BS-CMB")
@pytest.mark.parametrize("kind, rule", [("roll_initiative", "BS-INIT"), ("retreat", "BS-RET"),
                                        ("recruit", "BS-REC"), ("throw", "BS-CMB")])
def test_too_few_faces_are_refused_naming_the_rule(kind, rule):
    """Section 11: initiative takes 1 die a side, a retreat 1, a recruitment 1, a throw every die left."""
    table, params, needed = rolling(kind)
    before = table.state.to_dict()
    with pytest.raises(DiceError) as caught:
        ENGINE.apply(table.state, {"type": kind, **params}, ScriptedDice((3,) * (needed - 1)))
    assert rule in str(caught.value) and table.state.to_dict() == before

