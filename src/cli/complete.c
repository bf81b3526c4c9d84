/* SPDX-License-Identifier: MIT */
/* complete.c - shell completion scripts (acgrep --generate=KIND).
 *
 * Owns: reading --help's option lines into entries (names, argument,
 * description, choices) and writing the bash, zsh and fish scripts from
 * the option tables and those entries.  Which options exist and whether
 * they take an argument is the tables' word (opts_argv.c); whether an
 * option is shown, its one-line description and its argument's choices
 * are --help's (help.c): an option --help leaves out (a hidden or an
 * obsolete one) does not complete, and one --help lists that the tables
 * lack is an error.
 *
 * --help's layout, relied on here: an option line starts with 2 or 6
 * spaces and a dash, its names ("-i, --ignore-case", "--file=FILE",
 * "--color[=WHEN],") end at two spaces, the description follows; a line
 * of names ending in a comma and no description goes on on the next
 * line; continuation lines start with 8 or more spaces.  Choices are the
 * 'quoted' words after "ARG is " in the description and its continuation.
 */
#include "complete.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "help.h"
#include "opts_argv.h"

const char *const complete_kinds[] = {"complete-bash", "complete-zsh", "complete-fish", NULL};

enum { MAX_NAMES = 4, MAX_CHOICES = 8, MAX_ENTRIES = 128 };

struct span {
	const char *p;
	int len;
};

/* One option line of --help, with its continuations. */
struct entry {
	char shorts[MAX_NAMES + 1];      /* short option letters */
	const char *longs[MAX_NAMES];    /* long names, without dashes */
	size_t n_longs;
	const char *arg;                 /* "FILE" of --file=FILE, or NULL */
	const char *desc;                /* the first line of the description */
	struct span choices[MAX_CHOICES];
	size_t n_choices;
	bool in_choices;                 /* "ARG is " seen: quoted words follow */
	bool written;                    /* a writer's mark */
};

struct help {
	char *text; /* --help's text, cut into lines and names in place */
	struct entry e[MAX_ENTRIES];
	size_t n;
	size_t words; /* a writer's count of the words it wrote in a list */
};

/* Notes the quoted words of `line` as choices of *e, from "ARG is " on. */
static void take_choices(struct entry *e, const char *line)
{
	if (!e->in_choices && e->arg) {
		for (const char *p = strstr(line, e->arg); p; p = strstr(p + 1, e->arg))
			if (strncmp(p + strlen(e->arg), " is ", 4) == 0) {
				e->in_choices = true;
				line = p;
				break;
			}
	}
	if (!e->in_choices)
		return;
	for (const char *q = strchr(line, '\''); q && e->n_choices < MAX_CHOICES;) {
		const char *end = strchr(q + 1, '\'');
		if (!end)
			break;
		e->choices[e->n_choices++] = (struct span){ .p = q + 1, .len = (int)(end - q - 1) };
		q = strchr(end + 1, '\'');
	}
}

/* Adds the names of `names` ("-i, --ignore-case"), cut in place, to *e. */
static void take_names(struct entry *e, char *names)
{
	for (char *tok = strtok(names, ", "); tok; tok = strtok(NULL, ", ")) {
		if (tok[0] == '-' && isalnum((unsigned char)tok[1]) && !tok[2] &&
		    strlen(e->shorts) < MAX_NAMES) {
			e->shorts[strlen(e->shorts)] = tok[1];
		} else if (tok[0] == '-' && tok[1] == '-' && e->n_longs < MAX_NAMES) {
			char *cut = tok + 2 + strcspn(tok + 2, "[=");
			if (*cut) {
				e->arg = cut + 1 + (*cut == '[');
				cut[strcspn(cut, "]")] = '\0';
				*cut = '\0';
			}
			e->longs[e->n_longs++] = tok + 2;
		}
	}
}

/* Cuts h->text into lines and reads its option lines into h->e. */
static void parse_help(struct help *h)
{
	struct entry *cur = NULL;
	bool names_go_on = false;
	for (char *line = h->text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		size_t indent = strspn(line, " ");
		if (line[indent] == '-' && (indent == 2 || indent == 6)) {
			if (!names_go_on) {
				if (h->n == MAX_ENTRIES)
					return;
				cur = &h->e[h->n++];
			}
			char *names = line + indent, *gap = strstr(names, "  ");
			char *desc = gap ? gap + strspn(gap, " ") : names + strlen(names);
			if (gap)
				*gap = '\0';
			names_go_on = !*desc && names[strlen(names) - 1] == ',';
			take_names(cur, names);
			if (*desc) {
				cur->desc = desc;
				take_choices(cur, desc);
				/* "...directories;" goes on with its choices */
				size_t n = strlen(desc);
				if (desc[n - 1] == ';')
					desc[n - 1] = '\0';
			}
		} else if (cur && indent >= 8 && line[indent]) {
			take_choices(cur, line + indent);
		} else {
			cur = NULL;
			names_go_on = false;
		}
	}
}

static struct entry *entry_of_long(struct help *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		for (size_t k = 0; k < h->e[i].n_longs; k++)
			if (strcmp(h->e[i].longs[k], name) == 0)
				return &h->e[i];
	return NULL;
}

static struct entry *entry_of_short(struct help *h, char c)
{
	for (size_t i = 0; i < h->n; i++)
		if (strchr(h->e[i].shorts, c))
			return &h->e[i];
	return NULL;
}

static const struct option *table_long(const char *name)
{
	for (const struct option *o = opts_long_options; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/* Whether short option c takes an argument (opts_short_options' "c:"). */
static bool short_has_arg(char c)
{
	const char *p = strchr(opts_short_options, c);
	return p && p[1] == ':';
}

/* True when every option --help lists is in the tables; else says which. */
static bool help_matches_tables(const struct help *h)
{
	for (size_t i = 0; i < h->n; i++) {
		for (size_t k = 0; k < h->e[i].n_longs; k++)
			if (!table_long(h->e[i].longs[k])) {
				fprintf(stderr, PROG ": --help lists --%s, which the option table lacks\n",
					h->e[i].longs[k]);
				return false;
			}
		for (const char *c = h->e[i].shorts; *c; c++)
			if (*c == ':' || !strchr(opts_short_options, *c)) {
				fprintf(stderr, PROG ": --help lists -%c, which the option string lacks\n", *c);
				return false;
			}
	}
	return true;
}

/* Whether an argument is a file name: --help calls it FILE. */
static bool arg_is_file(const struct entry *e)
{
	return e->arg && strcmp(e->arg, "FILE") == 0;
}

/* The short options --help lists, in the option string's order. */
static void for_each_short(struct help *h, void (*fn)(struct help *, char, struct entry *, FILE *),
			   FILE *out)
{
	for (const char *c = opts_short_options; *c; c++) {
		struct entry *e = *c != ':' ? entry_of_short(h, *c) : NULL;
		if (e)
			fn(h, *c, e, out);
	}
}

/* ---- bash ---- */

static void bash_choices(const struct entry *e, FILE *out)
{
	if (e->n_choices) {
		fputs("mapfile -t COMPREPLY < <(compgen -W '", out);
		for (size_t i = 0; i < e->n_choices; i++)
			fprintf(out, "%s%.*s", i ? " " : "", e->choices[i].len, e->choices[i].p);
		fputs("' -- \"$2\")", out);
	} else if (arg_is_file(e)) {
		fputs("compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$2\")", out);
	} else {
		fputs("COMPREPLY=()", out);
	}
	fputs(" ;;\n", out);
}

static void bash_short_arg(struct help *h, char c, struct entry *e, FILE *out)
{
	(void)h;
	if (!short_has_arg(c))
		return;
	fprintf(out, "\t-%c) ", c);
	bash_choices(e, out);
}

static void bash_short_word(struct help *h, char c, struct entry *e, FILE *out)
{
	(void)e;
	fprintf(out, "%s-%c", h->words++ ? " " : "", c);
}

/* _acgrep_arg OPT VALUE: "--NAME=" is an option given with "=", "--NAME"
 * and "-C" one whose argument is the next word. */
static void write_bash(struct help *h, FILE *out)
{
	fputs("# acgrep's bash completion, written by `acgrep --generate=complete-bash`\n\n"
	      "# _acgrep_arg OPTION VALUE: completes VALUE as OPTION's argument (OPTION\n"
	      "# is --NAME= when they were one word); fails when OPTION takes none\n"
	      "_acgrep_arg()\n{\n\tcase $1 in\n", out);
	for (const struct option *o = opts_long_options; o->name; o++) {
		struct entry *e = entry_of_long(h, o->name);
		if (!e || o->has_arg == no_argument)
			continue;
		fprintf(out, o->has_arg == required_argument ? "\t--%s | --%s=) " : "\t--%s=) ",
			o->name, o->name);
		bash_choices(e, out);
	}
	for_each_short(h, bash_short_arg, out);
	fputs("\t*) return 1 ;;\n\tesac\n}\n\n_acgrep()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]-}\n"
	      "\tCOMPREPLY=()\n"
	      "\tif [[ $cur == --*=* ]]; then # \"=\" is not a word break here\n"
	      "\t\t_acgrep_arg \"${cur%%=*}=\" \"${cur#*=}\" &&\n"
	      "\t\t\tCOMPREPLY=(\"${COMPREPLY[@]/#/${cur%%=*}=}\")\n"
	      "\t\treturn 0\n"
	      "\telif [[ $cur == = && $prev == --* ]]; then\n"
	      "\t\t_acgrep_arg \"$prev=\" \"\"\n\t\treturn 0\n"
	      "\telif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
	      "\t\t_acgrep_arg \"${COMP_WORDS[COMP_CWORD-2]}=\" \"$cur\"\n\t\treturn 0\n"
	      "\telif _acgrep_arg \"$prev\" \"$cur\"; then\n\t\treturn 0\n\tfi\n"
	      "\tcase $cur in\n\t--*)\n\t\tmapfile -t COMPREPLY < <(compgen -W '", out);
	const char *sep = "";
	for (const struct option *o = opts_long_options; o->name; o++) {
		if (!entry_of_long(h, o->name))
			continue;
		fprintf(out, "%s--%s%s", sep, o->name, o->has_arg == required_argument ? "=" : "");
		if (o->has_arg == optional_argument)
			fprintf(out, " --%s=", o->name);
		sep = " ";
	}
	fputs("' -- \"$cur\")\n"
	      "\t\t[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null\n"
	      "\t\t;;\n\t-*) mapfile -t COMPREPLY < <(compgen -W '", out);
	for_each_short(h, bash_short_word, out);
	fputs("' -- \"$cur\") ;;\n"
	      "\t*) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
	      "\tesac\n\treturn 0\n}\n\ncomplete -F _acgrep acgrep\n", out);
}

/* ---- zsh ---- */

/* `s` (up to `len` bytes, or its end) inside a single-quoted _arguments
 * spec: the quote closed and reopened, [ ] : \ escaped. */
static void zsh_text(const char *s, size_t len, FILE *out)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] == '\'')
			fputs("'\\''", out);
		else if (strchr("[]:\\", s[i]))
			fprintf(out, "\\%c", s[i]);
		else
			fputc(s[i], out);
	}
}

/* NAME's spec: "-f+" or "--file=" (argument in this word or the next),
 * "--color=-" (in this word only); options with an argument may repeat. */
static void zsh_spec(const char *name, int has_arg, const struct entry *e, FILE *out)
{
	bool is_long = name[1] == '-';
	fprintf(out, "  '%s%s%s[", has_arg == required_argument ? "*" : "", name,
		has_arg == no_argument ? "" : has_arg == optional_argument ? "=-"
		: is_long ? "=" : "+");
	zsh_text(e->desc ? e->desc : "", (size_t)-1, out);
	fputc(']', out);
	if (has_arg != no_argument) {
		fputs(has_arg == optional_argument ? "::" : ":", out);
		zsh_text(e->arg ? e->arg : "ARG", (size_t)-1, out);
		if (e->n_choices) {
			fputs(":(", out);
			for (size_t i = 0; i < e->n_choices; i++) {
				fputs(i ? " " : "", out);
				zsh_text(e->choices[i].p, (size_t)e->choices[i].len, out);
			}
			fputc(')', out);
		} else {
			fputs(arg_is_file(e) ? ":_files" : ": ", out);
		}
	}
	fputs("' \\\n", out);
}

static void zsh_short(struct help *h, char c, struct entry *e, FILE *out)
{
	(void)h;
	char name[3] = {'-', c, '\0'};
	zsh_spec(name, short_has_arg(c) ? required_argument : no_argument, e, out);
}

static void write_zsh(struct help *h, FILE *out)
{
	fputs("#compdef acgrep\n"
	      "# acgrep's zsh completion, written by `acgrep --generate=complete-zsh`\n\n"
	      "_arguments -s -S : \\\n", out);
	for_each_short(h, zsh_short, out);
	for (const struct option *o = opts_long_options; o->name; o++) {
		struct entry *e = entry_of_long(h, o->name);
		if (!e)
			continue;
		char name[64];
		snprintf(name, sizeof name, "--%s", o->name);
		zsh_spec(name, o->has_arg, e, out);
	}
	fputs("  '*: :_files'\n", out);
}

/* ---- fish ---- */

/* `s` (up to `len` bytes, or its end) inside a single-quoted fish word. */
static void fish_text(const char *s, size_t len, FILE *out)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] == '\'' || s[i] == '\\')
			fputc('\\', out);
		fputc(s[i], out);
	}
}

/* " -x -a 'CHOICES'" (one of them follows), " -r -F" (a file name) or " -x"
 * (a word, not a file name). */
static void fish_arg(const struct entry *e, FILE *out)
{
	if (e->n_choices) {
		fputs(" -x -a '", out);
		for (size_t i = 0; i < e->n_choices; i++) {
			fputs(i ? " " : "", out);
			fish_text(e->choices[i].p, (size_t)e->choices[i].len, out);
		}
		fputc('\'', out);
	} else {
		fputs(arg_is_file(e) ? " -r -F" : " -x", out);
	}
}

/* One `complete` line for every name of *e, with its argument's (fish_arg).
 * fish has no optional arguments: for those (--color[=WHEN]) a second line
 * completes the argument only in the option's word, after its "=" (a
 * condition on the current token), so that the next word is still a
 * pattern or a file. */
static void fish_entry(struct entry *e, int has_arg, FILE *out)
{
	if (e->written)
		return;
	e->written = true;
	fputs("complete -c acgrep", out);
	for (const char *c = e->shorts; *c; c++)
		fprintf(out, " -s %c", *c);
	for (size_t k = 0; k < e->n_longs; k++)
		fprintf(out, " -l %s", e->longs[k]);
	if (has_arg == required_argument)
		fish_arg(e, out);
	if (e->desc) {
		fputs(" -d '", out);
		fish_text(e->desc, (size_t)-1, out);
		fputc('\'', out);
	}
	fputc('\n', out);
	if (has_arg != optional_argument)
		return;
	fputs("complete -c acgrep", out);
	for (size_t k = 0; k < e->n_longs; k++)
		fprintf(out, " -l %s", e->longs[k]);
	fish_arg(e, out);
	fputs(" -n 'string match -qr -- \"^--(", out);
	for (size_t k = 0; k < e->n_longs; k++)
		fprintf(out, "%s%s", k ? "|" : "", e->longs[k]);
	fputs(")=\" (commandline -ct)'\n", out);
}

static void fish_short(struct help *h, char c, struct entry *e, FILE *out)
{
	(void)h;
	fish_entry(e, short_has_arg(c) ? required_argument : no_argument, out);
}

static void write_fish(struct help *h, FILE *out)
{
	fputs("# acgrep's fish completion, written by `acgrep --generate=complete-fish`\n\n", out);
	for (const struct option *o = opts_long_options; o->name; o++) {
		struct entry *e = entry_of_long(h, o->name);
		if (e)
			fish_entry(e, o->has_arg, out);
	}
	for_each_short(h, fish_short, out);
}

int complete_write(int kind, FILE *out)
{
	static struct help h; /* large; --generate runs once */
	size_t len = 0;
	memset(&h, 0, sizeof h);
	FILE *mem = open_memstream(&h.text, &len);
	if (!mem) {
		fputs(PROG ": memory exhausted\n", stderr);
		return 2;
	}
	help_print(mem);
	if (fclose(mem) != 0) {
		fputs(PROG ": memory exhausted\n", stderr);
		free(h.text);
		return 2;
	}
	parse_help(&h);
	int status = help_matches_tables(&h) ? 0 : 2;
	if (status == 0) {
		void (*const writers[])(struct help *, FILE *) = {write_bash, write_zsh, write_fish};
		writers[kind](&h, out);
	}
	free(h.text);
	return status;
}
