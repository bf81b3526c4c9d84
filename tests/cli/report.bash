# report.bash - what the tests of acgrep's reports (--json, --stats) share:
# outputs compared with the times they hold masked.  A test file loads it
# after helpers and defines mask_times (a filter: the times zeroed) and
# VARIANTS (the option sets same_everywhere tries).

# expect_masked: the last run_ac's stdout, times masked, is exactly stdin.
expect_masked() {
	mask_times <"$OUTD/ac.out" >"$OUTD/ac.masked"
	cat >"$OUTD/expected"
	if ! cmp -s "$OUTD/expected" "$OUTD/ac.masked"; then
		{
			echo "stdout is not as expected: $(_ac_where)"
			diff "$OUTD/expected" "$OUTD/ac.masked"
			cat "$OUTD/ac.err"
		} | fail
		return 1
	fi
}

# same_everywhere ARGS...: acgrep ARGS gives the same stdout (times masked),
# stderr and status in C and C.UTF-8 and with every VARIANTS entry.
same_everywhere() {
	local ref st v loc
	run_ac "$@"
	ref=$(mask_times <"$OUTD/ac.out"; cat "$OUTD/ac.err")
	st=$ac_status
	for loc in C C.UTF-8; do
		for v in "${VARIANTS[@]}"; do
			# shellcheck disable=SC2086 # v is a word list
			LC_ALL=$loc run_ac $v "$@"
			if [[ $(mask_times <"$OUTD/ac.out"; cat "$OUTD/ac.err") != "$ref" || $ac_status != "$st" ]]; then
				echo "# differs under LC_ALL=$loc $v" >&2
				diff <(echo "$ref") <(mask_times <"$OUTD/ac.out"; cat "$OUTD/ac.err") | head -n 10 >&2
				return 1
			fi
		done
	done
}
