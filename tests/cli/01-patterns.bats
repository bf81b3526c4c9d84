#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Pattern sources: -e, -f, positional, empty patterns, duplicates, CRLF.

load helpers

@test "patterns: single positional pattern" {
	fixture in 'foo\nbar\nfoobar\n'
	in_both_locales same_as_grep foo in
	expect 0 'foo\nfoobar\n' -- -F foo in
}

@test "patterns: no match gives exit 1 and no output" {
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep zzz in
	expect 1 '' -- -F zzz in
}

@test "patterns: -e repeated" {
	fixture in 'foo\nbar\nbaz\nqux\n'
	in_both_locales same_as_grep -e foo -e baz in
	in_both_locales same_as_grep -e foo -e baz -e qux -e nope in
	expect 0 'foo\nbaz\n' -- -F -e foo -e baz in
}

@test "patterns: -e with a pattern starting with a dash" {
	fixture in 'a -x b\nplain\n'
	in_both_locales same_as_grep -e -x in
	expect 0 'a -x b\n' -- -F -e -x in
}

@test "patterns: --regexp= long form" {
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep --regexp=bar in
	in_both_locales same_as_grep --regexp bar --regexp foo in
}

@test "patterns: -f file" {
	fixture pats 'foo\nbaz\n'
	fixture in 'foo\nbar\nbaz\n'
	in_both_locales same_as_grep -f pats in
	expect 0 'foo\nbaz\n' -- -F -f pats in
}

@test "patterns: -f file without final newline" {
	fixture pats 'foo\nbaz'
	fixture in 'foo\nbar\nbaz\n'
	in_both_locales same_as_grep -f pats in
}

@test "patterns: -f twice and -f with -e" {
	fixture p1 'foo\n'
	fixture p2 'bar\n'
	fixture in 'foo\nbar\nbaz\n'
	in_both_locales same_as_grep -f p1 -f p2 in
	in_both_locales same_as_grep -f p1 -e baz in
	expect 0 'foo\nbaz\n' -- -F -f p1 -e baz in
}

@test "patterns: -f - reads patterns from stdin" {
	fixture pats 'bar\n'
	fixture in 'foo\nbar\n'
	SAG_STDIN=pats in_both_locales same_as_grep -f - in
	SAG_STDIN=pats expect 0 'bar\n' -- -F -f - in
}

@test "patterns: --file= long form" {
	fixture pats 'bar\n'
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep --file=pats in
}

@test "patterns: empty -f file matches nothing" {
	: >pats
	fixture in 'foo\n\nbar\n'
	in_both_locales same_as_grep -f pats in
	expect 1 '' -- -F -f pats in
}

@test "patterns: empty -f file with -v selects every line" {
	: >pats
	fixture in 'foo\n\nbar\n'
	in_both_locales same_as_grep -v -f pats in
	expect 0 'foo\n\nbar\n' -- -F -v -f pats in
}

@test "patterns: empty -f file plus -e still matches -e" {
	: >pats
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep -f pats -e bar in
}

@test "patterns: -f file holding one empty line matches every line" {
	fixture pats '\n'
	fixture in 'foo\n\nbar\n'
	in_both_locales same_as_grep -f pats in
	expect 0 'foo\n\nbar\n' -- -F -f pats in
}

@test "patterns: empty pattern matches every line" {
	fixture in 'foo\n\nbar\n'
	in_both_locales same_as_grep '' in
	in_both_locales same_as_grep -e '' in
	expect 0 'foo\n\nbar\n' -- -F '' in
}

@test "patterns: empty pattern among others" {
	fixture in 'foo\n\nbar\n'
	in_both_locales same_as_grep -e foo -e '' in
	in_both_locales same_as_grep -c -e zzz -e '' in
}

@test "patterns: missing -f file is an error (exit 2)" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -f nosuch in
	run_ac -F -f nosuch in
	expect_status 2
	expect_stderr_matches '^PROG: nosuch: No such file or directory$'
}

@test "patterns: newline-separated positional pattern is two patterns" {
	fixture in 'foo\nbar\nbaz\n'
	in_both_locales same_as_grep $'foo\nbaz' in
	expect 0 'foo\nbaz\n' -- -F $'foo\nbaz' in
}

@test "patterns: newline-separated -e pattern, trailing newline adds an empty pattern" {
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep -e $'foo\n' in
	in_both_locales same_as_grep -c -e $'foo\n' in
}

@test "patterns: duplicate patterns" {
	fixture in 'foo\nbar\nfoofoo\n'
	in_both_locales same_as_grep -e foo -e foo in
	in_both_locales same_as_grep -o -e foo -e foo -e foo in
	fixture pats 'foo\nfoo\nbar\nfoo\n'
	in_both_locales same_as_grep -f pats in
	expect 0 'foo\nbar\nfoo\nfoo\n' -- -F -o -f pats in
}

@test "patterns: pattern that is a prefix of another" {
	fixture in 'abcd\nabc\nab\n'
	in_both_locales same_as_grep -e ab -e abcd in
	in_both_locales same_as_grep -o -e ab -e abcd in
	expect 0 'abcd\nab\nab\n' -- -F -o -e ab -e abcd in
}

@test "patterns: CRLF pattern file keeps the CR in the pattern" {
	fixture pats 'foo\r\nbar\r\n'
	fixture in 'foo\nfoo\r\nbar\r\nbar\n'
	in_both_locales same_as_grep -f pats in
	in_both_locales same_as_grep -c -f pats in
	expect 0 '2\n' -- -F -c -f pats in
}

@test "patterns: CRLF pattern against LF-only text matches nothing" {
	fixture pats 'foo\r\n'
	fixture in 'foo\nfood\n'
	in_both_locales same_as_grep -f pats in
	in_both_locales same_as_grep -x -f pats in
}

@test "patterns: regex metacharacters are literal" {
	fixture in 'a.c\nabc\na*c\n[x]\n^$\n\\\\d\n'
	local p
	for p in '.' 'a.c' 'a*c' '[x]' '^$' '\' '\d' '(' '|'; do
		in_both_locales same_as_grep "$p" in
	done
	expect 0 'a.c\n' -- -F 'a.c' in
}

@test "patterns: pattern longer than every line" {
	fixture in 'ab\nabc\n'
	in_both_locales same_as_grep abcdefghijkl in
}

@test "patterns: many patterns on the command line" {
	fixture in 'one\ntwo\nthree\nfour\nfive\nsix\n'
	in_both_locales same_as_grep -e one -e two -e thr -e our -e x -e ix -e v in
}

@test "patterns: UTF-8 patterns" {
	fixture in 'caf\303\251\ncafe\n\316\261\316\262\316\263\n'
	in_both_locales same_as_grep $'caf\xc3\xa9' in
	in_both_locales same_as_grep $'\xce\xb2' in
	in_both_locales same_as_grep -o $'\xce\xb2\xce\xb3' in
}

@test "patterns: pattern with a NUL byte from -f" {
	fixture pats 'a\000b\n'
	fixture in 'xa\000by\nab\n'
	in_both_locales same_as_grep -a -f pats in
	in_both_locales same_as_grep -c -f pats in
}

@test "patterns: no pattern at all is a usage error" {
	in_both_locales same_as_grep_pre -F
	run_ac -F
	expect_status 2
	expect_stderr_matches '^Usage: PROG '
}
