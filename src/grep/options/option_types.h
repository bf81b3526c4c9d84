/* SPDX-License-Identifier: MIT */
/* option_types.h - the types of the settings' values.
 *
 * Owns: the enums of the choices a command line makes, the pattern list
 * (`struct pattern_set`), colours, tags and file lists: what struct config
 * (config.h) is made of, and what the modules' narrow options hold, so
 * that a module names a setting's type without reading the config.
 */
#ifndef ACGREP_OPTION_TYPES_H
#define ACGREP_OPTION_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum binary_mode { BINARY_BINARY, BINARY_TEXT, BINARY_WITHOUT_MATCH };
enum list_mode { LIST_NONE, LIST_MATCHING /* -l */, LIST_NONMATCHING /* -L */ };
enum io_choice { IO_AUTO, IO_MMAP, IO_READ };
enum engine_choice { ENGINE_AC, ENGINE_PCRE2 };
enum pattern_syntax { SYNTAX_FIXED /* -F */, SYNTAX_BASIC /* -G */, SYNTAX_EXTENDED /* -E */ };
enum dir_action { DIRS_READ, DIRS_SKIP, DIRS_RECURSE }; /* -d ACTION */
/* -D ACTION; without -D, devices, FIFOs and sockets named on the command
 * line are read and those a walk finds skipped, except under -R (walk.h) */
enum dev_action { DEVS_READ_COMMAND_LINE, DEVS_READ, DEVS_SKIP };
enum recurse_mode { RECURSE_NONE, RECURSE_CMDLINE_LINKS /* -r */, RECURSE_ALL_LINKS /* -R */ };

/* One fixed-string pattern; bytes may include NUL, never the pattern separator. */
struct pattern {
	const char *bytes;
	size_t len;
};

/* The patterns back to back in `storage`, each followed by a NUL, and per
 * pattern the offset just past its bytes: 4 bytes of bookkeeping each, so
 * a list of a million words costs little beyond its text.  Both arrays come
 * from malloc, so that the engine can take them (matcher_ac_new). */
struct pattern_set {
	char *storage;
	uint32_t *end;
	size_t count;
	bool holds_nul; /* some pattern contains a NUL byte */
	/* Per pattern, its index in the list as given, when some were dropped
	 * on the way to an engine (matcher.c); NULL: the same.  From malloc. */
	uint32_t *given;
	/* Per pattern, the anchors an -E/-G expansion gave it (REGEX_BOL,
	 * REGEX_EOL of regex.h), or NULL when none has any.  From malloc. */
	uint8_t *anchors;
	/* An -E/-G list that matches nothing but whose lines grep selects by
	 * the one literal left (regex_list_must): its matches are never shown
	 * (-o, --color). */
	bool unseen;
};

/* Pattern i (< ps->count) of ps. */
static inline struct pattern pattern_at(const struct pattern_set *ps, size_t i)
{
	size_t start = i ? (size_t)ps->end[i - 1] + 1 : 0;
	return (struct pattern){ .bytes = ps->storage + start, .len = ps->end[i] - start };
}

/* GREP_COLORS capabilities (SGR strings without ESC[ and m). */
struct color_spec {
	const char *selected_match; /* ms */
	const char *context_match;  /* mc */
	const char *selected_line;  /* sl */
	const char *context_line;   /* cx */
	const char *file_name;      /* fn */
	const char *line_number;    /* ln */
	const char *byte_offset;    /* bn */
	const char *separator;      /* se */
	const char *pattern;        /* pt: --show-pattern's field; NULL: as ms */
	bool reverse;               /* rv */
	bool no_erase;              /* ne: omit \33[K */
};

/* --tagged-file: the tags of the pattern list (TAG<TAB>PATTERN lines). */
struct pattern_tags {
	struct pattern_set names; /* the distinct tags, in order of first use */
	uint32_t *of;             /* per pattern: its index in names (an
				     untagged one, of -e or -f, is tagged
				     with its own text); NULL when no tagged
				     list was given, nor a compiled set
				     saved with one */
};

/* --show-pattern=WHAT: what names a match's pattern in the output. */
enum show_pattern {
	SHOW_PATTERN_NONE,
	SHOW_PATTERN_TAG,     /* its tag; an untagged pattern names itself */
	SHOW_PATTERN_TEXT,    /* the pattern as listed */
	SHOW_PATTERN_NUMBER,  /* its 1-based number in the list as given */
};

/* A list of names to search, from --files-from or --files0-from. */
struct file_list {
	const char *path; /* "-": standard input */
	char end;         /* the byte ending each name: '\n', or '\0' for --files0-from */
};

/* --range's END when it was left out: the range goes on to the file's end. */
#define RANGE_TO_END UINT64_MAX

/* The most threads a run uses: --threads past it is refused. */
#define MAX_THREADS 1024

#endif
