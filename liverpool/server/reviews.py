"""The coach's review of a finished table (``GET /api/tables/{id}/review/{seat}``), for the Review page.

A review is measured once per table, seat and coach budget, in the worker pool (:mod:`.coaching`, one deal
per job, so the page can show how far it has got), and stored with the coach's version and budget: asked
again, even after the coach has changed, it is read back as it was, so it never changes under its reader.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Query, Response

from liverpool.coach import THRESHOLDS

from .api import Srv, stored_record
from .errors import Refused
from .loading import display_name
from .storage import OVER

router = APIRouter(prefix="/api")


@router.get("/tables/{table_id}/review/{seat}")
async def review(
    table_id: str,
    seat: int,
    server: Srv,
    response: Response,
    threshold: float = Query(THRESHOLDS.inaccuracy, ge=0, le=200),
) -> dict[str, Any]:
    """The review of ``seat`` (``status`` ``done``, with ``review``, the ``graph`` to draw and the decisions
    ``worse`` than ``threshold``), or how far its measuring has got (202, ``status`` ``measuring``, ``done``
    of ``total`` deals; the first request starts it)."""
    info = await to_thread.run_sync(server.storage.table, table_id)
    if info is None:
        raise Refused(404, "no_such_table", f"there is no table {table_id!r}")
    if info.status != OVER:
        raise Refused(409, "not_over", "a game is reviewed once it is over")
    if not 0 <= seat < info.seat_count:
        raise Refused(422, "no_such_seat", f"this table has seats 0 to {info.seat_count - 1}, not {seat}")
    coaching = server.coaching
    if coaching is None:
        raise Refused(503, "no_coach", "this server has no coach to review games")
    key = coaching.reviews.key()
    names = [display_name(x.seat, x.name, x.bot) for x in info.seats]
    stored = await to_thread.run_sync(server.storage.review, table_id, seat, key)
    if stored is None:
        job = coaching.jobs.get((table_id, seat))
        if job is not None and job.failed is not None:
            del coaching.jobs[(table_id, seat)]
            raise Refused(500, "review_failed", f"the review could not be measured ({job.failed}); ask again")
        if job is None:
            record = await to_thread.run_sync(stored_record, server.storage, info)
            job = coaching.review_job(table_id, seat, record, partial(server.storage.save_review, table_id, seat, key))
        response.status_code = 202
        return {**job.view(), "names": names}
    return {
        "status": "done",
        "seat": seat,
        "name": names[seat],
        "names": names,
        "threshold": threshold,
        "review": stored,
        "graph": graph(stored),
        "worse": worse(stored, threshold),
    }


def graph(review: dict[str, Any]) -> list[dict[str, Any]]:
    """Per deal, the seat's expected points after each decision (the option played) and its judgement: the
    points of the Review page's graph."""
    deals: dict[int, list[dict[str, Any]]] = {}
    for d in review["decisions"]:
        deals.setdefault(d["deal"], []).append(
            {
                "index": d["index"],
                "expected": d["expected"],
                "judgement": d["judgement"],
                "played": d["played_text"],
                "played_words": d.get("played_words"),
            }
        )
    return [{"deal": deal, "points": points} for deal, points in sorted(deals.items())]


def worse(review: dict[str, Any], threshold: float) -> list[dict[str, Any]]:
    """The decisions where the best option was better by more than ``threshold`` points beyond the error:
    the points lost, the better option and its reason."""
    out = []
    for d in review["decisions"]:
        lost = d["loss"] - d["loss_se"]
        if lost > threshold:
            best = d["advice"]["options"][0]
            out.append(
                {
                    "index": d["index"],
                    "deal": d["deal"],
                    "played": d["played_text"],
                    "lost": round(d["loss"], 1),
                    "se": round(d["loss_se"], 1),
                    "judgement": d["judgement"],
                    "better": best["text"],
                    "reason": best["reason"],
                    # the same as phrases (None in a review stored before the coach sent them)
                    "played_words": d.get("played_words"),
                    "better_words": best.get("words"),
                    "reason_words": best.get("reason_words"),
                }
            )
    return out
