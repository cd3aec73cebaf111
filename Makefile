# The two commands of the README: `make run` and `make test`. Both start from
# nothing but Python 3.11+: they create .venv and install into it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
HOST   ?= 127.0.0.1
TEST_WORKERS ?= 2

export DJANGO_SETTINGS_MODULE := casino.settings

.PHONY: run test test-slow stop-db lint install install-dev messages bench verify

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed, this is " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e '.[dev]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Serve the casino on the embedded default (a PostgreSQL of its own in var/postgres, started on first
# need and left running; the in-memory channel layer) or on DATABASE_URL's PostgreSQL and REDIS_URL's Redis.
run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py seed_demo --if-empty
	$(BIN)/python manage.py collectstatic --noinput -v0
	@echo ""
	@echo "Casino tables on http://$(HOST):$(PORT)/"
	@echo "  staff login (dealer, pit boss, directors): http://$(HOST):$(PORT)/login/"
	@echo "  dealer's tables:                 http://$(HOST):$(PORT)/tables/        (dana)"
	@echo "  pit-boss console:                http://$(HOST):$(PORT)/tables/pit/    (pat)"
	@echo "  games director's floor:          http://$(HOST):$(PORT)/tables/floor/  (gloria)"
	@echo "  tournament director:             http://$(HOST):$(PORT)/tournaments/   (teo)"
	@echo "  health:                          http://$(HOST):$(PORT)/healthz"
	@echo "  players: a dealer issues a box's QR link from the dealer's tables page"
	@echo ""
	$(BIN)/daphne -b $(HOST) -p $(PORT) casino.asgi:application

# The whole suite but the slow tests: ruff, then pytest. Without DATABASE_URL it runs on the embedded
# PostgreSQL; without REDIS_URL on the in-memory layer, and says loudly what it skipped (.ci/run sets both).
# TEST_WORKERS: pytest-xdist's processes, one per core of the 2-core machine (TEST_WORKERS=0: one process).
test: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	DEBUG=1 $(BIN)/pytest -n $(TEST_WORKERS)

# The slow tests only (each has a fast version in `make test`): the base game's analyser on bigger
# decks, the outage drills, the fuzzer.
test-slow: $(VENV)/.installed-dev
	DEBUG=1 $(BIN)/pytest -m slow

# Stop the embedded PostgreSQL (the next `make run` or `make test` starts it again).
stop-db: $(VENV)/.installed
	$(BIN)/python -m casino.embedded_db stop

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/ruff format --check casino/rules

# Regenerate the translation catalogues (needs GNU gettext; the compiled .mo
# files are committed, so running the app never needs it).
messages: $(VENV)/.installed-dev
	$(BIN)/python manage.py makemessages -l es -l en --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'bench/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

verify: $(VENV)/.installed
	$(BIN)/python manage.py verify_evaluator
	$(BIN)/python manage.py verify_audit
