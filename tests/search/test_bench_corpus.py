"""The contract-search corpus of ``make bench`` (``benchmarks/contracts.py``) asks each deal's question as the
engine asks it when a player goes down (``game.checks.go_down_question``): a whole hand where the deal's out
is ``whole_hand``, no card kept where going down goes out (RULES.md §1.1: each deal has a contract; 004's run
of seven goes out at once, whichever deal it is), else a card kept to discard where the preset requires it.
Its figures (``benchmarks/instructions.py``, docs/performance.md) are only comparable across commits while
this holds: after British deal 7 became a deal whose contract goes out (issue 24, item 5) the corpus still
asked it with a card kept, from ``final_deal`` alone."""

from __future__ import annotations

import sys
from pathlib import Path

from liverpool.engine import PRESETS
from liverpool.engine.game.checks import go_down_question
from liverpool.engine.game.core import new_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import contracts


def test_the_corpus_asks_every_deal_as_the_engine_asks() -> None:
    for name, rules in PRESETS.items():
        state = new_game(rules, rules.min_players)
        for deal in range(len(rules.deals)):
            state.deal = deal
            whole_hand, keep, _ = go_down_question(state, ())
            assert contracts.question(rules, deal) == (whole_hand, keep), f"{name}, deal {deal + 1}"
