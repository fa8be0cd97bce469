"""The Dixie rulebook (engines/dixie/rulebook.md) against the engine: every table, cell by cell, from rules.py;
the numbers the clauses state in words; the readings in step with the session options."""
from __future__ import annotations

import re
from itertools import groupby

import pytest

from companion.rulebook import load
from engines.dixie import rules as R
from engines.dixie.options import OPTIONS
from engines.dixie.rules import CSA, USA

BOOK = load("dixie")
CHOSEN = "(unless the players choose otherwise)"   # marks the reading a new session plays
ARMS = {R.INF: "Infantry", R.CAV: "Cavalry", R.ART: "Artillery", R.LDR: "Leader"}
GAMES = {"basic": "Basic", "extended": "Extended line", "historical": "Historical battle"}
SUPPORT = {"enemy": "enemy hit", "friendly": "friendly hit", "leader": "enemy leader hit", "none": "no effect"}


def fp(value: int) -> str:
    return f"F{value}"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def faces(run: list[int]) -> str:
    """Consecutive die faces as the rulebook writes them: "6" or "1–5"."""
    return str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}"


def runs(results: dict) -> list[tuple[list[int], object]]:
    """A die table's faces in order, grouped into runs with the same result."""
    return [([face for face, _ in group], result)
            for result, group in groupby(sorted(results.items()), key=lambda item: item[1])]


LONG = R.USUAL_ART_F["fp_long"]  # DX-13.5: the long-range firepowers artillery support is read with
TABLES = {
    "DX-2.0": [(("Game", "CSA", "USA"),
                *((GAMES[game], str(size[CSA]), str(size[USA])) for game, size in R.DECK_SIZE.items()))],
    "DX-2.2": [(("Game", "Muster, each side", "CSA reinforcement deck", "USA reinforcement deck"),
                *((GAMES[game], str(R.MUSTER[game]), str(R.DECK_SIZE[game][CSA] - R.MUSTER[game]),
                   str(R.DECK_SIZE[game][USA] - R.MUSTER[game])) for game in ("basic", "extended")))],
    "DX-4.0": [(("Positions per line", "Enemy positions to occupy"),
                *((f"{width} ({', '.join(R.SLOTS[width])})", str(R.TO_WIN[width])) for width in R.SLOTS))],
    "DX-6.0": [(("Code", "Modifier"), *((code, signed(mod)) for code, mod in R.MORALE_CODES.items()))],
    "DX-7.2": [(("Firer", "When", "F"),
                ("Infantry", "engaged", fp(R.INF_F)),
                ("Cavalry", "engaged, attacking", fp(R.CAV_F["attacking"])),
                ("Cavalry", "engaged, defending", fp(R.CAV_F["defending"])),
                *(("Artillery", f"{reach} range", "as printed: usually " + " or ".join(map(fp, R.USUAL_ART_F[key])))
                  for reach, key in (("long", "fp_long"), ("short", "fp_short"))))],
    "DX-8.3b": [(("Card", "Moves per turn"), *((ARMS[kind], str(moves)) for kind, moves in R.MAX_MOVES.items()))],
    "DX-9.0": [(("Game", "CSA draws", "USA draws"),
                *((GAMES[game], str(draws[CSA]), str(draws[USA])) for game, draws in R.DRAWS.items()))],
    "DX-11.3": [(("Die", "Leader"), *((faces(run), "killed" if dead else "no effect")
                                      for run, dead in runs(R.LEADER_DEATH.results)))],
    "DX-13.1": [(("Arm", "Melee F"), *((ARMS[kind], fp(f)) for kind, f in R.MELEE_F.items()))],
    "DX-13.2": [(("Firer stands in", "F"), ("Own line", fp(R.ENFILADE_F["own"])),
                 ("Enemy line", fp(R.ENFILADE_F["enemy"])))],
    "DX-13.3": [(("Arm", "Added to the check"), *((ARMS[kind], signed(mod)) for kind, mod in R.FLANK_MORALE.items()))],
    "DX-13.5": [(("Die", *(f"Long {fp(f)}" for f in reversed(LONG))),
                 *((str(face), *(SUPPORT[R.support_table(f).results[face]] for f in reversed(LONG)))
                   for face in range(1, 7)))],
    "DX-13.8": [(("Item", "Basic", "Extended line"),
                 ("Positions per line", str(len(R.SLOTS[3])), str(len(R.SLOTS[5]))),
                 ("CSA battle deck", str(R.DECK_SIZE["basic"][CSA]), str(R.DECK_SIZE["extended"][CSA])),
                 ("USA battle deck", str(R.DECK_SIZE["basic"][USA]), str(R.DECK_SIZE["extended"][USA])),
                 ("Muster, each side", str(R.MUSTER["basic"]), str(R.MUSTER["extended"])),
                 ("Enemy positions to occupy", str(R.TO_WIN[3]), str(R.TO_WIN[5]))),
                (("Printed code", "Position on a 5-position line"),
                 *((code, R.CODE_IN_FIVE[code]) for code in R.TERRAIN_CODES))],
    "DX-13.9": [(("Side", "3-position line", "5-position line"),
                 *((side, f"{R.BP_BUDGET[3][side]} BP", f"{R.BP_BUDGET[5][side]} BP") for side in R.SIDES))],
    "DX-14.0": [(("Day", "CSA", "USA"),
                 *((str(day), *(f"{'M' if day == 1 else 'N'}{first} / R{reinforcements}"
                                for first, reinforcements in (flow[CSA], flow[USA])))
                   for day, flow in R.DAY_FLOW.items()))],
}


@pytest.mark.parametrize("rule_id", [pytest.param(rid, marks=pytest.mark.rule(rid), id=rid) for rid in TABLES])
def test_every_table_is_the_engines_cell_by_cell(rule_id):
    """Header and every cell of the clause's tables, in order, are what rules.py holds."""
    assert [list(table) for table in BOOK.clauses[rule_id].tables] == [list(table) for table in TABLES[rule_id]]


def test_every_table_in_the_rulebook_is_checked_here():
    assert {c.id for c in BOOK.clauses.values() if c.tables} == set(TABLES)


F_WORDS = ", ".join(map(fp, range(R.F_RANGE[0], R.F_RANGE[1]))) + f" or {fp(R.F_RANGE[1])}"
HISTORICAL = R.DECK_SIZE["historical"]
PHRASES = [
    ("DX-3.1", f"at most {R.STACK_LIMIT} unit cards in a position"),
    ("DX-3.1", f"(+{R.STACK_BONUS[1]} or +{R.STACK_BONUS[2]})"),
    ("DX-11.2", f"stack bonus of +{R.STACK_BONUS[1]} or +{R.STACK_BONUS[2]}"),
    ("DX-3.3", f"at most {R.MAX_TERRAIN} in a position"),
    ("DX-11.0a", f"at most {R.MAX_TERRAIN} terrain cards"),
    ("DX-10.2", f"never more than {R.MAX_TERRAIN} in a position"),
    ("DX-11.0b", f"at most {R.MAX_LEADERS} leader in a position"),
    ("DX-12.0", f"At most {R.MAX_SPECIALS} specials"),
    ("DX-6.0", f"natural {R.NATURAL_PASS} always passes and a natural {R.NATURAL_FAIL} always fails"),
    ("DX-13.3", f"natural {R.NATURAL_FAIL} fails and a natural {R.NATURAL_PASS} passes"),
    ("DX-7.1", f"combat value (CV) of {R.CV_RANGE[0]} to {R.CV_RANGE[1]}"),
    ("DX-7.2", f"firepower ({F_WORDS})"),
    ("DX-7.2", f"Horse artillery ({R.HORSE_ARTILLERY} cards"),
    ("DX-11.3", f"Every natural {R.LEADER_HIT_FACE} that enemy fire rolls"),
    ("DX-4.0", f"occupy {R.TO_WIN[3]} of the {len(R.SLOTS[3])} positions"),
    ("DX-4.0", f"({R.TO_WIN[5]} of {len(R.SLOTS[5])} on the extended line)"),
    ("DX-5.0", f"the {R.FIRST_SIDE} plays the first turn"),
    ("DX-9.0", f"the CSA draws {R.DRAWS['basic'][CSA]}, the USA {R.DRAWS['basic'][USA]} "
               f"({R.DRAWS['historical'][USA]} in the historical battle)"),
    ("DX-14.0", f"USA {HISTORICAL[USA]} and CSA {HISTORICAL[CSA]} cards"),
    ("DX-14.0", f"the USA draws only {R.DRAWS['historical'][USA]} reinforcement a turn"),
    ("DX-14.0", f"sets aside the next {R.DAY_FLOW[2][CSA][1]} reinforcements"),
    ("DX-14.0", f"by the end of day {R.DAYS}"),
]


@pytest.mark.parametrize("rule_id, phrase", [pytest.param(rid, phrase, marks=pytest.mark.rule(rid), id=rid)
                                             for rid, phrase in PHRASES])
def test_a_number_a_clause_states_in_words_is_the_engines(rule_id, phrase):
    assert phrase in BOOK.clauses[rule_id].text


def readings(rule_id: str) -> list[str] | None:
    """The bullets under the clause's "Readings:" line, or None without one."""
    lines = BOOK.clauses[rule_id].text.splitlines()
    if "Readings:" not in lines:
        return None
    bullets = []
    for line in lines[lines.index("Readings:") + 1:]:
        if not line.startswith("- "):
            break
        bullets.append(line)
    return bullets


@pytest.mark.parametrize("rule_id", [pytest.param(rid, marks=pytest.mark.rule(rid), id=rid) for rid in R.RULES])
def test_readings_are_the_options_choices_in_order_with_the_sessions_own_marked(rule_id):
    """A clause has readings exactly when an option names its rule: one bullet per choice, option by option in
    the order of the options, the choice a new session plays marked as such."""
    options = [o for o in OPTIONS if o.rule == rule_id]
    if not options:
        assert readings(rule_id) is None
        return
    expected = [type(value) is type(o.default) and value == o.default for o in options for value, _ in o.choices]
    assert [CHOSEN in bullet for bullet in readings(rule_id)] == expected


def test_no_developer_words_in_the_clauses():
    """Plain words for the table: no ambiguity or vector labels, no talk of digests, sources or defaults."""
    for clause in BOOK.clauses.values():
        text = f"{clause.title}\n{clause.text}"
        assert not re.search(r"\b(A\d{1,2}|TV-\d+)\b|digest|source|default", text, re.IGNORECASE), clause.id


def test_the_book_is_the_games_and_searchable_by_its_own_terms():
    assert BOOK.title == "Dixie: Gettysburg: the rules in brief" and not BOOK.problems
    assert [c.id for c in BOOK.search("DX-8.3b")] == ["DX-8.3b"]
    assert "DX-13.2" in [c.id for c in BOOK.search("enfilade woods")]
    assert "DX-3.2" in [c.id for c in BOOK.search("Middle Ground")]
