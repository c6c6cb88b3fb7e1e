// The inspector is a backward slice: statements that feed only stored
// values (pure computation) are dropped, keeping their newlines; what feeds
// an address or a branch around an access is kept; accesses become touches.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c inspect-slice.cl -o %t.o
// RUN: FileCheck %s < %t/inspect-slice.vast.cl

__kernel void blur(__global const float *in, __global float *out, int w, float k)
{
	int x = get_global_id(0);
	int y = get_global_id(1);
	float acc = 0.0f;
	float norm = k * k + 1.0f;
	int base = y * w;
	if (x >= w)
		return;
	for (int d = -1; d <= 1; d++) {
		float t = in[base + x + d];
		acc += t * norm;
	}
	acc = sqrt(acc) / norm;
	out[base + x] = acc;
}

// CHECK-LABEL: {{^}}__kernel void vast_inspect_blur(
// CHECK: int x = vast_get_global_id(vast_c, 0);
// CHECK-NEXT: int y = vast_get_global_id(vast_c, 1);
// CHECK-NEXT: {{^[[:blank:]]*;$}}
// CHECK-NEXT: {{^[[:blank:]]*;$}}
// CHECK-NEXT: int base = y * w;
// CHECK-NEXT: if (x >= w)
// CHECK-NEXT: return;
// CHECK-NEXT: for (int d = -1; d <= 1; d++) {
// CHECK-NEXT: { vast_touch(vast_c, (ulong)&(in[base + x + d]), 4); }
// CHECK-NEXT: {{^[[:blank:]]*;$}}
// CHECK-NEXT: }
// CHECK-NEXT: {{^[[:blank:]]*;$}}
// CHECK-NEXT: { vast_touch(vast_c, (ulong)&(out[base + x]), 4); }
// CHECK-NOT: sqrt
// CHECK-NOT: norm
// CHECK-LABEL: {{^}}__kernel void vast_paged_blur(
// CHECK: float norm = k * k + 1.0f;
// CHECK: acc = sqrt(acc) / norm;
