"""A game session bound to one browser page.

`LiveSession.version` changes whenever the session does, here or on another device (it polls the
store every second), so every component that shows the game depends on it. Actions go through
`act`/`undo`/`redo`: a rule or dice error is kept in `error` for the page to show, and nothing
changes; a confirmed event is already committed to the store when the page updates.
"""
from __future__ import annotations

from typing import Any, Mapping

import param

from ..dice import Dice, DiceError
from ..engine import RuleError, dice_needed
from ..events import Event
from ..session import GameSession

POLL_MS = 1000


class LiveSession(param.Parameterized):
    version = param.Integer(default=0, doc="Bumped on every change of the session")
    error = param.String(default="", doc="The last refused entry, naming the broken rule")
    last = param.String(default="", doc="Summary of the last event this page confirmed")

    def __init__(self, session: GameSession, **params):
        super().__init__(**params)
        self.session = session

    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def engine(self):
        return self.session.engine

    def needed(self, action: Mapping[str, Any]) -> list:
        """The dice the action would roll now (labels and sides); RuleError if it is illegal now."""
        return dice_needed(self.engine, self.state, action)

    def act(self, action: Mapping[str, Any], dice: Dice) -> Event | None:
        return self._do(lambda: self.session.act(action, dice))

    def undo(self) -> Event | None:
        return self._do(self.session.undo)

    def redo(self) -> Event | None:
        return self._do(self.session.redo)

    def fail(self, message: str) -> None:
        """Show a refusal; the same one again is shown again (the player may have closed it)."""
        if message == self.error:
            self.param.trigger("error")
        else:
            self.error = message

    def _do(self, operation) -> Event | None:
        try:
            event = operation()
        except (RuleError, DiceError) as exc:
            self.fail(str(exc))
            self.version += 1  # another device's events may have been taken in
            return None
        self.error = ""
        self.last = event.summary
        self.version += 1
        return event

    def poll(self) -> bool:
        """Take in events written by other devices; True if there were any."""
        if self.session.refresh():
            self.version += 1
            return True
        return False
