#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# per_pattern.sh - --count-per-pattern against --count-matches.
#
# Usage: scripts/perf/per_pattern.sh [-r N] [--sets "words1k dict-all"] [--threads "1 0"]
#
# The target: per-pattern counts cost at most 10% over plain
# --count-matches on the same pattern set.  Over english.txt (256 MB, from
# corpus.sh), warmed first, with pat/words1k.txt (1,000 corpus words:
# 1,028,434 matches) and pat/dict-all.txt (663,473 words: 48,528,025
# matches), on --threads=1 and the default (0: one per CPU): `acgrep -F
# --count-matches -f SET` and `acgrep -F --count-per-pattern -f SET`, N
# rounds (default 5) interleaved after a round that checks the counts (the
# MATCHES column of --count-per-pattern sums to the count of
# --count-matches, which must be the one stated above).  Side by side, the
# medians of wall and CPU (user+sys) time, peak RSS, and
# --count-per-pattern over --count-matches.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 sets="words1k dict-all" threads="1 0"
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--sets) sets=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "per_pattern.sh: unknown argument $1 (try --help)" ;;
	esac
done
need_python
ensure_acgrep
need_corpus
input=$BENCH_DIR/english.txt
out=$(results_file per-pattern)
{
	machine_header "per_pattern.sh: --count-per-pattern against --count-matches" \
		"$0 -r $runs --sets \"$sets\" --threads \"$threads\""
	binary_facts acgrep "$REPO/acgrep"
	printf '# input %s (%s bytes)\n' "$input" "$(stat -c %s "$input")"
} | tee "$out"
warm "$input"

"$PY" - "$runs" "$REPO/acgrep" "$input" "$BENCH_DIR/pat" "$sets" "$threads" <<'PYEOF' | tee -a "$out"
import os, resource, statistics, subprocess, sys, time
runs, acgrep, text, patdir = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
sets, threads = sys.argv[5].split(), sys.argv[6].split()
EXPECT = {"words1k": 1028434, "dict-all": 48528025}  # matches over english.txt
OUT = os.path.join(os.environ.get("TMPDIR", "/tmp"), "per_pattern.%d.out" % os.getpid())


def run(argv):
    """stdout, wall and CPU seconds, peak RSS KiB of one run (os.wait4: its own usage)."""
    with open(os.devnull, "wb") as null, open(OUT, "w+b") as f:
        t = time.monotonic()
        p = subprocess.Popen(argv, stdout=f, stderr=null)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            sys.exit("per_pattern.sh: %s: status %d" % (" ".join(argv), p.returncode))
        f.seek(0)
        return f.read(), wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def matches(mode, out):
    if mode == "--count-matches":
        return int(out)
    return sum(int(line.split(b"\t", 1)[0]) for line in out.splitlines())


print("| set | threads | mode | wall median s | CPU median s | peak RSS MiB | wall ratio | CPU ratio |")
print("|---|---|---|---|---|---|---|---|")
for name in sets:
    pats = os.path.join(patdir, name + ".txt")
    for th in threads:
        modes = ["--count-matches", "--count-per-pattern"]
        wall = {m: [] for m in modes}
        cpu = {m: [] for m in modes}
        rss = {m: 0 for m in modes}
        for r in range(runs + 1):  # round 0 checks the counts
            for m in modes:
                out, w, c, peak = run([acgrep, "--threads=" + th, "-F", m, "-f", pats, text])
                if r == 0:
                    n = matches(m, out)
                    if name in EXPECT and n != EXPECT[name]:
                        sys.exit("per_pattern.sh: %s %s counted %d matches, expected %d" % (name, m, n, EXPECT[name]))
                    continue
                wall[m].append(w)
                cpu[m].append(c)
                rss[m] = max(rss[m], peak)
        base_w, base_c = statistics.median(wall[modes[0]]), statistics.median(cpu[modes[0]])
        for m in modes:
            w, c = statistics.median(wall[m]), statistics.median(cpu[m])
            print("| %s | %s | %s | %.2f | %.2f | %d | %.3f | %.3f |" % (
                name, th, m, w, c, rss[m] // 1024, w / base_w, c / base_c))
        sys.stdout.flush()
os.unlink(OUT)
PYEOF
say "results in $out"
