"""What a table's actor handles: its clients (websockets) and the messages on its queue."""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import Any

from liverpool.engine import Action

from .clock import TurnKey

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 1000
SLOW_CLIENT = 1013


def _orjson() -> ModuleType | None:
    """orjson, a dependency of the package; a checkout run without it encodes the same text with json."""
    try:
        return importlib.import_module("orjson")
    except ImportError:  # pragma: no cover
        return None


ORJSON = _orjson()


def action_keys(action: Action) -> set[str]:
    """The keys an action's JSON form may have: ``type`` and its fields."""
    return {"type", *(f.name for f in fields(action))}


def encode(message: dict[str, Any]) -> str:
    """A message as the text of one websocket frame: compact JSON in UTF-8, by orjson (about 9 times as
    fast as json on a state message; see docs/performance.md). A message for many clients is encoded
    once and the same text handed to each (:meth:`Client.send_text`).

    What orjson cannot encode (an int beyond 64 bits that a client sent and an error quotes back) is
    encoded by json instead:

    >>> encode({"type": "event", "seq": 3, "text": "Ann discards 7♠"})
    '{"type":"event","seq":3,"text":"Ann discards 7♠"}'
    >>> encode({"type": "error", "seq": 2**70})
    '{"type":"error","seq":1180591620717411303424}'
    """
    if ORJSON is not None:
        try:
            text: str = ORJSON.dumps(message, option=ORJSON.OPT_NON_STR_KEYS).decode()
            return text
        except TypeError:  # orjson.JSONEncodeError is one
            pass
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(reason: str, message: str) -> dict[str, Any]:
    return {"type": "error", "reason": reason, "message": message}


def log_refusal(what: str, table: str, who: str, reason: str, closed: int | None = None) -> None:
    """One line for a refusal sent to one websocket: what was refused (a ``message``, a ``connection``,
    its ``?since``), at which table (``?`` when not known: a link that does not exist) and by whom, and
    the reason code; a refusal that closes the connection is logged at warning level. Never the
    refusal's message (it may name a card of the seat's own hand) and never a token::

        refused websocket message at table 3fa9c2 (spectator): spectator
        refused websocket message at table 3fa9c2 (seat 2): too_large; closed with 1009
    """
    if closed is None:
        log.info("refused websocket %s at table %s (%s): %s", what, table or "?", who, reason)
    else:
        log.warning(
            "refused websocket %s at table %s (%s): %s; closed with %d", what, table or "?", who, reason, closed
        )


def ack(action_id: str, seq: int) -> dict[str, Any]:
    """The answer to an applied action that carried an ``id``: ``seq`` is the table's seq just after it."""
    return {"type": "ack", "id": action_id, "seq": seq}


@dataclass(eq=False)
class Client:
    """One websocket: a seat's player, or a spectator (``seat`` None). The actor only ever puts
    encoded messages in its outbox; ``None`` there asks the connection to close with ``close_code``."""

    seat: int | None
    table: str = ""  # the id of the table it is connected to, for the log
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT))
    close_code: int = 1000
    close_reason: str | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    @property
    def who(self) -> str:
        return "spectator" if self.seat is None else f"seat {self.seat}"

    def refuse(self, reason: str, message: str, close: int | None = None, what: str = "message", **extra: Any) -> None:
        """Tell this client alone why what it sent was refused (``extra`` keys join the error), and log it
        once (:func:`log_refusal`); with ``close``, then close the connection with that code."""
        log_refusal(what, self.table, self.who, reason, close)
        self.send({**error(reason, message), **extra})
        if close is not None:
            self.close(close, reason)

    def send_text(self, text: str) -> None:
        """Send a message already encoded (:func:`encode`)."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close(SLOW_CLIENT)

    def close(self, code: int, reason: str | None = None) -> None:
        self.close_code = code
        self.close_reason = reason
        while True:
            try:
                self.outbox.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()


# -- messages -------------------------------------------------------------------------------------


@dataclass
class Attach:
    client: Client
    since: int | None = None


@dataclass
class Detach:
    client: Client


@dataclass
class Submit:
    client: Client
    action: dict[str, Any]
    seq: int | None = None
    id: str | None = None


@dataclass
class Resync:
    """A client asks for its whole state again."""

    client: Client


@dataclass
class Call:
    """A request from the lobby, run inside the actor; its answer goes to ``future``."""

    run: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any]


@dataclass
class BotTurn:
    seq: int


@dataclass
class BuyDeadline:
    window: int


@dataclass
class AwayTimeout:
    seat: int


@dataclass
class Ready:
    """A seat pressed Next deal under the summary of the deal that just ended."""

    client: Client


@dataclass
class NextDealDeadline:
    seq: int


@dataclass
class TurnDeadline:
    key: TurnKey


@dataclass
class HintRequest:
    """A seat asks the coach what to do now."""

    client: Client


@dataclass
class HintReady:
    """The coach's answer to a hint asked at ``seq`` (``hint``), or why there is none (``failed``)."""

    client: Client
    seq: int
    hint: dict[str, Any] | None
    failed: str | None = None


@dataclass
class UndoRequest:
    """A seat asks to take back its last decision (and the bots' moves after it)."""

    client: Client


@dataclass
class Say:
    """A line of table talk (``text``) or a quick reaction (``reaction``) from ``client``."""

    client: Client
    text: str | None = None
    reaction: str | None = None


Message = (
    Attach
    | Detach
    | Submit
    | Resync
    | Call
    | BotTurn
    | BuyDeadline
    | AwayTimeout
    | Ready
    | NextDealDeadline
    | TurnDeadline
    | HintRequest
    | HintReady
    | UndoRequest
    | Say
)
