/* SPDX-License-Identifier: MIT */
/* test_opts.c - table-driven tests of opts_parse (src/cli/opts.c).
 *
 * Each case is an argv vector, optional environment and standard input,
 * the expected return value, expectations on config fields written as
 * "key=value" words (see describe()), and the exact text expected on
 * stdout and stderr (captured through temporary files).  The expectations
 * encode GNU grep 3.8's behaviour, checked against grep itself.
 * Prints "N passed, N failed"; exits non-zero on any failure.
 */
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options/config.h"
#include "opts.h"

#define RUN (-1) /* opts_parse's "go ahead and search" */
#define USAGE "Usage: acgrep [OPTION]... PATTERNS [FILE]...\n" \
	      "Try 'acgrep --help' for more information.\n"
#define LLMAX "9223372036854775807"

/* One case; the fields left out are NULL: no expectations on the config,
 * stdout and stderr empty, no environment, empty standard input. */
struct tcase {
	const char *name;       /* printed with each failure */
	const char *argv[16];   /* without argv[0]; NULL-terminated */
	int rc;                 /* RUN, 0, 1 or 2 */
	const char *expect;     /* "key=value ..." checked when rc == RUN */
	const char *out, *err;  /* NULL: must be empty; "~text": starts with text */
	const char *env[3];     /* "NAME=VALUE" set for this case */
	const char *in;         /* standard input, or NULL for empty */
};

static const struct tcase cases[] = {
	/* defaults */
	{ .name = "defaults", .argv = {"foo"}, .rc = RUN,
	  .expect = "npats=1 pats=foo i=0 w=0 x=0 v=0 c=0 cm=0 list=N o=0 q=0 s=0 m=-1 n=0 b=0 H=-1 "
	    "label=(standard_input) Z=0 z=0 B=-1 A=-1 sep=-- color=0 lb=0 bin=binary io=auto "
	    "engine=ac rec=0 dirs=read devs=read chunk=0 scan=0 files= incl= excl= xdir= order=(null) "
	    "ms=01;31 mc=01;31 sl= cx= fn=35 ln=32 bn=32 se=36 rv=0 ne=0" },

	/* syntax: clustering, permutation, -- */
	{ .name = "cluster", .argv = {"-inH", "foo", "a", "b"}, .rc = RUN,
	  .expect = "i=1 n=1 H=1 pats=foo files=a,b" },
	{ .name = "attached args", .argv = {"-m3", "-A2", "x"}, .rc = RUN,
	  .expect = "m=3 A=2 B=-1 files=" },
	{ .name = "options after operands", .argv = {"x", "f", "-n"}, .rc = RUN,
	  .expect = "n=1 pats=x files=f" },
	{ .name = "double dash", .argv = {"--", "-n", "f"}, .rc = RUN,
	  .expect = "n=0 pats=-n files=f" },
	{ .name = "double dash after pattern", .argv = {"-n", "--", "x", "--", "f"}, .rc = RUN,
	  .expect = "pats=x files=--,f" },
	{ .name = "POSIXLY_CORRECT stops at operand", .argv = {"x", "f", "-n"}, .rc = RUN,
	  .expect = "n=0 files=f,-n",
	  .env = {"POSIXLY_CORRECT=1"} },
	{ .name = "long abbreviation", .argv = {"--ignore", "--col=always", "x"}, .rc = RUN,
	  .expect = "i=1 color=1" },
	{ .name = "ambiguous abbreviation", .argv = {"--line", "x"}, .rc = 2,
	  .err = "acgrep: option '--line' is ambiguous; possibilities: '--line-buffered' '--line-number' "
	    "'--line-regexp'\n" USAGE },

	/* abbreviations mean what they mean to grep 3.8, whose table has no
	 * --count-matches, --mmap, --no-mmap, --engine, --buffer-size, --scan-path */
	{ .name = "--cou is --count", .argv = {"--cou", "x"}, .rc = RUN, .expect = "c=1 cm=0" },
	{ .name = "--m is --max-count", .argv = {"--m", "2", "x"}, .rc = RUN,
	  .expect = "m=2 pats=x" },
	{ .name = "--max=N", .argv = {"--max=3", "x"}, .rc = RUN, .expect = "m=3" },
	{ .name = "--s is --silent", .argv = {"--s", "x"}, .rc = RUN, .expect = "q=1" },
	{ .name = "--no-m is --no-messages", .argv = {"--no-m", "x"}, .rc = RUN,
	  .expect = "s=1 io=auto" },
	{ .name = "--b... is --binary-files", .argv = {"--binary-f=text", "x"}, .rc = RUN,
	  .expect = "bin=text" },
	{ .name = "--e... is --exclude-from", .argv = {"--exclude-f", "xf", "x"}, .rc = RUN,
	  .expect = "excl=a.c,_b,*.o" },
	{ .name = "acgrep-only abbreviations", .argv = {"--count-m", "--mm", "x"}, .rc = RUN,
	  .expect = "cm=1 io=mmap" },
	{ .name = "--no-mm is --no-mmap", .argv = {"--mmap", "--no-mm", "--eng=pcre2", "x"}, .rc = RUN,
	  .expect = "io=read engine=pcre2" },
	{ .name = "--count=3 spelt out", .argv = {"--cou=3", "x"}, .rc = 2,
	  .err = "acgrep: option '--count' doesn't allow an argument\n" USAGE },
	{ .name = "grep-ambiguous: grep's message", .argv = {"--co", "x"}, .rc = 2,
	  .err = "acgrep: option '--co' is ambiguous; possibilities: '--context' '--color' '--colour' '--count'\n" USAGE },
	{ .name = "grep-ambiguous with a value", .argv = {"-i", "--c=1", "x"}, .rc = 2,
	  .err = "acgrep: option '--c=1' is ambiguous; possibilities: '--context' '--color' '--colour' '--count'\n" USAGE },
	{ .name = "grep-ambiguous after a bad -m", .argv = {"-m", "z", "--co", "x"}, .rc = 2,
	  .err = "acgrep: invalid max count\n" },
	{ .name = "--= is ambiguous", .argv = {"--=", "x"}, .rc = 2,
	  .err = "~acgrep: option '--=' is ambiguous; possibilities: '--basic-regexp' '--extended-regexp'" },
	{ .name = "marker-like option", .argv = {"--\1a", "x"}, .rc = 2,
	  .err = "acgrep: unrecognized option '--\1a'\n" USAGE },
	{ .name = "option argument not rewritten", .argv = {"-e", "--cou", "--regexp", "--inv", "-ie", "--s", "--reg", "--m"}, .rc = RUN,
	  .expect = "pats=--cou|--inv|--s|--m i=1 c=0 v=0 q=0" },
	{ .name = "attached argument not rewritten", .argv = {"-e--cou", "--label", "--cou", "x"}, .rc = RUN,
	  .expect = "pats=--cou c=0 label=--cou files=x" },
	{ .name = "operand after -- not rewritten", .argv = {"x", "--", "--cou"}, .rc = RUN,
	  .expect = "c=0 files=--cou" },
	{ .name = "POSIXLY_CORRECT operand not rewritten", .argv = {"x", "f", "--cou"}, .rc = RUN,
	  .expect = "c=0 files=f,--cou",
	  .env = {"POSIXLY_CORRECT=1"} },
	{ .name = "rewrite before an operand", .argv = {"--cou", "x", "--inv", "f"}, .rc = RUN,
	  .expect = "c=1 v=1 files=f" },

	/* patterns */
	{ .name = "-e twice, operands are files", .argv = {"-e", "foo", "-e", "bar", "f"}, .rc = RUN,
	  .expect = "pats=foo|bar files=f" },
	{ .name = "-e between files", .argv = {"f1", "-e", "foo", "f2"}, .rc = RUN,
	  .expect = "pats=foo files=f1,f2" },
	{ .name = "-e empty", .argv = {"-e", ""}, .rc = RUN, .expect = "npats=1 pats=" },
	{ .name = "-e trailing newline adds empty", .argv = {"-e", "a\n"}, .rc = RUN,
	  .expect = "npats=2 pats=a|" },
	{ .name = "-e inner newlines", .argv = {"-e", "a\n\nb"}, .rc = RUN,
	  .expect = "npats=3 pats=a||b" },
	{ .name = "operand split", .argv = {"a\nb", "f"}, .rc = RUN,
	  .expect = "npats=2 pats=a|b files=f" },
	{ .name = "backslash-dash kept (-F)", .argv = {"\\-x"}, .rc = RUN, .expect = "pats=\\-x" },
	{ .name = "-f final newline", .argv = {"-f", "pnl"}, .rc = RUN,
	  .expect = "npats=1 pats=foo" },
	{ .name = "-f no final newline", .argv = {"-f", "pnonl"}, .rc = RUN,
	  .expect = "npats=1 pats=foo" },
	{ .name = "-f empty file -v", .argv = {"-v", "-f", "pempty", "f"}, .rc = RUN,
	  .expect = "npats=1 pats= v=0 files=f" },
	{ .name = "-f /dev/null -v -x", .argv = {"-vx", "-f", "/dev/null"}, .rc = RUN,
	  .expect = "npats=1 pats= v=0 x=0 w=0" },
	{ .name = "-f /dev/null -e x", .argv = {"-f", "/dev/null", "-e", "x"}, .rc = RUN,
	  .expect = "npats=1 pats=x" },

	/* grep 3.8 exits 1 at once, reading nothing, when nothing can be selected */
	{ .name = "-f /dev/null exits 1", .argv = {"-c", "-f", "/dev/null", "nonexist"}, .rc = 1 },
	{ .name = "-f empty -x exits 1", .argv = {"-x", "-f", "pempty"}, .rc = 1 },
	{ .name = "-m 0 exits 1", .argv = {"-c", "-m", "0", "x"}, .rc = 1 },
	{ .name = "-m 0 -v exits 1", .argv = {"-v", "-m0", "x"}, .rc = 1 },
	{ .name = "-v '' exits 1", .argv = {"-c", "-v", "-e", "", "-e", ""}, .rc = 1 },
	{ .name = "-v '' -x runs", .argv = {"-v", "-x", ""}, .rc = RUN, .expect = "npats=1" },
	{ .name = "-v '' -w runs", .argv = {"-v", "-w", ""}, .rc = RUN, .expect = "npats=1" },
	{ .name = "-v '' and x runs", .argv = {"-v", "-e", "", "-e", "x"}, .rc = RUN,
	  .expect = "npats=2" },
	{ .name = "-L -m 0 runs", .argv = {"-L", "-m0", "x"}, .rc = RUN, .expect = "m=0 list=L" },
	{ .name = "-L -f /dev/null runs", .argv = {"-L", "-f", "/dev/null"}, .rc = RUN,
	  .expect = "npats=1 pats= v=1 list=L" },
	{ .name = "-q overrides -L for -m 0", .argv = {"-L", "-q", "-m0", "x"}, .rc = 1 },
	{ .name = "no GREP_COLOR warning when exiting early", .argv = {"--color=always", "-m0", "x"}, .rc = 1,
	  .env = {"GREP_COLOR=01;32"} },
	{ .name = "-f lone newline", .argv = {"-f", "ponlynl"}, .rc = RUN,
	  .expect = "npats=1 pats=" },
	{ .name = "-f empty middle line", .argv = {"-f", "pmid"}, .rc = RUN,
	  .expect = "npats=3 pats=foo||bar" },
	{ .name = "-f trailing blank line", .argv = {"-f", "pblank"}, .rc = RUN,
	  .expect = "npats=2 pats=foo|" },
	{ .name = "-f CRLF keeps CR", .argv = {"-f", "pcrlf"}, .rc = RUN,
	  .expect = "npats=2 pats=foo\\r|bar\\r" },
	{ .name = "-f NUL byte", .argv = {"-f", "pnul"}, .rc = RUN,
	  .expect = "npats=1 pats=a\\0b nul=1" },
	{ .name = "-f NUL only after the last line", .argv = {"-f", "pnl", "-f", "pwords"}, .rc = RUN,
	  .expect = "npats=17 nul=0" },
	{ .name = "-f lines across words", .argv = {"-f", "pwords", "-e", "z"}, .rc = RUN,
	  .expect = "npats=17 pats=|a|bb|ccc|dddd|eeeee|ffffff|ggggggg|hhhhhhhh|iiiiiiiii|jjjjjjjjjj|kkkkkkkkkkk|"
	    "llllllllllll|||mmmmmmmmmmmmmmmmm|z nul=0" },
	{ .name = "-f and -e in order", .argv = {"-f", "pnl", "-e", "x", "--file=pmid", "--regexp=y"}, .rc = RUN,
	  .expect = "pats=foo|x|foo||bar|y" },
	{ .name = "-f - reads stdin", .argv = {"-f", "-", "f"}, .rc = RUN,
	  .expect = "pats=s1|s2 files=f",
	  .in = "s1\ns2" },
	{ .name = "-f - twice", .argv = {"-f", "-", "-f", "-"}, .rc = RUN,
	  .expect = "pats=s1",
	  .in = "s1\n" },
	{ .name = "-f missing", .argv = {"-f", "nonexist", "x"}, .rc = 2,
	  .err = "acgrep: nonexist: No such file or directory\n" },
	{ .name = "-f missing, -s does not hide", .argv = {"-s", "-f", "nonexist", "x"}, .rc = 2,
	  .err = "acgrep: nonexist: No such file or directory\n" },
	{ .name = "-f directory", .argv = {"-f", ".", "x"}, .rc = 2,
	  .err = "acgrep: .: Is a directory\n" },
	{ .name = "-f error before later bad option", .argv = {"-f", "nonexist", "-k"}, .rc = 2,
	  .err = "acgrep: nonexist: No such file or directory\n" },

	/* --tagged-file: TAG<TAB>PATTERN lines; every pattern gets a tag */
	{ .name = "--tagged-file", .argv = {"--tagged-file", "tsv", "f"}, .rc = RUN,
	  .expect = "pats=bad.example|10.0.0.1|login tags=evil|phish tagof=0,0,1 files=f" },
	{ .name = "no tagged list: no tags", .argv = {"-f", "pnl", "--show-pattern"}, .rc = RUN,
	  .expect = "pats=foo tagof=(null) show=1" },
	{ .name = "untagged patterns tag themselves, in first-use order",
	  .argv = {"-e", "x", "--tagged-file=tsv", "-e", "bad.example", "-f", "pnl", "-e", "evil"}, .rc = RUN,
	  .expect = "pats=x|bad.example|10.0.0.1|login|bad.example|foo|evil "
	    "tags=x|evil|phish|bad.example|foo tagof=0,1,1,2,3,4,1" },
	{ .name = "tagged list twice", .argv = {"--tagged-file=tsv", "--tagged-file=tsvdup"}, .rc = RUN,
	  .expect = "pats=bad.example|10.0.0.1|login|x|x|y tags=evil|phish|a|b tagof=0,0,1,2,3,0" },
	{ .name = "tab runs separate, later tabs are the pattern's", .argv = {"--tagged-file=tsvtabs"},
	  .rc = RUN, .expect = "pats=p\tq|r tags=t|u-v tagof=0,1" },
	{ .name = "tagged list: last line without newline, NUL kept",
	  .argv = {"--tagged-file=tsvnonl"}, .rc = RUN, .expect = "pats=a\\0b|c tags=t\\0|t tagof=0,1 nul=1" },
	{ .name = "tagged list from stdin", .argv = {"--tagged-file=-", "f"}, .rc = RUN,
	  .expect = "pats=p tags=t tagof=0 files=f", .in = "t\tp\n" },
	{ .name = "tagged list split on newlines under -z", .argv = {"-z", "--tagged-file=tsv"}, .rc = RUN,
	  .expect = "z=1 pats=bad.example|10.0.0.1|login" },
	{ .name = "empty tagged list and -e", .argv = {"--tagged-file=pempty", "-e", "x"}, .rc = RUN,
	  .expect = "pats=x tags=x tagof=0" },
	{ .name = "empty tagged list alone selects nothing", .argv = {"--tagged-file=pempty", "f"},
	  .rc = 1 },
	{ .name = "no pattern at all names none", .argv = {"-v", "--tagged-file=pempty", "--show-pattern=number"},
	  .rc = RUN, .expect = "v=0 npats=1 pats= tags= tagof=0 show=1" },
	{ .name = "tagged list: no TAB", .argv = {"--tagged-file=tsvnotab", "f"}, .rc = 2,
	  .err = "acgrep: tsvnotab:2: no TAB between tag and pattern\n" },
	{ .name = "tagged list: a blank line is skipped", .argv = {"--tagged-file=ponlynl", "f"},
	  .rc = 1 },
	{ .name = "tagged list: empty tag", .argv = {"-e", "x", "--tagged-file=tsvnotag"}, .rc = 2,
	  .err = "acgrep: tsvnotag:3: empty tag\n" },
	{ .name = "tagged list: empty pattern", .argv = {"--tagged-file=tsvnopat"}, .rc = 2,
	  .err = "acgrep: tsvnopat:1: empty pattern\n" },
	{ .name = "tagged list: CRLF", .argv = {"--tagged-file=tsvcrlf"}, .rc = 2,
	  .err = "acgrep: tsvcrlf:1: line ends in CR (CRLF line ends); convert the file with dos2unix\n" },
	{ .name = "tagged list: CR on a line without TAB", .argv = {"--tagged-file=pcrlf"}, .rc = 2,
	  .err = "acgrep: pcrlf:1: line ends in CR (CRLF line ends); convert the file with dos2unix\n" },
	{ .name = "tagged list missing", .argv = {"--tagged-file=nonexist", "x"}, .rc = 2,
	  .err = "acgrep: nonexist: No such file or directory\n" },
	{ .name = "tagged list with --engine=pcre2", .argv = {"--engine=pcre2", "--tagged-file=tsv"},
	  .rc = RUN, .expect = "engine=pcre2 tags=evil|phish" },

	/* --show-pattern[=WHAT], --show-all-patterns[=WHAT] */
	{ .name = "--show-pattern WHAT", .argv = {"--show-pattern=text", "x"}, .rc = RUN,
	  .expect = "show=2 all=0" },
	{ .name = "--show-all-patterns", .argv = {"--show-all-patterns", "x"}, .rc = RUN,
	  .expect = "show=1 all=1" },
	{ .name = "the last of the two decides", .argv = {"--show-all-patterns=number", "--show-pattern", "x"},
	  .rc = RUN, .expect = "show=1 all=0" },
	{ .name = "the last of the two decides again", .argv = {"--show-pattern=text", "--show-all-patterns=number", "x"},
	  .rc = RUN, .expect = "show=3 all=1" },
	{ .name = "--show-pattern abbreviated", .argv = {"--show-p", "--show-a=text", "x"}, .rc = RUN,
	  .expect = "show=2 all=1" },
	{ .name = "--show ambiguous", .argv = {"--show", "x"}, .rc = 2,
	  .err = "acgrep: option '--show' is ambiguous; possibilities: '--show-pattern' '--show-all-patterns'\n" USAGE },
	{ .name = "--show-pattern bad WHAT", .argv = {"--show-pattern=tags", "x"}, .rc = 2,
	  .err = "acgrep: invalid argument 'tags' for '--show-pattern'\nValid arguments are:\n  - 'tag'\n"
	    "  - 'text'\n  - 'number'\n" USAGE },
	{ .name = "--show-pattern needs ac", .argv = {"--engine=pcre2", "--show-pattern", "x"}, .rc = 2,
	  .err = "acgrep: --show-pattern needs --engine=ac\n" },
	{ .name = "--show-all-patterns needs ac", .argv = {"--show-all-patterns", "--engine=pcre2", "x"}, .rc = 2,
	  .err = "acgrep: --show-all-patterns needs --engine=ac\n" },
	{ .name = "pt follows ms", .argv = {"--color=always", "x"}, .rc = RUN, .expect = "pt=01;31" },
	{ .name = "pt follows GREP_COLORS ms", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "pt=7 ms=7", .env = {"GREP_COLORS=ms=7"} },
	{ .name = "GREP_COLORS pt", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "pt=1;32 ms=01;31", .env = {"GREP_COLORS=pt=1;32"} },
	{ .name = "GREP_COLORS empty pt", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "pt= ms=01;31", .env = {"GREP_COLORS=pt="} },

	{ .name = "no pattern", .argv = {NULL}, .rc = 2, .err = USAGE },
	{ .name = "no pattern after options", .argv = {"-i", "-n"}, .rc = 2, .err = USAGE },

	/* usage errors */
	{ .name = "invalid short option", .argv = {"-k", "x"}, .rc = 2,
	  .err = "acgrep: invalid option -- 'k'\n" USAGE },
	{ .name = "unknown long option", .argv = {"--bogus", "x"}, .rc = 2,
	  .err = "acgrep: unrecognized option '--bogus'\n" USAGE },
	{ .name = "missing argument", .argv = {"x", "-e"}, .rc = 2,
	  .err = "acgrep: option requires an argument -- 'e'\n" USAGE },
	{ .name = "argument to --help", .argv = {"--help=x"}, .rc = 2,
	  .err = "acgrep: option '--help' doesn't allow an argument\n" USAGE },
	{ .name = "-E accepted", .argv = {"-E", "x|y"}, .rc = RUN, .expect = "pats=x|y" },
	{ .name = "-E's refusal", .argv = {"-E", "x+"}, .rc = 2,
	  .err = "acgrep: -E pattern 'x+': byte 2: + (unbounded repetition) is not supported: "
		 "acgrep searches only patterns that match a finite set of strings; grep -E can "
		 "search this one\n" },
	{ .name = "-G's syntax error", .argv = {"--basic-regexp", "\\(x"}, .rc = 2,
	  .err = "acgrep: Unmatched ( or \\(\n" },
	{ .name = "-E then -F", .argv = {"-E", "-F", "x"}, .rc = 2,
	  .err = "acgrep: conflicting matchers specified\n" },
	{ .name = "-P rejected", .argv = {"-P", "x"}, .rc = 2,
	  .err = "acgrep: -P is not supported: acgrep searches for fixed strings and finite -E/-G "
		 "patterns only\n" },
	{ .name = "-F accepted", .argv = {"-F", "--fixed-strings", "x"}, .rc = RUN,
	  .expect = "pats=x" },

	/* matching flags */
	{ .name = "-i then --no-ignore-case", .argv = {"-i", "--no-ignore-case", "x"}, .rc = RUN,
	  .expect = "i=0" },
	{ .name = "-y", .argv = {"-y", "x"}, .rc = RUN, .expect = "i=1" },
	{ .name = "flags", .argv = {"-wxvcosbZz", "--line-buffered", "x"}, .rc = RUN,
	  .expect = "w=1 x=1 v=1 c=1 o=1 s=1 b=1 Z=1 z=1 lb=1" },
	{ .name = "long flags", .argv = {"--word-regexp", "--line-regexp", "--invert-match", "--only-matching",
	    "--no-messages", "--byte-offset", "--null", "--null-data", "--text", "x"}, .rc = RUN,
	  .expect = "w=1 x=1 v=1 o=1 s=1 b=1 Z=1 z=1 bin=text" },

	/* -c / -l / -L / -q precedence */
	{ .name = "-l then -L", .argv = {"-l", "-L", "x"}, .rc = RUN, .expect = "list=L" },
	{ .name = "-L then -l", .argv = {"-L", "-l", "x"}, .rc = RUN, .expect = "list=l" },
	{ .name = "-l beats -c", .argv = {"-c", "-l", "x"}, .rc = RUN, .expect = "c=0 list=l" },
	{ .name = "-L beats -c", .argv = {"-L", "-c", "x"}, .rc = RUN, .expect = "c=0 list=L" },
	{ .name = "-q beats -l", .argv = {"-l", "-q", "x"}, .rc = RUN,
	  .expect = "q=1 list=N c=0" },
	{ .name = "--silent beats -c", .argv = {"-c", "--silent", "x"}, .rc = RUN,
	  .expect = "q=1 c=0" },
	{ .name = "-l beats --count-matches", .argv = {"--count-matches", "-l", "x"}, .rc = RUN,
	  .expect = "cm=0 list=l" },
	{ .name = "--count-matches", .argv = {"--count-matches", "x"}, .rc = RUN,
	  .expect = "cm=1 c=0" },

	/* file names */
	{ .name = "-H then -h", .argv = {"-H", "-h", "x"}, .rc = RUN, .expect = "H=0" },
	{ .name = "-h then -H", .argv = {"-h", "-H", "x"}, .rc = RUN, .expect = "H=1" },
	{ .name = "--label", .argv = {"--label=in", "x"}, .rc = RUN, .expect = "label=in" },

	/* -m */
	{ .name = "-m -1 is unlimited", .argv = {"-m", "-1", "x"}, .rc = RUN, .expect = "m=-1" },
	{ .name = "-m -5 is unlimited", .argv = {"--max-count=-5", "x"}, .rc = RUN,
	  .expect = "m=-1" },
	{ .name = "-m blanks and plus", .argv = {"-m", " +3", "x"}, .rc = RUN, .expect = "m=3" },
	{ .name = "-m leading zero is decimal", .argv = {"-m", "010", "x"}, .rc = RUN,
	  .expect = "m=10" },
	{ .name = "-m overflow saturates", .argv = {"-m", "99999999999999999999999", "x"}, .rc = RUN,
	  .expect = "m=" LLMAX },
	{ .name = "-m garbage", .argv = {"-m", "3x", "x"}, .rc = 2,
	  .err = "acgrep: invalid max count\n" },
	{ .name = "-m hex", .argv = {"-m", "0x10", "x"}, .rc = 2,
	  .err = "acgrep: invalid max count\n" },
	{ .name = "-m empty", .argv = {"-m", "", "x"}, .rc = 2,
	  .err = "acgrep: invalid max count\n" },

	/* context */
	{ .name = "-A then -C", .argv = {"-A1", "-C3", "x"}, .rc = RUN, .expect = "A=1 B=3" },
	{ .name = "-C then -A", .argv = {"-C3", "-A1", "x"}, .rc = RUN, .expect = "A=1 B=3" },
	{ .name = "-A then -NUM", .argv = {"-A1", "-3", "x"}, .rc = RUN, .expect = "A=1 B=3" },
	{ .name = "-NUM", .argv = {"-2", "x"}, .rc = RUN, .expect = "A=2 B=2" },
	{ .name = "-NUM two digits", .argv = {"-12", "x"}, .rc = RUN, .expect = "A=12 B=12" },
	{ .name = "-NUM leading zeros", .argv = {"-00012", "x"}, .rc = RUN,
	  .expect = "A=12 B=12" },
	{ .name = "-NUM last wins", .argv = {"-1", "-2", "x"}, .rc = RUN, .expect = "A=2 B=2" },
	{ .name = "-NUM split by option", .argv = {"-1n2", "x"}, .rc = RUN,
	  .expect = "A=2 B=2 n=1" },
	{ .name = "-NUM after option letter", .argv = {"-n12", "x"}, .rc = RUN,
	  .expect = "A=12 B=12 n=1" },
	/* grep 3.8 quirk: the first digit of -NUM after a permuted operand
	 * starts a number of its own, so this is -C 2, as in grep */
	{ .name = "-NUM after operand (grep quirk)", .argv = {"x", "-12"}, .rc = RUN,
	  .expect = "A=2 B=2" },
	{ .name = "-C after -NUM", .argv = {"-12", "-C1", "x"}, .rc = RUN, .expect = "A=1 B=1" },
	{ .name = "--context", .argv = {"--context=7", "x"}, .rc = RUN, .expect = "A=7 B=7" },
	{ .name = "-C blanks", .argv = {"-C", " 2", "x"}, .rc = RUN, .expect = "A=2 B=2" },
	{ .name = "-A overflow saturates", .argv = {"-A", "99999999999999999999999", "x"}, .rc = RUN,
	  .expect = "A=" LLMAX " B=-1" },
	{ .name = "-NUM 21 digits saturates", .argv = {"-999999999999999999999", "x"}, .rc = RUN,
	  .expect = "A=" LLMAX },
	{ .name = "-NUM 22 digits", .argv = {"-9999999999999999999999", "x"}, .rc = 2,
	  .err = "acgrep: 999999999999999999999...: invalid context length argument\n" },
	{ .name = "-A negative", .argv = {"-A", "-1", "x"}, .rc = 2,
	  .err = "acgrep: -1: invalid context length argument\n" },
	{ .name = "-B garbage", .argv = {"-B", "3x", "x"}, .rc = 2,
	  .err = "acgrep: 3x: invalid context length argument\n" },
	{ .name = "-C empty", .argv = {"-C", "", "x"}, .rc = 2,
	  .err = "acgrep: : invalid context length argument\n" },
	{ .name = "-C swallows pattern", .argv = {"-C", "x"}, .rc = 2,
	  .err = "acgrep: x: invalid context length argument\n" },
	{ .name = "group separator", .argv = {"--group-separator=XX", "x"}, .rc = RUN,
	  .expect = "sep=XX" },
	{ .name = "empty group separator", .argv = {"--group-separator=", "x"}, .rc = RUN,
	  .expect = "sep=" },
	{ .name = "no group separator", .argv = {"--no-group-separator", "x"}, .rc = RUN,
	  .expect = "sep=(null)" },
	{ .name = "separator after none", .argv = {"--no-group-separator", "--group-separator", "S", "x"}, .rc = RUN,
	  .expect = "sep=S pats=x" },

	/* binary files, directories */
	{ .name = "binary-files", .argv = {"--binary-files=without-match", "x"}, .rc = RUN,
	  .expect = "bin=without-match" },
	{ .name = "-I then -a", .argv = {"-I", "-a", "x"}, .rc = RUN, .expect = "bin=text" },
	{ .name = "-a then -I", .argv = {"-a", "-I", "x"}, .rc = RUN,
	  .expect = "bin=without-match" },
	{ .name = "bad binary-files", .argv = {"--binary-files=foo", "x"}, .rc = 2,
	  .err = "acgrep: unknown binary-files type\n" },
	{ .name = "-U no-op", .argv = {"-U", "--binary", "x"}, .rc = RUN, .expect = "pats=x" },
	{ .name = "-u warns", .argv = {"-u", "x"}, .rc = RUN,
	  .expect = "pats=x",
	  .err = "acgrep: warning: --unix-byte-offsets (-u) is obsolete\n" },
	{ .name = "-r", .argv = {"-r", "x"}, .rc = RUN, .expect = "rec=r files=" },
	{ .name = "-R", .argv = {"--dereference-recursive", "x"}, .rc = RUN, .expect = "rec=R" },
	{ .name = "-R then -r keeps -R", .argv = {"-R", "-r", "x"}, .rc = RUN, .expect = "rec=R" },
	{ .name = "-r then -R", .argv = {"-rR", "x"}, .rc = RUN, .expect = "rec=R" },
	{ .name = "-r sets directories", .argv = {"-r", "x"}, .rc = RUN,
	  .expect = "rec=r dirs=recurse" },
	{ .name = "-d recurse is -r", .argv = {"-d", "recurse", "x"}, .rc = RUN,
	  .expect = "rec=r dirs=recurse" },
	{ .name = "-d abbreviated", .argv = {"--directories=rec", "x"}, .rc = RUN,
	  .expect = "rec=r" },
	{ .name = "-d skip", .argv = {"-dskip", "x"}, .rc = RUN, .expect = "rec=0 dirs=skip" },
	{ .name = "-d s", .argv = {"--dir", "s", "x"}, .rc = RUN,
	  .expect = "rec=0 dirs=skip pats=x" },
	{ .name = "-d read", .argv = {"-d", "read", "x"}, .rc = RUN, .expect = "rec=0 dirs=read" },
	{ .name = "-r then -d skip", .argv = {"-r", "-d", "skip", "x"}, .rc = RUN,
	  .expect = "rec=0 dirs=skip" },
	{ .name = "-d skip then -r", .argv = {"-d", "skip", "-r", "x"}, .rc = RUN,
	  .expect = "rec=r dirs=recurse" },
	{ .name = "-R then -d read", .argv = {"-R", "-d", "read", "x"}, .rc = RUN,
	  .expect = "rec=0 dirs=read" },
	{ .name = "-R stays through -d skip, -d recurse", .argv = {"-R", "-d", "skip", "-d", "recurse", "x"}, .rc = RUN,
	  .expect = "rec=R dirs=recurse" },
	{ .name = "-d recurse then -R", .argv = {"-d", "recurse", "-R", "x"}, .rc = RUN,
	  .expect = "rec=R" },
	{ .name = "-d invalid exits 1", .argv = {"-d", "foo", "x"}, .rc = 1,
	  .err = "acgrep: invalid argument 'foo' for '--directories'\nValid arguments are:\n"
	    "  - 'read'\n  - 'recurse'\n  - 'skip'\n" USAGE },
	{ .name = "-d ambiguous exits 1", .argv = {"--directories=re", "x"}, .rc = 1,
	  .err = "~acgrep: ambiguous argument 're' for '--directories'\nValid arguments are:\n" },
	{ .name = "-d empty is ambiguous", .argv = {"-d", "", "x"}, .rc = 1,
	  .err = "~acgrep: ambiguous argument '' for '--directories'\n" },
	{ .name = "-d argument quoted as grep does", .argv = {"-d", "a'b\\\t\001\x80", "x"}, .rc = 1,
	  .err = "~acgrep: invalid argument 'a\\'b\\\\\\t\\001\\200' for '--directories'\n" },
	{ .name = "-d error before a later one", .argv = {"-d", "foo", "-k"}, .rc = 1,
	  .err = "~acgrep: invalid argument 'foo'" },
	{ .name = "-D skip", .argv = {"-D", "skip", "x"}, .rc = RUN, .expect = "devs=skip" },
	{ .name = "-D read", .argv = {"-Dskip", "--devices=read", "x"}, .rc = RUN,
	  .expect = "devs=read" },
	{ .name = "-D not abbreviated", .argv = {"-D", "rea", "x"}, .rc = 2,
	  .err = "acgrep: unknown devices method\n" },
	{ .name = "-D bad", .argv = {"--devices=foo", "x"}, .rc = 2,
	  .err = "acgrep: unknown devices method\n" },
	{ .name = "-T", .argv = {"-T", "x"}, .rc = RUN, .expect = "T=1 n=0" },
	{ .name = "--initial-tab", .argv = {"-n", "--initial-tab", "x"}, .rc = RUN,
	  .expect = "T=1 n=1" },
	{ .name = "no -T", .argv = {"-n", "x"}, .rc = RUN, .expect = "T=0" },
	{ .name = "-X not accepted", .argv = {"-X", "fgrep", "x"}, .rc = 2,
	  .err = "acgrep: invalid option -- 'X'\n" USAGE },
	{ .name = "globs", .argv = {"--include=*.c", "--include", "*.h", "--exclude=*.o", "--exclude-dir=d/",
	    "--exclude-dir=/", "--exclude-dir=e", "x"}, .rc = RUN,
	  .expect = "incl=*.c,*.h excl=*.o xdir=d/,/,e order=iie" },
	{ .name = "include/exclude order", .argv = {"--exclude=a*", "--include=*.c", "--exclude-dir=x", "--exclude=b*", "x"}, .rc = RUN,
	  .expect = "incl=*.c excl=a*,b* order=eie" },
	/* xf: "a.c  \n\n \t\n b\n*.o": trailing blanks cut, blank lines
	 * skipped, leading blanks kept (" b" shows as "_b") */
	{ .name = "--exclude-from", .argv = {"--include=*.c", "--exclude-from=xf", "--exclude", "z", "x"}, .rc = RUN,
	  .expect = "incl=*.c excl=a.c,_b,*.o,z order=ieeee" },
	{ .name = "--exclude-from CRLF and no final newline", .argv = {"--exclude-from", "xcrlf", "x"}, .rc = RUN,
	  .expect = "excl=p,q order=ee" },
	{ .name = "--exclude-from empty file", .argv = {"--exclude-from=pempty", "x"}, .rc = RUN,
	  .expect = "excl= order=(null)" },
	{ .name = "--exclude-from twice", .argv = {"--exclude-from=xcrlf", "--exclude-from=xcrlf", "x"}, .rc = RUN,
	  .expect = "excl=p,q,p,q" },
	{ .name = "--exclude-from -", .argv = {"--exclude-from=-", "x"}, .rc = RUN,
	  .expect = "excl=s1,s2",
	  .in = "s1\ns2 \n" },
	{ .name = "--exclude-from missing", .argv = {"--exclude-from=nonexist", "x"}, .rc = 2,
	  .err = "acgrep: nonexist: No such file or directory\n" },
	{ .name = "--exclude-from directory", .argv = {"--exclude-from=.", "x"}, .rc = 2,
	  .err = "acgrep: .: Is a directory\n" },

	/* colour */
	{ .name = "--color=always", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "color=1" },
	{ .name = "--colour=ALWAYS", .argv = {"--colour=ALWAYS", "x"}, .rc = RUN,
	  .expect = "color=1" },
	{ .name = "--color=yes then never", .argv = {"--color=yes", "--color=none", "x"}, .rc = RUN,
	  .expect = "color=0" },
	{ .name = "--color is auto, off when not a tty", .argv = {"--color", "x"}, .rc = RUN,
	  .expect = "color=0",
	  .env = {"TERM=xterm"} },
	{ .name = "--color=bogus shows help (grep 3.8)", .argv = {"--color=bogus", "x"}, .rc = 0,
	  .out = "~Usage: acgrep [OPTION]" },
	{ .name = "--color=bogus then bad option", .argv = {"--color=bogus", "-k"}, .rc = 2,
	  .err = "acgrep: invalid option -- 'k'\n" USAGE },
	{ .name = "NO_COLOR leaves always on", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "color=1",
	  .env = {"NO_COLOR=1"} },
	{ .name = "GREP_COLORS", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "ms=01;34 mc=01;34 fn= ln=32 sl=1 rv=1 ne=1",
	  .env = {"GREP_COLORS=sl=1:mt=01;34:fn=:rv:ne:zz=5"} },
	{ .name = "GREP_COLORS stops at bad value", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "ln=4 ms=01;31 fn=35",
	  .env = {"GREP_COLORS=ln=4:ms=01;3x:fn=33"} },
	{ .name = "GREP_COLORS stops at empty name", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "sl=1 fn=35",
	  .env = {"GREP_COLORS=sl=1:=5:fn=33"} },
	{ .name = "GREP_COLORS mt without value copies ms", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "ms=7 mc=7",
	  .env = {"GREP_COLORS=mc=1:ms=7:mt"} },
	{ .name = "GREP_COLORS ignored without colour", .argv = {"x"}, .rc = RUN,
	  .expect = "ms=01;31 rv=0",
	  .env = {"GREP_COLORS=ms=7:rv"} },
	{ .name = "GREP_COLOR warns", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "ms=01;32 mc=01;32",
	  .err = "acgrep: warning: GREP_COLOR='01;32' is deprecated; use GREP_COLORS='mt=01;32'\n",
	  .env = {"GREP_COLOR=01;32"} },
	{ .name = "GREP_COLOR overridden by mt", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "ms=1 mc=1",
	  .env = {"GREP_COLOR=01;32", "GREP_COLORS=mt=1"} },
	{ .name = "GREP_COLOR half overridden", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "ms=1 mc=01;32",
	  .err = "acgrep: warning: GREP_COLOR='01;32' is deprecated; use GREP_COLORS='mt=01;32'\n",
	  .env = {"GREP_COLOR=01;32", "GREP_COLORS=ms=1"} },
	{ .name = "GREP_COLOR malformed ignored", .argv = {"--color=always", "x"}, .rc = RUN,
	  .expect = "ms=01;31",
	  .env = {"GREP_COLOR=1;3x"} },
	{ .name = "GREP_COLOR silent without colour", .argv = {"x"}, .rc = RUN,
	  .expect = "ms=01;31",
	  .env = {"GREP_COLOR=01;32"} },

	/* help, version, extras */
	{ .name = "--help", .argv = {"--help"}, .rc = 0,
	  .out = "~Usage: acgrep [OPTION]... PATTERNS [FILE]...\n" },
	{ .name = "--help with pattern", .argv = {"--help", "x", "f"}, .rc = 0,
	  .out = "~Usage: acgrep" },
	{ .name = "--help then bad option", .argv = {"--help", "-k"}, .rc = 2,
	  .err = "acgrep: invalid option -- 'k'\n" USAGE },
	{ .name = "-V", .argv = {"-V"}, .rc = 0, .out = "~acgrep 0.1.0" },
	{ .name = "-V beats --help", .argv = {"--help", "--version"}, .rc = 0,
	  .out = "~acgrep 0.1.0" },
	{ .name = "extras", .argv = {"--mmap", "--engine=pcre2", "--buffer-size=1", "--scan-path=memchr", "x"}, .rc = RUN,
	  .expect = "io=mmap engine=pcre2 chunk=1 scan=3" },
	{ .name = "--no-mmap", .argv = {"--mmap", "--no-mmap", "--engine=ac", "--scan-path=dfa", "x"}, .rc = RUN,
	  .expect = "io=read engine=ac scan=1" },
	{ .name = "bad engine", .argv = {"--engine=re2", "x"}, .rc = 2,
	  .err = "acgrep: invalid argument 're2' for '--engine'\nValid arguments are:\n  - 'ac'\n  - 'pcre2'\n" USAGE },
	{ .name = "bad scan path", .argv = {"--scan-path=simd", "x"}, .rc = 2,
	  .err = "~acgrep: invalid argument 'simd' for '--scan-path'\n" },
	{ .name = "bad buffer size", .argv = {"--buffer-size=1k", "x"}, .rc = 2,
	  .err = "acgrep: 1k: invalid buffer size\n" },
};

/* ---- rendering a config as key=value words ---- */

/* Items joined with ',', blanks shown as '_' (expectations are space-separated). */
static void render_list(char *out, size_t cap, const char *const *items, size_t n)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "," : "", items[i]);
	for (char *p = out; *p; p++)
		if (*p == ' ')
			*p = '_';
}

static void render_patterns(char *out, size_t cap, const struct pattern_set *ps)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < ps->count && len + 8 < cap; i++) {
		if (i)
			out[len++] = '|';
		struct pattern p = pattern_at(ps, i);
		for (size_t j = 0; j < p.len && len + 8 < cap; j++) {
			char ch = p.bytes[j];
			if (ch == '\r' || ch == '\0') {
				out[len++] = '\\';
				out[len++] = ch == '\r' ? 'r' : '0';
			} else {
				out[len++] = ch;
			}
		}
	}
	out[len] = '\0';
}

/* The tag index of each pattern, joined with ','; "(null)" untagged. */
static void render_tag_of(char *out, size_t cap, const struct config *c)
{
	size_t len = 0;
	out[0] = '\0';
	if (!c->tags.of)
		snprintf(out, cap, "(null)");
	for (size_t i = 0; c->tags.of && i < c->patterns.count && len < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s%u", i ? "," : "", (unsigned)c->tags.of[i]);
}

static const char *nn(const char *s)
{
	return s ? s : "(null)";
}

/* The value of `key` for `c`, as the expectations spell it. */
static const char *describe(const struct config *c, const char *key, char *buf, size_t cap)
{
	static const char *const bins[] = {"binary", "text", "without-match"};
	static const char *const ios[] = {"auto", "mmap", "read"};
	struct { const char *k; long long v; } nums[] = {
		{"npats", (long long)c->patterns.count}, {"i", c->ignore_case}, {"w", c->word_regexp},
		{"x", c->line_regexp}, {"v", c->invert}, {"c", c->count}, {"cm", c->count_matches},
		{"o", c->only_matching}, {"q", c->quiet}, {"s", c->no_messages}, {"m", c->max_count},
		{"n", c->line_number}, {"b", c->byte_offset}, {"H", c->with_filename},
		{"Z", c->null_after_name}, {"T", c->initial_tab}, {"z", c->null_data}, {"B", c->before}, {"A", c->after},
		{"color", c->color}, {"lb", c->line_buffered}, {"chunk", (long long)c->read_chunk},
		{"scan", c->scan_path}, {"rv", c->colors.reverse}, {"ne", c->colors.no_erase},
		{"utf8", c->utf8_locale}, {"nul", c->patterns.holds_nul},
		{"show", c->show_pattern}, {"all", c->show_all_patterns},
	};
	struct { const char *k; const char *v; } strs[] = {
		{"label", nn(c->label)}, {"order", nn(c->filter_order)}, {"sep", nn(c->group_separator)},
		{"bin", bins[c->binary]}, {"io", ios[c->io]},
		{"engine", c->engine == ENGINE_PCRE2 ? "pcre2" : "ac"},
		{"rec", c->recurse == RECURSE_NONE ? "0" : c->recurse == RECURSE_ALL_LINKS ? "R" : "r"},
		{"dirs", c->directories == DIRS_READ ? "read" : c->directories == DIRS_SKIP ? "skip" : "recurse"},
		{"devs", c->devices == DEVS_SKIP ? "skip" : "read"},
		{"list", c->list == LIST_NONE ? "N" : c->list == LIST_MATCHING ? "l" : "L"},
		{"ms", c->colors.selected_match}, {"mc", c->colors.context_match},
		{"sl", c->colors.selected_line}, {"cx", c->colors.context_line},
		{"fn", c->colors.file_name}, {"ln", c->colors.line_number},
		{"bn", c->colors.byte_offset}, {"se", c->colors.separator},
		{"pt", nn(c->colors.pattern)},
	};
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
		if (strcmp(key, nums[i].k) == 0) {
			snprintf(buf, cap, "%lld", nums[i].v);
			return buf;
		}
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
		if (strcmp(key, strs[i].k) == 0) {
			snprintf(buf, cap, "%s", strs[i].v);
			for (char *p = buf; *p; p++)
				if (*p == ' ')
					*p = '_'; /* expectations are space-separated */
			return buf;
		}
	if (strcmp(key, "pats") == 0)
		render_patterns(buf, cap, &c->patterns);
	else if (strcmp(key, "tags") == 0 && c->tags.of)
		render_patterns(buf, cap, &c->tags.names);
	else if (strcmp(key, "tagof") == 0 || strcmp(key, "tags") == 0)
		render_tag_of(buf, cap, c);
	else if (strcmp(key, "files") == 0)
		render_list(buf, cap, c->files, c->n_files);
	else if (strcmp(key, "incl") == 0)
		render_list(buf, cap, c->includes, c->n_includes);
	else if (strcmp(key, "excl") == 0)
		render_list(buf, cap, c->excludes, c->n_excludes);
	else if (strcmp(key, "xdir") == 0)
		render_list(buf, cap, c->exclude_dirs, c->n_exclude_dirs);
	else
		return NULL;
	return buf;
}

/* ---- running one case ---- */

static char *slurp(FILE *f)
{
	static char buf[65536];
	rewind(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	return buf;
}

static bool text_ok(const char *want, const char *got)
{
	if (!want)
		return got[0] == '\0';
	if (want[0] == '~')
		return strncmp(got, want + 1, strlen(want + 1)) == 0;
	return strcmp(got, want) == 0;
}

static int failures_in_case;

static void fail(const struct tcase *t, const char *what, const char *want, const char *got)
{
	printf("FAIL %s: %s\n  want: %s\n  got:  %s\n", t->name, what, want ? want : "(empty)", got);
	failures_in_case++;
}

static void set_env(const struct tcase *t)
{
	static const char *const vars[] = {"GREP_COLORS", "GREP_COLOR", "NO_COLOR", "POSIXLY_CORRECT", "TERM"};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		unsetenv(vars[i]);
	for (size_t i = 0; i < 3 && t->env[i]; i++) {
		char name[64];
		const char *eq = strchr(t->env[i], '=');
		snprintf(name, sizeof name, "%.*s", (int)(eq - t->env[i]), t->env[i]);
		setenv(name, eq + 1, 1);
	}
}

static bool run_case(const struct tcase *t, FILE *out, FILE *err, FILE *in)
{
	char *argv[18];
	int argc = 0;
	argv[argc++] = strdup("acgrep");
	for (size_t i = 0; t->argv[i]; i++)
		argv[argc++] = strdup(t->argv[i]);
	argv[argc] = NULL;

	set_env(t);
	if (ftruncate(fileno(in), 0) != 0 || ftruncate(fileno(out), 0) != 0 || ftruncate(fileno(err), 0) != 0)
		return false;
	rewind(in);
	if (t->in)
		fputs(t->in, in);
	fflush(in);
	rewind(in);
	lseek(fileno(in), 0, SEEK_SET);
	rewind(out);
	rewind(err);

	/* Point fds 0, 1 and 2 at the scratch files while opts_parse runs. */
	fflush(stdout);
	fflush(stderr);
	int saved[3] = {dup(0), dup(1), dup(2)};
	dup2(fileno(in), 0);
	dup2(fileno(out), 1);
	dup2(fileno(err), 2);
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	char *before[18];
	memcpy(before, argv, sizeof before);
	int rc = opts_parse(argc, argv, &cfg);
	fflush(stdout);
	fflush(stderr);
	for (int fd = 0; fd < 3; fd++) {
		dup2(saved[fd], fd);
		close(saved[fd]);
	}
	clearerr(stdin);

	failures_in_case = 0;
	if (rc != t->rc) {
		char want[16], got[16];
		snprintf(want, sizeof want, "%d", t->rc);
		snprintf(got, sizeof got, "%d", rc);
		fail(t, "return value", want, got);
	}
	/* argv is neither permuted nor written to */
	for (int i = 0; i < argc; i++)
		if (argv[i] != before[i] || strcmp(argv[i], i ? t->argv[i - 1] : "acgrep") != 0)
			fail(t, "argv unchanged", i ? t->argv[i - 1] : "acgrep", argv[i]);
	const char *got_out = slurp(out);
	if (!text_ok(t->out, got_out))
		fail(t, "stdout", t->out, got_out);
	const char *got_err = slurp(err);
	if (!text_ok(t->err, got_err))
		fail(t, "stderr", t->err, got_err);

	if (rc == RUN && t->expect) {
		char words[1024];
		snprintf(words, sizeof words, "%s", t->expect);
		for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(w, '=');
			*eq = '\0';
			char buf[512];
			const char *got = describe(&cfg, w, buf, sizeof buf);
			if (!got || strcmp(got, eq + 1) != 0) {
				char what[80];
				snprintf(what, sizeof what, "field %s", w);
				fail(t, what, eq + 1, got ? got : "(unknown key)");
			}
		}
	}
	opts_free(&cfg);
	opts_free(&cfg); /* must be idempotent */
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return failures_in_case == 0;
}

/* ---- fixtures ---- */

static bool write_file(const char *name, const char *data, size_t len)
{
	FILE *f = fopen(name, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

#define FIXTURE(name, lit) {name, lit, sizeof lit - 1}
static const struct { const char *name, *data; size_t len; } fixtures[] = {
	FIXTURE("pnl", "foo\n"),
	FIXTURE("pnonl", "foo"),
	FIXTURE("pempty", ""),
	FIXTURE("ponlynl", "\n"),
	FIXTURE("pmid", "foo\n\nbar\n"),
	FIXTURE("pblank", "foo\n\n"),
	FIXTURE("pcrlf", "foo\r\nbar\r\n"),
	FIXTURE("pnul", "a\0b\n"),
	/* lines of 0 to 17 bytes: every place a newline can take in a word */
	FIXTURE("pwords", "\na\nbb\nccc\ndddd\neeeee\nffffff\nggggggg\nhhhhhhhh\niiiiiiiii\n"
			  "jjjjjjjjjj\nkkkkkkkkkkk\nllllllllllll\n\n\nmmmmmmmmmmmmmmmmm"),
	FIXTURE("xf", "a.c  \n\n \t\n b\n*.o"),
	FIXTURE("tsv", "evil\tbad.example\nevil\t10.0.0.1\nphish\t\t\tlogin\n"),
	FIXTURE("tsvdup", "a\tx\nb\tx\nevil\ty\n"),
	FIXTURE("tsvtabs", "t\t\tp\tq\nu-v\tr\n"),
	FIXTURE("tsvnonl", "t\0\ta\0b\nt\tc"),
	FIXTURE("tsvnotab", "a\tb\nnotab\nc\td\n"),
	FIXTURE("tsvnotag", "a\tb\nc\td\n\tx\n"),
	FIXTURE("tsvnopat", "a\t\t\nb\tc\n"),
	FIXTURE("tsvcrlf", "a\tb\r\nc\td\r\n"),
	FIXTURE("xcrlf", "p\r\nq\r"),
};

int main(void)
{
	char dir[] = "/tmp/test_opts.XXXXXX";
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd) || !mkdtemp(dir) || chdir(dir) != 0) {
		perror("test_opts: setup");
		return 1;
	}
	size_t n_fixtures = sizeof fixtures / sizeof fixtures[0];
	for (size_t i = 0; i < n_fixtures; i++)
		if (!write_file(fixtures[i].name, fixtures[i].data, fixtures[i].len)) {
			perror(fixtures[i].name);
			return 1;
		}
	FILE *out = tmpfile(), *err = tmpfile(), *in = tmpfile();
	if (!out || !err || !in) {
		perror("test_opts: tmpfile");
		return 1;
	}

	int passed = 0, failed = 0;
	size_t n_cases = sizeof cases / sizeof cases[0];
	for (size_t i = 0; i < n_cases; i++) {
		if (run_case(&cases[i], out, err, in))
			passed++;
		else
			failed++;
	}

	/* The locale's codeset decides utf8_locale (main calls setlocale). */
	static const struct tcase c_locale = {
		.name = "C locale", .argv = {"x"}, .rc = RUN, .expect = "utf8=0",
	};
	static const struct tcase utf8_locale = {
		.name = "UTF-8 locale", .argv = {"x"}, .rc = RUN, .expect = "utf8=1",
	};
	/* gnulib's quote() as grep 3.8 prints it under C.UTF-8 */
	static const struct tcase utf8_quotes = {
		.name = "-d quoted in UTF-8", .argv = {"-d", "a'b\xe2\x80\x99\xc3\xa9\x80", "x"}, .rc = 1,
		.err = "acgrep: invalid argument \u2018a'b\\\u2019\u00e9\\200\u2019 for \u2018--directories\u2019\n"
		       "Valid arguments are:\n  - \u2018read\u2019\n  - \u2018recurse\u2019\n  - \u2018skip\u2019\n" USAGE,
	};
	setlocale(LC_ALL, "C");
	run_case(&c_locale, out, err, in) ? passed++ : failed++;
	if (setlocale(LC_ALL, "C.UTF-8")) {
		run_case(&utf8_locale, out, err, in) ? passed++ : failed++;
		run_case(&utf8_quotes, out, err, in) ? passed++ : failed++;
	}
	setlocale(LC_ALL, "C");

	for (size_t i = 0; i < n_fixtures; i++)
		unlink(fixtures[i].name);
	if (chdir(cwd) != 0 || rmdir(dir) != 0)
		perror("test_opts: cleanup");
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
