"""Whole games played at random by legal choices (tests/engines/games.py), for 3 to 5 players with every option at
random, from the example (fictional) cards and from small random card sets entered within the card rules. After
every step: every card is in exactly one place, hands keep to the limit, VP never fall, a person is in play once,
Iserlohn's posts are held by persons in play of the controlling camp, a battle's field fits its units and no side
commits beyond the size, the turn passes to the left; undo gives back the state before and redo the state after.
At the end: the game is over, the winners have the best score and a clique in the winning camp scores its
persons (GC-9.2, Q40); the saved log replays to the same state."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import RuleError
from companion.store import Store
from engines.galactic_chess import ENGINE
from engines.galactic_chess import battle as fight
from engines.galactic_chess.cards import event_from_row
from engines.galactic_chess.example import example_setup
from engines.galactic_chess.options import OPTIONS
from engines.galactic_chess.rules import EFFECTS, ENDED, EVENT_KINDS, GARRISON_MAX, HAND_LIMIT
from engines.galactic_chess.sortie import committed_fleets
from engines.galactic_chess.state import BATTLE, CARD, ORDER, OVER, misplaced
from tests.engines.games import play_whole_game
from tests.scale import examples

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS})


def _entered(kind: str, effect: str) -> bool:
    try:
        event_from_row({"name": "E", "period": 1, "kind": kind, "effect": effect, "size": 2})
    except RuleError:
        return False
    return True


EVENT_TYPES = [(kind, effect) for kind in EVENT_KINDS for effect in EFFECTS if _entered(kind, effect)]
ROLES = {"reinhard": ("EMP", True), "stockhausen": ("EMP", True), "seeckt": ("EMP", True),
         "kircheis": ("EMP", False), "rubinsky": ("FEZ", False)}   # digest section 10: the persons the rules name


@st.composite
def persons(draw) -> list[dict]:
    """4 to 12 persons (digest section 2): mostly Imperial and Alliance, whole-number values with which a strike
    can hit (defence - attack <= 12) and a plot can succeed (3..12); rebel camps on their own nation's persons
    only; air/ground units only star-less; each role the rules name on at most one person of its camp."""
    rows = []
    for i in range(draw(st.integers(4, 12))):
        camp = draw(st.sampled_from(["EMP", "EMP", "FPA", "FPA", "FEZ"]))
        stars = draw(st.sampled_from([0, 1, 2, 2, 3]))
        plot = draw(st.none() | st.integers(3, 12))
        row = {"name": f"Test Person {i}", "period": draw(st.sampled_from([1, 1, 1, 2, 3, 4])), "camp": camp,
               "stars": stars, "strategy": draw(st.integers(1, 7)), "attack": draw(st.integers(0, 4)),
               "defence": draw(st.integers(5, 12)), "plot": plot,
               "counter_only": plot is not None and draw(st.booleans()),
               "never_changes_camp": draw(st.integers(0, 5)) == 0}
        if camp != "FEZ" and draw(st.booleans()):
            row["rebel_camp"] = {"EMP": "NOBLE", "FPA": "MCSR"}[camp]
        if not stars:
            row["fights"] = draw(st.booleans())
        rows.append(row)
    for role, (camp, admiral) in ROLES.items():
        free = [r for r in rows if r["camp"] == camp and "role" not in r and (r["stars"] > 0 or not admiral)]
        if free and draw(st.booleans()):
            draw(st.sampled_from(free))["role"] = role
    return rows


@st.composite
def events(draw) -> list[dict]:
    """Up to 8 events of the kinds and effects the card entry accepts (GC-11), some printing a prerequisite."""
    rows = []
    for i in range(draw(st.integers(0, 8))):
        kind, effect = draw(st.sampled_from(EVENT_TYPES))
        rows.append({"name": f"Test Event {i}", "period": draw(st.sampled_from([1, 1, 2, 3, 4])), "kind": kind,
                     "effect": effect, "size": draw(st.integers(1, 4)) if effect == "invasion" else 0,
                     "prerequisite": draw(st.sampled_from(["", "", "Test: a printed prerequisite"]))})
    return rows


@st.composite
def card_sets(draw) -> dict:
    """A session's setup: 3 to 5 players, any first player, a small set of invented cards and a fortress card."""
    players = list(NAMES[:draw(st.integers(3, 5))])
    fortress = {"strategy": draw(st.integers(1, 7)), "attack": draw(st.integers(0, 5)),
                "defence": draw(st.integers(6, 12))}
    return {"players": players, "first_player": draw(st.sampled_from(players)), "persons": draw(persons()),
            "events": draw(events()), "fortress": fortress}


def check(before, action, step) -> None:
    """The invariants of one step."""
    after = step.state
    assert not misplaced(after), misplaced(after)
    for seat, hand in enumerate(after.hands):     # GC-6A.1: 7 only between the active player's draw and card
        assert len(hand) <= HAND_LIMIT + (seat == after.active and after.phase == CARD), (seat, hand)
    for player in after.players:                  # GC-6B.7: VP are only ever gained
        for camp in set(after.vp.get(player, {})) | set(before.vp.get(player, {})):
            assert after.vp_of(player, camp) >= max(before.vp_of(player, camp), 0)
    in_play = [p.card for p in after.in_play]
    assert len(in_play) == len(set(in_play))
    f = after.fortress                            # GC-7.21, Q23, Q41: posts of the controlling camp
    assert len(f.posted) <= GARRISON_MAX and f.commander not in f.garrison
    assert all(after.placed(n) and after.placed(n).camp == f.controller for n in f.posted), f
    if after.phase == BATTLE:                     # GC-6B.12 (Q7): no side beyond the size
        s = after.sortie
        assert fight.fits(s.units, s.field)
        assert all(committed_fleets(s, side, after.options["fortress_counts"]) <= s.size for side in fight.SIDES)
    if action["type"] == "end_turn" and after.phase == ORDER:   # GC-4: the player on the left goes next
        assert after.active == before.left_of(before.active) and after.turn == before.turn + 1
    assert all(after.war_winner.get(n) for n, war in after.civil_war.items() if war == ENDED)   # GC-8.3


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    """One store for every game of the module (a store opened per game cost a quarter of the game's time)."""
    return Store(tmp_path_factory.mktemp("games"))


def play(options, setup, seed, store: Store) -> None:
    state = play_whole_game(ENGINE, options, setup, seed, check, store).state
    assert state.phase == OVER, f"random play stopped in the {state.phase} phase"
    o = state.outcome
    best = max((o.scores[p], o.stars[p]) for p in state.players)
    assert o.camps and o.winners == tuple(p for p in state.players if (o.scores[p], o.stars[p]) == best)
    for p in state.players:                       # GC-9.2: 1 per person card of the clique in the winning camp
        assert o.scores[p] >= sum(1 for x in state.in_play if x.owner == p and x.camp in o.camps)


@pytest.mark.rule("GC-3", "GC-4", "GC-6A.1", "GC-6B.7", "GC-9.0", "GC-9.2")
@settings(max_examples=examples(100), deadline=None)
@given(players=st.integers(3, 5), options=OPTION_CHOICES, seed=st.integers(0, 2 ** 32))
def test_whole_games_with_the_example_cards(players, options, seed, store):
    play(options, example_setup(NAMES[:players]), seed, store)


@pytest.mark.rule("GC-3", "GC-4", "GC-6A.1", "GC-6B.7", "GC-7.21", "GC-8.3", "GC-9.0", "GC-9.2")
@settings(max_examples=examples(900), deadline=None)
@given(options=OPTION_CHOICES, setup=card_sets(), seed=st.integers(0, 2 ** 32))
def test_whole_games_with_random_cards(options, setup, seed, store):
    play(options, setup, seed, store)
