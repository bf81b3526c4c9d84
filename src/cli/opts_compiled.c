/* SPDX-License-Identifier: MIT */
/* opts_compiled.c - --compiled and --save-compiled (see opts_compiled.h).
 *
 * --save-compiled=FILE writes the set compiled from -e, -f or the PATTERNS
 * operand for the options given, and exits, as --generate does: it takes
 * no FILE operand; the tags of --tagged-file go into the set.
 * --compiled=FILE takes the place of -e, -f, --tagged-file and the
 * PATTERNS operand: every operand is a FILE to search.  A set searches as
 * its patterns were compiled, -F, -G or -E (an -E/-G set holds the
 * literals the patterns expanded to, the patterns as written for the
 * reports): those options need not be given again, and one given must be
 * the set's, as -i, -w and -x must (matcher_file.h).  The set is loaded
 * when the options are final (the locale's included), so that it is
 * checked against them; like a -f file, one that cannot be used ends the
 * run before any input is read.
 */
#include "opts_compiled.h"

#include <stdio.h>
#include <stdlib.h>

#include "compiled/matcher_file.h"
#include "narrow.h"
#include "opts_argv.h"

int opts_compiled_option(struct config *cfg, int c, const char *arg)
{
	switch (c) {
	case OPT_COMPILED: cfg->compiled_path = arg; return -1;
	case OPT_SAVE_COMPILED: cfg->save_compiled = arg; return -1;
	default: return OPTS_NOT_COMPILED;
	}
}

/* The rules for --save-compiled: -1, or 2 after the message. */
static int save_finish(const struct config *cfg)
{
	const char *why = cfg->n_files || cfg->files_from
				  ? "it searches nothing, so takes no FILE operand or --files-from"
			  : cfg->engine != ENGINE_AC ? "only --engine=ac has a compiled form"
			  : cfg->patterns.count == 0 ? "no patterns to compile"
			  : NULL;
	if (!why)
		return -1;
	fprintf(stderr, PROG ": --save-compiled: %s\n", why);
	return 2;
}

/* The option of syntax s. */
static char syntax_option(enum pattern_syntax s)
{
	return s == SYNTAX_EXTENDED ? 'E' : s == SYNTAX_BASIC ? 'G' : 'F';
}

int opts_compiled_finish(struct config *cfg, bool have_keys, char syntax_given)
{
	if (cfg->save_compiled && cfg->compiled_path) {
		fputs(PROG ": --compiled and --save-compiled cannot be combined\n", stderr);
		return 2;
	}
	if (cfg->save_compiled)
		return save_finish(cfg);
	if (!cfg->compiled_path)
		return -1;
	if (have_keys) {
		fputs(PROG ": --compiled cannot be combined with -e, -f or --tagged-file\n", stderr);
		return 2;
	}
	char why[256];
	struct pattern_set list;
	struct pattern_tags tags;
	const struct matcher_spec spec = matcher_spec_of(cfg);
	struct matcher *m = matcher_load(&spec, cfg->compiled_path, &list, &tags, why, sizeof why);
	if (!m) {
		fprintf(stderr, PROG ": %s: %s\n", cfg->compiled_path, why);
		return 2;
	}
	char set_syntax = syntax_option(matcher_file_syntax(m));
	if (syntax_given && syntax_given != set_syntax) {
		fprintf(stderr, PROG ": %s: compiled with -%c; this search is with -%c\n",
			cfg->compiled_path, set_syntax, syntax_given);
		matcher_free(m);
		return 2;
	}
	cfg->syntax = matcher_file_syntax(m);
	free(cfg->patterns.storage); /* the builder's empty list */
	free(cfg->patterns.end);
	cfg->patterns = list;
	cfg->tags = tags; /* none were built: --tagged-file is refused above */
	cfg->compiled = m;
	return -1;
}

int opts_compiled_save(const struct config *cfg, unsigned threads)
{
	char why[256];
	const struct matcher_spec spec = matcher_spec_of(cfg);
	if (matcher_save(&spec, &cfg->patterns, &cfg->tags, threads, cfg->save_compiled, why,
			 sizeof why) == 0)
		return 0;
	fprintf(stderr, PROG ": %s: %s\n", cfg->save_compiled, why);
	return 2;
}

struct matcher *opts_compiled_take(struct config *cfg)
{
	struct matcher *m = cfg->compiled;
	if (m)
		cfg->patterns = (struct pattern_set){ .storage = NULL };
	cfg->compiled = NULL;
	return m;
}

void opts_compiled_free(struct config *cfg)
{
	matcher_free(opts_compiled_take(cfg));
	if (cfg->compiled_path) /* views into the set, freed with its matcher */
		cfg->tags = (struct pattern_tags){ .of = NULL };
}
