#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -c / --count.

load helpers

@test "count: -c counts matching lines, not matches" {
	fixture in 'foo foo\nbar\nfoo\n'
	in_both_locales same_as_grep -c foo in
	expect 0 '2\n' -- -F -c foo in
}

@test "count: -c with no match prints 0 and exits 1" {
	fixture in 'a\n'
	in_both_locales same_as_grep -c foo in
	expect 1 '0\n' -- -F -c foo in
}

@test "count: -c on empty input" {
	: >in
	in_both_locales same_as_grep -c foo in
	expect 1 '0\n' -- -F -c foo in
}

@test "count: --count long form" {
	fixture in 'a\nb\na\n'
	in_both_locales same_as_grep --count a in
}

@test "count: -c -v" {
	fixture in 'foo\nbar\nbaz\n'
	in_both_locales same_as_grep -c -v foo in
	expect 0 '2\n' -- -F -c -v foo in
}

@test "count: -c -m stops counting at the limit" {
	fixture in 'a\na\na\nb\na\n'
	in_both_locales same_as_grep -c -m 2 a in
	in_both_locales same_as_grep -c -m 2 -v a in
	in_both_locales same_as_grep -c -m 10 a in
	expect 0 '2\n' -- -F -c -m 2 a in
}

@test "count: -c with several files prints names" {
	fixture a 'x\nx\n'
	fixture b 'y\n'
	in_both_locales same_as_grep -c x a b
	expect 0 'a:2\nb:0\n' -- -F -c x a b
}

@test "count: -c -h with several files" {
	fixture a 'x\nx\n'
	fixture b 'y\n'
	in_both_locales same_as_grep -c -h x a b
	expect 0 '2\n0\n' -- -F -c -h x a b
}

@test "count: -c -H with one file" {
	fixture a 'x\n'
	in_both_locales same_as_grep -c -H x a
	expect 0 'a:1\n' -- -F -c -H x a
}

@test "count: -c -o counts lines" {
	fixture in 'ab ab ab\nab\n'
	in_both_locales same_as_grep -c -o ab in
}

@test "count: -c with the empty pattern" {
	fixture in 'a\n\nb'
	in_both_locales same_as_grep -c '' in
	expect 0 '3\n' -- -F -c '' in
}

@test "count: -c counts a last line without newline" {
	fixture in 'foo\nfoo'
	in_both_locales same_as_grep -c foo in
	expect 0 '2\n' -- -F -c foo in
}

@test "count: -c -Z puts NUL after the file name" {
	fixture a 'x\n'
	fixture b 'x\n'
	in_both_locales same_as_grep -c -Z x a b
	expect 0 'a\0001\nb\0001\n' -- -F -c -Z x a b
}

@test "count: -c with context options prints only counts" {
	fixture in 'a\nb\na\nc\n'
	in_both_locales same_as_grep -c -C 1 a in
	in_both_locales same_as_grep -c -n -b a in
}

@test "count: -c on stdin" {
	fixture in 'a\nb\na\n'
	SAG_STDIN=in in_both_locales same_as_grep -c a
	SAG_STDIN=in in_both_locales same_as_grep -c -H a
}
