#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# scripts/perf/ac_count.c, the benchmark helper that measures acgrep's
# engine alone for hyperscan.sh: its count must be grep -F -c's, or the
# engine-to-engine ratio it reports measures something else.  Built by
# `make cli` as $(O)/ac_count, named by AC_COUNT.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	common_setup
	acgrep_is_grep && skip "ac_count is acgrep's own helper"
	AC_COUNT=${AC_COUNT:-build/ac_count}
	[[ $AC_COUNT == /* ]] || AC_COUNT=$REPO_ROOT/$AC_COUNT
	[[ -x $AC_COUNT ]] || fail "ac_count not built: $AC_COUNT (make build/ac_count)"
	LOG=$REPO_ROOT/examples/access.log
	IOCS=$REPO_ROOT/examples/iocs.txt
}

# counts_as_grep [-i] PATTERNS INPUT - same count on stdout and status as
# grep -F -c, and the times on stderr.
counts_as_grep() {
	local want grep_status=0
	want=$("$GREP" -F -c "${@:1:$#-2}" -f "${@: -2:1}" "${@: -1}") || grep_status=$?
	run --separate-stderr "$AC_COUNT" "$@"
	assert_equal "$status" "$grep_status"
	assert_output "$want"
	[[ $stderr == *compile_ms*scan_ms* ]] || fail "no times on stderr: $stderr"
}

@test "ac_count: the bundled sample counts as grep -F -c, with and without -i" {
	counts_as_grep "$IOCS" "$LOG"
	assert_success
	counts_as_grep -i "$IOCS" "$LOG"
	assert_success
}

@test "ac_count: edge lines: an empty pattern, no final newline, no match" {
	printf 'abc\nxabcx\n\nabd\nab' >in
	printf 'abc\n' >one
	counts_as_grep one in
	assert_output 2
	printf 'zz\nabd\n' >two
	counts_as_grep two in
	assert_output 1
	printf 'q\n\n' >empty_line
	counts_as_grep empty_line in
	assert_output 5
	printf 'ab' >no_newline
	counts_as_grep no_newline in
	assert_output 4
	printf 'q\n\n\n' >empty_last
	counts_as_grep empty_last in
	assert_output 5
	printf 'zz\n' >none
	counts_as_grep none in
	assert_failure 1
	assert_output 0
	: >no_patterns # grep -c then exits 1 before reading (acgrep too); the helper counts 0
	run --separate-stderr "$AC_COUNT" no_patterns in
	assert_failure 1
	assert_output 0
}

@test "ac_count: an unreadable input is status 2 and names the file" {
	run --separate-stderr "$AC_COUNT" "$IOCS" missing.txt
	assert_failure 2
	[[ $stderr == "ac_count: missing.txt: No such file or directory" ]] || fail "stderr: $stderr"
}
