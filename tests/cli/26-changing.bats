#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Files that change while they are searched: truncated (a mapped file
# faults past its new end) or appended to.  The search blocks writing its
# output into a pipe that is read only after the file changed, so the
# change always falls in the middle of the search; what is printed then is
# what grep prints: every line still there when the search reaches it, up
# to wherever the file ends at that time, without a message.

load helpers

# (blocked_run is helpers.bash's)

# numbered FROM TO: lines "line NNNNNNNNN match", 21 bytes each.
numbered() {
	awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i <= b; i++) printf "line %09d match\n", i }'
}

# same_blocked LABEL CHANGE SETUP -- ACGREP-EXTRA -- ARGS...: blocked_run
# of grep -F ARGS (once per LABEL and locale) and of acgrep ACGREP-EXTRA
# -F ARGS, the file set up by the command SETUP before each; same stdout,
# status and stderr.
same_blocked() {
	local label=$1 change=$2 setup=$3 f
	shift 4
	local -a extra=()
	while [[ $1 != -- ]]; do
		extra+=("$1")
		shift
	done
	shift
	local key="$OUTD/grep.${label// /_}.$LC_ALL"
	if [[ ! -e $key.rc ]]; then
		eval "$setup"
		blocked_run g "$change" "$GREP" -F "$@" || return 1
		for f in out err rc; do
			cp "$OUTD/g.$f" "$key.$f"
		done
	fi
	for f in out err rc; do
		cp "$key.$f" "$OUTD/g.$f"
	done
	eval "$setup"
	blocked_run a "$change" "$ACGREP" "${extra[@]}" -F "$@" || return 1
	_compare "$label: acgrep ${extra[*]}; args: $*"
}

# every_path LABEL CHANGE SETUP EXTRA -- ARGS...: same_blocked in both
# locales, through every I/O path (those in EVERY_IO, "auto" for the
# default) and on one to three threads, acgrep also given EXTRA (one word);
# untraced (helpers.bash).
every_path() {
	untraced _every_path "$@"
}

_every_path() {
	local label=$1 change=$2 setup=$3 extra=$4 loc io t
	shift 5
	for loc in C C.UTF-8; do
		for io in ${EVERY_IO:-auto --mmap --no-mmap}; do
			[[ $io == auto ]] && io=
			for t in 1 2 3; do
				# shellcheck disable=SC2086
				LC_ALL=$loc note_case "I/O path ${io:-auto}, --threads=$t, LC_ALL=$loc" \
					same_blocked "$label" "$change" "$setup" -- $io --threads=$t $extra -- "$@" ||
					return 1
			done
		done
	done
}

@test "changing: a file truncated while its output waits prints what is left, as grep" {
	skip_if_grep
	numbered 1 200000 >orig
	echo 'small match' >small
	# 2,000,018: the last line cut after "match"; 2 MiB: a page boundary
	# (the mapping faults right there), the last line cut before "match".
	# -n: the file is not split; a small --segment-size keeps the output
	# held for it small (800 KB), so the worker waits before the new end.
	every_path "to 2000018" "truncate -s 2000018 big" "cp orig big" --segment-size=100000 -- \
		-n match big small || return 1
	every_path "to 2MiB" "truncate -s 2097152 big" "cp orig big" --segment-size=100000 -- \
		-n -b -C1 match big small
}

# Truncated to nothing: grep prints the lines it had read, acgrep those it
# had searched; either way whole lines, no message, status 0.
@test "changing: a file truncated to nothing while its output waits" {
	skip_if_grep
	numbered 1 200000 >orig
	untraced truncated_to_nothing
}

truncated_to_nothing() {
	local io t
	for io in "" --mmap --no-mmap; do
		for t in 1 2 3; do
			cp orig big
			blocked_run a ": >big" "$ACGREP" $io --threads=$t -F match big || return 1
			[[ $(<"$OUTD/a.rc") == 0 && ! -s $OUTD/a.err ]] ||
				fail "$io --threads=$t: status $(<"$OUTD/a.rc"): $(<"$OUTD/a.err")"
			cmp -s "$OUTD/a.out" <(head -c "$(stat -c %s "$OUTD/a.out")" orig) ||
				fail "$io --threads=$t: not the file's first lines"
			[[ $(tail -c 1 "$OUTD/a.out" | od -An -c) == *'\n'* ]] ||
				fail "$io --threads=$t: ends inside a line"
		done
	done
}

# A split file's segments are read ahead of the output, so how much of it
# was read before the truncation depends on the threads; what was read
# and what is still there comes out whole, in order, without a message.
@test "changing: a split file truncated while searched keeps its lines in order" {
	skip_if_grep
	numbered 1 200000 >orig
	untraced split_truncated
}

split_truncated() {
	local t size
	for t in 2 3; do
		cp orig big
		blocked_run a "truncate -s 2097152 big" "$ACGREP" --threads=$t --segment-size=500000 -F match big ||
			return 1
		[[ $(<"$OUTD/a.rc") == 0 && ! -s $OUTD/a.err ]] ||
			fail "--threads=$t: status $(<"$OUTD/a.rc"): $(<"$OUTD/a.err")"
		size=$(stat -c %s "$OUTD/a.out")
		((size >= 2097144)) || fail "--threads=$t: $size bytes, lines before the new end lost"
		cmp -s "$OUTD/a.out" <(head -c "$size" orig) || fail "--threads=$t: not the file's lines in order"
		[[ $(tail -c 1 "$OUTD/a.out" | od -An -c) == *'\n'* ]] || fail "--threads=$t: ends inside a line"
	done
}

@test "changing: a file appended to while searched is read to its new end, as grep" {
	skip_if_grep
	# the last line unfinished at first ("line 0001"), finished by the
	# appended bytes, which a mapping, a split file's last segment and a
	# read() that reaches the old size must all join and read on from
	{ numbered 1 100000; printf 'line 0001'; } >orig
	{ printf '00001 match\n'; numbered 100002 200000; } >more
	echo 'small match' >small
	every_path grow "cat more >>big" "cp orig big" --segment-size=300000 -- match big || return 1
	every_path "grow -n" "cat more >>big" "cp orig big" --segment-size=100000 -- -n -b -C1 match big small
}

# NUL bytes in what was appended make the file binary where grep's buffers
# would (the reads after a mapping or a split file's segments end where
# grep's do): the lines before them printed, then the message.
@test "changing: a NUL appended while the file is searched makes it binary, as grep" {
	skip_if_grep
	{ numbered 1 100000; printf 'line 0001'; } >orig
	{ printf '00001 match\n'; numbered 100002 150000; printf 'a\0b match\n'; numbered 150001 200000; } >more
	every_path "grow binary" "cat more >>big" "cp orig big" --segment-size=300000 -- match big
}

# A NUL appended just after the old end, in the read that also holds the
# split file's last lines: the last segment looks past its end at what
# was appended, as a whole file's read() does, and goes quiet with grep.
# Not --mmap: a mapped window holds more than grep's buffer, and it is
# the mapped part that decides (DESIGN.md, "Known differences").
@test "changing: a NUL appended next to the old end silences grep's lines" {
	skip_if_grep
	{ numbered 1 100000; printf 'line 0001'; } >orig
	{ printf '00001 match\na\0b match\n'; numbered 100002 200000; } >more
	EVERY_IO="auto --no-mmap" every_path "nul at the end" "cat more >>big" "cp orig big" \
		--segment-size=300000 -- match big
}
