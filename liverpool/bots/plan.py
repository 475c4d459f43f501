"""How far a hand is from its contract: a cheap "cards needed" measure for bots.

A *plan* gives each meld of the contract a partial meld of the hand: a set of one rank, or a window of
a run in one suit, with the naturals of the hand that fill it. ``need`` is how many cards the plan still
misses once the hand's jokers fill what they may. The plan with the least need is kept (ties: fewest dead
partials, then most live cards that would complete it). This is a heuristic, not the exact contract search
of :mod:`liverpool.engine.search`: it is for comparing hands, quickly.

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.presets import find_preset
>>> rules = find_preset('liverpool')
>>> plan_hand(parse_cards('7H 7S 4C 5C 6C KD 2S'), rules.contract(1), rules).need
2
>>> plan_hand(parse_cards('7H 7S 7D 4C 5C 6C JK 2S'), rules.contract(1), rules).need
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules import MeldKind, MeldRule, Ruleset

FACES = JOKER_FACE + 1


@dataclass(frozen=True, slots=True)
class Partial:
    """One meld of the contract as the hand could grow it.

    ``family`` is the suit index (run) or the rank (set); ``low`` the rank of a run window's first slot
    (the rank, for a set). ``faces`` are the naturals of the hand it uses; ``wanted`` the natural faces
    that would fill one of its ``missing`` slots; ``joker_room`` how many missing slots a joker may fill.
    """

    kind: MeldKind
    family: int
    low: int
    length: int
    faces: tuple[int, ...]
    missing: int
    joker_room: int
    wanted: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """The best partial contract of a hand: what it still needs and which cards it uses."""

    need: int
    partials: tuple[Partial, ...]
    jokers: int
    dead: int
    outs: int

    def used_faces(self) -> list[int]:
        """Faces of the hand the plan uses (jokers included), one entry per card."""
        faces = [f for p in self.partials for f in p.faces]
        return faces + [JOKER_FACE] * self.jokers


def face_counts(cards: Sequence[int]) -> list[int]:
    """How many cards of each face (jokers at ``JOKER_FACE``)."""
    counts = [0] * FACES
    for card in cards:
        counts[card & 63] += 1
    return counts


def _joker_cap(rule: MeldRule, rules: Ruleset) -> int:
    spacing = rules.run_joker_spacing
    if rule.kind is MeldKind.SET or spacing <= 1:
        return rule.length
    return -(-rule.length // spacing)


def _run_windows(counts: list[int], length: int, rules: Ruleset) -> list[tuple[int, int, int]]:
    """Run windows of ``length`` with at least one natural, as ``(missing, suit, low)``."""
    first = 1 if rules.aces_low else 2
    last = (14 if rules.aces_high else 13) - length + 1
    out = []
    for suit in range(4):
        base = suit * 13
        present = 0
        for r in range(13):
            if counts[base + r]:
                present |= 1 << (r + 1)
        if present:
            out += [(missing, suit, low) for missing, low in _windows(present, length, first, last)]
    return out


@lru_cache(maxsize=32768)
def _windows(present: int, length: int, first: int, last: int) -> tuple[tuple[int, int], ...]:
    """``(missing, low)`` of the windows of ``length`` starting at ``first .. last`` that hold a rank of
    ``present`` (bit ``r`` for rank ``r``; the ace is bit 1 and counts high too)."""
    if present & 2:
        present |= 1 << 14
    full = (1 << length) - 1
    out = []
    for low in range(first, last + 1):
        have = (present & (full << low)).bit_count()
        if have:
            out.append((length - have, low))
    return tuple(out)


def _set_ranks(counts: list[int], length: int, rules: Ruleset) -> list[tuple[int, int, int]]:
    """Sets of ``length`` by rank with at least one natural, as ``(missing, rank, rank)``."""
    out = []
    for rank in range(1, 14):
        have = [counts[s * 13 + rank - 1] for s in range(4)]
        total = sum(min(h, 1) for h in have) if rules.set_distinct_suits else sum(have)
        if total:
            out.append((max(0, length - total), rank, rank))
    return out


def _candidates(counts: list[int], rule: MeldRule, rules: Ruleset, keep: int) -> list[tuple[int, int, int]]:
    """The most promising partials of one meld, least missing first (at most two per suit or rank),
    ending with the empty partial so that a slot can always be planned."""
    found = _run_windows(counts, rule.length, rules) if rule.kind is MeldKind.RUN else _set_ranks(counts, rule.length, rules)
    found.sort()
    out: list[tuple[int, int, int]] = []
    per_family: dict[int, int] = {}
    for entry in found:
        if entry[0] > found[0][0] + 2 or len(out) == keep:
            break
        if per_family.get(entry[1], 0) < 2:
            per_family[entry[1]] = per_family.get(entry[1], 0) + 1
            out.append(entry)
    out.append((rule.length, -1, -1))
    return out


def _take(counts: list[int], rule: MeldRule, family: int, low: int, rules: Ruleset) -> list[int]:
    """Take from ``counts`` the naturals a partial meld uses; return their faces."""
    taken: list[int] = []
    if family < 0:
        return taken
    if rule.kind is MeldKind.RUN:
        base = family * 13
        for rank in range(low, low + rule.length):
            face = base + (rank - 1) % 13
            if counts[face]:
                counts[face] -= 1
                taken.append(face)
        return taken
    per_suit = 1 if rules.set_distinct_suits else rule.length
    for suit in range(4):
        face = suit * 13 + family - 1
        n = min(counts[face], per_suit, rule.length - len(taken))
        counts[face] -= n
        taken += [face] * n
    return taken


def _wanted(rule: MeldRule, family: int, low: int, faces: list[int], rules: Ruleset) -> tuple[int, ...]:
    if family < 0:
        return ()
    if rule.kind is MeldKind.RUN:
        base = family * 13
        have = set(faces)
        window = (base + (rank - 1) % 13 for rank in range(low, low + rule.length))
        return tuple(f for f in window if f not in have)
    if len(faces) >= rule.length:
        return ()
    suits = range(4)
    if rules.set_distinct_suits:
        return tuple(s * 13 + family - 1 for s in suits if s * 13 + family - 1 not in faces)
    return tuple(s * 13 + family - 1 for s in suits)


def plan_hand(
    hand: Sequence[int],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    live: Sequence[int] | None = None,
    whole_hand: bool = False,
    keep: int = 6,
) -> Plan:
    """The best plan of ``hand`` for ``contract``.

    ``live`` (unseen copies of each face) breaks ties toward plans whose missing cards are still out,
    and counts partials that can no longer be completed as ``dead``. With ``whole_hand`` every card must
    end up melded, so the cards no partial can use count as needed too (for contracts of runs only,
    :mod:`.plan_whole` plans better). ``keep``: partials tried per meld of the contract.
    """
    counts = face_counts(hand)
    jokers = counts[JOKER_FACE]
    slots = sorted(contract, key=lambda r: (r.kind is MeldKind.SET, -r.length))
    by_rule = {rule: _candidates(counts, rule, rules, keep) for rule in set(slots)}
    lists = [by_rule[rule] for rule in slots]
    rooms = [(max(0, rule.length - _min_naturals(rule, rules)), _joker_cap(rule, rules)) for rule in slots]
    distinct = [rules.run_distinct_suits if r.kind is MeldKind.RUN else rules.set_distinct_ranks for r in slots]
    floor = [0] * (len(slots) + 1)
    for i in range(len(slots) - 1, -1, -1):
        floor[i] = floor[i + 1] + lists[i][0][0]
    naturals = len(hand) - jokers
    slack = 1 if live is None else 0
    best_key: list[tuple[int, int, int]] = []
    best: list[_Chosen] = []
    chosen: list[_Chosen] = []

    def leaf() -> None:
        missing = room = 0
        for c in chosen:
            missing += c[4]
            room += c[5]
        need = missing - min(jokers, room)
        if whole_hand:
            melded = sum(len(c[3]) for c in chosen)
            need = max(need, naturals - melded - _extends(counts, chosen, rules))
        if best_key and need > best_key[0][0]:
            return
        dead = outs = 0
        if live is not None:
            for rule, family, low, faces, miss, joker_room in chosen:
                if not miss:
                    continue
                out = sum(live[f] for f in _wanted(rule, family, low, faces, rules))
                outs += min(out, 2 * miss)
                if out < miss - joker_room:
                    dead += 1
        key = (need, dead, -outs)
        if not best_key or key < best_key[0]:
            best_key[:] = [key]
            best[:] = chosen

    def visit(depth: int, missing_so_far: int, start: int) -> None:
        if depth == len(slots):
            leaf()
            return
        rule = slots[depth]
        options = lists[depth]
        chained = depth > 0 and slots[depth - 1] == rule
        least_room, cap = rooms[depth]
        for index in range(start if chained else 0, len(options)):
            static, family, low = options[index]
            if best_key and missing_so_far + static + floor[depth + 1] - jokers + slack > best_key[0][0]:
                break
            if family >= 0 and distinct[depth] and any(c[1] == family and c[0].kind is rule.kind for c in chosen):
                continue
            faces = _take(counts, rule, family, low, rules)
            missing = rule.length - len(faces)
            chosen.append((rule, family, low, faces, missing, min(missing, least_room, cap)))
            visit(depth + 1, missing_so_far + missing, index)
            chosen.pop()
            for face in faces:
                counts[face] += 1

    visit(0, 0, 0)
    need, dead, outs = best_key[0]
    partials = tuple(
        Partial(rule.kind, family, low, rule.length, tuple(faces), miss, room, _wanted(rule, family, low, faces, rules))
        for rule, family, low, faces, miss, room in best
    )
    return Plan(need, partials, min(jokers, sum(p.joker_room for p in partials)), dead, -outs)


_Chosen = tuple[MeldRule, int, int, list[int], int, int]


def _min_naturals(rule: MeldRule, rules: Ruleset) -> int:
    return rules.run_min_naturals if rule.kind is MeldKind.RUN else rules.set_min_naturals


def _extends(counts: list[int], chosen: list[_Chosen], rules: Ruleset) -> int:
    """Naturals left over that would lengthen a planned run or set (whole-hand deals)."""
    spare = 0
    for rule, family, low, _, _, _ in chosen:
        if family < 0:
            continue
        if rule.kind is MeldKind.SET:
            if not rules.set_distinct_suits:
                spare += sum(counts[s * 13 + family - 1] for s in range(4))
            continue
        base = family * 13
        for rank in (low - 1, low + rule.length):
            if 1 <= rank <= 14 and counts[base + (rank - 1) % 13]:
                spare += 1
    return spare

