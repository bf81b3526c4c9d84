#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fault/run.sh - fault injection for text files: acgrep searches a
# file that is truncated, appended to or rewritten under it, and prints
# what one sequential read of the changing file prints.
#
# Each run searches a copy of one of three generated files (many lines,
# half of them matching; one long line of 3 MB among short ones; a NUL
# byte late, the file binary from there) for "match", its stdout a FIFO
# that is read only after every thread of acgrep sleeps (blocked writing,
# the pipe full) and the file was changed at a random offset: truncated
# there, appended to (2,000 lines), or rewritten in place from there (the
# same lines, none of them matching any more).  The runs rotate through
# the files and changes, and take the thread count (default, 1, 2, 3) and
# I/O path (default, --mmap, --no-mmap) at random; files are cut into
# segments of 200,000 bytes where threads split them.  A `nice -n 19` CPU
# burner runs on every core.
#
# The oracle (oracle.py, which says it in full): the bytes on stdout and
# the exit status are grep -F's on ORIG[0:R) + FINAL[R:] for some offset R,
# the content a sequential read sees when the change comes after it read
# R bytes; stderr is empty, or the one "binary file matches" line such a
# content gives.  A truncated file so gives a prefix of grep's output on
# the original ending at a line end (or at a surviving partial line, with
# a newline), holding at least grep's output on what is left; an appended
# file exactly grep's output on the final file.  The simulated grep is
# checked against grep itself on every file first.  A run that outlives
# FAULT_TIMEOUT seconds is a hang.
#
# Usage: tests/fault/run.sh   (make fault; make check runs it)
# Environment: ACGREP (default ./acgrep), GREP (/usr/bin/grep),
# FAULT_RUNS (default 20, about a minute on a loaded machine), FAULT_SEED
# (the choices' seed; default random, printed), FAULT_BURNERS (one per
# CPU), FAULT_TIMEOUT (60), FAULT_DIR (work directory; default a new one
# under $TMPDIR, removed when every run passed).  Prints a FAIL line for
# each failed run, "N passed, N failed" last; exit status 0 when every run
# passed, 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
ACGREP=${ACGREP:-./acgrep}
[[ $ACGREP == /* ]] || ACGREP=$root/$ACGREP
GREP=${GREP:-/usr/bin/grep}
RUNS=${FAULT_RUNS:-20}
SEED=${FAULT_SEED:-$((RANDOM * 32768 + RANDOM))}
BURNERS=${FAULT_BURNERS:-$(nproc)}
TIMEOUT=${FAULT_TIMEOUT:-60}
ORACLE=$here/oracle.py
PAT=match
export LC_ALL=C

if [[ ! -x $ACGREP ]]; then
	echo "fault: $ACGREP not built (make)" >&2
	exit 2
fi

W=${FAULT_DIR:-}
if [[ -z $W ]]; then
	W=$(mktemp -d "${TMPDIR:-/tmp}/acgrep-fault.XXXXXX") || exit 2
fi
mkdir -p "$W/runs" "$W/fail"

burners=()
cleanup() {
	local pid
	for pid in "${burners[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- the files

# lines FROM TO: "line NNNNNNNNN match" and "... other" in turn, 21 bytes.
lines() {
	awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i <= b; i++) printf "line %09d %s\n", i, (i % 2 ? "match" : "other") }'
}

make_files() {
	lines 1 100000 >"$W/lines"
	{
		lines 1 5000
		printf 'match '
		head -c 3000000 /dev/zero | tr '\0' x
		echo
		lines 5001 10000
	} >"$W/long"
	{
		lines 1 75000
		printf 'a\0b match\n'
		lines 75001 100000
	} >"$W/nul"
	lines 200001 202000 >"$W/extra"
	local f
	for f in lines long nul; do # every match rewritten, for rewrite's final files
		sed 's/match/mAtch/g' "$W/$f" >"$W/$f.rewritten"
	done
}

# ---------------------------------------------------------------- one run

# all_asleep PID: PID runs acgrep (no longer the bash that forked it) and
# every thread of it sleeps, twice in a row; 1 when PID has exited.
all_asleep() {
	local pid=$1 calm=0 states
	for _ in $(seq 1 "$((TIMEOUT * 50))"); do
		[[ -d /proc/$pid ]] || return 1
		states=$(awk '{ print $3 }' /proc/"$pid"/task/*/stat 2>/dev/null | tr -d '\n')
		if [[ $(cat /proc/"$pid"/comm 2>/dev/null) != bash && $states =~ ^S+$ ]]; then
			((++calm == 2)) && return 0
		else
			calm=0
		fi
		sleep 0.02
	done
	return 1
}

# one_run N FILE CHANGE EXTRA...: searches a copy of FILE with EXTRA, the
# copy changed by CHANGE (truncate, append, rewrite) at a random offset
# while acgrep is blocked; leaves the run's meta, out and err in
# $W/runs/N for the oracle.
one_run() {
	local n=$1 file=$2 change=$3 d=$W/runs/$1 big=$W/big
	shift 3
	local size point cmd pid reader st=0 deadline=$((SECONDS + TIMEOUT))
	size=$(stat -c %s "$W/$file")
	point=$(((RANDOM * 32768 + RANDOM) % size))
	case $change in
	truncate) cmd="truncate -s $point $big" ;;
	append) cmd="cat $W/extra >>$big" ;;
	# every match from the offset on: the byte after its m changed
	rewrite) cmd="dd if=$W/$file.rewritten of=$big bs=1M iflag=skip_bytes oflag=seek_bytes skip=$point seek=$point conv=notrunc status=none" ;;
	esac
	mkdir -p "$d"
	cp "$W/$file" "$big"
	rm -f "$W/out.fifo" "$W/gate.fifo"
	mkfifo "$W/out.fifo" "$W/gate.fifo"
	{ read -r _ <"$W/gate.fifo" && cat >"$d/out"; } <"$W/out.fifo" &
	reader=$!
	"$ACGREP" "$@" -F "$PAT" "$big" >"$W/out.fifo" 2>"$d/err" &
	pid=$!
	all_asleep "$pid"
	eval "$cmd"
	echo go >"$W/gate.fifo"
	while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
		sleep 0.02
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid"
		st=hang
	fi
	wait "$pid" || { local rc=$? && [[ $st == hang ]] || st=$rc; }
	wait "$reader"
	echo "$file $change $point $st $*" >"$d/meta"
}

# check_runs: the oracle on the runs in $W/runs, counted in pass and
# failed; a failed run's files go to $W/fail.
check_runs() {
	local runs=("$W"/runs/*) out bad d
	[[ -e ${runs[0]} ]] || return 0
	out=$(python3 "$ORACLE" check-runs "$W" "$PAT" "${runs[@]}")
	bad=$(grep -c '^FAIL' <<<"$out")
	[[ -n $out ]] && echo "$out"
	failed=$((failed + bad)) pass=$((pass + ${#runs[@]} - bad))
	for d in "$W"/runs/*; do
		[[ -e $d ]] && mv "$d" "$W/fail/"
	done
}

# ---------------------------------------------------------------- main

make_files
if ! python3 "$ORACLE" self-test "$W" "$PAT" "$GREP"; then
	echo "fault: the oracle's grep is not grep's" >&2
	exit 2
fi
for ((i = 0; i < BURNERS; i++)); do
	nice -n 19 bash -c 'while :; do :; done' &
	burners+=($!)
done

echo "fault: $RUNS runs, seed $SEED, $BURNERS burners, in $W"
RANDOM=$SEED
files=(lines long nul)
changes=(truncate append rewrite)
threads=("" --threads=1 --threads=2 --threads=3)
ios=("" --mmap --no-mmap)
pass=0 failed=0
for ((n = 1; n <= RUNS; n++)); do
	# shellcheck disable=SC2206 # an empty choice is no argument
	extra=(--segment-size=200000 ${threads[RANDOM % 4]} ${ios[RANDOM % 3]})
	one_run "$n" "${files[n % 3]}" "${changes[n / 3 % 3]}" "${extra[@]}"
	((n % 25 == 0 || n == RUNS)) && check_runs
done
((failed == 0)) && [[ -z ${FAULT_DIR:-} ]] && rm -rf "$W"
echo "$pass passed, $failed failed"
((failed == 0))
