#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# quick.sh - `make bench`: a few workloads on a 32 MiB slice of the English text
# and the 100 MB x file, acgrep (default I/O, --mmap) vs grep -F vs rg -F,
# 5 interleaved runs each; prints the table, fails on any count mismatch.
# Takes a few minutes (the first time also builds the corpus: corpus.sh --quick).
#
# Usage: scripts/perf/quick.sh [--runs N] [--acgrep BIN]
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "quick.sh: unknown argument $1 (try --help)" ;;
	esac
done
need_python
need ripgrep:rg time:/usr/bin/time
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
need_quick_corpus

out=$(results_file quick)
{
	machine_header "make bench: acgrep vs grep -F vs rg -F (scripts/perf/quick.sh)" "make bench (scripts/perf/quick.sh --runs $runs)"
	binary_facts acgrep "$acgrep"
	tool_versions
	printf '# corpus: %s; LC_ALL=C; page cache warmed; stdout to files\n\n' "$BENCH_DIR/manifest-quick.tsv"
} | tee "$out"
"$PY" "$PERF_DIR/bench.py" peers --dir "$BENCH_DIR" --manifest "$BENCH_DIR/manifest-quick.tsv" \
	--runs "$runs" --timeout 60 --tools acgrep,acgrep-mmap,grep,rg --acgrep "$acgrep" | tee -a "$out"
say "kept in $out; the full suite: scripts/perf/peers.sh"
