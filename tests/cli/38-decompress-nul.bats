#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --decompress and long runs of NUL bytes: a decoded stream turns binary as
# grep over the decoder's output does (zcat FILE | grep), reads of only NULs
# are dropped without touching the compressed file's descriptor, and a run
# of NULs never builds up in memory.  A read of grep's buffer size (96 KiB)
# that is all NUL is what gets dropped: the runs here are 300 KB.

load helpers

FORMATS='gzip xz zstd bzip2'

# compress FORMAT IN OUT: OUT is IN compressed with FORMAT's tool (fast levels)
compress() {
	case $1 in
	gzip) gzip -1 -c "$2" >"$3" ;;
	xz) xz -0 -c "$2" >"$3" ;;
	zstd) zstd -q -1 -c "$2" >"$3" ;;
	bzip2) bzip2 -1 -c "$2" >"$3" ;;
	esac
}

# nul_runs: the file `plain`: matching lines, 180 KB of others, a run of
# 300,000 NULs, 2.9 MB of lines that compress badly (more than a decoder
# reads ahead), another run, more lines.  Which lines grep prints before
# the input turns binary does not depend on where its reads end.
nul_runs() {
	{
		awk 'BEGIN { for (i = 1; i <= 2000; i++) printf "head %d needle\n", i
			for (i = 1; i <= 10000; i++) printf "filler %d hay\n", i }'
		head -c 300000 /dev/zero
		awk 'BEGIN { srand(38); printf "\n"
			for (i = 1; i <= 60000; i++)
				printf "mid %d %s %08x%08x%08x%08x\n", i, (i % 3 ? "hay" : "needle"),
					rand() * 2^32, rand() * 2^32, rand() * 2^32, rand() * 2^32 }'
		head -c 300000 /dev/zero
		awk 'BEGIN { printf "\n"; for (i = 1; i <= 3000; i++) printf "tail %d needle\n", i }'
	} >plain
}

# same_run WHAT NAME ACGREP-ARGS...: acgrep ACGREP-ARGS, in LC_ALL=$loc,
# wrote what grep did ($OUTD/g.out, g.err, status $gs), with grep's
# "(standard input)" as NAME
same_run() {
	local what=$1 name=$2 as=0
	shift 2
	LC_ALL=$loc "$ACGREP" "$@" >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
	sed "s/^(standard input)\(:\|\$\)/$name\1/" "$OUTD/g.out" | note_case "$what: stdout" cmp - "$OUTD/a.out" || return 1
	sed "s/^[^:]*grep: (standard input):/acgrep: $name:/" "$OUTD/g.err" |
		note_case "$what: stderr" cmp - "$OUTD/a.err" || return 1
	[[ $as == "$gs" ]] || note_case "$what: status $as, grep $gs" false
}

# like_pipe FILE ARGS...: acgrep --decompress ARGS FILE prints what grep
# ARGS prints for the decoded bytes through a pipe, with its status, in C
# and C.UTF-8, on default threads and one; so does acgrep --decompress
# ARGS - <FILE (a regular file, decoded ahead on a thread)
like_pipe() {
	local file=$1 loc t gs
	shift
	for loc in C C.UTF-8; do
		gs=0
		# shellcheck disable=SC2002 # a pipe, not a file, as zcat's output is
		cat plain | LC_ALL=$loc "$GREP" -F "$@" >"$OUTD/g.out" 2>"$OUTD/g.err" || gs=$?
		for t in '' --threads=1; do
			# shellcheck disable=SC2086
			same_run "$loc $file ${t:-default threads} $*" "$file" --decompress $t -F "$@" "$file" ||
				return 1
		done
	done
	same_run "$loc stdin <$file $*" '(standard input)' --decompress -F "$@" - <"$file"
}

@test "decompress-nul: long NUL runs between lines, every format, every output mode" {
	nul_runs
	local fmt o n=0 modes
	for fmt in $FORMATS; do
		has_decompressor "$fmt" || continue
		n=$((n + 1))
		compress "$fmt" plain "t.$fmt"
		# the output modes share one reader: every mode through gzip's
		# decoder, the others' with lines and counts
		modes=(-c '')
		[[ $fmt == gzip ]] && modes+=('-n -b' -o -l '-c -m25000')
		for o in "${modes[@]}"; do
			# shellcheck disable=SC2086
			like_pipe "t.$fmt" $o needle || return 1
		done
	done
	((n > 0)) || skip "no decompression compiled in"
}

@test "decompress-nul: a stream of only NULs is searched to its end" {
	head -c 40000000 /dev/zero >plain
	local fmt n=0
	for fmt in $FORMATS; do
		has_decompressor "$fmt" || continue
		n=$((n + 1))
		compress "$fmt" plain "z.$fmt"
		like_pipe "z.$fmt" -c needle || return 1
		like_pipe "z.$fmt" needle || return 1
	done
	((n > 0)) || skip "no decompression compiled in"
}

@test "decompress-nul: a run of NULs is never held in memory" {
	# 100 MB of NULs before a line, in 60 MB of address space: the input
	# turns binary with its first read (no line end in it) and drops the
	# reads of only NULs, as grep does, instead of growing one unfinished
	# line out of the run
	[[ $ACGREP != *-qemu ]] || skip "an emulator needs more address space for itself"
	[[ -z ${TSAN_OPTIONS:-}${ASAN_OPTIONS:-} ]] || skip "a sanitizer's shadow memory does not fit in ulimit -v"
	local o s out want
	for o in '' -n -c; do
		s=0
		out=$({ head -c 100000000 /dev/zero; printf '\nneedle\n'; } |
			(ulimit -v 60000 && LC_ALL=C "$ACGREP" --threads=1 -F $o needle 2>/dev/null)) || s=$?
		[[ $o == -c ]] && want=1:0 || want=:0
		note_case "pipe -F $o" assert_equal "$out:$s" "$want"
	done
	has_decompressor gzip || skip "gzip decompression not compiled in"
	{ head -c 100000000 /dev/zero; printf '\nneedle\n'; } | gzip -1 >z.gz
	for o in '' -c; do
		s=0
		out=$( (ulimit -v 60000 && LC_ALL=C "$ACGREP" --decompress --threads=1 -F $o needle z.gz 2>&1)) || s=$?
		case $o in
		-c) note_case "gzip -F $o" assert_equal "$out:$s" "1:0" ;;
		*) note_case "gzip -F $o" assert_equal "$out:$s" "acgrep: z.gz: binary file matches:0" ;;
		esac
	done
}
