// An inspector's load outside its buffers reads the zeros at the end of
// pasinfo instead (VAST_INSPECT_SCRATCH bytes, prelude.cl vast_load): a
// load whose value feeds addresses may be at most that wide. A 256-byte
// struct read whole is refused; its field read alone is a 4-byte load.
// RUN: cd %S && %vastcc --report=- -c novirt-inspector-wide-load.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

struct rec { int idx; int pad[63]; };

__kernel void wide(__global const struct rec *r, __global float *out)
{
	struct rec x = r[get_global_id(0)];
	out[x.idx] = 1.0f;
}

__kernel void field(__global const struct rec *r, __global float *out)
{
	out[r[get_global_id(0)].idx] = 1.0f;
}

// CHECK: kernel wide: {{.*}} virtualizable=false reason="addresses depend on a global access of 256 bytes, more than the inspector checks (128)" reason_line=12 reason_col=17
// CHECK: kernel field: {{.*}} virtualizable=true
// WARN: novirt-inspector-wide-load.cl:12:17: warning: kernel 'wide' cannot be virtualized: addresses depend on a global access of 256 bytes, more than the inspector checks (128); it runs natively when its data fits
