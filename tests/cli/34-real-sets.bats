#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Real pattern sets (issue 15): small samples of the lists users bring
# (tests/data/real/README.md: an EasyList domain blocklist, FastQC's adapter
# list, IEEE OUIs by vendor) over texts written like the logs and reads they
# are searched in.  acgrep must agree with grep -F on them now; the oracle
# tests/diff/pattern_oracle.py must agree with grep and reproduce the
# checked-in expected reports; and once --count-per-pattern, --tagged-file,
# --include-zero and --show-pattern exist (each case is skipped until every
# long option it uses is in acgrep --help), acgrep must print those reports
# byte for byte, on 1 and 3 threads.

load helpers

DATA=$REPO_ROOT/tests/data/real
ORACLE=$REPO_ROOT/tests/diff/pattern_oracle.py
CROSSCHECK=$REPO_ROOT/scripts/perf/real_sets.py

# The inputs are made once for the file, in $BATS_FILE_TMPDIR/sets, and
# copied into each test's directory.
setup_file() {
	local d=$BATS_FILE_TMPDIR/sets
	mkdir -p "$d"
	cp -- "$DATA"/blocklist.txt "$DATA"/urls.log "$DATA"/adapter_list.txt "$DATA"/reads.fastq \
		"$DATA"/oui.tsv "$DATA"/dhcp.log "$d"
	# The adapter list as shipped ('#' comments and blank lines are skipped)
	# and less them, and the patterns alone for grep -f.
	grep -v -e '^#' -e '^$' "$d"/adapter_list.txt >"$d"/adapters.tsv
	sed 's/^[^\t]*\t*//' "$d"/adapters.tsv >"$d"/adapters.txt
	sed 's/^[^\t]*\t*//' "$d"/oui.tsv >"$d"/oui.txt
	# a second input for the sums over files and the per-file rows
	head -n 20 "$d"/dhcp.log >"$d"/part.log
}

setup() {
	common_setup
	cp -- "$BATS_FILE_TMPDIR"/sets/* .
}

# The reports: "NAME|ARGS", the expected bytes in $DATA/expected/NAME.out;
# ARGS mean the same to acgrep and to pattern_oracle.py.
report_cases() {
	cat <<'EOF'
blocklist-cpp|--count-per-pattern -f blocklist.txt urls.log
blocklist-w-cpp|--count-per-pattern -w -f blocklist.txt urls.log
blocklist-iw-cpp|--count-per-pattern -i -w -f blocklist.txt urls.log
adapters-cpp|--count-per-pattern --tagged-file=adapters.tsv reads.fastq
adapters-i-cpp|--count-per-pattern -i --tagged-file=adapters.tsv reads.fastq
adapters-barcode-cpp|--count-per-pattern --tagged-file=adapters.tsv -e ATCACG reads.fastq
oui-cpp|--count-per-pattern --tagged-file=oui.tsv dhcp.log
oui-i-cpp|--count-per-pattern -i --tagged-file=oui.tsv dhcp.log
oui-iw-zero-cpp|--count-per-pattern --include-zero -i -w --tagged-file=oui.tsv dhcp.log
oui-i-files-cpp|--count-per-pattern -i --tagged-file=oui.tsv dhcp.log part.log
oui-i-H-cpp|--count-per-pattern -H -i --tagged-file=oui.tsv dhcp.log part.log
adapters-show-tag|--show-pattern=tag -n --tagged-file=adapters.tsv reads.fastq
adapters-show-number-o|--show-pattern=number -o --tagged-file=adapters.tsv reads.fastq
oui-show-text-o|--show-pattern=text -o -i --tagged-file=oui.tsv dhcp.log
blocklist-show-tag-ow|--show-pattern=tag -o -w -f blocklist.txt urls.log
EOF
}

# The sets with grep's own options: "LIST|TEXT".
grep_sets() {
	printf '%s\n' 'blocklist.txt|urls.log' 'adapters.txt|reads.fastq' 'oui.txt|dhcp.log'
}

# needs_options ARGS...: skip unless acgrep --help names every long option
# of ARGS (the options of issue 15 land from other branches).
needs_options() {
	skip_if_grep "issue 15's reports"
	local a o help
	help=$("$ACGREP" --help 2>/dev/null) || true
	for a in "$@"; do
		[[ $a == --* ]] || continue
		o=${a%%=*}
		grep -q -e "$o\b" <<<"$help" || skip "acgrep has no $o yet (issue 15)"
	done
}

@test "real sets: the oracle's self-test (hand-counted cases)" {
	run python3 "$ORACLE" --self-test
	assert_success
	assert_line --regexp '^[0-9]+ passed, 0 failed$'
}

@test "real sets: the samples have the shape README.md gives them" {
	# blocklist: sorted, unique, one domain a line
	LC_ALL=C sort -u -c blocklist.txt
	run "$GREP" -c -v -e '^[a-z0-9_.-]*\.[a-z]*$' blocklist.txt
	assert_output 0
	# tagged lists: every line TAG<TAB>PATTERN
	for l in adapters.tsv oui.tsv; do
		run "$GREP" -c -v -P '^[^\t]+\t+[^\t]+$' "$l"
		assert_output 0
	done
	[[ $(wc -l <adapters.tsv) == 5 && $(wc -l <oui.tsv) == 30 && $(wc -l <blocklist.txt) == 30 ]]
}

@test "real sets: acgrep agrees with grep -F (-c -o -n -w -i -x -v -l, both locales)" {
	local list text opts
	while IFS='|' read -r list text; do
		for opts in "-c" "-o" "-n" "-o -n -b" "-w -c" "-w -o" "-i -c" "-i -o" "-i -w -o -n" \
			"-x -c" "-v -c" "-l" "-c -m 3" "-o -i -m 2"; do
			# shellcheck disable=SC2086 # opts is a list of options
			note_case "$list over $text with $opts" \
				in_both_locales same_as_grep $opts -f "$list" "$text" || return 1
		done
		note_case "$list over $text and another, -c" \
			in_both_locales same_as_grep -c -f "$list" "$text" part.log || return 1
	done < <(grep_sets)
}

@test "real sets: acgrep agrees with grep -F on 1 and 3 threads, both I/O paths" {
	skip_if_grep "--threads, --no-mmap"
	local list text
	while IFS='|' read -r list text; do
		note_case "$list over $text" same_as_grep_each "--threads=1" "--threads=3 --segment-size=4096" \
			"--no-mmap --threads=3" -- -i -o -n -f "$list" "$text" || return 1
	done < <(grep_sets)
}

@test "real sets: --count-matches is the oracle's sum of matches" {
	skip_if_grep "--count-matches"
	local list text opts want
	while IFS='|' read -r list text; do
		for opts in "" "-i" "-w" "-i -w" "-x"; do
			# shellcheck disable=SC2086
			want=$(python3 "$ORACLE" --totals $opts -f "$list" "$text" | cut -f1) || [[ $? -eq 1 ]]
			# shellcheck disable=SC2086
			run_ac --count-matches $opts -f "$list" "$text"
			note_case "$list over $text with '$opts'" expect_out '%s\n' "$want" || return 1
		done
	done < <(grep_sets)
}

@test "real sets: the oracle agrees with grep -F (lines, matches, each pattern's rows)" {
	local list text opts tagged m l
	while IFS='|' read -r list text; do
		tagged=(-f "$list")
		[[ $list == blocklist.txt ]] || tagged=(--tagged-file "${list%.txt}.tsv")
		for opts in "" "-i" "-w" "-i -w"; do
			# shellcheck disable=SC2086
			m=$("$GREP" -F -o $opts -f "$list" "$text" | wc -l)
			# shellcheck disable=SC2086
			l=$("$GREP" -F -c $opts -f "$list" "$text") || [[ $? -eq 1 ]]
			printf '%s\t%s\t%s\n' "$m" "$l" "$((m > 0))" >"$OUTD/grep.totals"
			# shellcheck disable=SC2086
			python3 "$ORACLE" --totals $opts "${tagged[@]}" "$text" >"$OUTD/oracle.totals" || [[ $? -eq 1 ]]
			note_case "$list over $text '$opts': totals" \
				cmp "$OUTD/grep.totals" "$OUTD/oracle.totals" || return 1
			# shellcheck disable=SC2086
			"$GREP" -F -o -n $opts -f "$list" "$text" |
				python3 "$CROSSCHECK" crosscheck $opts "${tagged[@]}" >"$OUTD/grep.rows"
			# shellcheck disable=SC2086
			python3 "$ORACLE" $opts "${tagged[@]}" "$text" >"$OUTD/oracle.rows" || [[ $? -eq 1 ]]
			note_case "$list over $text '$opts': rows" \
				diff "$OUTD/grep.rows" "$OUTD/oracle.rows" || return 1
		done
	done < <(grep_sets)
}

@test "real sets: the oracle prints each checked-in report" {
	local name args st
	while IFS='|' read -r name args; do
		st=0
		# shellcheck disable=SC2086 # args is a list of arguments
		python3 "$ORACLE" $args >"$OUTD/oracle.out" || st=$?
		[[ $st -le 1 ]] || fail "pattern_oracle.py $args: status $st"
		note_case "$name: pattern_oracle.py $args" \
			diff "$DATA/expected/$name.out" "$OUTD/oracle.out" || return 1
	done < <(report_cases)
}

@test "real sets: the oracle reads FastQC's list as shipped (its '#' header skipped)" {
	python3 "$ORACLE" --count-per-pattern --tagged-file adapters.tsv reads.fastq >"$OUTD/want"
	run python3 "$ORACLE" --count-per-pattern --tagged-file adapter_list.txt reads.fastq
	assert_success
	assert_output "$(<"$OUTD/want")"
}

# One test per report, so that each skips on its own until its options land.
report_test() {
	local name=$1 args t
	args=$(report_cases | sed -n "s/^$name|//p")
	[[ -n $args ]] || fail "no report case $name"
	# shellcheck disable=SC2086
	needs_options $args
	for t in 1 3; do
		# shellcheck disable=SC2086
		run_ac --threads=$t $args
		note_case "$name, --threads=$t" expect_status 0 || return 1
		expect_no_stderr || return 1
		same_bytes "$DATA/expected/$name.out" "$OUTD/ac.out" ||
			{
				diff "$DATA/expected/$name.out" "$OUTD/ac.out" | head -n 40
				fail "$name: $(_ac_where) differs from expected/$name.out"
			}
	done
}

@test "reports: blocklist, --count-per-pattern" { report_test blocklist-cpp; }
@test "reports: blocklist, --count-per-pattern -w" { report_test blocklist-w-cpp; }
@test "reports: blocklist, --count-per-pattern -i -w" { report_test blocklist-iw-cpp; }
@test "reports: adapters, --tagged-file --count-per-pattern" { report_test adapters-cpp; }
@test "reports: adapters, --tagged-file --count-per-pattern -i" { report_test adapters-i-cpp; }
@test "reports: adapters and an -e barcode (its own tag)" { report_test adapters-barcode-cpp; }
@test "reports: OUIs by vendor, --count-per-pattern" { report_test oui-cpp; }
@test "reports: OUIs by vendor, --count-per-pattern -i" { report_test oui-i-cpp; }
@test "reports: OUIs, --include-zero -i -w (a prefix listed under two vendors)" { report_test oui-iw-zero-cpp; }
@test "reports: OUIs over two files, summed" { report_test oui-i-files-cpp; }
@test "reports: OUIs over two files, per file (-H)" { report_test oui-i-H-cpp; }
@test "reports: adapters, --show-pattern=tag -n" { report_test adapters-show-tag; }
@test "reports: adapters, --show-pattern=number -o" { report_test adapters-show-number-o; }
@test "reports: OUIs, --show-pattern=text -o -i" { report_test oui-show-text-o; }
@test "reports: blocklist, --show-pattern=tag -o -w (an untagged list)" { report_test blocklist-show-tag-ow; }

@test "reports: --tagged-file reads FastQC's list as shipped (its '#' header skipped)" {
	needs_options --tagged-file
	"$ACGREP" -n -o --show-pattern --tagged-file=adapters.tsv reads.fastq >"$OUTD/want"
	[[ -s $OUTD/want ]]
	run_ac -n -o --show-pattern --tagged-file=adapter_list.txt reads.fastq
	expect_status 0
	cmp -- "$OUTD/want" "$OUTD/ac.out"
}
