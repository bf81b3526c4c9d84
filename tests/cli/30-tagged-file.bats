#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --tagged-file=FILE (acgrep extension): TAG<TAB>PATTERN lines, the tag
# before the first TAB, the run of TABs after it the separator, the rest
# of the line the pattern.  As a pattern list it is -f's list of its
# patterns; its rules' errors name FILE:LINE and exit 2.

load helpers

setup() {
	common_setup
	skip_if_grep "--tagged-file"
	fixture log 'ok line\nGET bad.example from 10.0.0.1\nlogin-now please\nnothing\n10.0.0.1 and login-now\n'
}

# tagged_same_as_grep PATTERNS-FILE TAGGED-FILE ARGS...: `grep -F -f
# PATTERNS-FILE ARGS` and `acgrep --tagged-file=TAGGED-FILE ARGS` agree.
tagged_same_as_grep() {
	local pats=$1 tagged=$2 gs=0 as=0
	shift 2
	"$GREP" -F -f "$pats" "$@" >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
	"$ACGREP" --tagged-file="$tagged" "$@" >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
	echo "$gs" >"$OUTD/g.rc"
	echo "$as" >"$OUTD/a.rc"
	local args
	printf -v args '%q ' "$@"
	_compare "--tagged-file=$tagged; args: $args"
}

tagged_cases() {
	local opts
	for opts in "" -n -o -c -v -i -w -x "-C1 -n" -l; do
		# shellcheck disable=SC2086
		tagged_same_as_grep pats iocs.tsv $opts log || return 1
	done
	tagged_same_as_grep pats iocs.tsv -z zlog || return 1
}

@test "tagged-file: a pattern list as -f's of its patterns" {
	fixture iocs.tsv 'evil\tbad.example\nevil\t10.0.0.1\nphish\t\t\tlogin-now\nx\tOK\n'
	fixture pats 'bad.example\n10.0.0.1\nlogin-now\nOK\n'
	fixture zlog 'ok\000bad.example\nx\000none\000'
	in_both_locales tagged_cases
}

@test "tagged-file: a pattern holds the TABs after its first non-TAB byte" {
	fixture t.tsv 'tag\t\ta\tb\n'
	fixture in 'a\tb\na b\n'
	expect 0 'a\tb\n' -- --tagged-file=t.tsv in
	expect 0 'tag:a\tb\n' -- --tagged-file=t.tsv --show-pattern in
}

@test "tagged-file: a last line without newline, an empty file" {
	fixture t.tsv 'x\tlogin-now\ny\tnothing'
	expect 0 'login-now please\nnothing\n10.0.0.1 and login-now\n' -- --tagged-file=t.tsv log
	fixture empty ''
	expect 1 '' -- --tagged-file=empty log
	expect 0 'nothing\n' -- --tagged-file=empty -e nothing log
}

@test "tagged-file: '-' reads standard input, as -f" {
	fixture t.tsv 'x\tnothing\n'
	SAG_STDIN=t.tsv run_ac --tagged-file=- --show-pattern log
	expect_status 0
	expect_out 'x:nothing\n'
}

@test "tagged-file: repeatable, several patterns to a tag" {
	fixture a.tsv 'one\tok\none\tnothing\n'
	fixture b.tsv 'two\tlogin-now\none\tbad.example\n'
	expect 0 'one:ok line\none:GET bad.example from 10.0.0.1\ntwo:login-now please\none:nothing\ntwo:10.0.0.1 and login-now\n' \
		-- --tagged-file=a.tsv --tagged-file=b.tsv --show-pattern log
}

@test "tagged-file: a line without TAB, an empty tag or pattern is an error" {
	fixture t.tsv 'a\tok\nno tab here\n'
	expect 2 '' -- --tagged-file=t.tsv log
	[[ $(<"$OUTD/ac.err") == "acgrep: t.tsv:2: no TAB between tag and pattern" ]]
	fixture t.tsv 'a\tok\n \n'
	expect 2 '' -- --tagged-file=t.tsv log
	[[ $(<"$OUTD/ac.err") == "acgrep: t.tsv:2: no TAB between tag and pattern" ]]
	fixture t.tsv 'a\tok\nb\tx\n\t\tnothing\n'
	expect 2 '' -- --tagged-file=t.tsv log
	[[ $(<"$OUTD/ac.err") == "acgrep: t.tsv:3: empty tag" ]]
	fixture t.tsv 'a\t\t\n'
	expect 2 '' -- -e ok --tagged-file=t.tsv log
	[[ $(<"$OUTD/ac.err") == "acgrep: t.tsv:1: empty pattern" ]]
	fixture t.tsv 'a\tok\nb\t'
	expect 2 '' -- --tagged-file=t.tsv log
	[[ $(<"$OUTD/ac.err") == "acgrep: t.tsv:2: empty pattern" ]]
}

@test "tagged-file: '#' comment lines and blank lines are skipped" {
	fixture t.tsv '# indicators\n\nbad\tok\n#x\tnothing\n\n'
	expect 0 'bad:ok line\n' -- --tagged-file=t.tsv --show-pattern log
	fixture t.tsv '# only a comment\n\n'
	expect 1 '' -- --tagged-file=t.tsv log
	[[ ! -s $OUTD/ac.err ]]
}

@test "tagged-file: CRLF line ends are an error, never a silent non-match" {
	fixture t.tsv 'a\tok\r\nb\tnothing\r\n'
	expect 2 '' -- --tagged-file=t.tsv log
	[[ $(<"$OUTD/ac.err") == "acgrep: t.tsv:1: line ends in CR (CRLF line ends); convert the file with dos2unix" ]]
	fixture t.tsv 'a\tok\nb\tnothing\r'
	expect 2 '' -- -s --tagged-file=t.tsv log
	[[ $(<"$OUTD/ac.err") == "acgrep: t.tsv:2: line ends in CR (CRLF line ends); convert the file with dos2unix" ]]
	# a CR inside a pattern is the pattern's
	fixture t.tsv 'a\tx\ry\n'
	fixture in 'x\ry\n'
	expect 0 'a:x\ry\n' -- --tagged-file=t.tsv --show-pattern in
}

@test "tagged-file: a missing or unreadable file, as -f" {
	expect 2 '' -- --tagged-file=missing log
	[[ $(<"$OUTD/ac.err") == "acgrep: missing: No such file or directory" ]]
	mkdir dir
	expect 2 '' -- --tagged-file=dir log
	[[ $(<"$OUTD/ac.err") == "acgrep: dir: Is a directory" ]]
}

@test "tagged-file: -z records, the list still split on newlines" {
	fixture t.tsv 'a\tok\nb\tnothing\n'
	fixture in 'ok\000nothing\000ok\nnothing\000'
	expect 0 'a:ok\000b:nothing\000a:ok\nnothing\000' -- -z --tagged-file=t.tsv --show-pattern in
	expect 0 'a:ok\000b:nothing\000a,b:ok\nnothing\000' -- -z --tagged-file=t.tsv --show-all-patterns in
}

@test "tagged-file: --engine=pcre2 takes it as a pattern list" {
	[[ ${ACGREP_PCRE2:-yes} == no ]] && skip "no PCRE2 in this build"
	fixture t.tsv 'a\tok\nb\tnothing\n'
	expect 0 'ok line\nnothing\n' -- --engine=pcre2 --tagged-file=t.tsv log
	expect 2 '' -- --engine=pcre2 --tagged-file=t.tsv --show-pattern log
}

@test "tagged-file: a list of 200000 lines and 1000 tags" {
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "tag%d\tword%dx\n", i % 1000, i }' >big.tsv
	printf 'a word7x b word199999x c word1000x\nword5\n' >in
	expect 0 'tag7,tag999,tag0:a word7x b word199999x c word1000x\n' -- --tagged-file=big.tsv --show-all-patterns in
	expect 0 '8,200000,1001:a word7x b word199999x c word1000x\n' \
		-- --tagged-file=big.tsv --show-all-patterns=number in
}
