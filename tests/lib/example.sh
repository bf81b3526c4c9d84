#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example.sh - libacgrep through its example program (examples/count_patterns.c):
# exact outputs in both modes and with -i, counts on the bundled log as
# grep -o counts them, and the libraries' exported symbols.  TAP output.
#
# Usage: tests/lib/example.sh EXAMPLE EXAMPLE_STATIC [LIB.so LIB.a]
# EXAMPLE is linked against the shared library (LD_LIBRARY_PATH finds it);
# without the libraries, their symbol checks are left out.
set -u
cd "$(dirname "$0")/../.."
bins=("$1" "$2")
so=${3:-} a=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 st=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; st=1; }
check() { # NAME EXPECTED COMMAND...
	local name=$1 want=$2 got
	shift 2
	got=$("$@" 2>&1) && [[ $got == "$want" ]] && ok "$name" ||
		{ not_ok "$name"; printf '# want: %q\n#  got: %q\n' "$want" "$got"; }
}

printf 'he\nshe\nhis\nhers\n' >"$tmp/pats"
printf 'ushers\nHIS hers\n' >"$tmp/text"
for b in "${bins[@]}"; do
	check "$b: leftmost-longest" $'1\tshe\n1\thers' "$b" "$tmp/pats" "$tmp/text"
	check "$b: overlapping (-a)" $'2\the\n1\tshe\n2\thers' "$b" -a "$tmp/pats" "$tmp/text"
	check "$b: -i" $'1\tshe\n1\this\n1\thers' "$b" -i "$tmp/pats" "$tmp/text"
	check "$b: -a -i, from stdin" $'2\the\n1\tshe\n1\this\n2\thers' \
		sh -c '"$1" -a -i "$2" <"$3"' sh "$b" "$tmp/pats" "$tmp/text"
done

# grep -o prints the leftmost-longest matches: the same counts per pattern
want=$(LC_ALL=C grep -o -F -f examples/iocs.txt examples/access.log | LC_ALL=C sort | uniq -c |
	awk '{ c = $1; sub(/^ *[0-9]+ /, ""); print c "\t" $0 }' | LC_ALL=C sort)
got=$("${bins[0]}" examples/iocs.txt examples/access.log | LC_ALL=C sort)
[[ -n $want && $got == "$want" ]] && ok "counts on examples/access.log as grep -o's" ||
	{ not_ok "counts on examples/access.log as grep -o's"; diff <(echo "$want") <(echo "$got") | head | sed 's/^/# /'; }

if [[ -n $so ]]; then
	# only the functions of acgrep.h leave the libraries
	others=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ && $3 !~ /^acgrep_/')
	funcs=$(nm -D --defined-only "$so" | awk '$3 ~ /^acgrep_/ { n++ } END { print n + 0 }')
	[[ -z $others && $funcs -ge 7 ]] && ok "$so exports acgrep_* alone ($funcs)" ||
		{ not_ok "$so exports acgrep_* alone"; echo "# others: $others; acgrep_*: $funcs"; }
	soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
	[[ $soname == libacgrep.so.0 ]] && ok "soname $soname" || not_ok "soname '$soname'"
	# (i386's PIC helpers, hidden COMDAT functions, stay global)
	others=$(nm --defined-only -g "$a" | awk 'NF == 3 && $3 !~ /^(acgrep_|__x86\.get_pc_thunk\.)/')
	[[ -z $others ]] && ok "$a defines acgrep_* alone" || { not_ok "$a defines acgrep_* alone"; echo "# $others"; }
fi
echo "1..$n"
exit $st
