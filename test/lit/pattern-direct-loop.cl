// Direct: the address is computed from ids, scalars and constants only, but
// not affinely (division, modulo, a loop-carried update). The inspector
// needs no data: it keeps the loop and the arithmetic, and touches.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c pattern-direct-loop.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/pattern-direct-loop.vast.cl

// CHECK-LABEL: kernel gather:
// CHECK: param gather.in: {{.*}} mode=R {{.*}} pattern=direct inspect_reads=false
// CHECK: param gather.out: {{.*}} mode=W {{.*}} pattern=affine inspect_reads=false
__kernel void gather(__global const float *in, __global float *out, int n)
{
	int i = get_global_id(0);
	float s = 0.0f;
	int j = i;
	for (int k = 0; k < 4; k++) {
// CHECK: access gather [[@LINE+1]]:8: form=subscript mode=R size=4 params=in pattern=direct {{.*}} inspect=touch
		s += in[j % n];
		j = j * 3 + 1;
	}
	out[i] = s;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_gather(
// INSPECT-NOT: __global uchar *vast_data_in
// INSPECT: int j = i;
// INSPECT: for (int k = 0; k < 4; k++) {
// INSPECT: vast_touch(vast_c, (ulong)&(in[j % n]), 4);
// INSPECT: j = j * 3 + 1;
