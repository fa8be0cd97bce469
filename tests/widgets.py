"""Driving Panel components from a test, as a tap in the browser would."""
from __future__ import annotations


def click(button) -> None:
    """One tap: runs the button's on_click callbacks."""
    button.clicks += 1


def find(root, css: str):
    """The one component under `root` (a layout or a viewer) that has the CSS class `css`."""
    layout = root.__panel__() if hasattr(root, "__panel__") else root
    found = layout.select(lambda o: css in (getattr(o, "css_classes", None) or ()))
    assert len(found) == 1, f"{len(found)} components have the class {css!r}"
    return found[0]


def perform(view, faces: tuple[int, ...] = ()) -> None:
    """The phase guide's action of a game view, as tapped: the faces on its dice entry and "use", or its
    button; the session takes it."""
    panel = view.guide.panel
    assert not panel.blocked, panel.blocked
    if faces:
        assert panel._dice.visible and not panel._button.visible
        for face in faces:
            panel._dice.tap(face)
        click(panel._dice._use)
    else:
        assert panel._button.visible and not panel._dice.visible
        click(panel._button)
    assert view.live.error == ""


def field(view, name: str):
    """The control of parameter `name` in the phase guide's form shown now (a `companion.ui.forms.Field`)."""
    return next(f for f in view.guide.active.form.fields if f.param.name == name)


def choose(control, value) -> None:
    """Set one parameter's control as a player would: tap the buttons, chips, steppers or switch."""
    from companion.spec import COUNTS, NUMBER, ONE_OF, SOME_OF
    kind = control.param.kind
    if kind == ONE_OF or (kind == SOME_OF and not control.param.repeat):
        control._shown_choice.value = list(value) if kind == SOME_OF else value
    elif kind == SOME_OF and control.param.repeat:
        click_all = {c.value: b for c, b in zip(control.legal.options, control._seq_buttons.objects)}
        while control._items:
            control._set_items(control._items[:-1], edited=True)
        for v in value:
            click(click_all[v])
    elif kind == NUMBER:
        while control.value != value:
            click(control._plus if control.value < value else control._minus)
    elif kind == COUNTS:
        for row, choice in zip(control._rows.objects, control.legal.options):
            minus, plus = row.objects[1], row.objects[3]
            while control.value[choice.value] != value.get(choice.value, 0):
                click(plus if control.value[choice.value] < value.get(choice.value, 0) else minus)
    else:
        control.widget.value = value
