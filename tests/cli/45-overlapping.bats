#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --overlapping (acgrep extension): -o, --count-matches,
# --count-per-pattern and --show-all-patterns take every occurrence of every pattern, those inside
# or across other matches too; -o prints a line's occurrences by start, the
# longest first at each start.  Every exact check runs on every scan path,
# I/O path and thread count, in C and C.UTF-8 (per_pattern.bash).

load helpers
load per_pattern

setup() {
	common_setup
	skip_if_grep "--overlapping"
}

PATS=(-e he -e she -e his -e hers)

@test "overlapping: -o prints every occurrence, by start, the longest first" {
	he_she
	expect_all 0 'she\nhers\nhe\nhis\nshe\nhe\nhers\nhe\nshe\nhe\n' -- -o --overlapping "${PATS[@]}" a
	expect_all 0 'a:she\na:hers\na:he\nb:she\nb:he\n' -- -o --overlapping -m 1 "${PATS[@]}" a b
	fixture aa 'aaaa\n'
	expect_all 0 'aaa\naa\na\naaa\naa\na\naa\na\na\n' -- -o --overlapping -e a -e aa -e aaa aa
	# plain -o: leftmost-longest, not overlapping
	expect_all 0 'aaa\na\n' -- -o -e a -e aa -e aaa aa
}

@test "overlapping: -o with -n, -b and -H names each occurrence's line and offset" {
	he_she
	expect_all 0 'a:1:1:she\na:1:2:hers\na:1:2:he\n' -- -o -n -b -H --overlapping -e hers -e she -e he -m 1 a
	expect_all 0 'b:1:0:she\nb:1:1:he\nb:2:10:he\n' -- -o -n -b -h -H --overlapping -e he -e she b
}

@test "overlapping: --count-matches counts every occurrence" {
	he_she
	expect_all 0 'a:10\nb:3\n' -- --count-matches --overlapping "${PATS[@]}" a b
	expect_all 0 'a:5\nb:2\n' -- --count-matches "${PATS[@]}" a b
	fixture none 'xyz\n'
	expect_all 1 '0\n' -- --count-matches --overlapping "${PATS[@]}" none
}

@test "overlapping: duplicates, and patterns equal under -i, occur once" {
	fixture in 'abAB\n'
	expect_all 0 'ab\nAB\n' -- -o --overlapping -e ab -e ab -e AB in
	expect_all 0 'ab\nb\nAB\nB\n' -- -o --overlapping -i -e ab -e AB -e b in
	expect_all 0 '2\t1\t1\tab\n2\t1\t1\tb\n' -- --count-per-pattern --overlapping -i -e ab -e AB -e b in
}

@test "overlapping: -w judges each occurrence on its own, -x keeps whole lines" {
	fixture in 'a b ab\nab\nb\n'
	expect_all 0 'a b\na\nb\nab\nab\nb\n' -- -o -w --overlapping -e 'a b' -e a -e b -e ab in
	expect_all 0 'ab\nb\n' -- -o -x --overlapping -e a -e ab -e b in
	expect_all 0 '1\t1\t1\tab\n1\t1\t1\tb\n' -- --count-per-pattern -x --overlapping -e a -e ab -e b in
}

@test "overlapping: -i in UTF-8 finds folded occurrences" {
	fixture in 'x\303\211T\303\251 \303\251t\303\251\n\305\277s\n'
	LC_ALL=C.UTF-8 expect 0 '\303\211T\303\251\nT\303\251\n\303\251t\303\251\nt\303\251\n' -- \
		-o -i --overlapping -e $'\xc3\xa9t\xc3\xa9' -e $'t\xc3\x89' in
	LC_ALL=C.UTF-8 expect 0 '\305\277s\n\305\277\ns\n' -- -o -i --overlapping -e s -e SS in
	local v
	for v in "--threads=3 --segment-size=7 --buffer-size=5" "--no-mmap --buffer-size=1" --simd=scalar; do
		# shellcheck disable=SC2086
		LC_ALL=C.UTF-8 note_case "$v" expect 0 '\305\277s\n\305\277\ns\n' -- $v -o -i --overlapping -e s -e SS in ||
			return 1
	done
}

@test "overlapping: which lines are selected, and the plain output, do not change" {
	he_she
	local opts
	for opts in "" -c -l -n "-v -n" "--color=always"; do
		# shellcheck disable=SC2086
		"$ACGREP" $opts "${PATS[@]}" a b >"$OUTD/plain"
		# shellcheck disable=SC2086
		run_ac $opts --overlapping "${PATS[@]}" a b
		same_bytes "$OUTD/plain" "$OUTD/ac.out" || fail "--overlapping changed the output of '$opts'"
	done
	expect 0 '' -- -o -v --overlapping "${PATS[@]}" a
}

@test "overlapping: -o --color marks each occurrence" {
	fixture in 'ushers\n'
	expect 0 '\033[01;31m\033[Kshe\033[m\033[K\n\033[01;31m\033[Khe\033[m\033[K\n' -- \
		-o --color=always --overlapping -e he -e she in
}

@test "overlapping: --show-all-patterns names every pattern occurring on the line" {
	he_she
	expect_all 0 'she,hers,he:ushers\nhis,she,he:hishe\nhers,he,she:hershe\n' -- \
		--show-all-patterns --overlapping "${PATS[@]}" a
	expect_all 0 'she:ushers\nhis,he:hishe\nhers,he:hershe\n' -- --show-all-patterns "${PATS[@]}" a
	expect_all 0 '2,4,1:ushers\n3,2,1:hishe\n4,1,2:hershe\n' -- \
		--show-all-patterns=number --overlapping "${PATS[@]}" a
}

@test "overlapping: --engine=pcre2 cannot, an error" {
	he_she
	run_ac -o --overlapping --engine=pcre2 -e he a
	expect_status 2
	expect_stderr_matches '^PROG: --overlapping needs --engine=ac$'
	expect_out ''
}
