"""The rules matrix in the repository: ``docs/RULES.md`` with numbered rows, and the map of each row to
the Ruleset fields it became, the code that enforces it and its tests (``docs/rules-map.md``).

``docs/RULES.md`` is the project's rules matrix (kept in ``../shared/RULES.md`` beside the checkout) with
a number before every row: ``1.3`` is the third point of section 1, ``3.15`` the fifteenth option of
section 3. Code and tests cite a row as ``RULES.md §3.15 buying: limits`` (the number, then the row's
name); the map is built from those citations, so a rule that nothing cites shows as such.

    python scripts/rules_matrix.py            # rewrite docs/RULES.md (from ../shared/RULES.md) and the map
    python scripts/rules_matrix.py --check    # exit 1 when either file is stale (make test runs the check)
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "RULES.md"
NUMBERED = ROOT / "docs" / "RULES.md"
MAP = ROOT / "docs" / "rules-map.md"
SEARCHED = ("liverpool", "tests", "benchmarks", "scripts")

# A citation: "RULES.md §3.14" (or "RULES §3.14"), optionally followed by more of the row's words.
CITATION = re.compile(r"RULES(?:\.md)? §(\d+)\.(\d+)")
ALSO = re.compile(r"§(\d+)\.(\d+)")  # on a line that cites RULES.md, "§3.20" alone cites a row too
SECTION = re.compile(r"^## (\d+)\. ")
NUMBER = re.compile(r"^(\d+\.\d+)$")


class Row(NamedTuple):
    number: str  # "3.14"
    name: str  # "buying: limits"
    text: str  # the row as written, without its number


def number(text: str) -> str:
    """``text`` (the shared rules matrix) with a number before each bullet, table row and paragraph of
    every numbered section; the heading and the lines before the first section stay as they are."""
    out: list[str] = []
    section = 0
    count = 0
    for line in text.splitlines():
        heading = SECTION.match(line)
        if heading:
            section, count = int(heading.group(1)), 0
            out.append(line)
            continue
        if not section or not line.strip():
            out.append(line)
            continue
        if line.startswith("|"):
            cells = line.strip().strip("|").split("|")
            if all(set(cell.strip()) <= set("-: ") for cell in cells):
                out.append("|---" + line)
            elif out and out[-1].strip() and not out[-1].startswith("|"):
                out.append("| # " + line)  # the header of a table that follows a paragraph
            elif not out or not out[-1].strip():
                out.append("| # " + line)  # the header of a table after a blank line
            else:
                count += 1
                out.append(f"| {section}.{count} " + line)
        elif line.startswith("- "):
            count += 1
            out.append(f"- **{section}.{count}** " + line[2:])
        elif line[0].isspace() or (
            out and out[-1].strip() and not out[-1].startswith(("|", "#", "- ")) and not out[-1].rstrip().endswith(".")
        ):
            out.append(line)  # the rest of a bullet or of a sentence
        else:
            count += 1
            out.append(f"**{section}.{count}** " + line)
    return "\n".join(out) + "\n"


def rows(numbered: str) -> Iterator[Row]:
    """Every numbered row of ``docs/RULES.md``, with the name a citation gives after the number."""
    for line in numbered.splitlines():
        if line.startswith("| ") and not line.startswith("| # "):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if NUMBER.match(cells[0]):
                name = cells[1].strip("`")
                yield Row(cells[0], f"deal {name}" if name.isdigit() else name, " | ".join(cells[1:]))
            continue
        match = re.match(r"^(?:- )?\*\*(\d+\.\d+)\*\* (.*)$", line)
        if match:
            body = match.group(2)
            name = re.split(r"[:.(]", body.replace("**", ""), maxsplit=1)[0].strip()
            yield Row(match.group(1), name, body)


def citations() -> dict[str, list[tuple[str, int]]]:
    """Row number -> the (file, line) places that cite it, over the package, tests, benchmarks and scripts."""
    found: dict[str, list[tuple[str, int]]] = {}
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.name in (Path(__file__).name, "test_rules_doc.py"):  # they show citations, not cite
                continue
            for index, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for match in CITATION.finditer(line) if "RULES" not in line else ALSO.finditer(line):
                    row = f"{match.group(1)}.{match.group(2)}"
                    found.setdefault(row, []).append((str(path.relative_to(ROOT)), index))
    return found


def fields_by_row() -> dict[str, list[str]]:
    """Row number -> the Ruleset fields whose registry entry names it (``FieldInfo.row``)."""
    sys.path.insert(0, str(ROOT))
    from liverpool.engine import field_registry

    found: dict[str, list[str]] = {}
    for info in field_registry():
        for match in CITATION.finditer(f"RULES.md {info.row}"):
            found.setdefault(f"{match.group(1)}.{match.group(2)}", []).append(info.name)
    return found


def readers(field: str) -> list[tuple[str, int]]:
    """The (file, line) places of the package outside the ruleset's own modules that read ``rules.field``."""
    pattern = re.compile(rf"\.{field}\b")
    own = ("liverpool/engine/rules/", "liverpool/cli/rulesfile", "liverpool/rulestext")
    found: list[tuple[str, int]] = []
    for path in sorted((ROOT / "liverpool").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name.startswith(own):
            continue
        for index, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append((name, index))
    return found


def _places(places: list[tuple[str, int]]) -> str:
    files = sorted({path for path, _ in places})  # files, not lines: the map stays current while code moves
    return "<br>".join(f"`{path}`" for path in files) or "—"


def rules_map(numbered: str) -> str:
    """The generated map: each row, its fields, where the package enforces it and which tests check it."""
    cited = citations()
    fields = fields_by_row()
    lines = [
        "# The rules matrix, row by row: fields, code and tests",
        "",
        "Generated by `python scripts/rules_matrix.py` from [RULES.md](RULES.md) and the citations",
        "(`RULES.md §3.15 ...`) in the package, the tests, the benchmarks and the scripts; `make test` fails when",
        "it is stale. A row's fields are the Ruleset fields whose registry entry names it; the code that",
        "enforces a row is where the package cites it and where it reads one of those fields.",
        "",
        "| row | name | fields | enforced in | tested in |",
        "|---|---|---|---|---|",
    ]
    for row in rows(numbered):
        places = cited.get(row.number, [])
        code = [place for place in places if place[0].startswith("liverpool/")]
        code += [place for name in fields.get(row.number, []) for place in readers(name)]
        tests = [place for place in places if not place[0].startswith("liverpool/")]
        names = ", ".join(f"`{name}`" for name in fields.get(row.number, [])) or "—"
        lines.append(f"| {row.number} | {row.name} | {names} | {_places(code)} | {_places(tests)} |")
    unknown = sorted(set(cited) - {row.number for row in rows(numbered)})
    if unknown:
        raise SystemExit(f"citations of rows that RULES.md does not have: {', '.join(unknown)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/RULES.md or the map is stale")
    args = parser.parse_args(argv)
    numbered = number(SHARED.read_text(encoding="utf-8")) if SHARED.is_file() else NUMBERED.read_text("utf-8")
    wanted = {NUMBERED: numbered, MAP: rules_map(numbered)}
    stale = [path for path, text in wanted.items() if not path.is_file() or path.read_text("utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is stale: run python scripts/rules_matrix.py", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(wanted[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
