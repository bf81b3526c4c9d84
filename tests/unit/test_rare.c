/* SPDX-License-Identifier: MIT */
/* test_rare.c - the RARE prefilter (every pattern holds one of 1-3 rare
 * bytes somewhere): its vector kernels against their definition at guarded
 * page edges, which sets choose it, and its scans against the DFA's.
 *
 * - Kernels: for random sets of 1-3 bytes (the unused slots repeating the
 *   first), every kernel this CPU runs must return, from every start of
 *   every text of 0 to 200 bytes that ends at an inaccessible page or
 *   starts after one, the first 64-byte block holding a byte of the set and
 *   its mask, or the first block it does not handle with mask 0.
 * - Choice, by ac_prefilter.c's costs: without Teddy (the scalar cap),
 *   e-mail addresses (also with rarer UTF-8 bytes in each, four of them:
 *   '@' is in all; also mailing lists with a local part of 53 bytes, which
 *   a candidate steps back over only as far as the lead bytes go),
 *   key=value pairs and domains with the pattern "." (no
 *   HASH window: RARE on '.' against BITMAP) choose RARE; words without a
 *   byte in common, URLs (':' costs more than HASH), and sets needing four
 *   rare bytes, do not; forced on such a set, RARE falls back to the
 *   bitmap.  With Teddy (x86 from SSSE3 on), the domains choose RARE (the
 *   first bytes of the domains pass more text than '.') and the URLs Teddy
 *   (its fingerprint "htt" passes less than ':'); so do 100 host names too
 *   many for Teddy, whose first '.' lies 19 bytes in (RARE, not HASH).
 * - Neighbour sets: the bytes next to a rare byte in some pattern, both
 *   cases of a letter under folding, every byte where a pattern begins or
 *   ends with one; the lead set, the bytes before a pattern's first rare
 *   byte; nothing for another path.
 * - Window test: on for e-mail addresses, passing the windows of two bytes
 *   each side of '@' the patterns hold (any byte where one begins a byte
 *   before it), both cases under folding, and a rare byte within two bytes
 *   of the text's ends; turning others away; off where a pattern leaves
 *   two bytes open next to its rare byte, and on another path.
 * - Scans: random sets whose patterns hold a rare byte at any offset (so
 *   that a match starts up to rare_reach bytes before the byte the
 *   prefilter finds), prefixes of each other, with and without folding,
 *   over random texts dense and sparse in rare bytes (next to bytes in no
 *   pattern too, which the neighbour test turns away and the lead set
 *   stops the step back at), half of them with rare bytes only two or
 *   more bytes from a pattern's ends (so that the window test is on), each
 *   text ending at a guard page or starting after one: ac_scan_leftmost,
 *   ac_scan_overlapping and ac_find's first end
 *   from every offset on RARE (scalar and each kernel) equal the DFA's.
 */
#include "ac.h"
#include "ac_internal.h"
#include "pair_simd.h"

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "guard_page.h"

static unsigned rng_state = 31337;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 16) % n;
}

#if SIMD_X86
typedef size_t rare_kernel(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos,
			   uint64_t *mask);

static const struct {
	const char *name;
	enum simd_level level; /* the CPU runs it from this level on */
	rare_kernel *scan;
} kernels[] = {
	{ .name = "rare_scan_sse2", .level = SIMD_SSSE3, .scan = rare_scan_sse2 },
	{ .name = "rare_scan_avx2", .level = SIMD_AVX2, .scan = rare_scan_avx2 },
	{ .name = "rare_scan_avx512", .level = SIMD_AVX512, .scan = rare_scan_avx512 },
};

/* The definition: the first block with 64 bytes readable holding a byte
 * of the set (its mask in *mask), else the first block without them. */
static size_t expected(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos, uint64_t *mask)
{
	for (; pos < len && len - pos >= 64; pos += 64) {
		uint64_t m = 0;
		for (size_t i = 0; i < 64; i++)
			if (buf[pos + i] == set[0] || buf[pos + i] == set[1] || buf[pos + i] == set[2])
				m |= UINT64_C(1) << i;
		if (m) {
			*mask = m;
			return pos;
		}
	}
	*mask = 0;
	return pos;
}

static void check_kernels(const uint8_t *buf, size_t len, const char *where, enum simd_level cpu)
{
	uint8_t set[3] = { (uint8_t)rnd(256), (uint8_t)rnd(256), (uint8_t)rnd(256) };
	if (rnd(3) == 0)
		set[1] = set[2] = set[0];
	for (size_t pos = 0; pos <= len; pos++) {
		uint64_t want = 0;
		size_t wb = expected(set, buf, len, pos, &want);
		for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
			if (kernels[k].level > cpu)
				continue;
			uint64_t got = 0;
			size_t gb = kernels[k].scan(set, buf, len, pos, &got);
			CHECK(gb == wb && got == want, "%s, text %s: len %zu pos %zu: block %zu mask %llx, want %zu %llx",
			      kernels[k].name, where, len, pos, gb, (unsigned long long)got, wb,
			      (unsigned long long)want);
		}
	}
}
#endif

static ac_automaton *compiled(const char *const *pats, size_t np, unsigned flags, enum ac_scan_path path,
			      enum simd_level cap)
{
	ac_automaton *ac = ac_new(flags);
	for (size_t k = 0; k < np; k++)
		ac_add(ac, pats[k], strlen(pats[k]));
	ac_limit_simd(ac, cap);
	CHECK(ac_compile(ac, path) == 0, "compile");
	return ac;
}

#if SIMD_X86
/* 100 host names of three labels, the first of 19 bytes (rare_reach), with
 * more distinct first bytes than Teddy serves, as scripts/perf/rare.sh's
 * domains: "kalo-archive-mirror.example.org" .. */
static ac_automaton *hosts_compiled(void)
{
	static const char *const syllables[] = { "ka", "lo", "mi", "nu", "pe", "ri", "so", "tu", "va", "ze" };
	ac_automaton *ac = ac_new(0);
	for (int i = 0; i < 100; i++) {
		char host[64];
		int n = snprintf(host, sizeof host, "%s%s-archive-mirror.example.%s", syllables[i / 10], syllables[i % 10],
				 i % 3 ? "org" : "net");
		ac_add(ac, host, (size_t)n);
	}
	CHECK(ac_compile(ac, AC_PATH_AUTO) == 0, "compile");
	return ac;
}
#endif

static void check_choice(void)
{
	static const char *const mail[] = { "alice@example.org", "bob.smith@mail.example.com", "x@y.z" };
	/* rarer bytes than '@' in each (UTF-8's), four of them: '@' is in all */
	static const char *const mail_utf8[] = { "fran\xc3\xa7ois@example.org", "stra\xc3\x9f\x65@example.de",
						 "jos\xc3\xa9@example.es", "zo\xc3\xab@x.y" };
	static const char *const urls[] = { "https://example.org/a", "http://b.example.net/", "ftp://c.d/e" };
	static const char *const kv[] = { "user=root", "shell=/bin/sh", "uid=0" };
	static const char *const words[] = { "alpha", "beta", "gamma", "delta", "epsilon" };
	static const char *const four[] = { "a@b", "c=d", "e$f", "g#h" };
	static const char *const domains[] = { ".", "www.debian.org", "bugs.debian.org", "ftp.gnu.org",
					       "git.kernel.org", "salsa.debian.org", "tracker.debian.org",
					       "sources.debian.org" };
	/* as scripts/perf/rare.sh's: host names of two labels or more, long
	 * local parts (the step back to a match's start is over the lead
	 * bytes, not rare_reach) */
	static const char *const lists[] = { "pkg-javascript-devel@lists.alioth.debian.org",
					     "pkg-java-maintainers-and-the-friends-of-free-runtimes@lists.debian.org",
					     "debian-boot@lists.debian.org", "team+pkg-security@tracker.debian.org",
					     "pkg-multimedia-maintainers@lists.alioth.debian.org",
					     "debian-x@lists.debian.org" };
	struct {
		const char *name;
		const char *const *pats;
		size_t n;
		enum ac_scan_path want;
	} sets[] = {
		{ "mailing lists", lists, 6, AC_PATH_RARE },
		{ "mail", mail, 3, AC_PATH_RARE },
		{ "mail, UTF-8", mail_utf8, 4, AC_PATH_RARE },
		{ "urls", urls, 3, AC_PATH_HASH },
		{ "key=value", kv, 3, AC_PATH_RARE },
		{ "words", words, 5, AC_PATH_HASH },
		{ "four rare bytes", four, 4, AC_PATH_HASH },
		{ "domains", domains, 8, AC_PATH_RARE },
	};
	for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
		/* the scalar cap keeps Teddy, which small sets take first, out */
		ac_automaton *ac = compiled(sets[i].pats, sets[i].n, 0, AC_PATH_AUTO, SIMD_SCALAR);
		enum ac_scan_path got = ac_scan_path_used(ac);
		CHECK(got == sets[i].want || (sets[i].want == AC_PATH_HASH && got == AC_PATH_BITMAP),
		      "%s: path %d, want %d", sets[i].name, (int)got, (int)sets[i].want);
		ac_free(ac);
	}
	ac_automaton *ac = compiled(four, 4, 0, AC_PATH_RARE, SIMD_BEST);
	CHECK(ac_scan_path_used(ac) == AC_PATH_BITMAP, "four rare bytes, forced: falls back to the bitmap");
	ac_free(ac);
#if SIMD_X86
	if (simd_cpu_level() >= SIMD_SSSE3) {
		ac = compiled(domains, 8, 0, AC_PATH_AUTO, SIMD_BEST);
		CHECK(ac_scan_path_used(ac) == AC_PATH_RARE, "domains, with Teddy: path %d, want RARE",
		      (int)ac_scan_path_used(ac));
		ac_free(ac);
		ac = compiled(urls, 3, 0, AC_PATH_AUTO, SIMD_BEST);
		CHECK(ac_scan_path_used(ac) == AC_PATH_TEDDY, "urls, with Teddy: path %d, want TEDDY",
		      (int)ac_scan_path_used(ac));
		ac_free(ac);
		ac = hosts_compiled();
		CHECK(ac_scan_path_used(ac) == AC_PATH_RARE, "host names, with vector kernels: path %d, want RARE",
		      (int)ac_scan_path_used(ac));
		ac_free(ac);
	}
#endif
}

struct collect {
	size_t n;
	size_t start[2048], end[2048];
	uint32_t id[2048];
};

static int collect_cb(const ac_match *m, void *ctx)
{
	struct collect *c = ctx;
	if (c->n < 2048) {
		c->start[c->n] = m->start;
		c->end[c->n] = m->end;
		c->id[c->n] = m->pattern;
	}
	c->n++;
	return 0;
}

static bool same(const struct collect *a, const struct collect *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n && i < 2048; i++)
		if (a->start[i] != b->start[i] || a->end[i] != b->end[i] || a->id[i] != b->id[i])
			return false;
	return true;
}

/* Whether the 256-bit set holds exactly the bytes of `bytes` (NULL: all). */
static bool set_is(const uint64_t set[4], const char *bytes)
{
	for (unsigned b = 0; b < 256; b++)
		if (ac_byte_in(set, (uint8_t)b) != (!bytes || (b && strchr(bytes, (int)b))))
			return false;
	return true;
}

static void check_neighbours(void)
{
	static const char *const mail[] = { "jo@ex", "ann@web", "x@ex", "a@b@c" };
	ac_automaton *ac = compiled(mail, 4, 0, AC_PATH_RARE, SIMD_BEST);
	CHECK(ac_scan_path_used(ac) == AC_PATH_RARE && set_is(ac->rare_before, "onxab") &&
		      set_is(ac->rare_after, "ewbc"),
	      "e-mail addresses: before and after '@'");
	CHECK(set_is(ac->rare_lead, "joanx"), "e-mail addresses: the bytes before the first '@'");
	ac_free(ac);
	static const char *const edges[] = { "@Key", "Val@" };
	ac = compiled(edges, 2, AC_FOLD_ASCII, AC_PATH_RARE, SIMD_BEST);
	CHECK(ac_scan_path_used(ac) == AC_PATH_RARE && set_is(ac->rare_before, NULL) &&
		      set_is(ac->rare_after, NULL),
	      "a pattern begins and one ends with the rare byte: every byte");
	CHECK(set_is(ac->rare_lead, "vVaAlL"), "folded: the lead bytes in both cases");
	ac_free(ac);
	static const char *const folded[] = { "Ab=cD" };
	ac = compiled(folded, 1, AC_FOLD_ASCII, AC_PATH_RARE, SIMD_BEST);
	CHECK(set_is(ac->rare_before, "bB") && set_is(ac->rare_after, "cC"), "folded: both cases");
	ac_free(ac);
	ac = compiled(mail, 4, 0, AC_PATH_DFA, SIMD_BEST);
	CHECK(set_is(ac->rare_before, "") && set_is(ac->rare_after, "") && set_is(ac->rare_lead, ""),
	      "another path: empty sets");
	ac_free(ac);
}

/* Whether the window test of ac lets a rare byte stand at c of text. */
static bool window_fits(const ac_automaton *ac, const char *text, size_t c)
{
	return ac_rare_window_fits(ac, (const uint8_t *)text, strlen(text), c);
}

static void check_windows(const struct guard_page *g)
{
	static const char *const mail[] = { "jo@ex", "ann@web", "x@ex" };
	ac_automaton *ac = compiled(mail, 3, 0, AC_PATH_RARE, SIMD_BEST);
	CHECK(ac->rare_windowed, "e-mail addresses: the window test is on");
	CHECK(window_fits(ac, "jo@ex", 2) && window_fits(ac, "ann@web", 3) && window_fits(ac, "-jo@ex-", 3),
	      "e-mail addresses: the windows the patterns hold");
	CHECK(window_fits(ac, "ax@ex", 2) && window_fits(ac, "?x@exz", 2),
	      "a pattern beginning one byte before '@': any byte before it");
	CHECK(!window_fits(ac, "zo@ex", 2) && !window_fits(ac, "jo@ey", 2) && !window_fits(ac, "nn@wxb", 2),
	      "e-mail addresses: windows no pattern holds are turned away");
	CHECK(window_fits(ac, "o@zz", 1) && window_fits(ac, "zz@z", 2), "within two bytes of the text's ends: passed");
	memcpy(g->start, "o@ex", 4); /* any byte read outside the text faults */
	memcpy(g->end - 4, "jo@e", 4);
	CHECK(ac_rare_window_fits(ac, g->start, 4, 1) && ac_rare_window_fits(ac, g->end - 4, 4, 2),
	      "at guard pages: passed, reading no byte outside the text");
	ac_free(ac);
	static const char *const folded[] = { "xAb=cDx" };
	ac = compiled(folded, 1, AC_FOLD_ASCII, AC_PATH_RARE, SIMD_BEST);
	CHECK(ac->rare_windowed && window_fits(ac, "aB=Cd", 2) && window_fits(ac, "ab=cd", 2) &&
		      !window_fits(ac, "ab=ce", 2),
	      "folded: both cases of the window");
	ac_free(ac);
	static const char *const open_two[][2] = { { "@Key", "jo@ex" }, { "jo@ex", "Val@" }, { "a@b", "jo@ex" } };
	for (size_t i = 0; i < 3; i++) {
		ac = compiled(open_two[i], 2, 0, AC_PATH_RARE, SIMD_BEST);
		CHECK(ac_scan_path_used(ac) == AC_PATH_RARE && !ac->rare_windowed && window_fits(ac, "zz@zz", 2),
		      "'%s': two bytes open next to '@' (65,536 windows): the test is off", open_two[i][0]);
		ac_free(ac);
	}
	ac = compiled(mail, 3, 0, AC_PATH_DFA, SIMD_BEST);
	CHECK(!ac->rare_windowed, "another path: the test is off");
	ac_free(ac);
}

/* A random set over the alphabet "ab" plus the rare bytes '@', '=', ':'
 * (each pattern holding at least one, anywhere), and a text of len bytes
 * from the same alphabet with the given rare-byte density. */
static size_t random_case(char pats[][24], const char **pp, char *text, size_t len, bool inner)
{
	static const char rare[] = "@=:";
	size_t np = 1 + rnd(6);
	unsigned n_rare = 1 + rnd(3);
	for (size_t k = 0; k < np; k++) {
		size_t l = 1 + rnd(20), at = rnd((unsigned)l);
		if (inner) { /* rare bytes two or more from each end: the window test is on */
			l = 5 + rnd(16);
			at = 2 + rnd((unsigned)l - 4);
		}
		for (size_t i = 0; i < l; i++) {
			bool may = !inner || (i >= 2 && i + 2 < l);
			pats[k][i] = (char)(i == at || (may && rnd(4) == 0) ? rare[rnd(n_rare)] : "abAB"[rnd(4)]);
		}
		pats[k][l] = '\0';
		if (k > 0 && !inner && rnd(4) == 0) /* a prefix of an earlier one, when it holds a rare byte */
			for (size_t p = 1; p <= strlen(pats[k - 1]); p++)
				if (strchr(rare, pats[k - 1][p - 1])) {
					memcpy(pats[k], pats[k - 1], p);
					pats[k][p] = '\0';
					break;
				}
		pp[k] = pats[k];
	}
	unsigned density = 1 + rnd(40);
	for (size_t i = 0; i < len; i++) {
		text[i] = (char)(rnd(density) == 0 ? rare[rnd(3)] : "abAB x"[rnd(6)]);
		if (rnd(30) == 0) { /* plant a pattern */
			const char *p = pp[rnd((unsigned)np)];
			size_t l = strlen(p);
			if (i + l <= len) {
				memcpy(text + i, p, l);
				i += l - 1;
			}
		}
	}
	return np;
}

static void scan_all(const ac_automaton *ac, const uint8_t *text, size_t len, struct collect *lm,
		     struct collect *ov, struct collect *fe)
{
	lm->n = ov->n = fe->n = 0;
	ac_scan_leftmost(ac, text, len, 0, collect_cb, lm);
	ac_scan_overlapping(ac, text, len, 0, collect_cb, ov);
	for (size_t f = 0; f <= len; f++) {
		ac_match m;
		if (ac_find(ac, text, len, f, AC_FIRST_END, &m))
			collect_cb(&m, fe);
	}
}

static void check_scans(const struct guard_page *g)
{
	static const enum simd_level caps[] = { SIMD_SCALAR, SIMD_SSSE3, SIMD_AVX2, SIMD_BEST };
	static struct collect want[3], got[3];
	char pats[6][24];
	const char *pp[6];
	size_t rare_cases = 0, windowed = 0;
	for (int round = 0; round < 400; round++) {
		size_t len = 1 + rnd(300);
		/* ending at a guard page, or (the window's bytes before a rare
		 * byte) starting after one */
		char *text = round % 4 == 3 ? (char *)g->start : (char *)g->end - len;
		size_t np = random_case(pats, pp, text, len, round % 2);
		unsigned flags = rnd(2) ? AC_FOLD_ASCII : 0;
		ac_automaton *ref = compiled(pp, np, flags, AC_PATH_DFA, SIMD_BEST);
		scan_all(ref, (const uint8_t *)text, len, &want[0], &want[1], &want[2]);
		for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
			ac_automaton *ac = compiled(pp, np, flags, AC_PATH_RARE, caps[c]);
			rare_cases += ac_scan_path_used(ac) == AC_PATH_RARE;
			windowed += ac->rare_windowed;
			scan_all(ac, (const uint8_t *)text, len, &got[0], &got[1], &got[2]);
			CHECK(same(&want[0], &got[0]) && same(&want[1], &got[1]) && same(&want[2], &got[2]),
			      "round %d, cap %d, %zu patterns (first '%s'), text of %zu: leftmost %zu/%zu, "
			      "overlapping %zu/%zu, first end %zu/%zu",
			      round, (int)caps[c], np, pp[0], len, got[0].n, want[0].n, got[1].n, want[1].n, got[2].n,
			      want[2].n);
			ac_free(ac);
		}
		ac_free(ref);
	}
	CHECK(rare_cases == 400 * sizeof caps / sizeof *caps, "RARE served %zu of the cases", rare_cases);
	CHECK(windowed >= 200 * sizeof caps / sizeof *caps, "the window test was on in %zu of the cases",
	      windowed);
}

int main(void)
{
	struct guard_page g;
	bool mapped = guard_page_map(&g);
	CHECK(mapped, "guard pages");
	if (!mapped)
		return 1;
#if SIMD_X86
	enum simd_level cpu = simd_cpu_level();
	for (size_t len = 0; len <= 200; len++) {
		uint8_t *end_text = g.end - len, *start_text = g.start;
		uint8_t common = (uint8_t)rnd(256);
		for (size_t i = 0; i < len; i++) /* one byte repeated, others rare: sparse blocks too */
			end_text[i] = rnd(8) ? common : (uint8_t)rnd(256);
		check_kernels(end_text, len, "ending at a guard page", cpu);
		memmove(start_text, end_text, len);
		check_kernels(start_text, len, "starting after a guard page", cpu);
	}
#endif
	check_choice();
	check_neighbours();
	check_windows(&g);
	check_scans(&g);
	guard_page_free(&g);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
