#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --stats (acgrep extension): ripgrep's statistics lines after the output,
# then acgrep's own.  Exact bytes with the times masked; the same counts in
# both locales, on every scan path, I/O path and thread count (a file cut
# into segments on several threads adds up to one thread's counts).

load helpers
load report

setup() {
	common_setup
	skip_if_grep "--stats"
}

# mask_times: the seconds zeroed (they are all a test cannot know).
mask_times() {
	sed -E 's/^[0-9]+\.[0-9]{6} seconds/0.000000 seconds/'
}

VARIANTS=(
	"--scan-path=dfa" "--scan-path=bitmap" "--scan-path=memchr" "--scan-path=teddy"
	"--scan-path=hash" "--simd=scalar" "--mmap" "--no-mmap --buffer-size=1"
	"--threads=1" "--threads=3 --segment-size=7" "--threads=2 --segment-size=4096"
)

# A file of about 150 KB (several segments of 4 KiB): numbered lines, one in
# five with matches of two patterns.
big_file() {
	awk 'BEGIN {
		for (i = 1; i <= 6000; i++)
			if (i % 5 == 0) printf "line %d foo and bar and foo\n", i
			else printf "line %d is plain text\n", i
	}' >"$1"
}

@test "stats: ripgrep's lines, then acgrep's, after the output" {
	fixture in 'foo bar foo\nnothing\nbar\nfoo\n'
	fixture in2 'bar\n'
	run_ac --stats -e foo -e bar -e foo in in2
	expect_status 0
	expect_no_stderr
	expect_masked <<'EOF'
in:foo bar foo
in:bar
in:foo
in2:bar

6 matches
4 matched lines
2 files contained matches
2 files searched
37 bytes printed
32 bytes searched
0.000000 seconds spent searching
0.000000 seconds
5 lines searched
3 patterns compiled
2 distinct patterns seen
0.000000 seconds compiling patterns
EOF
}

@test "stats: ripgrep's counts on ripgrep's lines" {
	command -v rg >/dev/null || skip "rg is not installed"
	big_file big
	fixture in 'foo bar foo\nnothing\nbar\nfoo\n'
	local opts
	for opts in "" -v -i -w "-C 1"; do
		# shellcheck disable=SC2086
		"$ACGREP" --stats $opts -e foo -e bar in big | tail -n 12 | head -n 6 >"$OUTD/a"
		# shellcheck disable=SC2086
		rg --no-config -j1 --stats -F $opts -e foo -e bar in big | tail -n 8 | head -n 6 >"$OUTD/r"
		same_bytes "$OUTD/a" "$OUTD/r" || { echo "# $opts" >&2; diff "$OUTD/a" "$OUTD/r" >&2; return 1; }
	done
}

@test "stats: matches are counted with -c, -l, -L, -q, --count-matches and -o; -v has none" {
	fixture in 'foo bar foo\nnothing\nbar\nfoo\n'
	fixture in2 'bar\n'
	run_ac --stats -c foo in in2
	expect_masked <<'EOF'
in:2
in2:0

3 matches
2 matched lines
1 files contained matches
2 files searched
0 bytes printed
32 bytes searched
0.000000 seconds spent searching
0.000000 seconds
5 lines searched
1 patterns compiled
1 distinct patterns seen
0.000000 seconds compiling patterns
EOF
	# -l stops at a file's first selected line: counts up to there
	run_ac --stats -l foo in in2
	expect_masked <<'EOF'
in

2 matches
1 matched lines
1 files contained matches
2 files searched
0 bytes printed
16 bytes searched
0.000000 seconds spent searching
0.000000 seconds
2 lines searched
1 patterns compiled
1 distinct patterns seen
0.000000 seconds compiling patterns
EOF
	run_ac --stats -L foo in in2
	expect_status 0
	[[ $(head -n 2 "$OUTD/ac.out") == in2 ]]
	grep -qx '2 files searched' "$OUTD/ac.out"
	# -q: the statistics are printed still, the files after the match not searched
	run_ac --stats -q foo in in2
	expect_status 0
	expect_masked <<'EOF'

2 matches
1 matched lines
1 files contained matches
1 files searched
0 bytes printed
12 bytes searched
0.000000 seconds spent searching
0.000000 seconds
1 lines searched
1 patterns compiled
1 distinct patterns seen
0.000000 seconds compiling patterns
EOF
	run_ac --stats --count-matches foo in
	grep -qx '3 matches' "$OUTD/ac.out"
	grep -qx '2 matched lines' "$OUTD/ac.out"
	run_ac --stats -o foo in
	[[ $(head -n 3 "$OUTD/ac.out" | tr '\n' ' ') == 'foo foo foo ' ]]
	grep -qx '3 matches' "$OUTD/ac.out"
	grep -qx '12 bytes printed' "$OUTD/ac.out"
	run_ac --stats -v foo in
	grep -qx '0 matches' "$OUTD/ac.out"
	grep -qx '2 matched lines' "$OUTD/ac.out"
	grep -qx '0 distinct patterns seen' "$OUTD/ac.out"
}

@test "stats: -m counts up to the last line selected or output" {
	fixture in 'foo 1\nx\nfoo 2\ny\nfoo 3\n'
	run_ac --stats -m2 foo in
	grep -qx '2 matched lines' "$OUTD/ac.out"
	grep -qx '14 bytes searched' "$OUTD/ac.out"
	grep -qx '3 lines searched' "$OUTD/ac.out"
	run_ac --stats -m2 -A1 foo in
	grep -qx '16 bytes searched' "$OUTD/ac.out"
	grep -qx '4 lines searched' "$OUTD/ac.out"
	# nothing can be selected: acgrep exits at once, as grep, and prints no
	# statistics, as ripgrep
	run_ac --stats -m0 foo in
	expect_status 1
	expect_out ''
}

@test "stats: bytes and lines searched are the input's; a last line without newline counts" {
	fixture in 'a\nfoo\nb'
	run_ac --stats foo in
	grep -qx '7 bytes searched' "$OUTD/ac.out"
	grep -qx '3 lines searched' "$OUTD/ac.out"
	fixture in 'a\nfoo\nb\n'
	run_ac --stats nothing in
	expect_status 1
	grep -qx '8 bytes searched' "$OUTD/ac.out"
	grep -qx '3 lines searched' "$OUTD/ac.out"
	grep -qx '0 files contained matches' "$OUTD/ac.out"
	fixture in 'a\0foo\0b\0'
	run_ac --stats -z foo in
	grep -qx '3 lines searched' "$OUTD/ac.out"
	: >empty
	run_ac --stats foo empty
	grep -qx '0 lines searched' "$OUTD/ac.out"
	grep -qx '1 files searched' "$OUTD/ac.out"
}

@test "stats: patterns compiled are those given, patterns seen the distinct ones matched" {
	fixture in 'abc ABC\nxyz\n'
	printf 'abc\nabc\nABC\nnever\n' >pats
	run_ac --stats -f pats in
	grep -qx '4 patterns compiled' "$OUTD/ac.out"
	grep -qx '2 distinct patterns seen' "$OUTD/ac.out"
	run_ac --stats -i -f pats in
	grep -qx '1 distinct patterns seen' "$OUTD/ac.out"
}

@test "stats: the same counts in both locales, on every scan path, I/O path and thread count" {
	big_file big
	big_file big2
	fixture small 'foo\nbar\n'
	local opts
	for opts in "" -c -l -L -v -i -w -o --count-matches "-q" "-m 3" "-n" "-C 1"; do
		# shellcheck disable=SC2086
		note_case "$opts" same_everywhere --stats $opts -e foo -e bar big small big2 || return 1
	done
}

@test "stats: a file split into segments adds up to one thread's counts" {
	big_file big
	run_ac --stats --threads=1 -e foo -e bar big
	mask_times <"$OUTD/ac.out" >"$OUTD/one"
	local n
	for n in 7 4096 20000; do
		run_ac --stats --threads=3 --segment-size=$n -e foo -e bar big
		mask_times <"$OUTD/ac.out" | cmp -s - "$OUTD/one" || { echo "# segment size $n" >&2; return 1; }
	done
	grep -qx '3600 matches' "$OUTD/one"
	grep -qx '1200 matched lines' "$OUTD/one"
	grep -qx "$(wc -c <big) bytes searched" "$OUTD/one"
	grep -qx '6000 lines searched' "$OUTD/one"
}

@test "stats: files after -q's match are not counted, whichever thread searched them" {
	local i
	for i in $(seq 1 40); do fixture "f$i" 'x\nfoo\n'; done
	fixture f1 'foo\n'
	fixture f2 'bar bar\n'
	run_ac --stats --threads=1 -q -e foo -e bar f*
	mask_times <"$OUTD/ac.out" >"$OUTD/one"
	grep -qx '1 distinct patterns seen' "$OUTD/one"
	grep -qx '1 files searched' "$OUTD/one"
	for i in 1 2 3 4 5; do
		run_ac --stats --threads=4 -q -e foo -e bar f*
		mask_times <"$OUTD/ac.out" | cmp -s - "$OUTD/one" || return 1
	done
}

@test "stats: a binary file counts up to where its search stopped" {
	python3 -c '
lines = [b"line %d foo\n" % i for i in range(20000)]
lines[15000] = b"nul\0foo\n"
open("bin", "wb").write(b"".join(lines))'
	run_ac --stats foo bin
	expect_status 0
	expect_stderr_matches '^PROG: bin: binary file matches$'
	local printed
	# reads of one byte put grep's buffers elsewhere: other lines are
	# printed (tests/cli/14-binary.bats), so that I/O path is left out
	local -a VARIANTS=(
		"--scan-path=dfa" "--scan-path=teddy" "--simd=scalar" "--mmap" "--no-mmap"
		"--threads=1" "--threads=3 --segment-size=7" "--threads=2 --segment-size=4096"
	)
	printed=$("$ACGREP" foo bin 2>/dev/null | wc -l)
	grep -qx "$((printed + 1)) matched lines" "$OUTD/ac.out"
	same_everywhere --stats foo bin
	same_everywhere --stats -c foo bin
	same_everywhere --stats -a foo bin
	same_everywhere --stats -I foo bin
}

@test "stats: with --json the summary record holds them; not with --engine=pcre2" {
	fixture in 'foo\n'
	run_ac --stats --json foo in
	expect_status 0
	[[ $(wc -l <"$OUTD/ac.out") == 4 ]]
	! grep -q 'matched lines' "$OUTD/ac.out"
	run_ac --stats --engine=pcre2 foo in
	expect_status 2
	expect_out ''
	expect_stderr_matches '^PROG: --stats cannot be combined with --engine=pcre2: it cannot tell which pattern matched$'
}

@test "stats: a file that shrinks while searched counts each line once" {
	local io n
	for io in --mmap --no-mmap ""; do
		python3 -c 'open("big", "wb").write(b"".join(b"line %09d match\n" % i for i in range(200000)))'
		# shellcheck disable=SC2086
		blocked_run a "truncate -s 2100000 big" "$ACGREP" $io --threads=1 --stats match big || return 1
		n=$(grep -c '^line ' "$OUTD/a.out")
		((n > 0 && n <= 100000)) || { echo "# $io: $n lines" >&2; return 1; }
		grep -qx "$n matched lines" "$OUTD/a.out" || { echo "# $io" >&2; tail -n 12 "$OUTD/a.out" >&2; return 1; }
		grep -qx "$n lines searched" "$OUTD/a.out"
		grep -qx "$((n * 21)) bytes searched" "$OUTD/a.out" || { echo "# $io" >&2; tail -n 12 "$OUTD/a.out" >&2; return 1; }
		grep -qx "$((n * 21)) bytes printed" "$OUTD/a.out"
	done
}
