#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# huge.sh - compiling huge pattern sets: time and peak RSS, acgrep vs rg vs grep.
#
# Usage: scripts/perf/huge.sh [-r N] [--acgrep BIN] [--no-grep]
#                             [--sets-only | --shapes-only] [--sizes "MB..."]
#
# Sets: for dict100k (100,000 words) and dict-all (wamerican-insane, ~663,000
# words), each as is and with every pattern duplicated (the list twice),
# runs `TOOL -c -F -f SET empty.txt` N times (default 5) after a warm-up and
# reports the median wall time (compile time: the input is empty) and the
# median peak RSS (GNU time's %M).  Counts are checked first: every tool
# must agree, and a duplicated set must count what the set counts, on the
# first 4 MiB of english-32M.txt (cut at a line end).  --no-grep leaves out
# GNU grep (its dict-all compile takes seconds and hundreds of MB).
#
# Shapes (acgrep only, LC_ALL=C, no corpus needed): each set that
# shapes.py writes (one pattern of random letters, of one repeated byte, of
# period 2, of period 4093; patterns of 4,096 letters sharing prefixes of
# random length, or all but their last 3; all suffixes of a string; b, ab,
# aab, ...) at each size (default 1, 2, 4 and 8 MB), with no option, -i, -w
# and -x: the median of N runs of `acgrep -c OPTS -f SET empty.txt`
# (compile) and of `acgrep -c OPTS -f SET SET` (compile and search), and the
# compile's median peak RSS.  Every line of SET matches itself whatever the
# options, so the expected count is SET's line count: 1 for one pattern,
# BYTES/4097 for tree and lastbyte, the largest n with n(n+3)/2 <= BYTES
# for suffixes and akb; any other count fails the run.  Compile time should
# grow linearly with the size.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 acgrep=$REPO/acgrep tools=(acgrep rg grep) sets=1 shapes=1 sizes="1 2 4 8"
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	--no-grep) tools=(acgrep rg); shift ;;
	--sets-only) shapes=0; shift ;;
	--shapes-only) sets=0; shift ;;
	--sizes) sizes=$2; shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "huge.sh: unknown argument $1 (try --help)" ;;
	esac
done
need time:/usr/bin/time
((sets)) && need ripgrep:rg
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
((sets)) && need_corpus
((shapes)) && need_python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty.txt"

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

# run_sets - the dictionary sets against rg and grep (see the usage).
run_sets() {
	local set pat want dup p tool bin c i t m bad=0
	head -c 4194304 "$BENCH_DIR/english-32M.txt" | sed '$d' >"$tmp/text.txt"
	echo "# compile: TOOL -c -F -f SET empty.txt, median of $runs runs after a warm-up; RSS: median peak (KB)"
	echo
	printf '%-10s %-5s %-7s %10s %12s %10s\n' set dup tool count "compile (s)" "RSS (MB)"
	for set in dict100k dict-all; do
		pat=$BENCH_DIR/pat/$set.txt
		cat "$pat" "$pat" >"$tmp/$set-dup.txt"
		warm "$pat" "$tmp/$set-dup.txt" "$tmp/text.txt"
		want=
		for dup in no yes; do
			p=$pat
			[[ $dup == yes ]] && p=$tmp/$set-dup.txt
			for tool in "${tools[@]}"; do
				bin=$(cmd "$tool")
				c=$("$bin" -c -F -f "$p" "$tmp/text.txt" || true)
				want=${want:-$c}
				if [[ $c != "$want" ]]; then
					say "$tool counts $c with $set (dup $dup), others $want"
					bad=1
				fi
				"$bin" -c -F -f "$p" "$tmp/empty.txt" >/dev/null || true
				: >"$tmp/times"
				for ((i = 0; i < runs; i++)); do
					/usr/bin/time -a -o "$tmp/times" -f '%e %M' "$bin" -c -F -f "$p" "$tmp/empty.txt" \
						>/dev/null || true
				done
				grep -v '^Command' "$tmp/times" >"$tmp/t" || true
				t=$(cut -d' ' -f1 "$tmp/t" | median)
				m=$(cut -d' ' -f2 "$tmp/t" | median)
				printf '%-10s %-5s %-7s %10s %12.2f %10.1f\n' "$set" "$dup" "$tool" "$c" "$t" \
					"$(echo "$m / 1024" | bc -l)"
			done
		done
	done
	((bad == 0)) || die "counts disagree (see above)"
}

# shape_want SHAPE BYTES - the lines shapes.py writes, which is the count
# every option must give when the set searches itself.
shape_want() {
	case $1 in
	rand | aaaa | abab | period) echo 1 ;;
	tree | lastbyte) echo $(($2 / 4097)) ;;
	suffixes | akb) awk -v b="$2" 'BEGIN { n = 0; while ((n + 1) * (n + 4) / 2 <= b) n++; print n }' ;;
	esac
}

# timed OUT CMD... - runs CMD and appends its wall time in seconds (to the
# microsecond) and peak RSS in KB to OUT.  Its stdout goes to a file: on
# /dev/null acgrep, like grep, stops at the first match.
timed() {
	local out=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	/usr/bin/time -o "$tmp/rss" -f '%M' "$@" >"$tmp/stdout" || true
	t1=$EPOCHREALTIME
	echo "$(echo "${t1/./} - ${t0/./}" | bc | awk '{ printf "%.6f", $1 / 1e6 }') $(grep -v '^Command' "$tmp/rss")" >>"$out"
}

# run_shapes - acgrep on the sets of shapes.py (see the usage).
run_shapes() {
	local shape mb bytes set want opt o c i bad=0
	echo "# shapes: LC_ALL=C; compile: acgrep -c OPTS -f SET empty.txt; search: acgrep -c OPTS -f SET SET;"
	echo "# median of $runs runs after a warm-up; RSS: the compile's median peak"
	echo
	printf '%-9s %-4s %4s %6s %6s %12s %11s %9s\n' shape opts MB want count "compile (s)" "search (s)" "RSS (MB)"
	for shape in rand aaaa abab period tree lastbyte suffixes akb; do
		for mb in $sizes; do
			bytes=$((mb << 20))
			set=$tmp/$shape-$mb.txt
			"$PY" "$PERF_DIR/shapes.py" "$shape" "$bytes" "$set"
			want=$(shape_want "$shape" "$bytes")
			[[ $(wc -l <"$set") == "$want" ]] || die "shapes.py $shape $bytes wrote $(wc -l <"$set") lines, not $want"
			for opt in - -i -w -x; do
				o=()
				[[ $opt == - ]] || o=("$opt")
				c=$(LC_ALL=C "$acgrep" -c "${o[@]}" -f "$set" "$set" || true)
				if [[ $c != "$want" ]]; then
					say "acgrep ${o[*]} counts $c with $shape ($mb MB), not $want"
					bad=1
				fi
				: >"$tmp/compile"
				: >"$tmp/search"
				for ((i = 0; i < runs; i++)); do
					timed "$tmp/compile" env LC_ALL=C "$acgrep" -c "${o[@]}" -f "$set" "$tmp/empty.txt"
					timed "$tmp/search" env LC_ALL=C "$acgrep" -c "${o[@]}" -f "$set" "$set"
				done
				printf '%-9s %-4s %4s %6s %6s %12.3f %11.3f %9.1f\n' "$shape" "$opt" "$mb" "$want" "$c" \
					"$(cut -d' ' -f1 "$tmp/compile" | median)" "$(cut -d' ' -f1 "$tmp/search" | median)" \
					"$(echo "$(cut -d' ' -f2 "$tmp/compile" | median) / 1024" | bc -l)"
			done
			rm -f "$set"
		done
	done
	((bad == 0)) || die "counts differ from the expected ones (see above)"
}

machine_header "huge pattern sets: compile time and peak RSS (scripts/perf/huge.sh)" "huge.sh -r $runs"
binary_facts acgrep "$acgrep"
((sets)) && tool_versions
if ((sets)); then run_sets; fi
((sets && shapes)) && echo
if ((shapes)); then run_shapes; fi
