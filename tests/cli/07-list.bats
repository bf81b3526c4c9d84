#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -l / --files-with-matches, -L / --files-without-match.

load helpers

list_setup() {
	fixture a 'foo\nbar\n'
	fixture b 'bar\n'
	fixture c 'foo\n'
	: >empty
}

@test "list: -l prints names of matching files" {
	list_setup
	in_both_locales same_as_grep -l foo a b c empty
	expect 0 'a\nc\n' -- -F -l foo a b c empty
}

@test "list: -l with no matching file exits 1" {
	list_setup
	in_both_locales same_as_grep -l zzz a b
	expect 1 '' -- -F -l zzz a b
}

@test "list: -L prints names of files without matches" {
	list_setup
	in_both_locales same_as_grep -L foo a b c empty
	expect 0 'b\nempty\n' -- -F -L foo a b c empty
}

@test "list: -L exit status follows selected lines, not listed files (grep 3.5+)" {
	list_setup
	# every file matches: nothing listed, yet status 0
	in_both_locales same_as_grep -L foo a c
	expect 0 '' -- -F -L foo a c
	# no file matches: the file is listed, yet status 1
	in_both_locales same_as_grep -L foo b
	expect 1 'b\n' -- -F -L foo b
}

@test "list: -l -v lists files with some non-matching line" {
	list_setup
	in_both_locales same_as_grep -l -v foo a b c empty
	expect 0 'a\nb\n' -- -F -l -v foo a b c empty
}

@test "list: -L -v" {
	list_setup
	in_both_locales same_as_grep -L -v foo a b c empty
	expect 0 'c\nempty\n' -- -F -L -v foo a b c empty
}

@test "list: -l with a single file still prints the name" {
	list_setup
	in_both_locales same_as_grep -l foo a
	expect 0 'a\n' -- -F -l foo a
}

@test "list: -l on stdin prints (standard input)" {
	list_setup
	SAG_STDIN=a in_both_locales same_as_grep -l foo
	SAG_STDIN=a expect 0 '(standard input)\n' -- -F -l foo
	SAG_STDIN=a expect 0 'LBL\n' -- -F -l --label=LBL foo -
}

@test "list: -l -Z ends names with NUL" {
	list_setup
	in_both_locales same_as_grep -l -Z foo a b c
	expect 0 'a\000c\000' -- -F -l -Z foo a b c
}

@test "list: -L -Z" {
	list_setup
	in_both_locales same_as_grep -L -Z foo a b c
	expect 0 'b\000' -- -F -L -Z foo a b c
}

@test "list: long forms" {
	list_setup
	in_both_locales same_as_grep --files-with-matches foo a b
	in_both_locales same_as_grep --files-without-match foo a b
	in_both_locales same_as_grep --null --files-with-matches foo a b
}

@test "list: -l with -c, -n, -o (list wins)" {
	list_setup
	in_both_locales same_as_grep -l -c foo a b c
	in_both_locales same_as_grep -l -n -o foo a b c
	in_both_locales same_as_grep -l -H -h foo a b c
}

@test "list: -l and -L together: the last one wins" {
	list_setup
	in_both_locales same_as_grep -l -L foo a b c
	in_both_locales same_as_grep -L -l foo a b c
}

@test "list: -l with a missing file" {
	list_setup
	in_both_locales same_as_grep -l foo a nosuch c
	in_both_locales same_as_grep -L foo a nosuch b
}

@test "list: -l with -m" {
	list_setup
	in_both_locales same_as_grep -l -m 1 foo a b c
	in_both_locales same_as_grep -L -m 1 bar a b c
}

@test "list: -l -i and -l -w" {
	fixture a 'FOO\n'
	fixture b 'foobar\n'
	in_both_locales same_as_grep -l -i foo a b
	in_both_locales same_as_grep -l -w foo a b
}

@test "list: -l on a binary file" {
	fixture bin 'foo\000bar\n'
	fixture txt 'foo\n'
	in_both_locales same_as_grep -l foo bin txt
	in_both_locales same_as_grep -L bar bin txt
}
