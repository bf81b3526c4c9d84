/* SPDX-License-Identifier: MIT */
/* opts_patterns.c - the pattern list of -e, -f and the PATTERNS operand,
 * and the files options name (see opts_patterns.h).
 */
#include "opts_patterns.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <regex.h> /* glibc's, beside acgrep's regex/regex.h */
#endif

#include "bits.h"
#include "hash64.h"
#include "opts.h"
#include "opts_argv.h"
#include "regex/regex.h"
#include "table.h"

/* Records the pattern of `len` bytes just stored at the end of pb->bytes
 * (its NUL included) and advances past it.  False when out of memory, or
 * past the 4 GiB that end offsets can hold. */
static bool pb_push(struct pat_builder *pb, size_t len)
{
	uint32_t *ne = table_grow_heap(pb->end, &pb->ncap, pb->n + 1, sizeof *ne);
	if (!ne)
		return false;
	pb->end = ne;
	if (pb->len + len >= UINT32_MAX)
		return false;
	pb->end[pb->n++] = (uint32_t)(pb->len + len);
	pb->len += len + 1;
	return true;
}

bool opts_patterns_add_one(struct pat_builder *pb, const char *p, size_t len)
{
	char *nb = table_grow_heap(pb->bytes, &pb->cap, pb->len + len + 1, 1);
	if (!nb)
		return false;
	pb->bytes = nb;
	memcpy(pb->bytes + pb->len, p, len);
	pb->holds_nul = pb->holds_nul || memchr(p, '\0', len);
	pb->bytes[pb->len + len] = '\0';
	return pb_push(pb, len);
}

bool opts_patterns_add(struct pat_builder *pb, const char *text, size_t len)
{
	for (;;) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		if (!opts_patterns_add_one(pb, text, n))
			return false;
		if (!nl)
			return true;
		text += n + 1;
		len -= n + 1;
	}
}

bool opts_patterns_source(struct pat_builder *pb, const char *path, uintmax_t line)
{
	if (pb->n_src) { /* the last source goes on here: nothing to add */
		const struct pattern_source *last = &pb->src[pb->n_src - 1];
		if (last->path == path && (!path || last->line + (pb->n - last->first) == line))
			return true;
	}
	struct pattern_source *ns = table_grow_heap(pb->src, &pb->cap_src, pb->n_src + 1, sizeof *ns);
	if (!ns)
		return false;
	pb->src = ns;
	ns[pb->n_src++] = (struct pattern_source){ .first = pb->n, .path = path, .line = line };
	return true;
}

void opts_patterns_finish(struct pat_builder *pb, struct pattern_set *set)
{
	*set = (struct pattern_set){
		.storage = pb->bytes, .end = pb->end, .count = pb->n, .holds_nul = pb->holds_nul,
	};
	*pb = (struct pat_builder){ .src = pb->src, .n_src = pb->n_src, .cap_src = pb->cap_src };
}

void opts_patterns_free(struct pat_builder *pb)
{
	free(pb->bytes);
	free(pb->end);
	free(pb->src);
	*pb = (struct pat_builder){ .bytes = NULL };
}

/* Reads all of `path` ("-" is standard input) into *text, NUL-terminated
 * (and 64 KiB at least).  Returns 0 or an errno value. */
static int read_whole(const char *path, char **text, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t cap = 0;
	int err = fd < 0 ? errno : 0;
	*len = 0;
	while (!err) {
		char *nb = table_grow_heap(buf, &cap, *len + 65536, 1);
		if (!nb) {
			err = ENOMEM;
			break;
		}
		buf = nb;
		ssize_t r = read(fd, buf + *len, cap - *len - 1);
		if (r == 0)
			break;
		if (r > 0)
			*len += (size_t)r;
		else if (errno != EINTR)
			err = errno;
	}
	if (fd >= 0 && !is_stdin)
		close(fd);
	if (err)
		free(buf);
	else
		buf[*len] = '\0';
	*text = err ? NULL : buf;
	return err;
}

/* "acgrep: FILE: strerror" as grep dies on a -f or --exclude-from FILE. */
static int file_error(const char *path, int err)
{
	if (err == ENOMEM)
		return opts_oom();
	fprintf(stderr, PROG ": %s: %s\n", path, strerror(err));
	return 2;
}

int opts_read_file(const char *path, char **text, size_t *len)
{
	int err = read_whole(path, text, len);
	return err ? file_error(path, err) : 0;
}

/* The file is read straight into the builder's storage (sized from fstat
 * for a regular file) and split there, each newline becoming its line's
 * NUL: a huge pattern file is neither copied nor read twice. */
int opts_patterns_read_file(struct pat_builder *pb, const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0;
	if (!opts_patterns_source(pb, path, 1))
		return opts_oom();
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	int err = fd < 0 ? errno : 0;
	struct stat st;
	size_t start = pb->len, len = 0, chunk = 65536;
	if (!err && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < SIZE_MAX / 2)
		chunk = (size_t)st.st_size + 8; /* read() sees the end at once; the split reads words */
	while (!err) {
		char *nb = table_grow_heap(pb->bytes, &pb->cap, start + len + chunk + 1, 1);
		if (!nb) {
			err = ENOMEM;
			break;
		}
		pb->bytes = nb;
		ssize_t r = read(fd, pb->bytes + start + len, pb->cap - start - len - 1);
		if (r == 0)
			break;
		if (r > 0)
			len += (size_t)r;
		else if (errno != EINTR)
			err = errno;
		chunk = 65536;
	}
	if (fd >= 0 && !is_stdin)
		close(fd);
	if (err)
		return file_error(path, err);
	if (len == 0)
		return 0; /* an empty file contributes nothing */
	char *text = pb->bytes + start;
	if (text[len - 1] == '\n')
		len--; /* the final newline only ends the last line */
	if (start + len >= UINT32_MAX)
		return opts_oom(); /* past what end offsets can hold */
	char *nb = table_grow_heap(pb->bytes, &pb->cap, start + len + 8, 1); /* whole words up to the end */
	if (!nb)
		return opts_oom();
	pb->bytes = nb;
	text = nb + start;
	text[len] = '\n'; /* the last line's end, then padding */
	memset(text + len + 1, 0, 7);
	size_t lines = 0; /* room for every line at once: no copies while growing */
	uint64_t nul = 0;
	for (size_t i = 0; i <= len; i += 8) {
		uint64_t text_bits = i + 8 <= len ? ~(uint64_t)0 : (UINT64_C(1) << 8 * (len - i)) - 1;
		lines += bytes_equal_count(text + i, '\n');
		nul |= bytes_equal_bits(text + i, '\0') & text_bits; /* not the padding */
	}
	pb->holds_nul = pb->holds_nul || nul;
	uint32_t *ne = table_grow_heap(pb->end, &pb->ncap, pb->n + lines, sizeof *ne);
	if (!ne)
		return opts_oom();
	pb->end = ne;
	uint32_t *end = ne + pb->n;
	for (size_t i = 0; i <= len; i += 8)
		for (uint64_t nl = bytes_equal_bits(text + i, '\n'); nl; nl = clear_lowest(nl)) {
			size_t at = i + ctz64(nl) / 8;
			text[at] = '\0';
			*end++ = (uint32_t)(start + at);
		}
	pb->n += lines;
	pb->len = start + len + 1;
	return 0;
}

/* Where pattern i came from, by pb's sources: "PATH:LINE: " in buf for
 * a file, "" for the command line. */
static const char *origin(const struct pat_builder *pb, size_t i, char *buf, size_t size)
{
	size_t lo = 0, hi = pb->n_src; /* the last source with first <= i */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (pb->src[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	if (!pb->n_src || !pb->src[lo].path)
		return "";
	const struct pattern_source *s = &pb->src[lo];
	snprintf(buf, size, "%s:%ju: ", s->path, s->line + (i - s->first));
	return buf;
}

/* Pattern i of ps in the table of the distinct patterns printed so far
 * (slots: indexes + 1, 0 free; n_slots a power of two over their count):
 * true when an equal one is there, else it goes in. */
static bool seen_before(const struct pattern_set *ps, size_t i, uint32_t *slots, size_t n_slots)
{
	struct pattern p = pattern_at(ps, i);
	for (size_t k = hash64(p.bytes, p.len) & (n_slots - 1);; k = (k + 1) & (n_slots - 1)) {
		if (!slots[k]) {
			slots[k] = (uint32_t)i + 1;
			return false;
		}
		struct pattern q = pattern_at(ps, slots[k] - 1);
		if (q.len == p.len && memcmp(q.bytes, p.bytes, p.len) == 0)
			return true;
	}
}

/* Whether glibc's regex finds a syntax error in pattern p, compiled as
 * grep 3.8 compiles every pattern before anything else (its -E or -G
 * syntax bits, RE_ICASE under -i, the locale): then *err holds glibc's
 * message, grep's.  For a pattern regex_parse refused: its parse stopped
 * at the refused construct, but grep reports an error after it ('a.*\)'
 * is "Unmatched ) or \)").  Where libc is not glibc the refusal stands,
 * and where glibc's compile is not bounded: past GLIBC_JUDGE_MAX bytes
 * (60,000 alternatives after a .* took it past 24 GiB; 50,000 nested
 * groups overflow its stack; its closures grow faster than the pattern:
 * a group of 500 'n?' and one '+' take grep 0.55 s, of 128 and two '+'
 * 0.07 s), with an interval, which it copies out
 * ('(a{0,32767}){0,32767}' is a billion nodes), or with more than
 * GLIBC_JUDGE_PLUSES '+', each of which copies what it repeats ('a' and
 * 22 '+' take grep 3 GB; 'n?????' and 7 '+', 7 s). */
#define GLIBC_JUDGE_MAX 256
#define GLIBC_JUDGE_PLUSES 2
static bool glibc_syntax_error(struct pattern p, const struct regex_options *o, struct regex_error *err)
{
#ifdef __GLIBC__
	size_t pluses = 0;
	for (size_t k = 0; k < p.len && p.len <= GLIBC_JUDGE_MAX; k++)
		pluses += p.bytes[k] == '+';
	if (p.len > GLIBC_JUDGE_MAX || memchr(p.bytes, '{', p.len) || pluses > GLIBC_JUDGE_PLUSES)
		return false;
	reg_syntax_t bits = o->syntax == REGEX_EXTENDED ? RE_SYNTAX_EGREP : RE_SYNTAX_GREP;
	struct re_pattern_buffer re = { .translate = NULL };
	reg_syntax_t was = re_set_syntax(bits | (o->ignore_case ? RE_ICASE : 0));
	const char *msg = re_compile_pattern(p.bytes, p.len, &re);
	re_set_syntax(was);
	regfree(&re);
	if (!msg)
		return false;
	snprintf(err->text, sizeof err->text, "%s", msg);
	err->syntax = true;
	return true;
#else
	(void)p, (void)o, (void)err;
	return false;
#endif
}

/* Prints grep's message for each distinct pattern of ps (the first of
 * equal ones, as grep drops the others) with a syntax error, in order,
 * each after its origin; a refused pattern's is glibc's.  Returns how
 * many, or -1 when out of memory. */
static long syntax_errors(const struct pattern_set *ps, const struct regex_options *o,
			  const struct pat_builder *pb)
{
	size_t n_slots = 2;
	while (n_slots < 2 * ps->count)
		n_slots *= 2;
	uint32_t *slots = calloc(n_slots, sizeof *slots);
	if (!slots)
		return -1;
	long printed = 0;
	for (size_t i = 0; i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		struct regex_error err;
		uint64_t count, bytes;
		struct regex_tree *t = regex_parse(p.bytes, p.len, o, &count, &bytes, &err);
		regex_tree_free(t);
		if (t || !(err.syntax || glibc_syntax_error(p, o, &err)) ||
		    seen_before(ps, i, slots, n_slots))
			continue;
		char where[PATH_MAX + 32];
		fprintf(stderr, PROG ": %s%s\n", origin(pb, i, where, sizeof where), err.text);
		printed++;
	}
	free(slots);
	return printed;
}

int opts_patterns_check_regex(const struct config *cfg, const struct pat_builder *pb)
{
	if (cfg->syntax == SYNTAX_FIXED)
		return -1;
	char opt = cfg->syntax == SYNTAX_EXTENDED ? 'E' : 'G';
	if (cfg->engine == ENGINE_PCRE2) {
		fprintf(stderr, PROG ": -%c does not go with --engine=pcre2\n", opt);
		return 2;
	}
	struct regex_options o = {
		.syntax = cfg->syntax == SYNTAX_EXTENDED ? REGEX_EXTENDED : REGEX_BASIC,
		.utf8 = cfg->utf8_locale, .ignore_case = cfg->ignore_case, .eol = config_eol(cfg),
		.line = cfg->line_regexp, .word = cfg->word_regexp,
	};
	struct regex_error err;
	size_t bad;
	if (regex_list_check(&cfg->patterns, &o, &bad, &err) == 0)
		return -1;
	/* grep's errors, every one, before acgrep's refusal */
	long printed = syntax_errors(&cfg->patterns, &o, pb);
	if (printed < 0)
		return opts_oom();
	if (printed == 0)
		fprintf(stderr, PROG ": %s\n", err.text);
	return 2;
}
