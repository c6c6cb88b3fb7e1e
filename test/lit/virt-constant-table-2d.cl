// A lookup in a program-scope __constant table is part of the program,
// whatever the table's rank: `lut[1][k]` (a row that decays to a pointer,
// then the element) and `t[i].row[k]` of a table of structs are left alone
// like `lut[k]`, so the kernel is virtualizable. A pointer variable into
// such a table is still one vastcc does not follow.
// RUN: cd %S && %vastcc --report=- -c virt-constant-table-2d.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

__constant uint lut[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};

// CHECK-LABEL: kernel two_d: {{.*}} virtualizable=true merge_exact=true
// CHECK-NOT: params= pattern
// CHECK: access two_d [[@LINE+5]]:2: form=subscript mode=W size=4 params=out
// CHECK-NEXT: footprint two_d [[@LINE+4]]:2: affine=true
__kernel void two_d(__global const uint *in, __global uint *out)
{
	int i = get_global_id(0);
	out[i] = lut[1][in[i] & 3] ^ lut[in[i] >> 31][0];
}

// CRC32 slice-by-2 over a [2][256] table, the shape of crc32_slice8.
__constant uint crc_table[2][256] = {{0x00000000u, 0x77073096u, 0xee0e612cu},
                                     {0x00000000u, 0x191b3141u, 0x32366282u}};

// CHECK-LABEL: kernel crc: {{.*}} virtualizable=true merge_exact=true
__kernel void crc(__global const uint *data, uint n, __global uint *res)
{
	uint c = 0xffffffffu;
	size_t i = get_global_id(0) * n;
	for (uint k = 0; k < n; k++) {
		uint one = data[i + k] ^ c;
		c = crc_table[1][one & 0xff] ^ crc_table[0][(one >> 8) & 0xff] ^ (one >> 16);
	}
	res[get_global_id(0)] = ~c;
}

typedef struct { uint row[4]; uint k; } tab_t;
__constant tab_t tabs[2] = {{{1, 2, 3, 4}, 5}, {{6, 7, 8, 9}, 10}};

// CHECK-LABEL: kernel rows: {{.*}} virtualizable=true merge_exact=true
__kernel void rows(__global const uint *in, __global uint *out)
{
	int i = get_global_id(0);
	out[i] = tabs[in[i] & 1].row[in[i] & 3] + tabs[1].k;
}

// CHECK-LABEL: kernel through_ptr: {{.*}} virtualizable=false reason="a pointer that may point into a program-scope __constant variable"
__kernel void through_ptr(__global const uint *in, __global uint *out)
{
	int i = get_global_id(0);
	__constant uint *r = lut[1];
	out[i] = r[in[i] & 3];
}

// WARN-NOT: kernel 'two_d'
// WARN-NOT: kernel 'crc'
// WARN-NOT: kernel 'rows'
// WARN: warning: kernel 'through_ptr' cannot be virtualized: a pointer that may point into a program-scope __constant variable
