"""What an operator may configure about a server: the names it answers to and the limits on each client.

Every limit has a default that normal play never comes near; ``0`` turns a limit off. Each is read
from an environment variable, and ``liverpool serve`` adds the names given with ``--allowed-host``.

>>> s = Settings.from_env({"LIVERPOOL_ALLOWED_HOSTS": "cards.example, Games.Example", "LIVERPOOL_TABLES_PER_MINUTE": "5"})
>>> s.allowed_hosts
('localhost', '127.0.0.1', '::1', 'cards.example', 'games.example')
>>> s.tables_per_minute, s.rulesets_per_minute
(5, 30)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .schemas import MAX_MESSAGE_BYTES

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
HOSTS_ENV = "LIVERPOOL_ALLOWED_HOSTS"

# setting -> environment variable (each an integer)
LIMIT_ENV = {
    "ws_max_bytes": "LIVERPOOL_WS_MAX_BYTES",
    "ws_messages_per_10s": "LIVERPOOL_WS_MESSAGES_PER_10S",
    "connections_per_client": "LIVERPOOL_CONNECTIONS_PER_CLIENT",
    "tables_per_minute": "LIVERPOOL_TABLES_PER_MINUTE",
    "rulesets_per_minute": "LIVERPOOL_RULESETS_PER_MINUTE",
    # the coach (docs/coach.md, At the table): worker processes, and worlds per hint and per reviewed decision
    "coach_workers": "LIVERPOOL_COACH_WORKERS",
    "hint_worlds": "LIVERPOOL_HINT_WORLDS",
    "review_worlds": "LIVERPOOL_REVIEW_WORLDS",
    "cluster_lease_s": "LIVERPOOL_CLUSTER_LEASE_S",
    "chat_per_10s": "LIVERPOOL_CHAT_PER_10S",
    "migrate_wait_s": "LIVERPOOL_MIGRATE_WAIT_S",
    "gc_interval_s": "LIVERPOOL_GC_INTERVAL_S",
}
CLUSTER_ENV = LIMIT_ENV["cluster_lease_s"]
MIGRATE_WAIT_ENV = LIMIT_ENV["migrate_wait_s"]
MIGRATE_WAIT_S = 120


class SettingsError(ValueError):
    """An environment variable that does not hold what it should."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The server's names and limits (see ``docs/security.md``)."""

    allowed_hosts: tuple[str, ...] = LOCAL_HOSTS
    ws_max_bytes: int = MAX_MESSAGE_BYTES
    ws_messages_per_10s: int = 200
    connections_per_client: int = 64
    tables_per_minute: int = 30
    rulesets_per_minute: int = 30
    coach_workers: int = 2
    hint_worlds: int = 12
    review_worlds: int = 12
    # Seconds a process holds a table's lease without renewing it; 0 (the default) runs one process
    # alone, anything else shares tables with other processes on the same PostgreSQL (cluster.py).
    cluster_lease_s: int = 0
    chat_per_10s: int = 5
    # Seconds a starting process waits for another to finish migrating the schema (storage.migrate).
    migrate_wait_s: int = MIGRATE_WAIT_S
    # Seconds between the server's garbage collections (cli/serve.py tune_gc); 0: Python's own.
    gc_interval_s: int = 600

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ, hosts: Iterable[str] = ()) -> Settings:
        """The defaults, changed by the ``LIVERPOOL_*`` variables of ``env``, plus the names in ``hosts``."""
        settings = cls()
        limits: dict[str, int] = {}
        for name, variable in LIMIT_ENV.items():
            value = env.get(variable, "").strip()
            if value:
                if not value.isdigit():
                    raise SettingsError(f"${variable} must be a whole number of 0 or more, not {value!r}")
                limits[name] = int(value)
        extra = [h for h in env.get(HOSTS_ENV, "").split(",")] + list(hosts)
        return replace(settings, allowed_hosts=with_hosts(settings.allowed_hosts, extra), **limits)


def with_hosts(hosts: Iterable[str], extra: Iterable[str]) -> tuple[str, ...]:
    """``hosts`` and then each new name of ``extra`` (lower case, without brackets or blanks)."""
    out = list(hosts)
    for name in extra:
        cleaned = name.strip().strip("[]").lower()
        if cleaned and cleaned not in out:
            out.append(cleaned)
    return tuple(out)
