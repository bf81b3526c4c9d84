#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs_check.sh - the docs are references: they name no path of the machine
# that wrote or measured them.
#
# Usage: tests/docs_check.sh [ROOT]   (default: the repository holding this script)
#
# Over ROOT's *.md, docs/**/*.md and man/*: an absolute path under /work,
# /tmp, /root or /home (write a variable or a relative path instead:
# $ACGREP_BENCH_DIR/linux, $TMPDIR/out, "a checkout of the Linux tree").
# Prints one "not ok docs: FILE:LINE: TEXT" line per hit and exits 1, or
# prints "ok docs".  Run by tests/layout.sh.
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2
shopt -s nullglob globstar
files=(*.md docs/**/*.md man/*)
((${#files[@]})) || { echo "not ok docs: no *.md, docs/ or man/ under $PWD"; exit 1; }
machine_path='(^|[^[:alnum:]_.~$}/-])/(work|tmp|root|home)([^[:alnum:]_-]|$)'
hits=$(grep -HnE "$machine_path" "${files[@]}")
if [[ -n $hits ]]; then
	sed 's/^/not ok docs: /' <<<"$hits"
	exit 1
fi
echo "ok docs"
