#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Binary files: NUL bytes, encoding errors, -a, --binary-files, -I; a NUL
# late in a file and sparse files (holes), where every I/O path and thread
# count must go quiet, drop reads and resume context where grep's buffers do.

load helpers

bin_setup() {
	fixture bin 'foo\nbar\000\nfoo\n'
	fixture txt 'foo\n'
}

@test "binary: NUL in file: 'binary file matches' on stderr, no lines on stdout" {
	bin_setup
	in_both_locales same_as_grep foo bin
	run_ac -F foo bin
	expect_status 0
	expect_out ''
	expect_stderr_matches '^PROG: bin: binary file matches$'
}

@test "binary: NUL in file without a match: exit 1, no message" {
	bin_setup
	in_both_locales same_as_grep zzz bin
	run_ac -F zzz bin
	expect_status 1
	expect_no_stderr
}

@test "binary: message names the file among several" {
	bin_setup
	in_both_locales same_as_grep foo txt bin txt
	run_ac -F foo txt bin
	expect_status 0
	expect_out 'txt:foo\n'
}

@test "binary: stdin binary uses (standard input) or the --label" {
	bin_setup
	SAG_STDIN=bin in_both_locales same_as_grep foo
	SAG_STDIN=bin in_both_locales same_as_grep --label=LBL foo
	SAG_STDIN=bin run_ac -F foo
	expect_stderr_matches '^PROG: \(standard input\): binary file matches$'
}

@test "binary: -a prints the lines as text" {
	bin_setup
	in_both_locales same_as_grep -a foo bin
	in_both_locales same_as_grep -a bar bin
	expect 0 'bar\000\n' -- -F -a bar bin
	expect_no_stderr
}

@test "binary: --text and --binary-files=text" {
	bin_setup
	in_both_locales same_as_grep --text bar bin
	in_both_locales same_as_grep --binary-files=text bar bin
}

@test "binary: --binary-files=without-match and -I treat binary files as non-matching" {
	bin_setup
	in_both_locales same_as_grep --binary-files=without-match foo bin
	in_both_locales same_as_grep -I foo bin
	in_both_locales same_as_grep -I foo bin txt
	expect 1 '' -- -F -I foo bin
	expect_no_stderr
}

@test "binary: --binary-files=binary is the default" {
	bin_setup
	in_both_locales same_as_grep --binary-files=binary foo bin
	in_both_locales same_as_grep -a --binary-files=binary foo bin
}

@test "binary: invalid --binary-files argument" {
	bin_setup
	in_both_locales same_as_grep --binary-files=maybe foo bin
	run_ac -F --binary-files=maybe foo bin
	expect_status 2
}

@test "binary: -c on a binary file counts all matching lines, no message" {
	bin_setup
	in_both_locales same_as_grep -c foo bin
	expect 0 '2\n' -- -F -c foo bin
	expect_no_stderr
	in_both_locales same_as_grep -c -I foo bin
}

@test "binary: -l and -L on binary files" {
	bin_setup
	in_both_locales same_as_grep -l foo bin txt
	in_both_locales same_as_grep -L foo bin txt
	in_both_locales same_as_grep -L -I foo bin txt
}

@test "binary: -o, -n, -v, -A on a binary file" {
	bin_setup
	in_both_locales same_as_grep -o foo bin
	in_both_locales same_as_grep -n foo bin
	in_both_locales same_as_grep -v foo bin
	in_both_locales same_as_grep -A 1 foo bin
	in_both_locales same_as_grep -a -n -b -A 1 foo bin
}

@test "binary: -s does not hide the binary message" {
	bin_setup
	in_both_locales same_as_grep -s foo bin
}

@test "binary: -m 1 on a binary file" {
	bin_setup
	in_both_locales same_as_grep -m 1 foo bin
	in_both_locales same_as_grep -m 1 -c foo bin
}

@test "binary: file that is only NUL bytes" {
	fixture nul '\000\000\000'
	in_both_locales same_as_grep '' nul
	in_both_locales same_as_grep -c '' nul
	in_both_locales same_as_grep -a -c '' nul
}

@test "binary: -z: NUL is the terminator, not binary evidence" {
	bin_setup
	in_both_locales same_as_grep -z foo bin
	in_both_locales same_as_grep -z -c foo bin
}

@test "binary: invalid UTF-8 lines: C.UTF-8 suppresses them, C prints them" {
	fixture inv 'foo\nfoo\377\nfoo\n'
	in_both_locales same_as_grep -n foo inv
	LC_ALL=C expect 0 '1:foo\n2:foo\377\n3:foo\n' -- -F -n foo inv
	LC_ALL=C.UTF-8 expect 0 '1:foo\n3:foo\n' -- -F -n foo inv
	LC_ALL=C.UTF-8 expect_stderr_matches '^PROG: inv: binary file matches$'
}

@test "binary: invalid UTF-8 under -I: the line is left out, no message" {
	fixture inv 'Alfred Jones\nPedro P\351rez\nJohn Smith\n'
	local o
	for o in -I --binary-files=without-match "-I -n" "-I -o" "-I -c" "-I -v" "-I -A1"; do
		# shellcheck disable=SC2086
		in_both_locales same_as_grep $o e inv
		# shellcheck disable=SC2086
		in_both_locales same_as_grep $o '' inv
	done
	LC_ALL=C.UTF-8 expect 0 'Alfred Jones\nJohn Smith\n' -- -F -I '' inv
	expect_no_stderr
}

@test "binary: invalid UTF-8 only in a non-matching line is harmless" {
	fixture inv 'ok\nbad\377\nok\n'
	in_both_locales same_as_grep ok inv
	LC_ALL=C.UTF-8 run_ac -F ok inv
	expect_status 0
	expect_no_stderr
}

@test "binary: invalid UTF-8 in a context line" {
	fixture inv 'foo\nx\377\nfoo\ny\nz\n'
	in_both_locales same_as_grep -A 1 -n foo inv
	in_both_locales same_as_grep -C 1 foo inv
}

@test "binary: invalid UTF-8 with -o, -c, -v, -l" {
	fixture inv 'foo\nfoo\377\nbar\377\nfoo\n'
	in_both_locales same_as_grep -o foo inv
	in_both_locales same_as_grep -c foo inv
	in_both_locales same_as_grep -v foo inv
	in_both_locales same_as_grep -l foo inv
	in_both_locales same_as_grep -a foo inv
}

@test "binary: truncated and overlong UTF-8 sequences" {
	fixture inv 'a\303\nb\340\200\n\300\257c\n\355\240\200d\n\364\220\200\200e\nok\303\251\n'
	local p
	for p in a b c d e ok; do
		in_both_locales same_as_grep -n "$p" inv
	done
}

@test "binary: NUL late in a big file: the lines of grep's earlier buffers print, then the message" {
	# grep reads 96 KiB at a time and goes quiet from the buffer holding the
	# NUL; acgrep's read() path has the same buffers, and a mapping ends its
	# window before that buffer
	{
		seq 1 30000 | sed 's/^/foo /'
		printf '\000\nfoo\n'
	} >late
	local at
	for at in 98303 98304 98305 140000 196608; do
		{ head -c "$at" late; printf 'foo\000\n'; tail -c +"$((at + 1))" late; } >late2
		note_case "NUL at byte $at" in_both_locales same_as_grep foo late2 || return 1
		note_case "NUL at byte $at" in_both_locales same_as_grep -n -b foo late2 || return 1
		note_case "NUL at byte $at" in_both_locales same_as_grep -c foo late2 || return 1
		SAG_STDIN=late2 note_case "NUL at byte $at" same_as_grep -o foo || return 1
	done
	in_both_locales same_as_grep -n foo late
	local -a io=(--threads=1 --mmap '--mmap --threads=1' '--mmap --threads=3' '--no-mmap --threads=3')
	same_as_grep_each "${io[@]}" -- foo late
	same_as_grep_each "${io[@]}" -- -n -b foo late2
	same_as_grep_each "${io[@]}" -- -c -v foo late2
}

@test "binary: NUL late after lines of hundreds of bytes: every I/O path goes quiet where grep does" {
	# grep's reads stay at 96 KiB while the line it carries over fits in
	# the rest of its buffer's first page (DESIGN.md "Known differences")
	awk 'BEGIN { for (i = 0; i < 4000; i++) { s = sprintf("%d foo ", i);
		n = (i * 7919) % 600; for (j = 0; j < n; j++) s = s "y"; print s } }' >mid
	local at
	for at in 150000 400000 700000; do
		{ head -c "$at" mid; printf '\000'; tail -c +"$((at + 2))" mid; } >mid2
		local -a io=(--mmap --no-mmap '--mmap --threads=3' '--no-mmap --threads=2')
		note_case "NUL at byte $at" same_as_grep_each "${io[@]}" -- -n foo mid2 || return 1
		note_case "NUL at byte $at" same_as_grep_each "${io[@]}" -- -c foo mid2 || return 1
		note_case "NUL at byte $at" in_both_locales same_as_grep -b -o foo mid2 || return 1
	done
}

@test "binary: a NUL in the unfinished line of a read counts for that read, as grep's buffer" {
	# GNU grep's null-byte test: the NUL after the last newline is in the
	# buffer that holds "z", so "z" is not printed but earns the message
	{ echo xxx; yes yyy | head -n 100000; printf 'z\n\0'; } >in
	in_both_locales same_as_grep -e xxx -e z in
	in_both_locales same_as_grep -n -e xxx -e z in
	in_both_locales same_as_grep -c -e xxx -e z in
	SAG_STDIN=in same_as_grep -e xxx -e z
	same_as_grep_with --threads=1 -e xxx -e z in
	same_as_grep_with --mmap -e xxx -e z in
	same_as_grep_with '--mmap --threads=3' -n -e xxx -e z in
	LC_ALL=C expect 0 'xxx\n' -- -F -e xxx -e z in
	expect_stderr_matches '^PROG: in: binary file matches$'
}

@test "binary: without -a, NUL bytes act as line ends for matching (-x, -w)" {
	# GNU grep: "When type is 'binary', grep may treat non-text bytes as
	# line terminators even without the -z option."
	fixture nb 'xx\000b\nyy\n'
	fixture nb2 'ab\000cd\nab\n'
	in_both_locales same_as_grep -x b nb
	in_both_locales same_as_grep -c -x b nb
	in_both_locales same_as_grep -c -x cd nb2
	in_both_locales same_as_grep -c -x ab nb2
	in_both_locales same_as_grep -c -w b nb2
	in_both_locales same_as_grep -a -c -x cd nb2
	run_ac -F -c -x cd nb2
	expect_out '1\n'
	run_ac -F -a -c -x cd nb2
	expect_out '0\n'
}

@test "binary: a pattern containing NUL does not match across it unless -a" {
	fixture pats 'b\000c\n'
	fixture nb 'ab\000cd\n'
	in_both_locales same_as_grep -c -f pats nb
	in_both_locales same_as_grep -a -c -f pats nb
	expect 1 '0\n' -- -F -c -f pats nb
	expect 0 '1\n' -- -F -a -c -f pats nb
}

@test "binary: group separators around suppressed encoding-error lines" {
	local t
	for t in 'b\377\nb\377\nb\n' 'b\377\nb\n' 'b\377\na\377\nb\n' 'a\nb\377\nb\377\nb\n' 'b\nb\377\na\nb\n'; do
		fixture e "$t"
		note_case "text '$t'" in_both_locales same_as_grep -C 1 b e
		note_case "text '$t'" in_both_locales same_as_grep -A 1 -n b e
		note_case "text '$t'" in_both_locales same_as_grep -B 1 b e
	done
}

@test "binary: -v prints a run of selected lines in one go, suppressed lines included" {
	# grep checks for a group separator (and prints pending context from
	# the last printed line) once per run of -v lines, not once per line
	fixture r 'x\377\nab\nzz\n'
	in_both_locales same_as_grep -v -A 2 z r
	fixture s 'x\342\202b\naab\n\ra b\n b\nb\r\r\nc\n b\n   \r\na\300\257\n\303  b\na\342\202ba\n'
	in_both_locales same_as_grep -v -A 2 -e ' b' -e ' ' s
	in_both_locales same_as_grep -v -A 1 -n -e ' ' s
	in_both_locales same_as_grep -v -C 1 -e ' ' s
}

# A sparse file: grep takes a file with a hole as binary from its first
# buffer (SEEK_HOLE), and skips the reads that bring only NULs (SEEK_DATA)
# when an empty line cannot be selected, so the holes are never read.
@test "binary: a sparse file is binary from its start and its holes are skipped" {
	printf 'needle at the start\nplain text\n' >sparse
	truncate -s 64M sparse
	printf 'a needle at the end\n' >>sparse
	local opts
	local -a extra=("" --mmap --no-mmap "--threads=3 --segment-size=1000000")
	for opts in "" -c -n -l -L -q -I "-I -c" -o "-c -w" "-c -x" "-v -c"; do
		# shellcheck disable=SC2086
		in_both_locales same_as_grep_each "${extra[@]}" -- $opts needle sparse || return 1
	done
	SAG_STDIN=sparse same_as_grep_each "${extra[@]}" -- -c needle
}

# A hole that starts within a read leaves NULs there: they end the line
# before them; a read of only NULs is dropped, and the partial line before
# it goes on with the data after the hole, as in grep's buffer.
@test "binary: lines around holes count as grep counts them" {
	{ printf 'x needle\n'; head -c 20000 /dev/zero | tr '\0' a; } >holes
	truncate -s 1M holes
	printf 'needle\nneedle\0needle' >>holes
	truncate -s 3M holes
	printf 'b needle\nc\n' >>holes
	local opts
	for opts in -c "-c -v" "-c -x" "-c -e a -e needle" -l; do
		# shellcheck disable=SC2086
		same_as_grep_each "" --mmap --no-mmap --buffer-size=4096 -- $opts needle holes || return 1
	done
}

@test "binary: context after a suppressed line starts where grep's buffer does, on every I/O path" {
	# grep prints the after-context of a line it suppressed for an encoding
	# error from the start of the buffer holding it; a mapping hands out
	# read()'s windows for this
	awk 'BEGIN { for (i = 0; i < 20000; i++)
		if (i == 15000) printf "foo \377 bad\n"; else printf "line %d\n", i }' >u
	local o
	for o in -A1 '-A3 -n' -C2 '-B2 -n' '-A2 -v'; do
		# shellcheck disable=SC2086
		LC_ALL=C.UTF-8 same_as_grep_each --mmap --no-mmap '--mmap --threads=3' '--no-mmap --threads=2' -- \
			$o foo u || return 1
	done
}

# Reads smaller than grep's 96 KiB (--buffer-size, a test setting) drop
# only what grep's reads would: a small read of only NULs inside one of
# grep's that holds more is kept, its NULs ending lines; one inside a read
# of grep's of only NULs goes, and the partial line before it goes on
# after it.
@test "binary: small reads drop only the NULs grep's reads drop" {
	printf 'a\n=a\0\0a' >small
	{
		printf 'a\n\0\n'
		head -c 98297 /dev/zero | tr '\0' x
		printf '\n=a'
		head -c 98304 /dev/zero
		printf 'a\n'
	} >aligned
	local opts
	local -a extra=("--threads=1 --no-mmap --buffer-size=1" "--threads=1 --no-mmap --buffer-size=7"
		"--threads=3 --segment-size=7 --buffer-size=5" "--threads=2 --segment-size=4096 --buffer-size=5")
	for opts in -c "-c -v" "-c -x"; do
		# shellcheck disable=SC2086
		in_both_locales same_as_grep_each "${extra[@]}" -- $opts a small || return 1
		# shellcheck disable=SC2086
		same_as_grep_each "${extra[@]}" -- $opts a aligned || return 1
	done
}

@test "binary: a read grep drops for being all NUL is dropped on every I/O path" {
	# grep drops a 96 KiB read of only NULs once the file is binary, so
	# "=a" and "a" around it are one line; a mapping goes on with read()
	# from the window that turned the file binary (found by fuzz_cli)
	python3 -c "import sys; B = 98304; sys.stdout.buffer.write(b'a\n\0\n' + b'x' * (B - 7) + b'\n=a' + b'\0' * B + b'a\n')" >big
	local -a io=(--mmap --no-mmap '--mmap --threads=1' --threads=2)
	in_both_locales same_as_grep_each "${io[@]}" -- -c a big
	same_as_grep_each "${io[@]}" -- -c -v x big
	same_as_grep_each "${io[@]}" -- a big
}
