/* SPDX-License-Identifier: MIT */
/* stats.c - the statistics of a run (see stats.h): the patterns-seen sets,
 * the run's sums, the clock.
 */
#include "stats.h"

#include <stdio.h>

#include "grow.h"
#include <stdlib.h>
#include <time.h>

bool pattern_ids_add(struct pattern_ids *l, uint32_t id)
{
	if (l->n == l->cap) {
		uint32_t *v = grow_array(l->v, &l->cap, l->n + 1, sizeof *v, 16);
		if (!v)
			return false;
		l->v = v;
	}
	l->v[l->n++] = id;
	return true;
}

void pattern_ids_free(struct pattern_ids *l)
{
	free(l->v);
	*l = (struct pattern_ids){ .v = NULL };
}

int patterns_seen_init(struct patterns_seen *ps, size_t n)
{
	ps->bits = calloc(n / 64 + 1, sizeof *ps->bits);
	ps->n = ps->bits ? n : 0;
	return ps->bits ? 0 : -1;
}

void patterns_seen_update(struct patterns_seen *ps, const struct pattern_ids *l, bool add)
{
	for (size_t i = 0; i < l->n; i++) {
		uint32_t id = l->v[i];
		if (id >= ps->n)
			continue;
		uint64_t bit = (uint64_t)1 << (id & 63);
		ps->bits[id >> 6] = add ? ps->bits[id >> 6] | bit : ps->bits[id >> 6] & ~bit;
	}
}

uint64_t patterns_seen_count(const struct patterns_seen *ps)
{
	uint64_t n = 0;
	for (size_t i = 0; ps->bits && i < ps->n / 64 + 1; i++)
		for (uint64_t w = ps->bits[i]; w; w &= w - 1)
			n++;
	return n;
}

void patterns_seen_free(struct patterns_seen *ps)
{
	free(ps->bits);
	*ps = (struct patterns_seen){ .bits = NULL };
}

uint64_t stats_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int run_stats_init(struct run_stats *rs, uint64_t start, size_t patterns)
{
	*rs = (struct run_stats){ .start = start, .patterns = patterns };
	int a = patterns_seen_init(&rs->seen, patterns), b = patterns_seen_init(&rs->main_seen, patterns);
	return a | b;
}

void run_stats_free(struct run_stats *rs)
{
	patterns_seen_free(&rs->seen);
	patterns_seen_free(&rs->main_seen);
}

void run_stats_add(struct run_stats *rs, const struct search_stats *s,
		   const struct pattern_ids *seen, bool matched)
{
	search_stats_add(&rs->total, s);
	rs->searches++;
	rs->searches_with_match += matched;
	if (seen)
		patterns_seen_update(&rs->seen, seen, true);
}

void stats_seconds(uint64_t nanos, char *human)
{
	uint64_t micros = nanos / 1000u + (nanos % 1000u >= 500u);
	snprintf(human, 32, "%llu.%06llu", (unsigned long long)(micros / 1000000u),
		 (unsigned long long)(micros % 1000000u));
}
