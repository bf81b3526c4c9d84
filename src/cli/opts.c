/* SPDX-License-Identifier: MIT */
/* opts.c - the command line: option semantics, validation, --help, --version.
 *
 * Owns: turning argv and the environment (GREP_COLORS, GREP_COLOR, NO_COLOR,
 * TERM, the locale's codeset) into a struct config, with GNU grep 3.8's
 * option syntax, precedence rules and diagnostics ("grep" spelt "acgrep").
 * Knows nothing of searching.  The option tables and the grep-compatible
 * resolution of long-option abbreviations are in opts_argv.c; the pattern
 * list (-e, -f) and reading the files options name, in opts_patterns.c;
 * tagged lists (--tagged-file) and the patterns' tags, in opts_tags.c;
 * the list options (--include, --exclude..., --files-from), in opts_lists.c.
 *
 * Everything opts_parse allocates hangs off the config (pattern storage,
 * operand and glob arrays) or off cfg->opts_private (the argv copy handed
 * to getopt_long, copies of environment strings and of --exclude-from
 * files) and is released by opts_free.
 */
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"
#include "grow.h"
#include "help.h"
#include "opts.h"
#include "opts_argv.h"
#include "opts_color.h"
#include "opts_compiled.h"
#include "opts_internal.h"
#include "opts_patterns.h"
#include "opts_range.h"
#include "opts_report.h"
#include "opts_tags.h"

#define DEFAULT_LABEL "(standard input)"
#define DEFAULT_GROUP_SEPARATOR "--"


/* ---- diagnostics ---- */

static int usage_error(void)
{
	fputs("Usage: " PROG " [OPTION]... PATTERNS [FILE]...\n"
	      "Try '" PROG " --help' for more information.\n", stderr);
	return 2;
}

int opts_oom(void)
{
	fputs(PROG ": memory exhausted\n", stderr);
	return 2;
}

int opts_usage_error(void)
{
	return usage_error();
}

/* ---- numbers ---- */

enum num_status { NUM_OK, NUM_OVERFLOW, NUM_INVALID };

/* Decimal, as grep's xstrtoimax(..., 10, ..., ""): leading blanks and a
 * sign allowed, nothing after the digits; out-of-range values saturate. */
static enum num_status parse_num(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return NUM_INVALID;
	*out = v;
	return errno == ERANGE ? NUM_OVERFLOW : NUM_OK;
}

/* -A/-B/-C/-NUM argument: a non-negative number, huge ones saturating.
 * Returns false after printing grep's message. */
static bool context_arg(const char *s, long long *out)
{
	long long v;
	if (parse_num(s, &v) == NUM_INVALID || v < 0) {
		fprintf(stderr, PROG ": %s: invalid context length argument\n", s);
		return false;
	}
	*out = v;
	return true;
}

/* ---- the parser ---- */

static const char *const binary_names[] = {"binary", "text", "without-match", NULL};
static const char *const dir_names[] = {"read", "recurse", "skip", NULL};
static const enum dir_action dir_actions[] = {DIRS_READ, DIRS_RECURSE, DIRS_SKIP};
static const char *const engine_names[] = {"ac", "pcre2", NULL};
static const char *const scan_names[] = {"auto", "dfa", "bitmap", "memchr", "teddy", "hash", "rare", NULL};
static const char *const simd_names[] = {"best", "scalar", "ssse3", "avx2", "avx512", "neon", NULL};

/* State of one parse beyond what lands in the config. */
struct parse_state {
	struct pat_builder pb;
	struct tag_builder tb;   /* the tags of --tagged-file lists */
	bool have_keys;          /* some -e, -f or --tagged-file seen (even an empty one) */
	char matcher;            /* the last of -E, -F, -G; 0: none */
	bool show_help, show_version;
	bool follow_links;       /* -R seen: it stays in force through a later -r */
	int color;               /* COLOR_* */
	long long context;       /* -C/-NUM, -1 when unset */
	/* -NUM: digits accumulate while getopt returns digits from one argv
	 * element, exactly as grep tracks it through optind. */
	char digits[32];
	size_t n_digits;
	bool prev_digit;
	int prev_digit_optind;
};

/* Handles one digit of -NUM.  Returns false (message printed) on a number
 * too long to be read, which grep reports as "DIGITS...". */
static bool take_digit(struct parse_state *st, int c, int optind_before)
{
	if (!st->prev_digit || st->prev_digit_optind != optind_before)
		st->n_digits = 0;
	else if (st->digits[0] == '0')
		st->n_digits = 0; /* drop leading zeros */
	if (st->n_digits == 21) { /* grep's buffer holds an intmax_t's 21 chars */
		memcpy(st->digits + st->n_digits, "...", 4);
		long long dummy;
		return context_arg(st->digits, &dummy);
	}
	st->digits[st->n_digits++] = (char)c;
	st->prev_digit = true;
	st->prev_digit_optind = optind_before;
	return true;
}

/* Applies option `c` (argument optarg).  Returns -1 to go on, or an exit
 * status after printing the message. */
static int apply_option(struct config *cfg, struct parse_state *st, int c)
{
	long long v;
	int k;
	switch (c) {
	case 'A': return context_arg(optarg, &cfg->after) ? -1 : 2;
	case 'B': return context_arg(optarg, &cfg->before) ? -1 : 2;
	case 'C': return context_arg(optarg, &st->context) ? -1 : 2;
	case 'E': case 'F': case 'G':
		if (st->matcher && st->matcher != c) {
			fputs(PROG ": conflicting matchers specified\n", stderr);
			return 2;
		}
		st->matcher = (char)c;
		cfg->syntax = c == 'E' ? SYNTAX_EXTENDED : c == 'G' ? SYNTAX_BASIC : SYNTAX_FIXED;
		return -1;
	case 'P':
		fputs(PROG ": -P is not supported: acgrep searches for fixed strings and finite -E/-G "
		      "patterns only\n", stderr);
		return 2;
	case 'T': cfg->initial_tab = true; return -1;
	case 'd': /* as -r and -R, the last of them wins */
		k = opts_argmatch("--directories", optarg, dir_names, false);
		if (k < 0) { /* sic: grep's ARGMATCH_DIE is usage(EXIT_FAILURE) */
			usage_error();
			return 1;
		}
		cfg->directories = dir_actions[k];
		return -1;
	case 'D':
		if (strcmp(optarg, "read") != 0 && strcmp(optarg, "skip") != 0) {
			fputs(PROG ": unknown devices method\n", stderr);
			return 2;
		}
		cfg->devices = optarg[0] == 'r' ? DEVS_READ : DEVS_SKIP;
		return -1;
	case 'U': return -1;
	case 'u':
		fputs(PROG ": warning: --unix-byte-offsets (-u) is obsolete\n", stderr);
		return -1;
	case 'H': cfg->with_filename = 1; return -1;
	case 'h': cfg->with_filename = 0; return -1;
	case 'I': cfg->binary = BINARY_WITHOUT_MATCH; return -1;
	case 'a': cfg->binary = BINARY_TEXT; return -1;
	case 'V': st->show_version = true; return -1;
	case 'b': cfg->byte_offset = true; return -1;
	case 'c': cfg->count = true; return -1;
	case 'e':
		st->have_keys = true;
		return opts_patterns_source(&st->pb, NULL, 0) && opts_patterns_add(&st->pb, optarg, strlen(optarg))
		       ? -1 : opts_oom();
	case 'f':
		st->have_keys = true;
		k = opts_patterns_read_file(&st->pb, optarg);
		return k ? k : -1;
	case OPT_TAGGED_FILE:
		st->have_keys = true;
		k = opts_tags_read_file(&st->tb, &st->pb, optarg);
		return k ? k : -1;
	case 'i': case 'y': cfg->ignore_case = true; return -1;
	case OPT_NO_IGNORE_CASE: cfg->ignore_case = false; return -1;
	case 'L': cfg->list = LIST_NONMATCHING; return -1;
	case 'l': cfg->list = LIST_MATCHING; return -1;
	case 'm':
		if (parse_num(optarg, &v) == NUM_INVALID) {
			fputs(PROG ": invalid max count\n", stderr);
			return 2;
		}
		cfg->max_count = v < 0 ? -1 : v; /* grep 3.8: negative = no limit */
		return -1;
	case 'n': cfg->line_number = true; return -1;
	case 'o': cfg->only_matching = true; return -1;
	case 'q': cfg->quiet = true; return -1;
	case 'R': st->follow_links = true; cfg->directories = DIRS_RECURSE; return -1;
	case 'r': cfg->directories = DIRS_RECURSE; return -1;
	case 's': cfg->no_messages = true; return -1;
	case 'v': cfg->invert = true; return -1;
	case 'w': cfg->word_regexp = true; return -1;
	case 'x': cfg->line_regexp = true; return -1;
	case 'Z': cfg->null_after_name = true; return -1;
	case 'z': cfg->null_data = true; return -1;
	case OPT_BINARY_FILES:
		for (k = 0; binary_names[k] && strcmp(optarg, binary_names[k]) != 0;)
			k++;
		if (!binary_names[k]) {
			fputs(PROG ": unknown binary-files type\n", stderr);
			return 2;
		}
		cfg->binary = (enum binary_mode)k;
		return -1;
	case OPT_COLOR:
		k = optarg ? opts_color_when(optarg) : COLOR_AUTO;
		if (k < 0)
			st->show_help = true; /* sic: grep 3.8 shows --help, exit 0 */
		else
			st->color = k;
		return -1;
	case OPT_INCLUDE: return opts_add_filter(cfg, 'i', optarg) ? -1 : opts_oom();
	case OPT_EXCLUDE: return opts_add_filter(cfg, 'e', optarg) ? -1 : opts_oom();
	case OPT_EXCLUDE_FROM: return opts_add_exclude_from(cfg, optarg);
	case OPT_EXCLUDE_DIR:
		return opts_add_exclude_dir(cfg, optarg) ? -1 : opts_oom();
	case OPT_GROUP_SEP: cfg->group_separator = optarg; return -1;
	case OPT_NO_GROUP_SEP: cfg->group_separator = NULL; return -1;
	case OPT_LABEL: cfg->label = optarg; return -1;
	case OPT_LINE_BUFFERED: cfg->line_buffered = true; return -1;
	case OPT_DECOMPRESS: cfg->decompress = true; return -1;
	case OPT_FILES_FROM:
	case OPT_FILES0_FROM:
		return opts_add_files_from(cfg, optarg, c == OPT_FILES0_FROM ? '\0' : '\n') ? -1 : opts_oom();
	case OPT_HELP: st->show_help = true; return -1;
	case OPT_GENERATE: /* at once, as the option's only action */
		k = opts_argmatch("--generate", optarg, complete_kinds, true);
		return k < 0 ? usage_error() : complete_write(k, stdout);
	case OPT_COUNT_MATCHES: cfg->count_matches = true; return -1;
	case OPT_MMAP: cfg->io = IO_MMAP; return -1;
	case OPT_NO_MMAP: cfg->io = IO_READ; return -1;
	case OPT_ENGINE:
		k = opts_argmatch("--engine", optarg, engine_names, true);
		if (k < 0)
			return usage_error();
		cfg->engine = k ? ENGINE_PCRE2 : ENGINE_AC;
		return -1;
	case OPT_BUFFER_SIZE:
		if (parse_num(optarg, &v) != NUM_OK || v < 0) {
			fprintf(stderr, PROG ": %s: invalid buffer size\n", optarg);
			return 2;
		}
		cfg->read_chunk = (size_t)v;
		return -1;
	case OPT_SCAN_PATH:
		k = opts_argmatch("--scan-path", optarg, scan_names, true);
		if (k < 0)
			return usage_error();
		cfg->scan_path = k;
		return -1;
	case OPT_SIMD:
		k = opts_argmatch("--simd", optarg, simd_names, true);
		if (k < 0)
			return usage_error();
		cfg->simd = k;
		return -1;
	case OPT_THREADS:
		if (parse_num(optarg, &v) != NUM_OK || v < 0 || v > MAX_THREADS) {
			fprintf(stderr, PROG ": %s: invalid number of threads (0 to %d)\n", optarg,
				MAX_THREADS);
			return 2;
		}
		cfg->threads = (unsigned)v;
		return -1;
	case OPT_SEGMENT_SIZE:
		if (parse_num(optarg, &v) != NUM_OK || v < 1) {
			fprintf(stderr, PROG ": %s: invalid segment size\n", optarg);
			return 2;
		}
		cfg->segment_size = (uint64_t)v;
		return -1;
	default:
		k = opts_range_option(cfg, c, optarg);
		if (k != OPTS_NOT_RANGE)
			return k;
		k = opts_compiled_option(cfg, c, optarg);
		if (k != OPTS_NOT_COMPILED)
			return k;
		k = opts_report_option(cfg, c, optarg);
		if (k != OPTS_NOT_REPORT)
			return k;
		return usage_error(); /* '?': getopt_long has printed why */
	}
}

/* The getopt loop.  Returns -1 or an exit status. */
static int parse_loop(int argc, char **argv, struct config *cfg, struct parse_state *st)
{
	for (;;) {
		int before = optind ? optind : 1; /* 0 only before the first call */
		int c = getopt_long(argc, argv, opts_short_options, opts_long_options, NULL);
		if (c >= '0' && c <= '9') {
			if (!take_digit(st, c, before))
				return 2;
			continue;
		}
		if (st->prev_digit) {
			st->digits[st->n_digits] = '\0';
			if (!context_arg(st->digits, &st->context))
				return 2;
			st->prev_digit = false;
		}
		if (c == -1)
			return -1;
		if (c == OPT_AMBIGUOUS) {
			opts_argv_ambiguous(&cfg->opts_private->args, argv[optind - 1]);
			return usage_error();
		}
		int status = apply_option(cfg, st, c);
		if (status >= 0)
			return status;
	}
}

/* grep 3.8 exits 1 at once, reading no input (so -c prints no counts and
 * missing files go unreported), when it is plain that nothing can be
 * selected: -m 0; no patterns at all (-f /dev/null) without -v; only
 * empty patterns with -v and neither -x nor -w.  Not with -L. */
static bool cannot_select(const struct config *cfg)
{
	const struct pattern_set *ps = &cfg->patterns;
	bool all_empty = ps->count > 0;
	for (size_t i = 0; i < ps->count && all_empty; i++)
		all_empty = pattern_at(ps, i).len == 0;
	/* --count-per-pattern: no pattern, no row (-q, -l, -L override it) */
	bool no_rows = ps->count == 0 && cfg->count_per_pattern && !cfg->quiet && cfg->list == LIST_NONE;
	return cfg->max_count == 0 || (ps->count == 0 && !cfg->invert) || no_rows ||
	       (all_empty && cfg->invert && !cfg->line_regexp && !cfg->word_regexp);
}

/* As GNU grep: no pattern at all (-f /dev/null, with -v or -L) matches
 * nothing, done as the empty pattern with -v flipped and -w and -x
 * dropped; this decides colours and -o output too.  False when out of
 * memory. */
static bool no_pattern_as_empty(struct config *cfg)
{
	struct pattern_set *ps = &cfg->patterns;
	free(ps->storage);
	free(ps->end);
	*ps = (struct pattern_set){
		.storage = calloc(1, 1), .end = calloc(1, sizeof *ps->end), .count = 1,
	};
	if (!ps->storage || !ps->end)
		return false; /* opts_free frees what there is */
	cfg->invert = !cfg->invert;
	cfg->word_regexp = cfg->line_regexp = false;
	return true;
}

/* Everything after the options: help/version, the pattern operand,
 * operands, option precedence, colours, locale. */
static int finish(int argc, char **argv, struct config *cfg, struct parse_state *st)
{
	if (st->show_version) {
		help_version(stdout);
		return 0;
	}
	if (st->show_help) {
		help_print(stdout);
		return 0;
	}
	int status = opts_range_action(cfg, argv + optind, argc - optind);
	if (status >= 0)
		return status;
	if (!st->have_keys && !cfg->compiled_path) { /* --compiled: every operand is a FILE */
		if (optind >= argc)
			return usage_error();
		const char *pat = argv[optind++];
		if (!opts_patterns_source(&st->pb, NULL, 0) || !opts_patterns_add(&st->pb, pat, strlen(pat)))
			return opts_oom();
	}
	opts_patterns_finish(&st->pb, &cfg->patterns);

	if (optind < argc) {
		cfg->files = malloc((size_t)(argc - optind) * sizeof *cfg->files);
		if (!cfg->files)
			return opts_oom();
		while (optind < argc)
			cfg->files[cfg->n_files++] = argv[optind++];
	}

	/* -r, -R and -d: the last one decides whether to recurse; -R, once
	 * given, decides how (grep keeps FTS_LOGICAL). */
	cfg->recurse = cfg->directories != DIRS_RECURSE ? RECURSE_NONE
		       : st->follow_links ? RECURSE_ALL_LINKS : RECURSE_CMDLINE_LINKS;

	/* Explicit -A/-B win over -C/-NUM whatever the order. */
	if (cfg->after < 0)
		cfg->after = st->context;
	if (cfg->before < 0)
		cfg->before = st->context;

	/* grep: -q overrides -l and -L, which in turn override -c. */
	if (cfg->quiet)
		cfg->list = LIST_NONE;
	if (config_reports_files(cfg)) {
		cfg->count = false;
		cfg->count_matches = false;
	}

	cfg->utf8_locale = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	/* grep 3.8 exits on -m 0 before it compiles (no syntax error then) */
	bool stops_at_once = cfg->max_count == 0 && cfg->list != LIST_NONMATCHING && !cfg->save_compiled;
	status = stops_at_once ? -1 : opts_patterns_check_regex(cfg, &st->pb);
	if (status >= 0)
		return status;
	status = opts_compiled_finish(cfg, st->have_keys, st->matcher);
	if (status >= 0)
		return status;
	if (cfg->save_compiled) /* the set is written whatever a search would do, tags included */
		return opts_tags_finish(&st->tb, cfg, false) != 0 ? 2 : opts_report_finish(cfg);
	if (cfg->list != LIST_NONMATCHING && cannot_select(cfg))
		return 1;
	bool no_pattern = cfg->patterns.count == 0;
	if (no_pattern && !no_pattern_as_empty(cfg))
		return opts_oom();
	if (opts_tags_finish(&st->tb, cfg, no_pattern) != 0)
		return 2;
	struct opts_private *priv = cfg->opts_private;
	if (!opts_color_setup(cfg, st->color, &priv->legacy_color, &priv->grep_colors))
		return opts_oom();
	status = opts_range_finish(cfg);
	return status >= 0 ? status : opts_report_finish(cfg);
}

int opts_parse(int argc, char **argv, struct config *cfg)
{
	struct parse_state st;
	memset(&st, 0, sizeof st);
	st.context = -1;
	st.color = COLOR_NEVER;
	*cfg = (struct config){
		.max_count = -1, .with_filename = -1, .label = DEFAULT_LABEL,
		.before = -1, .after = -1, .group_separator = DEFAULT_GROUP_SEPARATOR,
		.binary = BINARY_BINARY, .io = IO_AUTO, .engine = ENGINE_AC,
		.recurse = RECURSE_NONE, .directories = DIRS_READ, .devices = DEVS_READ_COMMAND_LINE,
		.colors = opts_default_colors,
	};
	cfg->opts_private = calloc(1, sizeof *cfg->opts_private);
	if (!cfg->opts_private)
		return opts_oom();
	int status = -1;
	if (argc < 1)
		status = usage_error();
	else if (!opts_argv_build(&cfg->opts_private->args, argc, argv))
		status = opts_oom();
	/* getopt_long works on (and permutes) the copy, never on argv */
	char **args = cfg->opts_private->args.argv;
	optind = 0; /* full re-initialisation, so repeated calls work */
	opterr = 1;
	if (status < 0)
		status = parse_loop(argc, args, cfg, &st);
	if (status < 0)
		status = finish(argc, args, cfg, &st);

	opts_patterns_free(&st.pb);
	opts_tags_free(&st.tb);
	if (status >= 0)
		opts_free(cfg);
	return status;
}

void opts_free(struct config *cfg)
{
	opts_compiled_free(cfg); /* a mapped set's list is not ours to free */
	free(cfg->patterns.end);
	free(cfg->patterns.storage);
	memset(&cfg->patterns, 0, sizeof cfg->patterns);
	opts_tags_release(&cfg->tags);
	free(cfg->includes);
	free(cfg->excludes);
	free(cfg->exclude_dirs);
	free(cfg->files);
	free(cfg->files_from);
	cfg->includes = cfg->excludes = cfg->exclude_dirs = cfg->files = NULL;
	cfg->files_from = NULL;
	cfg->filter_order = NULL;
	cfg->n_includes = cfg->n_excludes = cfg->n_exclude_dirs = cfg->n_files = cfg->n_files_from = 0;
	struct opts_private *priv = cfg->opts_private;
	if (priv) {
		for (size_t i = 0; i < priv->n_files; i++)
			free(priv->files[i]);
		free(priv->files);
		opts_argv_free(&priv->args);
		free(priv->legacy_color);
		free(priv->grep_colors);
		free(priv->order);
		free(priv);
		cfg->opts_private = NULL;
	}
	cfg->colors = opts_default_colors; /* no pointers into freed copies */
}
