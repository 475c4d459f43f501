"""One public API, a pure engine and no import circles (issue 25 items 1, 2 and 5).

Everything outside ``liverpool/engine`` (bots, server, CLI, terminal client, tournaments, the RL
environment, benchmarks, scripts, examples) imports the engine only as ``liverpool.engine``; the engine
imports only the standard library and itself; no two engine modules import each other, directly or round
a circle, at module level or inside a function; every public name says what it is.
"""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

import liverpool.engine as engine

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "liverpool" / "engine"
CLIENTS = [ROOT / "liverpool", ROOT / "benchmarks", ROOT / "scripts", ROOT / "examples"]


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of each import in ``path``, wherever it stands (relative ones resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = package.rsplit(".", 1)[0] if path.name != "__init__.py" else package.removesuffix(".__init__")
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([module] if module else []))
            found.append((node.lineno, module, [alias.name for alias in node.names]))
    return found


def _client_files() -> list[Path]:
    return [p for top in CLIENTS if top.exists() for p in top.rglob("*.py") if ENGINE not in p.parents]


def _engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def test_clients_import_only_the_public_engine() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in _client_files()
        for line, module, _ in _imports(path)
        if module.startswith("liverpool.engine.")
    ]
    assert len(_client_files()) > 50
    assert not found, "import these from liverpool.engine:\n" + "\n".join(found)


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    found = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in _engine_files()
        for line, module, _ in _imports(path)
        if not (
            module == "liverpool.engine" or module.startswith("liverpool.engine.") or module.split(".")[0] in allowed
        )
    ]
    assert not found, "\n".join(found)


def engine_graph() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports by name (``from package import module`` counts as
    the module; a package's own ``__init__`` run on the way is not counted)."""
    modules = {_module_name(path): path for path in _engine_files()}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for _, module, names in _imports(path):
            if module not in modules:
                continue
            subs = {f"{module}.{n}" for n in names if f"{module}.{n}" in modules}
            targets = subs or {module}
            graph[name] |= targets - {name}
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_engine_has_no_import_circles() -> None:
    graph = engine_graph()
    assert "liverpool.engine.game.verify" in graph["liverpool.engine.game.core"]
    circle = _circle(graph)
    assert circle is None, " -> ".join(circle or [])


def test_the_circle_finder_finds_circles() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None


def test_every_public_engine_name_has_a_docstring() -> None:
    missing = []
    for name in engine.__all__:
        value = getattr(engine, name)
        if (inspect.isclass(value) or inspect.isfunction(value)) and not (value.__doc__ or "").strip():
            missing.append(name)
    assert not missing, missing


def test_the_packages_say_what_their_parts_are() -> None:
    """Each package's ``__init__`` names its modules (the layout is the architecture)."""
    for package in ("rules", "game", "search"):
        text = (ENGINE / package / "__init__.py").read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text)) or ""
        parts = [p.stem for p in (ENGINE / package).glob("*.py") if p.stem != "__init__"]
        assert all(f".{part}" in doc or f"``{part}``" in doc for part in parts), (package, parts, doc[:200])


MAIN_MODULES = [
    "cards",
    "melds",
    "actions",
    "state",
    "observe",
    "play",
    "record",
    "position",
    "rules/ruleset",
    "rules/presets",
    "game/core",
    "game/verify",
    "game/legal",
    "search/__init__",
    "search/reference",
]


def test_the_main_modules_show_themselves_in_a_doctest() -> None:
    """Each main module of the engine carries an example that the doctests run (pytest --doctest-modules)."""
    missing = [name for name in MAIN_MODULES if ">>> " not in (ENGINE / f"{name}.py").read_text(encoding="utf-8")]
    assert not missing, missing
