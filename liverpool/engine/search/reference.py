"""The specification of the contract search, written to be obviously right rather than fast.

:func:`reference_arrangements` tries every combination of melds a hand allows, and keeps those that
:func:`~liverpool.engine.melds.contract_problem` (the rule the game applies) accepts. It answers the same
questions as :func:`~liverpool.engine.search.find_arrangements` and
:func:`~liverpool.engine.search.best_leftover` on small hands, where trying everything is quick: the fast
search is held to it on a committed corpus (``tests/search/test_reference.py``) and on random hands
(``tests/search/test_search.py``). Copies of one face are one resource, so an arrangement is told by its
faces (:data:`FaceMeld`).

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.rules.presets import find_preset
>>> rules = find_preset('liverpool')
>>> hand = parse_cards('7H 7S 7D 4C 5C 6C JK KD 2S')
>>> reference_leftover(hand, rules.contract(1), rules)
15
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence

from liverpool.engine.cards import JOKER_FACE, Card
from liverpool.engine.melds import Meld, contract_problem, meld_problem
from liverpool.engine.rules.parts import MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset

FaceMeld = tuple[str, int, tuple[int, ...]]


def reference_melds(hand: Sequence[Card], kinds: set[MeldKind], rules: Ruleset) -> list[Meld]:
    """Every valid meld of ``kinds`` that the faces of ``hand`` allow, once per meld of faces: each rank
    with each count of each suit's copies and of jokers, each run of each suit, start and length with the
    jokers in each place, kept when :func:`~liverpool.engine.melds.meld_problem` accepts it."""
    by_face: dict[int, list[Card]] = defaultdict(list)
    for card in sorted(hand):
        by_face[card.face].append(card)
    jokers = by_face[JOKER_FACE]
    out: list[Meld] = []
    if MeldKind.SET in kinds:
        for rank in range(1, 14):
            faces = [f for f in (suit * 13 + rank - 1 for suit in range(4)) if by_face[f]]
            for counts in itertools.product(*(range(len(by_face[f]) + 1) for f in faces)):
                naturals = [c for f, k in zip(faces, counts, strict=True) for c in by_face[f][:k]]
                for j in range(len(jokers) + 1):
                    meld = Meld(MeldKind.SET, (*naturals, *jokers[:j]), rank)
                    if meld_problem(meld, rules) is None:
                        out.append(meld)
    if MeldKind.RUN in kinds:
        for suit in range(4):
            for low in range(1, 15):
                for size in range(3, min(13, 15 - low) + 1):
                    faces = [suit * 13 + (rank - 1) % 13 for rank in range(low, low + size)]
                    absent = {i for i, f in enumerate(faces) if not by_face[f]}
                    present = [i for i, f in enumerate(faces) if by_face[f]]
                    for extra in range(len(jokers) - len(absent) + 1):
                        for chosen in itertools.combinations(present, extra):
                            wild = absent | set(chosen)
                            spare = iter(jokers)
                            cards = tuple(next(spare) if i in wild else by_face[f][0] for i, f in enumerate(faces))
                            meld = Meld(MeldKind.RUN, cards, low)
                            if meld_problem(meld, rules) is None:
                                out.append(meld)
    return out


def face_melds(arrangement: Sequence[Meld]) -> tuple[FaceMeld, ...]:
    """An arrangement with copies forgotten, in a canonical order."""
    return tuple(sorted((m.kind.value, m.low, tuple(c.face for c in m.cards)) for m in arrangement))


def penalty_left(hand: Sequence[Card], arrangement: Sequence[Meld], rules: Ruleset) -> int:
    """The points of the cards of ``hand`` that ``arrangement`` does not lay."""
    used = {c for m in arrangement for c in m.cards}
    return sum(rules.value(c) for c in hand if c not in used)


def reference_arrangements(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
) -> dict[tuple[FaceMeld, ...], int]:
    """Every arrangement of ``hand`` that meets ``contract`` (copies forgotten), with the points it leaves:
    every combination of :func:`reference_melds`, laid with the lowest copies, that
    :func:`~liverpool.engine.melds.contract_problem` accepts, leaves at least ``keep`` cards (none when
    ``whole_hand``) and lays ``must_include``."""
    melds = reference_melds(hand, {r.kind for r in contract}, rules)
    held = Counter(c.face for c in hand)
    out: dict[tuple[FaceMeld, ...], int] = {}
    for combo in itertools.combinations_with_replacement(melds, len(contract)):
        faces = Counter(c.face for m in combo for c in m.cards)
        if any(n > held[f] for f, n in faces.items()):
            continue
        copies: dict[int, list[Card]] = defaultdict(list)
        for card in sorted(hand):
            copies[card.face].append(card)
        laid = [Meld(m.kind, tuple(copies[c.face].pop(0) for c in m.cards), m.low) for m in combo]
        if contract_problem(laid, contract, rules) is not None:
            continue
        used = sum(faces.values())
        if used > len(hand) - keep or (whole_hand and used < len(hand)):
            continue
        if must_include is not None and not faces[must_include.face]:
            continue
        out[face_melds(laid)] = penalty_left(hand, laid, rules)
    return out


def reference_leftover(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
) -> int | None:
    """The fewest points an arrangement leaves, or None when the hand cannot meet the contract: what
    :func:`~liverpool.engine.search.best_leftover` must answer."""
    every = reference_arrangements(hand, contract, rules, whole_hand=whole_hand, keep=keep, must_include=must_include)
    return min(every.values()) if every else None
