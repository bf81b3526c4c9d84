# SPDX-License-Identifier: MIT
# helpers.bash - shared setup and assertions for the acgrep CLI tests.
#
# Every test file does `load helpers`.  The binary under test is
# ${ACGREP:-./acgrep}, a relative path being taken from the repository root;
# the oracle is GNU grep (${GREP:-/usr/bin/grep}).  With ACGREP=/usr/bin/grep
# every comparison test must pass and the acgrep-only tests skip.
#
# Each test runs in its own empty directory ($WORK, the cwd); captured
# outputs go to $OUTD, outside $WORK, so that -r over "." never sees them.

# A fork costs tens of milliseconds of CPU on a loaded machine, and this
# file is read once for each of some 700 tests: what it works out with a
# command is worked out once per test file (bats reads the file first in the
# process whose children run its tests, which inherit what is exported),
# and the libraries' files are sourced directly (their load.bash runs
# dirname once per file, 18 forks a test).
_bats_lib=${BATS_LIB_DIR:-/usr/lib/bats}
for _f in "$_bats_lib"/bats-support/src/*.bash "$_bats_lib"/bats-assert/src/*.bash; do
	# shellcheck disable=SC1090
	source "$_f"
done

GREP=${GREP:-/usr/bin/grep}

# Resolve the binary under test: absolute paths stay, relative paths are
# taken from the repository root, bare names are looked up in PATH.
_resolve_acgrep() {
	local p=${ACGREP:-./acgrep}
	case $p in
	/*) ;;
	*/*) p=$REPO_ROOT/$p ;;
	*) p=$(command -v -- "$p" || printf '%s' "$REPO_ROOT/$p") ;;
	esac
	printf '%s\n' "$p"
}

# True when the binary under test is GNU grep itself (validation mode).
_acgrep_is_grep_now() {
	[[ -x $ACGREP ]] || return 1
	local a g
	a=$(readlink -f -- "$ACGREP") g=$(readlink -f -- "$GREP")
	[[ $a == "$g" ]] && return 0
	"$ACGREP" --version 2>/dev/null | head -n 1 | "$GREP" -q '(GNU grep)'
}

if [[ ${_HELPERS_OF:-} != "$BATS_TEST_FILENAME" ]]; then
	REPO_ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	ACGREP=$(_resolve_acgrep)
	_ACGREP_IS_GREP_OF=$ACGREP _ACGREP_IS_GREP=0
	_acgrep_is_grep_now && _ACGREP_IS_GREP=1
	export _HELPERS_OF=$BATS_TEST_FILENAME REPO_ROOT ACGREP _ACGREP_IS_GREP_OF _ACGREP_IS_GREP
fi
export ACGREP GREP

# True when the binary under test is GNU grep itself (validation mode).
acgrep_is_grep() {
	if [[ $ACGREP == "$_ACGREP_IS_GREP_OF" ]]; then
		((_ACGREP_IS_GREP))
	else
		_acgrep_is_grep_now
	fi
}

# Skip a test of an acgrep extension when the binary under test is grep.
skip_if_grep() {
	if acgrep_is_grep; then
		skip "acgrep extension${1:+: $1}; ACGREP is GNU grep"
	fi
}

_common_setup() {
	# A predictable environment: nothing that changes grep's behaviour
	# leaks in from the caller.
	unset GREP_COLORS GREP_COLOR GREP_OPTIONS NO_COLOR POSIXLY_CORRECT \
		LANG LANGUAGE LC_CTYPE LC_MESSAGES LC_COLLATE
	export LC_ALL=C
	export TERM=dumb
	WORK=$BATS_TEST_TMPDIR/work
	OUTD=$BATS_TEST_TMPDIR/out
	mkdir -p "$WORK" "$OUTD"
	cd "$WORK" || return 1
	SAG_STDIN=/dev/null
	if [[ ! -x $ACGREP ]]; then
		fail "binary under test not found or not executable: $ACGREP (run make, or set ACGREP)"
	fi
}

setup() {
	common_setup
}

# under_strace ARGS...: strace ARGS, with LeakSanitizer's exit check off
# (make asan's build): it clones a thread of its own and fails under ptrace.
under_strace() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

# untraced CMD...: runs CMD in a subshell without bats's DEBUG trap.  bats
# runs its trap (a stack trace copied into arrays) before every simple
# command of a test, a few tenths of a millisecond of CPU each: a loop of
# 6,000 printf's costs 6.9 s under it (0.08 s without), and a loop over
# variants costs more in the trap than a fork.  Loops over cases and
# fixture builders run under untraced (not a single comparison: its fork
# costs what the trap does); what fails in them names its case itself
# (note_case, the comparisons' messages), and bats names the line that
# called untraced.  CMD's variables do not outlive the subshell.
untraced() {
	(
		trap - DEBUG
		"$@"
	)
}

# The helpers that tests call most run without the trap too, and
# without a fork: each NAME is `local -; set +T; _NAME "$@"`, its body
# being _NAME.  With functrace off (set +T, which `local -` turns back on
# when NAME returns) bats's DEBUG trap does not reach the functions NAME
# calls: _NAME runs as fast as under untraced, in the test's own shell (its
# variables and cwd stay), and bats still names the test's line that
# called NAME.  The trap costs up to a millisecond of CPU a command on a
# loaded machine, and a comparison runs some 30 commands.
for _quiet in common_setup fixture fixture_lines same_bytes same_as_grep same_as_grep_pre \
	same_as_grep_stdin same_as_grep_with same_as_grep_each same_as_grep_each_pre note_case has_decompressor \
	in_both_locales threads_asleep blocked_run run_ac expect_out expect_status \
	expect_no_stderr expect_stderr_matches expect dask_python; do
	eval "$_quiet() { local -; set +T; _$_quiet \"\$@\"; }"
done
unset _quiet

# ---------------------------------------------------------------- fixtures

# _fixture_dir NAME: creates NAME's parent directory where it is missing
# (without a process where it is there: fixtures are made by the thousand).
_fixture_dir() {
	local dir=${1%/*}
	[[ $1 == */* && -n $dir && ! -d $dir ]] || return 0
	mkdir -p -- "$dir"
}

# fixture NAME FORMAT [ARGS...]: write printf FORMAT ARGS to NAME (exact
# bytes; the parent directory is created).
_fixture() {
	local name=$1
	shift
	_fixture_dir "$name"
	# shellcheck disable=SC2059
	printf -- "$@" >"$name"
}

# fixture_lines NAME LINE...: each LINE followed by a newline.
_fixture_lines() {
	local name=$1
	shift
	_fixture_dir "$name"
	if (($#)); then printf '%s\n' "$@" >"$name"; else : >"$name"; fi
}

# made_up_words SEED: 40,000 made-up words of 2-10 letters, common letters
# more often than rare ones (a set of over 65,536 states, mostly sparse),
# the same for the same SEED, a line each on stdout.
made_up_words() {
	awk -v seed="$1" 'BEGIN {
		srand(seed); L = "etaoinshrdlucmfwypvbgkjqxz"
		for (i = 0; i < 40000; i++) {
			n = 2 + int(rand() * 9); w = ""
			for (j = 0; j < n; j++) w = w substr(L, 1 + int(rand() * rand() * 26), 1)
			print w
		}
	}'
}

# same_bytes FILE1 FILE2: the two files hold the same bytes (cmp -s).  A
# comparison is most of the processes a test starts, and most outputs are
# short text: files both under 64 KiB without a NUL byte are read into
# bash and compared there (read stops at a NUL or the limit with status 0,
# and only at the end of the file with status 1); any other pair goes to
# cmp.
_same_bytes() {
	local LC_ALL=C IFS= one two
	[[ -f $1 && -f $2 ]] || { cmp -s -- "$1" "$2"; return; }
	if ! read -r -d '' -n 65536 one <"$1" && ! read -r -d '' -n 65536 two <"$2"; then
		[[ $one == "$two" ]]
		return
	fi
	cmp -s -- "$1" "$2"
}

# hexdump of a file, for failure messages.
_hex() {
	od -An -c -- "$1" | head -n 40
}

# ---------------------------------------------------------------- comparison

# Normalise the program name in diagnostics: "grep:", "/usr/bin/grep:",
# "acgrep:", "/x/y/acgrep:" at a line start all become "PROG:", and so do
# the names in the usage lines.
_norm_stderr() {
	sed -E \
		-e 's#^([^ :]*/)?(ac)?grep:#PROG:#' \
		-e 's#^Usage: ([^ ]*/)?(ac)?grep #Usage: PROG #' \
		-e "s#^Try '([^ ]*/)?(ac)?grep --help'#Try 'PROG --help'#" \
		-- "$1"
}

# _norm_stderr_to FILE OUT: _norm_stderr FILE >OUT, in bash where FILE is
# short text (under 16 KiB without a NUL, read as same_bytes reads), with
# sed otherwise.
_norm_stderr_to() {
	local LC_ALL=C IFS= text line out=
	if [[ -f $1 ]] && ! read -r -d '' -n 16384 text <"$1"; then
		while [[ -n $text ]]; do
			line=${text%%$'\n'*}
			if [[ $line == "$text" ]]; then text= ; else text=${text#*$'\n'} line+=$'\n'; fi
			if [[ $line =~ ^([^\ :]*/)?(ac)?grep:(.*)$ ]]; then
				line=PROG:${BASH_REMATCH[3]}
			elif [[ $line =~ ^Usage:\ ([^\ ]*/)?(ac)?grep\ (.*)$ ]]; then
				line="Usage: PROG ${BASH_REMATCH[3]}"
			elif [[ $line =~ ^Try\ \'([^\ ]*/)?(ac)?grep\ --help\'(.*)$ ]]; then
				line="Try 'PROG --help'${BASH_REMATCH[3]}"
			fi
			out+=$line
		done
		printf '%s' "$out" >"$2"
		return
	fi
	_norm_stderr "$1" >"$2"
}

# _compare LABEL: compares $OUTD/{g,a}.{out,err,rc}.  Returns 1 with a
# readable message when they differ.
_compare() {
	local what=$1 gs as
	read -r gs <"$OUTD/g.rc"
	read -r as <"$OUTD/a.rc"
	local where="[LC_ALL=${LC_ALL:-} cwd=${PWD#"$BATS_TEST_TMPDIR/"}] $what"
	if [[ -n ${SAG_SORT:-} ]]; then
		LC_ALL=C sort -o "$OUTD/g.out" -- "$OUTD/g.out"
		LC_ALL=C sort -o "$OUTD/a.out" -- "$OUTD/a.out"
	fi
	if ! same_bytes "$OUTD/g.out" "$OUTD/a.out"; then
		{
			echo "stdout differs: $where"
			echo "--- grep stdout:"
			_hex "$OUTD/g.out"
			echo "--- acgrep stdout:"
			_hex "$OUTD/a.out"
			echo "--- grep stderr:"
			cat -- "$OUTD/g.err"
			echo "--- acgrep stderr:"
			cat -- "$OUTD/a.err"
		} | fail
		return 1
	fi
	if [[ $gs != "$as" ]]; then
		{
			echo "exit status differs: $where"
			echo "grep: $gs   acgrep: $as"
			echo "--- grep stderr:"
			cat -- "$OUTD/g.err"
			echo "--- acgrep stderr:"
			cat -- "$OUTD/a.err"
		} | fail
		return 1
	fi
	if [[ -z ${SAG_IGNORE_STDERR:-} && (-s $OUTD/g.err || -s $OUTD/a.err) ]]; then
		_norm_stderr_to "$OUTD/g.err" "$OUTD/g.nerr"
		_norm_stderr_to "$OUTD/a.err" "$OUTD/a.nerr"
		if [[ -n ${SAG_SORT:-} ]]; then
			LC_ALL=C sort -o "$OUTD/g.nerr" -- "$OUTD/g.nerr"
			LC_ALL=C sort -o "$OUTD/a.nerr" -- "$OUTD/a.nerr"
		fi
		if ! same_bytes "$OUTD/g.nerr" "$OUTD/a.nerr"; then
			{
				echo "stderr differs (program names normalised): $where"
				echo "--- grep stderr:"
				cat -- "$OUTD/g.nerr"
				echo "--- acgrep stderr:"
				cat -- "$OUTD/a.nerr"
			} | fail
			return 1
		fi
	fi
	return 0
}

# same_as_grep ARGS...: run `grep -F ARGS` and `$ACGREP -F ARGS` in the
# current directory and locale, stdin from $SAG_STDIN (default /dev/null),
# stdout and stderr captured to files; assert identical stdout bytes,
# identical exit status and identical stderr up to the program name.
# Knobs: SAG_SORT=1 compares sorted output (directory order is not
# promised), SAG_IGNORE_STDERR=1 skips the stderr check.
_same_as_grep() {
	same_as_grep_pre -F "$@"
}

# same_as_grep_pre ARGS...: like same_as_grep but without the implicit -F
# (to test option placement, e.g. options after operands, `--`).
_same_as_grep_pre() {
	local gs=0 as=0
	"$GREP" "$@" <"${SAG_STDIN:-/dev/null}" >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
	"$ACGREP" "$@" <"${SAG_STDIN:-/dev/null}" >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
	echo "$gs" >"$OUTD/g.rc"
	echo "$as" >"$OUTD/a.rc"
	local args
	printf -v args '%q ' "$@"
	_compare "args: $args" || return 1
}

# same_as_grep_stdin FILE ARGS...: same_as_grep with stdin from FILE.
_same_as_grep_stdin() {
	local SAG_STDIN=$1
	shift
	same_as_grep "$@" || return 1
}

# same_as_grep_with "ACGREP EXTRA ARGS" ARGS...: compare `grep -F ARGS`
# with `$ACGREP EXTRA -F ARGS` (EXTRA is split on spaces), for hidden or
# extension options that grep does not know.
_same_as_grep_with() {
	local -a extra
	read -r -a extra <<<"$1"
	shift
	local gs=0 as=0
	"$GREP" -F "$@" <"${SAG_STDIN:-/dev/null}" >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
	"$ACGREP" "${extra[@]}" -F "$@" <"${SAG_STDIN:-/dev/null}" >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
	echo "$gs" >"$OUTD/g.rc"
	echo "$as" >"$OUTD/a.rc"
	local args
	printf -v args '%q ' "$@"
	_compare "acgrep extra: ${extra[*]}; args: $args" || return 1
}

# same_as_grep_each EXTRA... -- ARGS...: `grep -F ARGS` once, then
# `$ACGREP EXTRA -F ARGS` for each EXTRA (split on spaces; "" for none),
# each compared with grep's run as same_as_grep_with compares: for the
# variants (I/O paths, threads) that must all print what grep prints.
_same_as_grep_each() {
	local -a extras=()
	while [[ $1 != -- ]]; do
		extras+=("$1")
		shift
	done
	shift
	_same_as_grep_each_pre "${extras[@]}" -- -F "$@"
}

# same_as_grep_each_pre EXTRA... -- ARGS...: same_as_grep_each without the
# implicit -F (for -E and -G).
_same_as_grep_each_pre() {
	local -a extras=() extra
	while [[ $1 != -- ]]; do
		extras+=("$1")
		shift
	done
	shift
	local gs=0 as x args
	"$GREP" "$@" <"${SAG_STDIN:-/dev/null}" >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
	echo "$gs" >"$OUTD/g.rc"
	printf -v args '%q ' "$@"
	for x in "${extras[@]}"; do
		read -r -a extra <<<"$x"
		as=0
		"$ACGREP" "${extra[@]}" "$@" <"${SAG_STDIN:-/dev/null}" >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
		echo "$as" >"$OUTD/a.rc"
		_compare "acgrep extra: ${extra[*]}; args: $args" || return 1
	done
}

# note_case WHAT CMD...: runs CMD; when it fails, names the case of a loop
# that failed ("# (failed for WHAT)": the option set, I/O path, thread
# count or text the loop was at) and returns 1.
_note_case() {
	local what=$1
	shift
	"$@" || {
		echo "# (failed for $what)" >&2
		return 1
	}
}

# has_decompressor FORMAT: the binary under test decodes FORMAT (gzip, xz,
# zstd, bzip2) with --decompress, as its --version lists
_has_decompressor() {
	"$ACGREP" --version 2>/dev/null | "$GREP" -q "^Decompressors .* compiled in:.* $1[ .]"
}

# in_both_locales CMD...: run CMD under LC_ALL=C and then LC_ALL=C.UTF-8.
_in_both_locales() {
	local loc
	for loc in C C.UTF-8; do
		LC_ALL=$loc "$@" || {
			echo "# (failed under LC_ALL=$loc)" >&2
			return 1
		}
	done
}

# _nap: 50 ms without a process (a poll runs it hundreds of times in a
# file): a read that times out on a FIFO of this shell's, open for reading
# and writing, to which nothing writes.
_nap() {
	if [[ ${_NAP_OF:-} != "$BASHPID" ]]; then
		local fifo=$BATS_TEST_TMPDIR/nap.$BASHPID
		{ mkfifo -- "$fifo" && exec {_NAP_FD}<>"$fifo"; } || {
			sleep 0.05
			return 0
		}
		_NAP_OF=$BASHPID
	fi
	read -r -t 0.05 -u "$_NAP_FD" _ || true
}

# threads_asleep PID [N]: waits (10 s at most) until PID runs its program
# (it is no longer the bash that forked it), has N threads or more when N
# is given (a sanitizer adds its own), and every thread of it sleeps,
# twice in a row 50 ms apart.  /proc is read with bash's own read, and the
# polls wait with _nap: a poll starts no process.
_threads_asleep() {
	local pid=$1 n=${2:-} k calm=0 states comm stat f
	for ((k = 0; k < 200; k++)); do
		states= comm=
		read -r comm 2>/dev/null </proc/"$pid"/comm || true
		for f in /proc/"$pid"/task/*/stat; do
			# the state is the field after the command name's ")"
			read -r stat 2>/dev/null <"$f" && stat=${stat##*) } && states+=${stat%% *}
		done
		if [[ $comm != bash && $states =~ ^S+$ && (-z $n || ${#states} -ge $n) ]]; then
			((++calm == 2)) && return 0
		else
			calm=0
		fi
		_nap
	done
	return 1
}

# blocked_run NAME CHANGE PROG ARGS...: runs PROG ARGS, its stdout a FIFO
# read only after PROG blocked writing to it and the command CHANGE ran.
# Leaves $OUTD/NAME.out, NAME.err and NAME.rc.
_blocked_run() {
	local name=$1 change=$2 pid reader st=0
	shift 2
	rm -f out.fifo gate.fifo
	mkfifo out.fifo gate.fifo
	{ read -r _ <gate.fifo && cat >"$OUTD/$name.out"; } <out.fifo &
	reader=$!
	"$@" >out.fifo 2>"$OUTD/$name.err" &
	pid=$!
	if ! threads_asleep $pid; then
		kill $pid $reader
		fail "$name: $* never blocked writing"
		return 1
	fi
	eval "$change"
	echo go >gate.fifo
	wait $pid || st=$?
	wait $reader
	echo $st >"$OUTD/$name.rc"
}

# ---------------------------------------------------------------- exact runs

# run_ac ARGS...: run the binary under test; stdout to $OUTD/ac.out,
# stderr to $OUTD/ac.err, status in $ac_status; stdin from $SAG_STDIN.
# The command line goes to $ac_command for the expect_* failure messages.
_run_ac() {
	ac_status=0
	printf -v ac_command '%q ' "$@"
	ac_command="acgrep $ac_command"
	[[ ${SAG_STDIN:-/dev/null} == /dev/null ]] || ac_command+="<$SAG_STDIN"
	"$ACGREP" "$@" <"${SAG_STDIN:-/dev/null}" >"$OUTD/ac.out" 2>"$OUTD/ac.err" || ac_status=$?
}

# _ac_where: the locale and command line of the last run_ac, for failure
# messages.
_ac_where() {
	printf '[LC_ALL=%s] %s' "${LC_ALL:-}" "${ac_command:-acgrep}"
}

# expect_out FORMAT [ARGS...]: stdout of the last run_ac is exactly the
# bytes printf FORMAT ARGS produces.
_expect_out() {
	# shellcheck disable=SC2059
	printf -- "$@" >"$OUTD/expected"
	if ! same_bytes "$OUTD/expected" "$OUTD/ac.out"; then
		{
			echo "stdout is not as expected: $(_ac_where)"
			echo "--- expected:"
			_hex "$OUTD/expected"
			echo "--- actual:"
			_hex "$OUTD/ac.out"
			echo "--- stderr:"
			cat -- "$OUTD/ac.err"
		} | fail
		return 1
	fi
}

# expect_status N
_expect_status() {
	if [[ $ac_status != "$1" ]]; then
		{
			echo "exit status $ac_status, expected $1: $(_ac_where)"
			echo "--- stderr:"
			cat -- "$OUTD/ac.err"
		} | fail
		return 1
	fi
}

# expect_no_stderr
_expect_no_stderr() {
	if [[ -s $OUTD/ac.err ]]; then
		{
			echo "unexpected stderr: $(_ac_where)"
			cat -- "$OUTD/ac.err"
		} | fail
		return 1
	fi
}

# expect_stderr_matches ERE: a line of the normalised stderr matches the
# extended regex (in bash: [[ =~ ]] is the same POSIX ERE, line by line).
_expect_stderr_matches() {
	local line found=
	_norm_stderr_to "$OUTD/ac.err" "$OUTD/ac.nerr"
	while IFS= read -r line || [[ -n $line ]]; do
		[[ $line =~ $1 ]] && found=1 && break
	done <"$OUTD/ac.nerr"
	if [[ -z $found ]]; then
		{
			echo "stderr does not match /$1/: $(_ac_where)"
			cat -- "$OUTD/ac.err"
		} | fail
		return 1
	fi
}

# expect STATUS FORMAT [ARGS...] -- ACGREP-ARGS...: one-line exact check:
# run_ac with ACGREP-ARGS, then the status and the stdout bytes.
_expect() {
	local st=$1
	shift
	local -a fmt=()
	while (($#)) && [[ $1 != -- ]]; do
		fmt+=("$1")
		shift
	done
	shift
	run_ac "$@"
	expect_status "$st" || return 1
	expect_out "${fmt[@]}" || return 1
}

# A Python that imports dask.distributed: python3, or Debian's own (where
# python3-distributed installs when another python3 comes first in PATH).
# The answer (a path, or "none") is kept for the run's other tests in
# $BATS_RUN_TMPDIR/dask_python: importing distributed costs a second or two.
_dask_python() {
	local py known=${BATS_RUN_TMPDIR:-}/dask_python
	if [[ -n ${BATS_RUN_TMPDIR:-} && -s $known ]]; then
		read -r py <"$known"
		[[ $py != none ]] && echo "$py"
		[[ $py != none ]]
		return
	fi
	for py in python3 /usr/bin/python3 none; do
		[[ $py == none ]] && break
		"$py" -c 'import distributed' 2>/dev/null && break
	done
	if [[ -n ${BATS_RUN_TMPDIR:-} ]]; then
		echo "$py" >"$known.$$" && mv -f -- "$known.$$" "$known"
	fi
	[[ $py != none ]] && echo "$py"
	[[ $py != none ]]
}
