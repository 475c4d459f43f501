"""The Review of a finished table (issue 30, item 5), from a real server: measured once in the worker pool
with its progress shown, stored under the coach's version and budget, and read back unchanged after."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from server_fixtures import ServerProcess
from sqlalchemy import create_engine, text

from liverpool.coach import COACH_VERSION, Coach, review_record
from liverpool.engine import GameRecord
from liverpool.server.storage import database_url

Start = Callable[..., ServerProcess]
ONE_DEAL = {"deals": [{"contract": ["set 3", "set 3"], "hand_size": 7}]}
ENV = {"LIVERPOOL_REVIEW_WORLDS": "2", "LIVERPOOL_COACH_WORKERS": "1"}


def _until(server: ServerProcess, path: str, status: int, timeout: float = 240.0) -> list[Any]:
    """Every answer to ``path`` until one has ``status``."""
    answers = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = server.get(path)
        answers.append((answer.status_code, answer.json()))
        if answer.status_code == status:
            return answers
        time.sleep(0.3)
    raise AssertionError(f"{path} did not answer {status} within {timeout}s: {answers[-1]}")


@pytest.mark.slow  # a game's review and the same review measured here again
def test_a_finished_table_is_reviewed_once_and_stored(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env=ENV)
    # the reviewed seat 1 plays at random between two `easy` bots, who end the deal soon: a review of
    # 20-50 decisions (about 1-2 s of one core), where three random bots make 130-150 (35 s)
    created = server.create(rules=ONE_DEAL, seats=3, bots={"0": "easy", "1": "random", "2": "easy"}, bot_pace_ms=0)
    table = created["table_id"]
    path = f"/api/tables/{table}/review/1"
    assert _until(server, f"/api/tables/{table}/record", 200)[-1][0] == 200
    answers = _until(server, path, 200)
    first_status, progress = answers[0]
    assert first_status == 202 and progress["status"] == "measuring" and progress["total"] == 1, progress
    done = answers[-1][1]
    review = done["review"]
    assert review["coach"] == {"version": COACH_VERSION, "worlds": 2, "candidates": 4}
    assert review["seat"] == 1 and review["decisions"]

    record = GameRecord.from_json(server.get(f"/api/tables/{table}/record").text)
    local = review_record(record, 1, Coach(worlds=2), seed=0).to_dict()
    assert local["decisions"] == review["decisions"], "the verdicts are liverpool.coach's, reproducibly"

    points = [p for deal in done["graph"] for p in deal["points"]]
    assert [p["index"] for p in points] == [d["index"] for d in review["decisions"]]
    assert {p["judgement"] for p in points} <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    worse = server.get(f"{path}?threshold=0").json()["worse"]
    assert [w["index"] for w in worse] == [d["index"] for d in review["decisions"] if d["loss"] - d["loss_se"] > 0]
    assert all(w["better"] and w["reason"] for w in worse)
    assert all(w["better_words"]["key"].startswith("advice.do.") and w["reason_words"] for w in worse)

    engine = create_engine(database_url(sqlite_url))
    try:
        with engine.begin() as connection:
            rows = connection.execute(text("SELECT coach FROM reviews WHERE table_id = :t"), {"t": table}).all()
            assert rows == [(f"{COACH_VERSION}/w2/c4",)], "stored under the coach's version and budget"
            # what is stored is what is read: a stored verdict is never measured again
            connection.execute(
                text("UPDATE reviews SET review = :r WHERE table_id = :t"),
                {"r": json.dumps({**review, "luck": 12345.0}), "t": table},
            )
    finally:
        engine.dispose()
    again = server.get(path)
    assert again.status_code == 200 and again.json()["review"]["luck"] == 12345.0


def test_a_review_is_refused_before_the_end_and_for_no_seat(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0)
    refused = lobby_server.get(f"/api/tables/{created['table_id']}/review/0")
    assert refused.status_code == 409 and refused.json()["reason"] == "not_over"
    assert lobby_server.get("/api/tables/nope/review/0").json()["reason"] == "no_such_table"
