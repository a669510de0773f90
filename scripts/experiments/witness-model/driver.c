#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void run(long n, void *mux, void (*w)(void), void *sv);
void run_c(long n, void *arr, void *sv);
void w_full(void), w_nojt(void), w_nopin(void), w_bare(void), w_st(void), w_depth(void), w_one(void), w_ldst(void), w_pinonly(void), w_depthjt(void), w_onejt(void), w_tag(void), w_chain1(void), w_chain6(void), w_tree(void), w_tagtree(void), w_tagchain6(void), w_outer(void), w_outerjt(void), w_outertree(void), w_outerchain6(void), w_outerjtjmp(void), w_outerq(void), w_outerl(void), w_outerfar(void), target_fn(void), c_target(void);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
  char *mux=calloc(1,64), *storage=calloc(1,128), *array=calloc(1,128), *target=calloc(1,64); void **wt=calloc(1,64);
  wt[1]=(void*)target_fn; *(void**)(mux+0x10)=storage; *(void**)(storage+0x10)=array; *(long*)(array+0x10)=1;
  *(long*)(array+0x28)=1; *(void**)(array+0x30)=target; *(void**)(array+0x38)=wt;
  void **carr=calloc(1,64); long *ct=calloc(1,64); carr[0]=ct; carr[1]=(void*)c_target;
  void (*fs[])(void)={w_full,w_nojt,w_nopin,w_bare,w_st,w_depth,w_one,w_ldst,w_pinonly,w_depthjt,w_onejt,w_tag,w_chain1,w_chain6,w_tree,w_tagtree,w_tagchain6,w_outer,w_outerjt,w_outertree,w_outerchain6,w_outerjtjmp,w_outerq,w_outerl,w_outerfar}; int k=atoi(argv[1]);
  long n=2000000; double best=1e9;
  for(int r=0;r<30;r++){ double s=now(); if(k<0) run_c(n,carr,0); else run(n,mux,fs[k],0); double ns=(now()-s)/n; if(ns<best)best=ns; }
  printf("%.1f\n", best*3.55);
}
