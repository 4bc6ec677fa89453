"""The browser app's command line: ``python -m azgames serve [--host H] [--port P] [--no-browser]``.

:func:`add_arguments` and :func:`run` are what ``azgames.cli`` wires to its
``serve`` command; this module imports no web package until :func:`run`, so
the command line works without the ``web`` extra until it is asked to serve.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000,
                        help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")


def run(args: argparse.Namespace) -> int:
    """Serve the app until interrupted; 2 with a one-line error if it cannot start."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        print(f"error: the browser app needs the web extra ({e.name} is missing): "
              "pip install 'azgames[web]'", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"error: --port {args.port} must be from 0 to 65535", file=sys.stderr)
        return 2
    # Bound here rather than by uvicorn: a port in use is then a one-line
    # error, and with --port 0 the page's address is known before serving.
    try:
        sock = socket.create_server((args.host, args.port))
    except OSError as e:
        print(f"error: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    url = f"http://{'localhost' if args.host in ('127.0.0.1', '0.0.0.0', '::') else args.host}:{port}/"
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    print(f"azgames: serving the browser app at {url} (Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    server.run(sockets=[sock])
    return 0


def _open_when_started(server, url: str) -> None:
    while not server.started and not server.should_exit:
        threading.Event().wait(0.05)
    if server.started:
        webbrowser.open(url)
