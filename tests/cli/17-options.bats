#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Option syntax: permutation, clustering, attached arguments, --,
# abbreviations, and usage errors.

load helpers

opt_setup() {
	fixture in 'Foo\nbar\nfoo bar\n-v\n'
	fixture in2 'foo\n'
}

@test "options: options after operands are still options" {
	opt_setup
	in_both_locales same_as_grep_pre foo in -n -F
	in_both_locales same_as_grep_pre foo in in2 -F -c
	in_both_locales same_as_grep_pre -F foo in -i -H
	run_ac foo in -F -n
	expect_out '3:foo bar\n'
}

@test "options: POSIXLY_CORRECT stops option parsing at the first operand" {
	opt_setup
	POSIXLY_CORRECT=1 in_both_locales same_as_grep foo in -n
}

@test "options: clustered short options -inH" {
	opt_setup
	in_both_locales same_as_grep -inH foo in
	in_both_locales same_as_grep -Hni foo in
	expect 0 'in:1:Foo\nin:3:foo bar\n' -- -F -inH foo in
}

@test "options: -F clustered with others" {
	opt_setup
	in_both_locales same_as_grep_pre -Fc foo in
	in_both_locales same_as_grep_pre -iFo foo in
}

@test "options: attached arguments -m3 -A1 -efoo -fFILE" {
	opt_setup
	fixture pats 'bar\n'
	in_both_locales same_as_grep -m1 -A1 foo in
	in_both_locales same_as_grep -efoo -ebar in
	in_both_locales same_as_grep -fpats in
	in_both_locales same_as_grep -nm1 foo in
	in_both_locales same_as_grep -ce bar in
}

@test "options: long options with = and with a separate argument" {
	opt_setup
	in_both_locales same_as_grep --max-count=1 --after-context=1 foo in
	in_both_locales same_as_grep --max-count 1 --after-context 1 foo in
	in_both_locales same_as_grep --regexp bar --regexp=Foo in
}

@test "options: -NUM clustered with letters" {
	opt_setup
	in_both_locales same_as_grep -2n bar in
	in_both_locales same_as_grep -n1 bar in
	in_both_locales same_as_grep -1 -2 bar in
}

@test "options: -- ends options" {
	opt_setup
	in_both_locales same_as_grep -- -v in
	in_both_locales same_as_grep -c -- -v in
	in_both_locales same_as_grep -n -- foo in -i
	expect 0 '-v\n' -- -F -- -v in
}

@test "options: -e allows a pattern starting with -" {
	opt_setup
	in_both_locales same_as_grep -e -v in
	in_both_locales same_as_grep -e-v in
}

@test "options: abbreviated long options" {
	opt_setup
	in_both_locales same_as_grep --ignore foo in
	in_both_locales same_as_grep --inv foo in
	in_both_locales same_as_grep --line-n foo in
	in_both_locales same_as_grep --cou foo in
	in_both_locales same_as_grep --colo=always foo in
	in_both_locales same_as_grep --max=1 foo in
	in_both_locales same_as_grep --files-with-m foo in in2
	in_both_locales same_as_grep --fixed-s foo in
}

@test "options: ambiguous abbreviation is a usage error" {
	opt_setup
	run_ac -F --co foo in
	expect_status 2
	expect_stderr_matches "ambiguous"
	expect_stderr_matches '^Usage: PROG '
	"$GREP" -F --co foo in >"$OUTD/g" 2>&1 || [[ $? == 2 ]]
}

@test "options: invalid short option: exit 2 with usage on stderr" {
	opt_setup
	in_both_locales same_as_grep -Q foo in
	run_ac -F -Q foo in
	expect_status 2
	expect_out ''
	expect_stderr_matches "^PROG: invalid option -- 'Q'$"
	expect_stderr_matches '^Usage: PROG \[OPTION\]\.\.\. PATTERNS \[FILE\]\.\.\.$'
	expect_stderr_matches "^Try 'PROG --help' for more information\.$"
}

@test "options: unrecognized long option" {
	opt_setup
	in_both_locales same_as_grep --bogus foo in
	run_ac -F --bogus foo in
	expect_status 2
	expect_stderr_matches "^PROG: unrecognized option '--bogus'$"
}

@test "options: missing option argument" {
	opt_setup
	in_both_locales same_as_grep_pre -F -e
	in_both_locales same_as_grep_pre -F foo in -m
	in_both_locales same_as_grep_pre -F foo in --max-count
	run_ac -F -e
	expect_status 2
	expect_stderr_matches "^PROG: option requires an argument -- 'e'$"
}

@test "options: argument given to an option that takes none" {
	opt_setup
	in_both_locales same_as_grep --count=3 foo in
	run_ac -F --count=3 foo in
	expect_status 2
}

@test "options: no pattern: usage error" {
	in_both_locales same_as_grep_pre -F
	in_both_locales same_as_grep_pre -F -n
}

@test "options: --help and --version succeed on stdout" {
	run_ac --help
	expect_status 0
	expect_no_stderr
	"$GREP" -q 'Usage:' "$OUTD/ac.out"
	run_ac --version
	expect_status 0
	expect_no_stderr
	# the version (with `git describe` when built from a checkout), the
	# vector kernels built and the one this CPU runs, the optional libraries
	"$GREP" -qE '^acgrep [0-9]+\.[0-9]+\.[0-9]+( \(git [^)]+\))?$' "$OUTD/ac.out"
	"$GREP" -qE '^Vector kernels compiled in: .*; this CPU runs: (none|SSSE3|AVX2|AVX-512BW|AVX-512BW and AVX-512VBMI|NEON)\.$' "$OUTD/ac.out"
	# the licence, as LICENSE and debian/copyright state it
	"$GREP" -qx 'License MIT: <https://opensource.org/license/mit>.' "$OUTD/ac.out"
	"$GREP" -qx 'MIT License' "$BATS_TEST_DIRNAME/../../LICENSE"
	"$GREP" -qx 'License: Expat' "$BATS_TEST_DIRNAME/../../debian/copyright"
	# a cross build under qemu-user names the kernel it must run (the Makefile's)
	if [ -n "${ACGREP_KERNEL:-}" ]; then
		"$GREP" -q "this CPU runs: $ACGREP_KERNEL\.\$" "$OUTD/ac.out"
	fi
	"$GREP" -qE '^PCRE2 engine \(--engine=pcre2\) (not )?compiled in\.$' "$OUTD/ac.out"
	"$GREP" -qE '^Decompressors \(--decompress\) compiled in: ' "$OUTD/ac.out"
	run_ac -V
	expect_status 0
}

@test "options: --fixed-strings long form and repeated -F" {
	opt_setup
	in_both_locales same_as_grep_pre --fixed-strings foo in
	in_both_locales same_as_grep_pre -F -F foo in
}

@test "options: later -A/-B/-m override earlier ones" {
	opt_setup
	in_both_locales same_as_grep -m 1 -m 2 -i foo in
	in_both_locales same_as_grep -A 5 -A 0 bar in
}

@test "options: numeric arguments with leading zeros and plus signs" {
	opt_setup
	in_both_locales same_as_grep -m 01 foo in
	in_both_locales same_as_grep -A 007 Foo in
	in_both_locales same_as_grep -m +1 -i foo in
}

@test "options: -- then an option-looking file name" {
	opt_setup
	fixture ./-n 'foo\n'
	in_both_locales same_as_grep foo -- -n
	in_both_locales same_as_grep -H foo -- -n in2
}
