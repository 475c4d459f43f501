"""`liverpool play --join URL` (issue 31 item 2): the terminal client at a real `liverpool serve` table, with a
second person on the browser's websocket protocol, driven by textual's Pilot. The connection is dropped
mid-game and the client reconnects with `?since=` and carries on without a gap (docs/protocol.md,
Reconnecting)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from server_fixtures import FIRST_ONLY, TWO_SHORT_DEALS, ServerProcess, my_move, next_deal_waits_for_me, simple_choice
from typer.testing import CliRunner

from liverpool.cli import app as cli
from liverpool.engine import Discard, DrawStock, EndTurn, GoDown, LayOff
from liverpool.tui.app import LiverpoolApp
from liverpool.tui.commands import parse
from liverpool.tui.remote import LinkError, RemoteSession, seat_link


def _command(session: RemoteSession) -> str:
    """A simple scripted player's next typed command: go down, lay off, draw, discard, end a turn, else pass."""
    options = session.turn().options
    hand = session.hand()
    for action in options:
        if isinstance(action, GoDown):
            return "l " + " ".join(",".join(str(hand.index(c) + 1) for c in m.cards) for m in action.melds)
    for action in options:
        if isinstance(action, LayOff):
            return f"o {hand.index(action.card) + 1} {action.meld + 1}"
    if any(isinstance(a, DrawStock) for a in options):
        return "d"
    discards = [a for a in options if isinstance(a, Discard)]
    if discards:
        return f"x {hand.index(discards[-1].card) + 1}"
    if any(isinstance(a, EndTurn) for a in options):  # a floating empty hand (RULES.md §3 floating)
        return "e"
    return "p"


class BrowserSeat(threading.Thread):
    """Another person at the table over the browser's protocol: actions with `seq` and `id`."""

    def __init__(self, server: ServerProcess, token: str) -> None:
        super().__init__(daemon=True)
        self.client = server.player(token)
        self.stop = threading.Event()
        self.moves = 0

    def run(self) -> None:
        acted_at = read_at = -1
        while not self.stop.is_set():
            try:
                message = self.client.receive(timeout=0.2)
            except TimeoutError:
                continue
            except Exception:  # the connection closed at the end of the test
                return
            state: dict[str, Any] | None = message if message["type"] == "state" else None
            if state is not None and next_deal_waits_for_me(state):
                if state["seq"] > read_at:  # once: more states may come before the server has read it
                    read_at = state["seq"]
                    self.client.send({"type": "next_deal"})
            elif state is not None and my_move(state) and state["seq"] > acted_at:
                acted_at = state["seq"]
                self.moves += 1
                self.client.send(
                    {"type": "action", "action": simple_choice(state), "seq": acted_at, "id": f"b-{self.moves}"}
                )


@pytest.mark.slow  # about 17 s
def test_join_by_invite_play_drop_and_resume(start_server: Callable[..., ServerProcess], sqlite_url: str) -> None:
    server = start_server(sqlite_url)
    table = server.create(seats=4, bots={"1": "easy", "2": "easy"}, bot_pace_ms=0, buy_timeout_s=10)
    browser = BrowserSeat(server, server.join(table["invite"], 3, "bea"))
    browser.start()
    link = seat_link(f"{server.http}{table['invite_url']}", "ada")  # the first free seat: 0
    session = RemoteSession(link)
    app = LiverpoolApp(session)

    async def until(pilot: Any, wanted: Callable[[], bool], what: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not wanted():
            assert time.monotonic() < deadline, f"no {what} within {timeout}s: {app.message!r} {session.log[-5:]}"
            await pilot.pause(0.05)

    async def play(pilot: Any, moves: int) -> list[str]:
        typed = []
        for _ in range(moves):
            await until(pilot, lambda: session.turn().kind == "human" and session.pending is None, "move of mine")
            seq = session.seq
            command = _command(session)
            moved = lambda seq=seq: session.seq != seq  # noqa: E731
            typed.append(command)
            await pilot.press(*command, "enter")
            assert not app.message.startswith("Refused"), (command, app.message)
            if session.pending is None:  # an optional call let go: nothing was sent
                await until(pilot, moved, "next state")
            else:
                await until(pilot, lambda: session.pending is None, "answer to my move")
        return typed

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: session.started(), "start of the game")
            assert session.human == 0 and session.names[0] == "ada" and session.names[3] == "bea"
            await until(pilot, lambda: session.turn().kind == "human", "move of mine")
            options = session.turn().options
            await pilot.press("f2")  # the hint works from the seat's observation at a server table too
            assert app.message.startswith("Hint (coach): "), app.message
            assert session.action_for(parse(app.message.removeprefix("Hint (coach): ").split(":")[0])) in options
            await pilot.press("u", "enter")
            assert app.message == "undo is for a game against bots, not at a server table"
            typed = await play(pilot, 6)
            assert "d" in typed and any(t.startswith("x ") for t in typed), typed

            # A move sent as the connection drops (no close frame): sent again with its id, played exactly once.
            def can_move() -> bool:
                turn = session.turn()
                return turn.kind == "human" and any(isinstance(a, DrawStock | Discard) for a in turn.options)

            # Buy offers and calls before that are answered, not left to the 10 s buy timeout: two such waits
            # in a row once took this past `until`'s 20 s on a loaded machine (CI of 2026-12-06).
            deadline = time.monotonic() + 60
            while not (can_move() and session.pending is None):
                assert time.monotonic() < deadline, f"no draw or discard of mine: {session.log[-5:]}"
                if session.turn().kind == "human" and session.pending is None:
                    await play(pilot, 1)
                else:
                    await pilot.pause(0.05)
            before = session.seq
            assert before is not None and session.socket is not None
            mine = sum(1 for line in session.log if line.startswith("ada "))
            app.run_command(_command(session))
            assert session.pending is not None
            session.socket.transport.abort()
            await until(pilot, lambda: session.status == "lost", "lost connection")
            assert "NOT CONNECTED" in app.screen.query_one("#status").render().__str__()  # type: ignore[attr-defined]
            await until(pilot, lambda: session.connects == 2 and session.pending is None, "reconnect and ack")
            assert session.resumed == [False, True]  # the second connection carried on from `since`
            assert session.seq is not None and session.seq > before
            assert sum(1 for line in session.log if line.startswith("ada ")) == mine + 1

            await play(pilot, 4)
            # Every event once, in order, no gap, up to the latest state's seq.
            seqs = session.event_seqs
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs
            await until(pilot, lambda: session.event_seqs[-1] == session.seq - 1, "the events up to the state")
            assert browser.moves > 0 and any(line.startswith("bea ") for line in session.log)
            assert session.resyncs == 0, "a delta did not follow on the state held"

    try:
        asyncio.run(run())
    finally:
        browser.stop.set()
        browser.join(5)
        browser.client.close()


def test_the_terminal_goes_on_past_a_deals_end_with_deltas(lobby_server: ServerProcess) -> None:
    """RULES.md §6 scoring: at a deal's end the server holds the next deal until every connected player has
    pressed Next deal (docs/protocol.md, Between deals). The terminal client shows the summary in its log and
    presses Next deal for its seat at once, so the table does not wait on it (here for 600 s); the deltas it
    applies across the deal's end give the same state as a whole one."""
    table = lobby_server.create(
        seats=3, rules=TWO_SHORT_DEALS, bots={"1": "random"}, bot_pace_ms=0, next_deal_timeout_s=600
    )
    session = RemoteSession(seat_link(f"{lobby_server.http}{table['invite_url']}", "ada"))
    app = LiverpoolApp(session)
    browser: BrowserSeat | None = None

    async def run() -> None:
        nonlocal browser
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + 30
            while session.seq is None:  # connected before the game starts: the first deal's end waits for me
                assert time.monotonic() < deadline, f"no first state: {app.message!r}"
                await pilot.pause(0.05)
            browser = BrowserSeat(lobby_server, lobby_server.join(table["invite"], 2, "bea"))
            browser.start()
            last = session.seq
            while not (
                session.started() and session.observation().deal >= 1 and session.turn().kind in ("human", "over")
            ):
                if session.seq != last:  # the table moves: a stall (the next deal held for me) is what fails
                    last, deadline = session.seq, time.monotonic() + 20
                assert time.monotonic() < deadline, (
                    f"the table stopped before my move in the second deal (or its end): {session.log[-5:]}"
                )
                if session.turn().kind == "human" and session.pending is None:
                    seq = session.seq
                    await pilot.press(*_command(session), "enter")
                    assert not app.message.startswith("Refused"), app.message
                    while session.seq == seq and session.pending is not None and time.monotonic() < deadline:
                        await pilot.pause(0.05)
                await pilot.pause(0.05)
            assert session.observation().results and session.resyncs == 0
            with lobby_server.connect(urlsplit(session.link.ws_url).path) as whole:
                for _ in range(100):  # both read all the server sent (the game waits for my move)
                    whole.quiet(0.1)
                    await pilot.pause(0.1)
                    if whole.state is not None and whole.state["seq"] == session.seq:
                        break
            state = whole.state
            assert state is not None and state["seq"] == session.seq and not next_deal_waits_for_me(state)
            held = session.held
            for key in ("observation", "legal", "seq", "names", "bots", "next_deal"):
                assert held[key] == state[key], f"{key}: the deltas applied differ from the whole state"
            assert not set(held) & set(FIRST_ONLY)
            assert browser.is_alive(), "the other player's thread stopped"

    try:
        asyncio.run(run())
    finally:
        if browser is not None:
            browser.stop.set()
            browser.join(5)
            browser.client.close()


def test_bad_links_say_why(start_server: Callable[..., ServerProcess], sqlite_url: str) -> None:
    server = start_server(sqlite_url)
    assert seat_link(f"{server.http}/play/tok3n", "ada").ws_url == f"{server.ws}/ws/play/tok3n"
    with pytest.raises(LinkError, match="neither an invite link"):
        seat_link(f"{server.http}/lobby", "ada")
    with pytest.raises(LinkError, match="does not know this invite"):
        seat_link(f"{server.http}/join/nosuchinvite", "ada")
    with pytest.raises(LinkError, match="not a table link"):
        seat_link("table please", "ada")
    table = server.create(seats=3, bots={"1": "easy", "2": "easy"})
    seat_link(f"{server.http}{table['invite_url']}", "ada")
    with pytest.raises(LinkError, match="every seat at this table is taken"):
        seat_link(f"{server.http}{table['invite_url']}", "bob")
    result = CliRunner().invoke(cli, ["play", "--join", f"{server.http}{table['invite_url']}", "--name", "bob"])
    assert result.exit_code == 2 and "every seat at this table is taken" in result.output


class ChromiumSeat(threading.Thread):
    """A person in Chromium at the same table, acting through the table page's controls (browser_fixtures'
    Player). Playwright's sync API is bound to its thread, so the browser is launched here."""

    def __init__(self, invite_url: str, seat: int, name: str) -> None:
        super().__init__(daemon=True)
        self.invite_url, self.seat, self.name = invite_url, seat, name
        self.stop = threading.Event()
        self.joined = threading.Event()
        self.moves = 0
        self.errors: list[str] = []

    def run(self) -> None:
        from browser_fixtures import CHROMIUM, CHROMIUM_ARGS, Player, join, open_tab
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
                tab = open_tab(chromium)
                join(tab, self.invite_url, self.seat, self.name)
                self.joined.set()
                player = Player(tab)
                while not self.stop.is_set():
                    seq = tab.page.evaluate(
                        "() => { const b = document.body.dataset;"
                        " return b.mustAct === '1' && b.pending === undefined && b.connection === 'open'"
                        " && b.phase !== 'game_over' ? b.seq : null; }"
                    )
                    if seq is None:
                        tab.page.wait_for_timeout(50)
                        continue
                    if player.move(seq) != "stale":
                        self.moves += 1
                self.errors += tab.errors
                chromium.close()
        except Exception as exc:  # reported by the test, which runs in another thread
            self.errors.append(repr(exc))
            self.joined.set()


@pytest.mark.slow  # Chromium and a server
def test_terminal_and_chromium_at_one_table(start_server: Callable[..., ServerProcess], sqlite_url: str) -> None:
    """A terminal player (--join with the invite link) and a browser player at one table with two bots."""
    pytest.importorskip("playwright.sync_api")
    from browser_fixtures import CHROMIUM

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: run scripts/ensure_chromium.sh")
    server = start_server(sqlite_url)
    table = server.create(seats=4, bots={"1": "easy", "2": "easy"}, bot_pace_ms=0, buy_timeout_s=10)
    invite = f"{server.http}{table['invite_url']}"
    browser = ChromiumSeat(invite, 3, "bea")
    browser.start()
    assert browser.joined.wait(60) and not browser.errors, browser.errors
    session = RemoteSession(seat_link(invite, "ada"))
    app = LiverpoolApp(session)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + 90
            typed = 0
            while typed < 5 or browser.moves < 2:
                assert time.monotonic() < deadline, (typed, browser.moves, browser.errors, session.log[-5:])
                assert not browser.errors, browser.errors
                if session.turn().kind == "human" and session.pending is None:
                    seq = session.seq
                    await pilot.press(*_command(session), "enter")
                    assert not app.message.startswith("Refused"), app.message
                    typed += 1
                    for _ in range(400):
                        if session.seq != seq or (session.pending is None and session.turn().kind != "human"):
                            break
                        await pilot.pause(0.05)
                else:
                    await pilot.pause(0.05)
            assert session.names[3] == "bea" and any(line.startswith("bea ") for line in session.log)
            assert any(line.startswith("ada ") for line in session.log)

    try:
        asyncio.run(run())
    finally:
        browser.stop.set()
        browser.join(30)
    assert not browser.errors, browser.errors


def test_waiting_for_players_takes_any_input(start_server: Callable[..., ServerProcess], sqlite_url: str) -> None:
    """Before every seat is taken the game has not started: keys and commands are answered, none crashes it."""
    server = start_server(sqlite_url)
    table = server.create(seats=3, bots={"1": "easy"})
    session = RemoteSession(seat_link(f"{server.http}{table['invite_url']}", "ada"))
    app = LiverpoolApp(session)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                if session.status == "open" and session.seq is not None:
                    break
                await pilot.pause(0.05)
            assert not session.started() and "Waiting for every seat" in str(app.query_one("#status").render())
            await pilot.press("tab", "left", "space", "v", "enter", "escape", "tab")
            await pilot.press("s", "enter")
            for text in ("d", "x 1", "h", "u", "zz"):
                await pilot.press(*text, "enter")
                assert app.message, text
            await pilot.press("f1")
            await pilot.pause()
            await pilot.press("escape")
            assert app.is_running and session.pending is None

    asyncio.run(run())

    # The private seat link the log shows comes back to the same seat.
    assert session.log[0] == f"Your seat link (to come back to this seat): {session.link.seat_url}"
    again = RemoteSession(seat_link(session.link.seat_url, "ignored"))

    async def back() -> None:
        task = asyncio.create_task(again.run(lambda _: None))
        for _ in range(200):
            if again.seq is not None:
                break
            await asyncio.sleep(0.05)
        again.stop()
        task.cancel()

    asyncio.run(back())
    assert again.human == 0 and again.names[0] == "ada" and again.link.ws_url == session.link.ws_url


def test_buy_deadline_and_messages_read_from_the_server() -> None:
    """RemoteSession.receive on its own: the buy window's deadline, a stale refusal, an ack, a repeated event."""
    session = RemoteSession(seat_link("http://127.0.0.1:1/play/tok", "ada"))
    state = {"type": "state", "table_id": "t1", "status": "waiting", "seq": 4, "seat": 2, "names": [None, None, "ada"]}
    session.receive({**state, "bots": ["easy", "easy", None], "observation": None, "legal": [], "deadline": 12})
    assert session.seconds_left() == 12 and session.human == 2 and session.names == ["easy 0", "easy 1", "ada"]
    session.receive({**state, "bots": ["easy", "easy", None], "observation": None, "legal": [], "deadline": None})
    assert session.seconds_left() is None
    session.pending = {"type": "action", "id": "x-1"}
    assert session.receive({"type": "ack", "id": "x-1", "seq": 5}) is None and session.pending is None
    said = session.receive({"type": "error", "reason": "stale", "message": "old", "seq": 5})
    assert said is not None and said.startswith("The table moved on")
    assert session.receive({"type": "error", "reason": "cannot_draw", "message": "no"}) == "Refused: no"
    session.receive({"type": "event", "seq": 3, "text": "easy 0 draws"})
    session.receive({"type": "event", "seq": 3, "text": "easy 0 draws"})
    assert session.event_seqs == [3] and session.log[-1] == "easy 0 draws"


def test_deltas_apply_on_the_state_held_and_another_base_asks_for_a_resync() -> None:
    """A ``delta`` applies on the state held (docs/protocol.md); one on another ``base`` is dropped and the whole
    state asked for once (not connected here: nothing is sent), until a full state comes."""
    session = RemoteSession(seat_link("http://127.0.0.1:1/play/tok", "ada"))
    state = {"type": "state", "table_id": "t1", "status": "waiting", "seq": 4, "seat": 2, "names": [None, None, "ada"]}
    session.receive({**state, "bots": ["easy", "easy", None], "observation": None, "legal": [], "deadline": None})
    patch = [{"op": "replace", "path": "/seq", "value": 5}, {"op": "replace", "path": "/deadline", "value": 9}]
    assert session.receive({"type": "delta", "seq": 5, "base": 4, "patch": patch}) is None
    assert session.seq == 5 and session.seconds_left() == 9 and session.resyncs == 0
    session.receive({"type": "delta", "seq": 7, "base": 6, "patch": [{"op": "replace", "path": "/seq", "value": 7}]})
    session.receive({"type": "delta", "seq": 8, "base": 7, "patch": [{"op": "replace", "path": "/seq", "value": 8}]})
    assert session.seq == 5 and session.resyncs == 1, "a gap asks for the whole state once"
    session.receive(
        {**state, "seq": 8, "bots": ["easy", "easy", None], "observation": None, "legal": [], "deadline": None}
    )
    bad = [{"op": "remove", "path": "/nothing"}]
    session.receive({"type": "delta", "seq": 9, "base": 8, "patch": bad})
    assert session.seq == 8 and session.resyncs == 2, "a patch that does not apply asks for the whole state"


@pytest.mark.slow  # a server started twice
def test_server_killed_and_restarted(start_server: Callable[..., ServerProcess], sqlite_url: str) -> None:
    """kill -9 of the server mid-game: the terminal shows it is not connected, retries, and once the server is
    back (same port and database) carries on from its seq (docs/protocol.md: rebuilt from the stored log)."""
    server = start_server(sqlite_url)
    table = server.create(seats=3, bots={"1": "easy", "2": "easy"}, bot_pace_ms=0, buy_timeout_s=10)
    session = RemoteSession(seat_link(f"{server.http}{table['invite_url']}", "ada"))
    app = LiverpoolApp(session)

    async def until(pilot: Any, wanted: Callable[[], bool], what: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not wanted():
            assert time.monotonic() < deadline, f"no {what} within {timeout}s: {app.message!r} {session.log[-5:]}"
            await pilot.pause(0.05)

    async def move(pilot: Any) -> None:
        await until(pilot, lambda: session.turn().kind == "human" and session.pending is None, "move of mine")
        seq = session.seq
        await pilot.press(*_command(session), "enter")
        assert not app.message.startswith("Refused"), app.message
        await until(
            pilot, lambda: (session.pending is None and session.seq != seq) or session.turn().kind != "human", "answer"
        )

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3):
                await move(pilot)
            await until(pilot, lambda: session.turn().kind == "human", "move of mine")
            seq = session.seq
            server.kill()
            await until(pilot, lambda: session.status == "lost", "lost connection")
            await pilot.pause(0.3)
            assert "NOT CONNECTED" in str(app.query_one("#status").render())
            server.start()
            await until(
                pilot,
                lambda: session.status == "open" and session.seq is not None and session.connects >= 2,
                "reconnect",
            )
            assert session.resumed[-1] is True and session.seq == seq
            for _ in range(3):
                await move(pilot)
            seqs = session.event_seqs
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))

    asyncio.run(run())
