"""The ASGI application: the lobby API, the websockets and the pages, over one storage and one hub.

>>> app = create_app('sqlite:///:memory:')
>>> app.url_path_for('play', token='abc'), app.url_path_for('watch_page', token='abc')
('/ws/play/abc', '/watch/abc')
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import api, pages, redact, reviews, ws
from .cluster import Cluster
from .coaching import Budget, Coaching
from .errors import LIMITS, Refused, validation_sentence
from .guard import SECURITY_HEADERS, Guard
from .hub import Hub
from .schemas import MAX_MESSAGE_BYTES, MAX_RECORD_BYTES, json_depth_over
from .settings import CLUSTER_ENV, Settings, SettingsError
from .storage import Storage

log = logging.getLogger(__name__)


def create_app(db_url: str, settings: Settings | None = None) -> FastAPI:
    """The server for the database at ``db_url`` (migrated, and its tables in play resumed, at startup),
    with the host names and limits of ``settings`` (by default, from the environment)."""
    settings = settings if settings is not None else Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact.install()
        storage = Storage(db_url)
        await to_thread.run_sync(storage.migrate, settings.migrate_wait_s)
        coaching = Coaching(
            settings.coach_workers, Budget(worlds=settings.hint_worlds), Budget(worlds=settings.review_worlds)
        )
        cluster = None
        if settings.cluster_lease_s > 0:
            if not db_url.startswith("postgresql"):
                raise SettingsError(f"${CLUSTER_ENV} needs a PostgreSQL database, not {db_url.split(':')[0]}")
            cluster = Cluster(db_url, settings.cluster_lease_s)
        hub = Hub(storage, coaching, cluster)
        app.state.server = api.Server(storage, hub, coaching)
        if cluster is not None:
            await cluster.start(hub)
        await hub.resume()
        try:
            yield
        finally:
            await hub.close()
            coaching.close()
            if cluster is not None:
                await cluster.close()
            storage.close()

    # FastAPI's /docs and /redoc pages run inline scripts from a CDN that our
    # Content-Security-Policy blocks; the schema stays at /openapi.json.
    app = FastAPI(title="Liverpool Rummy table server", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.add_middleware(BodyLimit)
    app.add_middleware(Guard, settings=settings)
    app.add_exception_handler(Refused, _refused)  # type: ignore[arg-type]  # Starlette types handlers loosely
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _crashed)
    app.include_router(api.router)
    app.include_router(reviews.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", pages.static_files(), name="static")
    return app


async def _refused(request: Request, exc: Refused) -> JSONResponse:
    _log_refusal(request, exc.reason)
    return JSONResponse(exc.to_dict(), status_code=exc.status)


def _log_refusal(request: Request, reason: str) -> None:
    """One line per refused API request: the route's template, never its path (which may hold a token)."""
    route = request.scope.get("route")
    where = getattr(route, "path", "?")
    client = request.client.host if request.client else "?"
    log.info("refused %s %s from %s: %s", request.method, where, client, reason)


async def _http(_request: Request, exc: HTTPException) -> JSONResponse:
    reason = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, f"http_{exc.status_code}")
    return JSONResponse(
        {"reason": reason, "message": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
    )


async def _crashed(_request: Request, _exc: Exception) -> JSONResponse:
    """A bug's answer (Starlette logs the exception). It is sent outside :class:`Guard`, so it brings
    the hardening headers itself."""
    headers = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
    return JSONResponse(
        {"reason": "internal", "message": "the server failed to answer this request"}, status_code=500, headers=headers
    )


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    _log_refusal(request, "invalid")
    problems = []
    for e in exc.errors():
        field = ".".join(str(p) for p in e["loc"][1:])
        # "input": the form's field the problem is in (a page names it as input.<name>), "" for the whole body
        problem = {"field": field, "input": str(e["loc"][1]) if len(e["loc"]) > 1 else "", "kind": e["type"]}
        problem["message"] = validation_sentence(field, e["type"], e["msg"], e.get("ctx"))
        if e["type"] in LIMITS:
            problem["limit"] = (e.get("ctx") or {}).get(LIMITS[e["type"]])
        problems.append(problem)
    message = " ".join(p["message"] for p in problems)
    return JSONResponse({"reason": "invalid", "message": message, "errors": problems}, status_code=422)


# Routes whose bodies are whole game records, not messages: they may be larger.
_RECORD_PATHS = frozenset({"/api/replay"})


class BodyLimit:
    """Refuses request bodies over the message limit (or the record limit for a record upload) (413), bodies of unknown length (411), and JSON
    nested deeper than :data:`~.schemas.MAX_DEPTH` (422 ``too_deep``), each with our error shape."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            headers = dict(scope["headers"])
            length = headers.get(b"content-length")
            refusal = None
            limit = MAX_RECORD_BYTES if scope["path"] in _RECORD_PATHS else MAX_MESSAGE_BYTES
            if length is None:
                if headers.get(b"transfer-encoding") is not None:
                    refusal = Refused(411, "length_required", "send a Content-Length")
            elif not length.isdigit() or int(length) > limit:
                refusal = Refused(
                    413, "too_large", f"a message may hold at most {limit} bytes", details={"limit": limit}
                )
            if refusal is None:
                body, receive = await _buffered(receive)
                if json_depth_over(body):
                    refusal = Refused(422, "too_deep", "a request body may nest lists and objects at most 32 deep")
            if refusal is not None:
                await JSONResponse(refusal.to_dict(), status_code=refusal.status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _buffered(receive: Receive) -> tuple[bytes, Receive]:
    """The whole request body (already known to be small), and a ``receive`` that hands it on again."""
    chunks: list[bytes] = []
    first: Message = {"type": "http.request", "body": b"", "more_body": False}
    while True:
        message = await receive()
        if message["type"] != "http.request":
            first = message
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            first = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            break
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return first
        return await receive()

    return b"".join(chunks), replay
