"""Who sits where: in a game with private hands, a seat is held by one device at a time.

A device (a browser, known by a random token it keeps) claims a free seat, or takes its own back after a
reload. A seat held by another device is taken only when that device lets it go, or with the seat's PIN
(set by the device that holds it). Claims live in the server's memory: a restart frees every seat.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass, field

OK, TAKEN, WRONG_PIN = "ok", "taken", "wrong pin"


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode("utf-8", "surrogatepass"), salt, 50_000)


@dataclass
class Claim:
    token: str
    salt: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    pin: bytes = b""          # the PIN's hash, b"" for none
    asked_by: str = ""        # a device asking the holder to let the seat go


class Seats:
    """The seats of every session open on this server."""

    def __init__(self):
        self._claims: dict[tuple[str, str], Claim] = {}
        self._lock = threading.Lock()

    def holder(self, session: str, seat: str) -> str:
        claim = self._claims.get((session, seat))
        return claim.token if claim else ""

    def claim(self, session: str, seat: str, token: str, pin: str = "") -> str:
        """OK when the seat is now this device's: it was free, already its own, or the PIN opens it. TAKEN (the
        holder is asked to let it go) or WRONG_PIN otherwise."""
        with self._lock:
            claim = self._claims.get((session, seat))
            if claim is None or claim.token == token:
                self._release_others(session, seat, token)
                kept = claim or Claim(token)
                self._claims[(session, seat)] = kept
                if pin:
                    kept.pin = _hash(pin, kept.salt)
                kept.asked_by = ""
                return OK
            if pin and claim.pin:
                if hmac.compare_digest(_hash(pin, claim.salt), claim.pin):
                    self._release_others(session, seat, token)
                    self._claims[(session, seat)] = Claim(token)
                    return OK
                return WRONG_PIN
            claim.asked_by = token
            return TAKEN

    def _release_others(self, session: str, seat: str, token: str) -> None:
        """A device sits in one seat of a game at a time."""
        for key in [k for k, c in self._claims.items() if k[0] == session and k[1] != seat and c.token == token]:
            del self._claims[key]

    def asked(self, session: str, token: str) -> list[str]:
        """The seats this device holds that another device asks for."""
        return [seat for (s, seat), c in self._claims.items() if s == session and c.token == token and c.asked_by]

    def let_go(self, session: str, seat: str, token: str) -> str:
        """The holder lets its seat go to the device that asked; that device's token (or "" if none)."""
        with self._lock:
            claim = self._claims.get((session, seat))
            if claim is None or claim.token != token or not claim.asked_by:
                return ""
            self._release_others(session, seat, claim.asked_by)
            self._claims[(session, seat)] = Claim(claim.asked_by)
            return claim.asked_by

    def leave(self, session: str, token: str) -> None:
        """The device sits nowhere in this game (it chose the table view)."""
        with self._lock:
            for key in [k for k, c in self._claims.items() if k[0] == session and c.token == token]:
                del self._claims[key]


SEATS = Seats()
