#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Writing into a closed pipe.  The output is far larger than a pipe buffer,
# so the reader is gone long before the writer finishes, whatever the timing.

load helpers

big_setup() {
	awk 'BEGIN { for (i = 1; i <= 300000; i++) printf "x line %d\n", i }' >big
}

@test "epipe: 'acgrep x big | head -1' prints the first line and nothing on stderr" {
	big_setup
	env --default-signal=PIPE bash -c '"$1" -F x big 2>"$2/err" | head -n 1 >"$2/out"' _ "$ACGREP" "$OUTD"
	assert_equal "$(cat "$OUTD/out")" "x line 1"
	if [[ -s $OUTD/err ]]; then
		fail "stderr not empty: $(cat "$OUTD/err")"
	fi
}

@test "epipe: same through -n, -o, -c -v and context" {
	big_setup
	local args
	for args in "-n x" "-o -b line" "-C 2 line" "-v zzz" "--color=always x"; do
		: >"$OUTD/err"
		# shellcheck disable=SC2086
		env --default-signal=PIPE bash -c '"$1" -F '"$args"' big 2>"$2/err" | head -n 2 >"$2/out"' _ "$ACGREP" "$OUTD"
		[[ $(wc -l <"$OUTD/out") == 2 ]] || fail "short output for $args"
		[[ ! -s $OUTD/err ]] || fail "stderr for $args: $(cat "$OUTD/err")"
	done
}

@test "epipe: stdin from a pipe and output into a closed pipe" {
	big_setup
	env --default-signal=PIPE bash -c 'cat big | "$1" -F line 2>"$2/err" | head -n 1 >"$2/out"' _ "$ACGREP" "$OUTD"
	assert_equal "$(cat "$OUTD/out")" "x line 1"
	[[ ! -s $OUTD/err ]] || fail "stderr: $(cat "$OUTD/err")"
}

@test "epipe: killed by SIGPIPE (or quiet) like grep: the pipeline status" {
	big_setup
	env --default-signal=PIPE bash -c '"$1" -F x big 2>/dev/null | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}" >"$2/gst"' _ "$GREP" "$OUTD"
	env --default-signal=PIPE bash -c '"$1" -F x big 2>/dev/null | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}" >"$2/ast"' _ "$ACGREP" "$OUTD"
	assert_equal "$(cat "$OUTD/gst")" 141
	local st
	st=$(cat "$OUTD/ast")
	# 141 = killed by SIGPIPE, as grep; an implementation that catches
	# EPIPE may exit 2 instead, but it must not claim plain success or silence
	# an error as "no match".
	[[ $st == 141 || $st == 2 ]] || fail "exit status $st after EPIPE"
}

@test "epipe: with SIGPIPE ignored, the write error is reported like grep" {
	big_setup
	env --ignore-signal=PIPE bash -c '"$1" -F x big 2>"$2/g.err" | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}" >"$2/g.rc"' _ "$GREP" "$OUTD"
	env --ignore-signal=PIPE bash -c '"$1" -F x big 2>"$2/a.err" | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}" >"$2/a.rc"' _ "$ACGREP" "$OUTD"
	assert_equal "$(cat "$OUTD/a.rc")" "$(cat "$OUTD/g.rc")"
	assert_equal "$(_norm_stderr "$OUTD/a.err")" "$(_norm_stderr "$OUTD/g.err")"
}

@test "epipe: -q and -l stop early and never write much" {
	big_setup
	env --default-signal=PIPE bash -c '"$1" -F -l x big big 2>"$2/err" | head -n 1 >"$2/out"' _ "$ACGREP" "$OUTD"
	assert_equal "$(cat "$OUTD/out")" "big"
	[[ ! -s $OUTD/err ]]
}
