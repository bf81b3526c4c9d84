#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Walk edges: devices, FIFOs and sockets found by -r/-R under each -D,
# trees deeper than PATH_MAX, more directories than descriptors, files
# opened in their directory (walk.h).  Every run is compared with GNU
# grep 3.8 in C and C.UTF-8, with default threads and --threads=1, mapped
# and read().

load helpers

# The acgrep-only option sets the comparisons run with (devices, FIFOs and
# sockets are never mapped: DEVICE_PATHS leaves --mmap out).
PATHS=("" "--threads=1" "--mmap" "--threads=1 --no-mmap")
DEVICE_PATHS=("" "--threads=1")

# special_tree: d/f (a match), d/p (a FIFO), and where this machine allows
# them d/sock (a socket), d/cdev (a character device, as root) and under
# -R's links d/null (-> /dev/null) and d/lp (-> a FIFO outside the tree).
special_tree() {
	fixture d/f 'needle\n'
	mkfifo d/p outer
	ln -s ../outer d/lp
	ln -s /dev/null d/null
	mknod d/cdev c 1 3 2>/dev/null || true
	if command -v python3 >/dev/null; then
		python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("d/sock")'
	fi
}

# fed NAME PROG ARGS...: runs PROG ARGS (60 s at most) while a writer feeds
# each FIFO once; a run that skips a FIFO leaves its writer blocked in
# open(), let go here by opening the FIFO.  Leaves $OUTD/NAME.out,
# NAME.err and NAME.rc.  The writers are sh processes, never killed:
# killing a writer (then a subshell of the test) made bats report the
# test failed from it, 1 run in 5 to 20 with another beside it.
fed() {
	local name=$1 st=0 w1 w2
	shift
	sh -c "printf 'needle in fifo\\n' >d/p" 2>/dev/null &
	w1=$!
	sh -c "printf 'needle via link\\n' >outer" 2>/dev/null &
	w2=$!
	timeout 60 "$@" </dev/null >"$OUTD/$name.out" 2>"$OUTD/$name.err" || st=$?
	echo $st >"$OUTD/$name.rc"
	# a writer still in open() goes on once a reader opens its FIFO (read
	# and write: no wait), and ends, written or by SIGPIPE
	local fd f
	while kill -0 $w1 2>/dev/null || kill -0 $w2 2>/dev/null; do
		for f in d/p outer; do
			exec {fd}<>"$f"
			exec {fd}<&-
		done
		sleep 0.01
	done
	wait $w1 $w2 2>/dev/null || true
}

# same_fed "ACGREP EXTRA" ARGS...: grep -F ARGS and acgrep EXTRA -F ARGS,
# each fed (see fed), then compared (sorted) as same_as_grep does.
same_fed() {
	local -a extra
	read -r -a extra <<<"$1"
	shift
	fed g "$GREP" -F "$@"
	fed a "$ACGREP" "${extra[@]}" -F "$@"
	local args
	printf -v args '%q ' "$@"
	SAG_SORT=1 _compare "acgrep extra: ${extra[*]}; args: $args"
}

@test "walk: -R -D skip skips a FIFO met in the walk (no hang)" {
	special_tree
	local p
	for p in "" --threads=1; do  # nothing writes the FIFO: opening it would block
		ac_status=0 ac_command="timeout 60 acgrep $p -R -D skip needle d"
		# shellcheck disable=SC2086  # $p: zero or one word
		timeout 60 "$ACGREP" $p -R -D skip needle d </dev/null >"$OUTD/ac.out" 2>"$OUTD/ac.err" ||
			ac_status=$?
		expect_status 0
		expect_out 'd/f:needle\n'
	done
}

@test "walk: -D rules for devices, FIFOs and sockets found by -r and -R" {
	special_tree
	local rec dev p
	for rec in -r -R; do
		for dev in "" "-D read" "-D skip"; do
			for p in "${DEVICE_PATHS[@]}"; do
				# shellcheck disable=SC2086  # $dev: zero or two words
				note_case "$rec $dev $p" in_both_locales same_fed "$p" $rec $dev -c needle d
			done
		done
	done
}

@test "walk: -D read and -D skip on command-line FIFOs and links to devices" {
	special_tree
	local dev
	for dev in "-D read" "-D skip"; do
		# shellcheck disable=SC2086
		note_case "$dev" in_both_locales same_fed "" -r $dev -c needle d/p d/lp d/null d/f
	done
}

# deep_tree: t/top and, 1000 directories down (10,000 bytes of name, past
# PATH_MAX), t/level_dir/.../f.  Made 250 levels (2,500 bytes) per mkdir -p
# and cd: a shell's cd costs more the longer its $PWD.
deep_tree() {
	local chunk
	chunk=$(printf 'level_dir/%.0s' $(seq 250))
	(
		mkdir t && cd t || exit 1
		for _ in 1 2 3 4; do
			mkdir -p "$chunk" && cd "$chunk" || exit 1
		done
		echo 'needle deep' >f
	)
	echo 'needle top' >t/top
}

@test "walk: -r finds a match 1,000 directories deep, past PATH_MAX" {
	deep_tree
	run_ac -r -h needle t
	expect_status 0
	LC_ALL=C sort -o "$OUTD/ac.out" "$OUTD/ac.out"
	expect_out 'needle deep\nneedle top\n'
	SAG_SORT=1 in_both_locales same_as_grep_each "${PATHS[@]}" -- -r needle t
	SAG_SORT=1 in_both_locales same_as_grep_each "${PATHS[@]}" -- -r -l needle t
}

@test "walk: -r past PATH_MAX with 64 descriptors, and -R's File name too long" {
	deep_tree
	local p
	for p in "" "--threads=1" "--threads=3 --no-mmap"; do
		(
			ulimit -n 64
			SAG_SORT=1 note_case "$p" in_both_locales same_as_grep_with "$p" -r -c needle t
		)
		# -R opens full names, as grep's FTS_LOGICAL: exit 2
		SAG_SORT=1 note_case "$p" in_both_locales same_as_grep_with "$p" -R needle t
	done
	run_ac -R needle t
	expect_status 2
	expect_stderr_matches ': File name too long$'
}

# wide_tree [N]: N (default 300) directories w/dNNN, each with a file (a
# match in every third) and a subdirectory with another.
wide_tree() {
	local i
	for i in $(seq -w "${1:-300}"); do
		mkdir -p "w/d$i/sub"
		if ((10#$i % 3 == 0)); then echo "needle $i" >"w/d$i/f"; else echo "hay $i" >"w/d$i/f"; fi
		echo "needle sub $i" >"w/d$i/sub/g"
	done
}

# Files -r finds are opened relative to their directory's descriptor, which
# searches still queued keep open: more directories than descriptors must
# fall back to full names, never fail to open (EMFILE).
@test "walk: -r over 600 directories with 64 and 40 descriptors, 1 and 3 threads" {
	wide_tree
	local p n
	for n in 64 40; do
		for p in "" "--threads=1" "--threads=3 --no-mmap"; do
			(
				ulimit -n $n
				SAG_SORT=1 note_case "$p (ulimit -n $n)" same_as_grep_with "$p" -r needle w
				SAG_SORT=1 note_case "$p (ulimit -n $n)" same_as_grep_with "$p" -r -l needle w
			)
		done
	done
}

# Under 64 directories in all, so that the fall-back to full names (more
# than twice the walk's 32 held directories open, as searches queued on a
# busy machine keep theirs) can never come, whatever the threads' timing.
@test "walk: -r opens a file by its name in its directory, not by its path" {
	skip_if_grep
	[[ $ACGREP != *-qemu ]] || skip "an emulator's system calls"
	command -v strace >/dev/null || skip "no strace"
	wide_tree 30
	local p
	for p in --threads=1 --threads=3; do
		under_strace -f -qq -e trace=open,openat -o "$OUTD/open.trace" "$ACGREP" "$p" -r -c needle w \
			>"$OUTD/ac.out" 2>&1 || fail "$p: status $?"
		grep -q 'openat([0-9][0-9]*, "f",' "$OUTD/open.trace" || fail "$p: no file opened in its directory"
		! grep -E 'open(at)?\(AT_FDCWD, "w/[^"]*/(f|g)"' "$OUTD/open.trace" ||
			fail "$p: a file opened by its path"
	done
}
