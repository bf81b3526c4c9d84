#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --show-pattern[=WHAT] and --show-all-patterns[=WHAT] (acgrep extensions):
# the pattern of a line's first match (or every distinct one) as a field
# after the name, line number and byte offset, ':' or '-' as grep's own
# fields, empty on lines holding no match.  Every exact check runs in each
# way a search can run (WAYS) and in both locales; with the field taken out
# the output is GNU grep -F's.

load helpers

setup() {
	common_setup
	skip_if_grep "--show-pattern"
	fixture iocs.tsv 'evil\tbad.example\nevil\t10.0.0.1\nphish\t\t\tlogin-now\ndup\tbad.example\n'
	fixture log 'ok line\nGET bad.example from 10.0.0.1\nlogin-now please\nnothing\n10.0.0.1 and login-now\n'
}

# The ways a search can run: scan paths, vector kernels, I/O paths, threads.
WAYS=(
	"--threads=1"
	"--threads=1 --scan-path=dfa --simd=scalar"
	"--threads=1 --scan-path=bitmap"
	"--threads=1 --scan-path=bitmap --simd=scalar"
	"--threads=1 --scan-path=memchr"
	"--threads=1 --scan-path=teddy"
	"--threads=1 --scan-path=teddy --simd=scalar"
	"--threads=1 --scan-path=hash"
	"--threads=1 --scan-path=hash --simd=scalar"
	"--threads=1 --mmap"
	"--threads=1 --no-mmap --buffer-size=1"
	"--threads=3 --segment-size=7"
	"--threads=3 --segment-size=7 --no-mmap --buffer-size=1"
)

# _split FORMAT [ARGS...] -- ACGREP-ARGS...: sets sp_fmt to the printf
# words before "--" and sp_args to those after it.
_split() {
	sp_fmt=()
	while (($#)) && [[ $1 != -- ]]; do
		sp_fmt+=("$1")
		shift
	done
	sp_args=("${@:2}")
}

# _each_way STATUS FORMAT [ARGS...] -- ACGREP-ARGS...: runs every way and
# compares each output with the expected bytes (same_bytes, in bash); a
# way that differs is run again by `expect` (its options first), which
# says how.  Runs untraced (helpers.bash).
_each_way() {
	untraced _each_way_now "$@"
}

_each_way_now() {
	local st=$1 i=0 way s
	local -a w
	shift
	_split "$@"
	# shellcheck disable=SC2059
	printf -- "${sp_fmt[@]}" >"$OUTD/way.expected"
	for way in "${WAYS[@]}"; do
		read -r -a w <<<"$way"
		s=0
		"$ACGREP" "${w[@]}" "${sp_args[@]}" <"${SAG_STDIN:-/dev/null}" >"$OUTD/way.$i" 2>"$OUTD/way.$i.err" || s=$?
		[[ -s $OUTD/way.$i.err ]] && s=stderr
		if [[ $s != "$st" ]] || ! same_bytes "$OUTD/way.expected" "$OUTD/way.$i"; then
			note_case "$way" expect "$st" "${sp_fmt[@]}" -- "${w[@]}" "${sp_args[@]}" &&
				note_case "$way" expect_no_stderr
			return 1
		fi
		i=$((i + 1))
	done
}

# every_way STATUS FORMAT [ARGS...] -- ACGREP-ARGS...: `expect` in every
# way of WAYS, under LC_ALL=C and C.UTF-8.
every_way() {
	in_both_locales _each_way "$@"
}

# utf8_every_way: every_way under C.UTF-8 alone.
utf8_every_way() {
	LC_ALL=C.UTF-8 _each_way "$@"
}

@test "show-pattern: a line names its first match's tag, text or number" {
	every_way 0 'evil:GET bad.example from 10.0.0.1\nphish:login-now please\nevil:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-pattern log
	every_way 0 'evil:GET bad.example from 10.0.0.1\nphish:login-now please\nevil:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-pattern=tag log
	every_way 0 'bad.example:GET bad.example from 10.0.0.1\nlogin-now:login-now please\n10.0.0.1:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-pattern=text log
	every_way 0 '1:GET bad.example from 10.0.0.1\n3:login-now please\n2:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-pattern=number log
}

@test "show-all-patterns: every distinct pattern, in order of first occurrence" {
	fixture more 'login-now bad.example login-now 10.0.0.1\n'
	every_way 0 'evil:GET bad.example from 10.0.0.1\nphish:login-now please\nevil,phish:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-all-patterns log
	every_way 0 'bad.example,10.0.0.1:GET bad.example from 10.0.0.1\nlogin-now:login-now please\n10.0.0.1,login-now:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-all-patterns=text log
	every_way 0 '1,2:GET bad.example from 10.0.0.1\n3:login-now please\n2,3:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-all-patterns=number log
	# one tag of two patterns is named once
	every_way 0 'phish,evil:login-now bad.example login-now 10.0.0.1\n' \
		-- --tagged-file=iocs.tsv --show-all-patterns more
	every_way 0 'login-now,bad.example,10.0.0.1:login-now bad.example login-now 10.0.0.1\n' \
		-- --tagged-file=iocs.tsv --show-all-patterns=text more
	every_way 0 '3,1,2:login-now bad.example login-now 10.0.0.1\n' \
		-- --tagged-file=iocs.tsv --show-all-patterns=number more
}

@test "show-all-patterns: the matches -o prints, leftmost-longest, not overlapping" {
	fixture in 'ushers\nhishe\n'
	every_way 0 'she:ushers\nhis,he:hishe\n' \
		-- --show-all-patterns -e he -e she -e his -e hers in
	every_way 0 '2:ushers\n3,1:hishe\n' \
		-- --show-all-patterns=number -e he -e she -e his -e hers in
}

@test "show-pattern: without a tagged list a pattern's tag is its text" {
	fixture pats 'login-now\n10.0.0.1\n'
	every_way 0 '10.0.0.1:GET bad.example from 10.0.0.1\nlogin-now:login-now please\n10.0.0.1:10.0.0.1 and login-now\n' \
		-- --show-pattern -e login-now -e 10.0.0.1 log
	every_way 0 '2:GET bad.example from 10.0.0.1\n1:login-now please\n2:10.0.0.1 and login-now\n' \
		-- --show-pattern=number -f pats log
	every_way 0 'login-now:login-now please\nlogin-now:10.0.0.1 and login-now\n' -- --show-pattern login-now log
}

@test "show-pattern: tagged lists, -e and -f in command-line order" {
	fixture pats 'ok\n'
	every_way 0 '6:ok line\n2:GET bad.example from 10.0.0.1\n4:login-now please\n1:nothing\n3:10.0.0.1 and login-now\n' \
		-- --show-pattern=number -e nothing --tagged-file=iocs.tsv -f pats log
	every_way 0 'ok:ok line\nevil:GET bad.example from 10.0.0.1\nphish:login-now please\nnothing:nothing\nevil:10.0.0.1 and login-now\n' \
		-- --show-pattern -e nothing --tagged-file=iocs.tsv -f pats log
	# an untagged pattern named as a tag is that tag
	fixture in 'evil bad.example\n'
	every_way 0 'evil:evil bad.example\n' -- --show-all-patterns -e evil --tagged-file=iocs.tsv in
	every_way 0 '1,2:evil bad.example\n' -- --show-all-patterns=number -e evil --tagged-file=iocs.tsv in
}

@test "show-pattern: duplicates are credited to the first listed, under -i too" {
	fixture dup.tsv 'first\tfoo\nsecond\tfoo\nthird\tFOO\n'
	fixture in 'foo FOO\nFOO\n'
	every_way 0 'first,third:foo FOO\nthird:FOO\n' -- --tagged-file=dup.tsv --show-all-patterns in
	every_way 0 '1,3:foo FOO\n3:FOO\n' -- --tagged-file=dup.tsv --show-all-patterns=number in
	every_way 0 'first:foo FOO\nfirst:FOO\n' -- -i --tagged-file=dup.tsv --show-all-patterns in
	every_way 0 'foo:foo FOO\nfoo:FOO\n' -- -i --tagged-file=dup.tsv --show-all-patterns=text in
	every_way 0 '1:foo FOO\n1:FOO\n' -- -i --tagged-file=dup.tsv --show-pattern=number in
}

@test "show-pattern: -i names the pattern as listed; in UTF-8 it folds é" {
	fixture ci.tsv 'x\tBad.Example\ny\t\303\211t\303\251\n'
	fixture in 'GET bad.example\n\303\251t\303\251\n'
	LC_ALL=C _each_way 0 'Bad.Example:GET bad.example\n' -- -i --tagged-file=ci.tsv --show-pattern=text in
	utf8_every_way 0 'Bad.Example:GET bad.example\n\303\211t\303\251:\303\251t\303\251\n' \
		-- -i --tagged-file=ci.tsv --show-pattern=text in
	utf8_every_way 0 'x:GET bad.example\ny:\303\251t\303\251\n' -- -i --tagged-file=ci.tsv --show-pattern in
}

@test "show-pattern: -w and -x decide the match that names the line" {
	fixture w.tsv 'short\tlogin\nlong\tlogin-now\n'
	fixture in 'login-nowhere login\nlogin-now x\n'
	every_way 0 'long:login-nowhere login\nlong:login-now x\n' -- --tagged-file=w.tsv --show-pattern in
	every_way 0 'short:login-nowhere login\nlong:login-now x\n' -- -w --tagged-file=w.tsv --show-pattern in
	every_way 0 'short:login\nshort:login\nlong:login-now\n' -- -o -w --tagged-file=w.tsv --show-pattern in
	fixture x.tsv 'a\tok\nb\tok line\n'
	fixture in2 'ok line\nok\nok lines\n'
	every_way 0 'b:ok line\na:ok\n' -- -x --tagged-file=x.tsv --show-pattern in2
	every_way 0 'b:ok line\na:ok\nb:ok lines\n' -- --tagged-file=x.tsv --show-pattern in2
	every_way 0 'b:ok line\na:ok\n' -- -x -w --tagged-file=x.tsv --show-all-patterns -e line in2
}

@test "show-pattern: -n, -b and -H come first, then the field" {
	every_way 0 'log:2:8:evil:GET bad.example from 10.0.0.1\nlog:3:38:phish:login-now please\nlog:5:63:evil:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-pattern -n -b -H log
	every_way 0 '2:evil:GET bad.example from 10.0.0.1\n3:phish:login-now please\n5:evil:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-pattern -n log
	every_way 0 'log:evil:GET bad.example from 10.0.0.1\nlog:phish:login-now please\nlog:evil:10.0.0.1 and login-now\n' \
		-- --tagged-file=iocs.tsv --show-pattern -H log
}

@test "show-pattern: -o names each match's own pattern" {
	every_way 0 '12:1:bad.example\n29:2:10.0.0.1\n38:3:login-now\n63:2:10.0.0.1\n76:3:login-now\n' \
		-- -o -b --tagged-file=iocs.tsv --show-pattern=number log
	every_way 0 '12:1:bad.example\n29:2:10.0.0.1\n38:3:login-now\n63:2:10.0.0.1\n76:3:login-now\n' \
		-- -o -b --tagged-file=iocs.tsv --show-all-patterns=number log
	every_way 0 'log:2:evil:bad.example\nlog:2:evil:10.0.0.1\nlog:3:phish:login-now\nlog:5:evil:10.0.0.1\nlog:5:phish:login-now\n' \
		-- -o -n -H --tagged-file=iocs.tsv --show-all-patterns log
}

@test "show-pattern: context lines hold an empty field, '-' separated" {
	every_way 0 '1--ok line\n2:evil:GET bad.example from 10.0.0.1\n3:phish:login-now please\n4--nothing\n5:evil:10.0.0.1 and login-now\n' \
		-- -n -C1 --tagged-file=iocs.tsv --show-pattern log
	every_way 0 'log-1--ok line\nlog:2:evil:GET bad.example from 10.0.0.1\n' \
		-- -H -n -B1 -m1 --tagged-file=iocs.tsv --show-pattern log
	# the trailing context after -m holds a match, yet is context
	every_way 0 'evil:GET bad.example from 10.0.0.1\n-login-now please\n' \
		-- -m1 -A1 --tagged-file=iocs.tsv --show-pattern log
	fixture in 'foo\na\nb\nc\nfoo\n'
	every_way 0 '1:foo:foo\n2--a\n--\n5:foo:foo\n' -- -n -A1 --show-pattern foo in
	every_way 0 'foo:foo\n-a\n@@\nfoo:foo\n' -- -A1 --group-separator=@@ --show-pattern foo in
}

@test "show-pattern: -v selects lines holding no match; its context lines hold them" {
	every_way 0 ':ok line\n:nothing\n' -- -v --tagged-file=iocs.tsv --show-pattern log
	every_way 0 '1::ok line\n2-evil-GET bad.example from 10.0.0.1\n3-phish-login-now please\n4::nothing\n5-evil,phish-10.0.0.1 and login-now\n' \
		-- -v -n -C1 --tagged-file=iocs.tsv --show-all-patterns log
	every_way 0 '4::nothing\n' -- -v -n -m2 -e ok -e bad -e login -e 10 --show-pattern log
}

@test "show-pattern: -Z ends the field with NUL, as the name" {
	fixture colon.tsv 'tag:1\tlogin-now\nx:y\t10.0.0.1\n'
	every_way 0 'log\000x:y\000GET bad.example from 10.0.0.1\nlog\000tag:1\000login-now please\nlog\000x:y\00010.0.0.1 and login-now\n' \
		-- -Z -H --tagged-file=colon.tsv --show-pattern log
	every_way 0 'x:y\000GET bad.example from 10.0.0.1\ntag:1\000login-now please\nx:y\00010.0.0.1 and login-now\n' \
		-- -Z --tagged-file=colon.tsv --show-pattern log
	every_way 0 'log\0001-\000ok line\nlog\0002:x:y\000GET bad.example from 10.0.0.1\n' \
		-- -Z -H -n -B1 -m1 --tagged-file=colon.tsv --show-pattern log
	fixture l5 '10.0.0.1 and login-now\n'
	every_way 0 'x:y,tag:1\00010.0.0.1 and login-now\n' -- -Z --tagged-file=colon.tsv --show-all-patterns l5
}

@test "show-pattern: -T puts the text after the field on a tab stop" {
	every_way 0 'evil:\tGET bad.example from 10.0.0.1\nphish:\tlogin-now please\nevil:\t10.0.0.1 and login-now\n' \
		-- -T --tagged-file=iocs.tsv --show-pattern log
	every_way 0 'log:evil:\tGET bad.example from 10.0.0.1\n' -- -T -H -m1 --tagged-file=iocs.tsv --show-pattern log
	# no tab before an empty line, as grep
	fixture in 'foo\n\nfoo\n'
	every_way 0 'foo:\tfoo\n-\nfoo:\tfoo\n' -- -T -C1 --show-pattern foo in
	every_way 0 'foo:\tfoo\nfoo:\tfoo\n' -- -T -o --show-pattern foo in
}

@test "show-pattern: --color paints the field in pt, ms's colour unless set" {
	local m=$'\e[01;31m\e[K' e=$'\e[m\e[K' s=$'\e[36m\e[K'
	every_way 0 "${m}bad.example${e}${s}:${e}GET ${m}bad.example${e} from 10.0.0.1\n" \
		-- --color=always --show-pattern -e bad.example log
	every_way 0 "${m}1,2${e}${s}:${e}GET ${m}bad.example${e} from ${m}10.0.0.1${e}\n" \
		-- --color=always --show-all-patterns=number -e bad.example -e 10.0.0.1 -m1 log
	every_way 0 "${s}-${e}ok line\n${m}evil${e}${s}:${e}GET ${m}bad.example${e} from ${m}10.0.0.1${e}\n" \
		-- --color=always -B1 -m1 --tagged-file=iocs.tsv --show-pattern log
	export GREP_COLORS='pt=01;32'
	every_way 0 $'\e[01;32m\e[Kbad.example'"${e}${s}:${e}GET ${m}bad.example${e} from 10.0.0.1\n" \
		-- --color=always --show-pattern -e bad.example log
	export GREP_COLORS='ms=01;34:se='
	every_way 0 $'\e[01;34m\e[Kbad.example\e[m\e[K:GET \e[01;34m\e[Kbad.example\e[m\e[K from 10.0.0.1\n' \
		-- --color=always --show-pattern -e bad.example log
	export GREP_COLORS='pt=:se='
	every_way 0 "bad.example:GET ${m}bad.example${e} from 10.0.0.1\n" \
		-- --color=always --show-pattern -e bad.example log
	unset GREP_COLORS
}

@test "show-pattern: -c, -l, -L, -q and --count-matches are unchanged" {
	local opt
	for opt in --show-pattern --show-all-patterns=number; do
		every_way 0 '3\n' -- -c --tagged-file=iocs.tsv "$opt" log
		every_way 0 'log:3\n' -- -c -H --tagged-file=iocs.tsv "$opt" log
		every_way 0 'log\n' -- -l --tagged-file=iocs.tsv "$opt" log
		every_way 0 '' -- -L --tagged-file=iocs.tsv "$opt" log
		every_way 0 '' -- -q --tagged-file=iocs.tsv "$opt" log
		every_way 0 '5\n' -- --count-matches --tagged-file=iocs.tsv "$opt" log
		every_way 1 '' -- --tagged-file=iocs.tsv "$opt" -e absent /dev/null
	done
}

@test "show-pattern: -z records; the tagged list is still split on newlines" {
	fixture in 'ok\000GET bad.example\000login-now\000'
	every_way 0 'evil:GET bad.example\000phish:login-now\000' -- -z --tagged-file=iocs.tsv --show-pattern in
	every_way 0 '1:bad.example\0003:login-now\000' -- -z -o --tagged-file=iocs.tsv --show-pattern=number in
}

@test "show-pattern: the empty pattern names the lines it alone selects" {
	fixture in 'xfoo\nbar\n\n'
	every_way 0 '2:xfoo\n1:bar\n1:\n' -- --show-pattern=number -e '' -e foo in
	every_way 0 '2:xfoo\n1:bar\n1:\n' -- --show-all-patterns=number -e '' -e foo in
	every_way 0 'foo:xfoo\n:bar\n:\n' -- --show-pattern -e '' -e foo in
	every_way 0 '1:foo:foo\n' -- -o -n --show-pattern -e '' -e foo in
}

@test "show-pattern: no pattern at all (-v) selects every line and names none" {
	every_way 0 ':ok line\n:GET bad.example from 10.0.0.1\n:login-now please\n:nothing\n:10.0.0.1 and login-now\n' \
		-- -v -f /dev/null --show-pattern=number log
	every_way 0 '1::ok line\n2::GET bad.example from 10.0.0.1\n3::login-now please\n4::nothing\n5::10.0.0.1 and login-now\n' \
		-- -n -v --tagged-file=/dev/null --show-all-patterns=text log
	every_way 1 '' -- --tagged-file=/dev/null --show-pattern log
}

@test "show-pattern: the last of --show-pattern and --show-all-patterns decides" {
	fixture l5 '10.0.0.1 and login-now\n'
	every_way 0 'evil,phish:10.0.0.1 and login-now\n' \
		-- --show-pattern=text --show-all-patterns --tagged-file=iocs.tsv l5
	every_way 0 '10.0.0.1:10.0.0.1 and login-now\n' \
		-- --show-all-patterns --show-pattern=text --tagged-file=iocs.tsv l5
}

@test "show-pattern: WHAT is checked, and --engine=pcre2 cannot name patterns" {
	run_ac --show-pattern=tags x log
	expect_status 2
	expect_out ''
	expect_stderr_matches "^PROG: invalid argument 'tags' for '--show-pattern'$"
	run_ac --engine=pcre2 --show-pattern x log
	expect_status 2
	expect_out ''
	[[ $(<"$OUTD/ac.err") == "acgrep: --show-pattern needs --engine=ac" ]]
	run_ac --show-all-patterns=number --engine=pcre2 x log
	expect_status 2
	[[ $(<"$OUTD/ac.err") == "acgrep: --show-all-patterns needs --engine=ac" ]]
}

@test "show-pattern: a tree under -r, every way the same" {
	local d f
	for d in a b c; do
		for f in 1 2 3 4; do
			fixture "t/$d/f$f" 'x\nGET bad.example %s\nlogin-now %s\n10.0.0.1 login-now\nz\n' "$d" "$f"
		done
	done
	run_ac --threads=1 -r -n --tagged-file=iocs.tsv --show-all-patterns t
	expect_status 0
	cp "$OUTD/ac.out" "$OUTD/ref"
	local way
	for way in "--threads=4" "--threads=3 --segment-size=7" "--threads=2 --mmap" "--no-mmap --buffer-size=1"; do
		# shellcheck disable=SC2086
		run_ac $way -r -n --tagged-file=iocs.tsv --show-all-patterns t
		cmp "$OUTD/ref" "$OUTD/ac.out" || fail "differs with $way"
	done
	"$GREP" -c 'evil,phish' "$OUTD/ref" | "$GREP" -qx 12
}

# ---- with the field taken out, the output is GNU grep -F's ----------------

# strip_field N TAB Z: stdin without the pattern field of --show-*=number
# (digits and commas, maybe coloured) after N head fields (name, -n, -b;
# none of them holding ':' or '-'), and with N = 0 and TAB = 1 the -T tab
# after it; records end in NUL when Z = 1.  Group separators pass; a
# record without the field is an error.
strip_field() {
	perl -e '
		my ($n, $tab, $z) = @ARGV;
		$/ = $z ? "\0" : "\n";
		my $sgr = qr/\e\[[0-9;]*m\e\[K/;
		while (<STDIN>) {
			if ($_ ne "--\n") {
				s/^((?:[^:\-\0]*[:\-\0]){$n})(?:$sgr)?[0-9,]*(?:$sgr)?[:\-\0]/$1/
					or die "no pattern field: $_";
				s/^\t// if $n == 0 && $tab;
			}
			print;
		}' "$@"
}

# strip_same_as_grep N ARGS...: `grep -F -f pats ARGS` prints what
# `acgrep --tagged-file=tags.tsv --show-all-patterns=number ARGS` does, its
# field (after N head fields) taken out, with the same status.  With N =
# "none", acgrep runs with --show-pattern and its output is taken as it is
# (-c, -l, -L and -q print no field).
strip_same_as_grep() {
	local n=$1 gs=0 as=0 tab=0 z=0 show=--show-all-patterns=number
	shift
	[[ " $* " == *" -T "* ]] && tab=1
	[[ " $* " == *" -z "* ]] && z=1
	[[ $n == none ]] && show=--show-pattern
	"$GREP" -F -f pats "$@" >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
	"$ACGREP" --tagged-file=tags.tsv "$show" "$@" >"$OUTD/a.raw" 2>"$OUTD/a.err" || as=$?
	if [[ $n == none ]]; then
		cp "$OUTD/a.raw" "$OUTD/a.out"
	else
		strip_field "$n" "$tab" "$z" <"$OUTD/a.raw" >"$OUTD/a.out" || return 1
	fi
	echo "$gs" >"$OUTD/g.rc"
	echo "$as" >"$OUTD/a.rc"
	local args
	printf -v args '%q ' "$@"
	_compare "$show, field stripped; args: $args"
}

strip_cases() {
	strip_same_as_grep 0 in || return 1
	strip_same_as_grep 1 -n in || return 1
	strip_same_as_grep 1 -b in || return 1
	strip_same_as_grep 1 -H in || return 1
	strip_same_as_grep 3 -H -n -b in || return 1
	strip_same_as_grep 0 -o in || return 1
	strip_same_as_grep 2 -o -b -n in || return 1
	strip_same_as_grep 0 -v in || return 1
	strip_same_as_grep 1 -v -n -C1 in || return 1
	strip_same_as_grep 1 -n -C1 in || return 1
	strip_same_as_grep 1 -H -A1 -B2 in || return 1
	strip_same_as_grep 0 -m2 -A1 in || return 1
	strip_same_as_grep 0 -i in || return 1
	strip_same_as_grep 1 -i -o -n in || return 1
	strip_same_as_grep 0 -w in || return 1
	strip_same_as_grep 0 -w -o in || return 1
	strip_same_as_grep 0 -x in || return 1
	strip_same_as_grep 0 -x -w in || return 1
	strip_same_as_grep 0 -T in || return 1
	strip_same_as_grep 2 -T -n -H in || return 1
	strip_same_as_grep 1 -Z -H in || return 1
	strip_same_as_grep 1 -Z -H -o in || return 1
	strip_same_as_grep 2 -H -n in in2 || return 1
	strip_same_as_grep 1 -r -C1 d || return 1
	strip_same_as_grep 0 --color=always -i in || return 1
	strip_same_as_grep 2 --color=always -H -n -C1 in || return 1
	strip_same_as_grep 0 -z zin || return 1
	strip_same_as_grep 1 -z -o -b zin || return 1
	strip_same_as_grep none -c in in2 || return 1
	strip_same_as_grep none -l in in2 || return 1
	strip_same_as_grep none -L in in2 || return 1
	strip_same_as_grep none -q in || return 1
}

@test "show-pattern: without the field, the output is grep -F's" {
	fixture tags.tsv 'a\the\nb\tshe\nc\t\this\nd\thers\ne\tFoo\nf\tfoo\ng\t\303\251t\303\251\nh\tx y\ni\tok line\nj\ta:b\nk\tfoo\n'
	fixture pats 'he\nshe\nhis\nhers\nFoo\nfoo\n\303\251t\303\251\nx y\nok line\na:b\nfoo\n'
	fixture in 'ushers and hishe\nFOO foo Foo\nfoobar\nok line\nnothing here\n\303\211T\303\211 \303\251t\303\251\nx  y x y\na:b:c\n\nhe\nlast hers\n'
	fixture in2 'none\n'
	fixture d/one 'his\nplain\nshe\n'
	fixture d/two 'plain\nfoo\n'
	fixture zin 'ushers\000plain\nline\000he she\000Foo\000'
	export GREP_COLORS='se='
	in_both_locales strip_cases
}
