"""Every engine's rulebook (engines/<slug>/rulebook.md) against its rule IDs, both ways, and the parser."""
from __future__ import annotations

import pytest

import engines
from companion.rulebook import check, load, parse

ENGINES = engines.registry()


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_every_rule_id_has_its_clause_and_every_clause_its_rule_id(engine):
    """No ID without text, no text without ID, every table parses, every reference is a clause."""
    assert check(load(engine.slug), engine.rules) == []


BOOK = """# Toy: the rules in brief
## Combat
### T-1 Fire
Roll one die.

| roll | hits |
| --- | --- |
| 1-3 | 0 |
| 4-6 | 1 |

See also: T-2
### T-2 Retreat
The loser steps back; 要塞対要塞 is a card.
## Victory
### T-3 Winning
Most points.
See also: T-9
"""


def test_the_parser_reads_sections_clauses_tables_and_references():
    book = parse("toy", BOOK)
    assert book.title == "Toy: the rules in brief"
    assert [(name, [c.id for c in clauses]) for name, clauses in book.sections] == [
        ("Combat", ["T-1", "T-2"]), ("Victory", ["T-3"])]
    fire = book.clauses["T-1"]
    assert fire.title == "Fire" and fire.tables == ((("roll", "hits"), ("1-3", "0"), ("4-6", "1")),)
    assert fire.see == ("T-2",) and "See also" not in fire.text
    assert check(book, {"T-1": "", "T-2": "", "T-3": "", "T-4": ""}) == [
        "T-4: no clause in the rulebook", "T-3: refers to T-9, which is not a clause"]


def test_a_table_that_does_not_parse_is_named():
    book = parse("toy", "# T\n## S\n### T-1 A\ntext\n\n| a | b |\n| c |\n")
    assert book.problems == ["T-1: a table does not parse: its second line is not the |---| line under the header"]


def test_search_by_id_and_by_any_word_in_any_order():
    book = parse("toy", BOOK)
    assert [c.id for c in book.search("t-2")] == ["T-2"]
    assert [c.id for c in book.search("die roll")] == ["T-1"]
    assert [c.id for c in book.search("要塞対要塞")] == ["T-2"]
    assert [c.id for c in book.search("ＲＯＬＬ")] == ["T-1"]  # full-width letters match
    assert book.search("") == []
