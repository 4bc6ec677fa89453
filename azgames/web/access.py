"""Who may use the browser app's server: only the person who started it.

A server on this machine is reachable by every web page its browser opens,
so each request is checked the way Jupyter checks its own:

- ``Host`` must name the address served, with its port: the host given to
  ``serve`` or a loopback name (``localhost``, ``127.0.0.1``, ``[::1]``). A
  page of another site whose name was made to resolve to this machine (DNS
  rebinding) sends its own name, and is refused.
- ``Origin``, when the browser sends one (a websocket always has it), must
  be ``http://`` and that same host and port: a page of another site may
  open a websocket to any address, but says where it comes from.
- The token made for each start of the server (``?token=...`` in the
  address it prints) must come with every request but the page's static
  files: as ``?token=`` or as the cookie set when a page is loaded with it.
  ``--no-token`` serves without one, on a loopback address only.

A refused request gets 403 (HTTP) or its websocket is closed with code 1008
(policy violation), and the server logs one line saying why.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs

log = logging.getLogger("azgames.web")

#: The names of this machine's loopback addresses, as a Host header gives them.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
#: Addresses that listen on every interface: any name of the machine may reach them.
WILDCARDS = ("0.0.0.0", "::", "")
#: Close code of a refused websocket: policy violation (RFC 6455).
POLICY_VIOLATION = 1008
#: Paths served without the token: the page's own code and style, the same for everyone.
PUBLIC = "/static/"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """``host`` as a URL writes it: an IPv6 address in brackets."""
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare


def new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Access:
    """The address served (``host``, ``port``) and the token every request
    needs (None: no token)."""

    port: int
    token: str | None
    host: str = "127.0.0.1"

    @property
    def names(self) -> frozenset[str] | None:
        """The host names a request may use (lower case); None for a
        wildcard address, reached by any of the machine's names (the token
        then keeps other sites' pages out)."""
        if self.host in WILDCARDS:
            return None
        return frozenset({*LOOPBACK_NAMES, url_host(self.host).lower()})

    @property
    def cookie(self) -> str:
        """The token's cookie; cookies do not tell ports apart, so it is named by the port."""
        return f"azgames-token-{self.port}"

    def url(self) -> str:
        """The address to open: the page, with the token."""
        shown = "localhost" if self.host in ("127.0.0.1", *WILDCARDS) else url_host(self.host)
        return f"http://{shown}:{self.port}/" + (f"?token={self.token}" if self.token else "")

    def refusal(self, scope: dict) -> tuple[str, str] | None:
        """Why the request of ``scope`` (an ASGI http or websocket scope) is
        refused: ``(short reason, detail for the log)``; None if it may go on."""
        headers = _headers(scope)
        host = headers.get("host")
        if host is None:
            return "no Host header", "no Host header"
        parsed = _split_host(host)
        if (
            parsed is None
            or parsed[1] != self.port
            or (self.names is not None and parsed[0] not in self.names)
        ):
            return "wrong Host", f"Host {host[:100]!r} is not this server's address (port {self.port})"
        origin = headers.get("origin")
        if origin is not None and _origin(origin) != parsed:
            return (
                "foreign Origin",
                f"Origin {origin[:100]!r} is not this server's page (Host {host[:100]!r})",
            )
        if (
            self.token is not None
            and not scope["path"].startswith(PUBLIC)
            and not self.has_token(scope, headers)
        ):
            return (
                "token missing or wrong: open the address that serve printed",
                "the token is missing or wrong",
            )
        return None

    def query_token(self, scope: dict) -> bool:
        """Whether the request's ``?token=`` is this server's token."""
        if self.token is None:
            return False
        given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [])
        return any(_same(t, self.token) for t in given)

    def has_token(self, scope: dict, headers: dict) -> bool:
        if self.query_token(scope):
            return True
        from starlette.requests import cookie_parser

        given = cookie_parser(headers.get("cookie", "")).get(self.cookie)
        return given is not None and self.token is not None and _same(given, self.token)


class Guard:
    """ASGI middleware: every HTTP and websocket request checked by ``access``
    before the app sees it."""

    def __init__(self, app, access: Access):
        self.app, self.access = app, access

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        refused = self.access.refusal(scope)
        if refused is not None:
            reason, detail = refused
            client = scope.get("client") or ("?", 0)
            what = "websocket" if scope["type"] == "websocket" else scope.get("method", "?")
            log.warning("refused %s %s from %s: %s", what, scope.get("path", "?")[:100], client[0], detail)
            if scope["type"] == "websocket":
                # Accepted to be closed at once: the page learns the close code and why.
                message = await receive()
                if message["type"] == "websocket.connect":
                    await send({"type": "websocket.accept"})
                    await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": reason[:120]})
                return
            body = f"403 forbidden: {reason}\n".encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] == "http" and self.access.query_token(scope):
            # The page came with the token: its later requests carry it as a cookie.
            cookie = f"{self.access.cookie}={self.access.token}; Path=/; HttpOnly; SameSite=Strict"

            async def send_with_cookie(message):
                if message["type"] == "http.response.start":
                    message = {
                        **message,
                        "headers": [*message.get("headers", []), (b"set-cookie", cookie.encode())],
                    }
                await send(message)

            return await self.app(scope, receive, send_with_cookie)
        return await self.app(scope, receive, send)


def _headers(scope: dict) -> dict[str, str]:
    """The request's headers by lower-case name (the first of each)."""
    headers: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return headers


def _split_host(value: str) -> tuple[str, int] | None:
    """``host[:port]`` as (lower-case name, port; 80 if not given); None if malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[: end + 1], value[end + 1 :]
    else:
        colon = value.find(":")
        name, rest = (value, "") if colon < 0 else (value[:colon], value[colon:])
    if not name:
        return None
    if not rest:
        return name, 80
    port = rest[1:]
    if not rest.startswith(":") or not (port.isascii() and port.isdigit()) or len(port) > 5:
        return None
    return name, int(port)


def _origin(value: str) -> tuple[str, int] | None:
    """An ``Origin`` header as (name, port); None unless it is ``http://host[:port]``."""
    if not value.lower().startswith("http://"):
        return None
    rest = value[len("http://") :]
    if "/" in rest or "@" in rest:
        return None
    return _split_host(rest)


def _same(given: str, token: str) -> bool:
    return secrets.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode())
