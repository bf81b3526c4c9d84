/* SPDX-License-Identifier: MIT */
/* test_api.c - libacgrep's contracts as acgrep.h states them, through the
 * public header alone: the errors and their errno, pattern ids of
 * duplicates, the order of matches in both modes, the empty set and the
 * empty pattern, stopping a scan, and acgrep_count_matches equal to the
 * number of matches a scan reports.  TAP output; run by `make example`.
 */
#include <acgrep.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int n_tests, n_failed;

static void ok(int cond, const char *what)
{
	n_tests++;
	if (!cond)
		n_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_tests, what);
}

/* The matches of a scan, as "start-end:id" separated by spaces. */
struct record {
	char text[256];
	int stop_after; /* stop with 7 after this many matches; 0: never */
	int seen;
};

static int record(void *ctx, size_t start, size_t end, uint32_t id)
{
	struct record *r = ctx;
	size_t used = strlen(r->text);
	snprintf(r->text + used, sizeof r->text - used, "%s%zu-%zu:%u", used ? " " : "", start,
		 end, (unsigned)id);
	return ++r->seen == r->stop_after ? 7 : 0;
}

/* A compiled set of the NULL-terminated patterns, or NULL. */
static acgrep_set *set_of(unsigned flags, const char *const *pats)
{
	acgrep_set *set = acgrep_new(flags);
	for (; set && *pats; pats++)
		if (acgrep_add(set, *pats, strlen(*pats)) != 0)
			return NULL;
	return set && acgrep_compile(set) == 0 ? set : NULL;
}

/* Scans `text` and returns the matches as record() writes them. */
static const char *scan(const acgrep_set *set, const char *text, int mode)
{
	static struct record r;
	memset(&r, 0, sizeof r);
	if (acgrep_scan(set, text, strlen(text), mode, record, &r) != 0)
		return "(failed)";
	return r.text;
}

/* acgrep_count_matches of `text`, or (size_t)-1 when it fails. */
static size_t counted(const acgrep_set *set, const char *text, int mode)
{
	size_t n = 99;
	return acgrep_count_matches(set, text, strlen(text), mode, &n) == 0 ? n : (size_t)-1;
}

/* Whether acgrep_count_matches gives as many as acgrep_scan reports, in
 * both modes, over text. */
static int counts_agree(const acgrep_set *set, const char *text)
{
	for (int mode = ACGREP_OVERLAPPING; mode <= ACGREP_LEFTMOST_LONGEST; mode++) {
		struct record r = {.text = ""};
		if (acgrep_scan(set, text, strlen(text), mode, record, &r) != 0 ||
		    counted(set, text, mode) != (size_t)r.seen)
			return 0;
	}
	return 1;
}

static void test_errors(void)
{
	errno = 0;
	ok(!acgrep_new(2) && errno == EINVAL, "acgrep_new: an unknown flag is EINVAL");
	acgrep_set *set = acgrep_new(0);
	ok(set != NULL, "acgrep_new(0)");
	errno = 0;
	ok(acgrep_add(set, NULL, 1) == -1 && errno == EINVAL, "acgrep_add: NULL bytes, len 1: EINVAL");
	ok(acgrep_add(NULL, "a", 1) == -1 && errno == EINVAL, "acgrep_add: NULL set: EINVAL");
	struct record r = {.text = ""};
	errno = 0;
	ok(acgrep_scan(set, "a", 1, ACGREP_OVERLAPPING, record, &r) == -1 && errno == EINVAL &&
		   r.seen == 0, "acgrep_scan before acgrep_compile: EINVAL, no callback");
	size_t n = 5;
	errno = 0;
	ok(acgrep_count_matches(set, "a", 1, ACGREP_OVERLAPPING, &n) == -1 && errno == EINVAL && n == 5,
	   "acgrep_count_matches before acgrep_compile: EINVAL, count unchanged");
	ok(acgrep_add(set, "a", 1) == 0 && acgrep_compile(set) == 0 && acgrep_compile(set) == 0,
	   "acgrep_compile twice: 0 both times");
	errno = 0;
	ok(acgrep_add(set, "b", 1) == -1 && errno == EINVAL, "acgrep_add after compile: EINVAL");
	errno = 0;
	ok(acgrep_scan(set, "a", 1, 3, record, &r) == -1 && errno == EINVAL && r.seen == 0,
	   "acgrep_scan: an unknown mode is EINVAL");
	errno = 0;
	ok(acgrep_scan(set, "a", 1, ACGREP_OVERLAPPING, NULL, NULL) == -1 && errno == EINVAL,
	   "acgrep_scan: NULL callback is EINVAL");
	ok(acgrep_scan(set, NULL, 0, ACGREP_OVERLAPPING, record, &r) == 0 && r.seen == 0,
	   "acgrep_scan: NULL buffer of length 0 is fine");
	errno = 0;
	ok(acgrep_count_matches(set, "a", 1, 3, &n) == -1 && errno == EINVAL && n == 5,
	   "acgrep_count_matches: an unknown mode is EINVAL");
	errno = 0;
	ok(acgrep_count_matches(set, "a", 1, ACGREP_OVERLAPPING, NULL) == -1 && errno == EINVAL,
	   "acgrep_count_matches: NULL count is EINVAL");
	errno = 0;
	ok(acgrep_count_matches(set, NULL, 1, ACGREP_OVERLAPPING, &n) == -1 && errno == EINVAL,
	   "acgrep_count_matches: NULL buffer of length 1 is EINVAL");
	ok(acgrep_count_matches(set, NULL, 0, ACGREP_LEFTMOST_LONGEST, &n) == 0 && n == 0,
	   "acgrep_count_matches: NULL buffer of length 0 counts 0");
	ok(acgrep_compile(NULL) == -1 && acgrep_count(NULL) == 0, "NULL set: compile -1, count 0");
	acgrep_free(set);
	acgrep_free(NULL);
	static _Alignas(64) const char not_a_set[128] = "ACGRPSET";
	errno = 0;
	ok(!acgrep_load(NULL, 0) && errno == EINVAL, "acgrep_load: NULL image: EINVAL");
	errno = 0;
	ok(!acgrep_load(not_a_set + 1, 64) && errno == EINVAL, "acgrep_load: misaligned: EINVAL");
	errno = 0;
	ok(!acgrep_load(not_a_set, sizeof not_a_set) && errno == EINVAL,
	   "acgrep_load: no compiled set: EINVAL");
}

static void test_matches(void)
{
	static const char *const pats[] = {"he", "she", "his", "hers", "he", NULL};
	acgrep_set *set = set_of(0, pats);
	ok(set && acgrep_count(set) == 5, "5 patterns added, a duplicate among them");
	ok(strcmp(scan(set, "ushers", ACGREP_OVERLAPPING), "1-4:1 2-4:0 2-6:3") == 0,
	   "overlapping: by end, longest first; a duplicate reports the smallest id");
	ok(strcmp(scan(set, "ushers his", ACGREP_LEFTMOST_LONGEST), "1-4:1 7-10:2") == 0,
	   "leftmost-longest: non-overlapping, from each match's end");
	ok(strcmp(scan(set, "USHERS", ACGREP_OVERLAPPING), "") == 0, "without the flag, case counts");
	ok(counted(set, "ushers his", ACGREP_OVERLAPPING) == 4 &&
		   counted(set, "ushers his", ACGREP_LEFTMOST_LONGEST) == 2,
	   "acgrep_count_matches: 4 overlapping, 2 leftmost-longest");
	acgrep_free(set);

	set = set_of(ACGREP_FOLD_ASCII, pats);
	ok(set && strcmp(scan(set, "uSHErs", ACGREP_LEFTMOST_LONGEST), "1-4:1") == 0,
	   "ACGREP_FOLD_ASCII: ASCII case is ignored");
	ok(strcmp(scan(set, "\xc3\xa9he", ACGREP_OVERLAPPING), "2-4:0") == 0,
	   "ACGREP_FOLD_ASCII: other bytes are themselves");
	struct record r = {.stop_after = 2};
	ok(acgrep_scan(set, "he he he", 8, ACGREP_OVERLAPPING, record, &r) == 7 && r.seen == 2,
	   "a callback's non-zero return stops the scan and is returned");
	acgrep_free(set);
}

static void test_edges(void)
{
	static const char *const none[] = {NULL}, *const empty[] = {"", "b", NULL};
	acgrep_set *set = set_of(0, none);
	ok(set && strcmp(scan(set, "abc", ACGREP_OVERLAPPING), "") == 0,
	   "a set without patterns compiles and matches nothing");
	ok(counted(set, "abc", ACGREP_OVERLAPPING) == 0 && counted(set, "abc", ACGREP_LEFTMOST_LONGEST) == 0,
	   "acgrep_count_matches: a set without patterns counts 0");
	acgrep_free(set);
	set = set_of(0, empty);
	ok(set && strcmp(scan(set, "ab", ACGREP_LEFTMOST_LONGEST), "0-0:0 1-2:1 2-2:0") == 0,
	   "leftmost-longest: the empty pattern where nothing longer starts");
	ok(strcmp(scan(set, "ab", ACGREP_OVERLAPPING), "0-0:0 1-1:0 1-2:1 2-2:0") == 0,
	   "overlapping: the empty pattern at every position");
	ok(counts_agree(set, "ab") && counts_agree(set, "bbabb") && counts_agree(set, ""),
	   "acgrep_count_matches: empty matches counted as scans report them");
	acgrep_free(set);
	static const char *const words[] = {"a", "ab", "abab", "ba", "bab", "bb", "aaa", NULL};
	set = set_of(ACGREP_FOLD_ASCII, words);
	ok(set && counts_agree(set, "abababbbaaAbabBABAaaabbbab abba baba") &&
		   counts_agree(set, "xyz") && counts_agree(set, "AAAAAAAAAAAAAAAAAAAAAAAAA"),
	   "acgrep_count_matches: as many as the scans report, overlapping and not");
	acgrep_free(set);
	static const char nul_pat[] = {'a', '\0', 'b'};
	set = acgrep_new(0);
	ok(set && acgrep_add(set, nul_pat, 3) == 0 && acgrep_compile(set) == 0,
	   "a pattern with a NUL byte");
	struct record r = {.text = ""};
	ok(acgrep_scan(set, "xa\0b", 4, ACGREP_OVERLAPPING, record, &r) == 0 &&
		   strcmp(r.text, "1-4:0") == 0, "it matches across the NUL byte");
	acgrep_free(set);
	const char *v = acgrep_version();
	ok(v && strchr(v, '.') && strchr(v, '.') != strrchr(v, '.'), "acgrep_version: MAJOR.MINOR.PATCH");
}

int main(void)
{
	test_errors();
	test_matches();
	test_edges();
	printf("1..%d\n", n_tests);
	return n_failed != 0;
}
