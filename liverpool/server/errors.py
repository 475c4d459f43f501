"""Refusals the lobby and the tables answer with: an HTTP status, a machine-readable reason, a message."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request the server will not carry out; nothing was changed."""

    def __init__(
        self,
        status: int,
        reason: str,
        message: str,
        field: str | None = None,
        details: dict[str, int | str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message
        self.field = field
        self.details = details or {}
        """What the message speaks of (numbers such as ``limit``, ``wait_s``; a house rule's ``rule`` and its
        ``problem``; a ``bot``'s name), for a page that says it in another language."""
        self.retry_after: int | None = None

    def to_dict(self) -> dict[str, str | int]:
        out: dict[str, str | int] = {"reason": self.reason, "message": self.message, **self.details}
        if self.field is not None:
            out["field"] = self.field
        return out


LIMITS: dict[str, str] = {
    "string_too_long": "max_length",
    "string_too_short": "min_length",
    "greater_than_equal": "ge",
    "less_than_equal": "le",
    "less_than": "lt",
}
"""Pydantic's validation errors that break a limit, and the key of the limit in their context: a 422's
problem carries its ``kind`` and that ``limit``, so a page can say it in its own language."""


def validation_sentence(field: str, kind: str, message: str, context: dict[str, Any] | None = None) -> str:
    """One of pydantic's validation errors as a sentence for people: ``field`` (dotted, "" for the whole
    body), its error ``kind`` (pydantic's ``type``) and ``message``, with the limits in ``context``.

    >>> validation_sentence("name", "string_too_long", "String should have at most 32 characters", {"max_length": 32})
    'The name may be at most 32 characters long.'
    >>> validation_sentence("bot_pace_ms", "greater_than_equal", "Input should be >= 0", {"ge": 0})
    'The bot pace ms must be at least 0.'
    """
    what = f"the {field.replace('_', ' ').replace('.', ' ')}" if field else "the request"
    limits = context or {}
    match kind:
        case "string_too_long":
            text = f"{what} may be at most {limits.get('max_length')} characters long"
        case "string_too_short":
            text = f"{what} may not be empty" if limits.get("min_length") == 1 else f"{what} is too short"
        case "missing":
            text = f"{what} is missing"
        case "greater_than_equal":
            text = f"{what} must be at least {limits.get('ge')}"
        case "less_than_equal":
            text = f"{what} must be at most {limits.get('le')}"
        case "less_than":
            text = f"{what} must be less than {limits.get('lt')}"
        case "extra_forbidden":
            text = f"{what} is not something this request takes"
        case "json_invalid":
            text = "the request is not valid JSON"
        case _:
            text = f"{what} is not valid ({message[:1].lower()}{message[1:]})"
    return text[:1].upper() + text[1:] + "."
