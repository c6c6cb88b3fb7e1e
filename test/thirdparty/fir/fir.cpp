// SPDX-License-Identifier: MIT
// fir - a FIR filter over a long signal, written in the C++ style of SDK
// samples: std::vector and new[]/delete[] for host data, a small RAII class
// around the OpenCL objects, the kernel file read with std::ifstream from
// the executable's directory and built with -D options.
//
//   usage: fir N OUTFILE      (N output samples of float)
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

static const int taps = 17;

static void check(cl_int err, const char *what)
{
	if (err != CL_SUCCESS)
		throw std::runtime_error(std::string(what) + " failed: " + std::to_string(err));
}

// Owns one OpenCL context, queue and program; released in reverse order.
class Session {
public:
	Session(const std::string &source, const std::string &options)
	{
		cl_platform_id platform;
		cl_int err;
		check(clGetPlatformIDs(1, &platform, nullptr), "clGetPlatformIDs");
		check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device_, nullptr),
		      "clGetDeviceIDs");
		ctx_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
		check(err, "clCreateContext");
		queue_ = clCreateCommandQueue(ctx_, device_, 0, &err);
		check(err, "clCreateCommandQueue");
		const char *text = source.c_str();
		size_t len = source.size();
		prog_ = clCreateProgramWithSource(ctx_, 1, &text, &len, &err);
		check(err, "clCreateProgramWithSource");
		if (clBuildProgram(prog_, 1, &device_, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
			std::vector<char> log(16384);
			clGetProgramBuildInfo(prog_, device_, CL_PROGRAM_BUILD_LOG, log.size(),
			                      log.data(), nullptr);
			throw std::runtime_error(std::string("build failed:\n") + log.data());
		}
	}
	~Session()
	{
		clReleaseProgram(prog_);
		clReleaseCommandQueue(queue_);
		clReleaseContext(ctx_);
	}
	Session(const Session &) = delete;
	Session &operator=(const Session &) = delete;

	cl_mem buffer(cl_mem_flags flags, size_t bytes, void *host = nullptr)
	{
		cl_int err;
		cl_mem m = clCreateBuffer(ctx_, flags, bytes, host, &err);
		check(err, "clCreateBuffer");
		mems_.push_back(m);
		return m;
	}
	cl_kernel kernel(const char *name)
	{
		cl_int err;
		cl_kernel k = clCreateKernel(prog_, name, &err);
		check(err, "clCreateKernel");
		return k;
	}
	cl_command_queue queue() const { return queue_; }
	void release_buffers()
	{
		for (cl_mem m : mems_)
			clReleaseMemObject(m);
		mems_.clear();
	}

private:
	cl_device_id device_;
	cl_context ctx_;
	cl_command_queue queue_;
	cl_program prog_;
	std::vector<cl_mem> mems_;
};

static std::string read_kernel(const char *argv0, const char *name)
{
	std::string dir(argv0);
	size_t slash = dir.rfind('/');
	dir = slash == std::string::npos ? "." : dir.substr(0, slash);
	std::ifstream in(dir + "/" + name, std::ios::binary);
	if (!in)
		throw std::runtime_error("cannot open " + dir + "/" + name);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		std::cerr << "usage: " << argv[0] << " N OUTFILE\n";
		return 2;
	}
	cl_uint n = (cl_uint)std::strtoul(argv[1], nullptr, 10);
	if (n == 0 || n % 256) {
		std::cerr << "fir: N must be a positive multiple of 256\n";
		return 2;
	}
	try {
		std::vector<float> x(n + taps - 1);
		unsigned seed = 99;
		for (float &v : x) {
			seed = seed * 22695477u + 1u;
			v = (float)((seed >> 9) % 2001) / 1000.0f - 1.0f;
		}
		float *w = new float[taps];
		for (int k = 0; k < taps; k++)
			w[k] = 1.0f / (float)(k + 2);

		Session s(read_kernel(argv[0], "fir.cl"),
		          "-cl-std=CL1.2 -DTYPE=float -DTAPS=" + std::to_string(taps));
		cl_mem dx = s.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size() * sizeof(float),
		                     x.data());
		cl_mem dw = s.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps * sizeof(float), w);
		cl_mem dy = s.buffer(CL_MEM_WRITE_ONLY, (size_t)n * sizeof(float));
		cl_kernel k = s.kernel("fir");
		check(clSetKernelArg(k, 0, sizeof dx, &dx), "clSetKernelArg");
		check(clSetKernelArg(k, 1, sizeof dw, &dw), "clSetKernelArg");
		check(clSetKernelArg(k, 2, sizeof dy, &dy), "clSetKernelArg");
		check(clSetKernelArg(k, 3, sizeof n, &n), "clSetKernelArg");
		size_t global = n, local = 256;
		check(clEnqueueNDRangeKernel(s.queue(), k, 1, nullptr, &global, &local, 0, nullptr,
		                             nullptr), "clEnqueueNDRangeKernel");
		std::vector<float> y(n);
		check(clEnqueueReadBuffer(s.queue(), dy, CL_TRUE, 0, n * sizeof(float), y.data(), 0,
		                          nullptr, nullptr), "clEnqueueReadBuffer");
		clReleaseKernel(k);
		s.release_buffers();
		delete[] w;

		std::ofstream out(argv[2], std::ios::binary);
		out.write(reinterpret_cast<const char *>(y.data()), (std::streamsize)(n * sizeof(float)));
		out.close();
		if (!out)
			throw std::runtime_error(std::string("cannot write ") + argv[2]);
		std::cout << "fir: " << n << " samples, y[0] = " << y[0] << "\n";
	} catch (const std::exception &e) {
		std::cerr << "fir: " << e.what() << "\n";
		return 1;
	}
	return 0;
}
