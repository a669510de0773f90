// Selectors by name, as the Objective-C runtime registers them.
#ifndef FANOUT_MOCK_OBJC_RUNTIME_H
#define FANOUT_MOCK_OBJC_RUNTIME_H
#include "objc.h"

SEL _Nonnull sel_registerName(const char * _Nonnull name);
const char * _Nonnull sel_getName(SEL _Nonnull selector);

#endif
