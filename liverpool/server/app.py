"""The ASGI application: the lobby API, the websockets and the pages, over one storage and one hub.

>>> app = create_app('sqlite:///:memory:')
>>> app.url_path_for('play', token='abc'), app.url_path_for('watch_page', token='abc')
('/ws/play/abc', '/watch/abc')
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from . import api, pages, ws
from .errors import Refused
from .hub import Hub
from .schemas import MAX_MESSAGE_BYTES
from .storage import Storage


def create_app(db_url: str) -> FastAPI:
    """The server for the database at ``db_url`` (migrated, and its tables in play resumed, at startup)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_url)
        await to_thread.run_sync(storage.migrate)
        hub = Hub(storage)
        app.state.server = api.Server(storage, hub)
        await hub.resume()
        try:
            yield
        finally:
            await hub.close()
            storage.close()

    app = FastAPI(title="Liverpool Rummy table server", lifespan=lifespan)
    app.add_middleware(BodyLimit)
    app.add_exception_handler(Refused, _refused)  # type: ignore[arg-type]  # Starlette types handlers loosely
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", pages.static_files(), name="static")
    return app


async def _refused(_request: Request, exc: Refused) -> JSONResponse:
    return JSONResponse(exc.to_dict(), status_code=exc.status)


async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
    problems = [{"field": ".".join(str(p) for p in e["loc"][1:]), "message": e["msg"]} for e in exc.errors()]
    message = "; ".join(f"{p['field'] or 'body'}: {p['message']}" for p in problems)
    return JSONResponse({"reason": "invalid", "message": message, "errors": problems}, status_code=422)


class BodyLimit:
    """Refuses request bodies over the message limit (413), and bodies of unknown length (411)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            headers = dict(scope["headers"])
            length = headers.get(b"content-length")
            refusal = None
            if length is None:
                if headers.get(b"transfer-encoding") is not None:
                    refusal = Refused(411, "length_required", "send a Content-Length")
            elif not length.isdigit() or int(length) > MAX_MESSAGE_BYTES:
                refusal = Refused(413, "too_large", f"a request body may hold at most {MAX_MESSAGE_BYTES} bytes")
            if refusal is not None:
                await JSONResponse(refusal.to_dict(), status_code=refusal.status)(scope, receive, send)
                return
        await self.app(scope, receive, send)
