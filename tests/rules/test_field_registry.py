"""The field registry (issue 25.3): each Ruleset field carries its kind, choices, group, doc and rules-matrix
row, and the codec, ``liverpool rules show``, ``docs/rulesets.md`` and the web form all come from it."""

from __future__ import annotations

import dataclasses
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from server_fixtures import ServerProcess
from typer.testing import CliRunner

from liverpool.cli import app
from liverpool.engine import FieldInfo, FieldKind, Group, Ruleset, RulesetError, field_registry, grouped_fields
from liverpool.engine.rules.fields import META_KEY, decode, field_infos, rule_field

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import rules_matrix  # noqa: E402

JS = ROOT / "liverpool" / "server" / "static" / "js"
INFOS = field_registry()
KIND_OF_DEFAULT: dict[type, FieldKind] = {bool: FieldKind.BOOL, int: FieldKind.INT, str: FieldKind.TEXT}


def matrix_rows() -> set[str]:
    """Each label a field may cite: a numbered row of docs/RULES.md (``§3.15 buying: limits``) or a whole
    section (``§4 presets the engine ships``)."""
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    rows = {f"§{row.number} {row.name}" for row in rules_matrix.rows(text)}
    for line in text.splitlines():
        if heading := re.match(r"## (\d+)\. (.+)", line):
            rows.add(f"§{heading[1]} {heading[2].split(' (')[0].lower()}")
    return rows


def test_every_field_has_complete_metadata() -> None:
    assert [i.name for i in INFOS] == [f.name for f in dataclasses.fields(Ruleset)]
    rows = matrix_rows()
    default = Ruleset()
    for info in INFOS:
        assert isinstance(info.kind, FieldKind) and isinstance(info.group, Group), info.name
        assert info.doc.endswith("."), info.name
        assert info.row in rows, f"{info.name}: {info.row!r} is no row of RULES.md"
        value = getattr(default, info.name)
        if info.kind is FieldKind.CHOICE:
            assert info.enum is not None and isinstance(value, info.enum), info.name
            assert info.choices == tuple(e.value for e in info.enum), info.name
        elif info.kind is FieldKind.OPTIONAL_INT:
            assert value is None or isinstance(value, int), info.name
        elif type(value) in KIND_OF_DEFAULT:
            assert KIND_OF_DEFAULT[type(value)] is info.kind, info.name
        else:
            assert info.kind in (FieldKind.LINES, FieldKind.DECKS, FieldKind.DEALS, FieldKind.CARD_VALUES), info.name


def test_a_field_declared_without_the_registry_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Bare:
        ok: int = rule_field(1, FieldKind.INT, Group.BUYING, "§3.15 buying: limits", "Fine.")
        bare: int = 2

    with pytest.raises(TypeError, match=r"Bare\.bare is not declared with rule_field"):
        field_infos(Bare)
    assert META_KEY in dataclasses.fields(Bare)[0].metadata


def test_groups_hold_every_field_once_in_the_groups_order() -> None:
    grouped = grouped_fields()
    assert [g for g, _ in grouped] == [g for g in Group if any(i.group is g for i in INFOS)]
    assert sorted(i.name for _, infos in grouped for i in infos) == sorted(i.name for i in INFOS)


# -- the codec reads and writes by kind ----------------------------------------------------------------

BAD_BY_KIND: dict[FieldKind, tuple[Any, str]] = {
    FieldKind.TEXT: (3, "expected text"),
    FieldKind.LINES: ("one line", "expected a list of text"),
    FieldKind.INT: ("3", "expected a whole number"),
    FieldKind.OPTIONAL_INT: (True, "expected a whole number"),
    FieldKind.BOOL: ("maybe", "expected true or false"),
    FieldKind.CHOICE: ("sometimes", "expected one of"),
    FieldKind.DECKS: ({}, "expected a list"),
    FieldKind.DEALS: ("set 3", "expected a list"),
    FieldKind.CARD_VALUES: ({"A": 1}, "expected a value for each of"),
}


@pytest.mark.parametrize("info", INFOS, ids=[i.name for i in INFOS])
def test_each_field_is_written_and_read_back_and_refused_by_its_kind(info: FieldInfo) -> None:
    default = Ruleset()
    data = default.to_dict()
    assert list(data) == [i.name for i in INFOS]
    assert Ruleset.from_dict({info.name: data[info.name]}) == default
    bad, message = BAD_BY_KIND[info.kind]
    with pytest.raises(RulesetError, match=f"^{info.name}: {message}") as refused:
        Ruleset.from_dict({info.name: bad})
    assert refused.value.field == info.name


@pytest.mark.parametrize("info", [i for i in INFOS if i.kind is FieldKind.CHOICE], ids=lambda i: i.name)
def test_every_choice_of_a_choice_field_is_read(info: FieldInfo) -> None:
    for choice in info.choices:
        value = decode(info, choice)
        assert isinstance(value, StrEnum) and value.value == choice


@pytest.mark.parametrize("info", [i for i in INFOS if i.minimum is not None], ids=lambda i: i.name)
def test_validation_checks_each_minimum_the_registry_gives(info: FieldInfo) -> None:
    assert info.minimum is not None
    with pytest.raises(RulesetError) as refused:
        Ruleset.from_dict({info.name: info.minimum - 1})
    assert refused.value.field == info.name
    with pytest.raises(RulesetError):  # built directly, not read: the same check
        dataclasses.replace(Ruleset(), **{info.name: info.minimum - 1})


# -- rules show, the docs and the web form come from the registry -------------------------------------


def test_rules_show_gives_every_field_its_group_doc_and_row() -> None:
    result = CliRunner().invoke(
        app, ["rules", "show", "british"], env={"COLUMNS": "400"}
    )  # (wide enough that no cell wraps)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for group, infos in grouped_fields():
        assert group.value in text
        for info in infos:
            assert info.doc in text, info.name
            assert info.row in text, info.name


def test_the_rulesets_doc_gives_every_field_its_row_and_choices() -> None:
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for info in INFOS:
        if info.name in ("deals", "notes"):
            continue
        section = text.split(f"#### `{info.name}`", 1)[1].split("####", 1)[0]
        assert f"RULES.md {info.row}" in section, info.name
        assert info.doc in section, info.name
        for choice in info.choices if info.kind is FieldKind.CHOICE else ():
            assert f"`{choice}`" in section, info.name


def test_the_form_reads_the_registry_from_the_api(lobby_server: ServerProcess) -> None:
    answer = lobby_server.get("/api/rules/fields")
    assert answer.status_code == 200
    assert answer.json()["fields"] == [info.to_dict() for info in INFOS]


def test_the_form_copies_no_field_name_or_choice() -> None:
    source = (JS / "rules-form.js").read_text(encoding="utf-8")
    assert "/api/rules/fields" in source
    for info in INFOS:
        for choice in info.choices:
            if choice not in ("normal", "none") and not choice.isdigit():  # (a new deal row's out, "no limit")
                assert not re.search(rf"[\"'`]{re.escape(choice)}[\"'`]", source), f"{info.name}: {choice}"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("upcard", "maybe", "expected true or false"),
        ("cut_bonus", 1.5, "expected a whole number"),
        ("buy_limit", True, "expected a whole number or none"),
        ("title", 3, "expected text"),
        ("buying", "none", "expected one of none, before_next_draw, after_next_declines"),
    ],
)
def test_a_ruleset_built_in_python_is_checked_by_kind(name: str, value: object, message: str) -> None:
    with pytest.raises(RulesetError, match=f"^{name}: {message}"):
        dataclasses.replace(Ruleset(), **{name: value})
