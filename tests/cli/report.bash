# SPDX-License-Identifier: MIT
# report.bash - what the tests of acgrep's reports (--json, --stats) share:
# outputs compared with the times they hold masked.  A test file loads it
# after helpers and defines mask_times (a filter: the times zeroed) and
# VARIANTS (the option sets same_everywhere tries).

# expect_masked: the last run_ac's stdout, times masked, is exactly stdin.
expect_masked() {
	mask_times <"$OUTD/ac.out" >"$OUTD/ac.masked"
	cat >"$OUTD/expected"
	if ! same_bytes "$OUTD/expected" "$OUTD/ac.masked"; then
		{
			echo "stdout is not as expected: $(_ac_where)"
			diff "$OUTD/expected" "$OUTD/ac.masked"
			cat "$OUTD/ac.err"
		} | fail
		return 1
	fi
}

# same_everywhere ARGS...: acgrep ARGS gives the same stdout (times masked),
# stderr and status in C and C.UTF-8 and with every VARIANTS entry
# (untraced: helpers.bash).
same_everywhere() {
	untraced _same_everywhere "$@"
}

_same_everywhere() {
	local st v loc ref_err err
	run_ac "$@"
	mask_times <"$OUTD/ac.out" >"$OUTD/ref.out"
	IFS= read -r -d '' ref_err <"$OUTD/ac.err" || true
	st=$ac_status
	for loc in C C.UTF-8; do
		for v in "${VARIANTS[@]}"; do
			# shellcheck disable=SC2086 # v is a word list
			LC_ALL=$loc run_ac $v "$@"
			mask_times <"$OUTD/ac.out" >"$OUTD/ac.masked"
			IFS= read -r -d '' err <"$OUTD/ac.err" || true
			if ! same_bytes "$OUTD/ref.out" "$OUTD/ac.masked" || [[ $err != "$ref_err" || $ac_status != "$st" ]]; then
				echo "# differs under LC_ALL=$loc $v (status $ac_status, first run $st)" >&2
				diff "$OUTD/ref.out" "$OUTD/ac.masked" | head -n 10 >&2
				diff <(printf '%s' "$ref_err") "$OUTD/ac.err" | head -n 10 >&2
				return 1
			fi
		done
	done
}
