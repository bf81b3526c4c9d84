/* opts.c - the command line: getopt_long table, validation, --help, --version.
 *
 * Owns: turning argv and the environment (GREP_COLORS, GREP_COLOR, NO_COLOR,
 * TERM, the locale's codeset) into a struct config, with GNU grep 3.8's
 * option syntax, precedence rules and diagnostics ("grep" spelt "acgrep").
 * Reads -f pattern files.  Knows nothing of searching.
 *
 * Everything opts_parse allocates hangs off the config (pattern storage,
 * operand and glob arrays) or off cfg->opts_private (copies of environment
 * strings and of --exclude-dir globs) and is released by opts_free.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "help.h"
#include "opts.h"

#define PROG "acgrep"
#define DEFAULT_LABEL "(standard input)"
#define DEFAULT_GROUP_SEPARATOR "--"

/* Allocations that the config's own fields cannot own (const pointers). */
struct opts_private {
	char *legacy_color;  /* copy of GREP_COLOR when it is well formed */
	char *grep_colors;   /* writable copy of GREP_COLORS, cut at ':' and '=' */
	char **dirs;         /* --exclude-dir globs, trailing slashes stripped */
	size_t n_dirs;
	char *order;         /* cfg->filter_order: 'i'/'e' per --include/--exclude */
	size_t n_order, cap_order;
};

/* Long options without a short equivalent. */
enum {
	OPT_BINARY_FILES = CHAR_MAX + 1, OPT_COLOR, OPT_EXCLUDE, OPT_EXCLUDE_DIR,
	OPT_INCLUDE, OPT_GROUP_SEP, OPT_NO_GROUP_SEP, OPT_LABEL, OPT_LINE_BUFFERED,
	OPT_NO_IGNORE_CASE, OPT_HELP, OPT_COUNT_MATCHES, OPT_MMAP, OPT_NO_MMAP,
	OPT_ENGINE, OPT_BUFFER_SIZE, OPT_SCAN_PATH,
};

/* Digits are options so that -NUM works as in grep.  No -d, -D, -T, -X. */
static const char short_options[] = "0123456789A:B:C:EFGHIPUVabce:f:hiLlm:noqRrsuvwxyZz";

/* Options that are synonyms share has_arg/flag/val, so getopt_long does
 * not call their common abbreviations ambiguous (--col, --qu...). */
static const struct option long_options[] = {
	/* grep 3.8's order, which its "ambiguous" messages list options in */
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
	{"exclude", required_argument, NULL, OPT_EXCLUDE},
	{"exclude-dir", required_argument, NULL, OPT_EXCLUDE_DIR},
	{"file", required_argument, NULL, 'f'},
	{"files-with-matches", no_argument, NULL, 'l'},
	{"files-without-match", no_argument, NULL, 'L'},
	{"group-separator", required_argument, NULL, OPT_GROUP_SEP},
	{"help", no_argument, NULL, OPT_HELP},
	{"include", required_argument, NULL, OPT_INCLUDE},
	{"ignore-case", no_argument, NULL, 'i'},
	{"no-ignore-case", no_argument, NULL, OPT_NO_IGNORE_CASE},
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
	{NULL, 0, NULL, 0},
};

/* ---- diagnostics ---- */

static int usage_error(void)
{
	fputs("Usage: " PROG " [OPTION]... PATTERNS [FILE]...\n"
	      "Try '" PROG " --help' for more information.\n", stderr);
	return 2;
}

static int oom(void)
{
	fputs(PROG ": memory exhausted\n", stderr);
	return 2;
}

/* grep's xargmatch-style complaint about an enumerated option argument,
 * followed by the usage lines.  `valid` is NULL-terminated. */
static int bad_choice(const char *option, const char *arg, const char *const *valid)
{
	fprintf(stderr, PROG ": invalid argument '%s' for '--%s'\nValid arguments are:\n",
		arg, option);
	for (; *valid; valid++)
		fprintf(stderr, "  - '%s'\n", *valid);
	return usage_error();
}

/* Returns the index of `arg` in the NULL-terminated `names`, or -1. */
static int choice(const char *arg, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	return -1;
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

/* ---- patterns ---- */

/* Returns `p` with room for `need` elements of `size` bytes (capacity
 * *cap, doubled as needed), or NULL with `p` untouched when out of memory. */
static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	void *np = ncap > SIZE_MAX / size ? NULL : realloc(p, ncap * size);
	if (np)
		*cap = ncap;
	return np;
}

struct pat_builder {
	char *bytes;         /* all patterns, each followed by a NUL */
	size_t len, cap;
	size_t (*spans)[2];  /* offset in bytes, length */
	size_t n, ncap;
};

static bool pb_add(struct pat_builder *pb, const char *p, size_t len)
{
	char *nb = grow(pb->bytes, &pb->cap, pb->len + len + 1, 1);
	size_t (*ns)[2] = nb ? grow(pb->spans, &pb->ncap, pb->n + 1, sizeof *ns) : NULL;
	if (nb)
		pb->bytes = nb;
	if (!ns)
		return false;
	pb->spans = ns;
	memcpy(pb->bytes + pb->len, p, len);
	pb->bytes[pb->len + len] = '\0';
	pb->spans[pb->n][0] = pb->len;
	pb->spans[pb->n++][1] = len;
	pb->len += len + 1;
	return true;
}

/* Splits `text` on '\n'.  An -e argument "a\n" is two patterns ("a" and
 * ""), as in grep; a pattern file's final newline only ends its last
 * line (`file` = true), and an empty file contributes nothing. */
static bool pb_split(struct pat_builder *pb, const char *text, size_t len, bool file)
{
	if (file && len == 0)
		return true;
	if (file && text[len - 1] == '\n')
		len--;
	for (;;) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		if (!pb_add(pb, text, n))
			return false;
		if (!nl)
			return true;
		text += n + 1;
		len -= n + 1;
	}
}

/* Moves the builder's contents into *set. */
static bool pb_finish(struct pat_builder *pb, struct pattern_set *set)
{
	set->items = pb->n ? malloc(pb->n * sizeof *set->items) : NULL;
	if (pb->n && !set->items)
		return false;
	for (size_t i = 0; i < pb->n; i++) {
		set->items[i].bytes = pb->bytes + pb->spans[i][0];
		set->items[i].len = pb->spans[i][1];
	}
	set->count = pb->n;
	set->storage = pb->bytes;
	free(pb->spans);
	memset(pb, 0, sizeof *pb);
	return true;
}

/* Reads all of -f `path` ("-" is standard input) and adds its lines.
 * Returns 0, or 2 after printing "acgrep: PATH: strerror" as grep does. */
static int read_pattern_file(struct pat_builder *pb, const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int err = fd < 0 ? errno : 0;
	while (!err) {
		char *nb = grow(buf, &cap, len + 65536, 1);
		if (!nb) {
			err = ENOMEM;
			break;
		}
		buf = nb;
		ssize_t r = read(fd, buf + len, cap - len);
		if (r == 0)
			break;
		if (r > 0)
			len += (size_t)r;
		else if (errno != EINTR)
			err = errno;
	}
	if (fd >= 0 && !is_stdin)
		close(fd);
	if (!err && !pb_split(pb, buf, len, true))
		err = ENOMEM;
	free(buf);
	if (err == ENOMEM)
		return oom();
	if (err)
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(err));
	return err ? 2 : 0;
}

/* ---- lists ---- */

static bool push(const char ***arr, size_t *n, const char *s)
{
	const char **na = realloc(*arr, (*n + 1) * sizeof *na);
	if (!na)
		return false;
	na[(*n)++] = s;
	*arr = na;
	return true;
}

/* --include (which = 'i') or --exclude ('e'): the glob goes to its list
 * and its letter to cfg->filter_order, which keeps their relative order. */
static bool add_filter(struct config *cfg, char which, const char *glob)
{
	struct opts_private *priv = cfg->opts_private;
	char *no = grow(priv->order, &priv->cap_order, priv->n_order + 2, 1);
	if (!no)
		return false;
	priv->order = no;
	if (!(which == 'i' ? push(&cfg->includes, &cfg->n_includes, glob)
			   : push(&cfg->excludes, &cfg->n_excludes, glob)))
		return false;
	no[priv->n_order++] = which;
	no[priv->n_order] = '\0';
	cfg->filter_order = no;
	return true;
}

/* --exclude-dir=GLOB: grep strips trailing slashes ("dir/" is "dir",
 * "/" stays "/"); a private copy is kept so argv is left alone. */
static bool add_exclude_dir(struct config *cfg, const char *glob)
{
	struct opts_private *priv = cfg->opts_private;
	char **nd = realloc(priv->dirs, (priv->n_dirs + 1) * sizeof *nd);
	char *copy = nd ? strdup(glob) : NULL;
	if (nd)
		priv->dirs = nd;
	if (!copy)
		return false;
	priv->dirs[priv->n_dirs++] = copy;
	for (size_t len = strlen(copy); len > 1 && copy[len - 1] == '/';)
		copy[--len] = '\0';
	return push(&cfg->exclude_dirs, &cfg->n_exclude_dirs, copy);
}

/* ---- colour ---- */

enum { COLOR_NEVER, COLOR_ALWAYS, COLOR_AUTO };

/* --color's WHEN, case-insensitively as grep; -1 when unknown. */
static int color_when(const char *arg)
{
	static const char *const words[] = {"never", "no", "none", "always", "yes",
					    "force", "auto", "tty", "if-tty"};
	for (int i = 0; i < 9; i++)
		if (strcasecmp(arg, words[i]) == 0)
			return i / 3; /* COLOR_NEVER, COLOR_ALWAYS, COLOR_AUTO */
	return -1;
}

/* grep's defaults: ms=01;31:mc=01;31:sl=:cx=:fn=35:ln=32:bn=32:se=36 */
static const struct color_spec default_colors = {
	"01;31", "01;31", "", "", "35", "32", "32", "36", false, false,
};

/* The string capability `name` of GREP_COLORS, or NULL when unknown. */
static const char **color_slot(struct color_spec *c, const char *name)
{
	static const char names[][3] = {"ms", "mc", "sl", "cx", "fn", "ln", "bn", "se"};
	const char **slots[] = {&c->selected_match, &c->context_match, &c->selected_line,
				&c->context_line, &c->file_name, &c->line_number,
				&c->byte_offset, &c->separator};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return slots[i];
	return NULL;
}

/* One GREP_COLORS capability; `val` is NULL when there was no '='.
 * Unknown names are ignored, as grep does for forward compatibility. */
static void apply_color_cap(struct color_spec *c, const char *name, const char *val)
{
	if (strcmp(name, "mt") == 0) {
		/* grep: mt=V sets ms; then mc takes ms's value (even without =V) */
		if (val)
			c->selected_match = val;
		c->context_match = c->selected_match;
	} else if (strcmp(name, "rv") == 0) {
		c->reverse = true;
	} else if (strcmp(name, "ne") == 0) {
		c->no_erase = true;
	} else if (val) {
		const char **slot = color_slot(c, name);
		if (slot)
			*slot = val;
	}
}

/* Parses a writable GREP_COLORS string in place, grep's way: "name=val"
 * entries split by ':', values of digits and ';' only.  At the first
 * malformed character parsing stops; entries before it stay applied. */
static void parse_grep_colors(struct color_spec *c, char *s)
{
	char *name = s, *val = NULL, *q = s;
	for (;;) {
		char ch = *q;
		if (ch == ':' || ch == '\0') {
			*q++ = '\0';
			apply_color_cap(c, name, val);
			if (ch == '\0')
				return;
			name = q;
			val = NULL;
		} else if (ch == '=') {
			if (q == name || val)
				return;
			*q++ = '\0';
			val = q;
		} else if (!val || ch == ';' || isdigit((unsigned char)ch)) {
			q++;
		} else {
			return;
		}
	}
}

/* Decides cfg->color and fills cfg->colors.  auto: standard output is a
 * terminal, TERM is set and not "dumb", and NO_COLOR is unset or empty
 * (NO_COLOR is acgrep's addition; grep 3.8 ignores it; it never turns off
 * --color=always).  Colours come from GREP_COLOR (deprecated, warned about
 * when it takes effect) overridden by GREP_COLORS, only when colouring. */
static bool setup_color(struct config *cfg, int when)
{
	cfg->colors = default_colors;
	if (when == COLOR_AUTO) {
		const char *term = getenv("TERM");
		const char *no_color = getenv("NO_COLOR");
		cfg->color = !cfg->quiet && isatty(STDOUT_FILENO) && term &&
			     strcmp(term, "dumb") != 0 && !(no_color && *no_color);
	} else {
		cfg->color = when == COLOR_ALWAYS;
	}
	if (!cfg->color)
		return true;

	struct opts_private *priv = cfg->opts_private;
	const char *legacy = getenv("GREP_COLOR");
	if (legacy && *legacy && strspn(legacy, "0123456789;") == strlen(legacy)) {
		priv->legacy_color = strdup(legacy);
		if (!priv->legacy_color)
			return false;
		cfg->colors.selected_match = priv->legacy_color;
		cfg->colors.context_match = priv->legacy_color;
	}
	const char *colors = getenv("GREP_COLORS");
	if (colors && *colors) {
		priv->grep_colors = strdup(colors);
		if (!priv->grep_colors)
			return false;
		parse_grep_colors(&cfg->colors, priv->grep_colors);
	}
	if (priv->legacy_color && (cfg->colors.selected_match == priv->legacy_color ||
				   cfg->colors.context_match == priv->legacy_color))
		fprintf(stderr, PROG ": warning: GREP_COLOR='%s' is deprecated; use GREP_COLORS='mt=%s'\n",
			priv->legacy_color, priv->legacy_color);
	return true;
}

/* ---- the parser ---- */

static const char *const binary_names[] = {"binary", "text", "without-match", NULL};
static const char *const engine_names[] = {"ac", "pcre2", NULL};
static const char *const scan_names[] = {"auto", "dfa", "bitmap", "memchr", NULL};

/* State of one parse beyond what lands in the config. */
struct parse_state {
	struct pat_builder pb;
	bool have_keys;          /* some -e or -f seen (even an empty -f) */
	bool show_help, show_version;
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
	case 'E': case 'G': case 'P':
		fprintf(stderr, PROG ": -%c is not supported: acgrep searches for fixed strings only\n", c);
		return 2;
	case 'F': case 'U': return -1;
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
		return pb_split(&st->pb, optarg, strlen(optarg), false) ? -1 : oom();
	case 'f':
		st->have_keys = true;
		k = read_pattern_file(&st->pb, optarg);
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
	case 'R': cfg->recurse = RECURSE_ALL_LINKS; return -1;
	case 'r': /* grep: a later -r does not undo an earlier -R */
		if (cfg->recurse == RECURSE_NONE)
			cfg->recurse = RECURSE_CMDLINE_LINKS;
		return -1;
	case 's': cfg->no_messages = true; return -1;
	case 'v': cfg->invert = true; return -1;
	case 'w': cfg->word_regexp = true; return -1;
	case 'x': cfg->line_regexp = true; return -1;
	case 'Z': cfg->null_after_name = true; return -1;
	case 'z': cfg->null_data = true; return -1;
	case OPT_BINARY_FILES:
		k = choice(optarg, binary_names);
		if (k < 0) {
			fputs(PROG ": unknown binary-files type\n", stderr);
			return 2;
		}
		cfg->binary = (enum binary_mode)k;
		return -1;
	case OPT_COLOR:
		k = optarg ? color_when(optarg) : COLOR_AUTO;
		if (k < 0)
			st->show_help = true; /* sic: grep 3.8 shows --help, exit 0 */
		else
			st->color = k;
		return -1;
	case OPT_INCLUDE: return add_filter(cfg, 'i', optarg) ? -1 : oom();
	case OPT_EXCLUDE: return add_filter(cfg, 'e', optarg) ? -1 : oom();
	case OPT_EXCLUDE_DIR:
		return add_exclude_dir(cfg, optarg) ? -1 : oom();
	case OPT_GROUP_SEP: cfg->group_separator = optarg; return -1;
	case OPT_NO_GROUP_SEP: cfg->group_separator = NULL; return -1;
	case OPT_LABEL: cfg->label = optarg; return -1;
	case OPT_LINE_BUFFERED: cfg->line_buffered = true; return -1;
	case OPT_HELP: st->show_help = true; return -1;
	case OPT_COUNT_MATCHES: cfg->count_matches = true; return -1;
	case OPT_MMAP: cfg->io = IO_MMAP; return -1;
	case OPT_NO_MMAP: cfg->io = IO_READ; return -1;
	case OPT_ENGINE:
		k = choice(optarg, engine_names);
		if (k < 0)
			return bad_choice("engine", optarg, engine_names);
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
		k = choice(optarg, scan_names);
		if (k < 0)
			return bad_choice("scan-path", optarg, scan_names);
		cfg->scan_path = k;
		return -1;
	default: /* '?': getopt_long has printed why */
		return usage_error();
	}
}

/* The getopt loop.  Returns -1 or an exit status. */
static int parse_loop(int argc, char **argv, struct config *cfg, struct parse_state *st)
{
	for (;;) {
		int before = optind ? optind : 1; /* 0 only before the first call */
		int c = getopt_long(argc, argv, short_options, long_options, NULL);
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
		all_empty = ps->items[i].len == 0;
	return cfg->max_count == 0 || (ps->count == 0 && !cfg->invert) ||
	       (all_empty && cfg->invert && !cfg->line_regexp && !cfg->word_regexp);
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
	if (!st->have_keys) {
		if (optind >= argc)
			return usage_error();
		const char *pat = argv[optind++];
		if (!pb_split(&st->pb, pat, strlen(pat), false))
			return oom();
	}
	if (!pb_finish(&st->pb, &cfg->patterns))
		return oom();

	if (optind < argc) {
		cfg->files = malloc((size_t)(argc - optind) * sizeof *cfg->files);
		if (!cfg->files)
			return oom();
		while (optind < argc)
			cfg->files[cfg->n_files++] = argv[optind++];
	}

	/* Explicit -A/-B win over -C/-NUM whatever the order. */
	if (cfg->after < 0)
		cfg->after = st->context;
	if (cfg->before < 0)
		cfg->before = st->context;

	/* grep: -q overrides -l and -L, which in turn override -c. */
	if (cfg->quiet)
		cfg->list = LIST_NONE;
	if (cfg->quiet || cfg->list != LIST_NONE) {
		cfg->count = false;
		cfg->count_matches = false;
	}

	if (cfg->list != LIST_NONMATCHING && cannot_select(cfg))
		return 1;
	if (!setup_color(cfg, st->color))
		return oom();
	cfg->utf8_locale = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	return -1;
}

/* See opts.h.  Besides 0 (--help, --version) and 2 (errors), returns 1
 * when grep would exit 1 without reading any input (cannot_select). */
int opts_parse(int argc, char **argv, struct config *cfg)
{
	static char prog_name[] = PROG;
	struct parse_state st;
	memset(&st, 0, sizeof st);
	st.context = -1;
	st.color = COLOR_NEVER;
	*cfg = (struct config){
		.max_count = -1, .with_filename = -1, .label = DEFAULT_LABEL,
		.before = -1, .after = -1, .group_separator = DEFAULT_GROUP_SEPARATOR,
		.binary = BINARY_BINARY, .io = IO_AUTO, .engine = ENGINE_AC,
		.recurse = RECURSE_NONE, .colors = default_colors,
	};
	cfg->opts_private = calloc(1, sizeof *cfg->opts_private);
	if (!cfg->opts_private)
		return oom();
	if (argc < 1)
		return usage_error();

	/* getopt_long names argv[0] in its messages; make that "acgrep". */
	char *saved_name = argv[0];
	argv[0] = prog_name;
	optind = 0; /* full re-initialisation, so repeated calls work */
	opterr = 1;
	int status = parse_loop(argc, argv, cfg, &st);
	if (status < 0)
		status = finish(argc, argv, cfg, &st);
	argv[0] = saved_name;

	free(st.pb.bytes);
	free(st.pb.spans);
	if (status >= 0)
		opts_free(cfg);
	return status;
}

void opts_free(struct config *cfg)
{
	free(cfg->patterns.items);
	free(cfg->patterns.storage);
	memset(&cfg->patterns, 0, sizeof cfg->patterns);
	free(cfg->includes);
	free(cfg->excludes);
	free(cfg->exclude_dirs);
	free(cfg->files);
	cfg->includes = cfg->excludes = cfg->exclude_dirs = cfg->files = NULL;
	cfg->filter_order = NULL;
	cfg->n_includes = cfg->n_excludes = cfg->n_exclude_dirs = cfg->n_files = 0;
	struct opts_private *priv = cfg->opts_private;
	if (priv) {
		for (size_t i = 0; i < priv->n_dirs; i++)
			free(priv->dirs[i]);
		free(priv->dirs);
		free(priv->legacy_color);
		free(priv->grep_colors);
		free(priv->order);
		free(priv);
		cfg->opts_private = NULL;
	}
	cfg->colors = default_colors; /* no pointers into freed copies */
}
