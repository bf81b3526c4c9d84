/* input.h - getting the bytes of one input into memory, a window at a time.
 *
 * Owns: open/fstat, mmap (with madvise) for regular files, read() into a
 * growing buffer for stdin, pipes, ttys and special files, carrying an
 * unfinished line from one chunk to the next, and the SIGBUS guard for
 * files that shrink while mapped.  Knows nothing of patterns or output.
 *
 * Invariant: every window handed out ends just after a line terminator
 * (the `eol` byte), or at end of input; a line is never split across two
 * windows.  `keep` bytes before the new data stay readable (before-context).
 */
#ifndef ACGREP_INPUT_H
#define ACGREP_INPUT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum input_io { INPUT_IO_AUTO, INPUT_IO_MMAP, INPUT_IO_READ };

struct input_options {
	enum input_io io;   /* AUTO: mmap for regular files, read() otherwise */
	size_t read_chunk;  /* bytes per read(); 0 = default (128 KiB); 1 is legal */
	char eol;           /* line terminator, '\n' or '\0' */
};

struct input {
	int fd;
	bool owns_fd;       /* false for stdin */
	bool mapped;        /* current data comes from mmap */
	bool eof;
	char eol;
	size_t chunk;
	char *map;          /* mmap base, or NULL */
	size_t map_len;
	char *buf;          /* read() buffer (malloc) */
	size_t cap, len;    /* allocated / valid bytes in buf */
	size_t consumed;    /* bytes of buf already handed out in windows */
	uint64_t offset;    /* file offset of buf[0] */
	dev_t dev;
	ino_t ino;
	bool is_regular;
};

/* A run of complete lines. data[0..len) is valid; offset is the input offset
 * of data[0].  `last` is set on the final window of the input. */
struct window {
	const char *data;
	size_t len;
	uint64_t offset;
	bool last;
};

/* Opens `path` ("-" or NULL means standard input, fd 0).
 * Returns 0, or -1 with errno set (ENOENT, EACCES, EISDIR for a directory,
 * ...).  On failure `in` holds nothing to close. */
int input_open(struct input *in, const char *path, const struct input_options *opts);

/* Produces the next window of complete lines.
 * Returns 1 with *w filled, 0 at end of input, -1 on a read error (errno).
 * Data of the previous window is invalid afterwards. */
int input_next(struct input *in, struct window *w);

/* Closes the file and frees/unmaps everything `in` owns. Idempotent. */
void input_close(struct input *in);

/* SIGBUS guard for mapped windows.  Usage:
 *     sigjmp_buf jb;
 *     if (sigsetjmp(jb, 1)) { ...file shrank: report, treat as error... }
 *     input_guard_arm(&jb);  ...touch mapped bytes...  input_guard_disarm();
 * input_guard_install() must be called once at start-up. */
void input_guard_install(void);
void input_guard_arm(sigjmp_buf *target);
void input_guard_disarm(void);

/* True when `in` and the file descriptor `fd` name the same regular file
 * (grep's "input file is also the output" check). */
bool input_same_file(const struct input *in, int fd);

#endif
