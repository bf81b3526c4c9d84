#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --count-per-pattern and --include-zero (acgrep extensions): one row per
# key (pattern, or tag) that occurred, MATCHES<TAB>LINES<TAB>FILES<TAB>NAME
# summed over the inputs in the list's order, or FILE:MATCHES<TAB>LINES<TAB>
# NAME per input with -H; -v lists the keys that did not occur.  Every exact
# check runs on every scan path, I/O path and thread count, in C and
# C.UTF-8 (per_pattern.bash).

load helpers
load per_pattern

setup() {
	common_setup
	skip_if_grep "--count-per-pattern"
}

PATS=(-e he -e she -e his -e hers -e zz)

@test "count-per-pattern: rows summed over the inputs, in the list's order" {
	he_she
	expect_all 0 '3\t3\t2\the\n2\t2\t2\tshe\n1\t1\t1\this\n1\t1\t1\thers\n' -- \
		--count-per-pattern "${PATS[@]}" a b
	expect_all 0 '2\t2\t1\thers\n4\t4\t2\the\n' -- --count-per-pattern -e hers -e he a b
}

@test "count-per-pattern: the matches are -o's: MATCHES sums to --count-matches" {
	he_she
	run_ac --count-matches -h "${PATS[@]}" a b
	local n
	n=$(awk '{ s += $1 } END { print s }' "$OUTD/ac.out")
	run_ac --count-per-pattern "${PATS[@]}" a b
	[[ $(awk '{ s += $1 } END { print s }' "$OUTD/ac.out") == "$n" ]]
	# and each row is what grep -o prints of it, on how many lines
	local p m l
	for p in he she his hers; do
		m=$("$GREP" -F -o "${PATS[@]}" a b -h | grep -cx -- "$p" || true)
		l=$("$GREP" -F -on "${PATS[@]}" a b | grep -E ":$p\$" | cut -d: -f1,2 | sort -u | wc -l)
		grep -q "^$m	$l	.	$p\$" "$OUTD/ac.out" || fail "row of $p: $(cat "$OUTD/ac.out")"
	done
}

@test "count-per-pattern: --include-zero lists the keys that did not occur, counts 0" {
	he_she
	expect_all 0 '3\t3\t2\the\n2\t2\t2\tshe\n1\t1\t1\this\n1\t1\t1\thers\n0\t0\t0\tzz\n' -- \
		--count-per-pattern --include-zero "${PATS[@]}" a b
	# nothing occurred: every row is 0, and the status is 1
	expect_all 1 '0\t0\t0\tzz\n0\t0\t0\tyy\n' -- --count-per-pattern --include-zero -e zz -e yy a b
	expect_all 1 '' -- --count-per-pattern -e zz a b
}

@test "count-per-pattern: -H, a block per input; -Z ends the name with NUL" {
	he_she
	fixture c 'no match\n'
	expect_all 0 'a:2\t2\the\na:1\t1\tshe\na:1\t1\this\na:1\t1\thers\nb:1\t1\the\nb:1\t1\tshe\n' -- \
		--count-per-pattern -H "${PATS[@]}" a c b
	expect_all 0 'a\0001\t1\the\na\0003\t3\tshe\nb\0001\t1\the\nb\0001\t1\tshe\n' -- \
		--count-per-pattern -H -Z -e he -e she a b
	expect_all 0 'c:0\t0\the\nc:0\t0\tzz\nb:2\t2\the\nb:0\t0\tzz\n' -- \
		--count-per-pattern -H --include-zero -e he -e zz c b
	# -h or no -H: summed, even over several inputs
	expect_all 0 '6\t5\t2\the\n' -- --count-per-pattern -h -e he a b c
}

@test "count-per-pattern: -v lists the keys that did not occur, per input with -H" {
	he_she
	expect_all 0 '0\t0\t0\tzz\n' -- --count-per-pattern -v "${PATS[@]}" a b
	expect_all 0 '0\t0\t0\tzz\n' -- --count-per-pattern -v --include-zero "${PATS[@]}" a b
	expect_all 0 'a:0\t0\tzz\nb:0\t0\this\nb:0\t0\thers\nb:0\t0\tzz\n' -- \
		--count-per-pattern -v -H "${PATS[@]}" a b
	# every key occurred: nothing listed, status 1
	expect_all 1 '' -- --count-per-pattern -v -e he -e she a b
	expect_all 1 '' -- --count-per-pattern -v -H -e he b
}

@test "count-per-pattern: duplicates and patterns equal under -i are one row, the first" {
	fixture in 'Foo foo FOO bar\nfoo\n'
	expect_all 0 '2\t2\t1\tfoo\n1\t1\t1\tbar\n' -- --count-per-pattern -e foo -e bar -e foo in
	expect_all 0 '4\t2\t1\tFOO\n1\t1\t1\tbar\n' -- --count-per-pattern -i -e FOO -e bar -e foo in
	expect_all 0 '4\t2\t1\tFOO\n1\t1\t1\tbar\n' -- \
		--count-per-pattern --include-zero -i -e FOO -e bar -e foo in
}

@test "count-per-pattern: -i in UTF-8 folds, -w and -x match as they define" {
	fixture in 'abc ab abcd\nab\nxab_ ab.\n'
	expect_all 0 '3\t3\t1\tab\n1\t1\t1\tabc\n' -- --count-per-pattern -w -e ab -e abc in
	expect_all 0 '1\t1\t1\tab\n' -- --count-per-pattern -x -e ab -e abc in
	expect_all 0 '4\t3\t1\tab\n1\t1\t1\tabc\n1\t1\t1\tabcd\n' -- \
		--count-per-pattern -e ab -e abc -e abcd in
	fixture u '\303\211t\303\251 \303\251t\303\251\n'
	LC_ALL=C.UTF-8 expect 0 '2\t1\t1\t\303\251t\303\251\n' -- \
		--count-per-pattern -i -e $'\xc3\xa9t\xc3\xa9' -e $'\xc3\x89T\xc3\x89' u
	LC_ALL=C.UTF-8 expect 0 '2\t1\t1\t\303\251t\303\251\n' -- \
		--threads=3 --segment-size=7 --count-per-pattern -i -e $'\xc3\xa9t\xc3\xa9' u
}

@test "count-per-pattern: -m counts within the first NUM selected lines" {
	fixture in 'a b\nb\nc\na\nb\n'
	expect_all 0 '1\t1\t1\ta\n2\t2\t1\tb\n' -- --count-per-pattern -m 2 -e a -e b -e c in
	expect_all 0 '1\t1\t1\ta\n2\t2\t1\tb\n0\t0\t0\tc\n' -- \
		--count-per-pattern --include-zero -m 2 -e a -e b -e c in
	expect_all 0 '0\t0\t0\tc\n' -- --count-per-pattern -v -m 2 -e a -e b -e c in
}

@test "count-per-pattern: the empty pattern occurs in every line, with no match" {
	fixture in 'ab\n\nb\n'
	expect_all 0 '0\t3\t1\t\n2\t2\t1\tb\n' -- --count-per-pattern -e '' -e b in
	expect_all 0 '0\t1\t1\t\n' -- --count-per-pattern -x -e '' -e c in
}

@test "count-per-pattern: --overlapping counts every occurrence" {
	he_she
	expect_all 0 '6\t5\t2\the\n4\t4\t2\tshe\n1\t1\t1\this\n2\t2\t1\thers\n' -- \
		--count-per-pattern --overlapping "${PATS[@]}" a b
	fixture aa 'aaaa\n'
	expect_all 0 '3\t1\t1\taa\n4\t1\t1\ta\n' -- --count-per-pattern --overlapping -e aa -e a aa
	expect_all 0 '2\t1\t1\taa\n' -- --count-per-pattern -e aa -e a aa
}

@test "count-per-pattern: overrides -c, --count-matches and -o; -q, -l, -L override it" {
	he_she
	local want='2\t2\t2\the\n4\t4\t2\tshe\n'
	expect 0 "$want" -- --count-per-pattern -c -e he -e she a b
	expect 0 "$want" -- --count-per-pattern --count-matches -e he -e she a b
	expect 0 "$want" -- --count-per-pattern -o -n -b -T --color=always -e he -e she a b
	expect 0 '' -- --count-per-pattern -q -e he a b
	expect 0 'a\nb\n' -- --count-per-pattern -l -e he a b
	expect 0 '' -- --count-per-pattern -L -e he a b
	expect 1 '' -- --count-per-pattern -q -e zz a b
}

@test "count-per-pattern: usage errors exit 2" {
	he_she
	run_ac --include-zero -e he a
	expect_status 2
	expect_stderr_matches '^PROG: --include-zero needs --count-per-pattern$'
	run_ac --count-per-pattern --engine=pcre2 -e he a
	expect_status 2
	expect_stderr_matches '^PROG: --count-per-pattern needs --engine=ac$'
	expect_out ''
}

@test "count-per-pattern: binary files count as --count-matches counts them" {
	printf 'he x\000she\nhe\n' >bin
	expect_all 0 '2\t2\t1\the\n1\t1\t1\tshe\n' -- --count-per-pattern -e he -e she bin
	run_ac --count-matches -e he -e she bin
	expect_out '3\n'
	expect_all 1 '' -- --count-per-pattern -I -e he -e she bin
	expect_all 1 '0\t0\t0\the\n' -- --count-per-pattern -I --include-zero -e he bin
	expect_all 0 '3\t2\t1\the\n' -- --count-per-pattern -a -e he bin
}

@test "count-per-pattern: -r, --include, standard input and -z" {
	mkdir -p t/d
	fixture t/x.log 'evil.com\nok\n'
	fixture t/d/y.log 'evil.com bad.org\n'
	fixture t/d/z.txt 'bad.org\n'
	expect_all 0 '2\t2\t2\tevil.com\n1\t1\t1\tbad.org\n0\t0\t0\t10.0.0.7\n' -- \
		--count-per-pattern --include-zero --include='*.log' -r -e evil.com -e bad.org -e 10.0.0.7 t
	expect_all 0 't/x.log:1\t1\tevil.com\nt/d/z.txt:1\t1\tbad.org\nt/d/y.log:1\t1\tevil.com\nt/d/y.log:1\t1\tbad.org\n' -- \
		--count-per-pattern -H -e evil.com -e bad.org t/x.log t/d/z.txt t/d/y.log
	local SAG_STDIN=t/d/y.log
	expect 0 '(standard input):1\t1\tbad.org\n' -- --count-per-pattern -H -e bad.org
	printf 'he\000she he\000' >z
	expect_all 0 '2\t2\t1\the\n1\t1\t1\tshe\n' -- --count-per-pattern -z -e he -e she z
}

@test "count-per-pattern: an unreadable input is trouble, the others are counted" {
	he_she
	run_ac --count-per-pattern -e he a missing b
	expect_status 2
	expect_out '6\t5\t2\the\n'
	expect_stderr_matches '^PROG: missing: No such file or directory$'
	mkdir dir
	run_ac --count-per-pattern -H --include-zero -e he a dir
	expect_status 2
	expect_out 'a:4\t3\the\ndir:0\t0\the\n'
}

@test "count-per-pattern: many files on 3 threads and a large split file" {
	local d f
	for d in 1 2 3; do
		for f in $(seq 1 30); do
			fixture "t/d$d/f$f" 'x %s\nfoo %s bar\nfoo\n' "$f" "$d"
		done
	done
	awk 'BEGIN { for (i = 0; i < 40000; i++) printf "%d foo%s bar %s\n", i, (i % 7 ? "" : " foo"), (i % 11 ? "" : "baz") }' >big
	local v
	for v in "" "-H" "--include-zero -e zz" "--overlapping -e oo" "-v -e zz"; do
		# shellcheck disable=SC2086
		"$ACGREP" --threads=1 --count-per-pattern $v -r -e foo -e bar -e baz t big >"$OUTD/one"
		local s=0 k
		for k in "--threads=3" "--threads=3 --segment-size=4096" "--threads=2 --segment-size=100000 --no-mmap"; do
			# shellcheck disable=SC2086
			"$ACGREP" $k --count-per-pattern $v -r -e foo -e bar -e baz t big >"$OUTD/many" || s=$?
			same_bytes "$OUTD/one" "$OUTD/many" || fail "$k $v: $(diff "$OUTD/one" "$OUTD/many" | head)"
		done
	done
	expect 0 '45895\t40180\t91\tfoo\n40090\t40090\t91\tbar\n3637\t3637\t1\tbaz\n' -- \
		--threads=3 --segment-size=4096 --count-per-pattern -r -e foo -e bar -e baz t big
}
