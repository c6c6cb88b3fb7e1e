// A warning shows its line and caret too; a file with a #line directive
// shows none, its locations naming other lines than those in the file.
// RUN: cd %S && %vastcc -fcaret-diagnostics -c diag-caret-warning.cl -o %t.o 2>&1 | FileCheck %s --strict-whitespace
// RUN: rm -rf %t && mkdir -p %t && printf '#line 1\n' > %t/k.cl && cat %s >> %t/k.cl
// RUN: cd %t && %vastcc -fcaret-diagnostics -c k.cl -o k.o 2>&1 | FileCheck %s --check-prefix=LINE --implicit-check-not="|"
// CHECK:diag-caret-warning.cl:[[@LINE+6]]:{{[0-9]+}}: warning: kernel 'addr' cannot be virtualized:
// CHECK-NEXT:{{^}}   [[@LINE+5]] |         out[get_global_id(0)] = (ulong)(a + get_global_id(0));
// CHECK-NEXT:{{^      \| +\^$}}
// LINE:k.cl:[[@LINE+3]]:{{[0-9]+}}: warning: kernel 'addr' cannot be virtualized:
__kernel void addr(__global float *a, __global ulong *out)
{
	out[get_global_id(0)] = (ulong)(a + get_global_id(0));
}
