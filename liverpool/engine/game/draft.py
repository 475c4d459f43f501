"""Drafts of a going-down: the cards a player has put to each meld of the contract so far, checked.

A client that lets a player build a going-down card by card (the browser's builder) asks
:func:`draft_go_down` after each change: for each meld of the contract, how its cards lie, what each joker
stands for, the other ways a run could lie and what is still wrong; and for the whole, the ``GoDown``
to send or why it would be refused. The client holds no meld rule of its own.

The checks are the engine's own (``meld_fault``, then the whole ``GoDown`` verified as ``apply`` would);
``tests/engine/test_draft.py`` shows drafts of real deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from liverpool.engine.actions import GoDown, action_to_dict
from liverpool.engine.cards import JOKER_FACE, Card
from liverpool.engine.errors import Reason
from liverpool.engine.game.verify import refusal
from liverpool.engine.melds import Meld, joker_stands, meld_fault, meld_label, meld_words
from liverpool.engine.problems import Fault, Problem
from liverpool.engine.rules.parts import MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState


@dataclass(frozen=True, slots=True)
class DraftMeld:
    """One meld of a draft: the contract's ``rule`` (``at_least``: whether the meld may hold more cards than
    the rule's length), its ``title``, the ``cards`` in the order they lie, the ``meld`` they make (None
    while they make none), its ``label``, what each card ``stands`` for (a joker's rank, else None), the
    ``ways`` a run could lie and their ``placements`` (labels; ``choice`` is the one used) and its
    ``faults`` (``problems``: their English)."""

    rule: MeldRule
    at_least: bool
    title: str
    cards: tuple[Card, ...]
    meld: Meld | None
    label: str | None
    stands: tuple[str | None, ...]
    ways: tuple[Meld, ...]
    placements: tuple[str, ...]
    choice: int
    faults: tuple[Fault, ...]

    @property
    def problems(self) -> tuple[str, ...]:
        """What is still wrong, in English."""
        return tuple(f.text() for f in self.faults)


@dataclass(frozen=True, slots=True)
class Draft:
    """A checked draft: its ``melds``, the ``go_down`` to send when the engine would accept it, else the
    ``problem`` (the first meld's, or the engine's refusal of the whole going-down) and its ``fault`` (the
    same as a code, ``None`` for a refusal the engine words only in English) and ``reason`` (the
    refusal's, or ``cannot_go_down`` for a meld's problem)."""

    melds: tuple[DraftMeld, ...]
    go_down: GoDown | None
    problem: str | None
    fault: Fault | None = None
    reason: Reason | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form a client reads (``POST /api/seat/{token}/draft``, docs/protocol.md)."""
        return {
            "melds": [
                {
                    "rule": str(m.rule),
                    "kind": m.rule.kind.value,
                    "length": m.rule.length,
                    "at_least": m.at_least,
                    "title": m.title,
                    "cards": [str(c) for c in m.cards],
                    "label": m.label,
                    "words": None if m.meld is None else meld_words(m.meld),
                    "stands": list(m.stands),
                    "placements": list(m.placements),
                    "placement_words": [meld_words(way) for way in m.ways],
                    "choice": m.choice,
                    "problems": list(m.problems),
                    "faults": [f.to_dict() for f in m.faults],
                }
                for m in self.melds
            ],
            "go_down": None if self.go_down is None else action_to_dict(self.go_down),
            "problem": self.problem,
            "fault": None if self.fault is None else self.fault.to_dict(),
            "reason": None if self.reason is None else self.reason.value,
        }


def draft_go_down(state: GameState, seat: int, slots: Sequence[Sequence[Card]], choices: Sequence[int] = ()) -> Draft:
    """Check the draft ``slots`` (cards put to each meld of this deal's contract, in contract order) of
    ``seat``; ``choices[i]`` picks among the ways slot ``i``'s run could lie. Cards are not checked to be
    in the hand here: the going-down's own check says so."""
    contract = state.deal_rule.contract
    if len(slots) > len(contract):
        raise ValueError(f"the contract has {len(contract)} melds, not {len(slots)}")
    filled = [tuple(Card(c) for c in slot) for slot in slots] + [()] * (len(contract) - len(slots))
    melds = tuple(
        _draft_meld(i, rule, cards, choices[i] if i < len(choices) else 0, state.rules)
        for i, (rule, cards) in enumerate(zip(contract, filled, strict=True))
    )
    for i, part in enumerate(melds):
        if part.faults:
            code = Problem.DRAFT_SET if part.rule.kind is MeldKind.SET else Problem.DRAFT_RUN
            fault = Fault(code, {"n": i + 1, "faults": part.faults})
            return Draft(melds, None, fault.text(), fault, Reason.CANNOT_GO_DOWN)
    action = GoDown(seat, tuple(part.meld for part in melds if part.meld is not None))
    refused = refusal(state, action)
    if refused is not None:
        return Draft(melds, None, refused.detail, refused.fault, refused.reason)
    return Draft(melds, action, None)


def _draft_meld(index: int, rule: MeldRule, cards: tuple[Card, ...], choice: int, rules: Ruleset) -> DraftMeld:
    longer = rules.longer_melds
    title = f"{rule.kind.value.capitalize()} {index + 1}: {rule.length}{'+' if longer else ''} cards"
    problems: list[Fault] = []
    if len(cards) < rule.length:
        problems.append(Fault(Problem.NEEDS_MORE, {"count": rule.length - len(cards)}))
    elif len(cards) > rule.length and not longer:
        problems.append(Fault(Problem.TOO_MANY_CARDS, {"count": len(cards)}))
    if not any(c & 63 != JOKER_FACE for c in cards):
        return DraftMeld(
            rule, longer, title, cards, None, None, (), (), (), 0, (*problems, Fault(Problem.NEEDS_NATURAL))
        )
    ways = _ways(rule.kind, cards)
    fit = [m for m in ways if meld_fault(m, rules) is None] if len(cards) >= 3 else ways
    if not fit:
        why = meld_fault(ways[0], rules) if ways else _no_way(rule.kind, cards)
        assert why is not None  # ways[0] is not in fit
        return DraftMeld(rule, longer, title, cards, None, None, (), (), (), 0, (*problems, why))
    pick = min(max(choice, 0), len(fit) - 1)
    meld = fit[pick]
    lies = tuple(fit) if rule.kind is MeldKind.RUN else ()
    placements = tuple(meld_label(m) for m in lies)
    stands = joker_stands(meld)
    return DraftMeld(
        rule, longer, title, meld.cards, meld, meld_label(meld), stands, lies, placements, pick, tuple(problems)
    )


def _ways(kind: MeldKind, cards: tuple[Card, ...]) -> list[Meld]:
    """Every way ``cards`` could lie as a meld of ``kind``: naturals at their ranks, jokers in the gaps."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    if kind is MeldKind.SET:
        if len({c.rank for c in naturals}) != 1:
            return []
        return [Meld(MeldKind.SET, (*naturals, *jokers), naturals[0].rank)]
    if len({c.suit for c in naturals}) != 1:
        return []
    n = len(cards)
    out: list[Meld] = []
    for ace in (1, 14) if any(c.rank == 1 for c in naturals) else (1,):
        ranks = [ace if c.rank == 1 else c.rank for c in naturals]
        if len(set(ranks)) != len(ranks):
            continue
        for low in range(max(1, max(ranks) - n + 1), min(min(ranks), 15 - n) + 1):
            places: list[Card | None] = [None] * n
            for card, rank in zip(naturals, ranks, strict=True):
                places[rank - low] = card
            spare = iter(jokers)
            ordered = tuple(c if c is not None else next(spare) for c in places)
            if not any(m.low == low and m.cards == ordered for m in out):
                out.append(Meld(MeldKind.RUN, ordered, low))
    return out


def _no_way(kind: MeldKind, cards: tuple[Card, ...]) -> Fault:
    naturals = [c for c in cards if not c.is_joker]
    if kind is MeldKind.SET:
        return Fault(Problem.SET_MIXES_RANKS)
    if len({c.suit for c in naturals}) != 1:
        return Fault(Problem.RUN_MIXES_SUITS)
    if len({c.rank for c in naturals}) != len(naturals):
        return Fault(Problem.RANK_TWICE)
    return Fault(Problem.TOO_FAR_APART)
