#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -E / -G: where GNU grep 3.8's own matchers give a result the pattern's
# meaning does not.  A list that matches nothing but whose one fixed
# string grep's DFA derives with an inner ^ or $ read as empty ('^$-$',
# '(^$)-$', -x '^\(B\{0\}$\)x') selects the lines holding that string,
# while -o and --color show no match in them.  A single pattern (however
# often given) is searched by grep's regex matcher even when it has no
# operator, so -x -w matches take the line end with them (-o prints the
# empty line as two newlines).  In BRE a second ^ is a literal.

load helpers

# quirk_same SYNTAX PATTERN FILE: under each option set acgrep prints
# grep's bytes, stderr and status, in C and C.UTF-8, on one thread with
# read() and on the default threads with mmap.
quirk_same() {
	local syn=$1 pat=$2 file=$3 o
	for o in "" -o -c -v -x -w -i "-x -w -o" --color=always "-n -b" -A1; do
		# shellcheck disable=SC2086
		in_both_locales note_case "$syn -e '$pat' $o" same_as_grep_each_pre \
			"--threads=1 --no-mmap" "--mmap" -- $o "$syn" -e "$pat" "$file" || return 1
	done
}

# exact STATUS FORMAT ACGREP-ARGS...: in C and C.UTF-8, on one thread with
# read() and on the default threads with mmap, the status and the bytes.
exact() {
	local st=$1 fmt=$2 t
	shift 2
	for t in "--threads=1 --no-mmap" "--mmap"; do
		# shellcheck disable=SC2086
		in_both_locales expect "$st" "$fmt" -- $t "$@" || return 1
	done
}

@test "regex quirks: an inner anchor read as empty selects the fixed string's lines" {
	fixture in '-\nx-\n--\nx\nA\n\n'
	exact 0 '-\n' -E '(^$)-$' in
	exact 0 '-\n' -E '^$-$' in
	exact 0 'x\n' -x -G '^\(B\{0\}$\)x' in
	# selected, but glibc's regex finds no match for -o and colours
	exact 0 '' -o -E '(^$)-$' in
	exact 0 '-\n' --color=always -E '^$-$' in
	exact 0 '1:0:-\n' -n -b -E '^$-$' in
	exact 0 '1\n' -c -E -e '^$-$' -e '(^$)-$' in
	exact 0 'x-\n--\nx\nA\n\n' -v -E '(^$)-$' in
	# -i: a letter is one byte set in C, an alternation of two characters
	# in UTF-8 (no fixed string)
	LC_ALL=C expect 0 'A\n' -- -i -E '^$a$' in
	LC_ALL=C.UTF-8 expect 1 '' -- -i -E '^$a$' in
}

@test "regex quirks: where grep's derivation finds no whole string, nothing" {
	fixture in '-\nx-\nx\n'
	# no $ at the end: the string is not anchored as the list is
	exact 1 '' -E '(^$)-' in
	# the longest string a match holds is x, not x-
	exact 1 '' -E '^x$-$' in
	# -w wraps the list in alternatives: no fixed string
	exact 1 '' -w -E '(^$)-$' in
	exact 1 '' -G '^\(B\{0\}$\)x' in
}

@test "regex quirks: inner anchors under every option set, as grep" {
	fixture in '-\nx-\n--\nx\nA\na\n\n-a\n'
	local p
	for p in '(^$)-$' '^$-$' '(^$)-' '^x$-$' '(^$|^)-$' '^(^a)$' '[a]^$' '^$a{2}$' \
		'(^$)-{0}$' '^$(a)$|^$(a)$' 'a$^$' '^(^$)a$'; do
		quirk_same -E "$p" in || return 1
	done
	for p in '^\(B\{0\}$\)x' '^$-$' '\(^$\)-$'; do
		quirk_same -G "$p" in || return 1
	done
}

@test "regex quirks: -o -x -w prints an empty line's match with its newline" {
	fixture in '\n\n\n'
	exact 0 '\n\n\n\n\n\n' -o -x -w -E '' in
	exact 0 '\n\n\n\n\n\n' -o -x -w -G '' in
	exact 0 '\n\n\n\n\n\n' -o -x -w -E '()' in
	# one pattern given twice is still one: grep's regex matcher
	exact 0 '\n\n\n\n\n\n' -o -x -w -E -e '' -e '' in
	exact 0 '1:0:\n\n2:1:\n\n3:2:\n\n' -nbo -x -w -E '' in
	# -F in UTF-8, and two distinct patterns: grep's fixed-string matcher
	LC_ALL=C.UTF-8 expect 0 '' -- -o -x -w -F '' in
	LC_ALL=C expect 0 '\n\n\n\n\n\n' -- -o -x -w -F '' in
	exact 0 '' -o -x -w -E -e '' -e 'a' in
}

@test "regex quirks: one fixed pattern under -x -w, grep's regex rules" {
	fixture in 'ab\nab x\n\n'
	local p
	for p in 'ab' '' 'a\.b'; do
		quirk_same -E "$p" in || return 1
		quirk_same -G "$p" in || return 1
	done
}

@test "regex quirks: a BRE's second ^ is a literal" {
	fixture in '^a\na\n^^a\n'
	exact 0 '^a\n' -G '^^a' in
	exact 0 '^a\n' -G 'x\|^^a' in
	exact 0 '^a\n' -G '\(^^a\)' in
}

@test "regex quirks: a compiled set does not keep the selected string" {
	skip_if_grep "--save-compiled"
	run_ac --save-compiled=set.acgrep -E '^$-$'
	expect_status 2
	expect_out ''
	expect_stderr_matches 'grep selects lines by its one fixed string'
	[[ ! -e set.acgrep ]]
}
