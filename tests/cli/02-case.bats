#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
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

# cyrillic N SEED: N lower-case Cyrillic words of 6 to 24 letters, one a
# line (bytes made in the C locale, so any awk writes the same).
cyrillic() {
	LC_ALL=C awk -v n="$1" -v s="$2" 'BEGIN {
		for (i = 0; i < n; i++) {
			s = (s * 69069 + 1) % 4294967296
			len = 6 + int(s / 65536) % 19
			w = ""
			for (j = 0; j < len; j++) {
				s = (s * 69069 + 1) % 4294967296
				c = int(s / 65536) % 32
				w = w (c < 16 ? sprintf("%c%c", 208, 176 + c) : sprintf("%c%c", 209, 112 + c))
			}
			print w
		}
	}'
}

# upcase_cyrillic: upper-cases every other Cyrillic letter of stdin (а-я).
upcase_cyrillic() {
	LC_ALL=C awk '{
		out = ""; k = 0
		for (i = 1; i <= length($0); i++) {
			b = substr($0, i, 1); n = index("\320\321", b)
			if (n && i < length($0)) {
				c = substr($0, i + 1, 1); i++
				if (k++ % 2 == 0) {
					v = index("\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277", c) + 127
					if (n == 1 && v >= 176) { b = "\320"; c = sprintf("%c", v - 32) }
					else if (n == 2 && v < 144) { b = "\320"; c = sprintf("%c", v + 32) }
				}
				out = out b c
			} else out = out b
		}
		print out
	}'
}

@test "case: UTF-8 -i matches a long word whole" {
	fixture in '\320\224\320\236\320\241\320\242\320\236\320\237\320\240\320\230\320\234\320\225\320\247\320\220\320\242\320\225\320\233\320\254\320\235\320\236\320\241\320\242\320\254\n'
	local p=$'\xd0\xb4\xd0\xbe\xd1\x81\xd1\x82\xd0\xbe\xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd1\x87\xd0\xb0\xd1\x82\xd0\xb5\xd0\xbb\xd1\x8c\xd0\xbd\xd0\xbe\xd1\x81\xd1\x82\xd1\x8c'
	LC_ALL=C.UTF-8 expect 0 '1\n' -- -F -c -i "$p" in
	in_both_locales same_as_grep -c -i "$p" in
	LC_ALL=C.UTF-8 same_as_grep -o -b -i "$p" in
	LC_ALL=C.UTF-8 same_as_grep -x -i "$p" in
	LC_ALL=C.UTF-8 same_as_grep -w -i -o "$p" in
}

@test "case: UTF-8 -i with 1,000 Cyrillic words" {
	cyrillic 1000 7 >pats
	{
		head -n 500 pats | upcase_cyrillic | sed 's/^/x /; s/$/ y/'
		tail -n 500 pats | cut -c 1-8 | sed 's/^/z /'
	} >text
	LC_ALL=C.UTF-8 run_ac -F -c -i -f pats text
	expect_status 0
	[[ $(<"$OUTD/ac.out") -ge 500 ]] || fail "only $(<"$OUTD/ac.out") lines selected"
	LC_ALL=C.UTF-8 same_as_grep -c -i -f pats text
	LC_ALL=C.UTF-8 same_as_grep -n -o -i -f pats text
	LC_ALL=C.UTF-8 same_as_grep -c -w -i -f pats text
	LC_ALL=C same_as_grep -c -i -f pats text
}

@test "case: UTF-8 -i with letters of several case variants: k, K-sign, s, long s, sigma, A-ring" {
	# k K U+212A, s S U+017F, σ ς Σ, å Å U+212B
	local k=$'\xe2\x84\xaa' ls=$'\xc5\xbf' a=$'\xc3\xa5' A=$'\xc3\x85' ang=$'\xe2\x84\xab'
	local s1=$'\xcf\x83' s2=$'\xcf\x82' S=$'\xce\xa3'
	local long=$S$S$S$S$S$S$S$S$S$S$S$S$S$s2$ls$A
	fixture_lines in "k${ls}${s1}${a}Ks${s2}${A}" "K${ls}${S}${A}ks${S}${a}" "${k}s${s1}${a}KS${s1}${a}" \
		"kS${s1}${ang}kS${s1}${a}" "KSSAKSSA" "${ls}${ls}${s2}${s2}" "x${long}x"
	local p
	for p in "kS${S}${A}ks${s1}${a}" "${k}s${s1}${a}" "${ls}${s1}" "${s2}${s2}" "${ang}k" s S "${ls}" \
		"$s1$s1$s1$s1$s1$s1$s1$s1$s1$s1$s1$s1$s1${s1}s$a"; do
		LC_ALL=C.UTF-8 same_as_grep -i -n "$p" in
		LC_ALL=C.UTF-8 same_as_grep -i -o -b "$p" in
		LC_ALL=C.UTF-8 same_as_grep -i -c -w "$p" in
	done
	LC_ALL=C.UTF-8 expect 0 '1:kſσåKsςÅ\n2:KſΣÅksΣå\n' -- -F -i -n "kS${S}${A}ks${s1}${a}" in
}

@test "case: UTF-8 -i compiles a 10 KiB letter-rich pattern at once" {
	# 731 times kKsSσςΣåÅ (14 bytes): 6,579 characters with 2 or 3 case
	# variants each, which no enumeration of variants could serve
	LC_ALL=C awk 'BEGIN { for (i = 0; i < 731; i++) printf "kKsS\317\203\317\202\316\243\303\245\303\205"; printf "\n" }' >pat
	LC_ALL=C awk 'BEGIN { for (i = 0; i < 731; i++) printf "KkSs\316\243\317\203\317\203\303\205\303\245"; printf "\n"
		for (i = 0; i < 731; i++) printf "kKsS\317\203\317\202\316\243\303\245\303\205"; printf "x\n" }' >text
	LC_ALL=C.UTF-8 run_ac -F -i -c -f pat text
	expect_status 0
	expect_out '2\n'
	LC_ALL=C.UTF-8 same_as_grep -i -c -f pat text
	LC_ALL=C.UTF-8 same_as_grep -i -o -b -f pat text
	LC_ALL=C.UTF-8 same_as_grep -i -c -x -f pat text
	# compile time: well under a second of CPU (enumerating variants took
	# 11 s, 1.5 GB); a CPU-time limit, which a loaded machine cannot trip
	local s=0
	(ulimit -t 3 && LC_ALL=C.UTF-8 exec "$ACGREP" -F -i -c -f pat /dev/null) >"$OUTD/a.out" || s=$?
	assert_equal "$s" 1
}

@test "case: UTF-8 -i with a pattern that is not valid UTF-8: no match inside a character" {
	# U+FB00 is EF AC 80; U+00A0 is C2 A0
	fixture in '\357\254\200\nx\254y\n\302\240\nA\302 B\n\302\n'
	printf '\357\254\200\n' >in1
	LC_ALL=C.UTF-8 expect 1 '0\n' -- -F -c -i $'\xac' in1
	local p
	for p in $'\xac' $'\xc2' $'\xc2 ' $'\xa0' $'x\xac' $'\xef' $'\xef\xac'; do
		LC_ALL=C.UTF-8 same_as_grep -c -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -a -i -n "$p" in
		LC_ALL=C.UTF-8 same_as_grep -i -n "$p" in
		LC_ALL=C.UTF-8 same_as_grep -a -o -b -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -c -w -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -w -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -a -o -w -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -a -i --color=always "$p" in
		in_both_locales same_as_grep -c -i -e "$p" -e ZZ in
	done
}

@test "case: UTF-8 -i with a pattern that is not valid UTF-8 ending inside a character" {
	# glibc's regex folds the text first: x + the first byte of É matches
	# x\xc3 in "xé", but x\xc5 does not match in "xſ" (ſ folds to S)
	fixture in 'x\303\251\nx\305\277\nx\303\n'
	local p
	for p in $'x\xc3' $'x\xc5' $'\xc3'; do
		LC_ALL=C.UTF-8 same_as_grep -c -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -o -b -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -a -o -b -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -a -o -w -i "$p" in
	done
	LC_ALL=C.UTF-8 expect 0 '1:x\303\n3:x\303\n' -- -F -a -n -o -i $'x\xc3' in
}

@test "case: -w -i and the empty pattern: no empty match inside a character" {
	fixture in 'a\342\202\254b\n\342\202\254\na \342\202\254 b\n\n'
	printf 'a\342\202\254b\n' >in1
	LC_ALL=C.UTF-8 expect 1 '0\n' -- -F -c -w -i -e $'\xd0\xb6' -e '' in1
	local p
	for p in $'\xd0\xb6' $'\xac' s; do
		LC_ALL=C.UTF-8 same_as_grep -c -w -i -e "$p" -e '' in
		LC_ALL=C.UTF-8 same_as_grep -n -w -i -e "$p" -e '' in
		LC_ALL=C.UTF-8 same_as_grep -o -b -w -i -e "$p" -e '' in
		LC_ALL=C.UTF-8 same_as_grep -c -x -i -e "$p" -e '' in
	done
}

@test "case: UTF-8 -i -o and --color where folds change the length" {
	# ı and ſ fold to 1 byte, ɐ (2 bytes) to Ɐ (3), ⱥ (3) to Ⱥ (2)
	fixture in 'x\304\261\305\277y I\305\277 is \n\311\220\342\261\245 \342\261\257\310\272 \311\220\310\272\n'
	local p
	for p in is IS $'\xc4\xb1s' $'\xc9\x90\xe2\xb1\xa5' $'\xe2\xb1\xaf\xc8\xba' $'\xc8\xba' $'\xc9\x90'; do
		LC_ALL=C.UTF-8 same_as_grep -o -b -n -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep --color=always -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -o -w -i "$p" in
	done
	LC_ALL=C.UTF-8 expect 0 '1:x\304\261\305\277\n' -- -F -n -o -i 'xis' in
}

@test "case: UTF-8 -i: lines with U+1C80-U+1C88 as grep's DFA selects them" {
	# ᲀ (U+1C80) folds to В: -o finds it, but grep's DFA, which selects
	# lines first, lets в match only В and в (and ᲀ itself ᲀ, В and в)
	fixture in '\341\262\200 x\n\320\262\341\262\200\320\262\nx\320\262 \341\262\200\n\341\262\200\n\320\222\n'
	local p
	for p in $'\xd0\xb2' $'\xe1\xb2\x80' $'\xd0\x92'; do
		LC_ALL=C.UTF-8 same_as_grep -n -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -n -o -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -n -w -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -n -x -i "$p" in
		LC_ALL=C.UTF-8 same_as_grep -a -n -i -e "$p" -e $'\xac' in
		LC_ALL=C.UTF-8 same_as_grep -a -n -i -e "$p"$'\xac' in
	done
	LC_ALL=C.UTF-8 expect 0 '2:\320\262\341\262\200\320\262\n3:x\320\262 \341\262\200\n5:\320\222\n' -- -F -n -i $'\xd0\xb2' in
}

@test "case: UTF-8 -i in lines longer than a window, and a long pattern" {
	cyrillic 1 3 >w
	local word
	word=$(<w)
	LC_ALL=C awk -v w="$word" 'BEGIN { for (i = 0; i < 40000; i++) printf "\320\260b "; print w; print "x"
		for (i = 0; i < 30000; i++) printf "\305\277"; print "s" }' >long
	upcase_cyrillic <w >wu
	cat long wu long >text
	LC_ALL=C.UTF-8 same_as_grep -c -i -f w text
	LC_ALL=C.UTF-8 same_as_grep -o -b -i -f w text
	LC_ALL=C.UTF-8 same_as_grep -c -i -w -f w text
	LC_ALL=C.UTF-8 same_as_grep -o -b -i -e ss -e $'\xc5\xbfs' text
	head -c 9000 long >p9k
	echo >>p9k
	LC_ALL=C.UTF-8 same_as_grep -c -i -f p9k text
	LC_ALL=C.UTF-8 same_as_grep -o -b -i -f p9k text
}
