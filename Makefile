# manacalc: `make run` serves on http://127.0.0.1:8000, `make test` runs the tests.
# Needs only Python 3.11+ and make: the virtualenv is created and (re)installed when pyproject.toml changes.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.manacalc-installed
DEV_STAMP := $(VENV)/.manacalc-dev-installed
# Versions pinned for every install (Dockerfile and CI too); regenerate with `make constraints`.
CONSTRAINTS := constraints.txt
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help install install-runtime run serve migrate test lint format openapi bench clean constraints tools

help:
	@echo "make run      migrate the database and serve on http://$(HOST):$(PORT) (docs at /docs)"
	@echo "make test     run the tests (MANACALC_TEST_DATABASE_URL selects PostgreSQL)"
	@echo "make lint     ruff check, ruff format --check, mypy --strict app/rules"
	@echo "make format   ruff format and fix"
	@echo "make openapi  regenerate openapi/openapi.json"
	@echo "make bench    run the benchmarks in bench/"
	@echo "make tools    the Kubernetes validators (checkov, kubernetes-validate) in .venv-tools"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# `make run` installs the runtime dependencies only; `make test` and the other tool targets add the dev extra.
$(STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e .
	@touch $(STAMP)

$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[dev]'
	@touch $(DEV_STAMP)

install-runtime: $(STAMP)

# The validators of deploy/kubernetes, in a virtualenv of their own: checkov pins versions the app's
# constraints disagree with (packaging, python-dateutil). tests/deploy/test_kubernetes.py finds them there.
TOOLS_VENV := .venv-tools
TOOLS_STAMP := $(TOOLS_VENV)/.manacalc-tools-installed
$(TOOLS_STAMP): tools/deploy-lint/requirements.txt
	$(PYTHON) -m venv $(TOOLS_VENV)
	$(TOOLS_VENV)/bin/python -m pip install --quiet -r tools/deploy-lint/requirements.txt
	@touch $(TOOLS_STAMP)

tools: $(TOOLS_STAMP)

install: $(DEV_STAMP)

# Pins every package of a clean venv with the dev extra (run after changing pyproject.toml's dependencies).
constraints:
	rm -rf .venv-constraints && $(PYTHON) -m venv .venv-constraints
	.venv-constraints/bin/python -m pip install --quiet -e '.[dev]'
	{ echo '# Pinned versions for every install (make, Dockerfile, CI): pip freeze of a clean venv with the dev extra.'; \
	  echo '# Regenerate with `make constraints` after changing the dependencies in pyproject.toml.'; \
	  .venv-constraints/bin/python -m pip freeze --exclude-editable | grep -v '^manacalc'; } > $(CONSTRAINTS)
	rm -rf .venv-constraints

run: $(STAMP)
	$(BIN)/manacalc migrate
	$(BIN)/manacalc serve --host $(HOST) --port $(PORT)

serve: run

migrate: $(STAMP)
	$(BIN)/manacalc migrate

test: $(DEV_STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict app/rules

format: $(DEV_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

openapi: $(DEV_STAMP)
	$(BIN)/manacalc openapi --output openapi/openapi.json

bench: $(DEV_STAMP)
	@set -e; for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script; done

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache
