"""This device's seat in a game with private parts (a hand, face-down cards): claimed, not just chosen.

The browser keeps a random device token and its last seat (localStorage); the server grants a seat held by
no other device (`companion.seats`), so a page is sent the private parts of its own seat only. A seat held by
another device is taken when that device lets it go, or with the seat's PIN.
"""
from __future__ import annotations

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

from ..seats import OK, SEATS, TAKEN
from .choice import CSS
from .live import HUB, LiveSession
from .text import Note, plain
from .theme import TOUCH


class SeatButtons(JSComponent):
    """The seat buttons, drawn in the browser as a row of choice buttons (`choice.CSS`), which keeps the device
    token and the last seat of this game."""

    token = param.String(default="")
    wanted = param.String(default="")
    last = param.String(default="", doc="The seat this device last had in this game (kept by the browser)")
    tap = param.Integer(default=0)
    seat = param.String(default="")
    choices = param.List(default=[])
    key = param.String(default="")
    table = param.String(default="Table")

    _stylesheets = [CSS]
    _esm = """
    export function render({ model, el }) {
      let token = window.localStorage.getItem('table-companion.device');
      if (!token) {
        token = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + String(Date.now()));
        window.localStorage.setItem('table-companion.device', token);
      }
      const stored = window.localStorage.getItem(model.key);
      model.token = token;
      if (stored && model.choices.includes(stored)) { model.last = stored; }
      const draw = () => {
        el.innerHTML = '';
        const label = document.createElement('div');
        label.className = 'choice-label';
        label.textContent = 'This device is (a private part shows only on its own device):';
        const row = document.createElement('div');
        row.className = 'choice-row';
        for (const [text, value] of [[model.table, ''], ...model.choices.map((p) => [p, p])]) {
          const button = document.createElement('button');
          button.textContent = text;
          button.className = model.seat === value ? 'choice on' : 'choice';
          button.setAttribute('aria-pressed', String(model.seat === value));
          button.addEventListener('click', () => { model.wanted = value; model.tap = model.tap + 1; });
          row.appendChild(button);
        }
        el.append(label, row);
      };
      draw();
      model.on('seat', () => { window.localStorage.setItem(model.key, model.seat); draw(); });
      model.on('choices', draw);
    }
    """


class SeatPanel(pn.viewable.Viewer):
    """The seat buttons and what comes with them: the PIN to take a held seat, a PIN for one's own, and the
    question another device asks of this one. Sets `live.viewer` to the granted seat."""

    def __init__(self, live: LiveSession, choices: list[str], table: str = "Table", **params):
        super().__init__(**params)
        self.live = live
        self.waiting = ""  # the seat this page asked for that another device holds: taken when it is let go
        self.buttons = SeatButtons(key=f"table-companion.seat.{live.session.id}", choices=list(choices), table=table,
                                   css_classes=["seat-buttons"])
        self.message = Note(severity="info", visible=False, sizing_mode="stretch_width",
                            css_classes=["seat-message"])
        self.pin = pmui.PasswordInput(label="The seat's PIN", size="large", css_classes=["seat-pin"])
        take = pmui.Button(label="Take the seat with its PIN", variant="outlined", css_classes=["seat-take"], **TOUCH)
        take.on_click(lambda _: self.ask(self.pin.value or ""))
        self.taking = pn.Row(self.pin, take, visible=False)
        self.own_pin = pmui.PasswordInput(label="A PIN for my seat (optional)", size="large", css_classes=["own-pin"])
        keep = pmui.Button(label="Set the PIN", variant="outlined", css_classes=["seat-set-pin"], **TOUCH)
        keep.on_click(lambda _: self._set_pin())
        self.keeping = pn.Row(self.own_pin, keep, visible=False)
        self.asked = pmui.Button(label="", variant="contained", color="warning", visible=False,
                                 css_classes=["seat-let-go"], **TOUCH)
        self.asked.on_click(lambda _: self.let_go())
        self.buttons.param.watch(lambda *_: self.ask(), "tap")
        self._loaded = self._sat_again = False
        self.buttons.param.watch(lambda *_: self._sit_again(), ["token", "last"])  # one event per parameter changed
        pn.state.onload(self._on_load)
        live.param.watch(lambda _: self._looked(), "nudged")

    @property
    def _game(self) -> str:
        return self.live.session.id

    def ask(self, pin: str = "") -> None:
        """Claim the seat tapped (or give up the seat for the table view)."""
        wanted, token = self.buttons.wanted, self.buttons.token
        if not token:
            return
        if not wanted:
            SEATS.leave(self._game, token)
            return self._granted("")
        answer = SEATS.claim(self._game, wanted, token, pin)
        if answer == OK:
            return self._granted(wanted)
        self.waiting = wanted
        self._say(f"{wanted}'s seat is held by another device. It can let it go from there (it is asked now), or "
                  "enter the seat's PIN." if answer == TAKEN else "That is not the seat's PIN.")
        self.taking.visible = True
        HUB.changed(self.live)

    def _on_load(self) -> None:
        self._loaded = True
        self._sit_again()

    def _sit_again(self) -> None:
        """A page opened again (a reload) sits where its device last sat, once the page has loaded (what the server
        changes in answer to a page's first messages may not reach it)."""
        last = self.buttons.last
        if self._loaded and last and self.buttons.token and not self._sat_again:
            self._sat_again = True
            if not self.live.viewer:
                self.buttons.wanted = last
                self.ask()

    def _granted(self, seat: str) -> None:
        self.waiting = ""
        self.pin.value = ""
        self.taking.visible = False
        self.buttons.seat = seat
        self.live.viewer = seat
        self.keeping.visible = bool(seat)
        self._say("")

    def _set_pin(self) -> None:
        if self.live.viewer and self.own_pin.value:
            SEATS.claim(self._game, self.live.viewer, self.buttons.token, self.own_pin.value)
            self.own_pin.value = ""
            self._say(f"{self.live.viewer}'s seat now needs its PIN to be taken by another device.")

    def let_go(self) -> None:
        for seat in SEATS.asked(self._game, self.buttons.token):
            SEATS.let_go(self._game, seat, self.buttons.token)
        self._granted("")
        self.buttons.wanted = ""
        HUB.changed(self.live)

    def _looked(self) -> None:
        """Another page changed something: a request for this device's seat, or the seat this device waits for."""
        asked = SEATS.asked(self._game, self.buttons.token)
        self.asked.label = f"Another device asks for {', '.join(asked)}'s seat: let it go" if asked else ""
        self.asked.visible = bool(asked)
        if self.waiting and SEATS.holder(self._game, self.waiting) in ("", self.buttons.token):
            self.ask()
        elif self.live.viewer and SEATS.holder(self._game, self.live.viewer) != self.buttons.token:
            self._granted("")  # let go, taken with the PIN, or this device sat elsewhere on another of its pages

    def _say(self, text: str) -> None:
        self.message.object = plain(text)
        self.message.visible = bool(text)

    def __panel__(self):
        return pn.Column(self.buttons, self.message, self.taking, self.asked, self.keeping,
                         sizing_mode="stretch_width", css_classes=["seat-panel"])
