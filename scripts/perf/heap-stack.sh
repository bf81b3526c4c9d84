#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# heap-stack.sh - the heap-vs-stack experiment, where acgrep has such a choice.
#
# Usage: scripts/perf/heap-stack.sh [--rev REV] [-r N] [--no-compare]
#
# acgrep's scan never allocates (ac_scan.c), so the perl change's kind of win (a
# heap-allocated position buffer made a stack buffer) has no counterpart in the
# hot loop.  The one heap allocation made per searched input is search.c's
# per-file state: search_input() callocs a struct file_search and frees it at
# the end.  This script builds acgrep twice from one copy of the sources (the
# working tree, or commit REV), the second time with the patch below applied to
# that copy only (never to the repo): the struct lives on the stack.  It then
# reports scripts/perf/stat.sh for both builds on the workload that calls
# search_input most (-r over the Linux tree: one call per file; cachegrind's
# instruction counts on the read() path) and, unless --no-compare, compare.sh's
# table on linux-r and names5 (one call), read() path, 10 runs a side.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

rev='' runs=5 cmp=1
while (($#)); do
	case $1 in
	--rev) rev=$2; shift 2 ;;
	-r) runs=$2; shift 2 ;;
	--no-compare) cmp=0; shift ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "heap-stack.sh: unknown argument $1 (try --help)" ;;
	esac
done
need patch:patch make:make gcc:cc
need_corpus

tmp=$(mktemp -d "${TMPDIR:-/tmp}/acgrep-heapstack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$(snapshot "$tmp/tree" "$rev")
say "building from $src"
heap=$(build "$tmp/tree" heap)
patch -d "$tmp/tree" -p1 --no-backup-if-mismatch --quiet <<'PATCH' ||
--- a/src/grep/search/search.c
+++ b/src/grep/search/search.c
@@ -226,14 +226,10 @@
 void search_input(struct searcher *s, struct input *in, const char *name, struct search_result *res)
 {
 	const struct config *cfg = s->cfg;
-	struct file_search *f = calloc(1, sizeof *f);
+	struct file_search stack_f, *f = &stack_f; /* heap-stack experiment: no calloc */
+	memset(f, 0, sizeof *f);
 	memset(res, 0, sizeof *res);
 	res->stop_offset = UINT64_MAX;
-	if (!f) {
-		res->read_error = true;
-		res->read_errno = 12; /* ENOMEM */
-		return;
-	}
 	f->cfg = cfg;
 	f->s = s;
 	f->pr = s->pr;
@@ -290,5 +286,4 @@
 	res->binary_matched = !quiet_at_start &&
 			      ((binary && !without_match && f->selected > f->selected_before_binary) ||
 			       s->pr->encoding_error);
-	free(f);
 }
PATCH
	die "the stack patch no longer applies to src/grep/search/search.c: update it in $0"
stack=$(build "$tmp/tree" stack)
cp "$heap" "$tmp/acgrep-heap"
cp "$stack" "$tmp/acgrep-stack"
heap=$tmp/acgrep-heap stack=$tmp/acgrep-stack

lx=$(awk -F'\t' '$1 == "linux-r" { print $3 }' "$BENCH_DIR/manifest.tsv")
expected=$(awk -F'\t' '$1 == "linux-r" { print $8 }' "$BENCH_DIR/manifest.tsv")
files=$(find "$BENCH_DIR/$lx" -type f | wc -l)
echo "# heap vs stack per-file state (scripts/perf/heap-stack.sh); built from $src"
echo "# workload linux-r: acgrep -r -a -c over $files files of $lx (search_input runs once per file)"
for v in heap stack; do
	bin=${!v}
	for io in --mmap --no-mmap; do
		echo
		echo "## $v build ($v-allocated struct file_search), $io"
		warm "$BENCH_DIR/$lx"
		cg=()
		# one cachegrind run per build, on the read() path (less kernel time to hide behind)
		if [[ $io == --mmap ]]; then cg=(--no-cachegrind); fi
		"$PERF_DIR/stat.sh" -r "$runs" "${cg[@]}" -o "$tmp/out" -- "$bin" "$io" -r -a -c -f "$BENCH_DIR/pat/linux5.txt" "$BENCH_DIR/$lx"
		got=$(awk -F: '{ s += $NF } END { print s + 0 }' "$tmp/out")
		[[ $got == "$expected" ]] || die "$v build $io: counted $got lines, grep -F counted $expected"
		echo "# count: $got lines (grep -F: $expected)"
	done
done
if ((cmp)); then
	echo
	ACGREP_BENCH_SOURCE="$src; OLD = heap (calloc'd struct file_search, as in src/), NEW = stack (patched copy)" \
		"$PERF_DIR/compare.sh" --runs 10 --io read --workloads linux-r,names5 "$heap" "$stack"
fi
