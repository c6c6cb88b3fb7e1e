/* SPDX-License-Identifier: MIT */
#define SCALE 1.0f
