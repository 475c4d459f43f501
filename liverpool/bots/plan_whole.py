"""Plans for a final deal whose runs must use the whole hand ("3 runs and out").

Every card must end up in one of the contract's runs, which may be longer than asked. A hand of ``n``
cards at rest goes out once a draw completes runs covering all ``n + 1`` cards, so a plan picks, for a
target of ``size`` cards (``n + 1`` by default), one window per run (distinct suits) whose lengths add up
to the target and that cover the most cards of the hand. The cards left out are *junk*; each must be
discarded and replaced by a card that fits, so ``need`` is the junk, plus two for each card the target is
short of the contract's minimum (only a buy, two cards at once, can close that gap).

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.rules.presets import find_preset
>>> rules = find_preset('liverpool')
>>> hand = parse_cards('2H 3H 4H 5H 7S 8S 9S TS JK QD KD AD')
>>> plan_whole_runs(hand, rules.contract(6), rules).need
0
>>> plan_whole_runs(parse_cards('2H 3H 4H 5H 7S 8S 9S TS 2C 6D'), rules.contract(6), rules).need
3
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from liverpool.engine import BITS, JOKER_FACE, MeldKind, MeldRule, Ruleset

from .plan import Partial, Plan, face_counts

Window = tuple[int, int, int, int]


def plan_whole_runs(
    hand: Sequence[int],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    live: Sequence[int] | None = None,
    size: int | None = None,
) -> Plan:
    """The plan of ``hand`` for an all-runs ``contract`` that must use every card (see the module doc)."""
    counts = face_counts(hand)
    jokers = counts[JOKER_FACE]
    least = sum(rule.length for rule in contract)
    size = len(hand) + 1 if size is None else size
    windows = _windows_of(hand, contract, rules, size)
    naturals = sum(w[3] for w in windows)
    length = sum(w[2] for w in windows)
    used_jokers = min(jokers, length - naturals)
    junk = len(hand) - naturals - used_jokers
    partials: list[Partial] = []
    dead = outs = 0
    for suit, low, span, _ in windows:
        faces: list[int] = []
        wanted: list[int] = []
        for rank in range(low, low + span):
            face = suit * 13 + (rank - 1) % 13
            (faces if counts[face] else wanted).append(face)
        missing = len(wanted)
        used = tuple(faces)
        key = (suit, low, span, used)  # the window and the faces it uses fix the rest
        partial = _PARTIALS.get(key)
        if partial is None:
            if len(_PARTIALS) >= 16384:
                _PARTIALS.clear()
            partial = _PARTIALS[key] = Partial(MeldKind.RUN, suit, low, span, used, missing, missing, tuple(wanted))
        partials.append(partial)
        if live is not None and missing:
            out = sum(live[f] for f in wanted)
            outs += min(out, 2 * missing)
    if live is not None:
        spare_jokers = jokers - used_jokers
        gaps = length - naturals - used_jokers
        if gaps > spare_jokers + sum(live[f] for p in partials for f in p.wanted):
            dead = 1
    return Plan(junk + 2 * max(0, least - size), tuple(partials), used_jokers, dead, outs)


def whole_runs_use(
    hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, size: int | None = None
) -> tuple[int, list[int]]:
    """``plan_whole_runs(hand, contract, rules, size=size)`` as its need and how many cards of each face
    its partials use (its jokers at ``JOKER_FACE``), without building the plan: the same windows."""
    least, shortest = runs_lengths(contract)
    return runs_use(hand, len(contract), least, shortest, rules, size)


def runs_use(
    hand: Sequence[int], slots: int, least: int, shortest: int, rules: Ruleset, size: int | None = None
) -> tuple[int, list[int]]:
    """:func:`whole_runs_use` of a contract of ``slots`` runs, read by :func:`runs_lengths`."""
    counts = face_counts(hand)
    jokers = counts[JOKER_FACE]
    size = len(hand) + 1 if size is None else size
    windows = _best_windows(
        ranks_held(hand)[0], slots, shortest, size if size > least else least, rules
    )  # (:func:`_windows_of`)
    naturals = length = 0
    used = [0] * len(counts)
    for suit, low, span, covered in windows:
        naturals += covered
        length += span
        for rank in range(low, low + span):
            face = suit * 13 + (rank - 1) % 13
            if counts[face]:
                used[face] = used[face] + 1  # (not ``+=``: compiled, that is a generic add)
    used_jokers = min(jokers, length - naturals)
    used[JOKER_FACE] = used[JOKER_FACE] + used_jokers
    return len(hand) - naturals - used_jokers + 2 * max(0, least - size), used


# the partials built, by window and faces used: they are immutable, so plans share them
_PARTIALS: Final[dict[tuple[int, int, int, tuple[int, ...]], Partial]] = {}


def whole_runs_need(hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, size: int | None = None) -> int:
    """``plan_whole_runs(hand, contract, rules, size=size).need``, without building the plan: the same
    choice of windows (:func:`_most_covered`), keeping only the naturals they cover."""
    least, shortest = runs_lengths(contract)
    return runs_need(hand, len(contract), least, shortest, rules, size)


def runs_lengths(contract: Sequence[MeldRule]) -> tuple[int, int]:
    """The cards an all-runs ``contract`` asks for in all, and its shortest run."""
    if any(rule.kind is not MeldKind.RUN for rule in contract):
        raise ValueError("plan_whole_runs plans contracts of runs only")
    if not contract:
        raise ValueError("plan_whole_runs plans a contract of one run at least")
    least = 0
    shortest = 99
    for rule in contract:
        least += rule.length
        if rule.length < shortest:
            shortest = rule.length
    return least, shortest


def runs_need(
    hand: Sequence[int], slots: int, least: int, shortest: int, rules: Ruleset, size: int | None = None
) -> int:
    """:func:`whole_runs_need` of a contract of ``slots`` runs, read by :func:`runs_lengths`."""
    held, jokers = ranks_held(hand)
    return runs_need_held(held, jokers, len(hand), slots, least, shortest, rules, size)


def runs_need_held(
    held: list[int],
    jokers: int,
    cards: int,
    slots: int,
    least: int,
    shortest: int,
    rules: Ruleset,
    size: int | None = None,
) -> int:
    """:func:`runs_need` of a hand of ``cards`` cards given by :func:`ranks_held` (``held``, ``jokers``)."""
    size = cards + 1 if size is None else size
    target = size if size > least else least
    naturals = _most_covered(held, slots, shortest, target, rules)
    length = target
    if naturals < 0:  # no windows: nothing covered
        naturals = length = 0
    used_jokers = min(jokers, length - naturals)
    return cards - naturals - used_jokers + 2 * max(0, least - size)


def _most_covered(present: list[int], slots: int, shortest: int, target: int, rules: Ruleset) -> int:
    """The naturals covered by the windows :func:`_best_windows` picks (-1 when it picks none): the same
    table of the most naturals by windows chosen and cards in all, without the windows themselves."""
    if slots <= 0:
        return -1
    first = 1 if rules.aces_low else 2
    last = 14 if rules.aces_high else 13
    longest = min(min(last - first + 1, 13), target - (slots - 1) * shortest)  # (min of two: compiled, not a call)
    width = target + 1
    edge = slots * width  # entries from here on hold every window: not extended
    naturals = [-1] * (edge + width)
    naturals[0] = 0
    final: list[int] = []
    table = _covered_table(shortest, longest, first, last)
    for suit in range(4):
        ranks = present[suit]
        if ranks & 2:
            ranks |= 1 << 14
        covered = table[ranks]
        if covered is None:
            covered = table[ranks] = [n for _, _, n in _spans(ranks, shortest, longest, first, last)]
        if suit == 3:
            final = covered
            break
        # the row of ``chosen`` windows writes only the next row, so rows go most windows first (a row is
        # read before this suit writes it); rows past ``suit`` windows are still empty, and only entries
        # the suits left can complete (every window, ``target`` cards in all) are written
        for chosen in range(min(suit, slots - 1), max(0, slots - 4 + suit) - 1, -1):
            row = chosen * width
            after = (slots - chosen - 1) * shortest  # the least the windows after this one hold
            for length in range(width):
                have = naturals[row + length]
                if have < 0:
                    continue
                key = row + width + length + shortest  # the entry of this suit's shortest window
                if not after:  # the last window: only the one that closes the target counts
                    i = target - length - shortest
                    if 0 <= i < len(covered) and have + covered[i] > naturals[key + i]:
                        naturals[key + i] = have + covered[i]
                    continue
                fits = target - length - after - shortest + 1  # the windows that fit, shortest first
                if fits > len(covered):
                    fits = len(covered)
                for i in range(fits):
                    value = have + covered[i]
                    if value > naturals[key + i]:
                        naturals[key + i] = value
    most = naturals[edge + target]
    base = edge - width  # entries of one window short
    for length in range(width):
        have = naturals[base + length]
        if have < 0:
            continue
        i = target - length - shortest  # the last suit's window that closes the target
        if 0 <= i < len(final) and have + final[i] > most:
            most = have + final[i]
    return most


_COVERED: Final[dict[tuple[int, int, int, int], list[list[int] | None]]] = {}


def _covered_table(shortest: int, longest: int, first: int, last: int) -> list[list[int] | None]:
    """For each set of ranks held in a suit (bit ``r`` for rank ``r``, the ace at 1 and 14), the ranks
    covered by the window of each length of :func:`_spans`, shortest first, found when first asked
    (``None`` until then; callers must not change them): one table per arguments, indexed without hashing."""
    key = (shortest, longest, first, last)
    table = _COVERED.get(key)
    if table is None:
        if len(_COVERED) >= 64:
            _COVERED.clear()
        table = _COVERED[key] = [None] * (1 << 15)
    return table


def _windows_of(hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, size: int) -> list[Window]:
    """The runs' windows of the plan of ``hand`` for a target of ``size`` cards (see the module doc)."""
    if any(rule.kind is not MeldKind.RUN for rule in contract):
        raise ValueError("plan_whole_runs plans contracts of runs only")
    shortest = min(rule.length for rule in contract)
    target = max(size, sum(rule.length for rule in contract))
    return _best_windows(ranks_held(hand)[0], len(contract), shortest, target, rules)


def ranks_held(hand: Sequence[int]) -> tuple[list[int], int]:
    """The ranks held in each suit of ``hand`` (bit r for rank r) and its jokers."""
    # held0 .. held3: the ranks held in suits 0 .. 3 (locals: list items would be boxed)
    held0 = held1 = held2 = held3 = 0
    jokers = 0
    for card in hand:
        face = card & 63
        if face < JOKER_FACE:
            suit = face // 13
            bit = 2 << face - 13 * suit
            if suit == 0:
                held0 |= bit
            elif suit == 1:
                held1 |= bit
            elif suit == 2:
                held2 |= bit
            else:
                held3 |= bit
        else:
            jokers += 1
    return [held0, held1, held2, held3], jokers


def _best_windows(present: list[int], slots: int, shortest: int, target: int, rules: Ruleset) -> list[Window]:
    """``slots`` windows in distinct suits (``present``: bit ``r`` for each rank ``r`` held, by suit), each
    at least ``shortest`` long, lengths adding up to ``target``, covering the most naturals: as ``(suit,
    low, length, naturals covered)``."""
    first = 1 if rules.aces_low else 2
    last = 14 if rules.aces_high else 13
    longest = min(min(last - first + 1, 13), target - (slots - 1) * shortest)
    per_suit: list[dict[int, Window]] = []
    for suit, ranks in enumerate(present):
        if ranks & 2:
            ranks |= 1 << 14
        per_suit.append(_suit_windows(suit, ranks, shortest, longest, first, last))
    # entry ``chosen * width + length``: the most naturals of ``chosen`` windows of ``length`` cards in all
    # over the suits seen so far (-1: none yet), and those windows; ``order`` lists the entries found in
    # the order they were first found, which breaks ties between equal entries
    width = target + 1
    naturals = [-1] * ((slots + 1) * width)
    picks: list[list[Window]] = [[]] * len(naturals)  # one empty list, never changed: entries are replaced
    naturals[0] = 0
    order = [0]
    for best in per_suit[:-1]:
        before = naturals[:]
        chosen_before = picks[:]
        for index in order[:]:
            if index // width == slots:
                continue
            have = before[index]
            length = index % width
            for span, window in best.items():
                if length + span > target:
                    break
                key = index + width + span
                value = have + window[3]
                known = naturals[key]
                if known < 0 or value > known:
                    if known < 0:
                        order.append(key)
                    naturals[key] = value
                    picks[key] = [*chosen_before[index], window]
    # the last suit: only the entry of every slot and the whole target counts
    end = slots * width + target
    most = naturals[end]
    found = picks[end]
    final = per_suit[-1]
    for index in order:
        if index // width != slots - 1:
            continue
        closing = final.get(target - index % width)
        if closing is not None and (most < 0 or naturals[index] + closing[3] > most):
            most = naturals[index] + closing[3]
            found = [*picks[index], closing]
    return found if most >= 0 and found else []


_SUIT_WINDOWS: Final[dict[int, dict[int, Window]]] = {}


def _suit_windows(suit: int, present: int, shortest: int, longest: int, first: int, last: int) -> dict[int, Window]:
    """The best window of each length in ``suit`` (see :func:`_find_spans`), by length, as ``(suit, low,
    length, naturals covered)``; kept, so callers must not change it."""
    key = present | shortest << 16 | longest << 21 | first << 26 | last << 31 | suit << 36
    found = _SUIT_WINDOWS.get(key)
    if found is None:
        if len(_SUIT_WINDOWS) >= 65536:
            _SUIT_WINDOWS.clear()
        found = _SUIT_WINDOWS[key] = {
            span: (suit, low, span, n) for span, low, n in _spans(present, shortest, longest, first, last)
        }
    return found


_SPANS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def _spans(present: int, shortest: int, longest: int, first: int, last: int) -> tuple[tuple[int, int, int], ...]:
    """:func:`_find_spans`, kept (by one int key: a dict look-up is cheaper than an ``lru_cache``)."""
    key = present | shortest << 16 | longest << 21 | first << 26 | last << 31
    found = _SPANS.get(key)
    if found is None:
        if len(_SPANS) >= 65536:
            _SPANS.clear()
        found = _SPANS[key] = _find_spans(present, shortest, longest, first, last)
    return found


def _find_spans(present: int, shortest: int, longest: int, first: int, last: int) -> tuple[tuple[int, int, int], ...]:
    """For each window length: the lowest window covering the most ranks of ``present``, as
    ``(length, low, ranks covered)``."""
    out = []
    for span in range(shortest, longest + 1):
        mask = (1 << span) - 1
        best_low, best = first, -1
        for low in range(first, last - span + 2):
            covered = BITS[present & (mask << low)]
            if covered > best:
                best_low, best = low, covered
        out.append((span, best_low, best))
    return tuple(out)
