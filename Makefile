# `make serve` and `make test` do all set-up on a fresh machine (Python 3.11+ and a C
# compiler; for `make test` also Node.js with npm, for the contract linters, the
# generated TypeScript client and the front end's build check, and Debian's chromium,
# which `make test` installs with apt-get when it is missing).
PYTHON ?= python3
NPM    ?= npm
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-serve
LINTERS := tools/contract
LINT_STAMP := $(LINTERS)/node_modules/.installed
TS_CLIENT := tools/ts-client
TS_STAMP := $(TS_CLIENT)/node_modules/.installed
WEB := web
WEB_STAMP := $(WEB)/node_modules/.installed
CHROMIUM ?= /usr/bin/chromium

.PHONY: install serve test lint format typecheck unit contract-lint openapi words bench bench-bgio clean web chromium check-game

# everything: the service, the embedded Redis and the development tools (make test)
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,embedded,fast]'
	touch $(STAMP) $(SERVE_STAMP)

# only what serving needs (make serve): the service and the embedded Redis. Python
# compiles the modules the server imports when it first starts, not every file of
# every package (--no-compile: a few seconds less to the first answer)
$(SERVE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --no-compile -e '.[embedded,fast]'
	touch $(SERVE_STAMP)

# Redocly and Spectral, pinned by the lock file
$(LINT_STAMP): $(LINTERS)/package.json $(LINTERS)/package-lock.json
	cd $(LINTERS) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $(LINT_STAMP)

# openapi-typescript, openapi-fetch and TypeScript 5 for the generated TypeScript client
# (tests/test_typescript_client.py installs them the same way when they are missing)
$(TS_STAMP): $(TS_CLIENT)/package.json $(TS_CLIENT)/package-lock.json
	cd $(TS_CLIENT) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $(TS_STAMP)

# the browser front end's tools (TypeScript, openapi-typescript, esbuild) and libraries
# (Preact, lean-qr; axe-core for the browser tests), pinned by the lock file
$(WEB_STAMP): $(WEB)/package.json $(WEB)/package-lock.json
	cd $(WEB) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $(WEB_STAMP)

# rebuilds service/static/play from web/src (commit the result; a test checks it is current)
web: $(WEB_STAMP)
	cd $(WEB) && $(NPM) run --silent build

# the browser tests drive Debian's Chromium (Playwright's own browser download is not
# reachable here); installed when missing (root, as CI runs; else through sudo)
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
		else sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; fi; \
	fi

install: $(STAMP) $(LINT_STAMP) $(TS_STAMP) $(WEB_STAMP)

serve: $(SERVE_STAMP)
	$(VENV)/bin/gunicorn --config gunicorn.conf.py 'service:create_app()'

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

typecheck: $(STAMP)
	$(PY) -m mypy

# the contract lints clean (0 errors, 0 warnings) with Redocly and Spectral
contract-lint: $(STAMP) $(LINT_STAMP)
	$(PY) -m pytest -q tests/test_contract_lint.py

# the suite in TEST_WORKERS processes (pytest-xdist; each module's tests stay together so
# a module's servers start once); TEST_WORKERS=0 runs it in this process. The suite
# starts dozens of Python processes (workers, gunicorn servers, programs): they keep
# their bytecode in the venv (PYTHONPYCACHEPREFIX, none beside the sources) even where
# PYTHONDONTWRITEBYTECODE is set, else each compiles the project again (docs/TESTING.md)
TEST_WORKERS ?= 2
unit: $(STAMP) $(LINT_STAMP) $(TS_STAMP) $(WEB_STAMP) chromium
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache \
		$(PY) -m pytest $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadscope)

test: lint typecheck unit

# one game's checks (docs/ARCHITECTURE.md, "Adding a game"): its rules package's doctests,
# its own tests (tests/test_<game>_*.py) and the generic ones (conformance, wire, modes,
# records, answers, its rules document, its recipe, the contract) for it alone: `--game`
# deselects every test whose parameters name another game; the catalogue and event
# gates skip themselves (they need the whole suite)
GAME_TESTS := tests/test_conformance.py tests/test_wire.py tests/test_modes.py \
	tests/test_records.py tests/test_records_http.py tests/test_answers.py \
	tests/test_rules_docs.py tests/test_recipe.py tests/test_openapi.py
check-game: $(STAMP)
	@test -n "$(GAME)" || { echo "usage: make check-game GAME=<slug>"; exit 2; }
	$(PY) -m pytest -q -n $(TEST_WORKERS) --game $(GAME) rules/$(subst -,_,$(GAME)) \
		$(wildcard tests/test_$(subst -,_,$(GAME))_*.py) $(GAME_TESTS)

openapi: $(STAMP)
	$(PY) -m service.openapi_export openapi/openapi.json

words: $(STAMP)
	$(PY) scripts/build_words.py

bench: $(STAMP)
	$(PY) -m bench.run_all

# this service's hosted element-draft side by side with boardgame.io's (bench/README.md);
# needs Node.js 20.18+ with npm and redis-server, installs bench/bgio's packages itself;
# service-pgo also wants Debian's python3.11 (left out, with a line saying so, without it)
bench-bgio: $(STAMP)
	$(PY) -m bench.bgio

clean:
	rm -rf $(VENV) $(LINTERS)/node_modules $(TS_CLIENT)/node_modules $(TS_CLIENT)/out $(WEB)/node_modules $(WEB)/src/generated bench/bgio/node_modules test-artifacts .pytest_cache .mypy_cache .ruff_cache .hypothesis
