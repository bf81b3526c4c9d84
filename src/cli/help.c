/* SPDX-License-Identifier: MIT */
/* help.c - the texts of --help and --version.
 *
 * Owns: the wording of the option summary.  Every long option listed here
 * must also be documented in man/acgrep.1 and vice versa;
 * tests/help_man_agree.sh checks that.  Hidden test-only options
 * (--buffer-size, --scan-path, --simd) and obsolete aliases are left out of both.
 */
#include "help.h"

#include "ac.h"
#include "decompress/decompress.h"

/* In parts: ISO C compilers need not take a string literal over 4095 bytes. */
static const char *const help_text[] = {
"Usage: acgrep [OPTION]... PATTERNS [FILE]...\n"
"Search for fixed-string PATTERNS (or finite -E/-G ones) in each FILE.\n"
"Example: acgrep -i 'hello world' menu.h main.c\n"
"PATTERNS can contain multiple patterns separated by newlines.\n"
"\n"
"Pattern selection and interpretation:\n"
"  -E, --extended-regexp     PATTERNS are extended regular expressions that\n"
"                            match finite sets of strings (no *, +, {n,})\n"
"  -F, --fixed-strings       PATTERNS are strings (the default)\n"
"  -G, --basic-regexp        PATTERNS are basic regular expressions that\n"
"                            match finite sets of strings\n"
"  -e, --regexp=PATTERNS     use PATTERNS for matching\n"
"  -f, --file=FILE           take PATTERNS from FILE, one per line\n"
"  -i, --ignore-case         ignore case distinctions in patterns and data\n"
"      --no-ignore-case      do not ignore case distinctions (default)\n"
"  -w, --word-regexp         match only whole words\n"
"  -x, --line-regexp         match only whole lines\n"
"  -z, --null-data           a data line ends in 0 byte, not newline\n"
"\n"
"Miscellaneous:\n"
"  -s, --no-messages         suppress error messages about files\n"
"  -v, --invert-match        select non-matching lines\n"
"  -V, --version             display version information and exit\n"
"      --help                display this help text and exit\n"
"      --generate=KIND       print a shell completion script and exit;\n"
"                            KIND is 'complete-bash', 'complete-zsh', or\n"
"                            'complete-fish'\n"
"\n",
"Output control:\n"
"  -m, --max-count=NUM       stop after NUM selected lines\n"
"  -b, --byte-offset         print the byte offset with output lines\n"
"  -n, --line-number         print line number with output lines\n"
"      --line-buffered       flush output on every line\n"
"  -H, --with-filename       print file name with output lines\n"
"  -h, --no-filename         suppress the file name prefix on output\n"
"      --label=LABEL         use LABEL as the standard input file name prefix\n"
"  -o, --only-matching       show only nonempty parts of lines that match\n"
"  -q, --quiet, --silent     suppress all normal output\n"
"      --binary-files=TYPE   assume that binary files are TYPE;\n"
"                            TYPE is 'binary', 'text', or 'without-match'\n"
"  -a, --text                equivalent to --binary-files=text\n"
"  -I                        equivalent to --binary-files=without-match\n"
"  -d, --directories=ACTION  how to handle directories;\n"
"                            ACTION is 'read', 'recurse', or 'skip'\n"
"  -D, --devices=ACTION      how to handle devices, FIFOs and sockets;\n"
"                            ACTION is 'read' or 'skip'\n"
"  -r, --recursive           like --directories=recurse\n"
"  -R, --dereference-recursive  likewise, but follow all symlinks\n"
"      --include=GLOB        search only files that match GLOB (a file pattern)\n"
"      --exclude=GLOB        skip files that match GLOB\n"
"      --exclude-from=FILE   skip files that match any file pattern from FILE\n"
"      --exclude-dir=GLOB    skip directories that match GLOB\n"
"  -L, --files-without-match  print only names of FILEs with no selected lines\n"
"  -l, --files-with-matches  print only names of FILEs with selected lines\n"
"  -c, --count               print only a count of selected lines per FILE\n"
"      --count-matches       print only a count of matches per FILE\n"
"  -T, --initial-tab         make tabs line up (if needed)\n"
"  -Z, --null                print 0 byte after FILE name\n"
"\n"
"Context control:\n"
"  -B, --before-context=NUM  print NUM lines of leading context\n"
"  -A, --after-context=NUM   print NUM lines of trailing context\n"
"  -C, --context=NUM         print NUM lines of output context\n"
"  -NUM                      same as --context=NUM\n"
"      --group-separator=SEP  print SEP on line between matches with context\n"
"      --no-group-separator  do not print separator for matches with context\n"
"      --color[=WHEN],\n"
"      --colour[=WHEN]       use markers to highlight the matching strings;\n"
"                            WHEN is 'always', 'never', or 'auto'\n"
"  -U, --binary              accepted for compatibility; has no effect\n"
"\n"
"Input and engine (acgrep extensions):\n"
"      --mmap                map regular files into memory (default: automatic)\n"
"      --no-mmap             read every input with read(2), never mmap(2)\n"
"      --engine=ENGINE       ENGINE is 'ac' (Aho-Corasick, default) or 'pcre2'\n"
"      --threads=NUM         search on NUM threads (default: one per CPU; 1 = none);\n"
"                            the output is the same as on one thread\n"
"      --decompress          search the contents of gzip, xz, zstd and bzip2\n"
"                            inputs (recognized by their first bytes)\n"
"      --files-from=FILE     also search the files named in FILE, one per line\n"
"                            ('-' reads the names from standard input;\n"
"                            given several times, each list in turn)\n"
"      --files0-from=FILE    likewise, names ending in a NUL byte (find -print0)\n"
"\n"
"Compiled pattern sets (acgrep extensions):\n"
"      --save-compiled=FILE  compile the patterns (-e, -f, --tagged-file or\n"
"                            PATTERNS) for the options given, tags included,\n"
"                            into FILE and exit, searching nothing\n"
"      --compiled=FILE       take the patterns and tags compiled in FILE instead\n"
"                            of -e, -f, --tagged-file or PATTERNS (every operand\n"
"                            is then a FILE); -i, -w, -x, -z and the locale must\n"
"                            be as compiled; an -E/-G set keeps its syntax\n"
"\n",
"Byte ranges and merging (acgrep extensions):\n"
"      --range=START:END     search only the lines of each FILE that start in\n"
"                            bytes START to END-1 (END left out: to the end)\n"
"      --records             print a record stream for --merge, not lines\n"
"      --merge               the operands are record streams: print what one\n"
"                            run over the files they searched prints\n"
"      --ranges=N            print N byte ranges START:END per FILE and exit\n"
"\n",
"Which pattern matched (acgrep extensions):\n"
"      --tagged-file=FILE    take patterns from FILE's TAG<TAB>PATTERN lines;\n"
"                            patterns of -e and -f are their own tags\n"
"      --show-pattern[=WHAT]  print each line's first matching pattern\n"
"                            before it; WHAT is 'tag' (default), 'text', or\n"
"                            'number' (in the list as given)\n"
"      --show-all-patterns[=WHAT]  print every pattern matching on a line\n"
"                            before it; WHAT is 'tag' (default), 'text', or\n"
"                            'number'\n"
"      --count-per-pattern   instead of lines, print for each pattern (or tag)\n"
"                            that occurred MATCHES<TAB>LINES<TAB>FILES<TAB>NAME,\n"
"                            summed over the FILEs; with -H per FILE:\n"
"                            FILE:MATCHES<TAB>LINES<TAB>NAME; with -v only the\n"
"                            patterns that did not occur\n"
"      --include-zero        --count-per-pattern lists every pattern, also those\n"
"                            that did not occur (counts 0)\n"
"      --overlapping         -o, --count-matches, --count-per-pattern and\n"
"                            --show-all-patterns take every occurrence, also\n"
"                            inside or across others\n"
"      --all-patterns        select a FILE only when every pattern (or tag)\n"
"                            occurs in it: -l lists such FILEs, -L the others\n"
"      --json                print JSON Lines, ripgrep's records (begin, match,\n"
"                            context, end, summary); each submatch names its\n"
"                            pattern's number and tag\n"
"      --stats               print statistics at the end: matches, lines, files,\n"
"                            bytes, patterns seen, times\n"
"\n"
"Without -E, -F or -G, PATTERNS are fixed strings, where grep reads them as\n"
"-G: acgrep is a fixed-string tool first; -G gives grep's reading.\n"
"-P is not supported; -E and -G patterns are expanded to the strings they\n"
"match and refused, naming the construct, when that set is infinite or\n"
"over 1,000,000 strings or 64 MiB, or when ^ or $ is repeated or sits in\n"
"a group that repeats (see man acgrep).\n"
"When FILE is '-', read standard input.  If no FILE is given, read standard\n"
"input, but with -r, recursively search the working directory instead.  With\n"
"fewer than two FILEs, assume -h.  Exit status is 0 if any line is selected,\n"
"1 otherwise; if any error occurs and -q is not given, the exit status is 2.\n"
"With --color=auto, a non-empty NO_COLOR environment variable turns colour off.\n",
};

void help_print(FILE *out)
{
	for (size_t i = 0; i < sizeof help_text / sizeof help_text[0]; i++)
		fputs(help_text[i], out);
}

/* `git describe` of the checkout built (the Makefile's), or none */
#ifndef ACGREP_BUILD_DESCRIBE
#define ACGREP_BUILD_DESCRIBE ""
#endif

void help_version(FILE *out)
{
	const char *describe = ACGREP_BUILD_DESCRIBE;
	fprintf(out, "acgrep %s%s%s%s\n", ACGREP_VERSION, *describe ? " (git " : "", describe,
		*describe ? ")" : "");
	fputs("Fixed-string search on an Aho-Corasick engine.\n"
	      "Copyright (c) 2026 The acgrep authors.\n"
	      "License MIT: <https://opensource.org/license/mit>.\n"
	      "This is free software: you are free to change and redistribute it.\n"
	      "There is NO WARRANTY, to the extent permitted by law.\n", out);
	static const char *const level_names[] = {
		[SIMD_SCALAR] = "none", [SIMD_SSSE3] = "SSSE3",
		[SIMD_AVX2] = "AVX2", [SIMD_AVX512] = "AVX-512BW", [SIMD_NEON] = "NEON",
	};
	const char *built = simd_built_names();
	enum simd_level cpu = simd_cpu_level();
	fprintf(out, "Vector kernels compiled in: %s; this CPU runs: %s%s.\n",
		built ? built : "none (portable build)", level_names[cpu],
		cpu == SIMD_AVX512 && simd_cpu_vbmi() ? " and AVX-512VBMI" : "");
#ifdef ACGREP_HAVE_PCRE2
	fputs("PCRE2 engine (--engine=pcre2) compiled in.\n", out);
#else
	fputs("PCRE2 engine (--engine=pcre2) not compiled in.\n", out);
#endif
	fprintf(out, "Decompressors (--decompress) compiled in: %s.\n", decomp_compiled_in());
}
