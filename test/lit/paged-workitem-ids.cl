// Partial execution: every work-item function becomes the prelude's vast_
// version fed by the original geometry (get_group_id, get_num_groups,
// get_global_size... are rebuilt, not just offset), in the kernel, in
// helpers and in every variant. The original kernel keeps the builtins.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c paged-workitem-ids.cl -o %t.o
// RUN: FileCheck %s < %t/paged-workitem-ids.vast.cl

size_t flat(void)
{
	return get_global_id(1) * get_global_size(0) + get_global_id(0);
}

__kernel void ids(__global ulong *out)
{
	size_t i = flat();
	out[i * 12 + 0] = get_local_id(2);
	out[i * 12 + 1] = get_group_id(1);
	out[i * 12 + 2] = get_num_groups(0);
	out[i * 12 + 3] = get_local_size(1);
	out[i * 12 + 4] = get_global_offset(0);
	out[i * 12 + 5] = get_work_dim();
	out[i * 12 + 6] = get_global_size(2);
}

// CHECK-LABEL: {{^}}__kernel void ids(__global ulong *out)
// CHECK: size_t i = flat();
// CHECK: = get_local_id(2);
// CHECK-LABEL: {{^}}size_t vast_paged_flat(vast_ctx *vast_c)
// CHECK: return vast_get_global_id(vast_c, 1) * vast_get_global_size(vast_c, 0) + vast_get_global_id(vast_c, 0);
// CHECK-LABEL: {{^}}__kernel void vast_paged_ids(
// CHECK: size_t i = vast_paged_flat(vast_c);
// CHECK: = vast_get_local_id(vast_c, 2);
// CHECK: = vast_get_group_id(vast_c, 1);
// CHECK: = vast_get_num_groups(vast_c, 0);
// CHECK: = vast_get_local_size(vast_c, 1);
// CHECK: = vast_get_global_offset(vast_c, 0);
// CHECK: = vast_get_work_dim(vast_c);
// CHECK: = vast_get_global_size(vast_c, 2);
