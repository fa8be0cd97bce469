"""The door of a LAN server: the access code against a real `companion serve` (wrong tries limited, the
cookie's flags, the page asked for), HTTPS, the allowed websocket origins, loopback by every address."""
from __future__ import annotations

import http.client
import socket
import ssl
import subprocess
import time
import urllib.parse
from http.cookies import SimpleCookie

import pytest

from companion import door
from companion.door import FREE_TRIES, Tries, is_loopback, websocket_origins
from tests.browser.conftest import Server


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_wrong_codes_are_limited_per_client_with_a_growing_wait():
    clock = Clock()
    tries = Tries(clock)
    for _ in range(FREE_TRIES - 1):
        tries.failed("10.0.0.7")
        assert tries.wait("10.0.0.7") == 0
    waits = []
    for _ in range(4):
        tries.failed("10.0.0.7")
        waits.append(tries.wait("10.0.0.7"))
    assert waits == [1.0, 2.0, 4.0, 8.0] and tries.wait("10.0.0.8") == 0
    clock.now += 61
    assert tries.wait("10.0.0.7") == 0
    tries.passed("10.0.0.7")
    assert tries.wrong.get("10.0.0.7") is None


def test_a_name_is_loopback_only_when_every_address_it_has_is(monkeypatch):
    """The address check takes every address of a name, not the first IPv4 only."""
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port: [
        (socket.AF_INET, 0, 0, "", ("127.0.0.1", 0)), (socket.AF_INET6, 0, 0, "", ("2001:db8::5", 0, 0, 0))])
    assert not is_loopback("dual.example")
    assert door.addresses("dual.example") == {"127.0.0.1", "2001:db8::5"}


def test_websocket_origins_are_this_computers_addresses_never_any():
    lan = websocket_origins("0.0.0.0", 5006, ["tablet.example:5006"])
    assert "*" not in lan and "127.0.0.1:5006" in lan and "localhost:5006" in lan
    assert "tablet.example:5006" in lan
    assert f"{socket.gethostname()}:5006" in lan
    assert websocket_origins("127.0.0.1", 80) == ["127.0.0.1:80", "localhost:80"]


def post_code(server: Server, code: str, cookie: str = "", context=None) -> http.client.HTTPResponse:
    conn = (http.client.HTTPSConnection("127.0.0.1", server.port, context=context, timeout=30) if context
            else http.client.HTTPConnection("127.0.0.1", server.port, timeout=30))
    body = urllib.parse.urlencode({"username": "player", "password": code})
    conn.request("POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    return conn.getresponse()


def get(server: Server, path: str, cookie: str = "", context=None) -> http.client.HTTPResponse:
    conn = (http.client.HTTPSConnection("127.0.0.1", server.port, context=context, timeout=30) if context
            else http.client.HTTPConnection("127.0.0.1", server.port, timeout=30))
    conn.request("GET", path, headers={"Cookie": cookie})
    return conn.getresponse()


@pytest.fixture
def guarded(tmp_path):
    server = Server(tmp_path / "data", tmp_path / "server.log", "--access-code", "Bull Run 1861").start()
    yield server
    server.stop()


def test_the_access_code_lets_in_once_and_leads_to_the_page_asked_for(guarded):
    asked = get(guarded, "/dixie?session=abc")
    assert asked.status == 302 and "/login" in asked.getheader("Location")
    login = get(guarded, "/" + asked.getheader("Location").removeprefix("./"))
    next_cookie = SimpleCookie(login.getheader("Set-Cookie"))
    assert login.status == 200 and "Enter the access code" in login.read().decode()
    answer = post_code(guarded, "Bull Run 1861", cookie=f"next_url={next_cookie['next_url'].value}")
    assert answer.status == 302 and answer.getheader("Location").endswith("/dixie?session=abc")
    cookies = {c.split("=", 1)[0]: c for c in answer.headers.get_all("Set-Cookie")}
    flags = [part.strip().lower() for part in cookies["user"].split(";")]
    assert "httponly" in flags and "samesite=lax" in flags and "secure" not in flags
    expires = SimpleCookie(cookies["user"])["user"]["expires"]
    days = (time.mktime(time.strptime(expires, "%a, %d %b %Y %H:%M:%S GMT")) - time.mktime(time.gmtime())) / 86400
    assert 29 < days < 31
    page = get(guarded, "/", cookie=f"user={SimpleCookie(cookies['user'])['user'].value}")
    assert page.status == 200


def test_wrong_codes_are_refused_and_then_slowed_down(guarded):
    answers = [post_code(guarded, f"guess {i}") for i in range(FREE_TRIES + 1)]  # the sixth within a second
    reasons = [urllib.parse.parse_qs(urllib.parse.urlparse(a.getheader("Location")).query)["error"] for a in answers]
    assert reasons == [["wrong"]] * FREE_TRIES + [["wait"]]
    assert "error=wait" in post_code(guarded, "Bull Run 1861").getheader("Location")  # even the right code waits
    shown = get(guarded, "/login?error=<script>alert(1)</script>").read().decode()
    assert "<script>alert(1)" not in shown


def next_cookie(response: http.client.HTTPResponse) -> str:
    return f"next_url={SimpleCookie(response.getheader('Set-Cookie'))['next_url'].value}"


def test_after_wrong_codes_the_right_one_leads_to_the_page_asked_for_never_off_site(guarded):
    asked = get(guarded, "/bull_run")
    cookie = next_cookie(get(guarded, "/" + asked.getheader("Location").removeprefix("./")))
    for guess in ("bull run", "1861"):
        refused = post_code(guarded, guess, cookie=cookie).getheader("Location")
        cookie = next_cookie(get(guarded, "/" + refused.removeprefix("./")))
    assert post_code(guarded, "Bull Run 1861", cookie=cookie).getheader("Location").endswith("/bull_run")
    for off_site in ("//evil.example/x", "///evil.example/x", "http://evil.example/", "/\\evil.example/x"):
        cookie = f"next_url={off_site}"
        assert "evil" not in post_code(guarded, "guess", cookie=cookie).getheader("Location")
        assert post_code(guarded, "Bull Run 1861", cookie=cookie).getheader("Location") == "/"


def test_https_with_a_certificate_and_the_secure_cookie(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "2", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    server = Server(tmp_path / "data", tmp_path / "server.log", "--access-code", "ford", "--certfile", str(cert),
                    "--keyfile", str(key))
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    server.start(scheme="https", context=context)
    try:
        answer = post_code(server, "ford", context=context)
        user = next(c for c in answer.headers.get_all("Set-Cookie") if c.startswith("user="))
        assert "secure" in [part.strip().lower() for part in user.split(";")]
    finally:
        server.stop()
