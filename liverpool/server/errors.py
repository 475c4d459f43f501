"""Refusals the lobby and the tables answer with: an HTTP status, a machine-readable reason, a message."""

from __future__ import annotations


class Refused(Exception):
    """A request the server will not carry out; nothing was changed."""

    def __init__(self, status: int, reason: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message
        self.field = field
        self.retry_after: int | None = None

    def to_dict(self) -> dict[str, str]:
        out = {"reason": self.reason, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out
