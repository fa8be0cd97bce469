"""Every game's setup editor (companion.ui.records): a row added with "Add a ..." is no entry until the player changes
it, so no note says anything about it before (neither on an empty setup nor on a valid one); once the player has
typed in it, it is checked with the rest and the notes say what they find."""
from __future__ import annotations

import pytest

from apps.border_states import BoardEditor
from apps.bull_run import RosterEditor
from apps.dixie import CardEditor as DixieCards
from apps.galactic_chess import CardEditor as GalacticCards
from apps.house_divided import SetupEditor
from companion.ui.records import RecordTable
from tests.widgets import click, find

pytestmark = pytest.mark.usefixtures("panel_extensions")

EDITORS = {"bull_run": RosterEditor, "dixie": DixieCards, "border_states": BoardEditor,
           "galactic_chess": GalacticCards, "house_divided": SetupEditor}


def tables(editor) -> list[RecordTable]:
    """The tables the page offers an "Add a ..." button for."""
    found = [t for t in vars(editor).values() if isinstance(t, RecordTable)]
    found += [t for group in vars(editor).values() if isinstance(group, dict) for t in group.values()
              if isinstance(t, RecordTable)]
    return [t for t in found if t.add in t.__panel__().select(lambda o: o is t.add)]


def notes(editor) -> list:
    return [(n.severity, n.object, n.visible) for n in (editor.note, getattr(editor, "ready", None)) if n is not None]


def typed(table: RecordTable, row: int, text: str) -> None:
    """The player types `text` into the first cell of a row."""
    frame = table.table.value.copy()
    frame.iloc[row, 0] = text
    table.table.value = frame


@pytest.mark.parametrize("example", [False, True], ids=["empty", "example"])
@pytest.mark.parametrize("slug", EDITORS)
def test_a_row_added_says_nothing_until_the_player_changes_it(slug, example):
    editor = EDITORS[slug]()
    if example:
        click(find(editor, "load-example"))
    before = notes(editor)
    assert editor.note.severity != "error"
    offered = tables(editor)
    assert offered
    for table in offered:
        entered = table.rows()
        click(table.add)
        assert len(table.table.value) == len(entered) + 1 and table.rows() == entered
        assert notes(editor) == before, table.what
    table = offered[0]
    typed(table, len(table.table.value) - 1, "x")
    assert table.rows()[-1] != {} and notes(editor) != before
