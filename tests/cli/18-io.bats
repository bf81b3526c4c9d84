#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The read path: --mmap / --no-mmap / --buffer-size (acgrep options that
# grep lacks: acgrep with them is compared with grep without them), and
# pipes, FIFOs and stdin, which work with both; --line-buffered, long lines
# across windows, and nothing reported after a write error.

load helpers

# Files that stress window boundaries: long lines, a line longer than the
# default read chunk, matches near 4 KiB/64 KiB/128 KiB offsets, no final
# newline, CRLF, empty.
io_setup() {
	: >empty
	fixture nonl 'foo\nbar foo'
	fixture crlf 'foo\r\nbar\r\nfoo bar\r\n'
	awk 'BEGIN { for (i = 1; i <= 6000; i++) printf "line %d %s\n", i, (i % 97 == 0 ? "foo" : "bar") }' >many
	head -c 70000 /dev/zero | tr '\0' x >"$OUTD/x70k"
	{
		cat "$OUTD/x70k"; printf 'foo\nbar\nfoo'
		cat "$OUTD/x70k"; printf '\n'
		cat "$OUTD/x70k"
	} >long
	awk 'BEGIN { for (i = 0; i < 40; i++) { for (j = 0; j < 4093; j++) printf "y"; printf "foo\n" } }' >edges
	head -c 200000 /dev/zero | tr '\0' z >"$OUTD/z200k"
	{ cat "$OUTD/z200k"; printf foo; cat "$OUTD/z200k"; printf '\nfoo\n'; } >huge_line
	IO_FILES=(empty nonl crlf many long edges huge_line)
}

@test "io: --mmap gives grep's output on several files" {
	skip_if_grep "--mmap"
	io_setup
	local f
	for f in "${IO_FILES[@]}"; do
		in_both_locales same_as_grep_with "--mmap" -n foo "$f"
		in_both_locales same_as_grep_with "--mmap" -c -v foo "$f"
	done
	in_both_locales same_as_grep_with "--mmap" -b -C 2 foo "${IO_FILES[@]}"
}

@test "io: --no-mmap gives grep's output on several files" {
	skip_if_grep "--no-mmap"
	io_setup
	local f
	for f in "${IO_FILES[@]}"; do
		in_both_locales same_as_grep_with "--no-mmap" -n foo "$f"
		in_both_locales same_as_grep_with "--no-mmap" -o -b foo "$f"
	done
	in_both_locales same_as_grep_with "--no-mmap" -b -C 2 foo "${IO_FILES[@]}"
}

@test "io: --mmap and --no-mmap agree with each other" {
	skip_if_grep "--mmap"
	io_setup
	run_ac --mmap -F -n -b -B 3 foo "${IO_FILES[@]}"
	cp "$OUTD/ac.out" "$OUTD/mmap.out"
	run_ac --no-mmap -F -n -b -B 3 foo "${IO_FILES[@]}"
	cmp "$OUTD/mmap.out" "$OUTD/ac.out"
}

@test "io: --no-mmap --buffer-size=1 matches grep (every read is one byte)" {
	skip_if_grep "--buffer-size"
	io_setup
	local f
	for f in empty nonl crlf many edges; do
		same_as_grep_with "--no-mmap --buffer-size=1" -n foo "$f"
		same_as_grep_with "--no-mmap --buffer-size=1" -B 2 -A 1 -b foo "$f"
	done
	same_as_grep_with "--no-mmap --buffer-size=1" -c foo long
	LC_ALL=C.UTF-8 same_as_grep_with "--no-mmap --buffer-size=1" -o -i FOO many
}

@test "io: small odd --buffer-size values" {
	skip_if_grep "--buffer-size"
	io_setup
	# grep once for all the sizes
	local -a sizes=()
	local n
	for n in 2 3 7 4095 65537; do
		sizes+=("--no-mmap --buffer-size=$n")
	done
	same_as_grep_each "${sizes[@]}" -- -n -C 1 foo many long nonl
	same_as_grep_each "${sizes[@]}" -- -z -c foo many
}

@test "io: --buffer-size=1 on stdin from a pipe" {
	skip_if_grep "--buffer-size"
	io_setup
	local g a
	g=$(cat many | "$GREP" -F -n -B 1 foo)
	a=$(cat many | "$ACGREP" --buffer-size=1 -F -n -B 1 foo)
	assert_equal "$a" "$g"
}

@test "io: --buffer-size=1 with -m leaves seekable stdin after the last selected line" {
	skip_if_grep "--buffer-size"
	fixture in 'a1\nb\na2\na3\nc\n'
	{ "$GREP" -F -m 2 a; echo REST; cat; } <in >"$OUTD/g.out"
	{ "$ACGREP" --no-mmap --buffer-size=1 -F -m 2 a; echo REST; cat; } <in >"$OUTD/a.out"
	cmp "$OUTD/g.out" "$OUTD/a.out"
}

@test "io: pipe: cat file | acgrep" {
	io_setup
	local f args
	for f in nonl crlf many long edges huge_line; do
		for args in "-n foo" "-c foo" "-b -o foo" "-v -c foo" "-C 1 foo"; do
			# shellcheck disable=SC2086
			cat "$f" | { "$GREP" -F $args && echo rc=0 || echo "rc=$?"; } >"$OUTD/g.out"
			# shellcheck disable=SC2086
			cat "$f" | { "$ACGREP" -F $args && echo rc=0 || echo "rc=$?"; } >"$OUTD/a.out"
			cmp "$OUTD/g.out" "$OUTD/a.out" || fail "pipe differs: $f $args"
		done
	done
}

@test "io: pipe with -H and --label" {
	fixture in 'foo\n'
	local g a
	g=$(cat in | "$GREP" -F -H --label=pipe foo)
	a=$(cat in | "$ACGREP" -F -H --label=pipe foo)
	assert_equal "$a" "$g"
	assert_equal "$a" "pipe:foo"
}

@test "io: stdin redirected from a regular file" {
	io_setup
	SAG_STDIN=many in_both_locales same_as_grep -n -A 1 foo
	SAG_STDIN=huge_line in_both_locales same_as_grep -c foo
}

@test "io: FIFO operand" {
	io_setup
	mkfifo fifo
	# (timeout is only a safety net against a reader that never opens it)
	timeout 120 cat many >fifo &
	timeout 120 "$GREP" -F -n foo fifo >"$OUTD/g.out"
	wait
	timeout 120 cat many >fifo &
	timeout 120 "$ACGREP" -F -n foo fifo >"$OUTD/a.out" || true
	wait || true
	cmp "$OUTD/g.out" "$OUTD/a.out"
}

@test "io: --line-buffered gives the same output" {
	io_setup
	in_both_locales same_as_grep --line-buffered -n foo many
	local g a
	g=$(cat many | "$GREP" -F --line-buffered foo | head -n 3)
	a=$(cat many | "$ACGREP" -F --line-buffered foo | head -n 3)
	assert_equal "$a" "$g"
}

@test "io: before-context across long lines and window edges" {
	io_setup
	in_both_locales same_as_grep -B 5 -n foo edges
	in_both_locales same_as_grep -B 2 -A 2 -b foo long
}

@test "io: a line longer than any buffer, match at its very end" {
	io_setup
	in_both_locales same_as_grep -c foo huge_line
	in_both_locales same_as_grep -o -b foo huge_line
}

@test "io: the same input file twice and stdin that is also a file operand" {
	io_setup
	SAG_STDIN=many in_both_locales same_as_grep -c foo many - many
}

@test "io: --mmap searches a last line without newline on its own, as grep" {
	# grep searches an unterminated last line in a buffer of its own, so
	# after a selected line suppressed for an encoding error its pending
	# context starts there, not at the file's start (found by fuzz_cli)
	skip_if_grep "--mmap"
	local t
	for t in 'a\no\220' 'a\nb\no\220' 'o\220\na\no\220' 'a\n\220o\n' 'b\no\220\nc\220o'; do
		fixture e "$t"
		note_case "text '$t'" in_both_locales same_as_grep_with "--mmap" -A 1 o e
		note_case "text '$t'" in_both_locales same_as_grep_with "--mmap" -C 1 -n o e
		note_case "text '$t'" in_both_locales same_as_grep_with "--mmap" -v -A 1 b e
	done
	fixture z '\000o\220'
	in_both_locales same_as_grep_with "--mmap" -z -A 1 o z
	fixture n 'a\nfoo\000'
	in_both_locales same_as_grep_with "--mmap" -c foo n
	in_both_locales same_as_grep_with "--mmap" -n a n
}

# grep exits at its write error; acgrep's run is over there too: the later
# inputs' errors are not reported (the held "a:foo" fails at the flush
# before the message about "missing").
@test "io: nothing is reported after a write error" {
	skip_if_grep
	fixture a 'foo\n'
	local t
	for t in 1 2; do
		ac_status=0 ac_command="acgrep --threads=$t -F foo a missing a missing >/dev/full"
		"$ACGREP" --threads=$t -F foo a missing a missing >/dev/full 2>"$OUTD/ac.err" || ac_status=$?
		expect_status 2
		[[ $(_norm_stderr "$OUTD/ac.err") == "PROG: write error: No space left on device" ]] ||
			fail "--threads=$t: stderr $(cat "$OUTD/ac.err")"
	done
}
