#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Smaller option and documentation rules: --files-from and --files0-from
# given several times (each list in turn, as -f adds patterns), --ranges
# refusing standard input by name, fish completing the arguments of the
# optional-argument options (--color=, --show-pattern=,
# --show-all-patterns=) with their choices instead of file names, and the
# man page's DIFFERENCES naming every option GNU grep lacks.

load helpers

setup() {
	common_setup
	acgrep_is_grep && skip "acgrep's options"
	fixture_lines a 'abc in a' 'other'
	fixture_lines b 'abc in b'
	fixture_lines c 'no match' 'abc in c'
	fixture_lines 'n l' 'abc with a space'
	printf 'b\na\n' >list1
	printf 'c\n' >list2
	printf 'n l\0b\0' >list0
}

# lists_in_order EXTRA: both lists and the NUL list, after the operand, in
# command-line order; a list read from standard input among them.
lists_in_order() {
	# shellcheck disable=SC2086
	run_ac $1 --files-from=list1 --files0-from=list0 --files-from=list2 -F abc c
	expect_out 'c:abc in c\nb:abc in b\na:abc in a\nn l:abc with a space\nb:abc in b\nc:abc in c\n'
	expect_status 0
	expect_no_stderr
	# shellcheck disable=SC2086
	SAG_STDIN=list2 run_ac $1 -c --files-from=list1 --files-from=- -F abc
	expect_out 'b:1\na:1\nc:1\n'
	expect_status 0
	# a list that cannot be read is named; the others are still searched
	# shellcheck disable=SC2086
	run_ac $1 -l --files-from=list2 --files-from=missing --files-from=list1 -F abc
	expect_out 'c\nb\na\n'
	expect_status 2
	assert_equal "$(cat "$OUTD/ac.err")" "acgrep: missing: No such file or directory"
}

@test "--files-from given several times: every list, in command-line order" {
	local x
	for x in "" --threads=1 --threads=2 --threads=3 --no-mmap "--threads=1 --mmap"; do
		note_case "$x" in_both_locales lists_in_order "$x" || return 1
	done
}

@test "--ranges: standard input is refused by name" {
	run_ac --ranges=3 -
	expect_out ''
	expect_status 2
	assert_equal "$(cat "$OUTD/ac.err")" "acgrep: (standard input): --ranges needs a regular file named as an operand"
	SAG_STDIN=a run_ac --ranges=2 --label=feed - a
	expect_out 'a\t0:7\na\t7:15\n'
	expect_status 2
	assert_equal "$(cat "$OUTD/ac.err")" "acgrep: feed: --ranges needs a regular file named as an operand"
}

# fish_complete LINE: what fish offers at the end of LINE, descriptions cut
fish_complete() {
	fish --no-config -c 'source $argv[1]; complete -C$argv[2]' "$OUTD/acgrep.fish" "$1" | cut -f1
}

@test "fish: an optional argument after = completes its choices, not files" {
	command -v fish >/dev/null || skip "fish is not installed"
	"$ACGREP" --generate=complete-fish >"$OUTD/acgrep.fish"
	run fish_complete "acgrep --color="
	assert_output $'--color=always\n--color=auto\n--color=never'
	run fish_complete "acgrep --colour=n"
	assert_output --colour=never
	run fish_complete "acgrep --show-pattern="
	assert_output $'--show-pattern=number\n--show-pattern=tag\n--show-pattern=text'
	run fish_complete "acgrep --show-all-patterns=t"
	assert_output $'--show-all-patterns=tag\n--show-all-patterns=text'
	# the next word is not the option's: a pattern or a file
	run fish_complete "acgrep --color "
	assert_output $'a\nb\nc\nlist0\nlist1\nlist2\nn l'
}

@test "man page: DIFFERENCES names every option GNU grep 3.8 lacks" {
	# the long options of --help's option column
	help_options() {
		"$@" --help | grep -E '^ +-' | sed -E 's/^ +//; s/  .*//' |
			grep -oE -- '--[a-z0-9][a-z0-9-]*' | LC_ALL=C sort -u
	}
	help_options "$ACGREP" >"$OUTD/acgrep.opts"
	help_options "$GREP" >"$OUTD/grep.opts"
	comm -23 "$OUTD/acgrep.opts" "$OUTD/grep.opts" >"$OUTD/extensions"
	[[ -s $OUTD/extensions ]]
	# the paragraph of DIFFERENCES FROM GNU GREP that ends "are acgrep extensions."
	awk '/^\.SH "DIFFERENCES/ { on = 1; next } /^\.SH/ { on = 0 }
		on && /^\.PP/ { para = ""; next }
		on { para = para "\n" $0 }
		on && /^extensions\.$/ { print para; exit }' "$REPO_ROOT/man/acgrep.1" |
		grep -oE -- '\\-\\-[a-z0-9]([a-z0-9]|\\-)*' | sed 's/\\-/-/g' | LC_ALL=C sort -u >"$OUTD/listed"
	run diff "$OUTD/extensions" "$OUTD/listed"
	assert_success
}
