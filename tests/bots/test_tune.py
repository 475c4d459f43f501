"""``liverpool.bots.tune`` against any opponent: its ``solo`` mode (one candidate among ``medium`` bots at 4
seats, ``arena.solo``) runs on a tiny budget, gives exactly 0 when the candidate plays ``medium``'s own
weights, and gives what ``arena.solo`` gives deal by deal otherwise; the default mode is still duplicate
deals against ``easy``; bad options are refused naming what was wrong. Also the lever ``value_down`` that
the wide search space adds to ``medium``'s weights (0 in ``medium``)."""

from __future__ import annotations

import pytest
from test_bots import decision_points

from liverpool.bots.arena import Score, duplicate, solo
from liverpool.bots.medium import MediumBot, Weights
from liverpool.bots.registry import make_bot
from liverpool.bots.tune import Table, changed, evaluate, main, parse_weights, tune
from liverpool.engine.observe import observe
from liverpool.engine.rules.presets import find_preset

PRESET = "liverpool"
OTHER = Weights(pair=8.0, hold=4.0, used=8.0, feed_table=0.0)


def test_solo_of_medium_weights_against_medium_is_exactly_zero() -> None:
    assert evaluate(Weights(), PRESET, range(2), Table("medium", solo=True, seats=4)) == Score(0.0, 0.0)


@pytest.mark.parametrize("seats", [4, 3])
def test_solo_mode_plays_arena_solo_at_the_seats_asked(seats: int) -> None:
    rules = find_preset(PRESET)
    seed = 3
    expected = sum(
        solo(rules, lambda: MediumBot(OTHER), lambda: make_bot("medium"), deal, seed, seats)
        for deal in range(len(rules.deals))
    )
    got = evaluate(OTHER, PRESET, [seed], Table("medium", solo=True, seats=seats))
    assert expected != 0.0  # the candidate plays differently, so the check below says something
    assert got.mean == pytest.approx(expected)


def test_the_default_is_still_duplicate_deals_against_easy_at_four_seats() -> None:
    rules = find_preset(PRESET)
    seed = 1
    expected = sum(
        duplicate(rules, lambda: MediumBot(OTHER), lambda: make_bot("easy"), deal, seed)
        for deal in range(len(rules.deals))
    )
    assert evaluate(OTHER, PRESET, [seed]).mean == pytest.approx(expected)
    assert Table() == Table("easy", solo=False, seats=4)


def test_a_tiny_solo_search_runs_and_keeps_only_what_scores_better() -> None:
    lines: list[str] = []
    found = tune(PRESET, range(1), log=lines.append, table=Table("medium", True, 4), space={"pair": (8.0,)})
    assert lines[0] == "start +0.0 ± 0.0"
    trial = evaluate(Weights(pair=8.0), PRESET, range(1), Table("medium", True, 4))
    assert found == (Weights(pair=8.0) if trial.mean < 0 else Weights())


def test_the_command_line_checks_given_weights_against_medium(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--opponent", "medium", "--solo", "--seats", "4", "--check", "--start", "pair=8", "--fresh", "1"])
    out = capsys.readouterr().out
    assert "liverpool, 4 seats, one candidate among medium bots" in out
    assert "found (changed) pair=8" in out
    assert "medium (defaults) - medium: +0.0 ± 0.0 (95% interval +0.0 to +0.0)" in out
    assert "medium (found) - medium:" in out
    main(["--opponent", "medium", "--solo", "--check", "--start", "pair=8", "--fresh", "1", "--fresh-defaults", "0"])
    out = capsys.readouterr().out
    assert "(defaults)" not in out
    assert "medium (found) - medium:" in out


def test_weights_are_read_and_written_as_name_value_pairs() -> None:
    assert parse_weights(" pair=8, hold=4 ") == Weights(pair=8.0, hold=4.0)
    assert changed(Weights(pair=8.0, hold=4.0)) == "pair=8,hold=4"
    assert changed(Weights()) == ""


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--opponent", "grandmaster"], "grandmaster"),
        (["--seats", "1"], "seats must be at least 2"),
        (["--start", "pear=8"], "pear=8"),
        (["--start", "pair=lots"], "'lots' is not a number"),
    ],
)
def test_bad_options_are_refused_naming_what_was_wrong(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*argv, "--check", "--fresh", "1"])
    assert named in capsys.readouterr().err


def test_value_down_weighs_penalty_points_by_the_share_of_opponents_down() -> None:
    """The lever ``value_down`` (0 in ``medium``): each point of a card counts ``value_down`` times the share
    of opponents who are down more, so with nobody down it changes nothing."""
    seen_down = seen_none = False
    for state, seat in decision_points("liverpool", 4, every=7):
        observation = observe(state, seat)
        hand = list(observation.hand)
        share = sum(s.down for s in observation.seats if s.seat != seat) / 3
        plain = MediumBot().shed_scores(observation, hand)
        levered = MediumBot(Weights(value_down=2.0)).shed_scores(observation, hand)
        for card in hand:
            assert levered[card] == pytest.approx(plain[card] - 2.0 * share * observation.rules.value(card))
        seen_down |= share > 0
        seen_none |= share == 0
    assert seen_down and seen_none
