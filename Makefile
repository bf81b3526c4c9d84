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

# A cross build names the target's pkg-config (PKG_CONFIG=aarch64-linux-gnu-pkg-config):
# where that finds no libpcre2-8, the build goes without PCRE2.
PKG_CONFIG   ?= pkg-config
PCRE2_CFLAGS := $(shell $(PKG_CONFIG) --cflags libpcre2-8 2>/dev/null)
PCRE2_LIBS   := $(shell $(PKG_CONFIG) --libs libpcre2-8 2>/dev/null)
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

# Tests of the --engine=pcre2 engine skip exactly when this build has none
# (ACGREP_PCRE2=no); otherwise a binary without it fails them.
ACGREP_PCRE2 = $(if $(PCRE2_LIBS),yes,no)
# bats options, e.g. BATS_FLAGS=--tap or BATS_FLAGS="--jobs 2" (GNU parallel)
BATS_FLAGS ?=
# EMULATOR: what runs a unit test binary (a cross build's qemu)

## unit: build and run the C unit tests (every one, then "ok"/"not ok" for each)
unit: $(UNIT_BIN)
	@st=0; for t in $(UNIT_BIN); do echo "== $$t"; \
		if $(VALGRIND) $(EMULATOR) $$t; then echo "ok $$t"; else echo "not ok $$t"; st=1; fi; \
	done; exit $$st

## cli: run the bats CLI tests against ./acgrep (and check --help against the man page)
cli: acgrep $(O)/ac_count
	@st=0; if tests/help_man_agree.sh; then echo "ok help_man_agree"; else echo "not ok help_man_agree"; st=1; fi; \
	ACGREP_PCRE2=$(ACGREP_PCRE2) AC_COUNT=$(O)/ac_count bats $(BATS_FLAGS) tests/cli || st=1; exit $$st

## diff: run the randomized differential test against grep -F and --engine=pcre2
## (a fixed seed, so CI is repeatable; DIFF_SEED=random or a number to explore)
diff: acgrep
	ACGREP_PCRE2=$(ACGREP_PCRE2) DIFF_SEED=$${DIFF_SEED:-20261129} tests/diff/run.sh

## test: unit + cli + diff tests on the current build
test: unit cli diff

## deps: install what a fresh Debian machine lacks (as root), or say what is missing
deps:
	@tests/deps.sh

# ---- make check: every suite, then a summary (tests/check.sh) ----------------
# One NAME=COMMAND per suite, run in this order, each to its end whatever the
# others did; tests/check.sh counts its TAP lines, its last "N passed, N
# failed" line, or (a build) its exit status.  A new suite (the fuzz smoke
# run) is one more entry here, or CHECK_EXTRA_SUITES='fuzz=$(MAKE) fuzz-smoke'.
WERROR_MAKE = $(MAKE) --no-print-directory EXTRA_CFLAGS=-Werror
CHECK_SUITES = \
	'build=$(WERROR_MAKE) all $(O)/ac_count $(UNIT_BIN)' \
	'unit=$(WERROR_MAKE) unit' \
	'cli=$(WERROR_MAKE) BATS_FLAGS="--tap $(BATS_FLAGS)" cli' \
	'diff=$(WERROR_MAKE) diff' \
	'portable=$(MAKE) --no-print-directory portable' \
	$(CHECK_EXTRA_SUITES)

## check: install dependencies, then from a clean -Werror build every suite (unit,
## cli, diff, portable) and a summary; "N passed, N failed" last
check: deps
	@$(MAKE) --no-print-directory clean
	@tests/check.sh $(O)/check-logs $(CHECK_SUITES)
# ---- end of make check ----------------------------------------------------

## portable: the unit tests on a build without vector kernels or ctz builtin
## (what a CPU other than x86 gets), in build-portable/
portable:
	rm -rf build-portable
	$(MAKE) O=build-portable SIMD=none CTZ=portable EXTRA_CFLAGS=-Werror build-portable/acgrep unit

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
