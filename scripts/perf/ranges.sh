#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ranges.sh - the cost of scaling out: english.txt (and, where the disk has
# room, a 2 GiB file of 8 copies of it) cut into 2, 4 and 8 ranges
# (acgrep --ranges), a --records job per range over the local job slots
# (GNU parallel -j NPROC), merged with --merge; against one run on one
# thread.  Per case the medians of N runs: wall time of the whole pipeline,
# CPU time of all its processes (user + sys), CPU over one run's, the CPU
# each range adds, and the merge alone.  Every merged count is checked
# against the manifest's (times 8 for the 2 GiB file).
#
# Usage: scripts/perf/ranges.sh [--runs N] [--no-big]
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 big=1
while (($#)); do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--no-big) big=0; shift ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "ranges.sh: unknown argument $1 (try --help)" ;;
	esac
done
need parallel:parallel time:/usr/bin/time
ensure_acgrep
need_corpus
A=$REPO/acgrep
slots=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# workloads: name, pattern list, options, expected count on english.txt
# (manifest.tsv: words1k -c; names5 as -c, printed here with -n)
expected() { awk -F'\t' -v n="$1" '$1 == n { print $8 }' "$BENCH_DIR/manifest.tsv"; }
W_NAMES=(words1k names5)
W_OPTS=("-c" "-n")

inputs=("$BENCH_DIR/english.txt")
big_file=$BENCH_DIR/english-2G.txt
if ((big)); then
	free=$(df -Pk "$BENCH_DIR" | awk 'NR == 2 { print $4 }')
	if [[ ! -s $big_file ]] && ((free > 6 * 1024 * 1024)); then
		say "building $big_file (8 copies of english.txt)"
		for _ in 1 2 3 4 5 6 7 8; do cat "$BENCH_DIR/english.txt"; done >"$big_file"
	fi
	[[ -s $big_file ]] && inputs+=("$big_file") || say "no room for the 2 GiB file: english.txt only"
fi

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed OUT CMD: runs CMD with bash under /usr/bin/time; appends "wall cpu"
# (seconds; cpu = user + sys of every process it waited for) to OUT.
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$tmp/t" bash -c "$1"
	awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/t" >>"$out"
}

# the count a run printed: -c's number, or -n's lines
count_of() { if [[ $1 == -c ]]; then cat "$2"; else wc -l <"$2"; fi; }

{
	machine_header "scaling out: --range jobs over the local job slots, then --merge (scripts/perf/ranges.sh)" \
		"scripts/perf/ranges.sh --runs $runs"
	binary_facts acgrep "$A"
	printf '# %s; GNU parallel -j %s; LC_ALL=C; page cache warmed; medians of %s runs\n' \
		"$(first_line parallel --version)" "$slots" "$runs"
	printf '#\n# %-14s %-8s %6s %9s %9s %8s %12s %9s %s\n' input workload ranges "wall s" "cpu s" \
		"cpu/one" "cpu/range ms" "merge ms" "count (expected)"
} | tee "$tmp/head"
bad=0
for input in "${inputs[@]}"; do
	scale=1
	[[ $input == "$big_file" ]] && scale=8
	warm "$input"
	for w in 0 1; do
		name=${W_NAMES[w]} opts=${W_OPTS[w]} pat=$BENCH_DIR/pat/${W_NAMES[w]}.txt
		want=$(($(expected "$name") * scale))
		one_cpu=
		for n in 1 2 4 8; do
			: >"$tmp/times" && : >"$tmp/merge"
			for ((r = 0; r < runs; r++)); do
				if ((n == 1)); then
					timed "$tmp/times" "'$A' --threads=1 $opts -f '$pat' '$input' >'$tmp/out'"
				else
					timed "$tmp/times" "'$A' --ranges=$n '$input' | parallel --will-cite -k -j $slots \
						'$A' --records --range={} $opts -f '$pat' '$input' >'$tmp/rec' &&
						'$A' --merge $opts -f '$pat' '$tmp/rec' >'$tmp/out'"
					timed "$tmp/merge" "'$A' --merge $opts -f '$pat' '$tmp/rec' >/dev/null"
				fi
			done
			got=$(count_of "$opts" "$tmp/out")
			[[ $got == "$want" ]] || bad=1
			wall=$(cut -d' ' -f1 "$tmp/times" | median)
			cpu=$(cut -d' ' -f2 "$tmp/times" | median)
			[[ -n $one_cpu ]] || one_cpu=$cpu
			merge_ms=$( ((n > 1)) && cut -d' ' -f1 "$tmp/merge" | median | awk '{ print $1 * 1000 }' || echo -)
			printf '  %-14s %-8s %6s %9.2f %9.2f %8.3f %12s %9s %s (%s)\n' "${input##*/}" "$name $opts" \
				"$( ((n == 1)) && echo "1 run" || echo "$n")" "$wall" "$cpu" \
				"$(awk -v c="$cpu" -v o="$one_cpu" 'BEGIN { print c / o }')" \
				"$( ((n == 1)) && echo - || awk -v c="$cpu" -v o="$one_cpu" -v n="$n" \
					'BEGIN { printf "%.0f", (c - o) * 1000 / n }')" "$merge_ms" "$got" "$want"
		done
	done
done | tee -a "$tmp/head"
out=$(results_file ranges)
cp "$tmp/head" "$out"
say "kept in $out"
((bad == 0)) || die "a merged count differs from the manifest's (see the table)"
