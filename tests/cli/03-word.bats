#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -w / --word-regexp: word-constituent boundaries, fallbacks, UTF-8 letters.

load helpers

@test "word: whole word matches, embedded does not" {
	fixture in 'foo\nfoobar\nbarfoo\nbar foo baz\nxfoox\n'
	in_both_locales same_as_grep -w foo in
	expect 0 'foo\nbar foo baz\n' -- -F -w foo in
}

@test "word: 'foo foobar' line matches foo" {
	fixture in 'foo foobar\n'
	in_both_locales same_as_grep -w foo in
	in_both_locales same_as_grep -w -o -b foo in
	expect 0 '0:foo\n' -- -F -w -o -b foo in
}

@test "word: first occurrence fails, later occurrence on the line succeeds" {
	fixture in 'foobar foo\nfoobar\n'
	in_both_locales same_as_grep -w foo in
	in_both_locales same_as_grep -w -o -b foo in
	expect 0 '7:foo\n' -- -F -w -o -b foo in
}

@test "word: prefix of a word is rejected" {
	fixture in 'food\n'
	in_both_locales same_as_grep -w foo in
	expect 1 '' -- -F -w foo in
}

@test "word: suffix of a word is rejected" {
	fixture in 'barfoo\n'
	in_both_locales same_as_grep -w foo in
	expect 1 '' -- -F -w foo in
}

@test "word: longer match failing falls back to a shorter pattern at the same start" {
	fixture in 'foobarx foo\nfoob foobar\n'
	in_both_locales same_as_grep -w -o -e foo -e foobar -e foob in
	in_both_locales same_as_grep -w -o -b -e foobar -e foo in
}

@test "word: shorter match failing, longer succeeds" {
	fixture in 'foobar\n'
	in_both_locales same_as_grep -w -o -e foo -e foobar in
	expect 0 'foobar\n' -- -F -w -o -e foo -e foobar in
}

@test "word: no pattern qualifies at the start, a later start does" {
	fixture in 'abcd ab\n'
	in_both_locales same_as_grep -w -o -b -e abc -e ab in
	expect 0 '5:ab\n' -- -F -w -o -b -e abc -e ab in
}

@test "word: repeated letters" {
	fixture in 'aaa\naa aaa a\n'
	in_both_locales same_as_grep -w -e a -e aa in
	in_both_locales same_as_grep -w -o -n -e a -e aa in
	in_both_locales same_as_grep -w -o -n aa in
}

@test "word: underscore is a word character" {
	fixture in 'foo_bar\n_foo\nfoo_\nfoo\n'
	in_both_locales same_as_grep -w foo in
	in_both_locales same_as_grep -w foo_bar in
	expect 0 'foo\n' -- -F -w foo in
}

@test "word: digits are word characters" {
	fixture in 'a1 a\nfoo2\n2foo\nfoo 2\n'
	in_both_locales same_as_grep -w foo in
	in_both_locales same_as_grep -w -o a in
	in_both_locales same_as_grep -w 2 in
}

@test "word: punctuation and spaces are boundaries" {
	fixture in 'foo-bar\n(foo)\nfoo.\n"foo"\n\tfoo\t\n'
	in_both_locales same_as_grep -w foo in
	in_both_locales same_as_grep -w -c foo in
	expect 0 '5\n' -- -F -w -c foo in
}

@test "word: start and end of line are boundaries" {
	fixture in 'foo\nfoo bar\nbar foo\n'
	in_both_locales same_as_grep -w -n foo in
}

@test "word: pattern with non-word characters at its edges" {
	fixture in ' foo\nfoo \nxfoo ybar\nfoo-bar\n'
	in_both_locales same_as_grep -w -e ' foo' in
	in_both_locales same_as_grep -w -e 'foo ' in
	in_both_locales same_as_grep -w -e 'o y' in
	in_both_locales same_as_grep -w -e '-' in
	in_both_locales same_as_grep -w -e 'foo-bar' -e bar in
}

@test "word: pattern consisting of non-word characters only" {
	fixture in 'a - b\na-b\n--\n'
	in_both_locales same_as_grep -w -e '-' in
	in_both_locales same_as_grep -w -o -b -e '-' in
}

@test "word: UTF-8 letters are word characters in C.UTF-8 only" {
	fixture in '\303\251foo foo\303\251 foo\nfoo\303\251\n\316\261foo\n'
	in_both_locales same_as_grep -w foo in
	in_both_locales same_as_grep -w -o -n foo in
	LC_ALL=C expect 0 '1:foo\n1:foo\n1:foo\n2:foo\n3:foo\n' -- -F -w -o -n foo in
	LC_ALL=C.UTF-8 expect 0 '1:foo\n' -- -F -w -o -n foo in
}

@test "word: a UTF-8 word as the pattern" {
	fixture in '\316\261foo \316\261\n\316\261\316\262 \316\261\n'
	in_both_locales same_as_grep -w $'\xce\xb1' in
	in_both_locales same_as_grep -w -o -b $'\xce\xb1' in
}

@test "word: invalid UTF-8 byte next to the match" {
	fixture in 'x\377foo\nfoo\377\n'
	in_both_locales same_as_grep -a -w foo in
	in_both_locales same_as_grep -a -w -c foo in
}

@test "word: -w with overlapping candidates foofoo foo" {
	fixture in 'foofoo foo\n'
	in_both_locales same_as_grep -w -o -e foofoo -e foo in
	expect 0 'foofoo\nfoo\n' -- -F -w -o -e foofoo -e foo in
}

@test "word: -w with the empty pattern" {
	fixture in 'foo\n \n\nbar baz\n'
	in_both_locales same_as_grep -w '' in
	in_both_locales same_as_grep -w -n -e '' -e bar in
}

@test "word: -w -v and -w -c" {
	fixture in 'foo\nfood\nfoo bar\n'
	in_both_locales same_as_grep -w -v foo in
	in_both_locales same_as_grep -w -c foo in
	expect 0 'food\n' -- -F -w -v foo in
}

@test "word: -w -i" {
	fixture in 'FOO bar\nFOObar\n\303\211t\303\251 \303\251t\303\251\n'
	in_both_locales same_as_grep -w -i foo in
	in_both_locales same_as_grep -w -i -o $'\xc3\xa9t\xc3\xa9' in
}

@test "word: -w with -x is -x" {
	fixture in 'foo\nfoo bar\n'
	in_both_locales same_as_grep -w -x foo in
	in_both_locales same_as_grep -w -x 'foo bar' in
}

@test "word: -w, the empty pattern and an invalid UTF-8 pattern (grep's regex matcher)" {
	# grep never accepts an empty match where a longer one starts and fails
	fixture u ' \341\272\236\303\237\n \nab\n\n'
	LC_ALL=C.UTF-8 same_as_grep -w -b -e ' ' -e '' -e $'S\303' u
	LC_ALL=C.UTF-8 same_as_grep -w -c -e ' ' -e '' -e $'S\303' u
	in_both_locales same_as_grep -w -b -e ' ' -e '' u
}

@test "word: -o from inside a line: grep's shorter retries fall short by the offset (regex matcher)" {
	# "_ " at 2 is no whole word; grep retries at 2 with a limit counted
	# from where its -o search began (2), not the line start, so the
	# shorter "_" is never tried and nothing is printed; from the line
	# start (-c, or -o on "_ 1") the retry finds it
	fixture t '  _ 1\n_ 1\n'
	local pats=$'_ \n\n_ \316\262\n_'
	LC_ALL=C.UTF-8 expect 0 '_\n' -- -F -w -o -i "$pats" t
	LC_ALL=C.UTF-8 same_as_grep -w -o -i "$pats" t
	LC_ALL=C.UTF-8 same_as_grep -w -c -i "$pats" t
	LC_ALL=C.UTF-8 same_as_grep -w -i --color=always "$pats" t
}

@test "word: -o on a long line of matches takes linear time" {
	# each search stops once no match can start earlier than its best
	# candidate (a quadratic scan to the line end took 27 s on this line;
	# grep 5 ms): found by the fuzzers' slow inputs
	awk 'BEGIN { for (i = 0; i < 50000; i++) printf "foo "; printf "\n" }' >long
	local s=0 limit=10
	[[ $ACGREP != *-qemu ]] || limit=120 # emulated: still far below quadratic
	LC_ALL=C timeout $limit "$ACGREP" -F -w -o -e foo -e bar long >"$OUTD/a.out" || s=$?
	assert_equal "$s" 0
	assert_equal "$(wc -l <"$OUTD/a.out")" 50000
	LC_ALL=C timeout $limit "$ACGREP" -F -w -c --color=always -e foo -e bar long >/dev/null || s=$?
	assert_equal "$s" 0
	in_both_locales same_as_grep -w -o -e foo -e bar long
	# grep's regex-matcher rules (an invalid UTF-8 pattern): an empty
	# match is tried against longer ones only up to the longest pattern
	awk 'BEGIN { for (i = 0; i < 20000; i++) printf ", "; printf "\n" }' >commas
	LC_ALL=C.UTF-8 timeout $limit "$ACGREP" -F -w -o -e '' -e $'\377' commas >"$OUTD/a.out" || s=$?
	assert_equal "$s" 0
	LC_ALL=C.UTF-8 same_as_grep -w -o -e '' -e $'\377' commas
	LC_ALL=C.UTF-8 same_as_grep -w -c -e '' -e $'\377' commas
}

@test "word: grep's shorter retries are not worked out for matches that lose" {
	# grep's regex-matcher rules (an invalid UTF-8 pattern) with -o from
	# inside a line: each match that could not beat the best candidate
	# went through grep's retries, cubic in the matches at one start
	# (13.6 s with 400 patterns "a", "a a", ...; grep 0.13 s): found by
	# fuzz_matcher's timeouts
	awk 'BEGIN { for (k = 1; k <= 400; k++) { p = "a"; for (i = 1; i < k; i++) p = p " a"; print p }
		printf "\377\n" }' >pats
	awk 'BEGIN { printf "a;a"; for (i = 1; i < 400; i++) printf " a"; printf "\n" }' >line
	local s=0
	# a CPU-time limit, not a wall-clock one: a loaded machine cannot trip it
	(ulimit -t 5 && LC_ALL=C.UTF-8 exec "$ACGREP" -F -w -o -f pats line) >"$OUTD/a.out" || s=$?
	assert_equal "$s" 0
	LC_ALL=C.UTF-8 same_as_grep -w -o -f pats line
	LC_ALL=C.UTF-8 same_as_grep -w --color=always -f pats line
	LC_ALL=C.UTF-8 same_as_grep -w -o -i -f pats line
}
