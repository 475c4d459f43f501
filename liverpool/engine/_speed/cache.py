"""The engine's caches, in one place: every value an engine module keeps between calls for speed (shoes,
contract facts, actions made once, the last answer asked for) lives in a container made by :func:`kept`,
a function wrapped by :func:`memo` or a :class:`ByIdentity` (values made from a ruleset or a contract,
kept by its identity), and :func:`clear_caches` empties them all.

Nothing kept changes an answer: a test plays seeded games clearing every cache between steps and gets the
same games (``tests/engine/test_caches.py``). Clear them to measure from cold, or to free memory in a
long-running process.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, Generic, TypeVar, cast

T = TypeVar("T")
V = TypeVar("V")
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


_NOTHING: Final = object()  # no object asked about yet


class ByIdentity(Generic[V]):
    """Values made by ``make`` from one object each (a ruleset, a contract given as a tuple), kept by the
    object's identity: the object is held beside its value, so that its identity is never reused while
    the entry lives, and an entry answers only for its own object. The object asked about last is
    answered by an identity test alone (most questions ask about the ruleset of the game in play). At
    most ``at_most`` objects are kept; the next one empties the store first. Made through :func:`by_identity`
    so that :func:`clear_caches` empties it.

    >>> lengths = by_identity(len, at_most=4)
    >>> key = (1, 2, 3)
    >>> lengths.of(key), lengths.of(key), lengths.of((4,))
    (3, 3, 1)
    """

    def __init__(self, make: Callable[[Any], V], at_most: int) -> None:
        self._make = make
        self._at_most = at_most
        self._held: dict[int, tuple[object, V]] = {}
        # The object asked about last and its value (kept apart, not as a pair: compiled, reading a field
        # is cheaper than unpacking a tuple).
        self._last_key: object = _NOTHING
        self._last: V = cast(V, None)

    def of(self, key: object) -> V:
        """The value made from ``key`` (made now if it is not kept)."""
        if key is self._last_key:
            return self._last
        held = self._held.get(id(key))
        if held is None or held[0] is not key:
            if len(self._held) >= self._at_most:
                self._held.clear()
            held = self._held[id(key)] = (key, self._make(key))
        value = held[1]
        self._last_key = key
        self._last = value
        return value

    def clear(self) -> None:
        """Forget every value kept."""
        self._held.clear()
        self._last_key = _NOTHING
        self._last = cast(V, None)


def by_identity(make: Callable[[Any], V], at_most: int = 64) -> ByIdentity[V]:
    """A :class:`ByIdentity` store of ``make``'s values, registered for :func:`clear_caches`."""
    return kept(ByIdentity(make, at_most))


def clear_caches() -> None:
    """Empty every cache of the engine (the next call of each function makes its values again)."""
    for cache in _KEPT:
        if isinstance(cache, (dict, list, ByIdentity)):
            cache.clear()
        else:
            cache.cache_clear()


def kept_count() -> int:
    """How many caches the engine has registered (for tests)."""
    return len(_KEPT)
