/* SPDX-License-Identifier: MIT */
/* ac_scan.c - running a compiled Aho-Corasick automaton over bytes.
 *
 * Owns: the scan loop and the match semantics built on it (first end,
 * leftmost-longest, overlapping).  In the start state no match is under
 * way, so the loop asks the prefilter where one may start next: a 64-bit
 * candidate bitmap per 64-byte block, walked with ctz (Teddy's SIMD
 * fingerprints, teddy.c; a 2-byte pair table, a hashed 3-4 byte window or
 * the bytes of a rare set every pattern holds, ac_blocks.c: a rare byte
 * passes where its neighbours fit, a match starting up to rare_reach bytes
 * before it); or memchr for a rare byte every match holds at one offset.
 * A candidate is confirmed by stepping the automaton back to its start
 * state (large sets' leftmost-longest and overlapping scans step past
 * bytes in no pattern without failure hops: class0_step); dense candidates
 * switch to direct stepping for a stretch.  Never allocates; never writes
 * shared state.
 *
 * References: Aho and Corasick 1975 (see ac_build.c); the candidate-bitmap
 * walk follows the FDR design of Hyperscan (G. Langdale et al., "Hyperscan:
 * a fast multi-pattern regex matcher for modern CPUs", NSDI 2019).
 */
#include "ac_internal.h"
#include "bits.h"

#include <string.h>

/* A stretch of direct stepping after dense candidates: bytes. */
#define AC_DENSE_STRETCH 4096
/* Candidates closer than this (bytes skipped) count as "dense". */
#define AC_DENSE_SKIP 8
/* This many dense candidates in a row switch to direct stepping. */
#define AC_DENSE_RUN 32

#ifdef __GNUC__
#define HOT_INLINE static inline __attribute__((always_inline))
#else
#define HOT_INLINE static inline
#endif

/* The child of sparse state id on byte class c (its match bit set), or
 * AC_NONE. */
HOT_INLINE uint32_t sparse_child(const ac_automaton *ac, uint32_t id, uint32_t c)
{
	for (uint32_t k = ac->first[id]; k < ac->first[id + 1]; k++)
		if (ac->in_cls[k] == c)
			return k | (ac->out_len[k] ? AC_MATCH_BIT : 0);
	return AC_NONE;
}

/* The transition from s on byte, following failure links to the end. */
HOT_INLINE uint32_t ac_step(const ac_automaton *ac, uint32_t s, uint8_t byte)
{
	uint32_t c = ac->cls[byte], id = s & AC_ID_MASK, k;
	for (; id >= ac->n_dense; id = ac->fail[id])
		if ((k = sparse_child(ac, id, c)) != AC_NONE)
			return k;
	return ac->dense[((size_t)id << ac->class_shift) | c];
}

/* ac_step with a shortcut for the bytes in no pattern.  A byte of class 0
 * is in no pattern where ac->class0_skip (classes_build; its callers
 * check), so no state has a child on it: from a
 * sparse state it leads straight to the start state, without searching
 * children and following failure links (nearly a third of English text,
 * spaces and punctuation, against a dictionary); a dense row says the same.
 * Kept apart from ac_step: inside step_to_match's loops every form of the
 * test tried made the dense step of small, all-dense sets cost more
 * instructions (docs/perf.md). */
HOT_INLINE uint32_t class0_step(const ac_automaton *ac, uint32_t s, uint8_t byte)
{
	uint32_t c = ac->cls[byte], id = s & AC_ID_MASK, k;
	if (id >= ac->n_dense) {
		if (c == 0)
			return AC_ROOT;
		do
			if ((k = sparse_child(ac, id, c)) != AC_NONE)
				return k;
		while ((id = ac->fail[id]) >= ac->n_dense);
	}
	return ac->dense[((size_t)id << ac->class_shift) | c];
}

/* ac_step for a caller that wants the target only when it is d deep or
 * more, fail_floor being depth_start[d - 1]: a state below it is shallower
 * than d - 1 (ids are breadth-first), so no child of it is d deep, and
 * AC_ROOT comes back once the failure chain goes below it.  The look-ahead
 * of leftmost-longest ends there: its last step costs no failure hops (a
 * loop apart from ac_step's, which compiles to fewer without the bound). */
HOT_INLINE uint32_t step_within(const ac_automaton *ac, uint32_t s, uint8_t byte,
				uint32_t fail_floor)
{
	uint32_t c = ac->cls[byte], id = s & AC_ID_MASK, k;
	for (; id >= ac->n_dense; id = ac->fail[id]) {
		if ((k = sparse_child(ac, id, c)) != AC_NONE)
			return k;
		if (ac->fail[id] < fail_floor)
			return AC_ROOT;
	}
	return ac->dense[((size_t)id << ac->class_shift) | c];
}

/* Where a scan over one buffer stands between calls to step_to_match(): the
 * prefilter's current block and its unconsumed candidates, and the
 * dense-text switch.  Kept across the matches of one ac_scan_leftmost or
 * ac_scan_overlapping call, so reporting a match does not restart the
 * prefilter.  Positions may move backwards (leftmost-longest looks ahead
 * and resumes at the match end): a block is reused only when it covers pos
 * and was computed for the same buffer length or a longer one. */
struct scan {
	size_t block;        /* start of the block `mask` describes, or SIZE_MAX */
	size_t block_len;    /* the buffer length `mask` was computed for */
	uint64_t mask;       /* candidates of that block */
	size_t direct_until; /* step without the prefilter up to here */
	unsigned dense_run;  /* dense candidates in a row */
	unsigned dense_limit; /* more than this many in a row start a stretch */
};

/* A scan of buf[0..len): on the DFA path stepping every byte; where the
 * prefilter's candidates are modelled as dense as the bytes
 * (ac->dense_start), the first dense candidate starts a stretch of
 * stepping, not the AC_DENSE_RUN-th in a row: a search that stops at a
 * line's first match (grep -c, -l) seldom meets that many. */
static void scan_init(const ac_automaton *ac, struct scan *sc, size_t len)
{
	*sc = (struct scan){
		.block = SIZE_MAX,
		.direct_until = ac->path == AC_PATH_DFA ? len : 0,
		.dense_limit = ac->dense_start ? 0 : AC_DENSE_RUN,
	};
}

/* Next candidate bit at or after pos in the prefilter's bitmaps, or len.
 * A block computed for a longer buffer serves too (confirm_find's shorter
 * look): its extra candidates are the caller's to drop. */
static size_t next_bit(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
		       struct scan *sc)
{
	if (sc->block_len >= len && pos - sc->block < 64) {
		uint64_t m = sc->mask & (~UINT64_C(0) << (pos - sc->block));
		if (m)
			return sc->block + ctz64(m);
		pos = sc->block + 64;
	}
	uint64_t m = 0;
	if (ac->path == AC_PATH_TEDDY)
		pos = teddy_next_block(&ac->teddy, buf, len, pos, &m);
	else if (ac->path == AC_PATH_RARE)
		pos = ac_rare_next_block(ac, buf, len, pos, &m);
	else
		pos = ac_pair_next_block(ac, buf, len, pos, &m);
	if (pos >= len)
		return len;
	sc->block = pos;
	sc->block_len = len;
	sc->mask = m;
	return pos + ctz64(m);
}

/* Whether the 3-4 byte window at c is in the hashed-window table (a match
 * may start there): Teddy's second look at a candidate, which its
 * 1-3 byte fingerprint and mixed nibble buckets pass far more often than
 * real prefixes occur.  No window fits when fewer bytes are left. */
static bool window_ok(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t c)
{
	uint32_t load = 0;
	if (len - c < ac->window_width)
		return false;
	if (len - c >= 4)
		memcpy(&load, buf + c, 4); /* a fixed size: one load, not a call */
	else
		memcpy(&load, buf + c, len - c);
	return ac_window_bit(ac->window_bits, load, ac->window_mask, ac->window_fold);
}

/* Next position >= pos where a match may start, or len. */
static size_t next_candidate(const ac_automaton *ac, const uint8_t *buf, size_t len,
			     size_t pos, struct scan *sc)
{
	if (ac->bits_only)
		return next_bit(ac, buf, len, pos, sc);
	if (ac->path == AC_PATH_MEMCHR) {
		if (len - pos <= ac->rare_offset)
			return len;
		const uint8_t *hit = memchr(buf + pos + ac->rare_offset, ac->rare_byte,
					    len - pos - ac->rare_offset);
		return hit ? (size_t)(hit - buf) - ac->rare_offset : len;
	}
	size_t c = next_bit(ac, buf, len, pos, sc);
	switch (ac->path) {
	case AC_PATH_TEDDY:
		while (c < len && !window_ok(ac, buf, len, c))
			c = next_bit(ac, buf, len, c + 1, sc);
		return c;
	case AC_PATH_RARE:
		/* A match from pos on holds a rare byte at most rare_reach bytes
		 * after its start, at c or later: it starts from c - rare_reach,
		 * and by c only over c (not where no pattern has c's neighbours, or
		 * the window of two bytes each side, by a rare byte) and over bytes
		 * a pattern holds before its first rare byte.  Steps go on to c
		 * inclusive before the next look. */
		while (c < len && !((c == 0 || ac_byte_in(ac->rare_before, buf[c - 1])) &&
				    (c + 1 == len || ac_byte_in(ac->rare_after, buf[c + 1])) &&
				    ac_rare_window_fits(ac, buf, len, c)))
			c = next_bit(ac, buf, len, pos = c + 1, sc);
		if (c >= len)
			return len;
		if (sc->direct_until <= c)
			sc->direct_until = c + 1;
		for (size_t from = c - pos > ac->rare_reach ? c - ac->rare_reach : pos;
		     c > from && ac_byte_in(ac->rare_lead, buf[c - 1]);)
			c--;
		return c;
	default:
		return c;
	}
}

/* Steps the automaton from state *sp at buf[pos] until it enters a match
 * state.  Returns the position just past the byte that completed the match
 * (with *sp that state), or SIZE_MAX when buf ends first. */
static size_t step_to_match(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
			    uint32_t *sp, struct scan *sc)
{
	uint32_t s = *sp;
	while (pos < len) {
		if (s == AC_ROOT && pos >= sc->direct_until) {
			size_t c = next_candidate(ac, buf, len, pos, sc);
			if (c >= len)
				break;
			sc->dense_run = c - pos < AC_DENSE_SKIP ? sc->dense_run + 1 : 0;
			if (sc->dense_run > sc->dense_limit) {
				sc->direct_until = c + AC_DENSE_STRETCH;
				sc->dense_run = 0;
			}
			pos = c;
		}
		do { /* confirm: until the automaton is back at its start state */
			s = ac_step(ac, s, buf[pos++]);
			if (s & AC_MATCH_BIT) {
				*sp = s;
				return pos;
			}
		} while (s != AC_ROOT && pos < len);
		while (pos < sc->direct_until && pos < len) { /* dense text: no prefilter */
			s = ac_step(ac, s, buf[pos++]);
			if (s & AC_MATCH_BIT) {
				*sp = s;
				return pos;
			}
		}
	}
	*sp = s;
	return SIZE_MAX;
}

/* Whether a large set's scan (ac->class0_skip) steps the next byte itself
 * with class0_step: a match may be under way, or dense text is being
 * stepped; else the start state's look at the prefilter (and the steps
 * after a candidate) are step_to_match's.  The same matches and scan state
 * either way; a match every few bytes (a dictionary over English) keeps
 * nearly every step in class0_step. */
HOT_INLINE bool steps_class0(const ac_automaton *ac, uint32_t s, size_t pos, const struct scan *sc)
{
	return ac->class0_skip && (s != AC_ROOT || pos < sc->direct_until);
}

/* step_to_match for leftmost_longest where ac->class0_skip (steps_class0). */
static size_t step_to_match_class0(const ac_automaton *ac, const uint8_t *buf, size_t len,
				   size_t pos, uint32_t *sp, struct scan *sc)
{
	uint32_t s = *sp;
	while (pos < len) {
		if (!steps_class0(ac, s, pos, sc)) {
			*sp = AC_ROOT;
			return step_to_match(ac, buf, len, pos, sp, sc);
		}
		s = class0_step(ac, s, buf[pos++]);
		if (s & AC_MATCH_BIT) {
			*sp = s;
			return pos;
		}
	}
	*sp = s;
	return SIZE_MAX;
}

/* The end of the leftmost-longest match that begins with the match of
 * state *best ending at pos, *best becoming the state of the match chosen.
 * Steps on only while a match starting at or before the best start so far
 * can still come: a later match over those bytes would make the text since
 * that start a prefix of a pattern, so the state's depth (its trie string:
 * the longest suffix read that begins a pattern) would reach back to it.  A
 * state shallower than pos - start ends the look, and so does reaching
 * start + max_len (no state is deeper). */
HOT_INLINE size_t longest_end(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
			      uint32_t *best)
{
	uint32_t s = *best;
	size_t start = pos - ac->out_len[s], end = pos;
	while (pos < len && pos - start < ac->max_len) {
		if (ac->class0_skip && ac->cls[buf[pos]] == 0)
			break; /* a byte in no pattern: the look-ahead is over */
		uint32_t floor = ac->depth_start[pos - start], need = ac->depth_start[pos + 1 - start];
		s = step_within(ac, s, buf[pos++], floor);
		uint32_t id = s & AC_ID_MASK;
		if (id < need)
			break;
		if ((s & AC_MATCH_BIT) && pos - ac->out_len[id] <= start) {
			start = pos - ac->out_len[id];
			end = pos;
			*best = id;
		}
	}
	return end;
}

/* Leftmost-longest among the non-empty patterns, starting at or after from. */
static bool leftmost_longest(const ac_automaton *ac, const uint8_t *buf, size_t len,
			     size_t from, ac_match *m, struct scan *sc)
{
	uint32_t s = AC_ROOT;
	size_t pos = ac->class0_skip ? step_to_match_class0(ac, buf, len, from, &s, sc)
				     : step_to_match(ac, buf, len, from, &s, sc);
	if (pos == SIZE_MAX)
		return false;
	uint32_t best = s & AC_ID_MASK;
	m->end = longest_end(ac, buf, len, pos, &best);
	m->start = m->end - ac->out_len[best];
	m->pattern = ac->out_id[best];
	return true;
}

/* The longest non-empty pattern starting exactly at from: its end and id
 * in *m, or false when none.  Steps while the text since from begins a
 * pattern (the state's depth is all of it). */
static bool longest_at(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
		       ac_match *m)
{
	uint32_t s = AC_ROOT;
	bool found = false;
	for (size_t pos = from; pos < len && pos - from < ac->max_len;) {
		uint32_t floor = ac->depth_start[pos - from], need = ac->depth_start[pos + 1 - from];
		s = step_within(ac, s, buf[pos++], floor);
		uint32_t id = s & AC_ID_MASK;
		if (id < need)
			break;
		if ((s & AC_MATCH_BIT) && ac->out_len[id] == pos - from) {
			*m = (ac_match){ .start = from, .end = pos, .pattern = ac->out_id[id] };
			found = true;
		}
	}
	return found;
}

/* find_from's work where ac->confirm compares the patterns at each
 * candidate (ac_confirm.h): the leftmost candidate with a match, and the
 * longest there; or the match that ends first, which starts at a candidate
 * before that end less min_len (looked for only that far).  Returns 1
 * with *m, 0 when none, or -1 at dense candidates, which hand the search
 * from *from on to the automaton's stepping, as step_to_match's do. */
static int confirm_find(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t *from,
			enum ac_semantics sem, ac_match *m, struct scan *sc)
{
	bool longest = sem == AC_LEFTMOST_LONGEST, found = false;
	size_t limit = len; /* candidates are looked for in buf[0..limit) */
	for (size_t pos = *from, c; (c = next_bit(ac, buf, limit, pos, sc)) < limit; pos = c + 1) {
		if (found && c + ac->min_len >= m->end)
			break;
		sc->dense_run = c - pos < AC_DENSE_SKIP ? sc->dense_run + 1 : 0;
		if (!found && sc->dense_run > sc->dense_limit) {
			sc->direct_until = c + AC_DENSE_STRETCH;
			sc->dense_run = 0;
			*from = c;
			return -1;
		}
		const struct ac_confirm_entry *e = confirm_at(ac->confirm, buf, len, c, longest);
		if (!e || (found && c + e->len >= m->end))
			continue;
		*m = (ac_match){ .start = c, .end = c + e->len, .pattern = e->id };
		found = true;
		if (longest)
			break;
		/* an earlier end starts at a candidate whose window ends before
		 * m->end: blocks past it are not looked at */
		limit = m->end;
	}
	return found;
}

/* ac_find's work, continuing the scan sc over this buffer. */
HOT_INLINE bool find_from(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
			  enum ac_semantics sem, ac_match *m, struct scan *sc)
{
	if (from > len)
		return false;
	if (ac->has_empty) {
		/* The empty pattern matches at `from`; only a longer match
		 * starting exactly there can beat it. */
		if (sem != AC_LEFTMOST_LONGEST || !longest_at(ac, buf, len, from, m))
			*m = (ac_match){ .start = from, .end = from, .pattern = ac->empty_id };
		return true;
	}
	int confirmed;
	if (ac->confirm && from >= sc->direct_until &&
	    (confirmed = confirm_find(ac, buf, len, &from, sem, m, sc)) >= 0)
		return confirmed;
	if (sem == AC_LEFTMOST_LONGEST)
		return leftmost_longest(ac, buf, len, from, m, sc);
	uint32_t s = AC_ROOT;
	size_t end = step_to_match(ac, buf, len, from, &s, sc);
	if (end == SIZE_MAX)
		return false;
	uint32_t id = s & AC_ID_MASK;
	m->start = end - ac->out_len[id];
	m->end = end;
	m->pattern = ac->out_id[id];
	return true;
}

bool ac_find(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
	     enum ac_semantics sem, ac_match *m)
{
	struct scan sc;
	scan_init(ac, &sc, len);
	return find_from(ac, buf, len, from, sem, m, &sc);
}

int ac_scan_leftmost(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
		     ac_match_fn cb, void *ctx)
{
	struct scan sc;
	ac_match m;
	int rc;
	scan_init(ac, &sc, len);
	while (find_from(ac, buf, len, from, AC_LEFTMOST_LONGEST, &m, &sc)) {
		if ((rc = cb(&m, ctx)) != 0)
			return rc;
		from = m.end > m.start ? m.end : m.end + 1;
	}
	return 0;
}

/* ac_scan_leftmost's matches, counted in one loop: no call or match record
 * per match (a dictionary over English matches every few bytes).  The steps
 * are leftmost_longest's, with class0_step inline. */
HOT_INLINE size_t count_leftmost(const ac_automaton *ac, const uint8_t *buf, size_t len,
				 size_t from, struct scan sc)
{
	ac_match m;
	size_t n = 0;
	if (ac->has_empty || ac->confirm) { /* each match through find_from */
		while (find_from(ac, buf, len, from, AC_LEFTMOST_LONGEST, &m, &sc)) {
			n += m.end > m.start;
			from = m.end > m.start ? m.end : m.end + 1;
		}
		return n;
	}
	uint32_t s = AC_ROOT, found;
	for (size_t pos = from; pos < len;) {
		if (s == AC_ROOT && !steps_class0(ac, s, pos, &sc)) { /* a small set: always */
			found = AC_ROOT; /* its own: s stays out of memory */
			if ((pos = step_to_match(ac, buf, len, pos, &found, &sc)) == SIZE_MAX)
				break;
			s = found;
		} else if (!((s = class0_step(ac, s, buf[pos++])) & AC_MATCH_BIT)) {
			continue;
		}
		uint32_t best = s & AC_ID_MASK;
		pos = longest_end(ac, buf, len, pos, &best);
		s = AC_ROOT;
		n++;
	}
	return n;
}

size_t ac_count_leftmost(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from)
{
	struct scan sc;
	scan_init(ac, &sc, len);
	return count_leftmost(ac, buf, len, from, sc);
}

/* ac_scan_overlapping's work, inline so that ac_count_overlapping's
 * callback compiles into the loop. */
HOT_INLINE int overlapping(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
			   ac_match_fn cb, void *ctx, struct scan sc)
{
	uint32_t s = AC_ROOT, found;
	size_t pos = from;
	int rc;
	ac_match m;
	if (from > len)
		return 0;
	if (ac->has_empty) { /* empty matches at every position, longest-first per end */
		m.pattern = ac->empty_id;
		m.start = m.end = from;
		if ((rc = cb(&m, ctx)) != 0)
			return rc;
	}
	while (pos < len) {
		size_t end;
		if (ac->has_empty) { /* a report at every position: no skipping */
			s = ac_step(ac, s, buf[pos]);
			end = pos + 1;
		} else if (steps_class0(ac, s, pos, &sc)) { /* inline: a match every few bytes */
			if (!((s = class0_step(ac, s, buf[pos++])) & AC_MATCH_BIT))
				continue;
			end = pos;
		} else {
			found = s; /* its own: s stays out of memory */
			if ((end = step_to_match(ac, buf, len, pos, &found, &sc)) == SIZE_MAX)
				break;
			s = found;
		}
		/* s's own out_len and out_id are its longest output (its own or
		 * inherited); only a state with more than one (multi_out, when
		 * built) walks dict[] */
		uint32_t id = s & AC_ID_MASK;
		bool more = !ac->multi_out || ((ac->multi_out[id / 64] >> (id % 64)) & 1);
		if (more && ac->dict[id] != AC_NONE && ac->out_len[ac->dict[id]] == ac->out_len[id])
			id = ac->dict[id]; /* s only inherits its suffix's output */
		for (; id != AC_NONE && ac->out_len[id]; id = more ? ac->dict[id] : AC_NONE) {
			m.start = end - ac->out_len[id];
			m.end = end;
			m.pattern = ac->out_id[id];
			if ((rc = cb(&m, ctx)) != 0)
				return rc;
		}
		if (ac->has_empty) {
			m.pattern = ac->empty_id;
			m.start = m.end = end;
			if ((rc = cb(&m, ctx)) != 0)
				return rc;
		}
		pos = end;
	}
	return 0;
}

int ac_scan_overlapping(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
			ac_match_fn cb, void *ctx)
{
	struct scan sc;
	scan_init(ac, &sc, len);
	return overlapping(ac, buf, len, from, cb, ctx, sc);
}

HOT_INLINE int count_one(const ac_match *m, void *ctx)
{
	(void)m;
	++*(size_t *)ctx;
	return 0;
}

size_t ac_count_overlapping(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from)
{
	struct scan sc;
	size_t n = 0;
	scan_init(ac, &sc, len);
	overlapping(ac, buf, len, from, count_one, &n, sc);
	return n;
}

size_t ac_count_stepped(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
			bool overlap)
{
	struct scan sc;
	size_t n = 0;
	scan_init(ac, &sc, len);
	sc.direct_until = len;
	if (!overlap)
		return count_leftmost(ac, buf, len, from, sc);
	overlapping(ac, buf, len, from, count_one, &n, sc);
	return n;
}

size_t ac_candidate_count(const ac_automaton *ac, const uint8_t *buf, size_t len)
{
	struct scan sc;
	size_t n = 0;
	if (ac->path == AC_PATH_DFA || ac->path == AC_PATH_MEMCHR)
		return 0;
	scan_init(ac, &sc, len);
	for (size_t c = 0; (c = next_bit(ac, buf, len, c, &sc)) < len; c++)
		n++;
	return n;
}
