#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rare.sh - sets whose every pattern holds a rare byte ('@' of e-mail
# addresses, '/' of paths), and sets that share only common ones (URLs,
# domains), against ripgrep, which has a rare-byte prefilter of its own.
#
# Usage: scripts/perf/rare.sh [-r N] [--mb N] [--acgrep BIN]
#
# From what a Debian system ships, deterministically: the text is every
# /usr/share/doc/*/changelog.Debian.gz decoded and every copyright file, in
# sorted order (kept as one.txt), repeated to about N MiB (default 64); the
# sets are what one copy of it holds (so each pattern occurs): the distinct
# e-mail addresses, http(s) URLs, the host names of those URLs (two labels
# or more) and absolute paths under the usual top directories.  Each
# workload (-c, one and two threads for both tools) is checked against
# grep -F -c first, then timed N times (default 5) interleaved after a
# warm-up: medians of wall and CPU seconds, and acgrep's over rg's.  Which
# scan path acgrep takes is its cost estimate's choice (the e-mail set and
# the domains take RARE; tests/unit/test_rare.c holds sets of their shape
# to that); acgrep-1-hash is one thread on the HASH path, what the e-mail
# set took before RARE.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

runs=5 mb=64 acgrep=$REPO/acgrep
while (($#)); do
	case $1 in
	-r) runs=$2; shift 2 ;;
	--mb) mb=$2; shift 2 ;;
	--acgrep) acgrep=$(realpath "$2"); shift 2 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "rare.sh: unknown argument $1 (try --help)" ;;
	esac
done
[[ $mb =~ ^[1-9][0-9]*$ ]] || die "--mb takes a whole number of MiB, not $mb"
need ripgrep:rg
need_python
if [[ $acgrep == "$REPO/acgrep" ]]; then ensure_acgrep; fi
dir=$BENCH_DIR/rare
mkdir -p "$dir"
one=$dir/one.txt
if [[ ! -s $one ]]; then
	{
		for f in /usr/share/doc/*/changelog.Debian.gz; do zcat -- "$f" 2>/dev/null || true; done
		cat /usr/share/doc/*/copyright 2>/dev/null || true
	} >"$one"
	[[ -s $one ]] || die "no changelogs or copyright files under /usr/share/doc"
	rm -f "$dir"/text-*.txt # copies of an older one.txt
fi
LC_ALL=C grep -ohE '[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+' "$one" | LC_ALL=C sort -u >"$dir/mail.txt"
LC_ALL=C grep -ohE 'https?://[A-Za-z0-9.-]+(/[A-Za-z0-9._~/-]*)?' "$one" | LC_ALL=C sort -u >"$dir/url.txt"
# a host name of two labels or more: not "." (a changelog's "http://.")
sed -E 's#^https?://([^/]*).*#\1#' "$dir/url.txt" |
	LC_ALL=C grep -xE '[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+' | LC_ALL=C sort -u >"$dir/domain.txt"
# absolute paths under the usual top directories, without a sentence's final dots
LC_ALL=C grep -ohE '/(bin|boot|dev|etc|home|lib|opt|proc|run|sbin|srv|sys|tmp|usr|var)(/[A-Za-z0-9._+-]+)+' "$one" |
	sed -E 's/\.+$//' | LC_ALL=C sort -u >"$dir/path.txt"
text=$dir/text-$mb.txt
if [[ ! -s $text ]]; then
	python3 - "$one" "$text" "$mb" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
want = int(sys.argv[3]) << 20
with open(sys.argv[2], "wb") as f:
    n = 0
    while n < want:
        f.write(data)
        n += len(data)
EOF
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

machine_header "rare-byte sets against ripgrep: $(wc -c <"$text") bytes of text, $runs runs each, interleaved" \
	"scripts/perf/rare.sh -r $runs --mb $mb"
echo
printf '| set | patterns | command | matching lines | wall s | CPU s | acgrep/rg wall |\n'
printf '|---|---|---|---|---|---|---|\n'
warm "$text"
for set in mail url domain path; do
	pats=$dir/$set.txt
	n_pats=$(wc -l <"$pats")
	want=$(LC_ALL=C grep -F -c -f "$pats" "$text")
	declare -A cmd=(
		[acgrep]="$acgrep -c -f $pats $text"
		[acgrep-1]="$acgrep --threads=1 -c -f $pats $text"
		[acgrep-1-hash]="$acgrep --threads=1 --scan-path=hash -c -f $pats $text"
		[rg-2]="rg -j2 -c -F -f $pats $text"
		[rg-1]="rg -j1 -c -F -f $pats $text"
	)
	for name in acgrep acgrep-1 acgrep-1-hash rg-2 rg-1; do
		# shellcheck disable=SC2086 # the commands are words
		got=$(${cmd[$name]})
		[[ $got == "$want" ]] || die "$set: $name counted $got lines, grep -F -c $want"
	done
	for ((r = 0; r < runs; r++)); do
		for name in acgrep acgrep-1 acgrep-1-hash rg-2 rg-1; do
			# shellcheck disable=SC2086
			# wall from the shell's microsecond clock (time's %e has 10 ms);
			# never /dev/null: grep and acgrep stop at the first match there
			t0=$EPOCHREALTIME
			/usr/bin/time -f "%U %S" -o "$tmp/t" ${cmd[$name]} >"$tmp/out"
			t1=$EPOCHREALTIME
			echo "$name $(((${t1/./} - ${t0/./}) / 1000))e-3 $(cat "$tmp/t")" >>"$tmp/$set.times"
		done
	done
	python3 - "$tmp/$set.times" "$set" "$n_pats" "$want" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, user, sys_ = line.split()
    rows.setdefault(name, []).append((float(wall), float(user) + float(sys_)))
med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in rows.items()}
for name in ("acgrep", "acgrep-1", "acgrep-1-hash", "rg-2", "rg-1"):
    wall, cpu = med[name]
    peer = {"acgrep": "rg-2", "acgrep-1": "rg-1", "acgrep-1-hash": "rg-1"}.get(name)
    ratio = "%.2f" % (wall / med[peer][0]) if peer and med[peer][0] > 0 else ""
    print("| %s | %s | %s | %s | %.3f | %.3f | %s |" % (sys.argv[2], sys.argv[3], name, sys.argv[4], wall,
                                                  cpu, ratio))
EOF
done
