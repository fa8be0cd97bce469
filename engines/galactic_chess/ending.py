"""The end of the game (GC-9.0-9.2), checked at the end of every turn.

- GC-9.0: the game ends after the turn in which a condition holds; 9.11 before 9.12 before 9.13 (Q28).
- GC-9.11: Reinhard destroyed in battle: the destroyer's camp wins; the Alliance regulars during their
  civil war, or the MCSR, win for the whole Alliance; the nobles (NOBLE) during the Empire's civil war win
  alone (Q30). Destroyed by a plot (or an event, Q29): the Baalat Treaty's count decides.
- GC-9.12: a nation (its regular camp only during its civil war) with no admiral of 2 stars or more in
  play: the other nation wins, the whole nation if it is in a civil war. Both at once: 9.13.
- GC-9.13: after the Ceasefire Order's round, the camp whose persons in play have the most stars wins
  (regulars and rebels apart, Fezzan too); a tie is rolled off (GC-9.13r).
- GC-9.2: each player scores their clique(s) in the winning camp: 1 per person card plus its battle VP
  (not when a rebel camp won alone); ties go to the most stars, then the win is shared.
- Q40: once the rebels have won their civil war (GC-8.3) they are the nation: its admirals for 9.12, its
  winner for 9.11 and 9.12, scoring their battle VP (by option no battle VP, or both camps of the nation
  added together).
"""
from __future__ import annotations

from dataclasses import dataclass

from .civil_war import rebels_won
from .rules import ALLIANCE, CAMPS, COLLAPSE_STARS, EMPIRE, FEZZAN, NATION, NOBLE, ONGOING, REBEL, REGULAR, RIVAL
from .state import GameState, Outcome


@dataclass(frozen=True)
class Verdict:
    camps: tuple[str, ...]        # the winning camp(s); empty while a roll-off is due
    rule: str
    reason: str
    tied: tuple[str, ...] = ()    # camps tied on stars: GC-9.13r


def stars_by_camp(state: GameState) -> dict[str, int]:
    totals = {camp: 0 for camp in CAMPS}
    for p in state.in_play:
        totals[p.camp] += state.person(p.card).stars
    return totals


def treaty(state: GameState, rule: str, reason: str) -> Verdict:
    """GC-9.13: of the camps with persons in play, the most stars wins; a tie goes to the roll-off."""
    totals = stars_by_camp(state)
    standing = [c for c in CAMPS if state.in_camp(c)] or [REGULAR[n] for n in (EMPIRE, ALLIANCE, FEZZAN)]
    top = max(totals[c] for c in standing)
    tied = tuple(c for c in standing if totals[c] == top)
    count = ", ".join(f"{c} {totals[c]}" for c in CAMPS if totals[c])
    if len(tied) > 1:
        return Verdict((), rule, f"{reason}; stars in play: {count or 'none'}; tie", tied)
    return Verdict(as_nation(state, tied[0]), rule, f"{reason}; stars in play: {count}")


def nation_camps(state: GameState, nation: str) -> tuple[str, ...]:
    """The camps that win for a nation (GC-9.11, GC-9.12): both while its civil war goes on (it ends, the nation
    reunited); after a civil war its rebels won, the rebel camp, which is the nation (Q40; option (c): both its
    camps); else its regulars."""
    if state.civil_war.get(nation) == ONGOING:
        return REGULAR[nation], REBEL[nation]
    if rebels_won(state, nation):
        return (REGULAR[nation], REBEL[nation]) if state.options["rebel_victory"] == "whole" else (REBEL[nation],)
    return (REGULAR[nation],)


def as_nation(state: GameState, camp: str) -> tuple[str, ...]:
    """A single winning camp (GC-9.13), or, when it is rebels who won their civil war, their nation (Q40)."""
    nation = NATION[camp]
    return nation_camps(state, nation) if camp in REBEL.values() and rebels_won(state, nation) else (camp,)


def senior_admirals(state: GameState, nation: str) -> list[str]:
    """GC-9.12: the nation's admirals of 2 stars or more in play (its regular camp only during its civil war;
    after it, the camp that won it, Q40)."""
    camps = (REGULAR[nation],) if state.civil_war.get(nation) == ONGOING else (REGULAR[nation], REBEL[nation])
    return [p.card for p in state.in_play if p.camp in camps and state.person(p.card).stars >= COLLAPSE_STARS]


def collapsed(state: GameState, nation: str) -> bool:
    return not senior_admirals(state, nation)


def end_check(state: GameState) -> Verdict | None:
    down = state.reinhard_down
    if down == "plot" or (down == "event" and state.options["reinhard_by_event"] == "as_plot"):
        return treaty(state, "GC-9.11", f"Reinhard was removed by {'a plot' if down == 'plot' else 'an event'}")
    if down in CAMPS:
        alone = down == NOBLE and state.civil_war.get(EMPIRE) == ONGOING      # Q30
        camps = (NOBLE,) if alone else nation_camps(state, NATION[down])
        return Verdict(camps, "GC-9.11", f"Reinhard was destroyed in battle by {down}")
    grace = state.options["collapse_check"] == "after_first_round" and state.turn <= len(state.players)
    fallen = [] if grace else [n for n in (EMPIRE, ALLIANCE) if collapsed(state, n)]
    if len(fallen) == 2:
        return treaty(state, "GC-9.12", "both nations have collapsed")
    if fallen:
        winner = RIVAL[fallen[0]]
        return Verdict(nation_camps(state, winner), "GC-9.12",
                       f"the {fallen[0]} has no admiral of {COLLAPSE_STARS} stars")
    if state.last_turn and state.last_turn == state.player:
        return treaty(state, "GC-9.13", "the Ceasefire Order's round is over")
    return None


def battle_vp_count(state: GameState, camps: tuple[str, ...]) -> bool:
    """GC-9.2: the winners' battle VP count, unless a rebel camp won alone (Q30). Rebels who won their civil war
    and then win as their nation have not won alone (Q40 (a)); option (b) reads the rule literally: no VP."""
    if len(camps) != 1 or camps[0] not in REBEL.values():
        return True
    return rebels_won(state, NATION[camps[0]]) and state.options["rebel_victory"] != "no_vp"


def score(state: GameState, camps: tuple[str, ...], rule: str, reason: str) -> Outcome:
    """GC-9.2: each player's clique(s) in the winning camp(s): persons + battle VP; ties by stars."""
    counted = battle_vp_count(state, camps)
    scores, stars = {}, {}
    for player in state.players:
        mine = [p for p in state.in_play if p.owner == player and p.camp in camps]
        vp = sum(state.vp_of(player, c) for c in camps) if counted else 0
        scores[player] = len(mine) + vp
        stars[player] = sum(state.person(p.card).stars for p in mine)
    best = max((scores[p], stars[p]) for p in state.players)
    winners = tuple(p for p in state.players if (scores[p], stars[p]) == best)
    return Outcome(camps, rule, reason, scores, stars, winners)


def provisional(state: GameState) -> dict[str, Outcome]:
    """Digest section 8: the score each player would have if the game ended now with each camp in play
    winning alone (GC-9.2)."""
    return {camp: score(state, as_nation(state, camp), "GC-9.2", f"if {camp} won") for camp in CAMPS
            if state.in_camp(camp)}
