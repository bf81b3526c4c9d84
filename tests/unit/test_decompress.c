/* SPDX-License-Identifier: MIT */
/* test_decompress.c - decompress.c: magic numbers, sniffing a pipe, and
 * the decoding loop on gzip data made here with zlib (where compiled in):
 * one member, members back to back, every read size down to one byte,
 * read on the caller's thread from a pipe and ahead on a thread from a file;
 * a stream cut anywhere (the bytes before the cut, then EIO and
 * "unexpected end of compressed data"), trailing garbage, an empty member.
 * Prints "N passed, N failed"; exits non-zero on failure.
 */
#include "decompress/decompress.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef ACGREP_HAVE_ZLIB
#include <zlib.h>
#endif

#include "check.h"

static void detect(void)
{
	static const struct {
		const char *name;
		const char *bytes;
		size_t n;
		enum decomp_format want;
	} cases[] = {
		{ .name = "gzip magic and more", .bytes = "\x1f\x8b\x08\x00", .n = 4, .want = DECOMP_GZIP },
		{ .name = "gzip magic alone", .bytes = "\x1f\x8b", .n = 2, .want = DECOMP_GZIP },
		{ .name = "half a gzip magic", .bytes = "\x1f", .n = 1, .want = DECOMP_NONE },
		{ .name = "xz magic", .bytes = "\xfd\x37zXZ\0", .n = 6, .want = DECOMP_XZ },
		{ .name = "xz magic without its NUL", .bytes = "\xfd\x37zXZ", .n = 5, .want = DECOMP_NONE },
		{ .name = "zstd magic", .bytes = "\x28\xb5\x2f\xfd\x00", .n = 5, .want = DECOMP_ZSTD },
		{ .name = "bzip2 level 9", .bytes = "BZh9", .n = 4, .want = DECOMP_BZIP2 },
		{ .name = "bzip2 level 0 is no level", .bytes = "BZh0", .n = 4, .want = DECOMP_NONE },
		{ .name = "BZ and a newline", .bytes = "BZ\n", .n = 3, .want = DECOMP_NONE },
		{ .name = "plain text", .bytes = "hello\n", .n = 6, .want = DECOMP_NONE },
		{ .name = "empty", .bytes = "", .n = 0, .want = DECOMP_NONE },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum decomp_format f = decomp_detect((const unsigned char *)cases[i].bytes, cases[i].n);
		CHECK(f == cases[i].want, "detect %s: %s, want %s", cases[i].name, decomp_name(f),
		      decomp_name(cases[i].want));
	}
}

/* A pipe holding `data`: its read end. */
static int pipe_with(const void *data, size_t n)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	if (n && write(fd[1], data, n) != (ssize_t)n)
		n = 0;
	close(fd[1]);
	return fd[0];
}

static void sniff(void)
{
	unsigned char head[DECOMP_MAGIC_MAX];
	size_t n;
	/* a short line that cannot start a magic number is not waited on */
	int fd = pipe_with("a\n", 2);
	CHECK(decomp_sniff(fd, false, 0, head, &n) == DECOMP_NONE && n == 2, "sniff 'a\\n': %zu", n);
	close(fd);
	fd = pipe_with("\x1f\x8b\x08", 3);
	CHECK(decomp_sniff(fd, false, 0, head, &n) == DECOMP_GZIP && n == 3, "sniff gzip: %zu", n);
	close(fd);
	fd = pipe_with("", 0);
	CHECK(decomp_sniff(fd, false, 0, head, &n) == DECOMP_NONE && n == 0, "sniff empty: %zu", n);
	close(fd);
}

#ifdef ACGREP_HAVE_ZLIB
/* gzip member of text[0..n) appended to out (of capacity cap at *len). */
static void gzip_member(const char *text, size_t n, unsigned char *out, size_t cap, size_t *len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	CHECK(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
	z.next_in = (unsigned char *)(uintptr_t)text;
	z.avail_in = (uInt)n;
	z.next_out = out + *len;
	z.avail_out = (uInt)(cap - *len);
	CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
	*len = cap - z.avail_out;
	deflateEnd(&z);
}

/* A regular (unlinked) file holding data[0..n), or -1. */
static int file_with(const void *data, size_t n)
{
	char path[] = "/tmp/acgrep-test-decompress-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	if (write(fd, data, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Use the decoding thread (decomp_start_thread, on a regular file). */
static bool ahead;

/* Decodes data[0..n) through a pipe (or a file, when ahead), `step`
 * bytes per read: the bytes got into out (capacity cap), and the final
 * result (0 or -1) and errno. */
static size_t decode(const unsigned char *data, size_t n, size_t step, char *out, size_t cap,
		     int *result, int *err, const char **why)
{
	int fd = ahead ? file_with(data, n) : pipe_with(data, n);
	unsigned char head[DECOMP_MAGIC_MAX];
	size_t hn;
	enum decomp_format f = decomp_sniff(fd, ahead, 0, head, &hn);
	struct decomp *d = decomp_open(f, fd, head, ahead ? 0 : hn);
	CHECK(!ahead || decomp_start_thread(d), "decomp_start_thread");
	size_t got = 0;
	ssize_t r;
	while ((r = decomp_read(d, out + got, step < cap - got ? step : cap - got)) > 0)
		got += (size_t)r;
	*result = (int)r;
	*err = r < 0 ? errno : 0;
	*why = decomp_error(d);
	decomp_close(d);
	close(fd);
	return got;
}

static void gzip_stream(void)
{
	enum { TEXT = 20000 };
	static char text[TEXT], out[3 * TEXT];
	static unsigned char gz[3 * TEXT];
	for (size_t i = 0; i < TEXT; i++)
		text[i] = (char)("abcdefgh\n"[i % 9] + (i % 97 == 0));
	size_t len = 0;
	gzip_member(text, TEXT, gz, sizeof gz, &len);
	size_t one = len;
	gzip_member(text, 100, gz, sizeof gz, &len);
	gzip_member(text, 0, gz, sizeof gz, &len); /* an empty member */
	size_t steps[] = { 1, 7, 4096, sizeof out };
	for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
		int result, err;
		const char *why;
		size_t got = decode(gz, len, steps[s], out, sizeof out, &result, &err, &why);
		CHECK(result == 0 && got == TEXT + 100 && memcmp(out, text, TEXT) == 0 &&
			      memcmp(out + TEXT, text, 100) == 0,
		      "members, step %zu: result %d got %zu", steps[s], result, got);
	}
	/* cut anywhere in the first member: a prefix of the text, then EIO */
	for (size_t cut = 2; cut < one; cut += cut < 64 ? 1 : 997) {
		int result, err;
		const char *why;
		size_t got = decode(gz, cut, 4096, out, sizeof out, &result, &err, &why);
		CHECK(result == -1 && err == EIO && why && strcmp(why, "unexpected end of compressed data") == 0 &&
			      got <= TEXT && memcmp(out, text, got) == 0,
		      "cut at %zu: result %d errno %d why %s got %zu", cut, result, err, why ? why : "-", got);
	}
	/* trailing garbage after a whole member */
	memcpy(gz + one, "garbage", 7);
	int result, err;
	const char *why;
	size_t got = decode(gz, one + 7, 4096, out, sizeof out, &result, &err, &why);
	CHECK(got == TEXT && result == -1 && err == EIO && why && strstr(why, "trailing garbage"),
	      "trailing garbage: got %zu result %d", got, result);
}
#endif

int main(void)
{
	detect();
	sniff();
#ifdef ACGREP_HAVE_ZLIB
	gzip_stream();
	ahead = true; /* the same through the decoding thread */
	gzip_stream();
#endif
	CHECK(strlen(decomp_compiled_in()) > 0, "decomp_compiled_in");
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
