#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# A compiled set changed on disk while a search uses it (acgrep
# extension): rewritten in place with the same size, truncated, rewritten
# longer, replaced by a rename.  The change is made once the first byte
# of the output was read (the set was checked before any input is read),
# and the rest is read only after it: the search, whose output is far
# more than its pipe holds, cannot have ended.  It must go on with the set
# it checked: exactly grep -F's output for the original patterns, its
# status, nothing on stderr (no crash, no "file shrank" taken for the
# text's).

load helpers

setup() {
	common_setup
	skip_if_grep "--compiled"
}

# The patterns, a set of other patterns (a different and longer file) and
# a text of 40,000 lines, each holding one of the patterns (the output,
# 1.3 MB, is far more than a pipe holds).
change_setup() {
	awk 'BEGIN { for (i = 0; i < 600; i++) printf "word%05dxyz\n", i * 7 }' >pats
	awk 'BEGIN { for (i = 0; i < 3000; i++) printf "other%06dq\n", i * 11 }' >other.pats
	awk 'BEGIN { for (i = 0; i < 40000; i++) printf "line %d has word%05dxyz in it\n", i, (i * 13) % 600 * 7 }' >text
}

# changed_run CHANGE ARGS...: acgrep ARGS, its stdout a FIFO; the command
# CHANGE runs after the first byte of it was read, the rest is read after.
# Leaves $OUTD/a.out, a.err and a.rc.
changed_run() {
	local change=$1 pid st=0 fd
	shift
	rm -f out.fifo
	mkfifo out.fifo
	"$ACGREP" "$@" >out.fifo 2>"$OUTD/a.err" &
	pid=$!
	exec {fd}<out.fifo
	dd bs=1 count=1 status=none <&$fd >"$OUTD/a.out"
	eval "$change"
	cat <&$fd >>"$OUTD/a.out"
	exec {fd}<&-
	wait $pid || st=$?
	echo $st >"$OUTD/a.rc"
}

# same_after CHANGE ARGS...: changed_run of acgrep --compiled=set.acs ARGS
# text, the set saved from pats in this locale (other.acs from
# other.pats), against grep -F -f pats text.
same_after() {
	local change=$1 f
	shift
	if [[ ! -e $OUTD/g.$LC_ALL.rc ]]; then
		"$ACGREP" --save-compiled="$OUTD/set.$LC_ALL.acs" -f pats || return 1
		"$ACGREP" --save-compiled="$OUTD/other.$LC_ALL.acs" -f other.pats || return 1
		local gs=0
		"$GREP" -F -f pats text >"$OUTD/g.$LC_ALL.out" 2>"$OUTD/g.$LC_ALL.err" || gs=$?
		echo "$gs" >"$OUTD/g.$LC_ALL.rc"
	fi
	for f in out err rc; do
		cp "$OUTD/g.$LC_ALL.$f" "$OUTD/g.$f"
	done
	cp "$OUTD/set.$LC_ALL.acs" set.acs
	cp "$OUTD/other.$LC_ALL.acs" other.acs
	changed_run "$change" --compiled=set.acs "$@" text
	_compare "set changed by: $change; acgrep --compiled=set.acs $*"
}

# every_way CHANGE [IO...]: same_after in both locales, on the default
# threads and one, through each I/O path given (default: the default).
every_way() {
	local change=$1 loc io t
	shift
	for loc in C C.UTF-8; do
		for io in "${@:-}"; do
			for t in '' --threads=1; do
				# shellcheck disable=SC2086
				LC_ALL=$loc note_case "${io:-default I/O} ${t:-default threads}, LC_ALL=$loc" \
					same_after "$change" $io $t || return 1
			done
		done
	done
}

@test "compiled change: the set rewritten in place, same size, after the checks" {
	change_setup
	# every byte 0xFF: unchecked, its state ids lead far outside the tables
	# shellcheck disable=SC2016 # expanded when the change runs
	every_way 'head -c "$(stat -c %s set.acs)" /dev/zero | tr "\0" "\377" | dd of=set.acs conv=notrunc status=none'
}

@test "compiled change: the set truncated after the checks" {
	change_setup
	# a SIGBUS of the set's is not the text shrinking: through both I/O paths
	every_way 'truncate -s 4096 set.acs' --mmap --no-mmap
	every_way ': >set.acs'
}

@test "compiled change: the set rewritten in place with a longer one" {
	change_setup
	every_way 'dd if=other.acs of=set.acs conv=notrunc status=none'
	every_way 'cat other.acs >set.acs'
}

@test "compiled change: the set replaced by a rename" {
	change_setup
	every_way 'mv other.acs set.acs'
}
