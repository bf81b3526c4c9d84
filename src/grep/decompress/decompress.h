/* SPDX-License-Identifier: MIT */
/* decompress.h - compressed inputs (--decompress): gzip, xz, zstd, bzip2.
 *
 * Owns: recognizing a compressed stream by its first bytes (never by the
 * file's name) and turning it into the bytes it holds, through Debian's
 * libraries (zlib, liblzma, libzstd, libbz2), each optional at build time
 * (ACGREP_HAVE_ZLIB, _LZMA, _ZSTD, _BZIP2).  Concatenated members or
 * streams of one format are read one after the other, as zcat does.
 * Knows nothing of lines or windows: input.c reads through it as through
 * read(2).
 */
#ifndef ACGREP_DECOMPRESS_H
#define ACGREP_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum decomp_format { DECOMP_NONE, DECOMP_GZIP, DECOMP_XZ, DECOMP_ZSTD, DECOMP_BZIP2 };

/* Bytes decomp_detect needs to tell every format apart. */
#define DECOMP_MAGIC_MAX 6

struct decomp;

/* The format whose magic bytes start head[0..n), or DECOMP_NONE (also for
 * a head too short to hold one).  Pure. */
enum decomp_format decomp_detect(const unsigned char *head, size_t n);

/* The format's name ("gzip", "xz", "zstd", "bzip2"). */
const char *decomp_name(enum decomp_format fmt);

/* Whether this build can decode fmt. */
bool decomp_available(enum decomp_format fmt);

/* The formats compiled in, space-separated, or "none" (for --version). */
const char *decomp_compiled_in(void);

/* Reads the first bytes of the stream open on fd into head (at most
 * DECOMP_MAGIC_MAX; *n of them): with pread(2) at file position `at` when
 * seekable (nothing consumed), else with read(2), which stops as soon as
 * the bytes cannot start a known format (a pipe's short first line is not
 * held back).  Returns the format they start. */
enum decomp_format decomp_sniff(int fd, bool seekable, off_t at, unsigned char *head, size_t *n);

/* Why a format cannot be read in this build ("zstd decompression is not
 * compiled in"). */
const char *decomp_missing(enum decomp_format fmt);

/* Starts decoding a stream of format fmt (available) read from fd, whose
 * first head_len bytes (at most DECOMP_MAGIC_MAX) were already read from
 * it into head.  Returns NULL with errno ENOMEM when out of memory. */
struct decomp *decomp_open(enum decomp_format fmt, int fd, const void *head, size_t head_len);

/* Moves the decoding of d to a thread of its own, a few buffers ahead of
 * the reader, so that decoding and searching overlap on two CPUs.  Only
 * for a descriptor whose read(2) never blocks for long (a regular file):
 * decomp_close waits for the slot being decoded.  Call before the first
 * decomp_read.  False (d then decodes on the reader's thread) when no
 * thread or memory could be had. */
bool decomp_start_thread(struct decomp *d);

/* Reads up to n (> 0) decoded bytes into buf: the count, 0 at the end of
 * the last member, or -1 with errno set: a read(2) error's errno, or EIO
 * for damaged or truncated data, whose cause decomp_error then names.
 * Bytes decoded before the damage are returned first. */
ssize_t decomp_read(struct decomp *d, void *buf, size_t n);

/* What the last -1 with EIO was about ("unexpected end of compressed
 * data", "invalid compressed data", ...), or NULL. */
const char *decomp_error(const struct decomp *d);

/* Releases d (NULL is fine); the descriptor stays open. */
void decomp_close(struct decomp *d);

#endif
