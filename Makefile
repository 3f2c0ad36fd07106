# manacalc: `make run` serves on http://127.0.0.1:8000, `make test` runs the tests.
# Needs only Python 3.11+ and make: the virtualenv is created and (re)installed when pyproject.toml changes.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.manacalc-installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help install run serve migrate test lint format openapi bench clean

help:
	@echo "make run      migrate the database and serve on http://$(HOST):$(PORT) (docs at /docs)"
	@echo "make test     run the tests (MANACALC_TEST_DATABASE_URL selects PostgreSQL)"
	@echo "make lint     ruff check, ruff format --check, mypy --strict app/rules"
	@echo "make format   ruff format and fix"
	@echo "make openapi  regenerate openapi/openapi.json"
	@echo "make bench    run the benchmarks in bench/"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/manacalc migrate
	$(BIN)/manacalc serve --host $(HOST) --port $(PORT)

serve: run

migrate: $(STAMP)
	$(BIN)/manacalc migrate

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict app/rules

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

openapi: $(STAMP)
	$(BIN)/manacalc openapi --output openapi/openapi.json

bench: $(STAMP)
	@set -e; for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script; done

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache
