# Every target creates .venv when missing and installs what it needs itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Tests run in parallel processes (pytest-xdist), one per core by default.
TEST_WORKERS ?= auto

.PHONY: run serve play test test-quick bench bench-load soak compile fuzz buy-races clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,rl]'
	touch $(STAMP)

# The compiled build (mypyc) that run, play and the tests of the compiled engine use; rebuilt when a source
# file changes (the browser's files are linked, not copied). Without a C compiler it says so and the pure
# build runs: `liverpool --version` and the server's start line tell which one.
COMPILED_DIR := build/mypyc
COMPILED_STAMP := $(COMPILED_DIR)/.built
ENGINE_SOURCES := $(shell find liverpool -type f -not -path '*/__pycache__/*' -not -path '*/static/*') scripts/compile.py
FAST := PYTHONPATH=$(CURDIR)/$(COMPILED_DIR)

$(COMPILED_STAMP): $(STAMP) $(ENGINE_SOURCES)
	$(BIN)/python scripts/compile.py --fallback $(COMPILED_DIR)
	touch $@

# The product: the table server on http://127.0.0.1:8000 (SQLite file liverpool.db; LIVERPOOL_DB for PostgreSQL).
run: $(COMPILED_STAMP)
	$(FAST) $(BIN)/liverpool serve --host 127.0.0.1 --port 8000

serve: run

# One whole seeded game between bots, printed as a readable log.
play: $(COMPILED_STAMP)
	$(FAST) $(BIN)/liverpool watch --preset liverpool --bots medium,easy,easy,medium --seed 1

# Installs Chromium, PostgreSQL, nginx and Caddy with apt-get when missing and starts PostgreSQL on loopback
# (the nginx and Caddy tests start their own nginx and caddy; no service is started); axe-core (the browser
# tests' accessibility checker) comes from npm into tests/ui/node_modules.
test: $(COMPILED_STAMP)
	bash scripts/ensure_chromium.sh
	bash scripts/ensure_nginx.sh
	bash scripts/ensure_caddy.sh
	bash scripts/ensure_axe.sh
	$(BIN)/ruff check liverpool tests benchmarks scripts examples
	$(BIN)/ruff format --check liverpool tests benchmarks scripts examples
	$(BIN)/mypy liverpool
	PG_URL="$$(bash scripts/ensure_postgres.sh)" && LIVERPOOL_TEST_PG="$$PG_URL" \
		LIVERPOOL_COMPILED_BUILD=$(CURDIR)/$(COMPILED_DIR) $(BIN)/pytest -n $(TEST_WORKERS) --durations=40 liverpool tests

# The developer's loop: lint, types and every test not marked slow, in parallel (a few minutes).
test-quick: $(STAMP)
	$(BIN)/ruff check liverpool tests benchmarks scripts examples
	$(BIN)/ruff format --check liverpool tests benchmarks scripts examples
	$(BIN)/mypy liverpool
	PG_URL="$$(bash scripts/ensure_postgres.sh)" && LIVERPOOL_TEST_PG="$$PG_URL" $(BIN)/pytest -n $(TEST_WORKERS) -m "not slow" liverpool tests

bench: $(STAMP)
	bash scripts/bench.sh

# Server load (docs/performance.md, "Server load"): 200 live tables of four medium bots with a spectator
# each beside a bare websocket echo, then a step search for the most tables one process holds with ping
# p99 <= 50 ms (about 10 minutes); every figure in benchmarks/load.json.
bench-load: $(COMPILED_STAMP)
	$(BIN)/python benchmarks/load.py --tables 200 --search --out benchmarks/load.json

# Soak (docs/performance.md, "Soak"): SOAK_TABLES live tables with a spectator each for SOAK_DURATION seconds,
# the spectators dropping and reconnecting with ?since=, the server restarted by SIGTERM and by SIGKILL on its
# SQLite file; fails on any error, any action lost or not replayed, or RSS growth past the stated bound. A
# progress line every 10 s; every figure in benchmarks/soak.json (about 11 minutes by default).
SOAK_TABLES ?= 200
SOAK_DURATION ?= 600
soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py --tables $(SOAK_TABLES) --duration $(SOAK_DURATION) --out benchmarks/soak.json

# The mypyc-compiled copy of the package in build/mypyc (use it with PYTHONPATH=build/mypyc); needs gcc.
compile: $(COMPILED_STAMP)

# Engine fuzzing (docs/fuzzing.md): random games on every preset and table size, half of the steps illegal
# or mutated, on the pure build and then on the compiled one; fails on any violation. FUZZ_ACTIONS, FUZZ_SEED.
FUZZ_ACTIONS ?= 250000
FUZZ_SEED ?= 1
# (-P: python -m would put the current folder, the pure tree, before PYTHONPATH.)
fuzz: $(STAMP) compile
	PYTHONPATH=. $(BIN)/python -P -m liverpool.fuzz --actions $(FUZZ_ACTIONS) --seed $(FUZZ_SEED)
	PYTHONPATH=build/mypyc $(BIN)/python -P -m liverpool.fuzz --actions $(FUZZ_ACTIONS) --seed $(FUZZ_SEED)

# Issue 26 item 5 in full: BUY_RACES simultaneous-buy races on SQLite and on PostgreSQL (docs/security.md,
# "Simultaneous buys"); about 3 s a race on a busy machine, so the default thousand take close to an hour a store.
BUY_RACES ?= 1000
buy-races: $(STAMP)
	PG_URL="$$(bash scripts/ensure_postgres.sh)" && LIVERPOOL_TEST_PG="$$PG_URL" LIVERPOOL_BUY_ROUNDS=$(BUY_RACES) \
		$(BIN)/pytest -s tests/server/test_server_buys.py

clean:
	rm -rf $(VENV) .venv-bench build
