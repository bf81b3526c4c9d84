/* SPDX-License-Identifier: MIT */
/* libacgrep.c - libacgrep's public API (acgrep.h) over the engine (ac.h).
 *
 * Owns: the checks and errno values of the public contract, and the
 * translation of ac_match to the callback's plain arguments; a set
 * loaded from a compiled set's image (ac_file.h).  Built only into
 * libacgrep and the Python module (the acgrep binary uses ac.h
 * directly); the shared library exports nothing but these functions
 * (libacgrep.map).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ac.h"
#include "ac_file.h"
#include "acgrep.h"
#include "secfile.h"

/* The Makefile passes src/cli/help.h's ACGREP_VERSION. */
#ifndef ACGREP_LIB_VERSION
#error "ACGREP_LIB_VERSION is not defined (the Makefile defines it)"
#endif

struct acgrep_set {
	ac_automaton *ac;
	size_t count;   /* patterns added */
	bool compiled;
	bool broken;    /* ac_compile failed: only acgrep_free is left */
};

_Static_assert(ACGREP_FOLD_ASCII == AC_FOLD_ASCII, "acgrep.h's flag is the engine's");

acgrep_set *acgrep_new(unsigned flags)
{
	if (flags & ~ACGREP_FOLD_ASCII) {
		errno = EINVAL;
		return NULL;
	}
	acgrep_set *set = calloc(1, sizeof *set);
	if (set)
		set->ac = ac_new(flags);
	if (!set || !set->ac) {
		free(set);
		errno = ENOMEM;
		return NULL;
	}
	return set;
}

int acgrep_add(acgrep_set *set, const void *bytes, size_t len)
{
	if (!set || set->compiled || set->broken || (!bytes && len > 0)) {
		errno = EINVAL;
		return -1;
	}
	if (set->count >= UINT32_MAX - 1 || ac_add(set->ac, bytes, len) != 0) {
		errno = ENOMEM;
		return -1;
	}
	set->count++;
	return 0;
}

int acgrep_compile(acgrep_set *set)
{
	if (!set || set->broken) {
		errno = EINVAL;
		return -1;
	}
	if (set->compiled)
		return 0;
	if (ac_compile(set->ac, AC_PATH_AUTO) != 0) {
		set->broken = true;
		errno = ENOMEM;
		return -1;
	}
	set->compiled = true;
	return 0;
}

size_t acgrep_count(const acgrep_set *set)
{
	return set ? set->count : 0;
}

/* The caller's callback, for the engine's. */
struct relay {
	acgrep_match_fn fn;
	void *ctx;
};

static int relay_match(const ac_match *m, void *ctx)
{
	const struct relay *r = ctx;
	return r->fn(r->ctx, m->start, m->end, m->pattern);
}

/* Whether a scan of buf[0..len) in `mode` may run on set and report to
 * somewhere (`out`: a callback or a count), else errno is EINVAL; sets
 * *text to buf, or to a readable byte when buf is NULL. */
static bool scan_ready(const acgrep_set *set, const void *buf, size_t len, int mode, bool out,
		       const unsigned char **text)
{
	static const unsigned char none[1];
	if (!set || !set->compiled || !out || (!buf && len > 0) ||
	    (mode != ACGREP_OVERLAPPING && mode != ACGREP_LEFTMOST_LONGEST)) {
		errno = EINVAL;
		return false;
	}
	*text = buf ? buf : none;
	return true;
}

int acgrep_scan(const acgrep_set *set, const void *buf, size_t len, int mode,
		acgrep_match_fn fn, void *ctx)
{
	const unsigned char *text;
	if (!scan_ready(set, buf, len, mode, fn != NULL, &text))
		return -1;
	if (set->count == 0)
		return 0;
	struct relay r = {.fn = fn, .ctx = ctx};
	if (mode == ACGREP_OVERLAPPING)
		return ac_scan_overlapping(set->ac, text, len, 0, relay_match, &r);
	return ac_scan_leftmost(set->ac, text, len, 0, relay_match, &r);
}

static int count_match(const ac_match *m, void *ctx)
{
	(void)m;
	++*(size_t *)ctx;
	return 0;
}

int acgrep_count_matches(const acgrep_set *set, const void *buf, size_t len, int mode, size_t *count)
{
	const unsigned char *text;
	uint32_t empty;
	if (!scan_ready(set, buf, len, mode, count != NULL, &text))
		return -1;
	*count = 0;
	if (set->count == 0)
		return 0;
	size_t memo_bytes = ac_run_memo_bytes(set->ac, len);
	int was = errno;
	void *memo = memo_bytes ? calloc(1, memo_bytes) : NULL;
	errno = was;
	if (memo) { /* else counted below, without one */
		*count = ac_count_runs(set->ac, text, len, mode == ACGREP_OVERLAPPING, memo, memo_bytes);
		free(memo);
		return 0;
	}
	if (mode == ACGREP_OVERLAPPING) {
		*count = ac_count_overlapping(set->ac, text, len, 0);
		return 0;
	}
	/* the engine's count leaves out empty matches, which only the empty pattern makes */
	if (!ac_pattern_id(set->ac, "", 0, &empty)) {
		*count = ac_count_leftmost(set->ac, text, len, 0);
		return 0;
	}
	return ac_scan_leftmost(set->ac, text, len, 0, count_match, count);
}

acgrep_set *acgrep_load(const void *image, size_t size)
{
	struct secfile sf;
	char why[128];
	const char *what;
	if (!image || (uintptr_t)image % SECFILE_ALIGN != 0 ||
	    secfile_open(&sf, image, size, why, sizeof why) != 0) {
		errno = EINVAL;
		return NULL;
	}
	acgrep_set *set = calloc(1, sizeof *set);
	if (!set) {
		errno = ENOMEM;
		return NULL;
	}
	set->ac = ac_load(&sf, SIMD_BEST, &what);
	if (!set->ac) {
		free(set);
		errno = strcmp(what, "memory exhausted") == 0 ? ENOMEM : EINVAL;
		return NULL;
	}
	set->count = ac_pattern_count(set->ac);
	set->compiled = true;
	return set;
}

void acgrep_free(acgrep_set *set)
{
	if (!set)
		return;
	ac_free(set->ac);
	free(set);
}

const char *acgrep_version(void)
{
	return ACGREP_LIB_VERSION;
}
