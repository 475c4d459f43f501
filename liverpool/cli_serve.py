"""``liverpool serve``: the table server (lobby, play and spectating in the browser) on uvicorn.

The server's modules (FastAPI, SQLAlchemy, Alembic) are imported when the command runs, so the other
commands start without them.
"""

from __future__ import annotations

import logging
from typing import Annotated

import typer

WS_MAX_BYTES = 1024 * 1024


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--db", help="Database URL (sqlite:///FILE or postgresql://...); default $LIVERPOOL_DB, else liverpool.db here."),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
) -> None:
    """Run the table server: create tables, invite players, play and watch in the browser.

    Games are stored as they are played; a restarted server resumes every table where it was.
    """
    import uvicorn

    from .server.app import create_app
    from .server.storage import database_url

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    uvicorn.run(create_app(database_url(db)), host=host, port=port, log_level=log_level, ws_max_size=WS_MAX_BYTES)
