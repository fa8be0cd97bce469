"""The step guide (DX-5.0: morale -> combat -> movement -> reinforcement, one position finished before the next,
DX-7.0), what each side may see, and dice counts that do not depend on the faces."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from companion.engine import dice_needed
from engines.dixie import ENGINE
from engines.dixie.guide import due_now, phase_title
from engines.dixie.view import odds_blind, side_view
from tests.engines.dixie.support import Table, leader, sidebar, unit
from tests.engines.dixie.test_morale import hit_table


def actions(state) -> list[str]:
    return [due.action for due in due_now(state)]


@pytest.mark.rule("DX-5.0", "DX-7.0")
def test_the_guide_walks_the_turn():
    """DX-5.0: the guide offers the steps in order, the required one first, and names the position under way."""
    table = sidebar(melee=True)
    assert phase_title(table.state) == "Turn 2: USA combat step"
    assert actions(table.state)[0] == "declare_melee" and actions(table.state)[-1] == "end_combat"
    table.do("fire", 5, 5, 1, firers=["USA-24"], target="USA-C")
    assert actions(table.state) == ["allocate_hits"]
    table.do("allocate_hits")
    fire = next(d for d in due_now(table.state) if d.action == "fire")
    assert fire.text.startswith("Finish USA-C before starting another; USA-C -> USA-C (short)")
    table.do("end_combat")
    assert actions(table.state)[0] == "move" and actions(table.state)[-1] == "end_movement"
    table.do("end_movement")
    assert actions(table.state) == ["reinforce"]
    table.do("reinforce")
    assert phase_title(table.state) == "Turn 3: CSA morale step" and actions(table.state) == ["check_morale",
                                                                                              "morale_step"]


@pytest.mark.rule("DX-11.3", "DX-5.0")
def test_the_guide_puts_leader_checks_first():
    """DX-11.3: in the morale step leader checks come first."""
    cards = [unit(1, "CSA"), leader(2, "CSA"), unit(11, "USA", cv=3)]
    table = Table(cards)
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-L", "USA-11": "USA-R"})
    table.to_step("movement")
    table.do("move", card="CSA-1", to="USA-R")
    table.do("move", card="CSA-2", to="USA-R")
    table.next_turn()
    table.to_step("combat")
    table.do("fire", 1, 6, 4, firers=["USA-11"], target="USA-R")
    table.do("allocate_hits")
    table.next_turn()
    assert actions(table.state) == ["check_leader", "morale_step"]
    assert "LC2 (CSA-2) (1)" in due_now(table.state)[0].text


@pytest.mark.rule("DX-3.2", "DX-8.1")
def test_each_side_sees_its_own_cards_and_the_enemy_backs():
    """Digest section 2: the reserve is hidden from the opponent; face-down cards show their backs; face-up ones
    (and leaders, terrain) are public."""
    table = sidebar()
    usa, csa = side_view(table.state, "USA"), side_view(table.state, "CSA")
    assert usa["enemy_reserve"] == len(csa["reserve"]) and all("id" in c for c in usa["reserve"])
    seen = usa["positions"]["CSA-C"]["cards"]
    assert seen == [{"back": "CSA"}, {"back": "CSA"}]
    assert all("id" in c for c in csa["positions"]["CSA-C"]["cards"])
    assert usa["positions"]["USA-C"]["stack"]["CSA"] == (3, 3)
    assert {c.get("name") for c in usa["positions"]["USA-L"]["cards"]} >= {"LC14", "TerU28"}
    json.dumps(usa)


@pytest.mark.rule("DX-3.2", "DX-7.3")
def test_odds_that_would_tell_a_face_down_card_are_not_for_a_page_that_may_not_see_it():
    """Digest section 2: what a fire does to the cards where it lands depends on their strength and grade; with
    face-down cards there, only their owner's page may be shown those odds; once they are face-up, every page."""
    state = sidebar().state
    fire = {"type": "fire", "firers": [], "target": "CSA-C"}
    assert [odds_blind(state, viewer, fire) for viewer in ("USA", "CSA", "")] == [True, False, True]
    revealed = state.with_cards(*(replace(c, face_up=True) for c in state.at("CSA-C")))
    assert [odds_blind(revealed, viewer, fire) for viewer in ("USA", "CSA", "")] == [False, False, False]


@pytest.mark.rule("DX-6.0", "DX-13.1")
def test_dice_counts_do_not_depend_on_the_faces():
    """The dashboard asks for the dice before an action: the count is the same whatever the faces (a leader killed
    or a unit routed first changes no later count)."""
    table = hit_table()
    needed = sum(len(r.faces) for r in dice_needed(ENGINE, table.state, {"type": "morale_step"}))
    for faces in ((1,) * needed, (6,) * needed, (2, 6, 3, 4, 5, 1)[:needed]):
        dice = ScriptedDice(faces)
        ENGINE.apply(table.state, {"type": "morale_step"}, dice)
        assert dice.unused() == 0
    assert needed == 5
