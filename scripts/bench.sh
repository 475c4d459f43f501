#!/usr/bin/env bash
# make bench: the benchmark venv (.venv-bench), benchmarks/peers.py and benchmarks/hint_latency.py and benchmarks/env_speed.py on one core.
#   bash scripts/bench.sh [--quick] [--profile] [peers.py options]
# The venv holds the project and its peers (RLCard, OpenSpiel, OR-Tools for the oracle, pyinstrument, and
# PettingZoo 1.26.1, the last release with gin rummy, which draws with pygame-ce);
# it is built when missing and refreshed when pyproject.toml or this script changes (a stamp file).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=.venv-bench
STAMP=$VENV/.installed
PEERS=(rlcard==1.2.0 open_spiel==2.0.2 ortools==9.15.6755 pyinstrument==5.1.3 numpy "mypy>=1.11" setuptools
       pettingzoo==1.26.1 pygame-ce)

if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ] || [ scripts/bench.sh -nt "$STAMP" ]; then
    test -x "$VENV/bin/python" || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -e . "${PEERS[@]}"
    touch "$STAMP"
fi

PIN=()
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
    PIN=(taskset -c 0)
else
    echo "taskset is not available: running unpinned" >&2
fi

# Measure a snapshot of the package taken now, so that edits made while the run goes on (several people
# work in this tree) do not mix two versions of the engine in one set of figures.
SNAPSHOT=$(mktemp -d "${TMPDIR:-/tmp}/liverpool-bench-src.XXXXXX")
trap 'rm -rf "$SNAPSHOT"' EXIT
cp -r liverpool "$SNAPSHOT/"
export PYTHONPATH="$SNAPSHOT${PYTHONPATH:+:$PYTHONPATH}"

# The same snapshot compiled with mypyc (scripts/compile.py), measured alongside the pure one. NO_MYPYC=1 skips it.
COMPILED=()
if [ "${NO_MYPYC:-0}" != 1 ]; then
    "$VENV/bin/python" scripts/compile.py --source "$SNAPSHOT/liverpool" "$SNAPSHOT/mypyc" >/dev/null
    COMPILED=(--compiled "$SNAPSHOT/mypyc")
fi

PROFILE=0
ARGS=()
ENV_SECONDS=5
for arg in "$@"; do
    if [ "$arg" = "--profile" ]; then PROFILE=1; else ARGS+=("$arg"); fi
    if [ "$arg" = "--quick" ]; then ENV_SECONDS=1; fi
done

status=0
"${PIN[@]}" "$VENV/bin/python" benchmarks/peers.py "${COMPILED[@]}" "${ARGS[@]}" || status=$?
# Hint latency of the coach at its default budget (issue 30: p99 at most 1 s), pure build, one core.
HINTS=200
for arg in "${ARGS[@]}"; do
    if [ "$arg" = "--quick" ]; then HINTS=40; fi
done
"${PIN[@]}" "$VENV/bin/python" benchmarks/hint_latency.py --hints "$HINTS" || status=$?

# Environment steps per second: liverpool_v0 (pure and compiled) beside PettingZoo's and OpenSpiel's gin rummy.
"${PIN[@]}" "$VENV/bin/python" benchmarks/env_speed.py "${COMPILED[@]}" --seconds "$ENV_SECONDS" \
    --out benchmarks/env_speed.json || status=$?
if [ "$PROFILE" = 1 ]; then
    "${PIN[@]}" "$VENV/bin/python" benchmarks/hotspots.py || status=$?
fi
exit "$status"
