"""The browser pages: the static UI in ``static/``, and the HTML file each link opens.

| path | file |
|---|---|
| ``/`` | ``index.html`` (the lobby) |
| ``/join/{invite}`` | ``join.html`` |
| ``/play/{seat_token}``, ``/watch/{spectator_token}`` | ``table.html`` |
| ``/replay/{table_id}`` | ``replay.html`` |
| ``/review/{table_id}`` | ``review.html`` (``?seat=N``) |

Everything else in ``static/`` is served under ``/static/``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.staticfiles import StaticFiles

from .errors import Refused

STATIC = Path(__file__).parent / "static"
router = APIRouter()


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC, check_dir=False)


def _page(name: str) -> FileResponse:
    path = STATIC / name
    if not path.is_file():
        raise Refused(404, "no_page", f"the web UI has no {name} (liverpool/server/static/ is not installed)")
    return FileResponse(path, media_type="text/html")


@router.get("/", include_in_schema=False)
async def lobby() -> FileResponse:
    return _page("index.html")


@router.get("/join/{invite}", include_in_schema=False)
async def join_page(invite: str) -> FileResponse:
    return _page("join.html")


@router.get("/play/{token}", include_in_schema=False)
async def play_page(token: str) -> FileResponse:
    return _page("table.html")


@router.get("/watch/{token}", include_in_schema=False)
async def watch_page(token: str) -> FileResponse:
    return _page("table.html")


@router.get("/replay/{table_id}", include_in_schema=False)
async def replay_page(table_id: str) -> FileResponse:
    return _page("replay.html")


@router.get("/review/{table_id}", include_in_schema=False)
async def review_page(table_id: str) -> FileResponse:
    return _page("review.html")
