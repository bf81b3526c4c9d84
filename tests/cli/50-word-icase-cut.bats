#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -w -i in UTF-8 with a pattern that ends in an incomplete UTF-8 sequence
# (a lead byte and fewer continuation bytes than it needs): grep's regex
# matcher, retrying a -w match one byte shorter, matches the text cut
# there, so a character the cut splits is bytes that are no character,
# which such a tail matches byte for byte.  Alone such a pattern never
# matches inside a character.  Compared with grep -F in C.UTF-8 and C,
# default threads and --threads=1 --no-mmap, lines, -o, -c, -b and colour.
# Also the empty pattern's match at the start of a line after a window
# of whole lines searched as they are.

load helpers

# cut_same TEXT PATTERN...: the line TEXT (printf format) searched with
# -w -i and the patterns (each an -e), with each output option, on the
# default threads and on one with read(): grep's bytes and status.
cut_same() {
	fixture in "$1\n"
	shift
	local -a pats=()
	local p o
	for p; do pats+=(-e "$p"); done
	for o in "" -o -c -ob -n --color=always -io; do
		# shellcheck disable=SC2086
		same_as_grep_each "" "--threads=1 --no-mmap" -- $o -w -i "${pats[@]}" in || return 1
	done
}

@test "-w -i: a lone lead byte matches the start of the character a retry cuts" {
	in_both_locales cut_same '\xcf\x82b' $'\xcf\x83' $'\xcf'  # ς: σ, then the cut at its lead byte
	in_both_locales cut_same '\xcf\x80b' $'\xcf\x80' $'\xcf'  # π
	in_both_locales cut_same '\xc4\xb1\xce\xbc' I $'\xc4' # ıμ: I, then ı cut
}

@test "-w -i: 3- and 4-byte characters, tails of 1 to 3 bytes" {
	in_both_locales cut_same '\xe2\x93\x90b' $'\xe2\x92\xb6' $'\xe2'     # ⓐ by Ⓐ
	in_both_locales cut_same '\xe2\x93\x90b' $'\xe2\x92\xb6' $'\xe2\x93' # a 2-byte tail
	in_both_locales cut_same '\xf0\x90\x90\xa8b' $'\xf0\x90\x90\x80' $'\xf0'
	in_both_locales cut_same '\xf0\x90\x90\xa8b' $'\xf0\x90\x90\x80' $'\xf0\x90' $'\xf0\x90\x90'
}

@test "-w -i: a valid part before the tail, retries from inside a line" {
	in_both_locales cut_same 'a\xcf\x82b' $'a\xcf\x83' $'a\xcf'
	in_both_locales cut_same '\xcf\x82\xcf\x82b' $'\xcf\x83\xcf\x83' $'\xcf\x83\xcf'
	in_both_locales cut_same '\xce\xa3\xcf\x82b' $'\xcf\x83\xcf\x83' $'\xcf\x83\xcf'
	in_both_locales cut_same 'ab \xcf\x82b \xcf\x82b' ab $'\xcf\x83' $'\xcf'
	in_both_locales cut_same 'ab \xcf\x82b x\xcf\x82' ab $'\xcf\x83' $'\xcf'
}

@test "-w -i: the tail alone, or without a retry that cuts, matches nothing" {
	in_both_locales cut_same '\xcf\x82b' $'\xcf'
	in_both_locales cut_same '\xe2\x93\x90b' $'\xe2\x93'
	in_both_locales cut_same 'a\xcf\x82b' $'A\xcf'
	in_both_locales cut_same '\xcf\x82 b' $'\xcf\x83' $'\xcf' # σ is a whole word: no retry
	in_both_locales cut_same 'b\xcf\x82' $'\xcf\x83' $'\xcf'
}

@test "-w -i: a lead byte that matches a folded character counts only on the first try" {
	# \xce matches the upper-cased σ's (Σ's) lead byte; grep's first try
	# finds it when it is the longest match there, a retry never does
	in_both_locales cut_same '\xcf\x83a' $'\xce'
	in_both_locales cut_same '\xcf\x83a' $'\xce' $'\xcf\x83'
	in_both_locales cut_same '\xcf\x83a\xcf\x82a\xcf\x83a\xcf\x82' $'\xce' $'\xcf\x83' $'\xcf\x82a'
	in_both_locales cut_same 'x \xcf\x83a' $'\xcf\x83' $'\xce'
}

@test "-w -i: an empty match where a window of whole lines ends is the next line's" {
	# the line before needs no folding and is searched as it is, alone:
	# the empty pattern's match at the next line's start is judged there,
	# where the space after it (grep's longest match there) is seen
	in_both_locales cut_same 'a\n \xe2\x84\xaa' '' ' ' $'\xc4\xb1'
	in_both_locales cut_same 'a\nb\n \xe2\x84\xaa\nc' ' ' '' $'\xc4\xb1'
}
