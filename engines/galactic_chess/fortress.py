"""Iserlohn Fortress: its commander and garrison, the corridor rule, and the posts' plots.

- GC-3.4: the commander at setup is Stockhausen if placed, otherwise Seeckt, otherwise the post is vacant;
  the Empire controls the fortress at the start (Q25).
- GC-7.4: the corridor rule is off while the Invasion is active, after Ragnarok, and while nobody is
  posted there (the commander counts, even when absent, Q24).
- GC-7.12 / GC-7.21: the posts change by plot; candidates are admirals of the player's own clique in
  the controlling camp (Q23); at most 3 fleets with the commander. A vacant commander post and a free
  garrison slot are filled with no plot, no roll and no plotter.
- GC-7.35: when the fortress is destroyed the destroyer's camp controls it, the post vacant and the
  garrison empty (Q25).
- GC-8.1 (Q41): the posts belong to the controlling camp: a commander or garrison fleet who turns rebel or
  defects loses his post at once (by option the fortress follows a commander who turns rebel).
"""
from __future__ import annotations

from dataclasses import replace

from .rules import COMMANDER_PREFERENCE, GARRISON_BONUS, GARRISON_MAX, NATION, REBEL
from .state import GameState

COMMANDER, DISPATCH, RELEASE = "commander", "dispatch", "release"   # the moves of GC-7.12 and GC-7.21
POST_MOVES = (COMMANDER, DISPATCH, RELEASE)


def corridor_active(state: GameState) -> bool:
    return not state.invasion and not state.ragnarok and bool(state.fortress.posted)


def commander_at_setup(state: GameState) -> str:
    for role in COMMANDER_PREFERENCE:
        for placed in state.in_play:
            if state.person(placed.card).role == role and placed.camp == state.fortress.controller:
                return placed.card
    return ""


def owner_of(state: GameState, name: str) -> str:
    placed = state.placed(name) if name else None
    return placed.owner if placed else ""


def commander_player(state: GameState) -> str:
    """The player who holds the commander (and so the fortress card)."""
    return owner_of(state, state.fortress.commander)


def garrison_players(state: GameState) -> set[str]:
    return {owner_of(state, g) for g in state.fortress.garrison}


def slots_free(state: GameState) -> bool:
    return len(state.fortress.posted) < GARRISON_MAX


def tidy_posts(state: GameState) -> GameState:
    """Only persons in play in the controlling camp hold posts (a destroyed, defecting or rebel one leaves his,
    Q41)."""
    f = state.fortress
    keep = {n for n in f.posted if state.placed(n) and state.placed(n).camp == f.controller}
    if keep == set(f.posted):
        return state
    return replace(state, fortress=replace(f, commander=f.commander if f.commander in keep else "",
                                           garrison=tuple(g for g in f.garrison if g in keep)))


def rebel_posts(state: GameState) -> GameState:
    """GC-8.1 (Q41) at the outbreak: a commander or garrison fleet now a rebel loses his post, control staying
    with the regulars; with the option, a commander turned rebel takes the fortress into his rebel camp (the
    fleets left regular then lose theirs)."""
    f = state.fortress
    placed = state.placed(f.commander) if f.commander else None
    rebel = REBEL.get(NATION[f.controller])
    if placed and placed.camp == rebel and state.options["rebel_commander"] == "takes_fortress":
        state = replace(state, fortress=replace(f, controller=rebel))
    return tidy_posts(state)


def vacate(state: GameState) -> GameState:
    """GC-11 Frontier Duty: the commander and the garrison lose their posts."""
    return replace(state, fortress=replace(state.fortress, commander="", garrison=()))


def fall(state: GameState, camp: str) -> GameState:
    """The fortress destroyed: control to the destroyer's camp at once, nobody posted (Q25)."""
    return replace(state, fortress=replace(state.fortress, controller=camp, commander="", garrison=()))


def needs_plot(state: GameState, move: str) -> bool:
    """GC-7.12 / GC-7.21: a vacant commander post, or a dispatch to a free garrison slot, is filled with no plot,
    no roll and no plotter (it still is the turn's plot, Q22); a commander plot on a held post, a dispatch to a
    full garrison and every release are plots."""
    if move == COMMANDER:
        return bool(state.fortress.commander)
    return move == RELEASE or not slots_free(state)


def post_plotters(state: GameState, player: str) -> list[str]:
    """The player's persons who may plot for a post: an unbracketed value, in the controlling camp (GC-7.12)."""
    return [p.card for p in state.in_camp(state.fortress.controller, player) if state.person(p.card).may_plot]


def post_candidates(state: GameState, player: str) -> list[str]:
    """Q23: admirals of the player's clique in the controlling camp, not already commander."""
    return [p.card for p in state.in_camp(state.fortress.controller, player)
            if state.person(p.card).admiral and p.card != state.fortress.commander]


def dispatch_candidates(state: GameState, player: str) -> list[str]:
    return [n for n in post_candidates(state, player) if n not in state.fortress.garrison]


def garrison_modifier(state: GameState, player: str, post: bool) -> int:
    """GC-7.21 (Q22): +2 on the roll when the plotting player holds the commander, on garrison rolls
    (and, by option, on commander-post rolls)."""
    if player != commander_player(state):
        return 0
    if post and state.options["garrison_bonus"] != "post_too":
        return 0
    return GARRISON_BONUS
