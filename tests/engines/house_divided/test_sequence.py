"""The sequence of play (HD-3), the state (HD-2), the guide, the calendar and the options."""
from __future__ import annotations

import json

import pytest

from engines.house_divided.guide import due_now, phase_title
from engines.house_divided.options import OPTIONS, RULE_SWITCHES
from engines.house_divided.rules import RULES
from engines.house_divided.state import state_from_dict
from tests.engines.house_divided.support import Table, setup

DIGEST_IDS = ["HD-4.1", "HD-4.2", "HD-4.3", "HD-4.4", "HD-4.5", "HD-4.6", "HD-4.7", "HD-4.8", "HD-4.9", "HD-4.10",
              "HD-4.11", "HD-5.1", "HD-5.2", "HD-5.3", "HD-5.4", "HD-5.5", "HD-5.6", "HD-5.7", "HD-5.8", "HD-5.9",
              "HD-5.10", "HD-6.1", "HD-6.2", "HD-6.3"]


@pytest.mark.rule("HD-2", "HD-A1", "HD-A2", "HD-A10", "HD-A20")
def test_rules_list_every_digest_id_and_every_ambiguity():
    """RULES names every rule ID of the digest and A1-A27; every option cites one of them; each of S1-S10 has
    its own switch (the source: the advanced rules are independent). Every ambiguity the digest marks Opt is
    an option; A1, A2, A10 and A20 are not: the digest fixes their reading."""
    assert set(DIGEST_IDS) | {f"HD-A{i}" for i in range(1, 28)} <= set(RULES)
    assert all(o.rule in RULES for o in OPTIONS)
    assert len(RULE_SWITCHES) == 11 and all(o.default is True for o in RULE_SWITCHES)
    opt = {o.rule for o in OPTIONS}
    assert {f"HD-A{i}" for i in (3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26,
                                 27)} <= opt
    assert not {"HD-A1", "HD-A2", "HD-A10", "HD-A20"} & opt


@pytest.mark.rule("HD-A11", "HD-A22", "HD-A24", "HD-A25", "HD-A26", "HD-A27", "HD-A13")
def test_the_digests_defaults():
    """Section 7's defaults: no foraging exemption (A11), any split (A22), the fort shelters its holder (A24),
    militia morale by the game year (A25), the basic victory off until switched on (A26), a line may start in a
    box the side does not control (A27), the garrison checks morale (A13)."""
    defaults = {o.key: o.default for o in OPTIONS}
    assert {k: defaults[k] for k in ("foraging", "leader_split", "fort", "militia_year", "basic_victory",
                                     "supply_start", "garrison_morale")} == {
        "foraging": "none", "leader_split": "any", "fort": "holder", "militia_year": "game", "basic_victory": False,
        "supply_start": "start", "garrison_morale": "checks"}


@pytest.mark.rule("HD-3")
def test_a_game_turn_is_the_union_player_turn_then_the_csas():
    """HD-3: start (supply), movement (marches), battles, promotion, recruitment; Union first, then CSA; then the
    next turn."""
    table = Table(supply=False)
    seen = []
    for _ in range(2):
        seen.append(phase_title(table.state))
        table.to_battles()
        table.pass_turn()
    assert seen == ["Turn 1 (1861), Union player turn: start", "Turn 1 (1861), CSA player turn: start"]
    assert (table.state.turn, table.state.side, table.state.segment) == (2, "USA", "start")


@pytest.mark.rule("HD-3")
def test_each_segment_in_its_turn():
    table = Table()
    table.refuse("HD-4.1", "roll_marches", 3)
    table.refuse("HD-3", "end_battles")
    table.refuse("HD-5.1", "end_start")
    assert [d.action for d in due_now(table.state)] == ["check_supply"]
    table.do("check_supply")
    table.refuse("HD-5.1", "check_supply")
    table.do("end_start")
    table.refuse("HD-4.1", "end_movement")
    assert [d.action for d in due_now(table.state)] == ["roll_marches"]
    table.do("roll_marches", 2)
    assert due_now(table.state)[0].action == "end_movement"
    table.do("end_movement")
    table.refuse("HD-3", "start_battle", box="B")          # no Union unit there
    table.refuse("HD-3", "start_battle", box="washington")  # no enemy there
    table.refuse("HD-3", "next_round")
    table.do("end_battles")
    table.do("end_promotion")
    table.refuse("HD-3", "end_player_turn", year=1862)      # the year changes after the CSA turn


@pytest.mark.rule("HD-3", "HD-2")
def test_the_year_from_the_calendar_or_from_the_players():
    """Digest section 2: the year picks the Command Table column; from the players' calendar, or as they say."""
    table = Table(setup(calendar=["Dec 1861", "Feb 1862"]), supply=False)
    for _ in range(2):
        table.to_battles()
        table.pass_turn()
    assert (table.state.turn, table.state.year, table.state.turn_label) == (2, 1862, "Feb 1862")
    table = Table(supply=False)
    table.to_battles()
    table.pass_turn()
    table.to_battles()
    table.do("end_battles")
    table.do("end_promotion")
    table.refuse("HD-3", "end_player_turn", year=1863)
    table.do("end_player_turn", year=1862)
    assert table.state.year == 1862 and table.state.turn_label == "Turn 2 (1862)"


@pytest.mark.rule("HD-2")
def test_the_state_round_trips_through_json_mid_battle():
    table = Table(supply=False)
    table.to_battles()
    table.do("start_battle", box="P")
    table.do("battle_command", 1, 2)
    data = json.loads(json.dumps(table.state.to_dict()))
    assert state_from_dict(data) == table.state


@pytest.mark.rule("HD-8")
def test_control_changes_are_checked():
    table = Table()
    table.refuse("HD-8", "set_control", box="A", side="CSA")
    table.refuse("HD-8", "set_control", box="europe", side="CSA")
    table.refuse("HD-8", "set_control", box="Z", side="CSA")
    table.do("set_control", box="B", side="")
    assert "B" not in table.state.control


@pytest.mark.rule("HD-3")
def test_reinforcements_join_between_rounds():
    table = Table(supply=False)
    table.to_movement(6)
    table.do("march", units=["USA 2"], to="U1")
    table.do("end_movement")
    table.do("start_battle", box="P")
    table.do("reinforce", side="USA", units=["USA 3"])
    assert table.unit("USA 3").box == "P" and "USA 3" in table.state.battle.of("USA").units
    table.refuse("HD-3", "reinforce", side="USA", units=["USA 3"])
    table.refuse("HD-3", "reinforce", side="CSA", units=["USA 2"])
    table.refuse("HD-3", "end_battles")
    table.do("battle_command", 6, 6)
    table.do("record_fire", side="USA", units=[], hits=0)
    table.refuse("HD-3", "reinforce", side="USA", units=["USA 2"])     # fire has begun this round
    table.do("record_fire", side="CSA", units=[], hits=0)
    table.do("reinforce", side="USA", units=["USA 2"])                # the round is over
    assert "USA 2" in table.state.battle.of("USA").units
