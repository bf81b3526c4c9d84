#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# threads.sh - does the default thread count ever lose to --threads=1?  The
# default acgrep (read(), one thread per CPU) against `acgrep --threads=1`
# over the workloads of $ACGREP_BENCH_DIR/manifest.tsv, twice: on the machine
# as it is ("idle"), then "busy", with a CPU burner (`nice -n 19` shell loop)
# on every online CPU for the whole second table.
#
# Usage: scripts/perf/threads.sh [--runs N] [--workloads a,b,...] [--acgrep BIN]
#
# Each table is bench.py's peers table for the two tools (every count checked
# against the manifest, N interleaved runs, default 5, stdout to files):
# read the "acgrep --threads=1" ratio column, the one-thread time over the
# default's; below 0.95 the default is more than 5% slower than one thread.
# The result is kept under $ACGREP_BENCH_DIR/results.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 workloads=''
acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--workloads) workloads=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "threads.sh: unknown argument $1 (try --help)" ;;
	esac
done
((runs >= 1)) || die "threads.sh: --runs needs a positive count"
need_python
need time:/usr/bin/time
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
need_corpus

burners=()
stop_burners() {
	((${#burners[@]})) && kill "${burners[@]}" 2>/dev/null
	burners=()
}
trap stop_burners EXIT

out=$(results_file threads)
cmd="scripts/perf/threads.sh --runs $runs${workloads:+ --workloads $workloads}"
{
	machine_header "acgrep: default threads against --threads=1, idle and busy (scripts/perf/threads.sh)" "$cmd"
	binary_facts acgrep "$acgrep"
	printf '# corpus: %s; LC_ALL=C; page cache warmed; stdout to files\n' "$BENCH_DIR"
} | tee "$out"
for load in idle busy; do
	if [[ $load == busy ]]; then
		for ((i = 0; i < $(nproc); i++)); do
			nice -n 19 bash -c 'while :; do :; done' &
			burners+=($!)
		done
	fi
	printf '\n## %s: load average %s, %s burner(s)\n' "$load" "$(cut -d' ' -f1-3 /proc/loadavg)" \
		"${#burners[@]}" | tee -a "$out"
	"$PY" "$PERF_DIR/bench.py" peers --dir "$BENCH_DIR" --manifest "$BENCH_DIR/manifest.tsv" \
		--runs "$runs" --tools acgrep,acgrep-1t --acgrep "$acgrep" \
		${workloads:+--workloads "$workloads"} --raw "${out%.txt}-$load.json" | tee -a "$out"
	stop_burners
done
say "kept in $out"
