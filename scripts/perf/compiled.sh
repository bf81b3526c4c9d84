#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compiled.sh - compiled pattern sets (--save-compiled, --compiled) against
# compiling the list at every start.
#
# Usage: scripts/perf/compiled.sh [-r N] [--acgrep BIN] [--sets "NAME[:OPTS]..."]
#
# For each set of the corpus (default: dict-all, dict100k, words1k and
# words1k with -i; NAME is pat/NAME.txt, OPTS acgrep options such as -i):
#   save    acgrep OPTS --save-compiled=SET.acs -f SET: wall time, file size;
#   start   acgrep OPTS -c -f SET empty.txt against acgrep OPTS -c
#           --compiled=SET.acs empty.txt: wall time, CPU time (perf stat's
#           task-clock, which other load on the machine disturbs less) and
#           peak RSS (GNU time's %M), each the median of N runs (default 5),
#           the two interleaved;
#   search  the same over english.txt (268 MB): wall time, and the count,
#           which must be the manifest's for the set and equal for both
#           (dict-all 5907160, dict100k 5360534, words1k 900902, words1k -i
#           1554421), or the run fails.
# Every run goes after one untimed warm-up, with the page cache warm; stdout
# goes to a file (on /dev/null acgrep stops at the first match).  Wall times
# are taken by the shell around the process (EPOCHREALTIME), CPU time and
# peak RSS in separate runs under perf stat and /usr/bin/time.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 acgrep=$REPO/acgrep sets="dict-all dict100k words1k words1k:-i"
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	--sets) sets=$2; shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "compiled.sh: unknown argument $1 (try --help)" ;;
	esac
done
need time:/usr/bin/time linux-perf:perf
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
need_corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty.txt"
text=$BENCH_DIR/english.txt

# median - the median of the numbers on stdin, one per line.
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# want NAME OPTS - the manifest's count for the set searched over english.txt.
want() {
	local name=$1 opts=$2
	awk -F'\t' -v p="pat/$name.txt" -v f="$opts" '$3 == "english.txt" && $5 == p && $7 == f { print $8; exit }' \
		"$BENCH_DIR/manifest.tsv"
}

# wall OUT CMD... - appends CMD's wall time in ms to OUT; its stdout to $tmp/stdout.
wall() {
	local out=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	"$@" >"$tmp/stdout" || true
	t1=$EPOCHREALTIME
	echo "${t1/./} ${t0/./}" | awk '{ printf "%.3f\n", ($1 - $2) / 1000 }' >>"$out"
}

# rss OUT CMD... - appends CMD's peak RSS in MB to OUT.
rss() {
	local out=$1
	shift
	/usr/bin/time -o "$tmp/rss" -f '%M' "$@" >"$tmp/stdout" || true
	grep -v '^Command' "$tmp/rss" | awk '{ printf "%.1f\n", $1 / 1024 }' >>"$out"
}

# cpu OUT CMD... - appends CMD's CPU time in ms (task-clock) to OUT.
cpu() {
	local out=$1
	shift
	perf stat -x, -e task-clock -o "$tmp/perf" "$@" >"$tmp/stdout" || true
	awk -F, '/task-clock/ { printf "%.2f\n", $1 }' "$tmp/perf" >>"$out"
}

# measure WAY - one run of each measure of acgrep with the patterns from
# -f (WAY f) or the compiled set (WAY c); uses one()'s o, pat and acs.
measure() {
	local w=$1
	local -a from=(-f "$pat")
	[[ $w == c ]] && from=(--compiled="$acs")
	wall "$tmp/s$w" "$acgrep" "${o[@]}" -c "${from[@]}" "$tmp/empty.txt"
	cpu "$tmp/c$w" "$acgrep" "${o[@]}" -c "${from[@]}" "$tmp/empty.txt"
	rss "$tmp/r$w" "$acgrep" "${o[@]}" -c "${from[@]}" "$tmp/empty.txt"
	wall "$tmp/q$w" "$acgrep" "${o[@]}" -c "${from[@]}" "$text"
}

# one NAME OPTS - the rows of one set.
one() {
	local name=$1 opts=$2 pat=$BENCH_DIR/pat/$1.txt acs=$tmp/$1.acs i k
	local -a o
	read -r -a o <<<"$opts"
	warm "$pat" "$text"
	"$acgrep" "${o[@]}" --save-compiled="$acs" -f "$pat" # warm-up
	: >"$tmp/save"
	for ((i = 0; i < runs; i++)); do wall "$tmp/save" "$acgrep" "${o[@]}" --save-compiled="$acs" -f "$pat"; done
	local size want_c c_f c_c
	size=$(stat -c %s "$acs")
	want_c=$(want "$name" "$opts")
	c_f=$("$acgrep" "${o[@]}" -c -f "$pat" "$text" || true)
	c_c=$("$acgrep" "${o[@]}" -c --compiled="$acs" "$text" || true)
	[[ $c_f == "$want_c" && $c_c == "$want_c" ]] ||
		die "$name $opts: counts $c_f (-f) and $c_c (--compiled), the manifest says $want_c"
	for k in sf sc cf cc rf rc qf qc; do : >"$tmp/$k"; done
	for ((i = 0; i < runs; i++)); do # interleaved, the order swapped each time
		if ((i % 2)); then
			measure c
			measure f
		else
			measure f
			measure c
		fi
	done
	printf '%-9s %-3s %7.1f %7.0f %8.1f %8.1f %7.1f %7.1f %7.1f %7.1f %9.0f %9.0f %8s\n' "$name" "${opts:--}" \
		"$(echo "$size / 1048576" | bc -l)" "$(median <"$tmp/save")" \
		"$(median <"$tmp/sf")" "$(median <"$tmp/sc")" "$(median <"$tmp/cf")" "$(median <"$tmp/cc")" \
		"$(median <"$tmp/rf")" "$(median <"$tmp/rc")" "$(median <"$tmp/qf")" "$(median <"$tmp/qc")" "$want_c"
	rm -f "$acs"
}

machine_header "compiled pattern sets against compiling (scripts/perf/compiled.sh)" "compiled.sh -r $runs --sets \"$sets\""
binary_facts acgrep "$acgrep"
echo "# corpus: $BENCH_DIR; LC_ALL=C; page cache warm; medians of $runs interleaved runs after a warm-up"
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# save: --save-compiled wall (ms); start: -c over an empty input: wall (ms), CPU (ms, task-clock),"
echo "# peak RSS (MB); search: -c over english.txt (268 MB), wall (ms); -f compiles the list, -C maps the set"
echo
printf '%-9s %-3s %7s %7s %8s %8s %7s %7s %7s %7s %9s %9s %8s\n' set opt "file MB" "save ms" "wall -f" "wall -C" \
	"cpu -f" "cpu -C" "RSS -f" "RSS -C" "search -f" "search -C" count
for s in $sets; do
	if [[ $s == *:* ]]; then one "${s%%:*}" "${s#*:}"; else one "$s" ""; fi
done
