"""Every session option (the digest's selectable ambiguities, section 7): the default is the digest's, and the
other choice changes what the rules do."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from engines.galactic_chess.battle import (
    ACTED,
    ATTACKER,
    DEFENDER,
    DESTROYED,
    ESCAPED,
    FORTRESS,
    GROUND,
    NONE,
    READY,
    RETREATED,
    BattleRules,
    Field,
    bonus,
    kill_awards,
    settle_sc,
    shooters,
)
from engines.galactic_chess.ending import end_check
from engines.galactic_chess.options import OPTIONS
from engines.galactic_chess.rules import ALLIANCE, EMPIRE, ENDED, ONGOING
from engines.galactic_chess.sortie import enemy_camps, sortie_camps
from engines.galactic_chess.state import CARD, END
from tests.engines.galactic_chess.support import Table, event, person, setup, unit

CARDS = (person("Emp Star", "EMP", 2, 5, 2, 9, 7), person("Fpa Star", "FPA", 2, 5, 2, 9, 8),
         person("Emp Minor", "EMP", 1, 3, 1, 7), person("Fpa Minor", "FPA", 1, 3, 1, 7, 6),
         person("Cmdr", "EMP", 2, 4, 2, 8, 6, role="stockhausen"))


def table_with(events=(), hands=None, placed=None, **options) -> Table:
    table = Table(setup(CARDS, events), **options)
    table.start(hands or {"Ann": ["Emp Star", "Emp Minor"], "Ben": ["Fpa Star", "Fpa Minor"], "Cat": ["Cmdr"]}, placed)
    return table


@pytest.mark.rule("GC-9.0")
def test_every_option_names_a_rule_and_defaults_to_the_digest():
    """Digest section 7: each selectable reading is a session option; its default is the digest's."""
    defaults = {o.key: o.default for o in OPTIONS}
    assert defaults == {"draft": False, "forced_event_is_card": True, "attack_camp": "any", "fortress_counts": True,
                        "fortress_sc": False, "rolloff_dice": 1, "rolloff_scope": "value", "sc_on_departure": True,
                        "fortress_free_attack": False, "ground_vp": False, "escaped_block_bonus": False,
                        "support_limit": "total", "post_counter_plot": False, "garrison_bonus": "garrison",
                        "collapse_check": "every_turn", "reinhard_by_event": "as_plot", "civil_war_abroad": False,
                        "rebel_victory": "nation", "rebel_commander": "loses_post"}


@pytest.mark.rule("GC-9.0")
def test_the_options_are_in_plain_words_without_the_digests_question_numbers():
    """The page shows each option and its readings in a player's words: no "Q4"-like number of the digest's list,
    no rule ID in the text (the option's rule is its chip)."""
    for option in OPTIONS:
        for text in (option.label, *(reading for _, reading in option.choices)):
            assert not re.search(r"\b(Q\d+|A\d+|GC-[\w.]+)\b", text), (option.key, text)

@pytest.mark.rule("GC-6A.1")
def test_q4_a_forced_event_may_leave_the_card_or_plot_open():
    """Q4 option: with "leaves the card or plot open", a forced event drawn does not end the action."""
    table = table_with((event("Twilight", "forced", "ragnarok"),), forced_event_is_card=False)
    table.do("roll_order", 1)
    table.do("draw", card="Twilight")
    assert table.state.ragnarok and table.state.phase == CARD
    table.do("plot", 6, 6, plotter="Emp Star", target="Emp Minor")


@pytest.mark.rule("GC-6B.11")
def test_q6_the_attacking_camp_may_have_to_be_the_players_own():
    """Q6 option: only a camp where the active player has an available fleet."""
    anyone = table_with(hands={"Ann": [], "Ben": ["Fpa Star"], "Cat": ["Emp Star"]})
    anyone.do("roll_order", 4)
    assert set(sortie_camps(anyone.state)) == {"EMP", "FPA"}
    own = table_with(hands={"Ann": ["Emp Minor"], "Ben": ["Fpa Star"], "Cat": ["Emp Star"]}, attack_camp="own")
    own.do("roll_order", 4)
    assert set(sortie_camps(own.state)) == {"EMP"}


FORT = unit("Fort", DEFENDER, 0, 4, 4, 11, kind=FORTRESS)


@pytest.mark.rule("GC-6B.3", "GC-6B.7")
def test_q10_the_fortress_may_count_for_neither_size_nor_bonus():
    """Q10 option: the fortress does not count toward the size or the 2-fleet bonus test."""
    units = (unit("A1", ATTACKER, 2, 6, 3, 9), unit("A2", ATTACKER, 1, 4, 3, 9, 1),
             unit("B1", DEFENDER, 2, 5, 2, 9), FORT)
    swept = Field((ACTED, ACTED, DESTROYED, DESTROYED), (0, NONE))
    assert bonus(units, swept, BattleRules()) and bonus(units, swept, BattleRules(fortress_counts=False)) == ()


@pytest.mark.rule("GC-6B.2")
def test_q11_and_q14_who_is_sc():
    """Q11 option: the fortress is SC when its side has no admiral left; Q14 option: a retreating SC stays SC
    (only a destroyed one is replaced)."""
    units = (unit("A1", ATTACKER, 3, 6, 3, 9), unit("A2", ATTACKER, 1, 4, 3, 9, 1),
             unit("B1", DEFENDER, 2, 5, 2, 9), FORT)
    gone = Field((READY, READY, DESTROYED, READY), (0, 2))
    assert settle_sc(units, gone, BattleRules())[0].sc == (0, NONE)
    assert settle_sc(units, gone, BattleRules(fortress_sc=True))[0].sc == (0, 3)
    left = Field((RETREATED, READY, READY, READY), (0, 2))
    assert settle_sc(units, left, BattleRules())[0].sc == (1, 2)
    assert settle_sc(units, left, BattleRules(sc_on_departure=False))[0].sc == (0, 2)


@pytest.mark.rule("GC-6B.4r")
def test_q12_the_roll_off_may_use_2d6_each():
    """Q12 option: 2d6 each for the order roll-off."""
    cards = (person("Emp A", "EMP", 2, 5, 2, 9), person("Fpa B", "FPA", 2, 5, 2, 9))
    table = Table(setup(cards), rolloff_dice=2)
    table.start({"Ann": ["Emp A"], "Ben": ["Fpa B"]})
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B"])
    table.do("roll_off", 1, 1, 6, 6)
    assert table.state.sortie.field.rolloff == (0, 1, DEFENDER, 5)


@pytest.mark.rule("GC-6B.6")
def test_q15_the_fortress_may_make_the_free_attack():
    """Q15 option: the fortress may be the unit the enemy SC picks for the free attack."""
    units = (unit("A1", ATTACKER, 2, 6, 3, 9), FORT)
    assert shooters(units, (READY, READY), 0, BattleRules()) == ()
    assert shooters(units, (READY, READY), 0, BattleRules(fortress_free_attack=True)) == (1,)


@pytest.mark.rule("GC-6B.7")
def test_q16_and_q18_air_units_may_score_and_escapes_may_block_the_bonus():
    """Q16 option: destroying an air/ground unit scores 1; Q18 option: an escaped admiral blocks the bonus."""
    units = (unit("A1", ATTACKER, 2, 6, 3, 9), unit("A2", ATTACKER, 2, 4, 3, 9, 1), unit("B1", DEFENDER, 2, 5, 2, 9),
             unit("B2", DEFENDER, 2, 4, 2, 9, 1), unit("Air", DEFENDER, 0, 3, 1, 6, kind=GROUND))
    assert kill_awards(units, 4, 0, BattleRules()) == ()
    assert kill_awards(units, 4, 0, BattleRules(ground_vp=True))[0].points == 1
    escaped = Field((ACTED, ACTED, DESTROYED, ESCAPED, DESTROYED), (0, NONE))
    assert bonus(units, escaped, BattleRules()) and bonus(units, escaped, BattleRules(escaped_block_bonus=True)) == ()


@pytest.mark.rule("GC-11")
def test_q19_one_support_card_per_side():
    """Q19 option: each side may play one battle-support card in an engagement."""
    cards = (person("Emp A", "EMP", 2, 6, 2, 9), person("Fpa B", "FPA", 2, 4, 2, 9))
    events = (event("Sup A", "battle_support"), event("Sup B", "battle_support"))
    table = Table(setup(cards, events), support_limit="per_side")
    table.start({"Ann": ["Emp A", "Sup A"], "Ben": ["Fpa B", "Sup B"]}, {"Ann": ["Emp A"], "Ben": ["Fpa B"]})
    table.do("roll_order", 4)
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B"])
    table.do("engage", 1, 1, actor="Emp A", target="Fpa B", support="Sup A", modifier=1)
    table.do("strike_back", 1, 1, support="Sup B", modifier=1)
    assert {"Sup A", "Sup B"} <= set(table.state.discard)


@pytest.mark.rule("GC-7.12")
def test_q21_and_q22_post_plots_may_be_countered_and_may_take_the_plus_2():
    """Q21 option: the commander counter-plots a failed commander plot; Q22 option: the commander's player adds
    2 on commander plots too."""
    hands = {"Ann": ["Emp Star", "Emp Minor"], "Ben": ["Fpa Star"], "Cat": ["Cmdr"]}
    table = table_with(hands=hands, post_counter_plot=True)
    table.do("roll_order", 1)
    table.draw_filler()
    table.do("post_plot", 1, 1, plotter="Emp Star", candidate="Emp Minor")
    assert table.state.counter.target == "Cmdr"
    table.do("counter_plot", 3, 3)
    assert "Emp Star" in table.state.destroyed
    mine = table_with(hands={"Ann": ["Emp Star", "Emp Minor", "Cmdr"], "Ben": ["Fpa Star"]}, garrison_bonus="post_too")
    mine.do("roll_order", 1)
    mine.draw_filler()
    step = mine.do("post_plot", 2, 3, plotter="Emp Star", candidate="Emp Minor")      # 5 + 2 >= 7
    assert mine.state.fortress.commander == "Emp Minor" and "+2" in step.summary


@pytest.mark.rule("GC-9.12")
def test_q27_the_grace_round_before_collapse_is_checked():
    """Q27 option: military collapse is checked only after the first round."""
    literal = table_with(hands={"Ann": ["Emp Star"], "Ben": ["Fpa Minor"]})
    assert end_check(replace(literal.state, phase=END)).rule == "GC-9.12"
    grace = table_with(hands={"Ann": ["Emp Star"], "Ben": ["Fpa Minor"]}, collapse_check="after_first_round")
    assert end_check(replace(grace.state, phase=END)) is None
    assert end_check(replace(grace.state, phase=END, turn=4)).rule == "GC-9.12"


@pytest.mark.rule("GC-9.11")
def test_q29_reinhard_removed_by_an_event():
    """Q29: by default an event's removal of Reinhard is treated as a plot (the stars decide); by option the game
    goes on."""
    default = table_with()
    assert end_check(replace(default.state, reinhard_down="event")).rule == "GC-9.11"
    ignored = table_with(reinhard_by_event="ignored")
    assert end_check(replace(ignored.state, reinhard_down="event")) is None


@pytest.mark.rule("GC-8.2")
def test_q33_a_nation_in_civil_war_may_be_allowed_to_attack_abroad():
    table = table_with(civil_war_abroad=True)
    war = replace(table.state, civil_war={EMPIRE: ONGOING, ALLIANCE: ONGOING})
    assert enemy_camps(war, "EMP") == ("NOBLE", "FPA")
    strict = table_with()
    assert enemy_camps(replace(strict.state, civil_war={EMPIRE: ONGOING, ALLIANCE: ENDED}), "EMP") == ("NOBLE",)
