// Clang 19 crashes on a few invalid programs (here, an operand of as_uint()
// broken by a control character, U+001F); libclang recovers and returns no
// translation unit. The error is located at the file, and no object is
// left behind (found by vast-fuzz).
// RUN: rm -f %t.o
// RUN: %not %vastcc -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// CHECK: parse-clang-crash-located.cl:1:1: error: clang crashed while parsing this file; vastcc cannot compile it
// CHECK-NOT: {{^(fatal )?error:}}
__kernel void k(__global uint *out) {
	uint4 mag = 0;
	out[0] = as_uint(convert_uchar4(mag));
}
