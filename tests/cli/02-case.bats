#!/usr/bin/env bats
# -i / -y / --ignore-case / --no-ignore-case, ASCII and UTF-8 folding.

load helpers

@test "case: -i matches ASCII in any case" {
	fixture in 'Foo\nFOO\nfoo\nfOo\nbar\n'
	in_both_locales same_as_grep -i foo in
	in_both_locales same_as_grep -i FOO in
	expect 0 'Foo\nFOO\nfoo\nfOo\n' -- -F -i fOO in
}

@test "case: without -i matching is case-sensitive" {
	fixture in 'Foo\nFOO\nfoo\n'
	in_both_locales same_as_grep foo in
	expect 0 'foo\n' -- -F foo in
}

@test "case: --ignore-case and the obsolete -y" {
	fixture in 'Foo\nbar\n'
	in_both_locales same_as_grep --ignore-case foo in
	in_both_locales same_as_grep -y foo in
}

@test "case: --no-ignore-case cancels an earlier -i" {
	fixture in 'Foo\nfoo\n'
	in_both_locales same_as_grep -i --no-ignore-case foo in
	expect 0 'foo\n' -- -F -i --no-ignore-case foo in
}

@test "case: -i after --no-ignore-case wins" {
	fixture in 'Foo\nfoo\n'
	in_both_locales same_as_grep --no-ignore-case -i foo in
	expect 0 'Foo\nfoo\n' -- -F --no-ignore-case -i foo in
}

@test "case: -i -o prints the text's own case" {
	fixture in 'xFoOy foo FOO\n'
	in_both_locales same_as_grep -i -o foo in
	expect 0 'FoO\nfoo\nFOO\n' -- -F -i -o foo in
}

@test "case: -i with mixed-case pattern set" {
	fixture in 'HeLLo World\nbye\nWORLDS\n'
	in_both_locales same_as_grep -i -e hello -e WoRlD in
	in_both_locales same_as_grep -i -o -e hello -e WoRlD in
}

@test "case: -i with digits and punctuation (no case)" {
	fixture in 'A1-b2_C3\na1-B2_c3\n'
	in_both_locales same_as_grep -i 'a1-b2_c3' in
	in_both_locales same_as_grep -i -o '1-B' in
}

@test "case: UTF-8 e-acute: -i folds é/É in C.UTF-8 only" {
	fixture in 'CAF\303\211\ncaf\303\251\ncafe\n'
	in_both_locales same_as_grep -i $'caf\xc3\xa9' in
	in_both_locales same_as_grep -i $'CAF\xc3\x89' in
	in_both_locales same_as_grep -i -o $'\xc3\xa9' in
	LC_ALL=C.UTF-8 expect 0 'CAF\303\211\ncaf\303\251\n' -- -F -i $'caf\xc3\xa9' in
	LC_ALL=C expect 0 'caf\303\251\n' -- -F -i $'caf\xc3\xa9' in
}

@test "case: sharp s ß, capital ẞ and SS" {
	fixture in 'STRASSE\nstra\303\237e\nSTRA\341\272\236E\nstrasse\n'
	in_both_locales same_as_grep -i $'stra\xc3\x9fe' in
	in_both_locales same_as_grep -i $'STRA\xe1\xba\x9eE' in
	in_both_locales same_as_grep -i strasse in
	in_both_locales same_as_grep -i -o $'\xc3\x9f' in
	in_both_locales same_as_grep -i -c ss in
}

@test "case: Greek sigma forms Σ σ ς" {
	fixture in '\316\243\316\231\316\243\316\245\316\246\316\237\316\243\n\317\203\316\271\317\203\317\205\317\206\316\277\317\202\nabc\n'
	in_both_locales same_as_grep -i $'\xcf\x83' in
	in_both_locales same_as_grep -i $'\xcf\x82' in
	in_both_locales same_as_grep -i $'\xce\xa3' in
	in_both_locales same_as_grep -i -o -n $'\xcf\x83' in
	in_both_locales same_as_grep -i -o -b $'\xce\xa3' in
}

@test "case: Greek words -i" {
	fixture in '\316\261\316\273\317\206\316\254\316\262\316\267\317\204\316\277\317\202\n\316\221\316\233\316\246\316\206\316\222\316\227\316\244\316\237\316\243\n'
	in_both_locales same_as_grep -i $'\xce\xb1\xce\xbb\xcf\x86' in
	in_both_locales same_as_grep -i -c $'\xce\x91\xce\x9b\xce\xa6' in
}

@test "case: special folds: Kelvin sign, long s, dotted/dotless i" {
	fixture in 'kelvin \342\204\252\nKELVIN k\n\305\277\nS\ns\n\304\260stanbul\nistanbul\nISTANBUL\n\304\261\n'
	local p
	for p in k K $'\xe2\x84\xaa' s S $'\xc5\xbf' i I $'\xc4\xb0' $'\xc4\xb1'; do
		in_both_locales same_as_grep -i -n -o "$p" in
	done
}

@test "case: -i with a multibyte pattern and single-byte text around it" {
	fixture in 'x\303\211y\nX\303\251Y\nxey\n'
	in_both_locales same_as_grep -i $'x\xc3\xa9y' in
	in_both_locales same_as_grep -i -o $'\xc3\xa9y' in
}

@test "case: -i with invalid UTF-8 in the pattern" {
	fixture in 'a\377b\nA\377B\nab\n'
	in_both_locales same_as_grep -a -i $'a\xffb' in
	in_both_locales same_as_grep -a -i -c $'\xff' in
}

@test "case: -i with upper-case bytes above 0x7f in the C locale" {
	fixture in '\311\n\351\n'
	in_both_locales same_as_grep -a -i $'\xe9' in
}

@test "case: -i -v" {
	fixture in 'Foo\nbar\nFOO\n'
	in_both_locales same_as_grep -i -v foo in
	expect 0 'bar\n' -- -F -i -v foo in
}

@test "case: -i -x and -i -w" {
	fixture in 'FOO\nfoo bar\nFOOBAR\n'
	in_both_locales same_as_grep -i -x foo in
	in_both_locales same_as_grep -i -w foo in
	expect 0 'FOO\nfoo bar\n' -- -F -i -w foo in
}

@test "case: -i with duplicate patterns differing only by case" {
	fixture in 'abc\nABC\nxyz\n'
	in_both_locales same_as_grep -i -e abc -e ABC -e AbC in
	in_both_locales same_as_grep -i -o -e abc -e ABC in
}
