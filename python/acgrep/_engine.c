/* SPDX-License-Identifier: MIT */
/* _engine.c - the acgrep Python module's C part: libacgrep (acgrep.h)
 * under Python's stable ABI (Py_LIMITED_API, one abi3 build for every
 * CPython from 3.11).
 *
 * Owns: a compiled set as a Python object (_engine.Engine), scanning any
 * buffer-protocol object or str without copying it and with the GIL
 * released, the whole-word and character-boundary filters over the
 * engine's overlapping matches, the leftmost-longest choice among the
 * matches kept, and UTF-8 byte offsets turned into str indexes.  What a
 * pattern is (str or bytes, Unicode case variants, tags) is acgrep/
 * __init__.py's: it hands this module byte strings, a table from their
 * ids to the caller's pattern indexes, and the labels to report.
 */
#include "_engine.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One match: bytes [start, end) of the text, `index` the caller's pattern. */
struct hit {
	size_t start, end;
	uint32_t index;
};

/* The matches of one scan, grown while the GIL is released. */
struct hits {
	struct hit *at;
	size_t len, cap;
	bool out_of_memory;
};

static bool hits_push(struct hits *h, size_t start, size_t end, uint32_t index)
{
	if (h->len == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		struct hit *at = cap > SIZE_MAX / sizeof *at ? NULL : realloc(h->at, cap * sizeof *at);
		if (!at) {
			h->out_of_memory = true;
			return false;
		}
		h->at = at;
		h->cap = cap;
	}
	h->at[h->len++] = (struct hit){.start = start, .end = end, .index = index};
	return true;
}

typedef struct {
	PyObject_HEAD
	acgrep_set *set;
	uint32_t *index_of; /* engine id -> the caller's pattern index */
	size_t ids;
	PyObject *labels;   /* tuple: what a match reports for each index, or NULL: the index */
	void *image;        /* a loaded set's compiled file, which its tables point into, or NULL */
} Engine;

/* What one scan asks for, and the text it reads (the GIL released). */
struct scan {
	const Engine *engine;
	const unsigned char *text;
	size_t len;
	bool overlapping;  /* every occurrence, else leftmost-longest */
	bool words;        /* only matches with a non-word byte (or the text's edge) each side */
	bool boundaries;   /* only matches that start and end on a UTF-8 character's edge */
	enum { COLLECT, COUNT, FIRST } want;
	size_t counted;
	struct hits hits;
};

/* grep -w's word constituents in the C locale: ASCII letters, digits and '_'. */
static bool word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool continuation_byte(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

/* Whether the filters of s keep the match text[start..end). */
static bool kept(const struct scan *s, size_t start, size_t end)
{
	if (s->words && ((start > 0 && word_byte(s->text[start - 1])) ||
			 (end < s->len && word_byte(s->text[end]))))
		return false;
	if (s->boundaries && (continuation_byte(s->text[start]) ||
			      (end < s->len && continuation_byte(s->text[end]))))
		return false;
	return true;
}

static bool filtered(const struct scan *s)
{
	return s->words || s->boundaries;
}

static int on_match(void *ctx, size_t start, size_t end, uint32_t id)
{
	struct scan *s = ctx;
	if (filtered(s) && !kept(s, start, end))
		return 0;
	uint32_t index = s->engine->index_of ? s->engine->index_of[id] : id;
	if (s->want == FIRST) {
		s->counted = 1;
		return 1;
	}
	/* a filtered overlapping count needs no list; a filtered leftmost one
	 * chooses among them */
	if (s->want == COUNT && s->overlapping) {
		s->counted++;
		return 0;
	}
	return hits_push(&s->hits, start, end, index) ? 0 : 1;
}

static int by_start_longest(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The leftmost-longest matches among the kept ones (grep -w -o's rule:
 * the leftmost start with a match kept, its longest match kept, then the
 * same from that match's end). */
static void choose_leftmost(struct hits *h)
{
	qsort(h->at, h->len, sizeof *h->at, by_start_longest);
	size_t n = 0, from = 0;
	for (size_t i = 0; i < h->len; i++)
		if (n == 0 || h->at[i].start >= from) {
			h->at[n++] = h->at[i];
			from = h->at[i].end;
		}
	h->len = n;
}

/* Runs s with the GIL released; returns false with a Python error set. */
static bool run_scan(struct scan *s)
{
	/* filters need every occurrence, then choose; the first match to end
	 * is the cheapest to find */
	bool every = s->overlapping || filtered(s) || s->want == FIRST;
	int mode = every ? ACGREP_OVERLAPPING : ACGREP_LEFTMOST_LONGEST;
	/* an unfiltered count needs no call per match */
	bool tally = s->want == COUNT && !filtered(s);
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = tally ? acgrep_count_matches(s->engine->set, s->text, s->len, mode, &s->counted)
		   : acgrep_scan(s->engine->set, s->text, s->len, mode, on_match, s);
	if (rc >= 0 && !s->hits.out_of_memory && filtered(s) && !s->overlapping && s->want != FIRST)
		choose_leftmost(&s->hits);
	Py_END_ALLOW_THREADS
	if (s->hits.out_of_memory) {
		PyErr_NoMemory();
		return false;
	}
	if (rc < 0) {
		PyErr_SetFromErrno(PyExc_OSError);
		return false;
	}
	if (s->want == COUNT && !s->overlapping && filtered(s))
		s->counted = s->hits.len;
	return true;
}

/* The text of `data`: a str's UTF-8 form (cached in the str, so not a
 * copy for an ASCII one) or a buffer's bytes, held in *view until
 * release_text.  Sets *is_str.  Returns false with a Python error set. */
static bool get_text(PyObject *data, Py_buffer *view, struct scan *s, bool *is_str)
{
	*is_str = PyUnicode_Check(data);
	if (*is_str) {
		Py_ssize_t len;
		const char *utf8 = PyUnicode_AsUTF8AndSize(data, &len);
		if (!utf8)
			return false;
		s->text = (const unsigned char *)utf8;
		s->len = (size_t)len;
		return true;
	}
	if (PyObject_GetBuffer(data, view, PyBUF_SIMPLE) != 0) {
		PyErr_Clear();
		PyErr_Format(PyExc_TypeError, "data must be bytes, bytearray, memoryview, str or another "
			     "buffer of bytes, not %S", (PyObject *)Py_TYPE(data));
		return false;
	}
	s->text = view->buf;
	s->len = (size_t)view->len;
	return true;
}

static void release_text(Py_buffer *view, bool is_str)
{
	if (!is_str)
		PyBuffer_Release(view);
}

/* Byte offsets into the UTF-8 text turned into character indexes, for
 * matches in order of end (both modes report them so). */
static void to_char_offsets(struct hits *h, const unsigned char *text)
{
	size_t byte = 0, chars = 0;
	for (size_t i = 0; i < h->len; i++) {
		struct hit *m = &h->at[i];
		for (; byte < m->end; byte++)
			chars += !continuation_byte(text[byte]);
		size_t inside = 0;
		for (size_t b = m->start; b < m->end; b++)
			inside += !continuation_byte(text[b]);
		m->end = chars;
		m->start = chars - inside;
	}
}

/* Parses (data, overlapping, words, boundaries) into s and its text. */
static bool start_scan(Engine *self, PyObject *args, Py_buffer *view, struct scan *s, bool *is_str)
{
	PyObject *data;
	int overlapping, words, boundaries;
	if (!PyArg_ParseTuple(args, "Oppp", &data, &overlapping, &words, &boundaries))
		return false;
	*s = (struct scan){.engine = self, .overlapping = overlapping, .words = words};
	if (!get_text(data, view, s, is_str))
		return false;
	s->boundaries = boundaries && *is_str;
	return true;
}

/* ---- the iterator over a scan's matches ---- */

typedef struct {
	PyObject_HEAD
	struct hits hits;
	size_t next;
	PyObject *labels; /* the engine's, or NULL */
} Matches;

static PyObject *matches_next(PyObject *obj)
{
	Matches *self = (Matches *)obj;
	if (self->next >= self->hits.len)
		return NULL;
	const struct hit *m = &self->hits.at[self->next++];
	PyObject *what = self->labels ? PyTuple_GetItem(self->labels, m->index)
				      : PyLong_FromUnsignedLong(m->index);
	if (!what)
		return NULL;
	if (self->labels)
		Py_INCREF(what);
	return Py_BuildValue("(nnN)", (Py_ssize_t)m->start, (Py_ssize_t)m->end, what);
}

static PyObject *matches_length_hint(PyObject *obj, PyObject *unused)
{
	(void)unused;
	Matches *self = (Matches *)obj;
	return PyLong_FromSize_t(self->hits.len - self->next);
}

static void matches_dealloc(PyObject *obj)
{
	Matches *self = (Matches *)obj;
	PyTypeObject *type = Py_TYPE(obj);
	free(self->hits.at);
	Py_XDECREF(self->labels);
	freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
	tp_free(self);
	Py_DECREF(type);
}

static PyMethodDef matches_methods[] = {
	{"__length_hint__", matches_length_hint, METH_NOARGS, "Matches left."},
	{NULL, NULL, 0, NULL},
};

static PyType_Slot matches_slots[] = {
	{Py_tp_doc, "The matches of one scan, as (start, end, pattern index or tag)."},
	{Py_tp_iter, PyObject_SelfIter},
	{Py_tp_iternext, matches_next},
	{Py_tp_methods, matches_methods},
	{Py_tp_dealloc, matches_dealloc},
	{0, NULL},
};

static PyType_Spec matches_spec = {
	.name = "acgrep._engine.Matches",
	.basicsize = sizeof(Matches),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = matches_slots,
};

static PyObject *matches_type;

/* ---- Engine ---- */

static void engine_dealloc(PyObject *obj)
{
	Engine *self = (Engine *)obj;
	PyTypeObject *type = Py_TYPE(obj);
	acgrep_free(self->set);
	free(self->image);
	free(self->index_of);
	Py_XDECREF(self->labels);
	freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
	tp_free(self);
	Py_DECREF(type);
}

/* Adds each bytes object of the list `patterns` to self->set. */
static bool add_patterns(Engine *self, PyObject *patterns)
{
	Py_ssize_t n = PyList_Size(patterns);
	for (Py_ssize_t i = 0; i < n; i++) {
		char *bytes;
		Py_ssize_t len;
		if (PyBytes_AsStringAndSize(PyList_GetItem(patterns, i), &bytes, &len) != 0)
			return false;
		if (acgrep_add(self->set, bytes, (size_t)len) != 0) {
			PyErr_SetString(PyExc_ValueError, "pattern set too large for the engine "
					"(about 2 GiB of patterns, 2**32 - 2 patterns)");
			return false;
		}
	}
	return true;
}

/* Reads index_of (bytes of native uint32, one per pattern, each below
 * `indexes`) or None into self->index_of. */
static bool take_index_of(Engine *self, PyObject *index_of, size_t indexes)
{
	if (index_of == Py_None)
		return true;
	char *bytes;
	Py_ssize_t len;
	if (PyBytes_AsStringAndSize(index_of, &bytes, &len) != 0)
		return false;
	if ((size_t)len != self->ids * sizeof(uint32_t)) {
		PyErr_SetString(PyExc_ValueError, "index_of: one uint32 per pattern");
		return false;
	}
	self->index_of = malloc(len ? (size_t)len : 1);
	if (!self->index_of) {
		PyErr_NoMemory();
		return false;
	}
	memcpy(self->index_of, bytes, (size_t)len);
	for (size_t i = 0; i < self->ids; i++)
		if (self->index_of[i] >= indexes) {
			PyErr_SetString(PyExc_ValueError, "index_of: an index past the patterns");
			return false;
		}
	return true;
}

static PyObject *engine_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	PyObject *patterns, *index_of, *labels;
	Py_ssize_t indexes;
	int fold_ascii;
	static char *kw[] = {"patterns", "fold_ascii", "index_of", "indexes", "labels", NULL};
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!pOnO", kw, &PyList_Type, &patterns,
					 &fold_ascii, &index_of, &indexes, &labels))
		return NULL;
	if (labels != Py_None && (!PyTuple_Check(labels) || PyTuple_Size(labels) != indexes)) {
		PyErr_SetString(PyExc_ValueError, "labels: a tuple of one per pattern index");
		return NULL;
	}
	allocfunc tp_alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
	Engine *self = (Engine *)tp_alloc(type, 0);
	if (!self)
		return NULL;
	self->ids = (size_t)PyList_Size(patterns);
	self->set = acgrep_new(fold_ascii ? ACGREP_FOLD_ASCII : 0);
	if (!self->set) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	if (!add_patterns(self, patterns) || !take_index_of(self, index_of, (size_t)indexes)) {
		Py_DECREF(self);
		return NULL;
	}
	if (labels != Py_None) {
		Py_INCREF(labels);
		self->labels = labels;
	}
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = acgrep_compile(self->set);
	Py_END_ALLOW_THREADS
	if (rc != 0) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	return (PyObject *)self;
}

static PyObject *engine_type;

PyObject *engine_wrap(acgrep_set *set, uint32_t *index_of, PyObject *labels, void *image)
{
	allocfunc tp_alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)engine_type, Py_tp_alloc);
	Engine *self = (Engine *)tp_alloc((PyTypeObject *)engine_type, 0);
	if (!self) {
		acgrep_free(set);
		free(image);
		free(index_of);
		return NULL;
	}
	/* tp_alloc zeroed the rest */
	self->set = set;
	self->index_of = index_of;
	self->ids = acgrep_count(set);
	self->labels = labels;
	Py_XINCREF(labels);
	self->image = image;
	return (PyObject *)self;
}

/* The matches of the scan args asks for, offsets in the str's characters
 * for a str, in *hits: true, or false with a Python error. */
static bool collect(Engine *self, PyObject *args, struct hits *hits)
{
	Py_buffer view;
	struct scan s;
	bool is_str;
	if (!start_scan(self, args, &view, &s, &is_str))
		return false;
	s.want = COLLECT;
	bool ok = run_scan(&s);
	if (ok && is_str && (size_t)PyUnicode_GetLength(PyTuple_GetItem(args, 0)) != s.len) {
		Py_BEGIN_ALLOW_THREADS
		to_char_offsets(&s.hits, s.text);
		Py_END_ALLOW_THREADS
	}
	release_text(&view, is_str);
	if (!ok)
		free(s.hits.at);
	*hits = ok ? s.hits : (struct hits){.at = NULL};
	return ok;
}

static PyObject *engine_matches(PyObject *obj, PyObject *args)
{
	Engine *self = (Engine *)obj;
	struct hits hits;
	if (!collect(self, args, &hits))
		return NULL;
	Matches *it = PyObject_New(Matches, (PyTypeObject *)matches_type);
	if (!it) {
		free(hits.at);
		return NULL;
	}
	it->hits = hits;
	it->next = 0;
	it->labels = self->labels;
	Py_XINCREF(it->labels);
	return (PyObject *)it;
}

/* The matches as three bytes objects of native integers: the starts and
 * the ends (uint64) and the pattern indexes (uint32), no object per match. */
static PyObject *engine_arrays(PyObject *obj, PyObject *args)
{
	struct hits h;
	if (!collect((Engine *)obj, args, &h))
		return NULL;
	PyObject *starts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(h.len * sizeof(uint64_t)));
	PyObject *ends = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(h.len * sizeof(uint64_t)));
	PyObject *indexes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(h.len * sizeof(uint32_t)));
	if (starts && ends && indexes) {
		uint64_t *start = (uint64_t *)(void *)PyBytes_AsString(starts);
		uint64_t *end = (uint64_t *)(void *)PyBytes_AsString(ends);
		uint32_t *index = (uint32_t *)(void *)PyBytes_AsString(indexes);
		for (size_t i = 0; i < h.len; i++) {
			start[i] = h.at[i].start;
			end[i] = h.at[i].end;
			index[i] = h.at[i].index;
		}
	}
	free(h.at);
	if (!starts || !ends || !indexes) {
		Py_XDECREF(starts);
		Py_XDECREF(ends);
		Py_XDECREF(indexes);
		return NULL;
	}
	return Py_BuildValue("(NNN)", starts, ends, indexes);
}

static PyObject *engine_count(PyObject *obj, PyObject *args)
{
	Py_buffer view;
	struct scan s;
	bool is_str;
	if (!start_scan((Engine *)obj, args, &view, &s, &is_str))
		return NULL;
	s.want = COUNT;
	bool ok = run_scan(&s);
	release_text(&view, is_str);
	free(s.hits.at);
	return ok ? PyLong_FromSize_t(s.counted) : NULL;
}

static PyObject *engine_contains(PyObject *obj, PyObject *args)
{
	Py_buffer view;
	struct scan s;
	bool is_str;
	if (!start_scan((Engine *)obj, args, &view, &s, &is_str))
		return NULL;
	s.want = FIRST;
	bool ok = run_scan(&s);
	release_text(&view, is_str);
	free(s.hits.at);
	return ok ? PyBool_FromLong(s.counted > 0) : NULL;
}

static PyMethodDef engine_methods[] = {
	{"matches", engine_matches, METH_VARARGS,
	 "matches(data, overlapping, words, boundaries) -> iterator of (start, end, index or label)"},
	{"arrays", engine_arrays, METH_VARARGS,
	 "arrays(data, overlapping, words, boundaries) -> (starts, ends, indexes) as bytes"},
	{"count", engine_count, METH_VARARGS, "count(data, overlapping, words, boundaries) -> int"},
	{"contains", engine_contains, METH_VARARGS,
	 "contains(data, overlapping, words, boundaries) -> bool (stops at the first match)"},
	{NULL, NULL, 0, NULL},
};

static PyType_Slot engine_slots[] = {
	{Py_tp_doc, "Engine(patterns, fold_ascii, index_of, indexes, labels): a compiled libacgrep set."},
	{Py_tp_new, engine_new},
	{Py_tp_methods, engine_methods},
	{Py_tp_dealloc, engine_dealloc},
	{0, NULL},
};

static PyType_Spec engine_spec = {
	.name = "acgrep._engine.Engine",
	.basicsize = sizeof(Engine),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = engine_slots,
};

static int module_exec(PyObject *module)
{
	engine_type = PyType_FromSpec(&engine_spec);
	if (!engine_type)
		return -1;
	Py_INCREF(engine_type);
	if (PyModule_AddObject(module, "Engine", engine_type) != 0) {
		Py_DECREF(engine_type);
		return -1;
	}
	matches_type = PyType_FromSpec(&matches_spec);
	if (!matches_type)
		return -1;
	Py_INCREF(matches_type);
	if (PyModule_AddObject(module, "Matches", matches_type) != 0) {
		Py_DECREF(matches_type);
		return -1;
	}
	if (PyModule_AddFunctions(module, compiled_methods) != 0 ||
	    PyModule_AddFunctions(module, input_methods) != 0)
		return -1;
	return PyModule_AddStringConstant(module, "LIBACGREP_VERSION", acgrep_version());
}

static PyModuleDef_Slot module_slots[] = {
	{Py_mod_exec, module_exec},
	{0, NULL},
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "acgrep._engine",
	.m_doc = "libacgrep (acgrep's Aho-Corasick engine) for the acgrep module.",
	.m_size = 0,
	.m_methods = NULL,
	.m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__engine(void);
PyMODINIT_FUNC PyInit__engine(void)
{
	return PyModuleDef_Init(&module_def);
}
