"""Table talk: short lines and quick reactions from the seats (and, if the table lets them, its spectators).

Talk is kept apart from the game: it is stored in its own database table (``chat``), never in the
action log, so no game record, replay or seq ever holds it. Every line goes to everyone at the table,
and the last :data:`REPLAYED` are sent again to whoever connects. Lines are plain text: at most
:data:`MAX_CHAT_CHARS` characters after stripping, with no control characters (nor the ones that turn
text around); the pages show them as text, never as markup.

>>> printable("Oh my aching back!")
'Oh my aching back!'
>>> printable("two\\nlines")
Traceback (most recent call last):
...
ValueError: a chat line may not hold control characters (U+000A at character 4)
>>> window = ChatWindow(2)
>>> window.add(0.0); window.add(1.0); window.wait(2.0), window.wait(10.5)
(8.0, 0.0)
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Iterable
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

from anyio import to_thread
from pydantic import AfterValidator

if TYPE_CHECKING:
    from .storage import Storage

MAX_CHAT_CHARS = 200
REPLAYED = 50
WINDOW_S = 10.0
SPECTATOR = "a spectator"

REACTIONS: dict[str, tuple[str, str]] = {
    "aching_back": ("😩", "Oh my aching back!"),
    "joker": ("🃏", "A joker!"),
    "well_played": ("👏", "Well played"),
    "laugh": ("😂", "Ha!"),
    "oops": ("🙈", "Oops"),
    "good_game": ("🤝", "Good game"),
}
"""The quick reactions: id -> (symbol, words). The pages are sent this list; they hold no copy."""

# Characters that reorder or hide the text around them (bidirectional overrides and isolates).
_TURNING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def printable(text: str) -> str:
    """``text`` if it holds no control character (nor a bidirectional override); else ValueError."""
    for at, char in enumerate(text, 1):
        if unicodedata.category(char) == "Cc" or char in _TURNING:
            raise ValueError(f"a chat line may not hold control characters (U+{ord(char):04X} at character {at})")
    return text


def known_reaction(reaction: str) -> str:
    if reaction not in REACTIONS:
        raise ValueError(f"{reaction[:32]!r} is not a reaction; the reactions are {', '.join(REACTIONS)}")
    return reaction


ReactionId = Annotated[str, AfterValidator(known_reaction)]


class ChatWindow:
    """One connection's talk: at most ``limit`` lines and reactions in any 10 seconds (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._sent: deque[float] = deque()

    def wait(self, now: float) -> float:
        """0.0 if one more may be said now, else the seconds until it may."""
        while self._sent and self._sent[0] <= now - WINDOW_S:
            self._sent.popleft()
        if self.limit <= 0 or len(self._sent) < self.limit:
            return 0.0
        return self._sent[0] + WINDOW_S - now

    def add(self, now: float) -> None:
        self._sent.append(now)


def line_message(
    line_id: int, at: datetime, seat: int | None, name: str, text: str | None, reaction: str | None
) -> dict[str, Any]:
    """A stored line as the ``chat`` message everyone at the table is sent."""
    out: dict[str, Any] = {"type": "chat", "id": line_id, "at": at.isoformat(), "seat": seat, "name": name}
    if reaction is not None:
        out["reaction"] = reaction
    else:
        out["text"] = text
    return out


class TableTalk:
    """A table's talk in memory: the last :data:`REPLAYED` lines, each stored before it is sent."""

    def __init__(self, storage: Storage, table_id: str, lines: Iterable[dict[str, Any]]) -> None:
        self.storage = storage
        self.table_id = table_id
        self.lines: deque[dict[str, Any]] = deque(lines, maxlen=REPLAYED)

    def snapshot(self, may_talk: bool) -> dict[str, Any]:
        """What a client's first state carries (``talk``): the last lines, the reactions, whether it may talk."""
        return {
            "lines": list(self.lines),
            "reactions": [{"id": k, "symbol": s, "words": w} for k, (s, w) in REACTIONS.items()],
            "may_talk": may_talk,
            "max_chars": MAX_CHAT_CHARS,
        }

    async def say(self, seat: int | None, name: str, text: str | None, reaction: str | None) -> dict[str, Any]:
        """Store a line (blocking work in a worker thread) and return its ``chat`` message."""
        line_id, at = await to_thread.run_sync(
            partial(self.storage.add_chat, self.table_id, seat, name, text, reaction)
        )
        message = line_message(line_id, at, seat, name, text, reaction)
        self.lines.append(message)
        return message
