"""Performance side by side (issue 4): our engine against RLCard's and OpenSpiel's gin rummy, the contract
search against an integer-programming oracle, memory, and bot decision time.

    make bench                                   # = bash scripts/bench.sh: venv, one core, full run
    bash scripts/bench.sh --quick                # a smaller corpus and fewer games, for development
    .venv-bench/bin/python benchmarks/peers.py --quick --out /tmp/results.json

Each measurement runs in a process of its own (this script with ``--one``), so none inherits another's
warm caches or memory; ``scripts/bench.sh`` pins the whole run to one core. Seeds are fixed. The
figures go to ``benchmarks/results.json`` (``results-quick.json`` for ``--quick``); what each counts is
in ``docs/performance.md`` and in the docstrings of ``games.py``, ``contracts.py`` and ``memory.py``.

Exits 1 when the oracle and the search disagree on any hand (each disagreement is printed), or the oracle's
own melds fail the engine's ``contract_problem``; 2 when a measurement failed.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import inspect
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENGINE_SEATS = (4, 6)
ROUNDS = 5  # head-to-head rounds of the headline games and the peers' (see plan)
COMPILED_KINDS = ("engine", "search", "arrangements", "bots")
PEER_PACKAGES = ("liverpool", "rlcard", "open_spiel", "ortools", "numpy", "pyinstrument")


# -- one measurement (a child process) ------------------------------------------------------------


def _load_sibling(name: str) -> Any | None:
    """``benchmarks/<name>.py`` owned by another engineer, if it exists."""
    if not (HERE / f"{name}.py").exists():
        return None
    return importlib.import_module(name)


def _call_measure(module: Any, values: dict[str, Any]) -> Any:
    """``module.measure`` called with those of ``values`` that it names as parameters."""
    parameters = inspect.signature(module.measure).parameters
    known = {name: values[name] for name in parameters if name in values}
    return module.measure(**known)


def _search_answers(kind: str, hands: int, seed: int, answers: str) -> dict[str, Any]:
    import contracts

    cases = contracts.corpus(hands, seed)
    if kind == "search":
        rows = [[penalty, ns, None] for penalty, ns in contracts.run_ours(cases)]
    else:
        rows = [[penalty, ns, problem] for penalty, ns, problem in contracts.run_oracle(cases)]
    Path(answers).write_text(json.dumps(rows))
    out: dict[str, Any] = contracts.summary([ns for _, ns, _ in rows])
    if kind == "search":
        out["corpus"] = contracts.describe(cases, [penalty for penalty, _, _ in rows])
    return out


def _arrangements(hands: int, seed: int) -> dict[str, Any]:
    """The same corpus through ``find_arrangements`` (up to 8, as ``legal_actions`` lists going down)."""
    import contracts

    from liverpool.engine import find_arrangements

    times = []
    for case in contracts.corpus(hands, seed):
        rules = case.rules
        contract = rules.contract(case.deal)
        start = time.process_time_ns()
        find_arrangements(case.hand, contract, rules, whole_hand=case.whole_hand, keep=case.keep, limit=8)
        times.append(time.process_time_ns() - start)
    return contracts.summary(times)


def _bots(games: int, seed: int, budget_s: float) -> dict[str, Any]:
    module = _load_sibling("bots")
    if module is None:
        return {"note": "n/a: benchmarks/bots.py is missing", "figures": {}}
    values = {"games": games, "seed": seed, "budget_s": budget_s}
    return {"source": "benchmarks/bots.py", "figures": _call_measure(module, values)}


def _search_bench(hands: int, seed: int) -> dict[str, Any]:
    module = _load_sibling("search")
    if module is None:
        return {"note": "benchmarks/search.py is missing"}
    return {"figures": module.measure(hands, seed)}


def run_one(spec: dict[str, Any]) -> dict[str, Any]:
    """One measurement, in this process (``compiled`` in the result: whether the mypyc build ran)."""
    kind = spec.pop("kind")
    build = spec.pop("build", None)
    spec.pop("round", None)
    result = _measure(kind, spec)
    if isinstance(result, dict):
        result["compiled"] = _compiled()
        if build and not result["compiled"]:
            raise RuntimeError(f"asked for the compiled build in {build}, but the pure-Python engine was imported")
    return result


def _compiled() -> bool:
    """Whether the engine imported here is the mypyc build."""
    from liverpool.engine import is_compiled

    return is_compiled()


def _measure(kind: str, spec: dict[str, Any]) -> dict[str, Any]:
    if kind == "engine":
        import games

        return games.engine_games(**spec)
    if kind == "rlcard":
        import games

        return games.rlcard_games(**spec)
    if kind == "openspiel":
        import games

        return games.openspiel_games(**spec)
    if kind in ("search", "oracle"):
        return _search_answers(kind, **spec)
    if kind == "arrangements":
        return _arrangements(**spec)
    if kind == "search-bench":
        return _search_bench(**spec)
    if kind == "memory":
        import memory

        return memory.measure_state(**spec)
    if kind == "server-table":
        import memory

        return memory.measure_server_table(**spec)
    if kind == "bots":
        return _bots(**spec)
    raise ValueError(f"no measurement of kind {kind!r}")


# -- the whole run (the parent process) -------------------------------------------------------------


def plan(quick: bool, seed: int, answers: Path, compiled: Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Every measurement of a run, as ``(label, spec)``. With ``compiled`` (a mypyc build), the engine
    games, the contract search and the bot decisions are measured in both builds; the labels of the
    compiled ones end in ``[mypyc]`` and their specs name the build's directory in ``build``.

    The headline games (the headline build's, ``easy`` bots) and the peers' are played head to head in
    :data:`ROUNDS` rounds (2 with ``quick``): each round plays every configuration's share of our games
    (2 of its 10), then RLCard's share (400 of 2,000), then OpenSpiel's, each in a process of its own; the
    rounds' seeds follow on, so that all the rounds together play the games of one run of the whole. On
    a shared machine whose speed moves by tens of percent within a minute, each round's figures are
    taken within some 15 seconds, and the spread of the rounds' ratios shows how far one ratio can
    be trusted. Each round's specs say which it is (``round``)."""
    import games

    from liverpool.engine import PRESETS

    bot, note = games.engine_bot("easy")
    n_games = 2 if quick else 10
    peer_games = 200 if quick else 2000
    rounds = 2 if quick else ROUNDS
    hands = 1000 if quick else 10_000
    configs = [
        (preset, seats)
        for preset, rules in PRESETS.items()
        for seats in ENGINE_SEATS
        if rules.min_players <= seats <= rules.max_players
    ]
    build = None if compiled is None else str(compiled.resolve())

    def engine(played: str, preset: str, seats: int, count: int, first: int) -> dict[str, Any]:
        return {"kind": "engine", "preset": preset, "seats": seats, "bot": played, "games": count, "seed": first}

    jobs: list[tuple[str, dict[str, Any]]] = []
    bots = [bot] if note else [bot, "random"]
    for played in bots:
        if played == bot and compiled is None:
            continue  # (played in the rounds below)
        for preset, seats in configs:
            jobs.append((f"engine {preset} {seats} seats {played}", engine(played, preset, seats, n_games, seed)))
    suffix = "" if build is None else " [mypyc]"
    if n_games % rounds or peer_games % rounds:
        raise ValueError(f"{n_games} and {peer_games} games do not split into {rounds} equal rounds")
    per_game, per_peer = n_games // rounds, peer_games // rounds
    for r in range(rounds):
        at = f" round {r + 1}/{rounds}"
        for preset, seats in configs:
            spec = {**engine(bot, preset, seats, per_game, seed + r * per_game), "round": r}
            if build is not None:
                spec["build"] = build
            jobs.append((f"engine {preset} {seats} seats {bot}{suffix}{at}", spec))
        for kind, label in (("rlcard", "rlcard gin rummy"), ("openspiel", "openspiel gin rummy")):
            jobs.append((label + at, {"kind": kind, "games": per_peer, "seed": seed + r * per_peer, "round": r}))
    for kind in ("search", "oracle"):
        jobs.append((f"{kind} corpus", {"kind": kind, "hands": hands, "seed": seed, "answers": str(answers / kind)}))
    jobs.append(("find_arrangements corpus", {"kind": "arrangements", "hands": hands, "seed": seed}))
    jobs.append(("benchmarks/search.py", {"kind": "search-bench", "hands": hands, "seed": seed}))
    for kind in ("memory", "server-table"):
        jobs.append((kind, {"kind": kind, "preset": "liverpool", "seats": 4, "bot": bot, "seed": seed}))
    bots_spec = {"kind": "bots", "games": 2 if quick else 5, "seed": seed, "budget_s": 10.0 if quick else 120.0}
    jobs.append(("bot decisions", bots_spec))
    if build is not None:
        twins = []
        for label, spec in jobs:
            if spec["kind"] in COMPILED_KINDS and "round" not in spec:
                if spec["kind"] == "engine" and spec["bot"] == bot:
                    continue  # (the compiled build's are the rounds')
                twin = {**spec, "build": build}
                if "answers" in twin:
                    twin["answers"] = twin["answers"] + "-mypyc"
                twins.append((f"{label} [mypyc]", twin))
        # The compiled build's other games (random bots) run just after the rounds; its other measurements last.
        after = max(i for i, (_, spec) in enumerate(jobs) if "round" in spec) + 1
        compiled_games = [job for job in twins if job[1]["kind"] == "engine"]
        others = [job for job in twins if job[1]["kind"] != "engine"]
        jobs = jobs[:after] + compiled_games + jobs[after:] + others
    return jobs


def run_child(spec: dict[str, Any]) -> dict[str, Any]:
    """One measurement in a fresh process, with its wall time and the machine's load when it ended; a
    spec with a ``build`` runs with that directory first on ``PYTHONPATH``."""
    start = time.perf_counter()
    env = dict(os.environ)
    if spec.get("build"):
        env["PYTHONPATH"] = os.pathsep.join(p for p in (spec["build"], env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--one", json.dumps(spec)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}",
                "stderr": done.stderr[-4000:]}  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall_s"] = time.perf_counter() - start
    result["load_1min_after"] = os.getloadavg()[0]
    return result


def machine() -> dict[str, Any]:
    import liverpool

    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    versions = {}
    for package in PEER_PACKAGES:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False, cwd=HERE
    )
    dirty = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True, check=False, cwd=HERE)
    return {
        "cpu": model or platform.machine(),
        "cores": os.cpu_count(),
        "pinned_to_cores": sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": platform.platform(),
        "packages": versions,
        "measured_package": str(Path(liverpool.__file__).resolve().parent),
        "load_average_at_start": os.getloadavg(),
        "git_commit": commit.stdout.strip() or None,
        "git_dirty": bool(dirty.stdout.strip()),
    }


def _total_rate(results: list[dict[str, Any]], key: str) -> float | None:
    seconds = sum(r["seconds"] for r in results)
    return sum(r[key] for r in results) / seconds if results and seconds else None


def _same_builds(answers: Path, agreement: tuple[int, int, list[str]]) -> tuple[int, int, list[str]]:
    """``agreement`` plus a disagreement for every hand the compiled build answers otherwise than the pure."""
    pure = json.loads((answers / "search").read_text())
    compiled = json.loads((answers / "search-mypyc").read_text())
    differ = [i for i, (a, b) in enumerate(zip(pure, compiled, strict=True)) if a[0] != b[0]]
    lines = [f"hand {i}: the pure search answers {pure[i][0]}, the compiled one {compiled[i][0]}" for i in differ]
    return agreement[0] + len(differ), agreement[1], agreement[2] + lines


def compare_answers(answers: Path, seed: int, hands: int) -> tuple[int, int, list[str]]:
    """(disagreements, certificate problems, lines describing them)."""
    import contracts

    ours = json.loads((answers / "search").read_text())
    theirs = json.loads((answers / "oracle").read_text())
    cases = contracts.corpus(hands, seed)
    lines = []
    disagree = problems = 0
    for i, (case, mine, oracle) in enumerate(zip(cases, ours, theirs, strict=True)):
        if mine[0] != oracle[0]:
            disagree += 1
            lines.append(f"hand {i} ({case.preset} deal {case.deal + 1}, whole_hand={case.whole_hand}, keep={case.keep}): "
                         f"{' '.join(map(str, case.hand))}: search {mine[0]}, oracle {oracle[0]}")  # fmt: skip
        if oracle[2]:
            problems += 1
            lines.append(
                f"hand {i} ({case.preset} deal {case.deal + 1}): the oracle's own melds are wrong: {oracle[2]}"
            )
    return disagree, problems, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a 1,000-hand corpus and fewer games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--out", type=Path, help="results file (default benchmarks/results.json, or results-quick.json)"
    )
    parser.add_argument(
        "--compiled",
        type=Path,
        help="a mypyc-compiled copy of the package (scripts/compile.py): the engine, search and bots are measured in it too",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(json.loads(args.one))))
        return 0

    out = args.out or HERE / ("results-quick.json" if args.quick else "results.json")
    started = datetime.datetime.now(datetime.UTC)
    info = machine()
    print(
        f"machine: {info['cpu']}, {info['cores']} cores (pinned to {info['pinned_to_cores']}), Python {info['python']}, "
        f"load average {info['load_average_at_start'][0]:.2f}"
    )
    results: dict[str, dict[str, Any]] = {}
    failed = []
    with tempfile.TemporaryDirectory(prefix="liverpool-bench-") as tmp:
        jobs = plan(args.quick, args.seed, Path(tmp), args.compiled)
        hands = next(spec["hands"] for _, spec in jobs if spec["kind"] == "search")
        for label, spec in jobs:
            print(f"  {label} ...", end="", flush=True)
            result = run_child(dict(spec))
            results[label] = {"spec": spec, **result}
            if "error" in result:
                failed.append(label)
                print(f" FAILED: {result['error']}")
            else:
                print(" " + _brief(spec["kind"], result))
        agreement = None
        if "error" not in results["search corpus"] and "error" not in results["oracle corpus"]:
            agreement = compare_answers(Path(tmp), args.seed, hands)
            twin = results.get("search corpus [mypyc]")
            if twin is not None and "error" not in twin:
                agreement = _same_builds(Path(tmp), agreement)

    info["load_average_at_end"] = os.getloadavg()
    report = assemble(results, info, started, args.quick, agreement)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print_summary(report)
    print(f"written: {out}")
    if agreement is not None and (agreement[0] or agreement[1]):
        print(f"{agreement[0]} disagreements and {agreement[1]} wrong oracle arrangements:")
        for line in agreement[2]:
            print("  " + line)
        return 1
    if failed:
        print("failed measurements: " + ", ".join(failed))
        return 2
    return 0


def _brief(kind: str, result: dict[str, Any]) -> str:
    if kind in ("engine", "rlcard", "openspiel"):
        return (f"{result['turns_per_s']:,.0f} turns/s, {result['decision_steps_per_s']:,.0f} steps/s, "
                f"{result['games_per_s']:,.2f} games/s")  # fmt: skip
    if kind in ("search", "oracle", "arrangements"):
        return f"median {result['median_us']:,.1f} us, p99 {result['p99_us']:,.1f} us"
    return "done"


_SUMMED = ("games", "warmup_games", "warmup_seconds", "turns", "decision_steps", "seconds", "wall_seconds", "wall_s",
           "chance_steps")  # fmt: skip


def merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One result of games from the results of its parts (the rounds of one configuration): counts and
    seconds summed, rates made again from them, the rest as the first part has it (the machine's load
    as the last); a part that failed stands for the whole."""
    failed = [part for part in parts if "error" in part]
    if failed:
        return failed[0]
    out = {k: v for k, v in parts[0].items() if k != "round"}
    for key in _SUMMED:
        if key in out:
            out[key] = sum(part[key] for part in parts)
    seconds = out["seconds"]
    for key in ("games", "turns", "decision_steps"):
        out[f"{key}_per_s"] = out[key] / seconds if seconds else None
    if "load_1min_after" in parts[-1]:
        out["load_1min_after"] = parts[-1]["load_1min_after"]
    out["rounds"] = len(parts)
    return out


def _of_label(results: dict[str, dict[str, Any]], label: str) -> dict[str, Any]:
    """The result of ``label``, its rounds merged (:func:`merged`) when it was played in rounds."""
    parts = [r for name, r in results.items() if name == label or name.startswith(label + " round ")]
    if not parts:
        raise KeyError(label)
    return merged(parts) if len(parts) > 1 or "round" in parts[0]["spec"] else parts[0]


def head_to_head(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each round's turns per second, ours (the headline games) and the peers', and their ratios."""
    out = []
    by_round: dict[int, dict[str, list[dict[str, Any]]]] = {}
    for r in results.values():
        if "round" in r["spec"]:
            by_round.setdefault(r["spec"]["round"], {}).setdefault(r["spec"]["kind"], []).append(r)
    for number in sorted(by_round):
        kinds = by_round[number]
        rates = {}
        for kind, parts in kinds.items():
            rates[kind] = merged(parts).get("turns_per_s")
        ours, rl, os_ = rates.get("engine"), rates.get("rlcard"), rates.get("openspiel")
        out.append({
            "round": number + 1,
            "engine_turns_per_s": ours,
            "rlcard_gin_turns_per_s": rl,
            "openspiel_gin_turns_per_s": os_,
            "ratio_engine_to_rlcard_turns": ours / rl if ours and rl else None,
            "ratio_engine_to_openspiel_turns": ours / os_ if ours and os_ else None,
        })  # fmt: skip
    return out


def assemble(
    results: dict[str, dict[str, Any]],
    info: dict[str, Any],
    started: datetime.datetime,
    quick: bool,
    agreement: tuple[int, int, list[str]] | None,
) -> dict[str, Any]:
    """The report. Headline figures (``engine_turns_per_s``, ``contract_search_p99_us``, ``oracle_speedup``,
    ``hard_bot_p99_s``) are the compiled build's when one was measured (``engine_build``), else the pure
    one's; both builds' figures are kept under ``builds``."""
    compiled = any(r["spec"].get("build") for r in results.values())
    headline = "mypyc" if compiled else "pure"
    builds = {name: _build_figures(results, name == "mypyc") for name in (("pure", "mypyc") if compiled else ("pure",))}
    top = builds[headline]
    rlcard = _of_label(results, "rlcard gin rummy")
    openspiel = _of_label(results, "openspiel gin rummy")
    oracle = results["oracle corpus"]
    memory = results["memory"]
    table = results["server-table"]

    def get(result: dict[str, Any], key: str) -> Any:
        return result.get(key) if "error" not in result else None

    def ratio(a: float | None, b: float | None) -> float | None:
        return a / b if a and b else None

    rl_turns, os_turns = get(rlcard, "turns_per_s"), get(openspiel, "turns_per_s")
    engine_turns, random_turns = top["engine_turns_per_s"], top["engine_random_turns_per_s"]
    search_median = top["contract_search_median_us"]
    return {
        "date": started.isoformat(timespec="seconds"),
        "quick": quick,
        "machine": info,
        "engine_build": headline,
        "engine_bot": top["engine_bot"],
        "engine_notes": top["engine_notes"],
        "engine_turns_per_s": engine_turns,
        "engine_games_per_s": top["engine_games_per_s"],
        "engine_decision_steps_per_s": top["engine_decision_steps_per_s"],
        "engine_random_turns_per_s": random_turns,
        "engine_random_decision_steps_per_s": top["engine_random_decision_steps_per_s"],
        "engine_pure_turns_per_s": builds["pure"]["engine_turns_per_s"],
        "rlcard_gin_turns_per_s": rl_turns,
        "rlcard_gin_decision_steps_per_s": get(rlcard, "decision_steps_per_s"),
        "openspiel_gin_turns_per_s": os_turns,
        "openspiel_gin_decision_steps_per_s": get(openspiel, "decision_steps_per_s"),
        "ratio_engine_to_rlcard_turns": ratio(engine_turns, rl_turns),
        "ratio_engine_to_openspiel_turns": ratio(engine_turns, os_turns),
        "ratio_engine_random_to_rlcard_turns": ratio(random_turns, rl_turns),
        "ratio_engine_random_to_openspiel_turns": ratio(random_turns, os_turns),
        "head_to_head_rounds": head_to_head(results),
        "contract_search_median_us": search_median,
        "contract_search_p99_us": top["contract_search_p99_us"],
        "contract_search_pure_p99_us": builds["pure"]["contract_search_p99_us"],
        "oracle_median_us": get(oracle, "median_us"),
        "oracle_p99_us": get(oracle, "p99_us"),
        "oracle_speedup": ratio(get(oracle, "median_us"), search_median),
        "oracle_disagreements": agreement[0] if agreement else None,
        "oracle_wrong_arrangements": agreement[1] if agreement else None,
        "corpus": top["corpus"],
        "contract_search": top["contract_search"],
        "oracle": {k: v for k, v in oracle.items() if k != "spec"},
        "find_arrangements": top["find_arrangements"],
        "hard_bot_p99_s": top["hard_bot_p99_s"],
        "hard_bot_note": None if top["hard_bot_p99_s"] is not None else "no figures for a 'hard' bot",
        "bots": top["bots"],
        "memory": {k: v for k, v in memory.items() if k != "spec"},
        "server_table": {k: v for k, v in table.items() if k != "spec"},
        "search_bench": {k: v for k, v in results["benchmarks/search.py"].items() if k != "spec"},
        "builds": builds,
        "peers": {
            "rlcard_gin": {k: v for k, v in rlcard.items() if k != "spec"},
            "openspiel_gin": {k: v for k, v in openspiel.items() if k != "spec"},
        },
        "failed": sorted(label for label, r in results.items() if "error" in r),
    }


def _build_figures(results: dict[str, dict[str, Any]], compiled: bool) -> dict[str, Any]:
    """One build's engine, search and bot figures."""
    mine = {label: r for label, r in results.items() if bool(r["spec"].get("build")) == compiled}

    def one(label: str) -> dict[str, Any]:
        result = mine[label + (" [mypyc]" if compiled else "")]
        return {k: v for k, v in result.items() if k != "spec"}

    by_config: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for r in mine.values():
        if r["spec"]["kind"] == "engine":
            spec = r["spec"]
            by_config.setdefault((spec["preset"], spec["seats"], spec["bot"]), []).append(r)
    engine = [
        merged(parts) if len(parts) > 1 or "round" in parts[0]["spec"] else parts[0] for parts in by_config.values()
    ]
    engine = [r for r in engine if "error" not in r]
    names = [r["bot"] for r in engine]
    headline_bot = next((name for name in names if name != "random"), names[0] if names else None)
    easy = [r for r in engine if r["bot"] == headline_bot]
    randoms = [r for r in engine if r["bot"] == "random"]
    search, bots = one("search corpus"), one("bot decisions")
    figures = bots.get("figures", {}) if isinstance(bots.get("figures"), dict) else {}
    hard = figures.get("hard") if isinstance(figures.get("hard"), dict) else None
    return {
        "engine_bot": headline_bot,
        "engine_notes": sorted({r["note"] for r in engine if r.get("note")}),
        "engine_turns_per_s": _total_rate(easy, "turns"),
        "engine_games_per_s": _total_rate(easy, "games"),
        "engine_decision_steps_per_s": _total_rate(easy, "decision_steps"),
        "engine_random_turns_per_s": _total_rate(randoms, "turns"),
        "engine_random_decision_steps_per_s": _total_rate(randoms, "decision_steps"),
        "contract_search_median_us": search.get("median_us"),
        "contract_search_p99_us": search.get("p99_us"),
        "corpus": search.get("corpus"),
        "contract_search": {k: v for k, v in search.items() if k != "corpus"},
        "find_arrangements": one("find_arrangements corpus"),
        "hard_bot_p99_s": hard.get("p99_s") if hard else None,
        "bots": bots,
        "engine": [{k: v for k, v in r.items() if k != "spec"} for r in engine],
    }


def print_summary(report: dict[str, Any]) -> None:
    def num(value: Any, fmt: str = ",.0f") -> str:
        return "n/a" if value is None else format(value, fmt)

    print()
    if report["engine_build"] == "mypyc":
        pure = report["builds"]["pure"]
        print(f"pure-Python build ({pure['engine_bot']} bots): {num(pure['engine_turns_per_s'])} turns/s; "
              f"contract search median {num(pure['contract_search_median_us'], ',.1f')} us, "
              f"p99 {num(pure['contract_search_p99_us'], ',.1f')} us; hard p99 {num(pure['hard_bot_p99_s'], '.4f')} s")  # fmt: skip
        print("headline figures below: the mypyc build (scripts/compile.py)")
    print(f"our engine ({report['engine_bot']} bots): {num(report['engine_turns_per_s'])} turns/s, "
          f"{num(report['engine_decision_steps_per_s'])} decision steps/s, {num(report['engine_games_per_s'], ',.2f')} games/s")  # fmt: skip
    for note in report["engine_notes"]:
        print(f"  note: {note}")
    if report["engine_bot"] != "random":
        print(f"our engine (random bots): {num(report['engine_random_turns_per_s'])} turns/s")
    print(f"RLCard gin rummy:    {num(report['rlcard_gin_turns_per_s'])} turns/s, "
          f"{num(report['rlcard_gin_decision_steps_per_s'])} decision steps/s")  # fmt: skip
    print(f"OpenSpiel gin rummy: {num(report['openspiel_gin_turns_per_s'])} turns/s, "
          f"{num(report['openspiel_gin_decision_steps_per_s'])} decision steps/s")  # fmt: skip
    print(f"ratio ours / RLCard: {num(report['ratio_engine_to_rlcard_turns'], '.2f')}, "
          f"ours / OpenSpiel: {num(report['ratio_engine_to_openspiel_turns'], '.2f')} (turns per second)")  # fmt: skip
    rounds = [r["ratio_engine_to_openspiel_turns"] for r in report["head_to_head_rounds"]]
    if rounds and all(r is not None for r in rounds):
        shown = ", ".join(f"{r:.2f}" for r in rounds)
        print(f"  ours / OpenSpiel in each of the {len(rounds)} head-to-head rounds: {shown}")
    print(f"contract search: median {num(report['contract_search_median_us'], ',.1f')} us, "
          f"p99 {num(report['contract_search_p99_us'], ',.1f')} us; oracle median {num(report['oracle_median_us'], ',.1f')} us "
          f"(search is {num(report['oracle_speedup'], ',.1f')}x faster); disagreements: {report['oracle_disagreements']}")  # fmt: skip
    state = report["memory"]
    server = report["server_table"]
    print(f"memory: game state {num(state.get('state_bytes'))} B, observation {num(state.get('observation_bytes'))} B, "
          f"server table {num(server.get('table_bytes'))} B {server.get('note') or server.get('error') or ''}")  # fmt: skip
    print(f"hard bot p99 decision: {num(report['hard_bot_p99_s'], '.4f')} s {report['hard_bot_note'] or ''}")


if __name__ == "__main__":
    sys.exit(main())
