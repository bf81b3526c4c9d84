#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh - benchmark two acgrep binaries over the suite: benchstat's table.
#
# Usage: scripts/perf/compare.sh [--quick] [--runs N] [--io both|mmap|read]
#                                [--workloads a,b,...] [--locale L] OLD NEW
#
# OLD and NEW are acgrep executables (e.g. a `make CTZ=portable` build and the
# default one, or the commit before and after a change; scripts/perf/ctz.sh
# builds such a pair).  Every workload of the manifest that corpus.sh wrote runs
# with --mmap and with --no-mmap; both binaries' counts must equal GNU grep -F's
# (it fails loudly otherwise); runs alternate OLD, NEW, OLD, NEW, ... with the
# input warmed in the page cache.  The table:
#   name  old time/op  new time/op  delta
#   the/mmap  142ms ± 2%  140ms ± 1%  ~  (p=0.315 n=20+20)
#   [Geo mean]  ...
# time/op is the mean after dropping outliers (1.5 IQR), ± the largest deviation
# from it, delta the change of the mean where a two-sided Mann-Whitney U test
# (scipy.stats.mannwhitneyu) gives p <= 0.05 and `~` otherwise.
# --quick: the make-bench subset (32 MiB text), 10 runs a side; default: the full
# suite, 20 runs a side.  --locale: run under LC_ALL=L instead of C (the counts
# must still be the manifest's, which GNU grep gave under C: pick workloads
# whose count the locale keeps, e.g. names5-i,words1k-i under C.UTF-8).  The
# result is also kept under $ACGREP_BENCH_DIR/results.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

quick=0 runs='' io=both workloads='' locale=C
while (($#)); do
	case $1 in
	--quick) quick=1; shift ;;
	--runs) runs=$2; shift 2 ;;
	--io) io=$2; shift 2 ;;
	--workloads) workloads=$2; shift 2 ;;
	--locale) locale=$2; shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "compare.sh: unknown option $1 (try --help)" ;;
	*) break ;;
	esac
done
(($# == 2)) || die "compare.sh: need OLD and NEW binaries (try --help)"
old=$(realpath "$1") new=$(realpath "$2")
[[ -x $old && -x $new ]] || die "compare.sh: $1 and $2 must be executables"
need_python
need python3-scipy:py:scipy.stats
if ((quick)); then
	need_quick_corpus
	manifest=$BENCH_DIR/manifest-quick.tsv
	runs=${runs:-10}
else
	need_corpus
	manifest=$BENCH_DIR/manifest.tsv
	runs=${runs:-20}
fi

out=$(results_file compare)
qflag=''
if ((quick)); then qflag='--quick '; fi
cmd="scripts/perf/compare.sh $qflag--runs $runs --io $io${workloads:+ --workloads $workloads} $1 $2"
{
	machine_header "acgrep: old vs new (scripts/perf/compare.sh)" "$cmd"
	binary_facts old "$old"
	binary_facts new "$new"
	printf '# corpus: %s; LC_ALL=%s; page cache warmed; stdout to files\n\n' "$manifest" "$locale"
} | tee "$out"
LC_ALL=$locale "$PY" "$PERF_DIR/bench.py" compare --dir "$BENCH_DIR" --manifest "$manifest" --runs "$runs" \
	--io "$io" --old "$old" --new "$new" ${workloads:+--workloads "$workloads"} \
	--raw "${out%.txt}.json" | tee -a "$out"
say "kept in $out"
