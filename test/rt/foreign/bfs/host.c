/* SPDX-License-Identifier: MIT */
/*
 * bfs - breadth-first search over a random graph, written the way
 * Rodinia's OpenCL BFS is: the kernel file read into a calloc'd 1 MiB
 * buffer and passed NUL-terminated (no lengths), plain READ_WRITE
 * buffers filled with blocking writes, two kernels per level and a
 * one-byte "over" flag written and read back every iteration.
 * usage: bfs OUT   (writes the cost array to OUT)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_OF_NODES 120000
#define MAX_DEGREE 8
#define WORK_GROUP_SIZE 256

typedef struct {
	int starting;
	int no_of_edges;
} Node;

static cl_context context;
static cl_command_queue cmd_queue;
static cl_device_id *device_list;

static int initialize(void)
{
	cl_int result;
	size_t size;
	cl_platform_id platform_id;
	if (clGetPlatformIDs(1, &platform_id, NULL) != CL_SUCCESS) {
		printf("ERROR: clGetPlatformIDs(1,*,0) failed\n");
		return -1;
	}
	cl_context_properties ctxprop[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform_id, 0 };
	context = clCreateContextFromType(ctxprop, CL_DEVICE_TYPE_ALL, NULL, NULL, NULL);
	if (!context) {
		printf("ERROR: clCreateContextFromType failed\n");
		return -1;
	}
	result = clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, NULL, &size);
	int num_devices = (int)(size / sizeof(cl_device_id));
	if (result != CL_SUCCESS || num_devices < 1) {
		printf("ERROR: clGetContextInfo() failed\n");
		return -1;
	}
	device_list = malloc(sizeof(cl_device_id) * num_devices);
	result = clGetContextInfo(context, CL_CONTEXT_DEVICES, size, device_list, NULL);
	cmd_queue = clCreateCommandQueue(context, device_list[0], 0, NULL);
	if (!cmd_queue) {
		printf("ERROR: clCreateCommandQueue() failed\n");
		return -1;
	}
	return 0;
}

static unsigned int seed = 7;
static unsigned int rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) & 0xffffff;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s OUT\n", argv[0]);
		return 1;
	}
	int no_of_nodes = NO_OF_NODES;
	Node *h_graph_nodes = (Node *)malloc(sizeof(Node) * no_of_nodes);
	char *h_graph_mask = (char *)malloc(sizeof(char) * no_of_nodes);
	char *h_updating_graph_mask = (char *)malloc(sizeof(char) * no_of_nodes);
	char *h_graph_visited = (char *)malloc(sizeof(char) * no_of_nodes);
	int edge_list_size = 0;
	for (int i = 0; i < no_of_nodes; i++) {
		h_graph_nodes[i].starting = edge_list_size;
		h_graph_nodes[i].no_of_edges = 1 + rnd() % MAX_DEGREE;
		edge_list_size += h_graph_nodes[i].no_of_edges;
		h_graph_mask[i] = false;
		h_updating_graph_mask[i] = false;
		h_graph_visited[i] = false;
	}
	int *h_graph_edges = (int *)malloc(sizeof(int) * edge_list_size);
	for (int i = 0; i < edge_list_size; i++)
		h_graph_edges[i] = rnd() % no_of_nodes;
	int source = 0;
	h_graph_mask[source] = true;
	h_graph_visited[source] = true;
	int *h_cost = (int *)malloc(sizeof(int) * no_of_nodes);
	for (int i = 0; i < no_of_nodes; i++)
		h_cost[i] = -1;
	h_cost[source] = 0;

	if (initialize())
		return -1;

	/* Rodinia reads the kernel file into a 1 MiB zeroed buffer. */
	int sourcesize = 1024 * 1024;
	char *src = (char *)calloc(sourcesize, sizeof(char));
	FILE *fp = fopen("bfs.cl", "rb");
	if (!fp) {
		printf("ERROR: unable to open 'bfs.cl'\n");
		return -1;
	}
	fread(src + strlen(src), sourcesize, 1, fp);
	fclose(fp);
	const char *slist[2] = { src, 0 };
	cl_int err = 0;
	cl_program prog = clCreateProgramWithSource(context, 1, slist, NULL, &err);
	if (err != CL_SUCCESS) {
		printf("ERROR: clCreateProgramWithSource() => %d\n", err);
		return -1;
	}
	err = clBuildProgram(prog, 0, NULL, NULL, NULL, NULL);
	if (err != CL_SUCCESS) {
		static char log[65536];
		clGetProgramBuildInfo(prog, device_list[0], CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
		printf("ERROR: clBuildProgram() => %d\n%s\n", err, log);
		return -1;
	}
	cl_kernel kernel1 = clCreateKernel(prog, "BFS_1", &err);
	cl_kernel kernel2 = clCreateKernel(prog, "BFS_2", &err);
	if (err != CL_SUCCESS) {
		printf("ERROR: clCreateKernel() => %d\n", err);
		return -1;
	}
	clReleaseProgram(prog);

	cl_mem d_graph_nodes = clCreateBuffer(context, CL_MEM_READ_WRITE, no_of_nodes * sizeof(Node), NULL, &err);
	cl_mem d_graph_edges = clCreateBuffer(context, CL_MEM_READ_WRITE, edge_list_size * sizeof(int), NULL, &err);
	cl_mem d_graph_mask = clCreateBuffer(context, CL_MEM_READ_WRITE, no_of_nodes * sizeof(char), NULL, &err);
	cl_mem d_updating_graph_mask = clCreateBuffer(context, CL_MEM_READ_WRITE, no_of_nodes * sizeof(char), NULL, &err);
	cl_mem d_graph_visited = clCreateBuffer(context, CL_MEM_READ_WRITE, no_of_nodes * sizeof(char), NULL, &err);
	cl_mem d_cost = clCreateBuffer(context, CL_MEM_READ_WRITE, no_of_nodes * sizeof(int), NULL, &err);
	cl_mem d_over = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(char), NULL, &err);
	if (err != CL_SUCCESS) {
		printf("ERROR: clCreateBuffer() => %d\n", err);
		return -1;
	}
	clEnqueueWriteBuffer(cmd_queue, d_graph_nodes, 1, 0, no_of_nodes * sizeof(Node), h_graph_nodes, 0, 0, 0);
	clEnqueueWriteBuffer(cmd_queue, d_graph_edges, 1, 0, edge_list_size * sizeof(int), h_graph_edges, 0, 0, 0);
	clEnqueueWriteBuffer(cmd_queue, d_graph_mask, 1, 0, no_of_nodes * sizeof(char), h_graph_mask, 0, 0, 0);
	clEnqueueWriteBuffer(cmd_queue, d_updating_graph_mask, 1, 0, no_of_nodes * sizeof(char), h_updating_graph_mask, 0, 0, 0);
	clEnqueueWriteBuffer(cmd_queue, d_graph_visited, 1, 0, no_of_nodes * sizeof(char), h_graph_visited, 0, 0, 0);
	clEnqueueWriteBuffer(cmd_queue, d_cost, 1, 0, no_of_nodes * sizeof(int), h_cost, 0, 0, 0);

	size_t global_work[3] = { (size_t)(no_of_nodes + WORK_GROUP_SIZE - 1) / WORK_GROUP_SIZE * WORK_GROUP_SIZE, 1, 1 };
	size_t local_work[3] = { WORK_GROUP_SIZE, 1, 1 };
	clSetKernelArg(kernel1, 0, sizeof(void *), (void *)&d_graph_nodes);
	clSetKernelArg(kernel1, 1, sizeof(void *), (void *)&d_graph_edges);
	clSetKernelArg(kernel1, 2, sizeof(void *), (void *)&d_graph_mask);
	clSetKernelArg(kernel1, 3, sizeof(void *), (void *)&d_updating_graph_mask);
	clSetKernelArg(kernel1, 4, sizeof(void *), (void *)&d_graph_visited);
	clSetKernelArg(kernel1, 5, sizeof(void *), (void *)&d_cost);
	clSetKernelArg(kernel1, 6, sizeof(cl_int), (void *)&no_of_nodes);
	clSetKernelArg(kernel2, 0, sizeof(void *), (void *)&d_graph_mask);
	clSetKernelArg(kernel2, 1, sizeof(void *), (void *)&d_updating_graph_mask);
	clSetKernelArg(kernel2, 2, sizeof(void *), (void *)&d_graph_visited);
	clSetKernelArg(kernel2, 3, sizeof(void *), (void *)&d_over);
	clSetKernelArg(kernel2, 4, sizeof(cl_int), (void *)&no_of_nodes);

	char h_over;
	int levels = 0;
	do {
		h_over = false;
		err = clEnqueueWriteBuffer(cmd_queue, d_over, 1, 0, sizeof(char), &h_over, 0, 0, 0);
		if (err != CL_SUCCESS) {
			printf("ERROR: write d_over => %d\n", err);
			return -1;
		}
		err = clEnqueueNDRangeKernel(cmd_queue, kernel1, 1, 0, global_work, local_work, 0, 0, 0);
		if (err != CL_SUCCESS) {
			printf("ERROR: kernel1 => %d\n", err);
			return -1;
		}
		err = clEnqueueNDRangeKernel(cmd_queue, kernel2, 1, 0, global_work, local_work, 0, 0, 0);
		if (err != CL_SUCCESS) {
			printf("ERROR: kernel2 => %d\n", err);
			return -1;
		}
		err = clEnqueueReadBuffer(cmd_queue, d_over, 1, 0, sizeof(char), &h_over, 0, 0, 0);
		if (err != CL_SUCCESS) {
			printf("ERROR: read d_over => %d\n", err);
			return -1;
		}
		levels++;
	} while (h_over);
	clFinish(cmd_queue);
	err = clEnqueueReadBuffer(cmd_queue, d_cost, 1, 0, no_of_nodes * sizeof(int), h_cost, 0, 0, 0);
	if (err != CL_SUCCESS) {
		printf("ERROR: read d_cost => %d\n", err);
		return -1;
	}
	int reached = 0;
	for (int i = 0; i < no_of_nodes; i++)
		reached += h_cost[i] >= 0;
	printf("bfs: %d nodes, %d edges, %d levels, %d reached\n", no_of_nodes, edge_list_size, levels, reached);
	FILE *fpo = fopen(argv[1], "wb");
	if (!fpo || fwrite(h_cost, sizeof(int), no_of_nodes, fpo) != (size_t)no_of_nodes || fclose(fpo)) {
		printf("ERROR: cannot write %s\n", argv[1]);
		return -1;
	}

	clReleaseMemObject(d_graph_nodes);
	clReleaseMemObject(d_graph_edges);
	clReleaseMemObject(d_graph_mask);
	clReleaseMemObject(d_updating_graph_mask);
	clReleaseMemObject(d_graph_visited);
	clReleaseMemObject(d_cost);
	clReleaseMemObject(d_over);
	clReleaseKernel(kernel1);
	clReleaseKernel(kernel2);
	clReleaseCommandQueue(cmd_queue);
	clReleaseContext(context);
	free(device_list);
	free(src);
	free(h_graph_nodes);
	free(h_graph_edges);
	free(h_graph_mask);
	free(h_updating_graph_mask);
	free(h_graph_visited);
	free(h_cost);
	return 0;
}
