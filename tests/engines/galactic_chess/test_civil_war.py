"""The civil war (GC-8.1 outbreak, GC-8.2 battles between the camps of one nation, GC-8.3 its end)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from engines.galactic_chess import ENGINE
from engines.galactic_chess.cards import person_from_row
from engines.galactic_chess.civil_war import camp_of
from engines.galactic_chess.ending import senior_admirals
from engines.galactic_chess.fortress import corridor_active
from engines.galactic_chess.rules import ALLIANCE, EMPIRE, ENDED, ONGOING
from engines.galactic_chess.sortie import enemy_camps, sortie_camps
from engines.galactic_chess.state import END
from tests.engines.galactic_chess.support import Table, event, person, setup

CARDS = (person("Emp Loyal", "EMP", 2, 5, 2, 9), person("Emp Guard", "EMP", 2, 3, 1, 8),
         person("Emp Noble", "EMP", 2, 4, 1, 8, rebel_camp="NOBLE"),
         person("Noble Baron", "EMP", 1, 2, 0, 7, rebel_camp="NOBLE"),
         person("Noble Count", "EMP", 0, 1, 0, 2, 6, rebel_camp="NOBLE"),
         person("Late Noble", "EMP", 0, 2, 0, 7, rebel_camp="NOBLE"),
         person("Fpa Loyal", "FPA", 2, 5, 2, 9), person("Mcsr Clerk", "FPA", 0, 1, 0, 2, rebel_camp="MCSR"))
LIPPSTADT = event("Lippstadt", "forced", "civil_war")


def outbreak() -> Table:
    """Ann draws the Lippstadt War on turn 1."""
    table = Table(setup(CARDS, (LIPPSTADT,)))
    table.start({"Ann": ["Emp Loyal", "Emp Guard", "Late Noble"], "Ben": ["Emp Noble", "Noble Baron", "Noble Count"],
                 "Cat": ["Fpa Loyal", "Mcsr Clerk"]},
                {"Ann": ["Emp Loyal", "Emp Guard"], "Ben": ["Emp Noble", "Noble Baron"],
                 "Cat": ["Fpa Loyal", "Mcsr Clerk"]})
    table.do("roll_order", 1)
    table.do("draw", card="Lippstadt")
    return table


@pytest.mark.rule("GC-8.1", "GC-8.3")
def test_the_outbreak_splits_the_rebels_off_and_reveals_them_from_hands():
    """GC-8.1: the Lippstadt War starts a civil war in both nations; persons with a rebel camp move to it as
    their owner's rebel clique; rebels in hands are revealed and placed at once (Ann's too, on her own turn).
    Q32: a rebel camp with no fleet at the outbreak ends its war at once and its persons are destroyed."""
    table = outbreak()
    state = table.state
    assert state.placed("Emp Noble").camp == "NOBLE" and state.placed("Noble Count").camp == "NOBLE"
    assert state.placed("Noble Count").owner == "Ben" and "Noble Count" not in table.hand("Ben")
    assert state.placed("Late Noble").owner == "Ann" and state.placed("Late Noble").camp == "NOBLE"
    assert state.civil_war == {EMPIRE: ONGOING, ALLIANCE: ENDED}       # MCSR had no fleet
    assert "Mcsr Clerk" in state.destroyed and state.vp == {}


@pytest.mark.rule("GC-8.2", "GC-6B.11")
def test_a_nation_in_civil_war_fights_only_at_home_and_the_other_may_attack_either_camp():
    """GC-8.2 (Q33): while the Empire's war goes on, its camps fight each other only; the Alliance, whose war is
    over, may attack the Imperial regulars or the rebels."""
    table = outbreak()
    state = table.state
    assert enemy_camps(state, "EMP") == ("NOBLE",) and enemy_camps(state, "NOBLE") == ("EMP",)
    assert enemy_camps(state, "FPA") == ("EMP", "NOBLE")
    assert sortie_camps(state)["EMP"] == ("NOBLE",)


@pytest.mark.rule("GC-8.2", "GC-8.3", "GC-6B.7")
def test_a_civil_war_battle_scores_no_kills_but_the_bonus_and_ends_the_war():
    """GC-8.2: no VP for destroying units of one's own nation, but the annihilation bonus counts; GC-8.3: the
    side left without fleets loses, its other persons destroyed, no VP."""
    table = outbreak()
    table.do("end_turn")                      # Ben's turn: the nobles attack
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="NOBLE")
    assert table.state.sortie.civil_war
    table.do("declare", fleets=["Emp Guard"])   # Ben has no EMP fleet: Cat none; Ann declares
    table.do("declare", fleets=["Emp Loyal"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Emp Noble", "Noble Baron"])
    table.refuse("GC-6B.5", "engage", actor="Emp Loyal", target="Emp Guard")
    table.do("engage", 6, 6, actor="Emp Loyal", target="Emp Noble")
    table.do("engage", 6, 6, actor="Emp Guard", target="Noble Baron")
    state = table.state
    assert state.vp == {"Ann": {"EMP": 1}}                # the bonus only, to the SC's owner
    assert state.civil_war[EMPIRE] == ENDED
    assert {"Noble Count", "Late Noble"} <= set(state.destroyed) and not state.in_camp("NOBLE")


@pytest.mark.rule("GC-8.1")
def test_rebels_placed_during_the_war_join_the_rebels_and_after_it_the_regulars():
    """GC-8.1 (Q31): a rebel person placed while the war goes on joins its rebel clique; once the war is over
    it joins the regular camp."""
    cards = CARDS + (person("Hand Noble", "EMP", 1, 2, 0, 7, rebel_camp="NOBLE", period=1),)
    table = Table(setup(cards, (LIPPSTADT,)))
    table.start({"Ann": ["Emp Loyal"], "Ben": ["Emp Noble"], "Cat": ["Fpa Loyal"]})
    table.do("roll_order", 1)
    table.do("draw", card="Lippstadt")
    table.next_turn_of("Ann")
    table.do("roll_order", 1)
    table.do("draw", card="Hand Noble")
    table.do("use_card", card="Hand Noble")
    assert table.state.placed("Hand Noble").camp == "NOBLE"
    person_card = table.state.person("Hand Noble")
    assert camp_of(replace(table.state, civil_war={EMPIRE: ENDED, ALLIANCE: ENDED}), person_card) == "EMP"
    assert camp_of(replace(table.state, civil_war={EMPIRE: ONGOING, ALLIANCE: ENDED}), person_card) == "NOBLE"


def rebels_win() -> Table:
    """After the outbreak, Ben's nobles attack the Imperial regulars and destroy both their fleets: the rebels win
    the Empire's civil war (GC-8.3)."""
    table = outbreak()
    table.do("end_turn")
    table.do("roll_order", 4)
    table.do("sortie", camp="NOBLE", defender="EMP")
    table.do("declare", fleets=["Emp Noble", "Noble Baron"])
    table.do("nominate", player="Ann")
    table.do("declare", fleets=["Emp Loyal", "Emp Guard"])
    table.do("choose_sc", unit="Emp Loyal")
    table.do("engage", 1, 1, actor="Emp Loyal", target="Emp Noble")      # S5 first: 2 + 2 < 8, a miss
    table.do("strike_back", 6, 6)                                        # 12 + 1 >= 9: Emp Loyal destroyed
    table.do("engage", 6, 6, actor="Emp Noble", target="Emp Guard")      # 12 + 1 >= 8: Emp Guard destroyed
    return table


@pytest.mark.rule("GC-8.3")
def test_rebels_who_win_their_civil_war_are_the_nation():
    """GC-8.3 (Q40): the rebels won the Empire's war; from then on the rebel camp is the whole nation: its
    admirals keep the Empire from collapse (GC-9.12), the Alliance attacks it and not the vanished regulars, an
    Imperial person placed later joins it, and a defector to the Empire joins it."""
    table = rebels_win()
    state = table.state
    assert state.civil_war[EMPIRE] == ENDED and state.war_winner == {EMPIRE: "NOBLE", ALLIANCE: "FPA"}
    assert not state.in_camp("EMP") and state.vp == {"Ben": {"NOBLE": 1}}          # the bonus only (GC-8.2)
    assert senior_admirals(state, EMPIRE) == ["Emp Noble"]
    assert enemy_camps(state, "FPA") == ("NOBLE",) and enemy_camps(state, "NOBLE") == ("FPA",)
    later = person_from_row(person("Late Imperial", "EMP", 2, 3, 1, 8))
    assert camp_of(state, later) == "NOBLE"


@pytest.mark.rule("GC-9.12", "GC-9.2", "GC-8.3")
@pytest.mark.parametrize("reading, camps, scores", [
    ("nation", ("NOBLE",), {"Ann": 1, "Ben": 3 + 1, "Cat": 0}),
    ("no_vp", ("NOBLE",), {"Ann": 1, "Ben": 3, "Cat": 0}),
    ("whole", ("EMP", "NOBLE"), {"Ann": 1 + 2, "Ben": 3 + 1, "Cat": 0}),
])
def test_rebels_who_won_their_war_win_the_collapse_of_the_other_nation(reading, camps, scores):
    """GC-9.12 (Q40): the Alliance has no 2-star admiral left: the other nation wins, and after its civil war the
    rebels who won it are that nation. GC-9.2: they have not won alone, so their battle VP count (Q40 (a), the
    default); (b) no battle VP; (c) each player adds his cliques of both camps. Before the fix the vanished
    regulars won: every player scored 0, a three-way win."""
    table = rebels_win()
    state = table.state
    alliance_gone = tuple(p for p in state.in_play if p.camp != "FPA")
    step = ENGINE.apply(replace(state, in_play=alliance_gone, phase=END, vp={**state.vp, "Ann": {"EMP": 2}},
                                options={**state.options, "rebel_victory": reading}),
                        {"type": "end_turn"}, ScriptedDice(()))
    outcome = step.state.outcome
    assert outcome.rule == "GC-9.12" and outcome.camps == camps
    assert outcome.scores == scores and outcome.winners == ("Ben",)


@pytest.mark.rule("GC-9.13", "GC-9.2")
def test_rebels_who_won_their_war_and_most_stars_win_the_treaty_as_their_nation():
    """GC-9.13 / GC-9.2 (Q40): the rebel camp that won its war and has the most stars when the ceasefire round is
    over wins as its nation: its battle VP count."""
    table = rebels_win()
    state = table.state
    step = ENGINE.apply(replace(state, phase=END, last_turn=state.player), {"type": "end_turn"}, ScriptedDice(()))
    outcome = step.state.outcome
    assert outcome.rule == "GC-9.13" and outcome.camps == ("NOBLE",) and outcome.scores["Ben"] == 3 + 1


# --- GC-8.1 (Q41): posts and camp changes -------------------------------------------------------------

POST_CARDS = (person("Cmdr", "EMP", 2, 4, 2, 8, 7, role="stockhausen", rebel_camp="NOBLE"),
              person("Gar", "EMP", 2, 3, 1, 8, rebel_camp="NOBLE"), person("Loyal", "EMP", 2, 5, 2, 9, 8),
              person("Fpa One", "FPA", 2, 5, 2, 9), person("Fpa Two", "FPA", 2, 4, 2, 8))
TURNCOAT = event("Turncoat", "event", "defection")


def posted(**options) -> Table:
    """Ann's Cmdr commands Iserlohn and her Gar is in its garrison (a free slot, no plot); Ben's turn next."""
    table = Table(setup(POST_CARDS, (LIPPSTADT, TURNCOAT)), **options)
    table.start({"Ann": ["Cmdr", "Gar", "Loyal", "Turncoat"], "Ben": ["Fpa One"], "Cat": ["Fpa Two"]},
                {"Ann": ["Cmdr", "Gar", "Loyal"], "Ben": ["Fpa One"], "Cat": ["Fpa Two"]})
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("garrison_plot", dispatch="Gar")
    table.do("end_turn")
    assert table.state.fortress.posted == ("Cmdr", "Gar")
    return table


@pytest.mark.rule("GC-8.1", "GC-7.4")
def test_a_commander_or_garrison_fleet_who_turns_rebel_loses_the_post():
    """GC-8.1 (Q41): at the outbreak the commander and the garrison fleet who turn rebel lose their posts at once:
    the post is vacant (to be filled with no plot, GC-7.12), the slot free, the fortress still the regulars'; with
    nobody posted the corridor rule is off (GC-7.4)."""
    table = posted()
    table.do("roll_order", 1)
    table.do("draw", card="Lippstadt")
    f = table.state.fortress
    assert (f.controller, f.commander, f.garrison) == ("EMP", "", ())
    assert table.state.placed("Cmdr").camp == "NOBLE" and not corridor_active(table.state)


@pytest.mark.rule("GC-8.1")
def test_by_option_the_fortress_follows_its_commander_into_the_rebel_camp():
    """GC-8.1 (Q41 option): the fortress follows a commander who turns rebel; fleets posted with him keep their
    posts if they turn rebel too."""
    table = posted(rebel_commander="takes_fortress")
    table.do("roll_order", 1)
    table.do("draw", card="Lippstadt")
    f = table.state.fortress
    assert (f.controller, f.commander, f.garrison) == ("NOBLE", "Cmdr", ("Gar",))


@pytest.mark.rule("GC-8.1", "GC-6A.2")
def test_a_commander_who_defects_loses_the_post():
    """GC-8.1 (Q41): a commander whose camp changes by defection loses the post at once."""
    table = posted()
    table.next_turn_of("Ann")
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("use_card", card="Turncoat", target="Cmdr")
    f = table.state.fortress
    assert table.state.placed("Cmdr").camp == "FPA" and (f.controller, f.commander, f.garrison) == ("EMP", "", ("Gar",))
