#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctz.sh - the count-trailing-zeros experiment: acgrep built with `make CTZ=portable`
# (De Bruijn multiply and table lookup, as where the compiler has no intrinsic)
# against the default build (__builtin_ctzll: one TZCNT/BSF), as compare.sh's table.
#
# Usage: scripts/perf/ctz.sh [--rev REV] [--no-compare] [compare.sh options: --quick --runs N --io ... --workloads ...]
#
# Both binaries are built from one copy of the sources (the working tree, or
# commit REV) in a temporary directory; ./acgrep is not touched.  OLD is the
# portable build, NEW the builtin one, so a negative delta is what the
# intrinsic saves.  The disassembly is checked first: the builtin build must use
# tzcnt/bsf, the portable one the De Bruijn constant.  Then, as wall and CPU
# times on a shared VM are noisy, stat.sh runs both builds on words1k over the
# 32 MiB slice (read path) for cachegrind's instruction and branch counts, which
# do not depend on the machine's load.  --no-compare does only that part.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

rev='' cmp=1
while (($#)); do
	case $1 in
	--rev) rev=$2; shift 2 ;;
	--no-compare) cmp=0; shift ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
need binutils:objdump make:make gcc:cc

tmp=$(mktemp -d "${TMPDIR:-/tmp}/acgrep-ctz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$(snapshot "$tmp/tree" "$rev")
say "building from $src"
portable=$(build "$tmp/tree" portable CTZ=portable)
builtin=$(build "$tmp/tree" builtin)
n_tz=$(objdump -d --no-show-raw-insn "$builtin" | grep -c -E '\s(tzcnt|bsf)\s' || true)
n_db=$(objdump -d --no-show-raw-insn "$portable" | grep -c -i '0x22fdd63cc95386d' || true)
n_tz_p=$(objdump -d --no-show-raw-insn "$portable" | grep -c -E '\s(tzcnt|bsf)\s' || true)
say "builtin build: $n_tz tzcnt/bsf instructions; portable build: $n_db uses of the De Bruijn constant, $n_tz_p tzcnt/bsf"
((n_tz > 0 && n_db > 0)) || die "the two builds do not differ as intended"
export ACGREP_BENCH_SOURCE="$src; OLD = make CTZ=portable ($n_db uses of the De Bruijn constant), NEW = make (default, $n_tz tzcnt/bsf instructions)"
if ((cmp)); then
	"$PERF_DIR/compare.sh" "$@" "$portable" "$builtin"
fi
need_quick_corpus
for v in portable builtin; do
	echo
	echo "## $v build: words1k (1,000 words, -c) over english-32M.txt, --no-mmap"
	warm "$BENCH_DIR/english-32M.txt"
	"$PERF_DIR/stat.sh" -r 5 -o "$tmp/out.$v" -- "${!v}" --no-mmap -c -f "$BENCH_DIR/pat/words1k.txt" "$BENCH_DIR/english-32M.txt"
done
