#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
typedef struct { char *d; const char *s; size_t n; } job;
static void *run(void *p){ job *j=p; memcpy(j->d,j->s,j->n); return NULL; }
static double par_copy(char *d, const char *s, size_t n, int t){
	pthread_t tid[64]; job j[64]; double t0=now();
	for(int i=0;i<t;i++){ j[i]=(job){d+n*i/t, s+n*i/t, n*(i+1)/t-n*i/t}; pthread_create(&tid[i],NULL,run,&j[i]); }
	for(int i=0;i<t;i++) pthread_join(tid[i],NULL);
	return now()-t0;
}
int main(void){
	size_t n=(size_t)1<<30;
	char *src=malloc(n); memset(src,3,n);
	for(int mode=0;mode<3;mode++) for(int t=1;t<=16;t*=4){
		char *d=malloc(n);
		if(mode==1){ uintptr_t a=((uintptr_t)d+(2<<20)-1)&~(uintptr_t)((2<<20)-1); madvise((void*)a,n-(a-(uintptr_t)d)-(2<<20),MADV_HUGEPAGE); }
		if(mode==2){ par_copy(d,src,n,t); }
		double s=par_copy(d,src,n,t);
		printf("%s threads %2d: %.1f GB/s\n", mode==0?"fresh    ":mode==1?"fresh+THP":"touched  ", t, n/s/1e9);
		free(d);
	}
	return 0;
}
