/* SPDX-License-Identifier: MIT */
/* input.h - getting the bytes of one input into memory, a window at a time.
 *
 * Owns: open/fstat, the choice of mmap or read() (by kind, size and line
 * length: docs/perf.md "I/O policy"), mmap (with madvise) for regular files,
 * read() into a page-aligned buffer reused from file to file, carrying an
 * unfinished line from one chunk to the next, and the SIGBUS guard for
 * files that shrink while mapped, with its reader's way back (its undo
 * log: where it is done, what it saves and restores).  Knows nothing of patterns or output.
 * Behind the same header: input.c opens and maps, input_read.c reads,
 * input_nul.c reports NUL bytes where grep's buffers would see them and
 * holes (what they mean is binary.h's), input_guard.c holds the SIGBUS
 * guard and the undo log; input_internal.h is what they share.
 *
 * Invariant: every window handed out ends just after a line terminator
 * (the `eol` byte), or at end of input; a line is never split across two
 * windows.  Up to `keep_lines` complete lines before a window's data stay
 * readable in front of it (window.before), for before-context (-B).
 *
 * Standard input keeps grep's file-offset semantics: reading starts at the
 * descriptor's current offset (input offset 0 is file position in->start),
 * and a seekable stdin is left positioned after the data handed out, so
 * `(grep x; cat) < file` behaves as with GNU grep.  For -m, the caller can
 * lseek(in->fd, in->start + end_offset_of_last_line_used, SEEK_SET).
 */
#ifndef ACGREP_INPUT_H
#define ACGREP_INPUT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

enum input_io { INPUT_IO_AUTO, INPUT_IO_MMAP, INPUT_IO_READ };

/* With INPUT_IO_AUTO, every input is read(); a regular file is mapped from
 * the line on whose unfinished line reaches this many bytes (a 100 MB line
 * costs 1 s of buffer growth and copying through read(), 0.1 s mapped). */
#define INPUT_LONG_LINE ((size_t)256 << 10)

/* GNU grep 3.8 reads a regular file 98,304 bytes at a time (its buffer
 * then holds the unfinished line carried over and those bytes) and decides
 * per buffer whether the file is binary.  The default read() chunk is the
 * same, so a window with the unfinished line after it (input_window_has_nul)
 * holds what grep's buffer holds, and a NUL silences the same lines. */
#define INPUT_GREP_BUFFER ((size_t)96 << 10)

struct input_options {
	enum input_io io;   /* AUTO: read(), mapping a regular file at a long line;
			       MMAP: map regular files; READ: never map */
	size_t read_chunk;  /* bytes per read(); 0 = default (INPUT_GREP_BUFFER); 1 is legal */
	char eol;           /* line terminator, '\n' or '\0' */
	size_t keep_lines;  /* lines of earlier windows kept readable (-B); 0 = none */
	bool decompress;    /* --decompress: compressed streams are decoded (decompress.h) */
	bool decode_ahead;  /* ... a compressed regular file on a thread of its own */
	bool any_length;    /* the path may be PATH_MAX bytes or longer (path_open.h) */
	bool plain_regular; /* the walk found a regular file whose first short
			       read() is its end (walk_file_fn's `plain`):
			       input_open reads before it fstats, and a file
			       shorter than a read needs no fstat */
};

struct input_undo;

struct input {
	int fd;
	bool owns_fd;       /* false for stdin and ranges */
	bool shares_fd;     /* a range: another input's descriptor, read with pread() */
	bool aligned_reads; /* reads end at multiples of chunk from `start`, where
			       a whole file's read()s from its start end (ranges,
			       and read() after a mapping) */
	bool mapped;        /* current data comes from mmap */
	bool eof;
	char eol;
	size_t chunk;
	char *map;          /* mmap base, or NULL */
	size_t map_len;
	char *mem;          /* read() buffer: page-aligned allocation, or NULL */
	size_t mem_cap;     /* its size */
	char *buf;          /* mem + a pad < 4096 (buf + len stays page-aligned) */
	size_t cap, len;    /* usable from buf / valid bytes in buf */
	size_t consumed;    /* bytes of buf already handed out in windows */
	uint64_t offset;    /* input offset of buf[0] */
	uint64_t start;     /* file position of input offset 0 (non-zero for a
			       stdin that was partly read before us) */
	size_t keep_lines;
	size_t map_skip;    /* map + map_skip is input offset map_offset */
	size_t map_pos;     /* bytes of the mapping (after map_skip) handed out */
	uint64_t map_offset; /* input offset of map + map_skip (0, or where AUTO
				switched from read() to the mapping) */
	bool may_switch;    /* AUTO, regular file: a long line switches to mmap */
	dev_t dev;
	ino_t ino;
	bool is_regular;
	bool identified;    /* dev and ino are known (else input_same_file fstats) */
	uint64_t size_at_open; /* st_size when opened (regular files); for a
				  plain_regular file shorter than a read, what
				  its first read() brought */
	size_t prefetched;  /* bytes of a first read() at open in buf[len..),
			       taken by the first input_next as it takes a read */
	uint64_t limit;     /* a range: input offset where it ends; 0 = none */
	bool watch_nul;     /* mapped windows end before grep's buffer with a NUL
			       (input_watch_nul) */
	bool window_nul;    /* watch_nul: the last mapped window holds a NUL */
	bool read_windows;  /* mapped windows are those of read() (input_read_windows) */
	size_t piece_min;   /* input_stream_long_lines: a longer unfinished line
			       comes in pieces; 0 = never */
	size_t piece_keep;  /* bytes of a piece kept readable before the next window */
	bool in_piece;      /* the last window handed out was a piece */
	struct decomp *decomp; /* --decompress: the decoder read() goes through */
	const char *error;  /* why input_next failed with EIO, or NULL (input_error) */
	bool nul_ends_lines;  /* binary: windows may end after a NUL (input_zap_nul) */
	bool skip_zero_reads; /* drop reads that are all NUL (input_zap_nul) */
	uint64_t skipped;   /* bytes dropped so: the file position of input offset
			       x past them is start + x + skipped */
	uint64_t first_read; /* file position of the first read() */
	uint64_t zap_from;  /* file position from which the reads of grep's
			       buffer size may be dropped (input_grep_drops) */
	struct input_undo *undo; /* the reader's way back, under input_read_guarded */
	bool undo_armed;    /* ... the window out is mapped: it may fault */
};

/* A run of complete lines. data[0..len) is valid; offset is the input offset
 * of data[0] (counted from where reading started, as grep -b counts).
 * `last` is set when the window is known to be the final one: a final line
 * without terminator; otherwise the end of input may only be discovered by
 * the next call, which then returns 0 (a window ending in `eol` may have
 * last == false and still be the final one; a mapping's windows never are:
 * read() goes on after them, see input_next).  data[-before .. 0) is
 * readable too: the last min(keep_lines, available) complete lines handed
 * out in earlier windows.  `partial` (input_stream_long_lines only): the
 * window ends inside a line, which goes on in the next window;
 * data[-before .. 0) is then the last piece_keep bytes of the piece, of
 * the same line.  len is 0 only for input_watch_nul's window of a read
 * that brought a NUL and no line end. */
struct window {
	const char *data;
	size_t len;
	uint64_t offset;
	bool last;
	size_t before;
	bool partial;
};

/* The automatic choice (INPUT_IO_AUTO) at open for an input of kind `mode`
 * (st_mode) and `size` bytes: true to map it at once, false to read() it
 * (a regular file still switches to mmap at a line of INPUT_LONG_LINE
 * bytes).  Pure; today false for every kind and size (measurements in
 * docs/perf.md, "I/O policy"). */
bool input_auto_maps(mode_t mode, uint64_t size);

/* Opens `path` ("-" or NULL means standard input, fd 0, not closed later).
 * Regular files are mapped with io MMAP (or AUTO when input_auto_maps says
 * so) unless empty or mmap fails; everything else, and io READ, uses
 * read().  With plain_regular (not MMAP, not --decompress) the first read()
 * comes before the fstat, which a read that comes back short makes
 * needless: the file is what it brought (open, read, close per small file
 * of a -r walk).  The read() buffer is page-aligned and passed from one closed
 * input to the next (allocated once per run, not per file).  `opts` may be NULL (defaults).
 * Returns 0, or -1 with errno set (ENOENT, EACCES, EISDIR for a directory,
 * also when standard input is one, ...).  On failure `in` holds nothing to
 * close (input_close on it is harmless). */
int input_open(struct input *in, const char *path, const struct input_options *opts);

/* input_open for `path` relative to directory descriptor dir_fd (openat;
 * AT_FDCWD: as input_open).  dir_fd need stay open only for the call. */
int input_open_at(struct input *in, int dir_fd, const char *path, const struct input_options *opts);

/* Produces the next window of complete lines.
 * Returns 1 with *w filled, 0 once everything was handed out (an empty
 * input gives 0 at once), -1 on a read error (errno: EIO, EISDIR, ...).
 * The end of input is where read() says so, as in grep: a file that grew
 * while it was searched is read to its new end, also after a mapping (its
 * complete lines come from the mapping, then read() goes on from the start
 * of its unfinished last line); a range ends at its limit.
 * Data of the previous window is invalid afterwards, except the kept lines
 * now in front of the new window.  Blocks in read() on pipes and ttys;
 * EINTR is retried. */
int input_next(struct input *in, struct window *w);

/* Bytes per read() with these options. */
size_t input_read_size(const struct input_options *opts);

/* input_open_range's hi for a range that goes on to the end of the file,
 * wherever that is when it is read (not the size at open). */
#define INPUT_TO_END UINT64_MAX

/* Opens the byte range [lo, hi) of the regular file `whole` (opened from
 * a path, not stdin, and not read from) as an input of its own: input
 * offsets stay file offsets (-b), reading uses pread() on whole's
 * descriptor, so several threads can search ranges of one file at once.
 * lo and hi must be line boundaries (0, just after an eol, or the size at
 * open) for windows to hold whole lines; hi INPUT_TO_END reads on until
 * pread() returns 0, however far the file has grown (a range is mapped,
 * with INPUT_IO_MMAP, only up to a limit).  Reads end at multiples of
 * input_read_size, as the whole file's do: when lo is where a window of
 * the whole file starts (after the last eol before such a multiple), the
 * range's windows are the whole file's (a NUL makes the same lines binary).
 * `whole` must stay open until the range is closed.  Returns 0, or -1
 * (EINVAL) for a bad range. */
int input_open_range(struct input *in, const struct input *whole, uint64_t lo, uint64_t hi,
		     const struct input_options *opts);

/* After a SIGBUS while reading the mapping of `in` (the file shrank): drops
 * the mapping, and the input goes on with read() (pread() for a range)
 * from input offset `at`, a line start at or after where the mapping
 * begins, up to the file's end as it is now (or the range's limit).  The
 * keep_lines lines before `at` are read back too, for a before-context.
 * Touches no mapped byte.  Returns 0, or -1 (errno: EINVAL when `in` is
 * not mapped or `at` is before its mapping). */
int input_reread_from(struct input *in, uint64_t at);

/* Closes the file and frees/unmaps everything `in` owns. Idempotent. */
void input_close(struct input *in);

/* After a search, leaves a descriptor acgrep did not open (standard input)
 * where grep does: with stop_offset (not UINT64_MAX: -m ended the search)
 * just after the last line used, at that input offset; else, with to_end
 * (the search stopped before the end for another reason) at its end,
 * seeking there, or, where it cannot seek (a pipe, a terminal), reading
 * the rest, so that the writer is not killed by SIGPIPE.  A decoded
 * stream has no line position in its compressed file: -m leaves its
 * descriptor where decoding stopped reading.  Returns 0, or -1 (errno)
 * when reading the rest failed. */
int input_leave(const struct input *in, uint64_t stop_offset, bool to_end);

/* Frees the read() buffer this thread keeps for its next input (call it
 * before a thread that used inputs ends). */
void input_thread_done(void);

/* SIGBUS guard for mapped windows (a mapped file truncated under us).
 * The armed target is per thread (a SIGBUS goes to the thread that touched
 * the page); the handler is process-wide.  Usage:
 *     sigjmp_buf jb;
 *     if (sigsetjmp(jb, 0)) { ...file shrank: input_reread_from, or give up... }
 *     input_guard_arm(&jb);  ...touch mapped bytes...  input_guard_disarm();
 * input_guard_install() must be called once at start-up.  A SIGBUS while
 * no target is armed gets the default action (the process dies). */
void input_guard_install(void);
void input_guard_arm(sigjmp_buf *target);
void input_guard_disarm(void);

/* The most pieces of memory, bytes in all, and keepers an undo log holds. */
#define INPUT_UNDO_PIECES 2
#define INPUT_UNDO_BYTES 128
#define INPUT_UNDO_KEEPERS 2

/* A part of a reader's state that its owner saves and restores itself
 * (an input_undo calls it with ctx). */
struct input_keeper {
	/* What it holds now stands: everything before input offset `at` is
	 * done. */
	void (*save)(void *ctx, uint64_t at);
	/* Back to what it held at the last save: true.  False when that
	 * cannot be (only the first keeper may refuse), nothing changed. */
	bool (*restore)(void *ctx);
	/* Until the next save nothing will be restored (the window out was
	 * read(), which cannot fault); NULL when there is nothing to let go. */
	void (*release)(void *ctx);
	void *ctx;
};

/* The way back for a reader of a mapped input that shrank (SIGBUS): the
 * input offset of its last save, a copy of the pieces of memory the reader
 * named (input_undo_keeps) as they were there, and the keepers of the rest
 * (input_undo_calls).  The input saves where it stands before each window
 * and, within a mapped window, where the reader says it is done
 * (input_done_to); after a fault it puts the copy back, has the keepers
 * restore theirs and reads on with read() from there.  Zeroed, it keeps
 * nothing. */
struct input_undo {
	uint64_t at;
	size_t n_pieces, n_keepers;
	struct {
		void *state;
		size_t size;
	} piece[INPUT_UNDO_PIECES];
	struct input_keeper keeper[INPUT_UNDO_KEEPERS];
	_Alignas(max_align_t) unsigned char copy[INPUT_UNDO_BYTES];
};

/* Adds state[0..size) to what u copies (at most INPUT_UNDO_PIECES pieces
 * of INPUT_UNDO_BYTES in all, a limit of the program's own readers), before
 * the reader runs. */
void input_undo_keeps(struct input_undo *u, void *state, size_t size);

/* Adds k (save and restore set) to u's keepers (at most
 * INPUT_UNDO_KEEPERS), before the reader runs; restored in this order. */
void input_undo_calls(struct input_undo *u, struct input_keeper k);

/* Saves u at input offset `at`: the keepers' save, then the pieces copied
 * (inline: a mapped search saves after each line). */
static inline void input_undo_save(struct input_undo *u, uint64_t at)
{
	for (size_t i = 0; i < u->n_keepers; i++)
		u->keeper[i].save(u->keeper[i].ctx, at);
	u->at = at;
	unsigned char *to = u->copy;
	for (size_t i = 0; i < u->n_pieces; i++) {
		memcpy(to, u->piece[i].state, u->piece[i].size);
		to += u->piece[i].size;
	}
}

/* The input offset where the next window starts: where the input stands. */
static inline uint64_t input_at(const struct input *in)
{
	return in->mapped ? in->map_offset + in->map_pos : in->offset + in->consumed;
}

/* The reader of in (under input_read_guarded) is done with everything
 * before input offset `at`, a line end in the window last handed out:
 * when that window is mapped, a SIGBUS from here on comes back to here. */
static inline void input_done_to(struct input *in, uint64_t at)
{
	if (in->undo_armed)
		input_undo_save(in->undo, at);
}

/* Runs reader(ctx), which takes windows of `in`, under the SIGBUS guard,
 * with u as its way back (saved where the input stands first, and before
 * each window).  When a mapped page vanishes (the file shrank), the reader
 * goes back to u's last save (its pieces put back, then its keepers'
 * restore), the input goes on with read() from there (input_reread_from)
 * and reader runs again.  Returns false when that way back was closed (a
 * keeper refused, or the input could not be read on): reader was left at
 * the fault, and the file "shrank while being searched".  The keepers'
 * release is called at the end. */
bool input_read_guarded(struct input *in, struct input_undo *u, void (*reader)(void *ctx),
			void *ctx);

/* True when the first n bytes of the input hold a NUL byte, looked at
 * without consuming anything: the mapping, or pread() on a regular file.
 * Always false for pipes and other unseekable inputs.  GNU grep decides
 * that a file is binary from its first buffer; this lets a search that
 * reads in small chunks decide the same way. */
bool input_head_has_nul(const struct input *in, size_t n);

/* True when GNU grep would find a NUL in the buffer it checks with the
 * lines of w, the window input_next just handed out: the window, the
 * unfinished line its read brought in after it (for a range's last window,
 * the bytes the whole file's read would have had past it, by pread()), and
 * for the input's first window all of grep's first buffer
 * (INPUT_GREP_BUFFER bytes, by input_head_has_nul where the window and
 * that line hold less of a longer regular file).  Consumes nothing. */
bool input_window_has_nul(const struct input *in, const struct window *w);

/* True when `in` is a regular file, searched from its start, with a hole
 * (lseek SEEK_HOLE) past grep's first buffer and before its end: grep
 * then takes the file as holding NUL bytes, binary from its first buffer.
 * The descriptor's position is left as it was. */
bool input_has_hole(const struct input *in);

/* The caller asks input_window_has_nul of every window until the input
 * turns binary: a mapped window then ends before the read() buffer
 * (in->chunk bytes, as input.h's read path and grep read) that holds the
 * window's first NUL, so that the lines grep prints before it goes quiet
 * come in a window of their own, as they do through read(); and a read()
 * that brings a NUL but no line end hands out an empty window (len 0, the
 * unfinished line with the NUL after it), so that the input turns binary
 * with that read, as grep's buffer does, before a run of NULs grows the
 * line without bound. */
void input_watch_nul(struct input *in);

/* Mapped windows from here on are the ones the read() path would hand out
 * (the complete lines up to a multiple of in->chunk), for output that
 * depends on where grep's buffers begin: the context printed after a line
 * suppressed for an encoding error starts at its buffer's start. */
void input_read_windows(struct input *in);

/* Output that needs no line whole (-c, -l, -L, -q): an unfinished line of
 * `min` bytes or more (at least INPUT_LONG_LINE) is handed out in partial
 * windows of that size, each but the first with the last `keep` bytes of
 * the one before in front of it, instead of growing the read() buffer (or
 * mapping the file) to hold it: memory stays near min + keep + a read. */
void input_stream_long_lines(struct input *in, size_t min, size_t keep);

/* What input_next's last -1 with errno EIO was about when errno cannot
 * say it (damaged compressed data, a format not compiled in), or NULL. */
const char *input_error(const struct input *in);

/* The input is binary from here on (grep's "NUL zapping"): NUL ends lines
 * as eol does, so a window may end just after a NUL and a run of NULs never
 * builds up one long line.  With skip_zero_reads (an empty line cannot be
 * selected), also drops each read() that brings only NUL bytes (with a
 * smaller chunk, those of grep's reads, input_grep_drops) and, in a
 * regular file, jumps to its next data (lseek SEEK_DATA), as grep does:
 * such a read holds only empty lines, and a sparse file's holes are never
 * read.  Any other input (a pipe, a device, a decoded stream, whose
 * descriptor's positions are not the input's) is only read on.  Offsets
 * of later windows do not count the dropped bytes (nor do grep's -b
 * offsets); in->skipped does.  input_open does not map a file
 * with holes (input_has_hole). */
void input_zap_nul(struct input *in, bool skip_zero_reads);

/* With a read() chunk smaller than grep's (a test setting): where the
 * read of grep's buffer size holding the n NUL bytes just read at file
 * position `at` ends, when grep would drop it (read after the input became
 * binary, and all NUL, by pread()), so that the caller drops the rest of
 * it too; else 0.  Small reads never span two of grep's (next_read); a
 * read of a pipe, whose reads are whatever it gives, is kept. */
uint64_t input_grep_drops(const struct input *in, uint64_t at, size_t n);

/* The input offset of the first NUL byte at or after input offset `from`
 * (a window's start, where the input turned binary; 0 when it did so at
 * its start): looked for in the mapping or the read() buffer, then, in a
 * regular file, by pread().  `from` itself when none is found there (a
 * pipe's bytes not read yet, a decoded input).  Consumes nothing. */
uint64_t input_first_nul(const struct input *in, uint64_t from);

/* True when `in` and the file descriptor `fd` name the same regular file
 * (same st_dev and st_ino; grep's "input file is also the output" check). */
bool input_same_file(const struct input *in, int fd);

#endif
