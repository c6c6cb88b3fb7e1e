// SPDX-License-Identifier: MIT
// A C++ host (issue 11 item 3): new[], std::vector, iostream, exceptions;
// the kernels are read from a file at run time, as programs do.
// usage: app OUT SAXPY.cl [N]; OUT receives z's bytes.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

static void check(cl_int err, const char *what)
{
	if (err != CL_SUCCESS)
		throw std::runtime_error(std::string(what) + " = " + std::to_string(err));
}

int main(int argc, char **argv)
try {
	if (argc < 3) {
		std::cerr << "usage: app OUT SAXPY.cl [N]\n";
		return 2;
	}
	cl_uint n = argc > 3 ? (cl_uint)std::stoul(argv[3]) : 1u << 20;
	std::ifstream in(argv[2]);
	std::stringstream ss;
	ss << in.rdbuf();
	std::string src = ss.str();
	if (src.empty())
		throw std::runtime_error(std::string("cannot read ") + argv[2]);

	std::vector<float> x(n);
	float *y = new float[n];
	std::vector<float> z(n);
	for (cl_uint i = 0; i < n; i++) {
		x[i] = (float)(i % 1000) * 0.25f;
		y[i] = (float)((i * 7) % 513) - 256.0f;
	}

	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	check(clGetPlatformIDs(1, &plat, nullptr), "clGetPlatformIDs");
	check(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr), "clGetDeviceIDs");
	cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
	check(err, "clCreateContext");
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	check(err, "clCreateCommandQueue");
	const char *text = src.c_str();
	size_t len = src.size();
	cl_program prog = clCreateProgramWithSource(ctx, 1, &text, &len, &err);
	check(err, "clCreateProgramWithSource");
	check(clBuildProgram(prog, 1, &dev, nullptr, nullptr, nullptr), "clBuildProgram");
	cl_kernel saxpy = clCreateKernel(prog, "saxpy", &err);
	check(err, "clCreateKernel saxpy");
	cl_kernel pairs = clCreateKernel(prog, "pairs", &err);
	check(err, "clCreateKernel pairs");

	size_t bytes = n * sizeof(float);
	cl_mem dx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, x.data(), &err);
	check(err, "clCreateBuffer x");
	cl_mem dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, y, &err);
	check(err, "clCreateBuffer y");
	cl_mem dz = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
	check(err, "clCreateBuffer z");
	float a = 1.5f;
	check(clSetKernelArg(saxpy, 0, sizeof a, &a), "arg");
	check(clSetKernelArg(saxpy, 1, sizeof dx, &dx), "arg");
	check(clSetKernelArg(saxpy, 2, sizeof dy, &dy), "arg");
	check(clSetKernelArg(saxpy, 3, sizeof n, &n), "arg");
	check(clSetKernelArg(pairs, 0, sizeof dy, &dy), "arg");
	check(clSetKernelArg(pairs, 1, sizeof dz, &dz), "arg");
	check(clSetKernelArg(pairs, 2, sizeof n, &n), "arg");
	size_t local = 64, global = (n + local - 1) / local * local;
	check(clEnqueueNDRangeKernel(q, saxpy, 1, nullptr, &global, &local, 0, nullptr, nullptr), "saxpy");
	check(clEnqueueNDRangeKernel(q, pairs, 1, nullptr, &global, &local, 0, nullptr, nullptr), "pairs");
	check(clEnqueueReadBuffer(q, dz, CL_TRUE, 0, bytes, z.data(), 0, nullptr, nullptr), "read z");

	std::ofstream out(argv[1], std::ios::binary);
	out.write(reinterpret_cast<const char *>(z.data()), (std::streamsize)bytes);
	if (!out)
		throw std::runtime_error(std::string("cannot write ") + argv[1]);

	clReleaseMemObject(dx);
	clReleaseMemObject(dy);
	clReleaseMemObject(dz);
	clReleaseKernel(saxpy);
	clReleaseKernel(pairs);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	delete[] y;
	std::cout << "saxpy: n=" << n << " ok\n";
	return 0;
} catch (const std::exception &e) {
	std::cerr << "saxpy: " << e.what() << "\n";
	return 1;
}
