#!/bin/sh
# SPDX-License-Identifier: MIT
# help_man_agree.sh - check that `acgrep --help` and man/acgrep.1 document
# the same long options.
#
# From --help: the option column (text before the first run of two spaces)
# of lines that start with spaces and a dash.  From the man page: the tag
# line after each .TP request.  Prose mentions are ignored on both sides.
# Usage: tests/help_man_agree.sh [ACGREP_BINARY]   (default ./acgrep)
# Exit status: 0 when the sets agree, 1 when they differ, 2 on setup trouble.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${ACGREP:-./acgrep}}
man="$root/man/acgrep.1"

if [ ! -x "$bin" ]; then
	echo "help_man_agree: $bin: not an executable (build it first)" >&2
	exit 2
fi
if [ ! -r "$man" ]; then
	echo "help_man_agree: $man: not readable" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$bin" --help >"$tmp/help.txt"; then
	echo "help_man_agree: '$bin --help' failed" >&2
	exit 2
fi

grep -E '^ +-' "$tmp/help.txt" |
	sed -E 's/^ +//; s/  .*//' |
	grep -oE -- '--[a-z0-9][a-z0-9-]*' |
	sort -u >"$tmp/help.opts" || true

awk 'tag { print; tag = 0; next } /^\.TP/ { tag = 1 }' "$man" |
	grep -oE -- '\\-\\-[a-z0-9]([a-z0-9]|\\-)*' |
	sed 's/\\-/-/g' |
	sort -u >"$tmp/man.opts" || true

for f in help man; do
	if [ ! -s "$tmp/$f.opts" ]; then
		echo "help_man_agree: no long options found in the $f text" >&2
		exit 2
	fi
done

only_help=$(comm -23 "$tmp/help.opts" "$tmp/man.opts")
only_man=$(comm -13 "$tmp/help.opts" "$tmp/man.opts")
if [ -n "$only_help" ] || [ -n "$only_man" ]; then
	[ -z "$only_help" ] || printf 'in --help but not in man/acgrep.1:\n%s\n' "$only_help" >&2
	[ -z "$only_man" ] || printf 'in man/acgrep.1 but not in --help:\n%s\n' "$only_man" >&2
	exit 1
fi
echo "help_man_agree: $(wc -l <"$tmp/help.opts") long options agree"
