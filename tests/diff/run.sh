#!/usr/bin/env bash
# Randomized differential test of acgrep -F against GNU grep -F.
# Usage: tests/diff/run.sh   (env: ACGREP, GREP, DIFF_CASES, DIFF_SEED,
# DIFF_FIRST, DIFF_JOBS, DIFF_STDERR, DIFF_READPATH; see difftest.py)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=$(command -v python3 || true)
if [[ -z $py ]]; then
	echo "diff: python3 is required (apt-get install python3)" >&2
	exit 2
fi
exec "$py" "$here/difftest.py" "$@"
