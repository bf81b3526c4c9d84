#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -E / -G: finite patterns expanded to literals, compared with grep -E/-G
# in C and C.UTF-8 on one and three threads, mmap and read(); grep's
# syntax errors; each refused construct and its message.

load helpers

# re_grep ARGS...: grep ARGS (no implicit -F), its stdout, stderr and
# status in $OUTD/g.*, for re_acgrep to compare with.
re_grep() {
	local gs=0
	"$GREP" "$@" </dev/null >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
	echo "$gs" >"$OUTD/g.rc"
}

# re_acgrep "ACGREP-ONLY-OPTIONS" ARGS...: acgrep with the extra options
# and ARGS gives the stdout, status and stderr (program names aside) of
# the last re_grep, which ran ARGS.
re_acgrep() {
	local -a extra
	read -r -a extra <<<"$1"
	shift
	local as=0 args
	"$ACGREP" "${extra[@]}" "$@" </dev/null >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
	echo "$as" >"$OUTD/a.rc"
	printf -v args '%q ' "$@"
	_compare "acgrep extra: ${extra[*]}; args: $args" || return 1
}

# re_same "ACGREP-ONLY-OPTIONS" ARGS...: grep ARGS and acgrep with the
# extra options and ARGS (no implicit -F): the same stdout, status and
# stderr (program names aside).
re_same() {
	local extra=$1
	shift
	re_grep "$@"
	re_acgrep "$extra" "$@" || return 1
}

# regex_same SYNTAX PATTERN FILE: the option sets, each on one thread
# with read() and on three with mmap, the same bytes and status as grep
# (run once for both); untraced (helpers.bash).
regex_same() {
	untraced _regex_same "$@"
}

_regex_same() {
	local syn=$1 pat=$2 file=$3 o
	local -a sets=("" -o -c -x -i -v -n -b -io --color=always -w -wo)
	for o in "${sets[@]}"; do
		# shellcheck disable=SC2086
		re_grep $o "$syn" -e "$pat" "$file"
		# shellcheck disable=SC2086
		re_acgrep "--threads=1 --no-mmap" $o "$syn" -e "$pat" "$file" || return 1
		# shellcheck disable=SC2086
		re_acgrep "--threads=3 --mmap" $o "$syn" -e "$pat" "$file" || return 1
	done
}

@test "regex: alternations, classes, ?, {n,m}, anchors, as grep -E" {
	fixture in 'error 404\nError 500\nwarn\nTODO x\nFIXME\nxTODO\nab\nabc\n\nget /admin\nPOST /admin/x\n'
	local p
	for p in 'error|warn|fatal' '[Ee]rror [0-9]{3}' 'TODO|FIXME|XXX' '^ab|c$' \
		'a(b|bc)?' '(^|x)TODO' 'b$|^a' '(get|post) /admin' '[A-Z]{2,3}' 'x{,2}T'; do
		in_both_locales regex_same -E "$p" in
	done
	LC_ALL=C regex_same -E '[^a-z ]' in # refused in UTF-8: over a million characters
	for p in 'a|' '^$' '(x|)T'; do # the empty string
		in_both_locales regex_same -E "$p" in
	done
}

@test "regex: -w with a pattern matching the empty string, as grep" {
	# an empty match counts where neither neighbour is a word character:
	# in UTF-8 only at a start whose longest match it is (grep's retries),
	# in C anywhere for the lines (grep's DFA), not for -o and colour
	fixture in 'ab\n\nx a\na-b\n ab c\n--\nab_\nfoo bar\n-\na\n ?x\n-x1a11a\n'
	local p o t
	for p in ' ?' 'a|' '(x|)' '^' '$' 'b?' '-?' '( |a)?' '^(a|)' 'c?|foo'; do
		for o in "" -o -c -v -n -b -on -l --color=always; do
			for t in "--threads=1 --no-mmap" "--threads=3 --mmap"; do
				# shellcheck disable=SC2086
				in_both_locales re_same "$t" -w $o -E -e "$p" in || return 1
			done
		done
	done
	in_both_locales re_same "" -w -G -e 'x\|\|-b\{0\}A$' -e 'a\{,2\}[x_-]' in
}

@test "regex: BRE with \\| \\? \\{\\} and a leading *, as grep -G" {
	fixture in 'foo\nbar\n*a\nab{2}\naab\nb\\|c\n'
	local p
	for p in 'foo\|bar' 'a\?b' 'a\{2\}b' '*a' 'b{2}' 'b\\|c' '^\(fo\|ba\)' 'o$\|^b'; do
		in_both_locales regex_same -G "$p" in
	done
}

@test "regex: -f and several -e, each read alike" {
	fixture pats 'err(or)?\n^warn\nx{2}$\n'
	fixture in 'error\nerr\nwarn\n warn\nxx\nxxx x\n'
	in_both_locales re_same "" -E -f pats in
	in_both_locales re_same "" -n -E -e 'a|err' -e '^ warn' in
}

@test "regex: long alternations and branches in linear time, deep nesting refused" {
	# 60,000 alternatives and a branch of 100,000 groups: expanded without
	# a recursion or a copy per level (both overflowed the stack); a
	# CPU-time limit, which a loaded machine cannot trip, keeps it linear
	awk 'BEGIN { for (i = 0; i < 60000; i++) { w = ""; n = i
		do { w = w sprintf("%c", 97 + n % 26); n = int(n / 26) } while (n)
		printf "%s%sq", (i ? "|" : ""), w } print "" }' >alts
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "(a)"; print "" }' >groups
	printf 'xbaq\nzzq\nab\n' >in
	local s=0
	(ulimit -t 10 && exec "$ACGREP" -E -f alts in) >"$OUTD/a.out" || s=$?
	assert_equal "$s" 0
	assert_equal "$(cat "$OUTD/a.out")" $'xbaq\nzzq'
	s=0
	(ulimit -t 10 && exec "$ACGREP" -c -E -f groups in) >"$OUTD/a.out" || s=$?
	assert_equal "$s" 1
	head -c 30000 alts >alts-short && echo >>alts-short
	in_both_locales re_same "" -o -n -E -f alts-short in
	# nesting past the bound: refused by name, exit 2, as grep's own
	# "stack overflow" is
	awk 'BEGIN { for (i = 0; i < 50000; i++) printf "("; printf "a"
		for (i = 0; i < 50000; i++) printf ")"; print "" }' >nested
	awk 'BEGIN { printf "a"; for (i = 0; i < 60000; i++) printf "{1}"; print "" }' >stacked
	run_ac -E -f nested in
	expect_status 2 || return 1
	expect_stderr_matches 'byte 1001: groups nested more than 1,000 deep is not supported' || return 1
	run_ac -E -f stacked in
	expect_status 2 || return 1
	expect_stderr_matches 'byte 3002: repetitions nested more than 1,000 deep is not supported' || return 1
}

@test "regex: grep's syntax errors, exit 2" {
	fixture in 'a\n'
	local p
	for p in '(a' '[a' '[z-a]' 'a\' 'a{2,1}' 'a{1,99999}' '[[:foo:]]' '[:alpha:]' '[[:alpha:]-z]' \
		'[[.ab.]]' '[[==]]' '[[=é=]]'; do
		in_both_locales re_same "" -E "$p" in
	done
	# \1 inside its own group is invalid; a closed group inside an open one
	# is not (groups are numbered by their opening)
	for p in '\(a' 'a\)' 'a\{1' 'a\{x\}' '\1' '\(a\1\)' '\(\(a\)\)\3'; do
		in_both_locales re_same "" -G "$p" in
	done
	re_same "" -E -F x in
}

@test "regex: range ends: collating symbols yes, classes and equivalence classes no" {
	skip_if_grep
	fixture in 'a\n[\n-\nb\n%%\n'
	local p
	# GNU grep's posix-bracket cases among them
	for p in '[a-[.a.]]' '[[.a.]-[.a.]]' '[a-[.b.]]' '[%-[.-.]]' '[[.-.]-b]' '[Z-[]' '[a-[]' \
		'[a-[=a=]]' '[[=a=]-a]' '[[=a=]-]' '[a-[:alpha:]]' '[[:alpha:]-a]' '[a-[.[.]]' \
		'[[.a.]-[=b=]]' '[a-[.ab.]]'; do
		in_both_locales re_same "" -G "$p" in
		in_both_locales re_same "" -E "$p" in
	done
	LC_ALL=C re_same "" -G '[^a-[.a.]]' in
}

@test "regex: each refused construct, its position and message, exit 2" {
	skip_if_grep
	fixture in 'a\n'
	# each refusal gives its true reason: only unbounded repetition makes
	# an infinite set
	local infinite='acgrep searches only patterns that match a finite set of strings'
	local bound='acgrep expands the patterns into at most 1,000,000 strings or 64 MiB'
	local anchor='grep selects lines by it but its -o, --color and -w matches disagree'
	local context='acgrep does not expand word or buffer anchors or backslash classes'
	local undefined='POSIX leaves its meaning undefined'
	local -a cases=(
		'ab*' 'byte 3: * (unbounded repetition)' "$infinite"
		'ab+' 'byte 3: + (unbounded repetition)' "$infinite"
		'a{2,}' 'byte 2: {n,} (unbounded repetition)' "$infinite"
		'a{,}' 'byte 2: {n,} (unbounded repetition)' "$infinite"
		'(a)\1' 'byte 4: a back-reference' 'acgrep does not expand back-references'
		'(a(b)\2)' 'byte 6: a back-reference' 'acgrep does not expand back-references'
		'\<a' 'byte 1: \< (a word or buffer anchor or class)' "$context"
		'a\b' 'byte 2: \b (a word or buffer anchor or class)' "$context"
		'\w' 'byte 1: \w (a word or buffer anchor or class)' "$context"
		'\d' 'byte 1: \d (an escape of an ordinary character)' "$undefined"
		'*a' 'byte 1: * at the start of an expression' "$undefined"
		'[a-z]{5}' 'byte 6: an expansion past the bound' "$bound"
		'(^A|){2}B' 'byte 2: ^ inside a group that repeats' "$anchor"
		'x$?' 'byte 2: ? after the anchor $' "$anchor"
	)
	local i
	LC_ALL=C.UTF-8 run_ac -E $'[[.\xff.]]' in
	expect_status 2
	expect_stderr_matches "byte 1: a collating element or equivalence class of a byte that is not a character is not supported: acgrep expands bracket expressions into whole characters only; grep -E can search this one$"
	for ((i = 0; i < ${#cases[@]}; i += 3)); do
		LC_ALL=C run_ac -E "${cases[i]}" in
		expect_status 2
		expect_out ''
		printf 'acgrep: -E pattern '\''%s'\'': %s is not supported: %s; grep -E can search this one\n' \
			"${cases[i]}" "${cases[i + 1]}" "${cases[i + 2]}" >"$OUTD/want"
		cmp "$OUTD/want" "$OUTD/ac.err" || { diff "$OUTD/want" "$OUTD/ac.err" | fail; return 1; }
	done
	# -x and -w: grep's wrapping group is closed by an unmatched ), which
	# moves it to the pattern's end ('a)b' -x selects 'ab)'); a ) at the
	# end moves nowhere
	local o p
	for o in -x -w; do
		LC_ALL=C run_ac "$o" -E 'a)b' in
		expect_status 2
		expect_stderr_matches "^PROG: -E pattern 'a\)b': byte 2: an unmatched \) followed by more of the pattern, with -x or -w, is not supported: grep's -x and -w wrap the pattern in a group that this \) closes; grep -E can search this one$"
		fixture paren 'a)\nab)\na)b\n(a)b)\n'
		for p in 'a)' 'a))' '(a)b)' ')'; do
			in_both_locales re_same "" "$o" -E "$p" paren
		done
	done
	# nesting past the bound is finite too
	awk 'BEGIN { for (i = 0; i < 1001; i++) printf "("; printf "a"
		for (i = 0; i < 1001; i++) printf ")"; print "" }' >nested
	LC_ALL=C run_ac -E -f nested in
	expect_status 2
	expect_stderr_matches "\.\.\.': byte 1001: groups nested more than 1,000 deep is not supported: acgrep parses groups and repetitions at most 1,000 deep; grep -E can search this one$"
	LC_ALL=C.UTF-8 run_ac -E 'a.' in
	expect_status 2
	expect_stderr_matches "byte 2: \. in a UTF-8 locale \(any of 1,112,064 characters\) is not supported"
	LC_ALL=C.UTF-8 run_ac -E '[^a]' in
	expect_status 2
	expect_stderr_matches "byte 1: a negated bracket expression in a UTF-8 locale"
	LC_ALL=C run_ac -G 'a\+' in
	expect_status 2
	expect_stderr_matches "^PROG: -G pattern 'a.\+': byte 2: \+ \(unbounded repetition\) .* grep -G can search this one$"
	LC_ALL=C run_ac -E -e a -e '[a-z]{4}' -e '[a-z]{4}' -e '[a-z]{4}' in
	expect_status 2
	expect_stderr_matches "the patterns expand to more than 1,000,000 strings or 64 MiB, acgrep's bound"
	run_ac -E --engine=pcre2 a in
	expect_status 2
	expect_stderr_matches "^PROG: -E does not go with --engine=pcre2$"
}

@test "regex: a refusal shows at most 60 bytes of its pattern around the byte" {
	skip_if_grep
	fixture in 'a\n'
	# a 1 MB -f line: the message stays one short line, before any input
	awk 'BEGIN { for (i = 0; i < 500000; i++) printf "ab"; printf "(x)+"
		for (i = 0; i < 500000; i++) printf "cd"; print "" }' >big
	local ab cd loc
	ab=b$(printf 'ab%.0s' {1..8})
	cd=$(printf 'cd%.0s' {1..19})c
	printf "acgrep: -E pattern '...%s(x)+%s...': byte 1000004: + (unbounded repetition) is not supported: acgrep searches only patterns that match a finite set of strings; grep -E can search this one\n" \
		"$ab" "$cd" >"$OUTD/want"
	for loc in C C.UTF-8; do
		LC_ALL=$loc run_ac -E -f big missing
		expect_status 2 || return 1
		expect_out '' || return 1
		cmp "$OUTD/want" "$OUTD/ac.err" || { diff "$OUTD/want" "$OUTD/ac.err" | head -c 600 | fail; return 1; }
	done
	# in UTF-8 the excerpt cuts whole characters only; a short pattern is whole
	printf '%s\n' "$(printf 'é%.0s' {1..40})x*" >utf
	LC_ALL=C.UTF-8 run_ac -E -f utf missing
	expect_status 2 || return 1
	printf "acgrep: -E pattern '...%sx*': byte 82: * (unbounded repetition) is not supported: acgrep searches only patterns that match a finite set of strings; grep -E can search this one\n" \
		"$(printf 'é%.0s' {1..29})" >"$OUTD/want"
	cmp "$OUTD/want" "$OUTD/ac.err" || { diff "$OUTD/want" "$OUTD/ac.err" | fail; return 1; }
	LC_ALL=C.UTF-8 run_ac -G -e 'ab\{2,\}' missing
	expect_status 2 || return 1
	expect_stderr_matches "^PROG: -G pattern 'ab.\{2,.\}': byte 3: " || return 1
}

@test "regex: --show-pattern and --count-per-pattern name the regex" {
	skip_if_grep
	fixture in 'error\nwarn x\nfoo\n'
	expect 0 'error|warn:error\nerror|warn:warn x\n^f:foo\n' -- --show-pattern -E -e 'error|warn' -e '^f' in
	expect 0 '1\t1\t1\t^warn\n1\t1\t1\tx\n' -- --count-per-pattern -E -e '^warn' -e 'warn' -e x in
}
