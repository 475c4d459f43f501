"""The table log in every language (issue 28 item 7, docs/i18n.md): the server sends each event line as
phrases (catalogue keys with parameters taken from the engine's public data, docs/protocol.md), and every
key a phrase can use is in every catalogue, for every kind of action the engine has and every way a deal
can end. The phrases are said here from their JSON as the browser's ``phrases.js`` says them: in English
they give the server's English line word for word (so they carry everything the line says), in bokmål a
line with no English left. The going-down builder's meld titles are checked the same way."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from liverpool.cli.narrate import deal_end_reason, deal_end_words, describe_step, log_keys, step_words
from liverpool.engine import (
    PRESETS,
    Action,
    Card,
    DealEndReason,
    DealResult,
    DealRule,
    GameState,
    MeldRule,
    apply,
    chance_action,
    draft_go_down,
    find_preset,
    is_chance,
    legal_actions,
    new_game,
)
from liverpool.engine.actions import Buy, Call, EndTurn, LayOff, SwapJoker
from liverpool.phrases import Phrase

I18N = Path(__file__).resolve().parents[2] / "liverpool" / "server" / "static" / "i18n"
LANGUAGES = sorted(json.loads((I18N / "languages.json").read_text(encoding="utf-8"))["languages"])
CATALOGUES: dict[str, dict[str, Any]] = {
    code: json.loads((I18N / f"{code}.json").read_text(encoding="utf-8")) for code in LANGUAGES
}
NAMES = ["Ada", "Bob", "Cy", "Di", "Eve", "Flo", "Gus", "Hal"]
ENGLISH_WORDS = re.compile(
    r"\b(draws|takes|from|the|stock|discards?|pile|asks|buy|passes|goes|down|set|run|lays|off|swaps|calls|"
    r"sheds|ends|turn|without|gets|bought|with|penalty|cards?|deal|deals|each|is|went|out|nobody|ran|"
    r"washed|times?|again|empty|into|new|may|not)\b",
    re.IGNORECASE,
)
"""Words of the English log lines that no bokmål line has ("over" and "for" are bokmål too)."""


def _steps() -> Iterator[tuple[GameState, Action, GameState, list[str]]]:
    """Each action of a seeded game of random moves for every preset (buying, swapping, calling, laying off
    and ending the turn whenever offered half of the time), with the states around it."""
    for n, (_, rules) in enumerate(sorted(PRESETS.items())):
        rng = random.Random(n)
        seats = max(rules.min_players, min(rules.max_players, 2 + n % 4))
        state = new_game(rules, seats, 0)
        while not state.is_over:
            if is_chance(state):
                action = chance_action(state, rng)
            else:
                options = legal_actions(state)
                eager = [a for a in options if isinstance(a, Buy | SwapJoker | Call | EndTurn | LayOff)]
                action = (eager or options)[0] if rng.random() < 0.5 else rng.choice(options)
            before = state.clone()
            apply(state, action)
            yield before, action, state, NAMES[:seats]


def keys_of(phrase: dict[str, Any]) -> set[str]:
    """Every catalogue key a phrase as sent needs: its own and those of the phrases in its parameters."""
    found = {phrase["key"]}
    for value in phrase["params"].values():
        if isinstance(value, dict) and "list" in value:
            found.add(value["join"])
            for item in value["list"]:
                found |= keys_of(item)
        elif isinstance(value, dict) and "key" in value:
            found |= keys_of(value)
    return found


def missing(phrases: list[dict[str, Any]], catalogue: dict[str, Any]) -> set[str]:
    return {key for phrase in phrases for key in keys_of(phrase) if key not in catalogue}


def say(phrase: dict[str, Any], catalogue: dict[str, Any], names: list[str]) -> str:
    """A phrase as sent, said with ``catalogue`` as ``phrases.js`` says it (English and bokmål take the
    singular for 1 only)."""

    def value_text(value: Any) -> str:
        if not isinstance(value, dict):
            return str(value)
        if "seat" in value:
            return names[value["seat"]]
        if "card" in value:
            return Card.parse(value["card"]).pretty()
        if "cards" in value:
            return " ".join(Card.parse(card).pretty() for card in value["cards"])
        if "list" in value:
            return str(catalogue[value["join"]]).join(say(item, catalogue, names) for item in value["list"])
        return say(value, catalogue, names)

    message = catalogue[phrase["key"]]
    params = phrase["params"]
    if isinstance(message, dict):
        message = message["one" if params.get("count") == 1 else "other"]
    words = {name: value_text(value) for name, value in params.items()}
    return re.sub(r"\{(\w+)\}", lambda m: words.get(m.group(1), m.group(0)), message)


def test_every_kind_of_action_is_said_from_its_phrases_in_every_language() -> None:
    kinds = set()
    lines = 0
    for before, action, after, names in _steps():
        kinds.add(type(action))
        sent = json.loads(json.dumps([phrase.to_dict() for phrase in step_words(before, action, after)]))
        assert {key for phrase in sent for key in keys_of(phrase)} <= log_keys(), sent
        for code, catalogue in CATALOGUES.items():
            assert not missing(sent, catalogue), f"{code}.json lacks {missing(sent, catalogue)} for {action!r}"
        english = " ".join(say(phrase, CATALOGUES["en"], names) for phrase in sent)
        assert english == describe_step(before, action, after, names)
        norwegian = " ".join(say(phrase, CATALOGUES["nb"], names) for phrase in sent)
        assert "{" not in norwegian and not ENGLISH_WORDS.search(norwegian), (english, norwegian)
        lines += 1
    assert kinds == set(get_args(Action)), f"no game played {set(get_args(Action)) - kinds}"
    assert lines > 1000


@pytest.mark.parametrize("reason", list(DealEndReason))
@pytest.mark.parametrize("washes", [0, 1, 2])
def test_every_way_a_deal_ends_is_said_in_every_language(reason: DealEndReason, washes: int) -> None:
    result = DealResult(
        deal=2,
        went_out=1 if reason is DealEndReason.WENT_OUT else None,
        scores=(0, 0, 0),
        reason=reason,
        hands=((), (), ()),
        points=(0, 0, 0),
        melds=(),
        reshuffles=washes,
    )
    sent = [deal_end_words(result).to_dict()]
    assert keys_of(sent[0]) <= log_keys()
    for code, catalogue in CATALOGUES.items():
        assert not missing(sent, catalogue), f"{code}.json lacks {missing(sent, catalogue)}"
    assert say(sent[0], CATALOGUES["en"], NAMES) == deal_end_reason(result, NAMES)
    norwegian = say(sent[0], CATALOGUES["nb"], NAMES)
    assert "{" not in norwegian and not ENGLISH_WORDS.search(norwegian), norwegian


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_key_the_log_can_use_is_in_the_catalogue(code: str) -> None:
    """``log_keys()`` (the log's keys for every action, meld kind and deal end of the engine, the notes and
    the replay's first step) against each catalogue."""
    assert not log_keys() - set(CATALOGUES[code]), f"{code}.json lacks {sorted(log_keys() - set(CATALOGUES[code]))}"


def test_a_missing_key_is_found() -> None:
    """The checks above fail when a catalogue lacks a key, a nested one included."""
    before, action, after, _ = next((b, a, s, n) for b, a, s, n in _steps() if len(s.results) > len(b.results))
    sent = [phrase.to_dict() for phrase in step_words(before, action, after)]
    nested = keys_of(sent[-1]) - {sent[-1]["key"]}
    assert nested, "a deal's end says its reason as a phrase of its own"
    for key in {sent[-1]["key"], *nested}:
        lacking = {k: v for k, v in CATALOGUES["nb"].items() if k != key}
        assert missing(sent, lacking) == {key}


@pytest.mark.parametrize("longer", [False, True])
@pytest.mark.parametrize("contract", [["set 3", "run 4"], ["run 5", "set 4", "set 3"]])
def test_the_builders_titles_are_said_from_the_drafts_data(contract: list[str], longer: bool) -> None:
    """The builder's meld titles (``builder.title_<kind>``, ``builder.title_longer_<kind>``, from the draft's
    ``kind``, ``length`` and ``at_least``, as ``builder.js`` says them): in English the engine's title, in
    bokmål with no English left."""
    deal = DealRule(tuple(MeldRule.parse(meld) for meld in contract), 11)
    rules = dataclasses.replace(find_preset("liverpool"), deals=(deal,), longer_melds=longer)
    state = new_game(rules, 3, 0)
    apply(state, chance_action(state, random.Random(0)))
    for n, part in enumerate(draft_go_down(state, 1, []).to_dict()["melds"], 1):
        key = f"builder.title_longer_{part['kind']}" if part["at_least"] else f"builder.title_{part['kind']}"
        title = Phrase(key, {"n": n, "length": part["length"]}).to_dict()
        assert say(title, CATALOGUES["en"], NAMES) == part["title"]
        assert not ENGLISH_WORDS.search(say(title, CATALOGUES["nb"], NAMES))
