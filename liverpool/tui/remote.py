"""A seat at a server table (``liverpool play --join URL``): the browser's websocket protocol, from a terminal.

:func:`seat_link` turns an invite link (``/join/{invite}``: takes the first free seat) or a private seat link
(``/play/{seat_token}``) into the seat's websocket URL. :class:`RemoteSession` keeps the latest ``state`` the
server sent (a full state on connecting, then each ``delta`` applied on it with ``jsonpatch``; a delta on
another ``base`` than the state held asks for a ``resync``), turns typed commands into actions (the same
:class:`~.seat.SeatCommands` as a local game) and sends them with the ``seq`` of the state they were chosen in
and a fresh ``id`` (docs/protocol.md). When the connection drops it reconnects with ``?since=`` that ``seq``
and gets exactly the events it missed; an action sent but not acknowledged is sent again with the same ``id``,
which the server never plays twice. At a deal's end it writes the summary in the log and presses Next deal
for its seat at once, so the table does not hold the next deal for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
import jsonpatch
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from liverpool.cli.narrate import deal_end_lines
from liverpool.engine import (
    Action,
    Card,
    DealEndReason,
    DealResult,
    Meld,
    MeldKind,
    Observation,
    Phase,
    PileLog,
    PileMove,
    Ruleset,
    SeatView,
    TableMeld,
    action_from_dict,
    action_to_dict,
)

from .commands import Command, CommandError
from .seat import SeatCommands, Turn, game_end_lines

UNKNOWN_TOKEN = 4404
FIRST_ONLY = ("rules", "resumed", "talk")  # what only the first state after connecting carries
MAX_BACKOFF_S = 5.0


class LinkError(ValueError):
    """A ``--join`` link that does not lead to a seat, with why."""


@dataclass(frozen=True, slots=True)
class SeatLink:
    ws_url: str  # ws://host/ws/play/{token}
    seat_url: str  # http://host/play/{token}: the private link to come back with


def seat_link(url: str, name: str, timeout: float = 10.0) -> SeatLink:
    """The websocket of the seat ``url`` leads to; an invite link takes the first free seat under ``name``."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{url!r} is not a table link (http://HOST/join/INVITE or http://HOST/play/SEAT_TOKEN)")
    base = f"{parts.scheme}://{parts.netloc}"
    ws_base = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}"
    words = [w for w in parts.path.split("/") if w]
    if len(words) == 2 and words[0] == "play":
        return SeatLink(f"{ws_base}/ws/play/{words[1]}", f"{base}/play/{words[1]}")
    if len(words) != 2 or words[0] != "join":
        raise LinkError(f"{url!r} is neither an invite link (/join/INVITE) nor a seat link (/play/SEAT_TOKEN)")
    invite = words[1]
    try:
        table = httpx.get(f"{base}/api/invite/{invite}", timeout=timeout)
        if table.status_code != 200:
            raise LinkError(f"the server does not know this invite ({table.status_code}: {_reason(table)})")
        free = [s["seat"] for s in table.json()["seats"] if s["free"]]
        if not free:
            raise LinkError("every seat at this table is taken (a seat link, /play/..., comes back to yours)")
        joined = httpx.post(f"{base}/api/invite/{invite}/join", json={"seat": free[0], "name": name}, timeout=timeout)
    except httpx.HTTPError as exc:
        raise LinkError(f"cannot reach {base}: {exc}") from exc
    if joined.status_code != 200:
        raise LinkError(f"could not take seat {free[0]}: {_reason(joined)}")
    token = joined.json()["seat_token"]
    return SeatLink(f"{ws_base}/ws/play/{token}", f"{base}/play/{token}")


def _reason(answer: httpx.Response) -> str:
    try:
        return str(answer.json().get("message", answer.text))
    except ValueError:
        return answer.text[:200]


def _cards(texts: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


def _table_meld(data: dict[str, Any]) -> TableMeld:
    return TableMeld(data["owner"], Meld(MeldKind(data["kind"]), _cards(data["cards"]), data["low"]))


def _result(data: dict[str, Any]) -> DealResult:
    return DealResult(
        deal=data["deal"],
        went_out=data["went_out"],
        scores=tuple(data["scores"]),
        reason=DealEndReason(data["reason"]),
        hands=tuple(_cards(h) for h in data["hands"]),
        points=tuple(data["points"]),
        melds=tuple(_table_meld(m) for m in data["melds"]),
        reshuffles=data["reshuffles"],
        cut_bonus_seat=data["cut_bonus_seat"],
    )


def observation_from_dict(data: dict[str, Any], rules: Ruleset) -> Observation:
    """The :class:`Observation` that ``Observation.to_dict`` sent (the server's ``observation``)."""
    deal = min(data["deal"], len(rules.deals) - 1)
    card = data["taken"], data["must_place"]
    return Observation(
        data["viewer"],
        rules,
        len(data["seats"]),
        data["deal"],
        rules.deals[deal].contract,
        Phase(data["phase"]),
        data["current"],
        data["dealer"],
        _cards(data["hand"]),
        tuple(
            SeatView(s["seat"], s["hand_count"], s["down"], s["buys"], _cards(s["known"]), s["announced"])
            for s in data["seats"]
        ),
        tuple(_table_meld(m) for m in data["melds"]),
        _cards(data["discard_pile"]),
        data["stock_size"],
        data["fresh"],
        data["discarder"],
        tuple(data["may_i_calls"]),
        tuple(data["window"]),
        tuple((s, bool(w)) for s, w in data["window_answers"]),
        data["call_open"],
        None if card[0] is None else Card.parse(card[0]),
        None if card[1] is None else Card.parse(card[1]),
        _cards(data["reclaimed"]),
        data["down_this_turn"],
        data["reshuffles"],
        tuple(_result(r) for r in data["results"]),
        tuple(data["totals"]),
        tuple(data["winners"]),
        data["turn"],
        PileLog.of((seat, PileMove(kind), Card.parse(card)) for seat, kind, card in data.get("pile_log", ())),
    )


class RemoteSession(SeatCommands):
    """The person's seat at a server table, as the server last described it."""

    pauses_at_deal_end = False

    def __init__(self, link: SeatLink) -> None:
        self.link = link
        self.human = 0
        self.by_rank = False
        self.log: list[str] = [f"Your seat link (to come back to this seat): {link.seat_url}"]
        self.names: list[str] = []
        self.rules: Ruleset | None = None
        self.status = "connecting"  # "open", "lost" (retrying) or "gone" (the server does not know the seat)
        self.seq: int | None = None  # the seq of the last state seen
        self.held: dict[str, Any] | None = None  # that state (deltas apply to it), without FIRST_ONLY
        self.resyncs = 0  # resyncs asked for: deltas that did not follow on the state held
        self._resyncing = False
        self._read_at: int | None = None  # the seq of the deal's end this connection pressed Next deal at
        self.table_id = ""
        self.connects = 0
        self.resumed: list[bool] = []  # each connection's first state: whether it carried on without a gap
        self.event_seqs: list[int] = []  # the seq of each event logged, in order
        self.pending: dict[str, Any] | None = None  # the action sent and not yet acknowledged
        self.socket: ClientConnection | None = None
        self._obs: Observation | None = None
        self._legal: list[Action] = []
        self._results_logged = 0
        self._game_end_logged = False
        self._deadline: float | None = None  # when an open buy window closes (time.monotonic())
        self._prefix = secrets.token_hex(4)
        self._count = 0
        self._stopped = False
        self._sends: set[asyncio.Task[None]] = set()

    # ---- what the seat sees ------------------------------------------------------------------------

    def observation(self) -> Observation:
        if self._obs is None:
            raise CommandError("the game has not started: waiting for every seat to be taken")
        return self._obs

    def hand(self) -> list[Card]:
        return [] if self._obs is None else super().hand()

    def seconds_left(self) -> int | None:
        """The whole seconds left to answer the open buy window (the server's ``deadline``), if one is open."""
        if self._deadline is None:
            return None
        return max(0, round(self._deadline - time.monotonic()))

    def started(self) -> bool:
        return self._obs is not None

    def options(self) -> list[Action]:
        return list(self._legal)

    def arrangements(self) -> list[tuple[Meld, ...]]:
        return [a.melds for a in self._legal if hasattr(a, "melds")]

    def turn(self) -> Turn:
        obs = self._obs
        if obs is None:
            return Turn("wait")
        if obs.phase is Phase.GAME_OVER:
            return Turn("over")
        if self._legal:
            return Turn("human", self.human, tuple(self._legal))
        return Turn("wait", obs.current)

    def step(self) -> bool:
        return False  # the server moves the bots

    def hint_seed(self) -> int:
        return self.seq or 0

    def undo(self) -> list[str]:
        raise CommandError("undo is for a game against bots, not at a server table")

    def record(self) -> Any:
        raise CommandError(f"the server keeps this game: its record is at /api/tables/{self.table_id}/record")

    # ---- acting ------------------------------------------------------------------------------------

    def act(self, command: Command) -> None:
        """Send the action ``command`` names, bound to the state it was chosen in; the server's answer (a new
        state, or an error naming why not) comes later through :meth:`run`'s callback."""
        action = self.action_for(command)
        if action is None:
            return  # an optional call let go: nothing to tell the server
        if self.socket is None or self.seq is None:
            raise CommandError("not connected to the table (retrying): your move was not sent")
        self._count += 1
        self.pending = {
            "type": "action",
            "action": action_to_dict(action),
            "seq": self.seq,
            "id": f"{self._prefix}-{self._count}",
        }
        self._send(self.pending)

    def _send(self, message: dict[str, Any]) -> None:
        socket = self.socket
        if socket is None:
            return
        task = asyncio.get_running_loop().create_task(self._send_on(socket, json.dumps(message)))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    @staticmethod
    async def _send_on(socket: ClientConnection, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):  # dropped: still pending, sent again once reconnected
            await socket.send(text)

    def stop(self) -> None:
        self._stopped = True

    # ---- the connection ----------------------------------------------------------------------------

    async def run(self, changed: Callable[[str | None], None]) -> None:
        """Stay at the table until :meth:`stop`: connect, read, and after a drop reconnect (backing off from
        0.25 s to 5 s) with ``?since=`` the last seq seen. ``changed(message)`` is called after each change."""
        backoff = 0.25
        while not self._stopped:
            url = self.link.ws_url + (f"?since={self.seq}" if self.seq is not None else "")
            code: int | None = None
            try:
                async with connect(url, open_timeout=10) as socket:
                    self.socket, self.status = socket, "open"
                    self.held, self._resyncing, self._read_at = None, False, None
                    self.connects += 1
                    backoff = 0.25
                    changed(None)
                    if self.pending is not None:  # sent before the drop, never acknowledged: the same id again
                        self._send(self.pending)
                    async for raw in socket:
                        changed(self.receive(json.loads(raw)))
                    code = socket.close_code
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
            except (OSError, TimeoutError, InvalidHandshake) as exc:
                changed(f"cannot reach the table: {exc}")
            self.socket = None
            if self._stopped:
                return
            if code == UNKNOWN_TOKEN:
                self.status = "gone"
                changed("the server does not know this seat link: not reconnecting")
                return
            self.status = "lost"
            changed(f"connection to the table lost: retrying in {backoff:.2g} s")
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)

    def receive(self, message: dict[str, Any]) -> str | None:
        """Take in one server message; what to tell the person, if anything."""
        kind = message.get("type")
        if kind == "event":
            seq = int(message["seq"])
            if self.event_seqs and seq <= self.event_seqs[-1]:
                return None  # already shown (an event between the last state and a drop is sent again)
            self.event_seqs.append(seq)
            self.log.append(str(message["text"]))
            return None
        if kind == "state":
            self.held = {key: value for key, value in message.items() if key not in FIRST_ONLY}
            self._resyncing = False
            self._take_state(message)
            return None
        if kind == "delta":
            return self._take_delta(message)
        if kind == "ack":
            if self.pending is not None and self.pending["id"] == message.get("id"):
                self.pending = None
            return None
        if kind == "error":
            self.pending = None  # refused (a refused action is not remembered): the person chooses again
            if message.get("reason") == "stale":
                return "The table moved on before your move arrived: nothing was played; choose again"
            return f"Refused: {message.get('message', message.get('reason'))}"
        return None

    def _take_delta(self, message: dict[str, Any]) -> str | None:
        """Apply a delta on the state held; one on another base (or a patch that does not apply) is dropped
        and the whole state asked for once, until it comes."""
        held = self.held
        if not self._resyncing and held is not None and message.get("base") == held["seq"]:
            try:
                patched = jsonpatch.apply_patch(held, message["patch"])
            except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, KeyError, TypeError):
                patched = None
            if isinstance(patched, dict) and patched.get("seq") == message.get("seq"):
                self.held = patched
                self._take_state(patched)
                return None
        if self._resyncing:
            return None
        self._resyncing = True
        self.resyncs += 1
        self._send({"type": "resync"})
        return None

    def _take_state(self, message: dict[str, Any]) -> None:
        if "rules" in message:
            self.rules = Ruleset.from_dict(message["rules"])
        if "resumed" in message:
            self.resumed.append(bool(message["resumed"]))
        self.seq = int(message["seq"])
        deadline = message.get("deadline")
        self._deadline = None if deadline is None else time.monotonic() + float(deadline)
        self.table_id = str(message["table_id"])
        seat = message.get("seat")
        self.human = int(seat) if seat is not None else 0
        names, bots = message["names"], message["bots"]
        self.names = [
            n if n is not None else (f"{b} {s}" if b else f"seat {s}")
            for s, (n, b) in enumerate(zip(names, bots, strict=True))
        ]
        pause = message.get("next_deal")
        if pause is not None and self.human in pause["waiting"] and self._read_at != self.seq:
            # The deal's summary is in the log (below): the table need not wait for this seat.
            self._read_at = self.seq
            self._send({"type": "next_deal"})
        data = message.get("observation")
        if data is None or self.rules is None:
            self._obs, self._legal = None, []
            return
        self._obs = observation_from_dict(data, self.rules)
        self._legal = [action_from_dict(a) for a in message["legal"]]
        for result in self._obs.results[self._results_logged :]:
            self.log.extend(deal_end_lines(result, self.names))
        if self._obs.phase is Phase.GAME_OVER and not self._game_end_logged:
            self._game_end_logged = True
            self.log.extend(game_end_lines(self._obs, self.names))
        self._results_logged = len(self._obs.results)
