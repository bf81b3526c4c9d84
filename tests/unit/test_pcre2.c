/* SPDX-License-Identifier: MIT */
/* test_pcre2.c - unit tests for the PCRE2 matcher (src/grep/match/matcher_pcre2.c).
 *
 * Table-driven cases list every match found by calling find() from the
 * previous match end (one byte further after an empty match), as grep -o
 * does.  Each case runs with the default batching and with the test hook
 * matcher_pcre2_batch_limit forced to 1 and 2 alternatives per regex.
 * Cases marked 'g', and a randomized run, are also checked against GNU grep
 * (LC_ALL=C or C.UTF-8, grep -a -F -o -b), which omits empty matches.
 * Prints "N passed, N failed"; exits non-zero on failure.  Without PCRE2
 * compiled in it checks the error message only.
 */
#include "match/matcher.h"
#include "pattern_list.h"

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

extern size_t matcher_pcre2_batch_limit;

static int passed, failed;

static void check(bool ok, const char *name, const char *detail)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s%s%s\n", name, detail ? ": " : "", detail ? detail : "");
}

static struct match_options parse_opts(const char *o)
{
	struct match_options mo = { .eol = strchr(o, 'z') ? '\0' : '\n' };
	mo.ignore_case = strchr(o, 'i') != NULL;
	mo.word = strchr(o, 'w') != NULL;
	mo.line = strchr(o, 'x') != NULL;
	mo.utf8 = strchr(o, 'u') != NULL;
	return mo;
}

/* Whether GNU grep 3.8 keeps its fixed-string matcher for -F rather than
 * switching to its regex matcher (grep.c): in a single-byte locale it
 * switches for a single -w pattern; in UTF-8 for a pattern that is not
 * valid UTF-8, or with -i for a character with a multibyte case variant. */
static bool grep_uses_kwset(const struct pattern *pats, size_t n, const struct match_options *mo)
{
	if (!mo->utf8)
		return !(n == 1 && mo->word);
	for (size_t i = 0; i < n; i++) {
		mbstate_t st;
		memset(&st, 0, sizeof st);
		for (size_t j = 0; j < pats[i].len;) {
			wchar_t wc;
			size_t l = mbrtowc(&wc, pats[i].bytes + j, pats[i].len - j, &st);
			if (l == (size_t)-1 || l == (size_t)-2)
				return false;
			if (l == 0)
				l = 1;
			bool multibyte_variant = l > 1 ? (towupper((wint_t)wc) != (wint_t)wc ||
							  towlower((wint_t)wc) != (wint_t)wc)
						       : wc && strchr("iIsS", (int)wc); /* U+0131, U+017F */
			if (mo->ignore_case && multibyte_variant)
				return false;
			j += l;
		}
	}
	return true;
}

/* Formats every match as "s-e s-e ..."; nonempty_only mimics grep -o.
 * Returns false (and sets *error) when the matcher cannot be built. */
static bool run(const struct pattern *pats, size_t n, const char *o, const char *text,
		size_t len, bool nonempty_only, char *out, size_t outsz, const char **error)
{
	struct pattern_set ps = pattern_list(pats, n);
	struct match_options mo = parse_opts(o);
	struct matcher *m = matcher_pcre2_new(&ps, &mo, error);
	pattern_list_free(&ps);
	if (!m)
		return false;
	size_t from = 0, s, e, used = 0;
	out[0] = '\0';
	/* grep -o quirk: with -w, when grep runs its fixed-string matcher, a
	 * match starting right at the previous match end is not checked
	 * against the character before it (Fexecute takes start_ptr for the
	 * start of the buffer); mimic it by also searching a slice. */
	bool quirk = nonempty_only && mo.word && !mo.line && grep_uses_kwset(pats, n, &mo);
	while (from <= len) {
		size_t s2, e2;
		if (quirk && matcher_find(m, text + from, len - from, 0, true, &s2, &e2) &&
		    s2 == 0) {
			s = from;
			e = from + e2;
		} else if (!matcher_find(m, text, len, from, true, &s, &e)) {
			break;
		}
		if (s < from || e < s || e > len) {
			snprintf(out + used, outsz - used, "BAD[%zu,%zu)", s, e);
			break;
		}
		if (e > s || !nonempty_only)
			used += (size_t)snprintf(out + used, outsz - used, "%s%zu-%zu",
						 used ? " " : "", s, e);
		if (used >= outsz)
			break;
		from = e > s ? e : e + 1;
	}
	matcher_free(m);
	return true;
}

static char dir[64]; /* scratch directory for grep's input files */

static void remove_scratch(void)
{
	char path[96];
	if (!dir[0])
		return;
	snprintf(path, sizeof path, "%s/pat", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/txt", dir);
	unlink(path);
	rmdir(dir);
}

/* Runs GNU grep on the same input; returns false if grep could not run. */
static bool run_grep(const struct pattern *pats, size_t n, const char *o, const char *text,
		     size_t len, char *out, size_t outsz)
{
	if (!dir[0]) {
		strcpy(dir, "/tmp/test_pcre2.XXXXXX");
		if (!mkdtemp(dir))
			return false;
	}
	char pf[96], tf[96], cmd[512];
	snprintf(pf, sizeof pf, "%s/pat", dir);
	snprintf(tf, sizeof tf, "%s/txt", dir);
	FILE *f = fopen(pf, "wb");
	if (!f)
		return false;
	for (size_t i = 0; i < n; i++) {
		fwrite(pats[i].bytes, 1, pats[i].len, f);
		fputc('\n', f);
	}
	fclose(f);
	if (!(f = fopen(tf, "wb")))
		return false;
	fwrite(text, 1, len, f);
	fclose(f);
	struct match_options mo = parse_opts(o);
	snprintf(cmd, sizeof cmd, "LC_ALL=%s grep -a -F -o -b %s%s%s%s -f %s %s",
		 mo.utf8 ? "C.UTF-8" : "C", mo.ignore_case ? "-i " : "", mo.word ? "-w " : "",
		 mo.line ? "-x " : "", mo.eol ? "" : "-z ", pf, tf);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	static char buf[1 << 16];
	size_t got = fread(buf, 1, sizeof buf, p), used = 0;
	int rc = pclose(p);
	if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) > 1)
		return false;
	out[0] = '\0';
	for (size_t i = 0; i < got;) { /* records "offset:bytes" ended by eol */
		char *rec = buf + i, *end = memchr(rec, mo.eol, got - i);
		size_t rlen = end ? (size_t)(end - rec) : got - i;
		char *colon = memchr(rec, ':', rlen);
		if (!colon)
			break;
		size_t off = strtoul(rec, NULL, 10), mlen = rlen - (size_t)(colon + 1 - rec);
		used += (size_t)snprintf(out + used, outsz - used, "%s%zu-%zu", used ? " " : "",
					 off, off + mlen);
		i += rlen + 1;
	}
	return true;
}

#define T(s) s, sizeof(s) - 1
#define TEXT(s) .text = s, .len = sizeof(s) - 1 /* in a designated initializer */

struct tcase {
	const char *name;
	const char *opts; /* i w x z u(tf8) g(check against grep) */
	const char *pats[20]; /* NULL-terminated */
	const char *text;
	size_t len;
	const char *want;
};

static const struct tcase cases[] = {
	{ .name = "ushers", .opts = "g", .pats = { "he", "she", "his", "hers", NULL },
	  TEXT("ushers"), .want = "1-4" },
	{ .name = "overlap", .opts = "g", .pats = { "he", "she", "his", "hers", NULL },
	  TEXT("she his hers ahishers"), .want = "0-3 4-7 8-12 14-17 17-21" },
	{ .name = "prefixes", .opts = "g", .pats = { "a", "ab", "abc", NULL },
	  TEXT("abcabxa"), .want = "0-3 3-5 6-7" },
	{ .name = "duplicates", .opts = "g", .pats = { "ab", "ab", "a", "ab", NULL },
	  TEXT("abab a"), .want = "0-2 2-4 5-6" },
	{ .name = "empty", .opts = "", .pats = { "", NULL }, TEXT("ab\n"), .want = "0-0 1-1 2-2" },
	{ .name = "empty+b", .opts = "g", .pats = { "", "b", NULL },
	  TEXT("ab"), .want = "0-0 1-2 2-2" },
	{ .name = "empty text", .opts = "", .pats = { "", NULL }, TEXT(""), .want = "" },
	{ .name = "no patterns", .opts = "", .pats = { NULL }, TEXT("abc"), .want = "" },
	{ .name = "nocase", .opts = "ig", .pats = { "HeLLo", NULL },
	  TEXT("hello HELLO hElLo"), .want = "0-5 6-11 12-17" },
	{ .name = "case", .opts = "g", .pats = { "HeLLo", NULL },
	  TEXT("hello HeLLo"), .want = "6-11" },
	{ .name = "word fallback", .opts = "wg", .pats = { "foo", "foobar", NULL },
	  TEXT("foobar foo"), .want = "0-6 7-10" },
	{ .name = "word fallback2", .opts = "wg", .pats = { "foo", "foobar", NULL },
	  TEXT("foobar_x foo"), .want = "9-12" },
	{ .name = "word shorter", .opts = "wg", .pats = { "foo", "foo bar", NULL },
	  TEXT("foo barx"), .want = "0-3" },
	{ .name = "word later", .opts = "wg", .pats = { "xf", "foo", NULL },
	  TEXT("xfoo foo"), .want = "5-8" },
	{ .name = "word abc", .opts = "wg", .pats = { "ab", "abc", NULL },
	  TEXT("abcd ab"), .want = "5-7" },
	{ .name = "word punct", .opts = "wg", .pats = { "-bar", NULL },
	  TEXT("x-bar -bar"), .want = "6-10" },
	{ .name = "word empty", .opts = "w", .pats = { "", NULL },
	  TEXT("ab\n \n\nab."), .want = "3-3 4-4 5-5 9-9" },
	{ .name = "word nocase", .opts = "iwg", .pats = { "Foo", NULL },
	  TEXT("FOO foox xfoo fOo"), .want = "0-3 14-17" },
	{ .name = "line", .opts = "xg", .pats = { "abc", "ab", NULL },
	  TEXT("ab\nabc\nabcd\nxab\n"), .want = "0-2 3-6" },
	{ .name = "line empty", .opts = "x", .pats = { "", NULL }, TEXT("a\n\nb\n"), .want = "2-2" },
	{ .name = "line nocase", .opts = "ixg", .pats = { "ab", NULL },
	  TEXT("AB\naB c\nab"), .want = "0-2 8-10" },
	{ .name = "line wins over word", .opts = "xwg", .pats = { "a b", NULL },
	  TEXT("a b\n"), .want = "0-3" },
	{ .name = "eol dropped", .opts = "g", .pats = { "a\nb", "b", NULL },
	  TEXT("a\nb"), .want = "2-3" },
	{ .name = "nul eol", .opts = "z", .pats = { "a\nb", NULL },
	  TEXT("xa\nb\0a\nb"), .want = "1-4 5-8" },
	{ .name = "nul eol line", .opts = "zxg", .pats = { "a", NULL },
	  TEXT("a\0ba\0a"), .want = "0-1 5-6" },
	{ .name = "nul eol word", .opts = "zwg", .pats = { "b", NULL },
	  TEXT("b\0ab\0b\nb"), .want = "0-1 5-6 7-8" },
	{ .name = "metachars", .opts = "g",
	  .pats = { ".", "*", "(", ")", "[", "\\", "$", "^", "|", "?", "+", "{", "}", "\\E", "a.b",
		    "\\Q", NULL },
	  TEXT("a.b*()[\\$^|?+{}\\E axb \\Qx"),
	  .want = "0-3 3-4 4-5 5-6 6-7 7-8 8-9 9-10 10-11 11-12 12-13 13-14 14-15 15-17 22-24" },
	{ .name = "high bytes C", .opts = "ig", .pats = { "\xc3\xa9", NULL },
	  TEXT("\xc3\xa9 \xc3\x89"), .want = "0-2" },
	{ .name = "utf8 nocase", .opts = "uig", .pats = { "\xc3\xa9", NULL },
	  TEXT("\xc3\xa9 \xc3\x89 e"), .want = "0-2 3-5" },
	{ .name = "utf8 nocase upper", .opts = "uig", .pats = { "\xc3\x89t\xc3\xa9", NULL },
	  TEXT("\xc3\xa9T\xc3\x89"), .want = "0-5" },
	{ .name = "utf8 long s", .opts = "uig", .pats = { "s", NULL },
	  TEXT("\xc5\xbf S s"), .want = "0-2 3-4 5-6" },
	{ .name = "utf8 longest by chars", .opts = "uig", .pats = { "\xc5\xbf" "a", "sab", NULL },
	  TEXT("sab"), .want = "0-3" },
	{ .name = "utf8 invalid text", .opts = "uig", .pats = { "abc", NULL },
	  TEXT("\xff" "abc\xc3 ABC\xe9"), .want = "1-4 6-9" },
	{ .name = "utf8 invalid pattern", .opts = "uig", .pats = { "\xe9", NULL },
	  TEXT("\xc3\xa9 \xe9 \xc9"), .want = "3-4" },
	{ .name = "utf8 lead byte", .opts = "uig", .pats = { "\xc3", NULL },
	  TEXT("\xc3\xa9 \xc3"), .want = "0-1 3-4" },
	{ .name = "utf8 nocase no mid-char", .opts = "uig", .pats = { "\xa9", NULL },
	  TEXT("\xc3\xa9 \xa9"), .want = "3-4" },
	{ .name = "utf8 case mid-char", .opts = "ug", .pats = { "\xa9", NULL },
	  TEXT("\xc3\xa9 \xa9"), .want = "1-2 3-4" },
	{ .name = "utf8 word", .opts = "uwg", .pats = { "abc", NULL },
	  TEXT("\xc3\xa9" "abc \xff" "abc abc\xc3\xa9 abc\xe2\x80\x94"), .want = "7-10 17-20" },
	{ .name = "utf8 word mid-char", .opts = "uwg", .pats = { "\x80\x94", "\xa9", NULL },
	  TEXT("\xe2\x80\x94 \xc3\xa9"), .want = "1-3" },
	{ .name = "utf8 word superscript", .opts = "uwg", .pats = { "x", NULL },
	  TEXT("x\xc2\xb2 x"), .want = "0-1 4-5" },
	{ .name = "utf8 word nocase", .opts = "uiwg", .pats = { "\xc3\xa9t\xc3\xa9", NULL },
	  TEXT("\xc3\x89T\xc3\x89 \xc3\xa9t\xc3\xa9s"), .want = "0-5" },
	{ .name = "utf8 line nocase", .opts = "uixg", .pats = { "\xc3\xa9", NULL },
	  TEXT("\xc3\x89\n\xc3\xa9x\n"), .want = "0-2" },
};

/* Direct find() calls from a given offset (the bytes before are context). */
static void test_from(void)
{
	static const struct {
		const char *name, *opts, *pat, *text;
		size_t len, from;
		bool found;
		size_t s, e;
	} t[] = {
		{ .name = "-w: the byte before from is context", .opts = "w", .pat = "foo",
		  TEXT("xfoo foo"), .from = 1, .found = true, .s = 5, .e = 8 },
		{ .name = "-x: a line starting after from", .opts = "x", .pat = "b",
		  TEXT("ab\nb"), .from = 1, .found = true, .s = 3, .e = 4 },
		{ .name = "UTF-8 -w -i: the character before from is context", .opts = "uwi",
		  .pat = "foo", TEXT("\xc3\xa9" "foo foo"), .from = 2, .found = true, .s = 6, .e = 9 },
		{ .name = "UTF-8 -i: from inside a character", .opts = "ui", .pat = "\xc3\xa9",
		  TEXT("\xc3\xa9\xc3\xa9"), .from = 1, .found = true, .s = 2, .e = 4 },
		{ .name = "empty pattern: no line after the last eol", .opts = "", .pat = "",
		  TEXT("a\n"), .from = 2, .found = false },
		{ .name = "empty pattern: at the end of a last line without eol", .opts = "",
		  .pat = "", TEXT("a"), .from = 1, .found = true, .s = 1, .e = 1 },
		{ .name = "from past the end", .opts = "", .pat = "a", TEXT("a"), .from = 2,
		  .found = false },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct pattern p = { .bytes = t[i].pat, .len = strlen(t[i].pat) };
		struct pattern_set ps = pattern_list(&p, 1);
		struct match_options mo = parse_opts(t[i].opts);
		const char *err = NULL;
		struct matcher *m = matcher_pcre2_new(&ps, &mo, &err);
		pattern_list_free(&ps);
		size_t s = 0, e = 0;
		bool f = m && matcher_find(m, t[i].text, t[i].len, t[i].from, true, &s, &e);
		check(f == t[i].found && (!f || (s == t[i].s && e == t[i].e)), t[i].name, err);
		matcher_free(m);
	}
	/* A NUL byte inside a pattern (eol '\n'). */
	struct pattern p = { .bytes = "a\0b", .len = 3 };
	char out[64];
	const char *err = NULL;
	bool ok = run(&p, 1, "", T("xa\0b a"), false, out, sizeof out, &err);
	check(ok && !strcmp(out, "1-4"), "nul in pattern", out);
}

/* 100,000 patterns: many batches; compared with a second, tiny pattern set. */
static void test_many(void)
{
	enum { N = 100000 };
	struct pattern *pats = malloc(N * sizeof *pats);
	char *store = malloc(N * 8);
	if (!pats || !store) {
		check(false, "many patterns", "out of memory");
		return;
	}
	for (size_t i = 0; i < N; i++) {
		snprintf(store + 8 * i, 8, "k%06zu", (i * 7919) % N);
		pats[i] = (struct pattern){ .bytes = store + 8 * i, .len = 7 };
	}
	static const char text[] = "zzk000123 k099999x k1 K054321\nk000000";
	char out[256];
	const char *err = NULL;
	clock_t t0 = clock();
	bool ok = run(pats, N, "", T(text), false, out, sizeof out, &err);
	check(ok && !strcmp(out, "2-9 10-17 30-37"), "many patterns", ok ? out : err);
	ok = run(pats, N, "iw", T(text), false, out, sizeof out, &err);
	check(ok && !strcmp(out, "22-29 30-37"), "many patterns -iw", ok ? out : err);
	printf("100000 patterns: %.2fs for two builds and scans\n",
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(pats);
	free(store);
}

static void to_patterns(const char *const *src, struct pattern *dst, size_t *n)
{
	for (*n = 0; src[*n]; (*n)++)
		dst[*n] = (struct pattern){ .bytes = src[*n], .len = strlen(src[*n]) };
}

/* The pattern list survives the trip through a grep -f file. */
static bool grep_expressible(const struct pattern *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memchr(p[i].bytes, '\n', p[i].len))
			return false;
	return true;
}

static void test_table(void)
{
	static const size_t limits[] = { 0, 1, 2 };
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const struct tcase *tc = &cases[c];
		struct pattern pats[20];
		size_t n;
		to_patterns(tc->pats, pats, &n);
		for (size_t l = 0; l < 3; l++) {
			matcher_pcre2_batch_limit = limits[l];
			char out[512], name[128], detail[1200];
			const char *err = NULL;
			bool ok = run(pats, n, tc->opts, tc->text, tc->len, false, out, sizeof out, &err);
			snprintf(name, sizeof name, "%s (batch limit %zu)", tc->name, limits[l]);
			snprintf(detail, sizeof detail, "got \"%s\", want \"%s\"", ok ? out : err,
				 tc->want);
			check(ok && !strcmp(out, tc->want), name, detail);
		}
		matcher_pcre2_batch_limit = 0;
		if (strchr(tc->opts, 'g') && grep_expressible(pats, n)) {
			char ours[512], theirs[512], name[128], detail[1200];
			const char *err = NULL;
			bool ok = run(pats, n, tc->opts, tc->text, tc->len, true, ours, sizeof ours, &err) &&
				  run_grep(pats, n, tc->opts, tc->text, tc->len, theirs, sizeof theirs);
			snprintf(name, sizeof name, "%s vs grep", tc->name);
			snprintf(detail, sizeof detail, "ours \"%s\", grep \"%s\"", ours, theirs);
			check(ok && !strcmp(ours, theirs), name, detail);
		}
	}
}

static bool valid_utf8(const char *p, size_t len)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t j = 0; j < len;) {
		size_t l = mbrtowc(NULL, p + j, len - j, &st);
		if (l == (size_t)-1 || l == (size_t)-2)
			return false;
		j += l ? l : 1;
	}
	return true;
}

/* Random patterns and texts over small alphabets, checked against grep.
 * UTF-8 pieces avoid the folding differences documented in matcher_pcre2.c
 * (Kelvin sign, dotless i, sharp s); with -i, a pattern that is not valid
 * UTF-8 is rebuilt from ASCII and stray bytes only (the byte-mode gap). */
static void test_random(bool utf, int rounds)
{
	static const char *const c_pieces[] = { "a", "b", "A", "_", " ", ".", "\xe9", "ab" };
	static const char *const u_pieces[] = {
		"a", "A", "_", " ", "\xc3\xa9", "\xc3\x89", "\xcf\x83", "\xce\xa3", "\xcf\x82",
		"\xc2\xb2", "\xe2\x80\x94", "\xa9", "\xc3", "\xcc\x81", "\xff", "b"
	};
	const char *const *pieces = utf ? u_pieces : c_pieces;
	size_t np = utf ? sizeof u_pieces / sizeof *u_pieces : sizeof c_pieces / sizeof *c_pieces;
	unsigned fails = 0;
	for (int r = 0; r < rounds && fails < 5; r++) {
		char opts[8] = "", pstore[6][24], text[128] = { 0 }; /* zeroed: JIT reads ahead */
		struct pattern pats[6];
		size_t n = 1 + (size_t)rand() % 5, tl = 0;
		strcat(opts, utf ? "u" : "");
		if (rand() % 2)
			strcat(opts, "i");
		bool z = rand() % 6 == 0;
		if (z)
			strcat(opts, "z");
		if (rand() % 5 == 0) /* -x overrides -w, save a grep -i -w -x quirk */
			strcat(opts, "x");
		else if (rand() % 2)
			strcat(opts, "w");
		for (size_t i = 0; i < n; i++) {
			size_t k = (size_t)rand() % 4, pl;
			for (int attempt = 0; attempt < 2; attempt++) {
				pl = 0;
				for (size_t j = 0; j < k; j++) {
					const char *pc = pieces[(size_t)rand() % np];
					if (attempt && (unsigned char)pc[0] >= 0x80 && pc[1])
						pc = "a";
					memcpy(pstore[i] + pl, pc, strlen(pc));
					pl += strlen(pc);
				}
				if (!utf || !strchr(opts, 'i') || valid_utf8(pstore[i], pl))
					break;
			}
			pats[i] = (struct pattern){ .bytes = pstore[i], .len = pl };
		}
		for (size_t k = (size_t)rand() % 20; k > 0; k--) {
			int r6 = rand() % 6;
			const char *pc = r6 ? pieces[(size_t)rand() % np] : z ? "" : "\n";
			size_t pcl = r6 || !z ? strlen(pc) : 1; /* "" + its NUL: the -z eol */
			if (z && r6 == 1)
				pc = "\n", pcl = 1;
			memcpy(text + tl, pc, pcl);
			tl += pcl;
		}
		/* grep's regex matcher gives up on shorter -w matches when the
		 * empty pattern is present (re_match then returns 0): skip. */
		struct match_options mo = parse_opts(opts);
		bool has_empty = false;
		for (size_t i = 0; i < n; i++)
			has_empty |= pats[i].len == 0;
		if (has_empty && mo.word && !grep_uses_kwset(pats, n, &mo))
			continue;
		char ours[512], theirs[512], detail[1400];
		const char *err = NULL;
		matcher_pcre2_batch_limit = (size_t)rand() % 3;
		if (!run(pats, n, opts, text, tl, true, ours, sizeof ours, &err) ||
		    !run_grep(pats, n, opts, text, tl, theirs, sizeof theirs)) {
			check(false, "random", "could not run");
			return;
		}
		if (strcmp(ours, theirs)) {
			fails++;
			int dl = snprintf(detail, sizeof detail, "-%s ours \"%s\" grep \"%s\" pats", opts,
					  ours, theirs);
			for (size_t i = 0; i < n && dl < 900; i++) {
				dl += snprintf(detail + dl, sizeof detail - (size_t)dl, " '");
				for (size_t j = 0; j < pats[i].len; j++)
					dl += snprintf(detail + dl, sizeof detail - (size_t)dl, "\\x%02x",
						       (unsigned char)pats[i].bytes[j]);
				dl += snprintf(detail + dl, sizeof detail - (size_t)dl, "'");
			}
			dl += snprintf(detail + dl, sizeof detail - (size_t)dl, " text '");
			for (size_t j = 0; j < tl && dl < 1000; j++)
				dl += snprintf(detail + dl, sizeof detail - (size_t)dl, "\\x%02x",
					       (unsigned char)text[j]);
			snprintf(detail + dl, sizeof detail - (size_t)dl, "'");
			check(false, utf ? "random utf8 vs grep" : "random C vs grep", detail);
		} else {
			passed++;
		}
	}
	matcher_pcre2_batch_limit = 0;
}

int main(void)
{
	/* A build without PCRE2 must refuse with its message, and that's all. */
	struct pattern_set none = { .storage = NULL };
	struct match_options mo = { .eol = '\n' };
	const char *err = NULL;
	struct matcher *probe = matcher_pcre2_new(&none, &mo, &err);
	if (!probe) {
		check(err && strstr(err, "without PCRE2"), "no PCRE2: error message", err);
		printf("PCRE2 not compiled in: only the error message was checked\n");
		printf("%d passed, %d failed\n", passed, failed);
		return failed != 0;
	}
	matcher_free(probe);

	if (!setlocale(LC_ALL, "C.UTF-8"))
		printf("note: no C.UTF-8 locale; UTF-8 -w cases may fail\n");
	srand(12345);
	test_table();
	test_from();
	test_many();
	if (system("grep -V >/dev/null 2>&1") == 0) {
		test_random(false, 200);
		test_random(true, 200);
	} else {
		printf("note: grep not found; random comparison skipped\n");
	}
	remove_scratch();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
