#!/usr/bin/env bash
# huge.sh - compiling huge pattern sets: time and peak RSS, acgrep vs rg vs grep.
#
# Usage: scripts/perf/huge.sh [-r N] [--acgrep BIN] [--no-grep]
#
# For dict100k (100,000 words) and dict-all (wamerican-insane, ~663,000
# words), each as is and with every pattern duplicated (the list twice),
# and for letters10k (one 10 KiB pattern of kKsSσςΣåÅ, letters with two or
# three case variants, searched with -i in C.UTF-8; the list twice holds it
# twice), runs `TOOL -c -F -f SET empty.txt` N times (default 5) after a warm-up and
# reports the median wall time (compile time: the input is empty) and the
# median peak RSS (GNU time's %M).  Counts are checked first: every tool
# must agree, and a duplicated set must count what the set counts, on the
# first 4 MiB of english-32M.txt (cut at a line end).  --no-grep leaves out
# GNU grep (its dict-all compile takes seconds and hundreds of MB).
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 acgrep=$REPO/acgrep tools=(acgrep rg grep)
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	--no-grep) tools=(acgrep rg); shift ;;
	-h | --help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "huge.sh: unknown argument $1 (try --help)" ;;
	esac
done
need time:/usr/bin/time ripgrep:rg
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
need_corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty.txt"
head -c 4194304 "$BENCH_DIR/english-32M.txt" | sed '$d' >"$tmp/text.txt"

# cmd TOOL - the command line of TOOL, without the pattern file and input.
cmd() {
	case $1 in
	acgrep) echo "$acgrep" ;;
	rg) echo rg ;;
	grep) echo grep ;;
	esac
}

# median - the median of the numbers on stdin, one per line.
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

machine_header "huge pattern sets: compile time and peak RSS (scripts/perf/huge.sh)" "huge.sh -r $runs"
binary_facts acgrep "$acgrep"
tool_versions
echo "# compile: TOOL -c -F -f SET empty.txt, median of $runs runs after a warm-up; RSS: median peak (KB)"
echo
printf '%-10s %-5s %-7s %10s %12s %10s\n' set dup tool count "compile (s)" "RSS (MB)"
bad=0
LC_ALL=C awk 'BEGIN { for (i = 0; i < 731; i++) printf "kKsS\317\203\317\202\316\243\303\245\303\205"; print "" }' \
	>"$tmp/letters10k.txt"
for set in dict100k dict-all letters10k; do
	pat=$BENCH_DIR/pat/$set.txt loc=C flags=()
	[[ $set == letters10k ]] && pat=$tmp/letters10k.txt loc=C.UTF-8 flags=(-i)
	cat "$pat" "$pat" >"$tmp/$set-dup.txt"
	warm "$pat" "$tmp/$set-dup.txt" "$tmp/text.txt"
	want=
	for dup in no yes; do
		p=$pat
		[[ $dup == yes ]] && p=$tmp/$set-dup.txt
		for tool in "${tools[@]}"; do
			bin=$(cmd "$tool")
			c=$(LC_ALL=$loc "$bin" -c -F "${flags[@]}" -f "$p" "$tmp/text.txt" || true)
			c=${c:-0} # rg -c prints nothing for no match
			want=${want:-$c}
			if [[ $c != "$want" ]]; then
				say "$tool counts $c with $set (dup $dup), others $want"
				bad=1
			fi
			LC_ALL=$loc "$bin" -c -F "${flags[@]}" -f "$p" "$tmp/empty.txt" >/dev/null || true
			: >"$tmp/times"
			for ((i = 0; i < runs; i++)); do
				LC_ALL=$loc /usr/bin/time -a -o "$tmp/times" -f '%e %M' \
					"$bin" -c -F "${flags[@]}" -f "$p" "$tmp/empty.txt" >/dev/null || true
			done
			grep -v '^Command' "$tmp/times" >"$tmp/t" || true
			t=$(cut -d' ' -f1 "$tmp/t" | median)
			m=$(cut -d' ' -f2 "$tmp/t" | median)
			printf '%-10s %-5s %-7s %10s %12.2f %10.1f\n' "$set" "$dup" "$tool" "$c" "$t" "$(echo "$m / 1024" | bc -l)"
		done
	done
done
((bad == 0)) || die "counts disagree (see above)"
