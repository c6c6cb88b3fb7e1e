/* SPDX-License-Identifier: MIT */
/* stub_spmv.c - hand-written host stub for spmv.cl (see stub_common.h). */
#include "stub_common.h"

RT_INCBIN(rt_spmv_prelude, RT_PRELUDE);
RT_INCBIN(rt_spmv_source, RT_SRC_DIR "/spmv.cl");
RT_INCBIN(rt_spmv_variants, RT_SRC_DIR "/spmv.variants.cl");

static const vast_param_info spmv_params[] = {
	{ "rowptr", VAST_PARAM_GLOBAL, VAST_MODE_R, VAST_PAT_AFFINE, 4, 1 },
	{ "col", VAST_PARAM_GLOBAL, VAST_MODE_R, VAST_PAT_DIRECT, 4, 1 },
	{ "val", VAST_PARAM_GLOBAL, VAST_MODE_R, VAST_PAT_DIRECT, 4, 0 },
	{ "x", VAST_PARAM_GLOBAL, VAST_MODE_R, VAST_PAT_INDIRECT, 4, 0 },
	{ "y", VAST_PARAM_GLOBAL, VAST_MODE_W, VAST_PAT_AFFINE, 4, 0 },
	{ "nrows", VAST_PARAM_SCALAR, VAST_MODE_NONE, VAST_PAT_NONE, 0, 0 },
};
static const vast_kernel_info kernels[] = {
	{ "spmv", 6, spmv_params, VAST_HAS_INSPECT | VAST_HAS_PAGED, 1, NULL, NULL, 1, 0 },
};
static vast_program_info program = {
	VAST_STUB_ABI_VERSION, "spmv.cl", 0, 0, "", NULL, 1, kernels, "vast_", 0, NULL, NULL
};

__attribute__((constructor)) static void register_spmv(void)
{
	program.source_size = strlen(rt_spmv_source);
	program.source_hash = vast_hash_bytes(VAST_HASH_SEED, rt_spmv_source, program.source_size);
	program.generated_source = rt_generated_source(rt_spmv_prelude, "#line 1 \"spmv.cl\"\n",
	                                               rt_spmv_source, rt_spmv_variants);
	vast_register_program(&program);
}
