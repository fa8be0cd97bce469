"""What the engine offers to choose (each action's spec, companion.spec), worked out here by hand from the rules for
small invented tables: the values offered, and the values a rule bars with that rule. (That every value offered
is accepted and every other refused is the conformance suite's.) A hand's cards are offered for its owner's
actions; a card any player may play (battle support, Fortress vs Fortress, a response) from every hand, each
device showing only its own."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engines.galactic_chess import ENGINE
from engines.galactic_chess.sortie import FORTRESS_NAME
from tests.engines.galactic_chess.support import Table, event, person, setup
from tests.engines.galactic_chess.test_battle import FORT_CARDS, FORT_HANDS, fortress_table, fpa_attacks
from tests.engines.galactic_chess.test_battle_cards import snake_battle
from tests.engines.galactic_chess.test_plots import CARDS, HANDS, plotting


def legal(state, action: str, name: str, **chosen):
    """(the values offered, {barred value: its rule}), or None when the parameter is not asked now."""
    found = ENGINE.actions.specs[action].param(name).legal(state, chosen)
    return None if found is None else (list(found.values), {b.value: b.rule for b in found.barred})


def values(state, action: str, name: str, **chosen) -> set:
    return set(legal(state, action, name, **chosen)[0])


def dealt(table: Table, hands: dict[str, list[str]]) -> None:
    """GC-3: each player dealt the named cards, filled up to 6 from the fillers; nobody placed yet."""
    spare = [c for c in table.state.decks[0] if c.startswith("Filler")]
    for player in table.state.players:
        own = list(hands.get(player, []))
        while len(own) < 6:
            own.append(spare.pop(0))
        table.do("deal_hand", player=player, cards=own)


# --- GC-3 setup: a player's own cards --------------------------------------------------------------------

@pytest.mark.rule("GC-3")
def test_the_placement_offers_the_players_own_persons_and_bars_events():
    """GC-3 (Q5): each player places persons of his own hand; the events stay in hand (barred, GC-3). The player
    is any who has not placed yet, or "" for the next in seat order."""
    table = Table(setup(CARDS, (event("Twilight", "event", "ragnarok"),)))
    dealt(table, {**HANDS, "Ann": ["Emp Plotter", "Emp Plain", "Twilight"]})
    offered, barred = legal(table.state, "place", "cards", player="Ann")
    assert set(offered) == {"Emp Plotter", "Emp Plain"}
    assert barred == {c: "GC-3" for c in table.hand("Ann") if c not in offered}
    assert values(table.state, "place", "cards", player="Ben") == set(HANDS["Ben"])
    assert values(table.state, "place", "cards", player="") == {"Emp Plotter", "Emp Plain"}   # Ann is first
    table.do("place", player="Ann", cards=["Emp Plain"])
    assert values(table.state, "place", "player") == {"", "Ben", "Cat"}


# --- GC-6A the card or the plot after the draw ----------------------------------------------------------

@pytest.mark.rule("GC-6A.2", "GC-11")
def test_the_card_of_the_turn_comes_from_the_active_players_hand():
    """GC-6A.2: a person or an event card of the active player's hand; GC-11: battle-support and response cards
    are not the turn's card (barred); a defection names a person in play of the Empire or the Alliance, never
    one who never changes camp (GC-6A.2, E3) nor one of Fezzan."""
    cards = (person("Emp Star", "EMP", 2, 5, 2, 9), person("Emp Hand", "EMP", 1, 3, 1, 7),
             person("Fpa Yang", "FPA", 2, 5, 2, 9, never_changes_camp=True), person("Fpa Two", "FPA", 2, 4, 2, 8),
             person("Fez Aide", "FEZ", 0, 1, 0, 2))
    events = (event("Turncoat", "event", "defection"), event("Push", "battle_support"),
              event("Lifeboat", "response", "escape"))
    table = Table(setup(cards, events))
    table.start({"Ann": ["Emp Star", "Emp Hand", "Turncoat", "Push", "Lifeboat"], "Ben": ["Fpa Yang", "Fpa Two"],
                 "Cat": ["Fez Aide"]}, {"Ann": ["Emp Star"], "Ben": ["Fpa Yang", "Fpa Two"], "Cat": ["Fez Aide"]})
    table.do("roll_order", 1)
    table.draw_filler()
    offered, barred = legal(table.state, "use_card", "card")
    assert set(offered) == {"Emp Hand", "Turncoat"} | {c for c in table.hand("Ann") if c.startswith("Filler")}
    assert barred == {"Push": "GC-11", "Lifeboat": "GC-11"}
    assert legal(table.state, "use_card", "target", card="Emp Hand") is None
    offered, barred = legal(table.state, "use_card", "target", card="Turncoat")
    assert set(offered) == {"Emp Star", "Fpa Two"} and barred == {"Fpa Yang": "GC-6A.2", "Fez Aide": "GC-6A.2"}


@pytest.mark.rule("GC-6A.1")
def test_a_discard_names_every_event_whose_prerequisite_alone_keeps_it_from_use():
    """GC-6A.1: 7 cards after the draw, none usable but two events whose printed prerequisite may not hold: the
    card of the turn is one of those two; if the players say neither holds, the hand is shown and any card
    discarded, both named as unmet."""
    events = (event("Sup 1", "battle_support"), event("Sup 2", "battle_support"), event("Resp 1", "response"),
              event("Resp 2", "response"), event("Late Call", "event", prerequisite="the Invasion is under way"),
              event("Drawn Call", "event", prerequisite="the Invasion is under way"),
              event("Sup 3", "battle_support", period=2))
    table = Table(setup((person("Fpa Star", "FPA", 2, 5, 2, 9),), events, fillers=11))
    dealt(table, {"Ann": ["Sup 1", "Sup 2", "Resp 1", "Resp 2", "Late Call", "Drawn Call"], "Ben": ["Fpa Star"]})
    for player in ("Ann", "Ben", "Cat"):
        table.do("place", player=player, cards=["Fpa Star"] if player == "Ben" else [])
    table.do("roll_order", 1)
    table.do("draw", card="Sup 3")
    assert values(table.state, "use_card", "card") == {"Late Call", "Drawn Call"}
    assert ENGINE.actions.specs["discard"].is_open(table.state)
    assert values(table.state, "discard", "card") == set(table.hand("Ann"))
    unmet = ENGINE.actions.specs["discard"].param("unmet").legal(table.state, {"card": "Sup 1"})
    assert set(unmet.values) == {"Late Call", "Drawn Call"} and unmet.low == 2


@pytest.mark.rule("GC-6A.31")
def test_a_plotter_is_the_players_own_with_a_value_and_someone_of_his_nation_to_plot_against():
    """GC-6A.31: Ann's only person with an unbracketed value is the Plotter; he may plot against any other person
    in play of the Empire, whoever's (not Fezzan's Rubinsky, not the Alliance's)."""
    table = plotting()
    assert values(table.state, "plot", "plotter") == {"Emp Plotter"}
    offered, barred = legal(table.state, "plot", "target", plotter="Emp Plotter")
    assert set(offered) == {"Emp Plain", "Emp Third", "Emp Fourth", "Emp Target", "Emp Bracket", "Cmdr"}
    assert barred == {}


@pytest.mark.rule("GC-6A.31")
def test_rubinsky_is_barred_as_a_target_until_ragnarok():
    """GC-6A.31: before Ragnarok a Fezzan plotter sees Rubinsky barred (only a counter-plot reaches him)."""
    cards = CARDS + (person("Fez Aide", "FEZ", 0, 1, 0, 2, 6), person("Fez Clerk", "FEZ", 0, 1, 0, 2))
    table = Table(setup(cards))
    table.start({"Ann": ["Fez Aide", "Fez Clerk"], "Ben": ["Fez Fox"]})
    table.do("roll_order", 1)
    table.draw_filler()
    assert legal(table.state, "plot", "target", plotter="Fez Aide") == (["Fez Clerk"], {"Fez Fox": "GC-6A.31"})
    assert legal(replace(table.state, ragnarok=True), "plot", "target", plotter="Fez Aide") == \
        (["Fez Clerk", "Fez Fox"], {})


@pytest.mark.rule("GC-7.12", "GC-7.21")
def test_the_posts_ask_for_a_plotter_only_when_the_move_is_a_plot():
    """GC-7.12: Cat's Cmdr holds the post: Ann's admirals of the controlling camp are the candidates, her Plotter
    the only plotter; a vacant post asks for none. GC-7.21: with a slot free, a dispatch asks for no plotter and
    nobody is released (the garrison is empty); with the garrison full (Cmdr and two fleets), a dispatch names
    the garrison fleet it replaces and a plotter, and "" (a release instead) is offered."""
    table = plotting()
    state = table.state
    admirals = {"Emp Plotter", "Emp Plain", "Emp Third", "Emp Fourth"}
    assert state.fortress.commander == "Cmdr" and values(state, "post_plot", "candidate") == admirals
    assert values(state, "post_plot", "plotter", candidate="Emp Plain") == {"Emp Plotter"}
    vacant = replace(state, fortress=replace(state.fortress, commander=""))
    assert legal(vacant, "post_plot", "plotter", candidate="Emp Plain") is None
    assert values(state, "garrison_plot", "dispatch") == admirals
    free = {"dispatch": "Emp Plain", "release": "", "displace": ""}
    assert legal(state, "garrison_plot", "displace", **free) is None
    assert legal(state, "garrison_plot", "plotter", **free) is None
    full = replace(state, fortress=replace(state.fortress, garrison=("Emp Target", "Emp Bracket")))
    assert values(full, "garrison_plot", "dispatch") == {""} | admirals
    assert values(full, "garrison_plot", "displace", dispatch="Emp Plain", release="") == {"Emp Target", "Emp Bracket"}
    assert values(full, "garrison_plot", "release", dispatch="") == {"Emp Target", "Emp Bracket"}
    assert values(full, "garrison_plot", "plotter", dispatch="", release="Emp Target", displace="") == {"Emp Plotter"}


# --- GC-6B the sortie and the battle -----------------------------------------------------------------------

@pytest.mark.rule("GC-6B.11", "GC-6B.12", "GC-7.4")
def test_the_camps_and_the_attackers_declaration():
    """GC-6B.11 (Q6): any camp with an available fleet attacks the other nation; GC-6B.12: Ann declares her own
    available fleets, 1 to the size (2); GC-7.4: the commander stays home when his camp attacks; the fortress is
    not asked of the attackers."""
    table = fortress_table()
    assert values(table.state, "sortie", "camp") == {"EMP", "FPA"}
    assert values(table.state, "sortie", "defender", camp="EMP") == {"FPA"}
    table.do("sortie", camp="EMP", defender="FPA")
    found = ENGINE.actions.specs["declare"].param("fleets").legal(table.state, {})
    assert (found.values, found.low, found.high) == (("Emp Two",), 1, 2)
    assert legal(table.state, "declare", "fortress", fleets=["Emp Two"], others=[]) is None


@pytest.mark.rule("GC-6B.3", "GC-6B.12")
def test_the_first_defender_and_the_fortress():
    """GC-6B.3 (7.32): the attacker SC's owner must name the commander's player (Ann); in her first declaration
    the fortress comes alone (then it must), or with commander/garrison fleets only."""
    table = fortress_table()
    fpa_attacks(table)
    table.do("declare", fleets=["Fpa Marshal", "Fpa Admiral"])
    assert values(table.state, "nominate", "player") == {"Ann"}
    table.do("nominate", player="Ann")
    found = ENGINE.actions.specs["declare"].param("fleets").legal(table.state, {})
    assert (set(found.values), found.low) == ({"Commander C", "Emp Two"}, 0)
    assert legal(table.state, "declare", "fortress", fleets=[], others=[]) == ([True], {False: "GC-6B.12"})
    assert legal(table.state, "declare", "fortress", fleets=["Emp Two"], others=[]) == ([False], {True: "GC-6B.3"})
    assert legal(table.state, "declare", "fortress", fleets=["Commander C"], others=[]) == ([False, True], {})


@pytest.mark.rule("GC-6B.4", "GC-6B.5", "GC-11")
def test_the_engagement_offers_any_players_battle_support_card_and_the_snakes_joiners():
    """GC-6B.4: Emp A1 (strategy 6) acts first; GC-6B.5: he engages a present enemy unit; a battle-support card of
    any hand may be played on the duel (Ben's Push, though Ben is the target's player); GC-11: with Cat's
    Double-Headed Snake, 1 or 2 other units of the actor's side join."""
    table = snake_battle()
    state = table.state
    assert values(state, "engage", "actor") == {"Emp A1"}
    assert values(state, "engage", "target", actor="Emp A1") == {"Fpa B1", "Fpa B2"}
    duel = {"actor": "Emp A1", "target": "Fpa B1"}
    assert values(state, "engage", "support", **duel) == {"", "Push", "Two Heads"}
    assert legal(state, "engage", "extra", **duel, support="Push") is None
    snake = ENGINE.actions.specs["engage"].param("extra").legal(state, {**duel, "support": "Two Heads"})
    assert (set(snake.values), snake.low, snake.high) == ({"Emp A2", "Emp A3"}, 1, 2)


@pytest.mark.rule("GC-7.34")
def test_reinhard_sees_the_fortress_barred():
    """GC-7.34: Reinhard may not choose the fortress as his target: it is shown barred by his rule."""
    cards = FORT_CARDS + (person("Fpa Red", "FPA", 2, 8, 3, 9, role="reinhard"),)
    table = Table(setup(cards))
    table.start({**FORT_HANDS, "Cat": ["Fpa Marshal", "Fpa Red"]})
    table.do("roll_order", 4)
    fpa_attacks(table)
    table.do("declare", fleets=["Fpa Marshal", "Fpa Red"])
    table.do("nominate", player="Ann")
    table.do("declare", fortress=True)
    table.do("declare", fleets=["Emp Fleet"])
    assert legal(table.state, "engage", "target", actor="Fpa Red") == (["Emp Fleet"], {FORTRESS_NAME: "GC-7.34"})
    assert FORTRESS_NAME in values(table.state, "engage", "target", actor="Fpa Marshal")


@pytest.mark.rule("GC-11")
def test_an_escape_shuttle_waits_for_a_battle_and_names_a_present_admiral():
    """GC-11: a response card is offered from any hand; an Escape Shuttle is barred outside a battle, and in one
    names an admiral present (not an air/ground unit)."""
    cards = (person("Emp A", "EMP", 2, 6, 2, 10), person("Fpa B", "FPA", 2, 4, 1, 9),
             person("Fpa Lynx", "FPA", 0, 3, 3, 7, fights=True))
    table = Table(setup(cards, (event("Lifeboat", "response", "escape"),)))
    table.start({"Ann": ["Emp A"], "Ben": ["Fpa B", "Fpa Lynx"], "Cat": ["Lifeboat"]},
                {"Ann": ["Emp A"], "Ben": ["Fpa B", "Fpa Lynx"], "Cat": []})
    table.do("roll_order", 4)
    assert legal(table.state, "respond", "card") == ([], {"Lifeboat": "GC-11"})
    table.do("sortie", camp="EMP", defender="FPA")
    table.do("declare", fleets=["Emp A"])
    table.do("nominate", player="Ben")
    table.do("declare", fleets=["Fpa B"], others=["Fpa Lynx"])
    assert values(table.state, "respond", "card") == {"Lifeboat"}
    assert values(table.state, "respond", "target", card="Lifeboat") == {"Emp A", "Fpa B"}
