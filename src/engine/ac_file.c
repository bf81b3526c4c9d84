/* SPDX-License-Identifier: MIT */
/* ac_file.c - the automaton's sections of a compiled pattern set, and
 * the checks that make any bytes that pass them safe to scan with (see
 * ac_file.h).
 *
 * Sections: "ACmt" the scalars, byte classes and Teddy tables (struct
 * file_meta); "ACds" the dense rows; "ACfs" first (n_states + 1 entries);
 * "ACic" in_cls; "ACfl" fail; "ACol" out_len; "ACoi" out_id; "ACdc" dict;
 * and for the scan path that reads them, "ACpr" + "ACfb" the pair bitmap
 * and first bytes (BITMAP), "ACwb" the window bitmap (HASH), "ACrn" and
 * "ACrl" the neighbour and lead sets (RARE).
 *
 * What the scan relies on, and ac_load checks: states are numbered by
 * depth (breadth-first), so the depths are ranges of ids found from
 * first[] alone (depth d+1 is [hi, first[hi]) after depth d = [lo, hi)),
 * and a state's children are the next depth's; a failure link and a dict
 * link go to a shallower state, so following them ends; a dense row of a
 * state of depth d leads at most to depth d+1, and marks a match exactly
 * where the target has an output; an output is no longer than its
 * state's depth and names a pattern below the pattern count.  Then every
 * state a scan reaches is no deeper than the bytes it read since the
 * start state, so a match never starts before the text.
 */
#include "ac_file.h"

#include "ac_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Section "ACmt": the automaton's scalars (fixed-width fields, no padding). */
struct file_meta {
	uint32_t flags, n_patterns, n_nonempty, has_empty, empty_id;
	uint32_t n_classes, class_shift, n_states, n_dense;
	uint32_t path, simd; /* the scan path; the kernels it was saved with */
	uint32_t window_width, window_mask, window_fold, window_stride, reserved; /* reserved: 0 */
	uint32_t rare_offset, rare_byte, teddy_width, teddy_offset;
	uint64_t max_len, min_len, memory;
	uint8_t cls[256];
	uint8_t teddy_lo[TEDDY_MAX_WIDTH][16], teddy_hi[TEDDY_MAX_WIDTH][16];
};
_Static_assert(sizeof(struct file_meta) == 20 * 4 + 3 * 8 + 256 + 2 * TEDDY_MAX_WIDTH * 16,
	       "struct file_meta has no padding");

#define T_META SECFILE_TAG('A', 'C', 'm', 't')
#define T_DENSE SECFILE_TAG('A', 'C', 'd', 's')
#define T_FIRST SECFILE_TAG('A', 'C', 'f', 's')
#define T_IN_CLS SECFILE_TAG('A', 'C', 'i', 'c')
#define T_FAIL SECFILE_TAG('A', 'C', 'f', 'l')
#define T_OUT_LEN SECFILE_TAG('A', 'C', 'o', 'l')
#define T_OUT_ID SECFILE_TAG('A', 'C', 'o', 'i')
#define T_DICT SECFILE_TAG('A', 'C', 'd', 'c')
#define T_PAIR SECFILE_TAG('A', 'C', 'p', 'r')
#define T_FIRST_BYTE SECFILE_TAG('A', 'C', 'f', 'b')
#define T_WINDOW SECFILE_TAG('A', 'C', 'w', 'b')
/* RARE: rare_before and rare_after; a file without it scans without the
 * neighbour test */
#define T_RARE_NEAR SECFILE_TAG('A', 'C', 'r', 'n')
/* RARE: rare_lead; a file without it steps from rare_reach bytes back */
#define T_RARE_LEAD SECFILE_TAG('A', 'C', 'r', 'l')
/* RARE: window_bits when rare_windowed; a file without it scans without
 * the window test */
#define T_RARE_WINDOW SECFILE_TAG('A', 'C', 'r', 'w')

/* The RARE path's set in file_meta.rare_byte (rare_offset holds its
 * reach): the three bytes from the low one up, the count in the top one. */
static uint32_t rare_set_word(const ac_automaton *ac)
{
	return ac->rare_set[0] | (uint32_t)ac->rare_set[1] << 8 | (uint32_t)ac->rare_set[2] << 16 |
	       ac->n_rare << 24;
}

static void meta_fill(const ac_automaton *ac, struct file_meta *m)
{
	*m = (struct file_meta){
		.flags = ac->flags, .n_patterns = ac->n_patterns, .n_nonempty = ac->n_nonempty,
		.has_empty = ac->has_empty, .empty_id = ac->empty_id,
		.n_classes = ac->n_classes, .class_shift = ac->class_shift,
		.n_states = ac->n_states, .n_dense = ac->n_dense,
		.path = (uint32_t)ac->path, .simd = (uint32_t)ac->simd,
		.window_width = ac->window_width, .window_mask = ac->window_mask,
		.window_fold = ac->window_fold, .window_stride = ac->window_stride,
		.rare_offset = ac->path == AC_PATH_RARE ? ac->rare_reach : ac->rare_offset,
		.rare_byte = ac->path == AC_PATH_RARE ? rare_set_word(ac) : ac->rare_byte,
		.teddy_width = ac->teddy.width,
		.teddy_offset = ac->teddy.offset, .max_len = ac->max_len, .min_len = ac->min_len,
		.memory = ac->memory,
	};
	memcpy(m->cls, ac->cls, sizeof m->cls);
	memcpy(m->teddy_lo, ac->teddy.lo, sizeof m->teddy_lo);
	memcpy(m->teddy_hi, ac->teddy.hi, sizeof m->teddy_hi);
}

int ac_save(const ac_automaton *ac, struct secfile_writer *w)
{
	struct file_meta m;
	meta_fill(ac, &m);
	size_t n = ac->n_states, rows = ((size_t)ac->n_dense << ac->class_shift) * sizeof *ac->dense;
	int rc = secfile_add_copy(w, T_META, &m, sizeof m);
	rc |= secfile_add(w, T_DENSE, ac->dense, rows);
	rc |= secfile_add(w, T_FIRST, ac->first, (n + 1) * sizeof *ac->first);
	rc |= secfile_add(w, T_IN_CLS, ac->in_cls, n);
	rc |= secfile_add(w, T_FAIL, ac->fail, n * sizeof *ac->fail);
	rc |= secfile_add(w, T_OUT_LEN, ac->out_len, n * sizeof *ac->out_len);
	rc |= secfile_add(w, T_OUT_ID, ac->out_id, n * sizeof *ac->out_id);
	rc |= secfile_add(w, T_DICT, ac->dict, n * sizeof *ac->dict);
	if (ac->path == AC_PATH_BITMAP) {
		rc |= secfile_add(w, T_PAIR, ac->pair, sizeof ac->pair);
		rc |= secfile_add(w, T_FIRST_BYTE, ac->first_byte, sizeof ac->first_byte);
	}
	if (ac->path == AC_PATH_HASH || (ac->path == AC_PATH_TEDDY && ac->window_width))
		rc |= secfile_add(w, T_WINDOW, ac->window_bits, sizeof ac->window_bits);
	if (ac->path == AC_PATH_RARE) {
		uint64_t near[8];
		memcpy(near, ac->rare_before, sizeof ac->rare_before);
		memcpy(near + 4, ac->rare_after, sizeof ac->rare_after);
		rc |= secfile_add_copy(w, T_RARE_NEAR, near, sizeof near);
		rc |= secfile_add(w, T_RARE_LEAD, ac->rare_lead, sizeof ac->rare_lead);
		if (ac->rare_windowed)
			rc |= secfile_add(w, T_RARE_WINDOW, ac->window_bits, sizeof ac->window_bits);
	}
	return rc ? -1 : 0;
}

/* The prefilter's scalars and classes, as far as the scan depends on them:
 * NULL, or what is wrong. */
static const char *meta_check(const struct file_meta *m)
{
	if (m->flags & ~(uint32_t)AC_FOLD_ASCII || m->reserved || m->n_classes < 1 || m->n_classes > 257 ||
	    m->class_shift > 9 || (1u << m->class_shift) < m->n_classes)
		return "automaton: byte classes";
	for (int b = 0; b < 256; b++)
		if (m->cls[b] >= m->n_classes)
			return "automaton: byte classes";
	if (m->n_states < 1 || m->n_states > AC_ID_MASK || m->n_dense < 1 || m->n_dense > m->n_states)
		return "automaton: state count";
	if (m->has_empty > 1 || (m->has_empty && m->empty_id >= m->n_patterns) ||
	    m->n_nonempty > m->n_patterns || m->min_len > m->max_len)
		return "automaton: pattern count";
	bool ok;
	switch (m->path) {
	case AC_PATH_DFA: case AC_PATH_BITMAP: ok = true; break;
	case AC_PATH_MEMCHR: ok = m->rare_offset < m->min_len && m->rare_byte < 256; break;
	case AC_PATH_RARE: /* any set scans safely; the reach is within a pattern */
		ok = m->rare_byte >> 24 >= 1 && m->rare_byte >> 24 <= 3 && m->rare_offset < m->max_len;
		break;
	case AC_PATH_TEDDY:
		ok = m->teddy_width >= 1 && m->teddy_width <= TEDDY_MAX_WIDTH &&
		     m->teddy_offset <= m->min_len && m->teddy_width <= m->min_len - m->teddy_offset &&
		     (m->window_width == 0 || ((m->window_width == 3 || m->window_width == 4) &&
					       m->window_width <= m->min_len));
		break;
	case AC_PATH_HASH:
		ok = (m->window_width == 3 || m->window_width == 4) && m->window_stride >= 1 &&
		     m->window_stride <= 8 && !(m->window_stride & (m->window_stride - 1)) &&
		     m->window_width + m->window_stride - 1 <= m->min_len;
		break;
	default: ok = false; break;
	}
	return ok ? NULL : "automaton: prefilter";
}

/* The state tables, as sections of the file. */
struct tables {
	const uint32_t *dense, *first, *fail, *out_len, *out_id, *dict;
	const uint8_t *in_cls;
};

/* Finds the tables in f, each of exactly the size m calls for: NULL, or
 * what is missing. */
static const char *tables_find(const struct secfile *f, const struct file_meta *m, struct tables *t)
{
	uint64_t n = m->n_states, rows = (uint64_t)m->n_dense << m->class_shift;
	if (n >= SIZE_MAX / 4 || rows > SIZE_MAX / 4) /* a 32-bit build's limit */
		return "automaton: state count";
	t->dense = secfile_section(f, T_DENSE, (size_t)rows * 4);
	t->first = secfile_section(f, T_FIRST, (size_t)(n + 1) * 4);
	t->in_cls = secfile_section(f, T_IN_CLS, (size_t)n);
	t->fail = secfile_section(f, T_FAIL, (size_t)n * 4);
	t->out_len = secfile_section(f, T_OUT_LEN, (size_t)n * 4);
	t->out_id = secfile_section(f, T_OUT_ID, (size_t)n * 4);
	t->dict = secfile_section(f, T_DICT, (size_t)n * 4);
	if (!t->dense || !t->first || !t->in_cls || !t->fail || !t->out_len || !t->out_id || !t->dict)
		return "automaton: state tables";
	return NULL;
}

/* Checks states [lo, hi), depth d (the root's own links are
 * states_check's), whose children end at `next`: NULL, or what is wrong.
 * The state checks are OR-ed together without branches (the loop runs at
 * memory speed). */
static const char *depth_check(const struct tables *t, const struct file_meta *m, uint32_t d,
			       uint32_t lo, uint32_t hi, uint32_t next)
{
	uint32_t bad = 0, n_patterns = m->n_patterns;
	/* dict + 1 > lo: a dict link at or past lo (AC_NONE + 1 wraps to 0) */
	for (uint32_t s = lo ? lo : AC_ROOT + 1; s < hi; s++)
		bad |= (uint32_t)(t->fail[s] >= lo) | (uint32_t)(t->dict[s] + 1 > lo) |
		       (uint32_t)(t->out_len[s] > d) |
		       ((uint32_t)(t->out_len[s] != 0) & (uint32_t)(t->out_id[s] >= n_patterns));
	if (bad)
		return "automaton: links or outputs";
	size_t width = (size_t)1 << m->class_shift;
	uint32_t dense_hi = hi < m->n_dense ? hi : m->n_dense;
	for (uint32_t s = lo; s < dense_hi; s++) {
		const uint32_t *row = t->dense + (size_t)s * width;
		for (size_t c = 0; c < width; c++) {
			uint32_t id = row[c] & AC_ID_MASK;
			if (id >= next || !(row[c] & AC_MATCH_BIT) != !t->out_len[id])
				return "automaton: transitions";
		}
	}
	return NULL;
}

/* first[] ascends from 1 to n: NULL, or what is wrong. */
static const char *first_check(const uint32_t *first, uint32_t n)
{
	uint32_t bad = first[0] != 1 || first[n] != n;
	for (uint32_t s = 0; s < n; s++)
		bad |= first[s] > first[s + 1];
	return bad ? "automaton: children" : NULL;
}

/* Checks the tables (see the head of this file): NULL, or what is wrong. */
static const char *states_check(const struct tables *t, const struct file_meta *m)
{
	const char *why = first_check(t->first, m->n_states);
	if (!why && (t->fail[AC_ROOT] != AC_ROOT || t->dict[AC_ROOT] != AC_NONE || t->out_len[AC_ROOT]))
		why = "automaton: links or outputs";
	uint32_t lo = AC_ROOT, hi = AC_ROOT + 1, d = 0;
	for (; !why; d++) {
		uint32_t next = t->first[hi];
		why = depth_check(t, m, d, lo, hi, next);
		if (next == hi)
			break;
		lo = hi;
		hi = next;
	}
	if (!why && hi != m->n_states)
		why = "automaton: children";
	/* the deepest state spells the longest pattern */
	if (!why && d != m->max_len)
		why = "automaton: pattern lengths";
	return why;
}

/* A pointer into the image for a table field: the scan only reads it. */
static void *unconst(const void *p)
{
	return (void *)(uintptr_t)p;
}

/* Copies the prefilter tables of m's path into ac: NULL, or what is missing. */
static const char *prefilter_load(const struct secfile *f, ac_automaton *ac)
{
	if (ac->path == AC_PATH_BITMAP) {
		const void *pair = secfile_section(f, T_PAIR, sizeof ac->pair);
		const void *fb = secfile_section(f, T_FIRST_BYTE, sizeof ac->first_byte);
		if (!pair || !fb)
			return "automaton: prefilter";
		memcpy(ac->pair, pair, sizeof ac->pair);
		memcpy(ac->first_byte, fb, sizeof ac->first_byte);
	}
	if (ac->path == AC_PATH_HASH || (ac->path == AC_PATH_TEDDY && ac->window_width)) {
		const void *bits = secfile_section(f, T_WINDOW, sizeof ac->window_bits);
		if (!bits)
			return "automaton: prefilter";
		memcpy(ac->window_bits, bits, sizeof ac->window_bits);
		ac_window_derive(ac);
	}
	if (ac->path == AC_PATH_RARE) {
		const uint8_t *near = secfile_section(f, T_RARE_NEAR, 2 * sizeof ac->rare_before);
		memset(ac->rare_before, 0xff, sizeof ac->rare_before);
		memset(ac->rare_after, 0xff, sizeof ac->rare_after);
		if (near) {
			memcpy(ac->rare_before, near, sizeof ac->rare_before);
			memcpy(ac->rare_after, near + sizeof ac->rare_before, sizeof ac->rare_after);
		}
		const void *lead = secfile_section(f, T_RARE_LEAD, sizeof ac->rare_lead);
		if (lead)
			memcpy(ac->rare_lead, lead, sizeof ac->rare_lead);
		else
			memset(ac->rare_lead, 0xff, sizeof ac->rare_lead);
		const void *windows = secfile_section(f, T_RARE_WINDOW, sizeof ac->window_bits);
		ac->rare_windowed = windows != NULL;
		if (windows)
			memcpy(ac->window_bits, windows, sizeof ac->window_bits);
	}
	return NULL;
}

static void meta_apply(ac_automaton *ac, const struct file_meta *m, enum simd_level cap)
{
	ac->flags = m->flags;
	ac->n_patterns = m->n_patterns;
	ac->n_nonempty = m->n_nonempty;
	ac->has_empty = m->has_empty;
	ac->empty_id = m->empty_id;
	ac->max_len = (size_t)m->max_len;
	ac->min_len = (size_t)m->min_len;
	ac->n_classes = m->n_classes;
	ac->class0_skip = ac_class0_skip(m->n_classes, m->n_states);
	ac->class_shift = m->class_shift;
	ac->n_states = m->n_states;
	ac->n_dense = m->n_dense;
	ac->path = (enum ac_scan_path)m->path;
	ac->simd = ac->teddy.level = ac_simd_allowed(cap);
	ac->simd_cap = cap;
	ac->window_width = m->window_width;
	ac->window_mask = m->window_mask;
	ac->window_fold = m->window_fold;
	ac->window_stride = m->window_stride;
	ac->rare_offset = m->rare_offset;
	ac->rare_byte = (uint8_t)m->rare_byte;
	if (ac->path == AC_PATH_RARE) {
		ac->rare_reach = m->rare_offset;
		ac->n_rare = m->rare_byte >> 24;
		for (int i = 0; i < 3; i++) /* unused slots repeat the first byte */
			ac->rare_set[i] = (uint8_t)(m->rare_byte >> (8 * (i < (int)ac->n_rare ? i : 0)));
	}
	ac->teddy.width = m->teddy_width;
	ac->teddy.offset = m->teddy_offset;
	ac->memory = (size_t)m->memory;
	memcpy(ac->cls, m->cls, sizeof ac->cls);
	memcpy(ac->teddy.lo, m->teddy_lo, sizeof ac->teddy.lo);
	memcpy(ac->teddy.hi, m->teddy_hi, sizeof ac->teddy.hi);
	teddy_derive(&ac->teddy);
	ac_path_derive(ac);
}

ac_automaton *ac_load(const struct secfile *f, enum simd_level cap, const char **why)
{
	const void *raw = secfile_section(f, T_META, sizeof(struct file_meta));
	struct file_meta m;
	struct tables t;
	*why = "automaton: missing";
	if (!raw)
		return NULL;
	memcpy(&m, raw, sizeof m);
	if ((*why = meta_check(&m)) || (*why = tables_find(f, &m, &t)) ||
	    (*why = states_check(&t, &m)))
		return NULL;
	ac_automaton *ac = ac_new(m.flags);
	if (!ac) {
		*why = "memory exhausted";
		return NULL;
	}
	meta_apply(ac, &m, cap);
	ac->compiled = ac->mapped = true;
	ac->dense = unconst(t.dense);
	ac->first = unconst(t.first);
	ac->in_cls = unconst(t.in_cls);
	ac->fail = unconst(t.fail);
	ac->out_len = unconst(t.out_len);
	ac->out_id = unconst(t.out_id);
	ac->dict = unconst(t.dict);
	if (!(*why = prefilter_load(f, ac)) && ac_depths_build(ac) != 0)
		*why = "memory exhausted";
	if (!*why) {
		ac_window_kernel_derive(ac);
		ac_confirm_build(ac);
	}
	if (*why) {
		ac_free(ac);
		return NULL;
	}
	return ac;
}

size_t ac_pattern_count(const ac_automaton *ac)
{
	return ac->n_patterns;
}
