"""Simultaneous buys (issue 26, item 5), on SQLite and PostgreSQL.

Five players sit at a ``contract`` table (RULES.md §3 buying: precedence, nearest in turn order to
the player about to draw; price, the discard plus one penalty card). Each time a buy window opens,
every seat in it claims the discard at once, from its own websocket and thread, after a random delay
of up to 30 ms. Each time: exactly one seat buys, the one nearest in turn order; every other claim is
either refused to its sender with a reason and a message, or stored as that seat's answer and then
outranked (the claim is an event everyone sees, and the state shows who bought); every physical card is in exactly one place, in the
game rebuilt from the stored log and in what the players are shown.
"""

from __future__ import annotations

import os
import random
import threading
import time
from typing import Any

import pytest
from server_fixtures import Client, ServerProcess, drive_to_a_buy_window, latest

from liverpool.engine.actions import action_from_dict
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.fuzz import card_problem
from liverpool.server.storage import Storage

SEATS = 5
ROUNDS = int(os.environ.get("LIVERPOOL_BUY_ROUNDS", "25"))
# Races at one table before the next starts at a fresh one (0: as many as its game has); a game over
# always starts a fresh one, so any number of races can be run (`make buy-races`).
PER_TABLE = int(os.environ.get("LIVERPOOL_BUY_RACES_PER_TABLE", "0"))
MAX_DELAY_S = 0.03


def stored_game(db: str, table_id: str) -> tuple[Any, list[dict[str, Any]]]:
    storage = Storage(db)
    try:
        info = storage.table(table_id)
        assert info is not None
        log = storage.actions(table_id)
    finally:
        storage.close()
    state = new_game(Ruleset.from_dict(info.ruleset), info.seat_count, info.first_dealer)
    for raw in log:
        apply(state, action_from_dict(raw))
    return state, log


def public_cards(obs: dict[str, Any]) -> int:
    """How many cards a player's view accounts for: hands, stock, pile and melds."""
    melds = sum(len(m["cards"]) for m in obs["melds"])
    return sum(s["hand_count"] for s in obs["seats"]) + obs["stock_size"] + len(obs["discard_pile"]) + melds


def race(clients: list[Client], window: list[int], rng: random.Random) -> None:
    """Every seat of the window claims the discard at once (each after its own random delay)."""
    start = threading.Barrier(len(window))
    delays = {seat: rng.uniform(0, MAX_DELAY_S) for seat in window}

    def claim(seat: int) -> None:
        start.wait()
        time.sleep(delays[seat])
        clients[seat].send({"type": "action", "action": {"type": "buy", "seat": seat}})

    threads = [threading.Thread(target=claim, args=(seat,)) for seat in window]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def a_table(server: ServerProcess) -> tuple[dict[str, Any], list[Client]]:
    """A fresh ``contract`` table of five humans, each connected; a deal that ends is followed by the next
    at once (no summary pause: the races, not the deal ends, are under test)."""
    created = server.create(preset="contract", seats=SEATS, away_timeout_s=0, buy_timeout_s=600, next_deal_timeout_s=0)
    tokens = [server.join(created["invite"], s, f"P{s}") for s in range(SEATS)]
    return created, [server.player(t) for t in tokens]


@pytest.mark.slow
def test_simultaneous_buys_have_exactly_one_winner(db_url: str, start_server: Any) -> None:
    rng = random.Random(int(os.environ.get("LIVERPOOL_BUY_SEED", "5")))
    server: ServerProcess = start_server(db_url)
    created, clients = a_table(server)
    refused: dict[str, int] = {}
    outranked = 0
    tables = 1
    at_this_table = 0
    try:
        for _ in range(ROUNDS):
            before = drive_to_a_buy_window(clients)
            if before is None or (PER_TABLE and at_this_table == PER_TABLE):
                for client in clients:
                    client.close()
                created, clients = a_table(server)
                tables += 1
                at_this_table = 0
                before = drive_to_a_buy_window(clients)
                assert before is not None, "a fresh game has a buy window"
            at_this_table += 1
            obs, seq = before["observation"], before["seq"]
            window = list(obs["window"])
            errors_before = [len(c.errors) for c in clients]
            race(clients, window, rng)
            after_states = latest(clients, seq + 1)
            after = after_states[window[0]]
            # wait until the window has closed for everyone
            for client in clients:
                client.current(lambda s: s["observation"]["phase"] != "buy")
            after_states = latest(clients, after["seq"])
            now = after_states[0]["observation"]
            winners = [s for s in range(SEATS) if now["seats"][s]["buys"] > obs["seats"][s]["buys"]]
            assert winners == [window[0]], f"buyers {winners}, window {window} (nearest first)"
            for seat in range(SEATS):
                grew = now["seats"][seat]["hand_count"] - obs["seats"][seat]["hand_count"]
                if seat == window[0]:
                    assert grew == 2, "the buyer takes the discard and one penalty card"
                elif seat != obs["current"]:
                    assert grew == 0
            state, log = stored_game(server.db, created["table_id"])
            assert card_problem(state) is None
            for view in after_states:
                assert public_cards(view["observation"]) == public_cards(obs)
            stored_buys = {a["seat"] for a in log[seq:] if a["type"] == "buy"}
            for seat in window[1:]:
                new_errors = clients[seat].errors[errors_before[seat] :]
                if seat in stored_buys:
                    outranked += 1
                    assert not new_errors
                else:
                    assert len(new_errors) == 1, (seat, new_errors)
                    error = new_errors[0]
                    assert error["reason"] and error["message"]
                    refused[error["reason"]] = refused.get(error["reason"], 0) + 1
    finally:
        for client in clients:
            client.close()
    print(f"{ROUNDS} races at {tables} tables: claims refused {refused}, claims taken then outranked {outranked}")
    assert "Traceback" not in server.logged()
