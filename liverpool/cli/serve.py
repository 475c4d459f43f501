"""``liverpool serve``: the table server (lobby, play and spectating in the browser) on uvicorn.

The server's modules (FastAPI, SQLAlchemy, Alembic) are imported when the command runs, so the other
commands start without them.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
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
    log.info("%s, serving on http://%s:%d", describe_build(), host, port)
    tune_gc(settings.gc_interval_s)
    # No permessage-deflate: compressing each frame again for each client cost more than the frames'
    # bytes are worth (docs/performance.md, "Server load").
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=WS_MAX_BYTES, ws_per_message_deflate=False)


GC_YOUNG = 20_000  # allocations between young collections when Python's own are kept (its default: 700)

log = logging.getLogger("liverpool.server")


GC_GROWTH = 500_000  # tracked objects added since the last collection that call for one before its time


def tune_gc(interval_s: float, growth: int = GC_GROWTH) -> threading.Thread | None:
    """The server's garbage collections. What is loaded by now (modules, the app) is frozen out of every
    collection. Then, with ``interval_s`` > 0 (``$LIVERPOOL_GC_INTERVAL_S``, default 600), Python's own
    collections are off and a thread collects everything every ``interval_s`` seconds, or sooner when
    ``growth`` (:data:`GC_GROWTH`) more objects are tracked than after the last collection (garbage piling up: each HTTP
    connection leaves a few cycles), logging what it freed and how long it took; with 0, Python's own stay,
    the young generation collected every :data:`GC_YOUNG` allocations.

    Why (docs/performance.md, "Session 50"): a table's state lives until its next action, so a young
    collection finds the last second's states of every table alive and traverses them; at 1,000 tables that
    was 8 to 100 ms a collection, several a second, and the ping tail (p99 151 ms; 15.5 ms with them off).
    What the server drops is freed by reference counting, not by collections, as long as nothing it makes
    per action is a reference cycle (``tests/engine/test_compiled.py`` checks the bots'); the thread frees
    what cycles there are, so memory stays bounded."""
    gc.collect()
    gc.freeze()
    if interval_s <= 0:
        _young, middle, old = gc.get_threshold()
        gc.set_threshold(GC_YOUNG, middle, old)
        return None
    gc.disable()
    thread = threading.Thread(target=_collect, args=(interval_s, growth), name="liverpool-gc", daemon=True)
    thread.start()
    return thread


def _collect(interval_s: float, growth: int) -> None:
    """Every second: a full collection if ``interval_s`` have passed since the last, or if the objects tracked
    have grown by ``growth`` and by a quarter of those the last one left (Python's count of the young
    generation: objects made less those freed; the quarter, as Python's own full collections wait for, keeps
    their cost in proportion as the tables grow)."""
    last, need = time.monotonic(), growth
    while True:
        time.sleep(min(1.0, interval_s))
        grown = gc.get_count()[0]
        if time.monotonic() - last < interval_s and grown < need:
            continue
        start = time.perf_counter()
        freed = gc.collect()
        took = time.perf_counter() - start
        kept = len(gc.get_objects(generation=2))
        last, need = time.monotonic(), max(growth, kept // 4)
        log.info(
            "garbage collection: %d objects freed in %.1f ms (%d more than after the last; %d kept)",
            freed,
            took * 1000,
            grown,
            kept,
        )
