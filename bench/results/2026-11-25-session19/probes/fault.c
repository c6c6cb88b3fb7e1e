#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
typedef struct { unsigned char *d; const unsigned char *s; size_t n; int op; } part;
static void *run(void *p){ part *q=p; if(q->op==0) memcpy(q->d,q->s,q->n); else if (q->op==1) { unsigned long b=((unsigned long)q->d+4095)&~4095ul, e=((unsigned long)q->d+q->n)&~4095ul; if (b<e && madvise((void*)b,e-b,MADV_POPULATE_WRITE)) perror("populate"); } return NULL; }
static void par(unsigned char *d,const unsigned char *s,size_t n,int T,int op){ pthread_t t[64]; part p[64]; size_t sh=(n/T+4095)&~4095ul; int k=0; for(size_t o=0;o<n&&k<T;o+=sh,k++){p[k]=(part){d+o,s?s+o:NULL,o+sh>n?n-o:sh,op}; pthread_create(&t[k],NULL,run,&p[k]);} for(int i=0;i<k;i++) pthread_join(t[i],NULL);}
static void advise(void *p,size_t n){ unsigned long b=((unsigned long)p+(2<<20)-1)&~((2ul<<20)-1), e=((unsigned long)p+n)&~((2ul<<20)-1); madvise((void*)b,e-b,MADV_HUGEPAGE);}
static long anonhuge(void){ FILE *f=fopen("/proc/self/smaps_rollup","r"); char l[256]; long v=-1; while(f&&fgets(l,sizeof l,f)) if(!strncmp(l,"AnonHugePages:",14)) v=atol(l+14); if(f) fclose(f); return v/1024; }
int main(int argc,char**argv){
  size_t n=(size_t)4300<<20; int T=16;
  unsigned char *src=malloc(n); memset(src,1,n);
  for(int rep=0;rep<2;rep++){
  unsigned char *d=malloc(n); advise(d,n); long h0=anonhuge();
  double t=now(); par(d,src,n,T,0); t=now()-t; printf("fresh copy (malloc+advise): %.1f GB/s hugeMiB +%ld\n",n/t/1e9,anonhuge()-h0);
  unsigned char *e=malloc(n); advise(e,n); h0=anonhuge();
  t=now(); par(e,NULL,n,T,1); double t1=now()-t; long h1=anonhuge()-h0;
  t=now(); par(e,src,n,T,0); double t2=now()-t;
  printf("populate: %.1f GB/s (huge MiB %ld), then copy %.1f GB/s\n",n/t1/1e9,h1,n/t2/1e9);
  unsigned char *g=malloc(n); h0=anonhuge();
  t=now(); par(g,src,n,T,0); t=now()-t; printf("fresh copy no advise: %.1f GB/s huge +%ld\n",n/t/1e9,anonhuge()-h0);
  free(d); free(e); free(g);
  }
  return 0;
}
