#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hyperscan.sh - a reference for acgrep's engine: Hyperscan 5.4's literal
# engine used as a library (hs_count.c: hs_compile_lit_multi, one hs_scan over
# the whole input, matching lines counted in the callback; no line logic in
# the engine), next to `acgrep --no-mmap -c -F -f PAT [flags] INPUT` and to
# acgrep's engine measured the same way as Hyperscan's (ac_count.c: the
# input read whole first, then one thread's compile and scan).
#
# Usage: scripts/perf/hyperscan.sh [--runs N] [--workloads a,b,...] [--acgrep BIN]
#
# Builds hs_count with `cc -O2 -lhs` in a temporary directory (libhyperscan-dev,
# installed with apt-get when root), and build/ac_count with make.  For each
# workload (default rare, the, names5, names5-i, absent10, lit32x20, words100,
# words1k, words1k-i, absent1k, dict10k, xxab-c; -w rows are skipped: Hyperscan
# has no word logic here), N rounds (default 5): warm the input, then run
# hs_count, acgrep, acgrep --threads=1 and ac_count, in an order that rotates
# by round, each with stdout to a file; every count is checked against
# manifest.tsv (a mismatch stops the run and prints the command).  Prints
# medians: hs_count's wall time and the compile, read and scan times it
# reports itself, acgrep's wall time (default threads and one), ac_count's
# compile + scan, and four ratios: acgrep's wall over Hyperscan's wall (each
# thread count), acgrep's wall over Hyperscan's engine alone (compile +
# scan), and acgrep's engine over Hyperscan's engine (each compile + scan,
# one thread, the input in memory).
# The result is kept under $ACGREP_BENCH_DIR/results.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 workloads=rare,the,names5,names5-i,absent10,lit32x20,words100,words1k,words1k-i,absent1k,dict10k,xxab-c
acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--workloads) workloads=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "hyperscan.sh: unknown argument $1 (try --help)" ;;
	esac
done
((runs >= 1)) || die "hyperscan.sh: --runs needs a positive count"
need gcc:cc make:make libhyperscan-dev:/usr/include/hs/hs.h
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
make -s -C "$REPO" build/ac_count >&2 || die "make -C $REPO build/ac_count failed"
ac=$REPO/build/ac_count
need_corpus

tmp=$(mktemp -d "${TMPDIR:-/tmp}/acgrep-hyperscan.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
build_hs_count "$tmp"
hs=$tmp/hs_count
hsver=$(printf '#include <hs/hs.h>\n#include <stdio.h>\nint main(void){puts(hs_version());return 0;}\n' |
	"${CC:-cc}" -x c -o "$tmp/hsver" - -lhs && "$tmp/hsver")

# The workloads: name, input, patterns, flags, expected count (manifest.tsv).
names=() inputs=() pats=() flagss=() expect=()
IFS=, read -r -a wl <<<"$workloads"
for w in "${wl[@]}"; do
	row=$(awk -F'\t' -v w="$w" '$1 == w && $2 == "lines" { print $3 "\t" $5 "\t" ($7 == "" ? "-" : $7) "\t" $8 }' "$BENCH_DIR/manifest.tsv")
	[[ -n $row ]] || die "no 'lines' workload $w in $BENCH_DIR/manifest.tsv"
	IFS=$'\t' read -r input pat flags exp <<<"$row"
	[[ $flags == - ]] && flags=''
	if [[ $flags == *-w* || $flags == *-x* ]]; then
		say "skipping $w ($flags): hs_count has no word or line-match logic"
		continue
	fi
	names+=("$w") inputs+=("$BENCH_DIR/$input") pats+=("$BENCH_DIR/$pat") flagss+=("$flags") expect+=("$exp")
done
((${#names[@]})) || die "no workloads left to run"

# run_one TOOL INDEX - one timed run; appends "wall_ms [compile read scan]" to
# $tmp/t.TOOL.INDEX, after checking the count.
TIMEFORMAT=%R
run_one() {
	local tool=$1 i=$2 t got e
	local -a f=() cmd
	read -r -a f <<<"${flagss[i]}"
	if [[ $tool == hs ]]; then
		cmd=("$hs" "${f[@]}" "${pats[i]}" "${inputs[i]}")
	elif [[ $tool == ac ]]; then
		cmd=("$ac" "${f[@]}" "${pats[i]}" "${inputs[i]}")
	elif [[ $tool == acgrep1 ]]; then
		cmd=("$acgrep" --threads=1 --no-mmap -c -F -f "${pats[i]}" "${f[@]}" "${inputs[i]}")
	else
		cmd=("$acgrep" --no-mmap -c -F -f "${pats[i]}" "${f[@]}" "${inputs[i]}")
	fi
	e=0
	t=$({ time "${cmd[@]}" >"$tmp/out" 2>"$tmp/err"; } 2>&1) || e=$?
	got=$(<"$tmp/out")
	if ((e > 1)) || [[ $got != "${expect[i]}" ]]; then
		say "$(cat "$tmp/err")"
		die "${names[i]}: counted '$got' (status $e), grep -F counted ${expect[i]}: ${cmd[*]}"
	fi
	if [[ $tool == hs || $tool == ac ]]; then
		awk -v w="$t" '{ for (k = 1; k < NF; k++) v[$k] = $(k + 1) }
			END { printf "%.3f %s %s %s\n", w * 1000, v["compile_ms"], v["read_ms"] + v["touch_ms"], v["scan_ms"] }' \
			"$tmp/err" >>"$tmp/t.$tool.$i"
	else
		awk -v w="$t" 'BEGIN { printf "%.3f\n", w * 1000 }' >>"$tmp/t.$tool.$i"
	fi
}

say "$runs rounds x ${#names[@]} workloads x 3 tools"
tools=(hs acgrep ac acgrep1)
for ((r = 0; r < runs; r++)); do
	for i in "${!names[@]}"; do
		warm "${inputs[i]}"
		for ((k = 0; k < 4; k++)); do
			run_one "${tools[(r + k) % 4]}" "$i"
		done
	done
done

# median COLUMN FILE - the median of a column (ms), to 0.1 ms.
median() {
	sort -g -k"$1,$1" "$2" | awk -v c="$1" '{ v[NR] = $c } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f", m }'
}

out=$(results_file hyperscan)
command_line="scripts/perf/hyperscan.sh --runs $runs --workloads $(IFS=,; echo "${names[*]}")"
{
	machine_header "acgrep and Hyperscan's literal engine (scripts/perf/hyperscan.sh)" "$command_line"
	binary_facts acgrep "$acgrep"
	printf '# hs_count: scripts/perf/hs_count.c, %s -std=c11 -O2 -lhs; Hyperscan %s (Debian libhyperscan5 %s)\n' \
		"${CC:-cc}" "$hsver" "$(dpkg-query -W -f '${Version}' libhyperscan5 2>/dev/null || echo '?')"
	printf '# corpus: %s; LC_ALL=C; page cache warmed; stdout to files; medians of %d interleaved runs, ms\n' "$BENCH_DIR" "$runs"
	printf '# hs_*: hs_count: wall; compile = hs_compile_lit_multi + scratch; read = read() of the whole input + first touch; scan = hs_scan\n'
	printf '# acgrep: %s --no-mmap -c -F -f PAT [flags] INPUT, wall\n' "${acgrep/#$REPO/.}"
	printf '# ac_engine: build/ac_count (scripts/perf/ac_count.c, acgrep'"'"'s objects): compile + scan, measured as hs_count'"'"'s\n'
	printf '# acgrep_1t: the same with --threads=1, wall; x_wall_1t = acgrep_1t / hs wall\n'
	printf '# x_wall = acgrep / hs wall; x_engine = acgrep / (hs compile + scan); x_engines = ac_engine / (hs compile + scan)\n\n'
	printf '%-10s %9s %9s %10s %8s %8s %10s %9s %9s %7s %9s %8s %9s\n' workload count hs_wall hs_compile hs_read hs_scan acgrep acgrep_1t ac_engine x_wall x_wall_1t x_engine x_engines
	for i in "${!names[@]}"; do
		hw=$(median 1 "$tmp/t.hs.$i")
		hc=$(median 2 "$tmp/t.hs.$i")
		hr=$(median 3 "$tmp/t.hs.$i")
		hsc=$(median 4 "$tmp/t.hs.$i")
		aw=$(median 1 "$tmp/t.acgrep.$i")
		a1=$(median 1 "$tmp/t.acgrep1.$i")
		ae=$(awk '{ print $2 + $4 }' "$tmp/t.ac.$i" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f", m }')
		printf '%-10s %9s %9s %10s %8s %8s %10s %9s %9s %7s %9s %8s %9s\n' "${names[i]}" "${expect[i]}" "$hw" "$hc" "$hr" "$hsc" "$aw" "$a1" "$ae" \
			"$(awk -v a="$aw" -v b="$hw" 'BEGIN { printf "%.2f", a / b }')" \
			"$(awk -v a="$a1" -v b="$hw" 'BEGIN { printf "%.2f", a / b }')" \
			"$(awk -v a="$aw" -v b="$hc" -v c="$hsc" 'BEGIN { printf "%.2f", a / (b + c) }')" \
			"$(awk -v a="$ae" -v b="$hc" -v c="$hsc" 'BEGIN { printf "%.2f", a / (b + c) }')"
	done
} | tee "$out"
say "kept in $out"
