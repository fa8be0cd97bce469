"""A row of buttons of which one is chosen, drawn by the browser itself.

A tab opened for the first time draws each Material control as a component of its own (60-70 ms each on a
tablet); this row is a few plain buttons, and a tap shows the choice at once, before the server answers."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import param
from panel.custom import JSComponent

CSS = """
.choice-label { font-size: 14px; opacity: .75; margin: 4px 0; }
.choice-row { display: flex; flex-wrap: wrap; gap: 6px; }
.choice { min-height: 48px; min-width: 48px; padding: 0 16px; font-size: 16px; border-radius: 6px; cursor: pointer;
          border: 1px solid rgba(128,128,128,.6); background: transparent; color: inherit; }
.choice.on { background: #0072B2; color: #fff; font-weight: 600; }
"""


def pairs(options: Mapping[str, Any] | Sequence[Any]) -> list[list]:
    """[text, value] for each option: a mapping's keys are the texts shown, a list's items show themselves."""
    items = options.items() if isinstance(options, Mapping) else ((o, o) for o in options)
    return [[str(text), value] for text, value in items]


class TapChoice(JSComponent):
    """One of a few values, each a 48 px button (`aria-pressed` on the one chosen), under a short label."""

    label = param.String(default="")
    options = param.List(default=[], doc="[text, value] pairs (`pairs`)")
    value = param.Parameter(default=None)

    _stylesheets = [CSS]
    _esm = """
    export function render({ model, el }) {
      const draw = () => {
        el.innerHTML = '';
        const row = document.createElement('div');
        row.className = 'choice-row';
        row.setAttribute('role', 'group');
        if (model.label) {
          const label = document.createElement('div');
          label.className = 'choice-label';
          label.textContent = model.label;
          row.setAttribute('aria-label', model.label);
          el.append(label);
        }
        for (const [text, value] of model.options) {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = text;
          button.className = model.value === value ? 'choice on' : 'choice';
          button.setAttribute('aria-pressed', String(model.value === value));
          button.addEventListener('click', () => { model.value = value; });
          row.appendChild(button);
        }
        el.append(row);
      };
      draw();
      model.on(['value', 'options', 'label'], draw);
    }
    """

    def __init__(self, options: Mapping[str, Any] | Sequence[Any] = (), **params):
        super().__init__(options=pairs(options), **{"margin": (4, 10), **params})  # in line with the text around
