#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Randomized differential test of acgrep -F against GNU grep -F: every
# case on acgrep and on its variants (--engine=pcre2, the read path with
# 1-byte reads, the scalar prefilters, three threads on tiny segments).
# Usage: tests/diff/run.sh   (env: ACGREP, GREP, DIFF_CASES, DIFF_SEED,
# DIFF_FIRST, DIFF_JOBS, DIFF_STDERR, DIFF_READPATH, DIFF_MAX_REPORTS,
# DIFF_VERBOSE, ACGREP_PCRE2; see difftest.py)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=$(command -v python3 || true)
if [[ -z $py ]]; then
	echo "diff: python3 is required (apt-get install python3)" >&2
	exit 2
fi
exec "$py" "$here/difftest.py" "$@"
