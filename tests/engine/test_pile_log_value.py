"""The pile log as a value (``liverpool.engine.pile_log``, issue 24): entries are added without copying the
log, and still no log already made ever changes. A state, its clones and its observations share one list
of entries; each reads only its own first entries, and whichever adds second copies them."""

from __future__ import annotations

import pickle
import random

from liverpool.bots.registry import make_bot
from liverpool.engine import Card, GameState, Observation, PileLog, PileMove, find_preset, new_game, observe, step
from liverpool.engine.state import PileEntry

CARDS = [Card.parse(c) for c in ("3H", "4H", "5H", "6H", "7H")]


def _entry(seat: int, card: int) -> PileEntry:
    return (seat, PileMove.DISCARDED, CARDS[card])


def test_a_log_reads_as_the_tuple_of_its_entries() -> None:
    entries = (_entry(0, 0), _entry(1, 1), _entry(2, 2))
    log = PileLog.of(entries[:1]).added(entries[1]).added(entries[2])
    assert log == entries and entries == log and log != entries[:2] and entries[:2] != log
    assert hash(log) == hash(entries) and len(log) == 3 and bool(log) and not PileLog.of(())
    assert log[0] == entries[0] and log[-1] == entries[2] and log[1:] == entries[1:] and type(log[1:]) is tuple
    assert list(log) == list(entries) and entries[1] in log and _entry(3, 3) not in log
    assert log != list(entries)  # (as a tuple is not equal to a list)
    again = pickle.loads(pickle.dumps(log))
    assert again == log and type(again) is PileLog
    for outside in (3, -4):
        try:
            log[outside]
        except IndexError as refused:
            assert "pile log index" in str(refused)
        else:
            raise AssertionError(f"index {outside} of a 3-entry log was read")


def test_logs_that_grow_from_one_log_keep_their_own_entries() -> None:
    """A clone and its original each add their own entries: the second to add copies, nobody sees the
    other's entries, and the log they both came from is unchanged."""
    common = PileLog.of([_entry(0, 0)]).added(_entry(1, 1))
    first = common.added(_entry(2, 2)).added(_entry(3, 3))
    second = common.added(_entry(0, 4))
    assert common == (_entry(0, 0), _entry(1, 1))
    assert first == (_entry(0, 0), _entry(1, 1), _entry(2, 2), _entry(3, 3))
    assert second == (_entry(0, 0), _entry(1, 1), _entry(0, 4))
    assert second.added(_entry(1, 0))[-1] == _entry(1, 0) and len(first) == 4


def test_an_entry_added_at_the_end_of_the_list_is_appended_not_copied() -> None:
    """Issue 24: copying the log at each entry made a deal cost the square of its length. (Compiled, an
    entry is an unboxed tuple: the append must be found again as the very object appended.)"""
    log = PileLog.of([_entry(0, 0)])
    longer = log.added(_entry(1, 1)).added(_entry(2, 2))
    assert longer._entries is log._entries and len(log._entries) == 3
    assert log.added(_entry(3, 3))._entries is not log._entries  # (no longer at the end: a copy)


class _Raced(list[PileEntry]):
    """A log's list whose next append comes second: another log of the same list (in another thread)
    appends its own entry just before."""

    def append(self, entry: PileEntry) -> None:
        super().append(_entry(3, 4))
        super().append(entry)


def test_an_entry_that_lost_a_race_to_the_end_of_the_list_is_added_to_a_copy() -> None:
    raced = _Raced([_entry(0, 0), _entry(1, 1)])
    log = PileLog(raced, 2)
    added = log.added(_entry(2, 2))
    assert added == (_entry(0, 0), _entry(1, 1), _entry(2, 2))
    assert log == (_entry(0, 0), _entry(1, 1))


def _logs_of_a_game(seed: int, branching: bool) -> list[tuple[PileEntry, ...]]:
    """The pile log after every step of a `random` game; with ``branching``, before each step a clone of
    the state plays a few steps of its own first, and every observation made is checked at the end."""
    rules = find_preset("british")
    state = new_game(rules, 4, 0)
    agents = [make_bot("random") for _ in range(4)]
    rng, other = random.Random(seed), random.Random(seed + 100)
    logs: list[tuple[PileEntry, ...]] = []
    shown: list[tuple[Observation, tuple[PileEntry, ...]]] = []
    while not state.is_over:
        if branching:
            clone: GameState = state.clone()
            for _ in range(3):
                if clone.is_over or step(clone, agents, other) is None:
                    break
                seen = observe(clone, clone.current)
                shown.append((seen, tuple(seen.pile_log)))
        assert step(state, agents, rng) is not None
        seen = observe(state, state.current)
        shown.append((seen, tuple(seen.pile_log)))
        logs.append(tuple(state.pile_log))
    for observation, log in shown:
        assert observation.pile_log == log, "an observation's pile log changed after it was made"
    return logs


def test_clones_playing_on_change_no_log_of_the_game() -> None:
    assert _logs_of_a_game(3, branching=True) == _logs_of_a_game(3, branching=False)


def test_the_engine_makes_each_entry_once() -> None:
    """Equal entries logged in a game are one object (``perform._pile_entry``): adding an entry allocates no
    tuple (a `random` bots' deal logs hundreds), and every log still reads as its entries' values."""
    made: dict[PileEntry, PileEntry] = {}
    logged = 0
    for log in _logs_of_a_game(5, branching=False):
        for entry in log:
            assert made.setdefault(entry, entry) is entry, f"{entry} was made twice"
            assert type(entry) is tuple and type(entry[1]) is PileMove and type(entry[2]) is Card
            logged += 1
    assert logged > len(made) > 50
