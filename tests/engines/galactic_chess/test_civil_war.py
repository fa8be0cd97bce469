"""The civil war (GC-8.1 outbreak, GC-8.2 battles between the camps of one nation, GC-8.3 its end)."""
from __future__ import annotations

import pytest

from engines.galactic_chess.cards import camp_of
from engines.galactic_chess.rules import ALLIANCE, EMPIRE, ENDED, ONGOING
from engines.galactic_chess.sortie import enemy_camps, sortie_camps
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
    table.do("sortie", camp="EMP")
    assert table.state.sortie.civil_war
    table.do("declare", fleets=["Emp Guard"])   # Ben has no EMP fleet: Cat none; Ann declares
    table.do("declare", fleets=["Emp Loyal"])
    table.do("nominate")
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
    assert camp_of(person_card, {EMPIRE: ENDED}) == "EMP" and camp_of(person_card, {EMPIRE: ONGOING}) == "NOBLE"
