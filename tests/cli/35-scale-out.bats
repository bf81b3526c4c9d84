#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Scaling out: --range's boundary rule (every split point of small files),
# --records and --merge against one run (options, locales, I/O paths,
# threads), the GNU parallel recipes of README.md (a big file over local
# job slots, over "hosts" through tests/cli/fake-ssh, many files with
# --tag) and contrib/dask/acgrep_dask.py on a LocalCluster.  A merged
# output is compared byte for byte with one plain run, and so are its
# stderr and exit status.  GNU parallel runs keep their order (-k).

load helpers

setup() {
	common_setup
	acgrep_is_grep && skip "ranges and merges are acgrep's"
	:
}

# big_text FILE [LINES]: numbered lines with needles at irregular places,
# an empty line, a line of Needle, and a last line without terminator.
big_text() {
	awk -v n="${2:-300}" 'BEGIN {
		for (i = 1; i <= n; i++) {
			if (i % 13 == 0 || i % 29 == 0) printf "line %d has a needle, foo and bar\n", i
			else if (i % 17 == 0) printf "Needle %d Foo\n", i
			else if (i % 31 == 0) printf "\n"
			else printf "line %d is plain\n", i
		}
		printf "last foo line"
	}' >"$1"
}

# same_out LABEL: $OUTD/{one,many}.{out,err,rc} agree, or fail saying how.
same_out() {
	if same_bytes "$OUTD/one.out" "$OUTD/many.out" && same_bytes "$OUTD/one.err" "$OUTD/many.err" &&
		same_bytes "$OUTD/one.rc" "$OUTD/many.rc"; then
		return 0
	fi
	{
		echo "merged output differs from one run: $1"
		echo "status: one $(<"$OUTD/one.rc"), merged $(<"$OUTD/many.rc")"
		diff "$OUTD/one.out" "$OUTD/many.out" | head -n 20
		echo "--- stderr, one run / merged:"
		cat "$OUTD/one.err" "$OUTD/many.err"
	} | fail
	return 1
}

# one_run OPTS... -- FILES...: the plain run, into $OUTD/one.*
one_run() {
	local st=0
	ONE_RUN_OF=
	"$ACGREP" ${SINGLE_EXTRA:-} "$@" >"$OUTD/one.out" 2>"$OUTD/one.err" || st=$?
	echo "$st" >"$OUTD/one.rc"
}

# merged N OPTS... -- FILES...: each FILE cut into N ranges (--ranges), a
# --records job per range (with $JOB_EXTRA), the streams merged with OPTS;
# compared with one run.  The one run is made again only when its locale,
# $SINGLE_EXTRA, OPTS or FILES differ from the last merged's (ONE_RUN_OF;
# one_run called directly forgets it), and a FILE's N ranges are asked for
# once in a test (RANGES_OF: no test changes a file between its merges).
# A job run before in the test with the same locale, $JOB_EXTRA, range,
# OPTS and FILE is not run again: its records (text without a NUL) are
# kept in JOB_OUT (a small file has the same ranges for 3 and 7, an empty
# one 0:0 for any N).
declare -gA RANGES_OF=() JOB_OUT=()
merged() {
	local n=$1 f r key records st=0
	shift
	local -a opts=()
	while [[ $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	: >"$OUTD/rec"
	for f in "$@"; do
		[[ -n ${RANGES_OF[$n/$f]+set} ]] ||
			RANGES_OF[$n/$f]=$("$ACGREP" --ranges="$n" "$f" 2>/dev/null || echo 0:)
		for r in ${RANGES_OF[$n/$f]}; do
			key="${LC_ALL:-}|${JOB_EXTRA:-}|$r|${opts[*]}|$f"
			if [[ -z ${JOB_OUT[$key]+set} ]]; then
				"$ACGREP" ${JOB_EXTRA:-} --records --range="$r" "${opts[@]}" -- "$f" >"$OUTD/job" ||
					{ echo "job failed: --range=$r ${opts[*]} $f" | fail; return 1; }
				# read stops with status 0 at a NUL: such records are not kept
				IFS= read -r -d '' records <"$OUTD/job" || JOB_OUT[$key]=$records
			fi
			if [[ -n ${JOB_OUT[$key]+set} ]]; then
				printf '%s' "${JOB_OUT[$key]}" >>"$OUTD/rec"
			else
				cat -- "$OUTD/job" >>"$OUTD/rec"
			fi
		done
	done
	"$ACGREP" --merge "${opts[@]}" "$OUTD/rec" >"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
	echo "$st" >"$OUTD/many.rc"
	local key="${LC_ALL:-}|${SINGLE_EXTRA:-}|${opts[*]}|$*"
	if [[ $key != "${ONE_RUN_OF:-}" ]]; then
		one_run "${opts[@]}" -- "$@"
		ONE_RUN_OF=$key
	fi
	same_out "$n ranges, ${JOB_EXTRA:-} ${opts[*]} -- $*"
}

OPTSETS=(
	"-e foo" "-n -e foo" "-b -n -e foo" "-c -e foo" "-l -e foo" "-L -e foo"
	"-o -b -e foo -e needle" "-C 2 -n -e foo" "-A 1 -B 3 -e foo" "-m 3 -n -C 2 -e foo"
	"-m 1 -A 4 -e foo" "-v -n -C 1 -e foo" "-c -m 5 -v -e foo" "-i -w -n -e foo"
	"-n -x -e Needle" "-C 1 --group-separator=XX -n -e foo" "--no-group-separator -A 1 -e foo"
	"--color=always -n -C 1 -e foo" "-o -v -C 1 -e needle" "--count-matches -e foo"
	"-e absent" "-q -e foo" "-T -n -b -e foo" "-H -Z -e foo" "-h -B 2 -e foo"
)

@test "--range: the lines starting in START..END-1, with absolute -b offsets" {
	printf 'ab\ncd\n\nef' >f
	expect 0 '0:ab\n' -- --range=0:1 -b '' f
	expect 1 '' -- --range=1:3 -b '' f
	expect 0 '3:cd\n' -- --range=2:4 -b '' f
	expect 0 '3:cd\n6:\n7:ef\n' -- --range=3: -b '' f
	expect 0 '7:ef\n' -- --range=7:100 -b '' f
	expect 1 '' -- --range=100:200 -b '' f
	expect 0 '2\n' -- --range=3:7 -c '' f
}

# two_splits FILE...: FILE cut in two at every byte, each half searched
# (-z where FILE is nul), the two outputs are one run's.
two_splits() {
	local f k size
	for f in "$@"; do
		size=$(stat -c %s "$f")
		local z=
		[[ $f == nul ]] && z=-z
		"$ACGREP" $z -b '' "$f" >"$OUTD/whole"
		for ((k = 0; k <= size; k++)); do
			{
				"$ACGREP" $z --range=0:"$k" -b '' "$f"
				"$ACGREP" $z --range="$k": -b '' "$f"
			} >"$OUTD/split" || true
			same_bytes "$OUTD/whole" "$OUTD/split" || {
				echo "split at $k of $f differs"
				diff "$OUTD/whole" "$OUTD/split"
				return 1
			}
		done
	done
}

@test "--range: two ranges split at every byte hold every line once, as one run" {
	printf 'foo\n\nab foo\nfoo\nx\n\n\nfoo y\nend' >text
	printf 'foo\0\0ab foo\0x\n\0foo' >nul
	untraced two_splits text nul
}

# three_splits FILE: FILE cut in three at every pair of cuts I <= J, the
# three outputs are one run's.  The runs of --range=0:I and --range=J:
# are the same for every pair that has that cut: each runs once, and the
# outputs (text) are joined in bash.
three_splits() {
	local i j size t=$1 whole mid part
	local -a first last
	size=$(stat -c %s "$t")
	"$ACGREP" -b '' "$t" >"$OUTD/whole"
	_slurp whole "$OUTD/whole"
	for ((i = 0; i <= size + 1; i++)); do
		if ((i <= size)); then
			"$ACGREP" --range=0:"$i" -b '' "$t" >"$OUTD/part" || true
			_slurp part "$OUTD/part"
			first[i]=$part
		fi
		"$ACGREP" --range="$i": -b '' "$t" >"$OUTD/part" || true
		_slurp part "$OUTD/part"
		last[i]=$part
	done
	for ((i = 0; i <= size; i++)); do
		for ((j = i; j <= size + 1; j++)); do
			"$ACGREP" --range="$i":"$j" -b '' "$t" >"$OUTD/part" || true
			_slurp mid "$OUTD/part"
			[[ ${first[i]}$mid${last[j]} == "$whole" ]] || {
				echo "cuts at $i and $j differ"
				return 1
			}
		done
	done
}

# _slurp VAR FILE: VAR is FILE's text (a NUL in it is an error).
_slurp() {
	local -n _into=$1
	_into=
	! IFS= read -r -d '' _into <"$2" || { echo "$2 holds a NUL"; return 1; }
}

@test "--range: three ranges at every pair of cuts tile a file" {
	printf 'a\nfoo\n\nbb\nfoo c\n' >t
	untraced three_splits t
}

# merge_splits FILE: FILE cut in two at every byte, a --records job for
# each half, merged: one run's output under each option set.
merge_splits() {
	local k size opts t=$1
	size=$(stat -c %s "$t")
	for opts in "-n -C 1 foo" "-v -n -B 2 foo" "-n -A 2 -m 2 foo" "-c foo"; do
		# shellcheck disable=SC2086
		one_run $opts "$t"
		for ((k = 0; k <= size; k++)); do
			# shellcheck disable=SC2086
			{
				"$ACGREP" --records --range=0:"$k" $opts "$t"
				"$ACGREP" --records --range="$k": $opts "$t"
			} >"$OUTD/rec"
			local st=0
			# shellcheck disable=SC2086
			"$ACGREP" --merge $opts "$OUTD/rec" >"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
			echo "$st" >"$OUTD/many.rc"
			same_out "split at $k, $opts" || return 1
		done
	done
}

@test "--merge: two ranges split at every byte merge into one run's -n -C 1 output" {
	printf 'foo\n\nab foo\nx\ny\nfoo\nz\n\nw\nfoo y\nend' >t
	untraced merge_splits t
}

# merge_optsets FILES...: merged with 1, 3 and 7 ranges under each of
# OPTSETS, in both locales.
merge_optsets() {
	local opts loc n
	for opts in "${OPTSETS[@]}"; do
		for loc in C C.UTF-8; do
			for n in 1 3 7; do
				# shellcheck disable=SC2086
				LC_ALL=$loc note_case "$opts, $n ranges, LC_ALL=$loc" merged "$n" $opts -- "$@" ||
					return 1
			done
		done
	done
}

@test "--merge: every option set, 1 to 7 ranges, in both locales" {
	big_text big.txt
	printf 'Foo foo\nno\n' >small.txt
	: >empty.txt
	untraced merge_optsets big.txt small.txt empty.txt
}

# merge_paths FILE: merged with 5 ranges, the jobs through each I/O path
# and on one or three threads, the one run on as many.
merge_paths() {
	local opts io th loc
	for opts in "-n -C 2 -e foo" "-c -e needle" "-m 2 -n -A 3 -e foo" "-o -b -v -C 1 -e foo"; do
		for th in "--threads=1" "--threads=3 --segment-size=7"; do
			for loc in C C.UTF-8; do
				for io in "" "--mmap" "--no-mmap --buffer-size=1"; do
					# shellcheck disable=SC2086
					JOB_EXTRA="$io $th" SINGLE_EXTRA=$th LC_ALL=$loc \
						note_case "$io $th LC_ALL=$loc" merged 5 $opts -- "$1" || return 1
				done
			done
		done
	done
}

@test "--merge: the jobs' I/O paths and the single run's threads change nothing" {
	big_text big.txt 600
	untraced merge_paths big.txt
}

@test "--merge: a missing file is reported as one run reports it (status 2)" {
	big_text a.txt 50
	local opts
	for opts in "-n -e foo" "-c -e foo" "-L -e foo" "-s -l -e foo"; do
		# shellcheck disable=SC2086
		merged 3 $opts -- a.txt missing.txt a.txt || return 1
	done
	[[ $(<"$OUTD/many.rc") == 2 ]]
}

@test "--merge: nothing selected is status 1; -q with a selection is 0" {
	big_text a.txt 40
	merged 4 -e absent -- a.txt
	[[ $(<"$OUTD/many.rc") == 1 ]]
	merged 4 -q -e foo -- a.txt missing.txt
	[[ $(<"$OUTD/many.rc") == 0 ]]
}

@test "--merge: a prefix ending in a tab (parallel --tag) is taken off each record" {
	big_text a.txt 60
	"$ACGREP" --records --range=0:300 -n -C 1 foo a.txt | sed 's/^/job 1\t/' >"$OUTD/rec"
	"$ACGREP" --records --range=300: -n -C 1 foo a.txt | sed 's/^/2\t/' >>"$OUTD/rec"
	run_ac --merge -n -C 1 foo "$OUTD/rec"
	"$ACGREP" -n -C 1 foo a.txt >"$OUTD/expected"
	expect_status 0
	cmp "$OUTD/expected" "$OUTD/ac.out"
}

@test "--merge: streams that cannot make one run's output are refused (status 2)" {
	big_text a.txt 60
	"$ACGREP" --records --range=0:300 -n foo a.txt >r1
	"$ACGREP" --records --range=300: -n foo a.txt >r2
	run_ac --merge -n foo r1
	expect_status 2
	expect_stderr_matches 'a.txt: bytes [0-9]+ to [0-9]+ are in no range'
	expect_out ''
	"$ACGREP" --records --range=200:400 -n foo a.txt >r12
	run_ac --merge -n foo r1 r12 r2
	expect_status 2
	expect_stderr_matches 'in two ranges'
	run_ac --merge -c foo r1 r2
	expect_status 2
	expect_stderr_matches "r1:1: records of a search with options '-n patterns=[0-9a-f]+'; this merge has '-c patterns"
	run_ac --merge -n bar r1 r2
	expect_status 2
	expect_stderr_matches 'patterns='
	head -n 3 r2 >r3
	run_ac --merge -n foo r1 r3
	expect_status 2
	expect_stderr_matches 'r3: the record stream is cut short'
	printf 'no records\n' >r4
	run_ac --merge -n foo r4
	expect_status 2
	expect_stderr_matches 'r4:1: not a record stream'
	sed 's/^L s/L q/' r2 >r5
	run_ac --merge -n foo r1 r5
	expect_status 2
	expect_stderr_matches 'r5:[0-9]+: malformed record'
}

@test "--merge: a binary file is merged from one range, refused from several" {
	printf 'foo\nbar\0baz\nfoo\n' >bin
	"$ACGREP" --records foo bin >whole
	run_ac --merge foo whole
	"$ACGREP" foo bin >"$OUTD/expected" 2>"$OUTD/expected.err"
	expect_status 0
	cmp "$OUTD/expected" "$OUTD/ac.out"
	{
		"$ACGREP" --records --range=0:5 foo bin
		"$ACGREP" --records --range=5: foo bin
	} >split
	run_ac --merge foo split
	expect_status 2
	expect_stderr_matches 'bin: binary file \(a NUL byte in bytes [0-9]+ to [0-9]+\)'
	merged 2 -a -n foo -- bin
}

@test "--range, --records, --merge, --ranges: bad arguments and combinations" {
	printf 'foo\n' >f
	run_ac --range=5:3 foo f
	expect_status 2
	expect_stderr_matches '^PROG: 5:3: invalid range'
	run_ac --range=x: foo f
	expect_status 2
	run_ac --range=0:1 -n foo f
	expect_status 2
	expect_stderr_matches '-n with --range needs --records'
	SAG_STDIN=f run_ac --range=0:1 foo -
	expect_status 2
	expect_stderr_matches 'needs a regular file'
	run_ac --merge --records foo f
	expect_status 2
	run_ac --records --count-matches -m 1 foo f
	expect_status 2
	run_ac --ranges=0 f
	expect_status 2
	: >e
	expect 0 '0:1\n1:2\n2:4\n' -- --ranges=3 f
	expect 0 '0:4\n' -- --ranges=1 f
	expect 0 'f\t0:2\nf\t2:4\ne\t0:0\n' -- --ranges=2 f e
	run_ac --ranges=2 f missing
	expect_status 2
	expect_out 'f\t0:2\nf\t2:4\n'
	expect_stderr_matches 'missing: No such file'
	expect 0 '0:0\n' -- --ranges=5 e
	run_ac --ranges=2 /dev/null
	expect_status 2
	expect_stderr_matches 'not a regular file'
}

# A big file for the recipes, the pattern list, and "hosts" for fake-ssh.
recipe_setup() {
	command -v parallel >/dev/null || skip "GNU parallel is not installed"
	big_text big.txt 3000
	printf 'foo\nNeedle\n' >pats.txt
	export FAKE_SSH_ROOT=$BATS_TEST_TMPDIR/hosts
	FAKE_SSH_SHELL=$(getent passwd "$(id -un)" | cut -d: -f7)
	export FAKE_SSH_SHELL=${FAKE_SSH_SHELL:-/bin/sh}
	FAKE_SSH=$REPO_ROOT/tests/cli/fake-ssh
	RECIPE_OPTS=("-c" "-l" "-L" "-n" "-b" "-o" "-C 2 -n" "-m 5 -n -A 2")
}

@test "recipe: one big file over 4 local job slots (parallel -k)" {
	recipe_setup
	local opts st
	for opts in "${RECIPE_OPTS[@]}"; do
		st=0
		# shellcheck disable=SC2086
		"$ACGREP" --ranges=8 big.txt |
			parallel --will-cite -k -j 4 "$ACGREP" --records --range={} $opts -f pats.txt big.txt \
				>"$OUTD/rec"
		# shellcheck disable=SC2086
		"$ACGREP" --merge $opts -f pats.txt "$OUTD/rec" >"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
		echo "$st" >"$OUTD/many.rc"
		# shellcheck disable=SC2086
		one_run $opts -f pats.txt big.txt
		same_out "local recipe: $opts" || return 1
	done
	"$ACGREP" --ranges=8 big.txt | parallel --will-cite -k -j 4 "$ACGREP" --records --range={} -n \
		-e absent big.txt >"$OUTD/rec"
	run_ac --merge -n -e absent "$OUTD/rec"
	expect_status 1
}

@test "recipe: one big file over two hosts (--sshlogin through fake-ssh, --basefile)" {
	recipe_setup
	local opts st
	for opts in "${RECIPE_OPTS[@]}"; do
		st=0
		rm -rf "$FAKE_SSH_ROOT"
		# shellcheck disable=SC2086
		"$ACGREP" --ranges=6 big.txt |
			parallel --will-cite -k --sshlogin 2/host1,2/host2 --ssh "$FAKE_SSH" \
				--basefile pats.txt --basefile big.txt \
				"$ACGREP" --records --range={} $opts -f pats.txt big.txt >"$OUTD/rec"
		[[ -f $FAKE_SSH_ROOT/host1/pats.txt && -f $FAKE_SSH_ROOT/host2/big.txt ]]
		# shellcheck disable=SC2086
		"$ACGREP" --merge $opts -f pats.txt "$OUTD/rec" >"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
		echo "$st" >"$OUTD/many.rc"
		# shellcheck disable=SC2086
		one_run $opts -f pats.txt big.txt
		same_out "hosts recipe: $opts" || return 1
	done
}

@test "recipe: many files over two hosts with --tag, one unreadable (status 2)" {
	recipe_setup
	local i opts st
	for i in 1 2 3 4 5; do
		big_text "f$i.txt" $((i * 40))
	done
	printf 'nothing\n' >f6.txt
	for opts in "${RECIPE_OPTS[@]}" "-e absent"; do
		st=0
		rm -rf "$FAKE_SSH_ROOT"
		# shellcheck disable=SC2086
		parallel --will-cite -k --tag --sshlogin 2/host1,2/host2 --ssh "$FAKE_SSH" \
			--basefile pats.txt --transferfile {} \
			"$ACGREP" --records $opts -f pats.txt {} ::: f1.txt f2.txt missing.txt f3.txt f4.txt \
			f5.txt f6.txt >"$OUTD/rec" || true
		# shellcheck disable=SC2086
		"$ACGREP" --merge $opts -f pats.txt "$OUTD/rec" >"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
		echo "$st" >"$OUTD/many.rc"
		# shellcheck disable=SC2086
		one_run $opts -f pats.txt f1.txt f2.txt missing.txt f3.txt f4.txt f5.txt f6.txt
		same_out "--tag recipe: $opts" || return 1
		[[ $st == 2 ]]
	done
}

@test "dask: acgrep_dask.py on a LocalCluster prints one run's output" {
	local py st opts
	py=$(dask_python) || skip "python3 -c 'import distributed' fails"
	big_text big.txt 2000
	big_text small.txt 30
	printf 'foo\nNeedle\n' >pats.txt
	for opts in "-n -C 2" "-c" "-L" "-m 3 -b"; do
		st=0
		# shellcheck disable=SC2086
		"$py" "$REPO_ROOT/contrib/dask/acgrep_dask.py" --acgrep "$ACGREP" --local 2 --ranges 5 \
			$opts -f pats.txt -- big.txt missing.txt small.txt \
			>"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
		echo "$st" >"$OUTD/many.rc"
		# shellcheck disable=SC2086
		one_run $opts -f pats.txt big.txt missing.txt small.txt
		same_out "dask: $opts" || return 1
	done
}
