/* SPDX-License-Identifier: MIT */
/* opts_color.h - --color's WHEN, and the colours from the environment.
 *
 * Owns: whether output is coloured and the SGR strings used, from --color,
 * the terminal, TERM, NO_COLOR, GREP_COLORS and GREP_COLOR, with GNU grep
 * 3.8's rules.  Used only by opts.c.
 */
#ifndef ACGREP_OPTS_COLOR_H
#define ACGREP_OPTS_COLOR_H

#include <stdbool.h>

#include "options/config.h"

enum { COLOR_NEVER, COLOR_ALWAYS, COLOR_AUTO };

/* grep's defaults: ms=01;31:mc=01;31:sl=:cx=:fn=35:ln=32:bn=32:se=36 */
extern const struct color_spec opts_default_colors;

/* --color's WHEN (never/no/none, always/yes/force, auto/tty/if-tty, in any
 * case): a COLOR_* value, or -1 when unknown. */
int opts_color_when(const char *arg);

/* Decides cfg->color for `when` (a COLOR_* value) and fills cfg->colors:
 * grep's defaults, then GREP_COLOR (deprecated: warned about on stderr
 * when it takes effect), then GREP_COLORS, the latter two only when
 * colouring.  cfg->colors then points into *legacy_copy and *colors_copy
 * (copies of the variables, or NULL), which the caller frees.  Returns
 * false when out of memory. */
bool opts_color_setup(struct config *cfg, int when, char **legacy_copy, char **colors_copy);

#endif
