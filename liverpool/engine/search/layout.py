"""The layout of a contract for the arrangement search (:mod:`.search`): its slots in the order the search
fills them, and what the walk reads of them at each depth. It depends only on the contract and the
ruleset, so each is made once and kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from liverpool.engine._speed.cache import ByIdentity, by_identity
from liverpool.engine.rules.parts import JoinableRuns, MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search.candidates import lengths_allowed
from liverpool.engine.search.walk import BY_ORDER, BY_SIZE, FREE

KIND_ORDER: Final = (MeldKind.RUN, MeldKind.SET)


@dataclass(frozen=True, slots=True)
class Slot:
    """One meld of the contract, in search order: its kind, length and place in the contract, and whether
    the slot before it is of the same kind."""

    kind: MeldKind
    length: int
    position: int
    chained: bool


@dataclass(frozen=True, slots=True)
class Layout:
    """What a search reads of one contract under one ruleset: its slots in search order, the open groups
    below each depth as ``(kind, slots, distinct)``, how each slot's candidate follows the one before
    (:func:`_chain`), whether its candidates' tags say more than their family's bit (runs laid end to end:
    see :class:`.search.candidates.Family`), whether its run may not be one that could be laid as one run
    with a run of the slots before (``joins``: :func:`.melds.runs_could_join`), the depths in contract order, and the lengths of runs and of
    sets the contract allows (:func:`.search.candidates.lengths_allowed`)."""

    contract: tuple[MeldRule, ...]
    rules: Ruleset
    slots: list[Slot]
    below: list[list[tuple[MeldKind, int, bool]]]
    chains: list[int]
    tagged: list[bool]
    joins: list[bool]
    placed: list[int]
    run_lengths: int
    set_lengths: int


def _layouts(rules: Ruleset) -> ByIdentity[Layout]:
    """The layouts of the contracts asked about under ``rules``, by contract (for :data:`_LAYOUTS`)."""
    return ByIdentity(lambda contract: _make_layout(contract, rules), _MAX_LAYOUTS)


# Layouts of the contracts asked about, by ruleset and then by contract (a tuple).
_MAX_LAYOUTS: Final = 64
_LAYOUTS: Final[ByIdentity[ByIdentity[Layout]]] = by_identity(_layouts)


def contract_layout(contract: Sequence[MeldRule], rules: Ruleset) -> Layout:
    """The layout of ``contract`` under ``rules``, kept for contracts given as tuples."""
    if not isinstance(contract, tuple):
        return _make_layout(tuple(contract), rules)
    return _LAYOUTS.of(rules).of(contract)


def _make_layout(contract: tuple[MeldRule, ...], rules: Ruleset) -> Layout:
    order = sorted(range(len(contract)), key=lambda i: (KIND_ORDER.index(contract[i].kind), -contract[i].length, i))
    slots: list[Slot] = []
    for position in order:
        rule = contract[position]
        slots.append(Slot(rule.kind, rule.length, position, bool(slots) and slots[-1].kind is rule.kind))
    below = []
    for depth in range(len(order) + 1):
        kinds = [slot.kind for slot in slots[depth:]]
        below.append([(k, kinds.count(k), _distinct(k, rules)) for k in KIND_ORDER if k in kinds])
    chains = [_chain(slots, depth, rules.longer_melds) for depth in range(len(slots))]
    tagged = [slot.kind is MeldKind.RUN and rules.joinable_runs is JoinableRuns.TOUCHING for slot in slots]
    could_join = rules.joinable_runs is JoinableRuns.COULD_JOIN and not rules.run_distinct_suits
    joins = [slot.kind is MeldKind.RUN and could_join for slot in slots]
    placed = sorted(range(len(slots)), key=lambda depth: slots[depth].position)
    run_lengths = lengths_allowed(contract, MeldKind.RUN, rules)
    set_lengths = lengths_allowed(contract, MeldKind.SET, rules)
    return Layout(contract, rules, slots, below, chains, tagged, joins, placed, run_lengths, set_lengths)


def _chain(slots: list[Slot], depth: int, longer_melds: bool) -> int:
    """How the candidate at ``depth`` must follow the one before, so that each set of melds is tried
    once: not at all (another kind, or exact lengths that differ), in order (slots of one length), or
    by size then order (slots of one kind and several lengths, filled longest first)."""
    slot = slots[depth]
    if not slot.chained:
        return FREE
    if not longer_melds:
        return BY_ORDER if slots[depth - 1].length == slot.length else FREE
    if any(s.kind is slot.kind and s.length != slot.length for s in slots):
        return BY_SIZE
    return BY_ORDER


def _distinct(kind: MeldKind, rules: Ruleset) -> bool:
    return rules.run_distinct_suits if kind is MeldKind.RUN else rules.set_distinct_ranks
