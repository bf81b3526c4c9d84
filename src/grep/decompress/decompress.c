/* SPDX-License-Identifier: MIT */
/* decompress.c - compressed inputs (--decompress); see decompress.h.
 *
 * One loop (decomp_read) drives every format: it keeps a buffer of
 * compressed bytes filled from the descriptor and asks the format's step
 * function to decode some of them.  A step reports whether a member or
 * stream ended; the loop then starts the next one when more bytes follow
 * (gzip and bzip2 members are separate streams to their libraries; liblzma
 * and libzstd go on by themselves) and ends at the end of the input.
 * Damage is reported after the bytes decoded before it.
 */
#include "decompress.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef ACGREP_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef ACGREP_HAVE_LZMA
#include <lzma.h>
#endif
#ifdef ACGREP_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef ACGREP_HAVE_BZIP2
#include <bzlib.h>
#endif

#define IN_SIZE ((size_t)128 << 10)
/* the background thread's ring: SLOTS buffers of SLOT_SIZE decoded bytes */
#define SLOTS 4
#define SLOT_SIZE ((size_t)256 << 10)

enum step {
	STEP_OK,          /* decoded, or needs more input */
	STEP_MEMBER_END,  /* a member or stream ended */
	STEP_CORRUPT,
	STEP_NOMEM,
};

struct decomp {
	enum decomp_format fmt;
	int fd;
	size_t in_pos, in_len;
	bool in_eof;        /* read(2) returned 0 */
	bool member_open;   /* bytes of a member were taken and it has not ended */
	bool done;          /* the input ended after a whole member */
	int pending_errno;  /* reported by the next read: bytes came first */
	const char *error;
	union {
#ifdef ACGREP_HAVE_ZLIB
		z_stream z;
#endif
#ifdef ACGREP_HAVE_LZMA
		lzma_stream x;
#endif
#ifdef ACGREP_HAVE_ZSTD
		ZSTD_DStream *zs;
#endif
#ifdef ACGREP_HAVE_BZIP2
		bz_stream b;
#endif
		int none;
	} s;
	bool lib_ready;     /* s holds an initialized decoder */
	struct ring *ring;  /* decoding on a thread of its own, or NULL */
	unsigned char in[IN_SIZE];
};

/* Decoded bytes handed from the decoding thread to the reader.  Slots
 * [taken, made) are full; a slot with result <= 0 ends the stream. */
struct ring {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t made, taken; /* slots filled / emptied so far */
	size_t pos;         /* bytes of the slot `taken` already read */
	bool closing;
	struct slot {
		size_t len;
		ssize_t result; /* > 0, or the final 0 / -1 (with err) */
		int err;
		unsigned char *data;
	} slot[SLOTS];
};

enum decomp_format decomp_detect(const unsigned char *h, size_t n)
{
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return DECOMP_GZIP;
	if (n >= 6 && memcmp(h, "\xfd\x37zXZ\0", 6) == 0)
		return DECOMP_XZ;
	if (n >= 4 && memcmp(h, "\x28\xb5\x2f\xfd", 4) == 0)
		return DECOMP_ZSTD;
	if (n >= 4 && memcmp(h, "BZh", 3) == 0 && h[3] >= '1' && h[3] <= '9')
		return DECOMP_BZIP2;
	return DECOMP_NONE;
}

const char *decomp_name(enum decomp_format fmt)
{
	static const char *const names[] = {
		[DECOMP_NONE] = "none", [DECOMP_GZIP] = "gzip", [DECOMP_XZ] = "xz",
		[DECOMP_ZSTD] = "zstd", [DECOMP_BZIP2] = "bzip2",
	};
	return names[fmt];
}

bool decomp_available(enum decomp_format fmt)
{
	switch (fmt) {
#ifdef ACGREP_HAVE_ZLIB
	case DECOMP_GZIP: return true;
#endif
#ifdef ACGREP_HAVE_LZMA
	case DECOMP_XZ: return true;
#endif
#ifdef ACGREP_HAVE_ZSTD
	case DECOMP_ZSTD: return true;
#endif
#ifdef ACGREP_HAVE_BZIP2
	case DECOMP_BZIP2: return true;
#endif
	default: return false;
	}
}

const char *decomp_compiled_in(void)
{
	static const char list[] = ""
#ifdef ACGREP_HAVE_ZLIB
				   " gzip"
#endif
#ifdef ACGREP_HAVE_LZMA
				   " xz"
#endif
#ifdef ACGREP_HAVE_ZSTD
				   " zstd"
#endif
#ifdef ACGREP_HAVE_BZIP2
				   " bzip2"
#endif
		;
	return list[0] ? list + 1 : "none";
}

const char *decomp_missing(enum decomp_format fmt)
{
	static const char *const why[] = {
		[DECOMP_NONE] = "not compressed",
		[DECOMP_GZIP] = "gzip decompression is not compiled in",
		[DECOMP_XZ] = "xz decompression is not compiled in",
		[DECOMP_ZSTD] = "zstd decompression is not compiled in",
		[DECOMP_BZIP2] = "bzip2 decompression is not compiled in",
	};
	return why[fmt];
}

/* Whether head[0..n) can still grow into some format's magic bytes. */
static bool magic_prefix(const unsigned char *h, size_t n)
{
	static const char *const magics[] = { "\x1f\x8b", "\xfd\x37zXZ", "\x28\xb5\x2f\xfd", "BZh" };
	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
		size_t m = strlen(magics[i]);
		if (memcmp(h, magics[i], n < m ? n : m) == 0)
			return true;
	}
	return false;
}

enum decomp_format decomp_sniff(int fd, bool seekable, off_t at, unsigned char *head, size_t *n)
{
	*n = 0;
	while (*n < DECOMP_MAGIC_MAX) {
		ssize_t got = seekable ? pread(fd, head + *n, DECOMP_MAGIC_MAX - *n, at + (off_t)*n)
				       : read(fd, head + *n, DECOMP_MAGIC_MAX - *n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		*n += (size_t)got;
		if (!magic_prefix(head, *n))
			break;
	}
	return decomp_detect(head, *n);
}

/* ---- the formats: start a decoder, decode a step, end it --------------- */

static bool lib_start(struct decomp *d)
{
	switch (d->fmt) {
#ifdef ACGREP_HAVE_ZLIB
	case DECOMP_GZIP:
		memset(&d->s.z, 0, sizeof d->s.z);
		return inflateInit2(&d->s.z, 15 + 16) == Z_OK; /* gzip wrapper only */
#endif
#ifdef ACGREP_HAVE_LZMA
	case DECOMP_XZ:
		d->s.x = (lzma_stream)LZMA_STREAM_INIT;
		return lzma_stream_decoder(&d->s.x, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
#endif
#ifdef ACGREP_HAVE_ZSTD
	case DECOMP_ZSTD:
		d->s.zs = ZSTD_createDStream();
		return d->s.zs && !ZSTD_isError(ZSTD_initDStream(d->s.zs));
#endif
#ifdef ACGREP_HAVE_BZIP2
	case DECOMP_BZIP2:
		memset(&d->s.b, 0, sizeof d->s.b);
		return BZ2_bzDecompressInit(&d->s.b, 0, 0) == BZ_OK;
#endif
	default:
		return false;
	}
}

static void lib_end(struct decomp *d)
{
	if (!d->lib_ready)
		return;
	d->lib_ready = false;
	switch (d->fmt) {
#ifdef ACGREP_HAVE_ZLIB
	case DECOMP_GZIP: inflateEnd(&d->s.z); break;
#endif
#ifdef ACGREP_HAVE_LZMA
	case DECOMP_XZ: lzma_end(&d->s.x); break;
#endif
#ifdef ACGREP_HAVE_ZSTD
	case DECOMP_ZSTD: ZSTD_freeDStream(d->s.zs); break;
#endif
#ifdef ACGREP_HAVE_BZIP2
	case DECOMP_BZIP2: BZ2_bzDecompressEnd(&d->s.b); break;
#endif
	default: break;
	}
}

/* Decodes from in[in_pos..in_len) into out[0..n): *made bytes out, in_pos
 * moved past what was taken. */
static enum step lib_step(struct decomp *d, unsigned char *out, size_t n, size_t *made)
{
	const unsigned char *src = d->in + d->in_pos;
	size_t avail = d->in_len - d->in_pos, used = 0;
	enum step st = STEP_CORRUPT;
	*made = 0;
	switch (d->fmt) {
#ifdef ACGREP_HAVE_ZLIB
	case DECOMP_GZIP: {
		z_stream *z = &d->s.z;
		z->next_in = (unsigned char *)(uintptr_t)src;
		z->avail_in = (uInt)(avail < UINT32_MAX ? avail : UINT32_MAX);
		z->next_out = out;
		z->avail_out = (uInt)(n < UINT32_MAX ? n : UINT32_MAX);
		int rc = inflate(z, Z_NO_FLUSH);
		used = (size_t)(z->next_in - src);
		*made = (size_t)(z->next_out - out);
		st = rc == Z_STREAM_END ? STEP_MEMBER_END
		     : rc == Z_OK || rc == Z_BUF_ERROR ? STEP_OK
		     : rc == Z_MEM_ERROR ? STEP_NOMEM : STEP_CORRUPT;
		break;
	}
#endif
#ifdef ACGREP_HAVE_LZMA
	case DECOMP_XZ: {
		lzma_stream *x = &d->s.x;
		x->next_in = src;
		x->avail_in = avail;
		x->next_out = out;
		x->avail_out = n;
		lzma_ret rc = lzma_code(x, d->in_eof ? LZMA_FINISH : LZMA_RUN);
		used = avail - x->avail_in;
		*made = n - x->avail_out;
		/* with LZMA_FINISH, LZMA_BUF_ERROR: the input ended inside a stream */
		st = rc == LZMA_STREAM_END ? STEP_MEMBER_END
		     : rc == LZMA_OK || (rc == LZMA_BUF_ERROR && !d->in_eof) ? STEP_OK
		     : rc == LZMA_MEM_ERROR ? STEP_NOMEM
		     : rc == LZMA_BUF_ERROR ? STEP_OK /* the loop sees the truncation */
		     : STEP_CORRUPT;
		break;
	}
#endif
#ifdef ACGREP_HAVE_ZSTD
	case DECOMP_ZSTD: {
		ZSTD_inBuffer zi = { .src = src, .size = avail, .pos = 0 };
		ZSTD_outBuffer zo = { .dst = out, .size = n, .pos = 0 };
		size_t rc = ZSTD_decompressStream(d->s.zs, &zo, &zi);
		used = zi.pos;
		*made = zo.pos;
		/* 0: a frame ended; libzstd starts the next one by itself */
		st = ZSTD_isError(rc) ? STEP_CORRUPT : rc == 0 ? STEP_MEMBER_END : STEP_OK;
		break;
	}
#endif
#ifdef ACGREP_HAVE_BZIP2
	case DECOMP_BZIP2: {
		bz_stream *b = &d->s.b;
		b->next_in = (char *)(uintptr_t)src;
		b->avail_in = (unsigned)(avail < UINT32_MAX ? avail : UINT32_MAX);
		b->next_out = (char *)out;
		b->avail_out = (unsigned)(n < UINT32_MAX ? n : UINT32_MAX);
		int rc = BZ2_bzDecompress(b);
		used = (size_t)((const unsigned char *)b->next_in - src);
		*made = (size_t)((unsigned char *)b->next_out - out);
		st = rc == BZ_STREAM_END ? STEP_MEMBER_END
		     : rc == BZ_OK ? STEP_OK : rc == BZ_MEM_ERROR ? STEP_NOMEM : STEP_CORRUPT;
		break;
	}
#endif
	default:
		(void)src;
		(void)avail;
		(void)out;
		(void)n;
		break;
	}
	d->in_pos += used;
	if (used > 0)
		d->member_open = true;
	return st;
}

/* ---- the loop ----------------------------------------------------------- */

struct decomp *decomp_open(enum decomp_format fmt, int fd, const void *head, size_t head_len)
{
	struct decomp *d = malloc(sizeof *d);
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	*d = (struct decomp){ .fmt = fmt, .fd = fd, .in_len = head_len };
	memcpy(d->in, head, head_len);
	if (!lib_start(d)) {
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	d->lib_ready = true;
	return d;
}

/* Moves the untaken compressed bytes to the front and reads more after
 * them.  0, or -1 with errno. */
static int fill(struct decomp *d)
{
	memmove(d->in, d->in + d->in_pos, d->in_len - d->in_pos);
	d->in_len -= d->in_pos;
	d->in_pos = 0;
	while (d->in_len < IN_SIZE && !d->in_eof) {
		ssize_t got = read(d->fd, d->in + d->in_len, IN_SIZE - d->in_len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			d->in_eof = true;
		d->in_len += (size_t)got;
		break; /* a pipe's bytes are decoded as they come */
	}
	return 0;
}

static ssize_t fail(struct decomp *d, size_t made, int err, const char *why)
{
	d->error = why;
	d->done = true;
	if (made > 0) { /* the bytes before the damage first */
		d->pending_errno = err;
		return (ssize_t)made;
	}
	errno = err;
	return -1;
}

/* After a member ended: starts the next one where more bytes follow.
 * false when the input ended (d->done) or with damage (d->error). */
static bool next_member(struct decomp *d)
{
	d->member_open = false;
	while (d->in_len - d->in_pos < DECOMP_MAGIC_MAX && !d->in_eof)
		if (fill(d) != 0)
			return false;
	size_t left = d->in_len - d->in_pos;
	if (left == 0) {
		d->done = true;
		return false;
	}
	if (d->fmt == DECOMP_XZ || d->fmt == DECOMP_ZSTD)
		return true; /* the library goes on, and judges what follows */
	if (decomp_detect(d->in + d->in_pos, left) != d->fmt) {
		d->error = "trailing garbage after compressed data";
		return false;
	}
	lib_end(d);
	if (!lib_start(d)) {
		d->error = "memory exhausted";
		return false;
	}
	d->lib_ready = true;
	return true;
}

/* decomp_read on the calling thread. */
static ssize_t decode(struct decomp *d, void *buf, size_t n)
{
	if (d->pending_errno) {
		errno = d->pending_errno;
		d->pending_errno = 0;
		return -1;
	}
	if (d->done) {
		if (d->error) {
			errno = EIO;
			return -1;
		}
		return 0;
	}
	unsigned char *out = buf;
	size_t made = 0;
	while (made == 0) {
		if (d->in_pos == d->in_len && !d->in_eof && fill(d) != 0)
			return -1;
		size_t step_made;
		size_t before = d->in_pos;
		enum step st = lib_step(d, out, n, &step_made);
		made += step_made;
		if (st == STEP_CORRUPT)
			return fail(d, made, EIO, "invalid compressed data");
		if (st == STEP_NOMEM)
			return fail(d, made, ENOMEM, NULL);
		if (st == STEP_MEMBER_END) {
			if (!next_member(d)) {
				if (d->error)
					return fail(d, made, EIO, d->error);
				break; /* the end */
			}
			continue;
		}
		if (step_made > 0 || d->in_pos != before)
			continue;
		/* no progress: the decoder wants more than the buffer holds */
		if (d->in_eof) {
			if (!d->member_open && d->in_pos == d->in_len) {
				d->done = true;
				break;
			}
			return fail(d, made, EIO, "unexpected end of compressed data");
		}
		if (fill(d) != 0)
			return -1;
	}
	return (ssize_t)made;
}

/* ---- decoding on a thread of its own ------------------------------------ */

static void *ring_main(void *arg)
{
	struct decomp *d = arg;
	struct ring *r = d->ring;
	for (bool more = true; more;) {
		pthread_mutex_lock(&r->mu);
		while (r->made - r->taken == SLOTS && !r->closing)
			pthread_cond_wait(&r->cv, &r->mu);
		bool closing = r->closing;
		pthread_mutex_unlock(&r->mu);
		if (closing)
			break;
		struct slot *sl = &r->slot[r->made % SLOTS]; /* only this thread writes it now */
		sl->len = 0;
		sl->result = 1;
		while (sl->len < SLOT_SIZE) {
			ssize_t got = decode(d, sl->data + sl->len, SLOT_SIZE - sl->len);
			if (got <= 0) {
				sl->result = got;
				sl->err = got < 0 ? errno : 0;
				more = false;
				break;
			}
			sl->len += (size_t)got;
		}
		pthread_mutex_lock(&r->mu);
		r->made++;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
	}
	return NULL;
}

bool decomp_start_thread(struct decomp *d)
{
	struct ring *r = calloc(1, sizeof *r);
	if (!r)
		return false;
	unsigned char *mem = malloc(SLOTS * SLOT_SIZE);
	if (!mem) {
		free(r);
		return false;
	}
	for (size_t i = 0; i < SLOTS; i++)
		r->slot[i].data = mem + i * SLOT_SIZE;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	d->ring = r;
	if (pthread_create(&r->thread, NULL, ring_main, d) != 0) {
		d->ring = NULL;
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		free(mem);
		free(r);
		return false;
	}
	return true;
}

/* decomp_read from the ring. */
static ssize_t ring_read(struct ring *r, void *buf, size_t n)
{
	pthread_mutex_lock(&r->mu);
	while (r->made == r->taken)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	struct slot *sl = &r->slot[r->taken % SLOTS]; /* the decoder is done with it */
	size_t k = sl->len - r->pos < n ? sl->len - r->pos : n;
	memcpy(buf, sl->data + r->pos, k);
	r->pos += k;
	if (r->pos < sl->len || (k > 0 && sl->result <= 0))
		return (ssize_t)k; /* the end, or the error, comes with the next read */
	if (sl->result <= 0) {
		errno = sl->err;
		return sl->result;
	}
	r->pos = 0;
	pthread_mutex_lock(&r->mu);
	r->taken++;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return (ssize_t)k;
}

ssize_t decomp_read(struct decomp *d, void *buf, size_t n)
{
	return d->ring ? ring_read(d->ring, buf, n) : decode(d, buf, n);
}

const char *decomp_error(const struct decomp *d)
{
	return d->error;
}

void decomp_close(struct decomp *d)
{
	if (!d)
		return;
	struct ring *r = d->ring;
	if (r) {
		pthread_mutex_lock(&r->mu);
		r->closing = true;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->thread, NULL); /* it ends its slot, then sees closing */
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		free(r->slot[0].data);
		free(r);
	}
	lib_end(d);
	free(d);
}
