"""A game with one person's seat against bots: turns commands into engine actions, and moves the bots.

The session decides nothing about the rules: it offers what ``legal_actions`` lists, builds the action a
command names, and lets ``apply`` accept or refuse it (the refusal's message is what the player reads).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from liverpool.bots.registry import make_bot
from liverpool.cli.narrate import deal_end_lines, describe
from liverpool.engine import (
    Action,
    Agent,
    Buy,
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GameRecord,
    GoDown,
    LayOff,
    Meld,
    MeldKind,
    Pass,
    Phase,
    Ruleset,
    SeededChance,
    SwapJoker,
    apply,
    asking_order,
    go_down_arrangements,
    is_chance,
    legal_actions,
    new_game,
    observe,
    replay,
)

from .commands import Command, CommandError


@dataclass(frozen=True, slots=True)
class Turn:
    """Who acts next: ``kind`` is 'human', 'bot', 'chance' or 'over'; ``options`` what the seat may do."""

    kind: str
    seat: int | None = None
    options: tuple[Action, ...] = ()


def _face(card: Card) -> str:
    return card.pretty()


class Session:
    """One game: seat ``human`` is the person's, the others are bots named in ``bots`` (in seat order)."""

    def __init__(
        self,
        rules: Ruleset,
        bots: list[str],
        seed: int = 1,
        name: str = "you",
        human: int = 0,
        record: GameRecord | None = None,
    ) -> None:
        seats = len(bots) + 1
        self.human = human
        self.seed = seed
        self.bot_names = list(bots)
        bot_iter = iter(bots)
        self.names: list[str] = []
        self.agents: list[Agent | None] = []
        for seat in range(seats):
            if seat == human:
                self.names.append(name)
                self.agents.append(None)
            else:
                bot = next(bot_iter)
                self.names.append(f"{bot} {seat}")
                self.agents.append(make_bot(bot))
        self.chance = SeededChance(seed)
        self.rng = random.Random(f"{seed}:bots")
        self.by_rank = False
        self.log: list[str] = []
        # Seats that let an optional chance (a call out of turn) pass, and the history length it was at.
        self._declined: set[int] = set()
        self._declined_at = -1
        if record is not None:
            self.state = replay(record)
            if record.seats:
                self.names = list(record.seats)
        else:
            self.state = new_game(rules, seats, self.chance.first_dealer(rules, seats))
        self._results_logged = len(self.state.results)

    @classmethod
    def resume(cls, record: GameRecord) -> Session:
        """The game saved in ``record`` (by :meth:`record`), with its bots, seed and seat."""
        meta = record.meta
        bots = [str(b) for b in meta.get("bots", ["medium"] * (len(record.seats) - 1))]
        seed = int(meta.get("seed", 1))
        human = int(meta.get("human", 0))
        return cls(record.rules, bots, seed, record.seats[human], human, record)

    def record(self) -> GameRecord:
        """The game so far in the engine's record format, with what :meth:`resume` needs in ``meta``."""
        meta: dict[str, Any] = {"seed": self.seed, "bots": self.bot_names, "human": self.human, "client": "tui"}
        return GameRecord.of(self.state, self.names, meta)

    # ---- reading -------------------------------------------------------------------------------------

    def hand(self) -> list[Card]:
        """The person's hand in the order shown (positions in commands count from 1 in this order)."""
        cards = list(observe(self.state, self.human).hand)
        if self.by_rank:
            return sorted(cards, key=lambda c: (c.is_joker, 0 if c.is_joker else c.rank, "" if c.is_joker else c.suit))
        return sorted(cards, key=lambda c: (c.is_joker, "" if c.is_joker else c.suit, 0 if c.is_joker else c.rank))

    def turn(self) -> Turn:
        """Who acts next, asked in the engine driver's order: out-of-turn seats first, nearest first."""
        state = self.state
        if state.phase is Phase.GAME_OVER:
            return Turn("over")
        if is_chance(state):
            return Turn("chance")
        order = asking_order(state)
        if state.phase is Phase.PLAY:
            return self._seat_turn(state.current, tuple(legal_actions(state)))
        if state.phase is Phase.BUY:
            for seat in order:
                answers = legal_actions(state, seat)
                if answers:
                    return self._seat_turn(seat, tuple(answers))
            return Turn("over")
        by_seat: dict[int | None, list[Action]] = {}
        for option in legal_actions(state):
            by_seat.setdefault(option.seat, []).append(option)
        for seat in order:
            options = by_seat.get(seat)
            if not options:
                continue
            if seat != state.current and self._declined_at == len(state.history) and seat in self._declined:
                continue
            return self._seat_turn(seat, tuple(options))
        return Turn("over")

    def _seat_turn(self, seat: int, options: tuple[Action, ...]) -> Turn:
        return Turn("human" if seat == self.human else "bot", seat, options)

    # ---- moving --------------------------------------------------------------------------------------

    def step(self) -> bool:
        """Play one action that is not the person's (chance or a bot's); False when it is the person's turn
        to answer or the game is over."""
        turn = self.turn()
        if turn.kind == "chance":
            self._apply(self.chance(self.state))
            return True
        if turn.kind != "bot" or turn.seat is None:
            return False
        agent = self.agents[turn.seat]
        assert agent is not None
        choice = agent(observe(self.state, turn.seat), list(turn.options), self.rng)
        if choice is None:
            if turn.seat == self.state.current or self.state.phase is Phase.BUY:
                raise ValueError(f"bot of seat {turn.seat} declined to act but must ({self.state.situation()})")
            # an optional call declined: the next seat in order is asked (the driver's rule)
            self._decline(turn.seat)
            return True
        self._apply(choice)
        return True

    def _decline(self, seat: int) -> None:
        """``seat`` lets this moment's optional chance pass: it is not asked again until the next action."""
        if self._declined_at != len(self.state.history):
            self._declined_at = len(self.state.history)
            self._declined = set()
        self._declined.add(seat)

    def _apply(self, action: Action) -> None:
        try:
            line = describe(self.state, action, self.names)
        except IndexError:  # an action naming a meld that is not there: apply refuses it just below
            line = repr(action)
        apply(self.state, action)  # raises IllegalAction and leaves the state as it was
        self.log.append(line)
        for result in self.state.results[self._results_logged :]:
            self.log.extend(deal_end_lines(result, self.names))
        self._results_logged = len(self.state.results)

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
                if Pass(seat) in legal_actions(self.state, seat) or self.state.phase is Phase.BUY:
                    return Pass(seat)
                if self.state.current == seat:
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
        for arrangement in go_down_arrangements(self.state, seat):
            have = sorted(sorted(Counter(_face(c) for c in m.cards).items()) for m in arrangement)
            if have == wanted:
                return GoDown(seat, arrangement)
        # Not an arrangement the engine lists: build the melds as typed and let apply say what is wrong.
        contract = self.state.deal_rule.contract
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
        if meld >= len(self.state.melds):
            count = len(self.state.melds)
            raise CommandError(f"there is no meld {meld + 1}: the table has {count} meld{'s' if count != 1 else ''}")
        options = legal_actions(self.state)
        if verb == "layoff":
            fits = [a for a in options if isinstance(a, LayOff) and a.card == card and a.meld == meld]
            if fits:
                return fits[0]  # one end only, or either end of a run: the first listed
            melds = self.state.melds
            run = 0 <= meld < len(melds) and melds[meld].meld.kind is MeldKind.RUN
            return LayOff(seat, card, meld, "high" if run else None)
        swaps = [a for a in options if isinstance(a, SwapJoker) and a.card == card and a.meld == meld]
        if swaps:
            return swaps[0]
        melds = self.state.melds
        jokers = [c for c in melds[meld].meld.cards if c.is_joker] if 0 <= meld < len(melds) else []
        joker = jokers[0] if jokers else Card.parse("JK")
        return SwapJoker(seat, card, meld, joker)

    def act(self, command: Command) -> None:
        """Do ``command`` for the person: :class:`CommandError` or the engine's :class:`IllegalAction` if not."""
        action = self.action_for(command)
        if action is None:
            self._decline(self.human)
            return
        self._apply(action)
