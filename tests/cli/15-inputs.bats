#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Input operands: missing files, directories, stdin, -s, special errors,
# an input that is also the output, --files-from / --files0-from lists, and
# --line-buffered lines from a slow pipe.
# (We run as root, so permission errors cannot be provoked; the error
# paths are exercised with ENOENT, EISDIR, ENOTDIR and ELOOP instead.)

load helpers

in_setup() {
	fixture a 'foo\nbar\n'
	fixture b 'foo\n'
}

@test "inputs: missing file: message, exit 2, other files still searched" {
	in_setup
	in_both_locales same_as_grep foo a nosuch b
	run_ac -F foo a nosuch b
	expect_status 2
	expect_out 'a:foo\nb:foo\n'
	expect_stderr_matches '^PROG: nosuch: No such file or directory$'
}

@test "inputs: missing file and no match anywhere: exit 2" {
	in_setup
	in_both_locales same_as_grep zzz a nosuch
	expect 2 '' -- -F zzz a nosuch
}

@test "inputs: only a missing file" {
	in_both_locales same_as_grep foo nosuch
	run_ac -F foo nosuch
	expect_status 2
	expect_out ''
}

@test "inputs: -s suppresses file error messages, not the status" {
	in_setup
	in_both_locales same_as_grep -s foo a nosuch b
	run_ac -F -s foo a nosuch
	expect_status 2
	expect_no_stderr
	in_both_locales same_as_grep --no-messages foo nosuch
}

@test "inputs: directory operand without -r: 'Is a directory', exit 2" {
	in_setup
	mkdir d
	in_both_locales same_as_grep foo d
	in_both_locales same_as_grep foo a d b
	run_ac -F foo d a
	expect_status 2
	expect_out 'a:foo\n'
	expect_stderr_matches '^PROG: d: Is a directory$'
}

# same_as_grep_merged ARGS...: `grep -F ARGS` and `$ACGREP -F ARGS` with
# stdout and stderr in one file (program names normalised): the same bytes
# in the same order, and the same status.
same_as_grep_merged() {
	local gs=0 as=0
	"$GREP" -F "$@" </dev/null >"$OUTD/g.all" 2>&1 || gs=$?
	"$ACGREP" -F "$@" </dev/null >"$OUTD/a.all" 2>&1 || as=$?
	_norm_stderr_to "$OUTD/g.all" "$OUTD/g.nall"
	_norm_stderr_to "$OUTD/a.all" "$OUTD/a.nall"
	if ! same_bytes "$OUTD/g.nall" "$OUTD/a.nall" || [[ $gs != "$as" ]]; then
		{
			echo "merged output differs: $(printf '%q ' "$@") (status grep $gs, acgrep $as)"
			diff <(_norm_stderr "$OUTD/g.all") <(_norm_stderr "$OUTD/a.all")
		} | fail
		return 1
	fi
}

# grep opens a directory operand and fails to read it: a read error, after
# which -c prints its count of 0 and -L its name.
@test "inputs: a directory operand has a -c count of 0 and is listed by -L" {
	in_setup
	mkdir d
	local opts
	for opts in -c -L -l "-c -v" "-c -s" "-L -s" -q "-c -h"; do
		# shellcheck disable=SC2086
		same_as_grep $opts foo a d b || return 1
		# shellcheck disable=SC2086
		same_as_grep_merged $opts foo a d b || return 1
	done
	same_as_grep -c foo d
}

# A read error (reading /proc/self/mem at offset 0 fails with EIO) is
# reported while reading, before the input's -c count or -l/-L name.
@test "inputs: a read error comes before the count or name, as in grep" {
	[[ $ACGREP != *-qemu ]] || skip "an emulator's /proc/self/mem"
	in_setup
	ln -s /proc/self/mem mem
	local opts
	for opts in -c -L -l "" -n "-c -s"; do
		# shellcheck disable=SC2086
		same_as_grep_merged $opts foo a mem b || return 1
	done
}

@test "inputs: -s also hides 'Is a directory'" {
	in_setup
	mkdir d
	in_both_locales same_as_grep -s foo d a
}

@test "inputs: dangling symlink, symlink loop, ENOTDIR" {
	in_setup
	ln -s nowhere dangling
	ln -s loop loop
	in_both_locales same_as_grep foo dangling a
	in_both_locales same_as_grep foo loop a
	in_both_locales same_as_grep foo a/x b
}

@test "inputs: symlink to a file is followed" {
	in_setup
	ln -s a link
	in_both_locales same_as_grep foo link
	expect 0 'foo\n' -- -F foo link
}

@test "inputs: no operand reads stdin" {
	in_setup
	SAG_STDIN=a in_both_locales same_as_grep foo
	SAG_STDIN=a expect 0 'foo\n' -- -F foo
}

@test "inputs: '-' is stdin, labelled (standard input)" {
	in_setup
	SAG_STDIN=a in_both_locales same_as_grep foo - b
	SAG_STDIN=a expect 0 '(standard input):foo\nb:foo\n' -- -F foo - b
}

@test "inputs: '-' twice: the second read finds end of input" {
	in_setup
	SAG_STDIN=a in_both_locales same_as_grep foo - -
	SAG_STDIN=a in_both_locales same_as_grep -c foo - -
}

@test "inputs: stdin from a pipe" {
	in_setup
	local g a
	g=$(cat a | "$GREP" -F -n foo)
	a=$(cat a | "$ACGREP" -F -n foo)
	assert_equal "$a" "$g"
	assert_equal "$a" "1:foo"
}

@test "inputs: empty stdin" {
	in_both_locales same_as_grep foo
	in_both_locales same_as_grep -c foo
	in_both_locales same_as_grep -v foo
}

@test "inputs: several files with names, in operand order" {
	fixture z 'foo z\n'
	fixture m 'foo m\n'
	fixture a 'foo a\n'
	in_both_locales same_as_grep foo z m a
	expect 0 'z:foo z\nm:foo m\na:foo a\n' -- -F foo z m a
}

@test "inputs: the same file twice is searched twice" {
	in_setup
	in_both_locales same_as_grep foo b b
	expect 0 'b:foo\nb:foo\n' -- -F foo b b
}

@test "inputs: empty files" {
	: >e1
	: >e2
	in_both_locales same_as_grep foo e1 e2
	in_both_locales same_as_grep -c '' e1 e2
	in_both_locales same_as_grep -L foo e1 e2
}

@test "inputs: file without final newline gets one in output" {
	fixture nonl 'foo'
	in_both_locales same_as_grep foo nonl
	expect 0 'foo\n' -- -F foo nonl
}

@test "inputs: file with only a newline, file with CRLF" {
	fixture nl '\n'
	fixture crlf 'foo\r\nbar\r\n'
	in_both_locales same_as_grep '' nl
	in_both_locales same_as_grep -c foo crlf
	in_both_locales same_as_grep foo crlf
	expect 0 'foo\r\n' -- -F foo crlf
}

@test "inputs: -d skip skips directories quietly" {
	in_setup
	mkdir d
	in_both_locales same_as_grep -d skip foo d a
	in_both_locales same_as_grep --directories=skip foo d
}

@test "inputs: /dev/null as an operand" {
	in_setup
	in_both_locales same_as_grep foo /dev/null a
	in_both_locales same_as_grep -L foo /dev/null
}

@test "inputs: input file is also the output" {
	in_setup
	cp a ga
	cp a aa
	local gs=0 as=0
	"$GREP" -F foo b ga >>ga 2>"$OUTD/g.err" || gs=$?
	"$ACGREP" -F foo b aa >>aa 2>"$OUTD/a.err" || as=$?
	assert_equal "$as" "$gs"
	assert_equal "$(_norm_stderr "$OUTD/a.err" | sed 's/\baa\b/X/')" "$(_norm_stderr "$OUTD/g.err" | sed 's/\bga\b/X/')"
	cmp ga aa
}

@test "inputs: input file is also the output, with -m" {
	# grep checks only when more than one line may be selected
	local m gs as
	for m in -m1 -m2 "-m1 -o" "-m1 -A1" "-m1 -c" -m0; do
		printf 'a0\nb0\nc\n' >ga
		printf 'a0\nb0\nc\n' >aa
		gs=0 as=0
		# shellcheck disable=SC2086
		"$GREP" -F $m 0 ga <ga >>ga 2>"$OUTD/g.err" || gs=$?
		# shellcheck disable=SC2086
		"$ACGREP" -F $m 0 aa <aa >>aa 2>"$OUTD/a.err" || as=$?
		assert_equal "$m: $as" "$m: $gs"
		assert_equal "$(_norm_stderr "$OUTD/a.err" | sed 's/\baa\b/X/')" "$(_norm_stderr "$OUTD/g.err" | sed 's/\bga\b/X/')"
		cmp ga aa
	done
}

# list_vs_operands LISTOPT LIST ARGS... -- NAMES...: `acgrep LISTOPT=LIST
# ARGS` against `grep -H ARGS NAMES` (the list's names as operands), on
# one to three threads.
list_vs_operands() {
	local listopt=$1 list=$2
	shift 2
	local -a args=() names=()
	while [[ $1 != -- ]]; do args+=("$1"); shift; done
	shift
	names=("$@")
	local t gs as
	for t in 1 2 3; do
		gs=0 as=0
		"$GREP" -F -H "${args[@]}" -- "${names[@]}" >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
		"$ACGREP" --threads=$t -F "$listopt=$list" "${args[@]}" >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
		echo "$gs" >"$OUTD/g.rc"
		echo "$as" >"$OUTD/a.rc"
		_compare "threads $t: $listopt=$list ${args[*]}" || return 1
	done
}

@test "inputs: --files-from and --files0-from search the listed files in order" {
	printf 'foo 1\nbar\n' >a
	printf 'x foo\n' >'sp ace'
	printf 'foo\n' >-dash
	printf 'foo nl\n' >"$(printf 'new\nline')"
	printf 'nothing\n' >c
	printf 'a\nc\nsp ace\n-dash\na\n' >list
	printf 'a\000-dash\000new\nline\000sp ace\000c\000' >list0
	local o
	for o in '' -c -l -L '-n -b' -o; do
		# shellcheck disable=SC2086
		list_vs_operands --files-from list $o foo -- a c 'sp ace' -dash a || return 1
		# shellcheck disable=SC2086
		list_vs_operands --files0-from list0 $o foo -- a -dash $'new\nline' 'sp ace' c || return 1
	done
	# names from standard input; operands first, then the list
	printf 'a\000c\000' | LC_ALL=C "$ACGREP" -F --files0-from=- -e foo -e nothing c >"$OUTD/a.out"
	printf 'c:nothing\na:foo 1\nc:nothing\n' | cmp - "$OUTD/a.out"
	# -h drops the names; -r walks a listed directory as grep -r does
	LC_ALL=C expect 0 '1\n0\n1\n1\n1\n' -- -F -h -c --files-from=list foo
	mkdir -p d/e && cp a d/e/f && printf 'd\n' >dlist
	"$GREP" -F -r foo d >"$OUTD/g.out"
	"$ACGREP" -F -r --files-from=dlist foo >"$OUTD/a.out"
	cmp "$OUTD/g.out" "$OUTD/a.out"
}

@test "inputs: a bad file list or a bad name in it is trouble, the rest is searched" {
	printf 'foo\n' >a
	printf 'a\n\nmissing\na\n' >list
	LC_ALL=C expect 2 'a:foo\na:foo\n' -- -F --files-from=list foo
	expect_stderr_matches '^PROG: list:2: invalid zero-length file name$'
	expect_stderr_matches '^PROG: missing: No such file or directory$'
	LC_ALL=C expect 2 'a:foo\n' -- -F --files-from=nolist foo a
	expect_stderr_matches '^PROG: nolist: No such file or directory$'
	printf 'a\n-\n' | LC_ALL=C "$ACGREP" -F --files-from=- foo >"$OUTD/a.out" 2>"$OUTD/a.err" && false
	grep -q "(standard input):2: file name '-' not allowed when reading file names from standard input" "$OUTD/a.err"
	# -q stops at the first selected line, before later bad names
	printf 'a\nmissing\n' >list2
	LC_ALL=C expect 0 '' -- -F -q --files-from=list2 foo
}

@test "inputs: lines from a slow pipe come out as they arrive with --line-buffered" {
	# the writer waits for each line's output before writing the next: a
	# search that waited for a full buffer or the end would hang (timeout)
	local t
	for t in --threads=1 --threads=2; do
		coproc AC { timeout 60 "$ACGREP" "$t" --line-buffered -F foo; }
		local i line pid=$AC_PID
		for i in 1 2 3 4 5; do
			printf 'noise %d\nfoo %d\n' "$i" "$i" >&"${AC[1]}"
			IFS= read -r line <&"${AC[0]}"
			note_case "$t" assert_equal "$line" "foo $i"
		done
		exec {AC[1]}>&-
		wait "$pid" || true
	done
}
