#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --engine=pcre2 (acgrep extension): the PCRE2 engine must give exactly
# the output of the default engine (and of grep).

load helpers

setup() {
	common_setup
	skip_if_grep "--engine"
	# The Makefile says whether the build has PCRE2 (ACGREP_PCRE2): only a
	# build without it skips the comparisons (all but the first test); a
	# binary that lost it fails them.
	if [[ ${ACGREP_PCRE2:-yes} == no && $BATS_TEST_DESCRIPTION != *"exactly when"* ]]; then
		skip "PCRE2 engine not compiled in (ACGREP_PCRE2=no)"
	fi
}

# eng_check ARGS...: default engine, --engine=pcre2 and grep all agree.
eng_check() {
	same_as_grep "$@" || return 1
	cp "$OUTD/a.out" "$OUTD/default.out"
	same_as_grep_with "--engine=pcre2" "$@" || return 1
	same_bytes "$OUTD/default.out" "$OUTD/a.out" || fail "pcre2 differs from default engine: $*"
}

eng_setup() {
	fixture in 'ushers\nhishe\nFOO foo foobar\n\303\211t\303\251 \303\251t\303\251\na.b*c [x] (y)\n\\\\d+\n\nfoo_bar foo\n'
	fixture pats 'he\nshe\nhis\nhers\nfoo\n.\n*\n[x]\n(\n\\\\\n'
}

@test "engine: --engine=pcre2 is accepted exactly when the build has PCRE2" {
	fixture in 'x\n'
	if [[ ${ACGREP_PCRE2:-yes} == no ]]; then
		expect 2 '' -- --engine=pcre2 -F x in
		expect_stderr_matches '^PROG: acgrep was built without PCRE2; --engine=pcre2 is unavailable$'
	else
		expect 0 'x\n' -- --engine=pcre2 -F x in
		expect_no_stderr
	fi
}

@test "engine: plain, -o, -c, -n, -b" {
	eng_setup
	local a
	for a in "-o -e he -e she -e his -e hers" "-c foo" "-n -b foo" "-o -b -f pats"; do
		# shellcheck disable=SC2086
		in_both_locales eng_check $a in || return 1
	done
}

@test "engine: regex metacharacters stay literal" {
	eng_setup
	local p
	for p in . '*' '[x]' '(' ')' '\' '\d+' 'a.b*c' '$' '^' '|' '?' '{2}' '\Q' '\E'; do
		in_both_locales eng_check -o "$p" in
	done
}

@test "engine: -i including UTF-8" {
	eng_setup
	in_both_locales eng_check -i -o foo in
	in_both_locales eng_check -i $'\xc3\xa9t\xc3\xa9' in
	in_both_locales eng_check -i -c -f pats in
}

@test "engine: -w and -x" {
	eng_setup
	in_both_locales eng_check -w -o foo in
	in_both_locales eng_check -w -o -e foo -e foobar -e foo_bar in
	in_both_locales eng_check -x -e ushers -e '' in
	in_both_locales eng_check -w -o -f pats in
}

@test "engine: -w where grep uses its regex matcher: no empty match where a pattern matches" {
	# an invalid pattern sends grep to its regex matcher in UTF-8; there an
	# empty match is refused at a start where a longer pattern matches, so
	# ' ' refused before a letter does not let '' select the line
	fixture w ' \316\243a\n\n b\n'
	LC_ALL=C.UTF-8 eng_check -n -w -e ' ' -e '' -e $'\243' w
	LC_ALL=C.UTF-8 expect 0 '2:\n' -- --engine=pcre2 -F -n -w -e ' ' -e '' -e $'\243' w
}

@test "engine: -x in a binary file: a NUL ends a line" {
	printf 'ab\0cd\nxx\n\0\n' >nul
	in_both_locales eng_check -x -c -e ab -e cd nul
	in_both_locales eng_check -x -e '' nul
	in_both_locales eng_check -x -c -e xx nul
}

@test "engine: -v, context, color" {
	eng_setup
	in_both_locales eng_check -v foo in
	in_both_locales eng_check -n -C 1 he in
	in_both_locales eng_check --color=always -e he -e she in
}

@test "engine: empty pattern and empty pattern file" {
	eng_setup
	: >nopats
	in_both_locales eng_check '' in
	in_both_locales eng_check -o -e '' -e he in
	in_both_locales eng_check -f nopats in
	in_both_locales eng_check -v -f nopats in
}

@test "engine: binary and invalid UTF-8 input" {
	fixture bin 'foo\000\nfoo\n'
	fixture inv 'foo\377\nfoo\n\377\376\n'
	in_both_locales eng_check foo bin
	in_both_locales eng_check -a -o foo bin
	in_both_locales eng_check -n foo inv
	in_both_locales eng_check -a -c -i $'\xff' inv
}

@test "engine: -z and NUL in patterns" {
	fixture in 'foo\000bar\nfoo\000'
	fixture pats 'a\000b\n'
	in_both_locales eng_check -z -n foo in
	fixture in2 'xa\000by\n'
	in_both_locales eng_check -a -f pats in2
}

@test "engine: many patterns" {
	# (2000 patterns: the PCRE2 oracle is a big alternation; far larger sets
	# are a performance question, not a correctness one)
	seq 1 2000 | awk '{ printf "w%dw\n", $1 * 7 }' >pats
	seq 1 20000 | awk '{ printf "w%dw w%dw\n", $1, $1 + 1 }' >text
	eng_check -c -f pats text
	eng_check -o -f pats text
}
