/* SPDX-License-Identifier: MIT */
/* secfile.c - writing and checking the container of a compiled pattern
 * set (see secfile.h for the layout).
 */
#include "secfile.h"

#include "grow.h"
#include "hash64.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[8] = { 'A', 'C', 'G', 'R', 'P', 'S', 'E', 'T' };

#define BYTE_ORDER_MARK 0x01020304u
#define ENTRY 24u        /* bytes of a table entry */
/* the header's fields (secfile.h) */
enum {
	AT_MARK = 8, AT_VERSION = 12, AT_WORD = 16, AT_HEADER = 20, AT_CHECKSUM = 24,
	CHECKED_FROM = 32, /* the checksum covers the file from here */
	AT_SIZE = 32, AT_SECTIONS = 40,
};

static size_t align_up(size_t n)
{
	return (n + SECFILE_ALIGN - 1) & ~(size_t)(SECFILE_ALIGN - 1);
}

static int add_piece(struct secfile_writer *w, uint32_t tag, const void *p, size_t size, bool owned)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->pieces[i].tag == tag)
			return -1;
	if (w->n == SECFILE_MAX_SECTIONS)
		return -1;
	struct secfile_piece *np = grow_array(w->pieces, &w->cap, w->n + 1, sizeof *np, 16);
	if (!np)
		return -1;
	w->pieces = np;
	np[w->n++] = (struct secfile_piece){ .tag = tag, .bytes = p, .size = size, .owned = owned };
	return 0;
}

int secfile_add(struct secfile_writer *w, uint32_t tag, const void *p, size_t size)
{
	return add_piece(w, tag, p, size, false);
}

int secfile_add_copy(struct secfile_writer *w, uint32_t tag, const void *p, size_t size)
{
	void *copy = malloc(size ? size : 1);
	if (!copy)
		return -1;
	if (size)
		memcpy(copy, p, size);
	if (add_piece(w, tag, copy, size, true) != 0) {
		free(copy);
		return -1;
	}
	return 0;
}

void secfile_writer_free(struct secfile_writer *w)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->pieces[i].owned)
			free((void *)(uintptr_t)w->pieces[i].bytes); /* its own copy */
	free(w->pieces);
	*w = (struct secfile_writer){ .pieces = NULL };
}

static void put32(uint8_t *at, uint32_t v)
{
	memcpy(at, &v, 4);
}

static void put64(uint8_t *at, uint64_t v)
{
	memcpy(at, &v, 8);
}

static uint32_t get32(const uint8_t *at)
{
	uint32_t v;
	memcpy(&v, at, 4);
	return v;
}

static uint64_t get64(const uint8_t *at)
{
	uint64_t v;
	memcpy(&v, at, 8);
	return v;
}

/* Writes all of p[0..n) to fd; -1 with errno on failure. */
static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n > 0) {
		ssize_t k = write(fd, b, n < ((size_t)1 << 30) ? n : (size_t)1 << 30);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = ENOSPC;
			return -1;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The header and table of w's file (head_size bytes at head), its
 * sections' offsets in off[]; returns the file's size. */
static uint64_t layout(const struct secfile_writer *w, uint8_t *head, size_t head_size, uint64_t *off)
{
	memset(head, 0, head_size);
	memcpy(head, magic, sizeof magic);
	put32(head + AT_MARK, BYTE_ORDER_MARK);
	put32(head + AT_VERSION, SECFILE_VERSION);
	put32(head + AT_WORD, (uint32_t)sizeof(size_t));
	put32(head + AT_HEADER, SECFILE_HEADER);
	put32(head + AT_SECTIONS, (uint32_t)w->n);
	uint64_t at = align_up(head_size), end = head_size;
	for (size_t i = 0; i < w->n; i++) {
		uint8_t *e = head + SECFILE_HEADER + i * ENTRY;
		off[i] = at;
		put32(e, w->pieces[i].tag);
		put64(e + 8, at);
		put64(e + 16, w->pieces[i].size);
		end = at + w->pieces[i].size;
		at = align_up((size_t)end);
	}
	put64(head + AT_SIZE, end);
	return end;
}

int secfile_write(const struct secfile_writer *w, int fd)
{
	static const uint8_t zeros[SECFILE_ALIGN];
	size_t head_size = SECFILE_HEADER + w->n * ENTRY;
	uint8_t *head = malloc(head_size);
	uint64_t *off = malloc((w->n ? w->n : 1) * sizeof *off);
	int rc = -1;
	if (!head || !off) {
		errno = ENOMEM;
		goto out;
	}
	layout(w, head, head_size, off);
	/* the checksum first (it is in the header), then the bytes */
	struct hash64 h;
	hash64_init(&h);
	hash64_update(&h, head + CHECKED_FROM, head_size - CHECKED_FROM);
	for (int pass = 0; pass < 2; pass++) {
		uint64_t at = head_size;
		if (pass == 1 && write_all(fd, head, head_size) != 0)
			goto out;
		for (size_t i = 0; i < w->n; i++) {
			size_t pad = (size_t)(off[i] - at);
			const struct secfile_piece *p = &w->pieces[i];
			if (pass == 0) {
				hash64_update(&h, zeros, pad);
				hash64_update(&h, p->bytes, p->size);
			} else if (write_all(fd, zeros, pad) != 0 || write_all(fd, p->bytes, p->size) != 0) {
				goto out;
			}
			at = off[i] + p->size;
		}
		if (pass == 0)
			put64(head + AT_CHECKSUM, hash64_final(&h));
	}
	rc = 0;
out:
	free(head);
	free(off);
	return rc;
}

/* The checks of the header before the checksum; 0 or -1 with *why. */
static int header_check(const uint8_t *b, size_t size, char *why, size_t why_len)
{
	if (size == 0) {
		snprintf(why, why_len, "not a compiled pattern set (empty file)");
		return -1;
	}
	if (size < sizeof magic || memcmp(b, magic, sizeof magic) != 0) {
		snprintf(why, why_len, "not a compiled pattern set");
		return -1;
	}
	if (size < SECFILE_HEADER) {
		snprintf(why, why_len, "truncated compiled pattern set (%zu bytes; its header alone is %u)",
			 size, SECFILE_HEADER);
		return -1;
	}
	uint32_t mark = get32(b + AT_MARK), version = get32(b + AT_VERSION), word = get32(b + AT_WORD);
	bool big = get32((const uint8_t *)"\1\2\3\4") == BYTE_ORDER_MARK;
	if (mark == 0x04030201u) { /* the mark byte-swapped */
		snprintf(why, why_len, "compiled pattern set from a %s-endian machine; this one is %s-endian",
			 big ? "little" : "big", big ? "big" : "little");
		return -1;
	}
	if (mark != BYTE_ORDER_MARK || get32(b + AT_HEADER) != SECFILE_HEADER) {
		snprintf(why, why_len, "corrupt compiled pattern set (header)");
		return -1;
	}
	if (version != SECFILE_VERSION) {
		snprintf(why, why_len, "compiled pattern set format version %u; this acgrep reads version %u",
			 version, SECFILE_VERSION);
		return -1;
	}
	if (word != sizeof(size_t)) {
		/* a machine's word is a power of two up to 16 bytes: any other
		 * size is damage, not a foreign machine */
		if (word == 0 || word > 16 || (word & (word - 1)))
			snprintf(why, why_len, "corrupt compiled pattern set (word size of %u bytes)", word);
		else
			snprintf(why, why_len,
				 "compiled pattern set for %u-bit words; this acgrep uses %zu-bit words",
				 word * 8, sizeof(size_t) * 8);
		return -1;
	}
	return 0;
}

/* Checks the table: every section inside the image, aligned, after the
 * table, its tag its own. */
static bool table_ok(const struct secfile *f)
{
	uint64_t table_end = SECFILE_HEADER + (uint64_t)f->n_sections * ENTRY;
	if (f->n_sections > SECFILE_MAX_SECTIONS || table_end > f->size)
		return false;
	for (uint32_t i = 0; i < f->n_sections; i++) {
		const uint8_t *e = f->table + (size_t)i * ENTRY;
		uint64_t off = get64(e + 8), size = get64(e + 16);
		if (get32(e + 4) != 0 || off % SECFILE_ALIGN || off < table_end || off > f->size ||
		    size > f->size - off)
			return false;
		for (uint32_t k = 0; k < i; k++)
			if (get32(f->table + (size_t)k * ENTRY) == get32(e))
				return false;
	}
	return true;
}

int secfile_open(struct secfile *f, const void *p, size_t size, char *why, size_t why_len)
{
	const uint8_t *b = p;
	if (header_check(b, size, why, why_len) != 0)
		return -1;
	uint64_t want = get64(b + AT_SIZE);
	if (want > size) {
		snprintf(why, why_len, "truncated compiled pattern set (%zu of %llu bytes)", size,
			 (unsigned long long)want);
		return -1;
	}
	if (want < size) {
		snprintf(why, why_len, "corrupt compiled pattern set (%llu bytes past its end)",
			 (unsigned long long)(size - want));
		return -1;
	}
	*f = (struct secfile){
		.base = b, .size = size, .table = b + SECFILE_HEADER, .n_sections = get32(b + AT_SECTIONS),
	};
	if (hash64(b + CHECKED_FROM, size - CHECKED_FROM) != get64(b + AT_CHECKSUM)) {
		snprintf(why, why_len, "corrupt compiled pattern set (checksum mismatch)");
		return -1;
	}
	if (!table_ok(f)) {
		snprintf(why, why_len, "corrupt compiled pattern set (section table)");
		return -1;
	}
	return 0;
}

void secfile_reseal(void *p, size_t size)
{
	if (size >= SECFILE_HEADER)
		put64((uint8_t *)p + AT_CHECKSUM, hash64((const uint8_t *)p + CHECKED_FROM, size - CHECKED_FROM));
}

const void *secfile_find(const struct secfile *f, uint32_t tag, size_t *size)
{
	for (uint32_t i = 0; i < f->n_sections; i++) {
		const uint8_t *e = f->table + (size_t)i * ENTRY;
		if (get32(e) == tag) {
			*size = (size_t)get64(e + 16);
			return f->base + get64(e + 8);
		}
	}
	return NULL;
}

const void *secfile_section(const struct secfile *f, uint32_t tag, size_t size)
{
	size_t have;
	const void *p = secfile_find(f, tag, &have);
	return p && have == size ? p : NULL;
}
