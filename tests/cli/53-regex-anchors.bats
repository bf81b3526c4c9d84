#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -E / -G: ^ and $ under a repetition.  grep 3.8 selects lines with its
# DFA (an anchor is an assertion anywhere) but finds -o, --color and -w
# matches with glibc's regex, which drops a repeated anchor and loses
# matches once a group holding one is copied: acgrep refuses a repeated
# anchor and an anchor in a group that can repeat more than once, and
# searches an anchor in a group matched at most once exactly as grep.
# Also --count-matches on the empty whole-line match of -x -w.

load helpers

# anchor_refused SYNTAX PATTERN BYTE WHAT: acgrep refuses PATTERN before
# reading input (the file does not exist), in C and C.UTF-8, on one
# thread with read() and on the default threads with mmap: exit 2, no
# output, the message naming WHAT at BYTE.
anchor_refused() {
	local syn=$1 pat=$2 byte=$3 what=$4 loc t
	printf 'acgrep: %s pattern '\''%s'\'': byte %s: %s is not supported: grep selects lines by it but its -o, --color and -w matches disagree; grep %s can search this one\n' \
		"$syn" "$pat" "$byte" "$what" "$syn" >"$OUTD/want"
	for loc in C C.UTF-8; do
		for t in "--threads=1 --no-mmap" "--mmap"; do
			# shellcheck disable=SC2086
			LC_ALL=$loc run_ac $t -o "$syn" -e "$pat" missing
			expect_status 2 || return 1
			expect_out '' || return 1
			cmp -s "$OUTD/want" "$OUTD/ac.err" || {
				diff "$OUTD/want" "$OUTD/ac.err" | fail
				return 1
			}
		done
	done
}

@test "regex anchors: a repeated anchor or one in a group that repeats is refused" {
	skip_if_grep
	anchor_refused -E '(^A|){2}Bc' 2 '^ inside a group that repeats'
	anchor_refused -E '\.((^a){1}(a[x_-]{,1})){,2}' 5 '^ inside a group that repeats'
	anchor_refused -E '((^A)?){2}B' 3 '^ inside a group that repeats'
	anchor_refused -E 'x(A$|){1,2}' 4 '$ inside a group that repeats'
	anchor_refused -E 'a(x|$){,2}' 5 '$ inside a group that repeats'
	anchor_refused -E 'x$?' 2 '? after the anchor $'
	anchor_refused -E 'a^{2}x' 2 '{2} after the anchor ^'
	anchor_refused -E 'ab|x${0,1}' 5 '{0,1} after the anchor $'
	anchor_refused -G 'x\(^a\)\{2\}' 4 '^ inside a group that repeats'
	anchor_refused -G 'a\(b$\)\{,3\}' 5 '$ inside a group that repeats'
}

@test "regex anchors: grep selects the line but -o finds nothing, the case refused" {
	# the disagreement the refusal avoids, on grep itself
	fixture in 'xABc\n'
	"$GREP" -c -E '(^A|){2}Bc' in >"$OUTD/c" || true
	"$GREP" -o -E '(^A|){2}Bc' in >"$OUTD/o" || true
	[[ $(cat "$OUTD/c") == 1 && ! -s $OUTD/o ]]
}

# anchor_kept SYNTAX PATTERN FILE: under each option set acgrep prints
# grep's bytes and status, in C and C.UTF-8, on one thread with read()
# and on the default threads with mmap.
anchor_kept() {
	local syn=$1 pat=$2 file=$3 o t loc gs as
	local -a sets=(-o -c -w "-v -m1" --color=always)
	for loc in C C.UTF-8; do
		for o in "${sets[@]}"; do
			gs=0
			# shellcheck disable=SC2086
			LC_ALL=$loc "$GREP" $o "$syn" -e "$pat" "$file" >"$OUTD/g.out" 2>&1 || gs=$?
			for t in "--threads=1 --no-mmap" "--mmap"; do
				as=0
				# shellcheck disable=SC2086
				LC_ALL=$loc "$ACGREP" $t $o "$syn" -e "$pat" "$file" >"$OUTD/a.out" 2>&1 || as=$?
				if [[ $gs != "$as" ]] || ! cmp -s "$OUTD/g.out" "$OUTD/a.out"; then
					{
						echo "LC_ALL=$loc acgrep $t $o $syn -e '$pat': $as, grep $gs"
						diff "$OUTD/g.out" "$OUTD/a.out"
					} | fail
					return 1
				fi
			done
		done
	done
}

@test "regex anchors: an anchor in a group matched at most once, exactly as grep" {
	fixture in 'xABc\nABc\nyBc\nBcA\nBc\nAABc\nA Bc\nx-A\nBcx\n\n'
	local p
	for p in '(^A|)Bc' '(^A){1}Bc' '(^A|y)?Bc' 'Bc(x|$)?' '(^|-)A' '((^A)?B)?c'; do
		anchor_kept -E "$p" in || return 1
	done
	anchor_kept -G '\(^A\)\?Bc' in
	anchor_kept -G 'Bc\(x\|$\)' in
}

@test "regex anchors: the kept shapes, exact bytes" {
	fixture in 'xABc\nABc\nBcA\nBcx\n'
	local t
	for t in "--threads=1 --no-mmap" "--mmap"; do
		# shellcheck disable=SC2086
		in_both_locales expect 0 'Bc\nABc\nBc\nBc\n' -- $t -o -E '(^A)?Bc' in
		# shellcheck disable=SC2086
		in_both_locales expect 0 '1:Bc\n2:Bc\n3:BcA\n4:Bcx\n' -- $t -on -E 'Bc(A$|x$)?' in
		# shellcheck disable=SC2086
		in_both_locales expect 0 'BcA\n' -- $t -w -E 'Bc(A$|)' in
	done
}

@test "count-matches: an empty whole-line match under -x -w counts as -o prints it" {
	skip_if_grep "--count-matches"
	# grep -o -x -w prints the empty line 2 as a match (with its newline);
	# in UTF-8 not for -F '', whose -w retries print nothing
	fixture in 'a\n\nb\na a\n-\n'
	local t
	for t in "--threads=1 --no-mmap" "--mmap"; do
		# shellcheck disable=SC2086
		in_both_locales expect 0 '2\n' -- $t --count-matches -x -w -E 'a|' in
		# shellcheck disable=SC2086
		LC_ALL=C expect 0 '1\n' -- $t --count-matches -x -w -F -e '' in
		# shellcheck disable=SC2086
		in_both_locales expect 0 '1\n' -- $t --count-matches -x -w -E '^$' in
	done
}
