"""What a game's setup editor is made of, for any game: tables of records the players fill in on the page, the
setup saved as a file and opened again, and the start's progress.

`RecordTable` (a map's boxes, a roster of units, a deck of cards): one row per record, a column per field, "Add a
..." for a blank row of defaults and "Remove ticked". Columns are declared once, with their kind: text, number,
choice (of values that can change, e.g. the boxes of the map being entered) or flag. An empty cell stays empty
(never "NaN"); `rows()` gives clean dicts for an engine's setup: empty cells left out, flags as bools, whole
numbers as ints (a number typed as text too). A row added blank is no entry until the player changes it: nothing is
checked or said about it before.

`SetupFile`: open or paste a setup file (the game's bounded loader reads it; one refused changes nothing and says
why) and save the setup entered as JSON. `StartProgress`: after "Start the game", a busy bar and the button held
until the server has answered.
"""
from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import pandas as pd
import panel as pn
import panel_material_ui as pmui
import param
from bokeh.models import CellEditor, CheckboxEditor, NumberEditor, SelectEditor, StringEditor
from panel.custom import JSComponent

from ..loading import DEFAULT as LIMITS
from ..quoting import quote
from .text import Note, Text, plain
from .theme import TOUCH

TEXT, NUMBER, CHOICE, FLAG = "text", "number", "choice", "flag"
SOME, LINES = "some", "lines"  # a one-record form's fields only: some of the values (a list), lines of text (a list)


@dataclass(frozen=True)
class Column:
    """One field of the records: its key in the data, its title on the page, its kind, the values of a
    choice, whether it may stay empty (said in its title), and what a new row holds."""

    key: str
    title: str
    kind: str = TEXT
    values: Sequence[Any] = ()
    optional: bool = False
    default: Any = None


def _clean(value: Any, kind: str) -> Any:
    """A cell as data: None when empty, numbers as ints when whole, flags as bools."""
    if hasattr(value, "item"):          # numpy scalars
        value = value.item()
    if kind == FLAG:
        return bool(value) if value is not None and not (isinstance(value, float) and math.isnan(value)) else False
    if isinstance(value, str):
        value = value.strip()
        if kind == NUMBER and value:
            try:
                value = float(value) if any(c in value for c in ".eE") else int(value)
            except ValueError:
                return value            # the engine refuses it with its own message
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    return value


class RecordTable(pn.viewable.Viewer):
    """An editable table of records (Tabulator) with its "Add a <what>" and "Remove ticked" buttons."""

    def __init__(self, columns: Sequence[Column], what: str, css: str, height: int = 250,
                 new_row: Callable[[list[dict]], dict] | None = None, **params):
        """`new_row(rows)`: what a new row holds besides the columns' defaults, given the rows so far (e.g. a
        place of its own for a new box on a drawn map)."""
        super().__init__(**params)
        self.columns, self.what, self._new_row = tuple(columns), what, new_row
        self._kinds = {c.key: c.kind for c in self.columns}
        self._watchers: list[Callable[[], None]] = []
        self._fresh: dict[int, dict] = {}  # rows added blank and not changed since: index -> the row as added
        self.table = pn.widgets.Tabulator(
            self._frame([]), show_index=False, selectable="checkbox", sizing_mode="stretch_width", height=height,
            editors={c.key: self._editor(c) for c in self.columns}, css_classes=[css],
            formatters={c.key: {"type": "tickCross"} for c in self.columns if c.kind == FLAG},
            titles={c.key: c.title + (" (optional)" if c.optional else "") for c in self.columns})
        self.table.param.watch(lambda _: self._changed(), "value")
        name = what.replace(" ", "-")
        self.add = pmui.Button(label=f"Add a {what}", variant="outlined", css_classes=[f"add-{name}"], **TOUCH)
        self.add.on_click(lambda _: self.add_row())
        self.remove = pmui.Button(label="Remove ticked", variant="outlined", css_classes=[f"remove-{name}"], **TOUCH)
        self.remove.on_click(lambda _: self.remove_ticked())

    @staticmethod
    def _editor(c: Column) -> CellEditor:
        """A column's editor, as a Bokeh model: new choices then change the table's columns in the browser, where a
        Tabulator editor given as a dict rebuilds the whole table, and rows that arrive while it rebuilds are lost."""
        return {TEXT: StringEditor, NUMBER: lambda: NumberEditor(step=1), FLAG: CheckboxEditor,
                CHOICE: lambda: SelectEditor(options=list(c.values))}[c.kind]()

    def _frame(self, rows: Sequence[dict]) -> pd.DataFrame:
        """Rows as the table holds them: object columns, so an empty number cell is empty, not NaN."""
        blank = {FLAG: False}
        return pd.DataFrame([[r.get(c.key, blank.get(c.kind)) for c in self.columns] for r in rows],
                            columns=[c.key for c in self.columns], dtype=object)

    def blank(self, rows: Sequence[dict] = ()) -> dict:
        """A new row: each column's default (flags unticked, the rest empty unless a default is given)."""
        return {**{c.key: c.default for c in self.columns if c.default is not None},
                **(self._new_row(list(rows)) if self._new_row else {})}

    def _record(self, cells: dict) -> dict:
        """A row as data: empty cells left out, flags as bools, whole numbers as ints."""
        row = {c.key: _clean(cells.get(c.key, False if c.kind == FLAG else None), c.kind) for c in self.columns}
        return {k: v for k, v in row.items() if v is not None}

    def _cells(self) -> list[dict]:
        """Every row of the table as data, a blank one added and not changed since included."""
        return [self._record(r) for r in self.table.value.to_dict("records")]

    def rows(self) -> list[dict]:
        """The records entered: empty cells left out, flags as bools, whole numbers as ints; a row added blank and not
        changed since is left out (the player has entered nothing in it yet)."""
        return [r for i, r in enumerate(self._cells()) if self._fresh.get(i) != r]

    def add_row(self) -> None:
        """A blank row at the end ("Add a ..."), no entry until the player changes it."""
        cells = self._cells()
        blank = self.blank(cells)
        self._show(cells + [blank], {**self._fresh, len(cells): self._record(blank)})

    def _show(self, rows: Sequence[dict], fresh: dict[int, dict]) -> None:
        self._fresh = fresh
        self.table.value = self._frame(rows)

    def set_rows(self, rows: Sequence[dict]) -> None:
        """Show these records (dicts of the columns' keys; ValueError for anything else)."""
        if not isinstance(rows, (list, tuple)) or not all(isinstance(r, dict) for r in rows):
            raise ValueError(f"The {self.what}s are a list of rows of fields")
        unknown = sorted({str(k) for r in rows for k in r} - set(self._kinds))
        if unknown:
            raise ValueError(f"A {self.what} has no field {quote(unknown[0])}: the fields are {', '.join(self._kinds)}")
        self._show(rows, {})

    def remove_ticked(self) -> None:
        ticked = set(self.table.selection)
        self.table.selection = []
        cells = self._cells()
        kept = [i for i in range(len(cells)) if i not in ticked]
        self._show([cells[i] for i in kept], {n: self._fresh[i] for n, i in enumerate(kept) if i in self._fresh})

    def set_choices(self, key: str, values: Sequence[Any]) -> None:
        """New values for a choice column (e.g. the boxes entered so far)."""
        if self.table.editors[key].options != list(values):
            self.table.editors = {**self.table.editors, key: SelectEditor(options=list(values))}

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call `callback()` whenever the records change (typed, added, removed or set)."""
        self._watchers.append(callback)

    def _changed(self) -> None:
        for callback in self._watchers:
            callback()

    def __panel__(self):
        return pn.Column(self.table, pn.Row(self.add, self.remove), sizing_mode="stretch_width")


class SetupFile(pn.viewable.Viewer):
    """A setup opened from a file or pasted, and saved as a JSON file that opens again as the same setup.
    `read(raw)` turns a file's text into a setup (the game's bounded loader: it raises with a clear message),
    `entered()` gives the setup as the form holds it, `load(setup)` fills the form; a file refused puts the form
    back as it was and says why in `note`."""

    def __init__(self, read: Callable[[str | bytes], dict], entered: Callable[[], dict],
                 load: Callable[[dict], None], filename: str, note: pmui.Alert, **params):
        super().__init__(**params)
        self._read, self._entered, self._load, self.note = read, entered, load, note
        self.upload = pmui.FileInput(label="Open a setup file (JSON or YAML)", accept=".json,.yaml,.yml",
                                     css_classes=["setup-file"])
        self.upload.param.watch(lambda e: self.read(e.new) if e.new else None, "value")
        self.paste = pmui.TextAreaInput(label="Or paste a setup file", rows=4, sizing_mode="stretch_width",
                                        max_length=LIMITS.bytes, css_classes=["setup-paste"])
        self.read_pasted = pmui.Button(label="Read the pasted file", variant="outlined", css_classes=["read-setup"],
                                       **TOUCH)
        self.read_pasted.on_click(lambda _: self.read(self.paste.value_input or self.paste.value or ""))
        self.save = pmui.FileDownload(label="Save this setup as a file", filename=filename, css_classes=["save-setup"],
                                      callback=lambda: io.StringIO(json.dumps(self._entered(), indent=1)), **TOUCH)

    def read(self, raw: str | bytes) -> None:
        before = self._entered()
        try:
            self._load(self._read(raw))
        except Exception as exc:  # noqa: BLE001 (a player's file: whatever fails is refused, shown, nothing changed)
            self._load(before)
            self.note.param.update(severity="error", object=plain(f"The file is refused: {exc}"))

    def __panel__(self):
        return pn.Column(self.save, self.upload, self.paste, self.read_pasted, sizing_mode="stretch_width")


class StartProgress(JSComponent):
    """After "Start the game", while the game is built: a busy bar, and the button not to be tapped again (until
    the server has answered: `done` counts its answers)."""

    done = param.Integer(default=0)
    _stylesheets = [".starting { font-size: 16px; padding: 8px 0; } .starting::after { content: ''; display: block; "
                    "height: 6px; margin-top: 4px; background: linear-gradient(90deg, #0072B2 40%, #cfe3f1 40%); "
                    "background-size: 200% 100%; animation: busy 1s linear infinite; } "
                    "@keyframes busy { from { background-position: 100% 0; } to { background-position: -100% 0; } }"]
    _esm = """
    export function render({ model, el }) {
      const bar = document.createElement('div');
      bar.className = 'starting'; bar.textContent = 'Building the game\u2026'; bar.hidden = true; el.append(bar);
      let held = null;
      const hold = (on) => { if (held) { held.style.pointerEvents = on ? 'none' : ''; held.style.opacity = on ? '.5' : '';
                                         held.setAttribute('aria-disabled', on ? 'true' : 'false'); } };
      const tapped = (event) => {
        const start = event.composedPath().find((x) => x.classList && x.classList.contains('start-game'));
        if (start) { held = start; hold(true); bar.hidden = false; }
      };
      document.addEventListener('click', tapped, true);
      model.on('done', () => { hold(false); bar.hidden = true; });
      model.on('remove', () => document.removeEventListener('click', tapped, true));
    }"""

    def answered(self) -> None:
        """The start has been answered (the game opened, or a message says why not): the bar goes."""
        doc = pn.state.curdoc if pn.state.curdoc and pn.state.curdoc.session_context else None
        doc.add_next_tick_callback(lambda: self.param.update(done=self.done + 1)) if doc else \
            self.param.update(done=self.done + 1)


class SetupForm(pn.viewable.Viewer):
    """The frame of a game's setup editor (what companion.ui.shell asks of one): the game's sections one after
    another under numbered headings, its example, the setup file (open, paste, save), a note on the entries, a note
    on whether the game can start (the engine starts it as a try), the start's progress.

    A game subclasses it and gives `entered()` (the setup as the form holds it, also while incomplete), `fill(setup)`
    (the form from a setup; raise with a clear message for an entry it cannot hold), `opened(raw)` (the setup a
    file gives, through the game's bounded loader) and `review(setup)`: (severity, text) for the note, None while
    nothing is entered, raise for what is not valid yet."""

    def __init__(self, engine, heading: str, example: str, filename: str, **params):
        super().__init__(**params)
        self.engine, self._filling, self._heading, self._example = engine, False, heading, example
        self.note, self.ready = (Note(severity="info", sizing_mode="stretch_width", css_classes=[c])
                                 for c in ("review-note", "setup-note"))
        self.busy = StartProgress(sizing_mode="stretch_width", css_classes=["start-progress"])
        self.file = SetupFile(self.opened, self.entered, self.load, filename, self.note)
        self._layout = pn.Column(sizing_mode="stretch_width")

    def frame(self, sections: Sequence[tuple[str, Any]], watched: Sequence = ()) -> None:
        """Lay out the sections (heading, part) and check the entries whenever a watched widget or table changes."""
        for w in watched:
            (w.on_change(self._changed) if isinstance(w, RecordTable) else
             w.param.watch(lambda _: self._changed(), "value"))
        example = pmui.Button(label=self._example, variant="outlined", css_classes=["load-example"], **TOUCH)
        example.on_click(lambda _: self.load(self.example()))
        self._layout.objects = [
            Text(self._heading, variant="h6"), example, self.file, self.note,
            *(x for n, (head, part) in enumerate(sections, 1)
              for x in (Text(f"{n}. {head}", variant="subtitle1"), part)), self.ready, self.busy]
        self.check()

    def load(self, setup: dict) -> None:
        """The form from a setup (a file's, the example's), checked once at the end."""
        self._filling = True
        try:
            self.fill(setup)
        finally:
            self._filling = False
        self.check()

    def setup(self) -> dict:
        """The setup to start the game with (the start answered: the busy bar goes)."""
        self.busy.answered()
        return self.entered()

    def _changed(self) -> None:
        if not self._filling:
            self.check()

    empty = "Enter your setup, open or paste your file, or load the example."  # the note while nothing is entered
    invalid = "Not valid yet: "

    def check(self) -> None:
        """The notes: the game's review of the entries, then whether the engine can start the game with them."""
        setup = self.entered()
        try:
            severity, text = self.review(setup) or ("info", None)
        except Exception as exc:  # noqa: BLE001 (entered data: whatever fails is shown)
            severity, text = "error", f"{self.invalid}{exc}"
        self.note.param.update(severity=severity, object=self.empty if text is None else plain(text))
        self.ready.visible = severity != "error" and text is not None
        if self.ready.visible:
            try:
                self.engine.start(None, setup)
                self.ready.param.update(severity="success", object="Ready: choose the options and start the game.")
            except Exception as exc:  # noqa: BLE001
                self.ready.param.update(severity="error", object=plain(f"Not ready: {exc}"))

    def __panel__(self):
        return self._layout


class RecordForm(pn.viewable.Viewer):
    """One record entered in a form (e.g. a game's settings from its own rulebook), a control per field of the
    columns' kinds: a choice a select ("(not entered)" unless it has a default; its values a list, or a mapping of
    label to value), a number a whole-number field, a flag a switch, text a text field, "some" of the values chips
    in a list, "lines" a text area read a line each. `values()` gives what is entered (empty fields left out);
    `set_values(record)` shows a record (a field it lacks, or "", is empty); `set_choices` changes a field's values."""

    def __init__(self, fields: Sequence[Column], css: str, **params):
        super().__init__(**params)
        self.widgets = {f.key: self._widget(f, [f"{css}-" + "".join(c if c.isalnum() or c in "_-" else "_"
                                                                      for c in str(f.key))]) for f in fields}

    @staticmethod
    def _widget(f: Column, css: list[str]):
        if f.kind == CHOICE:
            values = dict(f.values) if isinstance(f.values, dict) else {str(v): v for v in f.values}
            return pmui.Select(label=f.title, options={**({} if f.default is not None else {"(not entered)": None}),
                                                       **values}, value=f.default, css_classes=css,
                               width=180 if all(len(k) < 12 for k in values) else 360)
        if f.kind == NUMBER:
            return pmui.IntInput(label=f.title, value=f.default, css_classes=css, size="large")
        if f.kind == FLAG:
            return pmui.Switch(label=f.title, value=bool(f.default), css_classes=css)
        if f.kind == SOME:
            return pmui.MultiChoice(label=f.title, options=list(f.values), sizing_mode="stretch_width", css_classes=css)
        if f.kind == LINES:
            return pmui.TextAreaInput(label=f.title, rows=4, sizing_mode="stretch_width", css_classes=css)
        return pmui.TextInput(label=f.title, value=f.default or "", css_classes=css)

    def values(self) -> dict:
        found = {k: w.value for k, w in self.widgets.items()}
        found.update({k: [x.strip() for x in (found[k] or "").splitlines() if x.strip()] for k, w in self.widgets.items()
                      if isinstance(w, pmui.TextAreaInput)})
        return {k: v for k, v in found.items() if v is not None and v != "" and v != []}

    def set_values(self, record: dict) -> None:
        for key, w in self.widgets.items():
            value = record.get(key)
            if isinstance(w, pmui.MultiChoice):
                w.param.update(options=list(dict.fromkeys([*w.options, *(value or [])])), value=list(value or []))
            elif isinstance(w, pmui.TextAreaInput):
                w.value = "\n".join(value or [])
            else:
                w.value = value if value not in (None, "") else \
                    "" if isinstance(w, pmui.TextInput) else False if isinstance(w, pmui.Switch) else None

    def set_choices(self, key: str, values: Sequence[Any]) -> None:
        """New values for a choice or "some" field; a value chosen that is no longer offered is dropped."""
        w = self.widgets[key]
        kept = [v for v in w.value if v in values] if isinstance(w, pmui.MultiChoice) else w.value
        w.param.update(options=list(values), value=kept)

    def __panel__(self):
        return pn.FlexBox(*self.widgets.values())
