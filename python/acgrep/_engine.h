/* SPDX-License-Identifier: MIT */
/* _engine.h - what _engine.c (the Engine type, the module) and
 * _compiled.c (compiled pattern sets) share.
 */
#ifndef ACGREP_PY_ENGINE_H
#define ACGREP_PY_ENGINE_H

#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "acgrep.h"

/* A new Engine scanning with `set`, a compiled set it takes, reporting
 * engine id i as index_of[i] (taken, from malloc; NULL: i itself) or, with
 * labels (a tuple, not taken), as labels[index]; `image` (taken, from
 * malloc, or NULL) is freed after the set, whose tables it holds.  On
 * failure, NULL with a Python error, everything taken freed. */
PyObject *engine_wrap(acgrep_set *set, uint32_t *index_of, PyObject *labels, void *image);

/* load_image and save (_compiled.c); decompressed (_input.c). */
extern PyMethodDef compiled_methods[];
extern PyMethodDef input_methods[];

#endif
