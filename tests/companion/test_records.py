"""JSON round trips of frozen dataclasses, and refusals that name the field."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Optional

import pytest

from companion.records import from_data, to_data


@dataclass(frozen=True)
class Leaf:
    name: str
    value: int
    flag: bool = False


@dataclass(frozen=True)
class Tree:
    leaf: Leaf
    leaves: tuple[Leaf, ...] = ()
    pair: tuple[int, str] = (0, "")
    maybe: Leaf | None = None
    count: Optional[int] = None
    tags: Mapping[str, int] = field(default_factory=dict)
    plain: dict[str, Any] = field(default_factory=dict)
    kind: Literal["oak", "elm"] = "oak"
    ratio: float = 0.5


TREES = {
    "defaults": Tree(Leaf("a", 1)),
    "full": Tree(Leaf("a", 1, True), (Leaf("b", 2), Leaf("c", -3, True)), (7, "seven"), Leaf("d", 4), 0,
                 {"x": 1, "y": 2}, {"any": [1, "two", None], "nested": {"k": True}}, "elm", 2.25),
    "empty-maybe": Tree(Leaf("", 0), maybe=None, count=12),
}


@pytest.mark.parametrize("tree", TREES.values(), ids=TREES.keys())
def test_round_trip_through_json(tree):
    assert from_data(Tree, json.loads(json.dumps(to_data(tree)))) == tree


def test_to_data_is_plain_json_data():
    tree = Tree(Leaf("a", 1), (Leaf("b", 2),), (3, "c"), None, 5, {"x": 1})
    assert to_data(tree) == {
        "leaf": {"name": "a", "value": 1, "flag": False},
        "leaves": [{"name": "b", "value": 2, "flag": False}],
        "pair": [3, "c"],
        "maybe": None,
        "count": 5,
        "tags": {"x": 1},
        "plain": {},
        "kind": "oak",
        "ratio": 0.5,
    }


def test_missing_fields_take_their_defaults():
    assert from_data(Tree, {"leaf": {"name": "a", "value": 1}}) == Tree(Leaf("a", 1))


def good() -> dict:
    return to_data(TREES["full"])


def changed(path: tuple, value) -> dict:
    data = good()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


WRONG = [
    (("leaf", "value"), "1", "Tree.leaf.value: expected int, got '1'"),
    (("leaf", "value"), True, "Tree.leaf.value: expected int, got True"),
    (("leaf", "name"), 5, "Tree.leaf.name: expected str, got 5"),
    (("leaf", "flag"), 1, "Tree.leaf.flag: expected true or false"),
    (("leaves", 1, "value"), None, r"Tree.leaves\[1\].value: expected int, got None"),
    (("leaves",), {"a": 1}, "Tree.leaves: expected a list"),
    (("pair",), [1], "Tree.pair: expected 2 items"),
    (("pair", 1), 2, r"Tree.pair\[1\]: expected str, got 2"),
    (("maybe",), 5, "Tree.maybe: expected an object"),
    (("maybe", "value"), "x", "Tree.maybe.value: expected int"),
    (("count",), "12", "Tree.count: expected int, got '12'"),
    (("tags", "x"), "1", "Tree.tags.x: expected int, got '1'"),
    (("tags",), [1], "Tree.tags: expected an object"),
    (("kind",), "ash", "Tree.kind: 'ash' is not one of"),
    (("ratio",), "half", "Tree.ratio: expected float"),
    (("leaf",), "a", "Tree.leaf: expected an object"),
]


@pytest.mark.parametrize("path, value, message", WRONG,
                         ids=[f"{'.'.join(map(str, path))}={value!r}" for path, value, _ in WRONG])
def test_a_field_of_the_wrong_type_is_refused_by_name(path, value, message):
    with pytest.raises(ValueError, match=message):
        from_data(Tree, changed(path, value))


def test_a_missing_required_field_is_named():
    data = good()
    del data["leaf"]["name"]
    with pytest.raises(ValueError, match="Tree.leaf: missing 'name'"):
        from_data(Tree, data)


def test_not_an_object_at_the_top():
    with pytest.raises(ValueError, match="Tree: expected an object"):
        from_data(Tree, [1, 2])


# --- companion.ui.records: a table of records the players fill in on the page ----------------------------------

def _roster():
    from companion.ui.records import CHOICE, FLAG, NUMBER, Column, RecordTable
    return RecordTable([Column("name", "name"), Column("side", "side", CHOICE, ("A", "B"), default="A"),
                        Column("strength", "strength", NUMBER, default=1), Column("x", "x", NUMBER, optional=True),
                        Column("ready", "ready", FLAG)], "unit", "roster")


def test_record_rows_round_trip():
    table = _roster()
    rows = [{"name": "First", "side": "B", "strength": 3, "x": 1.5, "ready": True},
            {"name": "Second", "side": "A", "strength": 0, "ready": False}]
    table.set_rows(rows)
    assert table.rows() == rows


def test_a_blank_record_has_its_defaults_and_no_nan():
    table = _roster()
    table.add.clicks += 1
    [cells] = table.table.value.to_dict("records")
    assert not any(isinstance(v, float) and v != v for v in cells.values())
    assert table.rows() == []                       # a row added blank is no entry until the player changes it
    frame = table.table.value.copy()
    frame.loc[0, "name"] = "First"
    table.table.value = frame
    assert table.rows() == [{"name": "First", "side": "A", "strength": 1, "ready": False}]


def test_blank_rows_added_stay_apart_from_the_entries():
    """Rows added blank are left out of the records until changed, also when others are added, removed or ticked."""
    table = _roster()
    table.set_rows([{"name": "a"}])
    for _ in range(3):
        table.add.clicks += 1
    frame = table.table.value.copy()
    frame.loc[2, "name"] = "c"
    table.table.value = frame
    assert [r.get("name") for r in table.rows()] == ["a", "c"] and len(table.table.value) == 4
    table.table.selection = [0]
    table.remove.clicks += 1
    assert [r.get("name") for r in table.rows()] == ["c"] and len(table.table.value) == 3
    table.set_rows(table.rows())
    assert len(table.table.value) == 1


def test_a_number_typed_in_a_number_column_is_an_int():
    table = _roster()
    table.set_rows([{"name": "First"}, {"name": "Second"}, {"name": "Third"}])
    frame = table.table.value.copy()
    frame.loc[0, "strength"], frame.loc[1, "strength"], frame.loc[2, "strength"] = "10", 4.0, "many"
    table.table.value = frame
    assert [r.get("strength") for r in table.rows()] == [10, 4, "many"]     # text stays text: the engine refuses it
    assert type(table.rows()[0]["strength"]) is int and type(table.rows()[1]["strength"]) is int


def test_removing_ticked_records():
    table = _roster()
    table.set_rows([{"name": n} for n in ("a", "b", "c")])
    table.table.selection = [0, 2]
    table.remove.clicks += 1
    assert [r["name"] for r in table.rows()] == ["b"] and table.table.selection == []


def test_choice_values_updated_and_changes_watched():
    table = _roster()
    seen = []
    table.on_change(lambda: seen.append(len(table.rows())))
    table.set_choices("side", ["A", "B", "C"])
    assert table.table.editors["side"].options == ["A", "B", "C"]
    table.set_rows([{"name": "a"}])
    assert seen == [1]
    with pytest.raises(ValueError, match="has no field 'colour'"):
        table.set_rows([{"name": "a", "colour": "red"}])


def test_new_choices_change_the_columns_and_never_rebuild_the_table():
    """A Tabulator whose configuration changes is built again in the browser, and rows that arrive while it is built
    are lost (a border added right after a state was named): new choices change only its columns' editors."""
    table = _roster()
    model = table.table.get_root()
    configuration = model.configuration
    table.set_choices("side", ["Union", "CSA", "Kentucky militia"])
    assert model.configuration == configuration
    side = next(c for c in model.columns if c.field == "side")
    assert side.editor.options == ["Union", "CSA", "Kentucky militia"]


class _Engine:
    """An engine that starts a game only with a name."""

    @staticmethod
    def start(rng, setup):
        if not setup.get("name"):
            raise ValueError("the game needs a name")


def _form():
    import panel_material_ui as pmui

    from companion.ui.records import SetupForm

    class Form(SetupForm):
        def __init__(self):
            super().__init__(_Engine, "Your setup", "Load the example", "setup.json")
            self.title_input = pmui.TextInput(label="name")
            self.frame([("Name", self.title_input)], [self.title_input])

        def example(self):
            return {"name": "Example"}

        def entered(self):
            return {"name": self.title_input.value} if self.title_input.value else {}

        def fill(self, setup):
            if not isinstance(setup.get("name", ""), str):
                raise ValueError("a name is text")
            self.title_input.value = setup.get("name", "")

        def opened(self, raw):
            return json.loads(raw)

        def review(self, setup):
            return ("success", f"Named {setup['name']}") if setup else None
    return Form()


def test_a_setup_form_checks_saves_and_opens_its_setup():
    form = _form()
    assert form.note.object == form.empty and not form.ready.visible
    form.load(form.example())
    assert form.note.object == "Named Example" and form.ready.object.startswith("Ready")
    saved = form.file.save.callback().getvalue()
    form.title_input.value = "Other"
    form.file.read(saved)
    assert form.entered() == {"name": "Example"}
    form.file.read('{"name": 3}')                     # refused: the form as it was, the reason shown
    assert form.entered() == {"name": "Example"} and form.note.severity == "error"
    assert form.note.object.startswith("The file is refused")
    done = form.busy.done
    assert form.setup() == {"name": "Example"} and form.busy.done == done + 1


def test_a_record_form_gives_what_is_entered():
    from companion.ui.records import CHOICE, FLAG, NUMBER, Column, RecordForm
    form = RecordForm([Column("order", "order", CHOICE, {"first": "a", "second": "b"}), Column("n", "n", NUMBER, default=1),
                       Column("size", "size", CHOICE, range(3)), Column("on", "on", FLAG), Column("note", "note")], "x")
    assert form.values() == {"n": 1, "on": False}
    form.set_values({"order": "b", "size": 2, "note": "hi"})
    assert form.values() == {"order": "b", "size": 2, "on": False, "note": "hi"}
    form.set_values({"order": ""})
    assert form.values() == {"on": False}


def test_a_record_forms_lists_and_lines():
    from companion.ui.records import LINES, SOME, Column, RecordForm
    form = RecordForm([Column("places", "places", SOME, ("a", "b")), Column("notes", "notes", LINES)], "x")
    form.set_values({"places": ["b", "c"], "notes": ["one", "two"]})
    assert form.values() == {"places": ["b", "c"], "notes": ["one", "two"]}
    form.widgets["notes"].value = " one \n\n two "
    form.set_choices("places", ["a", "b"])                     # "c" no longer offered: dropped
    assert form.values() == {"places": ["b"], "notes": ["one", "two"]}
