#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --count-matches (acgrep extension): per file, the number of leftmost-
# longest non-overlapping matches, i.e. what `grep -o ... | wc -l` counts.
# The output format is assumed to follow -c: "N" per file, "FILE:N" when
# file names are shown.

load helpers

setup() {
	common_setup
	skip_if_grep "--count-matches"
}

# cm_check ARGS... FILE: --count-matches on one file equals grep -o | wc -l.
cm_check() {
	local file=${*: -1}
	local n
	if [[ " $* " == *" -z "* ]]; then
		n=$("$GREP" -F -o "$@" | tr -cd '\0' | wc -c)
	else
		n=$("$GREP" -F -o "$@" | wc -l)
	fi
	run_ac --count-matches -F "$@"
	expect_out '%s\n' "$n" || return 1
	if ((n > 0)); then expect_status 0 || return 1; else expect_status 1 || return 1; fi
	: "$file"
}

@test "count-matches: several matches on a line count separately" {
	fixture in 'foo foo foo\nbar\nfoo\n'
	in_both_locales cm_check foo in
	expect 0 '4\n' -- --count-matches -F foo in
}

@test "count-matches: no match prints 0, exit 1" {
	fixture in 'bar\n'
	in_both_locales cm_check foo in
	expect 1 '0\n' -- --count-matches -F foo in
}

@test "count-matches: overlapping patterns are counted leftmost-longest" {
	fixture in 'ushers\nhishe\nhershe\n'
	in_both_locales cm_check -e he -e she -e his -e hers in
	expect 0 '5\n' -- --count-matches -F -e he -e she -e his -e hers in
}

@test "count-matches: non-overlapping repeats" {
	fixture in 'aaaaa\n'
	in_both_locales cm_check aa in
	expect 0 '2\n' -- --count-matches -F aa in
}

@test "count-matches: with -i, -w, -x" {
	fixture in 'Foo fOO foobar\nfoo\n\303\211t\303\251 \303\251t\303\251\n'
	in_both_locales cm_check -i foo in
	in_both_locales cm_check -w foo in
	in_both_locales cm_check -x foo in
	in_both_locales cm_check -i $'\xc3\xa9t\xc3\xa9' in
}

@test "count-matches: several files, names as with -c" {
	fixture a 'x x\n'
	fixture b 'y\n'
	local na
	na=$("$GREP" -F -o x a | wc -l)
	expect 0 'a:%s\nb:0\n' "$na" -- --count-matches -F x a b
	expect 0 '%s\n0\n' "$na" -- --count-matches -F -h x a b
}

@test "count-matches: -z records and a last line without newline" {
	fixture in 'foo\000foo foo\000xfoo'
	in_both_locales cm_check -z foo in
	fixture in2 'foo\nfoo foo'
	in_both_locales cm_check foo in2
}

@test "count-matches: a big file" {
	awk 'BEGIN { for (i = 0; i < 50000; i++) printf "%d abc abcabc ab\n", i }' >big
	cm_check -e abc -e ab big
	cm_check -w -e abc -e ab big
}

@test "count-matches: the empty pattern alone counts no (empty) matches" {
	fixture in 'a\nb\n'
	run_ac --count-matches -F -e '' in
	expect_out '0\n'
	run_ac --count-matches -F -e '' -e a in
	expect_out '1\n'
}

# cm_with OPTS ARGS...: as cm_check, with acgrep's own OPTS (words) added.
cm_with() {
	local opts=$1
	shift
	local n
	n=$("$GREP" -F -o "$@" | wc -l)
	# shellcheck disable=SC2086 # OPTS are words
	run_ac --count-matches -F $opts "$@"
	expect_out '%s\n' "$n" || return 1
	if ((n > 0)); then expect_status 0; else expect_status 1; fi
}

@test "count-matches: counted without a call per match, on every scan path, as -o prints" {
	awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%d xxxxab abxx she hers ushers\n", i }' >big
	printf 'xxxxxxx' >>big # a last line without its terminator
	printf 'xx\nab\nhe\nshe\nhers\n' >pats
	local path simd
	for path in auto dfa bitmap memchr teddy hash rare; do
		for simd in "" --simd=scalar; do
			note_case "$path $simd" cm_with "--scan-path=$path $simd" -f pats big || return 1
			note_case "$path $simd -e ''" cm_with "--scan-path=$path $simd" -e '' -f pats big ||
				return 1
			note_case "$path $simd -i" cm_with "--scan-path=$path $simd" -i -e XX -e Hers big ||
				return 1
		done
	done
	in_both_locales cm_check -i -e XX -e Hers big
	in_both_locales cm_check -z -e xx -e ab big
	cm_with --no-mmap -e xx -e ab big
	cm_with --mmap -e xx -e ab big
	cm_with --threads=3 -e xx -e ab big
}

@test "count-matches: a large set, counted with each thread's memo, as -o prints" {
	# a set of over 65,536 states: counted by runs, a line at a time, with
	# a memo per thread kept from file to file
	made_up_words 7 >pats
	# prose repeating the words (the memo hits), then unique words (the
	# memo is given up), then the prose again (judged afresh)
	awk 'NR % 37 == 0 { printf "%s %ss, %s-%s.\n", $0, substr($0, 1, 3), toupper($0), $0 "ing" }' pats >prose
	for i in 1 2 3 4 5 6; do cat prose; done >repeated
	awk 'BEGIN {
		srand(11); L = "etaoinshrdlucmfwypvbgkjqxz"
		for (i = 0; i < 60000; i++) {
			w = ""
			for (j = 0; j < 10; j++) w = w substr(L, 1 + int(rand() * 26), 1)
			printf "%s%s", w, (i % 8 == 7 ? "\n" : " ")
		}
	}' >unique
	cat repeated unique repeated >mixed
	local opts
	for opts in "" "--threads=1 --no-mmap" "--threads=2" "--threads=3 --mmap" "--simd=scalar"; do
		note_case "$opts" cm_with "$opts" -f pats repeated || return 1
		note_case "$opts mixed" cm_with "$opts" -f pats mixed || return 1
		note_case "$opts -i" cm_with "$opts" -i -f pats mixed || return 1
	done
	# per file, each file's own count, on one thread and three
	local a b c
	a=$("$GREP" -F -o -f pats repeated | wc -l)
	b=$("$GREP" -F -o -f pats unique | wc -l)
	c=$("$GREP" -F -o -f pats mixed | wc -l)
	for opts in --threads=1 --threads=3; do
		run_ac --count-matches -F "$opts" -f pats repeated unique mixed repeated
		expect_out 'repeated:%s\nunique:%s\nmixed:%s\nrepeated:%s\n' "$a" "$b" "$c" "$a" || return 1
	done
}

@test "count-matches: -i, lines that folding leaves alone counted as they are, as -o prints" {
	# lines of ASCII, lines with characters folding to ASCII (ſ, ı, the
	# Kelvin sign) and lines with others (é, ß), for sets all ASCII, sets
	# with other characters, and a large set (counted with the memo)
	printf '%s\n' 'stop STOP Stop kelvin' 'ſtop ſTOP' 'ıi İI ii' 'K kelvin KELVIN' \
		'café CAFÉ cafe' 'Straße STRASSE' 'plain words, stop and go' >text
	for i in 1 2 3 4 5 6 7 8; do cat text; done >texts
	printf '%s\n' stop kelvin ii caf e >ascii
	printf '%s\n' café straße ſtop ii >other
	made_up_words 3 >large
	cat ascii other >>large
	local pats
	for pats in ascii other large; do
		note_case "$pats" in_both_locales cm_check -i -f "$pats" texts || return 1
		note_case "$pats 3 threads" cm_with "--threads=3" -i -f "$pats" texts || return 1
	done
}
