"""A game's rulebook: every rule ID's clause in the project's own words, kept beside the engine.

`engines/<slug>/rulebook.md` is Markdown in one shape:

    # <the game's title>: the rules in brief
    ## <a section of the rules>
    ### <RULE-ID> <the clause's title>
    <paragraphs; tables as pipe tables>
    Readings: <optional: the readings a session's options choose between, as a list>
    See also: <RULE-ID>, <RULE-ID>

`load(slug)` parses it (cached) into `Clause`s by section; `check(rulebook, rules)` says what is wrong
with it against the engine's rule IDs (an ID without text, text for an unknown ID, a table that does not
parse, a reference to an unknown ID). `search(words)` finds clauses by any word of their ID, title, text
or tables (English, and the game's own terms as the rulebook writes them).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Mapping

ENGINES = Path(__file__).resolve().parent.parent / "engines"
SEE_ALSO = re.compile(r"^see also:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Clause:
    id: str
    title: str
    section: str
    text: str                                   # Markdown: paragraphs, lists and pipe tables
    tables: tuple[tuple[tuple[str, ...], ...], ...] = ()
    see: tuple[str, ...] = ()

    def markdown(self) -> str:
        """The clause as Markdown (for a notebook cell): its ID and title as a heading, then its text."""
        see = f"\n\nSee also: {', '.join(self.see)}" if self.see else ""
        return f"#### {self.id} {self.title}\n\n{self.text}{see}"

    def words(self) -> str:
        cells = " ".join(c for table in self.tables for row in table for c in row)
        return fold(f"{self.id} {self.title} {self.text} {cells}")


@dataclass
class Rulebook:
    slug: str
    title: str
    sections: list[tuple[str, list[Clause]]] = field(default_factory=list)
    clauses: dict[str, Clause] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def search(self, query: str) -> list[Clause]:
        """The clauses with every word of the query (in any order): an ID first, then by how often they match."""
        words = fold(query).split()
        if not words:
            return []
        exact = [c for c in self.clauses.values() if fold(c.id) == fold(query).strip()]
        found = [c for c in self.clauses.values() if all(w in c.words() for w in words)]
        found.sort(key=lambda c: -sum(c.words().count(w) for w in words))
        return exact + [c for c in found if c not in exact]


def fold(text: str) -> str:
    """Text for matching: case and width folded (full-width letters and digits match plain ones)."""
    return unicodedata.normalize("NFKC", text).casefold()


def parse_table(lines: list[str]) -> tuple[tuple[str, ...], ...] | str:
    """The rows of a pipe table (its header and body, the rule line dropped), or what is wrong with it."""
    rows = [tuple(cell.strip() for cell in line.strip().strip("|").split("|")) for line in lines]
    if len(rows) < 2 or not all(re.fullmatch(r":?-{3,}:?", c) for c in rows[1]):
        return "its second line is not the |---| line under the header"
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        return f"its rows have {sorted(widths)} cells, not one number"
    return (rows[0], *rows[2:])


def parse(slug: str, text: str) -> Rulebook:
    book = Rulebook(slug, "")
    section, clause, body = "", None, []

    def finish() -> None:
        if clause is None:
            return
        cid, title = clause
        tables, see, kept, block = [], (), [], []
        for line in [*body, ""]:
            if line.strip().startswith("|"):
                block.append(line)
                continue
            if block:
                table = parse_table(block)
                if isinstance(table, str):
                    book.problems.append(f"{cid}: a table does not parse: {table}")
                else:
                    tables.append(table)
                kept.extend(block)
                block = []
            match = SEE_ALSO.match(line.strip())
            if match:
                see = tuple(x.strip() for x in match.group(1).split(",") if x.strip())
            else:
                kept.append(line)
        if cid in book.clauses:
            book.problems.append(f"{cid}: written twice")
        book.clauses[cid] = Clause(cid, title, section, "\n".join(kept).strip(), tuple(tables), see)
        book.sections[-1][1].append(book.clauses[cid])

    for line in text.splitlines():
        if line.startswith("# ") and not book.title:
            book.title = line[2:].strip()
        elif line.startswith("## "):
            finish()
            clause, body = None, []
            section = line[3:].strip()
            book.sections.append((section, []))
        elif line.startswith("### "):
            finish()
            cid, _, title = line[4:].strip().partition(" ")
            clause, body = (cid, title.strip()), []
            if not book.sections:
                book.problems.append(f"{cid}: a clause before any section")
                book.sections.append(("", []))
        elif clause is not None:
            body.append(line)
    finish()
    return book


@cache
def load(slug: str) -> Rulebook:
    """The rulebook of a game (parsed once)."""
    path = ENGINES / slug / "rulebook.md"
    return parse(slug, path.read_text(encoding="utf-8")) if path.is_file() else Rulebook(slug, "", problems=[
        f"{slug}: no rulebook ({path.name})"])


def check(book: Rulebook, rules: Mapping[str, str]) -> list[str]:
    """What is wrong with a rulebook against the engine's rule IDs (nothing: [])."""
    problems = list(book.problems)
    problems += [f"{rid}: no clause in the rulebook" for rid in rules if rid not in book.clauses]
    problems += [f"{cid}: not a rule ID of the engine" for cid in book.clauses if cid not in rules]
    problems += [f"{c.id}: an empty clause" for c in book.clauses.values() if not c.text]
    problems += [f"{c.id}: refers to {ref}, which is not a clause" for c in book.clauses.values() for ref in c.see
                 if ref not in book.clauses]
    return problems
