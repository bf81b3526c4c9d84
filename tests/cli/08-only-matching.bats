#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -o / --only-matching.

load helpers

@test "only-matching: each match on its own line" {
	fixture in 'foo bar foo\nbaz\nxfoox\n'
	in_both_locales same_as_grep -o foo in
	expect 0 'foo\nfoo\nfoo\n' -- -F -o foo in
}

@test "only-matching: overlapping patterns he/she/his/hers (leftmost-longest, non-overlapping)" {
	fixture in 'ushers\nhishe\nhershe\nshehis\n'
	in_both_locales same_as_grep -o -e he -e she -e his -e hers in
	expect 0 'she\nhis\nhe\nhers\nhe\nshe\nhis\n' -- -F -o -e he -e she -e his -e hers in
}

@test "only-matching: leftmost wins over longer later match" {
	fixture in 'abcdef\n'
	in_both_locales same_as_grep -o -e bcdef -e ab in
	expect 0 'ab\n' -- -F -o -e bcdef -e ab in
}

@test "only-matching: longest wins at the same start" {
	fixture in 'abcdef\n'
	in_both_locales same_as_grep -o -e abc -e abcde -e a in
	expect 0 'abcde\n' -- -F -o -e abc -e abcde -e a in
}

@test "only-matching: adjacent and repeated matches" {
	fixture in 'aaaa\nababab\n'
	in_both_locales same_as_grep -o aa in
	in_both_locales same_as_grep -o -e ab -e ba in
	expect 0 'aa\naa\n' -- -F -o aa in
}

@test "only-matching: the empty pattern prints nothing but succeeds" {
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep -o '' in
	expect 0 '' -- -F -o '' in
}

@test "only-matching: the empty pattern next to a real one" {
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep -o -e '' -e oo in
	in_both_locales same_as_grep -o -n -e oo -e '' in
	expect 0 'oo\n' -- -F -o -e '' -e oo in
}

@test "only-matching: -o -b gives each match's byte offset" {
	fixture in 'foo bar foo\nbaz foo\n'
	in_both_locales same_as_grep -o -b foo in
	expect 0 '0:foo\n8:foo\n16:foo\n' -- -F -o -b foo in
}

@test "only-matching: -o -n repeats the line number" {
	fixture in 'foo foo\nx\nfoo\n'
	in_both_locales same_as_grep -o -n foo in
	expect 0 '1:foo\n1:foo\n3:foo\n' -- -F -o -n foo in
}

@test "only-matching: -o -n -b -H together" {
	fixture in 'a foo\nfoo\n'
	in_both_locales same_as_grep -o -n -b -H foo in
	expect 0 'in:1:2:foo\nin:2:6:foo\n' -- -F -o -n -b -H foo in
}

@test "only-matching: -o -i" {
	fixture in 'FoO fOo\n\303\211t\303\251\n'
	in_both_locales same_as_grep -o -i foo in
	in_both_locales same_as_grep -o -i $'\xc3\xa9' in
	expect 0 'FoO\nfOo\n' -- -F -o -i foo in
}

@test "only-matching: -o -w" {
	fixture in 'foo foobar barfoo foo\n'
	in_both_locales same_as_grep -o -w foo in
	in_both_locales same_as_grep -o -w -b -e foo -e foobar in
}

@test "only-matching: -o -x" {
	fixture in 'foo\nfoo foo\n'
	in_both_locales same_as_grep -o -x foo in
}

@test "only-matching: -o -v prints nothing" {
	fixture in 'foo\nbar\n'
	in_both_locales same_as_grep -o -v foo in
	expect 0 '' -- -F -o -v foo in
}

@test "only-matching: -o with -c counts lines" {
	fixture in 'foo foo\nfoo\n'
	in_both_locales same_as_grep -o -c foo in
	expect 0 '2\n' -- -F -o -c foo in
}

@test "only-matching: -o with context options prints no context" {
	fixture in 'a\nfoo\nb\nfoo x foo\nc\n'
	in_both_locales same_as_grep -o -C 1 foo in
	in_both_locales same_as_grep -o -A 1 -n foo in
}

@test "only-matching: -o -m counts lines, not matches" {
	fixture in 'foo foo\nfoo\n'
	in_both_locales same_as_grep -o -m 1 foo in
	expect 0 'foo\nfoo\n' -- -F -o -m 1 foo in
}

@test "only-matching: -o with UTF-8 text and invalid bytes" {
	fixture in '\316\261\316\262\316\263 \316\262\n\377\316\262\377\n'
	in_both_locales same_as_grep -o $'\xce\xb2' in
	in_both_locales same_as_grep -a -o -b $'\xce\xb2' in
}

@test "only-matching: -o -z" {
	fixture in 'foo\nbar\000baz foo\000'
	in_both_locales same_as_grep -o -z foo in
	in_both_locales same_as_grep -o -z -b foo in
}

@test "only-matching: -o with a pattern containing spaces" {
	fixture in 'a b a b\n'
	in_both_locales same_as_grep -o 'a b' in
	in_both_locales same_as_grep -o -e 'b a' -e 'a b' in
}
