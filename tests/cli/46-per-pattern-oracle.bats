#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The differential test of --count-per-pattern, --overlapping and
# --all-patterns against the oracle of tests/diff/per_pattern.py: random
# pattern sets and texts, every case in six variants (threads and segments,
# 1-byte reads, --mmap, scan paths, scalar prefilters), a fixed seed so that
# make check repeats itself (PP_SEED=random, or a number, to explore).

load helpers

setup() {
	common_setup
	skip_if_grep "--count-per-pattern"
	command -v python3 >/dev/null || skip "python3 is not installed"
}

@test "per-pattern oracle: 400 random cases, every variant" {
	local seed=${PP_SEED:-20261201}
	[[ $seed == random ]] && seed=
	run env ACGREP="$ACGREP" PP_SEED="$seed" PP_CASES="${PP_CASES:-400}" python3 "$REPO_ROOT/tests/diff/per_pattern.py"
	echo "$output" | tail -n 30
	assert_success
	assert_line --regexp '^[0-9]+ passed, 0 failed$'
}
