"""The board file (digest section 10), setup and deployment (BS-SETUP), and the placement limits (BS-D.1)."""
from __future__ import annotations

from itertools import product

import pytest

from companion.engine import RuleError, resolve_options
from companion.events import Replay
from engines.border_states import ENGINE
from engines.border_states.board import board_from_data
from engines.border_states.state import DEPLOYMENT, DRAW, SETUP
from tests.engines.border_states.support import (
    AR,
    C_HOMES,
    KY,
    MD,
    MO,
    NC,
    TN,
    U_HOMES,
    VA,
    WV,
    C,
    Table,
    U,
    area_of,
    board,
    full_board,
    offered,
    setup,
    start,
)


def drop_area(data: dict, name: str) -> None:
    data["areas"] = [a for a in data["areas"] if a["name"] != name]
    data["adjacency"] = [p for p in data["adjacency"] if name not in p]


def edit(fn):
    """A board (the example's) changed by fn."""
    data = board()
    fn(data)
    return data


BAD_BOARDS = [
    ("a border state renamed", lambda b: area_of(b, AR).update(name="Texas"), "BS-SETUP",
     "State Texas is marked a border state, but the rules name only eight: "),
    ("six Union-side border states", lambda b: (area_of(b, AR).update(side=U), area_of(b, TN).update(side=U)),
     "BS-SETUP", "CSA needs at least 3 own-side border states to deploy its 8 units, not 2"),
    ("a side that is neither", lambda b: area_of(b, AR).update(side="X"), "BS-SETUP",
     "State Arkansas: the side is C (CSA) or U (Union), not 'X'"),
    ("a state named twice", lambda b: area_of(b, "Union home 6").update(name="Union home 5"), "BS-SETUP",
     "State names must be unique: Union home 5 is entered twice"),
    ("seven Union home states", lambda b: (b["areas"].append({"name": "Union home 7", "side": U, "border": False,
                                                              "success": 4}),
                                           b["adjacency"].append(["Union home 7", "Union home 1"])),
     "BS-SETUP", "Union has 6 home states, not 7"),
    ("four CSA home states", lambda b: drop_area(b, "CSA home 5"), "BS-SETUP", "CSA has 5 home states, not 4"),
    ("success value 1", lambda b: area_of(b, "Union home 1").update(success=1), "BS-REC",
     "Home state Union home 1: the recruitment success value is 2 to 6, not 1"),
    ("success value 7", lambda b: area_of(b, "CSA home 2").update(success=7), "BS-REC",
     "Home state CSA home 2: the recruitment success value is 2 to 6, not 7"),
    ("negative VP", lambda b: area_of(b, KY).update(vp=-1), "BS-VIC",
     "Border state Kentucky: the VP are 0 or more, not -1"),
    ("two states with one combat number", lambda b: area_of(b, AR).update(number=1), "BS-CMB",
     "Border states West Virginia and Arkansas both have combat number 1: each has its own"),
    ("combat number 0", lambda b: area_of(b, AR).update(number=0), "BS-CMB",
     "Border state Arkansas: the combat number is 1 or more, but it is missing"),
    ("a state adjacent to itself", lambda b: b["adjacency"].append([MD, MD]), "BS-D.4",
     "Adjacency Maryland–Maryland: a state does not border itself"),
    ("a one-sided adjacency entry", lambda b: b["adjacency"].append([MD]), "BS-SETUP",
     "Adjacency 22: a border joins 2 states, not 1"),
    ("a three-state adjacency entry", lambda b: b["adjacency"].append([MD, WV, VA]), "BS-SETUP",
     "Adjacency 22: a border joins 2 states, not 3"),
    ("a dangling adjacency", lambda b: b["adjacency"].append([MD, "Delaware"]), "BS-D.4",
     "Adjacency Maryland–Delaware: Delaware is not on the board"),
    ("a disconnected map", lambda b: b.update(adjacency=[p for p in b["adjacency"]
                                                         if sorted(p) not in ([KY, WV], [NC, TN])]),
     "BS-D.4", "cut off from the other states: add a border joining them"),
    ("a negative force cut", lambda b: b["damage_u"][1].update(force_cut=-1), "BS-VIC.3",
     "Damage track square U2: the force cut is 0 or more, not -1"),
    ("a negative star", lambda b: b["damage_c"][0].update(star=-2), "BS-VIC.3",
     "Damage track square C1: the star VP is 0 or more, not -2"),
    ("a fractional track value", lambda b: b["damage_c"][0].update(star=1.5), "BS-SETUP",
     "Damage track square C1: the star VP must be a whole number, not 1.5"),
    ("a distrust loop of 0", lambda b: b.update(distrust_length=0), "BS-D.10",
     "The distrust loop has at least one square, not 0"),
    ("a distrust loop of -3", lambda b: b.update(distrust_length=-3), "BS-D.10",
     "The distrust loop has at least one square, not -3"),
    ("a commander face with 0 actions", lambda b: b["commanders"][U][2].update(actions=0), "BS-D.7",
     "Union commander face 3 (Union commander 3): the actions a round are at least 1, not 0"),
    ("three Union commander faces", lambda b: b["commanders"][U].pop(), "BS-D.10",
     "Union has 4 commander faces, not 3"),
    ("a card effect outside the vocabulary", lambda b: b["cards"][C][0].update(effect="DRAW_TWO"), "BS-CARD",
     "CSA card 1 (T.J. Jackson): the effect is one of ADD_STOCK_DICE, ADD_FACE, MODIFY, MODIFY_EITHER, "
     "COSTS_ACTION, FREE_TEXT, not 'DRAW_TWO'"),
    ("a card of no phase", lambda b: b["cards"][U][0].update(phase="supply"), "BS-CARD",
     "Union card 1 (Army of the Potomac): the phase is combat or action, not 'supply'"),
    ("a card with 0 copies", lambda b: b["cards"][U][1].update(copies=0), "BS-CARD",
     "Union card 2 (Example Union card): the copies are 1 or more, not 0"),
    ("a card taking dice back to the stock", lambda b: b["cards"][U][0].update(value=-1), "BS-CARD",
     "Union card 1 (Army of the Potomac): the dice added from the stock (its value) are 0 or more, not -1"),
    ("a face card adding a 7", lambda b: b["cards"][C][0].update(value=7), "BS-MOD",
     "CSA card 1 (T.J. Jackson): the face added (its value) is 1 to 6, not 7"),
    ("a face modifier of 0", lambda b: b["cards"][C][1].update(effect="MODIFY", value=0), "BS-MOD",
     "CSA card 2 (Example CSA card): a face modifier's value is signed, such as +1 or -1, not 0"),
    ("a modifier of either sign of -1", lambda b: b["cards"][C][1].update(effect="MODIFY_EITHER", value=-1), "BS-MOD",
     "CSA card 2 (Example CSA card): a modifier of either sign is entered as its size, 1 or more, not -1"),
    ("seven CSA pieces", lambda b: b["units"].update(C=7), "BS-SETUP",
     "CSA unit pieces: at least 8 (the CSA deploys 8 units), not 7"),
    ("six Union pieces", lambda b: b["units"].update(U=6), "BS-SETUP",
     "Union unit pieces: at least 7 (the Union deploys 7 units), not 6"),
    ("no Union piece count", lambda b: b["units"].pop(U), "BS-SETUP", "Union unit pieces: the count is missing"),
    ("no Union deck", lambda b: b["cards"].pop(U), "BS-D.9", "The Union deck is missing: a list of its cards"),
    ("a missing field", lambda b: b.pop("distrust_length"), "BS-SETUP", "The distrust loop's length is missing"),
]


@pytest.mark.rule("BS-SETUP", "BS-REC", "BS-VIC", "BS-CMB", "BS-D.4", "BS-VIC.3", "BS-D.10", "BS-D.7", "BS-CARD",
                  "BS-MOD", "BS-D.9")
@pytest.mark.parametrize("fn, rule, phrase", [pytest.param(fn, rule, phrase, id=name)
                                              for name, fn, rule, phrase in BAD_BOARDS])
def test_a_bad_board_file_is_refused_and_no_state_is_made(fn, rule, phrase):
    """Digest section 10: every check of the board file refuses with the rule and a message in a player's words
    naming the state, card, square or field and what is wrong with it (issue 16: "Adjacency Maryland–Delaware:
    Delaware is not on the board"); neither a state nor a session comes into being."""
    bad = edit(fn)
    with pytest.raises(RuleError) as caught:
        start(setup(bad))
    assert (caught.value.rule, phrase in caught.value.message) == (rule, True), caught.value
    with pytest.raises(RuleError):
        Replay(ENGINE, resolve_options(ENGINE.options, {}), setup(bad))


@pytest.mark.rule("BS-SETUP")
def test_adjacency_is_symmetric_by_construction():
    """Section 10 'symmetric adjacency': a pair of states is adjacent both ways, whichever order the file names."""
    b = board_from_data(board())
    for a, c in b.adjacency:
        assert c in b.neighbours(a) and a in b.neighbours(c)
    assert AR not in b.neighbours(WV) and WV not in b.neighbours(AR)
    assert b.neighbours(VA) == (WV, MD, NC, "CSA home 1")   # in the board's order


@pytest.mark.rule("BS-SETUP")
def test_the_opening_state():
    """BS-SETUP: supply C 16 and U 18; damage and distrust markers on START; round 1; ① Lee and ① McClellan;
    the decks shuffled whole, the hands empty; deployment, the CSA first."""
    data = full_board()
    state = start({"board": data})
    assert (state.phase, state.turn, state.round) == (SETUP, C, 1)
    assert state.supply == {C: 16, U: 18}
    assert (state.damage, state.distrust) == (0, 0)
    assert state.commander == {C: 1, U: 1}
    assert (state.commander_name(C), state.commander_name(U)) == ("Robert E. Lee", "George B. McClellan")
    assert state.deck == {s: sum(c["copies"] for c in data["cards"][s]) for s in (C, U)}
    assert state.hand == {C: 0, U: 0} and state.discard == {C: 0, U: 0}
    assert state.on_board(C) == state.on_board(U) == 0
    assert state.pool(C) == 12 and state.pool(U) == 14


@pytest.mark.rule("BS-SETUP")
def test_deployment_alternates_from_the_csa_until_8_and_7():
    """BS-SETUP step 6: one unit at a time, C, U, ..., C: 15 placements, 8 CSA and 7 Union, into own-side
    border states; then round 1 begins with the draw. Home states start empty; the rest is the pool."""
    table = Table({"board": full_board()})
    c_order = [VA, VA, NC, NC, TN, TN, AR, AR]
    u_order = [WV, WV, MD, MD, KY, KY, MO]
    turns = []
    for i in range(15):
        side = table.state.turn
        turns.append(side)
        area = (c_order if side == C else u_order)[turns.count(side) - 1]
        first_there = (side, area) in ((C, VA), (U, MD)) and not table.state.commander_at[side]
        table.do("deploy", area=area, commander=first_there)
    assert "".join(turns) == "CU" * 7 + "C"
    state = table.state
    assert state.phase == DRAW and (state.on_board(C), state.on_board(U)) == (8, 7)
    assert all(state.count(h, s) == 0 for s, homes in ((C, C_HOMES), (U, U_HOMES)) for h in homes)
    assert state.commander_at == {C: VA, U: MD}
    assert (state.pool(C), state.pool(U)) == (12 - 8, 14 - 7)
    table.refuse("BS-SETUP", "deploy", area=VA)


@pytest.mark.rule("BS-SETUP", "BS-D.1")
@pytest.mark.parametrize("area", [WV, "CSA home 1", "Union home 1", "Appalachians"],
                         ids=["Union-side border state", "own home state", "enemy home state", "impassable"])
def test_deployment_is_into_own_side_border_states_only(area):
    """BS-SETUP: into own-side border states only (BS-D.1: impassable areas never); the refusal names the
    parameter and the states offered, the CSA-side border states of the example board."""
    table = Table({"board": full_board()})
    assert offered(table.state, "deploy", "area") == (VA, NC, TN, AR)
    message = table.refuse("BS-SETUP", "deploy", area=area).message
    assert "'area'" in message and "choose Virginia, North Carolina, Tennessee, Arkansas" in message


@pytest.mark.rule("BS-D.1", "BS-SETUP")
def test_deployment_respects_three_a_side_and_one_commander_unit():
    """BS-D.1: at most 3 units of a side in a border state, at setup too; one commander unit a side."""
    table = Table({"board": full_board()})
    table.do("deploy", area=VA, commander=True)
    table.do("deploy", area=WV)
    table.do("deploy", area=VA)
    table.do("deploy", area=WV)
    table.refuse("BS-SETUP", "deploy", area=VA, commander=True)
    table.do("deploy", area=VA)
    table.do("deploy", area=WV)
    table.refuse("BS-D.1", "deploy", area=VA)
    table.do("deploy", area=NC)
    table.refuse("BS-D.1", "deploy", area=WV)


@pytest.mark.rule("BS-SETUP", "BS-D.10")
def test_the_last_piece_deployed_is_the_commander_unit_when_it_is_all_the_pool_holds():
    """BS-SETUP: with 8 CSA pieces, the 8th unit placed is the commander unit when it has not been placed yet; a
    deployment entered in one go that uses every piece says where the commander unit stands."""
    data = full_board(units={C: 8, U: 14})
    table = Table({"board": data})
    for area in (VA, WV, VA, WV, VA, WV, NC, MD, NC, MD, NC, MD, TN, KY, TN):
        table.do("deploy", area=area)
    state = table.state
    assert state.phase == DRAW and state.commander_at == {C: TN, U: ""} and state.pool(C) == 0
    whole = {C: {VA: 3, NC: 3, TN: 2}, U: {WV: 3, MD: 3, KY: 1}}
    with pytest.raises(RuleError) as caught:
        start(setup(data, deployment=whole, commanders={U: WV}))
    assert caught.value.rule == "BS-SETUP" and "say where it stands" in caught.value.message
    assert start(setup(data, deployment=whole, commanders={C: NC})).commander_at[C] == NC


@pytest.mark.rule("BS-SETUP", "BS-D.1")
@pytest.mark.parametrize("deployment, commanders, rule", [
    ({C: {VA: 3, NC: 3, TN: 3}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}, {}, "BS-SETUP"),       # 9 CSA units
    ({C: {VA: 2, NC: 2, TN: 2, AR: 2}, U: {WV: 2, MD: 2, KY: 2}}, {}, "BS-SETUP"),        # 6 Union units
    ({C: {VA: 4, NC: 2, TN: 2}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}, {}, "BS-D.1"),          # 4 in Virginia
    ({C: {VA: 2, NC: 2, TN: 2, WV: 2}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}, {}, "BS-SETUP"),  # an enemy-side state
    ({C: {VA: 2, NC: 2, TN: 2, "CSA home 1": 1, AR: 1}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}, {}, "BS-SETUP"),
    ({C: {VA: 2, NC: 2, TN: 2, AR: 2}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}, {C: WV}, "BS-SETUP"),  # no CSA unit there
    ({C: {VA: 2, NC: 2, TN: 2, AR: 2}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}, {U: ["x"]}, "BS-SETUP"),
    ({C: {VA: 2, NC: 2, TN: 2, AR: 2.0}, U: {WV: 2, MD: 2, KY: 2, MO: 1}}, {}, "BS-D.1"),
    ({C: [VA], U: {}}, {}, "BS-SETUP"),
    ("all of them", {}, "BS-SETUP"),
], ids=["9 CSA", "6 Union", "4 in a state", "enemy side", "home state", "commander alone", "commander junk",
        "fraction", "a list", "text"])
def test_a_deployment_in_one_go_is_checked(deployment, commanders, rule):
    """BS-SETUP / BS-D.1: a deployment entered whole is checked as the one-by-one deployment is."""
    with pytest.raises(RuleError) as caught:
        start(setup(deployment=deployment, commanders=commanders))
    assert caught.value.rule == rule, caught.value


@pytest.mark.rule("BS-SETUP", "BS-D.1")
@pytest.mark.parametrize("pieces, pool", [(12, True), (8, False)], ids=["pieces left", "every piece deployed"])
def test_a_deployment_entered_at_once_offers_what_the_rules_allow(pieces, pool):
    """BS-SETUP / BS-D.1, for the setup editor: the CSA spreads 8 units over Virginia, North Carolina, Tennessee and
    Arkansas (its own-side border states on the example board), 3 at most in one; the Union 7 over West Virginia,
    Maryland, Kentucky and Missouri. The commander unit stands where a unit of its side is, or stays in the pool
    while the pool holds another piece."""
    state = start({"board": full_board(units={C: pieces, U: 14})})
    csa, union = (DEPLOYMENT.param(side).legal(state, {}) for side in (C, U))
    assert (csa.values, csa.caps, csa.low, csa.high) == ((VA, NC, TN, AR), (3, 3, 3, 3), 8, 8)
    assert (union.values, union.caps, union.low, union.high) == ((WV, MD, KY, MO), (3, 3, 3, 3), 7, 7)
    where = DEPLOYMENT.param("commander_C").legal(state, {C: {VA: 3, NC: 3, TN: 2, AR: 0}}).values
    assert where == (("",) if pool else ()) + (VA, NC, TN)
    assert DEPLOYMENT.param("commander_U").legal(state, {U: {WV: 3, MD: 3, KY: 1}}).values == ("", WV, MD, KY)


@pytest.mark.rule("BS-SETUP", "BS-D.1")
def test_the_deployment_the_editor_offers_is_the_one_the_setup_takes():
    """BS-SETUP / BS-D.1: every CSA spread of 0 to 4 units over its four own-side border states, with its commander
    unit in the first state it holds: the setup starts exactly when the deployment's spec accepts it."""
    state = start({"board": full_board()})
    union = {WV: 2, MD: 2, KY: 2, MO: 1}
    for counts in product(range(5), repeat=4):
        spread = dict(zip((VA, NC, TN, AR), counts))
        where = next((a for a, n in spread.items() if n), "")
        given = {C: spread, "commander_C": where, U: union, "commander_U": MD}
        try:
            DEPLOYMENT.check(state, given)
            offered_ = True
        except RuleError:
            offered_ = False
        try:
            start(setup(deployment={C: spread, U: union}, commanders={C: where, U: MD}))
            taken = True
        except RuleError:
            taken = False
        assert offered_ == taken == (sum(counts) == 8 and max(counts) <= 3), spread


@pytest.mark.rule("BS-SETUP")
def test_the_example_setup_is_deployed_and_labelled():
    """The shipped example: a deployed setup on a board labelled as invented; round 1 starts at the draw."""
    state = ENGINE.start(None, ENGINE.example_setup())
    assert state.phase == DRAW and (state.on_board(C), state.on_board(U)) == (8, 7)
    assert "invented" in state.board.example.lower()
