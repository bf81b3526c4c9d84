#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# -r / -R, --include, --exclude, --exclude-dir.
# Directory entries come in directory order (not promised to be sorted), so
# multi-file comparisons use SAG_SORT=1 (outputs compared after sorting).

load helpers

tree_setup() {
	fixture d/a.txt 'foo a\n'
	fixture d/b.log 'foo b\nbar\n'
	fixture d/sub/c.txt 'foo c\n'
	fixture d/skip/s.txt 'foo s\n'
	fixture d/sub/deep/x.c 'foo x\n'
	fixture e/t.txt 'foo t\n'
	fixture top.txt 'foo top\n'
	ln -s ../e d/elink
	ln -s ../e/t.txt d/flink
}

sorted_ac() {
	run_ac "$@"
	LC_ALL=C sort -o "$OUTD/ac.out" "$OUTD/ac.out"
}

@test "recursive: -r searches a directory tree" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r foo d
	sorted_ac -F -r foo d
	expect_status 0
	expect_out 'd/a.txt:foo a\nd/b.log:foo b\nd/skip/s.txt:foo s\nd/sub/c.txt:foo c\nd/sub/deep/x.c:foo x\n'
}

@test "recursive: -r without FILE searches '.' and prints names without './'" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r foo
	sorted_ac -F -r foo
	expect_out 'd/a.txt:foo a\nd/b.log:foo b\nd/skip/s.txt:foo s\nd/sub/c.txt:foo c\nd/sub/deep/x.c:foo x\ne/t.txt:foo t\ntop.txt:foo top\n'
}

@test "recursive: -r without FILE ignores stdin" {
	tree_setup
	fixture "$OUTD/stdin" 'foo stdin\n'
	SAG_STDIN=$OUTD/stdin SAG_SORT=1 in_both_locales same_as_grep -r foo
}

@test "recursive: -r . keeps the './' prefix" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r foo .
	sorted_ac -F -r foo .
	"$GREP" -q -x -F './top.txt:foo top' "$OUTD/ac.out"
}

@test "recursive: trailing slash and ./ in the operand are kept as given" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r foo d/
	SAG_SORT=1 in_both_locales same_as_grep -r foo ./d
	SAG_SORT=1 in_both_locales same_as_grep -r foo d//sub
}

@test "recursive: -r does not follow symlinks found inside the tree" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r foo d
	sorted_ac -F -r -l foo d
	if "$GREP" -q link "$OUTD/ac.out"; then fail "followed a symlink under -r"; fi
}

@test "recursive: -r follows symlinks named on the command line" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r foo d/elink d/flink
	sorted_ac -F -r foo d/elink d/flink
	expect_out 'd/elink/t.txt:foo t\nd/flink:foo t\n'
}

@test "recursive: -R follows all symlinks" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -R foo d
	sorted_ac -F -R foo d
	expect_out 'd/a.txt:foo a\nd/b.log:foo b\nd/elink/t.txt:foo t\nd/flink:foo t\nd/skip/s.txt:foo s\nd/sub/c.txt:foo c\nd/sub/deep/x.c:foo x\n'
}

@test "recursive: --dereference-recursive and --recursive long forms, -d recurse" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep --recursive foo d
	SAG_SORT=1 in_both_locales same_as_grep --dereference-recursive foo d
	SAG_SORT=1 in_both_locales same_as_grep --directories=recurse foo d
	SAG_SORT=1 in_both_locales same_as_grep -d recurse foo d
}

@test "recursive: dangling symlink: ignored by -r, an error under -R" {
	tree_setup
	ln -s nowhere d/dang
	SAG_SORT=1 in_both_locales same_as_grep -r foo d
	SAG_SORT=1 in_both_locales same_as_grep -R foo d
	run_ac -F -R -q zzz d
	expect_status 2
}

@test "recursive: -R directory loop gives a warning" {
	tree_setup
	ln -s .. d/up
	SAG_SORT=1 in_both_locales same_as_grep -R -c foo d
	SAG_SORT=1 in_both_locales same_as_grep -r -c foo d
}

@test "recursive: --include" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r --include='*.txt' foo d
	SAG_SORT=1 in_both_locales same_as_grep -r --include='*.txt' --include='*.c' foo
	SAG_SORT=1 in_both_locales same_as_grep -r --include=a.txt foo
	sorted_ac -F -r --include='*.log' foo
	expect_out 'd/b.log:foo b\n'
}

@test "recursive: --exclude" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude='*.txt' foo d
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude='[ab].*' foo
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude='*' foo d
}

@test "recursive: --include and --exclude together, order matters" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r --include='*.txt' --exclude='a*' foo d
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude='a*' --include='*.txt' foo d
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude='*.log' --include='*.log' foo d
}

@test "recursive: --exclude-dir" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=skip foo d
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=sub foo
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir='s*' foo d
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=skip --exclude-dir=deep foo d
	sorted_ac -F -r --exclude-dir=sub --exclude-dir=skip foo d
	expect_out 'd/a.txt:foo a\nd/b.log:foo b\n'
}

@test "recursive: --exclude-dir also applies to a command-line directory" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=d foo d
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=d foo
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=. foo
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=sub foo d/sub
}

@test "recursive: --exclude-dir with a path is not matched against the path" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r --exclude-dir=d/skip foo d
}

@test "recursive: --include/--exclude on command-line files" {
	tree_setup
	in_both_locales same_as_grep --exclude='*.txt' foo top.txt
	in_both_locales same_as_grep --include='*.log' foo top.txt
	in_both_locales same_as_grep --exclude='*.txt' foo top.txt d/b.log
	in_both_locales same_as_grep -r --exclude='top*' foo top.txt
	in_both_locales same_as_grep --exclude='d/*' foo d/a.txt
}

@test "recursive: -r on a single file prints no file name" {
	tree_setup
	in_both_locales same_as_grep -r foo top.txt
	expect 0 'foo top\n' -- -F -r foo top.txt
	in_both_locales same_as_grep -r -H foo top.txt
}

@test "recursive: -r with -h, -l, -L, -c" {
	tree_setup
	SAG_SORT=1 in_both_locales same_as_grep -r -h foo d
	SAG_SORT=1 in_both_locales same_as_grep -r -l foo
	SAG_SORT=1 in_both_locales same_as_grep -r -L bar d
	SAG_SORT=1 in_both_locales same_as_grep -r -c bar d
}

@test "recursive: -r with '-' operand reads stdin" {
	tree_setup
	fixture "$OUTD/stdin" 'foo stdin\n'
	SAG_STDIN=$OUTD/stdin SAG_SORT=1 in_both_locales same_as_grep -r foo - d/sub
}

@test "recursive: binary files in the tree" {
	tree_setup
	fixture d/bin.dat 'foo\000\n'
	SAG_SORT=1 in_both_locales same_as_grep -r foo d
	SAG_SORT=1 in_both_locales same_as_grep -r -I foo d
}

@test "recursive: empty directory and missing operand" {
	mkdir empty
	in_both_locales same_as_grep -r foo empty
	in_both_locales same_as_grep -r foo empty nosuch
}
