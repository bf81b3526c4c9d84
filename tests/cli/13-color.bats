#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --color / --colour and GREP_COLORS.

load helpers

col_setup() {
	fixture in 'a foo b foo\nbar\nfoo\nbaz\nqux\nxfoo\n'
	fixture b 'foo\n'
}

@test "color: --color=always default colors, exact bytes" {
	col_setup
	in_both_locales same_as_grep --color=always foo in
	expect 0 'a \033[01;31m\033[Kfoo\033[m\033[K b \033[01;31m\033[Kfoo\033[m\033[K\n\033[01;31m\033[Kfoo\033[m\033[K\nx\033[01;31m\033[Kfoo\033[m\033[K\n' -- -F --color=always foo in
}

@test "color: file name, line number, byte offset and separators, exact bytes" {
	fixture c 'a foo\n'
	expect 0 '\033[35m\033[Kc\033[m\033[K\033[36m\033[K:\033[m\033[K\033[32m\033[K1\033[m\033[K\033[36m\033[K:\033[m\033[K\033[32m\033[K0\033[m\033[K\033[36m\033[K:\033[m\033[Ka \033[01;31m\033[Kfoo\033[m\033[K\n' -- -F --color=always -H -n -b foo c
	in_both_locales same_as_grep --color=always -H -n -b foo c
}

@test "color: --colour spelling and --color=never" {
	col_setup
	in_both_locales same_as_grep --colour=always foo in
	in_both_locales same_as_grep --color=never foo in
	expect 0 'a foo b foo\nfoo\nxfoo\n' -- -F --color=never foo in
}

@test "color: --color=auto and bare --color on a non-tty give no color" {
	col_setup
	in_both_locales same_as_grep --color=auto foo in
	in_both_locales same_as_grep --color foo in
	expect 0 'a foo b foo\nfoo\nxfoo\n' -- -F --color=auto foo in
}

@test "color: NO_COLOR with --color=auto on a non-tty: no color" {
	col_setup
	NO_COLOR=1 in_both_locales same_as_grep --color=auto foo in
	NO_COLOR=1 expect 0 'a foo b foo\nfoo\nxfoo\n' -- -F --color=auto foo in
}

@test "color: NO_COLOR does not override --color=always" {
	col_setup
	NO_COLOR=1 in_both_locales same_as_grep --color=always foo in
}

@test "color: later --color option wins" {
	col_setup
	in_both_locales same_as_grep --color=always --color=never foo in
	in_both_locales same_as_grep --color=never --color=always foo in
}

@test "color: invalid --color argument: no search is done" {
	# grep 3.8 quirk: it prints the --help text on stdout and exits 0, so
	# only check that no search happened (status and text not compared).
	col_setup
	run_ac -F --color=sometimes foo in
	if "$GREP" -q -F 'a foo b' "$OUTD/ac.out"; then
		fail "searched despite an invalid --color argument"
	fi
}

@test "color: WHEN aliases yes/force/tty/if-tty/no/none" {
	col_setup
	local w
	for w in yes force always tty if-tty auto no none never; do
		in_both_locales same_as_grep --color="$w" foo in
	done
}

@test "color: context lines, separators, -n -H" {
	col_setup
	in_both_locales same_as_grep --color=always -n -C 1 foo in
	in_both_locales same_as_grep --color=always -H -b -A 1 foo in b
	in_both_locales same_as_grep --color=always --group-separator=XX -A 0 foo in
}

@test "color: -o with color" {
	col_setup
	in_both_locales same_as_grep --color=always -o foo in
	in_both_locales same_as_grep --color=always -o -n -b foo in b
}

@test "color: -v with color" {
	col_setup
	in_both_locales same_as_grep --color=always -v foo in
	in_both_locales same_as_grep --color=always -v -n foo in
	in_both_locales same_as_grep --color=always -v -C 1 foo in
}

@test "color: -c, -l, -L with color" {
	col_setup
	in_both_locales same_as_grep --color=always -c foo in b
	in_both_locales same_as_grep --color=always -l foo in b
	in_both_locales same_as_grep --color=always -L bar in b
	in_both_locales same_as_grep --color=always -l -Z foo in b
}

@test "color: GREP_COLORS ms and mc" {
	col_setup
	GREP_COLORS='ms=04;32' in_both_locales same_as_grep --color=always -C 1 foo in
	GREP_COLORS='mc=01;33' in_both_locales same_as_grep --color=always -v -C 1 foo in
	GREP_COLORS='ms=4' expect 0 '\033[4m\033[Kfoo\033[m\033[K\n' -- -F --color=always foo b
}

@test "color: GREP_COLORS mt sets both ms and mc" {
	col_setup
	GREP_COLORS='mt=01;34' in_both_locales same_as_grep --color=always -C 1 foo in
	GREP_COLORS='mt=01;34' in_both_locales same_as_grep --color=always -v -C 1 foo in
	GREP_COLORS='mt=7:ms=4' in_both_locales same_as_grep --color=always foo in
}

@test "color: GREP_COLORS sl and cx" {
	col_setup
	GREP_COLORS='sl=1:cx=2' in_both_locales same_as_grep --color=always -C 1 foo in
	GREP_COLORS='sl=1:cx=2' in_both_locales same_as_grep --color=always -v -A 1 foo in
	GREP_COLORS='sl=1' in_both_locales same_as_grep --color=always -o foo in
}

@test "color: GREP_COLORS rv swaps sl and cx under -v" {
	col_setup
	GREP_COLORS='sl=1:cx=2:rv' in_both_locales same_as_grep --color=always -v -C 1 foo in
	GREP_COLORS='sl=1:cx=2:rv' in_both_locales same_as_grep --color=always -C 1 foo in
}

@test "color: GREP_COLORS fn ln bn se" {
	col_setup
	GREP_COLORS='fn=1:ln=2:bn=3:se=4' in_both_locales same_as_grep --color=always -H -n -b -C 1 foo in
	GREP_COLORS='fn=1:ln=2:bn=3:se=4' in_both_locales same_as_grep --color=always -c foo in b
	GREP_COLORS='fn=1:se=4' in_both_locales same_as_grep --color=always -o -H -n foo in
}

@test "color: GREP_COLORS ne drops the erase-line sequence" {
	col_setup
	GREP_COLORS='ne' in_both_locales same_as_grep --color=always -H -n foo in
	GREP_COLORS='ne' expect 0 '\033[01;31mfoo\033[m\n' -- -F --color=always foo b
}

@test "color: GREP_COLORS empty capabilities disable those colors" {
	col_setup
	GREP_COLORS='ms=:fn=:ln=:se=' in_both_locales same_as_grep --color=always -H -n foo in
	GREP_COLORS='' in_both_locales same_as_grep --color=always -H foo in
}

@test "color: GREP_COLORS with junk and unknown capabilities" {
	col_setup
	GREP_COLORS='zz=1:ms=1' in_both_locales same_as_grep --color=always foo in
	GREP_COLORS='ms=1:garbage' in_both_locales same_as_grep --color=always foo in
	GREP_COLORS=':::' in_both_locales same_as_grep --color=always -n foo in
}

@test "color: GREP_COLOR (deprecated) still sets the match color" {
	col_setup
	GREP_COLOR='01;32' in_both_locales same_as_grep --color=always foo in
	GREP_COLOR='01;32' GREP_COLORS='ms=4' in_both_locales same_as_grep --color=always foo in
}

@test "color: -i matches colored in the text's own case" {
	fixture in 'FoO foo\n\303\211t\303\251\n'
	in_both_locales same_as_grep --color=always -i foo in
	in_both_locales same_as_grep --color=always -i $'\xc3\xa9' in
}

@test "color: overlapping patterns are colored leftmost-longest" {
	fixture in 'ushers hishe\n'
	in_both_locales same_as_grep --color=always -e he -e she -e his -e hers in
}

@test "color: -w and -x with color" {
	fixture in 'foobar foo\nfoo\n'
	in_both_locales same_as_grep --color=always -w foo in
	in_both_locales same_as_grep --color=always -x foo in
}

@test "color: the empty pattern with color" {
	fixture in 'foo\n\n'
	in_both_locales same_as_grep --color=always '' in
	in_both_locales same_as_grep --color=always -e '' -e oo in
}

@test "color: -z with color" {
	fixture in 'foo\000bar\000xfoo'
	in_both_locales same_as_grep --color=always -z foo in
	in_both_locales same_as_grep --color=always -z -n -A 1 foo in
}

@test "color: with -m and trailing context" {
	col_setup
	in_both_locales same_as_grep --color=always -m 1 -A 2 foo in
}

@test "color: -x -w where grep uses its regex matcher colours the line end" {
	fixture xw 'AA\nxAA\n\nA.A\nss\nAA'
	# grep's regex matcher (one distinct pattern in the C locale, an
	# invalid or specially folded pattern in UTF-8) counts the terminator
	# as part of a -x -w match, also with -o; its kwset matcher does not
	LC_ALL=C expect 0 '\033[01;31m\033[KAA\n\033[m\033[K\033[01;31m\033[KAA\n\033[m\033[K' -- -F -x -w --color=always AA xw
	LC_ALL=C expect 0 'AA\n\nAA\n\n' -- -F -x -w -o -e AA -e AA xw
	LC_ALL=C expect 0 '\n\n' -- -F -x -w -o '' xw
	LC_ALL=C.UTF-8 expect 0 'AA\nAA\n' -- -F -x -w -o AA xw
	LC_ALL=C.UTF-8 expect 0 'ss\n\n' -- -F -x -w -o -i ss xw
	for args in "-x -w AA" "-x -w -o -b AA" "-x -w -o -e AA -e AA" "-x -w -o A.A" \
		"-x -w -o ''" "-x -w -o -e '' -e AA" "-x -w -i -e AA -e aa" "-x -w -v -C1 AA" \
		"-z -x -w -o AA" "-x -w -n -i aa" "-x -w -i -o -e ss -e AA" "-x -w -o -e \$'\\xff' -e AA"; do
		eval "in_both_locales same_as_grep --color=always $args xw"
		eval "in_both_locales same_as_grep $args xw"
	done
}
