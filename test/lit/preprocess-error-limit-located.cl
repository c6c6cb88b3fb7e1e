// clang -E stops after 20 errors with "too many errors emitted", a
// diagnostic without a location: vastcc runs it with no error limit, so
// every error of the preprocessor carries file:line:col (found by vast-fuzz).
// RUN: %not %vastcc -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: preprocess-error-limit-located.cl:[[@LINE+4]]:{{[0-9]+}}: error: too many arguments provided to function-like macro invocation
// CHECK: preprocess-error-limit-located.cl:[[@LINE+23]]:{{[0-9]+}}: error: too many arguments provided to function-like macro invocation
// CHECK-NOT: {{^(fatal )?error:}}
#define ONE(a) (a)
__kernel void k0(__global int *p) { p[0] = ONE(1, 0); }
__kernel void k1(__global int *p) { p[0] = ONE(1, 1); }
__kernel void k2(__global int *p) { p[0] = ONE(1, 2); }
__kernel void k3(__global int *p) { p[0] = ONE(1, 3); }
__kernel void k4(__global int *p) { p[0] = ONE(1, 4); }
__kernel void k5(__global int *p) { p[0] = ONE(1, 5); }
__kernel void k6(__global int *p) { p[0] = ONE(1, 6); }
__kernel void k7(__global int *p) { p[0] = ONE(1, 7); }
__kernel void k8(__global int *p) { p[0] = ONE(1, 8); }
__kernel void k9(__global int *p) { p[0] = ONE(1, 9); }
__kernel void k10(__global int *p) { p[0] = ONE(1, 10); }
__kernel void k11(__global int *p) { p[0] = ONE(1, 11); }
__kernel void k12(__global int *p) { p[0] = ONE(1, 12); }
__kernel void k13(__global int *p) { p[0] = ONE(1, 13); }
__kernel void k14(__global int *p) { p[0] = ONE(1, 14); }
__kernel void k15(__global int *p) { p[0] = ONE(1, 15); }
__kernel void k16(__global int *p) { p[0] = ONE(1, 16); }
__kernel void k17(__global int *p) { p[0] = ONE(1, 17); }
__kernel void k18(__global int *p) { p[0] = ONE(1, 18); }
__kernel void k19(__global int *p) { p[0] = ONE(1, 19); }
__kernel void k20(__global int *p) { p[0] = ONE(1, 20); }
