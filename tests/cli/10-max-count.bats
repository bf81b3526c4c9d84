#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -m / --max-count.

load helpers

m_setup() {
	fixture in 'a1\nb\na2\na3\nc\nd\na4\n'
}

@test "max-count: -m 0 outputs nothing and exits 1" {
	m_setup
	in_both_locales same_as_grep -m 0 a in
	expect 1 '' -- -F -m 0 a in
}

@test "max-count: -m 0 does not even open the files" {
	in_both_locales same_as_grep -m 0 a nosuch
	expect 1 '' -- -F -m 0 a nosuch
	expect_no_stderr
}

@test "max-count: -m1 and -m 2" {
	m_setup
	in_both_locales same_as_grep -m1 a in
	in_both_locales same_as_grep -m 2 a in
	expect 0 'a1\n' -- -F -m1 a in
	expect 0 'a1\na2\n' -- -F -m 2 a in
}

@test "max-count: --max-count= long form" {
	m_setup
	in_both_locales same_as_grep --max-count=3 a in
	in_both_locales same_as_grep --max-count 3 a in
}

@test "max-count: limit larger than the number of matches" {
	m_setup
	in_both_locales same_as_grep -m 100 a in
}

@test "max-count: negative limit (grep 3.8 treats it as no limit)" {
	m_setup
	in_both_locales same_as_grep -m -1 a in
}

@test "max-count: invalid limit is an error" {
	m_setup
	in_both_locales same_as_grep -m x a in
	run_ac -F -m x a in
	expect_status 2
	expect_stderr_matches '^PROG: invalid max count$'
}

@test "max-count: -m with -c" {
	m_setup
	in_both_locales same_as_grep -c -m 2 a in
	expect 0 '2\n' -- -F -c -m 2 a in
}

@test "max-count: -m with -v counts selected (non-matching) lines" {
	m_setup
	in_both_locales same_as_grep -v -m 2 a in
	expect 0 'b\nc\n' -- -F -v -m 2 a in
}

@test "max-count: trailing context after the last match is printed" {
	m_setup
	in_both_locales same_as_grep -m 1 -A 2 a in
	in_both_locales same_as_grep -m 2 -A 1 -n a in
	expect 0 'a1\nb\na2\n' -- -F -m 1 -A 2 a in
	expect 0 '1:a1\n2-b\n3-a2\n' -- -F -m 1 -A 2 -n a in
}

@test "max-count: before context with -m" {
	m_setup
	in_both_locales same_as_grep -m 2 -B 1 -n a in
	in_both_locales same_as_grep -m 3 -C 1 a in
}

@test "max-count: applies per file" {
	fixture x 'a\na\n'
	fixture y 'a\na\n'
	in_both_locales same_as_grep -m 1 a x y
	expect 0 'x:a\ny:a\n' -- -F -m 1 a x y
}

@test "max-count: -m with -o prints all matches of the counted lines" {
	fixture in 'a a\na\n'
	in_both_locales same_as_grep -m 1 -o a in
}

@test "max-count: -m with -l and -L" {
	m_setup
	in_both_locales same_as_grep -m 1 -l a in
	in_both_locales same_as_grep -m 1 -L a in
}

@test "max-count: stdin is left just after the last selected line" {
	m_setup
	{ "$GREP" -F -m 1 a; echo REST; cat; } <in >"$OUTD/g.out" 2>&1
	{ "$ACGREP" -F -m 1 a; echo REST; cat; } <in >"$OUTD/a.out" 2>&1
	cmp "$OUTD/g.out" "$OUTD/a.out" || { diff "$OUTD/g.out" "$OUTD/a.out"; false; }
	printf 'a1\nREST\nb\na2\na3\nc\nd\na4\n' >"$OUTD/exp"
	cmp "$OUTD/exp" "$OUTD/a.out"
}

@test "max-count: stdin position ignores trailing context" {
	m_setup
	{ "$GREP" -F -m 2 -A 1 a; echo REST; cat; } <in >"$OUTD/g.out" 2>&1
	{ "$ACGREP" -F -m 2 -A 1 a; echo REST; cat; } <in >"$OUTD/a.out" 2>&1
	cmp "$OUTD/g.out" "$OUTD/a.out" || { diff "$OUTD/g.out" "$OUTD/a.out"; false; }
}
