#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# layout.sh - the house rules a machine can check, over src/:
#   - every layer includes only its own headers and those below it
#     (engine < grep < cli), and so does every folder of src/grep (the
#     order below), each with a README.md and at most 3,000 lines;
#   - no file over 600 lines; no function over 80 lines, except the flat
#     option switches (a function whose body is one switch of cases);
#   - exit() only in src/cli; the -z line terminator written in one place;
#   - struct config read only in src/cli, options/ and the files listed;
#   - every bats file in tests/cli its own number;
#   - every source file (C, shell, Python, bats, make) an SPDX licence line;
#   - and, through tests/docs_check.sh, no machine path in the docs.
# Prints one "not ok" line per breach and exits 1, or "ok layout".
set -u
cd "$(dirname "$0")/.."
st=0
fail() { echo "not ok layout: $*"; st=1; }

# Inside src/grep, folders in the same way, lowest first (each folder's
# README.md says what it owns): a file includes its own folder's headers by
# name and a lower folder's as "folder/name.h", never a higher folder's.
grep_folders=(options decompress input fold regex match compiled search output run scaleout)
# (no command per file or include: its 1,600 forks took 2 minutes on a loaded machine)
declare -A layer_of rank=([engine]=0 [grep]=1 [cli]=2) folder_rank=()
for i in "${!grep_folders[@]}"; do folder_rank[${grep_folders[i]}]=$i; done
for h in src/engine/*.h src/cli/*.h; do d=${h#src/} layer_of[${h##*/}]=${d%%/*}; done
for h in src/grep/*/*.h; do g=${h#src/grep/} layer_of[$g]=grep; done
for d in src/grep/*/; do
	d=${d%/} d=${d##*/}
	[[ -n ${folder_rank[$d]:-} ]] || fail "src/grep/$d is not in layout.sh's folder order"
	lines=$(cat src/grep/$d/*.[ch] | wc -l)
	((lines <= 3000)) || fail "src/grep/$d has $lines lines (at most 3,000)"
done
# Each folder's README.md: a row "| `FILE` | ... |" for each of its files,
# none for a file it lacks.
readme_row='^\| `([^`]+)` \|'
for d in src/engine src/cli src/grep/*/; do
	d=${d%/}
	[[ -f $d/README.md ]] || { fail "$d has no README.md"; continue; }
	declare -A row=()
	while IFS= read -r line; do
		[[ $line =~ $readme_row ]] || continue
		f=${BASH_REMATCH[1]}
		[[ -n ${row[$f]:-} ]] && fail "$d/README.md has two rows for $f"
		row[$f]=1
		[[ -e $d/$f ]] || fail "$d/README.md has a row for $f, which $d lacks"
	done <"$d/README.md"
	for f in "$d"/*; do
		f=${f##*/}
		[[ $f == README.md || -n ${row[$f]:-} ]] || fail "$d/$f has no row in $d/README.md"
	done
	unset row
done
[[ -z $(compgen -G 'src/grep/*.[ch]') ]] || fail "files at src/grep's top: $(echo src/grep/*.[ch]) (each belongs in a folder)"
for f in src/*/*.[ch] src/grep/*/*.[ch]; do
	d=${f#src/} d=${d%%/*} own=
	[[ $d == grep ]] && { own=${f#src/grep/} own=${own%%/*}; }
	mapfile -t text <"$f"
	for line in "${text[@]}"; do
		[[ $line =~ ^#include\ \"([^\"]*)\" ]] || continue
		h=${BASH_REMATCH[1]}
		[[ -n $own && $h != */* && -f src/grep/$own/$h ]] && continue
		hl=${layer_of[$h]:-}
		[[ -z $hl ]] && fail "$f includes \"$h\", found in no layer (another folder's header is \"folder/name.h\")" && continue
		((rank[$hl] <= rank[$d])) || fail "$f ($d) includes $hl's $h"
		if [[ -n $own && $h == */* ]]; then
			hf=${h%%/*}
			((folder_rank[$hf] < folder_rank[$own])) ||
				fail "$f (src/grep/$own) includes $h: a folder includes only lower ones (${grep_folders[*]})"
		fi
	done
	((${#text[@]} <= 600)) || fail "$f has ${#text[@]} lines (at most 600)"
done

# Top-level function bodies: from a line opening with "{" to the next
# line that is "}"; a body whose first statement is a switch and that
# holds mostly case labels is a flat option switch.
for f in src/*/*.c src/grep/*/*.c; do
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

exits=$(grep -n '\bexit *(' src/engine/*.[ch] src/grep/*/*.[ch] | grep -v '^\S*: *\*\|/\*.*exit *(.*\*/')
[[ -z $exits ]] || fail "exit() outside src/cli: $exits"
eol=$(grep -rn "null_data ?" src | wc -l)
(( eol <= 1 )) || fail "the -z terminator is written in $eol places: $(grep -rln 'null_data ?' src | tr '\n' ' ')"

# struct config is read in src/cli and in options/ alone: every module
# below takes the narrow options built for it in src/cli/narrow.c (the
# output print_options.h's, the search search_options.h's, the matcher
# matcher_spec, the run run_options.h's, scale-out scaleout_options.h's,
# the walk walk_options), so that a module's inputs are what its header
# says.
for f in $(grep -lE '\<cfg\>|struct config\>' src/engine/*.[ch] src/grep/*/*.[ch]); do
	[[ $f == src/grep/options/* ]] ||
		fail "$f reads struct config: a module below src/cli takes its narrow options (src/cli/narrow.h)"
done

# Bats files: each its own number (NN-name.bats), so that an order and a
# name can be said of each.
dup=$(for f in tests/cli/*.bats; do f=${f##*/}; echo "${f%%-*}"; done | sort | uniq -d | tr '\n' ' ')
[[ -z $dup ]] || fail "tests/cli: bats files share the numbers $dup"

# Every source file says its licence in its first lines (LICENSE: MIT).
spdx_missing=$(find src tests scripts python contrib examples debian .ci Makefile -path tests/fuzz/corpus -prune -o \
	-type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.bash' -o -name '*.bats' -o -name '*.py' -o -name '*.pyi' \
	-o -name '*.zsh' -o -name rules -o -name run -o -name Makefile \) -print0 |
	xargs -0 awk 'FNR == 1 { seen[FILENAME] = 1 } FNR <= 3 && /SPDX-License-Identifier: MIT/ { ok[FILENAME] = 1 }
		FNR > 3 { nextfile } END { for (f in seen) if (!(f in ok)) printf "%s ", f }')
[[ -z $spdx_missing ]] || fail "no SPDX-License-Identifier line in the first 3 lines of: $spdx_missing"

(( st == 0 )) && echo "ok layout"
tests/docs_check.sh || st=1
exit $st
