/* SPDX-License-Identifier: MIT */
/*
 * prefix.h - the install prefix of the running tool, shared by vastcc and
 * vastrun.
 */
#ifndef VAST_TOOL_PREFIX_H
#define VAST_TOOL_PREFIX_H

#include <stdbool.h>
#include <stddef.h>

/* Writes "<prefix>" into dir, where the running executable is
 * <prefix>/bin/NAME; false when /proc/self/exe cannot be read or the path
 * does not fit. Not thread-safe (the tools are single-threaded). */
bool tool_prefix(char *dir, size_t size);

#endif
