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

#include "config.h"
#include "opts.h"

#define RUN (-1) /* opts_parse's "go ahead and search" */
#define USAGE "Usage: acgrep [OPTION]... PATTERNS [FILE]...\n" \
	      "Try 'acgrep --help' for more information.\n"
#define LLMAX "9223372036854775807"

struct tcase {
	const char *name;
	const char *argv[16];   /* without argv[0]; NULL-terminated */
	int rc;                 /* RUN, 0 or 2 */
	const char *expect;     /* "key=value ..." checked when rc == RUN */
	const char *out, *err;  /* NULL: must be empty; "~text": starts with text */
	const char *env[3];     /* "NAME=VALUE" set for this case */
	const char *in;         /* standard input, or NULL for empty */
};

static const struct tcase cases[] = {
	/* defaults */
	{"defaults", {"foo"}, RUN,
	 "npats=1 pats=foo i=0 w=0 x=0 v=0 c=0 cm=0 list=N o=0 q=0 s=0 m=-1 n=0 b=0 H=-1 "
	 "label=(standard_input) Z=0 z=0 B=-1 A=-1 sep=-- color=0 lb=0 bin=binary io=auto "
	 "engine=ac rec=0 dirs=read devs=read chunk=0 scan=0 files= incl= excl= xdir= order=(null) "
	 "ms=01;31 mc=01;31 sl= cx= fn=35 ln=32 bn=32 se=36 rv=0 ne=0", NULL, NULL, {0}, NULL},

	/* syntax: clustering, permutation, -- */
	{"cluster", {"-inH", "foo", "a", "b"}, RUN, "i=1 n=1 H=1 pats=foo files=a,b", NULL, NULL, {0}, NULL},
	{"attached args", {"-m3", "-A2", "x"}, RUN, "m=3 A=2 B=-1 files=", NULL, NULL, {0}, NULL},
	{"options after operands", {"x", "f", "-n"}, RUN, "n=1 pats=x files=f", NULL, NULL, {0}, NULL},
	{"double dash", {"--", "-n", "f"}, RUN, "n=0 pats=-n files=f", NULL, NULL, {0}, NULL},
	{"double dash after pattern", {"-n", "--", "x", "--", "f"}, RUN, "pats=x files=--,f", NULL, NULL, {0}, NULL},
	{"POSIXLY_CORRECT stops at operand", {"x", "f", "-n"}, RUN, "n=0 files=f,-n", NULL, NULL,
	 {"POSIXLY_CORRECT=1"}, NULL},
	{"long abbreviation", {"--ignore", "--col=always", "x"}, RUN, "i=1 color=1", NULL, NULL, {0}, NULL},
	{"ambiguous abbreviation", {"--line", "x"}, 2, NULL, NULL,
	 "acgrep: option '--line' is ambiguous; possibilities: '--line-buffered' '--line-number' "
	 "'--line-regexp'\n" USAGE, {0}, NULL},

	/* abbreviations mean what they mean to grep 3.8, whose table has no
	 * --count-matches, --mmap, --no-mmap, --engine, --buffer-size, --scan-path */
	{"--cou is --count", {"--cou", "x"}, RUN, "c=1 cm=0", NULL, NULL, {0}, NULL},
	{"--m is --max-count", {"--m", "2", "x"}, RUN, "m=2 pats=x", NULL, NULL, {0}, NULL},
	{"--max=N", {"--max=3", "x"}, RUN, "m=3", NULL, NULL, {0}, NULL},
	{"--s is --silent", {"--s", "x"}, RUN, "q=1", NULL, NULL, {0}, NULL},
	{"--no-m is --no-messages", {"--no-m", "x"}, RUN, "s=1 io=auto", NULL, NULL, {0}, NULL},
	{"--b... is --binary-files", {"--binary-f=text", "x"}, RUN, "bin=text", NULL, NULL, {0}, NULL},
	{"--e... is --exclude-from", {"--exclude-f", "xf", "x"}, RUN, "excl=a.c,_b,*.o", NULL, NULL, {0}, NULL},
	{"acgrep-only abbreviations", {"--count-m", "--mm", "x"}, RUN, "cm=1 io=mmap", NULL, NULL, {0}, NULL},
	{"--no-mm is --no-mmap", {"--mmap", "--no-mm", "--eng=pcre2", "x"}, RUN, "io=read engine=pcre2",
	 NULL, NULL, {0}, NULL},
	{"--count=3 spelt out", {"--cou=3", "x"}, 2, NULL, NULL,
	 "acgrep: option '--count' doesn't allow an argument\n" USAGE, {0}, NULL},
	{"grep-ambiguous: grep's message", {"--co", "x"}, 2, NULL, NULL,
	 "acgrep: option '--co' is ambiguous; possibilities: '--context' '--color' '--colour' '--count'\n" USAGE,
	 {0}, NULL},
	{"grep-ambiguous with a value", {"-i", "--c=1", "x"}, 2, NULL, NULL,
	 "acgrep: option '--c=1' is ambiguous; possibilities: '--context' '--color' '--colour' '--count'\n" USAGE,
	 {0}, NULL},
	{"grep-ambiguous after a bad -m", {"-m", "z", "--co", "x"}, 2, NULL, NULL,
	 "acgrep: invalid max count\n", {0}, NULL},
	{"--= is ambiguous", {"--=", "x"}, 2, NULL, NULL,
	 "~acgrep: option '--=' is ambiguous; possibilities: '--basic-regexp' '--extended-regexp'", {0}, NULL},
	{"marker-like option", {"--\1a", "x"}, 2, NULL, NULL,
	 "acgrep: unrecognized option '--\1a'\n" USAGE, {0}, NULL},
	{"option argument not rewritten", {"-e", "--cou", "--regexp", "--inv", "-ie", "--s", "--reg", "--m"},
	 RUN, "pats=--cou|--inv|--s|--m i=1 c=0 v=0 q=0", NULL, NULL, {0}, NULL},
	{"attached argument not rewritten", {"-e--cou", "--label", "--cou", "x"}, RUN,
	 "pats=--cou c=0 label=--cou files=x", NULL, NULL, {0}, NULL},
	{"operand after -- not rewritten", {"x", "--", "--cou"}, RUN, "c=0 files=--cou", NULL, NULL, {0}, NULL},
	{"POSIXLY_CORRECT operand not rewritten", {"x", "f", "--cou"}, RUN, "c=0 files=f,--cou", NULL, NULL,
	 {"POSIXLY_CORRECT=1"}, NULL},
	{"rewrite before an operand", {"--cou", "x", "--inv", "f"}, RUN, "c=1 v=1 files=f", NULL, NULL, {0}, NULL},

	/* patterns */
	{"-e twice, operands are files", {"-e", "foo", "-e", "bar", "f"}, RUN, "pats=foo|bar files=f", NULL, NULL, {0}, NULL},
	{"-e between files", {"f1", "-e", "foo", "f2"}, RUN, "pats=foo files=f1,f2", NULL, NULL, {0}, NULL},
	{"-e empty", {"-e", ""}, RUN, "npats=1 pats=", NULL, NULL, {0}, NULL},
	{"-e trailing newline adds empty", {"-e", "a\n"}, RUN, "npats=2 pats=a|", NULL, NULL, {0}, NULL},
	{"-e inner newlines", {"-e", "a\n\nb"}, RUN, "npats=3 pats=a||b", NULL, NULL, {0}, NULL},
	{"operand split", {"a\nb", "f"}, RUN, "npats=2 pats=a|b files=f", NULL, NULL, {0}, NULL},
	{"backslash-dash kept (-F)", {"\\-x"}, RUN, "pats=\\-x", NULL, NULL, {0}, NULL},
	{"-f final newline", {"-f", "pnl"}, RUN, "npats=1 pats=foo", NULL, NULL, {0}, NULL},
	{"-f no final newline", {"-f", "pnonl"}, RUN, "npats=1 pats=foo", NULL, NULL, {0}, NULL},
	{"-f empty file -v", {"-v", "-f", "pempty", "f"}, RUN, "npats=1 pats= v=0 files=f", NULL, NULL, {0}, NULL},
	{"-f /dev/null -v -x", {"-vx", "-f", "/dev/null"}, RUN, "npats=1 pats= v=0 x=0 w=0", NULL, NULL, {0}, NULL},
	{"-f /dev/null -e x", {"-f", "/dev/null", "-e", "x"}, RUN, "npats=1 pats=x", NULL, NULL, {0}, NULL},

	/* grep 3.8 exits 1 at once, reading nothing, when nothing can be selected */
	{"-f /dev/null exits 1", {"-c", "-f", "/dev/null", "nonexist"}, 1, NULL, NULL, NULL, {0}, NULL},
	{"-f empty -x exits 1", {"-x", "-f", "pempty"}, 1, NULL, NULL, NULL, {0}, NULL},
	{"-m 0 exits 1", {"-c", "-m", "0", "x"}, 1, NULL, NULL, NULL, {0}, NULL},
	{"-m 0 -v exits 1", {"-v", "-m0", "x"}, 1, NULL, NULL, NULL, {0}, NULL},
	{"-v '' exits 1", {"-c", "-v", "-e", "", "-e", ""}, 1, NULL, NULL, NULL, {0}, NULL},
	{"-v '' -x runs", {"-v", "-x", ""}, RUN, "npats=1", NULL, NULL, {0}, NULL},
	{"-v '' -w runs", {"-v", "-w", ""}, RUN, "npats=1", NULL, NULL, {0}, NULL},
	{"-v '' and x runs", {"-v", "-e", "", "-e", "x"}, RUN, "npats=2", NULL, NULL, {0}, NULL},
	{"-L -m 0 runs", {"-L", "-m0", "x"}, RUN, "m=0 list=L", NULL, NULL, {0}, NULL},
	{"-L -f /dev/null runs", {"-L", "-f", "/dev/null"}, RUN, "npats=1 pats= v=1 list=L", NULL, NULL, {0}, NULL},
	{"-q overrides -L for -m 0", {"-L", "-q", "-m0", "x"}, 1, NULL, NULL, NULL, {0}, NULL},
	{"no GREP_COLOR warning when exiting early", {"--color=always", "-m0", "x"}, 1, NULL, NULL, NULL,
	 {"GREP_COLOR=01;32"}, NULL},
	{"-f lone newline", {"-f", "ponlynl"}, RUN, "npats=1 pats=", NULL, NULL, {0}, NULL},
	{"-f empty middle line", {"-f", "pmid"}, RUN, "npats=3 pats=foo||bar", NULL, NULL, {0}, NULL},
	{"-f trailing blank line", {"-f", "pblank"}, RUN, "npats=2 pats=foo|", NULL, NULL, {0}, NULL},
	{"-f CRLF keeps CR", {"-f", "pcrlf"}, RUN, "npats=2 pats=foo\\r|bar\\r", NULL, NULL, {0}, NULL},
	{"-f NUL byte", {"-f", "pnul"}, RUN, "npats=1 pats=a\\0b nul=1", NULL, NULL, {0}, NULL},
	{"-f NUL only after the last line", {"-f", "pnl", "-f", "pwords"}, RUN, "npats=17 nul=0", NULL, NULL, {0}, NULL},
	{"-f lines across words", {"-f", "pwords", "-e", "z"}, RUN,
	 "npats=17 pats=|a|bb|ccc|dddd|eeeee|ffffff|ggggggg|hhhhhhhh|iiiiiiiii|jjjjjjjjjj|kkkkkkkkkkk|"
	 "llllllllllll|||mmmmmmmmmmmmmmmmm|z nul=0", NULL, NULL, {0}, NULL},
	{"-f and -e in order", {"-f", "pnl", "-e", "x", "--file=pmid", "--regexp=y"}, RUN,
	 "pats=foo|x|foo||bar|y", NULL, NULL, {0}, NULL},
	{"-f - reads stdin", {"-f", "-", "f"}, RUN, "pats=s1|s2 files=f", NULL, NULL, {0}, "s1\ns2"},
	{"-f - twice", {"-f", "-", "-f", "-"}, RUN, "pats=s1", NULL, NULL, {0}, "s1\n"},
	{"-f missing", {"-f", "nonexist", "x"}, 2, NULL, NULL,
	 "acgrep: nonexist: No such file or directory\n", {0}, NULL},
	{"-f missing, -s does not hide", {"-s", "-f", "nonexist", "x"}, 2, NULL, NULL,
	 "acgrep: nonexist: No such file or directory\n", {0}, NULL},
	{"-f directory", {"-f", ".", "x"}, 2, NULL, NULL, "acgrep: .: Is a directory\n", {0}, NULL},
	{"-f error before later bad option", {"-f", "nonexist", "-k"}, 2, NULL, NULL,
	 "acgrep: nonexist: No such file or directory\n", {0}, NULL},
	{"no pattern", {NULL}, 2, NULL, NULL, USAGE, {0}, NULL},
	{"no pattern after options", {"-i", "-n"}, 2, NULL, NULL, USAGE, {0}, NULL},

	/* usage errors */
	{"invalid short option", {"-k", "x"}, 2, NULL, NULL, "acgrep: invalid option -- 'k'\n" USAGE, {0}, NULL},
	{"unknown long option", {"--bogus", "x"}, 2, NULL, NULL,
	 "acgrep: unrecognized option '--bogus'\n" USAGE, {0}, NULL},
	{"missing argument", {"x", "-e"}, 2, NULL, NULL,
	 "acgrep: option requires an argument -- 'e'\n" USAGE, {0}, NULL},
	{"argument to --help", {"--help=x"}, 2, NULL, NULL,
	 "acgrep: option '--help' doesn't allow an argument\n" USAGE, {0}, NULL},
	{"-E rejected", {"-E", "x"}, 2, NULL, NULL,
	 "acgrep: -E is not supported: acgrep searches for fixed strings only\n", {0}, NULL},
	{"-G rejected", {"--basic-regexp", "x"}, 2, NULL, NULL,
	 "acgrep: -G is not supported: acgrep searches for fixed strings only\n", {0}, NULL},
	{"-P rejected", {"-P", "x"}, 2, NULL, NULL,
	 "acgrep: -P is not supported: acgrep searches for fixed strings only\n", {0}, NULL},
	{"-F accepted", {"-F", "--fixed-strings", "x"}, RUN, "pats=x", NULL, NULL, {0}, NULL},

	/* matching flags */
	{"-i then --no-ignore-case", {"-i", "--no-ignore-case", "x"}, RUN, "i=0", NULL, NULL, {0}, NULL},
	{"-y", {"-y", "x"}, RUN, "i=1", NULL, NULL, {0}, NULL},
	{"flags", {"-wxvcosbZz", "--line-buffered", "x"}, RUN,
	 "w=1 x=1 v=1 c=1 o=1 s=1 b=1 Z=1 z=1 lb=1", NULL, NULL, {0}, NULL},
	{"long flags", {"--word-regexp", "--line-regexp", "--invert-match", "--only-matching",
			"--no-messages", "--byte-offset", "--null", "--null-data", "--text", "x"}, RUN,
	 "w=1 x=1 v=1 o=1 s=1 b=1 Z=1 z=1 bin=text", NULL, NULL, {0}, NULL},

	/* -c / -l / -L / -q precedence */
	{"-l then -L", {"-l", "-L", "x"}, RUN, "list=L", NULL, NULL, {0}, NULL},
	{"-L then -l", {"-L", "-l", "x"}, RUN, "list=l", NULL, NULL, {0}, NULL},
	{"-l beats -c", {"-c", "-l", "x"}, RUN, "c=0 list=l", NULL, NULL, {0}, NULL},
	{"-L beats -c", {"-L", "-c", "x"}, RUN, "c=0 list=L", NULL, NULL, {0}, NULL},
	{"-q beats -l", {"-l", "-q", "x"}, RUN, "q=1 list=N c=0", NULL, NULL, {0}, NULL},
	{"--silent beats -c", {"-c", "--silent", "x"}, RUN, "q=1 c=0", NULL, NULL, {0}, NULL},
	{"-l beats --count-matches", {"--count-matches", "-l", "x"}, RUN, "cm=0 list=l", NULL, NULL, {0}, NULL},
	{"--count-matches", {"--count-matches", "x"}, RUN, "cm=1 c=0", NULL, NULL, {0}, NULL},

	/* file names */
	{"-H then -h", {"-H", "-h", "x"}, RUN, "H=0", NULL, NULL, {0}, NULL},
	{"-h then -H", {"-h", "-H", "x"}, RUN, "H=1", NULL, NULL, {0}, NULL},
	{"--label", {"--label=in", "x"}, RUN, "label=in", NULL, NULL, {0}, NULL},

	/* -m */
	{"-m -1 is unlimited", {"-m", "-1", "x"}, RUN, "m=-1", NULL, NULL, {0}, NULL},
	{"-m -5 is unlimited", {"--max-count=-5", "x"}, RUN, "m=-1", NULL, NULL, {0}, NULL},
	{"-m blanks and plus", {"-m", " +3", "x"}, RUN, "m=3", NULL, NULL, {0}, NULL},
	{"-m leading zero is decimal", {"-m", "010", "x"}, RUN, "m=10", NULL, NULL, {0}, NULL},
	{"-m overflow saturates", {"-m", "99999999999999999999999", "x"}, RUN, "m=" LLMAX, NULL, NULL, {0}, NULL},
	{"-m garbage", {"-m", "3x", "x"}, 2, NULL, NULL, "acgrep: invalid max count\n", {0}, NULL},
	{"-m hex", {"-m", "0x10", "x"}, 2, NULL, NULL, "acgrep: invalid max count\n", {0}, NULL},
	{"-m empty", {"-m", "", "x"}, 2, NULL, NULL, "acgrep: invalid max count\n", {0}, NULL},

	/* context */
	{"-A then -C", {"-A1", "-C3", "x"}, RUN, "A=1 B=3", NULL, NULL, {0}, NULL},
	{"-C then -A", {"-C3", "-A1", "x"}, RUN, "A=1 B=3", NULL, NULL, {0}, NULL},
	{"-A then -NUM", {"-A1", "-3", "x"}, RUN, "A=1 B=3", NULL, NULL, {0}, NULL},
	{"-NUM", {"-2", "x"}, RUN, "A=2 B=2", NULL, NULL, {0}, NULL},
	{"-NUM two digits", {"-12", "x"}, RUN, "A=12 B=12", NULL, NULL, {0}, NULL},
	{"-NUM leading zeros", {"-00012", "x"}, RUN, "A=12 B=12", NULL, NULL, {0}, NULL},
	{"-NUM last wins", {"-1", "-2", "x"}, RUN, "A=2 B=2", NULL, NULL, {0}, NULL},
	{"-NUM split by option", {"-1n2", "x"}, RUN, "A=2 B=2 n=1", NULL, NULL, {0}, NULL},
	{"-NUM after option letter", {"-n12", "x"}, RUN, "A=12 B=12 n=1", NULL, NULL, {0}, NULL},
	/* grep 3.8 quirk: the first digit of -NUM after a permuted operand
	 * starts a number of its own, so this is -C 2, as in grep */
	{"-NUM after operand (grep quirk)", {"x", "-12"}, RUN, "A=2 B=2", NULL, NULL, {0}, NULL},
	{"-C after -NUM", {"-12", "-C1", "x"}, RUN, "A=1 B=1", NULL, NULL, {0}, NULL},
	{"--context", {"--context=7", "x"}, RUN, "A=7 B=7", NULL, NULL, {0}, NULL},
	{"-C blanks", {"-C", " 2", "x"}, RUN, "A=2 B=2", NULL, NULL, {0}, NULL},
	{"-A overflow saturates", {"-A", "99999999999999999999999", "x"}, RUN, "A=" LLMAX " B=-1", NULL, NULL, {0}, NULL},
	{"-NUM 21 digits saturates", {"-999999999999999999999", "x"}, RUN, "A=" LLMAX, NULL, NULL, {0}, NULL},
	{"-NUM 22 digits", {"-9999999999999999999999", "x"}, 2, NULL, NULL,
	 "acgrep: 999999999999999999999...: invalid context length argument\n", {0}, NULL},
	{"-A negative", {"-A", "-1", "x"}, 2, NULL, NULL, "acgrep: -1: invalid context length argument\n", {0}, NULL},
	{"-B garbage", {"-B", "3x", "x"}, 2, NULL, NULL, "acgrep: 3x: invalid context length argument\n", {0}, NULL},
	{"-C empty", {"-C", "", "x"}, 2, NULL, NULL, "acgrep: : invalid context length argument\n", {0}, NULL},
	{"-C swallows pattern", {"-C", "x"}, 2, NULL, NULL, "acgrep: x: invalid context length argument\n", {0}, NULL},
	{"group separator", {"--group-separator=XX", "x"}, RUN, "sep=XX", NULL, NULL, {0}, NULL},
	{"empty group separator", {"--group-separator=", "x"}, RUN, "sep=", NULL, NULL, {0}, NULL},
	{"no group separator", {"--no-group-separator", "x"}, RUN, "sep=(null)", NULL, NULL, {0}, NULL},
	{"separator after none", {"--no-group-separator", "--group-separator", "S", "x"}, RUN,
	 "sep=S pats=x", NULL, NULL, {0}, NULL},

	/* binary files, directories */
	{"binary-files", {"--binary-files=without-match", "x"}, RUN, "bin=without-match", NULL, NULL, {0}, NULL},
	{"-I then -a", {"-I", "-a", "x"}, RUN, "bin=text", NULL, NULL, {0}, NULL},
	{"-a then -I", {"-a", "-I", "x"}, RUN, "bin=without-match", NULL, NULL, {0}, NULL},
	{"bad binary-files", {"--binary-files=foo", "x"}, 2, NULL, NULL, "acgrep: unknown binary-files type\n", {0}, NULL},
	{"-U no-op", {"-U", "--binary", "x"}, RUN, "pats=x", NULL, NULL, {0}, NULL},
	{"-u warns", {"-u", "x"}, RUN, "pats=x", NULL, "acgrep: warning: --unix-byte-offsets (-u) is obsolete\n", {0}, NULL},
	{"-r", {"-r", "x"}, RUN, "rec=r files=", NULL, NULL, {0}, NULL},
	{"-R", {"--dereference-recursive", "x"}, RUN, "rec=R", NULL, NULL, {0}, NULL},
	{"-R then -r keeps -R", {"-R", "-r", "x"}, RUN, "rec=R", NULL, NULL, {0}, NULL},
	{"-r then -R", {"-rR", "x"}, RUN, "rec=R", NULL, NULL, {0}, NULL},
	{"-r sets directories", {"-r", "x"}, RUN, "rec=r dirs=recurse", NULL, NULL, {0}, NULL},
	{"-d recurse is -r", {"-d", "recurse", "x"}, RUN, "rec=r dirs=recurse", NULL, NULL, {0}, NULL},
	{"-d abbreviated", {"--directories=rec", "x"}, RUN, "rec=r", NULL, NULL, {0}, NULL},
	{"-d skip", {"-dskip", "x"}, RUN, "rec=0 dirs=skip", NULL, NULL, {0}, NULL},
	{"-d s", {"--dir", "s", "x"}, RUN, "rec=0 dirs=skip pats=x", NULL, NULL, {0}, NULL},
	{"-d read", {"-d", "read", "x"}, RUN, "rec=0 dirs=read", NULL, NULL, {0}, NULL},
	{"-r then -d skip", {"-r", "-d", "skip", "x"}, RUN, "rec=0 dirs=skip", NULL, NULL, {0}, NULL},
	{"-d skip then -r", {"-d", "skip", "-r", "x"}, RUN, "rec=r dirs=recurse", NULL, NULL, {0}, NULL},
	{"-R then -d read", {"-R", "-d", "read", "x"}, RUN, "rec=0 dirs=read", NULL, NULL, {0}, NULL},
	{"-R stays through -d skip, -d recurse", {"-R", "-d", "skip", "-d", "recurse", "x"}, RUN,
	 "rec=R dirs=recurse", NULL, NULL, {0}, NULL},
	{"-d recurse then -R", {"-d", "recurse", "-R", "x"}, RUN, "rec=R", NULL, NULL, {0}, NULL},
	{"-d invalid exits 1", {"-d", "foo", "x"}, 1, NULL, NULL,
	 "acgrep: invalid argument 'foo' for '--directories'\nValid arguments are:\n"
	 "  - 'read'\n  - 'recurse'\n  - 'skip'\n" USAGE, {0}, NULL},
	{"-d ambiguous exits 1", {"--directories=re", "x"}, 1, NULL, NULL,
	 "~acgrep: ambiguous argument 're' for '--directories'\nValid arguments are:\n", {0}, NULL},
	{"-d empty is ambiguous", {"-d", "", "x"}, 1, NULL, NULL,
	 "~acgrep: ambiguous argument '' for '--directories'\n", {0}, NULL},
	{"-d argument quoted as grep does", {"-d", "a'b\\\t\001\x80", "x"}, 1, NULL, NULL,
	 "~acgrep: invalid argument 'a\\'b\\\\\\t\\001\\200' for '--directories'\n", {0}, NULL},
	{"-d error before a later one", {"-d", "foo", "-k"}, 1, NULL, NULL,
	 "~acgrep: invalid argument 'foo'", {0}, NULL},
	{"-D skip", {"-D", "skip", "x"}, RUN, "devs=skip", NULL, NULL, {0}, NULL},
	{"-D read", {"-Dskip", "--devices=read", "x"}, RUN, "devs=read", NULL, NULL, {0}, NULL},
	{"-D not abbreviated", {"-D", "rea", "x"}, 2, NULL, NULL, "acgrep: unknown devices method\n", {0}, NULL},
	{"-D bad", {"--devices=foo", "x"}, 2, NULL, NULL, "acgrep: unknown devices method\n", {0}, NULL},
	{"-T", {"-T", "x"}, RUN, "T=1 n=0", NULL, NULL, {0}, NULL},
	{"--initial-tab", {"-n", "--initial-tab", "x"}, RUN, "T=1 n=1", NULL, NULL, {0}, NULL},
	{"no -T", {"-n", "x"}, RUN, "T=0", NULL, NULL, {0}, NULL},
	{"-X not accepted", {"-X", "fgrep", "x"}, 2, NULL, NULL, "acgrep: invalid option -- 'X'\n" USAGE, {0}, NULL},
	{"globs", {"--include=*.c", "--include", "*.h", "--exclude=*.o", "--exclude-dir=d/",
		   "--exclude-dir=/", "--exclude-dir=e", "x"}, RUN,
	 "incl=*.c,*.h excl=*.o xdir=d/,/,e order=iie", NULL, NULL, {0}, NULL},
	{"include/exclude order", {"--exclude=a*", "--include=*.c", "--exclude-dir=x", "--exclude=b*", "x"}, RUN,
	 "incl=*.c excl=a*,b* order=eie", NULL, NULL, {0}, NULL},
	/* xf: "a.c  \n\n \t\n b\n*.o": trailing blanks cut, blank lines
	 * skipped, leading blanks kept (" b" shows as "_b") */
	{"--exclude-from", {"--include=*.c", "--exclude-from=xf", "--exclude", "z", "x"}, RUN,
	 "incl=*.c excl=a.c,_b,*.o,z order=ieeee", NULL, NULL, {0}, NULL},
	{"--exclude-from CRLF and no final newline", {"--exclude-from", "xcrlf", "x"}, RUN,
	 "excl=p,q order=ee", NULL, NULL, {0}, NULL},
	{"--exclude-from empty file", {"--exclude-from=pempty", "x"}, RUN, "excl= order=(null)", NULL, NULL, {0}, NULL},
	{"--exclude-from twice", {"--exclude-from=xcrlf", "--exclude-from=xcrlf", "x"}, RUN,
	 "excl=p,q,p,q", NULL, NULL, {0}, NULL},
	{"--exclude-from -", {"--exclude-from=-", "x"}, RUN, "excl=s1,s2", NULL, NULL, {0}, "s1\ns2 \n"},
	{"--exclude-from missing", {"--exclude-from=nonexist", "x"}, 2, NULL, NULL,
	 "acgrep: nonexist: No such file or directory\n", {0}, NULL},
	{"--exclude-from directory", {"--exclude-from=.", "x"}, 2, NULL, NULL,
	 "acgrep: .: Is a directory\n", {0}, NULL},

	/* colour */
	{"--color=always", {"--color=always", "x"}, RUN, "color=1", NULL, NULL, {0}, NULL},
	{"--colour=ALWAYS", {"--colour=ALWAYS", "x"}, RUN, "color=1", NULL, NULL, {0}, NULL},
	{"--color=yes then never", {"--color=yes", "--color=none", "x"}, RUN, "color=0", NULL, NULL, {0}, NULL},
	{"--color is auto, off when not a tty", {"--color", "x"}, RUN, "color=0", NULL, NULL, {"TERM=xterm"}, NULL},
	{"--color=bogus shows help (grep 3.8)", {"--color=bogus", "x"}, 0, NULL, "~Usage: acgrep [OPTION]", NULL, {0}, NULL},
	{"--color=bogus then bad option", {"--color=bogus", "-k"}, 2, NULL, NULL,
	 "acgrep: invalid option -- 'k'\n" USAGE, {0}, NULL},
	{"NO_COLOR leaves always on", {"--color=always", "x"}, RUN, "color=1", NULL, NULL, {"NO_COLOR=1"}, NULL},
	{"GREP_COLORS", {"--color=always", "x"}, RUN,
	 "ms=01;34 mc=01;34 fn= ln=32 sl=1 rv=1 ne=1", NULL, NULL, {"GREP_COLORS=sl=1:mt=01;34:fn=:rv:ne:zz=5"}, NULL},
	{"GREP_COLORS stops at bad value", {"--color=always", "x"}, RUN,
	 "ln=4 ms=01;31 fn=35", NULL, NULL, {"GREP_COLORS=ln=4:ms=01;3x:fn=33"}, NULL},
	{"GREP_COLORS stops at empty name", {"--color=always", "x"}, RUN,
	 "sl=1 fn=35", NULL, NULL, {"GREP_COLORS=sl=1:=5:fn=33"}, NULL},
	{"GREP_COLORS mt without value copies ms", {"--color=always", "x"}, RUN,
	 "ms=7 mc=7", NULL, NULL, {"GREP_COLORS=mc=1:ms=7:mt"}, NULL},
	{"GREP_COLORS ignored without colour", {"x"}, RUN, "ms=01;31 rv=0", NULL, NULL, {"GREP_COLORS=ms=7:rv"}, NULL},
	{"GREP_COLOR warns", {"--color=always", "x"}, RUN, "ms=01;32 mc=01;32", NULL,
	 "acgrep: warning: GREP_COLOR='01;32' is deprecated; use GREP_COLORS='mt=01;32'\n", {"GREP_COLOR=01;32"}, NULL},
	{"GREP_COLOR overridden by mt", {"--color=always", "x"}, RUN, "ms=1 mc=1", NULL, NULL,
	 {"GREP_COLOR=01;32", "GREP_COLORS=mt=1"}, NULL},
	{"GREP_COLOR half overridden", {"--color=always", "x"}, RUN, "ms=1 mc=01;32", NULL,
	 "acgrep: warning: GREP_COLOR='01;32' is deprecated; use GREP_COLORS='mt=01;32'\n",
	 {"GREP_COLOR=01;32", "GREP_COLORS=ms=1"}, NULL},
	{"GREP_COLOR malformed ignored", {"--color=always", "x"}, RUN, "ms=01;31", NULL, NULL, {"GREP_COLOR=1;3x"}, NULL},
	{"GREP_COLOR silent without colour", {"x"}, RUN, "ms=01;31", NULL, NULL, {"GREP_COLOR=01;32"}, NULL},

	/* help, version, extras */
	{"--help", {"--help"}, 0, NULL, "~Usage: acgrep [OPTION]... PATTERNS [FILE]...\n", NULL, {0}, NULL},
	{"--help with pattern", {"--help", "x", "f"}, 0, NULL, "~Usage: acgrep", NULL, {0}, NULL},
	{"--help then bad option", {"--help", "-k"}, 2, NULL, NULL, "acgrep: invalid option -- 'k'\n" USAGE, {0}, NULL},
	{"-V", {"-V"}, 0, NULL, "~acgrep 0.1.0", NULL, {0}, NULL},
	{"-V beats --help", {"--help", "--version"}, 0, NULL, "~acgrep 0.1.0", NULL, {0}, NULL},
	{"extras", {"--mmap", "--engine=pcre2", "--buffer-size=1", "--scan-path=memchr", "x"}, RUN,
	 "io=mmap engine=pcre2 chunk=1 scan=3", NULL, NULL, {0}, NULL},
	{"--no-mmap", {"--mmap", "--no-mmap", "--engine=ac", "--scan-path=dfa", "x"}, RUN,
	 "io=read engine=ac scan=1", NULL, NULL, {0}, NULL},
	{"bad engine", {"--engine=re2", "x"}, 2, NULL, NULL,
	 "acgrep: invalid argument 're2' for '--engine'\nValid arguments are:\n  - 'ac'\n  - 'pcre2'\n" USAGE, {0}, NULL},
	{"bad scan path", {"--scan-path=simd", "x"}, 2, NULL, NULL,
	 "~acgrep: invalid argument 'simd' for '--scan-path'\n", {0}, NULL},
	{"bad buffer size", {"--buffer-size=1k", "x"}, 2, NULL, NULL, "acgrep: 1k: invalid buffer size\n", {0}, NULL},
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
	};
	struct { const char *k; const char *v; } strs[] = {
		{"label", nn(c->label)}, {"order", nn(c->filter_order)}, {"sep", nn(c->group_separator)},
		{"bin", bins[c->binary]}, {"io", ios[c->io]},
		{"engine", c->engine == ENGINE_PCRE2 ? "pcre2" : "ac"},
		{"rec", c->recurse == RECURSE_NONE ? "0" : c->recurse == RECURSE_ALL_LINKS ? "R" : "r"},
		{"dirs", c->directories == DIRS_READ ? "read" : c->directories == DIRS_SKIP ? "skip" : "recurse"},
		{"devs", c->devices == DEVS_READ ? "read" : "skip"},
		{"list", c->list == LIST_NONE ? "N" : c->list == LIST_MATCHING ? "l" : "L"},
		{"ms", c->colors.selected_match}, {"mc", c->colors.context_match},
		{"sl", c->colors.selected_line}, {"cx", c->colors.context_line},
		{"fn", c->colors.file_name}, {"ln", c->colors.line_number},
		{"bn", c->colors.byte_offset}, {"se", c->colors.separator},
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
	static const struct tcase c_locale = {"C locale", {"x"}, RUN, "utf8=0", NULL, NULL, {0}, NULL};
	static const struct tcase utf8_locale = {"UTF-8 locale", {"x"}, RUN, "utf8=1", NULL, NULL, {0}, NULL};
	/* gnulib's quote() as grep 3.8 prints it under C.UTF-8 */
	static const struct tcase utf8_quotes = {"-d quoted in UTF-8", {"-d", "a'b\xe2\x80\x99\xc3\xa9\x80", "x"},
		1, NULL, NULL, "acgrep: invalid argument \u2018a'b\\\u2019\u00e9\\200\u2019 for \u2018--directories\u2019\n"
		"Valid arguments are:\n  - \u2018read\u2019\n  - \u2018recurse\u2019\n  - \u2018skip\u2019\n" USAGE,
		{0}, NULL};
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
