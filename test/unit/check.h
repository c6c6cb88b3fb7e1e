/* SPDX-License-Identifier: MIT */
/*
 * check.h - the unit tests' CHECK(c): a condition that does not hold is
 * reported with its file and line and counted in `failures`, which each
 * test's main turns into its exit status.
 */
#ifndef VAST_TEST_CHECK_H
#define VAST_TEST_CHECK_H

#include <stdio.h>

static int failures;
#define CHECK(c)                                                           \
	do {                                                               \
		if (!(c)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			        __LINE__, #c);                             \
			failures++;                                        \
		}                                                          \
	} while (0)

#endif
