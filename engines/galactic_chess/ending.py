"""The end of the game (GC-9.0-9.2), checked at the end of every turn.

- GC-9.0: the game ends after the turn in which a condition holds; 9.11 before 9.12 before 9.13 (Q28).
- GC-9.11: Reinhard destroyed in battle: the destroyer's camp wins; the Alliance regulars during their
  civil war, or the MCSR, win for the whole Alliance; the nobles (NOBLE) win alone (Q30). Destroyed by a
  plot (or an event, Q29): the Baalat Treaty's count decides.
- GC-9.12: a nation (its regular camp only during its civil war) with no admiral of 2 stars or more in
  play: the other nation's regulars win, the whole nation if it is in a civil war. Both at once: 9.13.
- GC-9.13: after the Ceasefire Order's round, the camp whose persons in play have the most stars wins
  (regulars and rebels apart, Fezzan too); a tie is rolled off (GC-9.13r).
- GC-9.2: each player scores their clique(s) in the winning camp: 1 per person card plus its battle VP
  (not when a rebel camp won alone); ties go to the most stars, then the win is shared.
"""
from __future__ import annotations

from dataclasses import dataclass

from .rules import ALLIANCE, CAMPS, COLLAPSE_STARS, EMPIRE, FEZZAN, MCSR, NATION, NOBLE, ONGOING, REBEL, REGULAR, RIVAL
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
    return Verdict(tied, rule, f"{reason}; stars in play: {count}")


def whole(nation: str, state: GameState) -> tuple[str, ...]:
    """A nation's winning camps: both when its civil war goes on (it ends, the nation reunited)."""
    if state.civil_war.get(nation) == ONGOING:
        return REGULAR[nation], REBEL[nation]
    return (REGULAR[nation],)


def senior_admirals(state: GameState, nation: str) -> list[str]:
    """GC-9.12: the nation's admirals of 2 stars or more in play (its regular camp only during its civil war)."""
    camps = (REGULAR[nation],) if state.civil_war.get(nation) == ONGOING else (REGULAR[nation], REBEL[nation])
    return [p.card for p in state.in_play if p.camp in camps and state.person(p.card).stars >= COLLAPSE_STARS]


def collapsed(state: GameState, nation: str) -> bool:
    return not senior_admirals(state, nation)


def end_check(state: GameState) -> Verdict | None:
    down = state.reinhard_down
    if down == "plot" or (down == "event" and state.options["reinhard_by_event"] == "as_plot"):
        return treaty(state, "GC-9.11", f"Reinhard was removed by {'a plot' if down == 'plot' else 'an event'}")
    if down in CAMPS:
        if down == NOBLE:
            camps = (NOBLE,)
        elif down == MCSR:
            camps = (REGULAR[ALLIANCE], MCSR)
        else:
            camps = whole(NATION[down], state)
        return Verdict(camps, "GC-9.11", f"Reinhard was destroyed in battle by {down}")
    grace = state.options["collapse_check"] == "after_first_round" and state.turn <= len(state.players)
    fallen = [] if grace else [n for n in (EMPIRE, ALLIANCE) if collapsed(state, n)]
    if len(fallen) == 2:
        return treaty(state, "GC-9.12", "both nations have collapsed")
    if fallen:
        winner = RIVAL[fallen[0]]
        return Verdict(whole(winner, state), "GC-9.12", f"the {fallen[0]} has no admiral of {COLLAPSE_STARS} stars")
    if state.last_turn and state.last_turn == state.player:
        return treaty(state, "GC-9.13", "the Ceasefire Order's round is over")
    return None


def score(state: GameState, camps: tuple[str, ...], rule: str, reason: str) -> Outcome:
    """GC-9.2: each player's clique(s) in the winning camp(s): persons + battle VP; ties by stars."""
    rebels_alone = camps in ((NOBLE,), (MCSR,))
    scores, stars = {}, {}
    for player in state.players:
        mine = [p for p in state.in_play if p.owner == player and p.camp in camps]
        vp = 0 if rebels_alone else sum(state.vp_of(player, c) for c in camps)
        scores[player] = len(mine) + vp
        stars[player] = sum(state.person(p.card).stars for p in mine)
    best = max((scores[p], stars[p]) for p in state.players)
    winners = tuple(p for p in state.players if (scores[p], stars[p]) == best)
    return Outcome(camps, rule, reason, scores, stars, winners)


def provisional(state: GameState) -> dict[str, Outcome]:
    """Digest section 8: the score each player would have if the game ended now with each camp in play
    winning alone (GC-9.2)."""
    return {camp: score(state, (camp,), "GC-9.2", f"if {camp} won") for camp in CAMPS if state.in_camp(camp)}
