"""One actor per table: an asyncio task that handles the table's messages one at a time, in order.

Client actions, joins, bot moves and timeouts all arrive on the actor's queue. An action is applied
through the engine (which validates it), stored in the database, and only then broadcast. Chance
(shuffles) comes from :func:`~liverpool.engine.play.live_rng`. Bots are asked as
:func:`liverpool.engine.play.step` asks seats: out-of-turn seats first, nearest after the current
player first, then the seat whose turn it is, each after the table's bot pace. The quick bots
(:data:`QUICK_BOTS`, well under a millisecond a decision compiled) decide on the event loop, which costs
less than handing each decision to a worker thread and back; ``hard``, and any seat whose bot once took
longer than :data:`QUICK_LIMIT_S`, decides in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from anyio import to_thread

from liverpool.bots.registry import bot_names, make_bot, version_of
from liverpool.cli.narrate import deal_end_reason
from liverpool.engine import (
    Action,
    Agent,
    Buy,
    GameState,
    IllegalAction,
    Pass,
    Phase,
    Reshuffle,
    Ruleset,
    Shuffle,
    action_from_dict,
    action_to_dict,
    apply,
    asking_order,
    chance_action,
    choose_first_dealer,
    is_chance,
    legal_actions,
    live_rng,
    new_game,
    new_position,
    observe,
)

from . import assist, tutorial
from .clock import Pause, TurnClock, between_deals, turn_key
from .coaching import Coaching, hint_seed
from .commits import GroupCommit
from .deltas import diff
from .errors import Refused
from .loading import RESUME_EVENTS, Loaded, display_name, load, step_event, table_position
from .messages import (
    Attach,
    AwayTimeout,
    BotTurn,
    BuyDeadline,
    Call,
    Client,
    Detach,
    HintReady,
    HintRequest,
    Message,
    NextDealDeadline,
    Ready,
    Resync,
    Say,
    Submit,
    TurnDeadline,
    UndoRequest,
    ack,
    action_keys,
    encode,
    error,
)
from .schemas import TableOptions
from .storage import OVER, PLAYING, Conflict, NewSeat, Storage
from .talk import SPECTATOR, TableTalk
from .views import ClientViews

log = logging.getLogger(__name__)

AWAY_BOT = "medium" if "medium" in bot_names() else "random"
BACKLOG = 50
ACKS_KEPT = 256
QUICK_BOTS = frozenset({"random", "easy", "medium"})  # decided on the event loop (see the module's doc)
QUICK_LIMIT_S = 0.02  # a seat whose bot once took longer decides in a worker thread from then on
MAY_I_WINDOW_S = 3.0  # how long bots wait, whatever their pace, when a human may call "May I?"
T = TypeVar("T")
__all__ = ["BACKLOG", "RESUME_EVENTS", "Client", "Loaded", "TableActor", "display_name", "error", "load"]


class TableActor:
    """A table in memory. ``on_idle`` is called (and the actor's task ends) as soon as nobody is
    connected, no timer is pending and no message waits: the table is then only in the database."""

    def __init__(
        self,
        storage: Storage,
        loaded: Loaded,
        on_idle: Callable[[TableActor], None] | None = None,
        coaching: Coaching | None = None,
        commits: GroupCommit | None = None,
    ) -> None:
        info = loaded.info
        self.storage = storage
        self.coaching = coaching
        self.hinting: set[int] = set()  # seats whose hint is being measured
        self.background: set[asyncio.Task[None]] = set()
        self.commits = commits if commits is not None else GroupCommit(storage)
        self.id = info.id
        self.info = info
        self.rules = Ruleset.from_dict(info.ruleset)
        self.options = TableOptions.model_validate(info.options)
        self.status = info.status
        self.names: list[str | None] = [s.name for s in info.seats]
        self.bots: list[str | None] = [s.bot for s in info.seats]
        self.claimed = [s.bot is not None or s.token_hash is not None for s in info.seats]
        self.rematch_id = info.rematch_id
        self.rng = live_rng()
        self.styles: list[str | None] = [s.style for s in info.seats]
        self.agents: dict[int, Agent] = {
            s: make_bot(b, self.styles[s]) for s, b in enumerate(self.bots) if b is not None
        }
        # The seats whose bot decides in a worker thread (not quick, or once slow); an away human's bot is quick.
        self.threaded: set[int] = {s for s, b in enumerate(self.bots) if b is not None and b not in QUICK_BOTS}
        self.clients: set[Client] = set()
        self.away: set[int] = set()
        # The last RESUME_EVENTS events and notes, each kept as (seq, type, its encoded text): plain tuples of
        # a number and strings, which the garbage collector stops tracking, where a message's dicts and lists
        # (its phrases) would be walked by every full collection for as long as they are kept.
        self.backlog: list[tuple[int, str, str]] = [(e["seq"], e["type"], encode(e)) for e in loaded.backlog]
        self.state = loaded.state
        # A finished game's last view for each seat and for spectators: once the game is over its engine
        # state (every deal's cards, the log, the bots' caches) is let go, and this is all that is shown.
        self.final: dict[int | None, dict[str, Any]] | None = None
        self.final_seq = 0
        self.talk = TableTalk(storage, info.id, loaded.chat)
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()
        self._legal: tuple[int, list[Action]] = (-1, [])
        self._asked: tuple[int, set[int]] = (-1, set())
        self._bot_timer: tuple[int, asyncio.TimerHandle] | None = None
        self._window: tuple[int, float, asyncio.TimerHandle] | None = None
        self._away_timers: dict[int, asyncio.TimerHandle] = {}
        self._pause: Pause | None = None
        self._clock: TurnClock | None = None
        self._acks: dict[int, dict[str, int]] = {}
        self._sent: dict[int | None, dict[str, Any]] = {}  # the last state each view's clients hold
        self._views = ClientViews()  # what every view's observation shares, converted once
        self._on_idle = on_idle
        # When a bot starts playing for each away human (stored, so that it survives a restart), and
        # the changes not yet stored.
        self._away_at = {x.seat: x.away_at for x in info.seats if x.away_at is not None and x.bot is None}
        self._away_unstored: dict[int, datetime | None] = {}
        self.unloaded = False

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.create_task(self._run(), name=f"table {self.id}")
        return self.task

    async def _run(self) -> None:
        await self._settle()
        while not self._idle():
            message = await self.queue.get()
            await self._handle(message)
            await self._settle()
        # Nothing can reach this actor any more: it leaves the hub in this same step, so the next
        # request loads the table again from the database.
        self.unloaded = True
        self.state = None
        self.final = None
        self.backlog = []
        self._sent = {}
        self._views = ClientViews()
        if self._on_idle is not None:
            self._on_idle(self)

    def _idle(self) -> bool:
        return not self.clients and self.queue.empty() and not self._timer_handles()

    def stop(self, close_code: int = 1001, reason: BaseException | None = None) -> None:
        """Cancel every timer, close every client and fail every pending request."""
        for handle in self._timer_handles():
            handle.cancel()
        for client in self.clients:
            client.close(close_code)
        self.clients.clear()
        while not self.queue.empty():
            message = self.queue.get_nowait()
            if isinstance(message, Call) and not message.future.done():
                message.future.set_exception(
                    Refused(503, "table_restarting", f"table {self.id} is restarting") if reason is None else reason
                )

    def _timer_handles(self) -> list[asyncio.TimerHandle]:
        handles = list(self._away_timers.values())
        if self._bot_timer is not None:
            handles.append(self._bot_timer[1])
        if self._window is not None:
            handles.append(self._window[2])
        if self._pause is not None:
            handles.append(self._pause.handle)
        if self._clock is not None and self._clock.handle is not None:
            handles.append(self._clock.handle)
        return handles

    def _post(self, message: Message) -> None:
        if self.task is None or self.task.done():
            raise Refused(503, "table_restarting", f"table {self.id} is restarting; try again")
        self.queue.put_nowait(message)

    # -- what the lobby and the websockets call -------------------------------------------------

    def attach(self, client: Client, since: int | None = None) -> None:
        """Connect ``client``; ``since`` is the ``seq`` of the last state it saw before a reconnect."""
        self._post(Attach(client, since))

    def detach(self, client: Client) -> None:
        if self.task is not None and not self.task.done():
            self.queue.put_nowait(Detach(client))

    def submit(
        self, client: Client, action: dict[str, Any], seq: int | None = None, action_id: str | None = None
    ) -> None:
        self._post(Submit(client, action, seq, action_id))

    def say(self, client: Client, text: str | None = None, reaction: str | None = None) -> None:
        """A line of table talk or a quick reaction from ``client``, for everyone at the table."""
        self._post(Say(client, text, reaction))

    def resync(self, client: Client) -> None:
        """``client`` asks for its whole state again (it missed a delta, or holds another base)."""
        self._post(Resync(client))

    def ready(self, client: Client) -> None:
        """``client``'s seat has read the deal's summary (Next deal)."""
        self._post(Ready(client))

    def ask(self, client: Client, what: str) -> None:
        """``client`` asks for a ``hint`` or an ``undo`` (:mod:`.assist`)."""
        self._post(HintRequest(client) if what == "hint" else UndoRequest(client))

    def deliver(self, ready: HintReady) -> None:
        """A hint measured off the actor comes back to its queue (dropped if the table has been unloaded)."""
        if self.task is not None and not self.task.done():
            self.queue.put_nowait(ready)

    async def call(self, run: Callable[[], Awaitable[T]]) -> T:
        """Run ``run`` inside the actor (in turn with everything else) and return its result."""
        future: asyncio.Future[T] = self._loop.create_future()
        self._post(Call(run, future))
        return await future

    async def join(self, seat: int, name: str) -> str:
        return await self.call(partial(self._join, seat, name))

    async def claim_reserved(self, seat: int, token: str) -> None:
        await self.call(partial(self._claim_reserved, seat, token))

    async def rematch(self) -> str:
        return await self.call(self._rematch)

    def display_names(self) -> list[str]:
        return [display_name(s, n, b) for s, (n, b) in enumerate(zip(self.names, self.bots, strict=True))]

    # -- handling --------------------------------------------------------------------------------

    async def _handle(self, message: Message) -> None:
        match message:
            case Attach(client=client, since=since):
                self.clients.add(client)
                if client.seat is not None:
                    self._cancel_away(client.seat)
                    self.away.discard(client.seat)
                    if self._away_at.pop(client.seat, None) is not None:
                        # Stored before the player hears a word: once they see the table, no deadline of
                        # theirs is left to fire after a restart.
                        self._away_unstored.pop(client.seat, None)
                        await to_thread.run_sync(self.storage.set_away_at, self.id, client.seat, None)
                missed = self._missed(since)
                for _seq, _kind, text in self.backlog[-BACKLOG:] if missed is None else missed:
                    client.send_text(text)
                first = {
                    "rules": self.info.ruleset,
                    "resumed": missed is not None,
                    "talk": self.talk.snapshot(self._may_talk(client)),
                }
                self._broadcast_state(whole=client, extra=first)
            case Detach(client=client):
                self.clients.discard(client)
                self._broadcast_state()
            case Submit(client=client, action=raw, seq=seq, id=action_id):
                await self._submit(client, raw, seq, action_id)
            case Resync(client=client):
                self._broadcast_state(whole=client)
            case Call(run=run, future=future):
                await self._answer(run, future)
            case BotTurn(seq=seq):
                await self._bot_turn(seq)
            case BuyDeadline(window=window):
                await self._buy_deadline(window)
            case AwayTimeout(seat=seat):
                self._away_timers.pop(seat, None)
                if self.status == PLAYING and not self._connected(seat) and self.bots[seat] is None:
                    self.away.add(seat)
                    self._broadcast_state()
            case Ready(client=client):
                self._ready(client)
            case Say(client=client, text=text, reaction=reaction):
                await self._say(client, text, reaction)
            case NextDealDeadline(seq=seq):
                if self._pause is not None and self._pause.seq == seq:
                    self._pause.over = True
            case TurnDeadline(key=key):
                clock = self._clock
                if clock is not None and clock.key == key and not self._bot_plays(key[2]):
                    clock.expired = True
                    self._broadcast_state()
            case HintRequest(client=client):
                assist.hint(self, client)
            case HintReady():
                await assist.hint_ready(self, message)
            case UndoRequest(client=client):
                await assist.undo(self, client)

    async def _answer(self, run: Callable[[], Awaitable[Any]], future: asyncio.Future[Any]) -> None:
        try:
            result = await run()
        except Refused as exc:
            if not future.done():
                future.set_exception(exc)
            return
        except BaseException as exc:  # the actor fails too: the caller hears why
            if not future.done():
                future.set_exception(exc)
            raise
        if not future.done():
            future.set_result(result)

    def _missed(self, since: int | None) -> list[tuple[int, str, str]] | None:
        """The events a client that last saw the state of ``since`` actions has missed (those of seq
        ``since`` on), or None when it cannot be told exactly (no ``since``, one from the future, or
        one older than the events kept): the client then gets the last events and a full state."""
        current = self.seq
        if since is None or since > current:
            return None
        if since == current:
            return []
        kept = self.backlog[0][0] if self.backlog else current
        if since < kept:
            return None
        return [event for event in self.backlog if event[0] >= since]

    async def _submit(
        self, client: Client, raw: dict[str, Any], seq: int | None = None, action_id: str | None = None
    ) -> None:
        seat = client.seat
        if seat is None:
            client.refuse("spectator", "spectators watch; they do not act")
            return
        if action_id is not None and action_id in self._acks.get(seat, {}):
            client.send(ack(action_id, self._acks[seat][action_id]))
            return
        if raw.get("seat", seat) != seat:
            client.refuse("not_your_seat", f"you sit at seat {seat}, not {raw.get('seat')!r}")
            return
        try:
            action = action_from_dict({**raw, "seat": seat})
        except ValueError as exc:
            client.refuse("malformed", str(exc))
            return
        if isinstance(action, Shuffle | Reshuffle):
            client.refuse("malformed", "chance (shuffle, reshuffle) is the server's, not a seat's")
            return
        unknown = sorted(set(raw) - action_keys(action))
        if unknown:
            client.refuse("unknown_keys", f"a {raw['type']} action has no {', '.join(map(repr, unknown))}")
            return
        if self.state is None and self.final is None:
            client.refuse("not_started", "the game starts when every seat is filled")
            return
        current = self.seq
        if seq is not None and seq != current:
            client.refuse(
                "stale",
                f"{raw['type']} was chosen at seq {seq}, but the table is at seq {current}: look again",
                seq=current,
            )
            self._broadcast_state(whole=client)
            return
        if self.final is not None:
            client.refuse("game_over", f"{raw['type']} is refused: the game is over")
            return
        if await self._commit(action, client) and action_id is not None:
            self._remember(seat, action_id, current + 1)
            client.send(ack(action_id, current + 1))

    def _remember(self, seat: int, action_id: str, seq: int) -> None:
        """Keep the last ACKS_KEPT ids each seat's applied actions carried, with the seq they led to."""
        acks = self._acks.setdefault(seat, {})
        acks[action_id] = seq
        while len(acks) > ACKS_KEPT:
            del acks[next(iter(acks))]

    async def _commit(self, action: Action, client: Client | None = None) -> bool:
        """Apply, store, then broadcast ``action``; an illegal one is answered to ``client`` only."""
        state = self.state
        assert state is not None
        before = state.clone()
        try:
            apply(state, action)
        except IllegalAction as exc:
            if client is None:
                raise
            if exc.fault is None:
                client.refuse(exc.reason, str(exc))
            else:
                client.refuse(exc.reason, str(exc), fault=exc.fault.to_dict())
            return False
        seq = len(state.history) - 1
        status = OVER if state.is_over else None
        await self.commits.append(self.id, seq, action_to_dict(action), status)
        if status is not None:
            self.status = status
        self._track_window(state)
        self._track_turn(state)
        self._open_pause(state)
        event = step_event(seq, before, action, state, self.display_names())
        text = encode(event)
        self.backlog = [*self.backlog[-(RESUME_EVENTS - 1) :], (seq, "event", text)]
        for each in self.clients:
            each.send_text(text)
        self._broadcast_state()
        return True

    async def _settle(self) -> None:
        """Start the game once every seat is filled, deal chance, then set the timers for what comes next."""
        if self.state is None and self.final is None and all(self.claimed):
            position = table_position(self.info)
            self.state = (
                new_game(self.rules, len(self.names), self.info.first_dealer)
                if position is None
                else new_position(self.rules, position)
            )
            versions = {s: version_of(b) for s, b in enumerate(self.bots) if b is not None}
            await to_thread.run_sync(partial(self.storage.start, self.id, PLAYING, versions))
            self.status = PLAYING
            self._broadcast_state()
        state = self.state
        if state is None:
            return
        while is_chance(state) and not self._holding(state):
            await self._commit(chance_action(state, self.rng))
        if state.is_over:
            for handle in self._timer_handles():
                handle.cancel()
            self._bot_timer = self._window = self._pause = self._clock = None
            self._away_timers.clear()
            self._finish(state)
            return
        self._schedule(state)
        while self._away_unstored:
            seat, when = self._away_unstored.popitem()
            await to_thread.run_sync(self.storage.set_away_at, self.id, seat, when)

    def _finish(self, state: GameState) -> None:
        """Keep each viewer's last observation of the finished game and let its engine state go."""
        seats: list[int | None] = [None, *range(len(self.names))]
        self.final = {seat: observe(state, seat).to_client_dict() for seat in seats}
        self.final_seq = len(state.history)
        self.state = None
        self.agents = {}
        self._legal = (-1, [])
        self._asked = (-1, set())

    @property
    def seq(self) -> int:
        """The number of actions played so far (0 before the game starts)."""
        return self.final_seq if self.state is None else len(self.state.history)

    # -- timers ----------------------------------------------------------------------------------

    def _schedule(self, state: GameState) -> None:
        seq = len(state.history)
        asked = self._asked_now(seq)
        acting = {a.seat for a in self._legal_now(state) if a.seat is not None}
        if any(self._bot_plays(s) and s not in asked for s in acting) and (
            self._bot_timer is None or self._bot_timer[0] != seq
        ):
            if self._bot_timer is not None:
                self._bot_timer[1].cancel()
            delay = self.options.bot_pace_ms / 1000
            if self._human_may_buy(state):
                delay = max(delay, min(MAY_I_WINDOW_S, self.options.buy_timeout_s))
            self._bot_timer = (seq, self._loop.call_later(delay, self.queue.put_nowait, BotTurn(seq)))
        self._track_window(state)
        self._track_turn(state)
        if self.options.away_timeout_s > 0:
            for seat, bot in enumerate(self.bots):
                if (
                    bot is None
                    and seat not in self.away
                    and seat not in self._away_timers
                    and not self._connected(seat)
                ):
                    now = datetime.now(UTC)
                    when = self._away_at.get(seat)
                    if when is None:
                        when = self._away_at[seat] = now + timedelta(seconds=self.options.away_timeout_s)
                        self._away_unstored[seat] = when
                    delay = max(0.0, (when - now).total_seconds())
                    self._away_timers[seat] = self._loop.call_later(delay, self.queue.put_nowait, AwayTimeout(seat))

    def _human_may_buy(self, state: GameState) -> bool:
        """Whether a connected human may now call "May I?" out of turn before the next player draws
        (rulesets without a buy window): the bots then give them time to, whatever their pace."""
        return state.phase is Phase.DRAW and any(
            isinstance(a, Buy) and a.seat is not None and not self._bot_plays(a.seat) and self._connected(a.seat)
            for a in self._legal_now(state)
        )

    def _track_window(self, state: GameState) -> None:
        """Open a buy window's deadline when it opens; forget it when the window closes."""
        if state.phase is Phase.BUY and self._window is None:
            delay = self.options.buy_timeout_s
            handle = self._loop.call_later(delay, self.queue.put_nowait, BuyDeadline(len(state.history)))
            self._window = (len(state.history), self._loop.time() + delay, handle)
        elif state.phase is not Phase.BUY and self._window is not None:
            self._window[2].cancel()
            self._window = None

    def _track_turn(self, state: GameState) -> None:
        """Start the turn clock when a turn begins (with its limit's timer for a human seat)."""
        key = turn_key(state)
        clock = self._clock
        if clock is not None and clock.key == key:
            return
        if clock is not None and clock.handle is not None:
            clock.handle.cancel()
        self._clock = None
        if key is None:
            return
        handle = None
        limit = self.options.turn_limit_s
        if limit > 0 and not self._bot_plays(key[2]):
            handle = self._loop.call_later(limit, self.queue.put_nowait, TurnDeadline(key))
        self._clock = TurnClock(key, self._loop.time(), handle)

    def _open_pause(self, state: GameState) -> None:
        """Hold the next deal when a deal has just ended (unless the table pauses for no time)."""
        if not between_deals(state) or self.options.next_deal_timeout_s <= 0:
            return
        seq = len(state.history)
        if self._pause is not None and self._pause.seq == seq:
            return
        delay = self.options.next_deal_timeout_s
        handle = self._loop.call_later(delay, self.queue.put_nowait, NextDealDeadline(seq))
        self._pause = Pause(seq, self._loop.time() + delay, handle)

    def _holding(self, state: GameState) -> bool:
        """Whether the next deal waits: its pause has time left and a connected player has not pressed Next deal."""
        self._open_pause(state)
        pause = self._pause
        if pause is None:
            return False
        if pause.seq == len(state.history) and not pause.over and self._readers(pause):
            return True
        pause.handle.cancel()
        self._pause = None
        return False

    def _readers(self, pause: Pause) -> list[int]:
        """The seats still reading the summary: connected players who have not pressed Next deal."""
        return sorted(
            {c.seat for c in self.clients if c.seat is not None and not self._bot_plays(c.seat)} - pause.ready
        )

    def _ready(self, client: Client) -> None:
        if client.seat is None:
            client.refuse("spectator", "spectators watch; the next deal waits for the players only")
            return
        if self._pause is None:
            client.refuse("no_pause", "there is no deal summary up: the next deal has started")
            return
        self._pause.ready.add(client.seat)
        self._broadcast_state()

    def _may_talk(self, client: Client) -> bool:
        return client.seat is not None or self.options.spectators_talk

    async def _say(self, client: Client, text: str | None, reaction: str | None) -> None:
        """Store a line of talk (apart from the game's log) and send it to everyone at the table."""
        if not self._may_talk(client):
            client.refuse("spectators_silent", "at this table spectators read the table talk but may not write")
            return
        name = SPECTATOR if client.seat is None else self.display_names()[client.seat]
        message = await self.talk.say(client.seat, name, text, reaction)
        for each in self.clients:
            each.send(message)

    def _cancel_away(self, seat: int) -> None:
        handle = self._away_timers.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _asked_now(self, seq: int) -> set[int]:
        if self._asked[0] != seq:
            self._asked = (seq, set())
        return self._asked[1]

    def _legal_now(self, state: GameState) -> list[Action]:
        seq = len(state.history)
        if self._legal[0] != seq:
            self._legal = (seq, legal_actions(state))
        return self._legal[1]

    def _connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.clients)

    def _bot_plays(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` now: a bot's seat, an away player's, or a turn past its time limit."""
        clock = self._clock
        timed_out = clock is not None and clock.expired and clock.key[2] == seat
        return self.bots[seat] is not None or seat in self.away or timed_out

    def _agent(self, seat: int) -> Agent:
        if seat not in self.agents:
            self.agents[seat] = make_bot(AWAY_BOT)
        return self.agents[seat]

    async def _bot_turn(self, seq: int) -> None:
        state = self.state
        if self._bot_timer is None or self._bot_timer[0] != seq:
            return
        self._bot_timer = None  # it has fired: no timer is pending any more
        if state is None or len(state.history) != seq:
            return
        asked = self._asked_now(seq)
        by_seat: dict[int, list[Action]] = {}
        for option in self._legal_now(state):
            if option.seat is not None:
                by_seat.setdefault(option.seat, []).append(option)
        order = asking_order(state)
        for seat in order:
            options = by_seat.get(seat)
            if not options or not self._bot_plays(seat) or seat in asked:
                continue
            asked.add(seat)
            must_act = seat == state.current or state.phase is Phase.BUY
            choice = await self._ask(seat, state, options)
            if choice is None and not must_act:
                continue
            if choice is not None:
                try:
                    await self._commit(choice)
                    return
                except IllegalAction as exc:
                    log.error("table %s: the bot of seat %d played an illegal action: %s", self.id, seat, exc)
            fallback = Pass(seat) if state.phase is Phase.BUY else options[0]
            log.error(
                "table %s: the bot of seat %d answered %r in %s; playing %r",
                self.id,
                seat,
                choice,
                state.situation(),
                fallback,
            )
            await self._commit(fallback)
            return

    async def _ask(self, seat: int, state: GameState, options: list[Action]) -> Action | None:
        """The bot's choice: on the event loop for a quick bot, else thought out in a worker thread. A bot
        that fails is logged and treated as declining: a bug in one bot must not stop the table (its seat
        then plays a plain legal move)."""
        agent = self._agent(seat)
        try:
            if seat in self.threaded:
                return await to_thread.run_sync(agent, observe(state, seat), options, self.rng)
            started = time.perf_counter()
            choice = agent(observe(state, seat), options, self.rng)
            if time.perf_counter() - started > QUICK_LIMIT_S:
                self.threaded.add(seat)
            return choice
        except Exception:
            log.exception("table %s: the bot of seat %d failed in %s", self.id, seat, state.situation())
            return None

    async def _buy_deadline(self, window: int) -> None:
        """Everyone in the buy window who is still silent passes (bots answer on their own)."""
        state = self.state
        while state is not None and state.phase is Phase.BUY and self._window is not None and self._window[0] == window:
            silent = [s for s in state.window if s not in state.window_answers and not self._bot_plays(s)]
            if not silent:
                return
            await self._commit(Pass(silent[0]))

    # -- the lobby's requests (run inside the actor) ---------------------------------------------

    async def _join(self, seat: int, name: str) -> str:
        if not 0 <= seat < len(self.names):
            raise Refused(422, "no_such_seat", f"this table has seats 0 to {len(self.names) - 1}")
        if self.names[seat] is not None or self.bots[seat] is not None:
            raise Refused(409, "seat_taken", f"seat {seat} is taken")
        taken = [display_name(s, n, b) for s, (n, b) in enumerate(zip(self.names, self.bots, strict=True)) if n or b]
        if name.casefold() in {n.casefold() for n in taken}:
            raise Refused(409, "name_taken", f"someone at this table is already called {name!r}")
        token = await to_thread.run_sync(self.storage.claim_seat, self.id, seat, name)
        self.names[seat] = name
        self.claimed[seat] = True
        self._broadcast_state()
        return token

    async def _claim_reserved(self, seat: int, token: str) -> None:
        if not 0 <= seat < len(self.names) or self.bots[seat] is not None or self.names[seat] is None:
            raise Refused(409, "seat_taken", f"seat {seat} of table {self.id} is not kept for you")
        try:
            await to_thread.run_sync(self.storage.claim_reserved, self.id, seat, token)
        except Conflict as exc:
            raise Refused(409, exc.reason, str(exc)) from exc
        self.claimed[seat] = True
        self._broadcast_state()

    async def _rematch(self) -> str:
        if self.final is None:
            raise Refused(409, "not_over", "a rematch is made once the game is over")
        if self.rematch_id is None:
            seats = [
                NewSeat(name=None if b is not None else n, bot=b, style=self.styles[s])
                for s, (n, b) in enumerate(zip(self.names, self.bots, strict=True))
            ]
            dealer = choose_first_dealer(self.rules, len(seats), self.rng)
            info = await to_thread.run_sync(
                partial(
                    self.storage.create_table, self.info.ruleset, dealer, self.info.options, seats, rematch_of=self.id
                )
            )
            self.rematch_id = info.id
            self._broadcast_state()
        return self.rematch_id

    # -- what assist needs ----------------------------------------------------------------------

    def options_of(self, seat: int) -> list[Action]:
        """What the engine lists for ``seat`` now."""
        return [] if self.state is None else [a for a in self._legal_now(self.state) if a.seat == seat]

    def hint_seed(self, seq: int, seat: int) -> int:
        return hint_seed(self.id, seq, seat)

    def note(self, event: dict[str, Any]) -> None:
        """Keep a ``note`` in the backlog and show it to everyone at the table."""
        text = encode(event)
        self.backlog = [*self.backlog[-(RESUME_EVENTS - 1) :], (event["seq"], event["type"], text)]
        for each in self.clients:
            each.send_text(text)

    def broadcast(self) -> None:
        self._broadcast_state()

    def rewind(self, state: GameState) -> None:
        """The game goes back to ``state`` (an undo): the events after it leave the backlog, and every
        timer and remembered answer of the later moves is dropped (the actor sets them again)."""
        seq = len(state.history)
        self.state = state
        self.backlog = [e for e in self.backlog if e[1] != "event" or e[0] < seq]
        for handle in self._timer_handles():
            if handle not in self._away_timers.values():
                handle.cancel()
        self._bot_timer = self._window = self._pause = self._clock = None
        self._legal = (-1, [])
        self._asked = (-1, set())
        self._acks.clear()

    # -- what clients see ------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for one seat (or a spectator, ``seat`` None)."""
        state = self.state
        if state is not None:
            observation: dict[str, Any] | None = self._views.client_dict(observe(state, seat))
        else:
            observation = None if self.final is None else self.final[seat]
        legal: list[dict[str, Any]] = []
        deadline = None
        now = self._loop.time()
        if state is not None and seat is not None:
            legal = [action_to_dict(a) for a in self._legal_now(state) if a.seat == seat]
            window = self._window
            if (
                window is not None
                and seat in state.window
                and seat not in state.window_answers
                and not self._bot_plays(seat)
            ):
                deadline = round(max(0.0, window[1] - now), 1)
        return {
            "type": "state",
            "table_id": self.id,
            "status": self.status,
            "seq": self.seq,
            "seat": seat,
            "names": list(self.names),  # copies: the last view sent is the next delta's base, and a join
            "bots": list(self.bots),  # changes the actor's lists in place
            "away": sorted(self.away),
            "connected": sorted({c.seat for c in self.clients if c.seat is not None}),
            "observation": observation,
            "legal": legal,
            "deadline": deadline,
            "next_deal": self._pause_view(now),
            "clock": None if self._clock is None else self._clock.view(now, self.options.turn_limit_s),
            "rematch": self.rematch_id is not None,
            "assist": {"hints": self.options.hints, "undo": self.bots.count(None) <= 1},
            "tutorial": self._tutorial(seat),
        }

    def _tutorial(self, seat: int | None) -> dict[str, Any] | None:
        """The tutorial's explanation of this moment for the newcomer's seat (tutorial tables only)."""
        if not self.options.tutorial or seat is None or self.state is None or self.state.is_over:
            return None
        return tutorial.step(observe(self.state, seat), self.options_of(seat))

    def _pause_view(self, now: float) -> dict[str, Any] | None:
        """The pause under the summary of the deal that just ended, with why it ended in words."""
        if self._pause is None or self.state is None or not self.state.results:
            return None
        reason = deal_end_reason(self.state.results[-1], self.display_names())
        return {**self._pause.view(now, self._readers(self._pause)), "reason": reason}

    def _broadcast_state(self, whole: Client | None = None, extra: dict[str, Any] | None = None) -> None:
        """Send each client what changed in the state of its seat (or the spectators' view) since the last
        state its view was sent, as a ``delta`` encoded once for the view; ``whole`` gets its state whole,
        with ``extra``. Every client of a view thus holds the same state, the base of the next delta."""
        viewers: dict[int | None, list[Client]] = {}
        for client in self.clients:
            viewers.setdefault(client.seat, []).append(client)
        for gone in self._sent.keys() - viewers.keys():
            del self._sent[gone]
        for seat, clients in viewers.items():
            view = self.view(seat)
            last = self._sent.get(seat)
            self._sent[seat] = view
            others = [c for c in clients if c is not whole]
            if not others:
                continue
            assert last is not None, "a client was attached without its state"
            patch = diff(last, view)
            if not patch:
                continue
            text = encode({"type": "delta", "seq": view["seq"], "base": last["seq"], "patch": patch})
            for client in others:
                client.send_text(text)
        if whole is not None and whole in self.clients:
            whole.send({**self._sent[whole.seat], **(extra or {})})
