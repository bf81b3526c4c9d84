#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --json (acgrep extension): ripgrep's JSON Lines records, each submatch
# naming its pattern.  Outputs are parsed by Python's json module
# (json_check.py: types, field order, offsets and line numbers against the
# input's bytes, submatch bounds, base64, statistics) and compared byte for
# byte with the timing fields masked; across locales, scan paths, I/O paths
# and threads they are the same bytes.

load helpers
load report

setup() {
	common_setup
	skip_if_grep "--json"
	command -v python3 >/dev/null || skip "python3 is needed to parse JSON"
}

CHECK=$BATS_TEST_DIRNAME/json_check.py

# mask_times: the timing fields zeroed (they are all a test cannot know).
mask_times() {
	sed -E -e 's/"(secs|nanos)":[0-9]+/"\1":0/g' -e 's/"human":"[0-9]+\.[0-9]{6}s"/"human":"0.000000s"/g'
}

# json_valid CHECK-ARGS -- ACGREP-ARGS...: acgrep --json ACGREP-ARGS parsed
# and checked by json_check.py CHECK-ARGS against the inputs.
json_valid() {
	local -a check=()
	while [[ $1 != -- ]]; do
		check+=("$1")
		shift
	done
	shift
	run_ac --json "$@"
	if ! python3 "$CHECK" "$OUTD/ac.out" "${check[@]}" >"$OUTD/check" 2>&1; then
		{
			echo "json_check failed: $(_ac_where)"
			cat "$OUTD/check" "$OUTD/ac.err"
		} | fail
		return 1
	fi
}

# The scan paths, I/O paths and thread settings every output must survive.
VARIANTS=(
	"--scan-path=dfa" "--scan-path=bitmap" "--scan-path=memchr" "--scan-path=teddy"
	"--scan-path=hash" "--simd=scalar" "--mmap" "--no-mmap --buffer-size=1"
	"--threads=1" "--threads=3 --segment-size=7"
)

# A file of 3,000 lines, some with several matches, some not UTF-8, a few
# with control characters.
mixed_file() {
	python3 - "$1" <<'EOF'
import sys
words = [b"hello", b"Hello", b"world", b"foo", b"foobar", b"bar", b"x\xffy", b"\xc3\xa9t\xc3\xa9",
         b"tab\tq\"b\\s", b"\x01ctl", b"to", b"into", b"HELLO"]
out = []
for i in range(3000):
    k = (i * 7919) % 13
    out.append(b" ".join(words[(k + j * 5) % len(words)] for j in range(i % 6)))
open(sys.argv[1], "wb").write(b"\n".join(out) + b"\n")
EOF
}

@test "json: records and fields as ripgrep writes them" {
	fixture in 'hello world\nfoo bar\nnothing\nbar hello bar\n'
	run_ac --json -e hello -e bar in
	expect_status 0
	expect_no_stderr
	expect_masked <<'EOF'
{"type":"begin","data":{"path":{"text":"in"}}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"hello world\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"hello"},"start":0,"end":5,"pattern":1,"tag":{"text":"hello"}}]}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"foo bar\n"},"line_number":2,"absolute_offset":12,"submatches":[{"match":{"text":"bar"},"start":4,"end":7,"pattern":2,"tag":{"text":"bar"}}]}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"bar hello bar\n"},"line_number":4,"absolute_offset":28,"submatches":[{"match":{"text":"bar"},"start":0,"end":3,"pattern":2,"tag":{"text":"bar"}},{"match":{"text":"hello"},"start":4,"end":9,"pattern":1,"tag":{"text":"hello"}},{"match":{"text":"bar"},"start":10,"end":13,"pattern":2,"tag":{"text":"bar"}}]}}
{"type":"end","data":{"path":{"text":"in"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":0,"human":"0.000000s"},"searches":1,"searches_with_match":1,"bytes_searched":42,"bytes_printed":830,"matched_lines":3,"matches":5}}}
{"data":{"elapsed_compile":{"human":"0.000000s","nanos":0,"secs":0},"elapsed_total":{"human":"0.000000s","nanos":0,"secs":0},"stats":{"bytes_printed":830,"bytes_searched":42,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"lines_searched":4,"matched_lines":3,"matches":5,"patterns":2,"patterns_seen":2,"searches":1,"searches_with_match":1}},"type":"summary"}
EOF
	# bytes_printed is the size of the records before the end record
	[[ $(head -n 4 "$OUTD/ac.out" | wc -c) == 830 ]]
	printf 'hello\nbar\n' >pats
	json_valid --patterns pats -- -e hello -e bar in
}

@test "json: escapes, and base64 for bytes that are not UTF-8" {
	fixture in 'say "hi" \\ \t\001\037 \010\014\r hello\n\377 hello\n\303\251t\303\251 hello\n'
	fixture $'n\xffame' 'hello\n'
	run_ac --json -h hello in $'n\xffame'
	expect_status 0
	expect_masked <<'EOF'
{"type":"begin","data":{"path":{"text":"in"}}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"say \"hi\" \\ \t\u0001\u001f \b\f\r hello\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"hello"},"start":19,"end":24,"pattern":1,"tag":{"text":"hello"}}]}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"bytes":"/yBoZWxsbwo="},"line_number":2,"absolute_offset":25,"submatches":[{"match":{"text":"hello"},"start":2,"end":7,"pattern":1,"tag":{"text":"hello"}}]}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"été hello\n"},"line_number":3,"absolute_offset":33,"submatches":[{"match":{"text":"hello"},"start":6,"end":11,"pattern":1,"tag":{"text":"hello"}}]}}
{"type":"end","data":{"path":{"text":"in"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":0,"human":"0.000000s"},"searches":1,"searches_with_match":1,"bytes_searched":45,"bytes_printed":715,"matched_lines":3,"matches":3}}}
{"type":"begin","data":{"path":{"bytes":"bv9hbWU="}}}
{"type":"match","data":{"path":{"bytes":"bv9hbWU="},"lines":{"text":"hello\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"hello"},"start":0,"end":5,"pattern":1,"tag":{"text":"hello"}}]}}
{"type":"end","data":{"path":{"bytes":"bv9hbWU="},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":0,"human":"0.000000s"},"searches":1,"searches_with_match":1,"bytes_searched":6,"bytes_printed":266,"matched_lines":1,"matches":1}}}
{"data":{"elapsed_compile":{"human":"0.000000s","nanos":0,"secs":0},"elapsed_total":{"human":"0.000000s","nanos":0,"secs":0},"stats":{"bytes_printed":981,"bytes_searched":51,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"lines_searched":4,"matched_lines":4,"matches":4,"patterns":1,"patterns_seen":1,"searches":2,"searches_with_match":2}},"type":"summary"}
EOF
	# DEL (0x7f) is not a control character to JSON: as it is
	fixture del 'a\177b\n'
	run_ac --json a del
	grep -q '"lines":{"text":"a'$'\x7f''b\\n"}' "$OUTD/ac.out"
}

@test "json: every invalid UTF-8 shape is base64, every valid one text" {
	local s
	# overlong, surrogate, past U+10FFFF, cut off, stray continuation; then
	# the longest valid forms
	for s in '\300\200' '\340\200\200' '\355\240\200' '\364\220\200\200' '\342\202' '\200' '\370\210\200\200\200'; do
		fixture in "a${s}b\n"
		run_ac --json a in
		[[ $(sed -n 2p "$OUTD/ac.out") == *'"lines":{"bytes":'* ]] || { echo "# not bytes: $s" >&2; return 1; }
		json_valid -- a in || return 1
	done
	for s in '\337\277' '\357\277\277' '\364\217\277\277' '\360\220\200\200' '\355\237\277'; do
		fixture in "a${s}b\n"
		run_ac --json a in
		[[ $(sed -n 2p "$OUTD/ac.out") == *'"lines":{"text":'* ]] || { echo "# not text: $s" >&2; return 1; }
		json_valid -- a in || return 1
	done
}

@test "json: offsets, line numbers and submatches check out with -i -w -x -v -n -m and context" {
	mixed_file in
	printf 'hello\nfoo\nbar\nHELLO\n' >pats
	local opts loc
	for loc in C C.UTF-8; do
		for opts in "" -i -w -x -v -n "-m 7" "-C 2" "-A 1 -v" "-B 3 -m 20" -o "-i -w" "-w -v -C1"; do
			# shellcheck disable=SC2086
			LC_ALL=$loc note_case "$loc $opts" json_valid --patterns pats -- $opts -f pats in || return 1
		done
	done
}

@test "json: submatches are the matches -o prints" {
	mixed_file in
	printf 'hello\nfoo\nbar\nHELLO\nfoobar\n\303\251t\303\251\n' >pats
	local opts loc
	for loc in C C.UTF-8; do
		for opts in "" -i -w -x "-i -w"; do
			# shellcheck disable=SC2086
			LC_ALL=$loc "$ACGREP" -o -b $opts -f pats in >"$OUTD/o" || true
			# shellcheck disable=SC2086
			LC_ALL=$loc "$ACGREP" --json $opts -f pats in | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r["type"] != "match":
        continue
    d = r["data"]
    for s in d["submatches"]:
        m = s["match"]
        t = m["text"].encode("utf-8", "surrogatepass") if "text" in m else __import__("base64").b64decode(m["bytes"])
        sys.stdout.buffer.write(b"%d:" % (d["absolute_offset"] + s["start"]) + t + b"\n")
' >"$OUTD/j"
			same_bytes "$OUTD/o" "$OUTD/j" || { echo "# differ: $loc $opts" >&2; diff "$OUTD/o" "$OUTD/j" | head >&2; return 1; }
		done
	done
}

@test "json: the same bytes in both locales, on every scan path, I/O path and thread count" {
	mixed_file in
	mixed_file in2
	printf 'hello\nfoo\nbar\nto\n' >pats
	local opts
	for opts in "" -i -w -v "-C 1" "-m 5 -A 2" -x; do
		# shellcheck disable=SC2086
		note_case "$opts" same_everywhere --json $opts -f pats in in2 || return 1
	done
}

@test "json: several files on three threads give one thread's records" {
	local i
	for i in $(seq 1 30); do
		if ((i % 3)); then fixture "f$i" 'x\nfoo %s\ny\nfoo\n' "$i"; else fixture "f$i" 'none\n'; fi
	done
	run_ac --json --threads=1 -r foo .
	mask_times <"$OUTD/ac.out" >"$OUTD/one"
	run_ac --json --threads=3 -r foo .
	mask_times <"$OUTD/ac.out" | cmp -s - "$OUTD/one"
	run_ac --json --threads=3 foo f*
	mask_times <"$OUTD/ac.out" >"$OUTD/many"
	run_ac --json --threads=1 foo f*
	mask_times <"$OUTD/ac.out" | cmp -s - "$OUTD/many"
	json_valid -- --threads=3 foo f*
	# an input without output lines has no records; the summary counts it
	[[ $(grep -c '"type":"begin"' "$OUTD/ac.out") == 20 ]]
	[[ $(tail -n 1 "$OUTD/ac.out") == *'"searches":30,"searches_with_match":20}'* ]]
}

@test "json: context records and no group separators" {
	fixture in 'a\nfoo\nb\nc\nd\nfoo\ne\n'
	run_ac --json -C1 --group-separator=XX foo in
	expect_status 0
	expect_masked <<'EOF'
{"type":"begin","data":{"path":{"text":"in"}}}
{"type":"context","data":{"path":{"text":"in"},"lines":{"text":"a\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"foo\n"},"line_number":2,"absolute_offset":2,"submatches":[{"match":{"text":"foo"},"start":0,"end":3,"pattern":1,"tag":{"text":"foo"}}]}}
{"type":"context","data":{"path":{"text":"in"},"lines":{"text":"b\n"},"line_number":3,"absolute_offset":6,"submatches":[]}}
{"type":"context","data":{"path":{"text":"in"},"lines":{"text":"d\n"},"line_number":5,"absolute_offset":10,"submatches":[]}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"foo\n"},"line_number":6,"absolute_offset":12,"submatches":[{"match":{"text":"foo"},"start":0,"end":3,"pattern":1,"tag":{"text":"foo"}}]}}
{"type":"context","data":{"path":{"text":"in"},"lines":{"text":"e\n"},"line_number":7,"absolute_offset":16,"submatches":[]}}
{"type":"end","data":{"path":{"text":"in"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":0,"human":"0.000000s"},"searches":1,"searches_with_match":1,"bytes_searched":18,"bytes_printed":944,"matched_lines":2,"matches":2}}}
{"data":{"elapsed_compile":{"human":"0.000000s","nanos":0,"secs":0},"elapsed_total":{"human":"0.000000s","nanos":0,"secs":0},"stats":{"bytes_printed":944,"bytes_searched":18,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"lines_searched":7,"matched_lines":2,"matches":2,"patterns":1,"patterns_seen":1,"searches":1,"searches_with_match":1}},"type":"summary"}
EOF
}

@test "json: -v selects lines without submatches; its context lines list theirs" {
	fixture in 'a\nfoo x foo\nb\n'
	run_ac --json -v -A1 foo in
	expect_status 0
	expect_masked <<'EOF'
{"type":"begin","data":{"path":{"text":"in"}}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"a\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}
{"type":"context","data":{"path":{"text":"in"},"lines":{"text":"foo x foo\n"},"line_number":2,"absolute_offset":2,"submatches":[{"match":{"text":"foo"},"start":0,"end":3,"pattern":1,"tag":{"text":"foo"}},{"match":{"text":"foo"},"start":6,"end":9,"pattern":1,"tag":{"text":"foo"}}]}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"b\n"},"line_number":3,"absolute_offset":12,"submatches":[]}}
{"type":"end","data":{"path":{"text":"in"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":0,"human":"0.000000s"},"searches":1,"searches_with_match":1,"bytes_searched":14,"bytes_printed":575,"matched_lines":2,"matches":0}}}
{"data":{"elapsed_compile":{"human":"0.000000s","nanos":0,"secs":0},"elapsed_total":{"human":"0.000000s","nanos":0,"secs":0},"stats":{"bytes_printed":575,"bytes_searched":14,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"lines_searched":3,"matched_lines":2,"matches":0,"patterns":1,"patterns_seen":0,"searches":1,"searches_with_match":1}},"type":"summary"}
EOF
}

@test "json: -m stops after its trailing context, which lists its matches" {
	fixture in 'foo 1\nfoo 2\nx\nfoo 3\n'
	run_ac --json -m1 -A1 foo in
	expect_status 0
	expect_masked <<'EOF'
{"type":"begin","data":{"path":{"text":"in"}}}
{"type":"match","data":{"path":{"text":"in"},"lines":{"text":"foo 1\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"foo"},"start":0,"end":3,"pattern":1,"tag":{"text":"foo"}}]}}
{"type":"context","data":{"path":{"text":"in"},"lines":{"text":"foo 2\n"},"line_number":2,"absolute_offset":6,"submatches":[{"match":{"text":"foo"},"start":0,"end":3,"pattern":1,"tag":{"text":"foo"}}]}}
{"type":"end","data":{"path":{"text":"in"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":0,"human":"0.000000s"},"searches":1,"searches_with_match":1,"bytes_searched":12,"bytes_printed":451,"matched_lines":1,"matches":1}}}
{"data":{"elapsed_compile":{"human":"0.000000s","nanos":0,"secs":0},"elapsed_total":{"human":"0.000000s","nanos":0,"secs":0},"stats":{"bytes_printed":451,"bytes_searched":12,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"lines_searched":2,"matched_lines":1,"matches":1,"patterns":1,"patterns_seen":1,"searches":1,"searches_with_match":1}},"type":"summary"}
EOF
}

@test "json: a binary file outputs what grep prints of it: here no line, but the summary counts" {
	fixture bin 'foo 1\nbar\nfoo 2\0 x\nfoo 3\n'
	run_ac --json foo bin
	expect_status 0
	expect_stderr_matches '^PROG: bin: binary file matches$'
	expect_masked <<'EOF'
{"data":{"elapsed_compile":{"human":"0.000000s","nanos":0,"secs":0},"elapsed_total":{"human":"0.000000s","nanos":0,"secs":0},"stats":{"bytes_printed":0,"bytes_searched":6,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"lines_searched":1,"matched_lines":1,"matches":1,"patterns":1,"patterns_seen":1,"searches":1,"searches_with_match":1}},"type":"summary"}
EOF
	# -a: every line, NUL and all, and no binary_offset
	run_ac --json -a foo bin
	expect_status 0
	expect_no_stderr
	[[ $(grep -c '"type":"match"' "$OUTD/ac.out") == 3 ]]
	grep -q '"lines":{"text":"foo 2\\u0000 x\\n"}' "$OUTD/ac.out"
	grep -q '"binary_offset":null' "$OUTD/ac.out"
	json_valid -- -a foo bin
	# -I: the file is dropped, only the summary
	run_ac --json -I foo bin
	expect_status 1
	[[ $(wc -l <"$OUTD/ac.out") == 1 ]]
}

@test "json: a binary file after lines output, on every I/O path" {
	python3 -c '
import sys
lines = [b"line %d foo\n" % i for i in range(20000)]
lines[15000] = b"nul\0foo\n"
open("big", "wb").write(b"".join(lines))'
	local ref v
	run_ac --json foo big
	ref=$(mask_times <"$OUTD/ac.out")
	grep -q '"binary_offset":'"$(python3 -c 'print(open("big","rb").read().index(b"\0"))')"',' "$OUTD/ac.out"
	python3 "$CHECK" "$OUTD/ac.out" --inexact >/dev/null
	# the lines grep prints, and no more
	[[ $(grep -c '"type":"match"' "$OUTD/ac.out") == $("$ACGREP" foo big 2>/dev/null | wc -l) ]]
	for v in --mmap --no-mmap --threads=1 "--threads=3 --segment-size=4096" --scan-path=teddy; do
		# shellcheck disable=SC2086
		run_ac --json $v foo big
		[[ $(mask_times <"$OUTD/ac.out") == "$ref" ]] || { echo "# $v" >&2; return 1; }
	done
}

@test "json: in a UTF-8 locale lines that are not UTF-8 are output too" {
	fixture in 'ok foo\n\377 foo\n'
	LC_ALL=C.UTF-8 run_ac --json foo in
	expect_status 0
	expect_no_stderr
	mask_times <"$OUTD/ac.out" >"$OUTD/utf8"
	LC_ALL=C run_ac --json foo in
	mask_times <"$OUTD/ac.out" | cmp -s - "$OUTD/utf8"
	grep -q '"lines":{"bytes":"/yBmb28K"}' "$OUTD/utf8"
}

@test "json: standard input is (standard input), or --label" {
	fixture in 'foo\n'
	SAG_STDIN=in run_ac --json foo
	expect_status 0
	[[ $(head -n 1 "$OUTD/ac.out") == '{"type":"begin","data":{"path":{"text":"(standard input)"}}}' ]]
	SAG_STDIN=in run_ac --json --label=lbl foo - in
	[[ $(head -n 1 "$OUTD/ac.out") == '{"type":"begin","data":{"path":{"text":"lbl"}}}' ]]
	python3 "$CHECK" "$OUTD/ac.out" --stdin in --label lbl >/dev/null
}

@test "json: -r searches a tree in grep's order" {
	fixture d/a 'foo\n'
	fixture d/b/c 'x\nfoo\n'
	fixture d/e 'none\n'
	run_ac --json -r foo d
	expect_status 0
	sed -n 's/^{"type":"begin","data":{"path":{"text":"\(.*\)"}}}$/\1/p' "$OUTD/ac.out" >"$OUTD/names"
	"$GREP" -rl foo d | cmp -s - "$OUTD/names"
	json_valid -- -r foo d
	json_valid -- --threads=3 -r foo d
}

@test "json: patterns by number as given; the same pattern twice, or under -i, is the first" {
	fixture in 'abc ABC xyz\n'
	printf 'xyz\nabc\nabc\nABC\n' >pats
	run_ac --json -f pats in
	grep -q '{"match":{"text":"abc"},"start":0,"end":3,"pattern":2,"tag":{"text":"abc"}},{"match":{"text":"ABC"},"start":4,"end":7,"pattern":4,"tag":{"text":"ABC"}},{"match":{"text":"xyz"},"start":8,"end":11,"pattern":1,"tag":{"text":"xyz"}}' "$OUTD/ac.out"
	grep -q '"patterns":4,"patterns_seen":3,' "$OUTD/ac.out"
	run_ac --json -i -f pats in
	grep -q '{"match":{"text":"abc"},"start":0,"end":3,"pattern":2,"tag":{"text":"abc"}},{"match":{"text":"ABC"},"start":4,"end":7,"pattern":2,"tag":{"text":"abc"}}' "$OUTD/ac.out"
	grep -q '"patterns":4,"patterns_seen":2,' "$OUTD/ac.out"
	json_valid --patterns pats -- -f pats in
}

@test "json: cannot be combined with -c, -l, -L, --count-matches or --engine=pcre2" {
	fixture in 'foo\n'
	local o
	for o in -c -l -L --count-matches; do
		run_ac --json "$o" foo in
		expect_status 2 || return 1
		expect_out ''
		expect_stderr_matches "^PROG: --json cannot be combined with $o\$" || return 1
	done
	run_ac --json --engine=pcre2 foo in
	expect_status 2
	expect_stderr_matches '^PROG: --json cannot be combined with --engine=pcre2: it cannot tell which pattern matched$'
}

@test "json: -q prints nothing; -o, --color, -n, -b, -H, -h, -T, -Z and --stats change nothing" {
	fixture in 'foo bar\nx\n'
	fixture in2 'bar\n'
	run_ac --json -q foo in
	expect_status 0
	expect_out ''
	run_ac --json -q nope in
	expect_status 1
	expect_out ''
	run_ac --json -e foo -e bar in in2
	mask_times <"$OUTD/ac.out" >"$OUTD/ref"
	local o
	for o in -o --color=always -n -b -H -h -T -Z --stats --line-buffered "-o -b -n -H --color=always"; do
		# shellcheck disable=SC2086
		run_ac --json $o -e foo -e bar in in2
		mask_times <"$OUTD/ac.out" | cmp -s - "$OUTD/ref" || { echo "# $o" >&2; return 1; }
	done
}

@test "json: -z lines end in NUL" {
	fixture in 'foo\nbar\0x\0foo 2\0'
	run_ac --json -z foo in
	expect_status 0
	grep -q '"lines":{"text":"foo\\nbar\\u0000"},"line_number":1,"absolute_offset":0' "$OUTD/ac.out"
	grep -q '"lines":{"text":"foo 2\\u0000"},"line_number":3,"absolute_offset":10' "$OUTD/ac.out"
	json_valid --eol nul -- -z foo in
}

@test "json: long lines are encoded in parts" {
	python3 -c '
import sys
a = b"x" * 10000 + b" foo " + b"\"\\\x01" * 3000 + b"\n"
b = b"\xff" * 9000 + b" foo\n"
c = b"y" * 5000 + b"foo" * 3000 + b"\n"
open("long", "wb").write(a + b + c)'
	printf 'foo\n%s\n' "$(printf 'foo%.0s' $(seq 1 2000))" >pats
	json_valid --patterns pats -- -f pats long
	[[ $(grep -c '"type":"match"' "$OUTD/ac.out") == 3 ]]
	grep -q '"pattern":2,"tag":{"text":"foofoo' "$OUTD/ac.out"
	local v
	for v in --mmap "--no-mmap --buffer-size=1" "--threads=3 --segment-size=7"; do
		# shellcheck disable=SC2086
		json_valid --patterns pats -- $v -f pats long || return 1
	done
}

@test "json: the same records as rg --json, but for acgrep's extension" {
	command -v rg >/dev/null || skip "rg is not installed"
	mixed_file in
	fixture in2 'nothing here\n'
	local opts
	for opts in "" -i -w "-C 2" -v "-m 3" "-A 1"; do
		# shellcheck disable=SC2086
		"$ACGREP" --json $opts -e hello -e foo in in2 >"$OUTD/a" || true
		# shellcheck disable=SC2086
		rg --no-config -j1 --json -F -a $opts -e hello -e foo in in2 >"$OUTD/r" || true
		# compared without timings, acgrep's extension, bytes_printed (the
		# extension's bytes), ripgrep's quirks (searches that output nothing
		# left out of the summary; -m's trailing context as matches and out
		# of bytes_searched)
		python3 - "$OUTD/a" "$OUTD/r" "$opts" <<'EOF' || { echo "# differs: $opts" >&2; return 1; }
import json, sys
def norm(path, opts):
    out = []
    for line in open(path, "rb"):
        r = json.loads(line)
        d = r["data"]
        if r["type"] == "summary":
            continue
        if r["type"] == "end":
            d["stats"] = {k: v for k, v in d["stats"].items()
                          if k in ("searches", "searches_with_match", "matched_lines", "matches")
                          or (k == "bytes_searched" and "-m" not in opts)}
        if r["type"] == "context" and "-m" in opts:
            r["type"] = "match"
        for s in d.get("submatches", []):
            s.pop("pattern", None)
            s.pop("tag", None)
        out.append(json.dumps(r, sort_keys=True))
    return out
a, r = norm(sys.argv[1], sys.argv[3]), norm(sys.argv[2], sys.argv[3])
if a != r:
    for x, y in zip(a, r):
        if x != y:
            print("acgrep:", x[:300], "\nrg:    ", y[:300], file=sys.stderr)
            break
    sys.exit(1)
EOF
	done
}

@test "json: a file that shrinks while searched: the records of the lines still there" {
	local io
	for io in --mmap --no-mmap ""; do
		python3 -c 'open("big", "wb").write(b"".join(b"line %09d match\n" % i for i in range(200000)))'
		# shellcheck disable=SC2086
		blocked_run a "truncate -s 2100000 big" "$ACGREP" $io --threads=1 --json match big || return 1
		python3 "$CHECK" "$OUTD/a.out" >/dev/null || { echo "# $io" >&2; return 1; }
		grep -q '"bytes_searched":2100000,"bytes_printed":[0-9]*,"matched_lines":100000,"matches":100000}' \
			"$OUTD/a.out" || { echo "# $io" >&2; tail -n 2 "$OUTD/a.out" >&2; return 1; }
	done
}
