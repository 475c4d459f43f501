"""``liverpool tournament``: seating, pairing and bootstrap on constructed results; the same seed gives
the same games here, in local processes and on Ray; the command end to end, interrupted, and refusing
bad input with exit status 2."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from liverpool.bots import registry
from liverpool.bots.random_bot import random_bot
from liverpool.bots.style import Style
from liverpool.cli import app
from liverpool.cli.rulesfile import load_ruleset
from liverpool.engine.actions import Action
from liverpool.engine.observe import Observation
from liverpool.engine.play import Agent
from liverpool.engine.rules.presets import find_preset
from liverpool.tournament import runner
from liverpool.tournament.games import GameResult, Setup, entrant_at, make_setup, play_game, seat_of
from liverpool.tournament.runner import Run, run_tournament
from liverpool.tournament.stats import (
    bootstrap,
    field_differences,
    group_points,
    pair_differences,
    ratings,
    split_complete,
    summarize,
)

cli = CliRunner()
SEED = 5


@pytest.fixture(scope="module")
def setup(short_rules: Path) -> Setup:
    return make_setup(load_ruleset(str(short_rules)), ["random"] * 3, SEED)


@pytest.fixture(scope="module")
def local_run(setup: Setup) -> Run:
    return run_tournament(setup, 2)


# -- seating -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", range(3, 9))
def test_rotation_r_puts_entrant_i_at_seat_i_plus_r(seats: int) -> None:
    for rotation in range(seats):
        placed = [seat_of(entrant, rotation, seats) for entrant in range(seats)]
        assert placed == [(entrant + rotation) % seats for entrant in range(seats)]
        assert [entrant_at(seat, rotation, seats) for seat in placed] == list(range(seats))
    assert sorted(seat_of(0, rotation, seats) for rotation in range(seats)) == list(range(seats))


def _spy_factory(name: str, seen: dict[str, set[int | None]]) -> Callable[[Style], Agent]:
    """A bot factory whose bots play like ``random`` and note the seat they play from under ``name``."""

    def agent(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        seen.setdefault(name, set()).add(observation.viewer)
        return random_bot(observation, options, rng)

    return lambda style: agent


def test_a_bot_spec_seats_a_bot_in_its_style() -> None:
    setup = make_setup(find_preset("may-i"), ["easy:aggressive", "easy", "easy:cautious"], SEED)
    assert setup.bots == ("easy:aggressive", "easy", "easy:cautious")
    result = play_game(setup, group=0, rotation=0)
    assert len(result.totals) == 3


def test_play_game_seats_each_bot_by_its_rotation_and_reports_in_entrant_order(monkeypatch: pytest.MonkeyPatch) -> None:
    names = ["spy-a", "spy-b", "spy-c"]
    seen: dict[str, set[int | None]] = {}
    for name in names:
        monkeypatch.setitem(registry.FACTORIES, name, _spy_factory(name, seen))
    setup = make_setup(find_preset("may-i"), names, SEED)
    rotation = 2
    result = play_game(setup, group=0, rotation=rotation)
    assert seen == {name: {(i + rotation) % 3} for i, name in enumerate(names)}
    assert result.key == (0, rotation)
    for deal, scores in enumerate(result.deal_scores):
        out = result.went_out[deal]
        assert out is None or scores[out] == 0  # may-i has no cut bonus: who went out scored 0
    assert tuple(map(sum, zip(*result.deal_scores, strict=True))) == result.totals
    assert set(result.winners) == {i for i, t in enumerate(result.totals) if t == min(result.totals)}


# -- pairing and statistics on constructed results ---------------------------------------------------


def _game(group: int, rotation: int, totals: tuple[int, int, int], went_out: int | None = None) -> GameResult:
    best = min(totals)
    return GameResult(
        group=group,
        rotation=rotation,
        totals=totals,
        deal_scores=(totals,),
        went_out=(went_out,),
        buys=(1, 0, 2),
        winners=tuple(i for i, t in enumerate(totals) if t == best),
    )


CONSTRUCTED = [
    # group 0: entrant means 10, 30, 30
    _game(0, 0, (10, 20, 30), went_out=0),
    _game(0, 1, (20, 20, 20)),
    _game(0, 2, (0, 50, 40), went_out=0),
    # group 1: entrant means 20, 20, 20
    _game(1, 0, (30, 0, 30), went_out=1),
    _game(1, 1, (30, 30, 0), went_out=2),
    _game(1, 2, (0, 30, 30), went_out=0),
    # group 2 lacks rotations 1 and 2: dropped
    _game(2, 0, (0, 100, 100), went_out=0),
]


def test_group_means_field_differences_and_pairs_by_hand() -> None:
    complete, dropped = split_complete(list(reversed(CONSTRUCTED)), 3)
    assert [g.key for g in complete] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert [g.key for g in dropped] == [(2, 0)]
    points = group_points(complete, 3)
    assert points.tolist() == [[10, 30, 30], [20, 20, 20]]
    assert np.allclose(field_differences(points), np.array([[-40, 20, 20], [0, 0, 0]]) / 3)
    pairs, differences = pair_differences(points)
    assert pairs == [(0, 1), (0, 2), (1, 2)]
    assert differences.tolist() == [[-20, -20, 0], [0, 0, 0]]


def test_summary_of_constructed_results() -> None:
    setup = make_setup(find_preset("may-i"), ["random"] * 3, SEED)
    summary = summarize(setup, CONSTRUCTED)
    assert summary is not None
    assert (summary.groups, summary.games, summary.dropped_groups, summary.dropped_games) == (2, 6, 1, 1)
    first, second, third = summary.entrants
    assert [e.label for e in summary.entrants] == ["random#1", "random#2", "random#3"]
    # two groups: every resample mean is one group's value or their average, each with probability >= 1/4
    assert (first.points.mean, first.points.low, first.points.high) == (15, 10, 20)
    assert (second.points.mean, second.points.low, second.points.high) == (25, 20, 30)
    assert first.vs_field.mean == pytest.approx(-20 / 3)
    assert first.vs_field.low == pytest.approx(-40 / 3)
    assert first.vs_field.high == pytest.approx(0)
    assert third.vs_field.mean == pytest.approx(10 / 3)
    by_pair = {(p.a, p.b): p.difference for p in summary.pairs}
    assert set(by_pair) == {("random#1", "random#2"), ("random#1", "random#3"), ("random#2", "random#3")}
    one_two = by_pair["random#1", "random#2"]
    assert (one_two.mean, one_two.low, one_two.high) == (-10, -20, 0)
    two_three = by_pair["random#2", "random#3"]
    assert (two_three.mean, two_three.low, two_three.high) == (0, 0, 0)
    assert [e.win_share for e in summary.entrants] == pytest.approx([10 / 18, 4 / 18, 4 / 18])
    assert [e.go_out_rate for e in summary.entrants] == pytest.approx([3 / 6, 1 / 6, 1 / 6])
    assert [e.buys_per_game for e in summary.entrants] == [1.0, 0.0, 2.0]
    assert first.rating.mu > second.rating.mu
    assert summarize(setup, CONSTRUCTED[-1:]) is None


def test_ratings_share_ties_and_reward_fewer_points() -> None:
    tied = ratings([_game(0, r, (50, 50, 50)) for r in range(3)], ["a", "b", "c"])
    assert tied[0] == tied[1] == tied[2]
    ordered = ratings([_game(0, r, (10, 20, 30)) for r in range(3)], ["a", "b", "c"])
    assert ordered[0].mu > ordered[1].mu > ordered[2].mu


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(-500, 500), min_size=3, max_size=3), min_size=1, max_size=15), st.integers(0, 99))
def test_bootstrap_interval_contains_the_mean(rows: list[list[int]], seed: int) -> None:
    values = np.array(rows, dtype=np.float64) / 3
    for interval, column in zip(bootstrap(values, np.random.default_rng(seed), 500), values.T, strict=True):
        assert interval.mean == pytest.approx(column.mean())
        assert interval.low - 1e-9 <= interval.mean <= interval.high + 1e-9
        assert column.min() - 1e-9 <= interval.low <= interval.high <= column.max() + 1e-9


# -- the same seed gives the same games on every backend ---------------------------------------------


def test_same_seed_same_games_locally_and_in_two_processes(setup: Setup, local_run: Run) -> None:
    assert [g.key for g in local_run.results] == runner.schedule(3, 2)
    assert not local_run.interrupted
    pooled = run_tournament(setup, 2, workers=2)
    assert pooled.results == local_run.results
    assert summarize(setup, pooled.results) == summarize(setup, local_run.results)
    assert play_game(make_setup(setup.rules, setup.bots, SEED + 1), 0, 0) != local_run.results[0]


def test_same_seed_same_games_on_ray(setup: Setup, local_run: Run) -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        on_ray = run_tournament(setup, 2, ray_address="auto")
    finally:
        ray.shutdown()
    assert on_ray.results == local_run.results


# -- the command -------------------------------------------------------------------------------------


def _invoke(tmp_path: Path, *args: str) -> tuple[int, str, Path, Path]:
    out, chart = tmp_path / "results.json", tmp_path / "results.png"
    result = cli.invoke(app, ["tournament", "--out", str(out), "--chart", str(chart), *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output, out, chart


def test_command_writes_table_json_and_chart(tmp_path: Path, short_rules: Path, local_run: Run) -> None:
    code, output, out, chart = _invoke(
        tmp_path, "--bots", "random,Random,random", "--preset", str(short_rules), "--games", "2", "--seed", str(SEED)
    )
    assert code == 0, output
    assert "random#1" in output and "vs field" in output and "Pairwise" in output
    assert chart.read_bytes().startswith(b"\x89PNG")
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["format"] == "liverpool-tournament/1"
    assert document["setup"]["entrants"] == ["random#1", "random#2", "random#3"]
    assert document["setup"]["versions"] == [f"random/{registry.VERSIONS['random']}"] * 3  # issue 29 item 4
    assert document["setup"]["rules"]["name"] == "short"
    assert len(document["setup"]["rules"]["deals"]) == 2
    assert document["run"] == {
        "backend": "local",
        "workers": 1,
        "games_scheduled": 6,
        "games_finished": 6,
        "games_resumed": 0,
        "interrupted": False,
    }
    games = document["games"]
    assert [(g["group"], g["rotation"]) for g in games] == [g.key for g in local_run.results]
    assert [g["totals"] for g in games] == [list(g.totals) for g in local_run.results]
    for game in games:
        r = game["rotation"]
        assert game["seats"] == [document["setup"]["entrants"][(s - r) % 3] for s in range(3)]
    summary = document["summary"]
    assert (summary["groups"], summary["games"], summary["dropped_games"]) == (2, 6, 0)
    means = [e["points"]["mean"] for e in summary["entrants"]]
    assert means == pytest.approx(np.mean([g.totals for g in local_run.results], axis=0).tolist())
    assert len(summary["pairs"]) == 3


def test_ctrl_c_reports_the_complete_groups_so_far(
    tmp_path: Path, short_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []

    def play_until_interrupted(setup: Setup, group: int, rotation: int) -> GameResult:
        if len(played) == 4:
            raise KeyboardInterrupt
        played.append(group)
        return play_game(setup, group, rotation)

    monkeypatch.setattr(runner, "play_game", play_until_interrupted)
    code, output, out, chart = _invoke(
        tmp_path, "--bots", "random,random,random", "--preset", str(short_rules), "--games", "3"
    )
    assert code == 130, output
    assert "Interrupted: 4 of 9 games finished; counted 1 complete group (3 games); dropped 1 game" in output
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["run"]["interrupted"] is True
    assert document["run"]["games_finished"] == 4
    assert (document["summary"]["groups"], document["summary"]["dropped_games"]) == (1, 1)
    assert chart.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--bots", "random,nosuchbot,random"],
            "no bot named 'nosuchbot'; bots: random, easy, medium, hard (and, in a tournament only, cheat, infer)",
        ),
        (["--bots", "random,medium:bold,random"], "no style named 'bold'; styles: cautious, balanced, aggressive"),
        (["--bots", ",".join(["random"] * 9)], "3 to 8 bots, not 9"),
        (["--bots", "random,random"], "3 to 8 bots, not 2"),
        (["--bots", ",".join(["random"] * 6), "--preset", "contract"], "contract is for 3 to 5 players"),
        (["--bots", "random,,random"], "empty bot name"),
        (["--bots", "random,random,random", "--games", "0"], "--games"),
        (["--bots", "random,random,random", "--workers", "0"], "--workers"),
        (["--bots", "random,random,random", "--preset", "monopoly"], "no preset named 'monopoly'"),
        (["--bots", "random,random,random", "--workers", "2", "--ray", "auto"], "choose one of --workers and --ray"),
    ],
)
def test_bad_input_is_a_clear_error_with_status_2(tmp_path: Path, args: list[str], message: str) -> None:
    code, output, out, _ = _invoke(tmp_path, *args)
    assert code == 2, output
    assert message in " ".join(output.split())
    assert not out.exists()


def test_ray_without_ray_installed_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    code, output, out, _ = _invoke(tmp_path, "--bots", "random,random,random", "--games", "1", "--ray", "auto")
    assert code == 2, output
    assert "--ray needs Ray: pip install 'liverpool[ray]'" in output
    assert not out.exists()
