"""Ruleset files: loading presets and house rules, dumping JSON/TOML, every error path, and the docs."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool.cli.rulesfile import FILE, RulesetFileError, dump_ruleset, format_value, load_ruleset
from liverpool.engine.rules.parts import RulesetError
from liverpool.engine.rules.presets import PRESETS, UnknownPreset, find_preset
from liverpool.engine.rules.ruleset import Ruleset, field_docs, grouped_fields

ROOT = Path(__file__).resolve().parents[2]
PRESET_NAMES = sorted(PRESETS)


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# -- round trips -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "toml"])
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_round_trips_through_a_file(tmp_path: Path, name: str, fmt: str) -> None:
    preset = find_preset(name)
    text = dump_ruleset(preset, "json" if fmt == "json" else "toml")
    path = write(tmp_path, f"copy.{fmt}", text)
    assert load_ruleset(str(path)) == preset


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_dumps_parse_back_to_the_dict_form(name: str) -> None:
    preset = find_preset(name)
    assert json.loads(dump_ruleset(preset, "json")) == preset.to_dict()
    assert Ruleset.from_dict(tomllib.loads(dump_ruleset(preset, "toml"))) == preset
    assert Ruleset.from_json(preset.to_json()) == preset
    assert Ruleset.from_toml(dump_ruleset(preset, "toml")) == preset


def test_toml_writes_missing_numbers_as_none_and_json_as_null() -> None:
    nobuy = find_preset("british-nobuy")
    assert tomllib.loads(dump_ruleset(nobuy, "toml"))["buy_limit"] == "none"
    assert json.loads(dump_ruleset(nobuy, "json"))["buy_limit"] is None


def test_dump_of_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown ruleset format 'yaml'"):
        dump_ruleset(find_preset("liverpool"), "yaml")  # type: ignore[arg-type]


def test_custom_ruleset_round_trips(tmp_path: Path) -> None:
    r = dataclasses.replace(
        find_preset("contract"), name="odd", notes=("ü and ♥ survive",), buy_limit=2, max_reshuffles=None
    )
    for fmt in ("json", "toml"):
        path = write(tmp_path, f"odd.{fmt}", dump_ruleset(r, fmt))
        assert load_ruleset(str(path)) == r


# -- presets and house rules -----------------------------------------------------------------------


def test_a_preset_name_or_alias_loads_the_preset() -> None:
    assert load_ruleset("british") is find_preset("british")
    assert load_ruleset("Norwegian") is find_preset("norsk")


def test_base_and_overrides(tmp_path: Path) -> None:
    path = write(tmp_path, "house.toml", 'base = "british"\nbuy_limit = 5\ndiscard_call = "liverpool"\n')
    r = load_ruleset(str(path))
    british = find_preset("british")
    assert r.buy_limit == 5
    assert r.discard_call.value == "liverpool"
    assert r.name == "house"
    assert r.title == "House rules on british (house.toml)"
    assert r == dataclasses.replace(british, name=r.name, title=r.title, buy_limit=5, discard_call=r.discard_call)


def test_base_may_be_an_alias_and_json(tmp_path: Path) -> None:
    path = write(tmp_path, "house.json", json.dumps({"base": "uk", "name": "ours", "title": "Ours", "upcard": False}))
    r = load_ruleset(str(path))
    assert r == dataclasses.replace(find_preset("british"), name="ours", title="Ours", upcard=False)


def test_without_base_the_missing_fields_are_the_liverpool_rules(tmp_path: Path) -> None:
    path = write(tmp_path, "plain.toml", "cut_bonus = 0\n")
    r = load_ruleset(str(path))
    liverpool = find_preset("liverpool")
    assert r.name == "plain"
    assert r.notes == ()
    assert r == dataclasses.replace(liverpool, name="plain", title=r.title, notes=(), cut_bonus=0)


def test_base_fields_replace_whole_lists(tmp_path: Path) -> None:
    text = 'base = "may-i"\ndeals = [{ contract = "set 3, run 4", hand_size = 11 }]\nnotes = ["short game"]\n'
    r = load_ruleset(str(write(tmp_path, "short.toml", text)))
    assert [str(m) for m in r.contract(0)] == ["set 3", "run 4"]
    assert len(r.deals) == 1 and r.deals[0].hand_size == 11
    assert r.notes == ("short game",)
    assert r.final_deal_buy_limit == 4


def test_from_dict_resolves_the_base_itself() -> None:
    # from_json/from_toml go through from_dict, so a base is never silently ignored.
    assert Ruleset.from_toml('base = "norsk"').upcard is False
    assert Ruleset.from_dict({"base": "norsk"}, base=find_preset("british")).upcard is True
    with pytest.raises(RulesetError, match=r"^base: no preset named 'x'"):
        Ruleset.from_dict({"base": "x"})


def test_optional_numbers_accept_none_null_and_numbers(tmp_path: Path) -> None:
    assert load_ruleset(str(write(tmp_path, "a.toml", 'max_reshuffles = "none"\n'))).max_reshuffles is None
    assert load_ruleset(str(write(tmp_path, "b.json", '{"max_reshuffles": null}'))).max_reshuffles is None
    assert load_ruleset(str(write(tmp_path, "c.toml", "max_reshuffles = 5\n"))).max_reshuffles == 5


# -- errors ----------------------------------------------------------------------------------------

CARD_VALUES_WITHOUT_JOKER = "[card_values]\n" + "\n".join(
    f'"{k}" = 5' for k in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
)

BAD_FILES: list[tuple[str, str | bytes, str, str]] = [
    # (file name, content, field named, words of the message)
    ("bad.json", '{"upcard": true,}', FILE, "not valid JSON at line 1"),
    ("bad.toml", "upcard = \n", FILE, "not valid TOML"),
    ("list.json", "[1, 2]", FILE, "expected a table of ruleset fields, got list"),
    ("latin1.toml", 'title = "caf\xe9"'.encode("latin-1"), FILE, "not UTF-8"),
    ("unknown.toml", 'colour = "red"\n', "colour", "unknown ruleset field"),
    ("base.toml", 'base = "shanghai"\n', "base", "no preset named 'shanghai'"),
    ("basetype.toml", "base = 3\n", "base", "expected a preset name"),
    ("bool.toml", 'upcard = "maybe"\n', "upcard", "expected true or false"),
    ("enum.toml", 'buying = "always"\n', "buying", "expected one of none, before_next_draw"),
    ("enumlist.json", '{"joker_swap": [1]}', "joker_swap", "expected one of"),
    ("int.toml", "cut_bonus = 1.5\n", "cut_bonus", "expected a whole number"),
    ("negative.toml", "buy_limit = -1\n", "buy_limit", "cannot be negative"),
    ("text.toml", "title = 3\n", "title", "expected text"),
    ("notes.toml", "notes = [1]\n", "notes", "expected a list of text"),
    ("values.toml", CARD_VALUES_WITHOUT_JOKER, "card_values", "JK"),
    (
        "contract.toml",
        'deals = [{ contract = "set 3, pair 2", hand_size = 10 }]\n',
        "deals[0].contract",
        "'set 3' or 'run 4'",
    ),
    ("hand.toml", 'deals = [{ contract = "set 3", hand_size = 0 }]\n', "deals[0].hand_size", "must be at least 1"),
    ("short.toml", 'deals = [{ contract = "set 2", hand_size = 10 }]\n', "deals[0].contract", "at least 3 cards"),
    ("longrun.toml", 'deals = [{ contract = "run 14", hand_size = 20 }]\n', "deals[0].contract", "longer than 13"),
    (
        "deckorder.toml",
        "decks = [{ max_players = 8, decks = 3, jokers = 6 }, { max_players = 5, decks = 2, jokers = 4 }]\n",
        "decks[1]",
        "increasing order",
    ),
    ("deckkeys.toml", "decks = [{ max_players = 8, decks = 3 }]\n", "decks[0]", "max_players, decks and jokers"),
    (
        "uncovered.toml",
        "decks = [{ max_players = 5, decks = 2, jokers = 4 }]\n",
        "decks",
        "no deck rule covers 8 players",
    ),
    # RULES.md §3.1 players: a table has 2..8 seats, and min_players <= max_players.
    ("players.toml", "min_players = 6\nmax_players = 5\n", "min_players", "exceeds max_players 5"),
    ("toomany.toml", "max_players = 9\n", "max_players", "at most 8"),
    # RULES.md §3.2 decks / jokers: one deck and a joker cannot deal 12 cards to 5 players (001b's contradiction).
    (
        "decks.toml",
        'base = "contract"\ndecks = [{ max_players = 5, decks = 1, jokers = 1 }]\n',
        "decks",
        "too few for 5 players",
    ),
    # RULES.md §3.4 set constraints (001b: sets of 3-4 cards): a set is never shorter than 3.
    ("setmax.toml", "set_max_length = 2\n", "set_max_length", "at least 3, not 2"),
    (
        "setlong.toml",
        "set_max_length = 3\n" + 'deals = [{ contract = "set 4", hand_size = 10 }]\n',
        "deals[0].contract",
        "exceeds set_max_length 3",
    ),
    # RULES.md §3.7 joker limits (001a, 002): the naturals a run needs cannot exceed the run.
    ("naturals.toml", "run_min_naturals = 5\n", "run_min_naturals", "exceeds the run of 4"),
    ("aces.toml", "aces_low = false\naces_high = false\n", "aces_low", "low, high, or both"),
    # RULES.md §3.30 partnerships (004 Shanghai): teams of two need four seats.
    ("teams.toml", 'base = "norsk"\nmin_players = 5\npartnerships = true\n', "partnerships", "four-seat table"),
]


@pytest.mark.parametrize(("name", "content", "field", "words"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_a_bad_file_is_refused_naming_the_file_and_the_field(
    tmp_path: Path, name: str, content: str | bytes, field: str, words: str
) -> None:
    path = write(tmp_path, name, content)
    with pytest.raises(RulesetFileError) as info:
        load_ruleset(str(path))
    error = info.value
    assert isinstance(error, RulesetError) and isinstance(error, ValueError)
    assert error.path == path
    assert error.field == field
    message = str(error)
    assert message.startswith(f"{path}: ")
    if field != FILE:
        assert message.startswith(f"{path}: {field}: ")
    assert words in message
    assert "\n" not in message


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(RulesetFileError, match=re.escape(f"{path}: no such file")) as info:
        load_ruleset(str(path))
    assert info.value.field == FILE


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "dir.toml"
    path.mkdir()
    with pytest.raises(RulesetFileError, match=re.escape(f"{path}: cannot read")):
        load_ruleset(str(path))


def test_a_file_that_is_not_json_or_toml_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "rules.yaml", "upcard: true\n")
    with pytest.raises(RulesetFileError, match=re.escape(f"{path}: expected a .json or .toml ruleset file")):
        load_ruleset(str(path))


def test_an_unknown_name_is_neither_preset_nor_file() -> None:
    with pytest.raises(UnknownPreset, match=r"no preset named 'shanghai'.*or give a path to a \.json or \.toml file"):
        load_ruleset("shanghai")


# RULES.md §3.1 players, decks / jokers, set constraints: invalid combinations name the field, files or not.
@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"min_players": 6, "max_players": 5}, "min_players"),
        ({"min_players": 1}, "min_players"),
        ({"decks": [{"max_players": 8, "decks": 1, "jokers": 0}]}, "decks"),
        ({"set_max_length": 2}, "set_max_length"),
        ({"buy_penalty_cards": -1}, "buy_penalty_cards"),
        ({"announce_at": -1}, "announce_at"),
        ({"run_joker_spacing": -1}, "run_joker_spacing"),
        ({"set_min_naturals": 0}, "set_min_naturals"),
        ({"card_values": {**find_preset("liverpool").to_dict()["card_values"], "K": -1}}, "card_values.K"),
    ],
)
def test_invalid_combinations_name_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.from_dict(data)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


TEXTS = st.sampled_from(["", "none", "set 3", "run 4", "set 3, run 4", "A", "JK", "max_players", "british", "down"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 60) | TEXTS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from([*field_docs(), "base"]), JSON_VALUES, max_size=3))
def test_any_data_gives_a_ruleset_or_a_ruleset_error(data: dict[str, Any]) -> None:
    try:
        Ruleset.from_dict(data)
    except RulesetError as error:
        assert error.field
        assert str(error).startswith(f"{error.field}: ")


# -- readable form and docs ------------------------------------------------------------------------


def test_every_field_is_in_one_group() -> None:
    listed = [info.name for _, infos in grouped_fields() for info in infos]
    assert sorted(listed) == sorted(field_docs())
    assert len(listed) == len(set(listed))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_field_has_a_doc_and_a_readable_value(name: str) -> None:
    r = find_preset(name)
    for field, doc in field_docs().items():
        assert doc, field
        assert format_value(r, field)


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_rules_doc", ROOT / "scripts" / "gen_rules_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_in_docs_is_up_to_date() -> None:
    script = load_script()
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    assert script.updated(text) == text, "docs/rulesets.md is out of date: run scripts/gen_rules_doc.py"
    assert script.main(["--check"]) == 0


def test_the_reference_has_every_field_and_preset() -> None:
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for field in field_docs():
        assert f"`{field}`" in text
    for name in PRESETS:
        assert f"`{name}`" in text


def test_the_toml_examples_in_docs_load(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    examples = re.findall(r"```toml\n(.*?)```", text, flags=re.DOTALL)
    assert len(examples) >= 2
    loaded = [load_ruleset(str(write(tmp_path, f"example{i}.toml", example))) for i, example in enumerate(examples)]
    house = loaded[0]
    assert house.name == "our-house"
    assert house.buy_limit == 4
    assert house.run_joker_spacing == find_preset("british").run_joker_spacing
    assert len(loaded[1].deals) == 4
