#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Compiled pattern sets (--save-compiled, --compiled; acgrep extensions):
# a search with a compiled set prints exactly what the same search
# compiling the list prints (stdout, stderr, status) for every option
# combination, scan path, kernel, I/O path and thread count; and every
# file that cannot be used is refused with its reason and status 2.

load helpers

setup() {
	common_setup
	skip_if_grep "--compiled"
}

# same_compiled_keys "SET OPTIONS" "SEARCH OPTIONS" "LIST OPTIONS"
# [FILE...]: compiles the list of LIST OPTIONS (-e, -f, --tagged-file)
# with SET OPTIONS into $OUTD/set.acs, then compares `$ACGREP SET SEARCH
# LIST FILE...` with `$ACGREP SET SEARCH --compiled=set.acs FILE...`
# (options split on spaces): stdout bytes, stderr and status.
same_compiled_keys() {
	local -a set search keys
	read -r -a set <<<"$1"
	read -r -a search <<<"$2"
	read -r -a keys <<<"$3"
	local s1=0 s2=0 s3=0
	shift 3
	"$ACGREP" "${set[@]}" --save-compiled="$OUTD/set.acs" "${keys[@]}" >"$OUTD/save.out" 2>&1 || s1=$?
	if [[ $s1 != 0 || -s $OUTD/save.out ]]; then
		{ echo "--save-compiled ${set[*]} ${keys[*]} failed ($s1):"; cat "$OUTD/save.out"; } | fail
		return 1
	fi
	"$ACGREP" "${set[@]}" "${search[@]}" "${keys[@]}" "$@" <"${SAG_STDIN:-/dev/null}" \
		>"$OUTD/f.out" 2>"$OUTD/f.err" || s2=$?
	"$ACGREP" "${set[@]}" "${search[@]}" --compiled="$OUTD/set.acs" "$@" <"${SAG_STDIN:-/dev/null}" \
		>"$OUTD/c.out" 2>"$OUTD/c.err" || s3=$?
	if ! same_bytes "$OUTD/f.out" "$OUTD/c.out" || ! same_bytes "$OUTD/f.err" "$OUTD/c.err" ||
		[[ $s2 != "$s3" ]]; then
		{
			echo "compiled differs [LC_ALL=$LC_ALL]: set ${set[*]}; search ${search[*]} $*; list ${keys[*]}"
			echo "status $s2 vs $s3"
			echo "--- list stdout:"
			_hex "$OUTD/f.out"
			echo "--- --compiled stdout:"
			_hex "$OUTD/c.out"
			echo "--- list stderr:"
			cat "$OUTD/f.err"
			echo "--- --compiled stderr:"
			cat "$OUTD/c.err"
		} | fail
		return 1
	fi
}

# same_compiled "SET OPTIONS" "SEARCH OPTIONS" PATFILE [FILE...]:
# same_compiled_keys with the list of -f PATFILE.
same_compiled() {
	local set_options=$1 search_options=$2 pats=$3
	shift 3
	same_compiled_keys "$set_options" "$search_options" "-f $pats" "$@"
}

words_setup() {
	fixture pats 'he\nshe\nhis\nhers\nfoo\nfoo_bar\nab\n\303\251t\303\251\nstra\303\237e\nK\nx y\n'
	fixture in 'ushers\nhis hat\nFOO foo foobar\nfoo_bar foo\n\303\211T\303\211 \303\251t\303\251\nSTRASSE Stra\303\237e\n\342\204\252elvin k\nx y z\nab\nnone\n\n'
	fixture bin 'foo\0bar\nhers\nnone\n'
}

@test "compiled: every option combination, in C and in C.UTF-8" {
	words_setup
	local set out
	for set in "" -i -w -x "-w -x" "-i -w" "-i -x" "-i -w -x"; do
		for out in "" -o -c -n -v "-o -b" --count-matches -l "-n -C1" "--color=always"; do
			in_both_locales note_case "$set / $out" same_compiled "$set" "$out" pats in bin ||
				return 1
		done
	done
}

@test "compiled: -i in UTF-8 with the characters grep folds its own way" {
	# U+1C80 (DFA-narrow), ſ and ı (fold to ASCII), a pattern not valid UTF-8
	fixture pats '\341\262\200x\n\320\222x\na\377z\ns\nI\n\303\237\n'
	fixture in '\341\262\200X\n\320\262x\n\320\222X\na\377Z\n\305\277\n\304\261\n\303\237\nSS\nnone\n'
	local set out
	for set in -i "-i -x" "-i -w"; do
		for out in "" -o -c -v; do
			LC_ALL=C.UTF-8 note_case "$set / $out" same_compiled "$set" "$out" pats in || return 1
		done
	done
}

@test "compiled: binary files, NUL patterns, -a and -z" {
	fixture pats 'foo\nb\0r\n'
	fixture in 'foo\0bar\nb\0r\nnone\n'
	fixture z 'a foo\0b\0r\0x\0'
	local set out
	for set in "" -a --binary-files=without-match -z "-z -a" "-z -x"; do
		for out in "" -c -o -b; do
			in_both_locales note_case "$set / $out" same_compiled "$set" "$out" pats in z ||
				return 1
		done
	done
}

@test "compiled: every scan path, and kernels chosen at load" {
	words_setup
	local path set
	for path in dfa bitmap memchr teddy hash; do
		for set in "" -i -w; do
			note_case "$path $set" same_compiled "--scan-path=$path $set" -o pats in bin || return 1
			note_case "$path $set" same_compiled "--scan-path=$path $set" -c pats in bin || return 1
		done
	done
	fixture one 'needle\n'
	fixture hay 'hay needle hay\nhay\nneedles\n'
	same_compiled --scan-path=memchr -o one hay
	# a set saved with the widest kernels, searched with none, and back
	same_compiled "" --simd=scalar pats in
	same_compiled --simd=scalar "" pats in
	same_compiled "--simd=scalar --scan-path=teddy" -o pats in
}

@test "compiled: I/O paths, threads and -r" {
	words_setup
	awk 'BEGIN { for (i = 1; i <= 400; i++) printf "line %d foo\nline %d ushers\nplain %d\n", i, i, i }' >big
	mkdir -p d/e
	cp in bin d/
	cp big d/e/
	local io
	for io in --mmap --no-mmap "--no-mmap --buffer-size=7" "--threads=1" \
		"--threads=3 --segment-size=333" "--threads=2 --mmap --segment-size=100"; do
		note_case "$io" same_compiled "" "$io -c" pats big in || return 1
		note_case "$io" same_compiled -i "$io -n" pats big || return 1
		note_case "$io" same_compiled "" "$io -r -c" pats d || return 1
	done
	SAG_STDIN=in same_compiled -w -o pats
}

@test "compiled: a large list" {
	awk 'BEGIN { srand(7); for (i = 0; i < 20000; i++) {
		w = ""; n = 3 + int(rand() * 8)
		for (k = 0; k < n; k++) w = w sprintf("%c", 97 + int(rand() * 26))
		print w } }' >pats
	awk 'BEGIN { srand(8); for (i = 0; i < 3000; i++) {
		w = ""; n = 20 + int(rand() * 60)
		for (k = 0; k < n; k++) w = w sprintf("%c", rand() < 0.15 ? 32 : 97 + int(rand() * 26))
		print w } }' >in
	local set
	for set in "" -i -w; do
		note_case "$set" same_compiled "$set" -c pats in || return 1
		note_case "$set" same_compiled "$set" -o pats in || return 1
	done
}

@test "compiled: grep's early exits: -m 0, and -v with only empty patterns" {
	fixture in 'a\n'
	printf '\n' >empty_pats
	"$ACGREP" --save-compiled=set.acs -f empty_pats
	expect 1 '' -- -v --compiled=set.acs in missing
	expect_no_stderr
	expect 0 'a\n' -- --compiled=set.acs in
	printf 'a\n' >pats
	"$ACGREP" --save-compiled=set.acs -f pats
	expect 1 '' -- -m 0 --compiled=set.acs in missing
	expect_no_stderr
	expect 2 'in:a\n' -- --compiled=set.acs in missing
	expect_stderr_matches '^PROG: missing: No such file or directory$'
}

@test "compiled: --save-compiled writes a new file, mode from the umask" {
	printf 'a\n' >pats
	(umask 027 && "$ACGREP" --save-compiled=set.acs -f pats)
	[[ $(stat -c %a set.acs) == 640 ]] || fail "mode $(stat -c %a set.acs)"
	local before
	before=$(stat -c %i set.acs)
	"$ACGREP" --save-compiled=set.acs -e b
	[[ $(stat -c %i set.acs) != "$before" ]] || fail "set.acs rewritten in place"
	printf 'a\nb\n' >in
	SAG_STDIN=in expect 0 'b\n' -- --compiled=set.acs
	[[ -z $(find . -name 'set.acs.*') ]] || fail "a temporary file was left"
}

@test "compiled: the pattern may come from -e and the operand" {
	fixture in 'abc\nxyz\n'
	run_ac --save-compiled=set.acs b
	expect_status 0
	expect_out ''
	expect 0 'abc\n' -- --compiled=set.acs in
	run_ac --save-compiled=set.acs -e y -e q
	expect 0 'xyz\n' -- --compiled=set.acs in
}

@test "compiled: options that differ from the set's are refused by name" {
	printf 'foo\n' >pats
	fixture in 'foo\n'
	"$ACGREP" --save-compiled=set.acs -f pats
	local f
	for f in -i -w -x -z; do
		expect 2 '' -- "$f" --compiled=set.acs in
		expect_stderr_matches "^PROG: set.acs: compiled without $f; this search is with it$"
	done
	"$ACGREP" -i -x --save-compiled=set.acs -f pats
	expect 2 '' -- -x --compiled=set.acs in
	expect_stderr_matches '^PROG: set.acs: compiled with -i; this search is without it$'
	expect 0 'foo\n' -- -x -i --compiled=set.acs in
	LC_ALL=C.UTF-8 expect 2 '' -- -x -i --compiled=set.acs in
	expect_stderr_matches "^PROG: set.acs: compiled in a non-UTF-8 locale; this search's locale is UTF-8$"
	LC_ALL=C.UTF-8 "$ACGREP" --save-compiled=set.acs -f pats
	expect 2 '' -- --compiled=set.acs in
	expect_stderr_matches "^PROG: set.acs: compiled in a UTF-8 locale; this search's locale is not UTF-8$"
	"$ACGREP" --save-compiled=set.acs -f pats
	expect 2 '' -- --scan-path=dfa --compiled=set.acs in
	expect_stderr_matches '^PROG: set.acs: compiled with --scan-path=auto; this search asks for --scan-path=dfa$'
	if [[ ${ACGREP_PCRE2:-yes} == yes ]]; then
		expect 2 '' -- --engine=pcre2 --compiled=set.acs in
		expect_stderr_matches '^PROG: set.acs: compiled for --engine=ac; this search asks for --engine=pcre2$'
	fi
}

@test "compiled: -a matters only to a set with a NUL pattern" {
	fixture pats 'a\0b\nc\n'
	fixture in 'a\0b\nc\n'
	"$ACGREP" --save-compiled=set.acs -f pats
	expect 2 '' -- -a --compiled=set.acs in
	expect_stderr_matches '^PROG: set.acs: compiled without --binary-files=text; this search is with it$'
	"$ACGREP" --save-compiled=set.acs -e c
	expect 0 'c\n' -- -a --compiled=set.acs in
	# a set saved without -a: the search's -a still decides how NUL ends lines
	fixture bin 'x\0c\0y\nc\n'
	local a
	for a in "" -a --binary-files=without-match; do
		"$ACGREP" -x -c $a -e c bin >"$OUTD/want" 2>&1 || true
		run_ac -x --save-compiled=x.acs -e c
		expect_status 0
		run_ac -x -c $a --compiled=x.acs bin
		cat "$OUTD/ac.err" >>"$OUTD/ac.out"
		same_bytes "$OUTD/want" "$OUTD/ac.out" || fail "-x -c $a: $(cat "$OUTD/ac.out"), want $(cat "$OUTD/want")"
	done
}

@test "compiled: how the options combine" {
	printf 'a\n' >pats
	fixture in 'a\n'
	"$ACGREP" --save-compiled=set.acs -f pats
	expect 2 '' -- --compiled=set.acs -e a in
	expect_stderr_matches '^PROG: --compiled cannot be combined with -e, -f or --tagged-file$'
	expect 2 '' -- --compiled=set.acs -f pats in
	expect_stderr_matches '^PROG: --compiled cannot be combined with -e, -f or --tagged-file$'
	printf 't\ta\n' >tags.tsv
	expect 2 '' -- --compiled=set.acs --tagged-file=tags.tsv in
	expect_stderr_matches '^PROG: --compiled cannot be combined with -e, -f or --tagged-file$'
	expect 2 '' -- --compiled=set.acs --save-compiled=x.acs in
	expect_stderr_matches '^PROG: --compiled and --save-compiled cannot be combined$'
	expect 2 '' -- --save-compiled=x.acs -f pats in
	expect_stderr_matches '^PROG: --save-compiled: it searches nothing, so takes no FILE operand or --files-from$'
	expect 2 '' -- --save-compiled=x.acs -f /dev/null
	expect_stderr_matches '^PROG: --save-compiled: no patterns to compile$'
	expect 2 '' -- --save-compiled=x.acs --engine=pcre2 a
	expect_stderr_matches '^PROG: --save-compiled: only --engine=ac has a compiled form$'
	expect 2 '' -- --save-compiled=nodir/x.acs a
	expect_stderr_matches '^PROG: nodir/x.acs: No such file or directory$'
	[[ ! -e x.acs ]] || fail "x.acs written"
}

# The compiled set of 'foo' at $OUTD/good.acs, and its size in $good_size.
good_set() {
	printf 'foo\nbar\n' >"$OUTD/pats"
	"$ACGREP" --save-compiled="$OUTD/good.acs" -f "$OUTD/pats"
	good_size=$(stat -c %s "$OUTD/good.acs")
	fixture in 'foo\n'
}

# put FILE OFFSET OCTAL: writes the byte \OCTAL at OFFSET of FILE.
put() {
	# shellcheck disable=SC2059
	printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "compiled: files that are no compiled set, each with its reason" {
	good_set
	: >empty
	expect 2 '' -- --compiled=empty in
	expect_stderr_matches '^PROG: empty: not a compiled pattern set \(empty file\)$'
	expect 2 '' -- --compiled=in in
	expect_stderr_matches '^PROG: in: not a compiled pattern set$'
	mkdir dir
	expect 2 '' -- --compiled=dir in
	expect_stderr_matches '^PROG: dir: Is a directory$'
	expect 2 '' -- --compiled=missing in
	expect_stderr_matches '^PROG: missing: No such file or directory$'
	expect 2 '' -- --compiled=/dev/null in
	expect_stderr_matches '^PROG: /dev/null: not a compiled pattern set \(not a regular file\)$'
	head -c 40 "$OUTD/good.acs" >short
	expect 2 '' -- --compiled=short in
	expect_stderr_matches '^PROG: short: truncated compiled pattern set \(40 bytes; its header alone is 64\)$'
}

@test "compiled: truncated, lengthened, changed: refused, never a crash" {
	good_set
	local n
	for n in 64 100 1000 $((good_size / 2)) $((good_size - 1)); do
		head -c "$n" "$OUTD/good.acs" >short
		expect 2 '' -- --compiled=short in
		expect_stderr_matches "^PROG: short: truncated compiled pattern set \\($n of $good_size bytes\\)$"
	done
	cp "$OUTD/good.acs" long && printf 'xyz' >>long
	expect 2 '' -- --compiled=long in
	expect_stderr_matches '^PROG: long: corrupt compiled pattern set \(3 bytes past its end\)$'
	local at
	for at in 40 64 70 200 $((good_size / 2)) $((good_size - 1)); do
		cp "$OUTD/good.acs" flip
		put flip "$at" 377
		same_bytes flip "$OUTD/good.acs" && put flip "$at" 0
		expect 2 '' -- --compiled=flip in
		expect_stderr_matches '^PROG: flip: corrupt compiled pattern set \(checksum mismatch\)$'
	done
	cp "$OUTD/good.acs" magic && put magic 0 141
	expect 2 '' -- --compiled=magic in
	expect_stderr_matches '^PROG: magic: not a compiled pattern set$'
	cp "$OUTD/good.acs" header && put header 20 0
	expect 2 '' -- --compiled=header in
	expect_stderr_matches '^PROG: header: corrupt compiled pattern set \(header\)$'
}

@test "compiled: another format version, byte order or word size" {
	good_set
	# the version's low byte: 12 little-endian, 15 big-endian (mark 01 02 03 04)
	local low=12
	[[ $(od -An -tx1 -j8 -N1 "$OUTD/good.acs" | tr -d ' ') == 01 ]] && low=15
	# version 1 had no tags: a set saved with --tagged-file then lost them
	cp "$OUTD/good.acs" v1 && put v1 "$low" 1
	expect 2 '' -- --compiled=v1 in
	expect_stderr_matches '^PROG: v1: compiled pattern set format version 1; this acgrep reads version 3$'
	# version 2 had no HASH stride: its windows are at offset 0 only
	cp "$OUTD/good.acs" v2 && put v2 "$low" 2
	expect 2 '' -- --compiled=v2 in
	expect_stderr_matches '^PROG: v2: compiled pattern set format version 2; this acgrep reads version 3$'
	cp "$OUTD/good.acs" v4 && put v4 "$low" 4
	expect 2 '' -- --compiled=v4 in
	expect_stderr_matches '^PROG: v4: compiled pattern set format version 4; this acgrep reads version 3$'
	# the byte-order mark, 01020304 in the writer's order, reversed
	cp "$OUTD/good.acs" order
	local b
	b=$(od -An -tx1 -j8 -N4 "$OUTD/good.acs" | tr -d ' ')
	local k
	for k in 0 1 2 3; do put order $((8 + k)) "$(printf '%o' "0x${b:$((6 - 2 * k)):2}")"; done
	local this other
	if [[ $b == 04030201 ]]; then this=little other=big; else this=big other=little; fi
	expect 2 '' -- --compiled=order in
	expect_stderr_matches "^PROG: order: compiled pattern set from a $other-endian machine; this one is $this-endian$"
	local word
	word=$(od -An -tu1 -j16 -N1 "$OUTD/good.acs" | tr -d ' ')
	cp "$OUTD/good.acs" word
	if ((word == 8)); then put word 16 4; else put word 16 10; fi
	expect 2 '' -- --compiled=word in
	expect_stderr_matches "^PROG: word: compiled pattern set for $((word == 8 ? 32 : 64))-bit words; this acgrep uses $((word * 8))-bit words$"
	# a word size no machine has is damage, said in bytes (0xFFFFFFFF
	# bits would wrap: "4294967288-bit words")
	local k size
	for size in 4294967295 0 3 32; do
		cp "$OUTD/good.acs" word
		for k in 0 1 2 3; do put word $((16 + k)) "$(printf '%o' $(((size >> (8 * k)) & 255)))"; done
		[[ $(od -An -tx1 -j8 -N1 word | tr -d ' ') == 01 ]] &&
			for k in 0 1 2 3; do put word $((19 - k)) "$(printf '%o' $(((size >> (8 * k)) & 255)))"; done
		expect 2 '' -- --compiled=word in
		expect_stderr_matches "^PROG: word: corrupt compiled pattern set \\(word size of $size bytes\\)$"
	done
}

# A tagged list: a tag of two patterns, a pattern holding NUL (dropped
# unless -a, so that the engine's ids are not the list's), a pattern -i
# folds, one in UTF-8; and a text that holds each.
tags_setup() {
	fixture iocs.tsv 'nul\ta\0b\nevil\tbad.example\nevil\t10.0.0.1\nphish\t\t\tlogin-now\ndup\tbad.example\nwide\t\303\251t\303\251\ncase\tFoo\n'
	fixture log 'ok line\nGET bad.example from 10.0.0.1\nlogin-now please\nnothing\n10.0.0.1 and login-now\n\303\211T\303\211 \303\251t\303\251\nFOO foo\n'
	fixture pats 'ok\n'
}

@test "compiled: a tagged list keeps its tags, named as --tagged-file names them" {
	tags_setup
	local set out io
	for set in "" -i; do
		for out in --show-pattern --show-pattern=text --show-pattern=number "-o --show-pattern" \
			"-o --show-pattern=number" --show-all-patterns -c; do
			for io in --mmap --no-mmap "--threads=3 --segment-size=7"; do
				in_both_locales note_case "$set / $out / $io" \
					same_compiled_keys "$set" "$out $io" --tagged-file=iocs.tsv log || return 1
			done
		done
	done
	"$ACGREP" --save-compiled=set.acs --tagged-file=iocs.tsv
	expect 0 'evil:GET bad.example from 10.0.0.1\nphish:login-now please\nevil:10.0.0.1 and login-now\nwide:\303\211T\303\211 \303\251t\303\251\n' \
		-- --compiled=set.acs --show-pattern log
	"$ACGREP" -i --save-compiled=set.acs --tagged-file=iocs.tsv
	expect 0 'evil:bad.example\nevil:10.0.0.1\nphish:login-now\nevil:10.0.0.1\nphish:login-now\nwide:\303\251t\303\251\ncase:FOO\ncase:foo\n' \
		-- -i -o --compiled=set.acs --show-pattern log
	expect 0 '2:bad.example\n3:10.0.0.1\n4:login-now\n3:10.0.0.1\n4:login-now\n6:\303\251t\303\251\n7:FOO\n7:foo\n' \
		-- -i -o --compiled=set.acs --show-pattern=number log
}

@test "compiled: -e, -f and tagged lists mixed keep every pattern's tag" {
	tags_setup
	local keys io
	for keys in "-e nothing --tagged-file=iocs.tsv -f pats" "--tagged-file=iocs.tsv -e evil -e ok" \
		"-f pats --tagged-file=iocs.tsv --tagged-file=iocs.tsv"; do
		for io in --mmap --no-mmap "--threads=3 --segment-size=7"; do
			in_both_locales note_case "$keys / $io" \
				same_compiled_keys "" "--show-pattern $io" "$keys" log || return 1
			in_both_locales note_case "$keys / $io" \
				same_compiled_keys -i "-o --show-pattern=number $io" "$keys" log || return 1
		done
	done
	"$ACGREP" --save-compiled=set.acs -e nothing --tagged-file=iocs.tsv -f pats
	expect 0 'ok:ok line\nevil:GET bad.example from 10.0.0.1\nphish:login-now please\nnothing:nothing\nevil:10.0.0.1 and login-now\nwide:\303\211T\303\211 \303\251t\303\251\n' \
		-- --compiled=set.acs --show-pattern log
}

@test "compiled: a set saved without tags names a pattern by its text" {
	tags_setup
	"$ACGREP" --save-compiled=set.acs -e login-now -e 10.0.0.1
	expect 0 '10.0.0.1:GET bad.example from 10.0.0.1\nlogin-now:login-now please\n10.0.0.1:10.0.0.1 and login-now\n' \
		-- --compiled=set.acs --show-pattern log
	local out
	for out in --show-pattern --show-pattern=number "-o --show-all-patterns"; do
		in_both_locales note_case "$out" same_compiled_keys "" "$out" "-e login-now -e 10.0.0.1" log ||
			return 1
	done
}

@test "compiled: a tagged set's records are its list's, its tags merged as one run names them" {
	tags_setup
	"$ACGREP" --save-compiled=set.acs --tagged-file=iocs.tsv
	cut -f2- iocs.tsv | sed 's/^\t*//' >list
	"$ACGREP" --records -f list log >"$OUTD/want"
	run_ac --compiled=set.acs --records log
	expect_status 0
	same_bytes "$OUTD/want" "$OUTD/ac.out" || fail "--records differs from -f's: $(cat "$OUTD/ac.out")"
	"$ACGREP" --records --show-pattern --tagged-file=iocs.tsv log >"$OUTD/want"
	run_ac --compiled=set.acs --records --show-pattern log
	expect_status 0
	same_bytes "$OUTD/want" "$OUTD/ac.out" || fail "--records --show-pattern differs from --tagged-file's"
	"$ACGREP" --compiled=set.acs --show-pattern log >"$OUTD/want"
	"$ACGREP" --merge --compiled=set.acs --show-pattern "$OUTD/ac.out" >"$OUTD/merged"
	same_bytes "$OUTD/want" "$OUTD/merged" || fail "the merge differs from one run: $(cat "$OUTD/merged")"
}
