// Direct: an access under a branch on ids and scalars (a boundary test) is
// direct; the inspector keeps the branch around the touch.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c pattern-direct-branch.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/pattern-direct-branch.vast.cl

// CHECK-LABEL: kernel clamp_copy:
// CHECK: param clamp_copy.in: {{.*}} pattern=direct inspect_reads=false
__kernel void clamp_copy(__global const int *in, __global int *out, int w)
{
	int x = get_global_id(0);
	int v;
	if (x > 0 && x < w - 1)
// CHECK: access clamp_copy [[@LINE+1]]:7: form=subscript mode=R size=4 params=in pattern={{affine|direct}}
		v = in[x - 1] + in[x + 1];
	else
// CHECK: access clamp_copy [[@LINE+1]]:7: form=subscript mode=R size=4 params=in pattern=direct
		v = in[x < 1 ? 0 : w - 1];
	out[x] = v;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_clamp_copy(
// INSPECT: if (x > 0 && x < w - 1)
// INSPECT: { vast_touch(vast_c, (ulong)&(in[x - 1]), 4); vast_touch(vast_c, (ulong)&(in[x + 1]), 4); }
// INSPECT: else
// INSPECT: { vast_touch(vast_c, (ulong)&(in[x < 1 ? 0 : w - 1]), 4); }
