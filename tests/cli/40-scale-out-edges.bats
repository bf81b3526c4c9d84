#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Scaling out, edge cases: a line not valid UTF-8 with after-context in a
# UTF-8 locale (one run prints context from the last line output or from
# its read window's start), zero record streams, the pattern reports that
# go through --records/--merge and those refused, and a randomized split
# of random files against one run over several option sets.  A merged
# output is compared byte for byte with one plain run, stderr and exit
# status included.

load helpers

setup() {
	common_setup
	acgrep_is_grep && skip "ranges and merges are acgrep's"
	:
}

# split_merge CUTS OPTS...: FILE f cut at the byte offsets CUTS (a quoted
# list, ascending), a --records job per range (with $JOB_EXTRA), merged;
# compared with one run (with $SINGLE_EXTRA).
split_merge() {
	local cuts=$1 prev=0 c st=0
	shift
	: >"$OUTD/rec"
	for c in $cuts; do
		"$ACGREP" ${JOB_EXTRA:-} --records --range="$prev:$c" "$@" f >>"$OUTD/rec" || return 1
		prev=$c
	done
	"$ACGREP" ${JOB_EXTRA:-} --records --range="$prev:" "$@" f >>"$OUTD/rec" || return 1
	"$ACGREP" --merge "$@" "$OUTD/rec" >"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
	echo "$st" >>"$OUTD/many.out"
	st=0
	"$ACGREP" ${SINGLE_EXTRA:-} "$@" f >"$OUTD/one.out" 2>"$OUTD/one.err" || st=$?
	echo "$st" >>"$OUTD/one.out"
	sed 's/^[^:]*: //' "$OUTD/many.err" >"$OUTD/many.e"
	sed 's/^[^:]*: //' "$OUTD/one.err" >"$OUTD/one.e"
	if ! same_bytes "$OUTD/one.out" "$OUTD/many.out" || ! same_bytes "$OUTD/one.e" "$OUTD/many.e"; then
		echo "merge differs: LC_ALL=$LC_ALL cuts '$cuts' ${JOB_EXTRA:-} $*"
		diff "$OUTD/one.out" "$OUTD/many.out" | head -n 10
		cat "$OUTD/many.err"
		return 1
	fi
}

@test "UTF-8: a selected line not valid UTF-8, then context, merges as one run" {
	printf '1 foo\n2\n3\n4\n5\n6 \377 foo\n7\n' >f
	local opts cut
	for opts in "-n -A 1" "-n -C 1" "-n -A 2 -m 1" "-v -n -A 1" "-o -n -A 1"; do
		for cut in "" "5" "13 20"; do
			# shellcheck disable=SC2086
			LC_ALL=C.UTF-8 split_merge "$cut" $opts foo || return 1
			# shellcheck disable=SC2086
			LC_ALL=C split_merge "$cut" $opts foo || return 1
		done
	done
	LC_ALL=C.UTF-8 run_ac -n -A 1 foo f
	expect_status 0
	expect_out '1:1 foo\n2-2\n--\n3-3\n'
}

@test "UTF-8: the README recipe (-n -C 2) over a log with invalid lines, 8 ranges, read windows of 64 bytes" {
	local opts io
	awk 'BEGIN {
		for (i = 1; i <= 400; i++)
			if (i % 23 == 0) printf "bad \377 foo %d\n", i
			else if (i % 23 == 7) printf "bad \376 %d\n", i
			else if (i % 11 == 0) printf "GET foo %d\n", i
			else printf "line %d\n", i
	}' >f
	local size cuts
	size=$(stat -c %s f)
	cuts="$((size / 8)) $((size / 4)) $((size / 3)) $((size / 2)) $((size * 2 / 3)) $((size * 7 / 8))"
	for opts in "-n -C 2" "-v -n -A 1" "-A 5 -m 9"; do
		for io in "" "--buffer-size=64 --mmap --threads=2" "--buffer-size=64 --no-mmap --threads=1"; do
			# shellcheck disable=SC2086
			JOB_EXTRA=$io SINGLE_EXTRA=$io LC_ALL=C.UTF-8 split_merge "$cuts" $opts foo || return 1
		done
	done
}

@test "--merge: no record stream is status 2, naming the empty operand" {
	run_ac --merge -n -e x
	expect_status 2
	expect_stderr_matches 'standard input\): no record stream'
	printf 'foo\n' >f
	"$ACGREP" --records -n foo f >r1
	: >r2
	run_ac --merge -n foo r1 r2
	expect_status 2
	expect_stderr_matches '^PROG: r2: no record stream'
	expect_out ''
}

@test "--overlapping, --tagged-file, --show-pattern go through --records and --merge" {
	printf 'ushers he\nfoo\nshe sells\nno\nhe\n' >f
	printf 'a\the\nb\tshe\n' >tags.tsv
	local opts cut
	for opts in "--overlapping -o -n -e he -e she" "--overlapping --count-matches -e he -e she" \
		"--tagged-file=tags.tsv --show-pattern -n" "--tagged-file=tags.tsv --show-all-patterns --overlapping -o" \
		"--show-pattern=number -n -C 1 -e he -e she" "--tagged-file=tags.tsv -c"; do
		for cut in "" "3" "12" "20 27"; do
			# shellcheck disable=SC2086
			LC_ALL=C split_merge "$cut" $opts || return 1
			# shellcheck disable=SC2086
			LC_ALL=C.UTF-8 split_merge "$cut" $opts || return 1
		done
	done
	"$ACGREP" --records -e he f >r
	run_ac --merge --overlapping -o -e he r
	expect_status 2
	expect_stderr_matches "this merge has '--overlapping"
}

@test "--count-per-pattern, --all-patterns, --json, --stats are refused by name" {
	printf 'foo\n' >f
	local opt
	for opt in --count-per-pattern --all-patterns --json --stats; do
		run_ac --records "$opt" -e foo f
		expect_status 2
		expect_stderr_matches "^PROG: $opt cannot be used with --records"
		expect_out ''
		run_ac --merge "$opt" -e foo f
		expect_status 2
		expect_stderr_matches "^PROG: $opt cannot be used with --merge"
	done
}

@test "randomized: random files cut at random offsets merge as one run" {
	local it i n k opts cuts size
	local -a sets=("-n -A 1" "-n -C 1" "-C 2" "-v -n -A 1" "-n -A 2 -m 2" "-o -A 1 -n" "-v -C 1 -m 3"
		"-b -A 2" "-c" "-w -A 1 -n" "-i -n -C 1" "--overlapping -o -n")
	RANDOM=40
	for ((it = 0; it < 25; it++)); do
		n=$((RANDOM % 30 + 1))
		for ((i = 0; i < n; i++)); do
			case $((RANDOM % 6)) in
			0) printf 'x foo\n' ;; 1) printf 'y \377\n' ;; 2) printf 'z \377 foo\n' ;;
			3) printf '\n' ;; 4) printf 'plain %d\n' "$i" ;; 5) printf 'fo foofoo\n' ;;
			esac
		done >f
		((RANDOM % 3 == 0)) && printf 'tail foo' >>f
		size=$(stat -c %s f)
		cuts=$(for ((k = RANDOM % 4; k > 0; k--)); do echo $((RANDOM % (size + 1))); done | sort -n | tr '\n' ' ')
		opts=${sets[RANDOM % ${#sets[@]}]}
		local io="--buffer-size=$((RANDOM % 40 + 1))"
		# shellcheck disable=SC2086
		JOB_EXTRA=$io SINGLE_EXTRA="$io --threads=$((RANDOM % 3 + 1))" LC_ALL=C.UTF-8 \
			split_merge "$cuts" $opts -e foo || return 1
		# shellcheck disable=SC2086
		LC_ALL=C split_merge "$cuts" $opts -e foo || return 1
	done
}
