#include "FanoutSupport.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FANOUT_TSAN 1
#endif
#endif

#ifdef FANOUT_TSAN
void __tsan_acquire(void *address);
void __tsan_release(void *address);
void fanout_sanitizer_acquire(const void *address) { __tsan_acquire((void *)address); }
void fanout_sanitizer_release(const void *address) { __tsan_release((void *)address); }
#else
void fanout_sanitizer_acquire(const void *address) { (void)address; }
void fanout_sanitizer_release(const void *address) { (void)address; }
#endif
