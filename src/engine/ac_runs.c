/* SPDX-License-Identifier: MIT */
/* ac_runs.c - a large set's matches counted run by run, with a memo of the
 * runs already counted.
 *
 * Owns: ac_count_runs, ac_run_memo_bytes, the memo's layout and its rules
 * for replacing an entry and for giving up.  Where ac->class0_skip the
 * bytes of class 0 are in no pattern: no match spans one, and every scan
 * is back in the start state past one.  So the text splits into runs of
 * the other bytes, and the matches inside a run, leftmost-longest or
 * overlapping, depend on the run's bytes alone.  Text repeats its words
 * (95% of English's runs against a dictionary are in a memo of 65,536), and
 * a large set's steps cost a cache miss or a mispredicted branch every few
 * bytes: a run seen before costs a hash and one compare instead.  Runs of
 * up to RUN_KEY_BYTES are kept, longer ones always stepped.  Where few runs
 * repeat, the memo is given up and the rest of the text counted in one
 * call, as without it.  A kept memo (struct ac_run_memo) carries the
 * runs learnt and the give-up window from call to call: a search's lines
 * counted one at a time hit as one text would.
 */
#include "ac_internal.h"
#include "bits.h"

#include <string.h>

/* The longest run the memo keeps: two 64-bit words of key. */
#define RUN_KEY_BYTES 16
/* Runs of each look at the hit rate ... */
#define RUN_WINDOW 16384u
/* ... and the hits in that window under which the memo is given up: a
 * hit saves the steps, a miss costs its hash and look (dictionary words
 * drawn uniformly, about half of them hits, count as fast as without a
 * memo: docs/perf.md "Counting by runs"; English's first window hits
 * more). */
#define RUN_MIN_HITS (RUN_WINDOW / 2)
/* Text below this size is counted without a memo: zeroing it would cost
 * more than the hits save. */
#define RUN_MIN_TEXT (64u << 10)
/* The memo's entries: one per RUN_TEXT_PER_ENTRY bytes of text, a power
 * of two from RUN_MIN_ENTRIES to RUN_MAX_ENTRIES (1.5 MiB, an L2 cache and
 * more: 2^17 entries hit 1% more runs of English and scan no faster). */
#define RUN_TEXT_PER_ENTRY 256u
#define RUN_MIN_ENTRIES 1024u
#define RUN_MAX_ENTRIES 65536u

/* A counted run: its bytes zero-padded to RUN_KEY_BYTES (len 0: empty). */
struct run_entry {
	uint64_t key[2];
	uint32_t count;
	uint8_t len;
	uint8_t credit; /* hits since placed, saturating: misses on the slot spend it */
};

size_t ac_run_memo_bytes(const ac_automaton *ac, size_t len)
{
	if (!ac->class0_skip || ac->has_empty || len < RUN_MIN_TEXT)
		return 0;
	size_t entries = RUN_MIN_ENTRIES;
	while (entries < RUN_MAX_ENTRIES && entries * RUN_TEXT_PER_ENTRY < len)
		entries *= 2;
	return entries * sizeof(struct run_entry);
}

/* The key of the run buf[a..a+n), 1 <= n <= RUN_KEY_BYTES, a + n <= len:
 * its bytes in memory order, zero after them (on any byte order). */
static void run_key(const uint8_t *buf, size_t len, size_t a, size_t n, uint64_t key[2])
{
	static const uint8_t keep[2 * RUN_KEY_BYTES] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	uint64_t mask[2];
	if (len - a >= RUN_KEY_BYTES) { /* one fixed-size load: no call */
		memcpy(key, buf + a, RUN_KEY_BYTES);
	} else {
		uint8_t tail[RUN_KEY_BYTES] = { 0 };
		memcpy(tail, buf + a, n);
		memcpy(key, tail, RUN_KEY_BYTES);
	}
	memcpy(mask, keep + RUN_KEY_BYTES - n, RUN_KEY_BYTES);
	key[0] &= mask[0];
	key[1] &= mask[1];
}

static size_t run_slot(const uint64_t key[2], size_t n, unsigned bits)
{
	uint64_t h = (key[0] ^ (key[1] * UINT64_C(0xC2B2AE3D27D4EB4F)) ^ n) * UINT64_C(0x9E3779B97F4A7C15);
	return bits ? (size_t)(h >> (64 - bits)) : 0;
}

/* The bytes of class 0 (in no pattern) in buf[at..at+64) as bits, bit k
 * for buf[at + k], and every bit from len on: a run ends there.  Without
 * a branch: a loop over the bytes mispredicted twice a run. */
static uint64_t class0_bits(const uint8_t *cls, const uint8_t *buf, size_t len, size_t at)
{
	size_t n = len - at < 64 ? len - at : 64;
	uint64_t bits = n < 64 ? ~UINT64_C(0) << n : 0;
	for (size_t k = 0; k < n; k++)
		bits |= (uint64_t)(cls[buf[at + k]] == 0) << k;
	return bits;
}

/* The block of the text the search for runs is in: 64 bytes from `at`, and
 * their class0_bits. */
struct blocks {
	size_t at;
	uint64_t zero;
};

/* The first run at or after pos, pos in bk's block: its start in *a, and
 * its end returned; that end and *a both len where none is left. */
static size_t next_run(const uint8_t *cls, const uint8_t *buf, size_t len, struct blocks *bk,
		       size_t pos, size_t *a)
{
	uint64_t m = ~bk->zero & (~UINT64_C(0) << (pos - bk->at));
	while (!m) {
		if ((bk->at += 64) >= len) {
			*a = len;
			return len;
		}
		m = ~(bk->zero = class0_bits(cls, buf, len, bk->at));
	}
	*a = bk->at + ctz64(m);
	m = bk->zero & (~UINT64_C(0) << (*a - bk->at));
	while (!m) /* ends by len: its bits are set */
		m = bk->zero = class0_bits(cls, buf, len, bk->at += 64);
	return bk->at + ctz64(m);
}

/* The count from `from`, a run's start or 0, to the end without the memo. */
static size_t count_rest(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
			 bool overlapping)
{
	return overlapping ? ac_count_overlapping(ac, buf, len, from) : ac_count_leftmost(ac, buf, len, from);
}

size_t ac_count_runs_kept(const ac_automaton *ac, const uint8_t *buf, size_t len, bool overlapping,
			  struct ac_run_memo *memo)
{
	struct run_entry *table = memo->table;
	unsigned bits = 0;
	if (!ac->class0_skip || ac->has_empty || memo->given_up || memo->table_bytes < sizeof *table)
		return count_rest(ac, buf, len, 0, overlapping);
	while (((size_t)2 << bits) * sizeof *table <= memo->table_bytes)
		bits++;
	struct blocks bk = { .at = 0, .zero = class0_bits(ac->cls, buf, len, 0) };
	size_t n = 0, pos = 0, a;
	while ((pos = next_run(ac->cls, buf, len, &bk, pos, &a)) > a) {
		size_t run = pos - a;
		if (run > RUN_KEY_BYTES) {
			n += ac_count_stepped(ac, buf, pos, a, overlapping);
			continue;
		}
		if (++memo->runs == RUN_WINDOW) {
			if (memo->hits < RUN_MIN_HITS) { /* a is a run's start: the start state */
				memo->given_up = true;
				return n + count_rest(ac, buf, len, a, overlapping);
			}
			memo->runs = memo->hits = 0;
		}
		uint64_t key[2];
		run_key(buf, len, a, run, key);
		struct run_entry *e = &table[run_slot(key, run, bits)];
		if (e->len == run && e->key[0] == key[0] && e->key[1] == key[1]) {
			n += e->count;
			memo->hits++;
			e->credit += e->credit < UINT8_MAX;
			continue;
		}
		size_t counted = ac_count_stepped(ac, buf, pos, a, overlapping);
		n += counted;
		if (e->credit)
			e->credit--;
		else
			*e = (struct run_entry){ .key = { key[0], key[1] }, .count = (uint32_t)counted,
						 .len = (uint8_t)run, .credit = 1 };
	}
	return n;
}

size_t ac_count_runs(const ac_automaton *ac, const uint8_t *buf, size_t len, bool overlapping,
		     void *memo, size_t memo_bytes)
{
	struct ac_run_memo kept = { .table = memo, .table_bytes = memo_bytes };
	return ac_count_runs_kept(ac, buf, len, overlapping, &kept);
}
