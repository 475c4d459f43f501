"""The textual app: one seat played by a person, the others by bots, on an 80x24 screen or larger."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static

from liverpool.engine import Buy, IllegalAction

from .commands import USAGE, CommandError, parse, picked_command
from .remote import RemoteSession
from .session import Session
from .view import WIDE, colour, hand_text, melds_text, seats_text, status_text

DEFAULT_SAVE = Path("liverpool-save.json")


class HelpScreen(ModalScreen[None]):
    """Every command and key, and the table's rules."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", "close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: 78; height: 22; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, rules_line: str) -> None:
        super().__init__()
        self.rules_line = rules_line

    def compose(self) -> ComposeResult:
        lines = ["Commands (type them, then Enter):"]
        lines += [f"  {usage}" for usage in USAGE.values()]
        lines += [
            "Cursor mode (Tab to the hand, Tab back): arrows move, space picks a card, g starts a new",
            "  group, Enter discards the one card picked or goes down with the groups, 1-9 lays the",
            "  picked card off on that meld, v shows where the card may go (one place: it goes there),",
            "  Esc clears the picks.",
            "Keys: ctrl+s save, f1 this help, f2 hint, f3 undo, ctrl+q quit, Esc closes this screen.",
            self.rules_line,
        ]
        with VerticalScroll(id="help"):
            yield Static("\n".join(lines), markup=False)

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)


class HandView(Static, can_focus=True):
    """The hand; focused (Tab), it is cursor mode: arrows move, space picks, Enter does what the picks say."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "left", show=False),
        Binding("right", "move(1)", "right", show=False),
        Binding("space", "pick", "pick"),
        Binding("g", "group", "new group"),
        Binding("enter", "confirm", "do it"),
        Binding("escape", "clear", "clear"),
        Binding("v", "targets", "valid targets"),
        *(Binding(str(n), f"lay_off({n})", f"lay off on meld {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cursor = 0
        self.picks: list[list[int]] = [[]]

    @property
    def game(self) -> LiverpoolApp:
        app = self.app
        assert isinstance(app, LiverpoolApp)
        return app

    def action_move(self, step: int) -> None:
        size = len(self.game.session.hand())
        if size:
            self.cursor = (self.cursor + step) % size
        self.game.refresh_view()

    def action_pick(self) -> None:
        position = self.cursor + 1
        if any(position in g for g in self.picks):
            self.picks = [[p for p in g if p != position] for g in self.picks]
        else:
            self.picks[-1].append(position)
        self.game.refresh_view()

    def action_group(self) -> None:
        if self.picks[-1]:
            self.picks.append([])
        self.game.refresh_view()

    def action_clear(self) -> None:
        self.picks = [[]]
        self.game.refresh_view()

    def _do(self, text: str) -> None:
        self.picks = [[]]
        if text:
            self.game.run_command(text)
        else:
            self.game.refresh_view()

    def action_confirm(self) -> None:
        self._do(picked_command(self.picks))

    def action_targets(self) -> None:
        """The valid targets of the picked card (or the one under the cursor); a single one is played."""
        picked = [p for g in self.picks for p in g]
        position = picked[0] if len(picked) == 1 else self.cursor + 1
        self.picks = [[]]
        self.game.show_targets(position)

    def action_lay_off(self, meld: int) -> None:
        self._do(picked_command(self.picks, meld))

    def on_focus(self) -> None:
        self.game.refresh_view()

    def on_blur(self) -> None:
        self.game.refresh_view()


class LiverpoolApp(App[None]):
    """A game of Liverpool Rummy in the terminal against bots (see docs/terminal.md)."""

    TITLE = "liverpool"
    AUTO_FOCUS = "#command"  # the command line, not the first focusable widget (the hand)
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #middle { height: 1fr; }
    #left { width: 1fr; }
    #seats { height: auto; }
    #log { height: 1fr; border-top: solid $secondary; }
    #melds { width: 40; height: 1fr; border-left: solid $secondary; }
    #hand { height: 2; }
    #message { height: 1; color: $warning; }
    #command { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "save"),
        Binding("f1", "help", "help"),
        Binding("f2", "hint", "hint"),
        Binding("f3", "undo", "undo"),
        Binding("ctrl+q", "quit_game", "quit"),
    ]

    def __init__(
        self,
        session: Session | RemoteSession,
        delay: float = 0.4,
        save_path: Path = DEFAULT_SAVE,
        four_colour: bool = False,
    ) -> None:
        super().__init__()
        self.four_colour = four_colour
        self.session = session
        self.delay = delay
        self.save_path = save_path
        self.message = ""
        self._logged = 0
        self._stepping = False
        self._deals_seen = self._results()  # deal ends the person has acknowledged

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield Static(id="seats")
                log = RichLog(id="log", wrap=True, markup=False, min_width=1)
                log.can_focus = False  # Tab goes between the command line and the hand (cursor mode)
                yield log
            yield Static(id="melds")
        yield HandView(id="hand")
        yield Static(id="message")
        yield Input(placeholder="command (? for help)", id="command")

    def on_mount(self) -> None:
        self.query_one("#command", Input).focus()
        self.refresh_view()
        if isinstance(self.session, RemoteSession):
            self.run_worker(self.session.run(self.remote_changed), exit_on_error=False)
            self.set_interval(1, self.refresh_view)  # the buy window's seconds left
        self.advance()

    def remote_changed(self, message: str | None) -> None:
        """The server sent something (or the connection changed): show it."""
        if message is not None:
            self.message = message
        elif self.message.startswith(("connection to the table lost", "cannot reach")):
            self.message = ""  # connected again
        self.refresh_view()

    def on_resize(self) -> None:
        self.refresh_view()  # larger cards from WIDE columns

    def _results(self) -> int:
        session = self.session
        return len(session.observation().results) if session.started() else 0

    # ---- bots --------------------------------------------------------------------------------------

    def deal_ended(self) -> bool:
        """Whether a deal has just ended and the person has not yet pressed Enter to go on."""
        return self.session.pauses_at_deal_end and self._results() > self._deals_seen

    def advance(self) -> None:
        """Let chance and the bots act until the person must answer, with a delay between bot moves; stop at
        a deal's end until the person has read it."""
        if self.delay <= 0:
            while not self.deal_ended() and self.session.step():
                pass
            self.refresh_view()
            return
        if self.deal_ended():
            return
        if not self._stepping:
            self._stepping = True
            self.set_timer(self.delay, self._tick)

    def _tick(self) -> None:
        self._stepping = False
        if self.deal_ended():
            return
        moved = self.session.step()
        while moved and not self.deal_ended() and self.session.turn().kind == "chance":
            moved = self.session.step()
        self.refresh_view()
        if moved:
            self.advance()

    # ---- the screen --------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        if not self.query("#status"):
            return  # the app is closing and its widgets are gone: a timer or a server message came late
        session = self.session
        if not session.started():
            self.query_one("#status", Static).update(Text("Waiting for every seat to be taken..."))
            self._write_log()
            self.query_one("#message", Static).update(Text(self.message))
            return
        obs = session.observation()
        names = session.names
        four, large = self.four_colour, self.size.width >= WIDE
        status = status_text(obs, names, four)
        if isinstance(session, RemoteSession):
            left = session.seconds_left()
            if left is not None:
                status.append(f" | {left} s to answer")
            if session.status != "open":
                status.append(" | NOT CONNECTED: retrying", style="bold reverse")
        self.query_one("#status", Static).update(status)
        self.query_one("#seats", Static).update(seats_text(obs, names))
        self.query_one("#melds", Static).update(melds_text(obs, names, four))
        hand = self.query_one("#hand", HandView)
        if hand.has_focus:
            hand.cursor = min(hand.cursor, max(len(session.hand()) - 1, 0))
            hand.update(hand_text(session.hand(), colour(), session.by_rank, hand.cursor, hand.picks, four, large))
        else:
            hand.update(hand_text(session.hand(), colour(), session.by_rank, four_colour=four, large=large))
        hand.styles.height = 6 if large else 2
        self._write_log()
        message = self.message or self.prompt()
        if hand.has_focus and not self.message:
            message = "cursor: <- -> move, space pick, g group, Enter do, 1-9 lay off, v targets, Esc clear"
        self.query_one("#message", Static).update(Text(message))

    def _write_log(self) -> None:
        log = self.query_one("#log", RichLog)
        for line in self.session.log[self._logged :]:
            log.write(Text(line))
        self._logged = len(self.session.log)

    def prompt(self) -> str:
        """What the person is asked now, from the options the engine lists for the seat."""
        turn = self.session.turn()
        obs = self.session.observation()
        if self.deal_ended() and turn.kind != "over":
            result = obs.results[-1]
            mine = result.points[self.session.human]
            return f"Deal {result.deal + 1} over ({mine} points for you, see the log): Enter to deal on"
        if turn.kind == "over":
            totals = obs.totals
            names = self.session.names
            winners = ", ".join(names[s] for s in obs.winners)
            return f"Game over: winner {winners}; " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(totals))
        if turn.kind == "wait":
            return f"waiting for {self.session.names[obs.current]}..."
        if turn.kind != "human":
            return "bots are playing..."
        top = obs.discard_pile[-1].pretty() if obs.discard_pile else "-"
        if any(isinstance(a, Buy) for a in turn.options):
            return f"May I? Buy {top} (b) or pass (p)"
        kinds = sorted({type(a).__name__ for a in turn.options})
        hint = {
            "DrawStock": "d draw",
            "DrawDiscard": "t take",
            "Discard": "x N discard",
            "GoDown": "l go down",
            "LayOff": "o N M lay off",
            "SwapJoker": "swap N M",
            "Buy": "b buy",
            "Pass": "p pass",
            "Call": "c call",
            "EndTurn": "e end",
        }
        line = "Your move: " + ", ".join(hint.get(k, k) for k in kinds)
        if turn.seat != obs.current and "Pass" not in kinds:
            line += ", p let it go"  # an optional call out of turn
        return line

    # ---- commands ----------------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.run_command(event.value)

    def run_command(self, text: str) -> None:
        """Parse and do one typed command; a bad one leaves the game as it was and says why."""
        self.message = ""
        if not text.strip() and self.deal_ended():
            self._deals_seen = self._results()
            self.refresh_view()
            self.advance()
            return
        try:
            command = parse(text)
            match command.verb:
                case "help":
                    self.action_help()
                case "quit":
                    self.action_quit_game()
                    return
                case "sort":
                    self.session.by_rank = not self.session.by_rank
                case "save":
                    self.save(Path(command.path) if command.path else self.save_path)
                case "hint":
                    self.message = self.session.hint_text()
                case "undo":
                    lines = self.session.undo()
                    self.message = f"Taken back: {len(lines)} move{'s' if len(lines) != 1 else ''} (see the log)"
                case _:
                    if self.session.turn().kind != "human":
                        raise CommandError("it is not your move now")
                    self.session.act(command)
        except IllegalAction as exc:
            self.message = f"Refused: {exc.detail}"
        except CommandError as exc:
            self.message = str(exc)
        except ValueError as exc:  # no input may crash the game: anything else refused is said, not raised
            self.message = f"Refused: {exc}"
        self.refresh_view()
        self.advance()

    def show_targets(self, position: int) -> None:
        """Say where card ``position`` may go; when there is exactly one place, put it there."""
        try:
            lays, swaps = self.session.targets(position)
        except CommandError as exc:
            self.message = str(exc)
            self.refresh_view()
            return
        card = self.session.hand()[position - 1].pretty()
        if len(lays) + len(swaps) == 1:
            self.run_command(f"o {position} {lays[0]}" if lays else f"swap {position} {swaps[0]}")
            return
        parts = [f"lay off on meld {', '.join(map(str, lays))} (1-9)"] if lays else []
        parts += [f"swap for the joker of meld {', '.join(map(str, swaps))} (swap N M)"] if swaps else []
        self.message = f"{card}: " + ("; ".join(parts) if parts else "no meld takes it now")
        self.refresh_view()

    def save(self, path: Path) -> None:
        path.write_text(self.session.record().to_json(), encoding="utf-8")
        self.message = f"saved to {path} (liverpool play --resume {path})"

    def action_save(self) -> None:
        try:
            self.save(self.save_path)
        except CommandError as exc:
            self.message = str(exc)
        self.refresh_view()

    def action_hint(self) -> None:
        self.run_command("h")

    def action_undo(self) -> None:
        self.run_command("u")

    def action_quit_game(self) -> None:
        if isinstance(self.session, RemoteSession):
            self.session.stop()
        self.exit()

    def action_help(self) -> None:
        if not self.session.started():
            self.push_screen(HelpScreen("Rules: shown once the game has started"))
            return
        rules = self.session.observation().rules
        self.push_screen(HelpScreen(f"Rules: {rules.title} ({rules.name}); liverpool rules show {rules.name}"))
