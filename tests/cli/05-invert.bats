#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -v / --invert-match.

load helpers

@test "invert: -v selects non-matching lines" {
	fixture in 'foo\nbar\nbaz\nfoobar\n'
	in_both_locales same_as_grep -v foo in
	expect 0 'bar\nbaz\n' -- -F -v foo in
}

@test "invert: -v where every line matches gives exit 1" {
	fixture in 'foo\nfoo\n'
	in_both_locales same_as_grep -v foo in
	expect 1 '' -- -F -v foo in
}

@test "invert: -v where no line matches prints everything" {
	fixture in 'a\nb\n'
	in_both_locales same_as_grep -v zzz in
	expect 0 'a\nb\n' -- -F -v zzz in
}

@test "invert: --invert-match long form" {
	fixture in 'a\nb\n'
	in_both_locales same_as_grep --invert-match a in
}

@test "invert: -v with the empty pattern selects nothing" {
	fixture in 'a\n\nb\n'
	in_both_locales same_as_grep -v '' in
	expect 1 '' -- -F -v '' in
}

@test "invert: -v on empty input" {
	: >in
	in_both_locales same_as_grep -v foo in
	expect 1 '' -- -F -v foo in
}

@test "invert: -v keeps the missing final newline convention" {
	fixture in 'foo\nbar'
	in_both_locales same_as_grep -v foo in
	expect 0 'bar\n' -- -F -v foo in
}

@test "invert: -v with several patterns" {
	fixture in 'one\ntwo\nthree\nfour\n'
	in_both_locales same_as_grep -v -e one -e hre in
}

@test "invert: -v -n and -v -b" {
	fixture in 'foo\nbar\nfoo\nbaz\n'
	in_both_locales same_as_grep -v -n foo in
	in_both_locales same_as_grep -v -b foo in
	expect 0 '2:bar\n4:baz\n' -- -F -v -n foo in
}

@test "invert: -v -o prints nothing but still reports selection" {
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep -v -o foo in
	in_both_locales same_as_grep -v -o zzz in
}

@test "invert: -v with -w and -x" {
	fixture in 'foo\nfoobar\nfoo bar\n'
	in_both_locales same_as_grep -v -w foo in
	in_both_locales same_as_grep -v -x foo in
}

@test "invert: -v on a file with invalid UTF-8" {
	fixture in 'ok\nbad\377line\nfine\n'
	in_both_locales same_as_grep -v ok in
	in_both_locales same_as_grep -a -v ok in
}

@test "invert: a final line without terminator starts a new run, as grep searches it alone" {
	# the first line is selected but suppressed (encoding error), so the
	# final line's run prints a group separator: grep searches an
	# unterminated last line in a call of its own
	printf 'a\200 b\nd' >u
	LC_ALL=C.UTF-8 expect 0 '--\nd\n' -- -F -v -B 1 zz u
	in_both_locales same_as_grep -v -B 1 zz u
	in_both_locales same_as_grep -v -A 1 -n zz u
	printf 'a\200 b\0\nc' >z
	in_both_locales same_as_grep -z -v -B 1 zz z
}
