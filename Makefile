# acgrep - a grep -F drop-in on an Aho-Corasick engine.
# `make help` lists the targets.

CC      ?= cc
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DESTDIR ?=
CTZ     ?= builtin
O       ?= build

WARNINGS = -Wall -Wextra -Wpedantic -Wshadow -Wpointer-arith -Wcast-qual \
	   -Wstrict-prototypes -Wmissing-prototypes -Wwrite-strings \
	   -Wformat=2 -Wundef -Wvla -Wold-style-definition -Wnull-dereference \
	   -Wdouble-promotion -Wimplicit-fallthrough
OPT      ?= -O2 -g
CFLAGS   ?= $(OPT)
ACFLAGS  = -std=c11 -D_GNU_SOURCE -pthread $(WARNINGS) $(EXTRA_CFLAGS)
ifeq ($(CTZ),portable)
ACFLAGS += -DACGREP_PORTABLE_CTZ
endif
# SIMD=none: no vector kernels (the scalar prefilters every CPU runs)
SIMD    ?= runtime
ifeq ($(SIMD),none)
ACFLAGS += -DACGREP_NO_SIMD
endif

PCRE2_CFLAGS := $(shell pkg-config --cflags libpcre2-8 2>/dev/null)
PCRE2_LIBS   := $(shell pkg-config --libs libpcre2-8 2>/dev/null)
ifeq ($(PCRE2_LIBS),)
ACFLAGS += -DACGREP_NO_PCRE2
else
ACFLAGS += -DACGREP_HAVE_PCRE2 $(PCRE2_CFLAGS)
endif
LDLIBS += $(PCRE2_LIBS) -pthread

SRC      := $(wildcard src/*.c)
LIB_SRC  := $(filter-out src/main.c,$(SRC))
LIB_OBJ  := $(LIB_SRC:src/%.c=$(O)/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/unit/%)

.PHONY: acgrep all help check test unit cli diff asan ubsan tsan valgrind demo install uninstall clean deps bench portable

## all: build ./acgrep (the default)
all: acgrep
	@if [ -z "$(PCRE2_LIBS)" ]; then echo "note: libpcre2-8 not found: the PCRE2 engine (--engine=pcre2) is not compiled in"; fi

acgrep: $(O)/acgrep
	cp $< $@.tmp && mv -f $@.tmp $@

$(O)/acgrep: $(LIB_OBJ) $(O)/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/%.o: src/%.c $(wildcard src/*.h) | $(O)
	$(CC) $(ACFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/unit/%: tests/unit/%.c $(LIB_OBJ) $(wildcard tests/unit/*.h) | $(O)
	@mkdir -p $(O)/unit
	$(CC) $(ACFLAGS) $(CFLAGS) -Isrc $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

# ac_count: acgrep's engine alone, for scripts/perf/hyperscan.sh
$(O)/ac_count: scripts/perf/ac_count.c scripts/perf/count_io.h $(LIB_OBJ) | $(O)
	$(CC) $(ACFLAGS) $(CFLAGS) -Isrc $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)
$(O):
	mkdir -p $(O)

## unit: build and run the C unit tests
unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $(VALGRIND) $$t; done

## cli: run the bats CLI tests against ./acgrep (and check --help against the man page)
cli: acgrep $(O)/ac_count
	tests/help_man_agree.sh
	AC_COUNT=$(O)/ac_count bats tests/cli

## diff: run the randomized differential test against grep -F and --engine=pcre2
## (a fixed seed, so CI is repeatable; DIFF_SEED=random or a number to explore)
diff: acgrep
	DIFF_SEED=$${DIFF_SEED:-20261129} tests/diff/run.sh

## test: unit + cli + diff tests on the current build
test: unit cli diff

## deps: install what a fresh Debian machine lacks (as root), or say what is missing
deps:
	@tests/deps.sh

## check: install dependencies, build with -Werror, run every test
check: deps
	$(MAKE) clean
	$(MAKE) EXTRA_CFLAGS=-Werror all
	$(MAKE) EXTRA_CFLAGS=-Werror test
	$(MAKE) portable
	@echo "make check: all test suites passed"

## portable: the unit tests on a build without vector kernels or ctz builtin
## (what a CPU other than x86 gets), in build-portable/
portable:
	rm -rf build-portable
	$(MAKE) O=build-portable SIMD=none CTZ=portable EXTRA_CFLAGS=-Werror unit

## asan: run the whole suite under AddressSanitizer + UBSan
asan:
	$(MAKE) O=build-asan clean
	$(MAKE) O=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test

## ubsan: run the whole suite under UndefinedBehaviorSanitizer alone
ubsan:
	$(MAKE) O=build-ubsan clean
	$(MAKE) O=build-ubsan OPT="-O1 -g -fsanitize=undefined -fno-sanitize-recover=all" test

## tsan: run the whole suite under ThreadSanitizer (the worker threads)
tsan:
	$(MAKE) O=build-tsan clean
	$(MAKE) O=build-tsan OPT="-O1 -g -fsanitize=thread" test

## valgrind: run the unit tests under valgrind memcheck
valgrind: $(UNIT_BIN)
	$(MAKE) unit VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full"

## demo: search the bundled sample log for the bundled IOC list
demo: acgrep
	./acgrep -n --color=always -F -f examples/iocs.txt examples/access.log; test $$? -le 1

## bench: a few minutes of benchmarks (acgrep vs grep -F vs rg -F); full suite: scripts/perf
bench: acgrep
	scripts/perf/quick.sh

## install: install acgrep and its man page under $(DESTDIR)$(PREFIX)
install: acgrep
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 acgrep $(DESTDIR)$(BINDIR)/acgrep
	install -m 644 man/acgrep.1 $(DESTDIR)$(MANDIR)/man1/acgrep.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/acgrep $(DESTDIR)$(MANDIR)/man1/acgrep.1

clean:
	rm -rf $(O) acgrep

## help: list the targets
help:
	@grep -h '^## ' $(MAKEFILE_LIST) | sed 's/^## /  /'

# ---- fuzzing (tests/fuzz; tests/fuzz/README.md) ----
# libFuzzer targets built with clang and ASan+UBSan in $(FUZZ_DIR); the
# replay driver runs the same targets over files with $(CC) and the
# objects of $(O), so `make fuzz-smoke` works wherever `make` does.
FUZZ_CC      ?= clang
AFL_CC       ?= afl-clang-fast
FUZZ_SECONDS ?= 60
FUZZ_DIR     ?= build-fuzz
FUZZ_TARGETS := matcher patfile opts cli
# No comparison tracing (trace-cmp): in the engine it is loop bounds, and
# costs three quarters of the time (fuzz_matcher: 76 exec/s, was 27).
FUZZ_CFLAGS  ?= -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-sanitize-coverage=trace-cmp
FUZZ_LIB_OBJ := $(LIB_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_HDR     := $(wildcard src/*.h tests/fuzz/*.h tests/unit/pattern_list.h)
# per-target libFuzzer options
FUZZ_ARGS_matcher := -max_len=4096
FUZZ_ARGS_patfile := -max_len=8192
FUZZ_ARGS_opts    := -max_len=1024 -close_fd_mask=3 -dict=tests/fuzz/opts.dict
FUZZ_ARGS_cli     := -max_len=4096
# fuzz_cli runs main() as acgrep_main (acgrep_main.h)
AS_LIB_MAIN  := -Dmain=acgrep_main -include tests/fuzz/acgrep_main.h

.PHONY: fuzz fuzz-build fuzz-smoke fuzz-afl

$(FUZZ_DIR)/obj/%.o: src/%.c $(wildcard src/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ACFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/obj/main_as_lib.o: src/main.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ACFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(AS_LIB_MAIN) -c -o $@ $<

# The harness and its oracle get no coverage instrumentation: their
# branches would steer the fuzzer instead of acgrep's.
$(FUZZ_DIR)/harness/%.o: tests/fuzz/%.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ACFLAGS) $(FUZZ_CFLAGS) -Isrc -Itests/unit -c -o $@ $<

FUZZ_HARNESS_OBJ := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/harness/%.o,$(wildcard tests/fuzz/fuzz_*.c tests/fuzz/naive.c))
.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_HARNESS_OBJ) $(FUZZ_DIR)/obj/main_as_lib.o

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/harness/fuzz_%.o $(FUZZ_DIR)/harness/naive.o $(FUZZ_LIB_OBJ) $(FUZZ_DIR)/obj/main_as_lib.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS) -pthread

$(O)/fuzz/main_as_lib.o: src/main.c $(FUZZ_HDR) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CFLAGS) $(AS_LIB_MAIN) -c -o $@ $<

$(O)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/naive.c $(LIB_OBJ) $(O)/fuzz/main_as_lib.o $(FUZZ_HDR) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CFLAGS) -Isrc -Itests/unit $(LDFLAGS) -o $@ \
		$< tests/fuzz/replay.c tests/fuzz/naive.c $(LIB_OBJ) $(O)/fuzz/main_as_lib.o $(LDLIBS)

## fuzz-build: build the libFuzzer targets (clang) in build-fuzz/
fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

## fuzz: run each fuzz target for FUZZ_SECONDS (default 60) from its seeds
fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/logs
	@set -e; $(foreach t,$(FUZZ_TARGETS),\
	mkdir -p $(FUZZ_DIR)/corpus/$(t) $(FUZZ_DIR)/crashes/$(t); \
	echo "== fuzz_$(t): $(FUZZ_SECONDS) s, log $(FUZZ_DIR)/logs/$(t).log"; \
	$(FUZZ_DIR)/fuzz_$(t) -max_total_time=$(FUZZ_SECONDS) -timeout=30 -print_final_stats=1 \
		-artifact_prefix=$(CURDIR)/$(FUZZ_DIR)/crashes/$(t)/ $(FUZZ_ARGS_$(t)) \
		$(FUZZ_DIR)/corpus/$(t) tests/fuzz/corpus/$(t) >$(FUZZ_DIR)/logs/$(t).log 2>&1 \
		|| { tail -n 60 $(FUZZ_DIR)/logs/$(t).log; exit 1; }; \
	grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units' $(FUZZ_DIR)/logs/$(t).log;)

## fuzz-smoke: replay the committed fuzz seeds (a few seconds; no clang needed)
fuzz-smoke: $(FUZZ_TARGETS:%=$(O)/fuzz/replay_%)
	@set -e; for t in $(FUZZ_TARGETS); do \
		$(O)/fuzz/replay_$$t tests/fuzz/corpus/$$t >$(O)/fuzz/$$t.log 2>&1 \
			|| { tail -n 40 $(O)/fuzz/$$t.log; echo "fuzz-smoke: $$t failed"; exit 1; }; \
		tail -n 1 $(O)/fuzz/$$t.log; \
	done

## fuzz-afl: build the fuzz targets for AFL++ (afl-clang-fast) in build-afl/
fuzz-afl:
	@command -v $(AFL_CC) >/dev/null || { echo "fuzz-afl: $(AFL_CC) not found (apt-get install afl++)"; exit 1; }
	$(MAKE) FUZZ_CC=$(AFL_CC) FUZZ_DIR=build-afl fuzz-build
	@echo "run: AFL_SKIP_CPUFREQ=1 nice -n 19 afl-fuzz -i tests/fuzz/corpus/matcher -o build-afl/out -- build-afl/fuzz_matcher"
