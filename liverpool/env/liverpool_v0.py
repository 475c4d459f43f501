"""``liverpool_v0``: a PettingZoo AEC environment of Liverpool Rummy for any preset or ruleset and 3-8 seats.

>>> from liverpool.env import liverpool_v0
>>> env = liverpool_v0.env(preset="liverpool", seats=4)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)

The engine decides everything: the environment lists the engine's legal actions (``legal_actions``), maps them
onto the fixed action space (:mod:`liverpool.env.encoding`), applies them (``apply``) and builds observations
from ``observe(state, seat)`` only. Chance (shuffles, reshuffles) is drawn inside, from ``reset(seed=)``.

Whose turn it is (``agent_selection``), as the engine's game driver asks seats:

* in the play phase, the seat whose turn it is;
* in a buy window, the first seat of the window that has not answered yet, in the driver's order (``asking_order``: the seats
  to the current player's left, nearest first, then the current player);
* in the draw phase, first each other seat that may act out of turn (buy before the next draw, or call a
  discard), nearest to the left of the current player first, each of which may take its action or PASS
  (decline, an environment step that changes nothing in the game); once all have declined, the current player.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from liverpool.engine import (
    Action,
    Card,
    DrawDiscard,
    GameState,
    GoDown,
    IllegalAction,
    Phase,
    Ruleset,
    SeededChance,
    apply,
    asking_order,
    find_preset,
    go_down_arrangements,
    is_chance,
    legal_actions,
    live_rng,
    new_game,
    observe,
)
from liverpool.engine import Call as CallAction
from liverpool.engine import Discard as DiscardAction
from liverpool.engine import LayOff as LayOffAction
from liverpool.engine import SwapJoker as SwapAction

from . import encoding as enc
from . import wrapping

DECLINE = enc.DECLINE


def env(**kwargs: Any) -> AECEnv[str, dict[str, npt.NDArray[Any]], int]:
    """The environment wrapped as PettingZoo's classic environments are: an illegal action raises (with the
    engine's reason), ``step`` after the end is refused, the order of calls is enforced. The wrappers are
    PettingZoo's, with their attribute forwarding made direct (:mod:`liverpool.env.wrapping`)."""
    wrapped: AECEnv[str, dict[str, npt.NDArray[Any]], int] = raw_env(**kwargs)
    wrapped = wrapping.AssertOutOfBounds(wrapped)
    wrapped = wrapping.OrderEnforcing(wrapped)
    return wrapped


class raw_env(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]  # PettingZoo is untyped
    """Liverpool Rummy as an AEC game; agents ``player_0`` .. ``player_{seats-1}`` are the seats."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "liverpool_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "liverpool",
        seats: int = 4,
        rules: Ruleset | None = None,
        render_mode: str | None = None,
        going_down: str = "listed",
    ) -> None:
        """``going_down``: which going-downs the meld steps reach: ``"listed"``, those ``legal_actions`` lists
        (the engine's best few, fast); ``"all"``, every arrangement the engine accepts (``go_down_arrangements``:
        slower, a hand can have thousands)."""
        super().__init__()
        if going_down not in ("listed", "all"):
            raise ValueError(f"going_down is 'listed' or 'all', not {going_down!r}")
        self.going_down = going_down
        self.rules = rules if rules is not None else find_preset(preset)
        if not 3 <= seats <= 8:
            raise ValueError(f"liverpool_v0 seats 3 to 8 players, not {seats}")
        new_game(self.rules, seats)  # refuses a table the ruleset cannot seat
        self.seats = seats
        self.layout = enc.Layout.of(self.rules, seats)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self.agent_name_mapping = {name: i for i, name in enumerate(self.possible_agents)}
        size = self.layout.observation_size
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(low=-1e6, high=1e6, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(self.layout.actions,), dtype=np.int8),
                }
            )
            for name in self.possible_agents
        }
        self.action_spaces = {name: spaces.Discrete(self.layout.actions) for name in self.possible_agents}
        self.state: GameState | None = None
        self.pending: list[int] = []
        self.declined: set[int] = set()
        self._options_cache: tuple[int, dict[int, enc.Choice]] | None = None
        self._listed: tuple[int, int, list[Action]] | None = None
        self._rewarded = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game ---------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the first dealer and every shuffle follow from ``seed`` (a fresh one when None)."""
        game_seed: int = seed if seed is not None else live_rng().getrandbits(63)
        self.chance = SeededChance(game_seed)
        self.rng = random.Random(game_seed)
        self.state = new_game(self.rules, self.seats, self.chance.first_dealer(self.rules, self.seats))
        self._advance_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.pending = []
        self.declined = set()
        self._results_seen = 0
        self._rewarded = False  # whether rewards holds a deal's results (see _zero_rewards)
        self._moment = 0
        self._options_cache = None
        self._listed = None
        self.agent_selection = self.possible_agents[self._next_seat()]

    def _advance_chance(self) -> None:
        assert self.state is not None
        while is_chance(self.state):
            apply(self.state, self.chance(self.state))

    def _next_seat(self) -> int:
        """The seat that acts now (see the module's docstring); its legal actions are kept for ``options``."""
        state = self.state
        assert state is not None
        if state.phase is Phase.GAME_OVER:
            return state.current
        if state.phase is Phase.BUY:
            for seat in asking_order(state):
                listed = legal_actions(state, seat)
                if listed:
                    return self._keep(seat, listed)
            raise AssertionError(f"nobody answers the buy window ({state.situation()})")
        if state.phase is Phase.DRAW:
            by_seat: dict[int | None, list[Action]] = {}
            for action in legal_actions(state):
                by_seat.setdefault(action.seat, []).append(action)
            for seat in asking_order(state):
                if seat in by_seat and (seat == state.current or seat not in self.declined):
                    return self._keep(seat, by_seat[seat])
            raise AssertionError(f"the current player cannot draw ({state.situation()})")
        return state.current

    def _keep(self, seat: int, listed: list[Action]) -> int:
        self._listed = (self._moment, seat, listed)
        return seat

    def _legal(self, seat: int) -> list[Action]:
        """``legal_actions(state, seat)``, from what was kept when it is of this moment (the state changes only
        with ``_moment``): ``_next_seat``'s listing, or this one's, which the meld steps of a going-down reuse
        (in the play phase a listing that can go down is the engine's slowest, 0.2-0.5 ms)."""
        kept = self._listed
        if kept is not None and kept[0] == self._moment and kept[1] == seat:
            return kept[2]
        assert self.state is not None
        listed = legal_actions(self.state, seat)
        self._keep(seat, listed)
        return listed

    def options(self, seat: int) -> dict[int, enc.Choice]:
        """Action index -> what it does for ``seat`` now: an engine action, ``DECLINE``, or a tuple of
        catalogue indices (a meld step extends the pending going-down; GO_DOWN_DONE submits it)."""
        cache = self._options_cache
        key = self._key(seat)
        if cache is not None and cache[0] == key:
            return cache[1]
        state = self.state
        assert state is not None
        if state.phase is Phase.GAME_OVER or self.possible_agents[seat] != self.agent_selection:
            return {}
        listed = self._legal(seat)
        arrangements: list[GoDown] | None = None  # None: choices() takes the listed ones
        if self.going_down == "all" and any(type(a) is GoDown for a in listed):
            arrangements = [GoDown(seat, a) for a in go_down_arrangements(state, seat)]
        may_decline = state.phase is Phase.DRAW and seat != state.current
        out = enc.choices(self.layout, listed, arrangements, self.pending, may_decline)
        self._options_cache = (key, out)
        return out

    def _key(self, seat: int) -> int:
        return (self._moment * 64 + len(self.pending)) * 16 + seat

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 at each index of ``options(seat)``: a fresh array each call (a learner may keep it), filled in one
        NumPy assignment."""
        mask = np.zeros(self.layout.actions, dtype=np.int8)
        chosen = self.options(seat)
        mask[np.fromiter(chosen, np.intp, len(chosen))] = 1
        return mask

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self.agent_name_mapping[agent]
        assert self.state is not None
        pending = self.pending if self.possible_agents[seat] == self.agent_selection else []
        return {
            "observation": enc.encode_observation(self.layout, observe(self.state, seat), pending),
            "action_mask": self.action_mask(seat),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None and action is not None
        seat = self.agent_name_mapping[agent]
        index = int(action)
        self._cumulative_rewards[agent] = 0.0
        self._zero_rewards()
        choices = self.options(seat)
        if index not in choices:
            self._refuse(seat, index)
        chosen = choices[index]
        if isinstance(chosen, tuple):  # one more meld of the pending going-down
            self.pending = list(chosen)
            self._options_cache = None
        else:
            self._perform(seat, chosen)
        self._after_step()

    def play(self, action: Action | None) -> None:
        """Apply an engine action (or ``DECLINE``) for the selected seat, bypassing the encoding: for clients
        that play some seats with the engine's own agents (the bots of :mod:`liverpool.env.single`). The
        engine validates it (``IllegalAction``); a seat that must act may not decline."""
        agent = self.agent_selection
        assert self.state is not None
        seat = self.agent_name_mapping[agent]
        if self.terminations[agent]:
            raise ValueError(f"{agent} cannot act: the game is over")
        if action is not None and action.seat != seat:
            raise ValueError(f"{action!r} is not an action of the selected seat {seat}")
        if action is DECLINE and enc.PASS not in self.options(seat):
            raise ValueError(f"seat {seat} must act now and cannot decline ({self.state.situation()})")
        self._cumulative_rewards[agent] = 0.0
        self._zero_rewards()
        self.pending = []
        self._perform(seat, action)
        self._after_step()

    def _perform(self, seat: int, chosen: Action | None) -> None:
        assert self.state is not None
        if chosen is DECLINE:
            self.declined.add(seat)
            self._options_cache = None
            return
        apply(self.state, chosen)
        self.pending = []
        self.declined = set()
        self._moment += 1
        self._options_cache = None
        self._advance_chance()
        self._score()

    def _after_step(self) -> None:
        assert self.state is not None
        if self.state.phase is Phase.GAME_OVER:
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = self.possible_agents[self._next_seat()]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _zero_rewards(self) -> None:
        """Every seat's ``rewards`` to 0 at the start of a step, as PettingZoo's environments do; they are all 0
        already unless the step before ended a deal (``_rewarded``), so most steps skip the loop."""
        if self._rewarded:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._rewarded = False

    def _score(self) -> None:
        """Rewards: each seat's deal result, negated (penalty points are bad), when a deal ends."""
        assert self.state is not None
        if len(self.state.results) == self._results_seen:
            return
        results = observe(self.state, None).results
        for result in results[self._results_seen :]:
            for seat, points in enumerate(result.scores):
                self.rewards[self.possible_agents[seat]] -= float(points)
        self._results_seen = len(results)
        self._rewarded = True

    def _refuse(self, seat: int, index: int) -> None:
        """Raise for an action not in the mask: the engine's own refusal when the index names an engine action
        (``IllegalAction`` with its reason), else a ``ValueError`` saying why."""
        state = self.state
        assert state is not None
        if not 0 <= index < self.layout.actions:
            raise ValueError(f"action {index} is outside the action space 0..{self.layout.actions - 1}")
        name = self.layout.describe(index)
        if self.pending:
            raise ValueError(f"{name} ({index}) is not possible while going down: choose a meld shape or done")
        engine_action = self._decode(seat, index)
        if engine_action is not None:
            apply(state, engine_action)  # raises IllegalAction with the engine's reason; the state is unchanged
            raise AssertionError(f"{name} was applied though it is not in the mask")  # (the mask is wrong)
        raise ValueError(f"{name} ({index}) is not legal for seat {seat} now ({state.situation()})")

    def _decode(self, seat: int, index: int) -> Action | None:
        """The engine action an index names for ``seat`` (a card of the face from the seat's hand, copy 0 when
        it holds none), for asking the engine why it is refused; None for a meld step or done."""
        lay = self.layout
        assert self.state is not None
        hand = observe(self.state, seat).hand

        def card(face: int) -> Card:
            held = [c for c in hand if enc._face(c) == face]
            return held[0] if held else Card.make(face, 0)

        from liverpool.engine import Buy, DrawStock, EndTurn, Pass

        simple: dict[int, Action] = {
            enc.DRAW_STOCK: DrawStock(seat),
            enc.BUY: Buy(seat),
            enc.PASS: Pass(seat),
            enc.END_TURN: EndTurn(seat),
            enc.CALL_RUMMY: CallAction(seat),
        }
        if index in simple:
            return simple[index]
        if index < lay.draw_discard or lay.meld <= index < lay.lay_off:
            return None
        if index < lay.discard:
            return DrawDiscard(seat, index - lay.draw_discard + 1)
        if index < lay.call_shed:
            return DiscardAction(seat, card(index - lay.discard))
        if index < lay.meld:
            return CallAction(seat, card(index - lay.call_shed))
        if index < lay.swap:
            face, rest = divmod(index - lay.lay_off, lay.max_melds * len(enc.ENDS))
            meld, end = divmod(rest, len(enc.ENDS))
            return LayOffAction(seat, card(face), meld, enc.ENDS[end])
        face, meld = divmod(index - lay.swap, lay.max_melds)
        table = observe(self.state, seat).melds
        jokers = [c for c in table[meld].meld.cards if Card(c).is_joker] if meld < len(table) else []
        return SwapAction(seat, card(face), meld, jokers[0] if jokers else Card.make(enc.JOKER, 0))

    # -- showing it -------------------------------------------------------------------------------------

    def render(self) -> str | None:
        """The selected seat's view as text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        text = self.describe(self.agent_name_mapping[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def describe(self, seat: int) -> str:
        """A readable form of what ``seat`` observes, with its legal actions."""
        from liverpool.engine import format_cards

        assert self.state is not None
        o = observe(self.state, seat)
        lines = [
            f"deal {o.deal + 1} ({', '.join(map(str, o.contract))}), {o.phase.value}, player_{o.current} to play;"
            f" you are player_{seat}",
            f"hand: {format_cards(sorted(o.hand))}",
            f"discard pile top: {o.top_discard if o.top_discard is not None else '-'}"
            f" ({len(o.discard_pile)} cards), stock {o.stock_size}",
        ]
        lines += [f"meld {i} (player_{tm.owner}): {tm.meld}" for i, tm in enumerate(o.melds)]
        for view in o.seats:
            if view.seat != seat:
                known = f", known {format_cards(view.known)}" if view.known else ""
                lines.append(
                    f"player_{view.seat}: {view.hand_count} cards, {'down' if view.down else 'not down'}, "
                    f"{view.buys} buys{known}"
                )
        lines.append(f"scores: {list(o.totals)}")
        if self.pending:
            lines.append("going down with: " + ", ".join(str(enc.CATALOGUE[i]) for i in self.pending))
        lines.append("legal: " + "; ".join(f"{i} {self.layout.describe(i)}" for i in sorted(self.options(seat))))
        return "\n".join(lines)

    def close(self) -> None:
        pass


__all__ = ["DECLINE", "IllegalAction", "env", "raw_env"]
