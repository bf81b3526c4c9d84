#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# A closed standard output (`acgrep ... >&-`): as GNU grep 3.8, an input
# opened while stdout is closed takes descriptor 1 but is not the output
# ("input file is also the output" compares inputs with what stdout was
# before anything was opened); with nothing to write the run is silent,
# and the first write fails: "write error: Bad file descriptor", status 2.
# Every case is compared with grep (stderr, exit status) in C and
# C.UTF-8, on the default number of threads and on one to three, through
# mmap and read().

load helpers

setup() {
	common_setup
	fixture_lines a 'abc one' 'xyz two' 'abc three'
	fixture_lines b 'nothing here'
	fixture_lines d/one 'abc in d'
	fixture_lines d/two 'xyz in d'
	fixture_lines d/sub/three 'abc deeper' 'more'
	# acgrep's own options each case runs with (grep runs once, without)
	EXTRAS=("")
}

# closed_same ARGS...: `grep ARGS >&-` against `acgrep EXTRA ARGS >&-` for
# each EXTRA of EXTRAS (split on spaces): the same stderr, program names
# aside, and the same exit status.  Standard input is $SAG_STDIN.
closed_same() {
	local x gs=0 as args
	local -a extra
	: >"$OUTD/g.out"
	: >"$OUTD/a.out"
	"$GREP" "$@" <"${SAG_STDIN:-/dev/null}" 2>"$OUTD/g.err" >&- || gs=$?
	echo "$gs" >"$OUTD/g.rc"
	for x in "${EXTRAS[@]}"; do
		read -r -a extra <<<"$x"
		as=0
		"$ACGREP" "${extra[@]}" "$@" <"${SAG_STDIN:-/dev/null}" 2>"$OUTD/a.err" >&- || as=$?
		echo "$as" >"$OUTD/a.rc"
		printf -v args '%q ' "$@"
		_compare "stdout closed; acgrep extra: $x; args: $args" || return 1
	done
}

# each_option ARGS...: closed_same over the output options, with a line
# selected and with none, then ARGS.
each_option() {
	local o p
	for o in "" -c -q -l -L -m1 -n -s; do
		for p in abc nomatch; do
			# shellcheck disable=SC2086
			closed_same -F $o "$p" "$@" || return 1
		done
	done
}

@test "closed stdout: silent when nothing is written, write error otherwise" {
	in_both_locales each_option a
}

@test "closed stdout: every thread count and I/O path" {
	acgrep_is_grep || EXTRAS=(--threads=1 --threads=3 --mmap --no-mmap "--threads=1 --no-mmap")
	each_option a
}

@test "closed stdout: -r over a tree, several operands, a missing one" {
	acgrep_is_grep || EXTRAS=("" --threads=1 --threads=3 --no-mmap)
	local o p
	for o in "" -c -L; do
		for p in abc nomatch; do
			# shellcheck disable=SC2086
			note_case "$o $p" closed_same -F -r $o "$p" d || return 1
			# shellcheck disable=SC2086
			note_case "$o $p" closed_same -F $o "$p" b a b || return 1
		done
	done
	in_both_locales closed_same -F nomatch missing a
	in_both_locales closed_same -F abc missing a
}

@test "closed stdout: standard input" {
	acgrep_is_grep || EXTRAS=("" --threads=1)
	SAG_STDIN=a in_both_locales closed_same -F nomatch
	SAG_STDIN=a in_both_locales closed_same -F nomatch - b
	SAG_STDIN=a in_both_locales closed_same -F abc b -
}

@test "closed stdout: --files-from, its list on descriptor 1 too" {
	skip_if_grep "--files-from"
	local x
	printf 'a\nb\n' >list
	for x in "" --threads=1 --threads=3; do
		ac_status=0
		# shellcheck disable=SC2086
		"$ACGREP" $x --files-from=list -F nomatch 2>"$OUTD/ac.err" >&- || ac_status=$?
		assert_equal "$x: $ac_status" "$x: 1"
		[[ ! -s $OUTD/ac.err ]] || fail "$x: $(cat "$OUTD/ac.err")"
		ac_status=0
		# shellcheck disable=SC2086
		"$ACGREP" $x --files-from=list -F abc 2>"$OUTD/ac.err" >&- || ac_status=$?
		assert_equal "$x: $ac_status" "$x: 2"
		assert_equal "$(cat "$OUTD/ac.err")" "acgrep: write error: Bad file descriptor"
	done
}
