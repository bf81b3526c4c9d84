#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -E / -G syntax errors as GNU grep 3.8 reports them (its test
# filename-lineno): one message for each distinct pattern that has one, in
# the order the patterns were given, "FILE:LINE: " before those from a -f
# file ("-" for standard input), none before -e and operand patterns;
# every one before acgrep's refusal of another pattern.  A --tagged-file
# pattern's error names its file and line too.  A pattern acgrep refuses
# (unbounded, say) reports grep's syntax error where glibc's regex finds
# one after the refused construct (not past 256 bytes, with an interval
# or with more than 2 '+', where glibc's compile has no bound: there the
# refusal stands).

load helpers

# prog_named FILE: FILE's messages with the program's name as "grep:".
prog_named() {
	sed -e 's|^acgrep:|grep:|' -e "s|^$GREP:|grep:|" -e "s|^$ACGREP:|grep:|" "$1"
}

# errors_same ARGS...: acgrep's stderr is grep's (PROG: replaced) with the
# same exit status 2, in C and C.UTF-8.
errors_same() {
	local loc gs as
	for loc in C C.UTF-8; do
		gs=0 as=0
		LC_ALL=$loc "$GREP" "$@" </dev/null >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
		LC_ALL=$loc "$ACGREP" "$@" </dev/null >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
		prog_named "$OUTD/a.err" >"$OUTD/a.norm"
		prog_named "$OUTD/g.err" >"$OUTD/g.norm"
		if [[ $gs != 2 || $as != 2 ]] || ! cmp -s "$OUTD/g.norm" "$OUTD/a.norm"; then
			echo "LC_ALL=$loc $*: grep $gs, acgrep $as"
			diff "$OUTD/g.norm" "$OUTD/a.norm"
			return 1
		fi
	done
}

@test "regex errors: each pattern's from -f files, with FILE:LINE" {
	fixture g '1\n2[[\n3\n4[[\n'
	fixture h '5\n6\n7[[\n'
	errors_same -G -f g -f h
	errors_same -E -f h -f g
	errors_same -E -e 'a(' -f g
	errors_same -E -f g -e 'a(' -e 'b\'
}

@test "regex errors: each distinct one of -e and the operand, no location" {
	errors_same -G -e '1[[' -e '2[['
	errors_same -G -e 'a[' -e 'a['
	errors_same -E -e x -e 'a(' -e 'y('
	errors_same -G -e 'a\{1' -e 'b\{1'
	errors_same -G $'a[\nb['
}

@test "regex errors: equal patterns in a file report the first one's line" {
	fixture dup 'a[\na[\nb[\n'
	errors_same -G -f dup
	fixture k 'x\\\n'
	errors_same -G -f k -e 'a\{1'
}

@test "regex errors: standard input as -f is named -" {
	local loc
	for loc in C C.UTF-8; do
		printf 'ok\nx[\n' | LC_ALL=$loc "$GREP" -G -f - in 2>"$OUTD/g.err" >/dev/null || true
		printf 'ok\nx[\n' | LC_ALL=$loc "$ACGREP" -G -f - in 2>"$OUTD/a.err" >/dev/null || true
		assert_equal "$(prog_named "$OUTD/a.err")" "$(prog_named "$OUTD/g.err")"
	done
}

@test "regex errors: grep's errors come before acgrep's refusal of another pattern" {
	skip_if_grep
	fixture g '1\n2[[\n'
	run "$ACGREP" -E -e 'a*' -f g in
	assert_failure 2
	assert_output "acgrep: g:2: Unmatched [, [^, [:, [., or [="
	run "$ACGREP" -E -e 'a*' in
	assert_failure 2
	assert_output --partial "is not supported"
}

@test "regex errors: a --tagged-file pattern's names its file and line" {
	skip_if_grep
	fixture t 'a\tx[\n# comment\n\nb\ty[\nc\tz\n'
	run "$ACGREP" -G --tagged-file t in
	assert_failure 2
	assert_output $'acgrep: t:1: Invalid regular expression\nacgrep: t:4: Invalid regular expression'
}

@test "regex errors: none with -m 0, which stops before compiling (not with -L)" {
	fixture in 'abc\n'
	local loc args gs as
	for loc in C C.UTF-8; do
		for args in "-m 0 -E (" "-m 0 -c -G a\\{1 in" "-m 0 -E a.*b in" "-m0 -v -E -e x -e ( in"; do
			gs=0 as=0
			# shellcheck disable=SC2086 # the options split on purpose
			LC_ALL=$loc "$GREP" $args </dev/null >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
			# shellcheck disable=SC2086
			LC_ALL=$loc "$ACGREP" $args </dev/null >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
			[[ $gs == 1 && $as == 1 && ! -s $OUTD/a.out && ! -s $OUTD/a.err ]] ||
				{ echo "LC_ALL=$loc $args: grep $gs, acgrep $as"; cat "$OUTD/a.err"; return 1; }
		done
	done
	errors_same -m 0 -L -E '(' in
}

@test "regex errors: a refused pattern's later syntax error is grep's (glibc's regex)" {
	errors_same -G 'a.*\)'
	errors_same -E 'a.*('
	errors_same -G 'a*\(b'
	errors_same -G -e x -e 'a.*['
	errors_same -i -G '.*\('
	errors_same -E -e '.*[[:foo:]]' -e 'b('
}

@test "regex errors: a refused pattern glibc cannot compile in bounded memory keeps its refusal" {
	fixture in 'a\n'
	awk 'BEGIN { printf "x.*"; for (i = 0; i < 60000; i++) printf "|w%dq", i; print "" }' >alts
	awk 'BEGIN { printf "a*"; for (i = 0; i < 50000; i++) printf "("; printf "a"
		for (i = 0; i < 50000; i++) printf ")"; print "" }' >nested
	local f s vm=4000000
	# a sanitizer's shadow memory does not fit in ulimit -v: the time limit only
	[[ -z ${TSAN_OPTIONS:-}${ASAN_OPTIONS:-} ]] || vm=unlimited
	for f in alts nested; do
		s=0
		(ulimit -v "$vm" -t 20 && exec "$ACGREP" -E -f "$f" in) >"$OUTD/a.out" 2>"$OUTD/a.err" || s=$?
		[[ $s == 2 ]] && grep -q 'is not supported' "$OUTD/a.err" || { echo "$f: status $s"; cat "$OUTD/a.err"; return 1; }
	done
	run "$ACGREP" -E '(a{0,32767}){0,32767}' in
	assert_failure 2
	assert_output --partial 'is not supported'
	# each + copies what it repeats: 40 of them, 2^40 copies
	s=0
	(ulimit -v "$vm" -t 20 && exec "$ACGREP" -E 'a++++++++++++++++++++++++++++++++++++++++' in) \
		>"$OUTD/a.out" 2>"$OUTD/a.err" || s=$?
	[[ $s == 2 ]] && grep -q 'is not supported' "$OUTD/a.err" || { echo "pluses: status $s"; cat "$OUTD/a.err"; return 1; }
	# closures past bound: stacked '?' and '+' (7 s in grep), a long group
	(ulimit -v "$vm" -t 20 && exec "$ACGREP" -E 'n?????+++++++\)(' in) >"$OUTD/a.out" 2>"$OUTD/a.err" || s=$?
	grep -q 'is not supported' "$OUTD/a.err" || { echo "stacked: status $s"; cat "$OUTD/a.err"; return 1; }
	awk 'BEGIN { printf "("; for (i = 0; i < 150; i++) printf "n?"; print ")+\\)(" }' >group
	run "$ACGREP" -E -f group in
	assert_failure 2
	assert_output --partial 'is not supported'
	# up to 2 still get glibc's judgement: grep's error after the refusal
	errors_same -E 'a++\)('
}
