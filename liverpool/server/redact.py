"""Keeps secret links out of the logs: a logging filter that blanks the tokens in request paths.

uvicorn logs each request's path (``uvicorn.access``) and each websocket's (``uvicorn.error``);
a seat, spectator or invitation token in them would let anyone who reads the log take the seat.

>>> redact('127.0.0.1:5 - "GET /play/AbC-12_x HTTP/1.1" 200')
'127.0.0.1:5 - "GET /play/[redacted] HTTP/1.1" 200'
>>> redact('"WebSocket /ws/watch/s3cr3t" [accepted]'), redact('/api/my-tables?tokens=a,b&x=1')
('"WebSocket /ws/watch/[redacted]" [accepted]', '/api/my-tables?tokens=[redacted]&x=1')
>>> redact('/api/seat/tok/rematch'), redact('/api/invite/inv/join')
('/api/seat/[redacted]/rematch', '/api/invite/[redacted]/join')
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")
_SECRET_PATH = re.compile(r"(/(?:ws/)?(?:play|watch|join)/|/api/seat/|/api/invite/)[^/?#\s\"]+")
_SECRET_QUERY = re.compile(r"([?&]tokens=)[^&#\s\"]*")


def redact(text: str) -> str:
    """``text`` with every token of a secret link replaced by ``[redacted]``."""
    return _SECRET_QUERY.sub(r"\1" + REDACTED, _SECRET_PATH.sub(r"\1" + REDACTED, text))


class RedactTokens(logging.Filter):
    """Rewrites a record's message and arguments so that no token of a link is written."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install() -> None:
    """Put the filter on uvicorn's loggers and on their handlers (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())
