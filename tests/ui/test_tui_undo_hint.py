"""Undo against bots and the hint key of the terminal client (issue 31 item 5), through the Session and through
the textual app driven by Pilot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from liverpool.cli.rulesfile import load_ruleset
from liverpool.engine import Action, Discard, DrawDiscard, DrawStock, GameRecord, GoDown, LayOff, find_preset
from liverpool.engine.record import snapshot
from liverpool.tui.app import LiverpoolApp
from liverpool.tui.commands import CommandError, parse
from liverpool.tui.seat import command_text, hint
from liverpool.tui.session import Session


def _at_my_draw(seed: int = 1) -> Session:
    session = Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=seed, name="ada")
    while session.step():
        pass
    assert any(isinstance(a, DrawDiscard) for a in session.turn().options)
    return session


def _simple(options: tuple[Action, ...]) -> Action | None:
    """A quick scripted player: go down, lay off, draw from the stock, discard the last card listed."""
    for kind in (GoDown, LayOff, DrawStock):
        for action in options:
            if isinstance(action, kind):
                return action
    discards = [a for a in options if isinstance(a, Discard)]
    return discards[-1] if discards else None


def _screen(app: LiverpoolApp) -> str:
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


def test_undo_takes_back_my_move_and_the_bots_after_it(tmp_path: Path) -> None:
    session = _at_my_draw()
    before, hand, moves = snapshot(session.state), session.hand(), len(session.state.history)
    session.act(parse("t"))  # the discard's top: a card everyone saw
    session.act(parse(f"x {len(session.hand())}"))
    assert session.step()  # the next bot draws from the stock: hidden from ada, nothing shown
    assert isinstance(session.state.history[-1], DrawStock)
    taken = session.state.history[-2:]
    lines = session.undo()
    assert len(lines) == 2 and lines[0].startswith("ada discards")  # ada's discard, then the bot's draw
    assert session.log[-1].startswith("ada takes back: ada discards")
    assert session.undone_actions() == [taken]
    session.undo()  # and the take before it
    assert snapshot(session.state) == before and session.hand() == hand
    assert [u["at"] for u in session.undone] == [moves + 1, moves]

    path = tmp_path / "game.json"
    path.write_text(session.record().to_json(), encoding="utf-8")
    resumed = Session.resume(GameRecord.from_json(path.read_text(encoding="utf-8")))
    assert resumed.undone_actions() == session.undone_actions()  # kept in the saved record
    assert snapshot(resumed.state) == before


def test_undo_is_refused_once_a_hidden_card_was_shown() -> None:
    session = _at_my_draw()
    hand = session.hand()
    session.act(parse("d"))
    (drawn,) = set(session.hand()) - set(hand)
    before = snapshot(session.state)
    with pytest.raises(CommandError, match=rf"cannot undo: {drawn.pretty()} shown to you since \(ada draws"):
        session.undo()
    assert snapshot(session.state) == before
    fresh = Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=1, name="ada")
    with pytest.raises(CommandError, match="nothing to undo"):
        fresh.undo()


def test_undo_refused_after_a_bots_discard_through_the_app() -> None:
    """RULES.md is not involved: a client rule (what undo may take back). Against bots at full speed, a bot's
    discard after mine shows a card ada had not seen: the undo key says so and changes nothing."""

    async def run() -> None:
        session = _at_my_draw()
        app = LiverpoolApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("t", "enter")
            await pilot.press(*f"x {len(session.hand())}", "enter")
            mine = max(i for i, a in enumerate(session.state.history) if a.seat == 0)
            assert any(isinstance(a, Discard) for a in session.state.history[mine + 1 :]), (
                app.message,
                session.log[-6:],
            )
            before = snapshot(session.state)
            await pilot.press("f3")
            assert app.message.startswith("cannot undo:") and "shown to you since" in app.message
            assert snapshot(session.state) == before
            assert "cannot undo" in _screen(app)

    asyncio.run(run())


def test_hint_key_shows_the_coachs_best_option() -> None:
    async def run() -> None:
        session = _at_my_draw()
        app = LiverpoolApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            options = session.turn().options
            await pilot.press("f2")
            assert app.message.startswith("Hint (coach): "), app.message
            command = app.message.removeprefix("Hint (coach): ").split(":")[0]
            assert session.action_for(parse(command)) in options
            advice = hint(session.observation(), options, session.hint_seed())
            assert advice is not None and session.action_for(parse(command)) == advice.best.choice
            assert advice.best.reason in app.message
            assert app.message[:60] in _screen(app)
            await pilot.press("h", "enter")  # typed, the same hint
            assert app.message.startswith(f"Hint (coach): {command}:")

    asyncio.run(run())


def test_hint_when_it_is_not_my_move() -> None:
    session = Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=1, name="ada")
    with pytest.raises(CommandError, match="not your move"):
        session.hint_text()


def test_end_of_deal_and_end_of_game_summaries(short_rules: Path) -> None:
    """A whole two-deal game (RULES.md §1.6: the lowest total after all deals wins) through the app: each deal's end waits for
    Enter with its summary in the log, and the game's end lists the totals and the winner."""
    session = Session(load_ruleset(str(short_rules)), ["easy", "easy", "easy"], seed=5, name="ada")

    async def run() -> str:
        app = LiverpoolApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            pauses = 0
            for _ in range(600):
                if session.turn().kind == "over":
                    break
                if app.deal_ended():
                    assert "over" in app.prompt() and "Enter to deal on" in app.prompt()
                    pauses += 1
                    app.run_command("")  # Enter on an empty command line
                    continue
                command = command_text(_simple(session.turn().options), session.hand()).split(":")[0]
                app.run_command(command)  # what Enter on the command line calls (typing is tested elsewhere)
            assert pauses == 1  # after deal 1; the game's end does not wait
            await pilot.pause()
            return _screen(app)

    screen = asyncio.run(run())
    totals = session.state.totals
    assert "Game over: winner" in screen
    end = session.log.index("Game over after 2 deals. Final totals (lowest wins):")
    ranked = session.log[end + 1 : end + 5]
    assert sorted(int(line.rsplit(": ", 1)[1]) for line in ranked) == sorted(totals)
    assert session.log[end + 5] == "Winner: " + ", ".join(session.names[s] for s in session.state.winners)
    assert sum(line.startswith("Deal ") and "Points:" in line for line in session.log) == 2
