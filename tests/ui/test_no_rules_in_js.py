"""No rule logic in the browser (issue 25.4, STYLE.md 11): whatever depends on a rule comes from the engine
through the server, so a rule constant or a meld check written in ``static/js`` is a copy that can drift.

The checks read the shipped JavaScript; they failed on the JS of before issue 25.4 (board.js's buy-limit
arithmetic, builder.js's meld checks, replay-engine.js, cards.js's joker ranks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from liverpool.engine import field_registry

JS = Path(__file__).resolve().parents[2] / "liverpool" / "server" / "static" / "js"
FORM = "rules-form.js"  # builds inputs from the registry by kind (deals, decks, card_values are kinds)
SHOWN_FIELDS = {"name", "title", "notes", "deals", "min_players", "max_players"}
"""Fields a page may read to show or to shape a form input (the lobby's seat count), never to decide a move."""

RULE_FIELDS = sorted(info.name for info in field_registry() if info.name not in SHOWN_FIELDS)

MELD_CHECKS: dict[str, str] = {
    r"\barrange(Set|Run)\b|\brunPlacements\b|\bparseMeldRule\b": "the builder's own meld checks",
    r"\bmeldStands\b|\bmeldLabel\b": "a meld's label or a joker's rank worked out in the page",
    r"\bReplayState\b|\breplaySteps\b|replay-engine": "the record replayed in the page",
    r"\.low\s*\+": "rank arithmetic on a meld (what a joker stands for, a run's end)",
    r"\bmin_naturals\b|natural cards?\b": "joker limits",
    r"mixes (suits|ranks)|too far apart|one suit|one rank": "run/set validation messages",
    r"buyLimit|buys_allowed\s*-|limit\s*-\s*used": "buy limit arithmetic",
    r"\.length\s*-\s*1\s*\)?\s*;?\s*//\s*final|deals\.length\s*-\s*1": "final-deal arithmetic",
    r"\blength\s*[<>]=?\s*(want|rule\.length)|rule\.length\s*-": "contract arithmetic",
}


def sources() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(JS.glob("*.js"))}


def test_the_replay_engine_is_gone() -> None:
    assert not (JS / "replay-engine.js").exists()


@pytest.mark.parametrize("name", RULE_FIELDS)
def test_no_page_reads_a_rule_field(name: str) -> None:
    """A rule's field named in the JS means the page decides by it (board.js read buy_limit and
    final_deal_buy_limit to count buys left)."""
    read = rf"\brules\??\.{name}\b|\[[\"']{name}[\"']\]|\b{name}\s*:"  # rules.x, rules?.x, ["x"], {x: ...}
    found = [file for file, text in sources().items() if file != FORM and re.search(read, text)]
    assert not found, f"{name} is read in {', '.join(found)}: ask the engine through the server"


@pytest.mark.parametrize("pattern", list(MELD_CHECKS), ids=list(MELD_CHECKS.values()))
def test_no_meld_check_or_rule_arithmetic(pattern: str) -> None:
    found = [
        f"{file}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
        for file, text in sources().items()
        for m in re.finditer(pattern, text)
    ]
    assert not found, f"{MELD_CHECKS[pattern]} in the browser: {'; '.join(found)}"
