/* print_internal.h - what print.c (the formats) and print_buffer.c (the
 * output buffer) share.  Nothing outside the printer includes it.
 */
#ifndef ACGREP_PRINT_INTERNAL_H
#define ACGREP_PRINT_INTERNAL_H

#include <stddef.h>

#include "print.h"

/* The output buffer's size (a hold may grow it for a while). */
#define OUT_BUFFER (256u << 10)

/* The slow path of print.c's out(): appends p[0..n) to the buffer,
 * flushing it as it fills (or growing it while output is held). */
void printer_out_slow(struct printer *pr, const void *p, size_t n);

#endif
