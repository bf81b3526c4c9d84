#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Worker threads (--threads) and split files (--segment-size, hidden):
# the bytes on stdout and stderr, their interleaving and the exit status are
# those of a search on one thread, and those of grep.

load helpers

# same_merged EXTRA ARGS...: `$ACGREP --threads=1 ARGS` and
# `$ACGREP EXTRA ARGS` (EXTRA split on spaces) with stdout and stderr in one
# file: identical bytes, in the same order, and the same status.
same_merged() {
	local -a extra
	read -r -a extra <<<"$1"
	shift
	local s1=0 s2=0
	"$ACGREP" --threads=1 "$@" </dev/null >"$OUTD/one" 2>&1 || s1=$?
	"$ACGREP" "${extra[@]}" "$@" </dev/null >"$OUTD/many" 2>&1 || s2=$?
	if ! same_bytes "$OUTD/one" "$OUTD/many" || [[ $s1 != "$s2" ]]; then
		{
			echo "threads differ: ${extra[*]} $(printf '%q ' "$@") (status $s1 vs $s2)"
			diff "$OUTD/one" "$OUTD/many" | head -n 20
		} | fail
		return 1
	fi
}

# A tree of 120 files in 6 directories; every third file mentions foo.
many_files() {
	untraced _many_files
}

_many_files() {
	local d f
	for d in 1 2 3 4 5 6; do
		for ((f = 1; f <= 20; f++)); do
			if ((f % 3 == 0)); then
				fixture "t/d$d/f$f.txt" 'x\nfoo %s %s\ny\nz\nfoo again\n' "$d" "$f"
			else
				fixture "t/d$d/f$f.txt" 'nothing %s\nhere\n' "$f"
			fi
		done
	done
}

# A file of about 600 KB, split by default reads of 96 KiB into segments:
# numbered lines, some with needles.
big_file() {
	awk 'BEGIN {
		for (i = 1; i <= 24000; i++) {
			if (i % 97 == 0) printf "line %d has a needle and another needle\n", i
			else if (i % 89 == 0) printf "line %d has a Needle\n", i
			else printf "line %d is plain text\n", i
		}
	}' >big.txt
}

@test "threads: -r over many files gives grep's output in grep's order" {
	skip_if_grep
	many_files
	untraced tree_options
}

# tree_options: -r over t under each option set, on 3 threads against
# grep and on 4 against one thread.
tree_options() {
	local opts
	for opts in "" -n -c -l -L -h -o -b -v -C1 "-A1 --group-separator=@@" "-B1 -n" -m1; do
		# shellcheck disable=SC2086
		same_as_grep_with "--threads=3" -r $opts foo t || return 1
		# shellcheck disable=SC2086
		same_merged "--threads=4" -F -r $opts foo t || return 1
	done
}

@test "threads: several operands, a missing one reported in its place" {
	skip_if_grep
	many_files
	same_merged "--threads=3" -F foo t/d1/f3.txt missing1 t/d2/f6.txt t/d3 missing2 t/d4/f9.txt
	same_as_grep_with "--threads=3" -s foo t/d1/f3.txt missing1 t/d2/f6.txt missing2
}

@test "threads: -R reports a dangling link and a directory loop in order" {
	skip_if_grep
	many_files
	ln -s nowhere t/d3/dangling
	ln -s .. t/d4/loop
	same_merged "--threads=3" -F -R foo t
	same_merged "--threads=2" -F -R -c foo t
}

# A walk error is committed as soon as the files before it are: a worker
# must never claim its emptied slot (it opened a NULL path and crashed in
# about half of these runs).
@test "threads: walk errors between small files never reach a worker" {
	skip_if_grep
	untraced walk_errors
}

walk_errors() {
	local d k
	for ((d = 1; d <= 100; d++)); do
		fixture "t/d$d/a" 'foo %s\n' "$d"
	done
	# the 100 links in one process, not one ln each
	python3 -c 'import os
for d in range(1, 101): os.symlink("..", "t/d%d/loop" % d)'
	ln -s nowhere t/dangling
	for ((k = 1; k <= 10; k++)); do
		same_merged "--threads=2" -F -R -c foo t || return 1
		same_merged "--threads=3" -F -R -l foo t || return 1
	done
}

# A write error, met by a worker writing its own output or by the main
# thread, ends the run as grep ends it: one message, status 2.
@test "threads: a write error stops the run with status 2" {
	skip_if_grep
	many_files
	seq 1 200000 >t/d1/numbers
	local t gs=0 as
	"$GREP" -F -r 1 t >/dev/full 2>"$OUTD/g.err" || gs=$?
	for t in 1 2 3; do
		as=0
		"$ACGREP" --threads=$t -F -r 1 t >/dev/full 2>"$OUTD/a.err" || as=$?
		[[ $as == "$gs" ]] || fail "--threads=$t: status $as, grep $gs"
		cmp <(_norm_stderr "$OUTD/g.err") <(_norm_stderr "$OUTD/a.err") ||
			fail "--threads=$t: stderr $(cat "$OUTD/a.err")"
	done
}

# -q ends the run at its first selected line: later inputs are neither
# searched nor reported, as grep exits there.
@test "threads: -q stops before later inputs' errors" {
	skip_if_grep
	many_files
	same_as_grep_each --threads=2 --threads=3 -- -q -r foo t missing
	same_as_grep_each --threads=2 --threads=3 -- -q foo t/d1/f3.txt t/d1/f1.txt missing
}

# all_asleep PARENT N: waits (10 s at most) until the child of PARENT has
# N threads or more (a sanitizer adds its own) and all of them sleep, twice
# in a row (threads_asleep).
all_asleep() {
	local k pid
	for k in $(seq 1 200); do
		pid=$(pgrep -P "$1") && break
		_nap
	done
	threads_asleep "${pid:-0}" "$2"
}

# A worker whose file is not next in order holds its output; here it
# waits for its turn (the budget is small) after a line longer than the
# printer's buffer, and the file is then truncated.  That line was read
# before, so it is printed whole, and nothing is written from the
# vanished mapping: that was "write error: Bad address", and a fault
# taken under the pool's lock hung the run.
@test "threads: a file truncated while its held output waits is printed" {
	skip_if_grep
	# all_asleep counts the search's threads in /proc: an emulator adds its own
	[[ $ACGREP != *-qemu ]] || skip "an emulator's threads"
	mkfifo fifo
	local io pid st
	for io in "" --mmap --no-mmap; do
		{ printf 'needle 1\nneedle '; head -c 300000 /dev/zero | tr '\0' y; printf '\n'; } >long
		{ printf 'fifo:needle fifo\nlong:'; head -n 1 long; printf 'long:'; tail -n 1 long; } >"$OUTD/want"
		timeout 30 "$ACGREP" --threads=2 --segment-size=1000 $io needle fifo long \
			>"$OUTD/ac.out" 2>"$OUTD/ac.err" &
		pid=$!
		all_asleep $pid 3 || fail "${io:-auto}: never waited"
		: >long
		echo 'needle fifo' >fifo
		st=0
		wait $pid || st=$?
		[[ $st == 0 ]] || fail "${io:-auto}: status $st: $(cat "$OUTD/ac.err")"
		cmp "$OUTD/want" "$OUTD/ac.out" || fail "${io:-auto}: output differs"
		[[ ! -s $OUTD/ac.err ]] || fail "${io:-auto}: stderr $(cat "$OUTD/ac.err")"
	done
}

@test "threads: -q and -s keep their exit status" {
	skip_if_grep
	many_files
	expect 0 '' -- --threads=3 -F -q -r foo t
	expect 1 '' -- --threads=3 -F -q -r absent t
	expect 2 '' -- --threads=3 -F -s -r absent t missing
	expect 0 '' -- --threads=3 -F -s -q -r foo missing t
}

@test "threads: a split file gives the same bytes as grep" {
	skip_if_grep
	big_file
	untraced split_options
	same_as_grep_with "--threads=2 --segment-size=333" -H -c -e needle -e Needle big.txt
}

# split_options: big.txt split in segments of 1000 bytes under each
# option set, in both locales, against grep.
split_options() {
	local opts
	for opts in "" -c -v -o "-o -b" -b -l -L -q -i "-i -c" -w -x "--color=always" "-c -v" -z; do
		# shellcheck disable=SC2086
		in_both_locales same_as_grep_with "--threads=3 --segment-size=1000" $opts needle big.txt || return 1
	done
}

@test "threads: split files with --mmap and through read() of one byte" {
	skip_if_grep
	big_file
	same_as_grep_with "--threads=3 --segment-size=1000 --mmap" -o -b needle big.txt
	same_as_grep_with "--threads=3 --segment-size=1000 --no-mmap --buffer-size=1" -c needle big.txt
	same_as_grep_with "--threads=3 --segment-size=1000 --no-mmap --buffer-size=1" -b needle big.txt
}

@test "threads: a NUL early in a split file makes all of it binary, as in grep" {
	skip_if_grep
	big_file
	{ head -c 5000 big.txt; printf 'nul\0here\n'; tail -c +5001 big.txt; } >bin.txt
	in_both_locales same_as_grep_with "--threads=3 --segment-size=1000" needle bin.txt
	same_as_grep_with "--threads=3 --segment-size=1000" -c needle bin.txt
	same_as_grep_with "--threads=3 --segment-size=1000" -c -a needle bin.txt
	same_as_grep_with "--threads=3 --segment-size=1000" -c --binary-files=without-match needle bin.txt
	same_as_grep_with "--threads=3 --segment-size=1000 --mmap" needle bin.txt
}

@test "threads: a NUL late in a split file turns the rest binary as on one thread" {
	skip_if_grep
	big_file
	local i
	{ cat big.txt big.txt; printf 'a needle\0\n'; cat big.txt; } >late.txt
	for i in 1 2; do
		same_merged "--threads=3 --segment-size=4096" -F needle late.txt
		same_merged "--threads=3 --segment-size=4096" -F -c needle late.txt
		same_merged "--threads=3 --segment-size=4096" -F -c --binary-files=without-match needle late.txt
		same_merged "--threads=3 --segment-size=4096" -F -l --binary-files=without-match needle late.txt
		same_merged "--threads=3 --segment-size=4096" --mmap -F -o -b needle late.txt
		same_merged "--threads=3 --segment-size=4096" --buffer-size=1000 -F needle late.txt
		same_merged "--threads=3 --segment-size=4096" --buffer-size=1000 -F -c needle late.txt
		same_merged "--threads=2 --segment-size=3000" --buffer-size=777 -F -o -b needle late.txt
	done
}

@test "threads: a NUL in the line a read leaves unfinished, as on one thread" {
	skip_if_grep
	big_file
	local lim at
	# reads of 1000 bytes: the NUL goes at the start of the line that a read
	# ending at lim leaves unfinished (where a range may end), or past lim;
	# past grep's first buffer (96 KiB), which makes the whole file binary
	for lim in 100000 104000 120000 121000; do
		at=$(awk -v lim="$lim" '{ off += length($0) + 1; if (off < lim - 1) start = off } END { print start }' big.txt)
		for at in "$at" "$((lim + 1))"; do
			{ head -c "$at" big.txt; printf 'x\0y'; tail -c +"$((at + 1))" big.txt; } >tail.txt
			same_merged "--threads=3 --segment-size=4096" --buffer-size=1000 -F line tail.txt || return 1
			same_merged "--threads=2 --segment-size=2500" --buffer-size=1000 -F line tail.txt || return 1
			same_merged "--threads=3 --segment-size=4096" --buffer-size=1000 -F -n line tail.txt || return 1
		done
	done
}

@test "threads: lines that are not UTF-8 in a split file" {
	skip_if_grep
	big_file
	{ head -c 3000 big.txt; printf 'bad \377 needle\n'; tail -c +3001 big.txt; } >enc.txt
	LC_ALL=C.UTF-8 same_as_grep_with "--threads=3 --segment-size=700" needle enc.txt
	LC_ALL=C.UTF-8 same_as_grep_with "--threads=3 --segment-size=700" -c needle enc.txt
}

@test "threads: a file without a final newline and lines longer than a segment" {
	skip_if_grep
	big_file
	{ cat big.txt; head -c 20000 /dev/zero | tr '\0' 'x'; printf '\nneedle at the end'; } >tail.txt
	same_as_grep_with "--threads=3 --segment-size=1000" needle tail.txt
	same_as_grep_with "--threads=3 --segment-size=1000" -c -v needle tail.txt
	same_as_grep_with "--threads=3 --segment-size=1000" -c x tail.txt
}

# clones ARGS...: how many threads `$ACGREP ARGS` starts (strace -f),
# its output in $OUTD/clones.out.
clones() {
	under_strace -f -qq -e trace=clone,clone3 -o "$OUTD/clones.trace" "$ACGREP" "$@" \
		>"$OUTD/clones.out" 2>&1 || true
	grep -c 'clone' "$OUTD/clones.trace" || true
}

# The only input, when it does not split, is searched on the main thread as
# --threads=1 searches it: no worker is started to be handed it.
@test "threads: one file that does not split starts no thread; one that splits does" {
	skip_if_grep
	[[ $ACGREP != *-qemu ]] || skip "an emulator's threads"
	command -v strace >/dev/null || skip "no strace"
	big_file
	tr '\n' ' ' <big.txt >oneline.txt
	[[ $(clones --threads=3 --segment-size=1000 -c needle oneline.txt) == 0 ]] ||
		fail "a file of one line started threads"
	[[ $(clones --threads=3 --segment-size=1000 -c needle big.txt) -gt 0 ]] ||
		fail "a split file started no thread"
	local opts
	for opts in -c -o "-o -b" -v; do
		# shellcheck disable=SC2086
		same_as_grep_with "--threads=3 --segment-size=1000" $opts needle oneline.txt
	done
	same_merged "--threads=3 --segment-size=1000" --count-matches needle oneline.txt
	# the only input is the output: reported as one thread reports it
	cp big.txt out.txt
	local st=0
	"$ACGREP" --threads=3 --segment-size=1000 needle out.txt >>out.txt 2>"$OUTD/err" || st=$?
	[[ $st == 2 ]] || fail "status $st"
	grep -qx 'acgrep: out.txt: input file is also the output' "$OUTD/err" || fail "stderr: $(cat "$OUTD/err")"
	cmp big.txt out.txt || fail "the input grew"
}

@test "threads: output held past the budget waits its turn" {
	skip_if_grep
	big_file
	# 8 segments of 100 bytes may be held: every worker waits often
	same_as_grep_with "--threads=4 --segment-size=100" line big.txt
	same_as_grep_with "--threads=4 --segment-size=100" -r line .
}

@test "threads: --threads takes a count; 0 is one per CPU" {
	skip_if_grep
	fixture a 'foo\n'
	expect 0 'foo\n' -- --threads=0 -F foo a
	expect 0 'foo\n' -- --threads=1 -F foo a
	expect 0 'foo\n' -- --threads 8 -F foo a
	run_ac --threads=x -F foo a
	expect_status 2
	expect_stderr_matches '^PROG: x: invalid number of threads \(0 to 1024\)$'
	run_ac --threads=-1 -F foo a
	expect_status 2
	expect 0 'foo\n' -- --threads=1024 -F foo a
	run_ac --threads=1025 -F foo a
	expect_status 2
	expect_stderr_matches '^PROG: 1025: invalid number of threads \(0 to 1024\)$'
}

@test "threads: standard input named twice is read by the first, in order" {
	skip_if_grep
	many_files
	fixture in 'foo 1\nbar\nfoo 2\n'
	SAG_STDIN=in same_as_grep_with "--threads=4" foo - t/d1/f3.txt - t/d2/f6.txt
	SAG_STDIN=in same_as_grep_with "--threads=4" -c foo - t/d1/f3.txt - t/d2/f6.txt
	SAG_STDIN=in same_as_grep_with "--threads=4" -m1 foo - t/d1/f3.txt - t/d2/f6.txt
}

# More files than the queue holds (256): workers waiting for their turn
# (a context separator, the held-output budget) while the queue is full.
@test "threads: more files than the queue holds, with context and a small budget" {
	skip_if_grep
	mkdir -p q
	awk 'BEGIN {
		for (i = 1; i <= 300; i++) {
			f = "q/f" i
			printf "a\nfoo %s\nb\nc\nfoo again\n", i >f
			close(f)
		}
	}'
	same_as_grep_with "--threads=3" -r -C1 -n foo q
	same_as_grep_with "--threads=3" -r -A1 foo q
	same_as_grep_with "--threads=4 --segment-size=10" -r foo q
	same_merged "--threads=4 --segment-size=10" -F -r -o -b foo q
}

# A worker claims a run of one directory's files at once (POOL_RESERVE): it
# takes nothing later until the run is done, a worker out of work takes
# from another's run, and a run over (-q, -l's settled file) is skipped.
@test "threads: runs of one directory's files around a split file" {
	skip_if_grep
	mkdir -p r
	awk 'BEGIN {
		for (i = 1; i <= 60; i++) { f = "r/a" i; printf "foo %s\nx\n", i >f; close(f) }
		for (i = 1; i <= 3000; i++) printf "foo line %s\n", i >"r/m-big"
		for (i = 1; i <= 60; i++) { f = "r/z" i; printf "x\nfoo %s\n", i >f; close(f) }
	}'
	local t
	for t in 2 3; do
		same_as_grep_with "--threads=$t --segment-size=1000" -r foo r
		same_as_grep_with "--threads=$t --segment-size=1000" -r -c foo r
		same_as_grep_with "--threads=$t --segment-size=1000" -r -L x r
		same_as_grep_with "--threads=$t" -r -q foo r
		same_merged "--threads=$t --segment-size=100" -r -o -b foo r
		same_merged "--threads=$t --segment-size=100" -r -m2 -n foo r
	done
}
