#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -q / --quiet / --silent, and exit statuses.

load helpers

@test "quiet: -q prints nothing, exit 0 on match" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -q foo in
	expect 0 '' -- -F -q foo in
	expect_no_stderr
}

@test "quiet: -q exit 1 without match" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -q bar in
	expect 1 '' -- -F -q bar in
}

@test "quiet: --quiet and --silent" {
	fixture in 'foo\n'
	in_both_locales same_as_grep --quiet foo in
	in_both_locales same_as_grep --silent foo in
}

@test "quiet: -q exit 2 on a missing file without any match" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -q bar nosuch in
	run_ac -F -q bar nosuch in
	expect_status 2
	expect_stderr_matches '^PROG: nosuch: No such file or directory$'
}

@test "quiet: -q exit 0 on a match even after an error" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -q foo nosuch in
	run_ac -F -q foo nosuch in
	expect_status 0
	expect_stderr_matches 'nosuch: No such file or directory'
}

@test "quiet: -q stops at the first match: later missing file is not reported" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -q foo in nosuch
	run_ac -F -q foo in nosuch
	expect_status 0
	expect_no_stderr
}

@test "quiet: -q -s hides the message but keeps status 2" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -q -s bar nosuch in
	run_ac -F -q -s bar nosuch in
	expect_status 2
	expect_no_stderr
}

@test "quiet: -q -v" {
	fixture in 'foo\nfoo\n'
	in_both_locales same_as_grep -q -v foo in
	fixture in2 'foo\nbar\n'
	in_both_locales same_as_grep -q -v foo in2
}

@test "quiet: -q with -c, -l, -o prints nothing" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -q -c foo in
	in_both_locales same_as_grep -q -l foo in
	in_both_locales same_as_grep -q -o -n foo in
	expect 0 '' -- -F -q -c foo in
}

@test "quiet: -q on a binary file prints no binary message" {
	fixture in 'foo\000\n'
	in_both_locales same_as_grep -q foo in
	run_ac -F -q foo in
	expect_status 0
	expect_no_stderr
}

@test "quiet: -q on stdin" {
	fixture in 'foo\n'
	SAG_STDIN=in in_both_locales same_as_grep -q foo
	SAG_STDIN=in in_both_locales same_as_grep -q bar
}

@test "quiet: -q with the empty pattern on empty input" {
	: >in
	in_both_locales same_as_grep -q '' in
	expect 1 '' -- -F -q '' in
}
