"""A game with one person's seat against bots: turns commands into engine actions, and moves the bots.

The session decides nothing about the rules: it offers what ``legal_actions`` lists, builds the action a
command names, and lets ``apply`` accept or refuse it (the refusal's message is what the player reads).
"""

from __future__ import annotations

import random
from typing import Any

from liverpool.bots.registry import make_spec, seat_entry
from liverpool.cli.narrate import bought, deal_end_lines, describe
from liverpool.engine import (
    Action,
    Agent,
    GameRecord,
    Meld,
    Observation,
    Phase,
    Ruleset,
    SeededChance,
    UndoRefused,
    action_from_dict,
    action_to_dict,
    apply,
    asking_order,
    go_down_arrangements,
    is_chance,
    legal_actions,
    new_game,
    observe,
    replay,
    undo_point,
)
from liverpool.phrases import YOU

from .commands import Command, CommandError
from .seat import SeatCommands, Turn, game_end_lines


class Session(SeatCommands):
    """One game: seat ``human`` is the person's, the others are bots named in ``bots`` (in seat order)."""

    def __init__(
        self,
        rules: Ruleset,
        bots: list[str],
        seed: int = 1,
        name: str = YOU,
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
                self.agents.append(make_spec(bot))
        self.chance = SeededChance(seed)
        self.rng = random.Random(f"{seed}:bots")
        self.by_rank = False
        self.log: list[str] = []
        # Seats that let an optional chance (a call out of turn) pass, and the history length it was at.
        self._declined: set[int] = set()
        self._declined_at = -1
        # Moves taken back by undo, kept for the saved record: where (the history's length) and which.
        self.undone: list[dict[str, Any]] = []
        if record is not None:
            self.state = replay(record)
            self.undone = [dict(u) for u in record.meta.get("undone", [])]
            if record.seats:
                self.names = list(record.seats)
        else:
            self.state = new_game(rules, seats, self.chance.first_dealer(rules, seats))
        self._results_logged = len(self.state.results)
        # The log speaks to the person in the second person while they go by the default name ("you discard").
        self.you: int | None = human if self.names[human] == YOU else None

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
        meta["bot_versions"] = [
            seat_entry(s, self.bot_names[self._bot_index(s)]) for s in range(len(self.names)) if s != self.human
        ]
        if self.undone:
            meta["undone"] = self.undone
        return GameRecord.of(self.state, self.names, meta)

    def hint_seed(self) -> int:
        return self.seed * 100_003 + len(self.state.history)

    def undo(self) -> list[str]:
        """Take back the person's last decision and every move after it (the bots'), as long as no card the
        person had not seen has been shown to them since (a card drawn, bought or dealt, a bot's discard);
        :class:`CommandError` saying which card otherwise. The moves taken back are kept in ``undone``
        (and the saved record's ``meta``). Returns what was taken back, as log lines."""
        try:
            back = undo_point(self.state, self.human)
        except UndoRefused as exc:
            if exc.index is None:
                raise CommandError("nothing to undo: you have not moved yet") from exc
            before = replay(GameRecord.of(self.state), exc.index)
            cards = " ".join(sorted(c.pretty() for c in exc.cards))
            shown_by = describe(before, self.state.history[exc.index], self.names, self.you)
            raise CommandError(f"cannot undo: {cards} shown to you since ({shown_by})") from exc
        at, history = back.at, self.state.history
        state = back.state.clone()
        lines: list[str] = []
        for action in history[at:]:
            lines.append(describe(state, action, self.names, self.you))
            apply(state, action)
        self.undone.append({"at": at, "actions": [action_to_dict(a) for a in history[at:]]})
        self.state = back.state
        self.agents = [
            None if a is None else make_spec(self.bot_names[self._bot_index(s)]) for s, a in enumerate(self.agents)
        ]
        self._declined, self._declined_at = set(), -1
        self._results_logged = len(self.state.results)
        takes = "take" if self.you is not None else "takes"
        self.log.append(f"{self.names[self.human]} {takes} back: " + "; ".join(lines))
        return lines

    def _bot_index(self, seat: int) -> int:
        return seat if seat < self.human else seat - 1

    def undone_actions(self) -> list[list[Action]]:
        """The moves taken back so far, each undo's in order (read back from ``undone``)."""
        return [[action_from_dict(a) for a in u["actions"]] for u in self.undone]

    # ---- reading -------------------------------------------------------------------------------------

    pauses_at_deal_end = True  # the bots wait at a deal's end until the person has read it

    def started(self) -> bool:
        return True

    def observation(self) -> Observation:
        return observe(self.state, self.human)

    def options(self) -> list[Action]:
        return [a for a in legal_actions(self.state) if a.seat == self.human]

    def arrangements(self) -> list[tuple[Meld, ...]]:
        return list(go_down_arrangements(self.state, self.human))

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
            line = describe(self.state, action, self.names, self.you)
        except IndexError:  # an action naming a meld that is not there: apply refuses it just below
            line = repr(action)
        before = self.state.clone()
        apply(self.state, action)  # raises IllegalAction and leaves the state as it was
        self.log.append(line)
        self.log.extend(bought(before, self.state, self.names, self.you))
        for result in self.state.results[self._results_logged :]:
            self.log.extend(deal_end_lines(result, self.names, self.you))
        self._results_logged = len(self.state.results)
        if self.state.phase is Phase.GAME_OVER:
            self.log.extend(game_end_lines(self.observation(), self.names))

    def act(self, command: Command) -> None:
        """Do ``command`` for the person: :class:`CommandError` or the engine's :class:`IllegalAction` if not."""
        action = self.action_for(command)
        if action is None:
            self._decline(self.human)
            return
        self._apply(action)
