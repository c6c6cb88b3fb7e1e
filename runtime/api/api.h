/* SPDX-License-Identifier: MIT */
/*
 * api.h - api/, the top layer: the OpenCL surface. The exported entry
 * points, thin wrappers over the vrt_api_ functions (entry.c), the
 * transfers (transfer.c) and the functions found by name
 * (extension.c, extensions.def). Uses launch/ and every folder below it.
 */
#ifndef VRT_API_H
#define VRT_API_H

#include "launch/launch.h"

#endif
