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
    python benchmarks/instructions.py --build build/mypyc --functions 61:160 [--counts FILE.json]

``--build`` puts a compiled copy of the package (``make compile``) first on the path, as ``make bench``
measures it. It needs ``valgrind`` (Debian's package). The child process runs under
``valgrind --tool=callgrind``, which counts only inside calls of ``operator.call`` (the C function
``_operator_call``, which nothing else calls) and writes one profile after each: the search is called
through it, hand by hand, and this script reads each profile's total and deletes it.
Some 30 times slower than a plain run: 5 to 8 minutes here for the 10,000 hands of ``make bench``.

``--functions A:B`` then says where the instructions of the hands ranked ``A`` to ``B`` go (1 is the
costliest hand; ``61:160`` are the hands around the p99 of 10,000): one more counted run, in corpus order,
counts only those hands, in one profile, and the script prints the package's functions by the share of
those instructions spent in them and in what they call (``callgrind_annotate --inclusive=yes``). The
ranks come from this run's counts, or from ``--counts``, a file an earlier ``--out`` wrote for the same
corpus. It needs ``--build``: in the pure build callgrind sees the interpreter's functions, not ours.
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


def _child(hands: int, seed: int, only: Path | None) -> None:
    """Asks the corpus's questions, each through ``operator.call`` (the counted region); with ``only`` (a
    JSON list of corpus indices), only those hands through it, and the others directly, so that the caches
    shared across hands fill as in the timed run."""
    sys.path.insert(0, str(HERE))
    import contracts

    from liverpool.engine import best_leftover

    counted = set(json.loads(only.read_text())) if only is not None else None
    print(f"search module: {sys.modules['liverpool.engine.search'].__file__}", file=sys.stderr)
    for index, case in enumerate(contracts.corpus(hands, seed)):
        rules = case.rules
        contract = rules.contract(case.deal)
        if counted is None or index in counted:
            operator.call(best_leftover, case.hand, contract, rules, whole_hand=case.whole_hand, keep=case.keep)
        else:
            best_leftover(case.hand, contract, rules, whole_hand=case.whole_hand, keep=case.keep)


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


def _child_env(build: Path | None) -> tuple[str, dict[str, str]]:
    """valgrind's path and the counted child's environment (the compiled ``build`` first on its path)."""
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
    return valgrind, env


def counted_run(child: list[str], build: Path | None, expected: int, noun: str) -> tuple[list[int], str]:
    """Runs ``python <child>`` under callgrind, counting inside each call of ``operator.call`` (one profile
    after each, read and deleted as they come, with progress by tenths of ``expected`` ``noun``), and gives
    the instructions of each counted call in order, and the child's standard output (kept in a file, so
    that a long output cannot block the child)."""
    valgrind, env = _child_env(build)
    counts: dict[int, int] = {}
    with tempfile.TemporaryDirectory(prefix="liverpool-callgrind.") as tmp:
        folder = Path(tmp)
        command = [
            valgrind, "--tool=callgrind", f"--callgrind-out-file={folder / 'cg.out'}", "--collect-atstart=no",
            f"--toggle-collect={TOGGLE}", f"--dump-after={TOGGLE}", "--dump-line=no", "--dump-instr=no",
            sys.executable, *child,
        ]  # fmt: skip
        with (folder / "stdout").open("w+") as out, (folder / "stderr").open("w+") as err:
            process = subprocess.Popen(command, env=env, stdout=out, stderr=err, text=True)
            shown = -1
            while process.poll() is None:
                time.sleep(1.0)
                _collect(folder, counts, keep_last=True)
                if len(counts) * 10 // expected != shown:
                    shown = len(counts) * 10 // expected
                    print(f"  {len(counts):,} of {expected:,} {noun}", file=sys.stderr)
            out.seek(0)
            err.seek(0)
            output, errors = out.read(), err.read()
        if process.returncode != 0:
            raise SystemExit(f"the counted run failed (exit {process.returncode}):\n{errors[-3000:]}")
        _collect(folder, counts, keep_last=False)
        for line in errors.splitlines():
            if line.startswith("search module:"):
                print(f"  {line}", file=sys.stderr)
    # profile N (cg.out.N) is written after the N-th counted call; the one written at exit is plain cg.out,
    # which _PROFILE does not match
    return [counts[n] for n in sorted(counts)], output


def count(hands: int, seed: int, build: Path | None) -> list[int]:
    """Instructions of each hand's search, in corpus order."""
    ordered, _ = counted_run([__file__, "--child", "--hands", str(hands), "--seed", str(seed)], build, hands, "hands")
    if len(ordered) != hands:
        raise SystemExit(f"expected {hands} profiles with instructions, read {len(ordered)}")
    return ordered


# a line of callgrind_annotate's listing: instructions, share, then the file and the function
_ANNOTATED = re.compile(r"^\s*([\d,]+)\s+\(\s*([\d.]+)%\)\s+(\S+)")


def functions(hands: int, seed: int, build: Path, ranked: list[int], first: int, last: int) -> list[tuple[float, str]]:
    """The share of the instructions of the hands ranked ``first`` to ``last`` (``ranked``: corpus indices,
    costliest first) spent in each of the package's compiled functions and what they call, largest first."""
    valgrind, env = _child_env(build)
    annotate = shutil.which("callgrind_annotate")
    if annotate is None:
        raise SystemExit("callgrind_annotate is not installed (Debian: it comes with valgrind)")
    with tempfile.TemporaryDirectory(prefix="liverpool-callgrind.") as tmp:
        folder = Path(tmp)
        only = folder / "hands.json"
        only.write_text(json.dumps(ranked[first - 1 : last]))
        command = [
            valgrind, "--tool=callgrind", f"--callgrind-out-file={folder / 'cg.out'}", "--collect-atstart=no",
            f"--toggle-collect={TOGGLE}", "--dump-instr=no", sys.executable, __file__, "--child", "--hands",
            str(hands), "--seed", str(seed), "--only", str(only),
        ]  # fmt: skip
        print(f"  profiling the hands ranked {first:,} to {last:,} (one more counted run)", file=sys.stderr)
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the counted run failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
        listing = subprocess.run(
            [annotate, "--inclusive=yes", str(folder / "cg.out")], capture_output=True, text=True, check=True
        ).stdout
    shares: dict[str, float] = {}
    for line in listing.splitlines():
        found = _ANNOTATED.match(line)
        if found is None or ":CPyDef_" not in found.group(3):
            continue
        name = found.group(3).split(":CPyDef_", 1)[1]
        if "'" in name:  # a call of a function from inside itself: counted in its outer call already
            continue
        dotted = ".".join(name.split("___"))
        shares[dotted] = max(shares.get(dotted, 0.0), float(found.group(2)))
    return sorted(((share, name) for name, share in shares.items()), reverse=True)


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
    parser.add_argument(
        "--functions", metavar="A:B", help="then profile the hands ranked A to B (1: the costliest) by function"
    )
    parser.add_argument("--counts", type=Path, help="with --functions: rank the hands by this --out file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hands < 1:
        parser.error(f"--hands must be at least 1, not {args.hands}")
    if args.child:
        _child(args.hands, args.seed, args.only)
        return
    ranks = None
    if args.functions is not None:
        first, _, last = args.functions.partition(":")
        if not (first.isdigit() and last.isdigit() and 1 <= int(first) <= int(last) <= args.hands):
            parser.error(f"--functions takes two ranks A:B with 1 <= A <= B <= {args.hands}, not {args.functions!r}")
        if args.build is None:
            parser.error("--functions needs --build: in the pure build callgrind sees the interpreter's functions")
        ranks = (int(first), int(last))
    elif args.counts is not None:
        parser.error("--counts is read only with --functions")
    if args.counts is not None:
        try:
            instructions = json.loads(args.counts.read_text())["instructions"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--counts {args.counts}: not a file written by --out ({error})")
        if len(instructions) != args.hands:
            parser.error(f"--counts {args.counts} has {len(instructions):,} hands, not {args.hands:,} (--hands)")
    else:
        instructions = count(args.hands, args.seed, args.build)
        figures = summary(instructions)
        print(f"{args.hands:,} hands (seed {args.seed}), {args.build or 'pure build'}: instructions per hand")
        print("  " + ", ".join(f"{name} {value:,.0f}" for name, value in figures.items()))
        if args.out:
            args.out.write_text(json.dumps({"summary": figures, "instructions": instructions}))
            print(f"written: {args.out}")
    if ranks is not None:
        assert args.build is not None
        ranked = sorted(range(len(instructions)), key=lambda i: instructions[i], reverse=True)
        chosen = [instructions[i] for i in ranked[ranks[0] - 1 : ranks[1]]]
        print(f"the hands ranked {ranks[0]:,} to {ranks[1]:,}: {min(chosen):,} to {max(chosen):,} instructions each")
        for share, name in functions(args.hands, args.seed, args.build, ranked, *ranks)[:30]:
            print(f"  {share:5.1f}%  {name}")


if __name__ == "__main__":
    main()
