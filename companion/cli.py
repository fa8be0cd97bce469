"""`companion serve`: one Panel server with the landing page and every game app.

This is the one place that assembles the apps (apps/<slug>.py, served as scripts exactly as
`panel serve apps/<slug>.py` would) into a server.
"""
from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import socket
import sys
from pathlib import Path

from .store import DATA_DIR_ENV, data_dir

APPS = Path(__file__).resolve().parent.parent / "apps"
LOGIN_TEMPLATE = Path(__file__).resolve().parent / "ui" / "login.html"


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback  # an IPv4 or IPv6 address as given
    except ValueError:
        pass
    try:
        return ipaddress.ip_address(socket.gethostbyname(address)).is_loopback
    except (OSError, ValueError):
        return False


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
    """A secret kept in the data folder, so a browser that entered the access code stays in after a restart."""
    path = folder / "cookie_secret"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def serve(args: argparse.Namespace) -> int:
    folder = data_dir(args.data_dir)
    os.environ[DATA_DIR_ENV] = str(folder)
    if not is_loopback(args.address) and not args.access_code:
        print(f"Serving on {args.address} makes the games reachable from the network: give an access code "
              "with --access-code (players enter it once per browser).", file=sys.stderr)
        return 2
    import panel as pn
    auth = {}
    if args.access_code:
        auth = {"basic_auth": args.access_code, "cookie_secret": cookie_secret(folder),
                "login_template": str(LOGIN_TEMPLATE)}
    shown = "localhost" if args.address in ("0.0.0.0", "::") else args.address
    print(f"Table Companion: http://{shown}:{args.port}/  (games saved in {folder})", flush=True)
    origins = args.allow_websocket_origin or (
        [f"{host}:{args.port}" for host in ("127.0.0.1", "localhost", f"[{args.address}]" if ":" in args.address
                                            else args.address)]
        if is_loopback(args.address) else "*")  # on the LAN tablets open the pages by this computer's address
    pn.serve(app_paths(), address=args.address, port=args.port, show=args.show, title="Table Companion",
             websocket_origin=origins, threaded=False, **auth)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: rules assistant at the table")
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("serve", help="serve the landing page and every game app")
    s.add_argument("--address", default="127.0.0.1", help="address to listen on (0.0.0.0 for the LAN)")
    s.add_argument("--port", type=int, default=5006)
    s.add_argument("--data-dir", default=None, help=f"where games are saved (else ${DATA_DIR_ENV}, else a per-user folder)")
    s.add_argument("--access-code", default=None, help="a code each browser enters once; required off loopback")
    s.add_argument("--allow-websocket-origin", action="append", default=None,
                   help="host:port the pages are opened from (default: any)")
    s.add_argument("--show", action="store_true", help="open a browser")
    s.set_defaults(run=serve)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
