#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -E / -G bracket expressions where GNU grep 3.8's test suite found acgrep
# apart from it (its tests warn-char-classes, spencer1, spencer2): a class
# holding the line end ([[:space:]], [[:cntrl:]], a range over it) never
# matches it, so it selects only lines holding another of its characters;
# a bracket that ends the pattern right after [ or [^ is "Invalid regular
# expression"; a '-' after a range that starts no range is "Invalid range
# end"; and only a bracket that starts and ends with ':', holds another
# character and no range or class is taken for a misplaced [:space:].
# In C.UTF-8 a range from or to a character past ASCII is "Invalid
# collation character" (glibc's, a locale without collation rules).
# Under -i, [:upper:] and [:lower:] are [:alpha:] (grep's DFA and glibc's
# regex both rewrite them), so in C.UTF-8 they hold CJK characters too.

load helpers

# bracket_same SYNTAX PATTERN FILE: under each option set acgrep prints
# grep's bytes, stderr and status, in C and C.UTF-8, on one thread with
# read() and on the default threads with mmap.
bracket_same() {
	local syn=$1 pat=$2 file=$3 o
	for o in "" -o -c -v -x -w -z "-n -b" --color=always; do
		# shellcheck disable=SC2086
		in_both_locales note_case "$syn -e '$pat' $o" same_as_grep_each_pre \
			"--threads=1 --no-mmap" "--mmap" -- $o "$syn" -e "$pat" "$file" || return 1
	done
}

@test "regex brackets: a class holding the line end selects by its other characters" {
	fixture in 'f\nb c\nh\tz\n\001q\na\013b\nplain\n'
	local p
	for p in '[[:space:]]' '[[:cntrl:]]' '[[:space:]x]' 'x\|[[:cntrl:]]' $'[\t-\r]' $'a\\|[\t-\r]b'; do
		bracket_same -G "$p" in
	done
	for p in '[[:space:]]' '[[:cntrl:]]' 'x|[[:cntrl:]]' $'[\t-\r]' '([[:space:]]|q)'; do
		bracket_same -E "$p" in
	done
}

@test "regex brackets: no line holds the line end, so only it in a class selects none" {
	fixture in 'a\nb\n'
	in_both_locales expect 1 '0\n' -- -c -E '[[:cntrl:]]' in
	in_both_locales expect 0 'a\nb\n' -- -v -G '[[:space:]]' in
}

@test "regex brackets: syntax errors as grep words them" {
	fixture in 'a\n:\nb-\nx\n'
	local p m
	for m in -E -G; do
		for p in '[' 'a[' '[^' 'x\|[' '([' '[a' '[^a' 'a[1-3-5]c' '[a-b-]' '[a-z--]' '[[:alpha:]-z]' \
			'[^a-b-c]' '[^:x:]' '[:a:]' '[:space:]' '[a-é]' '[é-ü]' '[α-ω]' '[~-é]' '[é-a]' \
			'x\|[a-é]'; do
			in_both_locales note_case "$m -e '$p'" same_as_grep_each_pre \
				"--threads=1" -- "$m" -e "$p" in || return 1
		done
	done
}

@test "regex brackets: brackets grep reads as sets, not misplaced classes" {
	fixture in 'a\n:\nb-\nx\ns\ne\n'
	local p m
	for m in -E -G; do
		for p in '[::]' '[:]' '[::::]' '[:spac-e:]' '[:space[:space:]:]' '[:x-y:]' '[:[=a=]:]' '[]:x:]' \
			'[a-]' '[-a]' '[--a]' '[%--a]' '[%--]' '[]-a]' '[[.-.]a]' '[a[.-.]b]'; do
			in_both_locales note_case "$m -e '$p'" same_as_grep_each_pre \
				"--threads=1" -- "$m" -e "$p" in || return 1
		done
	done
}

@test "regex brackets: a syntax error in a negated UTF-8 bracket comes before the refusal" {
	fixture in 'a\n'
	LC_ALL=C.UTF-8 run "$ACGREP" -E '[^:x:]' in
	assert_failure 2
	assert_output "acgrep: character class syntax is [[:space:]], not [:space:]"
	LC_ALL=C.UTF-8 run "$ACGREP" -E '[^a-b-c]' in
	assert_failure 2
	assert_output "acgrep: Invalid range end"
}

@test "regex brackets: under -i, [:upper:] and [:lower:] are [:alpha:], as grep's" {
	fixture in 'A\na\n中\nß\nİ\nǅ\n1\n_\n'
	local p o
	for p in '[[:upper:]]' '[[:lower:]]' '[[:upper:][:digit:]]' 'x|[[:lower:]]'; do
		for o in -i "-i -o" "-i -w" ""; do
			# shellcheck disable=SC2086
			in_both_locales note_case "-E -e '$p' $o" same_as_grep_each_pre \
				"--threads=1 --no-mmap" "--mmap" -- $o -E -e "$p" in || return 1
		done
	done
}
