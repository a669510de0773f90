#include "FanoutSupport.h"

#include <pthread.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

void fanout_registry_lock(void) { pthread_mutex_lock(&registry_lock); }

void fanout_registry_unlock(void) { pthread_mutex_unlock(&registry_lock); }
