/* SPDX-License-Identifier: MIT */
/* stub_vadd.c - hand-written host stub for vadd.cl (see stub_common.h). */
#include "stub_common.h"

RT_INCBIN(rt_vadd_prelude, RT_PRELUDE);
RT_INCBIN(rt_vadd_source, RT_SRC_DIR "/vadd.cl");
RT_INCBIN(rt_vadd_variants, RT_SRC_DIR "/vadd.variants.cl");

static const vast_param_info vadd_params[] = {
	{ "a", VAST_PARAM_GLOBAL, VAST_MODE_R, VAST_PAT_AFFINE, 4, 0 },
	{ "b", VAST_PARAM_GLOBAL, VAST_MODE_R, VAST_PAT_AFFINE, 4, 0 },
	{ "c", VAST_PARAM_GLOBAL, VAST_MODE_W, VAST_PAT_AFFINE, 4, 0 },
	{ "n", VAST_PARAM_SCALAR, VAST_MODE_NONE, VAST_PAT_NONE, 0, 0 },
};
static const vast_param_info evens_params[] = {
	{ "a", VAST_PARAM_GLOBAL, VAST_MODE_W, VAST_PAT_AFFINE, 4, 0 },
	{ "n", VAST_PARAM_SCALAR, VAST_MODE_NONE, VAST_PAT_NONE, 0, 0 },
};
static const vast_param_info copy1_params[] = {
	{ "a", VAST_PARAM_GLOBAL, VAST_MODE_R, VAST_PAT_AFFINE, 4, 0 },
	{ "b", VAST_PARAM_GLOBAL, VAST_MODE_W, VAST_PAT_AFFINE, 4, 0 },
};
static const vast_kernel_info kernels[] = {
	{ "vadd", 4, vadd_params, VAST_HAS_INSPECT | VAST_HAS_PAGED, 1, NULL, NULL, 1, 0 },
	{ "evens", 2, evens_params, VAST_HAS_INSPECT | VAST_HAS_PAGED, 1, NULL, NULL, 1, 0 },
	{ "copy1", 2, copy1_params, VAST_HAS_INSPECT | VAST_HAS_PAGED, 1, NULL, NULL, 1, 0 },
};
static vast_program_info program = {
	VAST_STUB_ABI_VERSION, "vadd.cl", 0, 0, RT_CL_OPTIONS, NULL, 3, kernels, "vast_", 0, NULL, NULL
};

#ifdef RT_BROKEN_VARIANTS
/* rt/lazy_build: variants the driver rejects beside original kernels it
 * builds (the program's own source). */
static const char *const variants = "\n#error the variants of this test do not build\n";
#else
static const char *const variants = rt_vadd_variants;
#endif

__attribute__((constructor)) static void register_vadd(void)
{
	program.source_size = strlen(rt_vadd_source);
	program.source_hash = vast_hash_bytes(VAST_HASH_SEED, rt_vadd_source, program.source_size);
	program.generated_source = rt_generated_source(rt_vadd_prelude, "#line 1 \"vadd.cl\"\n",
	                                               rt_vadd_source, variants);
	vast_register_program(&program);
}
