#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# xxab.sh - the `xx|ab` workload: perl's regex one-liner against acgrep.
#
# Usage: scripts/perf/xxab.sh [-r N] [--acgrep BIN] [--no-cachegrind]
#
# The perl change that replaced a heap-allocated Aho-Corasick position buffer by
# a stack buffer was measured with
#   perl -e 'my $x = "x" x 100_000_000; 1 while $x =~ /xx|ab/aag;'
# (6.62 s down to 5.14 s): 50,000,000 matches of a two-word trie.  This runs
# that one-liner 3 times (no warm-up) under scripts/perf/stat.sh (7-16 s each here), a
# counting variant of it once (to check the 50,000,000), and acgrep on the same
# 100 MB of x (x100M.txt from corpus.sh): `acgrep --count-matches -e xx -e ab`,
# with --mmap and with --no-mmap, N times each (default 5) after a warm-up run
# whose count is checked, and once under cachegrind (--mmap) for instruction counts.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 acgrep=$REPO/acgrep cg=()
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	--no-cachegrind) cg=(--no-cachegrind); shift ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "xxab.sh: unknown argument $1 (try --help)" ;;
	esac
done
need perl:perl
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
need_quick_corpus
x=$BENCH_DIR/x100M.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2016 # perl code, not shell
oneliner='my $x = "x" x 100_000_000; 1 while $x =~ /xx|ab/aag;'
# shellcheck disable=SC2016
counting='my $x = "x" x 100_000_000; my $n = 0; $n++ while $x =~ /xx|ab/aag; print "$n\n";'

echo "# the xx|ab workload: perl one-liner vs acgrep (scripts/perf/xxab.sh); $(first_line perl -e 'print "perl $^V\n"')"
echo
echo "## perl one-liner, 3 runs (no cachegrind: it would take many minutes)"
"$PERF_DIR/stat.sh" -r 3 --no-warmup --no-cachegrind -o "$tmp/perl.out" -- perl -e "$oneliner"
echo
echo "## counting variant of the one-liner, 1 run"
"$PERF_DIR/stat.sh" -r 1 --no-warmup --no-cachegrind -o "$tmp/perl.out" -- perl -e "$counting" |
	grep -E 'msec task-clock|seconds time elapsed|last line'
n=$(cat "$tmp/perl.out")
[[ $n == 50000000 ]] || die "perl counted $n matches, expected 50000000"
for io in --mmap --no-mmap; do
	echo
	echo "## acgrep $io --count-matches -e xx -e ab x100M.txt, $runs runs"
	warm "$x"
	"$PERF_DIR/stat.sh" -r "$runs" "${cg[@]}" -o "$tmp/acgrep.out" -- "$acgrep" "$io" --count-matches -e xx -e ab "$x"
	n=$(cat "$tmp/acgrep.out")
	[[ $n == 50000000 ]] || die "acgrep $io counted $n matches, expected 50000000"
	cg=(--no-cachegrind) # one cachegrind run (of the --mmap build) is enough: counts are deterministic
done
