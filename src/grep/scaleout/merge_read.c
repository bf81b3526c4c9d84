/* SPDX-License-Identifier: MIT */
/* merge_read.c - reading record streams for --merge (see
 * merge_internal.h): each whole in memory (a regular file mapped, a pipe
 * read), every record parsed and checked once, the ranges and other
 * records indexed in the order met; the L records stay where they are, to
 * be parsed again as the merge reaches them.  Then the files put in order
 * and their ranges checked, before merge.c prints anything.
 */
#include "merge_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "records.h"
#include "scaleout_options.h"

/* A record's fields, left to right: `p` is the next field, `end` the
 * record's newline. */
struct fields {
	const char *p, *end;
};

/* The next field as an unsigned decimal ending at a space. */
static bool next_u64(struct fields *f, uint64_t *v)
{
	const char *p = f->p;
	uint64_t n = 0;
	if (p >= f->end || *p < '0' || *p > '9')
		return false;
	for (; p < f->end && *p >= '0' && *p <= '9'; p++) {
		if (n > (UINT64_MAX - 9) / 10)
			return false;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (p >= f->end || *p != ' ')
		return false;
	f->p = p + 1;
	*v = n;
	return true;
}

/* The record's last field as an unsigned decimal. */
static bool last_u64(const struct fields *f, uint64_t *v)
{
	uint64_t n = 0;
	const char *q = f->p;
	for (; q < f->end && *q >= '0' && *q <= '9' && n <= (UINT64_MAX - 9) / 10; q++)
		n = n * 10 + (uint64_t)(*q - '0');
	*v = n;
	return q == f->end && q > f->p;
}

/* A signed decimal, or '-' (*known false). */
static bool next_int(struct fields *f, intmax_t *v, bool *known)
{
	if (f->end - f->p >= 2 && f->p[0] == '-' && f->p[1] == ' ') {
		f->p += 2;
		*known = false;
		return true;
	}
	bool neg = f->p < f->end && *f->p == '-';
	uint64_t n;
	f->p += neg;
	if (!next_u64(f, &n) || n > INTMAX_MAX)
		return false;
	*v = neg ? -(intmax_t)n : (intmax_t)n;
	*known = true;
	return true;
}

/* A word of letters from `allowed`, or '-' for none, ending at a space. */
static bool next_flags(struct fields *f, const char *allowed, char *out, size_t cap)
{
	size_t n = 0;
	const char *p = f->p;
	if (p < f->end && *p == '-')
		p++;
	else
		for (; p < f->end && *p != ' ' && n + 1 < cap; p++) {
			if (!strchr(allowed, *p))
				return false;
			out[n++] = *p;
		}
	if (p >= f->end || *p != ' ')
		return false;
	out[n] = '\0';
	f->p = p + 1;
	return true;
}

/* The record's last field, unescaped into a new string. */
static char *last_string(const struct fields *f)
{
	size_t n = (size_t)(f->end - f->p);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	size_t len = records_unescape(f->p, n, s);
	if (len == SIZE_MAX || memchr(s, '\0', len)) {
		free(s);
		return NULL;
	}
	s[len] = '\0';
	return s;
}

const char *merge_parse_line(const char *p, const char *end, struct merge_line *ln)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (nl && nl - p >= 2 && p[0] == 'B' && p[1] == ' ') { /* B START END */
		struct fields f = { .p = p + 2, .end = nl };
		uint64_t start, stop;
		*ln = (struct merge_line){ .kind = 'B' };
		if (!next_u64(&f, &start) || !last_u64(&f, &stop) || stop <= start || stop - start > SIZE_MAX)
			return NULL;
		ln->offset = start;
		ln->len = (size_t)(stop - start);
		return nl + 1;
	}
	if (!nl || nl - p < 4 || p[0] != 'L' || p[1] != ' ' || !strchr("scn", p[2]) || p[3] != ' ')
		return NULL;
	struct fields f = { .p = p + 4, .end = nl };
	uint64_t len;
	ln->kind = p[2];
	if (!next_u64(&f, &ln->offset) || !next_int(&f, &ln->lineno, &ln->counted) ||
	    !next_u64(&f, &len) || len > SIZE_MAX)
		return NULL;
	ln->len = (size_t)len;
	ln->esc = f.p;
	ln->esc_len = (size_t)(nl - f.p);
	/* the escaped length is the length plus one per escape */
	size_t escapes = 0;
	for (const char *q = ln->esc; (q = memchr(q, '\\', (size_t)(nl - q))) != NULL; q += 2)
		escapes++;
	return ln->esc_len == ln->len + escapes ? nl + 1 : NULL;
}

/* A new item at the end of the index, zeroed but for its kind and order. */
static struct merge_item *new_item(struct merge_index *ix, char kind)
{
	struct merge_item *items = grow_array(ix->items, &ix->cap_items, ix->n_items + 1,
					      sizeof *items, 64);
	if (!items)
		return NULL;
	ix->items = items;
	struct merge_item *it = &items[ix->n_items];
	*it = (struct merge_item){ .kind = kind, .seq = ix->n_items, .nl = -1 };
	ix->n_items++;
	return it;
}

/* The E record of range `it`. */
static bool parse_end(struct fields *f, struct merge_item *it)
{
	char flags[8];
	intmax_t nl;
	bool known;
	uint64_t sel, err;
	if (!next_int(f, &nl, &known) || !next_u64(f, &sel) || sel > INTMAX_MAX ||
	    !next_flags(f, "dbwmut", flags, sizeof flags) || !next_u64(f, &err) || err > INT32_MAX)
		return false;
	it->nl = known && nl >= 0 ? nl : -1;
	it->selected = (intmax_t)sel;
	it->done = strchr(flags, 'd');
	it->binary = strchr(flags, 'b');
	it->dropped = strchr(flags, 'w');
	it->bin_matched = strchr(flags, 'm');
	it->used = strchr(flags, 'u');
	it->truncated = strchr(flags, 't');
	it->read_errno = (int)err;
	if (err && !(it->why = last_string(f)))
		return false;
	return true;
}

/* An F, O or W record: a new item. */
static bool parse_item(struct merge_index *ix, char kind, struct fields *f)
{
	struct merge_item *it = new_item(ix, kind);
	char flags[4];
	uint64_t v;
	if (!it)
		return false;
	if (kind != 'F') {
		if (!next_u64(f, &v) || v > INT32_MAX)
			return false;
		it->err = (int)v;
	}
	if (kind != 'W') { /* LO HI, and an F's SIZE */
		if (!next_u64(f, &it->lo))
			return false;
		it->hi = it->size = UINT64_MAX;
		if (f->end - f->p >= 2 && f->p[0] == '*' && f->p[1] == ' ')
			f->p += 2;
		else if (!next_u64(f, &it->hi) || it->hi < it->lo)
			return false;
		if (kind == 'F' && f->end - f->p >= 2 && f->p[0] == '-' && f->p[1] == ' ')
			f->p += 2;
		else if (kind == 'F' && !next_u64(f, &it->size))
			return false;
	}
	if (kind != 'W') {
		if (!next_flags(f, "cl", flags, sizeof flags))
			return false;
		it->command_line = strchr(flags, 'c');
		it->listed = strchr(flags, 'l');
	}
	return (it->name = last_string(f)) != NULL;
}

/* The header line [p, end): the prefix before the magic word, which must
 * be empty or end in a tab, is the tag taken off every later line.
 * Returns false after printing why. */
static bool parse_header(const struct run *r, const struct merge_stream *s, size_t line_no,
			 const char *p, const char *end, size_t *prefix)
{
	static const char magic[] = RECORDS_MAGIC " ";
	const char *m = memmem(p, (size_t)(end - p), magic, sizeof magic - 1);
	char version[16];
	if (!m || (m > p && m[-1] != '\t')) {
		fprintf(stderr, "acgrep: %s:%zu: not a record stream (no \"%s\" header)\n", s->name,
			line_no, RECORDS_MAGIC);
		return false;
	}
	*prefix = (size_t)(m - p);
	const char *v = m + sizeof magic - 1, *opts = memchr(v, ' ', (size_t)(end - v));
	snprintf(version, sizeof version, "%d", RECORDS_VERSION);
	if (!opts || (size_t)(opts - v) != strlen(version) || memcmp(v, version, strlen(version))) {
		fprintf(stderr, "acgrep: %s:%zu: record format version %.*s; this acgrep reads %s\n",
			s->name, line_no, (int)(opts ? opts - v : end - v), v, version);
		return false;
	}
	const char *own = r->scaleout->header;
	if ((size_t)(end - opts) != strlen(own) || memcmp(opts, own, strlen(own)) != 0) {
		fprintf(stderr, "acgrep: %s:%zu: records of a search with options '%.*s'; this merge "
			"has '%s' (a merge takes the search options and patterns of its jobs)\n",
			s->name, line_no, (int)(end - opts - 1), opts + 1, own + 1);
		return false;
	}
	return true;
}

/* State of one stream's parse. */
struct stream_parse {
	const char *tag;         /* the current segment's tag, */
	size_t prefix;           /* ... its length */
	bool in_segment;         /* after a header, before its Z */
	struct merge_item *range; /* an F whose E is still to come */
	uint64_t count;          /* F, O and W records of the segment */
};

/* One record (prefix taken off) of a segment.  Returns false when it is
 * malformed or out of place; *why may name the reason. */
static bool parse_record(struct merge_index *ix, struct stream_parse *sp, const char *line,
			 const char *p, const char *nl, const char **why)
{
	struct fields f = { .p = p + 2, .end = nl };
	char kind = nl - p >= 2 && p[1] == ' ' ? p[0] : '?';
	if (kind == 'L' || kind == 'B') {
		struct merge_line ln;
		if (!sp->range || merge_parse_line(p, nl + 1, &ln) != nl + 1)
			return false;
		if (!sp->range->lines)
			sp->range->lines = line;
		sp->range->lines_end = nl + 1;
		return true;
	}
	if (kind == 'E') {
		bool ok = sp->range && parse_end(&f, sp->range);
		sp->range = NULL;
		return ok;
	}
	if (sp->range) {
		*why = "a range without its end record";
		return false;
	}
	if (kind == 'Z') {
		uint64_t n;
		sp->in_segment = false;
		if (!last_u64(&f, &n) || n != sp->count)
			*why = "its end record does not count its records";
		return !*why;
	}
	if (kind != 'F' && kind != 'O' && kind != 'W')
		return false;
	sp->count++;
	if (!parse_item(ix, kind, &f))
		return false;
	if (kind == 'F') {
		sp->range = &ix->items[ix->n_items - 1];
		sp->range->prefix = sp->prefix;
	}
	return true;
}

/* Parses stream s into the index.  False after printing why. */
static bool parse_stream(struct run *r, struct merge_index *ix, const struct merge_stream *s)
{
	struct stream_parse sp = { .in_segment = false };
	size_t line_no = 0, segments = 0;
	for (const char *p = s->data, *end = p + s->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *why = NULL;
		line_no++;
		if (!nl) {
			fprintf(stderr, "acgrep: %s:%zu: the stream ends inside a record\n", s->name, line_no);
			return false;
		}
		if (!sp.in_segment) {
			if (!parse_header(r, s, line_no, p, nl, &sp.prefix))
				return false;
			sp.in_segment = true;
			sp.count = 0;
			segments++;
			sp.tag = p;
		} else if ((size_t)(nl - p) < sp.prefix || memcmp(p, sp.tag, sp.prefix) != 0 ||
			   !parse_record(ix, &sp, p, p + sp.prefix, nl, &why)) {
			fprintf(stderr, "acgrep: %s:%zu: %s\n", s->name, line_no,
				why ? why : "malformed record");
			return false;
		}
		p = nl + 1;
	}
	if (sp.in_segment) {
		fprintf(stderr, "acgrep: %s: the record stream is cut short (no end record: did its "
			"job fail?)\n", s->name);
		return false;
	}
	if (segments == 0) { /* a job that failed before its header wrote nothing */
		fprintf(stderr, "acgrep: %s: no record stream (empty: did its job fail?)\n", s->name);
		return false;
	}
	return true;
}

/* Reads the stream at path ("-": standard input) into s.  False after
 * printing why. */
static bool load_stream(const char *path, struct merge_stream *s)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	*s = (struct merge_stream){ .name = is_stdin ? "(standard input)" : path };
	if (fd < 0 || fstat(fd, &st) != 0)
		goto fail;
	if (S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX) {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			s->data = map;
			s->len = (size_t)st.st_size;
			s->mapped = true;
			madvise(map, s->len, MADV_SEQUENTIAL);
			if (!is_stdin)
				close(fd);
			return true;
		}
	}
	for (size_t cap = 0;;) {
		if (s->len == cap) {
			char *grown = grow_array(s->data, &cap, s->len + 1, 1, 1 << 16);
			if (!grown) {
				errno = ENOMEM;
				goto fail;
			}
			s->data = grown;
		}
		ssize_t got = read(fd, s->data + s->len, cap - s->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		s->len += (size_t)got;
	}
	if (!is_stdin)
		close(fd);
	return true;
fail:
	fprintf(stderr, "acgrep: %s: %s\n", s->name, strerror(errno));
	if (fd >= 0 && !is_stdin)
		close(fd);
	return false;
}

bool merge_read_all(struct run *r, struct merge_index *ix)
{
	const struct scaleout_options *so = r->scaleout;
	static const char *const stdin_only[] = {"-"};
	const char *const *paths = so->n_operands ? so->operands : stdin_only;
	size_t n = so->n_operands ? so->n_operands : 1;
	*ix = (struct merge_index){ .streams = calloc(n, sizeof *ix->streams) };
	if (!ix->streams) {
		fputs("acgrep: memory exhausted\n", stderr);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		ix->n_streams = i + 1;
		if (!load_stream(paths[i], &ix->streams[i]) || !parse_stream(r, ix, &ix->streams[i]))
			return false;
	}
	return true;
}

void merge_index_free(struct merge_index *ix)
{
	for (size_t i = 0; i < ix->n_streams; i++) {
		struct merge_stream *s = &ix->streams[i];
		if (s->mapped)
			munmap(s->data, s->len);
		else
			free(s->data);
	}
	for (size_t i = 0; i < ix->n_items; i++) {
		free(ix->items[i].name);
		free(ix->items[i].why);
	}
	free(ix->streams);
	free(ix->items);
	*ix = (struct merge_index){ .streams = NULL };
}

/* ---- files in order, and checked ---- */

/* Files by name, then by which instance of a name (a file given twice is
 * searched twice: the k-th record of a range is its k-th instance's),
 * then ranges by offset; each walk error alone. */
static int by_name_then_offset(const void *a, const void *b)
{
	const struct merge_item *x = *(struct merge_item *const *)a, *y = *(struct merge_item *const *)b;
	bool wx = x->kind == 'W', wy = y->kind == 'W';
	int c = wx != wy ? (wx ? -1 : 1) : wx ? 0 : strcmp(x->name, y->name);
	if (c == 0 && x->instance != y->instance)
		c = x->instance < y->instance ? -1 : 1;
	if (c == 0 && x->lo != y->lo)
		c = x->lo < y->lo ? -1 : 1;
	if (c == 0 && x->hi != y->hi)
		c = x->hi < y->hi ? -1 : 1;
	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_first(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* Whether two items are the same file. */
static bool same_file(const struct merge_item *x, const struct merge_item *y)
{
	return x->kind != 'W' && y->kind != 'W' && x->instance == y->instance &&
	       strcmp(x->name, y->name) == 0;
}

/* Groups the items by file (each walk error alone), files in the order
 * met.  Returns the groups (n_groups of them), or NULL when out of memory. */
struct group *merge_group_items(struct merge_index *ix, struct merge_item ***order, size_t *n_groups)
{
	struct merge_item **items = malloc((ix->n_items + 1) * sizeof *items);
	struct group *groups = malloc((ix->n_items + 1) * sizeof *groups);
	*order = items;
	if (!items || !groups) {
		free(groups);
		return NULL;
	}
	for (size_t i = 0; i < ix->n_items; i++)
		items[i] = &ix->items[i];
	qsort(items, ix->n_items, sizeof *items, by_name_then_offset);
	/* the same range again is the next instance's, but for ranges holding
	 * no line (any number of cuts may fall in one line) */
	for (size_t i = 1; i < ix->n_items; i++)
		if (same_file(items[i], items[i - 1]) && items[i]->lo == items[i - 1]->lo &&
		    items[i]->hi == items[i - 1]->hi && (items[i]->lo < items[i]->hi || items[i]->kind == 'O'))
			items[i]->instance = items[i - 1]->instance + 1;
	qsort(items, ix->n_items, sizeof *items, by_name_then_offset);
	size_t g = 0;
	for (size_t i = 0; i < ix->n_items; i++) {
		bool same = g > 0 && same_file(items[i], groups[g - 1].items[0]);
		if (!same)
			groups[g++] = (struct group){ .items = &items[i], .first = items[i]->seq };
		struct group *gr = &groups[g - 1];
		gr->n++;
		gr->first = items[i]->seq < gr->first ? items[i]->seq : gr->first;
	}
	qsort(groups, g, sizeof *groups, by_first);
	*n_groups = g;
	return groups;
}

/* Whether the ranges of file g tile it; false after saying where not. */
bool merge_check_file(const struct group *g)
{
	const struct merge_item *const *it = (const struct merge_item *const *)g->items;
	const char *name = it[0]->name;
	bool opened = it[0]->kind == 'F';
	for (size_t i = 0; i < g->n; i++)
		if ((it[i]->kind == 'F') != opened) {
			fprintf(stderr, "acgrep: %s: searched by some jobs, not opened by others\n", name);
			return false;
		}
	if (!opened)
		return true;
	if (it[0]->hi == UINT64_MAX || it[g->n - 1]->hi == UINT64_MAX) {
		if (g->n == 1)
			return true;
		fprintf(stderr, "acgrep: %s: searched whole and by ranges too\n", name);
		return false;
	}
	uint64_t pos = 0;
	for (size_t i = 0; i <= g->n; i++) {
		uint64_t lo = i < g->n ? it[i]->lo : it[g->n - 1]->size;
		if (lo != pos) {
			fprintf(stderr, "acgrep: %s: bytes %" PRIu64 " to %" PRIu64 " are %s\n", name,
				lo < pos ? lo : pos, lo < pos ? pos : lo,
				lo < pos ? "in two ranges" : "in no range (a job's records are missing)");
			return false;
		}
		if (i < g->n && it[i]->binary && g->n > 1) {
			fprintf(stderr, "acgrep: %s: binary file (a NUL byte in bytes %" PRIu64 " to %" PRIu64
				"): ranges of one file must be text; search it whole, or with -a\n",
				name, it[i]->lo, it[i]->hi);
			return false;
		}
		pos = i < g->n ? it[i]->hi : pos;
	}
	return true;
}
