#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Output prefixes: -n, -b, -H, -h, --label, -Z, -T (alignment), and -z
# (null data, also with a NUL inside a pattern).

load helpers

@test "numbers: -n line numbers" {
	fixture in 'a\nfoo\nb\nfoo\n'
	in_both_locales same_as_grep -n foo in
	expect 0 '2:foo\n4:foo\n' -- -F -n foo in
}

@test "numbers: --line-number long form" {
	fixture in 'a\nfoo\n'
	in_both_locales same_as_grep --line-number foo in
}

@test "numbers: -n counts lines past 9, 99 and 999" {
	seq 1 1200 >in
	in_both_locales same_as_grep -n 0 in
	in_both_locales same_as_grep -n -e 1199 -e 9 in
}

@test "numbers: -b byte offsets of line starts" {
	fixture in 'abc\nfoo\nxx foo\n'
	in_both_locales same_as_grep -b foo in
	expect 0 '4:foo\n8:xx foo\n' -- -F -b foo in
}

@test "numbers: --byte-offset long form and -b with CRLF text" {
	fixture in 'a\r\nfoo\r\n'
	in_both_locales same_as_grep --byte-offset foo in
}

@test "numbers: -n -b together" {
	fixture in 'abc\nfoo\n'
	in_both_locales same_as_grep -n -b foo in
	in_both_locales same_as_grep -b -n foo in
	expect 0 '2:4:foo\n' -- -F -b -n foo in
}

@test "numbers: -H with one file" {
	fixture in 'foo\n'
	in_both_locales same_as_grep -H foo in
	expect 0 'in:foo\n' -- -F -H foo in
}

@test "numbers: several files get names by default" {
	fixture a 'foo\n'
	fixture b 'foo\nx\n'
	in_both_locales same_as_grep foo a b
	expect 0 'a:foo\nb:foo\n' -- -F foo a b
}

@test "numbers: -h suppresses names" {
	fixture a 'foo\n'
	fixture b 'foo\n'
	in_both_locales same_as_grep -h foo a b
	expect 0 'foo\nfoo\n' -- -F -h foo a b
}

@test "numbers: -H/-h last one wins" {
	fixture a 'foo\n'
	fixture b 'foo\n'
	in_both_locales same_as_grep -H -h foo a b
	in_both_locales same_as_grep -h -H foo a
	in_both_locales same_as_grep --with-filename --no-filename foo a
}

@test "numbers: -H -n -b order of prefixes" {
	fixture in 'x\nfoo\n'
	in_both_locales same_as_grep -H -n -b foo in
	expect 0 'in:2:2:foo\n' -- -F -b -n -H foo in
}

@test "numbers: file names with spaces and colons" {
	fixture 'a b' 'foo\n'
	fixture 'c:d' 'foo\n'
	in_both_locales same_as_grep foo 'a b' 'c:d'
	expect 0 'a b:foo\nc:d:foo\n' -- -F foo 'a b' 'c:d'
}

@test "numbers: file names in subdirectories are printed as given" {
	fixture sub/f 'foo\n'
	in_both_locales same_as_grep -H foo sub/f ./sub/f sub//f
	expect 0 'sub/f:foo\n./sub/f:foo\nsub//f:foo\n' -- -F -H foo sub/f ./sub/f sub//f
}

@test "numbers: stdin label is (standard input)" {
	fixture in 'foo\n'
	SAG_STDIN=in in_both_locales same_as_grep -H foo
	SAG_STDIN=in expect 0 '(standard input):foo\n' -- -F -H foo
}

@test "numbers: --label names stdin" {
	fixture in 'foo\n'
	fixture f 'foo\n'
	SAG_STDIN=in in_both_locales same_as_grep -H --label=IN foo
	SAG_STDIN=in in_both_locales same_as_grep --label=IN foo - f
	SAG_STDIN=in in_both_locales same_as_grep --label IN -c foo f -
	SAG_STDIN=in expect 0 'IN:foo\nf:foo\n' -- -F --label=IN foo - f
}

@test "numbers: --label does not rename files" {
	fixture f 'foo\n'
	in_both_locales same_as_grep -H --label=X foo f
}

@test "numbers: -Z puts NUL after file names" {
	fixture a 'foo\n'
	fixture b 'foo\n'
	in_both_locales same_as_grep -Z foo a b
	in_both_locales same_as_grep -Z -n foo a b
	in_both_locales same_as_grep --null -c foo a b
	expect 0 'a\000foo\nb\000foo\n' -- -F -Z foo a b
	expect 0 'a\0001:foo\nb\0001:foo\n' -- -F -Z -n foo a b
}

@test "numbers: -Z without file names changes nothing" {
	fixture a 'foo\n'
	in_both_locales same_as_grep -Z foo a
	expect 0 'foo\n' -- -F -Z foo a
}

@test "numbers: -z reads and writes NUL-terminated records" {
	fixture in 'foo\nbar\000baz\000foo'
	in_both_locales same_as_grep -z foo in
	in_both_locales same_as_grep -z bar in
	expect 0 'foo\nbar\000foo\000' -- -F -z foo in
}

@test "numbers: -z with -n, -b, -c, -v" {
	fixture in 'foo\000bar\000x\nfoo\000'
	in_both_locales same_as_grep -z -n foo in
	in_both_locales same_as_grep -z -b foo in
	in_both_locales same_as_grep -z -c foo in
	in_both_locales same_as_grep -z -v foo in
	expect 0 '1:foo\0003:x\nfoo\000' -- -F -z -n foo in
}

@test "numbers: -z with newline inside pattern list" {
	fixture in 'foo\000bar\000'
	in_both_locales same_as_grep -z $'foo\nbar' in
}

@test "numbers: -z -Z with several files" {
	fixture a 'foo\000'
	fixture b 'foo\000'
	in_both_locales same_as_grep -z -Z foo a b
	in_both_locales same_as_grep -z -l foo a b
}

@test "numbers: --null-data long form and empty records" {
	fixture in '\000\000foo\000'
	in_both_locales same_as_grep --null-data -n '' in
}

@test "numbers: -b offsets continue across lines without final newline" {
	fixture in 'abc\ndef'
	in_both_locales same_as_grep -b def in
	in_both_locales same_as_grep -b -o ef in
	expect 0 '4:def\n' -- -F -b def in
}

@test "numbers: -T aligns numbers to the file's size and puts a tab before the text" {
	fixture in 'foo\n\nbar foo\n'
	# width: digits of the size (13 bytes), plus one with -n; no tab before
	# an empty line nor after an empty prefix
	expect 0 ' 1:\tfoo\n 2:\n 3:\tbar foo\n' -- -F -T -n -e foo -e '' in
	expect 0 ' 0:\tfoo\n 4:\n 5:\tbar foo\n' -- -F -T -b -e foo -e '' in
	expect 0 'foo\nbar foo\n' -- -F -T foo in
	mkfifo pipe
	printf 'x\n' >pipe & # a pipe has no size: INTMAX_MAX's 19 digits
	SAG_STDIN=pipe expect 0 '                  1:\tx\n' -- -F -T -n x
	wait
	seq 1 1200 | sed 's/$/ foo/' >big
	local args
	for args in "-T" "-T -H" "-T -n" "-T -b" "-T -n -b -H" "-T -c" "-T -o -b" "-T -C1 -n -H" \
		"-T -Z -H" "-T -n --color=always -H" "-T -b --color=always -o" "-T -n -z -H" "-T -n -v -e zz" \
		"--initial-tab -n -A1 -e bar"; do
		in_both_locales same_as_grep $args -e foo in big
		in_both_locales same_as_grep $args -e 99 big
		SAG_STDIN=big same_as_grep $args -e 99
	done
	in_both_locales same_as_grep_with "--threads=3 --segment-size=7" -T -b -H foo big in
}

@test "numbers: -z with a NUL in a pattern selects the records a match spans as one" {
	# grep -F's kwset finds the pattern across the terminator; -n numbers
	# the records it spans as one line, -v and -c count the rest
	printf 'a\000b\n' >zp
	printf 'a\000b\nzz\n' >zp2
	printf 'xa\000b\000c\000a\000b\000zz\000q' >z1
	printf 'c\000xa\000b\000c\000d\000a\000b\000zz\000q\000' >z2
	printf 'a\000a\000b\000b\000ab\000' >z3
	local f o io
	for f in z1 z2 z3; do
		for o in '' -c -v -x -o -w -i '-v -n' -b '-n -A1' '-n -B1' --color=always '-m1 -n'; do
			in_both_locales same_as_grep -z $o -f zp "$f" || return 1
		done
	done
	for o in -n '-n -C1' '-o -b' -L; do
		same_as_grep_each "" --mmap --no-mmap --threads=3 -- -z $o -f zp2 z2 || return 1
	done
	# where grep uses its regex matcher (-w, one pattern, C locale), never
	LC_ALL=C expect 1 '' -- -F -z -w -f zp z1
}
