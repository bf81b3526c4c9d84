/* SPDX-License-Identifier: MIT */
/* opts_color.c - --color's WHEN, and the colours from the environment.
 *
 * Owns: deciding whether to colour (--color, isatty, TERM, NO_COLOR) and
 * parsing GREP_COLORS and the deprecated GREP_COLOR as GNU grep 3.8 does,
 * including its warning about GREP_COLOR.  Used only by opts.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "opts_color.h"

/* --color's WHEN, case-insensitively as grep; -1 when unknown. */
int opts_color_when(const char *arg)
{
	static const char *const words[] = {"never", "no", "none", "always", "yes",
					    "force", "auto", "tty", "if-tty"};
	for (int i = 0; i < 9; i++)
		if (strcasecmp(arg, words[i]) == 0)
			return i / 3; /* COLOR_NEVER, COLOR_ALWAYS, COLOR_AUTO */
	return -1;
}

/* grep's defaults: ms=01;31:mc=01;31:sl=:cx=:fn=35:ln=32:bn=32:se=36; pt
 * (acgrep's) is ms unless GREP_COLORS sets it */
const struct color_spec opts_default_colors = {
	.selected_match = "01;31", .context_match = "01;31", .selected_line = "",
	.context_line = "", .file_name = "35", .line_number = "32", .byte_offset = "32",
	.separator = "36", .pattern = NULL, .reverse = false, .no_erase = false,
};

/* The string capability `name` of GREP_COLORS, or NULL when unknown. */
static const char **color_slot(struct color_spec *c, const char *name)
{
	static const char names[][3] = {"ms", "mc", "sl", "cx", "fn", "ln", "bn", "se", "pt"};
	const char **slots[] = {&c->selected_match, &c->context_match, &c->selected_line,
				&c->context_line, &c->file_name, &c->line_number,
				&c->byte_offset, &c->separator, &c->pattern};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return slots[i];
	return NULL;
}

/* One GREP_COLORS capability; `val` is NULL when there was no '='.
 * Unknown names are ignored, as grep does for forward compatibility. */
static void apply_color_cap(struct color_spec *c, const char *name, const char *val)
{
	if (strcmp(name, "mt") == 0) {
		/* grep: mt=V sets ms; then mc takes ms's value (even without =V) */
		if (val)
			c->selected_match = val;
		c->context_match = c->selected_match;
	} else if (strcmp(name, "rv") == 0) {
		c->reverse = true;
	} else if (strcmp(name, "ne") == 0) {
		c->no_erase = true;
	} else if (val) {
		const char **slot = color_slot(c, name);
		if (slot)
			*slot = val;
	}
}

/* Parses a writable GREP_COLORS string in place, grep's way: "name=val"
 * entries split by ':', values of digits and ';' only.  At the first
 * malformed character parsing stops; entries before it stay applied. */
static void parse_grep_colors(struct color_spec *c, char *s)
{
	char *name = s, *val = NULL, *q = s;
	for (;;) {
		char ch = *q;
		if (ch == ':' || ch == '\0') {
			*q++ = '\0';
			apply_color_cap(c, name, val);
			if (ch == '\0')
				return;
			name = q;
			val = NULL;
		} else if (ch == '=') {
			if (q == name || val)
				return;
			*q++ = '\0';
			val = q;
		} else if (!val || ch == ';' || isdigit((unsigned char)ch)) {
			q++;
		} else {
			return;
		}
	}
}

/* auto: standard output is a terminal, TERM is set and not "dumb", and
 * NO_COLOR is unset or empty (NO_COLOR is acgrep's addition; grep 3.8
 * ignores it; it never turns off --color=always). */
bool opts_color_setup(struct config *cfg, int when, char **legacy_copy, char **colors_copy)
{
	cfg->colors = opts_default_colors;
	if (when == COLOR_AUTO) {
		const char *term = getenv("TERM");
		const char *no_color = getenv("NO_COLOR");
		cfg->color = !cfg->quiet && isatty(STDOUT_FILENO) && term &&
			     strcmp(term, "dumb") != 0 && !(no_color && *no_color);
	} else {
		cfg->color = when == COLOR_ALWAYS;
	}
	if (!cfg->color)
		return true;

	const char *legacy = getenv("GREP_COLOR");
	if (legacy && *legacy && strspn(legacy, "0123456789;") == strlen(legacy)) {
		*legacy_copy = strdup(legacy);
		if (!*legacy_copy)
			return false;
		cfg->colors.selected_match = *legacy_copy;
		cfg->colors.context_match = *legacy_copy;
	}
	const char *colors = getenv("GREP_COLORS");
	if (colors && *colors) {
		*colors_copy = strdup(colors);
		if (!*colors_copy)
			return false;
		parse_grep_colors(&cfg->colors, *colors_copy);
	}
	if (!cfg->colors.pattern)
		cfg->colors.pattern = cfg->colors.selected_match;
	if (*legacy_copy && (cfg->colors.selected_match == *legacy_copy ||
				   cfg->colors.context_match == *legacy_copy))
		fprintf(stderr, "acgrep: warning: GREP_COLOR='%s' is deprecated; use GREP_COLORS='mt=%s'\n",
			*legacy_copy, *legacy_copy);
	return true;
}

