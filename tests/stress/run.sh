#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/stress/run.sh - the threaded paths under load: never a crash, never
# a hang, never other bytes than one thread's.
#
# Builds a tree for -R and -r to walk: many small files (more than the
# pool's ring of 256 jobs), a few big files that are cut into segments (one
# with a NUL late, which turns the rest binary), `..` and `../..` loops,
# dangling and self-looping links, a link to /proc/self/mem (a read error on
# every system), and unreadable directories and files (chmod 000 when not
# root; as root, a link to a /proc directory root cannot read, where there
# is one).  Then runs each of a set of commands (-c, -l, -L, -q, -m1, -n -i,
# -c -v, -o -b, a write error to /dev/full, -q before later errors, ...)
# STRESS_RUNS times in all, rotating through the thread settings in EXTRAS
# (2, 3 and 8 threads and the default count, with and without small
# segments), STRESS_JOBS searches at a time, with a `nice -n 19` CPU burner
# on every core.  Each run's stdout and stderr (one file, so their
# interleaving counts) and exit status must be those of the same command on
# --threads=1, which is itself compared with GNU grep once: stdout, exit
# status and stderr (program names normalised) apart, as grep and acgrep
# order a read error and a -c count differently on a shared stream.  A run
# that outlives STRESS_TIMEOUT seconds is a hang.
#
# Usage: tests/stress/run.sh   (make stress; make tsan runs a short one)
# Environment: ACGREP (default ./acgrep), GREP (/usr/bin/grep),
# STRESS_RUNS (default 15000), STRESS_JOBS (2), STRESS_BURNERS (one per
# CPU), STRESS_TIMEOUT (60), STRESS_BIG_MB (size of each big file, 20),
# STRESS_DIR (work directory; default a new one under $TMPDIR, removed
# when every run passed).  Exit status 0 when every run passed, 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
ACGREP=${ACGREP:-./acgrep}
[[ $ACGREP == /* ]] || ACGREP=$root/$ACGREP
GREP=${GREP:-/usr/bin/grep}
RUNS=${STRESS_RUNS:-15000}
JOBS=${STRESS_JOBS:-2}
BURNERS=${STRESS_BURNERS:-$(nproc)}
TIMEOUT=${STRESS_TIMEOUT:-60}
BIG_MB=${STRESS_BIG_MB:-20}
export LC_ALL=C

if [[ ! -x $ACGREP ]]; then
	echo "stress: $ACGREP not built (make)" >&2
	exit 2
fi

W=${STRESS_DIR:-}
if [[ -z $W ]]; then
	W=$(mktemp -d "${TMPDIR:-/tmp}/acgrep-stress.XXXXXX") || exit 2
fi
mkdir -p "$W/fail"

burners=()
cleanup() {
	local pid
	for pid in "${burners[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	# unreadable entries back to readable, so that rm -rf can remove them
	[[ -d $W/T ]] && chmod -R u+rwx "$W/T" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- the tree

build_tree() {
	local T=$W/T d f
	rm -rf "$T"
	mkdir -p "$T"
	# 24 directories of 25 small files, some a level deeper; every third
	# file mentions foo, some twice
	for d in $(seq -w 1 24); do
		mkdir -p "$T/d$d/sub"
		for f in $(seq 1 25); do
			if ((f % 3 == 0)); then
				printf 'x\nfoo %s %s\ny\nFOO\nfoo again\n' "$d" "$f" >"$T/d$d/f$f"
			else
				printf 'nothing %s\nhere\n' "$f" >"$T/d$d/f$f"
			fi
		done
		printf 'deep foo %s\n' "$d" >"$T/d$d/sub/g"
	done
	# big files: one mebibyte of lines, foo in about one line in 500, repeated
	awk 'BEGIN { while (n < 1048576) { i++; s = (i % 509 == 0) ? "line " i " has a foo in it" : "line " i " is plain text, nothing to see"; print s; n += length(s) + 1 } }' \
		>"$W/chunk"
	for f in 1 2 3; do
		for d in $(seq 1 "$BIG_MB"); do cat "$W/chunk"; done >"$T/d0$((f * 3))/big$f"
	done
	# a big file whose NUL comes late: the segments after it are binary
	{
		for d in $(seq 1 $((BIG_MB / 2))); do cat "$W/chunk"; done
		printf 'a foo\0\n'
		for d in $(seq 1 $((BIG_MB / 2))); do cat "$W/chunk"; done
	} >"$T/d12/binary"
	# walk errors and open errors spread through the walk
	ln -s .. "$T/d02/loop"
	ln -s ../.. "$T/d05/sub/up"
	ln -s ../../d07 "$T/d07/sub/back"
	ln -s nowhere "$T/d04/dangling"
	ln -s ../nowhere "$T/d15/sub/dangling"
	ln -s selfloop "$T/d10/selfloop"
	ln -s /proc/self/mem "$T/d08/mem"
	ln -s /proc/self/mem "$T/d20/sub/mem"
	if ((EUID != 0)); then
		mkdir "$T/d11/locked" "$T/d18/sub/locked"
		echo foo >"$T/d11/locked/f"
		chmod 000 "$T/d11/locked" "$T/d18/sub/locked"
		chmod 000 "$T/d03/f3"
	elif ! ls /proc/1/map_files >/dev/null 2>&1 && [[ -d /proc/1/map_files ]]; then
		# root reads every directory of ours; not this one
		ln -s /proc/1/map_files "$T/d11/locked"
	fi
}

# ---------------------------------------------------------------- the commands

# One command per line: a name, then acgrep's arguments after -F (word
# split; paths are relative to $W).  "full" runs write stdout to /dev/full.
commands() {
	cat <<-'EOF'
		count -R -c foo T
		list -R -l foo T
		nonmatching -R -L foo T
		quiet -R -q foo T
		quiet_absent -R -q absent T
		max1 -R -m1 foo T
		lines -R -n -i foo T
		invert -R -c -v foo T
		offsets -R -o -b foo T/d03 T/d06 T/d09 T/d12
		full -R foo T
		count_r -r -c foo T
		lines_r -r -n foo T
		quiet_r -r -q foo T
		quiet_first -q foo T/d01/f3 T missing
		operands -c foo T/d09/big3 T/d01/f3 missing T/d08/mem T/d12/binary T/d02
	EOF
}

# run_one DIR EXTRA NAME ARGS...: runs acgrep EXTRA -F ARGS in $W, stdout
# and stderr into DIR/out (stderr alone into DIR/err for "full"), status
# into DIR/rc.
run_one() {
	local dir=$1 extra=$2 name=$3 st=0
	shift 3
	# shellcheck disable=SC2086
	if [[ $name == full ]]; then
		(cd "$W" && timeout -k 5 "$TIMEOUT" "$ACGREP" $extra -F "$@" </dev/null >/dev/full 2>"$dir/out") || st=$?
	else
		(cd "$W" && timeout -k 5 "$TIMEOUT" "$ACGREP" $extra -F "$@" </dev/null >"$dir/out" 2>&1) || st=$?
	fi
	echo "$st" >"$dir/rc"
}

norm_stderr() {
	sed -E 's#^([^ :]*/)?(ac)?grep:#PROG:#' "$1"
}

# reference NAME ARGS...: the --threads=1 run of a command, into
# $W/ref/NAME, checked against grep and against a second --threads=1 run.
reference() {
	local name=$1 r=$W/ref/$1 st
	shift
	mkdir -p "$r" "$r/again" "$r/split"
	run_one "$r" --threads=1 "$name" "$@"
	run_one "$r/again" --threads=1 "$name" "$@"
	if ! cmp -s "$r/out" "$r/again/out" || ! cmp -s "$r/rc" "$r/again/rc"; then
		echo "stress: $name: two --threads=1 runs differ" >&2
		return 1
	fi
	# grep, and acgrep once more with stdout and stderr apart
	st=0
	if [[ $name == full ]]; then
		(cd "$W" && "$GREP" -F "$@" </dev/null >/dev/full 2>"$r/g.err") || st=$?
		: >"$r/g.out"
		cp "$r/out" "$r/split/err"
		: >"$r/split/out"
	else
		(cd "$W" && "$GREP" -F "$@" </dev/null >"$r/g.out" 2>"$r/g.err") || st=$?
		(cd "$W" && "$ACGREP" --threads=1 -F "$@" </dev/null >"$r/split/out" 2>"$r/split/err") || true
	fi
	if ! cmp -s "$r/g.out" "$r/split/out" || [[ $st != "$(<"$r/rc")" ]] ||
		! cmp -s <(norm_stderr "$r/g.err") <(norm_stderr "$r/split/err"); then
		echo "stress: $name: acgrep --threads=1 differs from grep (grep status $st, acgrep $(<"$r/rc")):" >&2
		diff <(cat "$r/g.out"; norm_stderr "$r/g.err") \
			<(cat "$r/split/out"; norm_stderr "$r/split/err") | head -n 20 >&2
		return 1
	fi
	return 0
}

# ---------------------------------------------------------------- the runs

# The thread settings the runs rotate through ("" is the default count).
EXTRAS=("--threads=2" "--threads=3" "" "--threads=2 --segment-size=1048576"
	"--threads=3 --segment-size=524288" "--threads=8 --segment-size=65536")

# worker K: runs number K, K+JOBS, ... below RUNS; a failure's files go to
# $W/fail/N, its line "N<TAB>NAME, THREAD SETTING: command ..." to
# $W/fail/list.K.
worker() {
	local k=$1 n i=0 d=$W/run.$1 name extra
	local -a lines args
	mapfile -t lines < <(commands)
	mkdir -p "$d"
	for ((n = k; n < RUNS; n += JOBS)); do
		read -r name _ <<<"${lines[n % ${#lines[@]}]}"
		read -r -a args <<<"${lines[n % ${#lines[@]}]#"$name"}"
		extra=${EXTRAS[(n / ${#lines[@]}) % ${#EXTRAS[@]}]}
		run_one "$d" "$extra" "$name" "${args[@]}"
		((i++))
		if ! cmp -s "$d/out" "$W/ref/$name/out" || ! cmp -s "$d/rc" "$W/ref/$name/rc"; then
			mkdir -p "$W/fail/$n"
			cp "$d/out" "$d/rc" "$W/fail/$n/"
			printf '%s\t%s, %s: acgrep %s -F %s (in %s; status %s, want %s)\n' "$n" "$name" \
				"${extra:-the default thread count}" "$extra" "${args[*]}" \
				"$W" "$(<"$d/rc")" "$(<"$W/ref/$name/rc")" >>"$W/fail/list.$k"
		fi
	done
	echo "$i" >"$W/done.$k"
}

start=$(date +%s)
echo "stress: building the tree in $W (big files of $BIG_MB MiB)"
build_tree
ok=1
while read -r name args; do
	# shellcheck disable=SC2086
	reference "$name" $args || ok=0
done < <(commands)
if ((!ok)); then
	echo "stress: the one-thread references are wrong; no runs" >&2
	exit 1
fi

echo "stress: $RUNS runs of $(commands | wc -l) commands, $JOBS at a time, $BURNERS CPU burners"
for ((b = 0; b < BURNERS; b++)); do
	nice -n 19 bash -c 'while :; do :; done' &
	burners+=($!)
done
pids=()
for ((k = 0; k < JOBS; k++)); do
	worker "$k" &
	pids+=($!)
done
wait "${pids[@]}"

runs=0
for ((k = 0; k < JOBS; k++)); do
	runs=$((runs + $(cat "$W/done.$k" 2>/dev/null || echo 0)))
done
failures=$(cat "$W"/fail/list.* 2>/dev/null | wc -l)
hangs=$(cat "$W"/fail/*/rc 2>/dev/null | grep -cx -e 124 -e 137)
echo "stress: $runs runs, $failures failures ($hangs hangs), $(($(date +%s) - start)) s"
if ((failures > 0)); then
	first=$(sort -n "$W"/fail/list.* | head -n 1)
	echo "stress: first failing run: ${first#*$'\t'}"
	echo "stress: its output: $W/fail/${first%%$'\t'*}/out; the reference: $W/ref/"
	exit 1
fi
if [[ -z ${STRESS_DIR:-} ]]; then
	cleanup
	rm -rf "$W"
fi
exit 0
