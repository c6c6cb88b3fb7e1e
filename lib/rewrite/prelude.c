/* SPDX-License-Identifier: MIT */
/*
 * prelude.c - the OpenCL C prelude of every generated program: the text of
 * prelude.cl, embedded at build time by embed.cmake as a byte array (so the
 * file stays plain OpenCL C that can be built and read on its own).
 */
#include "rewrite.h"

const char rw_prelude_text[] = {
#include "prelude.inc"
};
