/* SPDX-License-Identifier: MIT */
/* opts_argv.c - option syntax: the tables, argv as getopt_long is to see
 * it, and the matching of enumerated option arguments.
 *
 * Owns: the getopt_long tables; the resolution of long-option
 * abbreviations with GNU grep 3.8's table rather than acgrep's larger one
 * (see opts_argv.h); gnulib's argmatch and quote() as grep uses them.
 *
 * getopt_long's rule, reproduced by lookup(): an exact name wins;
 * otherwise the first option that NAME abbreviates is taken, unless a
 * later one that NAME also abbreviates differs from it in has_arg, flag or
 * val (so --col, matching --color and --colour, is not ambiguous).
 */
#include <ctype.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
#include <wctype.h>

#include "opts_argv.h"

/* grep 3.8's string: digits are options so that -NUM works.  No -X (grep's
 * undocumented matcher selector). */
const char opts_short_options[] = "0123456789A:B:C:D:EFGHIPTUVabcd:e:f:hiLlm:noqRrsuvwxyZz";

/* Options that are synonyms share has_arg/flag/val, as in grep, so that
 * getopt_long does not call their common abbreviations ambiguous. */
const struct option opts_long_options[] = {
	/* grep 3.8's table, in its order (its "ambiguous" messages list
	 * options in this order) */
	{"basic-regexp", no_argument, NULL, 'G'},
	{"extended-regexp", no_argument, NULL, 'E'},
	{"fixed-regexp", no_argument, NULL, 'F'}, /* grep's undocumented alias */
	{"fixed-strings", no_argument, NULL, 'F'},
	{"perl-regexp", no_argument, NULL, 'P'},
	{"after-context", required_argument, NULL, 'A'},
	{"before-context", required_argument, NULL, 'B'},
	{"binary-files", required_argument, NULL, OPT_BINARY_FILES},
	{"byte-offset", no_argument, NULL, 'b'},
	{"context", required_argument, NULL, 'C'},
	{"color", optional_argument, NULL, OPT_COLOR},
	{"colour", optional_argument, NULL, OPT_COLOR},
	{"count", no_argument, NULL, 'c'},
	{"devices", required_argument, NULL, 'D'},
	{"directories", required_argument, NULL, 'd'},
	{"exclude", required_argument, NULL, OPT_EXCLUDE},
	{"exclude-from", required_argument, NULL, OPT_EXCLUDE_FROM},
	{"exclude-dir", required_argument, NULL, OPT_EXCLUDE_DIR},
	{"file", required_argument, NULL, 'f'},
	{"files-with-matches", no_argument, NULL, 'l'},
	{"files-without-match", no_argument, NULL, 'L'},
	{"group-separator", required_argument, NULL, OPT_GROUP_SEP},
	{"help", no_argument, NULL, OPT_HELP},
	{"include", required_argument, NULL, OPT_INCLUDE},
	{"ignore-case", no_argument, NULL, 'i'},
	{"no-ignore-case", no_argument, NULL, OPT_NO_IGNORE_CASE},
	{"initial-tab", no_argument, NULL, 'T'},
	{"label", required_argument, NULL, OPT_LABEL},
	{"line-buffered", no_argument, NULL, OPT_LINE_BUFFERED},
	{"line-number", no_argument, NULL, 'n'},
	{"line-regexp", no_argument, NULL, 'x'},
	{"max-count", required_argument, NULL, 'm'},
	{"no-filename", no_argument, NULL, 'h'},
	{"no-group-separator", no_argument, NULL, OPT_NO_GROUP_SEP},
	{"no-messages", no_argument, NULL, 's'},
	{"null", no_argument, NULL, 'Z'},
	{"null-data", no_argument, NULL, 'z'},
	{"only-matching", no_argument, NULL, 'o'},
	{"quiet", no_argument, NULL, 'q'},
	{"recursive", no_argument, NULL, 'r'},
	{"dereference-recursive", no_argument, NULL, 'R'},
	{"regexp", required_argument, NULL, 'e'},
	{"invert-match", no_argument, NULL, 'v'},
	{"silent", no_argument, NULL, 'q'},
	{"text", no_argument, NULL, 'a'},
	{"binary", no_argument, NULL, 'U'},
	{"unix-byte-offsets", no_argument, NULL, 'u'}, /* obsolete, warns */
	{"version", no_argument, NULL, 'V'},
	{"with-filename", no_argument, NULL, 'H'},
	{"word-regexp", no_argument, NULL, 'w'},
	/* acgrep's own */
	{"count-matches", no_argument, NULL, OPT_COUNT_MATCHES},
	{"mmap", no_argument, NULL, OPT_MMAP},
	{"no-mmap", no_argument, NULL, OPT_NO_MMAP},
	{"engine", required_argument, NULL, OPT_ENGINE},
	{"buffer-size", required_argument, NULL, OPT_BUFFER_SIZE}, /* hidden */
	{"scan-path", required_argument, NULL, OPT_SCAN_PATH},     /* hidden */
	{"simd", required_argument, NULL, OPT_SIMD},               /* hidden */
	{"threads", required_argument, NULL, OPT_THREADS},
	{"segment-size", required_argument, NULL, OPT_SEGMENT_SIZE}, /* hidden */
	{"files-from", required_argument, NULL, OPT_FILES_FROM},
	{"files0-from", required_argument, NULL, OPT_FILES0_FROM},
	{"decompress", no_argument, NULL, OPT_DECOMPRESS},
	{"generate", required_argument, NULL, OPT_GENERATE},
	/* tags and --show-pattern */
	{"tagged-file", required_argument, NULL, OPT_TAGGED_FILE},
	{"show-pattern", optional_argument, NULL, OPT_SHOW_PATTERN},
	{"show-all-patterns", optional_argument, NULL, OPT_SHOW_ALL_PATTERNS},

	/* per-pattern counts, --overlapping, --all-patterns */
	{"count-per-pattern", no_argument, NULL, OPT_COUNT_PER_PATTERN},
	{"include-zero", no_argument, NULL, OPT_INCLUDE_ZERO},
	{"overlapping", no_argument, NULL, OPT_OVERLAPPING},
	{"all-patterns", no_argument, NULL, OPT_ALL_PATTERNS},

	/* --json and --stats */
	{"json", no_argument, NULL, OPT_JSON},
	{"stats", no_argument, NULL, OPT_STATS},

	/* scaling out */
	{"range", required_argument, NULL, OPT_RANGE},
	{"ranges", required_argument, NULL, OPT_RANGES},
	{"records", no_argument, NULL, OPT_RECORDS},
	{"merge", no_argument, NULL, OPT_MERGE},
	{"compiled", required_argument, NULL, OPT_COMPILED},
	{"save-compiled", required_argument, NULL, OPT_SAVE_COMPILED},
	/* the marker opts_argv_build puts in place of a grep-ambiguous
	 * argument; no option a user types starts with \1 */
	{"\1ambiguous", no_argument, NULL, OPT_AMBIGUOUS},
	{NULL, 0, NULL, 0},
};

enum {
	N_GREP = 50, /* grep 3.8's long options: the head of opts_long_options */
	N_ALL = sizeof opts_long_options / sizeof opts_long_options[0] - 1,
	LOOKUP_NONE = -1, LOOKUP_AMBIGUOUS = -2,
};

#define MARKER "--\1ambiguous"

_Static_assert(N_ALL == N_GREP + 29, "grep's table is the head of opts_long_options");

/* getopt_long's lookup of the option NAME (its first `len` bytes) among
 * the first `n` entries of the table: the index of the option meant, or
 * LOOKUP_NONE or LOOKUP_AMBIGUOUS.  *exact tells whether NAME is whole. */
static int lookup(const char *name, size_t len, size_t n, bool *exact)
{
	const struct option *t = opts_long_options;
	int found = LOOKUP_NONE;
	*exact = false;
	for (size_t i = 0; i < n; i++)
		if (strlen(t[i].name) == len && strncmp(t[i].name, name, len) == 0) {
			*exact = true;
			return (int)i;
		}
	for (size_t i = 0; i < n; i++) {
		if (strncmp(t[i].name, name, len) != 0)
			continue;
		if (found == LOOKUP_NONE)
			found = (int)i;
		else if (t[i].has_arg != t[found].has_arg || t[i].flag != t[found].flag ||
			 t[i].val != t[found].val)
			return LOOKUP_AMBIGUOUS;
	}
	return found;
}

/* Whether the short-option cluster after the '-' ends in an option that
 * takes the next element as its argument ("-e", "-ie"; not "-efoo"). */
static bool short_takes_next(const char *p)
{
	for (; *p; p++) {
		const char *o = *p == ':' ? NULL : strchr(opts_short_options, *p);
		if (o && o[1] == ':')
			return p[1] == '\0';
	}
	return false;
}

/* Puts `text` (now owned by av) in place of av->argv[i]. */
static bool replace(struct opts_argv *av, int i, char *text)
{
	if (!text)
		return false;
	av->rewrites[av->n_rewrites].text = text;
	av->rewrites[av->n_rewrites++].orig = av->argv[i];
	av->argv[i] = text;
	return true;
}

/* "--NAME[=VALUE]" with NAME (`len` bytes at `name`) spelt out as the
 * full name of option k. */
static char *spell_out(const char *name, size_t len, int k)
{
	const char *full = opts_long_options[k].name, *rest = name + len;
	size_t n = 2 + strlen(full) + strlen(rest) + 1;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "--%s%s", full, rest);
	return s;
}

bool opts_argv_build(struct opts_argv *av, int argc, char **argv)
{
	static char prog_name[] = PROG;
	memset(av, 0, sizeof *av);
	size_t n = argc > 0 ? (size_t)argc : 1;
	av->argv = malloc((n + 1) * sizeof *av->argv);
	av->rewrites = malloc(n * sizeof *av->rewrites);
	if (!av->argv || !av->rewrites)
		return false;
	av->argv[0] = prog_name;
	for (int i = 1; i < argc; i++)
		av->argv[i] = argv[i];
	av->argv[n] = NULL;

	bool posix = getenv("POSIXLY_CORRECT") != NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = av->argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || a[1] == '\0') { /* an operand */
			if (posix)
				break;
			continue;
		}
		if (a[1] != '-') {
			i += short_takes_next(a + 1);
			continue;
		}
		const char *name = a + 2;
		size_t len = strcspn(name, "=");
		bool exact;
		int k = lookup(name, len, N_ALL, &exact);
		if (!exact) {
			int g = lookup(name, len, N_GREP, &exact);
			if (g == LOOKUP_AMBIGUOUS) {
				if (!replace(av, i, strdup(MARKER)))
					return false;
				continue;
			}
			if (g >= 0) {
				if (!replace(av, i, spell_out(name, len, g)))
					return false;
				k = g;
			}
		}
		/* getopt_long takes the next element as the argument */
		if (k >= 0 && opts_long_options[k].has_arg == required_argument && !name[len])
			i++;
	}
	return true;
}

void opts_argv_ambiguous(const struct opts_argv *av, char *seen)
{
	static struct option grep_table[N_GREP + 1];
	memcpy(grep_table, opts_long_options, N_GREP * sizeof grep_table[0]);
	char *orig = seen; /* unless it is a marker: a user's own "--\1..." */
	for (size_t i = 0; i < av->n_rewrites; i++)
		if (av->rewrites[i].text == seen)
			orig = av->rewrites[i].orig;
	/* Let getopt_long itself word it, from grep's table alone. */
	char *mini[] = {av->argv[0], orig, NULL};
	optind = 0;
	opterr = 1;
	getopt_long(2, mini, "", grep_table, NULL);
	optind = 0;
}

void opts_argv_free(struct opts_argv *av)
{
	for (size_t i = 0; i < av->n_rewrites; i++)
		free(av->rewrites[i].text);
	free(av->rewrites);
	free(av->argv);
	memset(av, 0, sizeof *av);
}

/* ---- option arguments ---- */

/* Writes `s` to stderr quoted as gnulib's quote() does (what grep's
 * argmatch messages use): in \u2018...\u2019 in a UTF-8 locale, else in
 * '...'; C escapes for control characters, backslash and the closing
 * quote; \ooo for other bytes that are not printable characters. */
static void put_quoted(const char *s)
{
	static const char esc_from[] = "\a\b\f\n\r\t\v\\", esc_to[] = "abfnrtv\\";
	bool utf8 = strcasecmp(nl_langinfo(CODESET), "UTF-8") == 0;
	const char *rq = utf8 ? "\xe2\x80\x99" : "'";
	size_t n = strlen(s), rq_len = strlen(rq);
	mbstate_t mbs;
	memset(&mbs, 0, sizeof mbs);
	fputs(utf8 ? "\xe2\x80\x98" : "'", stderr);
	for (size_t i = 0; i < n;) {
		const char *e = strchr(esc_from, s[i]);
		if (e) {
			fprintf(stderr, "\\%c", esc_to[e - esc_from]);
			i++;
			continue;
		}
		if (strncmp(s + i, rq, rq_len) == 0)
			fputc('\\', stderr);
		size_t m = 1;
		bool printable = isprint((unsigned char)s[i]);
		if (MB_CUR_MAX > 1) {
			wchar_t wc;
			m = mbrtowc(&wc, s + i, n - i, &mbs);
			printable = m <= n - i && iswprint((wint_t)wc);
			if (m == (size_t)-1)
				m = 1;
			else if (m > n - i)
				m = n - i;
			if (!printable)
				memset(&mbs, 0, sizeof mbs);
		}
		for (size_t j = 0; j < m; j++, i++)
			if (printable)
				fputc(s[i], stderr);
			else
				fprintf(stderr, "\\%03o", (unsigned char)s[i]);
	}
	fputs(rq, stderr);
}

int opts_argmatch(const char *option, const char *arg, const char *const *names, bool exact)
{
	size_t len = strlen(arg);
	int found = -1;
	bool ambiguous = false;
	for (int i = 0; names[i]; i++) {
		if (strcmp(arg, names[i]) == 0)
			return i;
		if (!exact && strncmp(arg, names[i], len) == 0) {
			if (found >= 0)
				ambiguous = true;
			else
				found = i;
		}
	}
	if (found >= 0 && !ambiguous)
		return found;
	fprintf(stderr, PROG ": %s argument ", ambiguous ? "ambiguous" : "invalid");
	put_quoted(arg);
	fputs(" for ", stderr);
	put_quoted(option);
	fputs("\nValid arguments are:", stderr);
	for (; *names; names++) {
		fputs("\n  - ", stderr);
		put_quoted(*names);
	}
	fputc('\n', stderr);
	return -1;
}
