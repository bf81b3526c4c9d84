#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# io.sh - the I/O experiment: every way acgrep can get a file's bytes, timed
# on one rare literal (-c, 1 pattern: the scan is cheap, so I/O dominates).
#
# Usage: scripts/perf/io.sh [--rev REV] [-r N] [--sizes]
#
# Builds acgrep from one copy of the sources (the working tree, or commit
# REV) in a temporary directory, once as is and once per mapped-path variant,
# each made by editing one of input.c's tuning lines (MAP_FLAGS, MAP_ADVICE,
# MAP_WINDOW) in that copy only; ./acgrep and src/ are never touched:
#   mmap-plain     no madvise           mmap-seq      MADV_SEQUENTIAL (as is)
#   mmap-willneed  MADV_WILLNEED        mmap-huge     MADV_HUGEPAGE
#   mmap-populate  MAP_POPULATE         win-4M/16M    4/16 MiB windows, each
#                                                     MADV_POPULATE_READ'd first
# The read() variants are the unmodified build with --no-mmap and the hidden
# --buffer-size (64K, 128K = the default, 256K, 1M, 4M), and `auto` is the
# unmodified build without --mmap/--no-mmap: the default policy, which must be
# no slower than the best forced path.  Inputs: english.txt (256 MiB),
# x100M.txt (100 MB, one line), and 4 MiB and 32 MiB slices of english.txt.
# Every run's count is checked (manifest.tsv for english.txt, GNU grep -F -c
# for the others).  N rounds (default 5), each running every variant once on
# every input in an order rotated by the round, page cache warmed before each
# input; the table has the median wall and CPU (user+sys) times.
# --sizes adds 1, 2 and 8 MiB slices (where the policy's threshold would be).
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

rev='' runs=5 sizes=(4 32)
while (($#)); do
	case $1 in
	--rev) rev=$2; shift 2 ;;
	-r) runs=$2; shift 2 ;;
	--sizes) sizes=(1 2 4 8 32); shift ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "io.sh: unknown argument $1 (try --help)" ;;
	esac
done
((runs >= 1)) || die "io.sh: -r needs a positive count"
need make:make gcc:cc grep:grep
need_corpus

tmp=$(mktemp -d "${TMPDIR:-/tmp}/acgrep-io.XXXXXX")
# The slices live next to the corpus (same file system as english.txt, not a tmpfs).
slices=$(mktemp -d "$BENCH_DIR/out/io-slices.XXXXXX" 2>/dev/null || mktemp -d "$BENCH_DIR/io-slices.XXXXXX")
trap 'rm -rf "$tmp" "$slices"' EXIT
src=$(snapshot "$tmp/tree" "$rev")
say "building from $src"
input_c=$tmp/tree/src/grep/input/input.c
cp "$input_c" "$tmp/input.c.orig"
base=$(build "$tmp/tree" base)
cp "$base" "$tmp/acgrep-base"

# variant NAME MACRO VALUE - the build with `#define MACRO VALUE` in input.c.
variant() {
	local name=$1 macro=$2 value=$3
	cp "$tmp/input.c.orig" "$input_c"
	sed -i "s|^#define $macro .*|#define $macro $value|" "$input_c"
	grep -q "^#define $macro $value\$" "$input_c" ||
		die "input.c has no '#define $macro' line to edit: update $0"
	touch "$input_c"
	# Only input.o differs: start from the base build's objects.
	cp -a "$tmp/tree/build-base" "$tmp/tree/build-$name"
	cp "$(build "$tmp/tree" "$name")" "$tmp/acgrep-$name"
}
variant plain MAP_ADVICE -1
variant willneed MAP_ADVICE MADV_WILLNEED
variant huge MAP_ADVICE MADV_HUGEPAGE
variant populate MAP_FLAGS MAP_POPULATE
variant win4M MAP_WINDOW '((size_t)4 << 20)'
variant win16M MAP_WINDOW '((size_t)16 << 20)'
cp "$tmp/input.c.orig" "$input_c"

# name|binary|io options
variants=(
	"auto|base|"
	"read-64K|base|--no-mmap --buffer-size=65536"
	"read-128K|base|--no-mmap"
	"read-256K|base|--no-mmap --buffer-size=262144"
	"read-1M|base|--no-mmap --buffer-size=1048576"
	"read-4M|base|--no-mmap --buffer-size=4194304"
	"mmap-plain|plain|--mmap"
	"mmap-seq|base|--mmap"
	"mmap-willneed|willneed|--mmap"
	"mmap-huge|huge|--mmap"
	"mmap-populate|populate|--mmap"
	"win-4M|win4M|--mmap"
	"win-16M|win16M|--mmap"
)
pat=$BENCH_DIR/pat/rare.txt
[[ -s $pat ]] || die "$pat is missing: run scripts/perf/corpus.sh"

inputs=() expect=()
for mib in "${sizes[@]}"; do
	head -c $((mib << 20)) "$BENCH_DIR/english.txt" >"$slices/english-${mib}M.txt"
	inputs+=("$slices/english-${mib}M.txt")
done
inputs+=("$BENCH_DIR/english.txt" "$BENCH_DIR/x100M.txt")
for f in "${inputs[@]}"; do
	if [[ $f == "$BENCH_DIR/english.txt" ]]; then
		e=$(awk -F'\t' '$1 == "rare" { print $8 }' "$BENCH_DIR/manifest.tsv")
	else
		e=$(grep -F -c -f "$pat" "$f" || true)
	fi
	[[ -n $e ]] || die "no expected count for $f"
	expect+=("$e")
done

# time_one INPUT VARIANT - one timed run (indexes); appends "wall cpu"
# (seconds) to $tmp/t.INPUT.VARIANT.
TIMEFORMAT='%R %U %S'
time_one() {
	local i=$1 j=$2 name bin opts t got
	IFS='|' read -r name bin opts <<<"${variants[j]}"
	local -a o=()
	read -r -a o <<<"$opts"
	t=$({ time "$tmp/acgrep-$bin" "${o[@]}" -c -F -f "$pat" "${inputs[i]}" >"$tmp/out"; } 2>&1) ||
		[[ $? == 1 ]] || die "$name on ${inputs[i]} failed"
	got=$(<"$tmp/out")
	[[ $got == "${expect[i]}" ]] || die "$name on ${inputs[i]}: counted $got, grep -F counted ${expect[i]}"
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$t" >>"$tmp/t.$i.$j"
}

nv=${#variants[@]}
say "$runs rounds x ${#inputs[@]} inputs x $nv variants"
for ((r = 0; r < runs; r++)); do
	for i in "${!inputs[@]}"; do
		warm "${inputs[i]}"
		for ((k = 0; k < nv; k++)); do
			time_one "$i" $(((k + r) % nv))
		done
	done
done

# median COLUMN FILE - median of a column, in ms.
median() {
	sort -n -k"$1,$1" "$2" | awk -v c="$1" '{ v[NR] = $c } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%d", m * 1000 + 0.5 }'
}

echo "# I/O variants, 1 rare literal, -c (scripts/perf/io.sh)"
machine_header "acgrep I/O variants (scripts/perf/io.sh)" "scripts/perf/io.sh -r $runs${rev:+ --rev $rev}"
printf '# built from: %s\n' "$src"
binary_facts acgrep-base "$tmp/acgrep-base"
echo "# pattern: $pat; $runs interleaved rounds; medians of wall and CPU (user+sys) ms; stdout to a file"
for i in "${!inputs[@]}"; do
	f=${inputs[i]}
	echo
	printf '## %s (%d bytes, count %s)\n' "${f##*/}" "$(stat -c %s "$f")" "${expect[i]}"
	printf '%-14s %8s %8s\n' variant wall_ms cpu_ms
	best='' best_ms=''
	for ((j = 0; j < nv; j++)); do
		name=${variants[j]%%|*}
		w=$(median 1 "$tmp/t.$i.$j")
		c=$(median 2 "$tmp/t.$i.$j")
		printf '%-14s %8s %8s\n' "$name" "$w" "$c"
		if [[ $name != auto ]] && { [[ -z $best_ms ]] || ((w < best_ms)); }; then
			best=$name best_ms=$w
		fi
	done
	echo "# fastest forced variant: $best ($best_ms ms)"
done
