/* SPDX-License-Identifier: MIT */
/*
 * inspect.h - inspect/: the inspectors, which find the pages each
 * work-group touches where descriptors cannot: on the CPU (inspect.c),
 * on the launch's own device through frames (pinspect.c), and what they
 * share (pasrun.c). Uses program/ and the folders below it.
 */
#ifndef VRT_INSPECT_H
#define VRT_INSPECT_H

#include "program/program.h"

#pragma GCC visibility push(hidden)

/* --- inspect.c: the inspector on the CPU -------------------------------- */
/* Runs the inspector over groups [first_row*wpp, ...) and fills rows. */
cl_int vrt_inspect_run(vrt_launch *L, const vrt_layout *lay, size_t wpp,
                       unsigned char *rows, size_t nrows);

/* --- pasrun.c, for inspect.c and pinspect.c ----------------------------- */
/* The device PAS is cut into chunks of at most this many bytes. */
#define VRT_PAS_CHUNK_BYTES (64u << 20)
/* The PAS description of lay and wpp (docs/generated-kernels.md) as a
 * read-only buffer of ctx, NULL with *err on failure. */
cl_mem vrt_pasinfo_new(cl_context ctx, const vrt_layout *lay, size_t wpp, cl_int *err);
/* Rows [r0, r1) of L's PAS into rows + r0 * row_bytes: zeroes pas, runs
 * inspector kin (variant `kind`: VAST_HAS_INSPECT or VAST_HAS_PINSPECT)
 * on q over those rows' groups, its first group set, reads them back; q
 * is finished between steps. */
cl_int vrt_inspect_rows(vrt_launch *L, cl_command_queue q, cl_kernel kin, unsigned kind,
                        cl_mem pas, const vrt_layout *lay, size_t wpp, size_t r0, size_t r1,
                        unsigned char *rows);

/* --- pinspect.c --------------------------------------------------------- */
/* The paged inspector vast_pinspect_K on L's own device, for
 * an inspector whose data passes the budget. *ran = 0 (rows undefined)
 * when it cannot run: no such variant, no descriptors for the buffers it
 * reads, a row's pages too many, or a fault; the caller then inspects on
 * the CPU. An error only for a device or host failure. */
cl_int vrt_inspect_paged(vrt_launch *L, const vrt_layout *lay, size_t wpp, unsigned char *rows,
                         size_t nrows, int *ran);

#pragma GCC visibility pop
#endif
