"""Deployment (DX-3.1, DX-3.2, DX-3.3, DX-11.0a, DX-11.0b, DX-11.1a, DX-11.2, DX-12.0) and the example of Fig. 2."""
from __future__ import annotations

import pytest

from engines.dixie import ENGINE
from engines.dixie.example import example_cards
from engines.dixie.stacking import unit_limit
from tests.engines.dixie.support import Table, leader, special, terrain, unit

# Fig. 2 with the fictional example deck: CSA L2/C3/R3 = 8 cards, USA R3/C4/L2 = 9 cards (digest vector 6).
FIG_2 = {
    "CSA-904": "CSA-L", "CSA-905": "CSA-L",
    "CSA-906": "CSA-C", "CSA-907": "CSA-C", "CSA-901": "CSA-C",
    "CSA-908": "CSA-R", "CSA-909": "CSA-R", "CSA-918": "CSA-R",
    "USA-954": "USA-R", "USA-955": "USA-R", "USA-968": "USA-R",
    "USA-956": "USA-C", "USA-957": "USA-C", "USA-958": "USA-C", "USA-967": "USA-C",
    "USA-959": "USA-L", "USA-951": "USA-L",
}


def example_table(**options) -> Table:
    return Table(example_cards(), custom_decks=False, **options)


@pytest.mark.rule("DX-3.2", "DX-2.2", "DX-3.1")
def test_vector_06_fig_2_deployment():
    """Vector 6 (DX-3.2): USA 9 cards and CSA 8 are legal; reserves USA 18 - 9 = 9, CSA 18 - 8 = 10; reinforcement
    decks USA 12, CSA 6."""
    table = example_table()
    table.deploy(FIG_2)
    state = table.state
    on_field = {s: sum(1 for c in state.cards if c.side == s and c.loc in state.holder) for s in ("CSA", "USA")}
    assert on_field == {"CSA": 8, "USA": 9}
    assert [len(state.at("reserve", s)) for s in ("USA", "CSA")] == [9, 10]
    assert [len(state.at("reinforcements", s)) for s in ("USA", "CSA")] == [12, 6]
    assert (state.turn, state.active, state.step) == (1, "CSA", "morale")


@pytest.mark.rule("DX-3.2")
def test_units_deploy_face_down_and_the_rest_face_up():
    """DX-3.2 / DX-3.3: units face-down; terrain, leaders and specials face-up."""
    table = example_table()
    for card, pos in FIG_2.items():
        table.do("deploy", card=card, position=pos)
    faces = {c.spec.type: c.face_up for c in table.state.cards if c.loc in table.state.holder}
    assert faces == {"INF": False, "LDR": True, "TER": True}


@pytest.mark.rule("DX-3.2")
def test_deployment_is_from_the_muster_into_own_positions():
    """DX-3.2: only muster cards, only into the side's own three positions; nothing else happens before the
    battle starts."""
    table = example_table()
    table.refuse("DX-3.2", "deploy", card="CSA-904", position="USA-L")
    table.refuse("DX-3.2", "deploy", card="CSA-919", position="CSA-L")   # in the reinforcement deck
    table.refuse("DX-3.2", "deploy", card="CSA-904", position="CSA-X")
    table.refuse("DX-5.0", "end_morale")
    table.do("deploy", card="CSA-904", position="CSA-L")
    table.refuse("DX-3.2", "deploy", card="CSA-904", position="CSA-C")


@pytest.mark.rule("DX-3.3", "DX-11.0a", "DX-11.1a")
def test_terrain_goes_to_its_printed_position_at_most_two():
    """DX-3.3: terrain only where its code says, at most 2 per position (DX-11.0a), and it counts toward the
    stack of both sides (DX-11.1a)."""
    cards = [terrain(1, "CSA", "L"), terrain(2, "CSA", "LC"), terrain(3, "CSA", "L"), unit(4, "CSA"),
             unit(5, "USA")]
    table = Table(cards)
    table.refuse("DX-3.3", "deploy", card="CSA-1", position="CSA-R")
    table.do("deploy", card="CSA-1", position="CSA-L")
    table.do("deploy", card="CSA-2", position="CSA-L")
    table.refuse("DX-11.0a", "deploy", card="CSA-3", position="CSA-L")
    assert unit_limit(table.state, "CSA", "CSA-L") == unit_limit(table.state, "USA", "CSA-L") == 2


@pytest.mark.rule("DX-3.1", "DX-11.1a", "DX-11.2")
def test_stacking_is_checked_when_the_battle_starts():
    """DX-3.1: 4 units a position; terrain lowers the limit (DX-11.1a), a leader's stack bonus raises it
    (DX-11.2); leaders and specials do not count."""
    cards = [*(unit(i, "CSA") for i in range(1, 6)), terrain(6, "CSA", "C"), leader(7, "CSA", stack_bonus=1),
             special(8, "CSA"), unit(20, "USA")]
    table = Table(cards)
    for i in range(1, 5):
        table.do("deploy", card=f"CSA-{i}", position="CSA-L")
    table.do("deploy", card="CSA-8", position="CSA-L")
    table.do("deploy", card="CSA-5", position="CSA-L")
    error = table.refuse("DX-3.1", "start_battle")
    assert "CSA-L" in error.message
    table.do("deploy", card="CSA-7", position="CSA-L")       # +1: five units now fit
    assert unit_limit(table.state, "CSA", "CSA-L") == 5
    table.do("deploy", card="CSA-6", position="CSA-C")
    table.do("start_battle")


@pytest.mark.rule("DX-11.0b")
def test_one_leader_per_side_and_position():
    """DX-11.0b (A4): at most one leader of each side in a position."""
    table = Table([leader(1, "CSA"), leader(2, "CSA"), unit(3, "USA")])
    table.do("deploy", card="CSA-1", position="CSA-R")
    table.refuse("DX-11.0b", "deploy", card="CSA-2", position="CSA-R")
    table.do("deploy", card="CSA-2", position="CSA-C")


@pytest.mark.rule("DX-12.0")
def test_at_most_two_different_specials_per_position_and_phase():
    """DX-12.0: specials go face-up; at most 2 in a position in one phase, and not the same card twice."""
    rows = [special(1, "CSA"), special(1, "CSA"), special(2, "CSA"), special(3, "CSA"), unit(9, "USA")]
    table = Table(rows)
    table.do("deploy", card="CSA-1", position="CSA-L")
    table.refuse("DX-12.0", "deploy", card="CSA-1-2", position="CSA-L")
    table.do("deploy", card="CSA-2", position="CSA-L")
    table.refuse("DX-12.0", "deploy", card="CSA-3", position="CSA-L")
    assert table.card("CSA-1").face_up


@pytest.mark.rule("DX-2.0", "DX-13.1", "DX-10.2", "DX-8.2")
def test_a_session_saved_before_the_a21_to_a23_options_still_opens():
    """A session saved with the options of its time (without A21, A22, A23) opens with the digest's defaults for
    them: all hits checked at once in a melee, no terrain into an enemy-held position, a unit with nowhere to
    disengage stays."""
    saved = {o.key: o.default for o in ENGINE.options
             if o.key not in ("melee_other_hits", "terrain_into_enemy_held", "no_disengage_destination")}
    state = ENGINE.new_state(saved, {"cards": example_cards()})
    assert (state.options["melee_other_hits"], state.options["terrain_into_enemy_held"],
            state.options["no_disengage_destination"]) == ("all", False, "stay")
