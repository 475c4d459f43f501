"""A deal's pile log as a value: entries are added without copying the log, yet the log never changes.

``GameState.pile_log`` grows by an entry at most steps, and every clone of the state and every observation
of it holds the log. As a tuple, each entry copied the whole log, so a deal cost the square of its length
(issue 24: `random` bots' deals run to hundreds of turns). A :class:`PileLog` is the first ``length``
entries of a list that is only ever appended to: adding an entry to the log at the list's end appends in
place and makes a new log one longer, and the logs already made (held by clones and observations) still
read their own first entries. A log that is not at its list's end (a clone, or the original, after the
other added first) copies its entries into a list of its own once, and adds there.

A clone and its original may add in different threads at once (a hint worker steps a clone): each appends,
then keeps the list only if its own entry landed at its own length; the other copies. Entries past a log's
length are never read by it, so an append that lost does no harm.

A log reads as the tuple of its entries: it compares equal to that tuple (and hashes as it does), and
slicing it gives a tuple.

>>> log = PileLog.of([(0, 'discarded', 'x')])
>>> longer = log.added((1, 'took', 'x'))
>>> log == ((0, 'discarded', 'x'),), len(longer), longer[-1], longer[:1] == log
(True, 2, (1, 'took', 'x'), True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final, final, overload

from liverpool.engine.cards import Card

# An entry (``state.PileEntry``: the seat, a ``state.PileMove``, the card). The move is typed Any here, so
# that this module need not import ``state``, which imports it.
PileEntry = tuple[int, Any, Card]


@final
class PileLog:
    """The first ``length`` entries of ``entries``, a list only ever appended to (see the module). Made by
    :meth:`of` or :meth:`added`; read like a tuple."""

    def __init__(self, entries: list[Any], length: int) -> None:
        # (entries is shared with other logs and only appended to: see the module. Its items are typed Any:
        # compiled, a PileEntry is an unboxed C tuple, boxed anew at each use, and ``added`` needs the one
        # object it appended back to know whether its append came first.)
        self._entries = entries
        self._length = length

    @staticmethod
    def of(entries: Iterable[PileEntry]) -> PileLog:
        """The log of ``entries``, in order."""
        own: list[Any] = list(entries)
        return PileLog(own, len(own))

    def added(self, entry: Any) -> PileLog:
        """This log and ``entry`` (a :data:`PileEntry`) after it (this log is unchanged).

        (``entry`` is typed Any: compiled, a parameter typed as the tuple would unbox it and box a new tuple,
        and the object appended must be the one looked for. The engine hands the same entry object to every
        log that adds an equal entry (``perform._pile_entry``): should two logs of one list append the same
        object at once, each finds an equal entry at its own length, which is all a log reads.)"""
        entries, length = self._entries, self._length
        if length and len(entries) == length:
            entries.append(entry)
            if entries[length] is entry:  # (not if another log of this list appended first, in another thread)
                return PileLog(entries, length + 1)
        own = entries[:length]
        own.append(entry)
        return PileLog(own, length + 1)

    def kept(self, washed: set[Card]) -> PileLog:
        """This log without the entries whose card is in ``washed``."""
        entries = self._entries
        own: list[Any] = []
        for i in range(self._length):
            entry: tuple[Any, ...] = entries[i]  # (compiled: read as the tuple it is, not unboxed)
            if entry[2] not in washed:
                own.append(entry)
        return PileLog(own, len(own))

    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return self._length > 0

    def __iter__(self) -> Iterator[PileEntry]:
        return iter(self._entries[: self._length])

    @overload
    def __getitem__(self, index: int) -> PileEntry: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[PileEntry, ...]: ...

    def __getitem__(self, index: int | slice) -> PileEntry | tuple[PileEntry, ...]:
        if isinstance(index, slice):
            return tuple(self._entries[: self._length][index])
        length = self._length
        at = index + length if index < 0 else index
        if not 0 <= at < length:
            raise IndexError(f"pile log index {index} out of range (the log has {length} entries)")
        entry: PileEntry = self._entries[at]
        return entry

    def __contains__(self, entry: object) -> bool:
        return entry in self._entries[: self._length]

    def __eq__(self, other: object) -> bool:
        length = self._length
        if isinstance(other, PileLog):
            return other._length == length and other._entries[:length] == self._entries[:length]
        if isinstance(other, tuple):
            return len(other) == length and other == tuple(self._entries[:length])
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._entries[: self._length]))

    def __repr__(self) -> str:
        return f"PileLog({tuple(self._entries[: self._length])!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return PileLog, (self._entries[: self._length], self._length)


EMPTY: Final = PileLog([], 0)
"""The empty log (adding to it always makes a list of its own: it is shared by every new deal)."""
