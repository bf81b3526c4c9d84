#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stat.sh - `perf stat -r N` of one command, with the counters a commit message quotes.
#
# Usage: scripts/perf/stat.sh [-r N] [-o FILE] [--no-warmup] [--no-cachegrind] [--] COMMAND [ARG]...
#
# Events: task-clock, cycles, instructions, branches, stalled-cycles-frontend.
# The command first runs once untimed (warm-up; --no-warmup skips it) with its
# stdout in FILE (default $ACGREP_BENCH_DIR/out/stat.out), and its last line is
# shown (the count, for -c); the N timed runs write to FILE.runs (with
# --no-warmup: to FILE, one run after another).  Never /dev/null: GNU grep stops
# at the first match there.  stdin is /dev/null.
# Where the hardware counters are not supported (virtual machines), stat.sh says
# so, and reports perf's task-clock plus the instruction and branch counts of one
# run under cachegrind (valgrind --tool=cachegrind --branch-sim=yes), labelled as
# simulated.  --no-cachegrind skips that run (it is 20-100 times slower).
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

EVENTS=task-clock,cycles,instructions,branches,stalled-cycles-frontend
runs=5 out='' cachegrind=1 warmup=1
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--no-warmup) warmup=0; shift ;;
	--no-cachegrind) cachegrind=0; shift ;;
	--) shift; break ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "stat.sh: unknown option $1 (try --help)" ;;
	*) break ;;
	esac
done
(($#)) || die "stat.sh: no command (try --help)"
need linux-perf:perf
if ((cachegrind)); then need valgrind:valgrind; fi
if [[ -z $out ]]; then
	mkdir -p "$BENCH_DIR/out"
	out=$BENCH_DIR/out/stat.out
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

machine_header "perf stat of one command (scripts/perf/stat.sh)" "scripts/perf/stat.sh -r $runs -- $*"
exe=$(command -v "$1" || true)
if [[ -n $exe ]] && head -c4 "$exe" 2>/dev/null | grep -q ELF; then
	binary_facts "$(basename "$1")" "$exe"
fi
if ((warmup)); then
	printf '# one untimed warm-up run, stdout in %s; the %s timed runs: stdout in %s.runs\n' "$out" "$runs" "$out"
else
	printf '# no warm-up run; stdout of the %s timed runs, one after another: %s\n' "$runs" "$out"
fi

# Are cycles and instructions counted here?  (Not on most virtual machines.)
hw=1
probe=$(perf stat -x, -e cycles,instructions -- true 2>&1 >/dev/null || true)
if grep -q -e 'not supported' -e 'not counted' <<<"$probe" || ! grep -q -e ',cycles' <<<"$probe"; then
	hw=0
fi

timed_out=$out
if ((warmup)); then
	"$@" >"$out" </dev/null || { rc=$?; ((rc == 1)) || die "command exited $rc (warm-up run)"; }
	timed_out=$out.runs
fi
perf stat -r "$runs" -e "$EVENTS" -o "$tmp/perf.txt" -- "$@" >"$timed_out" </dev/null ||
	{ rc=$?; ((rc == 1)) || die "command exited $rc under perf stat"; }
printf '# last line of stdout: %s\n' "$(tail -n1 "$out")"
grep -v '^#' "$tmp/perf.txt" | sed '/^$/N;/^\n$/D'

if ((!hw)); then
	cat <<EOF
NOTE: this machine's hardware performance counters are not supported (typical of
a virtual machine): cycles, instructions, branches and stalled-cycles-frontend
read <not supported> above. task-clock and elapsed time are perf's own.
EOF
	if ((cachegrind)); then
		valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
			--cachegrind-out-file="$tmp/cg.out" -- "$@" >"$tmp/cg.stdout" 2>"$tmp/cg.err" </dev/null ||
			{ rc=$?; ((rc == 1)) || { cat "$tmp/cg.err" >&2; die "command exited $rc under cachegrind"; }; }
		num() { sed -n "/^==[0-9]*== $1/{s/^==[0-9]*== $1 *\([0-9,]*\).*/\1/p;q}" "$tmp/cg.err"; }
		ir=$(num 'I *refs:')
		br=$(num 'Branches:')
		mp=$(num 'Mispredicts:')
		detail=$(sed -n '/^==[0-9]*== Branches:/{s/^==[0-9]*== Branches: *[0-9,]* *(\(.*\))/\1/p;q}' "$tmp/cg.err")
		cat <<EOF
Instead, from one run under cachegrind ($(valgrind --version); SIMULATED, not
hardware counters; user-space instructions of the process only):
$(printf '%22s      instructions (cachegrind I refs)\n' "$ir")
$(printf '%22s      branches (cachegrind Bc+Bi: %s)\n' "$br" "$detail")
$(printf '%22s      branch-misses (cachegrind'"'"'s simple predictor model, not the CPU'"'"'s)\n' "$mp")
EOF
	else
		echo "(--no-cachegrind: no instruction or branch counts)"
	fi
fi
