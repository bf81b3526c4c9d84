/* SPDX-License-Identifier: MIT */
/* merge.h - --merge: record streams (records.h) into the output of one run.
 *
 * Owns: turning the records of every range of every file, from however
 * many jobs, into exactly what one acgrep run over those files prints
 * (stdout, the messages on stderr and the exit status): files in the
 * order the streams first name them, each file's ranges in file order,
 * line numbers rebased from the ranges' own line counts, counts summed,
 * -m applied after ordering, context and group separators as one run
 * prints them at the ranges' borders.  Before printing anything it checks
 * that the streams are whole, made with this run's search options and
 * patterns, and that each file's ranges cover it exactly once; otherwise
 * it prints why and prints nothing else (status 2).
 */
#ifndef ACGREP_MERGE_H
#define ACGREP_MERGE_H

#include "run/run.h"

/* Merges the record streams named by r->scaleout's operands ("-" or none:
 * standard input) through r's printer and searcher (whose matcher finds
 * the matches -o and --color print).  Sets r->matched, r->trouble and
 * r->stop as a run over the files would. */
void merge_run(struct run *r);

#endif
