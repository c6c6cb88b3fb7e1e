// clang stops after 20 errors with "too many errors emitted", a
// diagnostic without a location of its own: vastcc prints it at the
// place where clang stopped, so every error carries file:line:col.
// RUN: %not %vastcc -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: diag-error-limit-located.cl:26:45: error: use of undeclared identifier 'u18'
// CHECK-NEXT: diag-error-limit-located.cl:26:45: error: too many errors emitted, stopping now
// CHECK-NOT: error:
__kernel void k0(__global int *a) { a[0] = u0; }
__kernel void k1(__global int *a) { a[0] = u1; }
__kernel void k2(__global int *a) { a[0] = u2; }
__kernel void k3(__global int *a) { a[0] = u3; }
__kernel void k4(__global int *a) { a[0] = u4; }
__kernel void k5(__global int *a) { a[0] = u5; }
__kernel void k6(__global int *a) { a[0] = u6; }
__kernel void k7(__global int *a) { a[0] = u7; }
__kernel void k8(__global int *a) { a[0] = u8; }
__kernel void k9(__global int *a) { a[0] = u9; }
__kernel void k10(__global int *a) { a[0] = u10; }
__kernel void k11(__global int *a) { a[0] = u11; }
__kernel void k12(__global int *a) { a[0] = u12; }
__kernel void k13(__global int *a) { a[0] = u13; }
__kernel void k14(__global int *a) { a[0] = u14; }
__kernel void k15(__global int *a) { a[0] = u15; }
__kernel void k16(__global int *a) { a[0] = u16; }
__kernel void k17(__global int *a) { a[0] = u17; }
__kernel void k18(__global int *a) { a[0] = u18; }
__kernel void k19(__global int *a) { a[0] = u19; }
__kernel void k20(__global int *a) { a[0] = u20; }
__kernel void k21(__global int *a) { a[0] = u21; }
