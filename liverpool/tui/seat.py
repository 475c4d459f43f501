"""What a local game and a server table have in common: the person's seat, its hand as shown, and typed
commands turned into engine actions (:class:`SeatCommands`), plus the hint (:func:`hint`).

The seat decides nothing about the rules: it matches commands against the actions the engine lists for the
seat, and an action it cannot match is built as typed so that the engine (``apply``, locally, or the server)
refuses it with its reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from liverpool.coach import Advice, Coach
from liverpool.engine import (
    Action,
    Buy,
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    LayOff,
    Meld,
    MeldKind,
    Observation,
    Pass,
    Phase,
    SwapJoker,
)

from .commands import Command, CommandError


@dataclass(frozen=True, slots=True)
class Turn:
    """Who acts next: ``kind`` is 'human', 'bot', 'chance', 'wait' (a server table: another seat's move) or
    'over'; ``options`` what the seat may do."""

    kind: str
    seat: int | None = None
    options: tuple[Action, ...] = ()


def sort_hand(cards: Sequence[Card], by_rank: bool) -> list[Card]:
    """The hand in the order shown: by suit then rank, or by rank then suit; jokers last."""
    if by_rank:
        return sorted(cards, key=lambda c: (c.is_joker, 0 if c.is_joker else c.rank, "" if c.is_joker else c.suit))
    return sorted(cards, key=lambda c: (c.is_joker, "" if c.is_joker else c.suit, 0 if c.is_joker else c.rank))


def hint(observation: Observation, options: Sequence[Action], seed: int = 0) -> Advice | None:
    """The coach's advice for the person's move, from their observation only (worlds of the hidden cards
    sampled, never the true hands): its best option first, with the reason and the margin over the next."""
    if not options:
        return None
    return Coach().advise(observation, list(options), seed)


def command_text(action: Action | None, hand: Sequence[Card]) -> str:
    """The typed command that does ``action`` with ``hand`` shown as it is, and what it does in words."""

    def at(card: Card) -> int:
        return hand.index(card) + 1

    match action:
        case None | Pass():
            return "p: pass"
        case DrawStock():
            return "d: draw from the stock"
        case DrawDiscard():
            return "t: take the top discard"
        case Discard(card=card):
            return f"x {at(card)}: discard {card.pretty()}"
        case GoDown(melds=melds):
            groups = " ".join(",".join(str(at(c)) for c in m.cards) for m in melds)
            return f"l {groups}: go down"
        case LayOff(card=card, meld=meld):
            return f"o {at(card)} {meld + 1}: lay {card.pretty()} off on meld {meld + 1}"
        case SwapJoker(card=card, meld=meld):
            return f"swap {at(card)} {meld + 1}: swap {card.pretty()} for meld {meld + 1}'s joker"
        case Buy():
            return "b: buy"
        case Call(card=card):
            return "c: call" if card is None else f"c {at(card)}: call and shed {card.pretty()}"
        case EndTurn():
            return "e: end the turn"
    return repr(action)


def game_end_lines(obs: Observation, names: Sequence[str]) -> list[str]:
    """The end-of-game summary for the log: each seat's total, lowest first, and the winners."""
    if obs.phase is not Phase.GAME_OVER:
        return []
    ranked = sorted(range(len(obs.totals)), key=lambda s: (obs.totals[s], s))
    lines = [f"Game over after {len(obs.results)} deals. Final totals (lowest wins):"]
    lines += [f"  {place}. {names[s]}: {obs.totals[s]}" for place, s in enumerate(ranked, 1)]
    lines.append("Winner: " + ", ".join(names[s] for s in obs.winners))
    return lines


def _face(card: Card) -> str:
    return card.pretty()


class SeatCommands:
    """Typed commands to actions for seat ``human``; subclasses say what the seat sees and may do now."""

    human: int
    by_rank: bool

    def observation(self) -> Observation:
        raise NotImplementedError

    def options(self) -> list[Action]:
        """The actions the engine lists for the person's seat now."""
        raise NotImplementedError

    def arrangements(self) -> list[tuple[Meld, ...]]:
        """The ways of going down the engine lists for the person now."""
        raise NotImplementedError

    def turn(self) -> Turn:
        raise NotImplementedError

    def hint_seed(self) -> int:
        """The hint's random seed: the same moment of the same game gets the same hint."""
        return 0

    def hint_text(self) -> str:
        """The hint for the person's move now, as the command that does it (see :func:`hint`)."""
        seed = self.hint_seed()
        turn = self.turn()
        if turn.kind != "human":
            raise CommandError("a hint is for your move: it is not your move now")
        advice = hint(self.observation(), turn.options, seed)
        if advice is None:
            raise CommandError("there is nothing to choose: no move is open to you")
        best = advice.best
        margin = "" if advice.margin is None else f"; {advice.margin:.1f} points better than the next"
        return f"Hint (coach): {command_text(best.choice, self.hand())} ({best.reason}{margin})"

    def targets(self, position: int) -> tuple[list[int], list[int]]:
        """The melds (numbered from 1) that card ``position`` of the hand may be laid off on now, and those whose
        joker it may replace, from the options the engine lists."""
        hand = self.hand()
        if not 1 <= position <= len(hand):
            raise CommandError(f"there is no card {position}: your hand has {len(hand)}")
        card = hand[position - 1]
        turn = self.turn()
        options = turn.options if turn.kind == "human" else ()
        lays = sorted({a.meld + 1 for a in options if isinstance(a, LayOff) and a.card == card})
        swaps = sorted({a.meld + 1 for a in options if isinstance(a, SwapJoker) and a.card == card})
        return lays, swaps

    def hand(self) -> list[Card]:
        """The person's hand in the order shown (positions in commands count from 1 in this order)."""
        return sort_hand(self.observation().hand, self.by_rank)

    def action_for(self, command: Command) -> Action | None:
        """The engine action ``command`` names for the person's seat (None: declining an optional call)."""
        seat = self.human
        hand = self.hand()

        def card(position: int) -> Card:
            if position > len(hand):
                raise CommandError(f"there is no card {position}: your hand has {len(hand)}")
            return hand[position - 1]

        match command.verb:
            case "draw":
                return DrawStock(seat)
            case "take":
                return DrawDiscard(seat)
            case "discard":
                return Discard(seat, card(command.cards[0]))
            case "buy":
                return Buy(seat)
            case "pass":
                obs = self.observation()
                if Pass(seat) in self.options() or obs.phase is Phase.BUY:
                    return Pass(seat)
                if obs.current == seat:
                    raise CommandError("it is your turn: you must act (d, t, ...)")
                return None
            case "call":
                return Call(seat, card(command.cards[0]) if command.cards else None)
            case "end":
                return EndTurn(seat)
            case "down":
                groups = [[card(p) for p in group] for group in command.groups]
                return self._go_down(groups)
            case "layoff" | "swap":
                return self._on_meld(command.verb, card(command.cards[0]), (command.meld or 1) - 1)
        raise CommandError(f"{command.verb!r} is not a move")

    def _go_down(self, groups: list[list[Card]]) -> GoDown:
        seat = self.human
        wanted = sorted(sorted(Counter(_face(c) for c in g).items()) for g in groups)
        for arrangement in self.arrangements():
            have = sorted(sorted(Counter(_face(c) for c in m.cards).items()) for m in arrangement)
            if have == wanted:
                return GoDown(seat, arrangement)
        # Not an arrangement the engine lists: build the melds as typed and let the engine say what is wrong.
        contract = self.observation().contract
        melds: list[Meld] = []
        for index, group in enumerate(groups):
            naturals = [c for c in group if not c.is_joker]
            if index < len(contract):
                kind = contract[index].kind
            else:
                kind = MeldKind.SET if len({c.rank for c in naturals}) <= 1 else MeldKind.RUN
            low = min((c.rank for c in naturals), default=1)
            cards = tuple(sorted(group, key=lambda c: (c.is_joker, 0 if c.is_joker else c.rank)))
            melds.append(Meld(kind, cards, low))
        return GoDown(seat, tuple(melds))

    def _on_meld(self, verb: str, card: Card, meld: int) -> Action:
        seat = self.human
        melds = self.observation().melds
        if meld >= len(melds):
            count = len(melds)
            raise CommandError(f"there is no meld {meld + 1}: the table has {count} meld{'s' if count != 1 else ''}")
        options = self.options()
        if verb == "layoff":
            fits = [a for a in options if isinstance(a, LayOff) and a.card == card and a.meld == meld]
            if fits:
                return fits[0]  # one end only, or either end of a run: the first listed
            run = melds[meld].meld.kind is MeldKind.RUN
            return LayOff(seat, card, meld, "high" if run else None)
        swaps = [a for a in options if isinstance(a, SwapJoker) and a.card == card and a.meld == meld]
        if swaps:
            return swaps[0]
        jokers = [c for c in melds[meld].meld.cards if c.is_joker]
        joker = jokers[0] if jokers else Card.parse("JK")
        return SwapJoker(seat, card, meld, joker)
