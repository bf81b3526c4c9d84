#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Where a search leaves standard input, as GNU grep leaves it: after the
# last selected line when -m ends the search; at its end when the search
# stops early for another reason (stdout is /dev/null, a binary input's
# first match, -I dropping a binary input), read to its end from a pipe so
# that the writer is not killed by SIGPIPE; where its last read() ended
# after -q, -l and -L.  Each case runs GNU grep and acgrep alike, with one
# and three threads, and compares what is left of stdin (a file) or the
# pipeline's exit statuses (a pipe).

load helpers

# 300,000 lines "x" (600,000 bytes, over six of grep's 96 KiB reads), and
# the same after a line holding a NUL (a binary input).
s_setup() {
	yes x | head -n 300000 >text
	{ printf 'x\0\n'; cat text; } >binary
}

# What is left of stdin (file $1) after `PROG ARGS... >OUT` (OUT: $2), then
# PROG's exit status: "rest BYTES status N".
left_after() {
	local in=$1 out=$2 prog=$3
	shift 3
	{ "$prog" "$@" >"$out"; local st=$?; printf 'rest %s status %s\n' "$(wc -c)" "$st"; } <"$in"
}

# The same for GNU grep and acgrep (with --threads=1 and 3), in C and
# C.UTF-8: stdin file $1, output to $2.
same_left() {
	local in=$1 out=$2 loc t want got
	local -a threads=(--threads=1 --threads=3)
	acgrep_is_grep && threads=(--color=never) # no acgrep option
	shift 2
	for loc in C C.UTF-8; do
		want=$(LC_ALL=$loc left_after "$in" "$out" "$GREP" "$@")
		for t in "${threads[@]}"; do
			got=$(LC_ALL=$loc left_after "$in" "$out" "$ACGREP" "$t" "$@")
			[[ $got == "$want" ]] || {
				echo "LC_ALL=$loc, $* >$out, $t: grep: $want; acgrep: $got"
				return 1
			}
		done
	done
}

@test "stdin left: stdout /dev/null seeks a regular stdin to its end" {
	s_setup
	same_left text /dev/null x
	same_left text /dev/null -c x
	same_left text /dev/null -F -e y -e x
	[[ $(left_after text /dev/null "$ACGREP" x) == "rest 0 status 0" ]]
}

@test "stdin left: -m with stdout /dev/null stops after its last line" {
	s_setup
	same_left text /dev/null -m 1 x
	same_left text /dev/null -m 3 x
	[[ $(left_after text /dev/null "$ACGREP" -m 1 x) == "rest 599998 status 0" ]]
}

@test "stdin left: -q, -l and -L leave it where their last read ended" {
	s_setup
	same_left text /dev/null -q x
	same_left text "$OUTD/out" -l x
	same_left text "$OUTD/out" -l -m 1 x
	same_left text "$OUTD/out" -L y
}

@test "stdin left: a binary input's first match and -I seek to its end" {
	s_setup
	same_left binary "$OUTD/out" x
	same_left binary "$OUTD/out" -I x
	same_left binary "$OUTD/out" -c x
}

# The exit statuses of `WRITER | PROG ARGS >OUT` (OUT: $1) under pipefail,
# the writer's first: 141 when it was killed by SIGPIPE.
pipe_statuses() {
	local out=$1
	shift
	bash -c 'set -o pipefail; seq 1 300000 | "$@" >"$0"; echo "${PIPESTATUS[*]}"' "$out" "$@"
}

@test "stdin left: a pipe is read to its end where grep reads it" {
	local a r t
	local -a threads=(--threads=1 --threads=3)
	acgrep_is_grep && threads=(--color=never) # no acgrep option
	for a in "x" "-c 5" "-m 5 5" "-I 5" "-o 5"; do
		# shellcheck disable=SC2086 # the arguments are words
		r=$(pipe_statuses /dev/null "$GREP" $a)
		for t in "${threads[@]}"; do
			# shellcheck disable=SC2086
			assert_equal "$(pipe_statuses /dev/null "$ACGREP" "$t" $a)" "$r"
		done
	done
	assert_equal "$(pipe_statuses /dev/null "$ACGREP" 5)" "0 0"
	assert_equal "$(pipe_statuses /dev/null "$ACGREP" -m 1 5)" "141 0"
	assert_equal "$(pipe_statuses "$OUTD/out" "$ACGREP" -l 5)" "141 0"
}

@test "stdin left: two operands of stdin, the first reads it to its end" {
	assert_equal "$(pipe_statuses /dev/null "$ACGREP" 5 - -)" "$(pipe_statuses /dev/null "$GREP" 5 - -)"
}
