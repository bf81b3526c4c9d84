/* SPDX-License-Identifier: MIT */
/* secfile.h - the container of a compiled pattern set: a header, a table
 * of tagged sections and the sections, checksummed.
 *
 * Owns: the file's layout and its validation up to the sections' bytes.
 * The layout (native byte order and word size; offsets from the start):
 *
 *   0   magic "ACGRPSET"          8 bytes
 *   8   byte-order mark           u32 0x01020304 as this CPU writes it
 *   12  format version            u32 SECFILE_VERSION
 *   16  word size                 u32 sizeof(size_t)
 *   20  header size               u32 SECFILE_HEADER
 *   24  checksum                  u64 hash64 of bytes [32, file size)
 *   32  file size                 u64
 *   40  number of sections        u32, then 20 bytes of zeros
 *   64  the table: per section    u32 tag, u32 zero, u64 offset, u64 size
 *       the sections, each at a multiple of SECFILE_ALIGN (zeros between)
 *
 * The fields before the checksum are each checked for what they must be,
 * everything after it by the checksum.  A reader holds the file's bytes
 * in memory and points into them: a section's bytes are SECFILE_ALIGN-
 * aligned in memory when the image is.  The writer takes sections as
 * pointers and writes them with their padding, copying only what it is
 * asked to keep (secfile_add_copy).
 * What a section holds is its writer's business (ac_file.c, and the
 * matcher's in src/grep).  Part of the engine's public interface (ac.h).
 */
#ifndef ACGREP_SECFILE_H
#define ACGREP_SECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SECFILE_VERSION 3u
#define SECFILE_HEADER 64u
#define SECFILE_ALIGN 64u
/* More sections than any writer adds: a table past it is corrupt. */
#define SECFILE_MAX_SECTIONS 64u

/* A section's tag from four ASCII letters. */
#define SECFILE_TAG(a, b, c, d) \
	((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

struct secfile_piece {
	uint32_t tag;
	const void *bytes;
	size_t size;
	bool owned; /* a copy, freed with the writer */
};

/* A file being put together.  Zeroed: empty. */
struct secfile_writer {
	struct secfile_piece *pieces;
	size_t n, cap;
};

/* Adds section `tag` of p[0..size), not copied: p must stay valid until
 * the last secfile_write.  Returns 0, or -1 when out of memory or when a
 * section of that tag is already there or SECFILE_MAX_SECTIONS are. */
int secfile_add(struct secfile_writer *w, uint32_t tag, const void *p, size_t size);

/* The same for a copy of p[0..size) that the writer keeps. */
int secfile_add_copy(struct secfile_writer *w, uint32_t tag, const void *p, size_t size);

/* Writes the file to fd from its current offset.  Returns 0, or -1 with
 * errno set (a short write is ENOSPC). */
int secfile_write(const struct secfile_writer *w, int fd);

/* Frees the writer's table and copies; it is left empty. */
void secfile_writer_free(struct secfile_writer *w);

/* A file checked by secfile_open: its image and its table. */
struct secfile {
	const uint8_t *base;
	size_t size;
	const uint8_t *table;
	uint32_t n_sections;
};

/* Checks the image p[0..size) (the file's bytes in memory): header, size,
 * checksum and table, every section inside the image and aligned.
 * Returns 0 and fills *f, or -1 with why the image is no compiled pattern
 * set, or not one this build reads, written to why[0..why_len) ("not a
 * compiled pattern set", "truncated compiled pattern set (10 of 4096
 * bytes)", "compiled pattern set format version 4; this acgrep reads
 * version 3", "corrupt compiled pattern set (checksum mismatch)", ...).
 * Reads every byte (the checksum), never outside the image.  What passed
 * holds only while the image stays as it is: a reader must not check
 * bytes that something else can still change (a shared mapping of the
 * file), but a private copy of them (matcher_file.c). */
int secfile_open(struct secfile *f, const void *p, size_t size, char *why, size_t why_len);

/* Recomputes the checksum of the image p[0..size) in memory after bytes
 * of it were changed (the tests and the fuzz target use it to reach the
 * checks behind the checksum); an image under SECFILE_HEADER bytes is
 * left as it is. */
void secfile_reseal(void *p, size_t size);

/* Section `tag` of f, with exactly `size` bytes: its bytes, or NULL when f
 * has no such section or it has another size. */
const void *secfile_section(const struct secfile *f, uint32_t tag, size_t size);

/* Section `tag` of f, whatever its size (in *size): its bytes, or NULL
 * when f has none. */
const void *secfile_find(const struct secfile *f, uint32_t tag, size_t *size);

#endif
