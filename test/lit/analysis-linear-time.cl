// vastcc's time grows with a kernel's size, not its square: 40,000
// statements `a[0] += a[k];` under an early return, and one sum of 40,000
// terms, are each analysed, rewritten and written out as a stub within the
// generous bound below (about 3 s and 1 s of CPU on a loaded 2-core
// machine; minutes while each access's descriptor, taint and slice walked
// every node of the kernel or every operator above it, libclang's extent
// of each operator walked its left operand, and the rewrite and the report
// looked through every access for each statement or access). The stub's
// compilation is the C compiler's time, not vastcc's (36 MB of tables and
// program text here): VAST_CC=true skips it. The kernels are generated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "print('__kernel void stmts(__global float *a, uint n)\n{\n\tif (get_global_id(0) >= n)\n\t\treturn;\n' + ''.join('\ta[0] += a[%%d];\n' %% k for k in range(1, 40001)) + '}')" > %t/stmts.cl
// RUN: %python -c "print('__kernel void sum(__global const float *a, __global float *o)\n{\n\to[get_global_id(0)] = ' + ' + '.join('a[%%d]' %% k for k in range(1, 40001)) + ';\n}')" > %t/sum.cl
// RUN: cd %t && env VAST_CC=true timeout 60 %vastcc --report=stmts.json -c stmts.cl -o stmts.o
// RUN: %flatjson < %t/stmts.json > %t/stmts.flat
// RUN: FileCheck --check-prefix=STMTS %s < %t/stmts.flat
// RUN: grep -c "^footprint stmts .* guards=\"n - lsz0\*grp0 - lid0 - goff0 - 1\" checks= exact=true" %t/stmts.flat | FileCheck --check-prefix=COUNT %s
// RUN: cd %t && env VAST_CC=true timeout 60 %vastcc --report=sum.json -c sum.cl -o sum.o
// RUN: %flatjson < %t/sum.json > %t/sum.flat
// RUN: FileCheck --check-prefix=SUM %s < %t/sum.flat
// RUN: grep -c "^footprint sum 3:[0-9]*: affine=true offset=[0-9]* loops= guards= checks= exact=true must_write=false" %t/sum.flat | FileCheck --check-prefix=TERMS %s

// STMTS-LABEL: kernel stmts: {{.*}} virtualizable=true merge_exact=true
// STMTS: access stmts 5:2: form=subscript mode=RW {{.*}} inspect=touch merge=copy
// STMTS-NEXT: footprint stmts 5:2: affine=true offset=0 loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks= exact=true must_write=true
// STMTS-NEXT: access stmts 5:10: form=subscript mode=R {{.*}} inspect=touch merge=drop
// STMTS-NEXT: footprint stmts 5:10: affine=true offset=4 loops=
// STMTS: access stmts 40004:10: form=subscript mode=R
// STMTS-NEXT: footprint stmts 40004:10: affine=true offset=160000 loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks= exact=true must_write=false
// COUNT: {{^}}80000{{$}}

// SUM-LABEL: kernel sum: {{.*}} virtualizable=true
// SUM: access sum 3:2: form=subscript mode=W size=4 params=o pattern=affine
// SUM-NEXT: footprint sum 3:2: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks= exact=true must_write=true
// SUM-NEXT: access sum 3:24: form=subscript mode=R size=4 params=a pattern=affine
// SUM-NEXT: footprint sum 3:24: affine=true offset=4 loops= guards= checks= exact=true must_write=false
// SUM: access sum 3:428907: form=subscript mode=R size=4 params=a pattern=affine
// SUM-NEXT: footprint sum 3:428907: affine=true offset=160000 loops= guards= checks= exact=true must_write=false
// TERMS: {{^}}40000{{$}}
