"""The phase guide: what the rules want next, with the controls to do it.

An engine says which steps are due (`Due`: an action type, a title, a line of text, a rule ID); the
app gives a `StepForm` for each action type: the player's inputs about the table, how they make the
action, the odds to show while it is prepared, and how to reset the inputs. The guide shows the first
due step's form above one shared dice entry, and the other due steps as buttons.

Forms are built the first time they are due and then kept on the page (shown or hidden), so moving
from step to step only updates components that are already drawn: that is what keeps a tap fast.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import panel as pn
import panel_material_ui as pmui

from ..dice import RandomDice
from ..engine import Due, RuleError
from .controls import ActionPanel
from .live import LiveSession
from .rules import CHIP_CSS
from .text import Note, Text, escape, plain
from .theme import TOUCH


class StepForm:
    """The inputs of one action type and what to do with them."""

    def __init__(self, action: str, inputs: Sequence = (), layout: Sequence | None = None,
                 build: Callable[[], Mapping[str, Any]] | None = None, show: Callable[[], None] | None = None,
                 update: Callable[[], None] | None = None):
        self.action = action
        self.inputs = list(inputs)
        self.build = build or (lambda: {"type": action})
        self.show = show  # sets the whole odds display for this step; None: the guide clears it
        self.update = update or (lambda: None)
        self.on_change: Callable[[], None] = lambda: None
        self.quiet = False
        self.title = pn.pane.HTML(sizing_mode="stretch_width", css_classes=["step-title"],
                                  stylesheets=[CHIP_CSS, ".step-name { font-size: 17px; font-weight: 600; }"])
        self.text = Text(variant="body2")
        parts = list(layout if layout is not None else inputs)
        self.card = pn.Column(self.title, self.text, *parts, sizing_mode="stretch_width",
                              css_classes=["step", f"step-{action}"])
        for widget in self.inputs:
            widget.param.watch(lambda _: None if self.quiet else self.on_change(), "value")

    @property
    def plain(self) -> bool:
        """A step with nothing to fill in."""
        return not self.inputs

    def reset(self, due: Due) -> None:
        self.title.object = (f'<span class="step-name">{escape(due.title)}</span> '
                             f'<button type="button" class="rule" data-rule="{escape(due.rule)}">What the rules say '
                             f'({escape(due.rule)})</button>')
        self.text.object = due.text
        self.text.visible = bool(due.text)
        self.quiet = True
        try:
            self.update()
        finally:
            self.quiet = False


class PhaseGuide(pn.viewable.Viewer):
    """The due steps of the game now: the first one's form, a shared dice entry, the others as buttons."""

    def __init__(self, live: LiveSession, due_now: Callable[[Any], list[Due]], form_for: Callable[[str], StepForm],
                 no_odds: Callable[[], None], done_text: Callable[[Any], str], **params):
        super().__init__(**params)
        self.live = live
        self._due_now, self._form_for, self._no_odds, self._done_text = due_now, form_for, no_odds, done_text
        self.forms: dict[str, StepForm] = {}
        self.active: StepForm | None = None
        self._due: dict[str, Due] = {}
        self.cards = pn.Column(sizing_mode="stretch_width", css_classes=["steps"])
        self.panel = ActionPanel(live, "", self._build)
        self._buttons: dict[str, pmui.Button] = {}
        self.others = pn.FlexBox(css_classes=["other-steps"])
        self.done = Note(severity="success", visible=False, sizing_mode="stretch_width", css_classes=["game-over"])
        live.param.watch(lambda _: self.render(), "version")
        self.render()

    def _build(self) -> Mapping[str, Any]:
        return self.active.build() if self.active else {"type": ""}

    def form(self, action: str) -> StepForm:
        """The form of `action`, built the first time it is asked for (`select` puts it on the page)."""
        if action not in self.forms:
            form = self._form_for(action)
            form.on_change = lambda f=form: self._changed(f)
            self.forms[action] = form
        return self.forms[action]

    def _changed(self, form: StepForm) -> None:
        if form is self.active:
            self.panel.refresh()
            self._show(form)

    def _show(self, form: StepForm) -> None:
        """Each step sets the odds display once per change: setting a value and then setting it back within
        one callback is not reliably seen by the page."""
        (form.show or self._no_odds)()

    def render(self) -> None:
        due = self._due_now(self.live.state)
        self._due = {d.action: d for d in due}
        self.done.object = plain(self._done_text(self.live.state))
        self.done.visible = not due
        self.select(due[0].action if due else None)

    def _button(self, due: Due) -> pmui.Button:
        if due.action not in self._buttons:
            b = pmui.Button(label=due.title, variant="outlined", css_classes=["other-step", f"other-{due.action}"],
                            **TOUCH)
            b.on_click(lambda _, a=due.action: self.choose(a))
            self._buttons[due.action] = b
            self.others.append(b)
        self._buttons[due.action].label = due.title
        return self._buttons[due.action]

    def choose(self, action: str) -> None:
        """A tap on another due step: done at once when it has nothing to fill in and rolls no dice,
        else its form becomes the one shown."""
        form = self.form(action)
        try:
            quick = form.plain and not self.live.needed(form.build())
        except RuleError:
            quick = False
        if quick:
            self.live.act(form.build(), RandomDice())
            return
        self.select(action)

    def select(self, action: str | None) -> None:
        """Show the form of `action`, and every other due step as a button (the one first due included, so a
        player who chose another step can always go back to it)."""
        self.active = self.form(action) if action else None
        for name, form in self.forms.items():
            form.card.visible = name == action
        for due in self._due.values():
            self._button(due)
        for name, button in self._buttons.items():
            button.visible = name in self._due and name != action
        self.panel.visible = action is not None
        if self.active is None:
            self._no_odds()
            return
        self.active.reset(self._due[action])
        if self.active.card not in self.cards.objects:  # drawn once set up: the page gets its values in one message
            self.cards.append(self.active.card)
        self.panel.label = self._due[action].title
        self.panel.refresh()
        self._show(self.active)

    def __panel__(self):
        return pn.Column(self.done, self.cards, self.panel, self.others, sizing_mode="stretch_width",
                         css_classes=["phase-guide"])
