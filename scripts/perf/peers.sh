#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# peers.sh - acgrep side by side with grep -F, rg -F, ugrep -F, pcre2grep -F and
# acgrep --engine=pcre2 over the full suite.
#
# Usage: scripts/perf/peers.sh [--runs N] [--timeout S] [--workloads a,b,...]
#                              [--tools acgrep,acgrep-1t,acgrep-mmap,acgrep-read,acgrep-pcre2,grep,rg,rg-read,ugrep,pcre2grep]
#                              [--acgrep BIN]
#
# For each workload of $ACGREP_BENCH_DIR/manifest.tsv (corpus.sh): warm the input,
# run every tool once and check that it prints the count GNU grep -F printed when
# the corpus was built (a disagreement fails the run, after the tables, unless
# bench.py's KNOWN_DIFFS documents why that peer legitimately differs: then the
# cell says n/c), then time N interleaved runs of every tool (default 5), each
# with stdout to a file.  A tool whose check run takes more than S seconds
# (default 60) is not timed on that workload.  Prints medians with ratios to
# acgrep (its default I/O), throughput in GB/s, CPU time and peak RSS; acgrep
# and rg are also measured with each I/O path forced (--mmap, --no-mmap), and
# acgrep-1t is acgrep on one thread (--threads=1).
# The result is kept under $ACGREP_BENCH_DIR/results.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 timeout=60 workloads='' tools=acgrep,acgrep-mmap,acgrep-read,acgrep-pcre2,grep,rg,rg-read,ugrep,pcre2grep
acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--workloads) workloads=$2; shift 2 ;;
	--tools) tools=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "peers.sh: unknown argument $1 (try --help)" ;;
	esac
done
need_python
need ripgrep:rg ugrep:ugrep pcre2-utils:pcre2grep time:/usr/bin/time
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
need_corpus
if [[ ,$tools, == *,acgrep-pcre2,* ]] && [[ $("$acgrep" --version) != *"PCRE2 engine (--engine=pcre2) compiled in"* ]]; then
	say "this acgrep has no PCRE2 engine (build with libpcre2-dev): leaving acgrep --engine=pcre2 out"
	tools=${tools//,acgrep-pcre2/}
fi

out=$(results_file peers)
cmd="scripts/perf/peers.sh --runs $runs --timeout $timeout${workloads:+ --workloads $workloads} --tools $tools"
{
	machine_header "acgrep and its peers (scripts/perf/peers.sh)" "$cmd"
	binary_facts acgrep "$acgrep"
	tool_versions
	printf '# corpus: %s (see corpus-info.txt there); LC_ALL=C; page cache warmed; stdout to files\n\n' "$BENCH_DIR"
} | tee "$out"
"$PY" "$PERF_DIR/bench.py" peers --dir "$BENCH_DIR" --manifest "$BENCH_DIR/manifest.tsv" \
	--runs "$runs" --timeout "$timeout" --tools "$tools" --acgrep "$acgrep" \
	${workloads:+--workloads "$workloads"} --raw "${out%.txt}.json" | tee -a "$out"
say "kept in $out"
