#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# patterns.sh - what naming the matched pattern costs: per-pattern counts,
# JSON records and the real pattern sets, against plain counting.
#
# Usage: scripts/perf/patterns.sh [--runs N] [--timeout S] [--rows a,b,...] [--acgrep BIN]
#
# Rows (patterns.py has the details; every command's output is checked first):
#   dict-all, words1k  --count-per-pattern against --count-matches, the 663,473
#                      words of wamerican-insane and 1,000 corpus words over
#                      english.txt (256 MiB); target: at most 10% more time
#   json               --json against -n on the ~1M matching lines of print-n,
#                      rg --json and rg -n side by side; target: at most 2x
#   blocklist, blocklist-w, adapters, oui
#                      the real sets of real_sets.sh: --count-per-pattern
#                      (--tagged-file for the tagged lists) against
#                      --count-matches, grep -F -c and rg -F -c
# Each acgrep command also runs with --threads=1.  A command using an option
# this acgrep lacks (`acgrep --help` does not list it) is skipped with a
# message, and so are the ratios it is part of.  Medians of N interleaved
# runs (default 5), inputs warmed before each round, stdout to files.
# Builds what is missing first: the corpus (corpus.sh), the real sets
# (real_sets.sh), and the expected per-pattern tables of dict-all and words1k
# (pat/expected/, from `grep -F -o -n` credited by real_sets.py crosscheck).
# The result is kept under $ACGREP_BENCH_DIR/results (text and raw JSON).
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 timeout=120 rows='' acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "patterns.sh: unknown argument $1 (try --help)" ;;
	esac
done
need_python
need ripgrep:rg
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
need_corpus
[[ -s $BENCH_DIR/real/manifest.tsv ]] || "$PERF_DIR/real_sets.sh"

# The per-pattern tables --count-per-pattern must print for dict-all and
# words1k (single input: FILES is 1), from grep's matches.
mkdir -p "$BENCH_DIR/pat/expected"
for name in dict-all words1k; do
	t=$BENCH_DIR/pat/expected/$name.cpp.tsv
	[[ -s $t || (-n $rows && ,$rows, != *,$name,*) ]] && continue
	say "$name: the expected per-pattern table, from grep -F -o -n (a few minutes for dict-all)"
	grep -F -o -n -f "$BENCH_DIR/pat/$name.txt" "$BENCH_DIR/english.txt" |
		"$PY" "$PERF_DIR/real_sets.py" crosscheck -f "$BENCH_DIR/pat/$name.txt" >"$t.tmp"
	mv "$t.tmp" "$t"
done

out=$(results_file patterns)
cmd="scripts/perf/patterns.sh --runs $runs --timeout $timeout${rows:+ --rows $rows}"
{
	machine_header "which pattern matched: what it costs (scripts/perf/patterns.sh)" "$cmd"
	binary_facts acgrep "$acgrep"
	tool_versions
	printf '# inputs: %s (corpus-info.txt) and %s (info.txt); LC_ALL=C; page cache warmed; stdout to files\n' \
		"$BENCH_DIR" "$BENCH_DIR/real"
	# a shared machine: how busy it was says how far to trust the wall times
	printf '# load average (1, 5, 15 min) at the start: %s\n\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
"$PY" "$PERF_DIR/patterns.py" --dir "$BENCH_DIR" --acgrep "$acgrep" --runs "$runs" --timeout "$timeout" \
	${rows:+--rows "$rows"} --raw "${out%.txt}.json" | tee -a "$out"
printf '# load average (1, 5, 15 min) at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
say "kept in $out"
