"""The browser app's command line: ``python -m azgames serve [--host H] [--port P] [--no-browser] [--no-token]``.

:func:`register` adds the ``serve`` command to ``azgames.cli``; this module imports no web package until :func:`run`, so
the command line works without the ``web`` extra until it is asked to serve.

The server answers only its user (:mod:`.access`): it listens on this
machine's loopback address unless told otherwise, checks every request's
``Host`` and ``Origin``, and prints its address with a token made for this
start, which every request needs (``--no-token``: none, on loopback only).
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys
import threading
import webbrowser

from azgames.core.extras import require

#: Seconds the server waits for its pages' connections to end when stopped.
GRACE_SECONDS = 3


def register(sub: argparse._SubParsersAction) -> None:
    """The ``serve`` command."""
    serve = sub.add_parser(
        "serve",
        help="the browser app: watch, replay and play games (the web extra)",
        description="Start a local web server and open its page, where a person "
        "watches live matches, replays records and plays any game.",
    )
    add_arguments(serve)
    serve.set_defaults(run=lambda args, parser: run(args), subparser=serve)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; another "
        "address lets other machines reach the server, with its token)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)"
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    parser.add_argument(
        "--no-token",
        action="store_true",
        help="serve without the token in the page's address (loopback addresses only: "
        "any program of this machine's users can then drive the server)",
    )
    parser.add_argument(
        "--workers", type=int, default=4, help="threads running the pages' games and agents (default 4)"
    )


def run(args: argparse.Namespace) -> int:
    """Serve the app until interrupted; 2 with a one-line error if it cannot start."""
    require("web", "serve")
    import uvicorn

    from azgames.core.limits import WEB

    from .access import Access, is_loopback, new_token
    from .app import create_app

    if not 0 <= args.port <= 65535:
        print(f"error: --port {args.port} must be from 0 to 65535", file=sys.stderr)
        return 2
    if not 1 <= args.workers <= 64:
        print(f"error: --workers {args.workers} must be from 1 to 64", file=sys.stderr)
        return 2
    loopback = is_loopback(args.host)
    if args.no_token and not loopback:
        print(
            f"error: --no-token serves only on a loopback address (127.0.0.1, localhost, ::1), not "
            f"--host {args.host}: other machines could drive the server",
            file=sys.stderr,
        )
        return 2
    # Bound here rather than by uvicorn: a port in use is then a one-line
    # error, and with --port 0 the page's address is known before serving.
    try:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.create_server((args.host.strip("[]"), args.port), family=family)
    except OSError as e:
        print(f"error: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    access = Access(port=sock.getsockname()[1], token=None if args.no_token else new_token(), host=args.host)
    url = access.url()
    _log_refusals()
    # A message over twice the limit is cut off by the websocket itself
    # (close code 1009); up to that, the server refuses it in words.
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(access, workers=args.workers),
            log_level="warning",
            ws_max_size=2 * WEB.message_bytes,
            timeout_graceful_shutdown=GRACE_SECONDS,
        )
    )
    if not loopback:
        print(
            f"warning: serving on {args.host}, which other machines may reach: anyone with the "
            f"address below (its token) can use this server",
            file=sys.stderr,
            flush=True,
        )
    print(f"azgames: serving the browser app at {url} (Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has stopped
        pass
    print("azgames: the server has stopped", flush=True)
    return 0


def _log_refusals() -> None:
    """The server's own lines (a request refused, an agent failed) on stderr."""
    log = logging.getLogger("azgames.web")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("azgames: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


def _open_when_started(server, url: str) -> None:
    while not server.started and not server.should_exit:
        threading.Event().wait(0.05)
    if server.started:
        webbrowser.open(url)
