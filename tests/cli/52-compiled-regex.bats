#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Compiled -E/-G pattern sets: --save-compiled keeps what -E/-G make of
# the patterns (literals, anchors, the patterns as written, the syntax),
# and --compiled searches exactly as grep -E/-G over the patterns, in C
# and C.UTF-8, on the default threads and on one with read(), without
# -E/-G given again; the reports name the patterns as written; -E, -F or
# -G given with a set must be its own.

load helpers

setup() {
	common_setup
	skip_if_grep "--compiled"
}

# set_same "SET OPTIONS" "SEARCH OPTIONS" SYNTAX FILE PATTERN...: compiles
# the patterns (each an -e) with SYNTAX (-E or -G) and SET OPTIONS into
# $OUTD/set.acs, then compares `grep SET SEARCH SYNTAX -e PATTERN... FILE`
# with `acgrep SET SEARCH --compiled=set.acs FILE` on the default threads
# and on one thread with read(): stdout bytes, status and stderr.
set_same() {
	local -a set search pats=()
	read -r -a set <<<"$1"
	read -r -a search <<<"$2"
	local syn=$3 file=$4 p t s=0
	shift 4
	for p; do pats+=(-e "$p"); done
	"$ACGREP" "${set[@]}" "$syn" --save-compiled="$OUTD/set.acs" "${pats[@]}" \
		>"$OUTD/save.out" 2>&1 || s=$?
	if [[ $s != 0 || -s $OUTD/save.out ]]; then
		{ echo "--save-compiled ${set[*]} $syn $* failed ($s):"; cat "$OUTD/save.out"; } | fail
		return 1
	fi
	local gs=0 as args
	"$GREP" "${set[@]}" "${search[@]}" "$syn" "${pats[@]}" "$file" </dev/null \
		>"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
	echo "$gs" >"$OUTD/g.rc"
	printf -v args '%q ' "$@"
	for t in "" "--threads=1 --no-mmap"; do
		as=0
		# shellcheck disable=SC2086
		"$ACGREP" $t "${set[@]}" "${search[@]}" --compiled="$OUTD/set.acs" "$file" </dev/null \
			>"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
		echo "$as" >"$OUTD/a.rc"
		_compare "set ${set[*]} $syn $args; search $t ${search[*]}" || return 1
	done
}

# each_search "SET OPTIONS" SYNTAX FILE PATTERN...: set_same with the
# search options that print matches, counts, lines and colours.
each_search() {
	local o
	for o in "" -o -c -n -b -v --color=always -on; do
		set_same "$1" "$o" "$2" "$3" "${@:4}" || return 1
	done
}

@test "compiled -E/-G: alternations, classes, anchors, as grep -E/-G" {
	fixture in 'error 404\nError 500\nwarn\nTODO x\nFIXME\nxTODO\nab\nabc\n\nget /admin\nfoo\nbar\n'
	in_both_locales each_search "" -E in 'error|warn' '[Ee]rror [0-9]{3}'
	in_both_locales each_search "" -E in '^ab|c$' '(^|x)TODO'
	in_both_locales each_search "" -E in '(get|post) /admin|[A-Z]{2,3}'
	in_both_locales each_search "" -G in 'foo\|bar' '^\(fo\|ab\)' 'o$\|^b'
	in_both_locales each_search "" -G in 'a\.b' 'warn' # a list grep searches as -F
	in_both_locales each_search "" -E in 'a|' '^$'    # the empty string
}

@test "compiled -E/-G: -i, -w, -x given at both ends, as grep" {
	fixture in 'abcd ab c\nxab_ abc\nC\nAB\nab\na\n\xc3\x89T\xc3\x89\n\xc3\xa9x\n'
	in_both_locales each_search "-i" -E in 'ab(c)?' '^c'
	in_both_locales each_search "-w" -E in 'ab(c)?' '^c'
	in_both_locales each_search "-x" -E in 'a|ab' 'C'
	in_both_locales each_search "-wi" -G in 'ab\|c'
	LC_ALL=C.UTF-8 each_search "-i" -E in $'\xc3\xa9(t|x)' 'zz'
}

@test "compiled -E -i in UTF-8: the fold's lists over the literals, as grep" {
	fixture in '\xe1\xb2\x80X\n\xd0\xb2y\na\xffZ\n\xc3\x89T\xc3\x89\nnone\nSTRASSE\n'
	local p
	for p in $'\xe1\xb2\x80(x|y)|\xd0\x92y' $'a\xff(z|q)' $'\xc3\xa9(t|x)\xc3\xa9|stra\xc3\x9fe'; do
		LC_ALL=C.UTF-8 each_search "-i -a" -E in "$p" || return 1
	done
}

@test "compiled -E: the reports name the patterns as written" {
	fixture in 'foo\nbar\nxfoo\nbaz\nfoobar\n'
	local o s1 s2
	"$ACGREP" -E --save-compiled="$OUTD/set.acs" -e '^foo|ba[rz]$' -e 'o{2}' -e 'x'
	for o in --show-pattern --count-per-pattern --json "--show-pattern -o" \
		"--count-per-pattern --include-zero"; do
		s1=0 s2=0
		# shellcheck disable=SC2086
		"$ACGREP" $o -E -e '^foo|ba[rz]$' -e 'o{2}' -e 'x' in >"$OUTD/d.out" 2>&1 || s1=$?
		# shellcheck disable=SC2086
		"$ACGREP" $o --compiled="$OUTD/set.acs" in >"$OUTD/c.out" 2>&1 || s2=$?
		sed -i '/"elapsed/d' "$OUTD/d.out" "$OUTD/c.out" # --json's timings
		[[ $s1 == "$s2" ]] && same_bytes "$OUTD/d.out" "$OUTD/c.out" || {
			echo "differs with $o ($s1 vs $s2):"
			diff "$OUTD/d.out" "$OUTD/c.out"
		} | fail
	done
	run "$ACGREP" --show-pattern --compiled="$OUTD/set.acs" in
	[[ $status == 0 && ${lines[0]} == '^foo|ba[rz]$:foo' && ${lines[1]} == '^foo|ba[rz]$:bar' ]]
}

@test "compiled -E/-G: -E, -F or -G given must be the set's" {
	fixture in 'foo\nbar\na|b\n'
	"$ACGREP" -E --save-compiled="$OUTD/e.acs" 'foo|bar'
	"$ACGREP" --save-compiled="$OUTD/f.acs" 'a|b'
	"$ACGREP" -G --save-compiled="$OUTD/g.acs" 'foo\|bar'
	run "$ACGREP" -E --compiled="$OUTD/e.acs" in
	[[ $status == 0 && $output == $'foo\nbar' ]]
	run "$ACGREP" -G --compiled="$OUTD/g.acs" in
	[[ $status == 0 && $output == $'foo\nbar' ]]
	run "$ACGREP" -F --compiled="$OUTD/f.acs" in
	[[ $status == 0 && $output == 'a|b' ]]
	run "$ACGREP" --compiled="$OUTD/f.acs" in
	[[ $status == 0 && $output == 'a|b' ]]
	expect_refused() {
		run "$ACGREP" "$1" --compiled="$OUTD/$2" in
		[[ $status == 2 && $output == "$3" ]] || {
			echo "$1 with $2: $status: $output"
			return 1
		}
	}
	expect_refused -F e.acs "${ACGREP##*/}: $OUTD/e.acs: compiled with -E; this search is with -F"
	expect_refused -G e.acs "${ACGREP##*/}: $OUTD/e.acs: compiled with -E; this search is with -G"
	expect_refused -E f.acs "${ACGREP##*/}: $OUTD/f.acs: compiled with -F; this search is with -E"
	expect_refused -E g.acs "${ACGREP##*/}: $OUTD/g.acs: compiled with -G; this search is with -E"
}
