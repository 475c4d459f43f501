"""An integer-programming oracle for the contract search: the least penalty left in hand, or infeasible.

Stand-alone on purpose: it reads the ruleset's fields but none of the engine's meld or search code, so
that agreeing with :func:`liverpool.engine.search.best_leftover` on many hands means something.

The model, literally the rules of ``liverpool.engine.melds.contract_problem``:

1. Every meld the hand could lay is listed by brute force (:func:`candidates`): a run is a suit, a low
   and a high rank (1..14, no wrap, at most 13 cards, ace low or high as the rules allow) and, for each
   place, a natural of the hand or a joker; a set is a rank, how many naturals of each suit and how many
   jokers. Each is kept when it obeys the rules of one meld: the fewest naturals, joker spacing in runs,
   distinct suits and the longest set, and a length some slot of the contract can take.
2. An integer ``y[c]`` says how many times candidate ``c`` is laid (a two-deck hand can lay one twice).
3. Faces: the melds use at most the copies of each face (and jokers) in hand, all of them for a whole
   hand; at most ``len(hand) - keep`` cards are melded.
4. The contract: as many melds of each kind as it asks for, and for every length ``t`` it asks, at
   least as many melds of ``t`` or more cards as it has slots of ``t`` or more (the sorted pairing of
   ``contract_problem``); exactly its lengths when longer melds are off.
5. Between melds: one set per rank (``set_distinct_ranks``), one run per suit (``run_distinct_suits``),
   and, by ``joinable_runs``: never a run ending at ``t`` beside a run of the same suit starting at
   ``t + 1`` (``touching``), or never two runs laid whose cards could make one run (``could_join``: a
   boolean ``laid`` per run candidate, and ``laid[a] + laid[b] <= 1`` for each such pair).
6. Maximise the points melded; the penalty is the hand's points less that.

Cards are the engine's ints: the face is ``card & 63``, ``suit * 13 + rank - 1`` for naturals (suits
C, D, H, S) and 52 for jokers. The solver is OR-Tools CP-SAT on one worker (deterministic).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from ortools.sat.python import cp_model

JOKER = 52


@dataclass(frozen=True)
class Candidate:
    """One meld by faces: ``faces`` in meld order (a run's from ``low`` up, jokers where they stand)."""

    kind: str
    low: int
    faces: tuple[int, ...]

    @property
    def suit(self) -> int:
        return next(f // 13 for f in self.faces if f != JOKER)

    @property
    def high(self) -> int:
        return self.low + len(self.faces) - 1


@dataclass(frozen=True)
class Answer:
    """The least penalty left in hand (``None``: the contract cannot be met) and melds that achieve it."""

    penalty: int | None
    melds: tuple[Candidate, ...]


def value(face: int, rules: Any) -> int:
    return int(rules.card_values[13 if face == JOKER else face % 13])


def _lengths_ok(length: int, wanted: list[int], rules: Any) -> bool:
    if rules.longer_melds:
        return length >= min(wanted)
    return length in wanted


def candidates(counts: Counter[int], contract: Sequence[Any], rules: Any) -> list[Candidate]:
    """Every set and run that the faces in ``counts`` could lay for some slot of ``contract``."""
    jokers = counts[JOKER]
    out: list[Candidate] = []
    run_lengths = [r.length for r in contract if r.kind == "run"]
    set_lengths = [r.length for r in contract if r.kind == "set"]
    if run_lengths:
        lowest = 1 if rules.aces_low else 2
        highest = 14 if rules.aces_high else 13
        for suit in range(4):
            for low in range(lowest, highest + 1):
                for high in range(low + 2, min(highest, low + 12) + 1):
                    size = high - low + 1
                    if not _lengths_ok(size, run_lengths, rules):
                        continue
                    faces = [suit * 13 + (rank - 1) % 13 for rank in range(low, high + 1)]
                    options = [(f, JOKER) if counts[f] else (JOKER,) for f in faces]
                    for laid in product(*options):
                        n_jokers = laid.count(JOKER)
                        if n_jokers > jokers or size - n_jokers < rules.run_min_naturals:
                            continue
                        places = [i for i, f in enumerate(laid) if f == JOKER]
                        window = rules.run_joker_spacing
                        if window > 1 and any(b - a < window for a, b in combinations(places, 2)):
                            continue
                        out.append(Candidate("run", low, laid))
    if set_lengths:
        for rank in range(1, 14):
            suit_faces = [suit * 13 + rank - 1 for suit in range(4)]
            most = [min(counts[f], 1) if rules.set_distinct_suits else counts[f] for f in suit_faces]
            for naturals in product(*(range(m + 1) for m in most)):
                for n_jokers in range(jokers + 1):
                    size = sum(naturals) + n_jokers
                    if sum(naturals) < rules.set_min_naturals or size < 3:
                        continue
                    if rules.set_max_length is not None and size > rules.set_max_length:
                        continue
                    if rules.set_distinct_suits and size > 4:
                        continue
                    if not _lengths_ok(size, set_lengths, rules):
                        continue
                    faces = tuple(f for f, n in zip(suit_faces, naturals, strict=True) for _ in range(n))
                    out.append(Candidate("set", rank, faces + (JOKER,) * n_jokers))
    return out


def _could_be_one_run(a: Candidate, b: Candidate, rules: Any) -> bool:
    """Whether the cards of runs ``a`` and ``b`` could be laid as one run: one suit, no rank twice, and some
    place for all of them (aces as the rules allow, jokers in the holes, spaced as the rules ask)."""
    naturals = [f for f in a.faces + b.faces if f != JOKER]
    if len({f // 13 for f in naturals}) != 1 or len({f % 13 for f in naturals}) != len(naturals):
        return False
    size = len(a.faces) + len(b.faces)
    if size > 13 or len(naturals) < rules.run_min_naturals:
        return False
    ranks = sorted(f % 13 + 1 for f in naturals)
    choices = [ranks]
    if ranks[0] == 1:  # an ace: low, or high
        choices = ([ranks] if rules.aces_low else []) + ([[*ranks[1:], 14]] if rules.aces_high else [])
    for placed in choices:
        for low in range(1 if rules.aces_low else 2, (14 if rules.aces_high else 13) - size + 2):
            if not low <= placed[0] or not placed[-1] <= low + size - 1:
                continue
            holes = [r for r in range(low, low + size) if r not in placed]
            window = rules.run_joker_spacing
            if window > 1 and any(q - p < window for p, q in combinations(holes, 2)):
                continue
            return True
    return False


def least_penalty(
    hand: Sequence[int], contract: Sequence[Any], rules: Any, *, whole_hand: bool = False, keep: int = 0
) -> Answer:
    """The least penalty left once ``contract`` is met from ``hand`` (0 when a whole hand is melded)."""
    counts = Counter(card & 63 for card in hand)
    total = sum(value(f, rules) * n for f, n in counts.items())
    cands = candidates(counts, contract, rules)
    model = cp_model.CpModel()
    slots = {kind: sum(1 for r in contract if r.kind == kind) for kind in ("set", "run")}
    y = [model.new_int_var(0, slots[c.kind], f"y{i}") for i, c in enumerate(cands)]

    def laid(chosen: list[int], weights: list[int] | None = None) -> Any:
        """The linear sum of ``y`` over the candidates ``chosen`` (by index), weighted if asked."""
        return cp_model.LinearExpr.weighted_sum([y[i] for i in chosen], weights or [1] * len(chosen))

    indexed = list(enumerate(cands))
    for face, have in counts.items():
        users = [i for i, c in indexed if face in c.faces]
        copies = laid(users, [cands[i].faces.count(face) for i in users])
        model.add(copies == have if whole_hand else copies <= have)
    model.add(laid([i for i, _ in indexed], [len(c.faces) for c in cands]) <= len(hand) - keep)

    for kind, wanted in slots.items():
        mine = [(i, len(c.faces)) for i, c in indexed if c.kind == kind]
        model.add(laid([i for i, _ in mine]) == wanted)
        lengths = [r.length for r in contract if r.kind == kind]
        for t in set(lengths):
            if rules.longer_melds:
                model.add(laid([i for i, n in mine if n >= t]) >= sum(1 for n in lengths if n >= t))
            else:
                model.add(laid([i for i, n in mine if n == t]) == lengths.count(t))

    sets = [(i, c) for i, c in indexed if c.kind == "set"]
    runs = [(i, c) for i, c in indexed if c.kind == "run"]
    if rules.set_distinct_ranks:
        for rank in range(1, 14):
            model.add(laid([i for i, c in sets if c.low == rank]) <= 1)
    if rules.run_distinct_suits:
        for suit in range(4):
            model.add(laid([i for i, c in runs if c.suit == suit]) <= 1)
    joinable = str(rules.joinable_runs)
    if joinable == "could_join":
        flags = {}
        for i, _ in runs:
            flags[i] = model.new_bool_var(f"laid{i}")
            model.add(y[i] <= slots["run"] * flags[i])
        for (i, a), (j, b) in combinations(runs, 2):
            if _could_be_one_run(a, b, rules):
                model.add(flags[i] + flags[j] <= 1)
    if joinable == "touching":
        for suit in range(4):
            for t in range(1, 14):
                ending = [i for i, c in runs if c.suit == suit and c.high == t]
                starting = [i for i, c in runs if c.suit == suit and c.low == t + 1]
                if ending and starting:
                    side = model.new_bool_var(f"join{suit}_{t}")
                    model.add(laid(ending) <= slots["run"] * side)
                    model.add(laid(starting) <= slots["run"] * (1 - side))

    model.maximize(laid([i for i, _ in indexed], [sum(value(f, rules) for f in c.faces) for c in cands]))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return Answer(None, ())
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"the solver stopped without an optimum ({solver.status_name(status)})")
    chosen = tuple(c for c, v in zip(cands, y, strict=True) for _ in range(solver.value(v)))
    shed = sum(value(f, rules) for c in chosen for f in c.faces)
    return Answer(0 if whole_hand else total - shed, chosen)
