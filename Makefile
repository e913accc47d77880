# Bordpunt: `make run` serves the demo site, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed

.PHONY: run serve checks check test install lint format migrate demo messages lexicon benchmarks compiled compiled-test clean

# Installed again when pyproject.toml's content differs from what was installed (its
# checksum, kept in the stamp; not its time: every file of a fresh clone is new, and a clone
# whose .venv is already installed from the same pyproject.toml need not wait for pip). The
# venv is made only when there is none (`venv` refuses a .venv that links to another's).
install:
	@if [ "$$(cat $(STAMP) 2>/dev/null)" != "$$(cksum < pyproject.toml)" ]; then \
		echo "Installing the packages into $(VENV)"; \
		{ test -x $(PY) || $(PYTHON) -m venv $(VENV); } && \
		$(BIN)/pip install --quiet --upgrade pip && \
		$(BIN)/pip install --quiet -e '.[dev]' && \
		cksum < pyproject.toml > $(STAMP); \
	fi

# The notifications' worker runs beside the server and stops with it (docs/notifications.md).
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py notifications_schedule
	$(PY) manage.py db_worker --no-reload --verbosity 0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:8000

# Production: refuses with debug on or without DJANGO_SECRET_KEY; migrate, collectstatic,
# gunicorn on $$PORT (8000) with $$WEB_CONCURRENCY workers (2). See docs/deployment.md.
serve: install
	$(PY) -m config.serve

# Python keeps the bytecode it compiles (.pyc beside the sources, ignored by git), even where
# the environment says not to (PYTHONDONTWRITEBYTECODE=1, as in some containers): every
# server, `manage.py` and pytest the suite starts imports the same modules, and compiled
# them afresh each time; pytest's assertion rewriting of the test files is kept the same
# way. docs/testing.md has the figures.
#
# Two tiers (docs/testing.md says which to run when): `make check` is the inner loop, the
# static checks and every test but the browser (marker e2e) and installed-package
# (installed) ones; `make test` is the whole suite, the README's test command.
FAST := not e2e and not installed

checks: export PYTHONDONTWRITEBYTECODE :=
checks: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(PY) manage.py makemigrations --check --dry-run

check: export PYTHONDONTWRITEBYTECODE :=
check: checks
	$(BIN)/pytest -n 2 --dist worksteal --durations=20 -m "$(FAST)" $(PYTEST_ARGS)

# CHECKED=1 leaves the static checks out when they have just run on the same checkout
# (.ci/run: `make check`, then `make test` on PostgreSQL).
test: export PYTHONDONTWRITEBYTECODE :=
test: $(if $(CHECKED),install,checks)
	$(BIN)/pytest -n 2 --dist worksteal --durations=20 $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

messages: install
	$(PY) manage.py makemessages -l nl --ignore '.venv/*' --ignore 'tests/*'
	$(PY) manage.py compilemessages --ignore '.venv/*'

lexicon: install
	$(PY) -m rules build-lexicon

benchmarks: install
	$(PY) benchmarks/rules.py
	$(PY) benchmarks/standings.py
	$(PY) benchmarks/pairing.py
	$(PY) benchmarks/csv_import.py
	$(PY) benchmarks/load.py
	$(PY) benchmarks/devices.py
	$(PY) benchmarks/evening.py
	$(PY) benchmarks/faults.py
	$(PY) benchmarks/backup.py
	$(PY) benchmarks/restore_safety.py
	$(PY) benchmarks/club_evening_pages.py
	$(PY) benchmarks/movegen.py
	$(PY) benchmarks/ratings.py
	$(PY) benchmarks/duplicate.py
	$(PY) benchmarks/hosted.py
	$(PY) benchmarks/installed.py
	$(PY) benchmarks/notifications.py

# The rules engine compiled with mypyc, for hosted servers (docs/deployment.md): extension
# modules in build/compiled/rules, the checkout's rules/*.py untouched. Some minutes on two
# cores. `compiled-test` runs tests/rules against them (tests/compiled_rules.py); the
# docstring examples are not run there (doctest finds none in compiled functions).
compiled: install
	$(PY) deploy/compiled/build.py

compiled-test: compiled
	$(PY) -m pytest -p tests.compiled_rules -n 2 --dist worksteal tests/rules

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build
