"""Every roll says what its number is made of, as the dice entry shows it and the log records it: a morale check's
number (DX-6.0), a card's dice of fire (DX-7.1), each card of a melee (DX-13.1), each check of a flank attack
(DX-13.3) and of a disorder (DX-8.3a). The parts are the digest's: 3A = 4 (vector 1), a 1/2 leader +2 defending
and a 2/1 leader +2 attacking (vector 4), terrain as printed (DX-10.3), an artillery leader +1 die (DX-13.7),
woods -1 CV (DX-13.2, vector 18), the flank check's CAV +1 / ART -1 (vector 15); no face-down card is told of."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from companion.engine import dice_needed
from engines.dixie import ENGINE
from engines.dixie.enfilade import EnfiladeInput, resolve_enfilade
from tests.engines.dixie.support import Table, advanced, leader, terrain, unit
from tests.engines.dixie.test_advanced import BATTERY, BATTERY_PLACES, flank_table
from tests.engines.dixie.test_disorder import lost_leader


def labels(state, kind: str, **params) -> list[str]:
    return [r.label for r in dice_needed(ENGINE, state, {"type": kind, **params})]


def hit(state, card: str, hits: int):
    """The card holding hits, face-up as hit cards are (DX-7.3)."""
    return state.with_cards(replace(state.card(card), hits=hits, face_up=True))


# USA-R: a USA 3A infantry under a 1/2 leader, with woods that give their holder +1 morale and attackers -1;
# a CSA 3B infantry under a 2/1 leader has advanced in.
MORALE = [unit(1, "CSA", cv=3, morale="B"), leader(3, "CSA", attack=2, defense=1), unit(11, "USA", cv=3, morale="A"),
          leader(12, "USA", attack=1, defense=2), terrain(13, "USA", "R", "holder morale +1; attacker morale -1",
                                                          kind="woods")]
MORALE_PLACES = {"CSA-1": "CSA-L", "CSA-3": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R", "USA-13": "USA-R"}


@pytest.mark.rule("DX-6.0", "DX-11.1b", "DX-10.3")
def test_a_morale_check_says_its_number_part_by_part():
    """DX-6.0: CV + code + terrain + the leader's rating for the card's stance: the defending 3A card 3 + 1 + 1 + 2
    = 7; the attacking 3B card 3 + 0 - 1 + 2 = 4."""
    table = advanced(MORALE, MORALE_PLACES, ["CSA-1", "CSA-3"])
    assert labels(hit(table.state, "USA-11", 2), "check_morale", card="USA-11") == [
        "Morale: TU11 (USA-11), 2 checks at 7 = CV 3 + grade A +1 + woods +1 + leader +2 (DX-6.0)"]
    table.next_turn()
    assert labels(hit(table.state, "CSA-1", 1), "check_morale", card="CSA-1") == [
        "Morale: TC1 (CSA-1), 1 check at 4 = CV 3 + grade B 0 − woods 1 + leader +2 (DX-6.0)"]


@pytest.mark.rule("DX-13.1", "DX-6.0")
def test_a_melee_names_each_card_with_its_dice_and_its_checks_ignore_terrain():
    """Vector 19: the USA 2CV B infantry rolls 2 dice at F3, the CSA 1CV C infantry 1 die at F3, each card on its
    own roll; the checks at once ignore terrain (DX-13.1): 2B at 2, 1C at 0, the woods' -1 left out."""
    cards = [unit(1, "CSA", cv=1, morale="C"), unit(11, "USA", cv=2, morale="B"),
             terrain(12, "USA", "R", "both morale -1", kind="woods")]
    table = advanced(cards, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, ["CSA-1"], melee=True)
    table.to_step("combat")
    table.do("declare_melee", position="USA-R")
    assert labels(table.state, "melee_round") == [
        "USA melee in USA-R: TU11 (USA-11), 2 dice = CV 2 at F3 (DX-13.1)",
        "CSA melee in USA-R: TC1 (CSA-1), 1 die = CV 1 at F3 (DX-13.1)"]
    table.do("melee_round", 1, 4, 2)
    table.do("allocate_hits")
    table.do("allocate_hits")
    assert labels(table.state, "check_hits") == [
        "Morale: TU11 (USA-11), 1 check at 2 = CV 2 + grade B 0 (DX-6.0)",
        "Morale: TC1 (CSA-1), 1 check at 0 = CV 1 − grade C 1 (DX-6.0)"]


@pytest.mark.rule("DX-7.1", "DX-7.2", "DX-13.7", "DX-10.3")
def test_a_fire_says_its_dice_part_by_part():
    """DX-7.1: a die per CV; an artillery leader +1 die to its artillery (DX-13.7); woods -1 CV to each card firing
    into them: a 3CV battery at long F2 rolls 3 + 1 - 1 = 3 dice."""
    cards = [unit(1, "CSA", "ART", cv=3, fp_long=2), leader(2, "CSA", rank="artillery"), unit(11, "USA", cv=2),
             terrain(12, "USA", "R", "holder fire_in_cv -1", kind="woods")]
    table = Table(cards)
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"})
    table.to_step("combat")
    assert labels(table.state, "fire", firers=["CSA-1"], target="USA-R") == [
        "TC1 (CSA-1) fires at USA-R: 3 dice = CV 3 + artillery leader +1 − woods 1 at F2 (DX-7.2)"]


@pytest.mark.rule("DX-13.2", "DX-10.3")
def test_an_enfilade_into_woods_says_its_dice():
    """Vector 18: a 3CV card enfilades at F1 into woods (-1 CV): 2 dice = CV 3 - woods 1, in the game and in the
    enfilade procedure alike."""
    cards = [unit(1, "CSA"), unit(11, "USA", cv=3), terrain(12, "USA", "C", "both enfilade_in_cv -1", kind="woods")]
    table = advanced(cards, {"CSA-1": "CSA-C", "USA-11": "USA-R", "USA-12": "USA-C"}, [], enfilade=True)
    table.next_turn()
    table.to_step("movement")
    table.do("move", card="CSA-1", to="USA-C")
    table.next_turn()
    table.to_step("combat")
    assert labels(table.state, "fire", firers=["USA-11"], target="USA-C") == [
        "TU11 (USA-11) fires at USA-C: 2 dice = CV 3 − woods 1 at F1 (DX-13.2)"]
    result = resolve_enfilade(EnfiladeInput((3,), "own", -1), ScriptedDice([2, 1]))
    assert [r.label for r in result.rolls] == [
        "Enfilade from the own line: 2 dice = firer's dice 3 − target position 1 at F1 (DX-13.2)"]


@pytest.mark.rule("DX-13.4", "DX-13.5")
def test_counter_battery_and_artillery_support_say_their_dice():
    """DX-13.4 / DX-13.5: a 3CV battery singling out artillery, or firing into an engaged position at long F2,
    rolls 3 dice = CV 3."""
    table = Table(BATTERY, counter_battery=True)
    table.deploy(BATTERY_PLACES)
    table.to_step("combat")
    state = table.state.with_cards(replace(table.card("USA-11"), face_up=True))
    assert labels(state, "fire", firers=["CSA-1"], target="USA-C", counter_battery=["CSA-1>USA-11"]) == [
        "TC1 (CSA-1) fires at USA-C, counter-battery: 3 dice = CV 3 at F2 (DX-13.4)"]
    cards = [unit(1, "CSA", "ART", cv=3, fp_long=2), unit(2, "CSA", cv=2), unit(11, "USA", cv=2), leader(12, "USA")]
    table = advanced(cards, {"CSA-1": "CSA-L", "CSA-2": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, ["CSA-2"],
                     artillery_support=True)
    table.next_turn()
    table.to_step("combat")
    assert labels(table.state, "fire", firers=["CSA-1"], target="USA-R") == [
        "TC1 (CSA-1) fires at USA-R: 3 dice = CV 3 at F2 (DX-13.5)"]


@pytest.mark.rule("DX-13.3")
def test_a_flank_attack_says_each_cards_check():
    """Vector 15: with an attack-1 leader, INF 3B -> M4, CAV 2B -> M4 (+1), ART 3B -> M3 (-1); one die each, in the
    order of the cards."""
    table = flank_table()
    assert labels(table.state, "flank_attack", cards=["CSA-2", "CSA-3", "CSA-4"], position="USA-R",
                  leader="CSA-5") == [
        "Flank attack checks, a die each: TC2 (CSA-2) at 4 = CV 3 + grade B 0 + leader +1; "
        "TC3 (CSA-3) at 4 = CV 2 + grade B 0 + cavalry +1 + leader +1; "
        "TC4 (CSA-4) at 3 = CV 3 + grade B 0 − artillery 1 + leader +1 (DX-13.3)"]


@pytest.mark.rule("DX-8.3a", "DX-6.0")
def test_a_disorder_tells_only_the_cards_every_page_may_see():
    """DX-8.3a: every unit over the limit checks at its morale (3B = 3, its stack leader dead); a face-down card is
    named only as such and its number is not told (digest section 2): the enemy's page may show this roll."""
    table = lost_leader()
    state = table.state.with_cards(replace(table.card("CSA-1"), face_up=True))
    assert labels(state, "disorder") == [
        "Disorder checks, a die each: TC1 (CSA-1) at 3 = CV 3 + grade B 0; a face-down CSA card; "
        "a face-down CSA card; a face-down CSA card; a face-down CSA card (DX-8.3a)"]
