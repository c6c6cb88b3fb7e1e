/* SPDX-License-Identifier: MIT */
/*
 * stub_strict.c - a translation unit that uses all of vast/stub.h: every
 * struct laid out, the hash, the constants and the tail table expanded.
 * stub_strict.sh compiles it as C89, C99 and C++ under the strictest
 * flags of gcc and clang, and runs the hash, spelled without C99's ull
 * there. Plain C89 and valid C++ alike; no OpenCL header.
 */
#include "vast/stub.h"

unsigned long vast_strict_sizes(void);
int vast_strict_tail_rows(unsigned variant);

unsigned long vast_strict_sizes(void)
{
	return sizeof(vast_param_info) + sizeof(vast_kernel_info) + sizeof(vast_device_macro) +
	       sizeof(vast_fp_term) + sizeof(vast_fp_form) + sizeof(vast_fp_loop) +
	       sizeof(vast_fp_check) + sizeof(vast_footprint) + sizeof(vast_kernel_footprints) +
	       sizeof(vast_program_info) + VAST_PASINFO_SCRATCH(3u) + VAST_LPT_TABLE(2u) +
	       VAST_PASINFO_BYTES(3u, 2u) + VAST_FP_NAME(VAST_FP_LOOP, 2u);
}

/* How many tail arguments variant v takes besides the repeated ones. */
int vast_strict_tail_rows(unsigned variant)
{
	int n = 0;
#define VAST_STRICT_ROW(name, count, each, cltype, host, i, p, s, pi)     \
	if (VAST_TAIL_AT(variant, i, p, s, pi) != VAST_TAIL_NO && !(each))    \
		n += (count);
	VAST_TAIL_ARGS(VAST_STRICT_ROW)
#undef VAST_STRICT_ROW
	return n;
}

#ifdef VAST_STRICT_MAIN
/* The hash of "vast" (FNV-1a 64, as Python computes it) and the
 * inspector's 8 and the paged kernel's 15 fixed tail arguments. */
int main(void)
{
	vast_u64 want = (VAST_CAST(vast_u64, 0x43552b00u) << 32) | 0xedc39bffu;
	vast_u64 boxed = VAST_BOXED;
	return vast_hash_bytes(VAST_HASH_SEED, "vast", 4) != want || boxed + 1 != 0 ||
	       vast_strict_tail_rows(VAST_HAS_INSPECT) != 8 ||
	       vast_strict_tail_rows(VAST_HAS_PAGED) != 2 * VAST_FRAME_BUFS - 1 ||
	       vast_strict_sizes() == 0;
}
#endif
