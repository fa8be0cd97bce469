"""The end of the game (GC-9, GC-9.0, GC-9.11, GC-9.12, GC-9.13, GC-9.13r) and the final score (GC-9.2)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from engines.galactic_chess import ENGINE
from engines.galactic_chess.ending import end_check, provisional, score, senior_admirals
from engines.galactic_chess.rules import ALLIANCE, EMPIRE, ONGOING
from engines.galactic_chess.state import END, ORDER, OVER, TIE
from tests.engines.galactic_chess.support import Table, event, person, setup

CARDS = (person("Emp R", "EMP", 3, 5, 1, 7, role="reinhard"), person("Emp Two", "EMP", 2, 4, 1, 8, 5),
         person("Fpa A", "FPA", 2, 6, 9, 9), person("Fpa B", "FPA", 2, 2, 1, 8),
         person("Fpa C", "FPA", 1, 2, 1, 8), person("Fpa D", "FPA", 2, 3, 1, 9))
HANDS = {"Ann": ["Emp R", "Emp Two", "Truce"], "Ben": ["Fpa A", "Fpa B"], "Cat": ["Fpa C", "Fpa D"]}
PLACED = {"Ann": ["Emp R", "Emp Two"], "Ben": ["Fpa A", "Fpa B"], "Cat": ["Fpa C", "Fpa D"]}


def game(**options) -> Table:
    table = Table(setup(CARDS, (event("Truce", "event", "ceasefire"),)), **options)
    table.start(HANDS, PLACED)
    return table


def end_of_turn(table: Table, **changes):
    """The end check of the position with these changes (the position given, the action real)."""
    return ENGINE.apply(replace(table.state, phase=END, **changes), {"type": "end_turn"}, ScriptedDice(()))


@pytest.mark.rule("GC-9.11", "GC-9.2", "GC-9")
def test_reinhard_destroyed_in_battle_the_destroyers_camp_wins_and_its_cliques_score():
    """GC-9.11: Reinhard destroyed in battle: the destroying camp wins after the turn; GC-9.2: each player scores
    their clique there, 1 per person card plus its battle VP; the highest total wins."""
    table = game()
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp R", "Emp Two"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa A"])
    table.do("declare", fleets=["Fpa D"])
    table.do("engage", 1, 1, actor="Fpa A", target="Emp R")      # 2 + 9 >= 7: Reinhard destroyed
    assert table.state.reinhard_down == "FPA"
    table.do("engage", 1, 1, actor="Emp Two", target="Fpa D")
    table.do("strike_back", 1, 1)
    table.do("engage", 1, 1, actor="Fpa D", target="Emp Two")
    table.do("strike_back", 1, 1)
    assert table.state.phase == END
    step = table.do("end_turn")
    outcome = table.state.outcome
    assert table.state.phase == OVER and outcome.camps == ("FPA",) and outcome.rule == "GC-9.11"
    assert outcome.scores == {"Ann": 0, "Ben": 2 + 1, "Cat": 2} and outcome.winners == ("Ben",)
    assert "Ben wins" in step.summary


@pytest.mark.rule("GC-9.11", "GC-9.2")
@pytest.mark.parametrize("down, camps", [("NOBLE", ("NOBLE",)), ("MCSR", ("FPA", "MCSR"))])
def test_reinhard_destroyed_by_rebels(down, camps):
    """GC-9.11: the nobles win alone (Q30: their battle VP are not counted); the MCSR wins for the whole
    Alliance, the civil war ended, regular and rebel cliques added."""
    table = game()
    state = table.state
    split = {"Emp Two": "NOBLE", "Fpa D": "MCSR"}
    rebels = tuple(replace(p, camp=split.get(p.card, p.camp)) for p in state.in_play)
    step = end_of_turn(table, in_play=rebels, reinhard_down=down,
                       civil_war={EMPIRE: ONGOING, ALLIANCE: ONGOING}, vp={"Ann": {"NOBLE": 3}, "Cat": {"MCSR": 2}})
    outcome = step.state.outcome
    assert outcome.camps == camps
    if down == "NOBLE":
        assert outcome.scores == {"Ann": 1, "Ben": 0, "Cat": 0}           # Emp Two only; the 3 VP are not counted
    else:
        assert outcome.scores == {"Ann": 0, "Ben": 2, "Cat": 2 + 2}       # Fpa C (FPA) + Fpa D (MCSR) + 2 VP


@pytest.mark.rule("GC-9.11", "GC-9.13", "GC-6A.32")
def test_reinhard_destroyed_by_a_plot_the_stars_decide():
    """GC-9.11: destroyed by a plot (no VP), the winner is decided as in the Baalat Treaty: most stars in play."""
    table = game()
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("plot", 3, 2, plotter="Emp Two", target="Emp R")
    assert table.state.reinhard_down == "plot"
    table.do("end_turn")
    outcome = table.state.outcome
    assert outcome.rule == "GC-9.11" and outcome.camps == ("FPA",) and "FPA 7" in outcome.reason


@pytest.mark.rule("GC-9.12", "GC-9.0")
def test_military_collapse_and_the_order_of_the_conditions():
    """GC-9.12: a nation without a 2-star admiral in play: the other nation's regulars win (checked from turn 1,
    Q27); both at once: the Baalat Treaty decides; GC-9.0 (Q28): Reinhard's fall comes first."""
    table = game()
    state = table.state
    no_fpa_admirals = tuple(p for p in state.in_play if p.camp == "EMP" or p.card == "Fpa C")
    assert end_of_turn(table, in_play=no_fpa_admirals).state.outcome.camps == ("EMP",)
    only_minor = tuple(p for p in state.in_play if p.card == "Fpa C")
    both = end_of_turn(table, in_play=only_minor).state.outcome
    assert both.rule == "GC-9.12" and both.camps == ("FPA",)
    first = end_of_turn(table, in_play=no_fpa_admirals, reinhard_down="FPA").state.outcome
    assert (first.rule, first.camps) == ("GC-9.11", ("FPA",))


@pytest.mark.rule("GC-9.13", "GC-9.13r", "GC-9.0")
def test_the_ceasefire_round_then_the_stars_and_a_tie_rolled_off():
    """GC-9.13: after the Ceasefire Order the round completes (the player to the right of its player goes last);
    then the camp with most stars wins; a tie is rolled off 1d6 each, ties again (GC-9.13r)."""
    table = game()
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("use_card", card="Truce")
    table.do("end_turn")
    table.quiet_turn()
    assert table.state.phase == ORDER and table.state.player == "Cat"
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("end_action")
    table.do("end_turn")
    assert table.state.outcome.camps == ("FPA",) and table.state.outcome.rule == "GC-9.13"
    tied = tuple(p for p in table.state.in_play if p.card in ("Emp Two", "Fpa A"))
    step = end_of_turn(table, in_play=tied, outcome=None)
    assert step.state.phase == TIE and step.state.tie == ("EMP", "FPA")
    again = ENGINE.apply(step.state, {"type": "ceasefire_roll_off"}, ScriptedDice([4, 4]))
    assert again.state.phase == TIE
    done = ENGINE.apply(again.state, {"type": "ceasefire_roll_off"}, ScriptedDice([2, 5]))
    assert done.state.phase == OVER and done.state.outcome.camps == ("FPA",)


@pytest.mark.rule("GC-9.2")
def test_score_ties_go_to_stars_then_the_win_is_shared():
    """GC-9.2: equal totals: the player with more stars in the clique wins; still equal: a shared win."""
    table = game()
    state = table.state
    fpa = score(state, ("FPA",), "GC-9.13", "test")
    assert fpa.scores == {"Ann": 0, "Ben": 2, "Cat": 2} and fpa.stars == {"Ann": 0, "Ben": 4, "Cat": 3}
    assert fpa.winners == ("Ben",)
    even = replace(state, in_play=tuple(p for p in state.in_play if p.card not in ("Fpa C",)),
                   vp={"Cat": {"FPA": 1}})
    shared = score(even, ("FPA",), "GC-9.13", "test")
    assert shared.scores["Ben"] == shared.scores["Cat"] == 2 and shared.stars["Ben"] == 4
    level = replace(even, in_play=tuple(p for p in even.in_play if p.card != "Fpa B"), vp={"Ben": {"FPA": 1},
                                                                                           "Cat": {"FPA": 1}})
    assert score(level, ("FPA",), "GC-9.13", "test").winners == ("Ben", "Cat")


@pytest.mark.rule("GC-9")
def test_the_end_check_finds_nothing_in_an_ordinary_turn():
    table = game()
    assert end_check(table.state) is None
    table.quiet_turn()
    assert (table.state.phase, table.state.player) == (ORDER, "Ben")


@pytest.mark.rule("GC-9.12", "GC-9.2")
def test_the_monitors_the_table_watches():
    """Digest section 8: the admirals that keep each nation from collapse, and the score of each player if each
    camp in play won now."""
    table = game()
    assert senior_admirals(table.state, EMPIRE) == ["Emp R", "Emp Two"]
    assert senior_admirals(table.state, ALLIANCE) == ["Fpa A", "Fpa B", "Fpa D"]
    scores = provisional(table.state)
    assert set(scores) == {"EMP", "FPA"} and scores["EMP"].scores == {"Ann": 2, "Ben": 0, "Cat": 0}
    assert scores["FPA"].winners == ("Ben",)
