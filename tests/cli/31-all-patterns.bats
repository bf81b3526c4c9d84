#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --all-patterns (acgrep extension): an input is selected only when every
# key (pattern, or tag) occurs in it, any occurrence counting (as
# --overlapping finds them); one that does not is reported as if none of
# its lines were selected, its printed lines held and forgotten.  Every
# exact check runs on every scan path, I/O path and thread count, in C and
# C.UTF-8 (per_pattern.bash).

load helpers
load per_pattern

setup() {
	common_setup
	skip_if_grep "--all-patterns"
	fixture x 'evil.com here\nnothing\n10.0.0.7 too\n'
	fixture y 'evil.com only, evil.com\n'
	fixture z 'nothing at all\n'
	fixture w 'www.evil.com and 10.0.0.7\n'
}

IOCS=(-e evil.com -e 10.0.0.7)

@test "all-patterns: lines only of the inputs that hold every pattern" {
	expect_all 0 'x:evil.com here\nx:10.0.0.7 too\nw:www.evil.com and 10.0.0.7\n' -- \
		--all-patterns "${IOCS[@]}" x y z w
	expect_all 0 'x:evil.com\nx:10.0.0.7\nw:evil.com\nw:10.0.0.7\n' -- -o --all-patterns "${IOCS[@]}" x y z w
	expect_all 1 '' -- --all-patterns "${IOCS[@]}" y z
	expect_all 0 'evil.com only, evil.com\n' -- --all-patterns -e evil.com -e evil.com y
}

@test "all-patterns: -l, -L, -c and -q report by the verdict" {
	expect_all 0 'x\nw\n' -- -l --all-patterns "${IOCS[@]}" x y z w
	expect_all 0 'y\nz\n' -- -L --all-patterns "${IOCS[@]}" x y z w
	expect_all 1 'y\nz\n' -- -L --all-patterns "${IOCS[@]}" y z
	expect_all 0 'x:2\nw:1\n' -- -c --all-patterns "${IOCS[@]}" x y z w
	expect_all 0 'x:2\nw:2\n' -- --count-matches --all-patterns "${IOCS[@]}" x y z w
	expect_all 0 '' -- -q --all-patterns "${IOCS[@]}" y z w
	expect_all 1 '' -- -q --all-patterns "${IOCS[@]}" y z
}

@test "all-patterns: a pattern inside another's match occurs too" {
	fixture u 'ushers\n'
	expect_all 0 'ushers\n' -- --all-patterns -e he -e she -e hers u
	expect_all 1 '' -- --all-patterns -e he -e she -e his u
	expect_all 0 'ushers\n' -- --all-patterns -w -e ushers -e ushers u
	expect_all 1 '' -- --all-patterns -w -e ushers -e she u
	expect_all 0 'ushers\n' -- --all-patterns -i -e USHERS -e HE u
}

@test "all-patterns: -v selects the other lines of the inputs that qualify" {
	expect_all 0 'x:nothing\n' -- -v --all-patterns "${IOCS[@]}" x y z w
	expect_all 0 'x\n' -- -v -l --all-patterns "${IOCS[@]}" x y z w
	expect_all 0 'y\nz\nw\n' -- -v -L --all-patterns "${IOCS[@]}" x y z w
	expect_all 0 'x:1\nw:0\n' -- -v -c --all-patterns "${IOCS[@]}" x y z w
}

@test "all-patterns: -m NUM: the lines read up to the NUMth selected one" {
	expect_all 1 '' -- -m 1 --all-patterns "${IOCS[@]}" x
	expect_all 0 'evil.com here\n10.0.0.7 too\n' -- -m 2 --all-patterns "${IOCS[@]}" x
	expect_all 1 '' -- -v -m 1 --all-patterns "${IOCS[@]}" x
	expect_all 0 'nothing\n' -- -v -m 2 --all-patterns "${IOCS[@]}" x
}

@test "all-patterns: with --count-per-pattern only the inputs that qualify count" {
	expect_all 0 '2\t2\t2\tevil.com\n2\t2\t2\t10.0.0.7\n' -- \
		--count-per-pattern --all-patterns "${IOCS[@]}" x y z w
	expect_all 0 'x:1\t1\tevil.com\nx:1\t1\t10.0.0.7\nw:1\t1\tevil.com\nw:1\t1\t10.0.0.7\n' -- \
		--count-per-pattern -H --all-patterns "${IOCS[@]}" x y z w
	expect_all 1 '0\t0\t0\tevil.com\n0\t0\t0\t10.0.0.7\n' -- \
		--count-per-pattern --include-zero --all-patterns "${IOCS[@]}" y z
}

@test "all-patterns: a file split on threads qualifies by the keys of all its parts" {
	{
		echo 'evil.com first'
		seq 1 6000 | sed 's/^/filler evil.com /'
		echo '10.0.0.7 last'
	} >split
	seq 1 20000 | sed 's/^/evil.com only /' >big1
	"$GREP" -F "${IOCS[@]}" split >"$OUTD/want"
	local v
	for v in "--threads=1" "--threads=3 --segment-size=4096" "--threads=3 --segment-size=7 --buffer-size=5" \
		"--threads=2 --segment-size=100000" "--mmap"; do
		# shellcheck disable=SC2086
		run_ac $v --all-patterns "${IOCS[@]}" split
		same_bytes "$OUTD/want" "$OUTD/ac.out" || fail "$v: the split file's lines"
		# shellcheck disable=SC2086
		note_case "$v" expect 0 'split\n' -- $v -l --all-patterns "${IOCS[@]}" big1 split || return 1
		# shellcheck disable=SC2086
		note_case "$v" expect 1 '' -- $v --all-patterns "${IOCS[@]}" big1 || return 1
		# shellcheck disable=SC2086
		note_case "$v" expect 1 '' -- $v -c --all-patterns "${IOCS[@]}" big1 || return 1
		# shellcheck disable=SC2086
		note_case "$v" expect 0 'big1\n' -- $v -L --all-patterns "${IOCS[@]}" big1 split || return 1
	done
}

@test "all-patterns: output past the printer's buffer is held whole, kept or forgotten" {
	{
		seq 1 30000 | sed 's/^/evil.com line /'
		echo '10.0.0.7'
	} >large
	seq 1 30000 | sed 's/^/evil.com line /' >large1
	local v
	for v in "--threads=1" "--threads=3 --segment-size=65536" "--threads=3"; do
		# shellcheck disable=SC2086
		"$ACGREP" $v --all-patterns "${IOCS[@]}" large1 large large1 >"$OUTD/got"
		"$GREP" -F -H "${IOCS[@]}" large >"$OUTD/want"
		same_bytes "$OUTD/want" "$OUTD/got" || fail "$v: $(wc -c <"$OUTD/got") bytes"
	done
}

@test "all-patterns: context and separators as if the inputs left out were not there" {
	local opts
	for opts in "-A1" "-C1 -n" "-B1 --group-separator=@@"; do
		# shellcheck disable=SC2086
		"$GREP" -F $opts "${IOCS[@]}" x w >"$OUTD/want"
		local v
		for v in "--threads=1" "--threads=3"; do
			# shellcheck disable=SC2086
			run_ac $v $opts --all-patterns "${IOCS[@]}" y x z y w y
			same_bytes "$OUTD/want" "$OUTD/ac.out" || fail "$v $opts: $(cat "$OUTD/ac.out")"
		done
	done
}

@test "all-patterns: binary files say they match only when they qualify" {
	printf 'evil.com\000\n10.0.0.7\n' >bin2
	printf 'evil.com\000\nnothing\n' >bin1
	run_ac --all-patterns "${IOCS[@]}" bin1 bin2
	expect_status 0
	expect_out ''
	[[ $(cat "$OUTD/ac.err") == "acgrep: bin2: binary file matches" ]] || fail "$(cat "$OUTD/ac.err")"
	expect_all 1 '' -- --all-patterns -s "${IOCS[@]}" bin1
	expect_all 0 'bin2\n' -- -l --all-patterns "${IOCS[@]}" bin1 bin2
}

@test "all-patterns: --engine=pcre2 cannot, an error" {
	run_ac --all-patterns --engine=pcre2 "${IOCS[@]}" x
	expect_status 2
	expect_stderr_matches '^PROG: --all-patterns needs --engine=ac$'
	expect_out ''
}
