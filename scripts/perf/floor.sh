#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# floor.sh - acgrep -r against its floor (walk_floor: the same walk, open,
# read and close on the same threads, no search) and against rg, over one
# big tree.
#
# Usage: scripts/perf/floor.sh [-r N] [--tree DIR] [--pattern P] [--acgrep BIN]
#
# The tree defaults to /usr/include (a Debian system's C headers: many
# small files, like a source tree); the pattern to kmalloc.  Rows: the
# floor, `acgrep -r -c -F` and `rg -uuu -c -F` (-uuu: every file, hidden
# and ignored ones too, as grep -r), each with one thread and the default.
# Both tools' per-file counts of the files that match are checked to agree
# first; then the rows are timed N times (default 5) interleaved after a
# warm-up: medians of wall and CPU seconds, acgrep over the floor and over
# rg at the same thread count (target: at most 1.3x the floor, 0.7x rg).
# Outputs go to files, never /dev/null.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 tree=/usr/include pattern=kmalloc acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--tree) tree=$2; shift 2 ;;
	--pattern) pattern=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "floor.sh: unknown argument $1 (try --help)" ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "-r takes a positive count, not $runs"
[[ -d $tree ]] || die "floor.sh: $tree is not a directory"
need ripgrep:rg
need_python
need time:/usr/bin/time
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
make -s -C "$REPO" build/walk_floor >&2 || die "make build/walk_floor failed"
floor=$REPO/build/walk_floor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

names=(floor-1 floor acgrep-1 acgrep rg-1 rg)
declare -A cmd=(
	[floor-1]="$floor --threads=1 $tree"
	[floor]="$floor $tree"
	[acgrep-1]="$acgrep --threads=1 -r -c -F $pattern $tree"
	[acgrep]="$acgrep -r -c -F $pattern $tree"
	[rg-1]="rg -j1 -uuu -c -F $pattern $tree"
	[rg]="rg -uuu -c -F $pattern $tree"
)
# shellcheck disable=SC2086 # the commands are words
$acgrep -r -c -F "$pattern" "$tree" | LC_ALL=C grep -v ':0$' | LC_ALL=C sort >"$tmp/acgrep.counts" || true
rg -uuu -c -F "$pattern" "$tree" | LC_ALL=C sort >"$tmp/rg.counts" || true
cmp -s "$tmp/acgrep.counts" "$tmp/rg.counts" ||
	die "floor.sh: acgrep and rg count $pattern differently in $tree (diff $tmp/acgrep.counts $tmp/rg.counts)"
read -r files bytes < <($floor "$tree")

machine_header "acgrep -r against its floor and rg: $tree, $files files, $bytes bytes, $runs runs each, interleaved" \
	"scripts/perf/floor.sh -r $runs --tree $tree --pattern $pattern"
printf '# matching files: %s\n\n' "$(wc -l <"$tmp/rg.counts")"
printf '| command | wall s | CPU s | over the floor | over rg |\n'
printf '|---|---|---|---|---|\n'
warm "$tree"
for ((r = 0; r < runs; r++)); do
	for name in "${names[@]}"; do
		# shellcheck disable=SC2086
		/usr/bin/time -f "%e %U %S" -o "$tmp/t" ${cmd[$name]} >"$tmp/out" || true
		echo "$name $(cat "$tmp/t")" >>"$tmp/times"
	done
done
python3 - "$tmp/times" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, user, sys_ = line.split()
    rows.setdefault(name, []).append((float(wall), float(user) + float(sys_)))
med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in rows.items()}
label = {"floor-1": "walk_floor --threads=1", "floor": "walk_floor", "acgrep-1": "acgrep --threads=1 -r",
         "acgrep": "acgrep -r", "rg-1": "rg -j1", "rg": "rg"}
for name in ("floor-1", "floor", "acgrep-1", "acgrep", "rg-1", "rg"):
    wall, cpu = med[name]
    one = name.endswith("-1")
    over_floor = over_rg = ""
    if name.startswith("acgrep"):
        f = med["floor-1" if one else "floor"][0]
        g = med["rg-1" if one else "rg"][0]
        over_floor = "%.2f" % (wall / f) if f > 0 else ""
        over_rg = "%.2f" % (wall / g) if g > 0 else ""
    print("| %s | %.3f | %.3f | %s | %s |" % (label[name], wall, cpu, over_floor, over_rg))
EOF
