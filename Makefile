# Shoppable — the two commands the README opens with:
#   make run    install missing system packages, build (release), serve http://127.0.0.1:8080
#   make test   install what the tests need, run unit + in-process tests (with a private
#               PostgreSQL cluster), a short fuzzing run, then end-to-end tests

SWIFT ?= swift
PORT ?= $(or $(SHOPPABLE_PORT),8080)
DATABASE ?= $(or $(SHOPPABLE_DATABASE),var/shoppable.sqlite3)
VENV := .venv
PYTHON := $(VENV)/bin/python

FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5

.PHONY: run test unit-test fuzz fuzz-smoke e2e-test build release deps test-deps bench clean

# SHOPPABLE_DATABASE may name a PostgreSQL URL (docs/DEPLOY.md); it reaches the server through
# the environment, not the command line, so a password in it stays out of `ps`.
run: deps release
	mkdir -p var
	SHOPPABLE_DATABASE='$(DATABASE)' .build/release/shoppable serve --port $(PORT)

test: test-deps unit-test fuzz-smoke e2e-test

# The tests run against a private PostgreSQL cluster too (a free loopback port in a temporary
# directory, SHOPPABLE_TEST_POSTGRES_URL exported), stopped and deleted even when tests fail.
unit-test:
	$(SWIFT) build --build-tests
	scripts/pg-test-cluster run $(SWIFT) test --skip-build --parallel

# libFuzzer + AddressSanitizer on every parser (Fuzz/, docs/SECURITY.md §4): FUZZ_SECONDS
# per target; `make fuzz FUZZ_SECONDS=600` for a long run. Fails on a crash, leak or hang.
fuzz: test-deps
	SWIFT=$(SWIFT) Fuzz/run --seconds $(FUZZ_SECONDS)

# The same for a few seconds per target inside `make test`: every seed, fixture and kept crash
# input (Fuzz/Regressions/) is replayed, then each target fuzzes briefly.
fuzz-smoke: test-deps
	SWIFT=$(SWIFT) Fuzz/run --seconds $(FUZZ_SMOKE_SECONDS)

# Two workers, a test file each at a time (module fixtures start one server per file): the tests
# wait on Chromium and servers much of the time; docs/BENCHMARKS.md, "the CI run".
E2E_WORKERS ?= 2
# Against a private PostgreSQL cluster too: test_two_servers.py runs two servers on it behind nginx.
e2e-test: release $(VENV)/.installed
	scripts/pg-test-cluster run env SHOPPABLE_BINARY=$(CURDIR)/.build/release/shoppable \
		$(PYTHON) -m pytest -q -n $(E2E_WORKERS) --dist loadfile e2e

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product shoppable

deps:
	scripts/install-deps build

test-deps:
	scripts/install-deps test

$(VENV)/.installed: e2e/requirements.txt
	python3 -m venv $(VENV)
	# axe-selenium-python 3.0.0 (axe-core 4.10) declares Python >= 3.12 but runs on 3.11; without the
	# flag pip would pick 2.1.6, whose axe-core 3.1 reports false violations under this Chromium.
	$(VENV)/bin/pip install -q --ignore-requires-python -r e2e/requirements.txt
	touch $@

bench: release
	scripts/install-deps bench
	bench/run

clean:
	rm -rf .build $(VENV)
