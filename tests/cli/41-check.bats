#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# make check's summary (tests/check.sh) and its m32 suite where 32-bit x86
# programs cannot run (a kernel without IA32 emulation): the suite is one
# skipped test with a line saying why, not failures.  M32_RUN=false plays
# that kernel; M32_O keeps the build out of the checkout's build-m32/.

load helpers

setup() {
	common_setup
	acgrep_is_grep && skip "acgrep's make check"
	:
}

@test "check.sh: a suite of skips says skipped and why, and fails nothing" {
	run "$REPO_ROOT/tests/check.sh" "$OUTD/logs" \
		'none=echo "ok 1 - m32 # skip no 32-bit programs here"' \
		'some=printf "ok 1 - a\nok 2 - b # skip why\n"' 'build=true'
	assert_success
	assert_line --index 0 --regexp '^check: none +\.\.\. skipped \(no 32-bit programs here; [0-9]+ s\)$'
	assert_line --index 1 --regexp '^check: some +\.\.\. ok \(1 passed, 1 skipped, [0-9]+ s\)$'
	assert_line --regexp '^none +0 +0 +1 +[0-9]+$'
	assert_line --regexp '^total +2 +0 +2 +[0-9]+$'
	assert_equal "${lines[-1]}" "2 passed, 0 failed"
}

@test "make m32: skipped with the reason when a 32-bit program cannot run" {
	[[ $(uname -m) == x86_64 ]] || skip "the m32 suite is x86-64's"
	command -v gcc >/dev/null || skip "no gcc"
	run "$REPO_ROOT/tests/check.sh" "$OUTD/logs" \
		"m32=make -s -C '$REPO_ROOT' --no-print-directory M32_O='$BATS_TEST_TMPDIR/m32' M32_RUN=false m32"
	assert_success
	assert_line --index 0 --regexp '^check: m32 +\.\.\. skipped \(a 32-bit x86 program cannot run here \(status 1\); [0-9]+ s\)$'
	assert_equal "${lines[-1]}" "0 passed, 0 failed"
	[[ ! -e $BATS_TEST_TMPDIR/m32/acgrep ]]
}
