/* SPDX-License-Identifier: MIT */
/* test_ac_file.c - compiled pattern sets at the engine's level: hash64,
 * the secfile container and ac_save / ac_load.
 *
 * hash64 against XXH64's published values and in random pieces against
 * one call.  The container: sections round-trip at their alignment; every
 * truncation and every single-byte change of a file is refused with a
 * message (the header's own checks, else the checksum).  Automata of
 * random sets (with the empty pattern, ASCII folding, each scan path,
 * SIMD capped or not, set sizes from one pattern to thousands) saved and
 * loaded find exactly what the compiled one finds with ac_find (both
 * semantics), ac_scan_leftmost, ac_scan_overlapping and ac_pattern_id,
 * and derive the same HASH sieve (some set has one on a VBMI CPU) and
 * RARE window test (e-mail addresses);
 * one of more than 65,536 states too (the compiled automaton's multi-output
 * bitmap against the loaded one's dict[] walk).
 * Then the checks behind the checksum: words of the state tables and
 * fields of the scalars changed at random and the checksum resealed; a
 * load that accepts the result must give an automaton whose scans end,
 * and report matches inside the text and pattern ids below the count
 * (under ASan, `make asan`, also without reading outside its tables).
 * Prints "N passed, N failed"; exits non-zero on failure.
 */
#include "ac.h"
#include "ac_file.h"
#include "ac_internal.h"
#include "hash64.h"
#include "secfile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint64_t rnd64(void)
{
	rng_state ^= rng_state << 13; /* xorshift64 */
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned rnd(unsigned n)
{
	return (unsigned)(rnd64() % n);
}

/* ---- hash64 ---- */

static void hash_values(void)
{
	static const struct {
		const char *s;
		uint64_t h;
	} known[] = {
		{ "", UINT64_C(0xEF46DB3751D8E999) },
		{ "a", UINT64_C(0xD24EC4F1A98C6E5B) },
		{ "abc", UINT64_C(0x44BC2CF5AD770999) },
		{ "Nobody inspects the spammish repetition", UINT64_C(0xFBCEA83C8A378BF1) },
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		CHECK(hash64(known[i].s, strlen(known[i].s)) == known[i].h, "hash64(\"%s\")", known[i].s);
	uint8_t buf[1000];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)rnd64();
	for (int t = 0; t < 200; t++) {
		size_t n = rnd(sizeof buf + 1);
		struct hash64 h;
		hash64_init(&h);
		for (size_t at = 0; at < n;) {
			size_t k = rnd(70);
			k = k > n - at ? n - at : k;
			hash64_update(&h, buf + at, k);
			at += k;
		}
		CHECK(hash64_final(&h) == hash64(buf, n), "hash64 in pieces, %zu bytes", n);
	}
}

/* ---- images ---- */

/* w's file, read back into 64-byte aligned memory (*size bytes). */
static uint8_t *image_of(const struct secfile_writer *w, size_t *size)
{
	FILE *f = tmpfile();
	if (!f || secfile_write(w, fileno(f)) != 0) {
		fprintf(stderr, "test_ac_file: cannot write a file\n");
		exit(2);
	}
	off_t n = lseek(fileno(f), 0, SEEK_END);
	uint8_t *img = aligned_alloc(64, ((size_t)n + 64) & ~(size_t)63);
	if (n < 0 || !img || pread(fileno(f), img, (size_t)n, 0) != n) {
		fprintf(stderr, "test_ac_file: cannot read the file back\n");
		exit(2);
	}
	fclose(f);
	*size = (size_t)n;
	return img;
}

static void container(void)
{
	uint8_t a[100], b[3], c[4096];
	for (size_t i = 0; i < sizeof c; i++)
		c[i] = (uint8_t)rnd64();
	memset(a, 'a', sizeof a);
	memset(b, 'b', sizeof b);
	struct secfile_writer w = { .pieces = NULL };
	CHECK(secfile_add(&w, SECFILE_TAG('t', 'e', 's', 'a'), a, sizeof a) == 0, "add a");
	CHECK(secfile_add_copy(&w, SECFILE_TAG('t', 'e', 's', 'b'), b, sizeof b) == 0, "add b");
	CHECK(secfile_add(&w, SECFILE_TAG('t', 'e', 's', 'b'), b, sizeof b) != 0, "a tag twice");
	CHECK(secfile_add(&w, SECFILE_TAG('t', 'e', 's', 'c'), c, sizeof c) == 0, "add c");
	size_t size;
	uint8_t *img = image_of(&w, &size);
	secfile_writer_free(&w);
	struct secfile f;
	char why[200];
	CHECK(secfile_open(&f, img, size, why, sizeof why) == 0, "open: %s", why);
	const uint8_t *pa = secfile_section(&f, SECFILE_TAG('t', 'e', 's', 'a'), sizeof a);
	const uint8_t *pc = secfile_section(&f, SECFILE_TAG('t', 'e', 's', 'c'), sizeof c);
	size_t nb = 0;
	const uint8_t *pb = secfile_find(&f, SECFILE_TAG('t', 'e', 's', 'b'), &nb);
	CHECK(pa && !memcmp(pa, a, sizeof a) && (uintptr_t)pa % SECFILE_ALIGN == 0, "section a");
	CHECK(pb && nb == sizeof b && !memcmp(pb, b, sizeof b), "section b");
	CHECK(pc && !memcmp(pc, c, sizeof c) && (uintptr_t)pc % SECFILE_ALIGN == 0, "section c");
	CHECK(!secfile_section(&f, SECFILE_TAG('t', 'e', 's', 'a'), 99), "a section's size is exact");
	CHECK(!secfile_find(&f, SECFILE_TAG('n', 'o', 'n', 'e'), &nb), "a missing section");
	uint8_t *copy = aligned_alloc(64, (size + 64) & ~(size_t)63);
	for (size_t n = 0; n < size; n++)
		CHECK(secfile_open(&f, img, n, why, sizeof why) != 0 && why[0], "truncated to %zu", n);
	for (size_t at = 0; at < size; at++) {
		memcpy(copy, img, size);
		copy[at] ^= (uint8_t)(1u << rnd(8));
		CHECK(secfile_open(&f, copy, size, why, sizeof why) != 0, "byte %zu changed", at);
	}
	memcpy(copy, img, size);
	uint32_t next = SECFILE_VERSION + 1;
	memcpy(copy + 12, &next, 4); /* the version, in the writer's byte order */
	char want[128];
	snprintf(want, sizeof want, "compiled pattern set format version %u; this acgrep reads version %u",
		 SECFILE_VERSION + 1, SECFILE_VERSION);
	CHECK(secfile_open(&f, copy, size, why, sizeof why) != 0 && !strcmp(why, want),
	      "version: %s", why);
	memcpy(copy, img, size);
	copy[size - 1] ^= 1;
	secfile_reseal(copy, size);
	CHECK(secfile_open(&f, copy, size, why, sizeof why) == 0, "resealed: %s", why);
	free(copy);
	free(img);
}

/* ---- automata ---- */

struct set {
	char bytes[8192];
	size_t start[2048], len[2048], n;
};

/* n patterns of min_len .. min_len + max_len - 1 bytes over `alphabet`
 * letters in both cases. */
static void random_set(struct set *s, unsigned alphabet, size_t min_len, size_t max_len, size_t n)
{
	size_t used = 0;
	s->n = 0;
	for (size_t i = 0; i < n && used + min_len + max_len <= sizeof s->bytes; i++) {
		size_t len = min_len + rnd((unsigned)max_len);
		for (size_t k = 0; k < len; k++)
			s->bytes[used + k] = (char)(rnd(3) ? 'a' + rnd(alphabet) : 'A' + rnd(alphabet));
		s->start[s->n] = used;
		s->len[s->n++] = len;
		used += len;
	}
}

static ac_automaton *compile_set(const struct set *s, unsigned flags, bool empty,
				 enum ac_scan_path path, enum simd_level cap)
{
	ac_automaton *ac = ac_new(flags);
	for (size_t i = 0; ac && i < s->n; i++) {
		if (empty && i == s->n / 2)
			ac_add(ac, "", 0);
		ac_add(ac, s->bytes + s->start[i], s->len[i]);
	}
	if (ac)
		ac_limit_simd(ac, cap);
	if (!ac || ac_compile(ac, path) != 0) {
		fprintf(stderr, "test_ac_file: cannot compile\n");
		exit(2);
	}
	return ac;
}

/* The image of ac's sections (with a section of the caller's after them,
 * as the matcher adds its own). */
static uint8_t *saved(const ac_automaton *ac, size_t *size)
{
	struct secfile_writer w = { .pieces = NULL };
	CHECK(ac_save(ac, &w) == 0, "ac_save");
	CHECK(secfile_add_copy(&w, SECFILE_TAG('x', 'x', 'x', 'x'), "tail", 4) == 0, "add");
	uint8_t *img = image_of(&w, size);
	secfile_writer_free(&w);
	return img;
}

static ac_automaton *loaded(const uint8_t *img, size_t size, enum simd_level cap, const char **why)
{
	struct secfile f;
	char msg[200];
	if (secfile_open(&f, img, size, msg, sizeof msg) != 0) {
		*why = "container";
		return NULL;
	}
	return ac_load(&f, cap, why);
}

struct hits {
	ac_match m[512];
	size_t n;
};

static int hit_cb(const ac_match *m, void *ctx)
{
	struct hits *h = ctx;
	if (h->n < sizeof h->m / sizeof *h->m)
		h->m[h->n] = *m;
	h->n++;
	return 0;
}

static bool same_match(const ac_match *x, const ac_match *y)
{
	return x->start == y->start && x->end == y->end && x->pattern == y->pattern;
}

static bool same_hits(const struct hits *x, const struct hits *y)
{
	if (x->n != y->n)
		return false;
	for (size_t i = 0; i < x->n && i < sizeof x->m / sizeof *x->m; i++)
		if (!same_match(&x->m[i], &y->m[i]))
			return false;
	return true;
}

/* a and b find the same in text[0..len). */
static void same_scans(const ac_automaton *a, const ac_automaton *b, const char *text, size_t len,
		       const char *what)
{
	const uint8_t *t = (const uint8_t *)text;
	for (size_t from = 0; from <= len; from += 1 + len / 7) {
		for (int sem = 0; sem < 2; sem++) {
			ac_match ma = { 0 }, mb = { 0 };
			bool fa = ac_find(a, t, len, from, (enum ac_semantics)sem, &ma);
			bool fb = ac_find(b, t, len, from, (enum ac_semantics)sem, &mb);
			CHECK(fa == fb && (!fa || same_match(&ma, &mb)), "%s: ac_find from %zu", what,
			      from);
		}
	}
	struct hits ha = { .n = 0 }, hb = { .n = 0 };
	ac_scan_leftmost(a, t, len, 0, hit_cb, &ha);
	ac_scan_leftmost(b, t, len, 0, hit_cb, &hb);
	CHECK(same_hits(&ha, &hb), "%s: ac_scan_leftmost", what);
	ha.n = hb.n = 0;
	ac_scan_overlapping(a, t, len, 0, hit_cb, &ha);
	ac_scan_overlapping(b, t, len, 0, hit_cb, &hb);
	CHECK(same_hits(&ha, &hb), "%s: ac_scan_overlapping", what);
}

static void random_text(char *text, size_t len, unsigned alphabet)
{
	for (size_t i = 0; i < len; i++)
		text[i] = rnd(9) ? (char)((rnd(3) ? 'a' : 'A') + rnd(alphabet)) : " \n"[rnd(2)];
}

static void round_trips(void)
{
	static const enum ac_scan_path paths[] = {
		AC_PATH_AUTO, AC_PATH_DFA, AC_PATH_BITMAP, AC_PATH_MEMCHR, AC_PATH_TEDDY, AC_PATH_HASH,
		AC_PATH_RARE,
	};
	static const size_t sizes[] = { 1, 3, 40, 300, 2000 };
	char text[3000], what[160];
	int sieved = 0, shifted = 0, dense_started = 0;
	for (int t = 0; t < 60; t++) {
		struct set s;
		unsigned alphabet = 2 + rnd(8);
		size_t n = sizes[rnd(5)];
		/* every fourth set long enough for the HASH path's strides, and
		 * every fourth of 3-4 bytes at least (its sieve at stride 1) */
		size_t min_len = t % 4 == 0 ? 5 + rnd(8) : t % 4 == 2 ? 3 + rnd(2) : 1;
		random_set(&s, t % 4 ? alphabet : 2, min_len, 1 + rnd(n > 300 ? 8 : 20), n);
		unsigned flags = rnd(2) ? AC_FOLD_ASCII : 0;
		bool empty = rnd(5) == 0;
		enum ac_scan_path path = paths[rnd(sizeof paths / sizeof *paths)];
		enum simd_level cap = rnd(2) ? SIMD_BEST : SIMD_SCALAR;
		ac_automaton *ac = compile_set(&s, flags, empty, path, cap);
		size_t size;
		uint8_t *img = saved(ac, &size);
		const char *why = NULL;
		ac_automaton *back = loaded(img, size, cap, &why);
		snprintf(what, sizeof what, "set %d (%zu patterns, fold %u, empty %d, path %d/%d)", t, s.n,
			 flags, empty, (int)path, (int)ac_scan_path_used(ac));
		CHECK(back != NULL, "%s: loads: %s", what, why ? why : "");
		if (back) {
			CHECK(ac_scan_path_used(back) == ac_scan_path_used(ac) &&
				      ac_state_count(back) == ac_state_count(ac) &&
				      ac_max_pattern_len(back) == ac_max_pattern_len(ac) &&
				      ac_pattern_count(back) == ac_pattern_count(ac) &&
				      !memcmp(back->rare_before, ac->rare_before, sizeof ac->rare_before) &&
				      !memcmp(back->rare_after, ac->rare_after, sizeof ac->rare_after) &&
				      !memcmp(back->rare_lead, ac->rare_lead, sizeof ac->rare_lead) &&
				      back->rare_windowed == ac->rare_windowed &&
				      back->window_sieved == ac->window_sieved &&
				      !memcmp(&back->window_sieve, &ac->window_sieve,
					      ac->window_sieved ? sizeof ac->window_sieve : 0) &&
				      back->bits_only == ac->bits_only && back->dense_start == ac->dense_start,
			      "%s: the same facts, RARE neighbour and lead sets, HASH sieve and derived flags",
			      what);
			const struct window_shift *sa = ac->shift_cell ? ac_window_shift(ac) : NULL;
			const struct window_shift *sb = back->shift_cell ? ac_window_shift(back) : NULL;
			CHECK((sa != NULL) == (sb != NULL) &&
				      (!sa || !memcmp(sa->reach, sb->reach, sizeof *sa->reach << SHIFT_DOMAIN_BITS)),
			      "%s: the same HASH shift-or filter", what);
			shifted += sa != NULL;
			dense_started += ac->dense_start;
			sieved += ac->window_sieved;
			random_text(text, sizeof text, alphabet);
			same_scans(ac, back, text, sizeof text, what);
			for (size_t i = 0; i < s.n; i++) {
				uint32_t ia = 0, ib = 0;
				bool fa = ac_pattern_id(ac, s.bytes + s.start[i], s.len[i], &ia);
				bool fb = ac_pattern_id(back, s.bytes + s.start[i], s.len[i], &ib);
				CHECK(fa == fb && ia == ib, "%s: ac_pattern_id of %zu", what, i);
			}
			/* a load on a CPU with fewer kernels (scalar) finds the same */
			ac_automaton *scalar = loaded(img, size, SIMD_SCALAR, &why);
			CHECK(scalar && ac_simd_used(scalar) == SIMD_SCALAR, "%s: scalar load", what);
			if (scalar)
				same_scans(ac, scalar, text, sizeof text, what);
			ac_free(scalar);
		}
		ac_free(back);
		ac_free(ac);
		free(img);
	}
	if (simd_cpu_level() >= SIMD_AVX512 && simd_cpu_vbmi())
		CHECK(sieved > 0, "some set saved and loaded with the HASH sieve");
	if (simd_cpu_level() == SIMD_SSSE3 || (simd_cpu_level() == SIMD_AVX2 && simd_cpu_slow_gathers()))
		CHECK(shifted > 0, "some set saved and loaded with the HASH shift-or filter");
	/* e-mail addresses on RARE: the window test is saved and loaded */
	static const char *const mail[] = { "jo@example.org", "ann@web.example", "x.y@z.example" };
	ac_automaton *rare = ac_new(AC_FOLD_ASCII);
	for (size_t i = 0; i < 3; i++)
		ac_add(rare, mail[i], strlen(mail[i]));
	CHECK(ac_compile(rare, AC_PATH_RARE) == 0 && rare->rare_windowed, "e-mail addresses: the window test");
	size_t rare_size;
	uint8_t *rare_img = saved(rare, &rare_size);
	const char *rare_why = NULL;
	ac_automaton *rare_back = loaded(rare_img, rare_size, SIMD_BEST, &rare_why);
	CHECK(rare_back && rare_back->rare_windowed && rare_back->window_fold == rare->window_fold &&
		      !memcmp(rare_back->window_bits, rare->window_bits, sizeof rare->window_bits),
	      "e-mail addresses: the window test loaded: %s", rare_why ? rare_why : "");
	static const char mail_text[] = "To: Jo@Example.org, ann@web.example; jo@ex, port@0, x.y@z.example\n";
	if (rare_back)
		same_scans(rare, rare_back, mail_text, sizeof mail_text - 1, "e-mail addresses");
	ac_free(rare_back);
	ac_free(rare);
	free(rare_img);
	/* a dictionary's first letters: Teddy's model rates its candidates as
	 * dense as the bytes, and the loaded set derives that again */
	ac_automaton *dict = ac_new(0);
	for (char c = 'a'; c <= 'z'; c++)
		ac_add(dict, &c, 1);
	CHECK(ac_compile(dict, AC_PATH_TEDDY) == 0, "dictionary: compile");
	size_t size;
	uint8_t *img = saved(dict, &size);
	const char *why = NULL;
	ac_automaton *back = loaded(img, size, SIMD_BEST, &why);
	CHECK(dict->dense_start && back && back->dense_start, "dictionary: dense_start, %d sets so far",
	      dense_started);
	ac_free(back);
	ac_free(dict);
	free(img);
}

/* Every match of a scan, folded into one number, and their count. */
struct digest {
	uint64_t h;
	size_t n;
};

static int digest_cb(const ac_match *m, void *ctx)
{
	struct digest *d = ctx;
	d->h = (d->h ^ (m->start * 1000003u + m->end * 7919u + m->pattern)) * 0x100000001b3u;
	d->n++;
	return 0;
}

/* A set of more than 65,536 states (ac_internal.h's AC_LARGE_STATES): the
 * compiled automaton reports a state's single output without dict[] (its
 * multi_out bitmap), the loaded one (which has none) walks dict[] for
 * every match; both find the same.  Long words over six letters, each
 * with its suffixes of up to six bytes (states with one output, own or
 * inherited, and with several), and a text of those words and letters. */
static void large_round_trip(void)
{
	enum { WORDS = 4000, WORD_MAX = 40, TEXT = 1 << 16 };
	char *words = malloc((size_t)WORDS * WORD_MAX), *text = malloc(TEXT);
	size_t lens[WORDS];
	ac_automaton *ac = ac_new(0);
	if (!words || !text || !ac) {
		fprintf(stderr, "test_ac_file: out of memory\n");
		exit(2);
	}
	for (size_t i = 0; i < WORDS; i++) {
		char *w = words + i * WORD_MAX;
		lens[i] = 24 + rnd(WORD_MAX - 24);
		for (size_t k = 0; k < lens[i]; k++)
			w[k] = (char)('a' + rnd(6));
		ac_add(ac, w, lens[i]);
		for (size_t k = 1; k <= 6; k++)
			ac_add(ac, w + lens[i] - k, k);
	}
	if (ac_compile(ac, AC_PATH_AUTO) != 0) {
		fprintf(stderr, "test_ac_file: cannot compile\n");
		exit(2);
	}
	CHECK(ac_state_count(ac) > 65536, "large set: %zu states", ac_state_count(ac));
	for (size_t at = 0; at < TEXT;) {
		size_t i = rnd(WORDS), n = rnd(3) ? lens[i] : 1 + rnd(8);
		n = n < TEXT - at ? n : TEXT - at;
		for (size_t k = 0; k < n; k++) /* a word, or a few letters and spaces */
			text[at + k] = n == lens[i] ? words[i * WORD_MAX + k] : " abcdef"[rnd(7)];
		at += n;
	}
	size_t size;
	uint8_t *img = saved(ac, &size);
	const char *why = NULL;
	ac_automaton *back = loaded(img, size, SIMD_BEST, &why);
	CHECK(back != NULL, "large set: loads: %s", why ? why : "");
	for (int overlapping = 0; back && overlapping < 2; overlapping++) {
		struct digest da = { .n = 0 }, db = { .n = 0 };
		const uint8_t *t = (const uint8_t *)text;
		if (overlapping) {
			ac_scan_overlapping(ac, t, TEXT, 0, digest_cb, &da);
			ac_scan_overlapping(back, t, TEXT, 0, digest_cb, &db);
		} else {
			ac_scan_leftmost(ac, t, TEXT, 0, digest_cb, &da);
			ac_scan_leftmost(back, t, TEXT, 0, digest_cb, &db);
		}
		CHECK(da.n > TEXT / 16 && da.n == db.n && da.h == db.h,
		      "large set: the same %s matches (%zu, %zu)", overlapping ? "overlapping" : "leftmost",
		      da.n, db.n);
	}
	ac_free(back);
	ac_free(ac);
	free(img);
	free(text);
	free(words);
}

/* A set that holds every byte value (257 classes, the last wrapping to
 * class 0) saves, loads, and scans alike. */
static void all_bytes_round_trip(void)
{
	ac_automaton *ac = ac_new(0);
	char all[256], text[4096];
	for (int b = 0; b < 256; b++)
		all[b] = (char)(255 - b);
	for (size_t i = 0; ac && i < 256; i++) {
		ac_add(ac, all + i, 1 + i % 7 < 256 - i ? 1 + i % 7 : 256 - i);
		ac_add(ac, all, 256 - i);
	}
	if (!ac || ac_compile(ac, AC_PATH_AUTO) != 0) {
		fprintf(stderr, "test_ac_file: cannot compile\n");
		exit(2);
	}
	for (size_t i = 0; i < sizeof text; i++)
		text[i] = rnd(4) ? all[rnd(12)] : (char)rnd(256);
	memcpy(text + 1000, all, 256);
	size_t size;
	uint8_t *img = saved(ac, &size);
	const char *why = NULL;
	ac_automaton *back = loaded(img, size, SIMD_BEST, &why);
	CHECK(back != NULL, "all bytes: loads: %s", why ? why : "");
	if (back)
		same_scans(ac, back, text, sizeof text, "all bytes");
	ac_free(back);
	ac_free(ac);
	free(img);
}

/* The scans of an automaton a changed file gave: every match inside the
 * text and naming a pattern below the count. */
static int sane_cb(const ac_match *m, void *ctx)
{
	const size_t *lim = ctx; /* text length, pattern count */
	CHECK(m->start <= m->end && m->end <= lim[0] && m->pattern < lim[1], "a sane match");
	return 0;
}

static void scan_sanely(const ac_automaton *ac, const char *text, size_t len)
{
	size_t lim[2] = { len, ac_pattern_count(ac) };
	ac_match m;
	for (int sem = 0; sem < 2; sem++)
		if (ac_find(ac, (const uint8_t *)text, len, 0, (enum ac_semantics)sem, &m))
			sane_cb(&m, lim);
	ac_scan_leftmost(ac, (const uint8_t *)text, len, 0, sane_cb, lim);
	ac_scan_overlapping(ac, (const uint8_t *)text, len, 0, sane_cb, lim);
	uint32_t id;
	if (ac_pattern_id(ac, text, len < 9 ? len : 9, &id))
		CHECK(id < lim[1], "a sane pattern id");
}

/* Changes a word of img past its header and table: a random value, a
 * neighbour, or one of the values a check turns on. */
static void mutate(uint8_t *img, size_t size)
{
	static const uint32_t specials[] = { 0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 64, 255 };
	size_t at = 64 + rnd((unsigned)(size - 68)) / 4 * 4;
	uint32_t v;
	memcpy(&v, img + at, 4);
	switch (rnd(3)) {
	case 0: v = (uint32_t)rnd64(); break;
	case 1: v += rnd(2) ? 1 : (uint32_t)-1; break;
	default: v = specials[rnd(sizeof specials / sizeof *specials)]; break;
	}
	memcpy(img + at, &v, 4);
}

static void changed_files(void)
{
	char text[600];
	size_t accepted = 0, refused = 0;
	for (int t = 0; t < 40; t++) {
		struct set s;
		random_set(&s, 3, 1, 6, 1 + rnd(60));
		ac_automaton *ac = compile_set(&s, rnd(2) ? AC_FOLD_ASCII : 0, rnd(4) == 0,
					       (enum ac_scan_path)rnd(6), SIMD_BEST);
		size_t size;
		uint8_t *img = saved(ac, &size);
		uint8_t *copy = aligned_alloc(64, (size + 64) & ~(size_t)63);
		for (int k = 0; k < 60; k++) {
			memcpy(copy, img, size);
			for (unsigned c = 1 + rnd(3); c > 0; c--)
				mutate(copy, size);
			secfile_reseal(copy, size);
			const char *why;
			ac_automaton *bad = loaded(copy, size, SIMD_BEST, &why);
			if (!bad) {
				refused++;
				continue;
			}
			accepted++;
			random_text(text, sizeof text, 3);
			scan_sanely(bad, text, sizeof text);
			ac_free(bad);
		}
		free(copy);
		free(img);
		ac_free(ac);
	}
	/* both kinds occur: the checks refuse, and what they let through is scanned */
	CHECK(refused > 0 && accepted > 0, "changed files: %zu refused, %zu accepted", refused, accepted);
}

int main(void)
{
	hash_values();
	container();
	round_trips();
	large_round_trip();
	all_bytes_round_trip();
	changed_files();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
