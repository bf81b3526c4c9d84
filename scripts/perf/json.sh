#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# json.sh - the cost of --json: acgrep --json against plain printing of the
# same lines, and against ripgrep's --json, side by side.
#
# Usage: scripts/perf/json.sh [-r N] [--stats]
#
# The workload is the manifest's print-n: english.txt (256 MiB) and the word
# of pat/print1m.txt (`to`), whose 988,469 matching lines (the manifest's
# expected count, GNU grep -F's) are printed.  Every run's output goes to a
# file next to the corpus (never /dev/null, where grep -q rules apply) and is
# checked: that many lines printed, or that many "match" records.  Commands,
# each at --threads=1 and at the default (one thread per CPU):
#   acgrep -F         plain lines        acgrep -n -F   plain, line numbers
#   acgrep --json -F  JSON records       rg --json -F   ripgrep's records
#   rg -n -F          ripgrep's plain lines (rg searches one file on one thread)
#   acgrep -o -F      every match (what the records' submatches hold), 1 thread;
#                     checked against GNU grep -F -o's count, taken first
# --stats adds acgrep --stats -n -F (the statistics' counting on top of -n).
# N rounds (default 5), each running every command once in an order rotated
# by the round, the input warmed before each round; the table has the median
# wall and CPU (user+sys) ms, the output's size, and each JSON row's wall
# and CPU times over its plain -n row's (acgrep's target: at most 2).
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 with_stats=0 args="$*"
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--stats) with_stats=1; shift ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "json.sh: unknown argument $1 (try --help)" ;;
	esac
done
((runs >= 1)) || die "json.sh: -r needs a positive count"
need make:make rg:rg python3:/usr/bin/python3
need_corpus
ensure_acgrep

input=$BENCH_DIR/english.txt
pat=$BENCH_DIR/pat/print1m.txt
expected=$(awk -F'\t' '$1 == "print-n" { print $8 }' "$BENCH_DIR/manifest.tsv")
[[ -n $expected ]] || die "json.sh: no print-n row in $BENCH_DIR/manifest.tsv (rebuild the corpus)"
acgrep=$REPO/acgrep
mkdir -p "$BENCH_DIR/out"
tmp=$(mktemp -d "$BENCH_DIR/out/json.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# name | kind (lines or json: what the check counts) | command
cmds=(
	"acgrep -F, 1 thread|lines|$acgrep --threads=1 -F -f $pat $input"
	"acgrep -n -F, 1 thread|lines|$acgrep --threads=1 -n -F -f $pat $input"
	"acgrep --json -F, 1 thread|json|$acgrep --threads=1 --json -F -f $pat $input"
	"acgrep -F|lines|$acgrep -F -f $pat $input"
	"acgrep -n -F|lines|$acgrep -n -F -f $pat $input"
	"acgrep --json -F|json|$acgrep --json -F -f $pat $input"
	"rg -n -F|lines|rg --no-config -n -F -f $pat $input"
	"rg --json -F|json|rg --no-config --json -F -f $pat $input"
	"acgrep -o -F, 1 thread|matches|$acgrep --threads=1 -o -F -f $pat $input"
)
if ((with_stats)); then
	cmds+=("acgrep --stats -n -F, 1 thread|stats|$acgrep --threads=1 --stats -n -F -f $pat $input")
fi
nc=${#cmds[@]}
say "counting the matches with GNU grep -F -o"
matches=$(grep -F -o -f "$pat" "$input" | wc -l)

# check KIND FILE - the output holds the expected lines, records or matches.
check() {
	local kind=$1 file=$2 n want=$expected
	case $kind in
	lines) n=$(wc -l <"$file") ;;
	matches) n=$(wc -l <"$file") want=$matches ;;
	stats) n=$(sed -n 's/^\([0-9]*\) matched lines$/\1/p' "$file") ;;
	json) n=$(grep -c '^{"type":"match"' "$file" || true) ;;
	esac
	[[ $n == "$want" ]] || die "json.sh: $kind output has $n, expected $want: $file"
}

TIMEFORMAT='%R %U %S'
for ((r = 0; r < runs; r++)); do
	warm "$input"
	for ((k = 0; k < nc; k++)); do
		i=$(((k + r) % nc))
		IFS='|' read -r name kind cmd <<<"${cmds[i]}"
		# shellcheck disable=SC2086 # the command is a word list
		t=$({ time $cmd >"$tmp/out" 2>"$tmp/err"; } 2>&1) || die "json.sh: $cmd failed: $(cat "$tmp/err")"
		check "$kind" "$tmp/out"
		read -r wall user sys <<<"$t"
		echo "$wall $(echo "$user + $sys" | bc)" >>"$tmp/t.$i"
		stat -c %s "$tmp/out" >"$tmp/size.$i"
	done
done

# median COLUMN FILE - the median of a column, in ms.
median() {
	awk -v c="$1" '{ print $c * 1000 }' "$2" | sort -n | awk '{ v[NR] = $1 } END {
		printf "%.0f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

out=$(results_file json)
{
	machine_header "json.sh: --json against plain printing and rg --json" "$0 $args"
	binary_facts acgrep "$acgrep"
	tool_versions
	echo "# workload: print-n, english.txt ($(stat -c %s "$input") bytes), pattern $(cat "$pat"), $expected matching lines, $matches matches (checked every run)"
	echo "# $runs interleaved rounds; medians of wall and CPU (user+sys) ms; stdout to a file"
	printf '%-30s %8s %8s %9s %s\n' command wall_ms cpu_ms out_MB "over plain -n: wall cpu"
	for ((i = 0; i < nc; i++)); do
		wall[i]=$(median 1 "$tmp/t.$i")
		cpu[i]=$(median 2 "$tmp/t.$i")
	done
	for ((i = 0; i < nc; i++)); do
		IFS='|' read -r name kind cmd <<<"${cmds[i]}"
		mb=$(awk '{ printf "%.1f", $1 / 1048576 }' "$tmp/size.$i")
		# the plain -n row each row is measured against: 1 thread, default, rg
		case $name in
		*"1 thread") base=1 ;;
		rg*) base=6 ;;
		*) base=4 ;;
		esac
		ratio=''
		if [[ $kind != lines ]]; then
			ratio="$(echo "scale=2; ${wall[i]} / ${wall[base]}" | bc) $(echo "scale=2; ${cpu[i]} / ${cpu[base]}" | bc)"
		fi
		printf '%-30s %8s %8s %9s %s\n' "$name" "${wall[i]}" "${cpu[i]}" "$mb" "$ratio"
	done
} | tee "$out"
say "kept in $out"
