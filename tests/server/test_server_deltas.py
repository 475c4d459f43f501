"""Small messages (issue 27, item 2): after the first full state a client gets deltas, and a full state only
on connecting, on a resync or after a stale action.

:func:`~liverpool.server.deltas.diff` is checked against the ``jsonpatch`` package (a second RFC 6902
implementation applies its patches). Then a real ``liverpool serve`` plays a game of a seat (this test,
seeded choices; the shuffles are the server's) against two bots, watched by a spectator: every delta the
seat and the spectator get, applied on the state they hold (as ``server_fixtures.Client`` does), must give
the engine's observation of the stored game at that ``seq``; at each of the seat's moves a fresh
connection of the seat and of a spectator is opened, and the state each is sent whole must equal the
state the long-lived clients built from deltas. A delta whose ``base`` is not the state held leads to a
resync. ``test_server_no_leaks.py`` checks that no delta carries a card its recipient may not see.
"""

from __future__ import annotations

import json
import random
from typing import Any

import jsonpatch
import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_fixtures import FIRST_ONLY, Client, ServerProcess, my_move, past

from liverpool.engine import action_to_dict, apply, find_preset, legal_actions, new_game, observe
from liverpool.engine.actions import action_from_dict
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState
from liverpool.server.deltas import diff
from liverpool.server.storage import Storage

SEED = 27
MOVES = 1_000  # a cap, not a target: the loop ends with the game (random bots on a random table seed)
COMPARE_EVERY = 3  # the seat's moves at which fresh connections are compared
GAME_S = 60.0
TWO_DEALS = {"deals": find_preset("british-nobuy").to_dict()["deals"][:2]}

# -- the diff, against the jsonpatch package ----------------------------------------------------------

# Values Python finds equal (0 and False) are taken as unchanged (liverpool/server/deltas.py): the values
# drawn have numbers or booleans, not both.
texts = st.sampled_from(["", "a", "b", "a/b", "~1", "7♥"])


def json_values(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keys = st.sampled_from(["a", "b", "c/d", "~", ""])
    return st.recursive(
        scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner), max_leaves=20
    )


numbers, flags = json_values(st.none() | st.integers(-5, 5) | texts), json_values(st.none() | st.booleans() | texts)


@given(st.one_of(st.tuples(numbers, numbers), st.tuples(flags, flags)))
def test_the_diff_applied_by_jsonpatch_gives_the_new_value(pair: tuple[Any, Any]) -> None:
    old, new = pair
    patch = diff(old, new)
    assert json.dumps(jsonpatch.apply_patch(old, patch), sort_keys=True) == json.dumps(new, sort_keys=True)
    assert diff(new, new) == []


@given(st.lists(st.sampled_from(["2C", "5H", "KS", "JK", "9D"]), max_size=12), st.data())
def test_one_card_in_or_out_of_a_hand_is_one_operation(hand: list[str], data: st.DataObject) -> None:
    at = data.draw(st.integers(0, len(hand)))
    assert len(diff({"hand": hand}, {"hand": [*hand[:at], "QS", *hand[at:]]})) == 1
    if hand:
        gone = data.draw(st.integers(0, len(hand) - 1))
        assert len(diff({"hand": hand}, {"hand": hand[:gone] + hand[gone + 1 :]})) == 1


# -- a game over a real server --------------------------------------------------------------------------


class Stored:
    """The true game of a table, rebuilt from its stored log."""

    def __init__(self, storage: Storage, table_id: str) -> None:
        info = storage.table(table_id)
        assert info is not None
        self.storage, self.table_id = storage, table_id
        self.states = [new_game(Ruleset.from_dict(info.ruleset), info.seat_count, info.first_dealer)]

    def at(self, seq: int) -> GameState:
        if seq >= len(self.states):
            for raw in self.storage.actions(self.table_id)[len(self.states) - 1 :]:
                state = self.states[-1].clone()
                apply(state, action_from_dict(raw))
                self.states.append(state)
        return self.states[seq]


class Built:
    """The states one client's frames build, applied here apart from ``server_fixtures.Client``: the first
    state whole, then each delta on the state held, which must be the one of its ``base``."""

    def __init__(self, client: Client, seat: int | None, game: Stored) -> None:
        self.client, self.seat, self.game = client, seat, game
        self.read = 0
        self.held: dict[str, Any] | None = None
        self.deltas = 0

    def check(self) -> None:
        """Each state built since the last check shows the stored game at its seq, to this seat only."""
        for frame in self.client.frames[self.read :]:
            if frame["type"] == "state":
                assert self.held is None, [(f["type"], f.get("reason"), f.get("seq")) for f in self.client.frames]
                self.held = {key: value for key, value in frame.items() if key not in FIRST_ONLY}
            elif frame["type"] == "delta":
                assert self.held is not None and frame["base"] == self.held["seq"], frame
                self.held = jsonpatch.apply_patch(self.held, frame["patch"])
                self.deltas += 1
            else:
                continue
            assert self.held is not None
            if self.held["observation"] is not None:
                truth = self.game.at(self.held["seq"])
                assert self.held["observation"] == observe(truth, self.seat).to_client_dict(), self.held["seq"]
                mine = [action_to_dict(a) for a in legal_actions(truth) if a.seat is not None and a.seat == self.seat]
                assert self.held["legal"] == mine
        self.read = len(self.client.frames)

    def same_as_sent_whole(self, server: ServerProcess, path: str) -> bool:
        """Open a fresh connection to ``path`` (this client's seat, or a spectator's): whether the state it is
        sent whole is the one this client built from the delta sent with it (False: the table moved on)."""
        with server.connect(path) as fresh:
            first = fresh.state_where(lambda s: True)
            self.client.quiet(0.1)
        self.check()
        sent = {key: value for key, value in first.items() if key not in FIRST_ONLY}
        if self.held is None or self.held["seq"] != sent["seq"]:
            return False
        # the turn clock's `elapsed` is read at each sending (server time), not kept in the game: compared without it
        untimed = lambda view: {**view, "clock": {**view["clock"], "elapsed": None}} if view.get("clock") else view  # noqa: E731
        assert untimed(self.held) == untimed(sent), "the state built from deltas is not the state sent whole"
        assert self.client.state == sent, "server_fixtures.Client built another state"
        return True


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A seeded choice that ends deals: going down or laying off when it can, else any legal action."""
    legal: list[dict[str, Any]] = state["legal"]
    eager = [a for a in legal if a["type"] in ("go_down", "lay_off")]
    return rng.choice(eager or legal)


@pytest.mark.slow
def test_deltas_on_the_first_state_give_every_full_state(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(
        preset="british-nobuy", rules=TWO_DEALS, seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0,
        away_timeout_s=0, next_deal_timeout_s=0,
    )  # fmt: skip
    token = lobby_server.join(created["invite"], 0, "Ada")
    storage = Storage(lobby_server.db)
    game = Stored(storage, created["table_id"])
    rng = random.Random(SEED)
    compared = moves = 0
    try:
        with lobby_server.player(token) as me, lobby_server.spectator(created["spectator"]) as watcher:
            mine, theirs = Built(me, 0, game), Built(watcher, None, game)
            while moves < MOVES:
                me.quiet(0.1)
                state = me.current(lambda s: my_move(s) or s["status"] == "over", GAME_S)
                watcher.quiet(0.05)
                mine.check()
                theirs.check()
                if moves % COMPARE_EVERY == 0:
                    seat_same = mine.same_as_sent_whole(lobby_server, f"/ws/play/{token}")
                    watcher_same = theirs.same_as_sent_whole(lobby_server, f"/ws/watch/{created['spectator']}")
                    compared += seat_same and watcher_same
                state = me.state
                assert state is not None
                if state["status"] == "over":
                    break
                if my_move(state):
                    me.send({"type": "action", "action": choose(state, rng), "seq": state["seq"]})
                    moves += 1
                    # Not before the server has answered: on a loaded machine the state still held would
                    # say it is my move, and a second action on it is refused as stale (a whole state).
                    me.state_where(past(state["seq"]), GAME_S)
            me.quiet(0.2)
            watcher.quiet(0.2)
            mine.check()
            theirs.check()
    finally:
        storage.close()
    assert not me.errors and me.resyncs == 0 and watcher.resyncs == 0, me.errors
    assert state["status"] == "over" and state["observation"]["results"], "the game was not played to its end"
    assert mine.deltas > 100 and theirs.deltas > 100
    print(f"{moves} moves, {compared} compared, {mine.deltas} and {theirs.deltas} deltas")
    assert compared >= moves // COMPARE_EVERY // 2, (compared, moves)


def test_a_delta_on_another_base_asks_for_a_resync(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(
        seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=1, buy_timeout_s=1
    )
    with lobby_server.spectator(created["spectator"]) as watcher:
        lobby_server.join(created["invite"], 0, "Ada")
        watcher.state_where(lambda s: s["observation"] is not None and s["seq"] > 5)
        assert watcher.held is not None
        watcher.held = {**watcher.held, "seq": watcher.held["seq"] - 1}  # as if a delta had been lost
        watcher.until(lambda m: m["type"] == "delta")  # held on the wrong base: skipped, resync asked
        assert watcher.resyncs == 1 and watcher.skipped
        again = watcher.until(lambda m: m["type"] == "state")
        index = watcher.frames.index(again)
        assert all(f["type"] != "state" for f in watcher.frames[watcher.frames.index(watcher.skipped[0]) : index])
        assert again["seq"] >= watcher.skipped[0]["seq"] and "rules" not in again
        later = watcher.state_where(lambda s: s["seq"] > again["seq"])
        assert watcher.frames[-1]["type"] == "delta" and later is watcher.held, "deltas apply again"
        assert watcher.resyncs == 1


def test_a_resync_asked_for_sends_the_whole_state(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000, away_timeout_s=0)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me, lobby_server.spectator(created["spectator"]) as watcher:
        me.state_where(lambda s: s["observation"] is not None)
        me.quiet()
        watcher.quiet()
        held = me.held  # the state without what only the first one carries
        assert held is not None
        me.send({"type": "resync"})
        again = me.until(lambda m: m["type"] == "state")
        assert me.frames[-1] is again, "the resync is answered with a whole state, not a delta"
        ignore = {"clock"}  # the turn clock runs on
        assert {k: v for k, v in again.items() if k not in ignore} == {k: v for k, v in held.items() if k not in ignore}
        watcher.quiet()
        assert watcher.resyncs == 0 and watcher.state is not None and watcher.state["seq"] == again["seq"]


def test_a_seat_taken_after_a_client_attached_reaches_it_as_a_delta(lobby_server: ServerProcess) -> None:
    """The actor's lists of names and bots change in place when a seat is taken: the last view sent (the next
    delta's base) must not change with them, or the new name is never sent to those already watching."""
    created = lobby_server.create(seats=3, bots={"1": "random"}, bot_pace_ms=60_000)
    with lobby_server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: s["names"] == [None, None, None])
        lobby_server.join(created["invite"], 0, "Ada")
        lobby_server.join(created["invite"], 2, "Bea")
        joined = watcher.state_where(lambda s: s["observation"] is not None, timeout=10)
        assert joined["names"] == ["Ada", None, "Bea"], joined["names"]
        assert watcher.frames[0]["type"] == "state" and all(f["type"] != "state" for f in watcher.frames[1:])
        with lobby_server.spectator(created["spectator"]) as whole:
            first = whole.state_where(lambda s: True)
        assert first["names"] == joined["names"] and first["bots"] == joined["bots"]
