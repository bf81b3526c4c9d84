/* SPDX-License-Identifier: MIT */
/* _compiled.c - compiled pattern sets (acgrep --save-compiled / --compiled
 * files) for the acgrep Python module: _engine.load_image and _engine.save.
 *
 * Owns: which of a compiled set's options the module can honour, and the
 * options (struct matcher_spec) that stand for a Set when it is saved.  The file's format and
 * its checks are src/grep/compiled's (matcher_save, matcher_load_image),
 * linked into the extension with the grep layer's matcher under it; the
 * set that scans is libacgrep's acgrep_load over the same checked image.
 * Honoured: -F sets, with -i (ASCII folding: the C locale's, or a UTF-8
 * locale's where grep folds ASCII only), -w in the C locale, -z, -a.
 * Refused with a ValueError that says why: -E/-G sets, -x, -w in a UTF-8
 * locale (grep's words then hold non-ASCII letters), -i that grep folds
 * beyond ASCII.
 */
#include "_engine.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ac_file.h"
#include "compiled/matcher_file.h"
#include "compiled/matcher_file_internal.h"
#include "match/matcher_ac_internal.h"

/* ---- loading ----------------------------------------------------------- */

/* Why the module cannot search as a set with these options does, or NULL. */
static const char *options_refused(const struct file_meta *mt)
{
	if (mt->syntax != SYNTAX_FIXED)
		return "compiled from -E/-G regular expressions; the acgrep module loads -F sets only";
	if (mt->line)
		return "compiled with -x (whole lines); the acgrep module has no lines";
	if (mt->word && mt->utf8)
		return "compiled with -w in a UTF-8 locale, whose words hold non-ASCII letters; "
		       "the module's whole_words is the C locale's (compile with LC_ALL=C)";
	if (mt->fold)
		return "compiled with -i in a UTF-8 locale for patterns grep folds beyond ASCII; "
		       "the module cannot fold as grep does (compile with LC_ALL=C)";
	return NULL;
}

/* The options of a search with those of mt (what matcher_load_image
 * checks the file against). */
static struct matcher_spec spec_of(const struct file_meta *mt)
{
	return (struct matcher_spec){
		.syntax = SYNTAX_FIXED, .engine = ENGINE_AC, .ignore_case = mt->ignore_case != 0,
		.word = mt->word != 0, .line = mt->line != 0, .utf8 = mt->utf8 != 0,
		.eol = mt->null_data ? '\0' : '\n', .binary_text = mt->binary_text != 0,
	};
}

/* A bytes object for each pattern of ps, in a new list. */
static PyObject *list_of(const struct pattern_set *ps)
{
	PyObject *list = PyList_New((Py_ssize_t)ps->count);
	for (size_t i = 0; list && i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		PyObject *b = PyBytes_FromStringAndSize(p.bytes, (Py_ssize_t)p.len);
		if (!b || PyList_SetItem(list, (Py_ssize_t)i, b) != 0) {
			Py_DECREF(list);
			return NULL;
		}
	}
	return list;
}

/* A tag as str, or as bytes where it is not UTF-8: a new reference. */
static PyObject *tag_object(struct pattern name)
{
	PyObject *tag = PyUnicode_DecodeUTF8(name.bytes, (Py_ssize_t)name.len, "strict");
	if (!tag && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
		PyErr_Clear();
		tag = PyBytes_FromStringAndSize(name.bytes, (Py_ssize_t)name.len);
	}
	return tag;
}

/* Each listed pattern's tag, in a new tuple, or None when the set was
 * saved without tags. */
static PyObject *tags_of(const struct pattern_tags *tags, size_t count)
{
	if (!tags->of)
		Py_RETURN_NONE;
	size_t n = tags->names.count;
	PyObject *names = PyTuple_New((Py_ssize_t)n);
	for (size_t k = 0; names && k < n; k++) {
		PyObject *tag = tag_object(pattern_at(&tags->names, k));
		if (!tag || PyTuple_SetItem(names, (Py_ssize_t)k, tag) != 0)
			Py_CLEAR(names);
	}
	PyObject *labels = names ? PyTuple_New((Py_ssize_t)count) : NULL;
	for (size_t i = 0; labels && i < count; i++) {
		PyObject *tag = PyTuple_GetItem(names, (Py_ssize_t)tags->of[i]);
		Py_XINCREF(tag);
		if (!tag || PyTuple_SetItem(labels, (Py_ssize_t)i, tag) != 0)
			Py_CLEAR(labels);
	}
	Py_XDECREF(names);
	return labels;
}

/* What the module keeps of a loaded matcher m, copied out of it (its
 * views into the image end with it): its engine ids' list ids (NULL when
 * the same), the patterns as given (a list of bytes) and their tags (a
 * tuple, or None).  Returns false with a Python error. */
static bool copy_out(const struct matcher *m, const struct pattern_set *list,
		     const struct pattern_tags *tags, uint32_t **index_of, PyObject **patterns,
		     PyObject **labels)
{
	const struct matcher_ac *ma = (const struct matcher_ac *)m;
	size_t ids = ac_pattern_count(ma->ac);
	*index_of = NULL;
	*labels = NULL;
	if (ma->given && !(*index_of = malloc(ids ? ids * sizeof **index_of : 1))) {
		PyErr_NoMemory();
		return false;
	}
	if (ma->given)
		memcpy(*index_of, ma->given, ids * sizeof **index_of);
	*patterns = list_of(list);
	*labels = *patterns ? tags_of(tags, list->count) : NULL;
	if (!*labels) {
		Py_XDECREF(*patterns);
		free(*index_of);
		return false;
	}
	return true;
}

/* (engine, patterns, tags, ignore_case, whole_words) of the checked image
 * (taken) of a compiled set with the options mt and those patterns and
 * labels (taken) and index_of (taken). */
static PyObject *loaded(void *image, size_t size, const struct file_meta *mt, uint32_t *index_of,
			PyObject *patterns, PyObject *labels)
{
	acgrep_set *set = acgrep_load(image, size);
	PyObject *engine = NULL;
	if (set)
		engine = engine_wrap(set, index_of, labels == Py_None ? NULL : labels, image);
	else {
		free(index_of);
		free(image);
		if (errno == ENOMEM)
			PyErr_NoMemory();
		else
			PyErr_SetString(PyExc_ValueError, "corrupt compiled pattern set (automaton)");
	}
	PyObject *result = NULL;
	if (engine)
		result = Py_BuildValue("(NOOOO)", engine, patterns, labels,
				       mt->ignore_case ? Py_True : Py_False, mt->word ? Py_True : Py_False);
	Py_DECREF(patterns);
	Py_DECREF(labels);
	return result;
}

/* load_image(data) -> (Engine, patterns, tags or None, ignore_case, whole_words):
 * the compiled set whose file's bytes are data. */
static PyObject *load_image(PyObject *module, PyObject *args)
{
	(void)module;
	Py_buffer data;
	if (!PyArg_ParseTuple(args, "y*", &data))
		return NULL;
	/* the sections must be SECFILE_ALIGN-aligned in memory: a copy of our own */
	size_t size = (size_t)data.len;
	void *image = aligned_alloc(SECFILE_ALIGN, (size + SECFILE_ALIGN) / SECFILE_ALIGN * SECFILE_ALIGN);
	if (image)
		memcpy(image, data.buf, size);
	PyBuffer_Release(&data);
	if (!image)
		return PyErr_NoMemory();
	char why[256];
	struct secfile sf;
	const struct file_meta *raw = NULL;
	if (secfile_open(&sf, image, size, why, sizeof why) == 0 &&
	    !(raw = secfile_section(&sf, T_META, sizeof *raw)))
		snprintf(why, sizeof why, "corrupt compiled pattern set (options)");
	struct file_meta mt;
	const char *refused = NULL;
	struct matcher *m = NULL;
	struct pattern_set list;
	struct pattern_tags tags;
	if (raw) {
		memcpy(&mt, raw, sizeof mt);
		struct matcher_spec spec = spec_of(&mt);
		refused = options_refused(&mt);
		if (!refused)
			m = matcher_load_image(&spec, image, size, &list, &tags, why, sizeof why);
	}
	if (!m) {
		free(image);
		return PyErr_Format(PyExc_ValueError, "%s", refused ? refused : why);
	}
	/* the matcher checked the file, whose list and tags it views in place */
	uint32_t *index_of;
	PyObject *patterns, *labels;
	bool copied = copy_out(m, &list, &tags, &index_of, &patterns, &labels);
	matcher_free(m);
	if (!copied) {
		free(image);
		return NULL;
	}
	return loaded(image, size, &mt, index_of, patterns, labels);
}

/* ---- saving ------------------------------------------------------------ */

/* Fills *ps with the bytes objects of the list `items` (NUL after each, as
 * struct pattern_set holds them): true, or false with a Python error. */
static bool set_of_list(PyObject *items, struct pattern_set *ps)
{
	Py_ssize_t n = PyList_Size(items);
	size_t bytes = 0;
	for (Py_ssize_t i = 0; i < n; i++)
		bytes += (size_t)PyBytes_Size(PyList_GetItem(items, i)) + 1;
	if (bytes > (size_t)UINT32_MAX + 1) {
		PyErr_SetString(PyExc_ValueError, "patterns too large for a compiled set (4 GiB)");
		return false;
	}
	*ps = (struct pattern_set){.storage = malloc(bytes ? bytes : 1),
				   .end = malloc(n ? (size_t)n * sizeof *ps->end : 1),
				   .count = (size_t)n};
	if (!ps->storage || !ps->end) {
		PyErr_NoMemory();
		return false;
	}
	size_t at = 0;
	for (Py_ssize_t i = 0; i < n; i++) {
		char *p;
		Py_ssize_t len;
		if (PyBytes_AsStringAndSize(PyList_GetItem(items, i), &p, &len) != 0)
			return false;
		memcpy(ps->storage + at, p, (size_t)len);
		ps->holds_nul |= memchr(p, '\0', (size_t)len) != NULL;
		at += (size_t)len;
		ps->storage[at] = '\0';
		ps->end[i] = (uint32_t)at++;
	}
	return true;
}

/* save(path, patterns, fold_ascii, whole_words, names, tag_of): writes the
 * compiled set of `patterns` (a list of bytes) as acgrep -F
 * --save-compiled does in the C locale, with -i, -w, and -a where a
 * pattern holds a NUL; tagged when names (the distinct tags, bytes, in
 * order of first use) is not None, tag_of (bytes of native uint32, one per
 * pattern) then naming each pattern's. */
static PyObject *save(PyObject *module, PyObject *args)
{
	(void)module;
	PyObject *path, *patterns, *names;
	Py_buffer tag_of = {.buf = NULL};
	int fold_ascii, words;
	if (!PyArg_ParseTuple(args, "O&O!ppOz*", PyUnicode_FSConverter, &path, &PyList_Type,
			      &patterns, &fold_ascii, &words, &names, &tag_of))
		return NULL;
	struct pattern_set list = {.storage = NULL};
	struct pattern_tags tags = {.of = NULL};
	bool ok = set_of_list(patterns, &list);
	if (ok && names != Py_None) {
		ok = PyList_Check(names) && tag_of.buf && (size_t)tag_of.len == list.count * sizeof(uint32_t);
		if (!ok)
			PyErr_SetString(PyExc_ValueError, "names: a list; tag_of: one uint32 per pattern");
		ok = ok && set_of_list(names, &tags.names);
		tags.of = ok ? tag_of.buf : NULL;
	}
	const struct matcher_spec spec = {
		.syntax = SYNTAX_FIXED, .engine = ENGINE_AC, .ignore_case = fold_ascii, .word = words,
		.eol = '\n', .binary_text = list.holds_nul,
	};
	char why[256];
	int rc = 0;
	if (ok) {
		Py_BEGIN_ALLOW_THREADS
		rc = matcher_save(&spec, &list, &tags, 1, PyBytes_AsString(path), why, sizeof why);
		Py_END_ALLOW_THREADS
		if (rc != 0)
			PyErr_Format(PyExc_OSError, "%s: %s", PyBytes_AsString(path), why);
	}
	free(list.storage);
	free(list.end);
	free(tags.names.storage);
	free(tags.names.end);
	if (tag_of.buf)
		PyBuffer_Release(&tag_of);
	Py_DECREF(path);
	if (!ok || rc != 0)
		return NULL;
	Py_RETURN_NONE;
}

PyMethodDef compiled_methods[] = {
	{"load_image", load_image, METH_VARARGS,
	 "load_image(data) -> (Engine, patterns, tags or None, ignore_case, whole_words)"},
	{"save", save, METH_VARARGS, "save(path, patterns, fold_ascii, whole_words, names, tag_of)"},
	{NULL, NULL, 0, NULL},
};
