#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Files truncated (or rewritten in place) while acgrep is blocked writing
# their output (a FIFO read only after the change; blocked_run): what is
# printed is what one sequential read of the file as it changes prints,
# grep's rule.  A split file's later segments, searched before the
# truncation, are never committed after a segment that read the new end
# (no gap); a long line written from a mapping is never left half
# written; a mapped line is never printed with bytes written after it was
# searched.

load helpers

# (blocked_run is helpers.bash's)

# A split file truncated inside its first segment while that segment's
# worker, or the committer, is blocked writing: the output is grep's on
# the file as it was, read up to some offset at or past the new end (the
# lines after it were gone when the read got there), so a prefix of
# grep's output on the original ending at a line end, holding at least
# grep's output on what is left; status 0, no message.  Before the fix,
# segments searched ahead were committed after the cut: a gap, then lines
# from beyond the new end.
@test "truncate-threads: a split file truncated while blocked prints a prefix, no gap" {
	skip_if_grep
	# 50,000 lines that do not match, so that the first segment's worker
	# outputs nothing at first and is the head when it writes; then
	# 350,000 that do; 21 bytes each, 8.4 MB; segments of 2 MB
	awk 'BEGIN { for (i = 1; i <= 400000; i++) printf "line %09d %s\n", i, (i <= 50000 ? "other" : "match") }' >orig
	"$GREP" -F match orig >"$OUTD/orig.g"
	head -c 1600000 orig | "$GREP" -F match >"$OUTD/final.g"
	local loc io t size least
	least=$(stat -c %s "$OUTD/final.g")
	# every thread count and I/O path in C, two in C.UTF-8 (the pool's
	# rule knows no locale)
	for loc in C C.UTF-8; do
		for io in "" --no-mmap; do
			for t in "" --threads=2 --threads=3; do
				[[ $loc == C || $t == --threads=2 ]] || continue
				local what="LC_ALL=$loc ${io:-auto} ${t:-default threads}"
				cp orig big
				LC_ALL=$loc blocked_run a "truncate -s 1600000 big" \
					"$ACGREP" $io $t --segment-size=2000000 -F match big || return 1
				[[ $(<"$OUTD/a.rc") == 0 && ! -s $OUTD/a.err ]] ||
					fail "$what: status $(<"$OUTD/a.rc"): $(<"$OUTD/a.err")"
				size=$(stat -c %s "$OUTD/a.out")
				cmp -s "$OUTD/a.out" <(head -c "$size" "$OUTD/orig.g") ||
					fail "$what: $size bytes, not a prefix of grep's lines (a gap)"
				((size >= least)) || fail "$what: $size bytes, lines before the new end lost"
				[[ $size == 0 || $(tail -c 1 "$OUTD/a.out" | od -An -c) == *'\n'* ]] ||
					fail "$what: ends inside a line"
			done
		done
	done
}

# A selected line longer than the output buffer and the pipe, written from
# a mapping (--mmap, or the default's switch to a mapping at a long line):
# blocked in the middle of it, the line is truncated.  grep, blocked, had
# read the whole line and prints it whole; so does acgrep, which keeps a
# mapped line's output until it is complete.  Before the fix: half the
# line without a newline, "file shrank while being searched", status 2.
@test "truncate-threads: a long line truncated while being written is printed as grep prints it" {
	skip_if_grep
	{ printf 'match '; head -c 3000000 /dev/zero | tr '\0' x; echo; } >orig
	local loc io t
	for loc in C C.UTF-8; do
		cp orig big
		LC_ALL=$loc blocked_run g "truncate -s 1500000 big" "$GREP" -F match big || return 1
		for io in "" --mmap --no-mmap; do
			for t in "" --threads=1; do
				cp orig big
				LC_ALL=$loc note_case "${io:-auto} ${t:-default threads}" \
					blocked_run a "truncate -s 1500000 big" "$ACGREP" $io $t -F match big || return 1
				LC_ALL=$loc _compare "long line: acgrep $io $t" || return 1
			done
		done
	done
}

# The long line is reached after the truncation (short lines before it
# fill the pipe): grep reads it to the new end and prints that part with a
# newline; so does acgrep, mapping or not.
@test "truncate-threads: a long line cut before it is read prints its surviving part" {
	skip_if_grep
	{
		awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "line %09d match\n", i }'
		printf 'match '
		head -c 3000000 /dev/zero | tr '\0' x
		echo
	} >orig
	local loc io t
	for loc in C C.UTF-8; do
		cp orig big
		LC_ALL=$loc blocked_run g "truncate -s 1500000 big" "$GREP" -F match big || return 1
		for io in "" --mmap; do
			for t in "" --threads=1; do
				cp orig big
				LC_ALL=$loc blocked_run a "truncate -s 1500000 big" "$ACGREP" $io $t -F match big ||
					return 1
				LC_ALL=$loc _compare "cut long line: acgrep $io $t" || return 1
			done
		done
	done
}

# A mapped file rewritten in place while acgrep is blocked writing (every
# "match" becomes "mAtch"): a sequential read prints the lines it read
# before the change and none after, a prefix of the file's lines.  Before
# the fix the write blocked between the search of a line and its copy, so
# the line selected on the old bytes was printed with the new ones.
@test "truncate-threads: a mapped file rewritten while blocked prints no line of the new bytes" {
	skip_if_grep
	awk 'BEGIN { for (i = 1; i <= 200000; i++) printf "line %09d match\n", i }' >orig
	sed 's/match/mAtch/' orig >rewritten
	local loc t size
	for loc in C C.UTF-8; do
		for t in "" --threads=1; do
			cp orig big
			LC_ALL=$loc blocked_run a "dd if=rewritten of=big conv=notrunc status=none" \
				"$ACGREP" --mmap $t -F match big || return 1
			[[ $(<"$OUTD/a.rc") == 0 && ! -s $OUTD/a.err ]] ||
				fail "LC_ALL=$loc $t: status $(<"$OUTD/a.rc"): $(<"$OUTD/a.err")"
			size=$(stat -c %s "$OUTD/a.out")
			cmp -s "$OUTD/a.out" <(head -c "$size" orig) ||
				fail "LC_ALL=$loc $t: not a prefix of the file's lines: $(grep -m1 mAtch "$OUTD/a.out")"
		done
	done
}
