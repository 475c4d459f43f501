"""The coach (``liverpool.coach``, issue 30): crafted positions with an obvious best move, reproducible
reviews, and a coach that never reads hidden cards."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from liverpool.bots.medium import MediumBot
from liverpool.cli import app
from liverpool.coach import THRESHOLDS, Coach, Judgement, Thresholds, judge, reasons, review_record
from liverpool.engine import (
    Buy,
    Card,
    Discard,
    DrawStock,
    GameRecord,
    GameState,
    GoDown,
    Meld,
    MeldKind,
    Pass,
    Position,
    SeededChance,
    apply,
    find_preset,
    legal_actions,
    new_position,
    observe,
    run_game,
)
from liverpool.engine.play import step

RULES = find_preset("liverpool")
WORLDS = 16
runner = CliRunner()


def _after_stock_draw(position: Position) -> GameState:
    """The position's current seat draws from the stock, and (``liverpool``: the buy window opens after the
    next player declines) everyone passes on the discard it declined."""
    state = new_position(RULES, position.with_rest_in_stock(RULES))
    apply(state, DrawStock(state.current))
    while state.phase.value == "buy":
        apply(state, next(a for a in legal_actions(state) if isinstance(a, Pass)))
    return state


# Seat 1 holds two sets and a K♦; seats 0, 2 and 3 are down, each a few cards from going out.
GOING_OUT = Position.of(
    hands=["4C 4D 10C", "7H 7S 7D 9C 9D 9S", "5C 5D 3C", "JC JD 2C"],
    melds=[
        (2, "set: 5H 5S 5C#1"),
        (2, "set: 6H 6S 6C"),
        (3, "set: 8H 8S 8C"),
        (3, "set: 10H 10S 10D"),
        (0, "set: QH QS QC"),
        (0, "set: KH KS KC"),
    ],
    stock="KD",
    discard_pile="3D",
    current=1,
    discarder=0,
)


def test_going_down_to_go_out_ranks_first_and_staying_up_is_flagged() -> None:
    """RULES.md §1: going out ends the deal and everyone else scores what is left in hand; §3 going out: by
    discarding the last card. Going down leaves one card to discard: staying up is a blunder."""
    state = _after_stock_draw(GOING_OUT)
    stay_up = Discard(1, Card.parse("KD"))
    advice = Coach(worlds=WORLDS).advise(observe(state, 1), legal_actions(state, 1), seed=1, include=[stay_up])
    assert isinstance(advice.best.choice, GoDown)
    assert advice.margin is not None and advice.margin > 10
    assert "keeping only the K♦ to discard and go out" in advice.best.reason
    assert all(o.se > 0 for o in advice.options), "each option's expected points carry a standard error"
    assert advice.best in advice.acceptable
    assert advice.acceptable == tuple(o for o in advice.options if o.loss <= 2 * o.loss_se), "within 2 standard errors"
    value = advice.value_of(stay_up)
    assert not value.acceptable
    assert judge(value.loss, value.loss_se, best=False).value in ("mistake", "blunder")


def test_not_feeding_the_next_players_run() -> None:
    """RULES.md §1: a turn may draw the top discard, then lay off once down. Seat 2, next to play, is down
    with one card and a run 4♥-7♥: the 8♥ lets it take, lay off and go out at once."""
    position = Position.of(
        hands=["QD#1 QC 2D 3S 4C 6C 7C", "KS KD KC 9D 10D JD 8H AS AD", "2H", "JS QS 4S 5D 6D 7S 8S"],
        melds=[(2, "set: 3D 3D#1 3C"), (2, "run: 4H 5H 6H 7H")],
        stock="AH",
        discard_pile="2S",
        deal=1,
        scores=[[0, 20, 30, 40]],
        current=1,
        discarder=0,
    )
    state = _after_stock_draw(position)
    feed = Discard(1, Card.parse("8H"))
    advice = Coach(worlds=WORLDS).advise(observe(state, 1), legal_actions(state, 1), seed=1, include=[feed])
    assert advice.best.choice != feed
    value = advice.value_of(feed)
    assert "feeds seat 2's run" in value.reason
    assert not value.acceptable
    assert judge(value.loss, value.loss_se, best=False).value in ("mistake", "blunder")


def test_buying_the_card_that_completes_the_contract() -> None:
    """RULES.md §3 buying: who, when (after the next player declines it, 001a) and price (the discard plus a
    penalty card). Seat 2 holds three 5s and two 7s: the 7♥ completes its two sets, and the table is close to
    going out."""
    position = Position.of(
        hands=["2D 3H 6S", "JD 6C 2H 4D 10S QS 3C 9C", "5C 5D 5S 7C 7D 2S 3S AS KH#1 4C", "QH"],
        melds=[(3, "set: 9S 9D 9D#1"), (3, "set: AH AD AC"), (0, "set: KS KD KC"), (0, "set: 8S 8D 8C")],
        stock="6D",
        discard_pile="7H",
        current=1,
        discarder=0,
    )
    state = new_position(RULES, position.with_rest_in_stock(RULES))
    apply(state, DrawStock(1))
    options = legal_actions(state, 2)
    assert Buy(2) in options
    advice = Coach(worlds=WORLDS).advise(observe(state, 2), options, seed=1, include=[Buy(2), Pass(2)])
    assert advice.best.choice == Buy(2)
    assert "brings the contract from 1 card away to 0" in advice.best.reason
    value = advice.value_of(Pass(2))
    assert judge(value.loss, value.loss_se, best=False).value in ("mistake", "blunder")


def test_the_coach_never_reads_hidden_cards() -> None:
    """Two deals that differ only in cards seat 1 cannot see (seat 2's and seat 3's hands, the stock under
    its top card) give seat 1 the same observation, and the coach the same advice with the same seed; and
    the same seed gives the same advice twice."""
    shuffled = list(GOING_OUT.with_rest_in_stock(RULES).stock)
    top, rest = shuffled[0], shuffled[1:]
    random.Random(7).shuffle(rest)
    other = replace(
        GOING_OUT,
        hands=(GOING_OUT.hands[0], GOING_OUT.hands[1], (rest[0], rest[1], rest[2]), (rest[3], rest[4], rest[5])),
        stock=(top, *GOING_OUT.hands[2], *GOING_OUT.hands[3], *rest[6:]),
    )
    first, second = _after_stock_draw(GOING_OUT), _after_stock_draw(other)
    assert first.hands[2] != second.hands[2]
    assert observe(first, 1) == observe(second, 1)
    coach = Coach(worlds=4)
    advice = [coach.advise(observe(s, 1), legal_actions(s, 1), seed=5).to_dict() for s in (first, second, first)]
    assert advice[0] == advice[1] == advice[2]
    assert coach.advise(observe(first, 1), legal_actions(first, 1), seed=6).to_dict() != advice[0]


def test_bad_requests_are_refused_by_name() -> None:
    state = _after_stock_draw(GOING_OUT)
    with pytest.raises(ValueError, match="not among the seat's legal options"):
        Coach(worlds=2).advise(observe(state, 1), legal_actions(state, 1), include=[Discard(1, Card.parse("AS"))])
    with pytest.raises(ValueError, match="must act here"):
        Coach(worlds=2).advise(observe(state, 1), legal_actions(state, 1), include=[None])
    with pytest.raises(ValueError, match="at least 2 worlds"):
        Coach(worlds=1)
    with pytest.raises(ValueError, match="thresholds must grow"):
        Thresholds(inaccuracy=5, mistake=3, blunder=10)


def test_the_thresholds_in_force_are_the_documented_calibration() -> None:
    """docs/coach.md's table of judgements gives the thresholds of judge.py (from the calibration run)."""
    text = (Path(__file__).parents[2] / "docs" / "coach.md").read_text(encoding="utf-8")
    documented = {
        name: float(re.search(rf"^\| {name} \| `excess` ≥ (\d+) points \|$", text, re.M).group(1))  # type: ignore[union-attr]
        for name in ("inaccuracy", "mistake", "blunder")
    }
    assert documented == {
        "inaccuracy": THRESHOLDS.inaccuracy,
        "mistake": THRESHOLDS.mistake,
        "blunder": THRESHOLDS.blunder,
    }
    assert "suggested: inaccuracy 5, mistake 7" in text and "blunder 14" in text


def test_judgements_by_points_lost_beyond_the_error() -> None:
    limits = Thresholds(inaccuracy=2, mistake=5, blunder=10)
    assert judge(0.0, 0.0, best=True, thresholds=limits) is Judgement.BEST
    assert judge(3.0, 2.0, best=False, thresholds=limits) is Judgement.GOOD
    assert judge(4.0, 2.0, best=False, thresholds=limits) is Judgement.INACCURACY
    assert judge(8.0, 2.0, best=False, thresholds=limits) is Judgement.MISTAKE
    assert judge(12.0, 2.0, best=False, thresholds=limits) is Judgement.BLUNDER


@pytest.fixture(scope="module")
def seeded_record() -> GameRecord:
    state = run_game(RULES, [MediumBot() for _ in range(4)], random.Random(2), chance=SeededChance(2))
    return GameRecord.of(state, meta={"seed": 2})


def test_a_review_of_a_seeded_game_is_reproducible(seeded_record: GameRecord) -> None:
    coach = Coach(worlds=2, candidates=3)
    first = review_record(seeded_record, 0, coach, seed=3, deals={0})
    again = review_record(seeded_record, 0, coach, seed=3, deals={0})
    assert first.to_dict() == again.to_dict()
    assert first.decisions and all(d.played is None or d.played.seat == 0 for d in first.decisions)
    assert all(d.deal == 0 for d in first.decisions)
    assert first.draws, "each stock draw of the seat is rated against the average draw"
    assert first.to_dict()["coach"] == {"version": "coach-1", "worlds": 2, "candidates": 3}


def test_review_command_text_json_and_stored_verdicts(seeded_record: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(seeded_record.to_json(), encoding="utf-8")
    store = tmp_path / "review.json"
    args = [
        "review",
        str(path),
        "--seat",
        "1",
        "--deal",
        "1",
        "--worlds",
        "2",
        "--candidates",
        "2",
        "--save",
        str(store),
    ]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["coach"]["version"] == "coach-1" and data["seat"] == 1 and "stored" not in data
    assert json.loads(store.read_text(encoding="utf-8"))["decisions"] == data["decisions"]
    stored = runner.invoke(app, [*args, "--json"])
    assert json.loads(stored.output) == {**data, "stored": True}
    text = runner.invoke(app, [*args, "--threshold", "0"])
    assert text.exit_code == 0, text.output
    assert "(stored)" in text.output and "Deal 1:" in text.output
    assert (
        "Decisions where the best option was better by more than 0 points" in text.output
        or "No decision" in text.output
    )


def test_review_command_refuses_bad_input(seeded_record: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(seeded_record.to_json(), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--seat", "4"])
    assert result.exit_code == 2
    assert "--seat 4: this game has seats 0..3" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    result = runner.invoke(app, ["review", str(broken), "--seat", "0"])
    assert result.exit_code == 2
    assert "not valid JSON" in result.output


ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def _run_review(args: list[str], stderr_terminal: bool) -> tuple[subprocess.CompletedProcess[bytes], bytes]:
    """``liverpool review ARGS`` as its own process with stdout a pipe and stderr either a terminal (a pty)
    or a pipe; its result and all it wrote on stderr."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_TERMINAL", "NO_COLOR", "TTY_COMPATIBLE")}
    env.update(TERM="xterm-256color", COLUMNS="100", PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    command = [sys.executable, "-m", "liverpool", "review", *args]
    if not stderr_terminal:
        done = subprocess.run(command, capture_output=True, env=env, timeout=300, check=False)
        return done, done.stderr
    master, slave = pty.openpty()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, env=env) as process:
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the process closed its end
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.stdout is not None
        out = process.stdout.read()
        process.wait(timeout=300)
    os.close(master)
    return subprocess.CompletedProcess(command, process.returncode, out, b""), b"".join(chunks)


def test_review_command_shows_its_progress_on_stderr_only(seeded_record: GameRecord, tmp_path: Path) -> None:
    """Issue 30 item 5: ``liverpool review`` has a progress bar. On a terminal it counts the decisions on
    stderr and is wiped when done (transient); stdout holds only the review, whether stderr is a terminal
    or not, and a stderr that is not a terminal gets nothing."""
    path = tmp_path / "game.json"
    path.write_text(seeded_record.to_json(), encoding="utf-8")
    args = [str(path), "--seat", "1", "--deal", "1", "--worlds", "2", "--candidates", "2"]

    shown, bar = _run_review([*args, "--json"], stderr_terminal=True)
    assert shown.returncode == 0, bar.decode(errors="replace")
    review = json.loads(shown.stdout)  # stdout is the review and nothing else
    assert shown.stdout == (json.dumps(review, ensure_ascii=False) + "\n").encode()
    total = len(review["decisions"])
    assert total > 1
    frames = ANSI.sub(b"", bar).decode().replace("\r", "\n").splitlines()
    counts = [m.group(1) for f in frames if (m := re.search(r"^reviewing .* (\d+/\d+) decisions", f))]
    assert counts and counts[-1] == f"{total}/{total}", frames  # the last frame: every decision measured
    assert bar.endswith(b"\x1b[1A\x1b[2K"), "the bar is wiped from the terminal when the review is done"

    quiet, err = _run_review([*args, "--json"], stderr_terminal=False)
    assert quiet.returncode == 0, err.decode(errors="replace")
    assert err == b"", "no bar, nor any trace of one, when stderr is not a terminal"
    assert quiet.stdout == shown.stdout

    text, bar = _run_review(args, stderr_terminal=True)
    assert text.returncode == 0
    assert b"\x1b" not in text.stdout and text.stdout.startswith(b"Review of seat 1")
    assert f"Deal 1: {total} decisions".encode() in text.stdout and b"reviewing" not in text.stdout
    assert b"reviewing" in bar


def _luck_of_first_draw(stock_top: str) -> float:
    """Seat 1 holds three 9s and two 7s (deal 1: two sets) and draws ``stock_top`` (the others pass on the
    10♣ it declined); a medium bot plays seat 1's turn; the review rates the draw."""
    position = Position.of(
        hands=["2D 3H 6S QC JS 4C 8C", "7C 7D 9C 9D 9S KS 4D", "5C 5D 2S 3S AS KH#1 4H", "QH JD 10S 6C 3C 8D 2H"],
        stock=stock_top,
        discard_pile="10C",
        current=1,
        discarder=0,
    ).with_rest_in_stock(RULES)
    state = _after_stock_draw(position)
    rng = random.Random(0)
    bots = [MediumBot() for _ in range(4)]
    while state.current == 1:
        step(state, bots, rng)
    record = GameRecord.of(state, position=position)
    review = review_record(record, 1, Coach(worlds=8), seed=1)
    assert [d.index for d in review.draws] == [0]
    return review.draws[0].luck


def test_a_go_down_built_by_hand_is_reviewed() -> None:
    """A review measures the decision a player made even when the engine did not list it: a go-down laid in
    another order than ``legal_actions``'s (as the browser's builder sends one) is legal and is reviewed."""
    state = _after_stock_draw(GOING_OUT)
    built = GoDown(1, (Meld.parse("set: 9S 9D 9C"), Meld.parse("set: 7D 7S 7H")))
    assert built not in legal_actions(state, 1), "the engine lists the sets in its own order"
    apply(state, built)
    apply(state, Discard(1, Card.parse("KD")))
    record = GameRecord.of(state, position=GOING_OUT.with_rest_in_stock(RULES))
    review = review_record(record, 1, Coach(worlds=4), seed=1)
    (decision,) = [d for d in review.decisions if d.played == built]
    assert decision.expected == decision.advice.best.expected, "going down to go out is best here"


def test_each_stock_draw_is_rated_against_the_average_draw() -> None:
    """Luck is kept apart from judgement: drawing the third 7 (the contract) is good luck, a king is not."""
    good, bad = _luck_of_first_draw("7H"), _luck_of_first_draw("KD")
    assert good > 0 > bad


def test_the_coach_lists_every_key_its_phrases_use() -> None:
    """``ADVICE_KEYS`` (which the catalogue checks ask every catalogue for, docs/i18n.md) holds each
    ``advice.*`` key the coach's phrases name, and no other."""
    source = Path(reasons.__file__).read_text(encoding="utf-8")
    code = source[: source.index("ADVICE_KEYS: ")]
    named = set(re.findall(r'"(advice\.[\w.]+)"', code))
    for prefix in re.findall(r'f"(advice\.[\w.]+\.)\{', code):
        named |= {prefix + kind.value for kind in MeldKind}
    assert named == reasons.ADVICE_KEYS
