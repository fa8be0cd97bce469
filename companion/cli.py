"""`companion serve`: one Panel server with the landing page and every game app.

This is the one place that assembles the apps (apps/<slug>.py, served as scripts exactly as
`panel serve apps/<slug>.py` would) into a server.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import secrets
import sys
import threading
from pathlib import Path

from .door import AccessCodeProvider, is_loopback, websocket_origins
from .store import DATA_DIR_ENV, data_dir

APPS = Path(__file__).resolve().parent.parent / "apps"
LOGIN_TEMPLATE = Path(__file__).resolve().parent / "ui" / "login.html"


def app_paths() -> dict[str, str]:
    """URL path -> app script: the landing page at "/" and each game that has an engine and a dashboard."""
    import engines
    index = APPS / "index.py"
    if not index.is_file():
        raise SystemExit(f"The app scripts are missing ({index}): run the companion from its source checkout "
                         "(`make serve`).")
    paths = {"/": index}
    paths.update({f"/{slug}": APPS / f"{slug}.py" for slug in engines.GAMES if (APPS / f"{slug}.py").is_file()})
    return {k: str(v) for k, v in paths.items()}


def cookie_secret(folder: Path) -> str:
    """A secret kept in the data folder (readable by this user only), so a browser that entered the access
    code stays in after a restart."""
    path = folder / "cookie_secret"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    return path.read_text().strip()


def skip_diagnostics() -> None:
    """Bokeh's checks for developers are left to the tests, which build every page in-process with them on: the
    signature of every callback linked to a model (Panel links one for each synced property, some 1,500 on a game
    page) and the validation of each page's document took a quarter of the server's time before it sent a page."""
    from bokeh.settings import settings
    settings.perform_error_diagnostics.set_value(False)
    settings.perform_document_validation.set_value(False)


def settle_heap() -> None:
    """Load what every page uses (the libraries, the engines, the pages' modules) before the first page, and set it
    aside from Python's garbage collection (`gc.freeze`): it lives as long as the server. A full collection walks every
    object not set aside, and it walked these 250,000 (130 ms) every time, during an opening or a tap. Collections of
    the young objects run after 10,000 new ones, not 700: a page's opening makes about 150,000, and each collection
    moves the survivors on towards the full collection (about one a page opened before, now one every two)."""
    import runpy
    for script in app_paths().values():
        runpy.run_path(script)  # outside a page's session, a script only loads what it uses
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def prepare_engines() -> threading.Thread:
    """Each engine works out its slow tables on a worker thread while the server starts, so that no page's first
    request waits for them (a page that asks sooner builds them itself)."""
    import engines

    def run() -> None:
        for engine in engines.registry().values():
            engine.prepare()
    worker = threading.Thread(target=run, name="prepare-engines", daemon=True)
    worker.start()
    return worker


def quiet_closed_tabs(loop: asyncio.AbstractEventLoop) -> None:
    """A tablet that closes its tab while an update is on its way is not an error: the update is dropped
    without a traceback in the server's log (other loop errors are reported as usual)."""
    from tornado.iostream import StreamClosedError
    from tornado.websocket import WebSocketClosedError

    def handler(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        if not isinstance(context.get("exception"), (WebSocketClosedError, StreamClosedError)):
            loop.default_exception_handler(context)
    loop.set_exception_handler(handler)


def serve(args: argparse.Namespace) -> int:
    folder = data_dir(args.data_dir)
    os.environ[DATA_DIR_ENV] = str(folder)
    if not is_loopback(args.address) and not args.access_code:
        print(f"Serving on {args.address} makes the games reachable from the network: give an access code "
              "with --access-code (players enter it once per browser).", file=sys.stderr)
        return 2
    if bool(args.certfile) != bool(args.keyfile):
        print("HTTPS needs both --certfile and --keyfile.", file=sys.stderr)
        return 2
    import panel as pn
    options = {}
    if args.access_code:
        options = {"auth_provider": AccessCodeProvider(args.access_code, LOGIN_TEMPLATE),
                   "cookie_secret": cookie_secret(folder)}
    if args.certfile:
        options.update(ssl_certfile=args.certfile, ssl_keyfile=args.keyfile)
    scheme = "https" if args.certfile else "http"
    shown = "localhost" if args.address in ("0.0.0.0", "::") else args.address
    print(f"Table Companion: {scheme}://{shown}:{args.port}/  (games saved in {folder})", flush=True)
    from tornado.ioloop import IOLoop
    quiet_closed_tabs(IOLoop.current().asyncio_loop)  # the loop the server runs on
    skip_diagnostics()
    settle_heap()
    prepare_engines()
    pn.serve(app_paths(), address=args.address, port=args.port, show=args.show, title="Table Companion",
             websocket_origin=websocket_origins(args.address, args.port, args.allow_origin), threaded=False,
             **options)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: rules assistant at the table")
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("serve", help="serve the landing page and every game app")
    s.add_argument("--address", default="127.0.0.1", help="address to listen on (0.0.0.0 for the LAN)")
    s.add_argument("--port", type=int, default=5006)
    s.add_argument("--data-dir", default=None, help=f"where games are saved (else ${DATA_DIR_ENV}, else a per-user folder)")
    s.add_argument("--access-code", default=None, help="a code each browser enters once; required off loopback")
    s.add_argument("--allow-origin", "--allow-websocket-origin", action="append", default=None,
                   help="another host:port the pages are opened from (this computer's addresses are allowed)")
    s.add_argument("--certfile", default=None, help="serve over HTTPS with this certificate (PEM)")
    s.add_argument("--keyfile", default=None, help="... and this private key (PEM)")
    s.add_argument("--show", action="store_true", help="open a browser")
    s.set_defaults(run=serve)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
