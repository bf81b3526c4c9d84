# SPDX-License-Identifier: MIT
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
# --decompress's libraries, each optional: linked where $(CC) finds its header
# and library (so a cross or -m32 build without them goes without), listed by
# --version.
have_lib = $(shell printf '\043include <$(1)>\nint main(void) { return 0; }\n' | \
	$(CC) -x c - -o /dev/null $(2) 2>/dev/null && echo '$(2)')
ZLIB_LIBS  := $(call have_lib,zlib.h,-lz)
LZMA_LIBS  := $(call have_lib,lzma.h,-llzma)
ZSTD_LIBS  := $(call have_lib,zstd.h,-lzstd)
BZIP2_LIBS := $(call have_lib,bzlib.h,-lbz2)
ACFLAGS += $(if $(ZLIB_LIBS),-DACGREP_HAVE_ZLIB) $(if $(LZMA_LIBS),-DACGREP_HAVE_LZMA) \
	   $(if $(ZSTD_LIBS),-DACGREP_HAVE_ZSTD) $(if $(BZIP2_LIBS),-DACGREP_HAVE_BZIP2)
LDLIBS += $(ZLIB_LIBS) $(LZMA_LIBS) $(ZSTD_LIBS) $(BZIP2_LIBS)

# Three layers, each seeing only the headers of those below it:
# src/engine (the automaton, prefilters, SIMD kernels; a static library),
# src/grep (grep's rules over files and output), src/cli (main, options).
# (libacgrep.c, the library's public API, is built into libacgrep alone)
ENGINE_SRC := $(filter-out src/engine/libacgrep.c,$(wildcard src/engine/*.c))
GREP_SRC   := $(wildcard src/grep/*/*.c)
CLI_SRC    := $(filter-out src/cli/main.c,$(wildcard src/cli/*.c))
GREP_HDR   := $(wildcard src/grep/*/*.h)
HDR        := $(wildcard src/engine/*.h src/cli/*.h) $(GREP_HDR)
INC_engine := -Isrc/engine
INC_grep   := -Isrc/engine -Isrc/grep
INC_cli    := -Isrc/engine -Isrc/grep -Isrc/cli
INC_ALL    := $(INC_cli)
ENGINE_OBJ := $(ENGINE_SRC:src/%.c=$(O)/%.o)
ENGINE_LIB := $(O)/libacengine.a
LIB_SRC  := $(ENGINE_SRC) $(GREP_SRC) $(CLI_SRC)
# everything but main.o, the engine last as the library it is
LIB_OBJ  := $(patsubst src/%.c,$(O)/%.o,$(GREP_SRC) $(CLI_SRC)) $(ENGINE_LIB)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/unit/%)

.PHONY: acgrep all help check test unit cli diff fault stress asan ubsan tsan valgrind demo install uninstall clean deps bench portable dist static static-check

## all: build ./acgrep (the default)
all: acgrep
	@if [ -z "$(PCRE2_LIBS)" ]; then echo "note: libpcre2-8 not found: the PCRE2 engine (--engine=pcre2) is not compiled in"; fi

acgrep: $(O)/acgrep
	cp $< $@.tmp && mv -f $@.tmp $@

$(O)/acgrep: $(LIB_OBJ) $(O)/cli/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The vector kernels' block loops start on a 32-byte boundary, so that their
# speed does not move with the size of unrelated code before them (an AVX-512
# Teddy loop left off it ran 2% slower on the same instructions).
KERNEL_OBJ := $(foreach d,$(O) $(O)/pic,$(d)/engine/teddy_x86.o $(d)/engine/teddy_neon.o \
			$(d)/engine/pair_simd_x86.o)
$(KERNEL_OBJ): ACFLAGS += -falign-loops=32
# The automaton's scan functions start on a 64-byte boundary for the same
# reason: placed 16 bytes apart by unrelated changes, the same object ran
# --count-matches on xx|ab at a median of 0.33 s or 0.47 s.
SCAN_OBJ := $(foreach d,$(O) $(O)/pic,$(d)/engine/ac_scan.o)
$(SCAN_OBJ): ACFLAGS += -falign-functions=64

$(ENGINE_LIB): $(ENGINE_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

$(O)/engine/%.o: src/engine/%.c $(wildcard src/engine/*.h) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC_engine) -c -o $@ $<

$(O)/grep/%.o: src/grep/%.c $(wildcard src/engine/*.h) $(GREP_HDR) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC_grep) -c -o $@ $<

$(O)/cli/%.o: src/cli/%.c $(HDR) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC_cli) -c -o $@ $<

# --version's build description: `git describe` of a checkout, none elsewhere.
# The stamp changes only when the description does, so help.o rebuilds then.
GIT_DESCRIBE := $(shell git -C $(CURDIR) describe --tags --always --dirty 2>/dev/null)
$(O)/describe.stamp: FORCE | $(O)
	@echo '$(GIT_DESCRIBE)' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@
$(O)/cli/help.o: $(O)/describe.stamp
$(O)/cli/help.o: ACFLAGS += -DACGREP_BUILD_DESCRIBE='"$(GIT_DESCRIBE)"'
.PHONY: FORCE
FORCE:

$(O)/unit/%: tests/unit/%.c $(LIB_OBJ) $(wildcard tests/unit/*.h) | $(O)
	@mkdir -p $(O)/unit
	$(CC) $(ACFLAGS) $(CFLAGS) $(INC_ALL) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

# ac_count: acgrep's engine alone, for scripts/perf/hyperscan.sh
$(O)/ac_count: scripts/perf/ac_count.c scripts/perf/count_io.h $(LIB_OBJ) | $(O)
	$(CC) $(ACFLAGS) $(CFLAGS) $(INC_ALL) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)
# walk_floor: acgrep -r's walk, open, read and close without the search, for
# scripts/perf/floor.sh
$(O)/walk_floor: scripts/perf/walk_floor.c $(LIB_OBJ) | $(O)
	$(CC) $(ACFLAGS) $(CFLAGS) $(INC_ALL) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)
$(O):
	mkdir -p $(O)

# Tests of the --engine=pcre2 engine skip exactly when this build has none
# (ACGREP_PCRE2=no); otherwise a binary without it fails them.
ACGREP_PCRE2 = $(if $(PCRE2_LIBS),yes,no)
# bats options, e.g. BATS_FLAGS="--filter word", or "--jobs 2
# --no-parallelize-within-files" (GNU parallel: a file at a time per job, as
# make check does; a job per test costs more than it saves on two cores)
BATS_FLAGS ?=
# EMULATOR: what runs a unit test binary (a cross build's qemu)

## unit: build and run the C unit tests (every one, then "ok"/"not ok" for each)
unit: $(UNIT_BIN)
	@st=0; for t in $(UNIT_BIN); do echo "== $$t"; \
		if $(VALGRIND) $(EMULATOR) $$t; then echo "ok $$t"; else echo "not ok $$t"; st=1; fi; \
	done; exit $$st

# TEST_BIN: the binary the CLI, differential and stress tests run; a
# sanitizer build names its own, leaving ./acgrep alone
TEST_BIN ?= acgrep

# CLI_TESTS: the bats files (or folder) the cli target runs
CLI_TESTS ?= tests/cli

## cli: run the bats CLI tests against ./acgrep (and check --help against the man page)
cli: $(TEST_BIN) $(O)/ac_count
	@st=0; if tests/help_man_agree.sh $(abspath $(TEST_BIN)); then echo "ok help_man_agree"; else echo "not ok help_man_agree"; st=1; fi; \
	ACGREP=$(abspath $(TEST_BIN)) ACGREP_PCRE2=$(ACGREP_PCRE2) AC_COUNT=$(O)/ac_count bats $(BATS_FLAGS) $(CLI_TESTS) || st=1; exit $$st

## diff: run the randomized differential tests against grep -F (and --engine=pcre2) and grep -E/-G
## (a fixed seed, so CI is repeatable; DIFF_SEED=random or a number to explore)
diff: $(TEST_BIN)
	ACGREP=$(abspath $(TEST_BIN)) ACGREP_PCRE2=$(ACGREP_PCRE2) DIFF_SEED=$${DIFF_SEED:-20261129} tests/diff/run.sh
	ACGREP=$(abspath $(TEST_BIN)) DIFF_SEED=$${DIFF_SEED:-20261129} DIFF_CASES=$${REGEX_DIFF_CASES:-200} python3 tests/diff/regextest.py

## gate: the regression gate: instruction counts (cachegrind), system calls
## by kind (strace) and peak memory of fixed workloads, against
## tests/gate/baseline.tsv (docs/perf.md "Regression gate") (TAP)
## gate-baseline: rewrite tests/gate/baseline.tsv from this build (commit it
## with the reason)
.PHONY: gate gate-baseline
gate: $(TEST_BIN)
	@ACGREP=$(abspath $(TEST_BIN)) GATE_DIR=$(O)/gate tests/gate/run.sh
gate-baseline: $(TEST_BIN)
	ACGREP=$(abspath $(TEST_BIN)) GATE_DIR=$(O)/gate tests/gate/run.sh --write-baseline
## fault: the fault-injection suites (tests/fault/*.sh): files changed while
## searched, each run checked against grep (FAULT_RUNS runs each); the
## suites' "N passed, N failed" summed up last
fault: $(TEST_BIN)
	@st=0 pass=0 fail=0; for t in tests/fault/*.sh; do echo "== $$t"; \
		out=$$(ACGREP=$(abspath $(TEST_BIN)) $$t 2>&1) || st=1; echo "$$out"; \
		sum=$$(echo "$$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$$' | tail -n 1); \
		if [ -z "$$sum" ]; then echo "FAIL $$t: no summary"; fail=$$((fail + 1)); st=1; continue; fi; \
		f=$${sum#*, }; pass=$$((pass + $${sum%% passed*})) fail=$$((fail + $${f%% failed*})); \
	done; echo "$$pass passed, $$fail failed"; exit $$st

## stress: the threaded -R walk STRESS_RUNS times (15000: 5-10 minutes) under CPU
## load, with loops, dangling links and errors: each run's bytes and status are
## one thread's, and no run hangs (tests/stress/run.sh; not part of make check)
stress: $(TEST_BIN)
	ACGREP=$(abspath $(TEST_BIN)) tests/stress/run.sh

## test: unit + cli + diff tests on the current build
test: unit cli diff

## deps: install what a fresh Debian machine lacks (as root), or say what is missing
deps:
	@tests/deps.sh

# ---- make check: every suite, then a summary (tests/check.sh) ----------------
# One NAME=COMMAND per suite, run in this order, each to its end whatever the
# others did; tests/check.sh counts its TAP lines, its last "N passed, N
# failed" line, or (a build) its exit status.  A new suite is one more entry
# here, or one for a single run in CHECK_EXTRA_SUITES='NAME=COMMAND'.
# Builds compile CHECK_JOBS files at a time (default: the CPUs), and the CLI
# suite runs that many bats files at once (bats --jobs, with GNU parallel;
# each file's tests in order); tests themselves run one at a time.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
CHECK_BATS_JOBS = $(if $(shell command -v parallel 2>/dev/null),--jobs $(CHECK_JOBS) --no-parallelize-within-files)
WERROR_MAKE = $(MAKE) --no-print-directory EXTRA_CFLAGS=-Werror
CHECK_SUITES = \
	'layout=tests/layout.sh' \
	'build=$(WERROR_MAKE) -j$(CHECK_JOBS) all $(O)/ac_count $(UNIT_BIN)' \
	'unit=$(WERROR_MAKE) unit' \
	'cli=$(WERROR_MAKE) BATS_FLAGS="--tap $(CHECK_BATS_JOBS) $(BATS_FLAGS)" cli' \
	'diff=$(WERROR_MAKE) diff' \
	'gate=$(WERROR_MAKE) gate' \
	'fault=$(WERROR_MAKE) fault' \
	'example=$(WERROR_MAKE) example' \
	'python=$(MAKE) --no-print-directory python' \
	'install=$(WERROR_MAKE) install-check' \
	'deb=$(MAKE) --no-print-directory BUILD_JOBS=$(CHECK_JOBS) deb-check' \
	'portable=$(MAKE) --no-print-directory BUILD_JOBS=$(CHECK_JOBS) portable' \
	'fuzz=$(WERROR_MAKE) -j$(CHECK_JOBS) $(FUZZ_TARGETS:%=$(O)/fuzz/replay_%) && $(WERROR_MAKE) fuzz-smoke' \
	'clang=$(MAKE) --no-print-directory BUILD_JOBS=$(CHECK_JOBS) clang' \
	'static=$(WERROR_MAKE) BATS_FLAGS="--tap $(CHECK_BATS_JOBS) $(BATS_FLAGS)" static-check' \
	$(if $(filter x86_64,$(shell uname -m)),'m32=$(MAKE) --no-print-directory BUILD_JOBS=$(CHECK_JOBS) m32') \
	$(CHECK_EXTRA_SUITES)

## check: install dependencies, then the layout rules (tests/layout.sh) and from a
## clean -Werror build every suite (unit, cli, diff, fault, gate, example, install, deb,
## portable, fuzz, clang, static, m32) and a summary; "N passed, N failed" last
check: deps
	@$(MAKE) -s --no-print-directory clean
	@tests/check.sh $(O)/check-logs $(CHECK_SUITES)
# ---- end of make check ----------------------------------------------------

# The other builds compile BUILD_JOBS files at a time (make check: the
# CPUs), then run their tests one at a time (test-bins, then -j1), so that
# their TAP lines do not interleave.
BUILD_JOBS ?= 1

## portable: the unit tests and libacgrep's example on a build without vector
## kernels or ctz builtin (what a CPU other than x86 gets), in build-portable/
PORTABLE_MAKE = $(MAKE) O=build-portable SIMD=none CTZ=portable EXTRA_CFLAGS=-Werror
portable:
	rm -rf build-portable
	$(PORTABLE_MAKE) -j$(BUILD_JOBS) test-bins
	$(PORTABLE_MAKE) -j1 unit example

## static: ./acgrep-static, linked statically (glibc -static: Debian ships
## static zlib, liblzma, libzstd, libbz2 and libpcre2-8, so --decompress and
## --engine=pcre2 are in it), for copying onto a machine as one file
# The objects are ./acgrep's ($(O)): a static link compiles nothing differently.
static: $(LIB_OBJ) $(O)/cli/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) -static -o acgrep-static.tmp $^ $(LDLIBS)
	mv -f acgrep-static.tmp acgrep-static

## static-check: CLI tests against ./acgrep-static: by default those of
## the parts a static link changes (locales, decompressors, PCRE2, files
## and trees), as make check runs; STATIC_CLI_TESTS=tests/cli runs them all
STATIC_CLI_TESTS ?= $(addprefix tests/cli/,01-patterns.bats 02-case.bats 15-inputs.bats \
	16-recursive.bats 22-engine.bats 27-decompress.bats)
static-check: static $(O)/ac_count
	@$(MAKE) --no-print-directory TEST_BIN=acgrep-static CLI_TESTS="$(STATIC_CLI_TESTS)" cli

# ---- other compilers and CPUs: clang, i386, cross builds under qemu-user -----
.PHONY: clang m32 check-cross cross-unit cross-cli cross-diff deps-cross

## clang: a clang -Werror build, its unit tests and libacgrep's example, in build-clang/
CLANG_MAKE = $(MAKE) O=build-clang CC=clang EXTRA_CFLAGS=-Werror
clang:
	rm -rf build-clang
	$(CLANG_MAKE) -j$(BUILD_JOBS) test-bins
	$(CLANG_MAKE) -j1 unit example

# Debian's gcc-multilib, which links /usr/include/asm, conflicts with the
# cross compilers: the i386 build links its own, to the host's asm headers.
# No PCRE2 there (the host's libpcre2 is 64-bit).
M32_O      ?= build-m32
M32_INCLUDE = $(M32_O)/include
M32_CC      = gcc -m32 -isystem $(M32_INCLUDE)
# M32_RUN: what runs the probe (M32_RUN=false plays a kernel without 32-bit support)
M32_RUN    ?=
M32_MAKE    = $(MAKE) O=$(M32_O) CC="$(M32_CC)" PKG_CONFIG=false EXTRA_CFLAGS=-Werror
## m32: a 32-bit x86 build (gcc -m32) with -Werror, its unit tests and
## libacgrep's example, in build-m32/ (M32_O); one skipped test (TAP)
## instead when gcc -m32 cannot build a trivial program or it cannot run
## (a kernel without 32-bit support: "Exec format error")
m32:
	rm -rf $(M32_O)
	mkdir -p $(M32_INCLUDE)
	[ -e /usr/include/asm ] || ln -s /usr/include/$$(gcc -print-multiarch)/asm $(M32_INCLUDE)/asm
	@printf 'int main(void) { return 0; }\n' >$(M32_O)/probe.c
	@if ! why=$$($(M32_CC) -o $(M32_O)/probe $(M32_O)/probe.c 2>&1); then \
		echo "ok 1 - m32 # skip gcc -m32 cannot build a program: $$(echo "$$why" | head -n 1)"; \
	elif why=$$($(M32_RUN) $(M32_O)/probe 2>&1); st=$$?; [ $$st != 0 ]; then \
		echo "ok 1 - m32 # skip a 32-bit x86 program cannot run here (status $$st$${why:+: $$(echo "$$why" | head -n 1)})"; \
	else \
		$(M32_MAKE) -j$(BUILD_JOBS) test-bins && $(M32_MAKE) -j1 unit example; \
	fi

# Cross builds: the portable build (SIMD=none CTZ=portable) for each
# CROSS_ARCHES triplet prefix, in build-ARCH/, run under qemu-ARCH with the
# target's libraries (-L); aarch64 keeps its vector kernel (NEON, which
# every aarch64 CPU has, so qemu runs it: CROSS_SIMD), and the CLI tests
# check that --version names it (ACGREP_KERNEL).  s390x is big-endian.  A big-endian glibc cannot
# read the host's C.UTF-8 locale, so each build has its own, in the target's
# byte order (localedef), found through LOCPATH.
CROSS_ARCHES ?= aarch64 s390x
ARCH         ?= aarch64
CROSS_O       = build-$(ARCH)
CROSS_SYSROOT = /usr/$(ARCH)-linux-gnu
CROSS_RUN     = env LOCPATH=$(CURDIR)/$(CROSS_O)/locale qemu-$(ARCH) -L $(CROSS_SYSROOT)
CROSS_PCRE2   = $(if $(shell $(ARCH)-linux-gnu-pkg-config --libs libpcre2-8 2>/dev/null),yes,no)
CROSS_SIMD    = $(if $(filter aarch64,$(ARCH)),runtime,none)
CROSS_KERNEL  = $(if $(filter aarch64,$(ARCH)),NEON,none)
CROSS_MAKE    = $(MAKE) --no-print-directory O=$(CROSS_O) CC=$(ARCH)-linux-gnu-gcc \
		PKG_CONFIG=$(ARCH)-linux-gnu-pkg-config SIMD=$(CROSS_SIMD) CTZ=portable EXTRA_CFLAGS=-Werror

## check-cross: the unit, CLI and differential tests (CROSS_DIFF_CASES) of aarch64
## and s390x (big-endian) builds under qemu-user (installs the cross compilers
## as root on Debian)
check-cross: deps-cross
	@tests/check.sh $(O)/check-cross-logs \
		$(foreach a,$(CROSS_ARCHES),'$(a)-unit=$(MAKE) --no-print-directory ARCH=$(a) cross-unit' \
		'$(a)-cli=$(MAKE) --no-print-directory ARCH=$(a) BATS_FLAGS="--tap $(BATS_FLAGS)" cross-cli' \
		'$(a)-diff=$(MAKE) --no-print-directory ARCH=$(a) cross-diff')

deps-cross:
	@tests/deps.sh --cross $(CROSS_ARCHES)

# the target's C.UTF-8 locale, in its byte order
$(CROSS_O)/locale/C.UTF-8:
	mkdir -p $(CROSS_O)/locale
	if $(ARCH)-linux-gnu-gcc -dM -E - </dev/null | grep -q '__BYTE_ORDER__ __ORDER_BIG_ENDIAN__'; \
	then order=big; else order=little; fi; \
	localedef --$$order-endian -i C -f UTF-8 $@

cross-unit:
	rm -rf $(CROSS_O)
	$(MAKE) --no-print-directory ARCH=$(ARCH) $(CROSS_O)/locale/C.UTF-8
	$(CROSS_MAKE) EMULATOR="$(CROSS_RUN)" $(CROSS_O)/acgrep unit

# The CLI and differential tests run scripts that exec the emulator on the binaries.
.PHONY: cross-cli-wrappers
cross-cli-wrappers:
	$(CROSS_MAKE) $(CROSS_O)/acgrep $(CROSS_O)/ac_count
	$(MAKE) --no-print-directory ARCH=$(ARCH) $(CROSS_O)/locale/C.UTF-8
	for b in acgrep ac_count; do \
		printf '#!/bin/sh\nexec %s %s "$$@"\n' "$(CROSS_RUN)" $(CURDIR)/$(CROSS_O)/$$b >$(CROSS_O)/$$b-qemu; \
		chmod +x $(CROSS_O)/$$b-qemu; \
	done

cross-cli: cross-cli-wrappers
	@st=0; if tests/help_man_agree.sh $(CROSS_O)/acgrep-qemu; then echo "ok help_man_agree"; \
	else echo "not ok help_man_agree"; st=1; fi; \
	ACGREP=$(CROSS_O)/acgrep-qemu AC_COUNT=$(CROSS_O)/ac_count-qemu ACGREP_PCRE2=$(CROSS_PCRE2) \
		ACGREP_KERNEL=$(CROSS_KERNEL) bats $(BATS_FLAGS) tests/cli || st=1; exit $$st

# The differential test on fewer cases: each costs an emulator start per run.
CROSS_DIFF_CASES ?= 400
cross-diff: cross-cli-wrappers
	ACGREP=$(CROSS_O)/acgrep-qemu ACGREP_PCRE2=$(CROSS_PCRE2) DIFF_CASES=$(CROSS_DIFF_CASES) \
		DIFF_SEED=$${DIFF_SEED:-20261129} tests/diff/run.sh
# ---- end of other compilers and CPUs ----------------------------------------

# ---- sanitizers: each builds in build-NAME/ and runs the unit, CLI and
# differential tests on that binary (TEST_BIN; ./acgrep is left alone).  A
# report goes to build-NAME/reports/ (log_path) as well as failing its test
# (halt_on_error, exitcode): the target fails when any report was written,
# even in a test that ignores the status.  No suppression file is used.
SAN_FLAGS_asan  = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_FLAGS_ubsan = -fsanitize=undefined -fno-sanitize-recover=all
SAN_FLAGS_tsan  = -fsanitize=thread
SAN_REPORTS     = $(CURDIR)/build-$(1)/reports/r
SAN_ENV_asan    = ASAN_OPTIONS=log_path=$(call SAN_REPORTS,asan):halt_on_error=1:exitcode=66 \
		  UBSAN_OPTIONS=log_path=$(call SAN_REPORTS,asan):halt_on_error=1:exitcode=66:print_stacktrace=1
SAN_ENV_ubsan   = UBSAN_OPTIONS=log_path=$(call SAN_REPORTS,ubsan):halt_on_error=1:exitcode=66:print_stacktrace=1
SAN_ENV_tsan    = TSAN_OPTIONS="log_path=$(call SAN_REPORTS,tsan) halt_on_error=1 exitcode=66 second_deadlock_stack=1"
# A shorter stress under TSan: about 30 times slower, smaller big files
TSAN_STRESS_RUNS ?= 1000

# sanitize NAME EXTRA: the build, its tests (each suite whatever the others
# did), EXTRA, then the reports; fails when anything failed
define sanitize
	rm -rf build-$(1)
	mkdir -p build-$(1)/reports
	@st=0; export $(SAN_ENV_$(1)); \
	$(MAKE) --no-print-directory O=build-$(1) OPT="-O1 -g $(SAN_FLAGS_$(1))" build-$(1)/acgrep || exit 1; \
	for suite in unit cli diff; do \
		$(MAKE) --no-print-directory O=build-$(1) OPT="-O1 -g $(SAN_FLAGS_$(1))" \
			TEST_BIN=build-$(1)/acgrep $$suite || { echo "$(1): $$suite failed"; st=1; }; \
	done; \
	$(2) \
	n=$$(ls build-$(1)/reports | wc -l); \
	if [ "$$n" -gt 0 ]; then echo "$(1): $$n reports:"; head -n 30 build-$(1)/reports/*; st=1; \
	else echo "$(1): no sanitizer report"; fi; exit $$st
endef

## asan: the unit, CLI and differential tests under AddressSanitizer + UBSan, in build-asan/
asan:
	$(call sanitize,asan,)

## ubsan: the unit, CLI and differential tests under UndefinedBehaviorSanitizer alone, in build-ubsan/
ubsan:
	$(call sanitize,ubsan,)

## tsan: the unit, CLI and differential tests and a short stress (TSAN_STRESS_RUNS)
## under ThreadSanitizer, in build-tsan/: no data race, no lock-order report
tsan:
	$(call sanitize,tsan,ACGREP=build-tsan/acgrep STRESS_RUNS=$(TSAN_STRESS_RUNS) STRESS_BIG_MB=3 \
		STRESS_TIMEOUT=300 tests/stress/run.sh || { echo "tsan: stress failed"; st=1; };)

## valgrind: run the unit tests under valgrind memcheck
valgrind: $(UNIT_BIN)
	$(MAKE) unit VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full"

## demo: search the bundled sample log for the bundled IOC list
demo: acgrep
	./acgrep -n --color=always -F -f examples/iocs.txt examples/access.log; test $$? -le 1

## bench: a few minutes of benchmarks (acgrep vs grep -F vs rg -F); full suite: scripts/perf
bench: acgrep
	scripts/perf/quick.sh

# ---- libacgrep: the engine as a library (docs/library.md) -------------------
# The engine's sources again, with -fPIC, in $(O)/pic/, and the public API
# over them (src/engine/acgrep.h, libacgrep.c).  The shared library exports
# only acgrep_* (its version script); the static one is a single object in
# which every other symbol is local, but for i386's PIC helpers (COMDAT
# sections, which the linker wants global).  LIB_MAJOR is the soname's
# number: it changes only when a program built against the old header
# would break (docs/library.md).
LIB_MAJOR   := 0
LIB_VERSION := $(LIB_MAJOR).3.0
LIB_SONAME  := libacgrep.so.$(LIB_MAJOR)
LIB_DIR     := $(O)/lib
LIB_SHARED  := $(LIB_DIR)/libacgrep.so.$(LIB_VERSION)
LIB_STATIC  := $(LIB_DIR)/libacgrep.a
LIB_MAP     := src/engine/libacgrep.map
LIB_FUNCS   := acgrep_new acgrep_add acgrep_compile acgrep_count acgrep_scan acgrep_count_matches acgrep_load \
               acgrep_free acgrep_version
PIC_OBJ     := $(ENGINE_SRC:src/%.c=$(O)/pic/%.o) $(O)/pic/engine/libacgrep.o
OBJCOPY     ?= objcopy
EXAMPLE     := $(O)/examples/count_patterns

.PHONY: lib example completions

## lib: build libacgrep, shared and static, in build/lib/
lib: $(LIB_SHARED) $(LIB_STATIC)

$(O)/pic/engine/%.o: src/engine/%.c $(wildcard src/engine/*.h) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CPPFLAGS) $(CFLAGS) -fPIC $(INC_engine) -c -o $@ $<
$(O)/pic/engine/libacgrep.o: ACFLAGS += -DACGREP_LIB_VERSION='"$(VERSION)"'

$(LIB_SHARED): $(PIC_OBJ) $(LIB_MAP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=$(LIB_MAP) \
		-Wl,-z,defs -o $@ $(PIC_OBJ) -pthread
	ln -sf $(@F) $(LIB_DIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(LIB_DIR)/libacgrep.so

$(LIB_STATIC): $(PIC_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -r -nostdlib -o $(LIB_DIR)/libacgrep.o $(PIC_OBJ)
	$(OBJCOPY) -w --keep-global-symbol='acgrep_*' --keep-global-symbol='__x86.get_pc_thunk.*' \
		$(LIB_DIR)/libacgrep.o
	rm -f $@ && $(AR) rcs $@ $(LIB_DIR)/libacgrep.o

# The example, against the header and libraries just built: dynamically
# linked (run with LD_LIBRARY_PATH) and statically.
$(EXAMPLE): examples/count_patterns.c src/engine/acgrep.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARNINGS) $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS) -Isrc/engine $(LDFLAGS) \
		-o $@ $< -L$(LIB_DIR) -lacgrep
$(EXAMPLE)-static: examples/count_patterns.c src/engine/acgrep.h $(LIB_STATIC)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARNINGS) $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS) -Isrc/engine $(LDFLAGS) \
		-o $@ $< $(LIB_STATIC) -pthread

# The API's contracts, through the public header alone (tests/lib/test_api.c).
$(LIB_DIR)/test_api: tests/lib/test_api.c src/engine/acgrep.h $(LIB_SHARED)
	$(CC) -std=c11 $(WARNINGS) $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS) -Isrc/engine $(LDFLAGS) \
		-o $@ $< -L$(LIB_DIR) -lacgrep

# what the unit tests and the example run (built before them: see BUILD_JOBS)
.PHONY: test-bins
test-bins: $(O)/acgrep $(UNIT_BIN) $(EXAMPLE) $(EXAMPLE)-static $(LIB_DIR)/test_api

## example: build examples/count_patterns.c against libacgrep (shared and
## static), check both outputs, the library's exported symbols and the API's
## contracts (tests/lib/test_api.c) (TAP)
example: $(EXAMPLE) $(EXAMPLE)-static $(LIB_DIR)/test_api
	LD_LIBRARY_PATH=$(abspath $(LIB_DIR)) $(EMULATOR) $(LIB_DIR)/test_api
	LD_LIBRARY_PATH=$(abspath $(LIB_DIR)) tests/lib/example.sh $(EXAMPLE) $(EXAMPLE)-static $(LIB_SHARED) $(LIB_STATIC)

# ---- the acgrep Python module (python/; python/README.md) ----
# PYTHON: the interpreter whose module is built and tested (Debian's, where
# python3-dev, python3-pytest and python3-ahocorasick are installed)
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
PY_DIR := $(O)/python
# Python's C API sets string literals in char * fields and function pointers
# in void * slots: those two warnings are left out for the extension
PY_WARNINGS := $(filter-out -Wpedantic -Wwrite-strings,$(WARNINGS))
.PHONY: python
## python: build the acgrep Python module (python/, stable ABI) in build/python/
## with -Werror and run its pytest tests (python/tests; "N passed, N failed";
## the compiled sets' tests run acgrep too)
python: $(TEST_BIN)
	rm -rf $(PY_DIR)
	cd python && CFLAGS="$(OPT) $(PY_WARNINGS) -Werror $(EXTRA_CFLAGS)" \
		$(PYTHON) setup.py -q build --build-base $(abspath $(PY_DIR)) \
		--build-lib $(abspath $(PY_DIR))/lib
	cd $(PY_DIR) && PYTHONPATH=$(abspath $(PY_DIR))/lib PYTHONDONTWRITEBYTECODE=1 \
		ACGREP=$(abspath $(TEST_BIN)) \
		$(PYTHON) -m pytest -q -p no:cacheprovider -rs $(abspath python/tests)

# ---- shell completions, written by acgrep itself (src/cli/complete.c) -----
COMPLETIONS := $(O)/completions/acgrep.bash $(O)/completions/_acgrep $(O)/completions/acgrep.fish
## completions: the bash, zsh and fish completions, in build/completions/
completions: $(COMPLETIONS)
$(O)/completions/acgrep.bash: $(O)/acgrep
	@mkdir -p $(@D)
	$(O)/acgrep --generate=complete-bash >$@.tmp && mv -f $@.tmp $@
$(O)/completions/_acgrep: $(O)/acgrep
	@mkdir -p $(@D)
	$(O)/acgrep --generate=complete-zsh >$@.tmp && mv -f $@.tmp $@
$(O)/completions/acgrep.fish: $(O)/acgrep
	@mkdir -p $(@D)
	$(O)/acgrep --generate=complete-fish >$@.tmp && mv -f $@.tmp $@

# ---- install, uninstall, the Debian package ---------------------------------
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
DATADIR      ?= $(PREFIX)/share
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASH_COMPDIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPDIR  ?= $(DATADIR)/zsh/vendor-completions
FISH_COMPDIR ?= $(DATADIR)/fish/vendor_completions.d
INSTALLED = $(BINDIR)/acgrep $(MANDIR)/man1/acgrep.1 \
	$(BASH_COMPDIR)/acgrep $(ZSH_COMPDIR)/_acgrep $(FISH_COMPDIR)/acgrep.fish \
	$(INCLUDEDIR)/acgrep.h $(LIBDIR)/libacgrep.a $(LIBDIR)/libacgrep.so \
	$(LIBDIR)/$(LIB_SONAME) $(LIBDIR)/libacgrep.so.$(LIB_VERSION) $(PKGCONFIGDIR)/acgrep.pc \
	$(MANDIR)/man3/libacgrep.3 $(LIB_FUNCS:%=$(MANDIR)/man3/%.3)

## install: install acgrep, its man page and completions, and libacgrep (the
## header, the libraries, acgrep.pc, the man pages) under $(DESTDIR)$(PREFIX);
## LIBDIR, INCLUDEDIR, MANDIR... (see the Makefile) move the parts
install: acgrep lib completions
	install -d $(addprefix $(DESTDIR),$(BINDIR) $(MANDIR)/man1 $(MANDIR)/man3 $(BASH_COMPDIR) \
		$(ZSH_COMPDIR) $(FISH_COMPDIR) $(INCLUDEDIR) $(LIBDIR) $(PKGCONFIGDIR))
	install -m 755 acgrep $(DESTDIR)$(BINDIR)/acgrep
	install -m 644 man/acgrep.1 $(DESTDIR)$(MANDIR)/man1/acgrep.1
	install -m 644 $(O)/completions/acgrep.bash $(DESTDIR)$(BASH_COMPDIR)/acgrep
	install -m 644 $(O)/completions/_acgrep $(DESTDIR)$(ZSH_COMPDIR)/_acgrep
	install -m 644 $(O)/completions/acgrep.fish $(DESTDIR)$(FISH_COMPDIR)/acgrep.fish
	install -m 644 src/engine/acgrep.h $(DESTDIR)$(INCLUDEDIR)/acgrep.h
	install -m 644 $(LIB_STATIC) $(DESTDIR)$(LIBDIR)/libacgrep.a
	install -m 644 $(LIB_SHARED) $(DESTDIR)$(LIBDIR)/libacgrep.so.$(LIB_VERSION)
	ln -sf libacgrep.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libacgrep.so
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' src/engine/acgrep.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/acgrep.pc
	install -m 644 man/libacgrep.3 $(DESTDIR)$(MANDIR)/man3/libacgrep.3
	for f in $(LIB_FUNCS); do ln -sf libacgrep.3 $(DESTDIR)$(MANDIR)/man3/$$f.3; done

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

.PHONY: install-check deb deb-check
INSTALL_ROOT = $(abspath $(O)/install-root)
## install-check: make install into a scratch DESTDIR, check what it installed
## (tests/lib/installed.sh: the example through pkg-config too), make
## uninstall, and check that it left no file (TAP)
install-check: acgrep lib completions
	@rm -rf $(INSTALL_ROOT)
	@$(MAKE) -s --no-print-directory install DESTDIR=$(INSTALL_ROOT) PREFIX=/usr LIBDIR=/usr/lib
	@st=0; tests/lib/installed.sh $(INSTALL_ROOT) /usr/lib || st=1; \
	$(MAKE) -s --no-print-directory uninstall DESTDIR=$(INSTALL_ROOT) PREFIX=/usr LIBDIR=/usr/lib; \
	left=$$(find $(INSTALL_ROOT) ! -type d); \
	if [ -z "$$left" ]; then echo "ok - make uninstall leaves no file"; \
	else echo "not ok - make uninstall leaves: $$left"; st=1; fi; rm -rf $(INSTALL_ROOT); exit $$st

# The package is built from a copy of the tree in $(DEB_DIR)/, where
# dpkg-buildpackage leaves the .deb files (in the copy's parent).
DEB_DIR = $(O)/deb
## deb: the Debian packages acgrep, libacgrep0, libacgrep-dev and python3-acgrep in build/deb/
## (dpkg-buildpackage -us -uc -b on a copy of the tree), then lintian, which
## fails it on any error or warning (an override would go in
## debian/*.lintian-overrides with its reason; there is none)
deb:
	@v=$$(dpkg-parsechangelog -l debian/changelog -S Version); [ "$$v" = "$(VERSION)" ] || \
		{ echo "deb: debian/changelog says $$v, src/cli/help.h $(VERSION)"; exit 1; }
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/acgrep-$(VERSION)
	tar -cf - --exclude=./$(O) --exclude='./build-*' --exclude=./acgrep --exclude='./acgrep-*.tar.gz' \
		--exclude=./.git . | tar -xf - -C $(DEB_DIR)/acgrep-$(VERSION)
	cd $(DEB_DIR)/acgrep-$(VERSION) && dpkg-buildpackage -us -uc -b -J$(BUILD_JOBS) >../build.log 2>&1 || \
		{ tail -n 60 $(abspath $(DEB_DIR))/build.log; echo "deb: dpkg-buildpackage failed (log: $(DEB_DIR)/build.log)"; exit 1; }
	rm -rf $(DEB_DIR)/acgrep-$(VERSION)
	lintian --show-overrides $(DEB_DIR)/*.changes >$(DEB_DIR)/lintian.log 2>&1; cat $(DEB_DIR)/lintian.log
	@! grep -E '^[EW]: ' $(DEB_DIR)/lintian.log >/dev/null || { echo "deb: lintian reports the above"; exit 1; }

## deb-check: make deb, then check the packages unpacked into a scratch root as
## an installation (tests/lib/deb.sh; as root with CI=true also with dpkg -i)
## (TAP; one skipped test where dpkg-buildpackage is missing: not Debian)
deb-check:
	@if ! command -v dpkg-buildpackage >/dev/null; then echo "ok 1 - deb # skip no dpkg-buildpackage"; \
	else $(MAKE) --no-print-directory deb && tests/lib/deb.sh $(DEB_DIR); fi

clean:
	rm -rf $(O) acgrep acgrep-static

## dist: acgrep-VERSION.tar.gz of the committed tree (HEAD): the same bytes
## every time for the same commit (git archive's times are the commit's; gzip -n)
VERSION := $(shell sed -n 's/^\#define ACGREP_VERSION "\(.*\)"/\1/p' src/cli/help.h)
dist:
	git -C $(CURDIR) archive --format=tar --prefix=acgrep-$(VERSION)/ HEAD | gzip -n -9 >acgrep-$(VERSION).tar.gz
	@echo "acgrep-$(VERSION).tar.gz $$(sha256sum <acgrep-$(VERSION).tar.gz | cut -c1-16)"

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
FUZZ_TARGETS := matcher patfile opts cli compiled
# No comparison tracing (trace-cmp): in the engine it is loop bounds, and
# costs three quarters of the time (fuzz_matcher: 76 exec/s, was 27).
FUZZ_CFLAGS  ?= -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-sanitize-coverage=trace-cmp
FUZZ_LIB_OBJ := $(LIB_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_HDR     := $(HDR) $(wildcard tests/fuzz/*.h tests/unit/pattern_list.h)
# per-target libFuzzer options
FUZZ_ARGS_matcher := -max_len=4096
FUZZ_ARGS_patfile := -max_len=8192
FUZZ_ARGS_opts    := -max_len=1024 -close_fd_mask=3 -dict=tests/fuzz/opts.dict
FUZZ_ARGS_cli     := -max_len=4096
FUZZ_ARGS_compiled := -max_len=65536
# fuzz_cli runs main() as acgrep_main (acgrep_main.h)
AS_LIB_MAIN  := -Dmain=acgrep_main -include tests/fuzz/acgrep_main.h

.PHONY: fuzz fuzz-build fuzz-smoke fuzz-afl

$(FUZZ_DIR)/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ACFLAGS) $(FUZZ_CFLAGS) $(INC_ALL) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/obj/main_as_lib.o: src/cli/main.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ACFLAGS) $(FUZZ_CFLAGS) $(INC_ALL) -fsanitize=fuzzer-no-link $(AS_LIB_MAIN) -c -o $@ $<

# The harness and its oracle get no coverage instrumentation: their
# branches would steer the fuzzer instead of acgrep's.
$(FUZZ_DIR)/harness/%.o: tests/fuzz/%.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ACFLAGS) $(FUZZ_CFLAGS) $(INC_ALL) -Itests/unit -c -o $@ $<

FUZZ_HARNESS_OBJ := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/harness/%.o,$(wildcard tests/fuzz/fuzz_*.c tests/fuzz/naive.c))
.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_HARNESS_OBJ) $(FUZZ_DIR)/obj/main_as_lib.o

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/harness/fuzz_%.o $(FUZZ_DIR)/harness/naive.o $(FUZZ_LIB_OBJ) $(FUZZ_DIR)/obj/main_as_lib.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS) -pthread

$(O)/fuzz/main_as_lib.o: src/cli/main.c $(FUZZ_HDR) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CFLAGS) $(INC_ALL) $(AS_LIB_MAIN) -c -o $@ $<

$(O)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/naive.c $(LIB_OBJ) $(O)/fuzz/main_as_lib.o $(FUZZ_HDR) | $(O)
	@mkdir -p $(@D)
	$(CC) $(ACFLAGS) $(CFLAGS) $(INC_ALL) -Itests/unit $(LDFLAGS) -o $@ \
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
