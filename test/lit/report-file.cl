// --report=FILE writes the JSON to FILE (atomically) and nothing on stdout;
// a second .cl input with --report=FILE is refused.
// RUN: rm -f %t.json && cd %S && %vastcc --report=%t.json -c report-file.cl -o %t.o > %t.stdout
// RUN: %flatjson %t.json | FileCheck %s
// RUN: count 0 < %t.stdout
// RUN: cd %S && %not %vastcc --report=%t.two.json -c report-file.cl report-file.cl 2>&1 | FileCheck --check-prefix=TWO %s
// RUN: not ls %t.two.json

// CHECK: file report-file.cl cl_options=""
// CHECK-NEXT: kernel k: line=[[@LINE+3]] col=1 virtualizable=true merge_exact=true
// CHECK-NEXT: param k.a: index=0 kind=global
// TWO: vastcc: error: --report=FILE takes one .cl input; use --report=- for several
__kernel void k(__global int *a)
{
	a[0] = 1;
}
