#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check.sh - runs test suites one after another and sums them up: what
# `make check` and `make check-cross` print.
#
# Usage: tests/check.sh LOGDIR NAME=COMMAND...
#
# Every suite runs, whatever the ones before it did.  A suite's output goes
# to LOGDIR/NAME.log; the terminal gets one line per suite, then a table
# (suite, passed, failed, skipped, seconds), the failing tests, and last a
# line "N passed, N failed" counting tests across the suites.  A suite whose
# tests all skipped (m32 where 32-bit programs cannot run) says "skipped"
# and the first skip's reason.  Exit status: 0 when no test failed, 1
# otherwise.
#
# How a suite's tests are counted, from its log:
#   - TAP lines ("ok ...", "not ok ...", "ok ... # skip"): one test each
#     (bats, and `make unit`, which prints one per test program);
#   - else its last "N passed, N failed" line (the differential test), the
#     failing tests being its "FAIL ..." lines;
#   - else the suite is one test, passed when COMMAND exits 0 (a build).
# A suite that exits non-zero with no failing test counted (a crash, a
# missing tool) counts one failed test named after its status.
set -uo pipefail

if (($# < 2)); then
	echo "usage: $0 LOGDIR NAME=COMMAND..." >&2
	exit 2
fi
logdir=$1
shift
mkdir -p -- "$logdir" || exit 2

names=() passed=() failed=() skipped=() secs=()
failures=() # "suite: test name" lines
total_pass=0 total_fail=0 total_skip=0 t_all=$SECONDS

# count NAME LOG RC: sets p, f, s and appends failing tests to failures.
count() {
	local name=$1 log=$2 rc=$3 line
	p=0 f=0 s=0
	if grep -qE '^(not )?ok ' "$log"; then
		p=$(grep -E '^ok ' "$log" | grep -vcE '# (skip|SKIP)')
		s=$(grep -E '^ok ' "$log" | grep -cE '# (skip|SKIP)')
		f=$(grep -cE '^not ok ' "$log")
		while IFS= read -r line; do
			failures+=("$name: ${line#not ok }")
		done < <(grep -E '^not ok ' "$log")
	elif line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1) && [[ -n $line ]]; then
		p=${line%% passed*}
		f=${line#*, }
		f=${f%% failed*}
		local n=0
		while IFS= read -r line; do
			((++n <= 20)) && failures+=("$name: ${line#FAIL }")
		done < <(grep -E '^FAIL ' "$log")
		((n > 20)) && failures+=("$name: ... and $((n - 20)) more FAIL lines in $log")
	elif ((rc == 0)); then
		p=1
	else
		f=1
		failures+=("$name: exited with status $rc")
		return
	fi
	if ((rc != 0 && f == 0)); then
		f=1
		failures+=("$name: exited with status $rc, no failing test named (see the log)")
	fi
}

for suite in "$@"; do
	name=${suite%%=*}
	cmd=${suite#*=}
	log=$logdir/$name.log
	printf 'check: %-14s ... ' "$name"
	t0=$SECONDS
	bash -c "$cmd" </dev/null >"$log" 2>&1
	rc=$?
	count "$name" "$log" "$rc"
	dt=$((SECONDS - t0))
	if ((f)); then
		printf 'FAILED (%d passed, %d failed, %d s; log: %s)\n' "$p" "$f" "$dt" "$log"
	elif ((s && !p)); then
		why=$(grep -m 1 -oE '# (skip|SKIP).*' "$log")
		printf 'skipped (%s; %d s)\n' "$(sed -E 's/^# (skip|SKIP) *//' <<<"$why")" "$dt"
	elif ((s)); then
		printf 'ok (%d passed, %d skipped, %d s)\n' "$p" "$s" "$dt"
	else
		printf 'ok (%d passed, %d s)\n' "$p" "$dt"
	fi
	names+=("$name") passed+=("$p") failed+=("$f") skipped+=("$s") secs+=("$dt")
	total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + s))
done

echo
printf '%-14s %8s %8s %8s %8s\n' suite passed failed skipped seconds
for i in "${!names[@]}"; do
	printf '%-14s %8d %8d %8d %8d\n' "${names[i]}" "${passed[i]}" "${failed[i]}" "${skipped[i]}" "${secs[i]}"
done
printf '%-14s %8d %8d %8d %8d\n' total "$total_pass" "$total_fail" "$total_skip" $((SECONDS - t_all))
if ((total_fail)); then
	echo
	echo "failing tests (each suite's output is in $logdir/SUITE.log):"
	printf '  %s\n' "${failures[@]}"
fi
echo "$total_pass passed, $total_fail failed"
((total_fail == 0))
