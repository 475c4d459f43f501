"""Build a mypyc-compiled copy of the package: the engine's hot core and the bots it runs in rollouts.

    python scripts/compile.py [--source PACKAGE] [TARGET]   # default build/mypyc
    PYTHONPATH=build/mypyc liverpool play                   # then use it

The source tree stays pure Python (every test runs it); this writes a copy of ``liverpool/`` to
``TARGET`` and compiles the modules of :data:`COMPILED` there with mypyc (C extensions next to the
``.py`` files, which Python then imports first). Modules mypyc cannot compile as they are stay Python:
``cards`` (``Card`` subclasses ``int``), ``rules`` (its cached hash lives in the instance ``__dict__``),
``actions`` (compiled, a mistyped action could not even be built, where the engine promises a
``MalformedAction`` from ``apply``)
and modules that are not hot. ``tests/engine/test_compiled.py`` builds it and checks that the compiled engine
plays the golden games of ``tests/engine/test_golden.py`` exactly as the pure one does; ``make bench``
measures both builds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILED = (
    "liverpool/engine/_speed/bits.py",
    "liverpool/engine/_speed/cache.py",
    "liverpool/engine/game/checks.py",
    "liverpool/engine/game/core.py",
    "liverpool/engine/game/perform.py",
    "liverpool/engine/game/scoring.py",
    "liverpool/engine/game/verify.py",
    "liverpool/engine/game/legal.py",
    "liverpool/engine/melds.py",
    "liverpool/engine/observe.py",
    "liverpool/engine/pile_log.py",
    "liverpool/engine/play.py",
    "liverpool/engine/search/__init__.py",
    "liverpool/engine/search/candidates.py",
    "liverpool/engine/search/feasible.py",
    "liverpool/engine/search/kit.py",
    "liverpool/engine/search/layout.py",
    "liverpool/engine/search/tables.py",
    "liverpool/engine/search/members.py",
    "liverpool/engine/search/value.py",
    "liverpool/engine/search/walk.py",
    "liverpool/engine/state.py",
    "liverpool/bots/easy.py",
    "liverpool/bots/hard.py",
    "liverpool/bots/medium.py",
    "liverpool/bots/options.py",
    "liverpool/bots/plan.py",
    "liverpool/bots/plan_setup.py",
    "liverpool/bots/plan_whole.py",
    "liverpool/bots/rollout.py",
    "liverpool/bots/table.py",
    "liverpool/bots/worlds.py",
)


def build(target: Path, quiet: bool = True, source: Path = ROOT / "liverpool") -> list[Path]:
    """Copy the package (``source``) to ``target`` and compile :data:`COMPILED` there; the extensions built."""
    target = target.resolve()
    package = target / "liverpool"
    if package.exists():
        shutil.rmtree(package)
    target.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__", "*.so", "static"))
    # The browser's files are not compiled: the copy links to the source's, so editing them needs no rebuild.
    static = source.resolve() / "server" / "static"
    if static.is_dir():
        (package / "server" / "static").symlink_to(static, target_is_directory=True)
    for stale in target.glob("*__mypyc*.so"):
        stale.unlink()
    # mypyc writes its shared runtime library into the working directory, so it runs inside ``target``.
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *COMPILED],
        cwd=target,
        capture_output=quiet,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"mypyc failed (exit {done.returncode}):\n{(done.stdout or '')[-3000:]}{(done.stderr or '')[-3000:]}"
        )
    built = sorted(package.rglob("*.so"))
    missing = [
        m
        for m in COMPILED
        if not any(p.name.startswith(Path(m).stem + ".") and p.parent == target / Path(m).parent for p in built)
    ]
    if missing:
        raise SystemExit(f"mypyc ran but built no extension for: {', '.join(missing)}")
    return built


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", nargs="?", type=Path, default=ROOT / "build" / "mypyc")
    parser.add_argument("--source", type=Path, default=ROOT / "liverpool", help="the package to compile")
    parser.add_argument(
        "--fallback",
        action="store_true",
        help="when there is no C compiler or mypyc fails, say so, leave no copy and exit 0 (the pure build runs)",
    )
    args = parser.parse_args(argv)
    if not (args.source / "engine" / "__init__.py").is_file():
        parser.error(f"{args.source} is not the liverpool package (no engine/__init__.py)")
    target: Path = args.target
    if args.fallback:
        compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
        if shutil.which(compiler) is None:
            print(f"no C compiler ({compiler}): the pure-Python build runs", file=sys.stderr)
            shutil.rmtree(target / "liverpool", ignore_errors=True)
            return 0
        try:
            built = build(target, quiet=True, source=args.source.resolve())
        except SystemExit as exc:
            print(f"{exc}\nthe compiled build failed: the pure-Python build runs", file=sys.stderr)
            shutil.rmtree(target / "liverpool", ignore_errors=True)
            return 0
    else:
        built = build(target, quiet=False, source=args.source.resolve())
    print(f"compiled {len(built)} modules into {target}; use it with PYTHONPATH={target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
