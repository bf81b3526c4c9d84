#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# contrib/dask/acgrep_dask.py where one run's behaviour is easy to lose: a
# job that fails, a file with a NUL byte cut into ranges, workers in
# another directory and another locale than the client.  Each run is
# compared with one acgrep run: stdout bytes, stderr and exit status.

load helpers

# one_run ARGS...: acgrep ARGS into $OUTD/one.{out,err,rc}.
one_run() {
	local st=0
	"$ACGREP" "$@" >"$OUTD/one.out" 2>"$OUTD/one.err" || st=$?
	echo "$st" >"$OUTD/one.rc"
}

# dask_run ARGS...: acgrep_dask.py on a LocalCluster of 2 workers into
# $OUTD/many.{out,err,rc}.
dask_run() {
	local st=0
	"$py" "$REPO_ROOT/contrib/dask/acgrep_dask.py" --acgrep "$ACGREP" --local 2 "$@" \
		>"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
	echo "$st" >"$OUTD/many.rc"
}

# same_out LABEL: many.* equal one.*.
same_out() {
	local f
	for f in out err rc; do
		if ! same_bytes "$OUTD/one.$f" "$OUTD/many.$f"; then
			{
				echo "$1: $f differs from one run's"
				echo "--- one run:"
				cat -v "$OUTD/one.$f"
				echo "--- acgrep_dask.py:"
				cat -v "$OUTD/many.$f"
			} | fail
			return 1
		fi
	done
}

setup() {
	common_setup
	py=$(dask_python) || skip "python3 -c 'import distributed' fails"
	seq -f 'line %g needle' 400 >a.txt
	{ head -n 200 a.txt; printf 'a NUL \0 needle\n'; tail -n 200 a.txt; } >nul.txt
	printf 'needle\n' >pats.txt
}

@test "dask: a failed job gives one run's message and status 2" {
	dask_run --ranges 3 -n -f missing.txt -- a.txt
	one_run -n -f missing.txt a.txt
	same_out "-f missing.txt"
}

@test "dask: a file with a NUL byte is searched whole" {
	local opts
	for opts in "-n" "-c"; do
		# shellcheck disable=SC2086
		dask_run --ranges 4 $opts -f pats.txt -- a.txt nul.txt a.txt
		# shellcheck disable=SC2086
		one_run $opts -f pats.txt a.txt nul.txt a.txt
		same_out "opts: $opts" || return 1
	done
}

@test "dask: jobs run in the client's directory and locale, not the worker's" {
	mkdir elsewhere
	printf 'ÉCOLE\nnothing\n' >u.txt
	printf 'école\n' >upats.txt
	local st=0
	LC_ALL=C.UTF-8 "$py" "$REPO_ROOT/tests/cli/dask_elsewhere.py" "$ACGREP" elsewhere C 2 \
		-i -n -f upats.txt -f pats.txt -- u.txt a.txt \
		>"$OUTD/many.out" 2>"$OUTD/many.err" || st=$?
	echo "$st" >"$OUTD/many.rc"
	LC_ALL=C.UTF-8 one_run -i -n -f upats.txt -f pats.txt u.txt a.txt
	same_out "client LC_ALL=C.UTF-8, worker LC_ALL=C"
	# the locale matters here: one run finds ÉCOLE under C.UTF-8, not C
	head -n 1 "$OUTD/one.out" | "$GREP" -qx 'u.txt:1:ÉCOLE'
	[[ $(LC_ALL=C "$ACGREP" -i -c -f upats.txt u.txt) == 0 ]]
}
