"""The rules matrix in the repository (issue 25 item 6): ``docs/RULES.md`` numbers every row of the shared
matrix, ``docs/rules-map.md`` maps each row to its fields, code and tests, and every citation in the code
and the tests names a row that exists, by its number and its name."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import rules_matrix  # noqa: E402

NUMBERED = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
ROWS = {row.number: row for row in rules_matrix.rows(NUMBERED)}


def test_the_numbered_matrix_and_its_map_are_current() -> None:
    assert rules_matrix.main(["--check"]) == 0, "run python scripts/rules_matrix.py"


def test_numbering_keeps_the_shared_text_and_numbers_each_row_once() -> None:
    """Taking the numbers out gives the matrix back word for word, and the numbers run 1, 2, 3 in each section."""
    plain = re.sub(r"^(- )?\*\*\d+\.\d+\*\* ", r"\1", NUMBERED, flags=re.M)
    plain = re.sub(r"^\| (#|\d+\.\d+) \|", "|", plain, flags=re.M)
    plain = re.sub(r"^\|---(?=\|)", "", plain, flags=re.M)
    if rules_matrix.SHARED.is_file():
        assert plain == rules_matrix.SHARED.read_text(encoding="utf-8")
    by_section: dict[str, list[int]] = {}
    for number in ROWS:
        section, index = number.split(".")
        by_section.setdefault(section, []).append(int(index))
    assert sorted(by_section) == ["1", "2", "3", "4"]
    for indexes in by_section.values():
        assert indexes == list(range(1, len(indexes) + 1))
    assert ROWS["3.15"].name == "buying: limits" and ROWS["4.4"].name == "norsk"


def test_numbering_refuses_nothing_it_cannot_number() -> None:
    text = "# t\n\n## 1. A\n- one\n  more of one\n- two\n\n## 2. B\n| x | y |\n|---|---|\n| a | b |\nA line.\n"
    numbered = rules_matrix.number(text)
    assert [(row.number, row.name) for row in rules_matrix.rows(numbered)] == [
        ("1.1", "one"),
        ("1.2", "two"),
        ("2.1", "a"),
        ("2.2", "A line"),
    ]


def _citations() -> list[tuple[str, int, str, str]]:
    found = []
    for top in rules_matrix.SEARCHED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.name in ("rules_matrix.py", "test_rules_doc.py"):
                continue
            for index, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "RULES" not in line:
                    continue
                for match in re.finditer(r"§(\d+(?:\.\d+)?)([^\n§]*)", line):
                    found.append((str(path.relative_to(ROOT)), index, match.group(1), match.group(2)))
    return found


def test_every_citation_names_a_row_by_number_and_name() -> None:
    """``RULES.md §3.15 buying: limits``: the number exists, and the words after it, when they name an
    option or a preset, are that row's name (a renumbered matrix cannot leave citations pointing elsewhere).
    A bare section (``RULES.md §3``) cites the whole table."""
    citations = _citations()
    assert len(citations) > 100
    wrong = []
    for path, line, number, rest in citations:
        if "." not in number:
            continue  # a whole section
        if number not in ROWS:
            wrong.append(f"{path}:{line}: §{number} is not a row of docs/RULES.md")
            continue
        said = rest.lstrip(" :").replace("`", "").lower()
        name = ROWS[number].name.lower()
        if number[0] in "34" and said[:1].isalpha() and not said.startswith(name):
            wrong.append(f"{path}:{line}: §{number} is {ROWS[number].name!r}, cited as {rest.strip()[:40]!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("number", [f"3.{index}" for index in range(1, 31)])
def test_every_rule_option_row_is_tested(number: str) -> None:
    """Each option of RULES.md §3 is cited by at least one test, so the map can show where it is checked."""
    assert any(path.startswith("tests/") for path, _ in rules_matrix.citations().get(number, [])), number
