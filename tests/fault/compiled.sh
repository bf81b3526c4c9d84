#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compiled.sh - fault injection: a compiled pattern set changed on disk
# while a search uses it.
#
# Usage: tests/fault/compiled.sh   (environment: ACGREP, default ./acgrep;
#        GREP, default grep; FAULT_RUNS, default 25; FAULT_SEED, default
#        from the clock, printed first so that a run can be repeated)
#
# Each run copies a saved set to set.acs and starts acgrep --compiled=set.acs
# over a text whose output (1.7 MB) is far more than a pipe holds, its
# stdout a FIFO.  It reads a random number of bytes of the output, then
# changes the set at random (in a quarter of the runs, it reads none and
# changes the set as acgrep starts, racing the set's loading): bytes rewritten in place (0xFF or random),
# truncated, grown, rewritten in place with another valid set, replaced by
# a rename; then reads the rest.  Runs alternate the default threads and
# --threads=1 and pick the locale (C, C.UTF-8) and --mmap or --no-mmap at
# random, with a CPU burner at nice 19 on each core.  A run passes when
# acgrep printed exactly what grep -F -f prints for the original patterns,
# with grep's status and nothing on stderr, or exited 2 naming the set
# ("acgrep: set.acs: ..."); a crash (status >= 128) or any other output
# fails it.  Another valid set is written only once the first output byte
# was read: before that, acgrep may load it, rightly.  The last line is
# "N passed, N failed"; the status is 1 when a run failed.
set -u

ACGREP=${ACGREP:-./acgrep}
GREP=${GREP:-grep}
runs=${FAULT_RUNS:-25}
seed=${FAULT_SEED:-$(date +%s)}
[[ $ACGREP == /* ]] || ACGREP=$PWD/$ACGREP
if [[ ! -x $ACGREP ]]; then
	echo "compiled.sh: $ACGREP is not an executable (run make, or set ACGREP)" >&2
	exit 2
fi
echo "compiled.sh: FAULT_SEED=$seed FAULT_RUNS=$runs"
RANDOM=$seed

dir=$(mktemp -d)
burners=()
cleanup() {
	local pid
	for pid in "${burners[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
cd "$dir" || exit 2

# 60,000 patterns (a set of 16 MB, whose loading a change can catch),
# another 30,000 for the other set, and a text of 40,000 lines, each
# holding one of the patterns.
words() { # words SEED N: N words of 8 random letters and a number
	awk -v seed="$1" -v n="$2" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) {
			w = ""
			for (j = 0; j < 8; j++)
				w = w sprintf("%c", 97 + int(rand() * 26))
			printf "%s%06d\n", w, i
		}
	}'
}
words 3 60000 >pats
words 5 30000 >other.pats
awk '{ p[NR - 1] = $0 } END { for (i = 0; i < 40000; i++) printf "line %d has %s in it\n", i, p[i * 13 % NR] }' \
	pats >text
locales=(C C.UTF-8)
for loc in "${locales[@]}"; do
	LC_ALL=$loc "$ACGREP" --save-compiled="set.$loc" -f pats &&
		LC_ALL=$loc "$ACGREP" --save-compiled="other.$loc" -f other.pats || exit 2
	st=0
	LC_ALL=$loc "$GREP" -F -f pats text >"want.$loc" || st=$?
	echo $st >"want.$loc.rc"
done
head -c $(($(stat -c %s other.C) * 2)) /dev/urandom >random
head -c $(($(stat -c %s other.C) * 2)) /dev/zero | tr '\0' '\377' >ones

for _ in $(seq "$(nproc)"); do
	nice -n 19 bash -c 'while :; do :; done' &
	burners+=($!)
done

# big_random: a random number below 2^30 in $big.
big_random() {
	big=$(((RANDOM << 15) | RANDOM))
}

# plan_change AFTER_LOAD: picks a change of set.acs (another valid set only
# when AFTER_LOAD is 1) into $change, a command, and says it in $what.  All
# is chosen here, so that the change itself is one command at once.
plan_change() {
	local size at len src
	size=$(stat -c %s "set.$loc")
	big_random
	at=$((big % size))
	big_random
	len=$((1 + big % size))
	src=random
	((RANDOM % 2)) && src=ones
	case $((RANDOM % ($1 ? 7 : 4))) in
	0) # bytes rewritten in place, the size kept, a block at a time
		len=$((len < size - at ? len : size - at))
		change="dd if=$src of=set.acs bs=4K seek=$at count=$len oflag=seek_bytes iflag=count_bytes conv=notrunc status=none"
		what="rewrote $len bytes of $src at $at" ;;
	1) change="truncate -s $at set.acs" what="truncated to $at" ;;
	2) change="head -c $len $src >>set.acs" what="appended $len bytes of $src" ;;
	3) change="cp set.acs new.acs && mv new.acs set.acs" what="renamed a copy over it" ;;
	4) change="dd if=other.$loc of=set.acs conv=notrunc status=none" what="rewrote with the other set in place" ;;
	5) change="cat other.$loc >set.acs" what="truncated and wrote the other set" ;;
	6) change="cp other.$loc new.acs && mv new.acs set.acs" what="renamed the other set over it" ;;
	esac
}

passed=0 failed=0 refused=0
for ((n = 1; n <= runs; n++)); do
	loc=${locales[RANDOM % 2]}
	threads=$( ((n % 2)) && echo --threads=1)
	io=$( ((RANDOM % 2)) && echo --mmap || echo --no-mmap)
	rm -f set.acs out.fifo
	cp "set.$loc" set.acs
	mkfifo out.fifo
	# shellcheck disable=SC2086
	LC_ALL=$loc "$ACGREP" --compiled=set.acs $threads $io text >out.fifo 2>err &
	pid=$!
	want_size=$(stat -c %s "want.$loc")
	big_random
	read_first=$((RANDOM % 4 ? 1 + big % want_size : 0))
	plan_change $((read_first > 0))
	: >out
	if ((read_first)); then
		exec {fd}<out.fifo
		head -c "$read_first" <&$fd >out
		eval "$change"
	else # started before acgrep runs (it waits for its stdout's reader)
		eval "$change" &
		changer=$!
		exec {fd}<out.fifo
		wait $changer
	fi
	cat <&$fd >>out
	exec {fd}<&-
	rc=0
	wait $pid || rc=$?
	if [[ $rc == "$(<"want.$loc.rc")" && ! -s err ]] && cmp -s out "want.$loc"; then
		((++passed))
	elif [[ $rc == 2 ]] && "$GREP" -q '^acgrep: set\.acs: ' err; then
		((++passed, ++refused))
	else
		((++failed))
		echo "run $n FAILED: LC_ALL=$loc ${threads:-default threads} $io; after $read_first bytes," \
			"$what; status $rc, $(wc -c <out) of $want_size bytes out; stderr:" >&2
		head -n 3 err >&2
	fi
done
echo "($refused of the passes refused the set, changed before or while it was read)"
echo "$passed passed, $failed failed"
((failed == 0))
