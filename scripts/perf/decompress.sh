#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# decompress.sh - --decompress against the decompressor alone and the peers.
#
# Usage: scripts/perf/decompress.sh [-r N] [--input FILE] [--formats "gz xz zst"]
#
# FILE (default: english.txt from corpus.sh, 256 MB) is compressed once per
# format (gzip -6, xz -6, zstd -3; kept in $BENCH_DIR/z/) and searched for the corpus
# words (pat/words100.txt when present, else 20 fixed words) with -c.
# Side by side, N rounds (default 5) interleaved, each command's wall and CPU
# (user+sys) medians: the decompressor alone (`zcat >/dev/null` etc.),
# `acgrep --decompress`, with --threads=1, `zcat | acgrep`, `rg -z` and
# `zgrep`.  Every count is checked against grep -c over FILE (the expected
# count is printed first).  The goal: acgrep --decompress within 10% of the
# decompressor alone.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 input= formats="gz xz zst"
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--input) input=$(realpath "$2"); shift 2 ;;
	--formats) formats=$2; shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "decompress.sh: unknown argument $1 (try --help)" ;;
	esac
done
need gzip:gzip xz-utils:xz zstd:zstd
ensure_acgrep
if [[ -z $input ]]; then
	need_corpus
	input=$BENCH_DIR/english.txt
fi
pats=$BENCH_DIR/pat/words100.txt
if [[ ! -s $pats ]]; then
	pats=$(mktemp)
	printf '%s\n' Holmes Watson London morning evening river window letter silver garden \
		captain doctor village church station master summer winter answer father >"$pats"
fi
zdir=$BENCH_DIR/z
mkdir -p "$zdir"
base=$zdir/$(basename "$input")
for f in $formats; do
	[[ -s $base.$f && $base.$f -nt $input ]] && continue
	say "compressing $input as .$f"
	case $f in
	gz) gzip -6 -c "$input" >"$base.$f" ;;
	xz) xz -6 -T1 -c "$input" >"$base.$f" ;;
	zst) zstd -q -3 -c "$input" >"$base.$f" ;;
	esac
done
expect=$(grep -F -c -f "$pats" "$input")
out=$(results_file decompress)
{
	machine_header "decompress.sh: --decompress against the decompressor alone" "$0 -r $runs --input $input"
	binary_facts acgrep "$REPO/acgrep"
	tool_versions
	printf '# input %s (%s bytes), patterns %s, expected count %s\n' "$input" "$(stat -c %s "$input")" "$pats" "$expect"
} | tee "$out"

"$PY" - "$runs" "$REPO/acgrep" "$pats" "$expect" "$base" $formats <<'PYEOF' | tee -a "$out"
import os, resource, statistics, subprocess, sys, time
runs, acgrep, pats, expect, base = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
tool = {"gz": "gzip -dc", "xz": "xz -dc", "zst": "zstd -q -dc"}
for fmt in sys.argv[6:]:
    f = "%s.%s" % (base, fmt)
    cmds = [("decompressor alone", "%s %s >/dev/null" % (tool[fmt], f), False),
            ("acgrep --decompress", "%s --decompress -F -c -f %s %s" % (acgrep, pats, f), True),
            ("acgrep --decompress --threads=1", "%s --decompress --threads=1 -F -c -f %s %s" % (acgrep, pats, f), True),
            ("decompressor | acgrep", "%s %s | %s -F -c -f %s" % (tool[fmt], f, acgrep, pats), True)]
    if subprocess.run("command -v rg", shell=True, capture_output=True).returncode == 0:
        cmds.append(("rg -z", "rg -z -F -c -f %s %s" % (pats, f), True))
    if fmt == "gz":
        cmds.append(("zgrep", "zgrep -F -c -f %s %s" % (pats, f), True))
    wall = {c[0]: [] for c in cmds}
    cpu = {c[0]: [] for c in cmds}
    for r in range(runs + 1):  # round 0 warms the cache and checks the counts
        for name, cmd, counts in cmds:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.monotonic()
            p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True)
            w = time.monotonic() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if counts and p.stdout.decode().strip() != expect:
                sys.exit("decompress.sh: %s printed %r, expected %s" % (cmd, p.stdout[:80], expect))
            if r:
                wall[name].append(w)
                cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    alone = statistics.median(cpu["decompressor alone"])
    print("| %s | wall median s | CPU median s | CPU / decompressor alone |" % fmt)
    print("|---|---|---|---|")
    for name, _, _ in cmds:
        c = statistics.median(cpu[name])
        print("| %s | %.3f | %.3f | %.2f |" % (name, statistics.median(wall[name]), c, c / alone))
    print()
PYEOF
say "results in $out"
