"""The civil war (GC-8.1-8.3).

- GC-8.1: "Lippstadt War" starts a civil war in both nations at once. Persons with a rebel camp move to
  it as their owner's rebel clique; rebel persons in hands are revealed and placed at once (not card use);
  rebels placed later join their rebel clique (Q31). A fortress commander or garrison fleet who turns
  rebel loses his post at once (Q41; by option the fortress follows its commander).
- GC-8.2: while a nation has rebels its battles are regulars against rebels: no kill VP, the bonus counts.
- GC-8.3: the war ends when one side has no fleet (admiral) left: its other persons are destroyed, no VP
  (Q32: at once if the rebels have no fleet at the outbreak). If the rebels won, the rebel camp is from
  then on the whole of its nation (Q40): persons of that nation placed later join it.
"""
from __future__ import annotations

from dataclasses import replace

from .cards import Person
from .fortress import rebel_posts
from .rules import ALLIANCE, EMPIRE, ENDED, NATION, ONGOING, REBEL, REGULAR
from .state import GameState, Placed
from .table import remove_persons, set_hand


def outbreak(state: GameState) -> GameState:
    civil_war = {**state.civil_war, EMPIRE: ONGOING, ALLIANCE: ONGOING}
    moved = tuple(replace(p, camp=state.person(p.card).rebel_camp)
                  if state.person(p.card).rebel_camp and p.camp == state.person(p.card).camp else p
                  for p in state.in_play)
    revealed = []
    for seat, (player, hand) in enumerate(zip(state.players, state.hands)):
        rebels = tuple(c for c in hand if state.is_person(c) and state.person(c).rebel_camp)
        revealed += [Placed(c, player, state.person(c).rebel_camp) for c in rebels]
        state = set_hand(state, seat, tuple(c for c in hand if c not in rebels))
    return settle(rebel_posts(replace(state, civil_war=civil_war, in_play=moved + tuple(revealed))))


def fleets(state: GameState, camp: str) -> list[str]:
    return [p.card for p in state.in_camp(camp) if state.person(p.card).admiral]


def settle(state: GameState) -> GameState:
    """GC-8.3: a civil war with a side out of fleets is over; that side's other persons are destroyed
    (the rebels first, when neither side has a fleet); the other side has won it."""
    for nation in (EMPIRE, ALLIANCE):
        if state.civil_war.get(nation) != ONGOING:
            continue
        for camp, winner in ((REBEL[nation], REGULAR[nation]), (REGULAR[nation], REBEL[nation])):
            if not fleets(state, camp):
                losers = [p.card for p in state.in_camp(camp)]
                state = replace(state, civil_war={**state.civil_war, nation: ENDED},
                                war_winner={**state.war_winner, nation: winner})
                state = remove_persons(state, losers, "civil war")
                break
    return state


def rebels_won(state: GameState, nation: str) -> bool:
    """GC-8.3 (Q40): the nation's civil war is over and its rebels won it."""
    return nation in REBEL and state.war_winner.get(nation) == REBEL[nation]


def nation_camp(state: GameState, nation: str) -> str:
    """The camp that is the nation outside a civil war: its regulars, or the rebels who won its war (Q40)."""
    return REBEL[nation] if rebels_won(state, nation) else REGULAR[nation]


def camp_of(state: GameState, person: Person) -> str:
    """The camp a person joins when placed: its rebel camp while its nation's civil war goes on (Q31), else
    its nation's camp (after a war the rebels won, theirs: Q40)."""
    nation = NATION[person.camp]
    if state.civil_war.get(nation) == ONGOING:
        return person.rebel_camp or person.camp
    return nation_camp(state, nation)


def is_civil(attacker: str, defender: str) -> bool:
    """GC-8.2: a battle between the two camps of one nation."""
    return NATION[attacker] == NATION[defender]
