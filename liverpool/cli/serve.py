"""``liverpool serve``: the table server (lobby, play and spectating in the browser) on uvicorn.

The server's modules (FastAPI, SQLAlchemy, Alembic) are imported when the command runs, so the other
commands start without them.
"""

from __future__ import annotations

import gc
import logging
from typing import Annotated

import typer

WS_MAX_BYTES = 1024 * 1024


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL (sqlite:///FILE or postgresql://...); default $LIVERPOOL_DB, else liverpool.db here.",
        ),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            metavar="NAME",
            help="A host name the server answers to, besides localhost, 127.0.0.1, ::1 and --host (repeatable; "
            "also $LIVERPOOL_ALLOWED_HOSTS, comma-separated).",
        ),
    ] = None,
) -> None:
    """Run the table server: create tables, invite players, play and watch in the browser.

    Games are stored as they are played; a restarted server resumes every table where it was.
    Limits and host names: see docs/security.md.
    """
    import uvicorn

    from liverpool.buildinfo import describe_build
    from liverpool.server.app import create_app
    from liverpool.server.settings import Settings, SettingsError
    from liverpool.server.storage import database_url

    try:
        settings = Settings.from_env(hosts=[host, *(allowed_host or [])])
    except SettingsError as exc:
        raise typer.BadParameter(str(exc)) from exc
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(database_url(db), settings)
    logging.getLogger("liverpool.server").info("%s, serving on http://%s:%d", describe_build(), host, port)
    tune_gc()
    # No permessage-deflate: compressing each frame again for each client cost more than the frames'
    # bytes are worth (docs/performance.md, "Server load").
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=WS_MAX_BYTES, ws_per_message_deflate=False)


GC_YOUNG = 20_000  # allocations between young collections (Python's default: 700)


def tune_gc() -> None:
    """Fewer, cheaper garbage collections for a server whose heap is large and long-lived (the tables'
    games, bots and logs): what is loaded by now (modules, the app) is frozen out of every collection, and
    the young generation is collected every :data:`GC_YOUNG` allocations, so that the many objects that
    live for an action or two (states, deltas, frames) die young instead of reaching the old generation,
    whose collections traverse every table (docs/performance.md, "Server load")."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)
