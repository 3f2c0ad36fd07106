# manacalc: `make run` serves on http://127.0.0.1:8000, `make test` runs the tests.
# Needs only Python 3.11+ and make: the virtualenvs are created and (re)installed when their inputs change.
# `make run` serves a built wheel whose rules core is compiled with mypyc where a C compiler exists (setup.py),
# in its own virtualenv (.venv-run); `make test` and the tools use an editable install of the pure sources (.venv).

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
RUN_VENV ?= .venv-run
RUN_STAMP := $(RUN_VENV)/.manacalc-installed
WHEEL_DIR := build/wheel
WHEEL_STAMP := $(WHEEL_DIR)/.built
# The compiled core unpacked where tests/test_compiled_core.py finds it (beside, never over, the sources).
COMPILED_DIR := build/compiled-core
COMPILED_STAMP := $(COMPILED_DIR)/.unpacked
APP_SOURCES := $(shell find app -type f -not -path '*/__pycache__/*' -not -name '*.so' 2>/dev/null)

.PHONY: help install install-runtime run serve migrate test lint format openapi bench clean constraints wheel compiled install-run tools

help:
	@echo "make run      migrate the database and serve on http://$(HOST):$(PORT) (docs at /docs)"
	@echo "make test     run the tests (MANACALC_TEST_DATABASE_URL selects PostgreSQL)"
	@echo "make lint     ruff check, ruff format --check, mypy --strict app"
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

# A wheel of the service, its rules core compiled when a C compiler exists (MANACALC_COMPILE=0: pure).
# The stamp takes the time the build started: a source saved while mypyc compiles is newer, and rebuilt next.
$(WHEEL_STAMP): pyproject.toml setup.py tools/mypyc.ini $(APP_SOURCES)
	rm -rf $(WHEEL_DIR)
	mkdir -p $(WHEEL_DIR) && touch $(WHEEL_DIR)/.started
	$(PYTHON) -m pip wheel --quiet --no-deps --wheel-dir $(WHEEL_DIR) .
	@touch -r $(WHEEL_DIR)/.started $(WHEEL_STAMP)

wheel: $(WHEEL_STAMP)

install-run: $(RUN_STAMP)

# What `make run` serves: the built wheel in a virtualenv of its own, dependencies pinned by constraints.txt.
# The second install replaces a wheel of the same version built from older sources.
$(RUN_STAMP): $(WHEEL_STAMP) $(CONSTRAINTS)
	test -x $(RUN_VENV)/bin/python || $(PYTHON) -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/python -m pip install --quiet -c $(CONSTRAINTS) $(WHEEL_DIR)/manacalc-*.whl
	$(RUN_VENV)/bin/python -m pip install --quiet --no-deps --force-reinstall $(WHEEL_DIR)/manacalc-*.whl
	@touch $(RUN_STAMP)

# The built rules core unpacked for the test that compares it with the pure one, answer for answer.
# Its migrations are the wheel's (its data files), put where app.db.migrate looks beside a checkout, so that
# MANACALC_TEST_BUILD=compiled runs the tests on what the wheel ships (DEVELOPERS.md, "What ships").
$(COMPILED_STAMP): $(WHEEL_STAMP)
	rm -rf $(COMPILED_DIR)
	$(PYTHON) -m zipfile -e $(WHEEL_DIR)/manacalc-*.whl $(COMPILED_DIR)
	cp -a $(COMPILED_DIR)/manacalc-*.data/data/share/manacalc/migrations $(COMPILED_DIR)/migrations
	@touch $(COMPILED_STAMP)

compiled: $(COMPILED_STAMP)
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

run: $(RUN_STAMP)
	$(RUN_VENV)/bin/manacalc migrate
	$(RUN_VENV)/bin/manacalc serve --host $(HOST) --port $(PORT)

serve: run

migrate: $(RUN_STAMP)
	$(RUN_VENV)/bin/manacalc migrate

test: $(DEV_STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict app

format: $(DEV_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

openapi: $(DEV_STAMP)
	$(BIN)/manacalc openapi --output openapi/openapi.json

bench: $(DEV_STAMP)
	@set -e; for script in bench/[!_]*.py; do echo "== $$script"; $(BIN)/python $$script; done

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache $(RUN_VENV)
