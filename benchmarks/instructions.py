"""Instructions per hand of the contract search on the corpus of ``contracts.py``, counted by callgrind (a
script, not a test).

Times on a shared machine move by tens of percent from one run to the next (on 2026-12-01 the median of
the same build went from 14 to 25 µs within minutes); an instruction count does not depend on what else
the machine does (the child runs with ``PYTHONHASHSEED=0``, so that string hashing does not vary either).
This counts the instructions of each hand's ``best_leftover``, asked as ``contracts.run_ours`` asks it (in
corpus order, so that the caches it shares across hands fill as they do in the timed run), and prints
their median, p90, p99 and total. Use it to judge a change to the search before a timed run; ``make
bench`` keeps the figures that count, in µs.

    python benchmarks/instructions.py [--hands N] [--seed S] [--build build/mypyc] [--out FILE.json]

``--build`` puts a compiled copy of the package (``make compile``) first on the path, as ``make bench``
measures it. It needs ``valgrind`` (Debian's package). The child process runs under
``valgrind --tool=callgrind``, which counts only inside calls of ``operator.call`` (the C function
``_operator_call``, which nothing else calls) and writes one profile after each: the search is called
through it, hand by hand, and this script reads each profile's total and deletes it.
Some 30 times slower than a plain run: 5 to 8 minutes here for the 10,000 hands of ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOGGLE = "_operator_call"
_PROFILE = re.compile(r"cg\.out\.(\d+)$")


def _child(hands: int, seed: int) -> None:
    """Asks the corpus's questions, each through ``operator.call`` (the counted region)."""
    sys.path.insert(0, str(HERE))
    import contracts

    from liverpool.engine.search import best_leftover

    print(f"search module: {sys.modules['liverpool.engine.search'].__file__}", file=sys.stderr)
    for case in contracts.corpus(hands, seed):
        rules = case.rules
        contract = rules.contract(case.deal)
        operator.call(best_leftover, case.hand, contract, rules, whole_hand=case.whole_hand, keep=case.keep)


def _total(path: Path) -> int:
    """The instructions a callgrind profile counts (its ``summary:`` line)."""
    with path.open() as lines:
        for line in lines:
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise ValueError(f"{path} has no summary line: not a callgrind profile")


def _collect(folder: Path, counts: dict[int, int], keep_last: bool) -> None:
    """Reads and deletes the profiles in ``folder``, but the newest while callgrind may still write it."""
    found = sorted((int(m.group(1)), p) for p in folder.iterdir() if (m := _PROFILE.match(p.name)) is not None)
    if keep_last and found:
        found = found[:-1]
    for number, path in found:
        counts[number] = _total(path)
        path.unlink()


def count(hands: int, seed: int, build: Path | None) -> list[int]:
    """Instructions of each hand's search, in corpus order."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    if build is not None:
        if not (build / "liverpool" / "engine").is_dir():
            raise SystemExit(f"{build} holds no compiled copy of the package: run make compile first")
        env["PYTHONPATH"] = (
            f"{build.resolve()}{os.pathsep}{env['PYTHONPATH']}" if env.get("PYTHONPATH") else str(build.resolve())
        )
    counts: dict[int, int] = {}
    with tempfile.TemporaryDirectory(prefix="liverpool-callgrind.") as tmp:
        folder = Path(tmp)
        command = [
            valgrind, "--tool=callgrind", f"--callgrind-out-file={folder / 'cg.out'}", "--collect-atstart=no",
            f"--toggle-collect={TOGGLE}", f"--dump-after={TOGGLE}", "--dump-line=no", "--dump-instr=no",
            sys.executable, __file__, "--child", "--hands", str(hands), "--seed", str(seed),
        ]  # fmt: skip
        child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        shown = -1
        while child.poll() is None:
            time.sleep(1.0)
            _collect(folder, counts, keep_last=True)
            if len(counts) * 10 // hands != shown:
                shown = len(counts) * 10 // hands
                print(f"  {len(counts):,} of {hands:,} hands", file=sys.stderr)
        errors = child.stderr.read() if child.stderr else ""
        if child.returncode != 0:
            raise SystemExit(f"the counted run failed (exit {child.returncode}):\n{errors[-3000:]}")
        _collect(folder, counts, keep_last=False)
        for line in errors.splitlines():
            if line.startswith("search module:"):
                print(f"  {line}", file=sys.stderr)
    # profile N (cg.out.N) is written after the N-th counted call; the one written at exit is plain cg.out,
    # which _PROFILE does not match
    ordered = [counts[n] for n in sorted(counts)]
    if len(ordered) != hands:
        raise SystemExit(f"expected {hands} profiles with instructions, read {len(ordered)}")
    return ordered


def summary(instructions: list[int]) -> dict[str, float]:
    """Median, p90, p99 (the same rank as ``contracts.summary``), max and total."""
    ordered = sorted(instructions)
    last = len(ordered) - 1
    return {
        "median": statistics.median(ordered),
        "p90": ordered[round(0.90 * last)],
        "p99": ordered[round(0.99 * last)],
        "max": ordered[-1],
        "total": sum(ordered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000, help="corpus size (make bench: 10,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--build", type=Path, help="a compiled copy of the package to count (make compile)")
    parser.add_argument("--out", type=Path, help="also write the per-hand counts and the summary as JSON")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hands < 1:
        parser.error(f"--hands must be at least 1, not {args.hands}")
    if args.child:
        _child(args.hands, args.seed)
        return
    instructions = count(args.hands, args.seed, args.build)
    figures = summary(instructions)
    print(f"{args.hands:,} hands (seed {args.seed}), {args.build or 'pure build'}: instructions per hand")
    print("  " + ", ".join(f"{name} {value:,.0f}" for name, value in figures.items()))
    if args.out:
        args.out.write_text(json.dumps({"summary": figures, "instructions": instructions}))
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
