"""Dice entry: "roll for me", or the faces the player rolled at the table, tapped or typed."""
from __future__ import annotations

from typing import Any, Callable

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

from ..dice import Dice, DiceError, EnteredDice, RandomDice, parse_faces
from .text import Note, Text, plain
from .theme import TOUCH


PAD_CSS = """
.face-pad { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 5px; }
.face { min-height: 48px; min-width: 56px; padding: 0 12px; font-size: 16px; font-weight: 500; border-radius: 4px;
        cursor: pointer; background: transparent; color: var(--mui-palette-primary-main, #1976d2);
        border: 1px solid color-mix(in srgb, var(--mui-palette-primary-main, #1976d2) 50%, transparent); }
.face:active { background: color-mix(in srgb, var(--mui-palette-primary-main, #1976d2) 16%, transparent); }
"""


class FacePad(JSComponent):
    """The faces of a die, 1 to `sides`, as 48 px buttons (`face face-<n>`) drawn by the browser itself: one
    component, where a Material button a face took the server and the browser a component each. A tap sends its
    face to `on_face`."""

    sides = param.Integer(default=6, bounds=(1, None))

    _stylesheets = [PAD_CSS]
    _esm = """
    export function render({ model, el }) {
      const draw = () => {
        el.innerHTML = '';
        const row = document.createElement('div');
        row.className = 'face-pad';
        row.setAttribute('role', 'group');
        row.setAttribute('aria-label', 'Faces rolled at the table');
        for (let face = 1; face <= model.sides; face++) {
          const button = document.createElement('button');
          button.type = 'button';
          button.className = `face face-${face}`;
          button.textContent = String(face);
          button.addEventListener('click', () => model.send_msg(face));
          row.appendChild(button);
        }
        el.append(row);
      };
      draw();
      model.on('sides', draw);
    }
    """

    def __init__(self, on_face: Callable[[int], None], **params):
        super().__init__(**params)
        self._on_face = on_face

    def _handle_msg(self, data: Any) -> None:
        """A tap in the browser: its face (anything else the page might send is not a face, and is dropped)."""
        if type(data) is int:
            self._on_face(data)


class DiceEntry(pn.viewable.Viewer):
    """One roll of any number of dice. `on_dice(dice)` performs the roll's action with the chosen
    source and returns True when the action was accepted (the entry then clears)."""

    specs = param.List(default=[], doc="(label, sides) of each die this roll takes, in order")
    faces = param.List(default=[], doc="Faces tapped so far")
    message = param.String(default="", doc="Why the entered dice cannot be used")
    title = param.String(default="")
    visible = param.Boolean(default=True)

    def __init__(self, on_dice: Callable[[Dice], bool], **params):
        super().__init__(**params)
        self._on_dice = on_dice
        self._roll = pmui.Button(label="Roll for me", icon="casino", variant="contained", color="primary",
                                 css_classes=["roll-for-me"], **TOUCH)
        self._roll.on_click(lambda _: self._submit(RandomDice()))
        self._pad = FacePad(self.tap, sizing_mode="stretch_width")
        self._use = pmui.Button(label="Use these dice", variant="contained", color="success", disabled=True,
                                css_classes=["use-faces"], **TOUCH)
        self._use.on_click(lambda _: self._submit(EnteredDice(tuple(self.faces))))
        self._clear = pmui.Button(label="Clear", variant="outlined", css_classes=["clear-faces"], **TOUCH)
        self._clear.on_click(lambda _: self.reset())
        self._typed = pmui.TextInput(label="Or type them", placeholder="e.g. 4 2", css_classes=["typed-faces"],
                                     width=200, size="medium")
        self._typed.param.watch(lambda e: self.use_typed() if e.new else None, "enter_pressed")
        self._use_typed = pmui.Button(label="Use typed dice", variant="outlined", css_classes=["use-typed"], **TOUCH)
        self._use_typed.on_click(lambda _: self.use_typed())
        self._alert = Note(severity="warning", visible=False, css_classes=["dice-message"],
                           sizing_mode="stretch_width")
        self._heading = Text(variant="subtitle1", margin=(0, 5))
        self._layout = pn.Column(
            self._heading,
            pn.Row(self._roll, sizing_mode="stretch_width"),
            Text("or tap the faces you rolled at the table:", variant="body2", margin=(0, 5)),
            self._pad,
            pn.Row(self._use, self._clear, sizing_mode="stretch_width"),
            pn.Row(self._typed, self._use_typed, sizing_mode="stretch_width"),
            self._alert,
            css_classes=["dice-entry"], sizing_mode="stretch_width",
        )
        self._refresh()

    @property
    def count(self) -> int:
        return len(self.specs)

    def _sides_of(self, i: int) -> int:
        return self.specs[i][1] if i < len(self.specs) else 6

    @param.depends("specs", "faces", "message", "title", "visible", watch=True)
    def _refresh(self) -> None:
        self._layout.visible = self.visible
        n = self.count
        sides = max((s for _, s in self.specs), default=6)
        self._pad.sides = sides
        labels = [label for label, _ in self.specs]
        lines = [f"{n} {'die' if n == 1 else 'dice'}:", *(l for i, l in enumerate(labels) if i == 0 or l != labels[i - 1])]
        if self.faces:
            lines.append(f"Tapped {', '.join(map(str, self.faces))}")
        if 0 < len(self.faces) < n and len(set(labels)) > 1:
            lines.append(f"Next: {labels[len(self.faces)]}")
        self._heading.object = "\n".join(lines)  # each roll's label (what its number is made of) a line
        self._use.disabled = len(self.faces) != n or n == 0
        self._use.label = f"Use {', '.join(map(str, self.faces))}" if self.faces else "Use these dice"
        self._alert.object = plain(self.message)
        self._alert.visible = bool(self.message)

    def tap(self, face: int) -> None:
        """A face tapped on the pad: it becomes the next die of the roll."""
        i = len(self.faces)
        if i >= self.count:
            self.message = f"This roll takes {self.count} {'die' if self.count == 1 else 'dice'}: " \
                           "clear to enter them again."
            return
        if not 1 <= face <= self._sides_of(i):
            self.message = f"{face} is not a face of a d{self._sides_of(i)}."
            return
        self.message = ""
        self.faces = self.faces + [face]

    def use_typed(self) -> None:
        """Dice typed as text: checked against 1..sides and the count before anything is done."""
        try:
            faces = parse_faces(self._typed.value_input or self._typed.value, max(self._sides_of(0), 1), self.count)
            for i, face in enumerate(faces):
                if face > self._sides_of(i):
                    raise DiceError(f"{face} is not a face of a d{self._sides_of(i)}.")
        except DiceError as exc:
            self.message = str(exc)
            return
        self._submit(EnteredDice(faces))

    def _submit(self, dice: Dice) -> None:
        """Clear the entry, then act; if the action is refused the tapped faces come back to be fixed.
        (Clearing first means the page gets one consistent update, not two in one callback.)"""
        tapped, typed = self.faces, self._typed.value
        self.reset()
        if not self._on_dice(dice):
            self.faces, self._typed.value = tapped, typed

    def reset(self) -> None:
        self.faces = []
        self.message = ""
        self._typed.value = ""

    def __panel__(self):
        return self._layout
