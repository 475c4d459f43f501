"""The engine's caches, in one place: every value an engine module keeps between calls for speed (shoes,
contract facts, actions made once, the last answer asked for) lives in a container made by :func:`kept`
or a function wrapped by :func:`memo`, and :func:`clear_caches` empties them all.

Nothing kept changes an answer: a test plays seeded games clearing every cache between steps and gets the
same games (``tests/engine/test_caches.py``). Clear them to measure from cold, or to free memory in a
long-running process.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, TypeVar

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

# Every container made by kept() and every function wrapped by memo(), in the order they were made.
_KEPT: Final[list[Any]] = []


def kept(empty: T) -> T:
    """``empty`` (the dict or list a module keeps values in), registered for :func:`clear_caches`."""
    _KEPT.append(empty)
    return empty


def memo(maxsize: int | None = 128) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered for :func:`clear_caches`."""

    def wrap(function: F) -> F:
        wrapped = lru_cache(maxsize=maxsize)(function)
        _KEPT.append(wrapped)
        return wrapped  # type: ignore[return-value]

    return wrap


def clear_caches() -> None:
    """Empty every cache of the engine (the next call of each function makes its values again)."""
    for cache in _KEPT:
        if isinstance(cache, dict | list):
            cache.clear()
        else:
            cache.cache_clear()


def kept_count() -> int:
    """How many caches the engine has registered (for tests)."""
    return len(_KEPT)
