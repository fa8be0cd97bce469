"""Step forms built from an action's spec (companion.spec): the engine says what may be chosen, the form
only shows it.

One control per kind of parameter: buttons for a short "one of" and a searchable select for a long one,
toggle chips for a short "some of" and a searchable list for a long one (a deck's cards by name; tap-to-add
buttons when a value may come again), a large stepper for a
number, a switch for yes/no, a stepper per value for counts, a text field for text. The options come
from the spec's `choices(state, chosen)`; when a parameter changes, the ones after it are asked again.
A parameter that does not apply now is hidden; values a rule bars now are listed with the rule. The app
gives only what is particular to its game: its odds for the step, and an editor for entered data.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import panel as pn
import panel_material_ui as pmui
from panel.io.document import hold
from panel.widgets.base import WidgetBase

from ..engine import RuleError
from ..spec import COUNTS, NUMBER, ONE_OF, RECORD, SOME_OF, TEXT, YES_NO, ActionSpec, Legal, Param
from .guide import StepForm
from .live import LiveSession
from .text import Text
from .theme import TOUCH

BUTTONS_UP_TO = 6  # a "one of" with more choices is a searchable select
CHIPS_UP_TO = 12  # a "some of" with more choices is a searchable list


CHOICE_MS = 10  # a choice is taken this long after the page sends it (Panel waits 50 ms for more changes of the same
# control, 50 ms of every tap): the changes of one tap (a button group's value and its pressed buttons) come together


def _css(param: Param) -> list[str]:
    """The field's classes: its parameter's name, and `many` for a choice of several (each option tapped on or off)."""
    return ["param", f"param-{param.name.replace('_', '-')}", *(["many"] if param.kind == SOME_OF else [])]


class Field:
    """One parameter's control: `show(legal)` sets its options from the legal values now (None: not asked);
    `value` is what the player chose; `changed` is called when the player changes it."""

    def __init__(self, param: Param, changed: Callable[[], None]):
        self.param, self.changed = param, changed
        self.legal: Legal | None = None
        self._fresh = True  # no value chosen since the step came round: show the default
        self.suggested: Any = None
        self.note = Text(variant="caption", visible=False, css_classes=["barred"])
        self.quiet = False
        self.widget = self._build()
        for widget in self.widget.select(WidgetBase):
            widget._debounce = CHOICE_MS
        self.box = pn.Column(self.widget, self.note, sizing_mode="stretch_width", css_classes=_css(param))

    # --- by kind ---------------------------------------------------------------------------------
    def _build(self):
        p, label = self.param, f"{self.param.label} ({self.param.rule})"
        if p.kind == YES_NO:
            w = pmui.Switch(label=label, size="large")
        elif p.kind == ONE_OF or (p.kind == SOME_OF and not p.repeat):
            one = p.kind == ONE_OF
            self._short = (pmui.RadioButtonGroup if one else pmui.CheckButtonGroup)(
                label=label, size="large", sizing_mode="stretch_width", sx={} if one else {"flexWrap": "wrap"})
            self._long = pmui.Select(label=label, searchable=True, size="large", sizing_mode="stretch_width") if one \
                else pmui.MultiChoice(label=label, searchable=True, visual_size="large", sizing_mode="stretch_width")
            for x in (self._short, self._long):
                x.param.watch(self._edited, "value")
            return pn.Column(self._short, self._long, sizing_mode="stretch_width")
        elif p.kind == SOME_OF:
            return self._sequence(label)
        elif p.kind == NUMBER:
            return self._stepper(label)
        elif p.kind == COUNTS:
            self._counts: dict[Any, tuple[Text, int]] = {}
            self._rows = pn.Column(sizing_mode="stretch_width")
            self._total = Text(variant="body2", css_classes=["counts-total"])
            self._counts_value: dict[Any, int] = {}
            return pn.Column(Text(label, variant="subtitle2"), self._rows, self._total,
                             sizing_mode="stretch_width")
        elif p.kind == TEXT:
            w = pmui.TextInput(label=label, sizing_mode="stretch_width", size="large")
        else:
            return pn.Column()  # RECORD: the app's own editor
        w.param.watch(self._edited, "value")
        self._plain = w
        return w

    def _stepper(self, label: str):
        self._number = 0
        self._shown = Text("0", variant="h6", css_classes=["stepper-value"],
                           styles={"min-width": "48px", "text-align": "center"})
        minus = pmui.Button(label="−", variant="outlined", css_classes=["stepper-minus"], **TOUCH)
        plus = pmui.Button(label="+", variant="outlined", css_classes=["stepper-plus"], **TOUCH)
        minus.on_click(lambda _: self._step(-1))
        plus.on_click(lambda _: self._step(+1))
        self._minus, self._plus = minus, plus
        return pn.Column(Text(label, variant="subtitle2"), pn.Row(minus, self._shown, plus),
                         sizing_mode="stretch_width")

    def _step(self, by: int) -> None:
        if self.legal is None:
            return
        self._set_number(min(self.legal.high, max(self.legal.low, self._number + by)))
        self._edited()

    def _set_number(self, n: int) -> None:
        self._number = n
        self._shown.object = str(n)
        if self.legal is not None:
            self._minus.disabled = n <= self.legal.low
            self._plus.disabled = n >= self.legal.high

    def _sequence(self, label: str):
        self._items: list = []
        self._seq_buttons = pn.FlexBox(css_classes=["sequence-choices"])
        self._seq_text = Text("", variant="body1", css_classes=["sequence-value"])
        back = pmui.Button(label="Back one", variant="text", css_classes=["sequence-back"], **TOUCH)
        back.on_click(lambda _: self._set_items(self._items[:-1], edited=True))
        return pn.Column(Text(label, variant="subtitle2"), self._seq_buttons,
                         pn.Row(self._seq_text, back), sizing_mode="stretch_width")

    def _set_items(self, items: list, edited: bool = False) -> None:
        self._items = list(items)
        labels = {c.value: c.label for c in self.legal.options} if self.legal else {}
        self._seq_text.object = " → ".join(str(labels.get(v, v)) for v in self._items) or "(none)"
        self._refresh_sequence_buttons()
        if edited:
            self._edited()

    def _refresh_sequence_buttons(self) -> None:
        legal = self.legal
        if legal is None:
            return
        fits = legal.fits or (lambda _: True)
        full = legal.high is not None and len(self._items) >= legal.high
        for button, choice in zip(self._seq_buttons.objects, legal.options):
            button.disabled = full or not fits(tuple(self._items) + (choice.value,))

    # --- options and value ---------------------------------------------------------------------------
    def clear(self) -> None:
        """Forget the player's value: the next `show` starts from the default (the step came round again)."""
        self.legal = None
        p = self.param
        self._fresh = True
        if p.kind == ONE_OF:
            self._short.value = self._long.value = None
        elif p.kind == SOME_OF and not p.repeat:
            self._short.value = self._long.value = []
        elif p.kind == SOME_OF:
            self._items = []
        elif p.kind == NUMBER:
            self._number = p.default if isinstance(p.default, int) else 0
        elif p.kind == COUNTS:
            self._counts_value = {}
        elif p.kind == TEXT:
            self.widget.value = p.default if isinstance(p.default, str) else ""

    def show(self, legal: Legal | None, suggested: Any = None) -> None:
        """Set the options from the legal values now; keep the player's value while it is still legal (a new
        step starts from the suggested value, else the default)."""
        self.legal = legal
        self.suggested = suggested
        self.box.visible = legal is not None and self.param.kind != RECORD
        self.quiet = True
        try:
            if legal is not None:
                self._options(legal)
        finally:
            self.quiet = False
        self._fresh = legal is None and self._fresh
        barred = legal.barred if legal is not None else ()
        self.note.object = "Not now: " + "; ".join(f"{b.label}: {b.reason} ({b.rule})" for b in barred)
        self.note.visible = bool(barred) and self.box.visible

    def _options(self, legal: Legal) -> None:
        p = self.param
        if p.kind == YES_NO:
            keep = self.widget.value if legal.offers(self.widget.value) and not self._fresh else (
                p.default if legal.offers(p.default) else legal.values[0] if legal.values else False)
            self.widget.param.update(value=keep, disabled=len(legal.values) < 2)
        elif p.kind == ONE_OF:
            current = None if self._fresh else self.value
            start = self.suggested if legal.offers(self.suggested) else p.default
            keep = current if legal.offers(current) else (
                start if legal.offers(start) else legal.values[0] if legal.values else None)
            self._short_or_long(BUTTONS_UP_TO, keep, None)
        elif p.kind == SOME_OF:
            start = list(self.suggested) if self._fresh and isinstance(self.suggested, (list, tuple)) else None
            if not p.repeat:
                keep = [v for v in (self.value if start is None else start) if legal.offers(v)]
                self._short_or_long(CHIPS_UP_TO, keep, [])
                self._long.max_items = legal.high or None  # (0: nothing may be chosen now, none offered)
            else:
                self._seq_buttons.objects = [self._sequence_button(c) for c in legal.options]
                self._set_items([v for v in (self._items if start is None else start) if legal.offers(v)])
        elif p.kind == NUMBER:
            start = self.suggested if isinstance(self.suggested, int) else p.default
            default = start if isinstance(start, int) and legal.low <= start <= legal.high else legal.low
            self._set_number(self._number if legal.low <= self._number <= legal.high and not self._fresh else default)
        elif p.kind == COUNTS:
            start = self.suggested if self._fresh and isinstance(self.suggested, dict) else self._counts_value
            self._counts_value = {c.value: min(start.get(c.value, 0), cap) for c, cap in zip(legal.options, legal.caps)}
            self._rows.objects = [self._count_row(c, cap) for c, cap in zip(legal.options, legal.caps)]
            self._show_total()
        elif p.kind == TEXT:
            self.widget.value = (self.widget.value or "")[:legal.high]

    def _short_or_long(self, up_to: int, keep: Any, nothing: Any) -> None:
        """Buttons or chips for up to `up_to` choices, else the searchable select or list."""
        options = self.options
        short = len(options) <= up_to
        self._short.param.update(options=options if short else {}, value=keep if short else nothing, visible=short)
        self._long.param.update(options={} if short else options, value=nothing if short else keep, visible=not short)

    def _sequence_button(self, choice) -> pmui.Button:
        b = pmui.Button(label=choice.label, variant="outlined", css_classes=["sequence-choice"], **TOUCH)
        b.on_click(lambda _, v=choice.value: self._set_items(self._items + [v], edited=True))
        return b

    def _count_row(self, choice, cap: int) -> pn.Row:
        shown = Text(str(self._counts_value[choice.value]), variant="h6", styles={"min-width": "40px",
                                                                                              "text-align": "center"})
        minus = pmui.Button(label="−", variant="outlined", **TOUCH)
        plus = pmui.Button(label="+", variant="outlined", **TOUCH)

        def step(by: int) -> None:
            n = min(cap, max(0, self._counts_value[choice.value] + by))
            self._counts_value[choice.value] = n
            shown.object = str(n)
            self._show_total()
            self._edited()
        minus.on_click(lambda _: step(-1))
        plus.on_click(lambda _: step(+1))
        return pn.Row(Text(choice.label, variant="body1", styles={"min-width": "160px"}), minus, shown,
                      plus, css_classes=["count-row"])

    def _show_total(self) -> None:
        legal = self.legal
        total = sum(self._counts_value.values())
        want = f"{legal.low}" if legal.low == legal.high else f"{legal.low} to {legal.high}"
        self._total.object = f"{total} placed (the rules want {want})"

    def set(self, value: Any) -> None:
        """Set the control to a legal value, as a player's taps would (an advisor filling the form in)."""
        p = self.param
        if p.kind == ONE_OF or (p.kind == SOME_OF and not p.repeat):
            self._shown_choice.value = list(value) if p.kind == SOME_OF else value
        elif p.kind == SOME_OF:
            self._set_items(list(value), edited=True)
        elif p.kind == NUMBER:
            self._set_number(value)
            self._edited()
        elif p.kind == COUNTS:
            self._counts_value = {v: value.get(v, 0) for v in self._counts_value}
            self._rows.objects = [self._count_row(c, cap) for c, cap in zip(self.legal.options, self.legal.caps)]
            self._show_total()
            self._edited()
        elif p.kind != RECORD:
            self._plain.value = value

    @property
    def options(self) -> dict[str, Any]:
        """The values offered now, by their labels."""
        return {c.label: c.value for c in self.legal.options} if self.legal is not None else {}

    @property
    def _shown_choice(self):
        """The buttons (chips) or the searchable select (list) of a "one of" ("some of"), whichever is shown."""
        return self._short if self._short.visible else self._long

    @property
    def value(self) -> Any:
        p = self.param
        if p.kind == ONE_OF:
            return self._shown_choice.value
        if p.kind == SOME_OF:
            return list(self._items) if p.repeat else list(self._shown_choice.value or [])
        if p.kind == NUMBER:
            return self._number
        if p.kind == COUNTS:
            return dict(self._counts_value)
        if p.kind == RECORD:
            return None
        return self._plain.value

    def _edited(self, *_) -> None:
        """A choice tapped: what it changes (the fields after it, the odds) goes to the page in one message."""
        if not self.quiet:
            with hold():
                self.changed()


class SpecForm:
    """The generic form of one action: a Field per parameter, asked in order."""

    def __init__(self, live: LiveSession, spec: ActionSpec, records: Mapping[str, Callable[[], Any]] | None = None):
        self.live, self.spec = live, spec
        self.records = dict(records or {})  # param name -> the app's editor value, for RECORD params
        self.fields = [Field(p, lambda i=i: self._changed(i)) for i, p in enumerate(spec.params)]
        self.on_change: Callable[[], None] = lambda: None
        self.quiet = False

    def chosen(self, upto: int | None = None) -> dict[str, Any]:
        """The parameters as chosen now (those asked), up to field `upto`."""
        out: dict[str, Any] = {}
        for f in self.fields[:upto]:
            if f.param.kind == RECORD:
                if f.param.name in self.records:
                    out[f.param.name] = self.records[f.param.name]()
            elif f.legal is not None and f.value is not None:
                out[f.param.name] = f.value
        return out

    def refresh(self, start: int = 0) -> None:
        """Ask the choices again from field `start` on (the ones before it as chosen)."""
        state = self.live.state
        for i in range(start, len(self.fields)):
            field = self.fields[i]
            try:
                chosen = self.chosen(i)
                legal = field.param.legal(state, chosen)
                suggested = field.param.suggest(state, chosen) if legal is not None and field.param.suggest else None
            except (RuleError, KeyError, TypeError, AttributeError):
                legal, suggested = None, None  # the action is not open now
            field.show(legal, suggested)

    def _changed(self, index: int) -> None:
        if self.quiet:
            return
        self.refresh(index + 1)
        self.on_change()

    def action(self) -> dict[str, Any]:
        return {"type": self.spec.name, **self.chosen()}

    def take(self, value: Any, kinds: tuple[str, ...] = (ONE_OF, SOME_OF)) -> bool:
        """A tap on the board or a card: the first field asked now (of these kinds) that offers `value` takes it,
        a one-of set to it, a list ticking it on or off. False when no field offers it."""
        for f in self.fields:
            if f.legal is None or f.param.kind not in kinds or f.param.kind == SOME_OF and f.param.repeat \
                    or not any(c.value == value for c in f.legal.options):
                continue
            f.set(value if f.param.kind == ONE_OF else
                  [v for v in f.value if v != value] if value in f.value else [*f.value, value])
            return True
        return False

    def reset(self) -> None:
        self.quiet = True
        try:
            for f in self.fields:
                f.quiet = True
                f.clear()
                f.quiet = False
            self.refresh()
        finally:
            self.quiet = False

    @property
    def controls(self) -> list:
        return [f.box for f in self.fields if f.param.kind != RECORD]


class SpecStep(StepForm):
    """The phase guide's form of one action, built from its spec. `show(action)` sets the odds for the action
    as chosen so far; `before`/`after`: the app's own panels around the controls (an advisor, an editor for
    entered data whose value `records` gives); `spec`: the action's spec as this page may offer it (by default
    the engine's)."""

    def __init__(self, live: LiveSession, action: str, show: Callable[[Mapping[str, Any]], None] | None = None,
                 before: list | None = None, after: list | None = None,
                 records: Mapping[str, Callable[[], Any]] | None = None, on_reset: Callable[[], None] | None = None,
                 spec: ActionSpec | None = None):
        self.form = SpecForm(live, spec or live.engine.actions.specs[action], records)
        self.on_reset = on_reset or (lambda: None)
        super().__init__(action, layout=[*(before or []), *self.form.controls, *(after or [])],
                         build=self.form.action, show=(lambda: show(self.form.action())) if show else None,
                         update=self._reset)
        self.form.on_change = lambda: self.on_change()

    def _reset(self) -> None:
        self.form.reset()
        self.on_reset()

    @property
    def plain(self) -> bool:
        """Nothing to fill in now: no parameter is asked in the state of the game."""
        self.form.reset()
        return not any(f.legal is not None for f in self.form.fields)
