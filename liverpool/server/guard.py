"""The server's outer wall, as one ASGI middleware: checked before any route runs.

- the ``Host`` header must name one of the configured hosts (400 ``unknown_host``);
- a websocket handshake, or a POST/PUT/PATCH/DELETE, that carries a foreign ``Origin`` is refused
  (403 ``foreign_origin``; a websocket is closed with 1008 and that reason);
- one client address holds at most so many websockets at once (closed with 1008 ``too_many_connections``),
  and creates at most so many tables and saved rulesets a minute (429 ``too_many_tables`` /
  ``too_many_rulesets``, with ``Retry-After``; only requests that succeed are counted);
- every HTTP answer carries the browser hardening headers of :data:`SECURITY_HEADERS`.

Refusals are logged once each, at warning level, with their reason, the client address and the path
(its token, if any, redacted: ``refused websocket /ws/play/[redacted] from 127.0.0.1: foreign_origin``).
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import defaultdict, deque
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import Refused
from .redact import redact
from .settings import Settings

log = logging.getLogger(__name__)

POLICY = 1008
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
WINDOW_S = 60.0


def host_name(host: str) -> str:
    """The name part of a ``Host`` header, lower case: ``[::1]:8000`` -> ``::1``, ``a.b:80`` -> ``a.b``.

    >>> host_name('[::1]:8000'), host_name('LocalHost:8000'), host_name('127.0.0.1')
    ('::1', 'localhost', '127.0.0.1')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def same_origin(origin: str, host: str) -> bool:
    """Whether a browser's ``Origin`` is the site the request was sent to (its ``Host``).

    >>> same_origin('http://localhost:8000', 'localhost:8000'), same_origin('https://evil.example', 'localhost:8000')
    (True, False)
    >>> same_origin('null', 'localhost:8000')
    False
    """
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


class PerMinute:
    """At most ``limit`` events per key in any 60 seconds (``limit`` 0: no limit).

    >>> window = PerMinute(2)
    >>> window.add("a", 0.0); window.add("a", 1.0); window.wait("a", 2.0), window.wait("b", 2.0), window.wait("a", 61.0)
    (58.0, 0.0, 0.0)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._events: defaultdict[str, deque[float]] = defaultdict(deque)

    def wait(self, key: str, now: float) -> float:
        """0.0 if ``key`` may have one more event now, else the seconds until it may."""
        if self.limit <= 0:
            return 0.0
        events = self._events[key]
        while events and events[0] <= now - WINDOW_S:
            events.popleft()
        if not events:
            del self._events[key]
            return 0.0
        return events[0] + WINDOW_S - now if len(events) >= self.limit else 0.0

    def add(self, key: str, now: float) -> None:
        if self.limit > 0:
            self._events[key].append(now)


class Guard:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.sockets: defaultdict[str, int] = defaultdict(int)
        self.created = {
            "/api/tables": (PerMinute(settings.tables_per_minute), "too_many_tables", "tables"),
            "/api/rulesets": (PerMinute(settings.rulesets_per_minute), "too_many_rulesets", "saved rulesets"),
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "http":
            send = _hardened(send)
        client = _client(scope)
        refusal = self._check(scope, client)
        if refusal is not None:
            where = redact(scope.get("path", "?"))
            log.warning("refused %s %s from %s: %s", scope.get("method", "websocket"), where, client, refusal.reason)
            await _refuse(scope, receive, send, refusal)
            return
        created = self.created.get(scope["path"]) if kind == "http" and scope["method"] == "POST" else None
        if created is not None:
            send = _counting(send, created[0], client)
        if kind == "websocket":
            self.sockets[client] += 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.sockets[client] -= 1
                if self.sockets[client] <= 0:
                    del self.sockets[client]
            return
        await self.app(scope, receive, send)

    def _check(self, scope: Scope, client: str) -> Refused | None:
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if host_name(host) not in self.settings.allowed_hosts:
            return Refused(400, "unknown_host", "this server does not answer to that host name (see --allowed-host)")
        origin = headers.get("origin")
        websocket = scope["type"] == "websocket"
        if origin is not None and (websocket or scope["method"] in STATE_CHANGING) and not same_origin(origin, host):
            return Refused(403, "foreign_origin", "requests from another site's pages are refused")
        limit = self.settings.connections_per_client
        if websocket and limit > 0 and self.sockets[client] >= limit:
            return Refused(
                429,
                "too_many_connections",
                f"one address may hold at most {limit} connections at once",
                details={"limit": limit},
            )
        if not websocket and scope["method"] == "POST" and scope["path"] in self.created:
            window, reason, what = self.created[scope["path"]]
            wait = window.wait(client, time.monotonic())
            if wait > 0:
                refusal = Refused(
                    429,
                    reason,
                    f"at most {window.limit} {what} a minute from one address; try again in {math.ceil(wait)} s",
                    details={"limit": window.limit, "wait_s": math.ceil(wait)},
                )
                refusal.retry_after = math.ceil(wait)
                return refusal
        return None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _counting(send: Send, window: PerMinute, client: str) -> Send:
    """Counts a creation in ``window`` when it succeeds (a refused request costs nothing)."""

    async def send_counted(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] < 400:
            window.add(client, time.monotonic())
        await send(message)

    return send_counted


def _hardened(send: Send) -> Send:
    async def send_hardened(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {name for name, _ in SECURITY_HEADERS}
            headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
            message = {**message, "headers": headers + list(SECURITY_HEADERS)}
        await send(message)

    return send_hardened


async def _refuse(scope: Scope, receive: Receive, send: Send, refusal: Refused) -> None:
    body = json.dumps(refusal.to_dict()).encode()
    if scope["type"] == "websocket":
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": json.dumps({"type": "error", **refusal.to_dict()})})
        await send({"type": "websocket.close", "code": POLICY, "reason": refusal.reason})
        return
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if refusal.retry_after is not None:
        headers.append((b"retry-after", str(refusal.retry_after).encode()))
    start: dict[str, Any] = {"type": "http.response.start", "status": refusal.status, "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": body})
