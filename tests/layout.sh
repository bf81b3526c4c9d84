#!/usr/bin/env bash
# layout.sh - the house rules a machine can check, over src/:
#   - every layer includes only its own headers and those below it
#     (engine < grep < cli);
#   - no file over 600 lines; no function over 80 lines, except the flat
#     option switches (a function whose body is one switch of cases);
#   - exit() only in src/cli; the -z line terminator written in one place;
#   - and, through tests/docs_check.sh, no machine path and no "session"
#     in the docs.
# Prints one "not ok" line per breach and exits 1, or "ok layout".
set -u
cd "$(dirname "$0")/.."
st=0
fail() { echo "not ok layout: $*"; st=1; }

# (no command per file or include: its 1,600 forks took 2 minutes on a loaded machine)
declare -A layer_of rank=([engine]=0 [grep]=1 [cli]=2)
for d in engine grep cli; do
	for h in src/$d/*.h; do layer_of[${h##*/}]=$d; done
done
for f in src/*/*.[ch]; do
	d=${f#src/} d=${d%%/*}
	mapfile -t text <"$f"
	for line in "${text[@]}"; do
		[[ $line =~ ^#include\ \"([^\"]*)\" ]] || continue
		h=${BASH_REMATCH[1]} hl=${layer_of[${BASH_REMATCH[1]}]:-}
		[[ -z $hl ]] && fail "$f includes \"$h\", found in no layer" && continue
		((rank[$hl] <= rank[$d])) || fail "$f ($d) includes $hl's $h"
	done
	((${#text[@]} <= 600)) || fail "$f has ${#text[@]} lines (at most 600)"
done

# Top-level function bodies: from a line opening with "{" to the next
# line that is "}"; a body whose first statement is a switch and that
# holds mostly case labels is a flat option switch.
for f in src/*/*.c; do
	awk -v file="$f" '
	/^[A-Za-z_]/ { head = $0 }
	/^\{$/ { start = NR; cases = 0; name = head; next }
	start && /^\tcase / { cases++ }
	start && /^\}$/ {
		len = NR - start - 1
		if (len > 80 && cases * 3 < len)
			printf "not ok layout: %s: %s is %d lines (at most 80)\n", file, name, len
		start = 0
	}' "$f"
done | grep . && st=1

exits=$(grep -n '\bexit *(' src/engine/*.[ch] src/grep/*.[ch] | grep -v '^\S*: *\*\|/\*.*exit *(.*\*/')
[[ -z $exits ]] || fail "exit() outside src/cli: $exits"
eol=$(grep -rn "null_data ?" src | wc -l)
(( eol <= 1 )) || fail "the -z terminator is written in $eol places: $(grep -rln 'null_data ?' src | tr '\n' ' ')"

(( st == 0 )) && echo "ok layout"
tests/docs_check.sh || st=1
exit $st
