#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# profile.sh - where acgrep's engine spends its instructions, against
# Hyperscan's: callgrind instruction counts (Ir), which are the same from run
# to run whatever else the machine does, of build/ac_count and hs_count (see
# hyperscan.sh) over one input, per workload.
#
# Usage: scripts/perf/profile.sh [--workloads a,b,...] [--input FILE] [--top N]
#
# For each workload of manifest.tsv whose kind is "lines" (default: the rows
# of hyperscan.sh but xxab-c), its patterns and flags over FILE (default
# english-32M.txt, the first 32 MiB of english.txt: valgrind runs some 50
# times slower than the CPU), both programs run under valgrind's callgrind;
# their counts must agree.  Prints each program's total Ir, the scan's share
# (Ir inside the scan call: ac_find for ac_count, hs_scan for
# hs_count), ac over hs, and ac_count's N (default 6) costliest functions
# (self Ir, % of its total).  valgrind has no AVX-512: both run their AVX2
# code.  The result is kept under $ACGREP_BENCH_DIR/results.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

workloads=rare,the,names5,names5-i,absent10,lit32x20,words100,words1k,words1k-i,absent1k,dict10k
input='' top=6
while (($#)); do
	case $1 in
	--workloads) workloads=$2; shift 2 ;;
	--input) input=$(realpath "$2"); shift 2 ;;
	--top) top=$2; shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "profile.sh: unknown argument $1 (try --help)" ;;
	esac
done
need make:make valgrind:valgrind valgrind:callgrind_annotate
make -s -C "$REPO" build/ac_count >&2 || die "make -C $REPO build/ac_count failed"
ac=$REPO/build/ac_count
need_corpus
input=${input:-$BENCH_DIR/english-32M.txt}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/acgrep-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
build_hs_count "$tmp"
hs=$tmp/hs_count

# functions OUTFILE - "IR FUNCTION" per function, self cost, costliest
# first: callgrind_annotate's lines (one per source file a function's code
# was inlined from) summed by function name.  With --inclusive=yes after
# OUTFILE: inclusive cost, the largest of those lines.
functions() {
	local op=sum
	[[ ${2:-} == --inclusive=yes ]] && op=max
	callgrind_annotate --auto=no "$@" 2>/dev/null |
		awk -v op="$op" '/^ *[0-9][0-9,]* \( *[0-9.]+%\)  / {
			v = $1; gsub(",", "", v)
			f = $0; sub(/^[^)]*\)  */, "", f); sub(/ \[[^]]*\]$/, "", f); sub(/^[^:]*:/, "", f)
			if (f == "PROGRAM TOTALS") next
			if (op == "sum") ir[f] += v; else if (v + 0 > ir[f] + 0) ir[f] = v }
			END { for (f in ir) print ir[f], f }' | sort -k1,1nr
}

# ir OUTFILE [FUNCTION] - total Ir of a callgrind output, or FUNCTION's
# inclusive Ir (also under a dispatch prefix: Hyperscan's avx2_hs_scan).
ir() {
	if (($# == 1)); then
		sed -n 's/^summary: *//p' "$1"
	else
		functions "$1" --inclusive=yes | awk -v f="$2" '$2 == f || $2 ~ "_" f "$" { print $1; exit }'
	fi
}

# profile TOOL NAME FLAGS PATTERNS - runs TOOL under callgrind; prints its count.
profile() {
	local -a f=()
	read -r -a f <<<"$3"
	valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.$2.cg" "${!1}" "${f[@]}" "$4" "$input" \
		>"$tmp/$1.$2.out" 2>"$tmp/$1.$2.err" || (($? == 1)) ||
		die "$2: $1 failed under valgrind: $(tail -n 3 "$tmp/$1.$2.err")"
	cat "$tmp/$1.$2.out"
}

out=$(results_file profile)
{
	machine_header "acgrep's engine and Hyperscan's under callgrind (scripts/perf/profile.sh)" \
		"scripts/perf/profile.sh --workloads $workloads --input ${input/#$BENCH_DIR/\$ACGREP_BENCH_DIR} --top $top"
	binary_facts ac_count "$ac"
	printf '# %s\n' "$(first_line valgrind --version)"
	printf '# Ir: instructions executed (callgrind); scan: Ir inside ac_find (ac) or hs_scan (hs)\n\n'
	printf '%-10s %9s %14s %14s %14s %14s %7s %7s\n' workload count ac_Ir hs_Ir ac_scan_Ir hs_scan_Ir x_Ir x_scan
} | tee "$out"
IFS=, read -r -a wl <<<"$workloads"
for w in "${wl[@]}"; do
	row=$(awk -F'\t' -v w="$w" '$1 == w && $2 == "lines" { print $5 "\t" ($7 == "" ? "-" : $7) }' "$BENCH_DIR/manifest.tsv")
	[[ -n $row ]] || die "no 'lines' workload $w in $BENCH_DIR/manifest.tsv"
	IFS=$'\t' read -r pat flags <<<"$row"
	[[ $flags == - ]] && flags=''
	say "$w: callgrind of ac_count and hs_count"
	c_ac=$(profile ac "$w" "$flags" "$BENCH_DIR/$pat")
	c_hs=$(profile hs "$w" "$flags" "$BENCH_DIR/$pat")
	[[ $c_ac == "$c_hs" ]] || die "$w: ac_count counted $c_ac lines, hs_count $c_hs"
	a=$(ir "$tmp/ac.$w.cg") h=$(ir "$tmp/hs.$w.cg")
	as=$(ir "$tmp/ac.$w.cg" ac_find) hsc=$(ir "$tmp/hs.$w.cg" hs_scan)
	{
		printf '%-10s %9s %14s %14s %14s %14s %7.2f %7.2f\n' "$w" "$c_ac" "$a" "$h" "${as:-?}" "${hsc:-?}" \
			"$(awk -v a="$a" -v b="$h" 'BEGIN { print a / b }')" \
			"$(awk -v a="${as:-0}" -v b="${hsc:-0}" 'BEGIN { print b ? a / b : 0 }')"
		functions "$tmp/ac.$w.cg" | head -n "$top" |
			awk -v t="$a" '{ printf "             %5.1f%%  %s\n", 100 * $1 / t, $2 }'
	} | tee -a "$out"
done
say "kept in $out"
