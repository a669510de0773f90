// The slice of <objc/objc.h> Fanout's Apple code uses, written for this mock SDK.
#ifndef FANOUT_MOCK_OBJC_H
#define FANOUT_MOCK_OBJC_H

typedef struct objc_class *Class;
typedef struct objc_object *id;
typedef struct objc_selector *SEL;
// BOOL as on macOS x86-64; the importer maps it to ObjCBool, then Bool (the overlay's conversions).
typedef signed char BOOL;
typedef unsigned long NSUInteger;
typedef long NSInteger;

#define YES ((BOOL)1)
#define NO ((BOOL)0)
#define nil ((id)0)

#endif
