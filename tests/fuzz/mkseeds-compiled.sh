#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mkseeds-compiled.sh - seeds for fuzz_compiled: small compiled pattern
# sets, each after the option byte that loads it (fuzz_compiled.c's
# layout), written by ./acgrep --save-compiled (or $ACGREP) into
# tests/fuzz/corpus/compiled/, named by a hash of their contents.
#
# One set per option combination and scan path, small enough to commit:
# the Teddy, memchr and DFA paths need no prefilter table, the bitmap
# path adds 8 KiB and the hash path 32 KiB (two seeds: stride 1, and a
# stride of 4 over 7-byte patterns).  Each seed
# also comes with the reseal bit set, so that changes the fuzzer makes go
# past the checksum.  Three sets carry tags (--tagged-file before -f:
# tagged and untagged patterns, one holding NUL).  Four are -E/-G sets
# (anchors, -w, and -i's fold over literals in UTF-8).  Usage:
# tests/fuzz/mkseeds-compiled.sh [REPO_ROOT]
set -eu
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
acgrep=${ACGREP:-$root/acgrep}
out=$root/tests/fuzz/corpus/compiled
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

printf 'he\nshe\nhis\nhers\n' >"$tmp/words"
printf 'foo\nbar\nfoo_bar\n\n' >"$tmp/empty"
printf '\303\251t\303\251\nstra\303\237e\n\341\262\200x\na\377z\nK\n' >"$tmp/utf8"
printf 'a\0b\ncd\n' >"$tmp/nul"
printf 'needle\n' >"$tmp/one"
printf 'she\nhis\nhers\n' >"$tmp/three"
printf 'needles\nhaystack\n' >"$tmp/long"
printf 'evil\tshe\nphish\this\nevil\t\they\n' >"$tmp/tags"
printf 'nul\ta\0b\nx\tcd\n' >"$tmp/nul-tags"
printf '^he|she$\nh(is|ers)\n(a\0b|cd)x\n' >"$tmp/regex"
printf '\303\251(t|x)\n^stra\303\237e$\n\341\262\200(x|y)\na\377(z|q)\n' >"$tmp/utf8-regex"

# seed OPTION_BYTE PATTERN_FILE ACGREP_OPTIONS...: the set, and the same
# with the reseal bit (64).
seed() {
	local byte=$1 pats=$2 h
	shift 2
	LC_ALL=$([[ $((byte & 16)) != 0 ]] && echo C.UTF-8 || echo C) \
		"$acgrep" "$@" --save-compiled="$tmp/set" -f "$pats"
	for b in "$byte" $((byte | 64)); do
		# shellcheck disable=SC2059
		{ printf "\\$(printf '%03o' "$b")"; cat "$tmp/set"; } >"$tmp/seed"
		h=$(sha256sum "$tmp/seed" | cut -c1-16)
		mv "$tmp/seed" "$out/$h"
	done
}

seed 0 "$tmp/words"
seed 1 "$tmp/words" -i
seed 2 "$tmp/words" -w
seed 4 "$tmp/words" -x
seed 6 "$tmp/words" -w -x
seed 0 "$tmp/empty"
seed 17 "$tmp/utf8" -i
seed 18 "$tmp/utf8" -w
seed 0 "$tmp/nul"
seed 32 "$tmp/nul" -a
seed 8 "$tmp/nul" -z
seed 0 "$tmp/one" --scan-path=memchr
seed 128 "$tmp/words" --scan-path=dfa
seed 0 "$tmp/words" --scan-path=teddy
seed 1 "$tmp/words" -i --scan-path=bitmap
seed 0 "$tmp/three" --scan-path=hash
seed 1 "$tmp/long" -i --scan-path=hash
seed 0 "$tmp/words" --tagged-file="$tmp/tags"
seed 17 "$tmp/utf8" -i --tagged-file="$tmp/tags"
seed 0 "$tmp/one" --tagged-file="$tmp/nul-tags"
seed 0 "$tmp/regex" -E
seed 2 "$tmp/regex" -w -E
seed 32 "$tmp/regex" -a -E
seed 17 "$tmp/utf8-regex" -i -E
echo "mkseeds-compiled: $(find "$out" -type f | wc -l) seeds in $out"
