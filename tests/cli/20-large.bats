#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Large inputs: a 10 MB line, a million patterns, a 300 KB pattern, many
# files and lines, empty inputs, and lines longer than memory allows,
# searched in pieces.

load helpers

@test "large: 10 MB single line with a match at the end" {
	{ head -c 10000000 /dev/zero | tr '\0' 'a'; printf 'needle\n'; } >line
	same_as_grep -c needle line
	same_as_grep -o -b needle line
	same_as_grep -c -e zzz -e aab line
	LC_ALL=C.UTF-8 same_as_grep -c -w needle line
	expect 0 '10000000:needle\n' -- -F -o -b needle line
}

@test "large: 10 MB single line without final newline and no match" {
	{ head -c 10000000 /dev/zero | tr '\0' 'b'; } >line
	same_as_grep -c needle line
	same_as_grep -v -c needle line
	expect 1 '0\n' -- -F -c needle line
}

@test "large: 10 MB line of repeated matches with -o -c" {
	awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "abcdefghi "; printf "\n" }' >line
	same_as_grep -c abc line
	run_ac -F -o abc line
	expect_status 0
	[[ $(wc -l <"$OUTD/ac.out") == 1000000 ]]
}

@test "large: 1,000,000 patterns from -f: count matches grep -c" {
	awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf "k%07dz\n", (i * 7919) % 10000019 }' >pats
	awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "log line %d key k%07dz end\n", i, (i * 31337) % 10000019 }' >text
	[[ $(wc -l <pats) == 1000000 ]]
	# an independent count: exact token lookup
	local want
	want=$(awk 'NR == FNR { p[$0] = 1; next } ($5 in p) { n++ } END { print n + 0 }' pats text)
	same_as_grep -c -f pats text
	expect 0 '%s\n' "$want" -- -F -c -f pats text
	# -w cannot change the count: tokens are space-delimited
	expect 0 '%s\n' "$want" -- -F -w -c -f pats text
}

@test "large: 1,000,000 patterns, -o prints the right tokens" {
	seq 1 1000000 | awk '{ printf "q%dq\n", $1 * 3 }' >pats
	fixture text 'q3q q4q q6q\nq2999997q\nq3000000q q3000003q\nnothing\n'
	same_as_grep -o -n -f pats text
	expect 0 '1:q3q\n1:q6q\n2:q2999997q\n3:q3000000q\n' -- -F -o -n -f pats text
}

@test "large: a dictionary over prose, its states mostly sparse, as grep" {
	# 40,000 made-up words of common and rare letters: a set with sparse
	# states, whose children are numbered by byte frequency; the text holds
	# the words, their prefixes and extensions, in both cases
	made_up_words 2026 >pats
	awk 'NR % 97 == 0 { printf "%s %ss %s, ", toupper($0), substr($0, 1, 3), $0 "ing" }
	     NR % 13 == 0 { printf "the %s of it.\n", $0 }' pats >text
	same_as_grep_each "" "--threads=1 --no-mmap" "--simd=scalar" -- -c -f pats text
	same_as_grep_each "" "--threads=1 --no-mmap" -- -o -b -f pats text
	same_as_grep -o -i -f pats text
	same_as_grep -c -w -f pats text
}

@test "large: many long patterns sharing a prefix" {
	awk 'BEGIN { p = ""; for (i = 0; i < 500; i++) p = p "x"; for (i = 0; i < 20000; i++) printf "%s%d\n", p, i }' >pats
	awk 'BEGIN { p = ""; for (i = 0; i < 500; i++) p = p "x"; for (i = 0; i < 2000; i++) printf "a %s%d b\n", p, i * 13 }' >text
	same_as_grep -c -f pats text
	same_as_grep -c -x -f pats text
	same_as_grep -o -b -f pats text
}

@test "large: a 300 KB pattern from -f, on one thread and two, as grep" {
	# one pattern is a chain of 300,000 one-state depths: its failure
	# links are built by one thread, which must give what two would
	awk 'BEGIN { srand(7); for (i = 0; i < 300000; i++) printf "%s", rand() < 0.5 ? "a" : "b"; print "" }' >pat
	{
		cat pat
		printf x
		cat pat
		head -c 299999 pat
		echo
		tr ab AB <pat
		awk '{ print $0 "a" }' pat
	} >text
	local o t
	# grep once for both thread counts (a third of a second a run)
	for o in -c -x -i "-i -x" "-o -b"; do
		# shellcheck disable=SC2086
		in_both_locales same_as_grep_each --threads=1 --threads=2 -- $o -f pat text
	done
	# grep -w with one pattern in the C locale runs its regex matcher,
	# which takes minutes on such a pattern: the counts below stand in
	LC_ALL=C.UTF-8 same_as_grep_each --threads=1 --threads=2 -- -w -f pat text
	for t in 1 2; do
		expect 0 '3\n' -- --threads=$t -F -c -f pat text
		expect 0 '1\n' -- --threads=$t -F -c -x -f pat text
		expect 0 '1\n' -- --threads=$t -F -c -w -f pat text
		expect 0 '4\n' -- --threads=$t -F -c -i -f pat text
		expect 0 '2\n' -- --threads=$t -F -c -i -x -f pat text
	done
}

@test "large: empty file, empty pattern file, both" {
	: >empty
	: >nopats
	fixture text 'a\n'
	in_both_locales same_as_grep -f nopats empty
	in_both_locales same_as_grep -c -f nopats empty
	in_both_locales same_as_grep -c '' empty
	in_both_locales same_as_grep -v -f nopats text
	in_both_locales same_as_grep -c -v -f nopats empty
	expect 1 '0\n' -- -F -c '' empty
}

@test "large: many files on the command line" {
	awk 'BEGIN { for (i = 1; i <= 300; i++) { f = "f" i; printf "line %d\n", i >f; close(f) } }'
	same_as_grep -c 'line 1' f*
	same_as_grep -l 7 f*
	same_as_grep -L 7 f*
}

@test "large: many short lines" {
	seq 1 500000 >nums
	same_as_grep -c 99 nums
	same_as_grep -x -c 4242 nums
	same_as_grep -n -x -e 1 -e 500000 nums
}

@test "large: a list given twice, mixed with -e patterns and a NUL pattern" {
	# the option parser's list is released as the engine copies it (in
	# steps of 65,536 patterns), then the engine drops the duplicates
	awk 'BEGIN { for (i = 0; i < 150000; i++) printf "w%07d\n", (i * 7919) % 150000 }' >list
	awk 'BEGIN { for (i = 0; i < 300000; i += 997) printf "x w%07d y\n", i; print "zz" }' >hay
	printf 'a\0b\n' >nulpat
	same_as_grep -c -f list hay
	same_as_grep -o -e zz -f list -e q -f list hay
	same_as_grep -c -f list -f nulpat -f list -e zz hay
	same_as_grep -c -f nulpat hay # nothing left once the NUL pattern is dropped
	same_as_grep -o -v -f nulpat hay
	same_as_grep -c -i -f list -f list hay
	LC_ALL=C.UTF-8 same_as_grep -c -i -f list -f list hay
	expect 0 '152\n' -- -F -c -e zz -f list -f list hay
}

@test "large: a line longer than memory allows is searched in pieces for -c, -l, -L, -q" {
	# 100 MB on one line through a pipe, in 60 MB of address space: the
	# line never sits whole in memory (grep needs it whole: "memory exhausted")
	[[ $ACGREP != *-qemu ]] || skip "an emulator needs more address space for itself"
	[[ -z ${TSAN_OPTIONS:-}${ASAN_OPTIONS:-} ]] || skip "a sanitizer's shadow memory does not fit in ulimit -v"
	local v s
	for v in '-c' '-c -w' '-c -v' '-l' '-c -i'; do
		s=0
		out=$({ head -c 100000000 /dev/zero | tr '\0' x; printf ' needle\n'; } |
			(ulimit -v 60000 && LC_ALL=C "$ACGREP" --threads=1 -F $v needle)) || s=$?
		case $v in
		-c*v) note_case "-F $v" assert_equal "$out:$s" "0:1" ;;
		-l) note_case "-F $v" assert_equal "$out:$s" "(standard input):0" ;;
		*) note_case "-F $v" assert_equal "$out:$s" "1:0" ;;
		esac
	done
}

@test "large: lines kept in pieces select what grep selects, matches at every cut" {
	# lines of 300 KB to 1.1 MB, matches at read and piece boundaries and at
	# the line ends; -w and -i judge a match against neighbours in the piece
	# before or after it
	awk 'BEGIN {
		n = split("300000 620000 1100000", len, " ")
		for (k = 1; k <= n; k++) {
			s = "abc def "
			while (length(s) < len[k]) s = s s
			s = substr(s, 1, len[k])
			print s
			print "foo" s "foo"
			print s "foo_"
			print substr(s, 1, 262141) "foo" substr(s, 262145)
			print substr(s, 1, 262142) " foo " substr(s, 262148)
			print substr(s, 1, 98302) "KEY " substr(s, 98307)
		}
		print "foo"
	}' >pieces
	local loc o
	for loc in C C.UTF-8; do
		for o in -c '-c -v' '-c -w' '-c -w -v' '-c -x' '-c -i -w' -l -L; do
			# shellcheck disable=SC2086
			LC_ALL=$loc SAG_STDIN=pieces same_as_grep_each "" '--threads=1 --buffer-size=7000' -- \
				$o -e foo -e key || return 1
		done
	done
	# the same file searched as a file: pieces through read(), not a mapping
	in_both_locales same_as_grep -c -w -e foo -e key pieces
}
