#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -x / --line-regexp.

load helpers

@test "line: -x matches whole lines only" {
	fixture in 'foo\nfoo bar\nxfoo\nfoo\n'
	in_both_locales same_as_grep -x foo in
	expect 0 'foo\nfoo\n' -- -F -x foo in
}

@test "line: --line-regexp long form" {
	fixture in 'foo\nfoo bar\n'
	in_both_locales same_as_grep --line-regexp foo in
}

@test "line: -x with several patterns, one a prefix of another" {
	fixture in 'ab\nabc\nabcd\n'
	in_both_locales same_as_grep -x -e ab -e abc in
	in_both_locales same_as_grep -x -o -e ab -e abc in
	expect 0 'ab\nabc\n' -- -F -x -e ab -e abc in
}

@test "line: -x with the empty pattern matches empty lines" {
	fixture in 'a\n\nb\n\n'
	in_both_locales same_as_grep -x '' in
	in_both_locales same_as_grep -x -n '' in
	expect 0 '2:\n4:\n' -- -F -x -n '' in
}

@test "line: -x on a last line without newline" {
	fixture in 'a\nfoo'
	in_both_locales same_as_grep -x foo in
	expect 0 'foo\n' -- -F -x foo in
}

@test "line: -x with CR at end of line" {
	fixture in 'foo\r\nfoo\n'
	fixture pats 'foo\r\n'
	in_both_locales same_as_grep -x foo in
	in_both_locales same_as_grep -x -f pats in
	in_both_locales same_as_grep -x -c -f pats in
}

@test "line: -x -i" {
	fixture in 'FOO\nFoo bar\n\303\211T\303\211\n'
	in_both_locales same_as_grep -x -i foo in
	in_both_locales same_as_grep -x -i $'\xc3\xa9t\xc3\xa9' in
}

@test "line: -x -v" {
	fixture in 'foo\nfoo bar\n\n'
	in_both_locales same_as_grep -x -v foo in
	expect 0 'foo bar\n\n' -- -F -x -v foo in
}

@test "line: -x -o prints the whole line" {
	fixture in 'foo\nfoo bar\n'
	in_both_locales same_as_grep -x -o -b foo in
}

@test "line: -x with a pattern containing newline" {
	fixture in 'a\nb\nab\n'
	in_both_locales same_as_grep -x $'a\nb' in
}

@test "line: -x with -z uses NUL-terminated records" {
	fixture in 'foo\000foo\nbar\000foo'
	in_both_locales same_as_grep -z -x foo in
	in_both_locales same_as_grep -z -x -c foo in
}
