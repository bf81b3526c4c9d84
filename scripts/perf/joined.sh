#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# joined.sh - what expanding one -E line of 100,000 literals costs over -F.
#
# Usage: scripts/perf/joined.sh [-r N] [--acgrep BIN]
#
# Owns: the inputs and the measurement of docs/perf.md's "-E of 100,000
# words joined by |": words (100,000 words of wamerican-insane, ASCII
# letters only, the first in SHA-1 order, one a line), joined (the same
# joined by | on one line) and text (1 MB of the list's other words, 10 a
# line), in $BENCH_DIR/joined.  Then, LC_ALL=C, outputs to a file:
# `acgrep -E -f joined text` against `acgrep -F -f words text`, outputs
# checked equal; hyperfine -N -w 3 -r N (default 15); medians of N
# interleaved runs' user+sys CPU and wall after 3 warm-up rounds; callgrind
# instructions and /usr/bin/time -v minor faults of one run each.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=15 acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "joined.sh: unknown argument $1 (try --help)" ;;
	esac
done
need hyperfine:hyperfine valgrind:valgrind
dir=$BENCH_DIR/joined
if [[ ! -s $dir/text ]]; then
	apt_download "$dir/deb" wamerican-insane
	dpkg-deb -x "$dir"/deb/wamerican-insane_*.deb "$dir/deb/x"
	"$PY" - "$dir" "$dir/deb/x/usr/share/dict/american-english-insane" <<'PY'
import hashlib, random, sys
d, src = sys.argv[1], sys.argv[2]
every = sorted({w for w in open(src, encoding='latin-1').read().split()
		if w.isascii() and w.isalpha()})
words = sorted(every, key=lambda w: hashlib.sha1(w.encode()).hexdigest())[:100000]
open(d + '/words', 'w').write('\n'.join(words) + '\n')
open(d + '/joined', 'w').write('|'.join(words) + '\n')
rest, r, out, n = sorted(set(every) - set(words)), random.Random(1), [], 0
while n < 1000000:
	line = ' '.join(r.choice(rest) for _ in range(10)) + '\n'
	out.append(line)
	n += len(line)
open(d + '/text', 'w').write(''.join(out))
PY
fi
cd "$dir"
export LC_ALL=C
E=("$acgrep" -E -f joined text) F=("$acgrep" -F -f words text)
if ! "${E[@]}" >out.E || ! "${F[@]}" >out.F || ! cmp -s out.E out.F; then
	die "-E and -F disagree"
fi
hyperfine -N -w 3 -r "$runs" --output=pipe "${E[*]}" "${F[*]}"
"$PY" - "$runs" "${E[*]}" "${F[*]}" <<'PY'
import os, statistics, sys, time
runs, cmds = int(sys.argv[1]), [c.split() for c in sys.argv[2:]]
got = [([], []) for _ in cmds]
for r in range(3 + runs):
	for (cpu, wall), c in zip(got, cmds):
		t0 = time.perf_counter()
		pid = os.fork()
		if pid == 0:
			os.dup2(os.open('out.run', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
			os.execv(c[0], c)
		ru = os.wait4(pid, 0)[2]
		if r >= 3:
			cpu.append(ru.ru_utime + ru.ru_stime)
			wall.append(time.perf_counter() - t0)
for (cpu, wall), c in zip(got, cmds):
	print(f'{c[1]}: CPU {statistics.median(cpu) * 1e3:.1f} ms, wall {statistics.median(wall) * 1e3:.1f} ms (medians of {runs})')
PY
for cmd in E F; do
	declare -n c=$cmd
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "${c[@]}" 2>&1 >out.run | sed -n 's/.*Collected : /'"-$cmd"' Ir: /p'
	/usr/bin/time -v "${c[@]}" 2>&1 >out.run | sed -n 's/.*Minor (reclaiming a frame) page faults: /'"-$cmd"' minor faults: /p'
done
