#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The bundled sample (make demo): examples/iocs.txt over examples/access.log.

load helpers

setup() {
	common_setup
	LOG=$REPO_ROOT/examples/access.log
	IOCS=$REPO_ROOT/examples/iocs.txt
	[[ -f $LOG && -f $IOCS ]] || skip "examples not present"
}

@test "examples: iocs.txt has one pattern per line, no comments or blank lines" {
	run "$GREP" -c -E '^(#|$)' "$IOCS"
	assert_output 0
	[[ $(wc -l <"$IOCS") -ge 40 ]]
	# the file ends with a newline (no partial last pattern)
	[[ $(tail -c 1 "$IOCS" | od -An -c | tr -d ' ') == '\n' ]]
}

@test "examples: some indicators occur in the log and some do not" {
	"$GREP" -F -q -f "$IOCS" "$LOG"
	local absent
	absent=$("$GREP" -F -x -v -f <("$GREP" -F -o -f "$IOCS" "$LOG" | sort -u) "$IOCS" | wc -l)
	((absent > 0))
}

@test "examples: the demo command matches grep" {
	in_both_locales same_as_grep -n --color=always -f "$IOCS" "$LOG"
}

@test "examples: counts, -o, -w, -i, -v over the sample" {
	in_both_locales same_as_grep -c -f "$IOCS" "$LOG"
	in_both_locales same_as_grep -o -b -f "$IOCS" "$LOG"
	in_both_locales same_as_grep -w -n -f "$IOCS" "$LOG"
	in_both_locales same_as_grep -i -c -f "$IOCS" "$LOG"
	in_both_locales same_as_grep -v -c -f "$IOCS" "$LOG"
}

@test "examples: README.md's example commands run on the bundled sample" {
	skip_if_grep "the README uses acgrep's options"
	local cmds line
	cmds=$(awk '/^After `make demo`/ { f = 1 } f && /^```sh$/ { b = 1; next } b && /^```$/ { exit } b' \
		"$REPO_ROOT/README.md")
	[[ -n $cmds ]] || fail "README.md: no example block after 'After \`make demo\`'"
	cd "$REPO_ROOT"
	while IFS= read -r line; do
		run bash -o pipefail -c "${line//.\/acgrep/\"\$ACGREP\"}"
		[[ $status == 0 && -n $output ]] || fail "README.md: '$line': status $status, output: $output"
	done <<<"$cmds"
}
