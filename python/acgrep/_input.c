/* SPDX-License-Identifier: MIT */
/* _input.c - search_file(decompress=True)'s decoding for the acgrep Python
 * module: _engine.decompressed.
 *
 * Owns: reading a whole compressed file into one buffer through the CLI's
 * decoders (src/grep/decompress/decompress.c: the formats recognised by their
 * first bytes, gzip, xz, zstd and bzip2 as this build has them, members
 * one after another, decoding ahead on a thread of its own), with the GIL
 * released.  What is not compressed is left to acgrep/__init__.py, which
 * maps it.
 */
#include "_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "decompress/decompress.h"

/* The bytes of the stream d, or of fd when d is NULL, after the first
 * `n` bytes of head (what was read to tell the format), in *buf (from
 * malloc) and *len: 0, or -1 with errno (ENOMEM, or the read's). */
static int read_all(struct decomp *d, int fd, const unsigned char *head, size_t n, char **buf,
		    size_t *len)
{
	size_t cap = 0;
	*buf = NULL;
	*len = 0;
	for (;;) {
		if (*len == cap || *len < n) {
			char *grown = grow_array(*buf, &cap, *len + n + 1, 1, (size_t)1 << 16);
			if (!grown) {
				errno = ENOMEM;
				return -1;
			}
			*buf = grown;
		}
		if (*len < n) {
			memcpy(*buf, head, n);
			*len = n;
			continue;
		}
		ssize_t k = d ? decomp_read(d, *buf + *len, cap - *len) : read(fd, *buf + *len, cap - *len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			return 0;
		*len += (size_t)k;
	}
}

/* decompressed(path) -> bytes or None: the decoded bytes of the file at
 * path when it starts as a compressed format's data; else None for a
 * regular file (for the caller to map), its bytes for anything else
 * (read once: a pipe's first bytes were read to tell the format).
 * OSError when it cannot be read or its data is damaged ("unexpected end
 * of compressed data"), ValueError when this build cannot decode its
 * format. */
static PyObject *decompressed(PyObject *module, PyObject *args)
{
	(void)module;
	PyObject *path;
	if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path))
		return NULL;
	const char *name = PyBytes_AsString(path);
	int fd, opened;
	struct stat st;
	/* opening a FIFO waits for its writer, which may be another thread */
	Py_BEGIN_ALLOW_THREADS
	fd = open(name, O_RDONLY | O_CLOEXEC);
	opened = fd >= 0 && fstat(fd, &st) == 0;
	Py_END_ALLOW_THREADS
	if (!opened) {
		PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
		if (fd >= 0)
			close(fd);
		Py_DECREF(path);
		return NULL;
	}
	bool seekable = S_ISREG(st.st_mode);
	unsigned char head[DECOMP_MAGIC_MAX];
	size_t n = 0;
	enum decomp_format fmt;
	Py_BEGIN_ALLOW_THREADS
	fmt = decomp_sniff(fd, seekable, 0, head, &n);
	Py_END_ALLOW_THREADS
	PyObject *result = NULL;
	if (fmt == DECOMP_NONE && seekable) {
		result = Py_None;
		Py_INCREF(result);
	} else if (fmt != DECOMP_NONE && !decomp_available(fmt)) {
		PyErr_Format(PyExc_ValueError, "%s: %s", name, decomp_missing(fmt));
	} else {
		char *buf = NULL, *why = NULL;
		size_t len = 0;
		int rc = -1, saved = ENOMEM;
		Py_BEGIN_ALLOW_THREADS
		/* the head was read from a pipe, not from a regular file (pread) */
		size_t consumed = seekable ? 0 : n;
		struct decomp *d = fmt == DECOMP_NONE ? NULL : decomp_open(fmt, fd, head, consumed);
		if (d || fmt == DECOMP_NONE) {
			if (d && seekable)
				(void)decomp_start_thread(d);
			rc = read_all(d, fd, head, d ? 0 : consumed, &buf, &len);
			saved = errno;
			if (rc != 0 && saved == EIO && d && decomp_error(d))
				why = strdup(decomp_error(d));
			decomp_close(d);
		}
		Py_END_ALLOW_THREADS
		if (rc == 0)
			result = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
		else if (saved == ENOMEM)
			PyErr_NoMemory();
		else if (why)
			PyErr_Format(PyExc_OSError, "%s: %s", name, why);
		else {
			errno = saved;
			PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
		}
		free(why);
		free(buf);
	}
	close(fd);
	Py_DECREF(path);
	return result;
}

PyMethodDef input_methods[] = {
	{"decompressed", decompressed, METH_VARARGS,
	 "decompressed(path) -> bytes or None (not compressed)"},
	{NULL, NULL, 0, NULL},
};
