#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - the regression gate: figures that noise cannot move, per
# workload, against the baseline committed in tests/gate/baseline.tsv.
#
# Each workload (the table below) runs acgrep over inputs.py's inputs:
#   instructions  cachegrind's count (valgrind --tool=cachegrind), all threads
#   read pread64 mmap mremap futex
#                 system calls of each kind (strace -f -c), all threads
#   rss_kb        peak resident set (GNU time's %M, the median of 5 runs)
#   output        cksum of the sorted output (--json's times left out) and
#                 the exit status
# and fails (TAP "not ok", naming the workload and the figure) on more than
# 3% more instructions, any more calls of a kind, 10% (and 512 KB of page
# cache noise, RSS_NOISE_KB) more peak memory, or another output.  A
# figure that scheduling moves (futex calls with worker threads, mmap calls
# of thread stacks) is "-" in the baseline: not gated.
# Instruction counts hold for one compiler and flags: the baseline records
# the binary's (its .comment and first DW_AT_producer); where they differ,
# the instruction comparisons are skipped, each saying so.  AVX-512 kernels
# run natively only (valgrind does not emulate AVX-512): no instructions.
#
# Usage: tests/gate/run.sh [--write-baseline] [--only NAME...]
#   ACGREP       the binary (default ./acgrep)
#   GATE_DIR     scratch directory (default build/gate)
#   GATE_BASELINE the baseline (default tests/gate/baseline.tsv)
# --write-baseline rewrites the baseline from this binary (make
# gate-baseline); commit it with the reason (docs/perf.md "Regression gate").
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
acgrep=$(realpath "${ACGREP:-acgrep}")
dir=$(realpath -m "${GATE_DIR:-build/gate}")
baseline=$(realpath -m "${GATE_BASELINE:-tests/gate/baseline.tsv}")
write=false only=()
while (($#)); do
	case $1 in
	--write-baseline) write=true; shift ;;
	--only) only+=("$2"); shift 2 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
for tool in valgrind strace /usr/bin/time python3 readelf; do
	command -v "$tool" >/dev/null || { echo "not ok 1 - gate: $tool is missing (tests/deps.sh)"; exit 1; }
done

# name | LC_ALL | metrics not gated (comma list) | acgrep's arguments (in $dir/in)
# --threads=1 everywhere but the *-threads rows: one thread's figures are
# deterministic.
workloads=(
	"xx-count-matches|C||--threads=1 --count-matches -e xx -e ab xx.txt"
	"xx-c|C||--threads=1 -c -e xx -e ab xx.txt"
	"xx-mmap|C||--threads=1 --mmap --count-matches -e xx -e ab xx.txt"
	"xx-threads|C|futex,mmap|--count-matches -e xx -e ab xx.txt"
	"path-dfa|C||--threads=1 -c --scan-path=dfa -f words1k.txt lines.txt"
	"path-bitmap|C||--threads=1 -c --scan-path=bitmap -f words1k.txt lines.txt"
	"path-hash|C||--threads=1 -c --scan-path=hash -f words1k.txt lines.txt"
	"hash-shift|C||--threads=1 -c --scan-path=hash --simd=ssse3 -f words1k.txt lines.txt"
	"path-memchr|C||--threads=1 -c --scan-path=memchr -e quex lines.txt"
	"path-teddy|C||--threads=1 -c --scan-path=teddy -f words10.txt lines.txt"
	"path-rare|C||--threads=1 -c -f mails.txt mail.log"
	"simd-scalar|C||--threads=1 -c --simd=scalar -f words10.txt lines.txt"
	"simd-ssse3|C||--threads=1 -c --simd=ssse3 -f words10.txt lines.txt"
	"simd-avx2|C||--threads=1 -c --simd=avx2 -f words1k.txt lines.txt"
	"simd-avx512|C|instructions|--threads=1 -c --simd=avx512 -f words1k.txt lines.txt"
	"lines-n|C||--threads=1 -n -f words10.txt lines.txt"
	"only-matching|C||--threads=1 -o -f words10.txt lines.txt"
	"icase-utf8|C.UTF-8||--threads=1 -i -c -f words10.txt lines.txt"
	"word|C||--threads=1 -w -c -f words1k.txt lines.txt"
	"json|C||--threads=1 --json -f words10.txt lines.txt"
	"count-per-pattern|C||--threads=1 --count-per-pattern -f words1k.txt lines.txt"
	"recursive|C||--threads=1 -r -c -f words10.txt tree"
	"recursive-threads|C|futex,mmap|-r -c -f words10.txt tree"
	"decompress|C||--threads=1 --decompress -c -f words10.txt lines.txt.gz"
	"compiled|C||--threads=1 --compiled=words1k.acs -c lines.txt"
)
kinds=(read pread64 mmap mremap futex)
# Peak RSS (the median of 5 runs) counts the shared libraries' pages a run
# faults in, and how many of their neighbours come with each fault depends
# on what the page cache holds: 2.2 to 2.9 MB for one workload in 20 runs
# on a busy machine.  That part is allowed on top of the 10%.
RSS_NOISE_KB=512
columns="workload	instructions	${kinds[*]}	rss_kb	output"
columns=${columns// /	}

mkdir -p "$dir/in"
python3 "$root/tests/gate/inputs.py" "$dir/in"
gzip -n -6 -c "$dir/in/lines.txt" >"$dir/in/lines.txt.gz"
LC_ALL=C "$acgrep" --save-compiled="$dir/in/words1k.acs" -f "$dir/in/words1k.txt"

build_id() {
	local comment producer
	comment=$(readelf -p .comment "$acgrep" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | head -n 1)
	producer=$(readelf --debug-dump=info --dwarf-depth=1 "$acgrep" 2>/dev/null |
		sed -n 's/.*DW_AT_producer *: *\((indirect[^)]*): \)\{0,1\}//p' | head -n 1)
	printf '%s | %s' "${comment:-unknown compiler}" "${producer:-no debug information}"
}

# The CPU's flag for a --simd level, or nothing (every x86-64 CPU runs scalar).
cpu_flag() {
	case $1 in
	simd-ssse3 | hash-shift) echo ssse3 ;;
	simd-avx2) echo avx2 ;;
	simd-avx512) echo avx512bw ;;
	esac
}

# measure NAME LC SKIP ARGS...: one line of figures (the columns after
# workload); instructions are not counted where SKIP names them
measure() {
	local name=$1 lc=$2 skip=$3 out=$dir/$1
	shift 3
	local instr=- rc
	if [[ ,$skip, != *,instructions,* ]]; then
		rm -f "$out.cg"
		(cd "$dir/in" && LC_ALL=$lc valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file="$out.cg" "$acgrep" "$@" >"$out.out" 2>"$out.vg") || true
		instr=$(sed -n 's/^summary: *//p' "$out.cg" 2>/dev/null)
		[[ -n $instr ]] || instr=error
	fi
	rc=0
	(cd "$dir/in" && LC_ALL=$lc strace -f -c -o "$out.strace" -e trace="$(IFS=,; echo "${kinds[*]}")" \
		"$acgrep" "$@" >"$out.out" 2>"$out.err") || rc=$?
	local counts=() k
	for k in "${kinds[@]}"; do
		counts+=("$(awk -v k="$k" '$NF == k { print $4 }' "$out.strace")")
		[[ -n ${counts[-1]} ]] || counts[-1]=0
	done
	local sum
	# (--json's times are no output to compare)
	sum="$(sed -E 's/"elapsed[a-z_]*":\{[^}]*\}/"elapsed"/g' "$out.out" | sort | cksum | cut -d' ' -f1)/$rc"
	local runs=() rss i
	for i in 1 2 3 4 5; do
		(cd "$dir/in" && LC_ALL=$lc /usr/bin/time -f %M -o "$out.rss" "$acgrep" "$@" >"$out.out" 2>/dev/null) || true
		runs+=("$(tail -n 1 "$out.rss")")
	done
	rss=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p)
	printf '%s\t%s\t%s\t%s\n' "$instr" "$(IFS=$'\t'; echo "${counts[*]}")" "$rss" "$sum"
}

selected() {
	((${#only[@]} == 0)) && return 0
	local o
	for o in "${only[@]}"; do [[ $o == "$1" ]] && return 0; done
	return 1
}

if $write; then
	tmp=$baseline.tmp
	{
		echo "# acgrep's regression gate baseline: tests/gate/run.sh --write-baseline"
		echo "# (docs/perf.md \"Regression gate\"); \"-\": not gated."
		echo "# build	$(build_id)"
		echo "$columns"
		for w in "${workloads[@]}"; do
			IFS='|' read -r name lc skip args <<<"$w"
			read -ra argv <<<"$args"
			IFS=$'\t' read -ra f <<<"$(measure "$name" "$lc" "$skip" "${argv[@]}")"
			f=("$name" "${f[@]}")
			cols=(workload instructions "${kinds[@]}" rss_kb output)
			for i in "${!cols[@]}"; do
				[[ ,$skip, == *,${cols[$i]},* ]] && f[i]=-
			done
			(IFS=$'\t'; echo "${f[*]}")
			echo "wrote $name: ${f[*]}" >&2
		done
	} >"$tmp"
	mv -f "$tmp" "$baseline"
	echo "gate: wrote $baseline"
	exit 0
fi

[[ -f $baseline ]] || { echo "not ok 1 - gate: no baseline $baseline (make gate-baseline)"; exit 1; }
base_build=$(sed -n 's/^# build\t//p' "$baseline")
this_build=$(build_id)
same_build=true
if [[ $base_build != "$this_build" ]]; then
	same_build=false
	echo "# gate: the baseline's build is \"$base_build\","
	echo "# this binary's \"$this_build\": instruction counts are not compared"
fi

declare -A base
while IFS=$'\t' read -r name rest; do
	[[ $name == \#* || $name == workload || -z $name ]] && continue
	base[$name]=$rest
done <"$baseline"

echo "1..${#workloads[@]}"
n=0 failed=0 skipped=0
for w in "${workloads[@]}"; do
	n=$((n + 1))
	IFS='|' read -r name lc skip args <<<"$w"
	read -ra argv <<<"$args"
	if ! selected "$name"; then
		echo "ok $n - $name # skip not selected"
		skipped=$((skipped + 1))
		continue
	fi
	flag=$(cpu_flag "$name")
	if [[ -n $flag ]] && ! grep -qw "$flag" /proc/cpuinfo; then
		echo "ok $n - $name # skip the CPU has no $flag"
		skipped=$((skipped + 1))
		continue
	fi
	if [[ -z ${base[$name]:-} ]]; then
		echo "not ok $n - $name: not in the baseline (make gate-baseline)"
		failed=$((failed + 1))
		continue
	fi
	IFS=$'\t' read -ra was <<<"${base[$name]}"
	IFS=$'\t' read -ra now <<<"$(measure "$name" "$lc" "$skip" "${argv[@]}")"
	cols=(instructions "${kinds[@]}" rss_kb output)
	why=() notes=()
	for i in "${!cols[@]}"; do
		c=${cols[$i]} b=${was[$i]} v=${now[$i]}
		[[ $b == - ]] && continue
		case $c in
		instructions)
			if ! $same_build; then
				notes+=("instructions not compared: another compiler or flags ($v, baseline $b)")
			elif [[ $v == error ]]; then
				why+=("instructions: cachegrind failed ($dir/$name.vg)")
			elif ((v * 100 > b * 103)); then
				why+=("instructions $v > baseline $b + 3% (+$(((v - b) * 1000 / b / 10)).$(((v - b) * 1000 / b % 10))%)")
			elif ((v * 100 < b * 97)); then
				notes+=("instructions $v, $(((b - v) * 100 / b))% under the baseline $b: rewrite it (make gate-baseline)")
			fi ;;
		rss_kb)
			if ((v * 10 > b * 11 + 10 * RSS_NOISE_KB)); then
				why+=("peak RSS $v KB > baseline $b KB + 10% + $RSS_NOISE_KB KB")
			fi ;;
		output)
			[[ $v == "$b" ]] || why+=("output (cksum/status) $v, baseline $b") ;;
		*)
			if ((v > b)); then why+=("$c calls $v > baseline $b"); fi
			if ((v < b)); then notes+=("$c calls $v, baseline $b: rewrite it (make gate-baseline)"); fi ;;
		esac
	done
	echo "# $name: ${now[*]}"
	for note in "${notes[@]}"; do echo "# $name: $note"; done
	if ((${#why[@]})); then
		failed=$((failed + 1))
		list=$(IFS=';'; echo "${why[*]}")
		echo "not ok $n - $name: ${list//;/; }"
		echo "#   acgrep ${argv[*]} (LC_ALL=$lc, in $dir/in)"
	else
		echo "ok $n - $name"
	fi
done
echo "# gate: $((n - failed - skipped)) passed, $failed failed, $skipped skipped"
((failed == 0))
