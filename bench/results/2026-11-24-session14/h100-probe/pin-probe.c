/* Pinning by ALLOC_HOST_PTR + map vs registering plain memory with a
 * USE_HOST_PTR buffer: the cost of pinning, and the rates of transfers
 * between a device buffer and that memory (clEnqueueWrite/ReadBuffer
 * with the pointer), against plain memory. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static cl_context c; static cl_command_queue q; static cl_mem dev;
static void rates(const char *what, char *p, size_t n, size_t piece){
	double best_w=1e9,best_r=1e9;
	for(int rep=0;rep<3;rep++){
		double t0=now();
		for(size_t o=0;o<n;o+=piece) clEnqueueWriteBuffer(q,dev,CL_FALSE,o,piece,p+o,0,NULL,NULL);
		clFinish(q);
		double t1=now();
		for(size_t o=0;o<n;o+=piece) clEnqueueReadBuffer(q,dev,CL_FALSE,o,piece,p+o,0,NULL,NULL);
		clFinish(q);
		double t2=now();
		if(t1-t0<best_w)best_w=t1-t0; if(t2-t1<best_r)best_r=t2-t1;
	}
	printf("  %-28s piece %4zu MiB: h2d %.1f GB/s d2h %.1f GB/s\n",what,piece>>20,n/best_w/1e9,n/best_r/1e9);
}
int main(void){
	cl_int err; cl_platform_id p[4]; cl_uint np; clGetPlatformIDs(4,p,&np);
	cl_device_id d; clGetDeviceIDs(p[0],CL_DEVICE_TYPE_GPU,1,&d,NULL);
	char name[256]; clGetDeviceInfo(d,CL_DEVICE_NAME,sizeof name,name,NULL); printf("device %s\n",name);
	c=clCreateContext(NULL,1,&d,NULL,NULL,&err);
	q=clCreateCommandQueue(c,d,0,&err);
	size_t sizes[2]={(size_t)128<<20,(size_t)1<<30};
	for(int si=0;si<2;si++){
		size_t n=sizes[si];
		dev=clCreateBuffer(c,CL_MEM_READ_WRITE,n,NULL,&err);
		clEnqueueFillBuffer(q,dev,"\0",1,0,n,0,NULL,NULL); clFinish(q);
		/* A: ALLOC_HOST_PTR + whole map */
		double t0=now();
		cl_mem a=clCreateBuffer(c,CL_MEM_READ_WRITE|CL_MEM_ALLOC_HOST_PTR,n,NULL,&err);
		char *pa=clEnqueueMapBuffer(q,a,CL_TRUE,CL_MAP_READ|CL_MAP_WRITE,0,n,0,NULL,NULL,&err);
		double t1=now();
		/* B: aligned plain memory, touched, registered */
		char *pb; posix_memalign((void**)&pb,2<<20,n); madvise(pb,n,MADV_HUGEPAGE);
		double t2=now();
		memset(pb,0,n);
		double t3=now();
		cl_mem b=clCreateBuffer(c,CL_MEM_READ_WRITE|CL_MEM_USE_HOST_PTR,n,pb,&err);
		void *pm=clEnqueueMapBuffer(q,b,CL_TRUE,CL_MAP_READ,0,4096,0,NULL,NULL,&err);
		clEnqueueUnmapMemObject(q,b,pm,0,NULL,NULL); clFinish(q);
		double t4=now();
		/* C: untouched aligned memory registered (the driver faults it in) */
		char *pc; posix_memalign((void**)&pc,2<<20,n); madvise(pc,n,MADV_HUGEPAGE);
		double t5=now();
		cl_mem cc=clCreateBuffer(c,CL_MEM_READ_WRITE|CL_MEM_USE_HOST_PTR,n,pc,&err);
		double t6=now();
		char *pd=malloc(n); memset(pd,0,n);
		printf("%zu MiB: alloc_host_ptr+map %.4f s; register touched: memset %.4f + create %.4f s (ptr same %d); register untouched create %.4f s (err %d)\n",
		       n>>20,t1-t0,t3-t2,t4-t3,pm==pb,t6-t5,err);
		rates("alloc_host_ptr mapping",pa,n,n);
		rates("alloc_host_ptr mapping",pa,n,32<<20);
		rates("registered (touched)",pb,n,n);
		rates("registered (touched)",pb,n,32<<20);
		rates("registered (untouched)",pc,n,32<<20);
		rates("plain malloc",pd,n,32<<20);
		clEnqueueUnmapMemObject(q,a,pa,0,NULL,NULL); clFinish(q);
		clReleaseMemObject(a); clReleaseMemObject(b); clReleaseMemObject(cc); clReleaseMemObject(dev);
		free(pb); free(pc); free(pd);
	}
	return 0;
}
