#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Context: -A, -B, -C, -NUM, group separators, prefixes in context lines.

load helpers

ctx_setup() {
	fixture in 'l1\nl2 foo\nl3\nl4\nl5\nl6\nl7 foo\nl8\nl9\nl10\nl11 foo\n'
}

@test "context: -A after" {
	ctx_setup
	in_both_locales same_as_grep -A 1 foo in
	expect 0 'l2 foo\nl3\n--\nl7 foo\nl8\n--\nl11 foo\n' -- -F -A 1 foo in
}

@test "context: -B before" {
	ctx_setup
	in_both_locales same_as_grep -B 1 foo in
	expect 0 'l1\nl2 foo\n--\nl6\nl7 foo\n--\nl10\nl11 foo\n' -- -F -B 1 foo in
}

@test "context: -C both sides" {
	ctx_setup
	in_both_locales same_as_grep -C 1 foo in
	in_both_locales same_as_grep -C 2 foo in
	in_both_locales same_as_grep --context=1 foo in
}

@test "context: -NUM is -C NUM" {
	ctx_setup
	in_both_locales same_as_grep -1 foo in
	in_both_locales same_as_grep -2 foo in
	in_both_locales same_as_grep -12 foo in
	run_ac -F -1 foo in
	cp "$OUTD/ac.out" "$OUTD/num"
	run_ac -F -C 1 foo in
	cmp "$OUTD/num" "$OUTD/ac.out"
}

@test "context: overlapping contexts merge without separator" {
	ctx_setup
	in_both_locales same_as_grep -C 3 foo in
	expect 0 'l1\nl2 foo\nl3\nl4\nl5\nl6\nl7 foo\nl8\nl9\nl10\nl11 foo\n' -- -F -C 3 foo in
}

@test "context: adjacent contexts (no gap) merge without separator" {
	fixture in 'foo\na\nb\nfoo\n'
	in_both_locales same_as_grep -A 1 -B 1 foo in
	in_both_locales same_as_grep -A 2 foo in
	expect 0 'foo\na\nb\nfoo\n' -- -F -A 1 -B 1 foo in
}

@test "context: gap of one line prints a separator" {
	fixture in 'foo\na\nb\nc\nfoo\n'
	in_both_locales same_as_grep -A 1 -B 1 foo in
	expect 0 'foo\na\n--\nc\nfoo\n' -- -F -A 1 -B 1 foo in
}

@test "context: consecutive matching lines" {
	fixture in 'a\nfoo\nfoo\nb\nc\nd\nfoo\n'
	in_both_locales same_as_grep -C 1 -n foo in
}

@test "context: at start and end of file" {
	fixture in 'foo\na\nfoo'
	in_both_locales same_as_grep -B 5 foo in
	in_both_locales same_as_grep -A 5 foo in
}

@test "context: --group-separator=XX" {
	ctx_setup
	in_both_locales same_as_grep --group-separator=XX -A 1 foo in
	in_both_locales same_as_grep --group-separator XX -A 1 foo in
	expect 0 'l2 foo\nl3\nXX\nl7 foo\nl8\nXX\nl11 foo\n' -- -F --group-separator=XX -A 1 foo in
}

@test "context: empty --group-separator prints an empty line" {
	ctx_setup
	in_both_locales same_as_grep --group-separator= -A 1 foo in
	expect 0 'l2 foo\nl3\n\nl7 foo\nl8\n\nl11 foo\n' -- -F --group-separator= -A 1 foo in
}

@test "context: --no-group-separator" {
	ctx_setup
	in_both_locales same_as_grep --no-group-separator -A 1 foo in
	expect 0 'l2 foo\nl3\nl7 foo\nl8\nl11 foo\n' -- -F --no-group-separator -A 1 foo in
}

@test "context: separators without context are never printed" {
	ctx_setup
	in_both_locales same_as_grep --group-separator=XX foo in
	in_both_locales same_as_grep -A 0 foo in
	in_both_locales same_as_grep -C 0 foo in
}

@test "context: -A 0 still separates non-adjacent groups" {
	fixture in 'foo\nfoo\nx\nfoo\n'
	in_both_locales same_as_grep -A 0 foo in
	expect 0 'foo\nfoo\n--\nfoo\n' -- -F -A 0 foo in
}

@test "context: -n uses ':' for matches and '-' for context" {
	ctx_setup
	in_both_locales same_as_grep -n -C 1 foo in
	expect 0 '1-l1\n2:l2 foo\n3-l3\n--\n6-l6\n7:l7 foo\n8-l8\n--\n10-l10\n11:l11 foo\n' -- -F -n -C 1 foo in
}

@test "context: -b uses ':' and '-' too" {
	ctx_setup
	in_both_locales same_as_grep -b -A 1 foo in
	in_both_locales same_as_grep -b -n -B 1 foo in
}

@test "context: -H uses ':' and '-' after the file name" {
	ctx_setup
	in_both_locales same_as_grep -H -A 1 foo in
	in_both_locales same_as_grep -H -n -b -C 1 foo in
	run_ac -F -H -n -A 1 foo in
	expect_status 0
	"$GREP" -q -x -F 'in-3-l3' "$OUTD/ac.out"
	"$GREP" -q -x -F 'in:2:l2 foo' "$OUTD/ac.out"
}

@test "context: several files, separators between files" {
	fixture a 'x\nfoo\ny\n'
	fixture b 'foo\nz\n'
	in_both_locales same_as_grep -A 1 foo a b
	in_both_locales same_as_grep -C 1 -n foo a b
	expect 0 'a-x\na:foo\na-y\n--\nb:foo\nb-z\n' -- -F -C 1 foo a b
}

@test "context: -Z with context lines" {
	fixture a 'x\nfoo\n'
	fixture b 'foo\n'
	in_both_locales same_as_grep -Z -B 1 foo a b
}

@test "context: -v with context" {
	fixture in 'foo\nfoo\na\nfoo\nfoo\nfoo\nb\n'
	in_both_locales same_as_grep -v -C 1 foo in
	in_both_locales same_as_grep -v -n -A 1 foo in
}

@test "context: -A and -B override -C whatever the order" {
	ctx_setup
	in_both_locales same_as_grep -C 2 -A 0 foo in
	in_both_locales same_as_grep -A 0 -C 2 foo in
	in_both_locales same_as_grep -B 0 -C 1 foo in
}

@test "context: later -C replaces earlier -C and -NUM" {
	ctx_setup
	in_both_locales same_as_grep -C 3 -C 1 foo in
	in_both_locales same_as_grep -3 -1 foo in
}

@test "context: invalid context length" {
	ctx_setup
	in_both_locales same_as_grep -A x foo in
	in_both_locales same_as_grep -C -1 foo in
	run_ac -F -A x foo in
	expect_status 2
	expect_stderr_matches '^PROG: x: invalid context length argument$'
}

@test "context: huge context length" {
	ctx_setup
	in_both_locales same_as_grep -C 99999999999 foo in
}

@test "context: with -z" {
	fixture in 'a\000foo\000b\000c\000d\000foo\000'
	in_both_locales same_as_grep -z -C 1 foo in
	in_both_locales same_as_grep -z -n -A 1 foo in
}

@test "context: with -o prints only separators between groups" {
	ctx_setup
	in_both_locales same_as_grep -o -C 1 foo in
	in_both_locales same_as_grep -o -n -A 1 foo in
}

@test "context: with -c, -l, -q has no effect" {
	ctx_setup
	in_both_locales same_as_grep -c -C 1 foo in
	in_both_locales same_as_grep -l -C 1 foo in
	in_both_locales same_as_grep -q -C 1 foo in
}

@test "context: context lines with a last line without newline" {
	fixture in 'foo\nbar'
	in_both_locales same_as_grep -A 1 foo in
	expect 0 'foo\nbar\n' -- -F -A 1 foo in
}
