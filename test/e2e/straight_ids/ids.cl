/* SPDX-License-Identifier: MIT */
/*
 * Every work-item function, recorded per work-item, for
 * test/e2e/straight_ids.sh: the straight kernel runs N-D boxes of the
 * original groups with a global offset (runtime/plan/groupbox.c) and must see
 * the ids of the original launch. Records are laid out group after group
 * (flattened, dimension 0 fastest), so a range of groups writes one run
 * of `out` and reads one of `in`: the straight kernel runs it.
 */
#define NREC 24

void record(__global ulong *out, __global const uint *in)
{
	size_t flat = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) +
	              get_group_id(0);
	size_t lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
	size_t llin = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
	              get_local_id(0);
	size_t i = flat * lsz + llin;
	__global ulong *r = out + i * NREC;
	for (uint d = 0; d < 3; d++) {
		r[d] = get_global_id(d);
		r[3 + d] = get_local_id(d);
		r[6 + d] = get_group_id(d);
		r[9 + d] = get_num_groups(d);
		r[12 + d] = get_global_size(d);
		r[15 + d] = get_local_size(d);
		r[18 + d] = get_global_offset(d);
	}
	r[21] = get_work_dim();
	r[22] = in[i];
	r[23] = get_global_id(3) + get_group_id(3); /* out of range: 0 */
}

__kernel __attribute__((reqd_work_group_size(4, 2, 2)))
void ids3(__global ulong *out, __global const uint *in)
{
	record(out, in);
}

__kernel void ids2(__global ulong *out, __global const uint *in)
{
	record(out, in);
}
