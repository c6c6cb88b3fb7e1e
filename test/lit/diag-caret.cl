// Under -fcaret-diagnostics, or when standard error is a terminal, a
// located diagnostic is followed by its source line and a caret under the
// column, as clang prints them: the line number in the margin, tabs
// expanded to 8 columns. -fno-caret-diagnostics (the last one wins), or
// standard error not a terminal, prints the diagnostic alone. gcc's
// spellings, -f[no-]diagnostics-show-caret, do the same.
// RUN: cd %S && %not %vastcc -fcaret-diagnostics -c diag-caret.cl -o %t.o 2>&1 | FileCheck %s --strict-whitespace --match-full-lines
// RUN: cd %S && %not %vastcc -fdiagnostics-show-caret -c diag-caret.cl -o %t.o 2>&1 | FileCheck %s --strict-whitespace --match-full-lines
// RUN: cd %S && %not %python Inputs/on_tty.py %vastcc -c diag-caret.cl -o %t.o | FileCheck %s --strict-whitespace --match-full-lines
// RUN: cd %S && %not %vastcc -c diag-caret.cl -o %t.o 2>&1 | FileCheck %s --check-prefix=PLAIN --implicit-check-not="|"
// RUN: cd %S && %not %vastcc -fcaret-diagnostics -fno-caret-diagnostics -c diag-caret.cl -o %t.o 2>&1 | FileCheck %s --check-prefix=PLAIN --implicit-check-not="|"
// RUN: cd %S && %not %python Inputs/on_tty.py %vastcc -fno-diagnostics-show-caret -c diag-caret.cl -o %t.o | FileCheck %s --check-prefix=PLAIN --implicit-check-not="|"
// CHECK:{{.*}}Inputs/caret/helper.h:2:44: error: use of undeclared identifier 'missing_in_header'
// CHECK-NEXT:    2 | float half_of(float x) { return x * HALF + missing_in_header; }
// CHECK-NEXT:      |                                            ^
// CHECK-NEXT:diag-caret.cl:[[@LINE+9]]:23: error: use of undeclared identifier 'undeclared'
// CHECK-NEXT:   [[@LINE+8]] |         c[i] = a[i] * HALF + undeclared;
// CHECK-NEXT:      |                              ^
// PLAIN:{{.*}}Inputs/caret/helper.h:2:44: error: use of undeclared identifier 'missing_in_header'
// PLAIN-NEXT:diag-caret.cl:[[@LINE+5]]:23: error: use of undeclared identifier 'undeclared'
#include "Inputs/caret/helper.h"
__kernel void vadd(__global const float *a, __global float *c)
{
	size_t i = get_global_id(0);
	c[i] = a[i] * HALF + undeclared;
}
