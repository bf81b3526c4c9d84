#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --decompress: gzip, xz, zstd and bzip2 inputs searched as their contents,
# compared with grep over the decompressor's output (zcat FILE | grep).

load helpers

# needs FORMAT: skips unless this build decodes FORMAT
needs() {
	has_decompressor "$1" || skip "$1 decompression not compiled in"
}

# compress FORMAT IN OUT: OUT is IN compressed with FORMAT's tool
compress() {
	case $1 in
	gzip) gzip -6 -c "$2" >"$3" ;;
	xz) xz -6 -c "$2" >"$3" ;;
	zstd) zstd -q -3 -c "$2" >"$3" ;;
	bzip2) bzip2 -c "$2" >"$3" ;;
	esac
}

# decoded FORMAT FILE: what FORMAT's own tool decodes of FILE (up to damage)
decoded() {
	case $1 in
	gzip) gzip -dc "$2" ;;
	xz) xz -dc "$2" ;;
	zstd) zstd -q -dc "$2" ;;
	bzip2) bzip2 -dc "$2" ;;
	esac 2>/dev/null || true
}

# like_decoded FORMAT FILE ARGS...: acgrep --decompress ARGS FILE prints
# what grep ARGS prints for the decoded bytes (a pipe: grep's label), and
# exits 2 with a message naming FILE when the decoder failed
like_decoded() {
	local fmt=$1 file=$2
	shift 2
	decoded "$fmt" "$file" >"$OUTD/plain"
	local gs=0 as=0 ds=0
	"$GREP" -F "$@" <"$OUTD/plain" >"$OUTD/g.out" 2>/dev/null || gs=$?
	"$ACGREP" --decompress -F --label="(standard input)" "$@" - <"$file" >"$OUTD/a.out" 2>"$OUTD/a.err" || as=$?
	cmp "$OUTD/g.out" "$OUTD/a.out" || { echo "# $fmt $file $*: stdout differs"; return 1; }
	case $fmt in
	gzip) gzip -t "$file" 2>/dev/null || ds=1 ;;
	xz) xz -t "$file" 2>/dev/null || ds=1 ;;
	zstd) zstd -q -t "$file" 2>/dev/null || ds=1 ;;
	bzip2) bzip2 -t "$file" 2>/dev/null || ds=1 ;;
	esac
	if ((ds)); then
		[[ $as == 2 ]] || { echo "# $fmt $file: status $as, want 2"; return 1; }
		grep -q '^acgrep: (standard input): ' "$OUTD/a.err" || { cat "$OUTD/a.err"; return 1; }
	else
		[[ $as == "$gs" && ! -s $OUTD/a.err ]] || { echo "# $fmt $file: status $as, grep $gs"; cat "$OUTD/a.err"; return 1; }
	fi
}

make_text() {
	seq 1 40000 | awk '{ printf "line %d %s\n", $1, ($1 % 7 == 0 ? "foo" : "bar") }' >text
}

@test "decompress: each format searched as its contents, on every output mode" {
	make_text
	local fmt o
	for fmt in gzip xz zstd bzip2; do
		needs "$fmt"
		compress "$fmt" text "t.$fmt"
		for o in '' -c -n -b -v '-o -b' '-m3 -A2' -l; do
			# shellcheck disable=SC2086
			like_decoded "$fmt" "t.$fmt" $o foo || return 1
		done
		# as a file operand, with threads: the name is the file's
		"$GREP" -F -c foo text | sed "s/^/t.$fmt:/" >"$OUTD/g.out"
		"$GREP" -F -c foo text | sed "s/^/text:/" >>"$OUTD/g.out"
		local t
		for t in '--threads=1' '--threads=2' '--threads=3 --segment-size=5000'; do
			# shellcheck disable=SC2086
			"$ACGREP" --decompress $t -F -c foo "t.$fmt" text >"$OUTD/a.out"
			cmp "$OUTD/g.out" "$OUTD/a.out" || fail "acgrep --decompress $t -F -c foo t.$fmt text: not grep's counts"
		done
	done
}

@test "decompress: concatenated members and empty inputs" {
	make_text
	head -n 100 text >part
	local fmt
	for fmt in gzip xz zstd bzip2; do
		needs "$fmt"
		compress "$fmt" text a
		compress "$fmt" part b
		cat a b a >"m.$fmt"
		like_decoded "$fmt" "m.$fmt" -c foo || return 1
		like_decoded "$fmt" "m.$fmt" -n -e 'line 40000 ' -e 'line 3 ' || return 1
		: >empty
		compress "$fmt" empty "e.$fmt"
		like_decoded "$fmt" "e.$fmt" -c foo || return 1
	done
	: >zero
	LC_ALL=C expect 1 '0\n' -- --decompress -F -c foo zero
}

@test "decompress: a truncated or damaged file keeps the output before the damage, exit 2" {
	make_text
	local fmt size
	for fmt in gzip xz zstd bzip2; do
		needs "$fmt"
		compress "$fmt" text full
		size=$(wc -c <full)
		head -c $((size * 2 / 3)) full >"t.$fmt"
		like_decoded "$fmt" "t.$fmt" -c foo || return 1
		like_decoded "$fmt" "t.$fmt" -n foo || return 1
		# damage: exit 2 and a message naming the file, after what was
		# decoded before it (with a damaged trailer, lines of the data in
		# order; damage inside deflate data may decode to garbage first,
		# as with zcat)
		local at st
		for at in 4 $((size / 2)); do
			{ head -c $((size - at)) full; printf '\377\377\377\377'; tail -c +$((size - at + 5)) full; } >"c.$fmt"
			st=0
			"$ACGREP" --decompress -F -n foo "c.$fmt" >"$OUTD/a.out" 2>"$OUTD/a.err" || st=$?
			assert_equal "$fmt $at: $st" "$fmt $at: 2"
			grep -q "^acgrep: c.$fmt: invalid compressed data\$" "$OUTD/a.err"
			[[ $at != 4 ]] || "$GREP" -F -n foo text | head -n "$(wc -l <"$OUTD/a.out")" | cmp - "$OUTD/a.out"
		done
	done
	# the other files are still searched, in order
	needs gzip
	gzip -c text >ok.gz
	head -c 100 ok.gz >bad.gz
	run_ac --decompress -F -c foo bad.gz ok.gz
	expect_status 2
	assert_equal "$(cat "$OUTD/ac.out")" "$(printf 'bad.gz:0\nok.gz:%s' "$("$GREP" -c foo text)")"
	expect_stderr_matches '^PROG: bad.gz: unexpected end of compressed data$'
}

@test "decompress: -r finds compressed files by their bytes, not their names" {
	needs gzip
	needs xz
	make_text
	mkdir -p d/e
	gzip -c text >d/a.log
	xz -c text >d/e/b.txt.gz
	cp text d/e/c
	run_ac --decompress -r -F -c foo d
	expect_status 0
	local n
	n=$("$GREP" -c foo text)
	LC_ALL=C sort "$OUTD/ac.out" >"$OUTD/sorted"
	printf 'd/a.log:%s\nd/e/b.txt.gz:%s\nd/e/c:%s\n' "$n" "$n" "$n" | cmp - "$OUTD/sorted"
	# without --decompress the compressed files are binary
	LC_ALL=C "$ACGREP" -r -F -c foo d | LC_ALL=C sort >"$OUTD/raw"
	grep -q "^d/e/c:$n\$" "$OUTD/raw"
}

@test "decompress: zgrep with GREP=acgrep" {
	needs gzip
	command -v zgrep >/dev/null || skip "no zgrep"
	make_text
	gzip -c text >t.gz
	GREP=/usr/bin/grep zgrep -F -n -e foo -e 'line 9' t.gz text >"$OUTD/g.out"
	GREP=$ACGREP zgrep -F -n -e foo -e 'line 9' t.gz text >"$OUTD/a.out"
	cmp "$OUTD/g.out" "$OUTD/a.out"
	GREP=$ACGREP zgrep -c foo t.gz >"$OUTD/a.out"
	"$GREP" -c foo text | cmp - "$OUTD/a.out"
}

@test "decompress: a pipe too short to hold a magic number is plain text" {
	printf 'a\n' | LC_ALL=C "$ACGREP" --decompress -F a >"$OUTD/a.out"
	assert_equal "$(cat "$OUTD/a.out")" a
	printf 'BZ\n' | LC_ALL=C "$ACGREP" --decompress -F -c BZ >"$OUTD/a.out"
	assert_equal "$(cat "$OUTD/a.out")" 1
	printf '\037' | LC_ALL=C "$ACGREP" --decompress -c -F x >"$OUTD/a.out" || true
	assert_equal "$(cat "$OUTD/a.out")" 0
}

@test "decompress: -m on a compressed standard input never seeks it to a decoded offset" {
	needs gzip
	printf 'needle %s\n' 1 2 3 | gzip -c >"$OUTD/m.gz"
	local t
	for t in 1 2; do
		# what follows -m's last line in the decoded text has no offset in
		# the compressed file: the next reader must not get part of it
		{ LC_ALL=C "$ACGREP" --threads=$t --decompress -m1 needle; echo "status $?"; cat; } \
			<"$OUTD/m.gz" >"$OUTD/m.out"
		assert_equal "$(cat "$OUTD/m.out")" "needle 1
status 0"
	done
}
