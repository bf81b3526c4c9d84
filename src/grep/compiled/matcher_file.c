/* SPDX-License-Identifier: MIT */
/* matcher_file.c - writing a compiled pattern set and loading it back
 * (see matcher_file.h).
 *
 * The matcher's sections, after the automaton's (ac_file.c): "GRmt" the
 * options it was built for, the syntax and its facts (struct file_meta);
 * "GRlt" and "GRle" the pattern list as given (storage and end offsets,
 * as struct pattern_set holds them); "GRgv" the list id of each pattern
 * the automaton holds, when patterns holding NUL were dropped (matcher.c)
 * or an -E/-G list was expanded into literals; "GRnw" and "GRbd" -i's
 * lists of patterns holding DFA-narrow characters and patterns that are
 * not valid UTF-8 (matcher_fold.c), as list ids (an -E/-G set's: ids of
 * its literals, matcher_file_regex.c, which owns its further sections);
 * "GRtt", "GRte" and "GRto", when a tagged list was given, the distinct
 * tags (as struct pattern_set holds them) and each listed pattern's tag
 * (struct pattern_tags).
 */
#include "matcher_file.h"

#include "ac_file.h"
#include "fold/fold_utf8.h"
#include "match/matcher_ac_internal.h"
#include "matcher_file_internal.h"
#include "table.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- writing ----------------------------------------------------------- */

/* The fold's list `ids` (n of them, engine ids), in a copy the writer
 * keeps, as list ids (`to_list`: a -F set's, whose fold keeps the list as
 * given; an -E/-G set's keeps its literals): 0, or -1 when out of memory. */
static int add_fold_list(struct secfile_writer *w, uint32_t tag, const struct matcher_ac *m,
			 const size_t *ids, size_t n, bool to_list)
{
	size_t *list = malloc((n ? n : 1) * sizeof *list);
	if (!list)
		return -1;
	for (size_t k = 0; k < n; k++)
		list[k] = m->given && to_list ? m->given[ids[k]] : ids[k];
	int rc = secfile_add_copy(w, tag, list, n * sizeof *list);
	free(list);
	return rc;
}

/* What a set of spec's options over the list ps, tagged by pattern_tags
 * when they are, and m compiled from them, say of themselves. */
static void meta_fill(const struct matcher_spec *spec, const struct pattern_set *ps,
		      const struct pattern_tags *pattern_tags, const struct matcher_ac *m,
		      struct file_meta *mt)
{
	const struct pattern_set *tags = &pattern_tags->names;
	const struct fold_state *f = m->fold;
	bool tagged = pattern_tags->of != NULL;
	*mt = (struct file_meta){
		.ignore_case = spec->ignore_case, .word = spec->word, .line = spec->line,
		.utf8 = spec->utf8, .null_data = spec->eol == '\0',
		.binary_text = spec->binary_text, .engine = (uint32_t)spec->engine,
		.scan_path = (uint32_t)spec->scan_path, .grep_kwset = m->opt.grep_kwset,
		.spans_eol = m->base.spans_eol, .holds_nul = ps->holds_nul, .has_given = m->given != NULL,
		.fold = f != NULL, .fold_filter = f && f->filter, .fold_ascii = f && f->ascii,
		.list_count = ps->count, .list_bytes = (size_t)ps->end[ps->count - 1] + 1,
		.n_engine = ac_pattern_count(m->ac), .n_narrow = f ? f->n_narrow : 0,
		.n_bad = f ? f->n_bad : 0, .tagged = tagged, .tags_nul = tagged && tags->holds_nul,
		.n_tags = tagged ? tags->count : 0,
		.tag_bytes = tagged ? (size_t)tags->end[tags->count - 1] + 1 : 0,
		.syntax = (uint32_t)spec->syntax,
	};
}

/* Adds m's sections and the list's to w: 0, or -1 when out of memory. */
static int sections_add(struct secfile_writer *w, const struct matcher_spec *spec,
			const struct pattern_set *ps, const struct pattern_tags *t,
			const struct matcher_ac *m)
{
	struct file_meta mt;
	meta_fill(spec, ps, t, m, &mt);
	int rc = ac_save(m->ac, w);
	rc |= secfile_add_copy(w, T_META, &mt, sizeof mt);
	rc |= secfile_add(w, T_LIST_TEXT, ps->storage, (size_t)mt.list_bytes);
	rc |= secfile_add(w, T_LIST_END, ps->end, ps->count * sizeof *ps->end);
	if (m->given)
		rc |= secfile_add(w, T_GIVEN, m->given, (size_t)mt.n_engine * sizeof *m->given);
	bool fixed = spec->syntax == SYNTAX_FIXED;
	if (m->fold) {
		rc |= add_fold_list(w, T_NARROW, m, m->fold->narrow, m->fold->n_narrow, fixed);
		rc |= add_fold_list(w, T_BAD, m, m->fold->bad, m->fold->n_bad, fixed);
	}
	if (!fixed)
		rc |= regex_sections_add(w, m);
	if (mt.tagged) {
		rc |= secfile_add(w, T_TAG_TEXT, t->names.storage, (size_t)mt.tag_bytes);
		rc |= secfile_add(w, T_TAG_END, t->names.end, t->names.count * sizeof *t->names.end);
		rc |= secfile_add(w, T_TAG_OF, t->of, ps->count * sizeof *t->of);
	}
	return rc ? -1 : 0;
}

/* Writes w's file to a new file beside `path`, then renames it to `path`:
 * 0, or -1 with errno. */
static int write_renamed(const struct secfile_writer *w, const char *path)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + sizeof ".XXXXXX");
	if (!tmp) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".XXXXXX", sizeof ".XXXXXX");
	int fd = mkstemp(tmp), rc = -1, saved;
	if (fd >= 0) {
		mode_t mask = umask(0); /* mkstemp's 0600 becomes what open(2) would give */
		umask(mask);
		rc = fchmod(fd, 0666 & ~mask) == 0 && secfile_write(w, fd) == 0 ? 0 : -1;
		saved = errno;
		if (close(fd) != 0 && rc == 0) {
			rc = -1;
			saved = errno;
		}
		if (rc == 0 && rename(tmp, path) != 0) {
			rc = -1;
			saved = errno;
		}
		if (rc != 0)
			unlink(tmp);
		errno = saved;
	}
	free(tmp);
	return rc;
}

/* A malloc'd copy of ps (the matcher takes its list over), or false. */
static bool list_copy(const struct pattern_set *ps, struct pattern_set *copy)
{
	size_t bytes = (size_t)ps->end[ps->count - 1] + 1;
	*copy = (struct pattern_set){
		.storage = malloc(bytes), .end = malloc(ps->count * sizeof *ps->end),
		.count = ps->count, .holds_nul = ps->holds_nul,
	};
	if (!copy->storage || !copy->end) {
		free(copy->storage);
		free(copy->end);
		return false;
	}
	memcpy(copy->storage, ps->storage, bytes);
	memcpy(copy->end, ps->end, ps->count * sizeof *ps->end);
	return true;
}

int matcher_save(const struct matcher_spec *spec, const struct pattern_set *patterns,
		 const struct pattern_tags *tags, unsigned threads, const char *path, char *why,
		 size_t why_len)
{
	struct pattern_set copy;
	const char *error = "memory exhausted";
	struct matcher *m = NULL;
	if (spec->engine != ENGINE_AC)
		error = "only --engine=ac has a compiled form";
	else if (list_copy(patterns, &copy))
		m = matcher_build(spec, &copy, threads, &error);
	if (m && m->matches_unseen) {
		matcher_free(m);
		m = NULL;
		error = "the list matches nothing, yet grep selects lines by its one fixed "
			"string; a compiled set does not keep that: grep can search it";
	}
	if (!m) {
		snprintf(why, why_len, "%s", error);
		return -1;
	}
	struct secfile_writer w = { .pieces = NULL };
	int rc = sections_add(&w, spec, patterns, tags, (const struct matcher_ac *)m);
	if (rc != 0)
		snprintf(why, why_len, "memory exhausted");
	else if ((rc = write_renamed(&w, path)) != 0)
		snprintf(why, why_len, "%s", strerror(errno));
	secfile_writer_free(&w);
	matcher_free(m);
	return rc;
}

/* ---- reading ----------------------------------------------------------- */

/* Whether option `name`, on (then) when compiled, is so now; if not, says so. */
static bool same_flag(const char *name, uint32_t then, bool now, char *why, size_t why_len)
{
	if ((then != 0) == now)
		return true;
	snprintf(why, why_len, "compiled with%s %s; this search is with%s it", then ? "" : "out", name,
		 now ? "" : "out");
	return false;
}

/* Checks the options mt was compiled with against spec's: 0, or -1 with why. */
static int options_check(const struct matcher_spec *spec, const struct file_meta *mt, char *why,
			 size_t why_len)
{
	static const char *const scan_names[] = { "auto", "dfa", "bitmap", "memchr", "teddy", "hash", "rare" };
	if (spec->engine != ENGINE_AC) {
		snprintf(why, why_len, "compiled for --engine=ac; this search asks for --engine=pcre2");
		return -1;
	}
	if (!same_flag("-i", mt->ignore_case, spec->ignore_case, why, why_len) ||
	    !same_flag("-w", mt->word, spec->word, why, why_len) ||
	    !same_flag("-x", mt->line, spec->line, why, why_len) ||
	    !same_flag("-z", mt->null_data, spec->eol == '\0', why, why_len))
		return -1;
	if ((mt->utf8 != 0) != spec->utf8) {
		snprintf(why, why_len, "compiled in a %s locale; this search's locale is%s UTF-8",
			 mt->utf8 ? "UTF-8" : "non-UTF-8", spec->utf8 ? "" : " not");
		return -1;
	}
	/* --binary-files=text decides whether a pattern holding NUL is kept */
	if (mt->holds_nul && !mt->null_data &&
	    !same_flag("--binary-files=text", mt->binary_text, spec->binary_text, why, why_len))
		return -1;
	if (spec->scan_path != 0 && (uint32_t)spec->scan_path != mt->scan_path &&
	    (size_t)spec->scan_path < sizeof scan_names / sizeof *scan_names) {
		snprintf(why, why_len, "compiled with --scan-path=%s; this search asks for --scan-path=%s",
			 scan_names[mt->scan_path], scan_names[spec->scan_path]);
		return -1;
	}
	return 0;
}

/* The meta's own consistency: every flag 0 or 1, known values. */
static bool meta_ok(const struct file_meta *mt)
{
	const uint32_t flags[] = {
		mt->ignore_case, mt->word, mt->line, mt->utf8, mt->null_data, mt->binary_text,
		mt->grep_kwset, mt->spans_eol, mt->holds_nul, mt->has_given, mt->fold,
		mt->fold_filter, mt->fold_ascii, mt->tagged, mt->tags_nul,
	};
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (flags[i] > 1)
			return false;
	/* list ids are 32-bit; arrays of them must fit a 32-bit build's size_t */
	return mt->engine == ENGINE_AC && mt->scan_path <= AC_PATH_RARE && mt->syntax <= SYNTAX_EXTENDED &&
	       mt->list_count >= 1 &&
	       mt->list_count <= UINT32_MAX && mt->list_count <= SIZE_MAX / sizeof(size_t) &&
	       mt->list_bytes <= (uint64_t)UINT32_MAX + 1 && mt->list_bytes <= SIZE_MAX / 2 &&
	       (!mt->fold || (mt->ignore_case && mt->utf8));
}

bool list_view(const struct secfile *sf, uint32_t text_tag, uint32_t end_tag, size_t count,
	       size_t bytes, bool holds_nul, struct pattern_set *list)
{
	const char *text = secfile_section(sf, text_tag, bytes);
	const uint32_t *end = secfile_section(sf, end_tag, count * sizeof *end);
	if (!text || !end || end[count - 1] + (size_t)1 != bytes)
		return false;
	for (size_t i = 0, start = 0; i < count; start = (size_t)end[i++] + 1)
		if (end[i] < start || end[i] >= bytes || text[end[i]] != '\0')
			return false;
	*list = (struct pattern_set){
		.storage = unconst(text), .end = unconst(end), .count = count, .holds_nul = holds_nul,
	};
	return true;
}

/* The pattern list: fills *list; NULL, or what is wrong. */
static const char *list_load(const struct secfile *sf, const struct file_meta *mt,
			     struct pattern_set *list)
{
	return list_view(sf, T_LIST_TEXT, T_LIST_END, (size_t)mt->list_count, (size_t)mt->list_bytes,
			 mt->holds_nul, list)
		       ? NULL
		       : "pattern list";
}

/* Whether each of the n tags of `of` is below n_tags and the tags are
 * named in order of first use, every one of them. */
static bool tags_of_ok(const uint32_t *of, size_t n, size_t n_tags)
{
	size_t named = 0;
	for (size_t i = 0; i < n; i++) {
		if (of[i] > named || of[i] >= n_tags)
			return false;
		named += of[i] == named;
	}
	return named == n_tags;
}

/* The tags of the list (tags->of NULL when it had none): NULL, or what
 * is wrong. */
static const char *tags_load(const struct secfile *sf, const struct file_meta *mt,
			     struct pattern_tags *tags)
{
	*tags = (struct pattern_tags){ .of = NULL };
	if (!mt->tagged)
		return mt->n_tags || mt->tag_bytes || mt->tags_nul ? "tags" : NULL;
	/* tag names as the list's patterns: 32-bit offsets; at most one per pattern */
	if (mt->n_tags < 1 || mt->n_tags > mt->list_count || mt->tag_bytes > (uint64_t)UINT32_MAX + 1 ||
	    mt->tag_bytes > SIZE_MAX / 2)
		return "tags";
	size_t count = (size_t)mt->list_count;
	const uint32_t *of = secfile_section(sf, T_TAG_OF, count * sizeof *of);
	struct pattern_set names;
	if (!of || !tags_of_ok(of, count, (size_t)mt->n_tags) ||
	    !list_view(sf, T_TAG_TEXT, T_TAG_END, (size_t)mt->n_tags, (size_t)mt->tag_bytes,
		       mt->tags_nul, &names))
		return "tags";
	*tags = (struct pattern_tags){ .names = names, .of = unconst(of) };
	return NULL;
}

/* The engine's ids as list ids: NULL, or what is wrong.  A -F set's
 * rise strictly (a pattern is one literal, or none when dropped); an -E/-G
 * set's may repeat (a pattern is any number of literals). */
static const char *given_load(const struct secfile *sf, const struct file_meta *mt,
			      const ac_automaton *ac, uint32_t **given)
{
	size_t n = (size_t)mt->n_engine;
	bool fixed = mt->syntax == SYNTAX_FIXED;
	*given = NULL;
	if (mt->n_engine != ac_pattern_count(ac) || (fixed && mt->n_engine > mt->list_count))
		return "pattern ids";
	if (!mt->has_given)
		return mt->n_engine == mt->list_count ? NULL : "pattern ids";
	const uint32_t *g = secfile_section(sf, T_GIVEN, n * sizeof *g);
	if (!g)
		return "pattern ids";
	for (size_t k = 0; k < n; k++)
		if (g[k] >= mt->list_count || (k && g[k] < g[k - 1] + fixed))
			return "pattern ids";
	*given = unconst(g);
	return NULL;
}

/* One of the fold's lists of ids into its list of `count` patterns: NULL
 * when it is wrong. */
static const size_t *fold_list_load(const struct secfile *sf, uint32_t tag, uint64_t n,
				    uint64_t count)
{
	if (n > count)
		return NULL;
	const size_t *ids = secfile_section(sf, tag, (size_t)n * sizeof *ids);
	for (size_t k = 0; ids && k < n; k++)
		if (ids[k] >= count)
			return NULL;
	return ids;
}

/* -i's fold state over the file's lists (borrowed), `orig` the patterns
 * its lists index: NULL with *why. */
static struct fold_state *fold_load(const struct secfile *sf, const struct file_meta *mt,
				    const struct pattern_set *orig, size_t max_len, const char **why)
{
	const size_t *narrow = fold_list_load(sf, T_NARROW, mt->n_narrow, orig->count);
	const size_t *bad = fold_list_load(sf, T_BAD, mt->n_bad, orig->count);
	*why = "folding lists";
	if (!narrow || !bad)
		return NULL;
	struct fold_state *f = calloc(1, sizeof *f);
	*why = "memory exhausted";
	if (!f || !(f->table = fold_table_new())) {
		free(f);
		return NULL;
	}
	*f = (struct fold_state){
		.table = f->table, .filter = mt->fold_filter, .ascii = mt->fold_ascii, .orig = *orig,
		.narrow = unconst(narrow), .n_narrow = (size_t)mt->n_narrow,
		.bad = unconst(bad), .n_bad = (size_t)mt->n_bad, .borrowed = true,
	};
	fold_state_size(f, max_len);
	return f;
}

/* The parts of the matcher of sf's sections in m: NULL, or what is
 * corrupt ("memory exhausted" when memory is). */
static const char *parts_load(const struct matcher_spec *spec, const struct secfile *sf,
			      const struct file_meta *mt, struct matcher_ac *m, struct pattern_set *list,
			      struct pattern_tags *tags)
{
	const char *what;
	if (!(m->ac = ac_load(sf, (enum simd_level)spec->simd, &what)))
		return what;
	if ((what = list_load(sf, mt, list)) || (what = given_load(sf, mt, m->ac, &m->given)) ||
	    (what = tags_load(sf, mt, tags)))
		return what;
	struct pattern_set lits;
	bool fixed = mt->syntax == SYNTAX_FIXED;
	if (!fixed && (what = regex_sections_load(sf, mt, m, &lits)))
		return what;
	if (mt->fold && !(m->fold = fold_load(sf, mt, fixed ? list : &lits,
					      ac_max_pattern_len(m->ac), &what)))
		return what;
	m->syntax = (enum pattern_syntax)mt->syntax;
	return NULL;
}

/* The matcher of sf's sections for spec's options: NULL with why. */
static struct matcher_ac *sections_load(const struct matcher_spec *spec, const struct secfile *sf,
					struct pattern_set *list, struct pattern_tags *tags, char *why,
					size_t why_len)
{
	const struct file_meta *raw = secfile_section(sf, T_META, sizeof *raw);
	struct file_meta mt;
	if (raw)
		memcpy(&mt, raw, sizeof mt);
	if (!raw || !meta_ok(&mt)) {
		snprintf(why, why_len, "corrupt compiled pattern set (options)");
		return NULL;
	}
	if (options_check(spec, &mt, why, why_len) != 0)
		return NULL;
	struct matcher_ac *m = calloc(1, sizeof *m);
	const char *what = m ? parts_load(spec, sf, &mt, m, list, tags) : "memory exhausted";
	if (what) {
		if (strcmp(what, "memory exhausted") == 0)
			snprintf(why, why_len, "memory exhausted");
		else
			snprintf(why, why_len, "corrupt compiled pattern set (%s)", what);
		if (m) {
			ac_free(m->ac);
			fold_state_free(m->fold);
			free(m->anchor_first);
		}
		free(m);
		return NULL;
	}
	m->base.ops = &matcher_ac_ops;
	m->opt = matcher_options(spec, mt.grep_kwset, 1);
	m->base.match_takes_eol = matcher_takes_eol(&m->opt);
	matcher_ac_settle(m, mt.spans_eol);
	if (fold_partials_setup(m) != 0) {
		snprintf(why, why_len, "memory exhausted");
		m->given = NULL; /* the image's, released by the caller */
		matcher_free(&m->base);
		return NULL;
	}
	return m;
}

/* matcher_load_image over img, which the matcher owns from then on. */
static struct matcher *image_load(const struct matcher_spec *spec, struct matcher_image *img,
				  struct pattern_set *list, struct pattern_tags *tags, char *why,
				  size_t why_len)
{
	struct secfile sf;
	struct matcher_ac *m = NULL;
	if (secfile_open(&sf, img->base, img->size, why, why_len) == 0)
		m = sections_load(spec, &sf, list, tags, why, why_len);
	if (!m) {
		matcher_image_release(img);
		return NULL;
	}
	m->image = img;
	return &m->base;
}

enum pattern_syntax matcher_file_syntax(const struct matcher *m)
{
	return ((const struct matcher_ac *)m)->syntax;
}

struct matcher *matcher_load_image(const struct matcher_spec *spec, const void *p, size_t size,
				   struct pattern_set *list, struct pattern_tags *tags, char *why,
				   size_t why_len)
{
	struct matcher_image *img = malloc(sizeof *img);
	if (!img) {
		snprintf(why, why_len, "memory exhausted");
		return NULL;
	}
	*img = (struct matcher_image){ .base = p, .size = size, .mapped = 0 };
	return image_load(spec, img, list, tags, why, why_len);
}

/* A private copy of the first `size` bytes of fd, in memory of its own
 * (page-aligned, so that the sections are SECFILE_ALIGN-aligned), made
 * read-only once read; *got is how many there were (fewer when the file
 * shrank meanwhile).  Returns it, or NULL with errno. */
static void *image_read(int fd, size_t size, size_t *got)
{
	uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* a fault per 2 MiB instead of per 4 KiB: a 52 MB set loads in 10-14
	 * ms of system time instead of 170-200 (where huge pages are to be
	 * had; advice only) */
	madvise(p, size, MADV_HUGEPAGE);
#endif
	table_populate(p, size); /* read() would fault a page at a time */
	size_t n = 0;
	while (n < size) {
		ssize_t k = read(fd, p + n, size - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int saved = errno;
			munmap(p, size);
			errno = saved;
			return NULL;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	mprotect(p, size, PROT_READ);
	*got = n;
	return p;
}

/* The set is read, not mapped: the bytes checked must be the bytes
 * scanned.  A shared mapping shows whatever the file holds when a page is
 * touched (a set rewritten in place after the checks sends the scan
 * outside its tables), and a truncated file faults even in a private
 * mapping's copied pages (SIGBUS, which the search takes for its text
 * shrinking).  A copy in anonymous memory is what was checked, whatever
 * happens to the file. */
struct matcher *matcher_load(const struct matcher_spec *spec, const char *path,
			     struct pattern_set *list, struct pattern_tags *tags, char *why, size_t why_len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(why, why_len, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	const char *bad = S_ISDIR(st.st_mode) ? strerror(EISDIR)
			  : !S_ISREG(st.st_mode) ? "not a compiled pattern set (not a regular file)"
			  : (uint64_t)st.st_size > SIZE_MAX / 2 ? "compiled pattern set too large to load"
			  : NULL;
	size_t size = bad ? 0 : (size_t)st.st_size, got = 0;
	void *p = NULL;
	if (size > 0 && !(p = image_read(fd, size, &got)))
		bad = strerror(errno);
	close(fd);
	struct matcher_image *img = bad ? NULL : malloc(sizeof *img);
	if (!img) {
		snprintf(why, why_len, "%s", bad ? bad : "memory exhausted");
		if (p)
			munmap(p, size);
		return NULL;
	}
	*img = (struct matcher_image){ .base = p, .size = got, .mapped = size };
	return image_load(spec, img, list, tags, why, why_len);
}
