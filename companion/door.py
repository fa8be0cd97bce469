"""The door of a companion served on the LAN: the access code, its cookie, and who may open a page.

- The access code is compared in constant time (`hmac.compare_digest`); wrong codes are limited per
  client: 5 a minute, then a wait that doubles with each further wrong code (up to 15 minutes).
- The cookie that remembers a browser is signed, `HttpOnly`, `SameSite=Lax`, `Secure` when served over
  HTTPS, and lasts 30 days. After the code (and any wrong ones before it) the player lands on the page they
  asked for, and only ever on a page of this site.
- Websocket origins: the addresses of this computer (every one, not the first IPv4 of its name), its
  names, and any the user adds; never any origin.
"""
from __future__ import annotations

import hmac
import ipaddress
import json
import socket
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import quote

from panel.auth import BasicAuthProvider, BasicLoginHandler, _validate_next_url
from panel.config import config
from panel.io.state import state
from panel.util import base64url_encode
from tornado.web import HTTPError

COOKIE_DAYS = 30
FREE_TRIES = 5            # wrong codes a client may enter in a minute
WINDOW = 60.0             # seconds
LONGEST_WAIT = 15 * 60.0  # seconds


class Tries:
    """Wrong codes per client: how long it must wait before the next try."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.wrong: dict[str, list[float]] = defaultdict(list)
        self.until: dict[str, float] = {}

    def wait(self, client: str) -> float:
        """Seconds the client must still wait (0: it may try)."""
        return max(0.0, self.until.get(client, 0.0) - self.clock())

    def failed(self, client: str) -> None:
        now = self.clock()
        recent = [t for t in self.wrong[client] if now - t < WINDOW] + [now]
        self.wrong[client] = recent
        if len(recent) >= FREE_TRIES:  # the 5th wrong code in a minute: 1 s before the next, then 2, 4, 8 ...
            self.until[client] = now + min(LONGEST_WAIT, 2.0 ** (len(recent) - FREE_TRIES))

    def passed(self, client: str) -> None:
        self.wrong.pop(client, None)
        self.until.pop(client, None)


TRIES = Tries()


def same_site(url: str | None) -> str:
    """The page to land on after the code: `url` if it is a path on this site, else the site's root. (Panel's
    check lets `///host` through, which a browser opens as another host.)"""
    try:
        path = _validate_next_url(url)
    except HTTPError:
        return state.base_url
    if not path or not path.startswith("/") or path.startswith("//") or not path.isprintable():
        return state.base_url
    return path


class AccessCodeLogin(BasicLoginHandler):
    """The login page's POST: the code checked in constant time, wrong tries limited per client."""

    code = ""

    def post(self):
        client = self.request.remote_ip or "?"
        wait = TRIES.wait(client)
        if wait:
            return self._refuse("wait")
        given = self.get_argument("password", "")
        if not hmac.compare_digest(given.encode("utf-8", "surrogatepass"), self.code.encode("utf-8")):
            TRIES.failed(client)
            return self._refuse("wrong")
        TRIES.passed(client)
        self.set_current_user("player")
        self.redirect(same_site(self.get_cookie("next_url")))

    def _refuse(self, reason: str) -> None:
        """Back to the login page with a reason the page words itself ("wrong" or "wait") and the page asked for
        (or the login page would forget it): nothing from the request is ever written into the page."""
        target = quote(same_site(self.get_cookie("next_url")), safe="")
        self.redirect(f".{self._login_endpoint}?error={reason}&next={target}")

    def set_current_user(self, user):
        options = {"expires_days": COOKIE_DAYS, "httponly": True, "secure": self.request.protocol == "https",
                   "samesite": "Lax", "path": config.cookie_path}
        self.set_secure_cookie("user", user, **options)
        id_token = base64url_encode(json.dumps({"user": user}))
        if state.encryption:
            id_token = state.encryption.encrypt(id_token.encode("utf-8"))
        self.set_secure_cookie("id_token", id_token, **options)


class AccessCodeProvider(BasicAuthProvider):
    """Panel's basic login with the companion's door (see the module docstring)."""

    def __init__(self, code: str, login_template: Path):
        self.code = code
        super().__init__(login_template=str(login_template))

    @property
    def get_user(self):
        def get_user(handler):
            user = handler.get_secure_cookie("user", max_age_days=COOKIE_DAYS)
            return user.decode("utf-8") if user else None
        return get_user

    @property
    def login_handler(self):
        handler = super().login_handler
        return type("Login", (AccessCodeLogin,), {"code": self.code, "_login_endpoint": handler._login_endpoint,
                                                  "_login_template": handler._login_template})


def addresses(host: str) -> set[str]:
    """Every address a name resolves to (all of them, IPv4 and IPv6), or the address itself."""
    try:
        return {ipaddress.ip_address(host).compressed}
    except ValueError:
        pass
    try:
        return {info[4][0].split("%")[0] for info in socket.getaddrinfo(host, None)}
    except OSError:
        return set()


def is_loopback(address: str) -> bool:
    """Is the address (or every address a name resolves to) loopback?"""
    found = addresses(address)
    return bool(found) and all(ipaddress.ip_address(a).is_loopback for a in found)


def this_computer() -> set[str]:
    """The names and addresses tablets may open this computer by."""
    name = socket.gethostname()
    hosts = {"localhost", "127.0.0.1", name, f"{name}.local", *addresses(name)}
    try:  # the address of the network the default route leads to (nothing is sent)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            hosts.add(probe.getsockname()[0])
    except OSError:
        pass
    return hosts


def websocket_origins(address: str, port: int, extra: list[str] | None = None) -> list[str]:
    """host:port of every way this server's pages may be opened; never "*". (Bokeh's allowlist takes no IPv6
    literal: a tablet opens the pages by an IPv4 address or a name.)"""
    if is_loopback(address):
        hosts = {"127.0.0.1", "localhost", *addresses(address)}
    elif address in ("0.0.0.0", "::", ""):
        hosts = this_computer()
    else:
        hosts = {address, *addresses(address)}
    return sorted({f"{h}:{port}" for h in hosts if ":" not in h} | set(extra or ()))
