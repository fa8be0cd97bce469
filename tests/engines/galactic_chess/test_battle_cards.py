"""The two battle cards the rules text gives a timing for (GC-11, digest section 10's hooks): the Double-Headed
Snake, whose two extra attackers keep their own opportunities, and Fortress vs Fortress, resolved before the
battle. The cards' own texts are the players' to read: these are invented stand-ins."""
from __future__ import annotations

import pytest

from engines.galactic_chess.battle import ACTED, DESTROYED, READY
from engines.galactic_chess.sortie import FORTRESS_NAME
from engines.galactic_chess.state import END
from tests.engines.galactic_chess.support import Table, event, person, setup

SNAKE_CARDS = (person("Emp A1", "EMP", 2, 6, 2, 10), person("Emp A2", "EMP", 1, 3, 3, 8),
               person("Emp A3", "EMP", 1, 2, 4, 8), person("Fpa B1", "FPA", 2, 5, 1, 12),
               person("Fpa B2", "FPA", 1, 1, 1, 7))
SNAKE_EVENTS = (event("Two Heads", "battle_support", "double_snake"), event("Push", "battle_support"))


def snake_battle() -> Table:
    """Ann's three Imperial fleets against Ben's two; Cat, with no unit in the battle, holds the Snake."""
    table = Table(setup(SNAKE_CARDS, SNAKE_EVENTS))
    table.start({"Ann": ["Emp A1", "Emp A2", "Emp A3"], "Ben": ["Fpa B1", "Fpa B2", "Push"], "Cat": ["Two Heads"]},
                {"Ann": ["Emp A1", "Emp A2", "Emp A3"], "Ben": ["Fpa B1", "Fpa B2"], "Cat": []})
    table.do("roll_order", 5)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A1", "Emp A2", "Emp A3"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B1", "Fpa B2"])
    return table


@pytest.mark.rule("GC-11", "GC-6B.5", "GC-6B.7")
def test_the_double_headed_snakes_extra_attackers_keep_their_own_opportunities():
    """GC-11 (4) Double-Headed Snake: the 2 units that join the attack do not use their own opportunities. The
    duel is fought as GC-6B.5 says; then each extra attacker strikes the target once (2d6 + attack >= defence), a
    throw of its own, until the target falls; their kills score as GC-6B.7 says."""
    table = snake_battle()
    step = table.do("engage", 1, 1, actor="Emp A1", target="Fpa B1", support="Two Heads",
                    extra=["Emp A2", "Emp A3"])                    # S6 first: 2 + 2 < 12
    assert "Cat plays Two Heads" in step.summary and "Two Heads" in table.state.discard
    table.refuse("GC-11", "extra_attack", 6, 6)                   # the strike back comes first
    table.do("strike_back", 1, 1)                                 # 2 + 1 < 10: Emp A1 stands
    assert table.state.sortie.pending.kind == "extra_attack"
    table.refuse("GC-11", "engage", actor="Emp A2", target="Fpa B1")
    table.refuse("GC-11", "extra_attack", 6, 6, support="Push", modifier=1)   # Q19: the Snake is this engagement's card
    table.do("extra_attack", 4, 4)                                # Emp A2: 8 + 3 < 12
    assert table.status("Fpa B1") == READY and table.state.sortie.pending.extra == (table.unit("Emp A3"),)
    step = table.do("extra_attack", 6, 2)                          # Emp A3: 8 + 4 >= 12: destroyed
    assert table.status("Fpa B1") == DESTROYED and table.state.vp_of("Ann", "EMP") == 1
    assert (table.status("Emp A1"), table.status("Emp A2"), table.status("Emp A3")) == (ACTED, READY, READY)
    assert table.state.sortie.pending is None and "GC-11" in step.rules


@pytest.mark.rule("GC-11")
def test_the_snake_ends_its_attacks_when_the_target_falls():
    """GC-11: a target destroyed in the duel takes no more strikes; the opportunity ends."""
    table = snake_battle()
    table.do("engage", 6, 6, actor="Emp A1", target="Fpa B1", support="Two Heads", extra=["Emp A2"])   # 12 + 2 >= 12
    assert table.state.sortie.pending is None and table.status("Emp A2") == READY


@pytest.mark.rule("GC-11")
def test_who_may_join_the_snakes_attack():
    """GC-11: at most 2 extra attackers, each another present unit of the actor's side, and only with the card;
    the card names its extra attackers."""
    table = snake_battle()
    table.refuse("GC-11", "engage", actor="Emp A1", target="Fpa B1", extra=["Emp A2"])            # no card
    table.refuse("GC-11", "engage", actor="Emp A1", target="Fpa B1", support="Two Heads")        # no attackers
    table.refuse("GC-11", "engage", actor="Emp A1", target="Fpa B1", support="Push", extra=["Emp A2"])
    table.refuse("GC-11", "engage", actor="Emp A1", target="Fpa B1", support="Two Heads", extra=["Fpa B2"])
    table.refuse("GC-11", "engage", actor="Emp A1", target="Fpa B1", support="Two Heads", extra=["Emp A1"])
    table.refuse("GC-11", "engage", actor="Emp A1", target="Fpa B1", support="Two Heads",
                 extra=["Emp A2", "Emp A3", "Emp A1"])
    table.refuse("GC-11", "respond", card="Two Heads")


FORT_CARDS = (person("Commander C", "EMP", 2, 4, 2, 8, role="stockhausen"), person("Emp Fleet", "EMP", 2, 5, 2, 9),
              person("Fpa Marshal", "FPA", 3, 7, 4, 10), person("Fpa Admiral", "FPA", 2, 5, 2, 9))
GUNS = event("Fortress Guns", "response", "fortress_vs_fortress")


def fortress_battle() -> Table:
    """Cat's Alliance attacks Iserlohn's Empire: Ann's fortress and Ben's fleet defend; Ben holds the card."""
    table = Table(setup(FORT_CARDS, (GUNS,)))
    table.start({"Ann": ["Commander C"], "Ben": ["Emp Fleet", "Fortress Guns"], "Cat": ["Fpa Marshal", "Fpa Admiral"]},
                {"Ann": ["Commander C"], "Ben": ["Emp Fleet"], "Cat": ["Fpa Marshal", "Fpa Admiral"]})
    for _ in range(2):
        table.do("roll_order", 1)
        table.draw_filler()
        table.do("end_action")
        table.do("end_turn")
    table.do("roll_order", 4)
    table.do("sortie", camp="FPA", defender="EMP")
    table.do("declare", fleets=["Fpa Marshal", "Fpa Admiral"])
    table.refuse("GC-11", "fortress_vs_fortress", card="Fortress Guns")       # not before both sides are set
    table.do("nominate", player="Ann")
    table.do("declare", fortress=True)
    table.do("declare", fleets=["Emp Fleet"])
    return table


@pytest.mark.rule("GC-11", "GC-6B.7")
def test_fortress_vs_fortress_is_resolved_before_the_battle():
    """GC-11 (2) Fortress vs Fortress: resolved before the battle (sortie step 7), once both sides and their SCs
    are set and before the first opportunity; the players read its check; a unit destroyed by a unit's roll
    scores for that unit's clique (GC-6B.7). Once the first opportunity is taken it is too late."""
    table = fortress_battle()
    table.refuse("GC-11", "respond", card="Fortress Guns")
    table.refuse("GC-11", "fortress_vs_fortress", card="Fortress Guns", destroyed=["Emp Fleet"], by=FORTRESS_NAME)
    step = table.do("fortress_vs_fortress", card="Fortress Guns", destroyed=["Fpa Admiral"], by=FORTRESS_NAME)
    assert "Fortress Guns" in table.state.discard and "Fpa Admiral" in table.state.destroyed
    assert table.state.vp_of("Ann", "EMP") == 1 and "GC-6B.7" in step.rules
    assert table.status("Fpa Marshal") == READY


@pytest.mark.rule("GC-11", "GC-7.35")
def test_fortress_vs_fortress_too_late_or_destroying_the_fortress():
    """GC-11: after the first opportunity the card is refused; GC-7.35: a fortress destroyed by the card's check
    changes hands at once (to the enemy side's camp when no unit's roll did it: no VP then)."""
    late = fortress_battle()
    late.do("engage", 1, 1, actor="Fpa Marshal", target="Emp Fleet")
    late.do("strike_back", 1, 1)
    late.refuse("GC-11", "fortress_vs_fortress", card="Fortress Guns")
    table = fortress_battle()
    step = table.do("fortress_vs_fortress", card="Fortress Guns", destroyed=[FORTRESS_NAME])
    assert table.state.fortress.controller == "FPA" and "GC-7.35" in step.rules and table.state.vp == {}


@pytest.mark.rule("GC-11")
def test_fortress_vs_fortress_that_ends_the_battle():
    """GC-11: when the card's check leaves a side with no unit, the battle is over before it began."""
    table = fortress_battle()
    table.do("fortress_vs_fortress", card="Fortress Guns", destroyed=["Fpa Marshal", "Fpa Admiral"], by=FORTRESS_NAME)
    assert table.state.phase == END and table.state.vp_of("Ann", "EMP") == 2
