// SPDX-License-Identifier: MIT
// atx - y = A^T x for a row-major ROWS x COLS matrix, in the style of
// linear-algebra benchmark hosts: the kernel is a C++ raw string literal
// built with -D options. Work-item j walks column j of A, so each
// work-group reads a strip of WG columns from every row.
//
//   usage: atx ROWS COLS OUTFILE   (floats; COLS a multiple of 64)
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

static const char *source = R"CLC(
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void atx(__global const REAL *a, __global const REAL *x, __global REAL *y,
         int rows, int cols)
{
	int j = get_global_id(0);
	REAL acc = 0;
	for (int i = 0; i < rows; i++)
		acc += a[(size_t)i * cols + j] * x[i];
	y[j] = acc;
}
)CLC";

static const int wg = 64;

// Releases an OpenCL object when it goes out of scope.
template <typename T, cl_int (*Release)(T)> struct Handle {
	T h = nullptr;
	Handle() = default;
	explicit Handle(T v) : h(v) {}
	~Handle()
	{
		if (h)
			Release(h);
	}
	Handle(const Handle &) = delete;
	Handle &operator=(const Handle &) = delete;
	operator T() const { return h; }
};
using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Buffer = Handle<cl_mem, clReleaseMemObject>;

static void die(const std::string &what, cl_int err)
{
	std::cerr << "atx: " << what << " failed: " << err << "\n";
	std::exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		std::cerr << "usage: " << argv[0] << " ROWS COLS OUTFILE\n";
		return 2;
	}
	int rows = std::atoi(argv[1]), cols = std::atoi(argv[2]);
	if (rows <= 0 || cols <= 0 || cols % wg) {
		std::cerr << "atx: ROWS > 0 and COLS a positive multiple of " << wg << "\n";
		return 2;
	}
	size_t n = (size_t)rows * cols;
	std::unique_ptr<float[]> a(new float[n]);
	std::vector<float> x(rows), y(cols);
	unsigned seed = 2024;
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		a[i] = (float)((seed >> 12) % 512) / 256.0f;
	}
	for (int i = 0; i < rows; i++)
		x[i] = 1.0f / (float)(i + 1);

	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	if ((err = clGetPlatformIDs(1, &platform, nullptr)) != CL_SUCCESS)
		die("clGetPlatformIDs", err);
	if ((err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, nullptr)) != CL_SUCCESS)
		die("clGetDeviceIDs", err);
	Context ctx(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
	if (err != CL_SUCCESS)
		die("clCreateContext", err);
	Queue queue(clCreateCommandQueue(ctx, device, 0, &err));
	if (err != CL_SUCCESS)
		die("clCreateCommandQueue", err);
	Program prog(clCreateProgramWithSource(ctx, 1, &source, nullptr, &err));
	if (err != CL_SUCCESS)
		die("clCreateProgramWithSource", err);
	std::string opts = "-DREAL=float -DWG=" + std::to_string(wg) + " -cl-mad-enable";
	if ((err = clBuildProgram(prog, 1, &device, opts.c_str(), nullptr, nullptr)) != CL_SUCCESS) {
		std::vector<char> log(16384);
		clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
		std::cerr << "atx: build failed:\n" << log.data() << "\n";
		return 1;
	}
	Kernel k(clCreateKernel(prog, "atx", &err));
	if (err != CL_SUCCESS)
		die("clCreateKernel", err);
	Buffer da(clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
	                         a.get(), &err));
	if (err != CL_SUCCESS)
		die("clCreateBuffer", err);
	Buffer dx(clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rows * sizeof(float),
	                         x.data(), &err));
	if (err != CL_SUCCESS)
		die("clCreateBuffer", err);
	Buffer dy(clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, cols * sizeof(float), nullptr, &err));
	if (err != CL_SUCCESS)
		die("clCreateBuffer", err);

	cl_mem args[3] = { da, dx, dy };
	for (cl_uint i = 0; i < 3; i++)
		clSetKernelArg(k, i, sizeof(cl_mem), &args[i]);
	clSetKernelArg(k, 3, sizeof(int), &rows);
	clSetKernelArg(k, 4, sizeof(int), &cols);
	size_t global = (size_t)cols, local = wg;
	if ((err = clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr,
	                                  nullptr)) != CL_SUCCESS)
		die("clEnqueueNDRangeKernel", err);
	if ((err = clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, cols * sizeof(float), y.data(), 0,
	                               nullptr, nullptr)) != CL_SUCCESS)
		die("clEnqueueReadBuffer", err);

	FILE *out = std::fopen(argv[3], "wb");
	if (!out || std::fwrite(y.data(), sizeof(float), y.size(), out) != y.size() ||
	    std::fclose(out) != 0) {
		std::perror(argv[3]);
		return 1;
	}
	std::cout << "atx: " << rows << "x" << cols << ", y[0] = " << y[0] << std::endl;
	return 0;
}
